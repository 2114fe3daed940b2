/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/cfg: rates in any unit, resolved to bit/s at set-up (see cfg.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_priv.h"

/*
 * The unit of a rate after its number: its kind and the value of one unit
 * (bit/s, packets/s or ppb of the line rate). 0, or -1 for an unknown unit.
 */
static int
cfg_rate_unit_of(const char *u, uint64_t *mult, enum cfg_rate_unit *unit)
{
	static const char *const bits[] = {"bit", "bit/s", "bps", "b/s", NULL};
	static const char *const bytes[] = {"B/s", "Bps", "Byte/s", "byte/s", NULL};
	static const char *const pkts[] = {"pps", "pkt/s", NULL};
	static const char prefixes[] = "kKmMgGtT";
	const char *pre = u[0] != '\0' ? strchr(prefixes, u[0]) : NULL;
	uint64_t m = 1;
	int iec = 0, i, e;

	if (strcmp(u, "%") == 0) {
		*unit = CFG_RATE_LINE;
		*mult = CFG_RATIO_ONE / 100;
		return 0;
	}
	if (pre != NULL) {
		e = (int)(pre - prefixes) / 2 + 1;
		iec = u[1] == 'i';
		for (i = 0; i < e; i++)
			m *= iec ? 1024 : 1000;
		u += iec ? 2 : 1;
		if (*u == '\0' && !iec) { /* "10G": bits with the prefix alone */
			*unit = CFG_RATE_BPS;
			*mult = m;
			return 0;
		}
	}
	for (i = 0; bits[i] != NULL; i++)
		if (strcmp(u, bits[i]) == 0) {
			*unit = CFG_RATE_BPS;
			*mult = m;
			return 0;
		}
	for (i = 0; bytes[i] != NULL; i++)
		if (strcmp(u, bytes[i]) == 0) {
			*unit = CFG_RATE_BPS;
			*mult = m * 8;
			return 0;
		}
	for (i = 0; pkts[i] != NULL && !iec; i++)
		if (strcasecmp(u, pkts[i]) == 0) {
			*unit = CFG_RATE_PPS;
			*mult = m;
			return 0;
		}
	return -1;
}

#define CFG_RATE_WHAT "a rate such as 10G, 500Mbit, 1Mpps or 50%"

int
cfg_parse_rate_any(const char *s, struct cfg_rate *out, char *err, size_t errlen)
{
	char buf[CFG_MAX_INPUT];
	enum cfg_rate_unit unit = CFG_RATE_BPS;
	cfg_u128 mant, v;
	unsigned int fd;
	uint64_t mult = 1;
	const char *suffix;
	size_t n;
	int rc, overflow;

	rc = cfg_trim(s, buf, sizeof(buf), CFG_RATE_WHAT, err, errlen);
	if (rc < 0)
		return rc;
	if (buf[0] == '-')
		return cfg_fail(-ERANGE, err, errlen,
				"expected %s; a rate cannot be negative (\"%s\")", CFG_RATE_WHAT, buf);
	n = cfg_decimal(buf, &mant, &fd, &overflow);
	if (n == 0)
		return cfg_fail(-EINVAL, err, errlen,
				"expected %s; \"%s\" does not start with a number", CFG_RATE_WHAT, buf);
	for (suffix = buf + n; *suffix == ' ' || *suffix == '\t'; suffix++)
		;
	if (*suffix != '\0' && cfg_rate_unit_of(suffix, &mult, &unit) < 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; unknown unit \"%s\" in \"%s\"",
				CFG_RATE_WHAT, suffix, buf);
	if (overflow)
		return cfg_fail(-ERANGE, err, errlen,
				"expected %s; \"%s\" is too large or too precise", CFG_RATE_WHAT, buf);
	if (mant > (~(cfg_u128)0) / mult || mant * mult / cfg_pow10(fd) > UINT64_MAX)
		return cfg_fail(-ERANGE, err, errlen, "expected %s; \"%s\" is too large",
				CFG_RATE_WHAT, buf);
	v = mant * mult;
	if (v % cfg_pow10(fd) != 0)
		return cfg_fail(-EINVAL, err, errlen,
				"expected %s; \"%s\" is not a whole number of %s",
				CFG_RATE_WHAT, buf, unit == CFG_RATE_BPS ? "bit/s" :
				unit == CFG_RATE_PPS ? "packets/s" : "parts per billion (1e-7 %)");
	v /= cfg_pow10(fd);
	if (unit == CFG_RATE_PPS && v == 0)
		return cfg_fail(-ERANGE, err, errlen,
				"a packet rate must be at least 1 pkt/s; got \"%s\"", buf);
	if (unit == CFG_RATE_LINE && (v == 0 || v > CFG_RATIO_ONE))
		return cfg_fail(-ERANGE, err, errlen,
				"a share of the line rate must be above 0%% and at most 100%%; "
				"got \"%s\"", buf);
	out->value = (uint64_t)v;
	out->unit = unit;
	return 0;
}

int
cfg_rate_resolve(const struct cfg_rate *r, uint64_t frame_l1_bytes, uint64_t line_bps,
		uint64_t *out_bps, char *err, size_t errlen)
{
	char what[48];
	cfg_u128 v;

	cfg_rate_str(r, what, sizeof(what));
	switch (r->unit) {
	case CFG_RATE_BPS:
		*out_bps = r->value;
		return 0;
	case CFG_RATE_PPS:
		if (frame_l1_bytes == 0)
			return cfg_fail(-EINVAL, err, errlen, "a packet rate needs a frame "
					"size; give bit/s (%s here; e.g. 10G or 500Mbit)", what);
		v = (cfg_u128)r->value * frame_l1_bytes * 8;
		break;
	case CFG_RATE_LINE:
		if (line_bps == 0)
			return cfg_fail(-EINVAL, err, errlen, "a share of the line rate needs the "
					"port's link speed, which is unknown; give bit/s or pps "
					"(%s here)", what);
		v = (cfg_u128)line_bps * r->value / CFG_RATIO_ONE;
		break;
	default:
		return cfg_fail(-EINVAL, err, errlen, "unknown rate unit %d", (int)r->unit);
	}
	if (v == 0 || v > UINT64_MAX)
		return cfg_fail(-ERANGE, err, errlen, "%s is %s bit/s", what,
				v == 0 ? "below 1" : "over 2^64 - 1");
	*out_bps = (uint64_t)v;
	return 0;
}

void
cfg_rate_str(const struct cfg_rate *r, char *buf, size_t len)
{
	/* a share in percent: 1 % is CFG_RATIO_ONE / 100 ppb, 7 decimals */
	uint64_t pct = CFG_RATIO_ONE / 100, whole = r->value / pct, frac = r->value % pct;
	int digits = 7;

	if (r->unit == CFG_RATE_PPS) {
		snprintf(buf, len, "%" PRIu64 " pkt/s", r->value);
	} else if (r->unit == CFG_RATE_LINE) {
		while (frac != 0 && frac % 10 == 0) {
			frac /= 10;
			digits--;
		}
		if (frac == 0)
			snprintf(buf, len, "%" PRIu64 "%%", whole);
		else
			snprintf(buf, len, "%" PRIu64 ".%0*" PRIu64 "%%", whole, digits, frac);
	} else {
		snprintf(buf, len, "%" PRIu64 " bit/s", r->value);
	}
}

int
cfg_parse_rate(const char *s, uint64_t min, uint64_t max, uint64_t *out_bps, char *err,
		size_t errlen)
{
	struct cfg_rate r;
	int rc;

	rc = cfg_parse_rate_any(s, &r, err, errlen);
	if (rc < 0)
		return rc;
	if (r.unit == CFG_RATE_PPS)
		return cfg_fail(-EINVAL, err, errlen, "a packet rate needs a frame size; give "
				"bit/s (\"%s\" here; e.g. 10G or 500Mbit)", s);
	if (r.unit == CFG_RATE_LINE)
		return cfg_fail(-EINVAL, err, errlen, "a share of the line rate needs a port's "
				"link speed; give bit/s (\"%s\" here; e.g. 10G or 500Mbit)", s);
	if (r.value < min || r.value > max)
		return cfg_fail(-ERANGE, err, errlen, "expected a rate between %" PRIu64 " and %"
				PRIu64 " bit/s; got \"%s\"", min, max, s);
	*out_bps = r.value;
	return 0;
}
