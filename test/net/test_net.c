/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/net unit tests: checksum against its plain reference and known
 * vectors, big-endian load/store, header writers, ARP.
 * Usage: test_net NAME
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"
#include "test_harness.h"

static struct test_rng rng;

static void
test_csum(void)
{
	/* the IPv4 header example of RFC 1071 practice: checksum 0xb861 */
	uint8_t ip[20] = {
		0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
		0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
	};
	uint8_t buf[1600];
	uint16_t c;
	unsigned int i;

	c = net_csum16(ip, sizeof(ip), 0);
	memcpy(ip + 10, &c, 2);
	CHECKF(ip[10] == 0xb8 && ip[11] == 0x61, "ip csum %02x%02x", ip[10], ip[11]);
	CHECKF(net_csum16(ip, sizeof(ip), 0) == 0, "header with its checksum must sum to 0");
	CHECKF(net_csum16_ref(ip, sizeof(ip), 0) == 0, "reference");
	/* empty buffer: complement of the seed */
	CHECKF(net_csum16(buf, 0, 0) == 0xffff, "empty");
	CHECKF(net_csum16(buf, 0, 0x1234) == (uint16_t)~0x1234, "empty seeded");
	/* optimized == reference: all lengths, odd offsets, random seeds */
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)test_rng_next(&rng);
	for (i = 0; i < 4000; i++) {
		size_t off = test_rng_next(&rng) % 8, len = i < 200 ? i : test_rng_next(&rng) % (sizeof(buf) - 8);
		uint32_t seed = i & 1 ? (uint32_t)(test_rng_next(&rng) & 0xffff) : 0;

		c = net_csum16(buf + off, len, seed);
		CHECKF(c == net_csum16_ref(buf + off, len, seed), "len %zu off %zu seed %u",
				len, off, seed);
		CHECKF((uint16_t)~net_csum_add(buf + off, len, seed) == c, "partial len %zu", len);
		CHECKF((uint16_t)~net_csum_add_generic(buf + off, len, seed) == c,
				"generic len %zu", len);
	}
	/* all-ones worst case: no overflow of the accumulator */
	memset(buf, 0xff, sizeof(buf));
	CHECKF(net_csum16(buf, sizeof(buf), 0xffff) == net_csum16_ref(buf, sizeof(buf), 0xffff),
			"all ones");
	CHECKF(net_csum_add(buf, sizeof(buf), 0xffffffffull) ==
			net_csum_add_generic(buf, sizeof(buf), 0xffffffffull), "all ones, 32-bit seed");
}

static void
test_be(void)
{
	uint8_t b[8];

	net_wr16(b, 0x1234);
	CHECKF(b[0] == 0x12 && b[1] == 0x34 && net_rd16(b) == 0x1234, "16");
	net_wr32(b, 0x89abcdefu);
	CHECKF(b[0] == 0x89 && b[3] == 0xef && net_rd32(b) == 0x89abcdefu, "32");
	net_wr64(b, 0x0102030405060708ull);
	CHECKF(b[0] == 1 && b[7] == 8 && net_rd64(b) == 0x0102030405060708ull, "64");
}

static void
test_hdr(void)
{
	static const uint8_t m1[6] = {2, 0, 0, 0, 0, 1}, m2[6] = {2, 0, 0, 0, 0, 2};
	static const uint8_t eth[14] = {2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00};
	static const uint8_t ip[20] = {
		0x45, 0, 0x00, 0x30, 0, 0, 0x40, 0, 64, 17, 0, 0,
		10, 0, 0, 1, 10, 0, 0, 2,
	};
	static const uint8_t udp[8] = {0x04, 0x00, 0x00, 0x09, 0x00, 0x1c, 0, 0};
	static const uint8_t th[20] = {
		0x30, 0x39, 0x00, 0x50, 0x01, 0x02, 0x03, 0x04, 0xa0, 0xb0, 0xc0, 0xd0,
		0x85, 0x12, 0xff, 0xfe, 0, 0, 0, 0,
	};
	uint8_t f[128];

	memset(f, 0xee, sizeof(f));
	net_eth_build(f, m2, m1, NET_ETHERTYPE_IPV4);
	CHECKF(memcmp(f, eth, sizeof(eth)) == 0, "ethernet");
	net_ipv4_build(f + NET_ETH_LEN, 0x30, 64, NET_PROTO_UDP, 0x0a000001u, 0x0a000002u);
	CHECKF(memcmp(f + NET_ETH_LEN, ip, sizeof(ip)) == 0, "ipv4");
	net_udp_build(f + NET_ETH_LEN + NET_IP_LEN, 1024, 9, 28);
	CHECKF(memcmp(f + NET_ETH_LEN + NET_IP_LEN, udp, sizeof(udp)) == 0, "udp");
	/* the UDP checksum over the pseudo header verifies */
	{
		uint8_t *u = f + NET_ETH_LEN + NET_IP_LEN;
		uint16_t c;

		memset(u + NET_UDP_LEN, 0x5a, 20);
		c = net_csum16(u, 28, net_pseudo_sum(f + NET_ETH_LEN, NET_PROTO_UDP, 28));
		memcpy(u + 6, &c, 2);
		CHECKF(net_csum16(u, 28, net_pseudo_sum(f + NET_ETH_LEN, NET_PROTO_UDP, 28)) == 0,
				"udp checksum");
		CHECKF(net_pseudo_sum(f + NET_ETH_LEN, NET_PROTO_UDP, 28) !=
				net_pseudo_sum(f + NET_ETH_LEN, NET_PROTO_TCP, 28), "protocol counts");
	}
	memset(f, 0xee, sizeof(f));
	net_tcp_build(f, 12345, 80, 0x01020304u, 0xa0b0c0d0u, 32, 0x5, 0x12, 0xfffe);
	CHECKF(memcmp(f, th, sizeof(th)) == 0, "tcp");
	CHECKF(f[20] == 0xee, "tcp header writes 20 bytes only");
}

