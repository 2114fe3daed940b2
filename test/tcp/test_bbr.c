/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BBR (cc_bbr.c) over an emulated 100 Mbit/s, 20 ms RTT path on a virtual
 * clock: one bulk transfer fills at least 90 % of the link's payload
 * capacity with the bottleneck queue below 2 BDP after STARTUP (below
 * 2.5 BDP in it: its cwnd gain 2.885 queues up to ~1.9 BDP), passes
 * STARTUP -> DRAIN -> PROBE_BW in its first second and enters PROBE_RTT
 * every ~10 s (cwnd 4 segments there); its pacing keeps the departures
 * spaced; at 5 % random loss it keeps at least 70 % of the link where
 * CUBIC collapses. Also the delivery-rate samples of an app-limited
 * sender.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"
#include "tnet.h"

static const struct tcp_addr addr_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr addr_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

#define MS		1000000ull
#define SEC		1000000000ull
#define LINK_BPS	100000000ull
#define OWD_NS		(10 * MS)
#define FRAME		1514u			/* full data frame on the wire */
#define BDP_PKTS	(LINK_BPS / 8 * 2 * OWD_NS / SEC / FRAME)

static uint32_t
max32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

struct run {
	struct tcp_ep *a, *b;
	struct tcp_conn *snd, *rcv;
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct tnet v;
	/* what the observer saw */
	enum tcp_bbr_mode mode;
	uint64_t t_drain, t_probe_bw, t_startup_end;
	uint64_t probe_rtt_at[8];
	unsigned int nprobe_rtt;
	uint32_t cwnd_in_probe_rtt;	/* largest cwnd while in PROBE_RTT */
	uint32_t q_max, q_max_steady;	/* bottleneck queue, frames */
	uint64_t mark_t, mark_bytes;	/* goodput from here */
	int bbr;
};

static void
on_accept(void *ctx, struct tcp_conn *c)
{
	struct run *r = ctx;

	r->rcv = c;
	tcp_conn_set_sink(c, net_sink_count_write, &r->sink);
}

/* called after every event: the sender's BBR state and the queue */
static int
observe(void *ctx)
{
	struct run *r = ctx;
	struct pipe_stats ps;
	struct tcp_bbr_info bi;
	uint64_t now = r->v.now;

	pipe_stats_get(r->v.p[0], &ps);
	r->q_max = max32(r->q_max, ps.sched_pkts);
	if (r->mark_t == 0 && now >= 2 * SEC && r->rcv != NULL) {
		struct tcp_stats rs;

		tcp_conn_stats(r->rcv, &rs);
		r->mark_t = now;
		r->mark_bytes = rs.bytes_delivered;
	}
	if (!r->bbr)
		return 0;
	tcp_bbr_info(tcp_conn_cc(r->snd), &bi);
	if (bi.mode != r->mode) {
		if (bi.mode == TCP_BBR_DRAIN && r->t_drain == 0)
			r->t_drain = now;
		if (bi.mode == TCP_BBR_PROBE_BW && r->t_probe_bw == 0)
			r->t_probe_bw = now;
		if (bi.mode == TCP_BBR_PROBE_RTT && r->nprobe_rtt < 8)
			r->probe_rtt_at[r->nprobe_rtt++] = now;
		r->mode = bi.mode;
	}
	if (bi.mode == TCP_BBR_PROBE_RTT)
		r->cwnd_in_probe_rtt = max32(r->cwnd_in_probe_rtt,
				tcp_conn_cc(r->snd)->cwnd);
	if (r->t_probe_bw && now > r->t_probe_bw + 2 * 20 * MS)
		r->q_max_steady = max32(r->q_max_steady, ps.sched_pkts);
	return 0;
}

static void
run_setup(struct run *r, const char *cc, double plr, uint32_t queue, uint64_t seed)
{
	struct tcp_ep_conf ea, eb;
	struct tcp_conf c;
	struct tn_link l, back;

	memset(r, 0, sizeof(*r));
	r->bbr = strcmp(cc, "bbr") == 0;
	tcp_conf_default(&c);
	c.cc = cc;
	c.sndbuf = c.rcvbuf = 4u << 20;
	tcp_ep_conf_default(&ea);
	ea.local = addr_a;
	r->a = tcp_ep_create(&ea);
	tcp_ep_conf_default(&eb);
	eb.local = addr_b;
	eb.listen = 1;
	eb.accept_conf = c;
	eb.on_accept = on_accept;
	eb.accept_ctx = r;
	r->b = tcp_ep_create(&eb);
	REQUIRE(r->a != NULL && r->b != NULL);
	net_src_pattern_init(&r->src, 3, 0, 0);	/* endless */
	net_sink_count_init(&r->sink, 3, 1);
	c.local = addr_a;
	c.remote = addr_b;
	c.source = net_src_pattern_read;
	c.source_ctx = &r->src;
	r->snd = tcp_ep_connect(r->a, &c, 0);
	REQUIRE(r->snd != NULL);
	tn_link_default(&l);
	l.bw_bps = LINK_BPS;
	l.delay_ns = OWD_NS;
	l.queue_pkts = queue;
	l.plr = plr;
	back = l;
	back.plr = 0;
	tn_init(&r->v, r->a, r->b, &l, &back, seed);
}

