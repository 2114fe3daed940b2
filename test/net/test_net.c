/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/net unit tests: checksum against its plain reference and known
 * vectors, big-endian load/store, header writers, ARP, Ethernet / IPv4
 * validation, error names; the application side: the verifiable pattern
 * (its word kernels against the plain reference and a known vector), the
 * pattern source, the counting sink and its file's write errors; the ARP
 * neighbour entry (learned only from replies to our own requests).
 * Usage: test_net NAME
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

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
	CHECKF(net_arp_parse(f, NET_ETH_LEN - 1, &b) == -NET_E_TRUNC_ETH, "short eth");
	CHECKF(net_arp_parse(f, NET_ARP_LEN - 1, &b) == -NET_E_ARP, "short arp");
	f[12] = 0x08, f[13] = 0x00;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_E_ETHERTYPE, "ethertype");
	f[13] = 0x06;
	f[NET_ETH_LEN + 5] = 16;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_E_ARP, "plen");
	f[NET_ETH_LEN + 5] = 4;
	f[NET_ETH_LEN + 7] = 3;
	CHECKF(net_arp_parse(f, NET_MIN_FRAME, &b) == -NET_E_ARP, "op");
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
	CHECKF(net_arp_answer(out, 10, mac, 0x0a000002u, f, sizeof(f)) == -NET_E_TRUNC_ETH,
			"malformed");
}

/* A reply from spa / sha to tpa / tha. */
static struct net_arp
arp_reply(uint32_t spa, const uint8_t sha[6], uint32_t tpa, const uint8_t tha[6])
{
	struct net_arp a;

	a.op = NET_ARP_REPLY;
	a.spa = spa;
	memcpy(a.sha, sha, 6);
	a.tpa = tpa;
	memcpy(a.tha, tha, 6);
	return a;
}

/* The neighbour entry: learned only from replies to our own requests. */
static void
test_arp_entry(void)
{
	static const uint8_t me[6] = {2, 0, 0, 0, 0, 1}, peer[6] = {2, 0, 0, 0, 0, 2};
	static const uint8_t evil[6] = {2, 0x66, 0, 0, 0, 6}, bcast[6] = {0xff, 0xff, 0xff,
		0xff, 0xff, 0xff};
	const uint32_t my_ip = 0x0a000001u, ip = 0x0a000002u;
	const uint64_t ms = 1000000, life = 200 * ms;
	struct net_arp_entry e;
	struct net_arp a;

	net_arp_entry_init(&e, ip, NULL);
	CHECK(e.state == NET_ARP_NONE);
	/* before any request: an unsolicited reply to us, a gratuitous one: ignored */
	a = arp_reply(ip, evil, my_ip, me);
	CHECKF(net_arp_entry_reply(&e, &a, my_ip, me, 1 * ms) == NET_ARP_V_IGNORED,
			"unsolicited before the request");
	a = arp_reply(ip, evil, ip, bcast);
	CHECKF(net_arp_entry_reply(&e, &a, my_ip, me, 2 * ms) == NET_ARP_V_IGNORED, "gratuitous");
	CHECK(e.state == NET_ARP_NONE && e.unsolicited == 2 && e.conflicts == 0);
	/* not about this entry, or a request: none of its business, not counted */
	a = arp_reply(0x0a000009u, evil, my_ip, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 3 * ms) == NET_ARP_V_OTHER);
	a = arp_reply(ip, evil, my_ip, me);
	a.op = NET_ARP_REQUEST;
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 3 * ms) == NET_ARP_V_OTHER);
	CHECK(e.unsolicited == 2);
	/* our request at 10 ms: a reply to another address or MAC is not its answer */
	net_arp_entry_requested(&e, 10 * ms, life);
	a = arp_reply(ip, evil, 0x0a000003u, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 11 * ms) == NET_ARP_V_IGNORED);
	a = arp_reply(ip, evil, my_ip, peer);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 11 * ms) == NET_ARP_V_IGNORED);
	CHECK(e.state == NET_ARP_NONE && e.unsolicited == 4);
	/* ... the answer within its lifetime: learned */
	a = arp_reply(ip, peer, my_ip, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 12 * ms) == NET_ARP_V_LEARNED);
	CHECK(e.state == NET_ARP_RESOLVED && memcmp(e.mac, peer, 6) == 0);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 13 * ms) == NET_ARP_V_SAME);
	/* a second, different answer to the same request: a conflict, the check under way */
	a = arp_reply(ip, evil, my_ip, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 14 * ms) == NET_ARP_V_CONFLICT);
	CHECK(e.conflicts == 1 && memcmp(e.mac, peer, 6) == 0);
	/* after the lifetime: a conflicting reply asks for a re-check; the MAC stays */
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 10 * ms + life) == NET_ARP_V_RECHECK);
	net_arp_entry_requested(&e, 10 * ms + life, life);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 11 * ms + life) == NET_ARP_V_CONFLICT);
	CHECK(e.conflicts == 3 && memcmp(e.mac, peer, 6) == 0 && e.state == NET_ARP_RESOLVED);
	/* the owner confirms; a late answer after the lifetime is unsolicited */
	a = arp_reply(ip, peer, my_ip, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 12 * ms + life) == NET_ARP_V_SAME);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 10 * ms + 2 * life) == NET_ARP_V_IGNORED);
	/* a request's lifetime ends unanswered: its late answer is not taken */
	net_arp_entry_init(&e, ip, NULL);
	net_arp_entry_requested(&e, 0, life);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, life) == NET_ARP_V_IGNORED);
	CHECK(e.state == NET_ARP_NONE);
	/* pinned: resolved from the start, a conflict never re-checked */
	net_arp_entry_init(&e, ip, peer);
	CHECK(e.state == NET_ARP_PINNED && memcmp(e.mac, peer, 6) == 0);
	a = arp_reply(ip, evil, my_ip, me);
	CHECK(net_arp_entry_reply(&e, &a, my_ip, me, 5 * life) == NET_ARP_V_CONFLICT);
	CHECK(e.conflicts == 1 && memcmp(e.mac, peer, 6) == 0);
}

