/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/cfg: configuration value parsers (see cfg.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_priv.h"

#define CFG_MAX_FRAC_DIGITS 18

int
cfg_fail(int rc, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int
cfg_trim(const char *s, char *buf, size_t buflen, const char *what, char *err, size_t errlen)
{
	size_t n;

	if (s == NULL)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; got nothing", what);
	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n == 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; got an empty value", what);
	if (n >= buflen)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; value too long (%zu characters)",
				what, n);
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

size_t
cfg_decimal(const char *s, cfg_u128 *mant, unsigned int *frac_digits, int *overflow)
{
	const char *p = s;
	cfg_u128 m = 0;
	unsigned int fd = 0;
	int in_frac = 0, digits = 0;

	*overflow = 0;
	for (;; p++) {
		if (*p >= '0' && *p <= '9') {
			if (m > ((cfg_u128)UINT64_MAX * 1000000000ull))
				*overflow = 1;
			else
				m = m * 10 + (unsigned int)(*p - '0');
			digits++;
			if (in_frac)
				fd++;
		} else if (*p == '.' && !in_frac && digits > 0 && p[1] >= '0' && p[1] <= '9') {
			in_frac = 1;
		} else {
			break;
		}
	}
	if (digits == 0)
		return 0;
	if (fd > CFG_MAX_FRAC_DIGITS)
		*overflow = 1;
	*mant = m;
	*frac_digits = fd;
	return (size_t)(p - s);
}

cfg_u128
cfg_pow10(unsigned int n)
{
	cfg_u128 r = 1;

	while (n--)
		r *= 10;
	return r;
}

struct cfg_unit {
	const char *name;
	uint64_t mult; /* value of one unit in the base unit */
	int case_sensitive;
};

/*
 * Shared body of the unit-bearing parsers: number, optional unit from the
 * table, exact conversion, range check.
 */
static int
cfg_parse_units(const char *s, const struct cfg_unit *units, uint64_t bare_mult, uint64_t min,
		uint64_t max, uint64_t *out, const char *what, const char *base, char *err,
		size_t errlen)
{
	char buf[CFG_MAX_INPUT];
	cfg_u128 mant, div, v;
	unsigned int fd;
	uint64_t mult = 0;
	const char *suffix;
	size_t n;
	int rc, overflow;

	rc = cfg_trim(s, buf, sizeof(buf), what, err, errlen);
	if (rc < 0)
		return rc;
	n = cfg_decimal(buf, &mant, &fd, &overflow);
	if (n == 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; \"%s\" does not start with a number",
				what, buf);
	suffix = buf + n;
	while (*suffix == ' ' || *suffix == '\t')
		suffix++;
	if (*suffix == '\0') {
		if (bare_mult == 0)
			return cfg_fail(-EINVAL, err, errlen, "expected %s; \"%s\" has no unit", what,
					buf);
		mult = bare_mult;
	} else {
		const struct cfg_unit *u;

		for (u = units; u->name != NULL; u++) {
			if (u->case_sensitive ? strcmp(suffix, u->name) == 0 :
						strcasecmp(suffix, u->name) == 0) {
				mult = u->mult;
				break;
			}
		}
		if (mult == 0)
			return cfg_fail(-EINVAL, err, errlen, "expected %s; unknown unit \"%s\" in \"%s\"",
					what, suffix, buf);
	}
	if (overflow)
		return cfg_fail(-ERANGE, err, errlen, "expected %s; \"%s\" is too large or too precise",
				what, buf);
	div = cfg_pow10(fd);
	v = mant * (cfg_u128)mult;
	if (mant != 0 && v / mult != mant)
		return cfg_fail(-ERANGE, err, errlen, "expected %s; \"%s\" is too large", what, buf);
	if (v % div != 0)
		return cfg_fail(-EINVAL, err, errlen,
				"expected %s; \"%s\" is not a whole number of %s", what, buf, base);
	v /= div;
	if (v > UINT64_MAX || (uint64_t)v < min || (uint64_t)v > max)
		return cfg_fail(-ERANGE, err, errlen,
				"expected %s between %" PRIu64 " and %" PRIu64 " %s; got \"%s\"", what,
				min, max, base, buf);
	*out = (uint64_t)v;
	return 0;
}

int
cfg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
	char buf[CFG_MAX_INPUT];
	const char *p;
	uint64_t v = 0;
	unsigned int base = 10, d;
	int rc;

	rc = cfg_trim(s, buf, sizeof(buf), "an unsigned integer", err, errlen);
	if (rc < 0)
		return rc;
	p = buf;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (*p == '\0')
		return cfg_fail(-EINVAL, err, errlen, "expected an unsigned integer; got \"%s\"", buf);
	for (; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			return cfg_fail(-EINVAL, err, errlen,
					"expected an unsigned integer; unexpected '%c' in \"%s\"", *p,
					buf);
		if (v > (UINT64_MAX - d) / base)
			return cfg_fail(-ERANGE, err, errlen,
					"expected an integer between %" PRIu64 " and %" PRIu64
					"; \"%s\" is too large",
					min, max, buf);
		v = v * base + d;
	}
	if (v < min || v > max)
		return cfg_fail(-ERANGE, err, errlen,
				"expected an integer between %" PRIu64 " and %" PRIu64 "; got %s", min,
				max, buf);
	*out = v;
	return 0;
}

int
cfg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out, char *err, size_t errlen)
{
	uint64_t v;
	int rc;

	rc = cfg_parse_u64(s, min, max, &v, err, errlen);
	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

int
cfg_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out, char *err, size_t errlen)
{
	char buf[CFG_MAX_INPUT];
	const char *p;
	uint64_t mag = 0, lim;
	int neg = 0, rc;

	rc = cfg_trim(s, buf, sizeof(buf), "an integer", err, errlen);
	if (rc < 0)
		return rc;
	p = buf;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (*p == '\0')
		return cfg_fail(-EINVAL, err, errlen, "expected an integer; got \"%s\"", buf);
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (; *p != '\0'; p++) {
		unsigned int d;

		if (*p < '0' || *p > '9')
			return cfg_fail(-EINVAL, err, errlen,
					"expected an integer; unexpected '%c' in \"%s\"", *p, buf);
		d = (unsigned int)(*p - '0');
		if (mag > (lim - d) / 10)
			return cfg_fail(-ERANGE, err, errlen,
					"expected an integer between %" PRId64 " and %" PRId64
					"; \"%s\" is out of range",
					min, max, buf);
		mag = mag * 10 + d;
	}
	{
		int64_t v = neg ? (mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag) :
				  (int64_t)mag;

		if (v < min || v > max)
			return cfg_fail(-ERANGE, err, errlen,
					"expected an integer between %" PRId64 " and %" PRId64
					"; got %s",
					min, max, buf);
		*out = v;
	}
	return 0;
}

