/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp under overload, on a virtual clock (simnet.h, lib/pipe): the
 * default dumbbell (configs/default.ini: two senders paced at 1 Gbit/s into
 * a 1 Gbit/s WF2Q+ bottleneck, 50/50, queue 1000, path delays 10 and 50
 * ms), with redundancy auto and the fixed 49, with smooth and bursty
 * senders; the parking lot (configs/exp-parkinglot.ini) with and without
 * rate hints; one flow through a 10 % random-loss pipe on a 10 Gbit/s
 * path. Symbols are 64 bytes for the codec, 1420 for the pipes' timing.
 * Asserted: each flow's goodput, Jain's index, time to the fair share,
 * block latency p99, share of blocks that needed their timer, auto never
 * below 49, dead packets on link 1 with hints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "simnet.h"

#define MS		1000000ull
#define SEC		1000000000ull
#define REAL_T		64u
#define WIRE_T		1420u
#define BIN		(100 * MS)

struct res {
	double gp[SN_FLOWS];		/* Mbit/s of 1420-byte symbols' payload */
	double p99_ms[SN_FLOWS];
	double timers[SN_FLOWS];	/* timeouts / blocks sent */
	double first[SN_FLOWS];		/* first-pass share */
	double fair_ms[SN_FLOWS];	/* first data -> within 10 % of the share for good */
	double jain;
	double dead;			/* parking lot: share of link 1 that link 2 dropped */
	double bott_loss;		/* dumbbell: share of the bottleneck's input dropped */
	double send_ms[SN_FLOWS];	/* first data -> sending within 15 % of 9/8 share */
	double send_lo[SN_FLOWS], send_hi[SN_FLOWS];	/* sending / share, after 1 s */
	struct dfcp_stats ss[SN_FLOWS];
	struct dfcp_stats rs[SN_FLOWS];
	int exact;			/* every flow closed, every byte verified */
};

static void
conf(struct dfcp_conn_conf *cc, uint16_t redundancy, uint32_t window)
{
	dfcp_conn_conf_default(cc);
	cc->T = REAL_T;
	cc->K = DFCP_DEFAULT_K;
	cc->window = window;
	cc->redundancy = redundancy;
	cc->csum = DFCP_CSUM_UDP_ZERO;
	cc->min_rto_ns = 10 * MS;	/* the engine's default */
}

static struct dfcp_conn *
receiver_conn(struct sn_flow *f)
{
	uint32_t pos = 0;

	return dfcp_ep_next_conn(f->rep, &pos);
}

/*
 * Per flow: goodput over its active time (first DATA sent to last delivery),
 * latency, timers, and the time from its first DATA after which every
 * 100 ms bin up to the last full one carries at least 90 % of share_mbps.
 */
