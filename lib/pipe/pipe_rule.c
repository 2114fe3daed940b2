/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ipfw-like match rules (the engine's [queue NAME] and [capture NAME] match
 * keys). Pure parsing: no DPDK, no allocation (unit-tested by
 * test/engine/test_route_rule.c).
 *
 *   match = [PROTO] [from ADDR [PORTS]] [to ADDR [PORTS]] [proto PROTO]
 *           [sport PORTS] [dport PORTS]
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cfg.h"
#include "pipe.h"

#define RULE_MAX_TOKENS 16
#define RULE_TOKEN_LEN 64

static const struct {
	const char *name;
	uint8_t proto;
} rule_protos[] = {
	{"any", 0}, {"ip", 0}, {"all", 0}, {"icmp", 1}, {"tcp", 6}, {"udp", 17},
	{"sctp", 132}, {"udplite", 136},
};


static int
rule_err(char *err, size_t errlen, const char *fmt, const char *tok)
{
	if (err != NULL)
		snprintf(err, errlen, fmt, tok);
	return -EINVAL;
}

static int
rule_proto(const char *tok, uint8_t *out)
{
	uint32_t v;
	size_t i;

	for (i = 0; i < sizeof(rule_protos) / sizeof(rule_protos[0]); i++)
		if (strcasecmp(tok, rule_protos[i].name) == 0) {
			*out = rule_protos[i].proto;
			return 0;
		}
	if (cfg_parse_u32(tok, 0, 255, &v, NULL, 0) == 0) {
		*out = (uint8_t)v;
		return 0;
	}
	return -EINVAL;
}

static int
rule_addr(const char *tok, uint32_t *addr, uint8_t *len, char *err, size_t errlen)
{
	char e[CFG_ERR_LEN];

	if (strcasecmp(tok, "any") == 0) {
		*addr = 0;
		*len = 0;
		return 0;
	}
	if (cfg_parse_ipv4_prefix(tok, 0, addr, len, e, sizeof(e)) < 0) {
		if (err != NULL)
			snprintf(err, errlen, "expected an address (any, A.B.C.D or A.B.C.D/LEN): %s",
					e);
		return -EINVAL;
	}
	if (*len == 0)
		*addr = 0;
	return 0;
}

static int
rule_ports(const char *tok, uint16_t *lo, uint16_t *hi, char *err, size_t errlen)
{
	char e[CFG_ERR_LEN];

	if (cfg_parse_port_range(tok, lo, hi, e, sizeof(e)) < 0) {
		if (err != NULL)
			snprintf(err, errlen, "expected a port or port range (1..65535): %s", e);
		return -EINVAL;
	}
	if (*lo == 0 && *hi == 0)
		return rule_err(err, errlen, "port 0 cannot be matched (in \"%s\")", tok);
	return 0;
}

static int
is_ports(const char *tok)
{
	return tok[0] >= '0' && tok[0] <= '9';
}

/* Split s into words; 0, or -EINVAL with the reason in err. */
static int
rule_tokens(const char *s, char tok[RULE_MAX_TOKENS][RULE_TOKEN_LEN], int *n, char *err,
		size_t errlen)
{
	const char *p = s;

	*n = 0;
	while (*p != '\0') {
		size_t k = 0;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		if (*n == RULE_MAX_TOKENS)
			return rule_err(err, errlen, "too many words in rule \"%s\"", s);
		while (*p != '\0' && *p != ' ' && *p != '\t') {
			if (k == RULE_TOKEN_LEN - 1)
				return rule_err(err, errlen, "word too long in rule \"%s\"", s);
			tok[*n][k++] = *p++;
		}
		tok[(*n)++][k] = '\0';
	}
	if (*n == 0)
		return rule_err(err, errlen, "%sempty rule (expected e.g. \"udp from 10.0.0.1 to any\")",
				"");
	return 0;
}

/* What a rule has set so far (each part at most once). */
struct rule_seen {
	int from, to, proto, sport, dport;
};

/* Source (src = 1) or destination ports from tok. */
static int
rule_side_ports(const char *tok, int src, struct pipe_rule *r, struct rule_seen *seen, char *err,
		size_t errlen)
{
	int *once = src ? &seen->sport : &seen->dport;

	if (*once)
		return rule_err(err, errlen, "ports given twice (at \"%s\")", tok);
	*once = 1;
	return src ? rule_ports(tok, &r->sport_lo, &r->sport_hi, err, errlen) :
			rule_ports(tok, &r->dport_lo, &r->dport_hi, err, errlen);
}

/* "from ADDR [PORTS]" / "to ADDR [PORTS]" at tok[*i]; advances *i. */
static int
rule_from_to(char tok[RULE_MAX_TOKENS][RULE_TOKEN_LEN], int n, int *i, struct pipe_rule *r,
		struct rule_seen *seen, char *err, size_t errlen)
{
	int from = strcasecmp(tok[*i], "from") == 0;
	int *once = from ? &seen->from : &seen->to;
	int rc;