int
cfg_parse_bool(const char *s, int *out, char *err, size_t errlen)
{
	static const char *const yes[] = {"on", "yes", "true", "1", "enable", "enabled", NULL};
	static const char *const no[] = {"off", "no", "false", "0", "disable", "disabled", NULL};
	char buf[32];
	int i, rc;

	rc = cfg_trim(s, buf, sizeof(buf), "a boolean (on/off, yes/no, true/false, 1/0)", err,
			errlen);
	if (rc < 0)
		return rc;
	for (i = 0; yes[i] != NULL; i++) {
		if (strcasecmp(buf, yes[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(buf, no[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return cfg_fail(-EINVAL, err, errlen,
			"expected a boolean (on/off, yes/no, true/false, 1/0); got \"%s\"", buf);
}

#define K1 1000ull
#define M1 1000000ull
#define G1 1000000000ull
#define T1 1000000000000ull

int
cfg_parse_time(const char *s, uint64_t default_unit_ns, uint64_t min_ns, uint64_t max_ns,
		uint64_t *out_ns, char *err, size_t errlen)
{
	static const struct cfg_unit units[] = {
		{"ns", 1, 0}, {"us", K1, 0}, {"\xc2\xb5s", K1, 1}, {"ms", M1, 0}, {"s", G1, 0},
		{"sec", G1, 0}, {"min", 60 * G1, 0}, {"h", 3600 * G1, 0},
		{NULL, 0, 0},
	};

	return cfg_parse_units(s, units, default_unit_ns, min_ns, max_ns, out_ns,
			default_unit_ns ? "a time such as 10ms, 1.5s, 250us or 20ns" :
					  "a time with a unit (ns, us, ms, s), such as 10ms or 1.5s",
			"ns", err, errlen);
}

int
cfg_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
		size_t errlen)
{
	static const struct cfg_unit units[] = {
		{"B", 1, 1}, {"kB", K1, 1}, {"KB", K1, 1}, {"MB", M1, 1}, {"GB", G1, 1},
		{"TB", T1, 1}, {"KiB", 1ull << 10, 1}, {"MiB", 1ull << 20, 1},
		{"GiB", 1ull << 30, 1}, {"TiB", 1ull << 40, 1},
		{NULL, 0, 0},
	};

	return cfg_parse_units(s, units, 1, min, max, out,
			"a size such as 1500, 64KiB, 1MiB or 1kB", "bytes", err, errlen);
}

int
cfg_parse_ratio(const char *s, uint32_t min_ppb, uint32_t max_ppb, uint32_t *out_ppb, char *err,
		size_t errlen)
{
	static const struct cfg_unit units[] = {
		{"%", CFG_RATIO_ONE / 100, 1},
		{NULL, 0, 0},
	};
	uint64_t v = 0;
	int rc;

	if (max_ppb > CFG_RATIO_ONE)
		max_ppb = CFG_RATIO_ONE;
	rc = cfg_parse_units(s, units, CFG_RATIO_ONE, min_ppb, max_ppb, &v,
			"a percentage such as 1.5% or a fraction such as 0.015",
			"parts per billion (1e9 = 100%)", err, errlen);
	if (rc == 0)
		*out_ppb = (uint32_t)v;
	return rc;
}

/* Parse one dotted quad at p; returns characters consumed or 0. */
static size_t
cfg_ipv4_at(const char *p, uint32_t *out)
{
	const char *s = p;
	uint32_t a = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned int v = 0, nd = 0;

		if (i > 0) {
			if (*p != '.')
				return 0;
			p++;
		}
		while (*p >= '0' && *p <= '9') {
			if (nd == 1 && v == 0)
				return 0; /* leading zero */
			v = v * 10 + (unsigned int)(*p - '0');
			if (++nd > 3 || v > 255)
				return 0;
			p++;
		}
		if (nd == 0)
			return 0;
		a = (a << 8) | v;
	}
	*out = a;
	return (size_t)(p - s);
}

int
cfg_parse_ipv4(const char *s, uint32_t *out, char *err, size_t errlen)
{
	char buf[64];
	size_t n;
	int rc;

	rc = cfg_trim(s, buf, sizeof(buf), "an IPv4 address such as 10.0.0.1", err, errlen);
	if (rc < 0)
		return rc;
	n = cfg_ipv4_at(buf, out);
	if (n == 0 || buf[n] != '\0')
		return cfg_fail(-EINVAL, err, errlen,
				"expected an IPv4 address such as 10.0.0.1; got \"%s\"", buf);
	return 0;
}

int
cfg_parse_ipv4_prefix(const char *s, int strict, uint32_t *addr, uint8_t *len, char *err,
		size_t errlen)
{
	char buf[64];
	uint32_t a, mask;
	uint64_t l = 32;
	size_t n;
	int rc;

	rc = cfg_trim(s, buf, sizeof(buf), "an IPv4 prefix such as 10.0.0.0/24", err, errlen);
	if (rc < 0)
		return rc;
	n = cfg_ipv4_at(buf, &a);
	if (n == 0 || (buf[n] != '\0' && buf[n] != '/'))
		return cfg_fail(-EINVAL, err, errlen,
				"expected an IPv4 prefix such as 10.0.0.0/24; got \"%s\"", buf);
	if (buf[n] == '/') {
		if (cfg_parse_u64(buf + n + 1, 0, 32, &l, NULL, 0) < 0)
			return cfg_fail(-EINVAL, err, errlen,
					"expected an IPv4 prefix length 0..32 after '/'; got \"%s\"",
					buf);
	}
	mask = l == 0 ? 0 : ~0u << (32 - l);
	if (strict && (a & ~mask) != 0)
		return cfg_fail(-EINVAL, err, errlen,
				"expected an IPv4 prefix with zero host bits; \"%s\" has host bits set",
				buf);
	*addr = a;
	*len = (uint8_t)l;
	return 0;
}

int
cfg_parse_mac(const char *s, uint8_t mac[6], char *err, size_t errlen)
{
	char buf[64];
	uint8_t m[6];
	const char *p;
	int i, rc;

	rc = cfg_trim(s, buf, sizeof(buf), "a MAC address such as 02:00:00:00:00:01", err,
			errlen);
	if (rc < 0)
		return rc;
	p = buf;
	for (i = 0; i < 6; i++) {
		if (i > 0) {
			if (*p != ':' && *p != '-')
				goto bad;
			p++;
		}
		if (!isxdigit((unsigned char)p[0]) || !isxdigit((unsigned char)p[1]))
			goto bad;
		m[i] = (uint8_t)((isdigit((unsigned char)p[0]) ? p[0] - '0' :
								 tolower((unsigned char)p[0]) - 'a' + 10)
				<< 4 |
				(isdigit((unsigned char)p[1]) ? p[1] - '0' :
								tolower((unsigned char)p[1]) - 'a' + 10));
		p += 2;
	}
	if (*p != '\0')
		goto bad;
	memcpy(mac, m, 6);
	return 0;
bad:
	return cfg_fail(-EINVAL, err, errlen,
			"expected a MAC address such as 02:00:00:00:00:01; got \"%s\"", buf);
}

int
cfg_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi, char *err, size_t errlen)
{
	char buf[64];
	char *dash;
	uint64_t a, b;
	int rc;

	rc = cfg_trim(s, buf, sizeof(buf), "a port or port range such as 9 or 1000-2000", err,
			errlen);
	if (rc < 0)
		return rc;
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash = '\0';
	if (cfg_parse_u64(buf, 0, 65535, &a, NULL, 0) < 0 ||
			(dash != NULL && cfg_parse_u64(dash + 1, 0, 65535, &b, NULL, 0) < 0)) {
		if (dash != NULL)
			*dash = '-';
		return cfg_fail(-EINVAL, err, errlen,
				"expected a port 0..65535 or a range such as 1000-2000; got \"%s\"",
				buf);
	}
	if (dash == NULL)
		b = a;
	if (a > b)
		return cfg_fail(-ERANGE, err, errlen,
				"expected a port range LO-HI with LO <= HI; got %" PRIu64 "-%" PRIu64, a,
				b);
	*lo = (uint16_t)a;
	*hi = (uint16_t)b;
	return 0;
}

int
cfg_check_name(const char *s, size_t maxlen, char *err, size_t errlen)
{
	size_t i, n;

	if (s == NULL || s[0] == '\0')
		return cfg_fail(-EINVAL, err, errlen, "expected a name; got an empty one");
	n = strlen(s);
	if (n >= maxlen)
		return cfg_fail(-EINVAL, err, errlen, "name \"%s\" is too long (at most %zu characters)",
				s, maxlen - 1);
	if (!isalnum((unsigned char)s[0]))
		return cfg_fail(-EINVAL, err, errlen,
				"name \"%s\" must start with a letter or digit", s);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!isalnum(c) && c != '_' && c != '-' && c != '.')
			return cfg_fail(-EINVAL, err, errlen,
					"name \"%s\" contains '%c'; use letters, digits, '_', '-', '.'",
					s, c);
	}
	return 0;
}

int
cfg_list_next(const char **cursor, char *buf, size_t buflen, char *err, size_t errlen)
{
	const char *p = *cursor, *end, *e;
	size_t n;

	if (p == NULL)
		return 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '\0') {
		*cursor = p;
		return 0;
	}
	end = strchr(p, ',');
	if (end == NULL)
		end = p + strlen(p);
	e = end;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	n = (size_t)(e - p);
	if (n == 0)
		return cfg_fail(-EINVAL, err, errlen, "empty item in list \"%s\"", *cursor);
	if (n >= buflen)
		return cfg_fail(-ENAMETOOLONG, err, errlen, "list item \"%.*s\" is too long",
				(int)n, p);
	memcpy(buf, p, n);
	buf[n] = '\0';
	if (*end == ',') {
		end++;
		/* a trailing comma is an empty item */
		for (e = end; isspace((unsigned char)*e); e++)
			;
		if (*e == '\0')
			return cfg_fail(-EINVAL, err, errlen, "list \"%s\" ends with a comma",
					*cursor);
	}
	*cursor = end;
	return 1;
}