/* An Ethernet + IPv4 frame of proto with l4 bytes after the header (ihl 20 + opts). */
static size_t
mk_l3(uint8_t *f, uint8_t proto, unsigned int opts, unsigned int l4, size_t pad)
{
	static const uint8_t m[6] = {2, 0, 0, 0, 0, 1};
	uint8_t *ip = f + NET_ETH_LEN;
	uint16_t c;

	net_eth_build(f, m, m, NET_ETHERTYPE_IPV4);
	net_ipv4_build(ip, (uint16_t)(NET_IP_LEN + opts + l4), 64, proto, 0x0a000001u,
			0x0a000002u);
	ip[0] = (uint8_t)(0x40 | (NET_IP_LEN + opts) / 4);
	memset(ip + NET_IP_LEN, 1, opts);	/* NOP options */
	memset(ip + NET_IP_LEN + opts, 0x5a, l4 + pad);
	c = net_csum16(ip, NET_IP_LEN + opts, 0);
	memcpy(ip + 10, &c, 2);
	return NET_ETH_LEN + NET_IP_LEN + opts + l4 + pad;
}

static void
test_l3(void)
{
	uint8_t f[256];
	uint32_t l4_len = 0;
	size_t n;
	int rc;

	n = mk_l3(f, NET_PROTO_UDP, 0, 30, 10);	/* padded past the total length */
	rc = net_l3_parse(f, n, NET_PROTO_UDP, NET_UDP_LEN, 0, &l4_len);
	CHECKF(rc == NET_ETH_LEN + NET_IP_LEN && l4_len == 30, "udp: %d %u", rc, l4_len);
	CHECKF(net_l3_parse(f, n, NET_PROTO_TCP, 0, 0, &l4_len) == -NET_E_IP_PROTO, "proto");
	CHECKF(net_l3_parse(f, n, NET_PROTO_UDP, 31, 0, &l4_len) == -NET_E_IP_LEN, "min_l4");
	/* every truncation is refused, never read past the end */
	for (size_t l = 0; l < NET_ETH_LEN + NET_IP_LEN + 30; l++) {
		uint8_t *t = malloc(l + 1);

		memcpy(t, f, l);
		CHECKF(net_l3_parse(t, l, NET_PROTO_UDP, 0, 0, &l4_len) < 0, "len %zu", l);
		free(t);
	}
	CHECK(net_l3_parse(f, NET_ETH_LEN - 1, NET_PROTO_UDP, 0, 0, &l4_len) == -NET_E_TRUNC_ETH);
	CHECK(net_l3_parse(f, NET_ETH_LEN + 10, NET_PROTO_UDP, 0, 0, &l4_len) == -NET_E_TRUNC_IP);
	CHECK(net_l3_parse(f, NET_ETH_LEN + 40, NET_PROTO_UDP, 0, 0, &l4_len) == -NET_E_IP_LEN);
	f[12] = 0x86;
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, 0, &l4_len) == -NET_E_ETHERTYPE);
	f[12] = 0x08;
	f[NET_ETH_LEN + 8] ^= 1;	/* TTL changed, checksum stale */
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, 0, &l4_len) == -NET_E_IP_CSUM);
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, NET_L3_CSUM_OK, &l4_len) > 0);
	f[NET_ETH_LEN + 8] ^= 1;
	f[NET_ETH_LEN] = 0x65;		/* version 6 */
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, NET_L3_CSUM_OK, &l4_len) == -NET_E_IP_HDR);
	f[NET_ETH_LEN] = 0x44;		/* IHL 4 */
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, NET_L3_CSUM_OK, &l4_len) == -NET_E_IP_HDR);
	n = mk_l3(f, NET_PROTO_UDP, 0, 30, 0);
	f[NET_ETH_LEN + 6] = 0x20;	/* more fragments */
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, NET_L3_CSUM_OK, &l4_len) == -NET_E_IP_FRAG);
	f[NET_ETH_LEN + 6] = 0x00;
	f[NET_ETH_LEN + 7] = 0x08;	/* fragment offset */
	CHECK(net_l3_parse(f, n, NET_PROTO_UDP, 0, NET_L3_CSUM_OK, &l4_len) == -NET_E_IP_FRAG);
	/* options: refused unless allowed; the L4 header after them */
	n = mk_l3(f, NET_PROTO_TCP, 8, 20, 0);
	CHECK(net_l3_parse(f, n, NET_PROTO_TCP, 0, 0, &l4_len) == -NET_E_IP_HDR);
	rc = net_l3_parse(f, n, NET_PROTO_TCP, 0, NET_L3_OPTS, &l4_len);
	CHECKF(rc == NET_ETH_LEN + 28 && l4_len == 20, "options: %d %u", rc, l4_len);
	f[NET_ETH_LEN] = 0x4f;		/* IHL 60: past the frame */
	CHECK(net_l3_parse(f, n, NET_PROTO_TCP, 0, NET_L3_OPTS | NET_L3_CSUM_OK, &l4_len) ==
			-NET_E_IP_HDR);
}