static void
test_arp(void)
{
	static const uint8_t mac[6] = {2, 0, 0, 0, 0, 0x0a}, peer[6] = {2, 0, 0, 0, 0, 0x0b};
	struct net_arp a, b;
	uint8_t f[64], out[64];
	unsigned int i;
	int rc;

	memset(&a, 0, sizeof(a));
	a.op = NET_ARP_REQUEST;
	memcpy(a.sha, mac, 6);
	memset(a.tha, 0x77, 6);		/* ignored in a request */
	a.spa = 0x0a000001u;
	a.tpa = 0x0a000002u;
	CHECKF(net_arp_build(f, NET_MIN_FRAME - 1, &a) == -EMSGSIZE, "cap");
	memset(f, 0xee, sizeof(f));
	CHECKF(net_arp_build(f, sizeof(f), &a) == NET_MIN_FRAME, "build");
	for (i = 0; i < 6; i++)
		CHECKF(f[i] == 0xff && f[NET_ETH_LEN + 18 + i] == 0, "broadcast, tha zero at %u", i);
	CHECKF(net_rd16(f + 12) == NET_ETHERTYPE_ARP, "ethertype");
	for (i = NET_ARP_LEN; i < NET_MIN_FRAME; i++)
		CHECKF(f[i] == 0, "padding at %u", i);
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == 0, "parse");
	CHECKF(b.op == NET_ARP_REQUEST && b.spa == a.spa && b.tpa == a.tpa &&
			memcmp(b.sha, mac, 6) == 0, "fields");
	/* refusals */
	CHECKF(net_arp_parse(f, NET_ETH_LEN - 1, &b) == -NET_ARP_E_TRUNC_ETH, "short eth");
	CHECKF(net_arp_parse(f, NET_ARP_LEN - 1, &b) == -NET_ARP_E_ARP, "short arp");
	f[12] = 0x08, f[13] = 0x00;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_ARP_E_ETHERTYPE, "ethertype");
	f[13] = 0x06;
	f[NET_ETH_LEN + 5] = 16;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_ARP_E_ARP, "plen");
	f[NET_ETH_LEN + 5] = 4;
	f[NET_ETH_LEN + 7] = 3;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_ARP_E_ARP, "op");
	f[NET_ETH_LEN + 7] = 1;
	/* answer: a request for 10.0.0.2 from peer */
	memcpy(f + 6, peer, 6);
	memcpy(f + NET_ETH_LEN + 8, peer, 6);
	CHECKF(net_arp_answer(f, NET_MIN_FRAME, mac, 0x0a000003u, out, sizeof(out)) == 0,
			"not for us");
	rc = net_arp_answer(f, NET_MIN_FRAME, mac, 0x0a000002u, out, sizeof(out));
	CHECKF(rc == NET_MIN_FRAME, "answer %d", rc);
	CHECKF(memcmp(out, peer, 6) == 0 && memcmp(out + 6, mac, 6) == 0, "reply addresses");
	CHECKF(net_arp_parse(out, (size_t)rc, &b) == 0 && b.op == NET_ARP_REPLY &&
			b.spa == 0x0a000002u && b.tpa == 0x0a000001u &&
			memcmp(b.tha, peer, 6) == 0 && memcmp(b.sha, mac, 6) == 0, "reply fields");
	CHECKF(net_arp_answer(out, (size_t)rc, peer, 0x0a000001u, f, sizeof(f)) == 0,
			"a reply is not answered");
	CHECKF(net_arp_answer(out, 10, mac, 0x0a000002u, f, sizeof(f)) == -NET_ARP_E_TRUNC_ETH,
			"malformed");
}

int
main(int argc, char **argv)
{
	static const struct {
		const char *name;
		void (*fn)(void);
	} tests[] = {
		{"csum", test_csum},
		{"be", test_be},
		{"hdr", test_hdr},
		{"arp", test_arp},
	};
	unsigned int i;
	int ran = 0;

	test_rng_seed(&rng, 4242);

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
			continue;
		tests[i].fn();
		ran++;
	}
	if (ran == 0) {
		fprintf(stderr, "usage: %s [csum|be|hdr|arp]\n", argv[0]);
		return 2;
	}
	return test_report("test_net");
}
