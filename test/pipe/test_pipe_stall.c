/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/pipe with a caller that stalls (the router's lcore descheduled), on a
 * virtual clock in ns. The caller is modelled on the router task: each poll
 * it first takes what is due from the pipe (pipe_dequeue_burst at the poll
 * time), then receives at most a burst from an "rx ring" that a feeder
 * fills at its own rate while the caller is away, and offers each packet
 * with the time of that receive (stamped after the rx burst). Usage:
 * test_pipe_stall NAME|all
 *
 *   props     per packet, with stalls of 0.1 to 50 ms: never released before
 *             its departure, departure >= stamp + queueing + serialization +
 *             delay, order kept, serializations never overlap (the schedule
 *             never exceeds the bandwidth), nothing released more than the
 *             catch-up bound late (output <= bw * (window + bound) + one
 *             packet); stalls within the bound leave the schedule exactly
 *             that of a caller that never stalls
 *   overload  500 Mbit/s fed at 800 Mbit/s with a caller that runs 0.5-4 ms
 *             and stalls 0.1-10 ms (then 0.1-20 ms): 500 Mbit/s +- 1 % with
 *             a queue and an rx ring that cover the longest stall; the
 *             ipfw-default 50-packet queue falls short
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pace.h"
#include "pipe.h"
#include "test_harness.h"

#define US ((uint64_t)1000)
#define MS ((uint64_t)1000000)
#define RING_MAX 65536u

struct feeder {
	uint64_t next_ns, gap_ns;	/* next arrival, spacing (0: random) */
	uint32_t fixed_len;		/* 0: random 64..1518 */
	uint64_t id;
	/* rx ring: arrival times and sizes of what waits for the caller */
	uint32_t cap, n, rd;
	uint64_t *t_arr;
	uint32_t *len;
	uint64_t ring_drops;
};

/* Arrivals up to now into the ring (beyond its capacity: dropped). */
static void
feed(struct feeder *f, struct test_rng *g, uint64_t now)
{
	while (f->next_ns <= now) {
		uint32_t l = f->fixed_len ? f->fixed_len : 64 + test_rng_below(g, 1455);

		if (f->n < f->cap) {
			uint32_t w = (f->rd + f->n) % f->cap;

			f->t_arr[w] = f->next_ns;
			f->len[w] = l;
			f->n++;
		} else {
			f->ring_drops++;
		}
		f->next_ns += f->gap_ns ? f->gap_ns : 1 + test_rng_below(g, 160 * US);
	}
}

struct pkt_info {
	uint64_t stamp;		/* the now it was enqueued with */
	uint64_t arrival;	/* when it reached the rx ring */
	uint32_t len, queue;
};

struct run {
	struct pipe *p;
	uint64_t bw, delay, catchup, ser_npb;
	uint32_t ovh;
	struct pkt_info *info;
	uint64_t nb_info;
	/* checks over the released packets */
	unsigned int nb_q;		/* 1: queue 0; 3: queues 1 and 2 */
	uint64_t last_id[3];
	uint64_t prev_depart;
	uint32_t prev_len;
	double env_m, env_worst;
	uint64_t env_last;
	uint64_t out_bytes_win, released;	/* wire bytes departing in the window */
	uint64_t win_lo, win_hi;
	uint64_t worst_late;
	double worst_ref_err;
	double ref_end;			/* FIFO reference: end of the last serialization */
	int fifo_ref;
};

static uint64_t
ser_ns_q32(const struct run *r, uint32_t len)
{
	return (uint64_t)(len + r->ovh) * r->ser_npb;
}

static void
check_out(struct run *r, const struct pipe_pkt *o, uint64_t now)
{
	const struct pkt_info *in = &r->info[o->pkt];
	uint64_t ser = (ser_ns_q32(r, o->len) + 0xffffffffu) >> 32, wire = o->len + r->ovh;

	CHECKF(o->t_depart <= now, "packet %" PRIu64 " released %" PRIu64 " ns early", o->pkt,
	       o->t_depart - now);
	CHECKF(o->t_depart >= in->stamp + ser + r->delay, "packet %" PRIu64 " departs before "
	       "stamp + serialization + delay", o->pkt);
	CHECKF(r->last_id[o->queue] == UINT64_MAX || o->pkt > r->last_id[o->queue],
	       "queue %u reordered: %" PRIu64 " after %" PRIu64, o->queue, o->pkt,
	       r->last_id[o->queue]);
	r->last_id[o->queue] = o->pkt;
	/* serializations in output order never overlap: end_i - ser_i >= end_{i-1} */
	if (r->released)
		CHECKF(o->t_depart >= r->prev_depart + ser - 1, "serializations overlap at %" PRIu64,
		       o->pkt);
	r->prev_depart = o->t_depart;
	r->prev_len = o->len;
	if (now - o->t_depart > r->worst_late)
		r->worst_late = now - o->t_depart;
	/* (sigma, rho) monitor of the release instants */
	r->env_m -= (double)(now - r->env_last) * r->bw / 8e9;
	if (r->env_m < 0)
		r->env_m = 0;
	r->env_last = now;
	r->env_m += (double)wire;
	if (r->env_m > r->env_worst)
		r->env_worst = r->env_m;
	if (o->t_depart >= r->win_lo && o->t_depart < r->win_hi)
		r->out_bytes_win += wire;
	if (r->fifo_ref) {
		double start = (double)in->stamp > r->ref_end ? (double)in->stamp : r->ref_end;
		double e;

		r->ref_end = start + (double)wire * 8e9 / (double)r->bw;
		e = fabs((double)o->t_depart - (r->ref_end + (double)r->delay));
		if (e > r->worst_ref_err)
			r->worst_ref_err = e;
	}
	r->released++;
}

struct stall_pattern {
	uint64_t run_lo, run_hi;	/* busy between stalls */
	uint64_t stall_lo, stall_hi;
	uint64_t poll_gap;		/* between polls while running */
	const uint64_t *fixed;		/* or stalls taken in turn from this list */
	unsigned int nb_fixed;
};

/*
 * The router-like caller for `end` ns. Returns the number of polls.
 */
static uint64_t
caller(struct run *r, struct feeder *f, struct test_rng *g, const struct stall_pattern *sp,
		uint64_t end, uint32_t burst)
{
	struct pipe_pkt out[64];
	uint64_t now = 0, run_end = 0, polls = 0;
	unsigned int k_fixed = 0;

	while (now < end) {
		unsigned int n, j, rounds;
		uint32_t b;

		if (now >= run_end) {
			uint64_t s = sp->nb_fixed ? sp->fixed[k_fixed++ % sp->nb_fixed] :
				sp->stall_lo + test_rng_below(g, (uint32_t)(sp->stall_hi - sp->stall_lo));

			now += s;
			run_end = now + sp->run_lo +
				test_rng_below(g, (uint32_t)(sp->run_hi - sp->run_lo + 1));
		}
		/* departures first (at most 16 x 64 per poll, as the router) */
		for (rounds = 0; rounds < 16; rounds++) {
			n = pipe_dequeue_burst(r->p, now, out, 64);
			for (j = 0; j < n; j++)
				check_out(r, &out[j], now);
			if (n < 64)
				break;
		}
		/* then one rx burst, stamped after it */
		feed(f, g, now);
		for (b = 0; b < burst && f->n; b++) {
			struct pkt_info *in;

			REQUIRE(f->id < r->nb_info);
			in = &r->info[f->id];
			in->arrival = f->t_arr[f->rd];
			in->stamp = now;
			in->len = f->len[f->rd];
			in->queue = r->nb_q == 1 ? 0 : 1 + (uint32_t)(f->id & 1);
			{
				int rc = pipe_enqueue_q(r->p, in->queue, f->id, in->len, now);

				CHECKF(rc == 0 || rc == -ENOBUFS, "enqueue rc %d", rc);
			}
			f->id++;
			f->rd = (f->rd + 1) % f->cap;
			f->n--;
		}
		now += 1 + test_rng_below(g, (uint32_t)sp->poll_gap);
		polls++;
	}
	return polls;
}

static void
feeder_init(struct feeder *f, uint32_t cap, uint64_t gap_ns, uint32_t fixed_len)
{
	memset(f, 0, sizeof(*f));
	f->cap = cap;
	f->gap_ns = gap_ns;
	f->fixed_len = fixed_len;
	f->t_arr = calloc(cap, sizeof(*f->t_arr));
	f->len = calloc(cap, sizeof(*f->len));
	REQUIRE(f->t_arr != NULL && f->len != NULL);
}

static void
feeder_free(struct feeder *f)
{
	free(f->t_arr);
	free(f->len);
}

static void
run_init(struct run *r, const struct pipe_conf *c, uint64_t nb_info, int fifo)
{
	memset(r, 0, sizeof(*r));
	r->p = pipe_create(c);
	REQUIRE(r->p != NULL);
	r->bw = c->bw_bps;
	r->delay = c->delay_ns;
	r->catchup = c->catchup_ns ? c->catchup_ns : PACE_CATCHUP_DEFAULT_NS;
	r->ovh = c->overhead;
	r->ser_npb = pace_npb(c->bw_bps);
	r->nb_info = nb_info;
	r->info = calloc(nb_info, sizeof(*r->info));
	REQUIRE(r->info != NULL);
	r->last_id[0] = r->last_id[1] = r->last_id[2] = UINT64_MAX;
	r->fifo_ref = fifo;
	r->nb_q = fifo ? 1 : 3;
	r->win_hi = UINT64_MAX;
	if (!fifo) {
		REQUIRE(pipe_queue_add(r->p, 1, 0, 0) == 1);
		REQUIRE(pipe_queue_add(r->p, 3, 0, 0) == 2);
	}
}

static void
props_run(const char *sched, uint64_t delay, const uint64_t *stalls, unsigned int nb_stalls,
		uint64_t seed)
{
	const uint64_t bw = 100000000, end = 1500 * MS;
	struct pipe_conf c = { .bw_bps = bw, .delay_ns = delay, .overhead = 24, .sched = sched,
		.queue_pkts = 20000, .line_pkts = 1u << 16 };
	struct stall_pattern sp = { .run_lo = 200 * US, .run_hi = 3 * MS, .poll_gap = 20 * US,
		.fixed = stalls, .nb_fixed = nb_stalls };
	int fifo = strcmp(sched, "fifo") == 0;
	struct pipe_stats st;
	struct feeder f;
	struct test_rng g;
	struct run r;
	uint64_t max_stall = 0, polls;
	double bound;
	unsigned int i;

	for (i = 0; i < nb_stalls; i++)
		if (stalls[i] > max_stall)
			max_stall = stalls[i];
	test_rng_seed(&g, seed);
	run_init(&r, &c, 1u << 20, fifo);
	feeder_init(&f, RING_MAX, 0, 0);	/* random gaps and sizes: ~0.8 of the link */
	/* then 1500-byte packets at 3x the link: always backlogged */
	polls = caller(&r, &f, &g, &sp, end / 2, 32);
	f.gap_ns = 40 * US;
	f.fixed_len = 1500;
	polls += caller(&r, &f, &g, &sp, end, 32);
	pipe_stats_get(r.p, &st);
	bound = (double)bw / 8e9 * (double)r.catchup + 1518 + 24;
	CHECKF(r.worst_late <= r.catchup, "released %" PRIu64 " ns late (bound %" PRIu64 ")",
	       r.worst_late, r.catchup);
	CHECKF(r.env_worst <= bound, "burst %.0f bytes above rate, bound %.0f", r.env_worst, bound);
	if (max_stall <= r.catchup) {
		CHECKF(st.catchup_stalls == 0 && st.catchup_lost_ns == 0, "stalls within the bound "
		       "moved the pipe: %" PRIu64, st.catchup_stalls);
		if (fifo)
			CHECKF(r.worst_ref_err <= 1, "schedule off the reference by %.1f ns",
			       r.worst_ref_err);
	} else {
		CHECKF(st.catchup_stalls > 0 && st.catchup_lost_ns > 0, "a %" PRIu64 " ms stall "
		       "was not counted", max_stall / MS);
	}
	CHECKF(st.line_stalls == 0, "line stalls %u", st.line_stalls);
	printf("props: %-5s delay %2" PRIu64 " ms, stalls up to %5.1f ms: %" PRIu64 " packets, "
	       "%" PRIu64 " polls, latest %.3f ms, burst %.0f B (bound %.0f), moved %" PRIu64
	       " times (%.3f ms)%s\n", sched, delay / MS, max_stall / 1e6, r.released, polls,
	       r.worst_late / 1e6, r.env_worst, bound, st.catchup_stalls, st.catchup_lost_ns / 1e6,
	       fifo && max_stall <= r.catchup ? ", schedule = reference" : "");
	pipe_free(r.p);
	feeder_free(&f);
	free(r.info);
}

static void
test_props(void)
{
	static const uint64_t within[] = { 100 * US, 1 * MS, 10 * MS, 19 * MS, 3 * MS };
	static const uint64_t beyond[] = { 100 * US, 1 * MS, 10 * MS, 50 * MS };
	static const uint64_t delays[] = { 0, 10 * MS, 50 * MS };
	unsigned int d;

	for (d = 0; d < 3; d++) {
		props_run("fifo", delays[d], within, 5, 1 + d);
		props_run("wf2q+", delays[d], within, 5, 11 + d);
		props_run("fifo", delays[d], beyond, 4, 21 + d);
		props_run("wf2q+", delays[d], beyond, 4, 31 + d);
	}
}

/* Delivered L1 rate (Mbit/s, by departure time in [1 s, end)) of a 500 Mbit/s
 * pipe fed 1500-byte packets at 800 Mbit/s by a stalling caller. */
static double
overload_run(uint32_t queue, uint32_t ring, uint64_t stall_hi, uint64_t *ring_drops,
		uint64_t *moved)
{
	const uint64_t end = 5000 * MS;
	struct pipe_conf c = { .bw_bps = 500000000, .delay_ns = 10 * MS, .overhead = 24,
		.queue_pkts = queue };
	struct stall_pattern sp = { .run_lo = 500 * US, .run_hi = 4 * MS, .stall_lo = 100 * US,
		.stall_hi = stall_hi, .poll_gap = 10 * US };
	struct pipe_stats st;
	struct feeder f;
	struct test_rng g;
	struct run r;

	test_rng_seed(&g, 500 + queue + stall_hi);
	run_init(&r, &c, 1u << 20, 1);
	r.fifo_ref = 0;		/* drops: the FIFO reference does not apply */
	feeder_init(&f, ring, 15240, 1500);	/* (1500 + 24) * 8 bits at 800 Mbit/s */
	r.win_lo = 1000 * MS;
	r.win_hi = end;
	caller(&r, &f, &g, &sp, end + 100 * MS, 32);
	pipe_stats_get(r.p, &st);
	*ring_drops = f.ring_drops;
	*moved = st.catchup_stalls;
	CHECKF(r.worst_late <= r.catchup, "late %" PRIu64, r.worst_late);
	pipe_free(r.p);
	feeder_free(&f);
	free(r.info);
	return r.out_bytes_win * 8 / ((end - r.win_lo) / 1e9) / 1e6;
}

static void
test_overload(void)
{
	/* packets of 1524 wire bytes a stall of S drains from the queue, and
	 * the feeder must be able to put back through the ring: 500 Mbit/s x S */
	const uint64_t s10 = 10 * MS, s20 = 20 * MS;
	uint32_t q10 = (uint32_t)(500e6 / 8 * (s10 / 1e9) / 1524) + 1;
	uint32_t q20 = (uint32_t)(500e6 / 8 * (s20 / 1e9) / 1524) + 1;
	uint64_t drops, moved;
	double m;

	m = overload_run(q10 + q10 / 10, 1024, s10, &drops, &moved);
	printf("overload: stalls 0.1-10 ms, queue %u (covers 10 ms: %u), ring 1024: %.2f Mbit/s "
	       "(ring drops %" PRIu64 ", moved %" PRIu64 ")\n", q10 + q10 / 10, q10, m, drops, moved);
	CHECKF(fabs(m - 500) <= 5, "%.2f Mbit/s", m);
	m = overload_run(q20 + q20 / 10, 2048, s20, &drops, &moved);
	printf("overload: stalls 0.1-20 ms, queue %u (covers 20 ms: %u), ring 2048: %.2f Mbit/s "
	       "(ring drops %" PRIu64 ", moved %" PRIu64 ")\n", q20 + q20 / 10, q20, m, drops, moved);
	CHECKF(fabs(m - 500) <= 5, "%.2f Mbit/s", m);
	m = overload_run(50, 1024, s10, &drops, &moved);
	printf("overload: stalls 0.1-10 ms, queue 50 (ipfw default): %.2f Mbit/s: the link idles "
	       "once a stall outlasts the queue\n", m);
	CHECKF(m < 495, "a 50-packet queue covered 10 ms stalls: %.2f Mbit/s", m);
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "props", test_props }, { "overload", test_overload },
};

int
main(int argc, char **argv)
{
	unsigned int i, ran = 0;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (argc < 2 || strcmp(argv[1], "all") == 0 || strcmp(argv[1], tests[i].name) == 0) {
			tests[i].fn();
			ran++;
		}
	if (ran == 0) {
		fprintf(stderr, "unknown test\n");
		return 2;
	}
	return test_report("pipe_stall");
}
