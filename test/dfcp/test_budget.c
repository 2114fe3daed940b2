/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The capacity budget (dfcp_budget.c): the table against a plain binomial
 * reference, the loss bound as the estimate firms, and one flow over a
 * virtual-clock channel with independent loss on the data path: every byte
 * delivered and verified, efficiency (goodput over (1 - loss) x the symbols
 * sent) >= 0.99 at 1, 10 and 30 % loss.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "vnet.h"

#define MS	1000000ull
#define US	1000ull

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

/* Reference: E[(X - m)+], X ~ Bin(n, q), by the plain sum over the pmf. */
static double
ref_over(uint32_t n, double q, uint32_t m)
{
	double s = 0.0;

	for (uint32_t x = m + 1; x <= n; x++)
		s += (x - m) * exp(lgamma(n + 1.0) - lgamma(x + 1.0) - lgamma(n - x + 1.0) +
				x * log(q) + (n - x) * log1p(-q));
	return s;
}

static void
test_table(void)
{
	static const double ps[] = { 0.001, 0.01, 0.05, 0.1, 0.2, 0.3, 0.5 };
	static const uint32_t needs[] = { 1, 2, 5, 13, 47, 64 };

	dfcp_budget_init();
	for (uint32_t m = 1; m < 70000; m = m * 3 + 1)
		CHECK(dfcp_budget_syms(m, 0, 1u << 30) == m);	/* no loss: need */
	CHECK(dfcp_budget_syms(0, 6554, 100) == 0);
	CHECK(dfcp_budget_syms(5000, 32768, 100) == 100);	/* the cap */
	for (unsigned int i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		uint32_t lq = (uint32_t)(ps[i] * 65536);

		for (unsigned int j = 0; j < sizeof(needs) / sizeof(needs[0]); j++) {
			uint32_t m = needs[j], n = dfcp_budget_syms(m, lq, 1u << 30);
			double q = 1.0 - ps[i];

			/* within the budget, and the next symbol would not be */
			CHECK(n >= m);
			CHECK(ref_over(n, q, m) <= 0.2 + 1e-9);
			if (i + 1 < sizeof(ps) / sizeof(ps[0]))
				CHECK(dfcp_budget_syms(m, (uint32_t)(ps[i + 1] * 65536),
						1u << 30) >= n);
		}
		/* not far below the budget either: a few symbols more would pass it */
		CHECK(ref_over(dfcp_budget_syms(47, lq, 1u << 30) + 4, 1.0 - ps[i], 47) > 0.2);
	}
	/* large blocks: the excess scales, the overshoot stays under need / 512 + 1 */
	for (uint32_t m = 100; m <= 8192; m *= 3) {
		uint32_t n = dfcp_budget_syms(m, 6554, 1u << 30);
		double q = 1.0 - 6554 / 65536.0, mu = n * q, sd = sqrt(n * q * (1 - q));
		double t = (m - mu) / sd;
		double over = (mu - m) * 0.5 * erfc(t / sqrt(2.0)) +
			sd * exp(-t * t / 2) / sqrt(2 * M_PI);

		CHECK(n > m && n < m / q);
		CHECK(over <= m / 512.0 + 1.0);
	}
}

static void
test_loss_bound(void)
{
	struct loss_model lm;
	uint32_t lo[4];
	static const uint64_t tot[] = { 16, 128, 1024, 100000 };

	memset(&lm, 0, sizeof(lm));
	lm.loss_q16 = 6554;	/* 10 % */
	CHECK(dfcp_budget_loss_lo(&lm) == 0);	/* no report yet */
	lm.have = 1;
	for (int i = 0; i < 4; i++) {
		lm.total = tot[i];
		lo[i] = dfcp_budget_loss_lo(&lm);
		CHECK(lo[i] <= lm.loss_q16);
		if (i > 0)
			CHECK(lo[i] >= lo[i - 1]);	/* firmer: closer to the estimate */
	}
	/* 16 packets: 10 % - 7.5 %; the memory's 2048: 10 % - 0.66 % */
	CHECK(lo[0] < 2000 && lo[3] > 6000);
	CHECK(lo[2] < lo[3]);
	CHECK(lo[3] == (lm.total = 2048, dfcp_budget_loss_lo(&lm)));
}

static struct dfcp_conn *g_a;

static int
done(void *ctx)
{
	(void)ctx;
	return dfcp_conn_state(g_a) == DFCP_CLOSED;
}

/* One flow, loss p on the data path only; returns the sender's and receiver's stats. */
static void
run_channel(uint32_t loss_ppm, uint64_t delay_ns, uint64_t pkt_ns, uint32_t window,
		uint16_t K, uint64_t seed, struct dfcp_stats *ss, struct dfcp_stats *rs,
		struct net_sink_count *sink, uint64_t bytes)
{
	struct dfcp_ep_conf ec;
	struct dfcp_conn_conf cc;
	struct net_src_pattern src;
	struct dfcp_ep *ea, *eb;
	struct dfcp_conn *b;
	struct vnet v;
	uint32_t pos = 0;

