/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion-control modules against their defining rules, driven
 * directly through struct tcp_cc_ops on a virtual clock: Reno's
 * FlightSize/2, Vegas holding between alpha and beta, BIC's binary search,
 * CUBIC following W(t) = C (t - K)^3 + W_max on Linux's update clock,
 * HyStart's two slow-start exits, Westwood's ssthresh =
 * BWE * RTTmin, TCPW-C choosing the minimum delay-sum ACK pair.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"
#include "tnet.h"

#define MSS	1000u
#define MS	1000000ull

static struct tcp_cc cc;
static uint32_t seq;

static const struct tcp_cc_ops *
get(const char *name)
{
	const struct tcp_cc_ops *o = tcp_cc_find(name);

	CHECK(o != NULL && strcmp(o->name, name) == 0);
	return o;
}

/* one ACK of one segment */
static void
ack(uint64_t now, uint64_t rtt, int grow)
{
	struct tcp_cc_ack a;

	memset(&a, 0, sizeof(a));
	seq += MSS;
	a.now = now;
	a.ack = seq;
	a.acked = MSS;
	a.rtt_ns = rtt;
	a.delay_ns = rtt;
	a.frame_len = 66;
	if (rtt && (cc.rtt_min_ns == 0 || rtt < cc.rtt_min_ns))
		cc.rtt_min_ns = rtt;
	cc.srtt_ns = rtt;
	if (cc.ops->on_ack != NULL)
		cc.ops->on_ack(&cc, &a);
	if (grow)
		cc.ops->cong_avoid(&cc, &a);
}

/* one RTT worth of ACKs (cwnd of them), spread over rtt; returns end time */
static uint64_t
round_trip(uint64_t now, uint64_t rtt)
{
	uint32_t n = cc.cwnd / MSS;

	cc.snd_nxt = seq + cc.cwnd;	/* one window in flight */
	for (uint32_t i = 0; i < n; i++)
		ack(now + rtt * i / n, rtt, 1);
	return now + rtt;
}

static void
test_table(void)
{
	static const char *const names[] = { "tahoe", "reno", "newreno", "sack",
		"vegas", "bic", "cubic", "westwood", "tcpw-c", "bbr" };
	unsigned int n = 0;

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		get(names[i]);
	while (tcp_cc_get(n) != NULL)
		n++;
	CHECK(n == sizeof(names) / sizeof(names[0]));
	CHECK(tcp_cc_find("nope") == NULL);
	CHECK(get("tahoe")->recovery == TCP_REC_NONE);
	CHECK(get("reno")->recovery == TCP_REC_RENO);
	CHECK(get("newreno")->recovery == TCP_REC_NEWRENO);
	CHECK(get("sack")->recovery == TCP_REC_SACK);
	CHECK(get("tcpw-c")->flags & TCP_CC_F_PAIR_ACKS);
	for (uint64_t x = 0; x < 100000; x += 7)
		CHECK(tcp_cbrt64(x) == (uint64_t)floor(cbrt((double)x) + 1e-9));
	CHECK(tcp_cbrt64(1000000000000ull) == 10000);
	CHECK(tcp_cbrt64(UINT64_MAX) == 2642245);
}

static void
test_reno(void)
{
	tcp_cc_init(&cc, get("reno"), MSS, 10, 0);
	CHECK(cc.cwnd == 10 * MSS);
	/* slow start: +1 MSS per ACKed MSS */
	seq = 0;
	for (int i = 0; i < 10; i++)
		ack(0, 0, 1);
	CHECK(cc.cwnd == 20 * MSS);
	cc.flight = 20 * MSS;
	CHECK(cc.ops->ssthresh(&cc, 0) == 10 * MSS);
	cc.flight = MSS;
	CHECK(cc.ops->ssthresh(&cc, 0) == 2 * MSS);
	/* congestion avoidance: +1 MSS per cwnd of ACKed bytes */
	cc.ssthresh = 10 * MSS;
	cc.cwnd = 10 * MSS;
	round_trip(0, 100 * MS);
	CHECK(cc.cwnd == 11 * MSS);
}