	if (*once)
		return rule_err(err, errlen, "\"%s\" given twice", tok[*i]);
	*once = 1;
	rc = from ? rule_addr(tok[*i + 1], &r->src, &r->src_len, err, errlen) :
			rule_addr(tok[*i + 1], &r->dst, &r->dst_len, err, errlen);
	if (rc < 0)
		return -EINVAL;
	*i += 2;
	if (*i < n && is_ports(tok[*i])) {
		if (rule_side_ports(tok[*i], from, r, seen, err, errlen) < 0)
			return -EINVAL;
		(*i)++;
	}
	return 0;
}

/* One keyword and its value at tok[*i]; advances *i. */
static int
rule_keyword(char tok[RULE_MAX_TOKENS][RULE_TOKEN_LEN], int n, int *i, struct pipe_rule *r,
		struct rule_seen *seen, char *err, size_t errlen)
{
	const char *kw = tok[*i];

	if (*i + 1 >= n)
		return rule_err(err, errlen, "\"%s\" needs a value", kw);
	if (strcasecmp(kw, "from") == 0 || strcasecmp(kw, "to") == 0)
		return rule_from_to(tok, n, i, r, seen, err, errlen);
	if (strcasecmp(kw, "proto") == 0) {
		if (seen->proto)
			return rule_err(err, errlen, "protocol given twice (at \"%s\")", kw);
		seen->proto = 1;
		if (rule_proto(tok[*i + 1], &r->proto) < 0)
			return rule_err(err, errlen,
					"unknown protocol \"%s\" (expected any, ip, tcp, udp, icmp, "
					"sctp, udplite or 0..255)",
					tok[*i + 1]);
		*i += 2;
		return 0;
	}
	if (strcasecmp(kw, "sport") == 0 || strcasecmp(kw, "dport") == 0) {
		int src = strcasecmp(kw, "sport") == 0;

		if (src ? seen->sport : seen->dport)
			return rule_err(err, errlen, "\"%s\" given twice", kw);
		if (rule_side_ports(tok[*i + 1], src, r, seen, err, errlen) < 0)
			return -EINVAL;
		*i += 2;
		return 0;
	}
	return rule_err(err, errlen,
			"unknown word \"%s\" (expected from, to, proto, sport or dport)", kw);
}

int
pipe_rule_parse(const char *s, struct pipe_rule *r, char *err, size_t errlen)
{
	char tok[RULE_MAX_TOKENS][RULE_TOKEN_LEN];
	struct rule_seen seen = {0};
	int n, i = 0;

	memset(r, 0, sizeof(*r));
	r->sport_hi = UINT16_MAX;
	r->dport_hi = UINT16_MAX;
	if (rule_tokens(s, tok, &n, err, errlen) < 0)
		return -EINVAL;
	/* optional leading protocol, as ipfw's "udp from A to B" */
	if (strcasecmp(tok[0], "from") != 0 && strcasecmp(tok[0], "to") != 0 &&
			strcasecmp(tok[0], "proto") != 0 && strcasecmp(tok[0], "sport") != 0 &&
			strcasecmp(tok[0], "dport") != 0) {
		if (rule_proto(tok[0], &r->proto) < 0)
			return rule_err(err, errlen,
					"unknown word \"%s\" (expected a protocol, from, to, proto, "
					"sport or dport)",
					tok[0]);
		seen.proto = 1;
		i = 1;
	}
	while (i < n)
		if (rule_keyword(tok, n, &i, r, &seen, err, errlen) < 0)
			return -EINVAL;
	if ((seen.sport || seen.dport) && r->proto != 0 && r->proto != 6 && r->proto != 17 &&
			r->proto != 132 && r->proto != 136)
		return rule_err(err, errlen, "%sports need tcp, udp, sctp or udplite", "");
	return 0;
}

static const char *
proto_name(uint8_t proto, char *buf, size_t len)
{
	size_t i;

	for (i = 2; i < sizeof(rule_protos) / sizeof(rule_protos[0]); i++)
		if (rule_protos[i].proto == proto && proto != 0)
			return rule_protos[i].name;
	if (proto == 0)
		return "ip";
	snprintf(buf, len, "%u", proto);
	return buf;
}

static int
fmt_addr(char *buf, size_t len, uint32_t a, uint8_t l)
{
	if (l == 0)
		return snprintf(buf, len, "any");
	return snprintf(buf, len, "%u.%u.%u.%u/%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255,
			a & 255, l);
}

static int
fmt_ports(char *buf, size_t len, uint16_t lo, uint16_t hi)
{
	if (lo == 0 && hi == UINT16_MAX)
		return 0;
	if (lo == hi)
		return snprintf(buf, len, " %u", lo);
	return snprintf(buf, len, " %u-%u", lo, hi);
}

void
pipe_rule_format(const struct pipe_rule *r, char *buf, size_t len)
{
	char pb[8], a[24], b[24], sp[16] = "", dp[16] = "";

	fmt_addr(a, sizeof(a), r->src, r->src_len);
	fmt_addr(b, sizeof(b), r->dst, r->dst_len);
	fmt_ports(sp, sizeof(sp), r->sport_lo, r->sport_hi);
	fmt_ports(dp, sizeof(dp), r->dport_lo, r->dport_hi);
	snprintf(buf, len, "%s from %s%s to %s%s", proto_name(r->proto, pb, sizeof(pb)), a, sp, b,
			dp);
}