static void
collect(struct simnet *n, struct res *r, const double *share_mbps)
{
	double scale = (double)WIRE_T / REAL_T, sum = 0, sq = 0;

	r->exact = 1;
	for (uint32_t i = 0; i < n->nflows; i++) {
		struct sn_flow *f = &n->f[i];
		struct dfcp_conn *rc = receiver_conn(f);
		uint32_t b0 = (uint32_t)(f->first_data / BIN) + 1, last = b0, good = b0;
		double t;

		for (uint32_t b = (uint32_t)(n->now / BIN) + 1; b < SN_BINS; b++)
			f->bins[b] = f->sink.bytes;
		dfcp_conn_stats(f->conn, &r->ss[i]);
		if (rc != NULL)
			dfcp_conn_stats(rc, &r->rs[i]);
		for (uint32_t b = b0; b < SN_BINS && b * BIN <= n->now; b++)
			if (f->bins[b] != f->bins[b - 1])
				last = b;
		/* the last bins hold the tail of the transfer: not judged */
		for (uint32_t b = b0 + 1; b + 1 < last; b++) {
			double mbps = (double)(f->bins[b] - f->bins[b - 1]) * scale * 8 /
				((double)BIN / 1e9) / 1e6;

			if (mbps < 0.9 * share_mbps[i])
				good = b + 1;
		}
		r->fair_ms[i] = ((double)good * BIN - (double)f->first_data) / 1e6;
		if (getenv("BINS")) {
			fprintf(stderr, "flow %u first %.1f ms bins:", i, f->first_data / 1e6);
			for (uint32_t b = 1; b <= last + 1 && b < SN_BINS; b++)
				fprintf(stderr, " %.0f", (double)(f->bins[b] - f->bins[b - 1]) * scale * 8 / 1e5);
			fprintf(stderr, "\n");
		}
		t = (double)(f->last_deliver - f->first_data) / 1e9;
		r->gp[i] = (double)f->sink.bytes * scale * 8 / t / 1e6;
		r->p99_ms[i] = hist_percentile(f->lat, 99.0) / 1e6;
		r->timers[i] = r->ss[i].blocks_sent ?
			(double)r->ss[i].timeouts / (double)r->ss[i].blocks_sent : 0;
		r->first[i] = r->ss[i].blocks_acked ?
			(double)r->ss[i].blocks_first_pass / (double)r->ss[i].blocks_acked : 0;
		sum += r->gp[i] / share_mbps[i];
		sq += (r->gp[i] / share_mbps[i]) * (r->gp[i] / share_mbps[i]);
		if (dfcp_conn_state(f->conn) == DFCP_SYN_SENT || f->sink.bad_bytes ||
				f->sink.order_errors || r->ss[i].goodput_bytes != f->sink.bytes)
			r->exact = 0;
	}
	r->jain = sum * sum / (n->nflows * sq);
}

static void
print_res(const char *name, uint32_t nflows, const struct res *r)
{
	for (uint32_t i = 0; i < nflows; i++)
		printf("%-26s flow %u: %6.1f Mbit/s, to share %5.0f ms, p99 %6.1f ms, "
			"timers %5.2f %%, 1st pass %5.1f %%, N %3u, loss %4.1f %%, phi %3u %%, "
			"ends last/next/idle %llu/%llu/%llu, implicit %llu, top-ups %llu (%llu)\n",
			name, i, r->gp[i],
			r->fair_ms[i], r->p99_ms[i], 100 * r->timers[i], 100 * r->first[i],
			r->ss[i].redundancy, r->ss[i].loss_ppm / 1e4, r->ss[i].dispersion_pct,
			(unsigned long long)r->rs[i].rounds_last,
			(unsigned long long)r->rs[i].rounds_next,
			(unsigned long long)r->rs[i].rounds_idle,
			(unsigned long long)r->ss[i].implicit_topups,
			(unsigned long long)r->ss[i].topups, (unsigned long long)r->ss[i].topup_syms);
	printf("%-26s Jain %.4f\n", name, r->jain);
}

/*
 * Sending rate (DATA frames, L1) per 200 ms against the share, from
 * 1 s after the first DATA to the last full window before the tail: the
 * range, and the time after which every window is within 15 % of 9/8 of
 * the share (the cap's probe above what gets through).
 */
static void
send_rates(const struct simnet *n, struct res *r, double share_l1_mbps)
{
	double bits = (double)(WIRE_T + DFCP_DATA_OFF + SN_L1) * 8;

	for (uint32_t i = 0; i < n->nflows; i++) {
		const struct sn_flow *f = &n->f[i];
		uint32_t b0 = (uint32_t)(f->first_data / BIN) + 1, last = b0, good = b0;

		for (uint32_t b = b0; b < SN_BINS && b * BIN <= n->now; b++)
			if (f->sbins[b] != f->sbins[b - 1])
				last = b;
		r->send_lo[i] = 1e9;
		r->send_hi[i] = 0;
		for (uint32_t b = b0 + 2; b + 2 < last; b++) {
			double x = (double)(f->sbins[b] - f->sbins[b - 2]) * bits / 0.2 / 1e6 /
				share_l1_mbps;

			if (x < 0.85 * 1.125 || x > 1.15 * 1.125)
				good = b + 1;
			if (b < b0 + 10)
				continue;
			if (x < r->send_lo[i])
				r->send_lo[i] = x;
			if (x > r->send_hi[i])
				r->send_hi[i] = x;
		}
		r->send_ms[i] = ((double)good * BIN - (double)f->first_data) / 1e6;
	}
}