static void
test_err(void)
{
	static const char *const own[NET_E_MAX + 2] = {
		[NET_E_MAX] = "mine",
	};

	CHECK(strcmp(net_err_str(-NET_E_IP_CSUM, NULL, 0), "ip-checksum") == 0);
	CHECK(strcmp(net_err_str(NET_E_ARP, own, NET_E_MAX + 2), "arp") == 0);
	CHECK(strcmp(net_err_str(-NET_E_MAX, own, NET_E_MAX + 2), "mine") == 0);
	CHECK(strcmp(net_err_str(NET_E_MAX + 1, own, NET_E_MAX + 2), "?") == 0);
	CHECK(strcmp(net_err_str(NET_E_MAX + 2, own, NET_E_MAX + 2), "?") == 0);
	CHECK(strcmp(net_err_str(NET_E_MAX, NULL, 0), "?") == 0);
	for (int e = 0; e < NET_E_MAX; e++)
		CHECKF(strcmp(net_err_str(e, NULL, 0), "?") != 0, "code %d named", e);
}

/*
 * The definition, written out once more: byte o of the stream is byte
 * (o & 7) of the little-endian word o >> 3; word w is splitmix64 of its
 * line w >> 3 (and the seed) XOR lane (w & 7) times the golden-ratio constant.
 */