static void
test_vegas(void)
{
	uint64_t now = 0, base = 100 * MS;
	uint32_t w;

	tcp_cc_init(&cc, get("vegas"), MSS, 20, 0);
	cc.ssthresh = 10 * MSS;	/* congestion avoidance */
	seq = 0;
	/* RTT == BaseRTT: diff 0 < alpha: +1 per RTT */
	now = round_trip(now, base);
	w = cc.cwnd;
	for (int r = 0; r < 4; r++)
		now = round_trip(now, base);
	CHECK(cc.cwnd == w + 4 * MSS);
	/* queue of 3 segments: alpha <= diff <= beta: hold */
	w = cc.cwnd;
	{
		uint32_t segs = w / MSS;
		uint64_t rtt = base * 2 * segs / (2 * segs - 7);	/* diff 3.5 */

		/* the first round still mixes in BaseRTT samples */
		now = round_trip(now, rtt);
		w = cc.cwnd;
		for (int r = 0; r < 5; r++)
			now = round_trip(now, rtt);
		CHECK(cc.cwnd == w);
		/* queue over beta (RTT twice BaseRTT: diff = cwnd/2): -1 per RTT */
		now = round_trip(now, 2 * base);
		w = cc.cwnd;
		for (int r = 0; r < 3; r++)
			now = round_trip(now, 2 * base);
		CHECK(cc.cwnd == w - 3 * MSS);
	}
	CHECK(tcp_vegas_alpha == 2 && tcp_vegas_beta == 4);
}

static void
test_bic(void)
{
	uint64_t now = 0;
	uint32_t before;

	tcp_cc_init(&cc, get("bic"), MSS, 100, 0);
	seq = 0;
	cc.ssthresh = 10 * MSS;
	cc.cwnd = 100 * MSS;
	cc.ssthresh = cc.ops->ssthresh(&cc, 0);	/* loss at W_max = 100 */
	CHECK(cc.ssthresh == 79 * MSS);		/* beta 0.8 (819/1024), floor */
	cc.cwnd = cc.ssthresh;
	/* binary search: one RTT moves about (W_max - cwnd) / 4 */
	before = cc.cwnd;
	now = round_trip(now, 100 * MS);
	CHECK(cc.cwnd >= before + 3 * MSS && cc.cwnd <= before + 6 * MSS);
	/* far below W_max the step is capped at 16 segments per RTT */
	cc.cwnd = 1000 * MSS;
	cc.ops->ssthresh(&cc, 0);
	cc.cwnd = 500 * MSS;
	cc.ssthresh = 400 * MSS;
	before = cc.cwnd;
	now = round_trip(now, 100 * MS);
	CHECK(cc.cwnd - before <= 17 * MSS && cc.cwnd - before >= 14 * MSS);
}

static void
test_cubic(void)
{
	const double C = 0.4, beta = 0.7, rtt_s = 0.1;
	struct tcp_cubic_info ci;
	uint64_t now = 1000 * MS, epoch;
	double wmax = 100, K, worst = 0;

	tcp_cc_init(&cc, get("cubic"), MSS, 100, 0);
	seq = 0;
	cc.cwnd = 100 * MSS;
	cc.ssthresh = cc.ops->ssthresh(&cc, now);	/* loss at 100 segments */
	CHECK(cc.ssthresh == 70 * MSS);
	cc.cwnd = cc.ssthresh;
	K = cbrt(wmax * (1 - beta) / C);
	round_trip(now, 100 * MS);
	tcp_cubic_info(&cc, &ci);
	CHECK(ci.w_max == 100);
	CHECK(fabs((double)ci.k_ms / 1000 - K) < 0.02);
	epoch = ci.epoch_ns;
	now += 100 * MS;
	/* 8 s: concave up to W_max around K = 4.2 s, then convex */
	for (int r = 1; r < 80; r++) {
		double t = (double)(now - epoch) / 1e9;
		double w = C * pow(t - K, 3) + wmax, got = (double)cc.cwnd / MSS;

		if (getenv("CUBIC_DBG"))
			fprintf(stderr, "t=%.2f cwnd %.1f W %.1f\n", t, got, w);
		if (fabs(got - w) > worst)
			worst = fabs(got - w);
		CHECKF(fabs(got - w) <= 3 + 0.04 * w, "cubic t=%.2f cwnd %.1f expected %.1f", t,
			got, w);
		now = round_trip(now, 100 * MS);
	}
	printf("cubic: max |cwnd - W(t)| = %.2f segments over 8 s\n", worst);
	(void)rtt_s;
	/* plateau: near W_max the window grows slowly */
	CHECK(cc.cwnd > 100 * MSS);
}