/*
 * configs/default.ini: f0 10 ms, f1 50 ms one way, ACKs back undelayed,
 * windows for 1 Gbit/s x 200 ms (445 blocks), 3 s transfers; with hint,
 * rate hints on; with stalls, both lcores stop for 5-20 ms every 130 / 170
 * ms (the senders' pacer keeps 20 ms of credit, as lib/pace does).
 */
static void
dumbbell_hint(uint16_t redundancy, uint64_t poll_ns, int xr, int hint, int stalls,
		struct res *r)
{
	static const uint64_t delay[2] = { 10 * MS, 50 * MS };
	static const double share[2] = { 467.7, 467.7 };	/* 500 Mbit/s of 1518-byte frames */
	struct dfcp_conn_conf cc;
	struct pipe_stats ps;
	struct simnet n;
	uint32_t bott, back, hops[2], w[2] = { 50, 1 };

	sn_init(&n, REAL_T, WIRE_T, BIN);
	if (stalls) {
		sn_stalls(&n, 0, 130 * MS);
		sn_stalls(&n, 1, 170 * MS);
	}
	bott = sn_pipe(&n, 1000000000ull, 0, 1000, 0, 1);
	hops[1] = sn_pipe(&n, 0, delay[0], 0, 0, 2);
	sn_pipe(&n, 0, delay[1], 0, 0, 3);
	back = sn_pipe(&n, 0, 0, 0, 0, 4);
	conf(&cc, redundancy, 445);
	cc.xr = xr;
	cc.rate_hint = hint;
	for (uint32_t i = 0; i < 2; i++) {
		hops[0] = bott;
		hops[1] = 1 + i;
		sn_path(&n, i, hops, 2, w, back);
		sn_flow(&n, i, &cc, 0, 1000000000ull, poll_ns);
		n.f[i].src.duration_ns = 3 * SEC;
		if (stalls)
			n.f[i].tok_max = 20 * MS * n.f[i].rate_bps;
	}
	sn_run(&n, 20 * SEC);
	collect(&n, r, share);
	send_rates(&n, r, 500);
	pipe_stats_get(n.pipe[bott], &ps);
	r->bott_loss = (double)ps.drop_pkts / (double)ps.in_pkts;
	sn_fini(&n);
}

static void
dumbbell(uint16_t redundancy, uint64_t poll_ns, int xr, struct res *r)
{
	dumbbell_hint(redundancy, poll_ns, xr, 0, 0, r);
}

static void test_dumbbell_hint(const struct res *off);

static void
test_dumbbell(void)
{
	struct res a, f, b, v;

	dumbbell(DFCP_REDUNDANCY_AUTO, 0, 1, &a);
	print_res("dumbbell auto", 2, &a);
	dumbbell(49, 0, 1, &f);
	print_res("dumbbell 49", 2, &f);
	dumbbell(DFCP_REDUNDANCY_AUTO, 300000, 1, &b);
	print_res("dumbbell auto, 0.3 ms polls", 2, &b);
	dumbbell(49, 0, 0, &v);
	print_res("dumbbell 49, version 1", 2, &v);
	for (int i = 0; i < 2; i++) {
		CHECK(a.exact && f.exact && b.exact && v.exact);
		CHECKF(a.gp[i] >= 400 && f.gp[i] >= 400, "flow %d: %.1f / %.1f Mbit/s", i,
				a.gp[i], f.gp[i]);
		CHECKF(a.gp[i] >= f.gp[i] * 0.99, "flow %d: auto %.1f, 49 %.1f", i, a.gp[i],
				f.gp[i]);
		CHECKF(a.p99_ms[i] <= 500 && f.p99_ms[i] <= 500, "flow %d p99 %.1f / %.1f ms",
				i, a.p99_ms[i], f.p99_ms[i]);
		CHECKF(a.timers[i] <= 0.05 && f.timers[i] <= 0.05, "flow %d timers %.3f / %.3f",
				i, a.timers[i], f.timers[i]);
		/* 10 RTTs of the longest path (100 ms + the bottleneck queue) */
		CHECKF(a.fair_ms[i] <= 1000, "flow %d: %.0f ms to the share", i, a.fair_ms[i]);
		CHECKF(b.gp[i] >= 380, "flow %d bursty: %.1f Mbit/s", i, b.gp[i]);
	}
	CHECK(a.jain >= 0.99 && f.jain >= 0.99 && b.jain >= 0.99);
	test_dumbbell_hint(&a);
}