static uint8_t
pat_def(uint32_t seed, uint64_t o)
{
	uint64_t w = o >> 3;
	uint64_t z = (w >> 3) * 0x9e3779b97f4a7c15ull + ((uint64_t)seed << 32 | seed);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	z ^= (w & 7) * 0x9e3779b97f4a7c15ull;
	return (uint8_t)(z >> (8 * (o & 7)));
}

static void
test_pattern(void)
{
	/* seed 7 at offsets 0 and 61: the bytes test/engine/tcp_test.py's copy makes */
	static const uint8_t kv0[16] = { 0x9c, 0x89, 0xa7, 0x41, 0x94, 0xc3, 0x61, 0x99,
		0x89, 0xf5, 0xed, 0x3e, 0x2d, 0xba, 0x56, 0x07 };
	static const uint8_t kv61[16] = { 0x97, 0xe5, 0xca, 0x5a, 0xd1, 0x28, 0xb4, 0xf8,
		0xa6, 0x1a, 0xce, 0x4f, 0xad, 0x62, 0xcb, 0x41 };
	uint8_t a[1000], b[300], c[1000];

	net_pattern_fill(7, 0, b, 16);
	CHECKF(memcmp(b, kv0, 16) == 0, "known vector at 0");
	net_pattern_fill(7, 61, b, 16);
	CHECKF(memcmp(b, kv61, 16) == 0, "known vector at 61");
	net_pattern_fill_ref(7, 61, b, 16);
	CHECKF(memcmp(b, kv61, 16) == 0, "reference, known vector");
	for (uint64_t o = 0; o < 200; o++) {
		net_pattern_fill_ref(3, o, b, 1);
		CHECKF(b[0] == pat_def(3, o), "reference at %llu", (unsigned long long)o);
	}
	/* a window of the stream is the same wherever it is filled from */
	net_pattern_fill(7, 12345, a, sizeof(a));
	for (int off = 0; off < 700; off += 77) {
		net_pattern_fill(7, 12345 + off, b, sizeof(b));
		CHECKF(memcmp(a + off, b, sizeof(b)) == 0, "window at %d", off);
		CHECKF(net_pattern_check(7, 12345 + off, b, sizeof(b)) == sizeof(b), "check %d", off);
	}
	net_pattern_fill(7, 12345, c, 333);
	net_pattern_fill(7, 12345 + 333, c + 333, 667);
	CHECKF(memcmp(c, a, sizeof(c)) == 0, "in pieces");
	CHECKF(net_pattern_check(8, 12345, a, sizeof(a)) < 8, "another seed");
	CHECKF(net_pattern_check(7, 12346, a, sizeof(a)) < sizeof(a), "another offset");
}