	net_src_pattern_init(&src, (uint32_t)seed, bytes, 0);
	net_sink_count_init(sink, (uint32_t)seed, 1);
	dfcp_ep_conf_default(&ec);
	ec.local = A;
	ec.listen = 0;
	ec.max_conns = 4;
	ec.max_half_open = 1;
	ea = dfcp_ep_create(&ec);
	ec.local = B;
	ec.listen = 1;
	ec.limits.max_window = window;
	ec.accept_conf.sink = net_sink_count_write;
	ec.accept_conf.sink_ctx = sink;
	eb = dfcp_ep_create(&ec);
	REQUIRE(ea != NULL && eb != NULL);
	dfcp_conn_conf_default(&cc);
	cc.remote = B;
	cc.T = 64;
	cc.K = K;
	cc.window = window;
	cc.redundancy = DFCP_REDUNDANCY_AUTO;
	cc.csum = DFCP_CSUM_UDP_ZERO;
	cc.source = net_src_pattern_read;
	cc.source_ctx = &src;
	vn_init(&v, ea, eb, seed);
	v.dir[0].loss_ppm = loss_ppm;
	v.dir[0].delay_ns = delay_ns;
	v.dir[1].delay_ns = delay_ns;
	v.dir[0].pkt_ns = v.dir[1].pkt_ns = pkt_ns;
	g_a = dfcp_ep_connect(ea, &cc, 0);
	REQUIRE(g_a != NULL);
	vn_run(&v, 600000 * MS, done, NULL);
	CHECK(dfcp_conn_state(g_a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(g_a) == DFCP_CR_DONE);
	dfcp_conn_stats(g_a, ss);
	b = dfcp_ep_next_conn(eb, &pos);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, rs);
	vn_fini(&v);
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
}

/*
 * 0.1 and 2 ms one-way (1 us a packet), and 50 ms one-way at 1 Gbit/s
 * (12 us a packet: an RTT is 177 blocks), with windows of room: a block
 * takes ~1 + log(pK) / log(1/p) rounds. With 6 RTTs' worth of window at 30 %
 * the window is often 5/8 full: first rounds fall back to one-round sizes.
 */
static void
test_channel(void)
{
	static const struct {
		uint32_t loss_ppm, window, blocks, min_ppm;
		uint64_t delay_ns, pkt_ns;
		uint16_t K;	/* 0: 47 */
	} cs[] = {
		{ 10000, 256, 600, 990000, 100 * US, US, 0 },
		{ 100000, 256, 600, 990000, 100 * US, US, 0 },
		{ 300000, 256, 600, 990000, 100 * US, US, 0 },
		{ 10000, 1024, 600, 990000, 2 * MS, US, 0 },
		{ 100000, 1024, 600, 990000, 2 * MS, US, 0 },
		{ 300000, 1024, 600, 990000, 2 * MS, US, 0 },
		{ 10000, 2000, 3000, 990000, 50 * MS, 12 * US, 0 },
		{ 100000, 2000, 3000, 990000, 50 * MS, 12 * US, 0 },
		{ 300000, 2000, 3000, 990000, 50 * MS, 12 * US, 0 },
		{ 300000, 1100, 3000, 965000, 50 * MS, 12 * US, 0 },
		/* K = 400: a first round is 0.4 of the loss estimate's memory, and
		 * its residual is taken against the estimate before its report */
		{ 10000, 256, 150, 990000, 10 * US, 2 * US, 400 },
		{ 100000, 256, 150, 990000, 10 * US, 2 * US, 400 },
	};

	printf("%-6s %-7s %6s %7s %9s %7s %7s %7s %8s %4s\n", "loss%", "delay", "window", "blocks",
		"sym/blk", "1stpass", "topups", "stale", "effic%", "phi%");
	for (unsigned int i = 0; i < sizeof(cs) / sizeof(cs[0]); i++) {
		struct dfcp_stats ss, rs;
		struct net_sink_count sink;
		uint16_t K = cs[i].K != 0 ? cs[i].K : 47;
		uint64_t bytes = (uint64_t)cs[i].blocks * K * 64 + 31;

		run_channel(cs[i].loss_ppm, cs[i].delay_ns, cs[i].pkt_ns, cs[i].window, K, 40 + i,
				&ss, &rs, &sink, bytes);
		printf("%-6.1f %5.1fms %6u %7llu %9.2f %7llu %7llu %7llu %8.2f %4u\n",
			cs[i].loss_ppm / 1e4, cs[i].delay_ns / 1e6, cs[i].window,
			(unsigned long long)ss.blocks_acked,
			(double)ss.tx_data_pkts / (double)ss.blocks_acked,
			(unsigned long long)ss.blocks_first_pass, (unsigned long long)ss.topups,
			(unsigned long long)rs.stale_syms, ss.efficiency_ppm / 1e4,
			ss.dispersion_pct);
		/* zero loss of data */
		CHECK(sink.bytes == bytes && sink.bad_bytes == 0 && sink.order_errors == 0);
		CHECK(ss.goodput_bytes == bytes);
		/* at the channel's capacity */
		CHECK(ss.efficiency_ppm >= cs[i].min_ppm);
		/* what arrived past a block's need: under 1 % of the symbols (room) */
		CHECK(cs[i].min_ppm < 990000 || rs.stale_syms * 100 <= rs.rx_data_pkts);
		CHECK(ss.timeouts <= 4);
	}
}

int
main(void)
{
	test_table();
	test_loss_bound();
	test_channel();
	return test_report("dfcp-budget");
}