/*
 * Linux's update clock at a short RTT: after a loss at W_max = 10 segments
 * (cwnd 7), ACKs every 0.25 ms (RTT 1 ms). CUBIC's per-ACK increment is
 * recomputed at most every HZ/32 jiffies while cwnd does not change (HZ 250:
 * 7 jiffies, 28 ms): cwnd reaches the curve's target (9) at once and then
 * stays there for more than 24 ms (up to 8 jiffies from the last update)
 * although the Reno-friendly estimate grew
 * meanwhile (Linux's CUBIC at a millisecond RTT); the next update applies it.
 */
static void
test_cubic_clock(void)
{
	uint64_t now = 2000 * MS, flat_from = 0, longest = 0;
	uint32_t last = 0, grew_after = 0;

	CHECK(tcp_cubic_hz == 250);
	tcp_cc_init(&cc, get("cubic"), MSS, 10, 0);
	seq = 0;
	cc.cwnd = 10 * MSS;
	cc.ssthresh = cc.ops->ssthresh(&cc, now);
	CHECK(cc.ssthresh == 7 * MSS);
	cc.cwnd = cc.ssthresh;
	for (int i = 0; i < 160; i++) {	/* 40 ms */
		ack(now, MS, 1);
		if (cc.cwnd != last) {
			if (last && now - flat_from > longest)
				longest = now - flat_from;
			if (longest > 24 * MS && !grew_after)
				grew_after = cc.cwnd / MSS;
			flat_from = now;
			last = cc.cwnd;
		}
		now += MS / 4;
	}
	CHECKF(longest > 24 * MS && longest <= 36 * MS, "longest flat %llu us",
		(unsigned long long)(longest / 1000));
	CHECKF(grew_after >= 10, "after the update cwnd %u", grew_after);
	CHECK(cc.cwnd >= 14 * MSS);	/* the friendliness credit, applied at once */
}

/* One slow-start round of cwnd ACKs, spacing apart, each with RTT rtt. */
static uint64_t
ss_round(uint64_t now, uint64_t rtt, uint64_t spacing)
{
	uint32_t n = cc.cwnd / MSS;

	cc.snd_nxt = seq + cc.cwnd;
	for (uint32_t i = 0; i < n && cc.cwnd < cc.ssthresh; i++)
		ack(now + i * spacing, rtt, 1);
	return now + rtt;
}

/*
 * HyStart (Linux's hystart = 1): slow start ends (ssthresh = cwnd) when the
 * round's minimum RTT over 8 samples rises by clamp(delay_min / 8, 4, 16 ms)
 * or its ACK train spans more than (delay_min + 1 ms) / 2; not below 16
 * segments; off with tcp_cubic_hystart = 0; again after an RTO.
 */