/* The vectorized word kernels against the plain reference: offsets, lengths, mismatches. */
static void
test_kernels(void)
{
	static uint8_t buf[70000], ref[70000];
	static const size_t lens[] = { 0, 1, 7, 8, 9, 63, 64, 511, 512, 513, 520, 1420,
		4096 + 3, 66740, 69999 };
	static const uint64_t offs[] = { 0, 1, 5, 8, 66740, 133480 + 3, (1ull << 40) + 7 };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (size_t j = 0; j < sizeof(offs) / sizeof(offs[0]); j++) {
			size_t len = lens[i];
			uint64_t off = offs[j];

			memset(buf, 0xa5, sizeof(buf));
			net_pattern_fill(9, off, buf, len);
			net_pattern_fill_ref(9, off, ref, len);
			CHECKF(memcmp(buf, ref, len) == 0, "fill len %zu off %llu", len,
					(unsigned long long)off);
			CHECK(len == sizeof(buf) || buf[len] == 0xa5);	/* no overrun */
			CHECK(net_pattern_check(9, off, buf, len) == len);
			/* a single flipped byte is found exactly, wherever it is */
			for (size_t k = 0; k < len; k += len / 5 + 1) {
				buf[k] ^= 0x10;
				CHECKF(net_pattern_check(9, off, buf, len) == k, "flip at %zu", k);
				buf[k] ^= 0x10;
			}
			if (len) {
				buf[len - 1] ^= 1;
				CHECK(net_pattern_check(9, off, buf, len) == len - 1);
				buf[len - 1] ^= 1;
			}
		}
	}
}

static void
test_src(void)
{
	struct net_src_pattern s;
	uint8_t buf[256], want[256];
	char path[] = "/tmp/test_net.XXXXXX";
	int fd;

	/* byte limit: the stream ends at total, in order, whatever the read sizes */
	net_src_pattern_init(&s, 4, 300, 0);
	CHECK(net_src_pattern_read(&s, 5, buf, 200) == 200);
	net_pattern_fill(4, 0, want, 200);
	CHECK(memcmp(buf, want, 200) == 0);
	CHECK(net_src_pattern_read(&s, 6, buf, 200) == 100);
	net_pattern_fill(4, 200, want, 100);
	CHECK(memcmp(buf, want, 100) == 0);
	CHECK(net_src_pattern_read(&s, 7, buf, 200) == 0);
	/* time limit: from the first call */
	net_src_pattern_init(&s, 4, 0, 1000);
	CHECK(net_src_pattern_read(&s, 5000, buf, 10) == 10);
	CHECK(net_src_pattern_read(&s, 5999, buf, 10) == 10);
	CHECK(net_src_pattern_read(&s, 6000, buf, 10) == 0);
	CHECK(s.off == 20);
	/* a file instead of the pattern, to its end */
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	unlink(path);
	CHECK(write(fd, "hello", 5) == 5);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	net_src_pattern_init(&s, 4, 0, 0);
	s.fd = fd;
	CHECK(net_src_pattern_read(&s, 0, buf, sizeof(buf)) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK(net_src_pattern_read(&s, 0, buf, sizeof(buf)) == 0);
	close(fd);
}

static void
test_sink(void)
{
	struct net_sink_count k;
	uint8_t buf[300], back[300];
	char path[] = "/tmp/test_net.XXXXXX";
	int fd;

	net_pattern_fill(11, 1000, buf, sizeof(buf));
	net_sink_count_init(&k, 11, 1);
	k.next_off = 1000;
	net_sink_count_write(&k, 1000, buf, 100);
	net_sink_count_write(&k, 1100, buf + 100, 200);
	CHECK(k.bytes == 300 && k.bad_bytes == 0 && k.order_errors == 0 && k.next_off == 1300);
	/* a gap, then a corrupted chunk: counted, never fatal */
	net_sink_count_write(&k, 1400, buf, 100);
	CHECK(k.order_errors == 1 && k.bad_bytes == 100);
	/* length only (a receiver that does not decode): counted, not verified */
	net_sink_count_write(&k, 1500, NULL, 50);
	CHECK(k.bytes == 450 && k.bad_bytes == 100 && k.next_off == 1550);
	/* not verifying: a wrong pattern passes */
	net_sink_count_init(&k, 12, 0);
	net_sink_count_write(&k, 0, buf, 100);
	CHECK(k.bad_bytes == 0 && k.bytes == 100);
	/* the data also to a file */
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	unlink(path);
	net_sink_count_init(&k, 11, 1);
	k.fd = fd;
	k.next_off = 1000;
	net_sink_count_write(&k, 1000, buf, sizeof(buf));
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, back, sizeof(back)) == (ssize_t)sizeof(back));
	CHECK(memcmp(back, buf, sizeof(buf)) == 0 && k.bad_bytes == 0);
	close(fd);
}

