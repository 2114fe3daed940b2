/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/pipe unit tests. Virtual clock in ns, fixed seeds.
 * Usage: test_pipe NAME
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"
#include "test_harness.h"

static struct test_rng rng = { 777 };

static uint32_t
rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(test_rng_next(&rng) % ((uint64_t)hi - lo + 1));
}

static struct pipe *
mk(struct pipe_conf *c)
{
	struct pipe *p = pipe_create(c);

	if (p == NULL) {
		fprintf(stderr, "pipe_create failed\n");
		exit(1);
	}
	return p;
}

/*
 * Every packet leaves at max(arrival, previous end) + serialization + delay,
 * within 1 us, with the pipe polled at random coarse instants.
 */
static void
test_timing(void)
{
	enum { N = 200000 };
	struct pipe_conf c = { .bw_bps = 100000000, .delay_ns = 20000000,
		.queue_pkts = 100000, .sched = "fifo" };
	struct pipe *p = mk(&c);
	static double expect[N];
	struct pipe_pkt out[64];
	double prev_end = 0, worst = 0;
	uint64_t t = 0, next_poll = 0, got = 0;
	uint32_t i;

	for (i = 0; i < N; i++) {
		uint32_t len = rnd_range(64, 1518);
		double start;

		t += rnd_range(0, 250000);	/* mean 125 us: ~0.6 load at 100M */
		start = (double)t > prev_end ? (double)t : prev_end;
		prev_end = start + len * 8.0 * 1e9 / 1e8;
		expect[i] = prev_end + 20e6;
		while (next_poll <= t) {
			unsigned int n = pipe_dequeue_burst(p, next_poll, out, 64), j;

			for (j = 0; j < n; j++) {
				double d = fabs((double)out[j].t_depart - expect[out[j].pkt]);

				if (d > worst)
					worst = d;
				CHECKF(out[j].t_depart <= next_poll, "early");
				got++;
			}
			if (n < 64)
				next_poll += rnd_range(1, 300000);
		}
		CHECKF(pipe_enqueue(p, i, len, NULL, t) == 0, "enqueue %u", i);
	}
	for (;;) {
		unsigned int n, j;

		/* drain at the pipe's own pace (a late call would move it) */
		t = pipe_next_event(p);
		if (t == UINT64_MAX)
			break;
		n = pipe_dequeue_burst(p, t, out, 64);
		for (j = 0; j < n; j++) {
			double d = fabs((double)out[j].t_depart - expect[out[j].pkt]);

			if (d > worst)
				worst = d;
		}
		got += n;
	}
	printf("timing: %" PRIu64 " packets, worst error %.1f ns\n", got, worst);
	CHECKF(got == N, "got %" PRIu64, got);
	CHECKF(worst <= 1000, "worst departure error %.1f ns", worst);
	pipe_free(p);
}

/* Backlogged pipe: output rate within 0.5 % of the configured bandwidth. */
static void
test_rate(void)
{
	struct pipe_conf c = { .bw_bps = 1000000000, .delay_ns = 5000000,
		.queue_pkts = 1000 };
	struct pipe *p = mk(&c);
	struct pipe_pkt out[64];
	uint64_t t, bytes = 0, id = 0, t0 = 0, t1 = 1000000000ull;
	int measuring = 0;

	for (t = 0; t <= t1 + 10000000; t += 10000) {	/* 10 us steps */
		unsigned int n, j;

		while (pipe_enqueue(p, id, rnd_range(64, 1518), NULL, t) == 0)
			id++;
		n = pipe_dequeue_burst(p, t, out, 64);
		for (j = 0; j < n; j++)
			if (out[j].t_depart >= t0 + 10000000 && out[j].t_depart < t1 + 10000000)
				bytes += out[j].len, measuring = 1;
	}
	{
		double rate = bytes * 8.0 / ((t1 - t0) * 1e-9);

		printf("rate: %.6f Gbit/s (configured 1)\n", rate / 1e9);
		CHECKF(measuring && fabs(rate - 1e9) <= 0.005e9, "rate %.0f", rate);
	}
	pipe_free(p);
}