static void
test_hystart(void)
{
	struct tcp_cubic_info ci;
	uint64_t now = 1000 * MS;

	/* delay: RTT 100 ms, ACKs 2.5 ms apart (no train); at cwnd 40 the RTT
	 * rises to 120 ms (> 100 + 12.5): out after the 8th sample of the round */
	tcp_cc_init(&cc, get("cubic"), MSS, 10, 0);
	seq = 0;
	now = ss_round(now, 100 * MS, 2500000);
	now = ss_round(now, 100 * MS, 2500000);
	CHECK(cc.cwnd == 40 * MSS && cc.ssthresh > 1000 * MSS);
	now = ss_round(now, 120 * MS, 2500000);
	tcp_cubic_info(&cc, &ci);
	CHECK(ci.hystart_found && ci.delay_min_ns == 100 * MS);
	CHECKF(cc.ssthresh == cc.cwnd && cc.cwnd >= 48 * MSS && cc.cwnd <= 50 * MSS,
		"exit at %u", cc.cwnd / MSS);
	/* ... and not without the rise */
	tcp_cc_init(&cc, get("cubic"), MSS, 10, 0);
	for (int r = 0; r < 4; r++)
		now = ss_round(now, 100 * MS, 2500000);
	CHECK(cc.cwnd == 160 * MSS && cc.ssthresh > 1000 * MSS);
	/* ACK train: RTT 10 ms, ACKs 0.2 ms apart: a round of 16 spans 3 ms
	 * (< 5.5 ms), of 32 it passes 5.5 ms at the 28th ACK: cwnd 32 + 28 */
	tcp_cc_init(&cc, get("cubic"), MSS, 16, 0);
	now = ss_round(now, 10 * MS, 200000);
	CHECK(cc.cwnd == 32 * MSS && cc.ssthresh > 1000 * MSS);
	now = ss_round(now, 10 * MS, 200000);
	CHECKF(cc.ssthresh == cc.cwnd && cc.cwnd == 60 * MSS, "train exit at %u",
		cc.cwnd / MSS);
	/* below 16 segments: no exit, even with a train of 8 over 7 ms */
	tcp_cc_init(&cc, get("cubic"), MSS, 8, 0);
	now = ss_round(now, 10 * MS, 1000000);
	CHECK(cc.cwnd == 16 * MSS && cc.ssthresh > 1000 * MSS);
	/* off */
	tcp_cubic_hystart = 0;
	tcp_cc_init(&cc, get("cubic"), MSS, 16, 0);
	now = ss_round(now, 10 * MS, 200000);
	now = ss_round(now, 10 * MS, 200000);
	CHECK(cc.cwnd == 64 * MSS && cc.ssthresh > 1000 * MSS);
	tcp_cubic_hystart = 1;
	/* an RTO starts a new slow start in which HyStart acts again */
	tcp_cc_init(&cc, get("cubic"), MSS, 16, 0);
	now = ss_round(now, 10 * MS, 200000);
	now = ss_round(now, 10 * MS, 200000);
	CHECK(cc.ssthresh == 60 * MSS);
	cc.ssthresh = cc.ops->ssthresh(&cc, now);
	cc.cwnd = MSS;
	cc.snd_nxt = seq;	/* everything outstanding is resent */
	cc.ops->on_timeout(&cc, now);
	tcp_cubic_info(&cc, &ci);
	CHECK(!ci.hystart_found && ci.w_max == 0);
	cc.cwnd = 32 * MSS;
	cc.ssthresh = 1u << 30;
	now += 2000 * MS;
	now = ss_round(now, 10 * MS, 200000);
	CHECK(cc.ssthresh == cc.cwnd && cc.cwnd == 60 * MSS);
}

static void
test_westwood(void)
{
	uint64_t now = 0;
	uint32_t ss;

	tcp_cc_init(&cc, get("westwood"), MSS, 10, 0);
	seq = 0;
	/* 1000 bytes acked every 1 ms: 1 MB/s; RTTmin 50 ms */
	for (int i = 0; i < 3000; i++) {
		ack(now, 50 * MS, 1);
		now += MS;
	}
	cc.flight = cc.cwnd;
	ss = cc.ops->ssthresh(&cc, now);
	/* BWE * RTTmin = 1e6 B/s * 0.05 s = 50 segments */
	CHECK(ss >= 47 * MSS && ss <= 53 * MSS);
	CHECK(cc.ops->bw_bps(&cc) > 7600000 && cc.ops->bw_bps(&cc) < 8400000);
	/* not halving: with cwnd far above, ssthresh stays at the estimate */
	cc.cwnd = 500 * MSS;
	cc.flight = 500 * MSS;
	CHECK(cc.ops->ssthresh(&cc, now) == ss);
}