/* The sink's file fails: the first error recorded, nothing written after it. */
static void
test_sink_err(void)
{
	struct net_sink_count k;
	struct rlimit old, lim;
	uint8_t buf[1500];
	char path[] = "/tmp/test_net.XXXXXX", path2[] = "/tmp/test_net.XXXXXX";
	int fd;

	net_pattern_fill(5, 0, buf, sizeof(buf));
	/* a full device: ENOSPC at once; counting goes on, the file is left alone */
	net_sink_count_init(&k, 5, 1);
	k.fd = open("/dev/full", O_WRONLY);
	REQUIRE(k.fd >= 0);
	net_sink_count_write(&k, 0, buf, 100);
	CHECKF(k.err == -ENOSPC && k.file_bytes == 0, "err %d", k.err);
	net_sink_count_write(&k, 100, buf + 100, 100);
	CHECK(k.err == -ENOSPC && k.bytes == 200 && k.bad_bytes == 0);
	CHECKF(net_sink_count_sync(&k) == -ENOSPC, "sync keeps the first error");
	close(k.fd);
	/* a file size limit: a short write, then EFBIG (the rest cannot be written) */
	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	unlink(path);
	REQUIRE(getrlimit(RLIMIT_FSIZE, &old) == 0);
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 1000;
	REQUIRE(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	net_sink_count_init(&k, 5, 1);
	k.fd = fd;
	net_sink_count_write(&k, 0, buf, 600);
	CHECK(k.err == 0 && k.file_bytes == 600);
	net_sink_count_write(&k, 600, buf + 600, 900);
	REQUIRE(setrlimit(RLIMIT_FSIZE, &old) == 0);
	CHECKF(k.err == -EFBIG && k.file_bytes == 1000, "err %d, %llu bytes written", k.err,
			(unsigned long long)k.file_bytes);
	CHECK(lseek(fd, 0, SEEK_END) == 1000);
	/* writes after the error go nowhere (the limit is lifted by now) */
	net_sink_count_write(&k, 1500, buf, 100);
	CHECK(lseek(fd, 0, SEEK_END) == 1000 && k.bytes == 1600);
	close(fd);
	/* a good file syncs; a read-only descriptor fails the write (EBADF) */
	fd = mkstemp(path2);
	REQUIRE(fd >= 0);
	unlink(path2);
	net_sink_count_init(&k, 5, 0);
	k.fd = fd;
	net_sink_count_write(&k, 0, buf, sizeof(buf));
	CHECK(k.err == 0 && k.file_bytes == sizeof(buf) && net_sink_count_sync(&k) == 0);
	close(fd);
	net_sink_count_init(&k, 5, 0);
	k.fd = open("/dev/null", O_RDONLY);
	REQUIRE(k.fd >= 0);
	net_sink_count_write(&k, 0, buf, 10);
	CHECK(k.err == -EBADF);
	close(k.fd);
	/* /dev/null cannot fsync (EINVAL): synced; no file: nothing to sync */
	net_sink_count_init(&k, 5, 0);
	k.fd = open("/dev/null", O_WRONLY);
	REQUIRE(k.fd >= 0);
	net_sink_count_write(&k, 0, buf, 10);
	CHECK(k.err == 0 && net_sink_count_sync(&k) == 0);
	close(k.fd);
	k.fd = -1;
	CHECK(net_sink_count_sync(&k) == 0);
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
		{"arp_entry", test_arp_entry},
		{"l3", test_l3},
		{"err", test_err},
		{"pattern", test_pattern},
		{"kernels", test_kernels},
		{"src", test_src},
		{"sink", test_sink},
		{"sink_err", test_sink_err},
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
		fprintf(stderr, "usage: %s [csum|be|hdr|arp|arp_entry|l3|err|pattern|kernels|src|sink|sink_err]\n", argv[0]);
		return 2;
	}
	return test_report("test_net");
}