/* payload goodput since the 2 s mark over the link's payload capacity */
static double
run_share(struct run *r)
{
	struct tcp_stats rs;
	double cap, got;

	tcp_conn_stats(r->rcv, &rs);
	got = (double)(rs.bytes_delivered - r->mark_bytes) * 8 /
		((double)(r->v.now - r->mark_t) / SEC);
	cap = (double)LINK_BPS * (FRAME - 66) / FRAME;	/* 1448-byte payloads */
	CHECKF(r->sink.bad_bytes == 0 && r->sink.order_errors == 0,
			"stream corrupted: bad %llu order %llu",
			(unsigned long long)r->sink.bad_bytes,
			(unsigned long long)r->sink.order_errors);
	return got / cap;
}

static void
run_free(struct run *r)
{
	tn_fini(&r->v);
	tcp_ep_free(r->a);
	tcp_ep_free(r->b);
}

static void
test_clean_path(void)
{
	struct run r;
	struct tcp_stats ss;
	double share;

	run_setup(&r, "bbr", 0, 4 * BDP_PKTS, 1);
	tn_run(&r.v, 25 * SEC, observe, &r);
	share = run_share(&r);
	tcp_conn_stats(r.snd, &ss);
	printf("bbr clean: %.1f %% of the link, queue max %u (after STARTUP %u) of BDP %llu "
		"frames, drain at %.3f s, probe_bw at %.3f s, %u PROBE_RTT",
		share * 100, r.q_max, r.q_max_steady, (unsigned long long)BDP_PKTS,
		(double)r.t_drain / SEC, (double)r.t_probe_bw / SEC, r.nprobe_rtt);
	for (unsigned int i = 0; i < r.nprobe_rtt; i++)
		printf(" %.3f", (double)r.probe_rtt_at[i] / SEC);
	printf(" s, bw est %.1f Mbit/s, pacing %.1f Mbit/s, rtx %llu\n",
		(double)ss.bw_est_bps / 1e6, (double)ss.pacing_bps / 1e6,
		(unsigned long long)ss.retrans_pkts);
	CHECKF(share >= 0.90, "BBR filled %.1f %% of the link", share * 100);
	CHECK(r.t_drain > 0 && r.t_drain < SEC);
	CHECK(r.t_probe_bw > r.t_drain && r.t_probe_bw < SEC);
	CHECKF(r.q_max_steady < 2 * BDP_PKTS, "queue %u frames, BDP %llu", r.q_max_steady,
			(unsigned long long)BDP_PKTS);
	/* STARTUP's cwnd gain 2.885 allows up to ~1.9 BDP + quanta queued */
	CHECKF(r.q_max < 5 * BDP_PKTS / 2, "queue in STARTUP %u frames", r.q_max);
	/* PROBE_RTT every ~10 s (10 s after the last lower RTT sample) */
	CHECK(r.nprobe_rtt == 2);
	CHECK(r.probe_rtt_at[0] > 9 * SEC && r.probe_rtt_at[0] < 11 * SEC);
	if (r.nprobe_rtt == 2)
		CHECKF(r.probe_rtt_at[1] - r.probe_rtt_at[0] > 9800 * MS &&
				r.probe_rtt_at[1] - r.probe_rtt_at[0] < 10800 * MS,
				"PROBE_RTT %.3f s apart",
				(double)(r.probe_rtt_at[1] - r.probe_rtt_at[0]) / SEC);
	CHECK(r.cwnd_in_probe_rtt > 0 && r.cwnd_in_probe_rtt <= 4 * 1448);
	/* BtlBw near the link's payload rate; cruising pacing just under it */
	CHECK(ss.bw_est_bps > LINK_BPS * 90 / 100 && ss.bw_est_bps < LINK_BPS);
	CHECK(ss.retrans_pkts == 0);
	run_free(&r);
}