static void
print_send(const char *name, const struct res *r)
{
	for (uint32_t i = 0; i < 2; i++)
		printf("%-26s flow %u: sending %.2f-%.2f x share, within 15 %% of 9/8 after %.0f ms, "
			"capped at %llu pkt/s\n", name, i, r->send_lo[i], r->send_hi[i],
			r->send_ms[i], (unsigned long long)r->ss[i].rate_hint_pps);
	printf("%-26s bottleneck loss %.1f %%\n", name, 100 * r->bott_loss);
}

/*
 * The dumbbell overloaded 2x with rate hints: each sender settles near
 * 9/8 of its share within a bounded time and stays there, also with both
 * lcores stalling; the bottleneck drops far less; every byte verified.
 */
static void
test_dumbbell_hint(const struct res *off)
{
	struct res on, st;

	dumbbell_hint(DFCP_REDUNDANCY_AUTO, 0, 1, 1, 0, &on);
	dumbbell_hint(DFCP_REDUNDANCY_AUTO, 0, 1, 1, 1, &st);
	print_send("dumbbell auto", off);
	print_res("dumbbell hint", 2, &on);
	print_send("dumbbell hint", &on);
	print_res("dumbbell hint, stalls", 2, &st);
	print_send("dumbbell hint, stalls", &st);
	CHECK(on.exact && st.exact);
	/* without hints the senders offer twice what fits: half is dropped */
	CHECKF(off->bott_loss > 0.4, "loss %.3f", off->bott_loss);
	CHECKF(on.bott_loss < off->bott_loss / 2 && st.bott_loss < off->bott_loss / 2,
			"loss %.3f / %.3f / %.3f", on.bott_loss, st.bott_loss, off->bott_loss);
	for (int i = 0; i < 2; i++) {
		CHECKF(on.send_ms[i] <= 1000 && st.send_ms[i] <= 1000, "flow %d: %.0f / %.0f ms",
				i, on.send_ms[i], st.send_ms[i]);
		CHECKF(on.gp[i] >= 400 && st.gp[i] >= 400, "flow %d: %.1f / %.1f Mbit/s", i,
				on.gp[i], st.gp[i]);
		CHECK(on.ss[i].rate_capped > 0 && st.ss[i].rate_capped > 0);
	}
	CHECK(on.jain >= 0.99 && st.jain >= 0.99);
}

/*
 * configs/exp-parkinglot.ini, case 1: link 1 (1 Gbit/s, 10 ms, queue 100)
 * carries the long flow and short flow 1, link 2 (500 Mbit/s, 50 ms, queue
 * 100) the long flow and short flow 2; WF2Q+ 50/50 on both, 2 s transfers.
 * Dead packets: the long flow's packets link 1 carried and link 2 dropped,
 * as a share of link 1's output.
 */
