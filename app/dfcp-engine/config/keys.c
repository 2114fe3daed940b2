/* SPDX-License-Identifier: BSD-3-Clause */
/* Key reader for one config section: typed getters with precise errors. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/keys.h"

static int
sec_find(struct eng_sec *sec, const char *key)
{
	int i;

	if (sec->nb_asked < ENG_MAX_KEYS) {
		for (i = 0; i < sec->nb_asked; i++)
			if (strcmp(sec->asked[i], key) == 0)
				break;
		if (i == sec->nb_asked)
			sec->asked[sec->nb_asked++] = key;
	}
	for (i = 0; i < sec->nb_entries; i++)
		if (strcmp(sec->entries[i].name, key) == 0)
			return i;
	return -1;
}

static int
sec_line(const struct eng_sec *sec, const char *key)
{
	int i;

	if (key != NULL)
		for (i = 0; i < sec->nb_entries; i++)
			if (strcmp(sec->entries[i].name, key) == 0)
				return sec->entry_line[i];
	return sec->line;
}

int
eng_sec_line(const struct eng_sec *sec, const char *key)
{
	return sec_line(sec, key);
}

int
eng_sec_error(struct eng_sec *sec, const char *key, const char *fmt, ...)
{
	char msg[ENG_ERR_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (key != NULL)
		snprintf(sec->err, sec->errlen, "%s:%d: [%s] %s: %s", sec->file, sec_line(sec, key),
				sec->name, key, msg);
	else
		snprintf(sec->err, sec->errlen, "%s:%d: [%s]: %s", sec->file, sec->line, sec->name,
				msg);
	return -EINVAL;
}

const char *
eng_sec_get_long(struct eng_sec *sec, const char *key)
{
	int i = sec_find(sec, key);

	if (i < 0)
		return NULL;
	sec->used[i] = 1;
	return sec->entries[i].value;
}

const char *
eng_sec_get(struct eng_sec *sec, const char *key)
{
	const char *v = eng_sec_get_long(sec, key);

	if (v != NULL && sec->long_key == NULL && strlen(v) >= CFG_VALUE_LEN)
		sec->long_key = key;
	return v;
}

int
eng_sec_missing(struct eng_sec *sec, const char *key, const char *expected)
{
	sec_find(sec, key);
	snprintf(sec->err, sec->errlen, "%s:%d: [%s] %s: missing required key (expected %s)",
			sec->file, sec->line, sec->name, key, expected);
	return -EINVAL;
}

int
eng_sec_str(struct eng_sec *sec, const char *key, char *buf, size_t len)
{
	const char *v = eng_sec_get(sec, key);

	if (v == NULL)
		return 0;
	if (strlen(v) >= len)
		return eng_sec_error(sec, key, "value too long (at most %zu characters)", len - 1);
	snprintf(buf, len, "%s", v);
	return 0;
}

int
eng_sec_name(struct eng_sec *sec, const char *key, char *buf, size_t len)
{
	char e[CFG_ERR_LEN];
	const char *v = eng_sec_get(sec, key);

	if (v == NULL)
		return 0;
	if (cfg_check_name(v, len, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s", e);
	snprintf(buf, len, "%s", v);
	return 0;
}

/* Wrap a cfg_parse_* call: run it when the key is present, prefix errors. */
#define SEC_PARSE(sec, key, call)                                       \
	do {                                                            \
		char e[CFG_ERR_LEN];                                    \
		const char *s = eng_sec_get(sec, key);                  \
		if (s == NULL)                                          \
			return 0;                                       \
		if ((call) < 0)                                         \
			return eng_sec_error(sec, key, "%s", e);        \
		return 0;                                               \
	} while (0)

int
eng_sec_u64(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_u64(s, min, max, out, e, sizeof(e)));
}

int
eng_sec_u32(struct eng_sec *sec, const char *key, uint32_t min, uint32_t max, uint32_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_u32(s, min, max, out, e, sizeof(e)));
}

int
eng_sec_u16(struct eng_sec *sec, const char *key, uint16_t min, uint16_t max, uint16_t *out)
{
	uint32_t v = *out;
	int rc;

	rc = eng_sec_u32(sec, key, min, max, &v);
	if (rc == 0)
		*out = (uint16_t)v;
	return rc;
}

int
eng_sec_bool(struct eng_sec *sec, const char *key, int *out)
{
	SEC_PARSE(sec, key, cfg_parse_bool(s, out, e, sizeof(e)));
}

int
eng_sec_rate(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_rate(s, min, max, out, e, sizeof(e)));
}

int
eng_sec_rate_any(struct eng_sec *sec, const char *key, uint64_t min_bps, uint64_t max_bps,
		struct cfg_rate *out)
{
	char e[CFG_ERR_LEN];
	struct cfg_rate r;
	const char *s = eng_sec_get(sec, key);