static void
test_random_loss(void)
{
	struct run r;
	double bbr, cubic;

	run_setup(&r, "bbr", 0.05, 4 * BDP_PKTS, 2);
	tn_run(&r.v, 12 * SEC, observe, &r);
	bbr = run_share(&r);
	run_free(&r);
	run_setup(&r, "cubic", 0.05, 4 * BDP_PKTS, 2);
	tn_run(&r.v, 12 * SEC, observe, &r);
	cubic = run_share(&r);
	run_free(&r);
	printf("5 %% loss: bbr %.1f %%, cubic %.1f %% of the link\n", bbr * 100, cubic * 100);
	CHECKF(bbr >= 0.70, "BBR kept %.1f %% of the link at 5 %% loss", bbr * 100);
	CHECKF(cubic < bbr / 4, "CUBIC %.1f %% against BBR %.1f %%", cubic * 100, bbr * 100);
}

/* one ACK's sample: cumulative ACK una, SACK [s0, s1) when s1 > s0 */
static void
rate_ack(struct tcp_rack *rk, uint32_t una, uint32_t s0, uint32_t s1, uint64_t now,
		uint64_t min_rtt, struct tcp_rate_sample *rs)
{
	struct tcp_sack_blk b = { s0, s1 };

	memset(rs, 0, sizeof(*rs));
	tcp_rack_update(rk, una, &b, s1 > s0, now, 0);
	tcp_rate_gen(&rk->rate, now, min_rtt, rs);
}

/* Delivery-rate samples (tcp_rate.c) on RACK's records: ten 1000-byte
 * segments 1 ms apart, ACKed 20 ms later each. */
static void
test_rate_samples(void)
{
	struct tcp_rack rk;
	struct tcp_rate_sample rs;
	const uint64_t t0 = SEC;
	const uint32_t base = 1000;

	REQUIRE(tcp_rack_init(&rk, 64) == 0);
	tcp_rack_reset(&rk, base);
	for (uint32_t i = 0; i < 10; i++)
		tcp_rack_sent(&rk, base + i * 1000, 1000, t0 + i * MS);
	/* the first ACK: one segment over its ACK interval (20 ms) */
	rate_ack(&rk, base + 1000, 0, 0, t0 + 20 * MS, 0, &rs);
	CHECK(rs.acked_sacked == 1000 && rs.delivered == 1000 && rs.delivered_total == 1000);
	CHECK(rs.interval_ns == 20 * MS && rs.rtt_ns == 20 * MS && !rs.is_app_limited);
	/* a SACK of segment 5: the newest delivered segment is the sample's */
	rate_ack(&rk, base + 1000, base + 5000, base + 6000, t0 + 25 * MS, 0, &rs);
	CHECK(rs.delivered == 2000 && rs.interval_ns == 25 * MS && rs.rtt_ns == 20 * MS);
	/* the cumulative ACK of segments 1-4 and 6: segment 6 (sent at 6 ms) */
	rate_ack(&rk, base + 7000, 0, 0, t0 + 26 * MS, 0, &rs);
	CHECK(rs.acked_sacked == 5000 && rs.delivered == 7000 && rs.delivered_total == 7000);
	CHECK(rs.interval_ns == 26 * MS && rs.rtt_ns == 20 * MS);
	/* shorter than the minimum RTT: no rate */
	rate_ack(&rk, base + 8000, 0, 0, t0 + 27 * MS, 30 * MS, &rs);
	CHECK(rs.interval_ns == 0 && rs.acked_sacked == 1000);
	/* the sender runs dry: what it sends now samples app-limited ... */
	tcp_rate_app_limited(&rk.rate, tcp_rack_pipe(&rk));
	tcp_rack_sent(&rk, base + 10000, 1000, t0 + 28 * MS);
	rate_ack(&rk, base + 10000, 0, 0, t0 + 30 * MS, 0, &rs);
	CHECK(!rs.is_app_limited && rk.rate.app_limited != 0);
	rate_ack(&rk, base + 11000, 0, 0, t0 + 48 * MS, 0, &rs);
	CHECK(rs.is_app_limited && rs.delivered == 3000);
	/* ... until the data in flight then is delivered */
	CHECK(rk.rate.app_limited == 0);
	tcp_rack_sent(&rk, base + 11000, 1000, t0 + 50 * MS);
	rate_ack(&rk, base + 12000, 0, 0, t0 + 70 * MS, 0, &rs);
	CHECK(!rs.is_app_limited && rs.delivered == 1000 && rs.interval_ns == 20 * MS);
	tcp_rack_fini(&rk);
}

int
main(void)
{
	test_rate_samples();
	test_clean_path();
	test_random_loss();
	return test_report("tcp-bbr");
}
