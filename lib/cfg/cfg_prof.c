/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/cfg: timed rate profiles, "[steps|ramp] TIME:RATE, ..." (see cfg.h). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "cfg_priv.h"

#define CFG_PROF_WHAT "a rate profile such as 0s:1G,5s:5G or ramp 0s:1G,10s:10G"
#define CFG_PROF_INPUT 1024
#define CFG_PROF_ITEM 96

/* The length of the form word at the start of s ("steps", "ramp" or another
 * word followed by a blank); 0 when s starts otherwise (with a point). */
static size_t
prof_word(const char *s)
{
	size_t n = 0;

	while (isalpha((unsigned char)s[n]))
		n++;
	return n != 0 && (s[n] == ' ' || s[n] == '\t') ? n : 0;
}

int
cfg_rate_is_profile(const char *s)
{
	if (s == NULL)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	return strchr(s, ':') != NULL || prof_word(s) != 0;
}

/* One point "TIME:RATE" (item k, 1-based) into out->t_ns[i], out->rate[i]. */
static int
prof_point(const char *item, unsigned int k, struct cfg_rate_profile *out, char *err,
		size_t errlen)
{
	char tbuf[CFG_PROF_ITEM], e[CFG_ERR_LEN];
	const char *colon = strchr(item, ':');
	unsigned int i = out->n;
	uint64_t t;

	if (colon == NULL)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; point %u \"%s\" has no ':' "
				"between its time and its rate", CFG_PROF_WHAT, k, item);
	snprintf(tbuf, sizeof(tbuf), "%.*s", (int)(colon - item), item);
	if (cfg_parse_time(tbuf, 1000000000ull, 0, CFG_PROFILE_TIME_MAX_NS, &t, e,
				sizeof(e)) < 0)
		return cfg_fail(-EINVAL, err, errlen, "point %u \"%s\": %s", k, item, e);
	if (cfg_parse_rate_any(colon + 1, &out->rate[i], e, sizeof(e)) < 0)
		return cfg_fail(-EINVAL, err, errlen, "point %u \"%s\": %s", k, item, e);
	if (out->rate[i].value == 0)
		return cfg_fail(-ERANGE, err, errlen, "point %u \"%s\": a rate in a profile must "
				"be above 0 (full speed is a task without rate)", k, item);
	if (i == 0 && t != 0)
		return cfg_fail(-EINVAL, err, errlen, "point 1 \"%s\": a profile starts at 0s "
				"(the start of the run)", item);
	if (i != 0 && t <= out->t_ns[i - 1])
		return cfg_fail(-EINVAL, err, errlen, "point %u \"%s\": times must increase; "
				"%s is not after point %u's %.9g s", k, item, tbuf, k - 1,
				(double)out->t_ns[i - 1] / 1e9);
	out->t_ns[i] = t;
	out->n++;
	return 0;
}

int
cfg_parse_rate_profile(const char *s, struct cfg_rate_profile *out, char *err,
		size_t errlen)
{
	char buf[CFG_PROF_INPUT], item[CFG_PROF_ITEM], e[CFG_ERR_LEN];
	const char *cur;
	size_t w;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = cfg_trim(s, buf, sizeof(buf), CFG_PROF_WHAT, err, errlen);
	if (rc < 0)
		return rc;
	cur = buf;
	if (strcasecmp(buf, "ramp") == 0 || strcasecmp(buf, "steps") == 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; \"%s\" has no points",
				CFG_PROF_WHAT, buf);
	w = prof_word(buf);
	if (w != 0) {
		if (w == 4 && strncasecmp(buf, "ramp", 4) == 0)
			out->ramp = 1;
		else if (!(w == 5 && strncasecmp(buf, "steps", 5) == 0))
			return cfg_fail(-EINVAL, err, errlen, "expected %s; unknown form \"%.*s\" "
					"(steps, the default, or ramp)", CFG_PROF_WHAT, (int)w, buf);
		cur = buf + w;
	}
	while ((rc = cfg_list_next(&cur, item, sizeof(item), e, sizeof(e))) == 1) {
		if (out->n == CFG_PROFILE_MAX)
			return cfg_fail(-E2BIG, err, errlen, "expected %s; more than %u points",
					CFG_PROF_WHAT, CFG_PROFILE_MAX);
		rc = prof_point(item, out->n + 1, out, err, errlen);
		if (rc < 0)
			return rc;
	}
	if (rc < 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; %s", CFG_PROF_WHAT, e);
	if (out->n == 0)
		return cfg_fail(-EINVAL, err, errlen, "expected %s; \"%s\" has no points",
				CFG_PROF_WHAT, buf);
	if (out->ramp && out->n < 2)
		return cfg_fail(-EINVAL, err, errlen, "a ramp needs at least two points "
				"(0s:1G,10s:10G); got \"%s\"", buf);
	return 0;
}