static void
loss_run(double plr, uint64_t seed)
{
	enum { N = 1000000 };
	struct pipe_conf c = { .plr = plr, .seed = seed, .queue_pkts = 4 };
	struct pipe *p = mk(&c);
	struct pipe_pkt out[4];
	uint64_t lost = 0, i;
	double mean = N * plr, sd = sqrt(N * plr * (1 - plr));

	for (i = 0; i < N; i++) {
		int rc = pipe_enqueue(p, i, 100, NULL, i);

		if (rc == -EIO)
			lost++;
		else
			CHECKF(rc == 0, "rc %d", rc);
		pipe_dequeue_burst(p, i, out, 4);
	}
	printf("loss: plr %.4f lost %" PRIu64 " expect %.0f +- %.0f (3.29 sd)\n",
	       plr, lost, mean, 3.29 * sd);
	CHECKF(fabs(lost - mean) <= 3.29 * sd, "plr %.4f lost %" PRIu64, plr, lost);
	pipe_free(p);
}

static void
test_loss(void)
{
	loss_run(0.001, 1);
	loss_run(0.01, 2);
	loss_run(0.1, 3);
	loss_run(0.5, 4);
}

/* Gilbert-Elliott: mean loss and mean burst length as configured. */
static void
test_ge(void)
{
	enum { N = 2000000 };
	static const double cfg[][2] = { { 0.01, 2 }, { 0.05, 4 }, { 0.2, 10 } };
	unsigned int k;

	for (k = 0; k < 3; k++) {
		struct pipe_conf c = { .seed = 99 + k, .queue_pkts = 4 };
		struct pipe_pkt out[4];
		struct pipe *p;
		uint64_t lost = 0, bursts = 0, i;
		int prev = 0;
		double ml, mb;

		CHECKF(pipe_ge_from_mean(&c.ge, cfg[k][0], cfg[k][1]) == 0, "ge");
		p = mk(&c);
		for (i = 0; i < N; i++) {
			int l = pipe_enqueue(p, i, 100, NULL, i) == -EIO;

			lost += l;
			bursts += l && !prev;
			prev = l;
			pipe_dequeue_burst(p, i, out, 4);
		}
		ml = (double)lost / N;
		mb = (double)lost / bursts;
		printf("ge: loss %.4f (want %.4f), burst %.3f (want %.1f)\n", ml,
		       cfg[k][0], mb, cfg[k][1]);
		CHECKF(fabs(ml - cfg[k][0]) <= 0.05 * cfg[k][0], "GE mean loss %.5f", ml);
		CHECKF(fabs(mb - cfg[k][1]) <= 0.05 * cfg[k][1], "GE burst %.3f", mb);
		pipe_free(p);
	}
}

/* Overload a small queue: in == out + drops, every handle exactly once. */
static void
test_overflow(void)
{
	enum { N = 100000 };
	struct pipe_conf c = { .bw_bps = 10000000, .delay_ns = 1000000,
		.queue_pkts = 50, .plr = 0.01, .seed = 5 };
	struct pipe *p = mk(&c);
	static uint8_t seen[N];
	struct pipe_pkt out[64];
	struct pipe_stats st;
	uint64_t t = 0, out_n = 0, drop = 0, lost = 0, run = 0, run_max = 0, burst = 0, i;
	unsigned int n, j;

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < N; i++) {
		int rc;

		t += 500;	/* 1000-byte packets every 0.5 us: 1600x the link */
		rc = pipe_enqueue(p, i, 1000, NULL, t);
		if (rc == -ENOBUFS)
			drop++, seen[i]++, run++;
		else if (rc == -EIO)
			lost++, seen[i]++;	/* emulated loss: not a drop, the run goes on */
		else
			run = 0;
		if (run > run_max)
			run_max = run;
		burst += rc == -ENOBUFS && run >= PIPE_DROP_BURST;
		n = pipe_dequeue_burst(p, t, out, 64);
		for (j = 0; j < n; j++)
			seen[out[j].pkt]++;
		out_n += n;
	}
	pipe_stats_get(p, &st);
	CHECKF(st.in_pkts == N && st.drop_pkts == drop && st.loss_pkts == lost,
	      "stats in %" PRIu64 " drop %" PRIu64, st.in_pkts, st.drop_pkts);
	CHECKF(st.sched_pkts <= 50, "occupancy %u", st.sched_pkts);
	/* 800 us of link time per packet, one arrival every 0.5 us: ~1600 drops in a row */
	CHECKF(st.drop_run_max == run_max && run_max >= 1000 && run_max <= 1700,
	      "drop_run_max %" PRIu64 ", the drops in a row %" PRIu64, st.drop_run_max, run_max);
	CHECKF(st.drop_burst_pkts == burst && burst > drop / 2,
	      "drop_burst_pkts %" PRIu64 ", want %" PRIu64, st.drop_burst_pkts, burst);
	while ((n = pipe_flush(p, out, 64)) > 0) {
		for (j = 0; j < n; j++)
			seen[out[j].pkt]++;
		out_n += n;
	}
	CHECKF(N == out_n + drop + lost, "in %d out %" PRIu64 " drop %" PRIu64 " lost %" PRIu64,
	      N, out_n, drop, lost);
	for (i = 0; i < N; i++)
		CHECKF(seen[i] == 1, "packet %" PRIu64 " seen %u", i, seen[i]);
	printf("overflow: out %" PRIu64 " drop %" PRIu64 " lost %" PRIu64 " drop run max %" PRIu64
	       "\n", out_n, drop, lost, run_max);
	pipe_free(p);
}