	if (s == NULL)
		return 0;
	if (cfg_parse_rate_any(s, &r, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s", e);
	if (r.unit == CFG_RATE_BPS && (r.value < min_bps || r.value > max_bps))
		return eng_sec_error(sec, key, "expected a rate between %" PRIu64 " and %" PRIu64
				" bit/s; got \"%s\"", min_bps, max_bps, s);
	*out = r;
	return 0;
}

int
eng_sec_rate_profile(struct eng_sec *sec, const char *key, uint64_t min_bps, uint64_t max_bps,
		int bits_only, struct cfg_rate_profile *out)
{
	char e[CFG_ERR_LEN], what[48];
	const char *s = eng_sec_get(sec, key);
	unsigned int i;

	out->n = 0;
	if (s == NULL || !cfg_rate_is_profile(s))
		return 0;
	if (cfg_parse_rate_profile(s, out, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s", e);
	for (i = 0; i < out->n; i++) {
		const struct cfg_rate *r = &out->rate[i];

		cfg_rate_str(r, what, sizeof(what));
		if (bits_only && r->unit != CFG_RATE_BPS)
			return eng_sec_error(sec, key, "point %u: %s; a flow's rate is in bit/s "
					"(400Mbit, 1G), not packets/s or a share of the line rate",
					i + 1, what);
		if (r->unit == CFG_RATE_BPS && (r->value < min_bps || r->value > max_bps))
			return eng_sec_error(sec, key, "point %u: %s; expected a rate between %"
					PRIu64 " and %" PRIu64 " bit/s", i + 1, what, min_bps,
					max_bps);
	}
	return 0;
}

int
eng_sec_time(struct eng_sec *sec, const char *key, uint64_t bare_unit_ns, uint64_t min,
		uint64_t max, uint64_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_time(s, bare_unit_ns, min, max, out, e, sizeof(e)));
}

int
eng_sec_size(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_size(s, min, max, out, e, sizeof(e)));
}

int
eng_sec_ipv4(struct eng_sec *sec, const char *key, uint32_t *out)
{
	SEC_PARSE(sec, key, cfg_parse_ipv4(s, out, e, sizeof(e)));
}

int
eng_sec_mac(struct eng_sec *sec, const char *key, struct rte_ether_addr *out)
{
	SEC_PARSE(sec, key, cfg_parse_mac(s, out->addr_bytes, e, sizeof(e)));
}

int
eng_sec_port_range(struct eng_sec *sec, const char *key, uint16_t *lo, uint16_t *hi)
{
	SEC_PARSE(sec, key, cfg_parse_port_range(s, lo, hi, e, sizeof(e)));
}

int
eng_sec_addr(struct eng_sec *sec, const char *key, uint32_t *ip, uint16_t *port, int need_port)
{
	const char *v = eng_sec_get(sec, key);
	char buf[CFG_VALUE_LEN], e[CFG_ERR_LEN], *colon;
	uint64_t p;

	if (v == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	colon = strchr(buf, ':');
	if (colon != NULL)
		*colon = '\0';
	if (cfg_parse_ipv4(buf, ip, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s (expected A.B.C.D:PORT)", e);
	if (colon == NULL) {
		if (need_port)
			return eng_sec_error(sec, key, "missing \":PORT\" (expected A.B.C.D:PORT)");
		return 0;
	}
	if (cfg_parse_u64(colon + 1, 1, 65535, &p, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "port: %s", e);
	*port = (uint16_t)p;
	return 0;
}

/* "a, b or c" from names[0..n) */
static void
choice_list(const char *const *names, int n, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
				i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
}

int
eng_sec_choice(struct eng_sec *sec, const char *key, const char *const *names, int n, int *out,
		char *arg, size_t arglen)
{
	const char *v = eng_sec_get(sec, key);
	char word[CFG_VALUE_LEN], list[CFG_VALUE_LEN];
	const char *sp, *near;
	int i;

	if (v == NULL)
		return 0;
	sp = strpbrk(v, " \t");
	snprintf(word, sizeof(word), "%.*s", sp ? (int)(sp - v) : (int)strlen(v), v);
	while (sp != NULL && (*sp == ' ' || *sp == '\t'))
		sp++;
	for (i = 0; i < n; i++) {
		if (strcmp(word, names[i]) != 0)
			continue;
		if (arg == NULL && sp != NULL && *sp != '\0')
			return eng_sec_error(sec, key, "unexpected \"%s\" after %s", sp, word);
		*out = i;
		if (arg != NULL)
			snprintf(arg, arglen, "%s", sp != NULL ? sp : "");
		return 0;
	}
	choice_list(names, n, list, sizeof(list));
	near = cfg_closest(word, names, (unsigned int)n, 2);
	if (near != NULL)
		return eng_sec_error(sec, key, "unknown value \"%s\" (expected %s); did you mean "
				"\"%s\"?", word, list, near);
	return eng_sec_error(sec, key, "unknown value \"%s\" (expected %s)", word, list);
}

/* The closest known key as a hint, then every key the parser asked for, in its
 * order, whole; a list too long for the error buffer stops after a whole key and
 * says how many are left out. */
int
eng_sec_unknown_key(struct eng_sec *sec, int j)
{
	const char *key = sec->entries[j].name, *near;
	char hint[CFG_NAME_LEN + 32], list[ENG_ERR_LEN];
	size_t room, off = 0;
	int a, head;

	near = cfg_closest(key, sec->asked, (unsigned int)sec->nb_asked, 2);
	hint[0] = '\0';
	if (near != NULL)
		snprintf(hint, sizeof(hint), "; did you mean \"%s\"?", near);
	head = snprintf(NULL, 0, "%s:%d: [%s] %s: unknown key%s (known keys: )", sec->file,
			sec->entry_line[j], sec->name, key, hint);
	room = head > 0 && (size_t)head < sec->errlen ? sec->errlen - (size_t)head - 1 : 0;
	if (room > sizeof(list) - 1)
		room = sizeof(list) - 1;
	list[0] = '\0';
	for (a = 0; a < sec->nb_asked; a++) {
		size_t need = (a ? 2 : 0) + strlen(sec->asked[a]);
		/* room for ", and 64 more" unless this is the last key */
		size_t tail = a + 1 < sec->nb_asked ? 16 : 0;

		if (off + need + tail > room) {
			snprintf(list + off, sizeof(list) - off, "%sand %d more", a ? ", " : "",
					sec->nb_asked - a);
			break;
		}
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", a ? ", " : "",
				sec->asked[a]);
	}
	return eng_sec_error(sec, key, "unknown key%s (known keys: %s)", hint, list);
}