static void
parking(int hint, struct res *r)
{
	static const double share[3] = { 233.9, 467.7, 233.9 };
	static const uint32_t win[3] = { 216, 121, 197 };
	struct dfcp_conn_conf cc;
	struct sched_qstats q2;
	struct pipe_stats l1;
	struct simnet n;
	uint32_t l1p, l2p, back, hops[2], w[2] = { 50, 50 };

	sn_init(&n, REAL_T, WIRE_T, BIN);
	l1p = sn_pipe(&n, 1000000000ull, 10 * MS, 100, 0, 1);
	l2p = sn_pipe(&n, 500000000ull, 50 * MS, 100, 0, 2);
	back = sn_pipe(&n, 0, 0, 0, 0, 3);
	for (uint32_t i = 0; i < 3; i++) {
		conf(&cc, DFCP_REDUNDANCY_AUTO, win[i]);
		cc.rate_hint = hint && i == 0;
		hops[0] = i == 2 ? l2p : l1p;
		hops[1] = l2p;
		sn_path(&n, i, hops, i == 0 ? 2 : 1, w, back);
		sn_flow(&n, i, &cc, 0, 1000000000ull, 0);
		n.f[i].src.duration_ns = 2 * SEC;
	}
	sn_run(&n, 20 * SEC);
	collect(&n, r, share);
	pipe_stats_get(n.pipe[l1p], &l1);
	pipe_queue_stats(n.pipe[l2p], n.f[0].q[1], &q2);
	r->dead = (double)q2.drop_bytes / (double)l1.out_bytes;
	sn_fini(&n);
}

static void
test_parking(void)
{
	struct res off, on;

	parking(0, &off);
	print_res("parking lot", 3, &off);
	parking(1, &on);
	print_res("parking lot, rate hint", 3, &on);
	printf("parking lot: dead packets %.1f %% of link 1 without hints, %.1f %% with "
		"(long flow capped at %llu pkt/s)\n", 100 * off.dead, 100 * on.dead,
		(unsigned long long)on.ss[0].rate_hint_pps);
	CHECK(off.exact && on.exact);
	CHECKF(off.dead > 0.15, "dead %.3f", off.dead);
	CHECKF(on.dead < 0.06, "dead %.3f", on.dead);
	/* the long flow keeps its goodput, short flow 1 gets what it no longer wastes */
	CHECKF(on.gp[0] >= 0.95 * off.gp[0], "long %.1f / %.1f", on.gp[0], off.gp[0]);
	CHECKF(on.gp[1] >= off.gp[1], "short 1 %.1f / %.1f", on.gp[1], off.gp[1]);
	CHECK(on.ss[0].rate_capped > 0 && off.ss[0].rate_hint_pps == 0);
}

/*
 * One flow, 10 Gbit/s, 10 % random loss (the stalled case),
 * window 128: no block waits for a timer, latency in milliseconds.
 */
static void
test_lossy_10g(void)
{
	static const double share[1] = { 8000 };
	struct dfcp_conn_conf cc;
	struct simnet n;
	struct res r;
	uint32_t hops[1], w[1] = { 1 }, back;

	sn_init(&n, REAL_T, WIRE_T, BIN);
	hops[0] = sn_pipe(&n, 10000000000ull, 10000, 1024, 0.10, 7);
	back = sn_pipe(&n, 0, 10000, 0, 0, 8);
	conf(&cc, DFCP_REDUNDANCY_AUTO, 128);
	sn_path(&n, 0, hops, 1, w, back);
	sn_flow(&n, 0, &cc, 8000ull * 47 * REAL_T, 10000000000ull, 0);
	sn_run(&n, 20 * SEC);
	collect(&n, &r, share);
	sn_fini(&n);
	print_res("10G, 10 % random loss", 1, &r);
	CHECK(r.exact);
	CHECKF(r.timers[0] < 0.005, "timers %.4f", r.timers[0]);
	CHECKF(r.p99_ms[0] <= 5, "p99 %.2f ms", r.p99_ms[0]);
	/* 10 Gbit/s of 1518-byte frames carry 9.35 of payload; 90 % of it after 10 % loss */
	CHECKF(r.gp[0] >= 0.93 * 9350 * 0.9, "goodput %.0f Mbit/s", r.gp[0]);
}

int
main(void)
{
	test_lossy_10g();
	test_parking();
	test_dumbbell();
	return test_report("dfcp-overload");
}