#define IP(a, b, c, d) (((uint32_t)(a) << 24) | ((b) << 16) | ((c) << 8) | (d))

static void
test_classify(void)
{
	struct pipe_conf c = { 0 };
	struct pipe *p = mk(&c);
	int q1 = pipe_queue_add(p, 10, 0, 0), q2 = pipe_queue_add(p, 20, 0, 0),
	    q3 = pipe_queue_add(p, 30, 0, 0);
	struct pipe_rule r1 = { .src = IP(10, 0, 1, 0), .src_len = 24, .proto = 17,
		.dport_lo = 5000, .dport_hi = 5999, .queue = (uint32_t)q1 };
	struct pipe_rule r2 = { .dst = IP(10, 0, 2, 7), .dst_len = 32, .queue = (uint32_t)q2 };
	struct pipe_rule r3 = { .src = IP(10, 0, 0, 0), .src_len = 8, .proto = 6,
		.sport_lo = 80, .sport_hi = 80, .queue = (uint32_t)q3 };
	struct pipe_flow f;
	struct pipe_rule bad = r1;

	CHECKF(q1 == 1 && q2 == 2 && q3 == 3, "queue ids");
	CHECKF(pipe_rule_add(p, &r1) == 0 && pipe_rule_add(p, &r2) == 0 &&
	      pipe_rule_add(p, &r3) == 0, "rules");
	bad.queue = 9;
	CHECKF(pipe_rule_add(p, &bad) == -EINVAL, "bad queue");
	f = (struct pipe_flow){ IP(10, 0, 1, 9), IP(1, 2, 3, 4), 1234, 5500, 17 };
	CHECKF(pipe_classify(p, &f) == 1, "r1");
	f.dport = 6000;
	CHECKF(pipe_classify(p, &f) == 0, "r1 port range -> default");
	f.dst = IP(10, 0, 2, 7);
	CHECKF(pipe_classify(p, &f) == 2, "r2 any proto");
	f = (struct pipe_flow){ IP(10, 9, 9, 9), IP(1, 1, 1, 1), 80, 40000, 6 };
	CHECKF(pipe_classify(p, &f) == 3, "r3");
	f.proto = 17;
	CHECKF(pipe_classify(p, &f) == 0, "r3 proto");
	f = (struct pipe_flow){ IP(10, 0, 1, 1), IP(1, 1, 1, 1), 0, 0, 1 };
	CHECKF(pipe_classify(p, &f) == 0, "icmp, port rule -> no match");
	CHECKF(pipe_set_unmatched(p, PIPE_NO_QUEUE) == 0, "pass");
	CHECKF(pipe_classify(p, &f) == PIPE_NO_QUEUE, "unmatched pass");
	CHECKF(pipe_enqueue(p, 1, 100, &f, 0) == PIPE_PASS, "enqueue pass");
	pipe_free(p);
}

/*
 * Dumbbell: two flows, 50/50 queues by rule, WF2Q+ at 1 Gbit/s, both
 * overloading: each gets half within 0.5 %, Jain >= 0.999; unequal sizes.
 */