static void
test_tcpwc(void)
{
	struct tcp_cc_ack a;
	uint32_t ss;

	tcp_cc_init(&cc, get("tcpw-c"), MSS, 10, 0);
	cc.rtt_min_ns = 100 * MS;
	/* (dispersion, delay sum, len) */
	tcp_tcpwc_add_pair(&cc, 400000, 50 * MS, 100);	/* 250 KB/s */
	tcp_tcpwc_add_pair(&cc, 100000, 60 * MS, 100);	/* 1 MB/s */
	tcp_tcpwc_add_pair(&cc, 1000000, 45 * MS, 100);	/* 100 KB/s, min sum */
	tcp_tcpwc_add_pair(&cc, 50000, 70 * MS, 100);	/* 2 MB/s */
	CHECK(tcp_tcpwc_pairs(&cc) == 4);
	ss = cc.ops->ssthresh(&cc, 0);
	/* 100 KB/s * 100 ms = 10 segments */
	CHECK(ss == 10 * MSS);
	CHECK(tcp_tcpwc_pairs(&cc) == 0);	/* table reset after the estimate */
	CHECK(cc.ops->bw_bps(&cc) == 800000);
	/* pairs from the ACK stream: standard then assistant, same ack; the
	 * dispersion is the data pair's, from the receiver's TSval stamps, not
	 * the ACKs' own (back-to-back) arrival gap */
	memset(&a, 0, sizeof(a));
	a.ack = 5000;
	a.now = 10 * MS;
	a.delay_ns = 30 * MS;
	a.frame_len = 66;
	a.has_tsval = 1;
	a.tsval = 0xfffff000u;	/* wraps: differences only */
	cc.ops->on_ack(&cc, &a);
	a.now += 20000;		/* the ACKs arrive 20 us apart */
	a.delay_ns = 30 * MS + 20000;	/* both segments sent together */
	a.tsval += 4000;	/* the segments arrived 4 ms apart */
	a.pair = 1;
	cc.ops->on_ack(&cc, &a);
	CHECK(tcp_tcpwc_pairs(&cc) == 1);
	/* an assistant ACK whose standard ACK was lost is not a pair */
	a.ack = 9000;
	a.now += MS;
	cc.ops->on_ack(&cc, &a);
	CHECK(tcp_tcpwc_pairs(&cc) == 1);
	/* a pair whose segments left 3 ms apart (dispersion 4 ms) measured the
	 * sender: not recorded */
	a.pair = 0;
	a.ack = 13000;
	a.now += MS;
	a.delay_ns = 30 * MS;
	cc.ops->on_ack(&cc, &a);
	a.pair = 1;
	a.now += 20000;
	a.delay_ns = 30 * MS + 20000 - 3 * MS;
	a.tsval += 4000;
	cc.ops->on_ack(&cc, &a);
	/* nor one without receiver stamps (same TSval) */
	a.pair = 0;
	a.ack = 17000;
	a.delay_ns = 30 * MS;
	cc.ops->on_ack(&cc, &a);
	a.pair = 1;
	cc.ops->on_ack(&cc, &a);
	CHECK(tcp_tcpwc_pairs(&cc) == 1);
	ss = cc.ops->ssthresh(&cc, 0);
	/* one segment (1000 B) / 4 ms = 250 KB/s = 2 Mbit/s; * 100 ms = 25 segments */
	CHECK(ss == 25 * MSS);
	CHECK(cc.ops->bw_bps(&cc) == 2000000);
	CHECK(tcp_tcpwc_pairs(&cc) == 0);
	/* a full table keeps the smallest delay sums */
	for (int i = 0; i < 100; i++)
		tcp_tcpwc_add_pair(&cc, 10000 + i, (uint64_t)(200 - i) * MS, 100);
	tcp_tcpwc_add_pair(&cc, 777000, MS, 100);
	ss = cc.ops->ssthresh(&cc, 0);
	CHECK(cc.ops->bw_bps(&cc) == 100ull * 1000000000 / 777000 * 8);
}

static void
test_cap_rules(void)
{
	struct tcp_cap_conf c;

	tcp_cap_conf_default(&c);
	CHECK(c.interval_ns == 500 * MS);
	CHECK(tcp_cap_table_lookup(&c, 0) == UINT32_MAX);
	CHECK(tcp_cap_table_lookup(&c, 10 * MS) == 64);
	CHECK(tcp_cap_table_lookup(&c, 59 * MS) == 48);
	CHECK(tcp_cap_table_lookup(&c, 500 * MS) == 16);
	CHECK(tcp_cap_flow_bound(&c, 4, 100 * MS, 1000) == UINT32_MAX);
	c.bw_bps = 20000000;	/* 2.5 MB/s * 100 ms = 250 segments of 1000 */
	c.queue_segs = 50;
	CHECK(tcp_cap_flow_bound(&c, 3, 100 * MS, 1000) == 100);
	c.budget_segs = 60;
	CHECK(tcp_cap_flow_bound(&c, 4, 100 * MS, 1000) == 15);
	c.ntable = 2;
	c.table[1].rtt_rise_ns = 1;	/* not ascending */
	CHECK(tcp_cap_create(&c) == NULL);
}

int
main(void)
{
	test_table();
	test_reno();
	test_vegas();
	test_bic();
	test_cubic();
	test_cubic_clock();
	test_hystart();
	test_westwood();
	test_tcpwc();
	test_cap_rules();
	return test_report("tcp-cc");
}
