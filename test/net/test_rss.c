/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_rss: the Toeplitz hash against the RSS verification suite's IPv4
 * vectors (Microsoft's default key; hashes published for IPv4 alone and
 * with TCP ports), against DPDK's rte_softrss() on the same vectors and on
 * random 4-tuples and keys, and the RETA rule against a table filled as a
 * NIC's is.
 */
#include <stdio.h>
#include <string.h>

#include <rte_thash.h>

#include "net_rss.h"
#include "test_harness.h"

#define IP4(a, b, c, d) ((uint32_t)(a) << 24 | (uint32_t)(b) << 16 | (uint32_t)(c) << 8 | (d))

/* The verification suite: destination, source, the IPv4 hash, the IPv4 + TCP hash. */
static const struct {
	uint32_t dst_ip;
	uint16_t dst_port;
	uint32_t src_ip;
	uint16_t src_port;
	uint32_t h_ip, h_tcp;
} suite[] = {
	{IP4(161, 142, 100, 80), 1766, IP4(66, 9, 149, 187), 2794, 0x323e8fc2, 0x51ccc178},
	{IP4(65, 69, 140, 83), 4739, IP4(199, 92, 111, 2), 14230, 0xd718262a, 0xc626b0ea},
	{IP4(12, 22, 207, 184), 38024, IP4(24, 19, 198, 95), 12898, 0xd2d0a5de, 0x5c2b394a},
	{IP4(209, 142, 163, 6), 2217, IP4(38, 27, 205, 30), 48228, 0x82989176, 0xafc7327f},
	{IP4(202, 188, 127, 2), 1303, IP4(153, 39, 163, 191), 44251, 0x5d1809c5, 0x10e828a2},
};

/* DPDK's software RSS over the same 4-tuple (its tuple words in host order). */
static uint32_t
softrss(const uint8_t *key, uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport)
{
	struct rte_ipv4_tuple t;

	memset(&t, 0, sizeof(t));
	t.src_addr = sip;
	t.dst_addr = dip;
	t.sport = sport;
	t.dport = dport;
	return rte_softrss((uint32_t *)&t, RTE_THASH_V4_L4_LEN, key);
}

static void
test_suite(void)
{
	const uint8_t *k = net_rss_key_default;
	uint8_t ip[8];
	unsigned int i;

	for (i = 0; i < RTE_DIM(suite); i++) {
		uint32_t h = net_rss_ipv4_l4(k, suite[i].src_ip, suite[i].dst_ip,
				suite[i].src_port, suite[i].dst_port);

		CHECKF(h == suite[i].h_tcp, "vector %u: 0x%08x, published 0x%08x", i, h,
				suite[i].h_tcp);
		CHECK(softrss(k, suite[i].src_ip, suite[i].dst_ip, suite[i].src_port,
				suite[i].dst_port) == h);
		/* the IPv4-only hash: the first 8 bytes of the same input */
		ip[0] = suite[i].src_ip >> 24;
		ip[1] = (suite[i].src_ip >> 16) & 0xff;
		ip[2] = (suite[i].src_ip >> 8) & 0xff;
		ip[3] = suite[i].src_ip & 0xff;
		ip[4] = suite[i].dst_ip >> 24;
		ip[5] = (suite[i].dst_ip >> 16) & 0xff;
		ip[6] = (suite[i].dst_ip >> 8) & 0xff;
		ip[7] = suite[i].dst_ip & 0xff;
		h = net_toeplitz(k, NET_RSS_KEY_LEN, ip, sizeof(ip));
		CHECKF(h == suite[i].h_ip, "vector %u (IPv4 only): 0x%08x, published 0x%08x", i,
				h, suite[i].h_ip);
	}
	printf("ok %u verification-suite vectors\n", (unsigned int)RTE_DIM(suite));
}

/* Random 4-tuples (a seventh with a receiver's "any" remote) under the default
 * key and under random keys. */
static void
test_random(void)
{
	struct test_rng r;
	uint8_t key[NET_RSS_KEY_LEN];
	unsigned int i, j, fails = 0;

	test_rng_seed(&r, 32);
	for (i = 0; i < 100000; i++) {
		uint32_t sip = (uint32_t)test_rng_next(&r), dip = (uint32_t)test_rng_next(&r);
		uint16_t sport = (uint16_t)test_rng_next(&r), dport = (uint16_t)test_rng_next(&r);
		const uint8_t *k = net_rss_key_default;

		if (i & 1) {
			for (j = 0; j < NET_RSS_KEY_LEN; j++)
				key[j] = (uint8_t)test_rng_next(&r);
			k = key;
		}
		if (i % 7 == 0)
			sip = sport = 0;
		if (net_rss_ipv4_l4(k, sip, dip, sport, dport) !=
				softrss(k, sip, dip, sport, dport) && fails++ < 5)
			fprintf(stderr, "FAIL: %08x:%u -> %08x:%u differs from rte_softrss\n", sip,
					sport, dip, dport);
	}
	CHECKF(fails == 0, "%u of 100000 random tuples differ from rte_softrss", fails);
	printf("ok 100000 random tuples as rte_softrss\n");
}

/* A key shorter than the input: its missing bits count as 0. */
static void
test_short_key(void)
{
	uint8_t in[12], key[NET_RSS_KEY_LEN];
	unsigned int i;

	memset(key, 0, sizeof(key));
	memcpy(key, net_rss_key_default, 8);
	for (i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(0x11 * i + 3);
	CHECK(net_toeplitz(net_rss_key_default, 8, in, sizeof(in)) ==
			net_toeplitz(key, sizeof(key), in, sizeof(in)));
	CHECK(net_toeplitz(net_rss_key_default, NET_RSS_KEY_LEN, in, 0) == 0);
}

/* net_rss_queue is the entry of a 128-entry RETA filled j % nb_queues, and a
 * NIC with a larger table (a multiple of 128) filled the engine's way agrees. */
static void
test_reta(void)
{
	uint16_t reta[512];
	struct test_rng r;
	unsigned int q, i, j;

	test_rng_seed(&r, 7);
	for (q = 1; q <= 16; q++) {
		for (j = 0; j < RTE_DIM(reta); j++)
			reta[j] = (uint16_t)((j % NET_RSS_RETA_SIZE) % q);
		for (i = 0; i < 10000; i++) {
			uint32_t h = (uint32_t)test_rng_next(&r);

			CHECK(net_rss_queue(h, q) == reta[h % NET_RSS_RETA_SIZE]);
			CHECK(net_rss_queue(h, q) == reta[h % RTE_DIM(reta)]);
			CHECK(net_rss_queue(h, q) < q);
		}
	}
}

int
main(void)
{
	test_suite();
	test_random();
	test_short_key();
	test_reta();
	return test_report("net_rss");
}
