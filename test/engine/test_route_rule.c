/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The ipfw-like match rule parser of [queue NAME] and [capture NAME]
 * (lib/pipe/pipe_rule.c): accepted forms, the fields they set, rejected forms, and
 * that a parsed rule classifies packets in lib/pipe as written.
 */
#include <stdio.h>
#include <string.h>

#include "pipe.h"
#include "test_harness.h"


#define IP(a, b, c, d) (((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static void
ok(const char *s, uint32_t src, uint8_t sl, uint32_t dst, uint8_t dl, uint8_t proto,
		uint16_t slo, uint16_t shi, uint16_t dlo, uint16_t dhi)
{
	struct pipe_rule r;
	char err[256], back[128];

	if (pipe_rule_parse(s, &r, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL \"%s\": %s\n", s, err);
		test_failures++;
		return;
	}
	if (r.src != src || r.src_len != sl || r.dst != dst || r.dst_len != dl ||
			r.proto != proto || r.sport_lo != slo || r.sport_hi != shi ||
			r.dport_lo != dlo || r.dport_hi != dhi) {
		fprintf(stderr, "FAIL \"%s\": fields %08x/%u %08x/%u p%u %u-%u %u-%u\n", s, r.src,
				r.src_len, r.dst, r.dst_len, r.proto, r.sport_lo, r.sport_hi,
				r.dport_lo, r.dport_hi);
		test_failures++;
		return;
	}
	/* the formatted rule parses back to the same rule */
	pipe_rule_format(&r, back, sizeof(back));
	{
		struct pipe_rule r2;

		if (pipe_rule_parse(back, &r2, err, sizeof(err)) != 0 ||
				memcmp(&r, &r2, sizeof(r)) != 0) {
			fprintf(stderr, "FAIL \"%s\": formatted as \"%s\" which does not parse back\n",
					s, back);
			test_failures++;
			return;
		}
	}
	printf("ok \"%s\" -> \"%s\"\n", s, back);
}

static void
bad(const char *s, const char *needle)
{
	struct pipe_rule r;
	char err[256] = "";

	if (pipe_rule_parse(s, &r, err, sizeof(err)) == 0) {
		fprintf(stderr, "FAIL \"%s\": accepted\n", s);
		test_failures++;
		return;
	}
	if (strstr(err, needle) == NULL) {
		fprintf(stderr, "FAIL \"%s\": message \"%s\" lacks \"%s\"\n", s, err, needle);
		test_failures++;
		return;
	}
	printf("ok rejected \"%s\": %s\n", s, err);
}

static void
classify(void)
{
	struct pipe_conf c = {.name = "t"};
	struct pipe *p = pipe_create(&c);
	struct pipe_rule r;
	struct pipe_flow f1 = {IP(10, 0, 0, 1), IP(10, 0, 1, 1), 4000, 5005, 17};
	struct pipe_flow f2 = {IP(10, 0, 0, 2), IP(10, 0, 1, 1), 4000, 5005, 17};
	struct pipe_flow f3 = {IP(10, 0, 0, 1), IP(10, 0, 1, 1), 4000, 5005, 6};
	struct pipe_flow f4 = {IP(10, 0, 0, 1), IP(10, 0, 1, 1), 4000, 6000, 17};
	char err[256];
	int q1, q2;

	q1 = pipe_queue_add(p, 1, 0, 0);
	q2 = pipe_queue_add(p, 1, 0, 0);
	pipe_rule_parse("udp from 10.0.0.1/32 to any dport 5000-5010", &r, err, sizeof(err));
	r.queue = (uint32_t)q1;
	pipe_rule_add(p, &r);
	pipe_rule_parse("ip from 10.0.0.0/24 to 10.0.1.0/24", &r, err, sizeof(err));
	r.queue = (uint32_t)q2;
	pipe_rule_add(p, &r);
	pipe_set_unmatched(p, PIPE_NO_QUEUE);
	if (pipe_classify(p, &f1) != (uint32_t)q1 || pipe_classify(p, &f2) != (uint32_t)q2 ||
			pipe_classify(p, &f3) != (uint32_t)q2 || pipe_classify(p, &f4) != (uint32_t)q2) {
		fprintf(stderr, "FAIL classify: first match not as written\n");
		test_failures++;
	}
	f1.src = IP(192, 168, 0, 1);
	if (pipe_classify(p, &f1) != PIPE_NO_QUEUE) {
		fprintf(stderr, "FAIL classify: unmatched not passed\n");
		test_failures++;
	}
	pipe_free(p);
}

int
main(void)
{
	ok("ip from any to any", 0, 0, 0, 0, 0, 0, 65535, 0, 65535);
	ok("from 10.0.0.1/32 to any proto udp dport 5000-5010", IP(10, 0, 0, 1), 32, 0, 0, 17, 0,
			65535, 5000, 5010);
	ok("udp from 10.0.0.1 to 10.0.1.0/24", IP(10, 0, 0, 1), 32, IP(10, 0, 1, 0), 24, 17, 0,
			65535, 0, 65535);
	ok("tcp from any 1000-2000 to 10.0.0.9 80", 0, 0, IP(10, 0, 0, 9), 32, 6, 1000, 2000, 80,
			80);
	ok("to 10.1.0.0/16", 0, 0, IP(10, 1, 0, 0), 16, 0, 0, 65535, 0, 65535);
	ok("proto 132 sport 9", 0, 0, 0, 0, 132, 9, 9, 0, 65535);
	ok("  UDP   FROM any   TO any   DPORT 9 ", 0, 0, 0, 0, 17, 0, 65535, 9, 9);
	ok("icmp from 10.0.0.0/8 to any", IP(10, 0, 0, 0), 8, 0, 0, 1, 0, 65535, 0, 65535);
	bad("", "empty rule");
	bad("from", "needs a value");
	bad("from 10.0.0.300 to any", "expected an address");
	bad("from 10.0.0.1/33", "expected an address");
	bad("udp from any to any dport 70000", "expected a port");
	bad("udp dport 0", "port 0");
	bad("udp dport 10-5", "expected a port");
	bad("frm 10.0.0.1", "unknown word \"frm\"");
	bad("from any to any via eth0", "unknown word \"via\"");
	bad("proto xyz", "unknown protocol");
	bad("icmp from any to any dport 80", "ports need tcp, udp");
	bad("from any from any", "given twice");
	bad("udp proto tcp", "protocol given twice");
	classify();
	return test_report("test_route_rule");
}