static void
test_dumbbell(void)
{
	struct pipe_conf c = { .bw_bps = 1000000000, .delay_ns = 10000000,
		.queue_pkts = 100 };
	struct pipe *p = mk(&c);
	int qa = pipe_queue_add(p, 50, 0, 0), qb = pipe_queue_add(p, 50, 0, 0);
	struct pipe_rule ra = { .src = IP(10, 0, 0, 1), .src_len = 32, .queue = (uint32_t)qa };
	struct pipe_rule rb = { .src = IP(10, 0, 0, 2), .src_len = 32, .queue = (uint32_t)qb };
	struct pipe_flow fa = { IP(10, 0, 0, 1), IP(10, 1, 0, 1), 1000, 2000, 17 };
	struct pipe_flow fb = { IP(10, 0, 0, 2), IP(10, 1, 0, 2), 1000, 2000, 17 };
	struct pipe_pkt out[64];
	uint64_t bytes[3] = { 0 }, t, id = 0;
	double ja;

	pipe_rule_add(p, &ra);
	pipe_rule_add(p, &rb);
	for (t = 0; t < 1000000000ull; t += 5000) {
		unsigned int n, j, k;

		for (k = 0; k < 6; k++) {	/* ~2x the link per flow */
			pipe_enqueue(p, id++, 1500, &fa, t);
			pipe_enqueue(p, id++, 400, &fb, t);
		}
		n = pipe_dequeue_burst(p, t, out, 64);
		for (j = 0; j < n; j++)
			bytes[out[j].queue] += out[j].len;
	}
	{
		double tot = bytes[1] + bytes[2];

		ja = pipe_jain(p, NULL);
		printf("dumbbell: %.4f / %.4f, Jain %.6f\n", bytes[1] / tot, bytes[2] / tot, ja);
		CHECKF(fabs(bytes[1] / tot - 0.5) <= 0.0025, "share %.5f", bytes[1] / tot);
		CHECKF(ja >= 0.999, "Jain %.6f", ja);
	}
	pipe_free(p);
}

/*
 * Parking lot: link 1 = 1 Gbit/s (short flow 1 + long flow), link 2 =
 * 500 Mbit/s (short flow 2 + long flow, fed by link 1), WF2Q+ 50/50 on each.
 * All sources send 1 Gbit/s of 1000-byte packets. Expected goodput: flow 1
 * 500, long 250 (its share at the bottleneck), flow 2 250 Mbit/s.
 */
static void
test_parking(void)
{
	struct pipe_conf c1 = { .name = "l1", .bw_bps = 1000000000, .delay_ns = 10000000,
		.queue_pkts = 100 };
	struct pipe_conf c2 = { .name = "l2", .bw_bps = 500000000, .delay_ns = 20000000,
		.queue_pkts = 100 };
	struct pipe *p1 = mk(&c1), *p2 = mk(&c2);
	struct pipe_flow f1 = { IP(10, 0, 0, 1), IP(10, 0, 1, 1), 1, 1, 17 };
	struct pipe_flow f2 = { IP(10, 0, 0, 2), IP(10, 0, 2, 1), 1, 1, 17 };
	struct pipe_flow fl = { IP(10, 0, 0, 3), IP(10, 0, 2, 3), 1, 1, 17 };
	struct pipe_rule r;
	struct pipe_pkt out[64], out2[64];
	uint64_t rx[3] = { 0 }, t, id = 0;
	int a1 = pipe_queue_add(p1, 1, 0, 0), l1 = pipe_queue_add(p1, 1, 0, 0);
	int a2 = pipe_queue_add(p2, 1, 0, 0), l2 = pipe_queue_add(p2, 1, 0, 0);

	memset(&r, 0, sizeof(r));
	r.src = f1.src, r.src_len = 32, r.queue = (uint32_t)a1;
	pipe_rule_add(p1, &r);
	r.src = fl.src, r.queue = (uint32_t)l1;
	pipe_rule_add(p1, &r);
	pipe_set_unmatched(p1, PIPE_NO_QUEUE);
	r.src = f2.src, r.queue = (uint32_t)a2;
	pipe_rule_add(p2, &r);
	r.src = fl.src, r.queue = (uint32_t)l2;
	pipe_rule_add(p2, &r);
	pipe_set_unmatched(p2, PIPE_NO_QUEUE);
	for (t = 0; t < 2000000000ull; t += 8000) {	/* one 1000 B packet per 8 us */
		unsigned int n, j;

		pipe_enqueue(p1, 0x100000000ull | id++, 1000, &f1, t);
		pipe_enqueue(p1, 0x300000000ull | id++, 1000, &fl, t);
		pipe_enqueue(p2, 0x200000000ull | id++, 1000, &f2, t);
		n = pipe_dequeue_burst(p1, t, out, 64);
		for (j = 0; j < n; j++) {
			if ((out[j].pkt >> 32) == 1) {
				if (out[j].t_depart >= 1000000000ull)
					rx[0] += out[j].len;
			} else {
				pipe_enqueue(p2, out[j].pkt, out[j].len, &fl, out[j].t_depart);
			}
		}
		n = pipe_dequeue_burst(p2, t, out2, 64);
		for (j = 0; j < n; j++)
			if (out2[j].t_depart >= 1000000000ull)
				rx[(out2[j].pkt >> 32) == 2 ? 1 : 2] += out2[j].len;
	}
	{
		double g1 = rx[0] * 8 / 1e6, g2 = rx[1] * 8 / 1e6, gl = rx[2] * 8 / 1e6;

		printf("parking: flow1 %.1f flow2 %.1f long %.1f Mbit/s\n", g1, g2, gl);
		CHECKF(fabs(g1 - 500) <= 5 && fabs(g2 - 250) <= 2.5 && fabs(gl - 250) <= 2.5,
		      "parking lot shares");
	}
	pipe_free(p1);
	pipe_free(p2);
}