#define CFG_DIST_MAX_LEN 63

unsigned int
cfg_edit_distance(const char *a, const char *b)
{
	unsigned int d[3][CFG_DIST_MAX_LEN + 2];
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int *prev2 = d[0], *prev = d[1], *cur = d[2], *t;

	if (la > CFG_DIST_MAX_LEN || lb > CFG_DIST_MAX_LEN)
		return UINT32_MAX;
	/* three rows of the table: a swap looks two rows back */
	for (j = 0; j <= lb; j++)
		prev[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		cur[0] = (unsigned int)i;
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]), cb = tolower((unsigned char)b[j - 1]);
			unsigned int v = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
					tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *
cfg_closest(const char *word, const char *const *names, unsigned int n, unsigned int max_dist)
{
	const char *best = NULL;
	unsigned int i, dist, best_dist = UINT32_MAX;
	size_t len = strlen(word);

	for (i = 0; i < n; i++) {
		dist = cfg_edit_distance(word, names[i]);
		if (dist <= max_dist && dist < len && dist < best_dist) {
			best = names[i];
			best_dist = dist;
		}
	}
	return best;
}

int
cfg_split_words(char *s, char **argv, int max_args)
{
	int n = 0;
	char *p = s;

	while (*p != '\0') {
		while (isspace((unsigned char)*p))
			*p++ = '\0';
		if (*p == '\0')
			break;
		if (n >= max_args)
			return -E2BIG;
		argv[n++] = p;
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	return n;
}
