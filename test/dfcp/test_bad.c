/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp bad input: random and mutated frames into live endpoints (counted
 * and dropped, never a crash), corrupted symbols caught by the UDP
 * checksum while the transfer still completes exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DFCP_FUZZ_NO_MAIN
#include "fuzz_dfcp.c"
#include "vnet.h"

static uint64_t rs = 0x9e3779b97f4a7c15ull;

static uint32_t
rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs >> 16);
}

static void
test_random_records(void)
{
	uint8_t in[512];

	for (int it = 0; it < 3000; it++) {
		size_t n = rnd() % sizeof(in);

		for (size_t i = 0; i < n; i++)
			in[i] = (uint8_t)rnd();
		/* bias towards well-formed DFCP headers: version 1, known types */
		for (size_t i = 0; i + 16 < n; i += 2 + in[i + 1]) {
			if ((in[i] & 3) == 1 || (in[i] & 3) == 2) {
				in[i + 2] = 1;
				in[i + 3] = (uint8_t)(1 + rnd() % 8);
			}
			if (in[i + 1] > 60)
				in[i + 1] = (uint8_t)(12 + rnd() % 50);
		}
		dfcp_fuzz_one(in, n);
	}
}

struct corrupt {
	uint64_t n;
};

/* flip a byte of every 7th DATA symbol in flight */
static int
corrupt_filter(void *ctx, int dir, const uint8_t *f, uint16_t len)
{
	struct corrupt *c = ctx;

	if (dir == 0 && len > DFCP_DATA_OFF + 8 && f[43] == DFCP_T_DATA && (++c->n % 7) == 0)
		((uint8_t *)f)[DFCP_DATA_OFF + 5] ^= 0x40;
	return 0;
}

static struct dfcp_conn *g_a;

static int
a_closed(void *ctx)
{
	(void)ctx;
	return dfcp_conn_state(g_a) == DFCP_CLOSED;
}

static void
test_garbage_symbols(void)
{
	struct net_sink_count sink;
	struct net_src_pattern src;
	struct dfcp_ep_conf ec;
	struct dfcp_conn_conf cc;
	struct dfcp_ep *ea, *eb;
	struct dfcp_ep_stats st;
	struct corrupt cr = { 0 };
	struct vnet v;

	net_src_pattern_init(&src, 42, 100 * 47 * 64, 0);
	net_sink_count_init(&sink, 42, 1);
	dfcp_ep_conf_default(&ec);
	ec.local = fz_a;
	ec.listen = 0;
	ec.max_conns = 4;
	ec.max_half_open = 2;
	ea = dfcp_ep_create(&ec);
	ec.local = fz_b;
	ec.listen = 1;
	ec.accept_conf.sink = net_sink_count_write;
	ec.accept_conf.sink_ctx = &sink;
	eb = dfcp_ep_create(&ec);
	dfcp_conn_conf_default(&cc);
	cc.remote = fz_b;
	cc.T = 64;
	cc.K = 47;
	cc.window = 8;
	cc.redundancy = DFCP_REDUNDANCY_AUTO;
	cc.csum = DFCP_CSUM_FULL;
	cc.source = net_src_pattern_read;
	cc.source_ctx = &src;
	vn_init(&v, ea, eb, 77);
	v.filter = corrupt_filter;
	v.filter_ctx = &cr;
	REQUIRE(ea != NULL && eb != NULL);
	g_a = dfcp_ep_connect(ea, &cc, 0);
	REQUIRE(g_a != NULL);
	vn_run(&v, 100000ull * 1000000, a_closed, NULL);
	CHECK(dfcp_conn_state(g_a) == DFCP_CLOSED);
	CHECK(sink.bytes == 100 * 47 * 64 && sink.bad_bytes == 0 && sink.order_errors == 0);
	dfcp_ep_stats(eb, &st);
	CHECK(st.drops[DFCP_E_UDP_CSUM] > 0);
	printf("corrupted symbols dropped by checksum: %llu\n",
		(unsigned long long)st.drops[DFCP_E_UDP_CSUM]);
	vn_fini(&v);
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
}

int
main(void)
{
	test_random_records();
	test_garbage_symbols();
	return test_report("dfcp-bad");
}