/* Same seed, same losses; another seed, other losses. */
static void
test_determinism(void)
{
	uint64_t sig[3] = { 0 };
	unsigned int k, i;

	for (k = 0; k < 3; k++) {
		struct pipe_conf c = { .plr = 0.05, .seed = k == 2 ? 43 : 42, .queue_pkts = 4 };
		struct pipe_pkt out[4];
		struct pipe *p;

		pipe_ge_from_mean(&c.ge, 0.02, 3);
		p = mk(&c);
		for (i = 0; i < 100000; i++) {
			if (pipe_enqueue(p, i, 100, NULL, i) == -EIO)
				sig[k] = sig[k] * 31 + i;
			pipe_dequeue_burst(p, i, out, 4);
		}
		pipe_free(p);
	}
	CHECKF(sig[0] == sig[1] && sig[0] != sig[2], "determinism");
}

/*
 * Arrivals earlier than the pipe's latest dequeue (a router whose first pipe
 * runs behind now, lookahead): a pure delay line keeps each one's own time
 * (departure = arrival + delay, in order, one already due leaves at the next
 * dequeue), a pipe with bandwidth takes them at its latest time.
 */
static void
test_late_enqueue(void)
{
	struct pipe_conf dc = { .delay_ns = 10000000 };
	struct pipe_conf bc = { .bw_bps = 1000000000, .delay_ns = 10000000 };
	struct pipe *d = mk(&dc), *b = mk(&bc);
	struct pipe_pkt out[4];
	unsigned int n;

	CHECK(pipe_dequeue_burst(d, 100000000, out, 4) == 0);
	CHECK(pipe_enqueue(d, 1, 1000, NULL, 95000000) == 0);
	CHECK(pipe_enqueue(d, 2, 1000, NULL, 90000000) == 0);	/* before the last: taken at 95 ms */
	CHECK(pipe_dequeue_burst(d, 104999999, out, 4) == 0);
	n = pipe_dequeue_burst(d, 105000000, out, 4);
	CHECKF(n == 2 && out[0].pkt == 1 && out[1].pkt == 2 && out[0].t_depart == 105000000 &&
	       out[1].t_depart == 105000000, "delay line: %u out, first at %" PRIu64, n,
	       n ? out[0].t_depart : 0);
	/* one already due at the next dequeue: out then, in order, never before its time */
	CHECK(pipe_dequeue_burst(d, 200000000, out, 4) == 0);
	CHECK(pipe_enqueue(d, 3, 1000, NULL, 185000000) == 0);
	n = pipe_dequeue_burst(d, 200000001, out, 4);
	CHECKF(n == 1 && out[0].pkt == 3 && out[0].t_depart == 195000000, "due: %u", n);
	/* with bandwidth: at the latest time (100 ms) + 8 us + 10 ms */
	CHECK(pipe_dequeue_burst(b, 100000000, out, 4) == 0);
	CHECK(pipe_enqueue(b, 4, 1000, NULL, 95000000) == 0);
	n = pipe_dequeue_burst(b, 200000000, out, 4);
	CHECKF(n == 1 && out[0].t_depart >= 110000000, "bw pipe: departure %" PRIu64,
	       n ? out[0].t_depart : 0);
	pipe_free(d);
	pipe_free(b);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "timing", test_timing }, { "rate", test_rate }, { "loss", test_loss },
	{ "ge", test_ge }, { "overflow", test_overflow }, { "classify", test_classify },
	{ "dumbbell", test_dumbbell }, { "parking", test_parking },
	{ "determinism", test_determinism }, { "late_enqueue", test_late_enqueue },
};

int
main(int argc, char **argv)
{
	unsigned int i, ran = 0;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (argc < 2 || strcmp(argv[1], "all") == 0 ||
		    strcmp(argv[1], tests[i].name) == 0) {
			tests[i].fn();
			ran++;
		}
	if (ran == 0) {
		fprintf(stderr, "unknown test\n");
		return 2;
	}
	return test_report("pipe");
}
