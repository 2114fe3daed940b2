/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sched unit test: WF2Q+ against a fluid GPS reference.
 * Virtual clock, fixed seeds: every run is identical. Usage: test_sched_gps
 */
#include "sched_test.h"

/*
 * WF2Q+ against a fluid GPS reference. The same arrivals (integer ns) are
 * fed to the scheduler and to a fluid GPS server of the same rate; the
 * link sends one packet at a time and asks the scheduler for the next one
 * the instant it frees up. At every packet completion t (the lag of a
 * queue can only peak there: between completions its packet service is
 * flat or rising at the full link rate) and for every queue i:
 *   lag_i = W_i^GPS(0,t) - W_i^pkt(0,t)     (completed packets only)
 * Bennett & Zhang / Parekh & Gallager: lag_i <= Lmax with the exact GPS
 * virtual time. Also measured: the lead W^pkt - W^GPS, and the guaranteed-
 * rate (B-WFI) bound: over any interval in which queue i is continuously
 * backlogged in the packet system, service >= r_i * interval - Lmax with
 * r_i = w_i / sum(all weights) * C.
 */
enum { GQ = 32 };

struct gps {
	double b[GQ], g[GQ];	/* fluid backlog, cumulative fluid service */
	double w[GQ];
	double t, bpt;		/* time (ns), link bytes per ns */
	int n;
};

static void
gps_advance(struct gps *f, double t)
{
	double dt = t - f->t;
	int i;

	while (dt > 1e-12) {
		double wsum = 0, tau = dt;

		for (i = 0; i < f->n; i++)
			if (f->b[i] > 1e-9)
				wsum += f->w[i];
		if (wsum == 0)
			break;
		for (i = 0; i < f->n; i++)
			if (f->b[i] > 1e-9 && f->b[i] * wsum / (f->w[i] * f->bpt) < tau)
				tau = f->b[i] * wsum / (f->w[i] * f->bpt);
		for (i = 0; i < f->n; i++)
			if (f->b[i] > 1e-9) {
				double sv = tau * f->bpt * f->w[i] / wsum;

				if (sv > f->b[i] || f->b[i] - sv < 1e-9)
					sv = f->b[i];
				f->b[i] -= sv;
				f->g[i] += sv;
			}
		dt -= tau;
	}
	f->t = t;
}

enum { W_RAND20, W_EQUAL, W_ONEHEAVY, W_LOG1000 };
enum { A_ONOFF, A_JOINLEAVE, A_BURSTS };

struct gcase {
	const char *name;
	int nq, wmode, amode;
	uint32_t nspb;		/* link ns per byte: rate = 8 Gbit/s / nspb */
	int rate_known;		/* sched_set_rate() called */
	uint64_t seed;
	uint64_t pkts;		/* completions to simulate */
};

struct gres {
	double lag, lead, bwfi;	/* worst of each, bytes */
	uint64_t completions, drops;
};

/* Next arrival time of queue q after t (ns), by arrival mode. */
static uint64_t
gen_next(const struct gcase *c, double *on_until, double *rate, int q,
		double t, uint32_t *burst)
{
	double nt;

	*burst = 1;
	switch (c->amode) {
	case A_BURSTS:
		/* Bursts of 1..24 packets at one instant, mean gap sized so
		 * that the offered load is ~0.95. */
		*burst = rnd_range(1, 24);
		nt = t - log(1 - rnd_unit()) * (12.5 * 791.0 * c->nq / 0.95) *
			c->nspb;
		return (uint64_t)nt + 1;
	case A_JOINLEAVE:
	case A_ONOFF:
	default:
		/* On/off source: Poisson at rate[q] (packets/ns) while on
		 * (mean 50000 byte times), off for a mean of 100000 (A_ONOFF);
		 * A_JOINLEAVE: heavier per-queue loads (0.3..1.5 of the link
		 * for 8 queues) and longer silences, so queues keep joining
		 * and leaving a link that is overloaded at times. Loads scale
		 * with 8 / nq (mean offered load ~0.9). */
		nt = t - log(1 - rnd_unit()) / rate[q];
		if (nt > on_until[q]) {
			double off = -log(1 - rnd_unit()) *
				(c->amode == A_ONOFF ? 100000.0 : 400000.0) * c->nspb;
			double load = (c->amode == A_ONOFF ? 0.1 + rnd_unit() * 0.5 :
				0.3 + rnd_unit() * 1.2) * 8.0 / c->nq;

			nt = on_until[q] + off;
			on_until[q] = nt - log(1 - rnd_unit()) * 50000.0 * c->nspb;
			rate[q] = load / (791.0 * c->nspb);
		}
		return (uint64_t)nt + 1;
	}
}

static void
gps_trial(const struct gcase *c, struct gres *r)
{
	struct gps f;
	double on_until[GQ], rate[GQ], wall = 0;
	double bw_mx[GQ];	/* max of W_pkt(s) - r_i s over backlog starts/own departures */
	uint64_t next_arr[GQ], served[GQ] = { 0 }, t_free = 0, id = 0;
	uint32_t backlog[GQ] = { 0 };	/* packets queued or in transmission */
	struct sched *s = mk("wf2q+", (uint32_t)c->nq, 1 << 16);
	struct sched_pkt cur;
	int busy = 0, i;

	test_rng_seed(&rng, c->seed);
	memset(&f, 0, sizeof(f));
	memset(r, 0, sizeof(*r));
	f.n = c->nq;
	f.bpt = 1.0 / c->nspb;
	if (c->rate_known)
		CHECKF(sched_set_rate(s, 8000000000ull / c->nspb, 0) == 0, "rate");
	for (i = 0; i < c->nq; i++) {
		uint32_t w;

		switch (c->wmode) {
		case W_EQUAL: w = 1; break;
		case W_ONEHEAVY: w = i == 0 ? 1000 : 1; break;
		case W_LOG1000: w = 1u << rnd_range(0, 10); break;
		default: w = rnd_range(1, 20); break;
		}
		f.w[i] = w;
		wall += w;
		sched_queue_set(s, (uint32_t)i, w, 0, 0);
		on_until[i] = rnd_unit() * 5000 * c->nspb;
		rate[i] = 0;
		next_arr[i] = (uint64_t)on_until[i];
		on_until[i] += 50000.0 * c->nspb;
		rate[i] = (0.1 + rnd_unit() * 0.5) * 8.0 / c->nq / (791.0 * c->nspb);
	}
	while (r->completions < c->pkts) {
		uint64_t t_arr = UINT64_MAX;
		int qa = -1;

		for (i = 0; i < c->nq; i++)
			if (next_arr[i] < t_arr) {
				t_arr = next_arr[i];
				qa = i;
			}
		if (busy && t_free <= t_arr) {
			/* Completion of the packet in transmission. */
			int q = (int)cur.queue;

			gps_advance(&f, (double)t_free);
			served[q] += cur.len;
			busy = 0;
			r->completions++;
			backlog[q]--;
			{
				double ri = f.w[q] / wall * f.bpt;
				double x = served[q] - ri * (double)t_free;

				if (backlog[q] && x > bw_mx[q])
					bw_mx[q] = x;
			}
			for (i = 0; i < c->nq; i++) {
				double lag = f.g[i] - served[i];

				if (lag > r->lag) {
					r->lag = lag;
					if (getenv("GPS_DEBUG") && lag > LMAX)
						fprintf(stderr, "%s: t=%" PRIu64 " q=%d w=%.0f lag=%.1f\n",
							c->name, t_free, i, f.w[i], lag);
				}
				if (-lag > r->lead)
					r->lead = -lag;
			}
		} else {
			uint32_t k, burst;
			uint64_t nt = gen_next(c, on_until, rate, qa, (double)t_arr, &burst);

			gps_advance(&f, (double)t_arr);
			for (k = 0; k < burst; k++) {
				uint32_t len = rnd_range(LMIN, LMAX);

				if (sched_enqueue(s, (uint32_t)qa, id++, len, t_arr) != 0) {
					r->drops++;	/* pool full: the test is overloaded */
					continue;
				}
				f.b[qa] += len;
				if (backlog[qa]++ == 0)
					bw_mx[qa] = served[qa] - f.w[qa] / wall * f.bpt * (double)t_arr;
			}
			next_arr[qa] = nt;
		}
		if (!busy) {
			uint64_t t = t_free > (uint64_t)f.t ? t_free : (uint64_t)f.t;

			/* Guaranteed rate: worst shortfall of a backlogged
			 * queue's service since any s in its current backlogged
			 * period below r_i * (t - s). */
			for (i = 0; i < c->nq; i++)
				if (backlog[i]) {
					double d = bw_mx[i] - (served[i] -
						f.w[i] / wall * f.bpt * (double)t);

					if (d > r->bwfi)
						r->bwfi = d;
				}
			if (sched_dequeue_burst(s, &cur, 1, t) == 1) {
				busy = 1;
				t_free = t + (uint64_t)cur.len * c->nspb;
			}
		}
	}
	sched_free(s);
}

static void
test_gps(void)
{
	static const struct gcase cases[] = {
		{ "onoff-8-w20", 8, W_RAND20, A_ONOFF, 1, 1, 12345, 200000 },
		{ "onoff-8-w20-s2", 8, W_RAND20, A_ONOFF, 1, 1, 777, 200000 },
		{ "onoff-32-log", 32, W_LOG1000, A_ONOFF, 1, 1, 4242, 150000 },
		{ "joinleave-8-w20", 8, W_RAND20, A_JOINLEAVE, 8, 1, 99, 200000 },
		{ "joinleave-16-heavy", 16, W_ONEHEAVY, A_JOINLEAVE, 1, 1, 5, 150000 },
		{ "joinleave-32-eq", 32, W_EQUAL, A_JOINLEAVE, 1, 1, 31337, 150000 },
		{ "bursts-8-w20", 8, W_RAND20, A_BURSTS, 1, 1, 2024, 200000 },
		{ "bursts-32-log", 32, W_LOG1000, A_BURSTS, 8, 1, 8, 150000 },
	};
	/* Without a link rate: the fluid clock is the bytes dequeued. */
	static const struct gcase nor[] = {
		{ "norate-onoff-8-w20", 8, W_RAND20, A_ONOFF, 1, 0, 12345, 200000 },
		{ "norate-joinleave-8", 8, W_RAND20, A_JOINLEAVE, 1, 0, 99, 200000 },
		{ "norate-bursts-32", 32, W_LOG1000, A_BURSTS, 1, 0, 8, 150000 },
	};
	double worst = 0, worst_nr = 0;
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gres r;

		gps_trial(&cases[i], &r);
		printf("gps %-20s %7" PRIu64 " pkts: lag %7.1f B (%.3f Lmax) "
		       "lead %7.1f B, B-WFI %7.1f B\n", cases[i].name,
		       r.completions, r.lag, r.lag / LMAX, r.lead, r.bwfi);
		CHECKF(r.drops == 0, "%s: %" PRIu64 " drops", cases[i].name, r.drops);
		CHECKF(r.lag <= LMAX + 0.01, "%s: GPS lag %.3f > Lmax", cases[i].name,
		      r.lag);
		/* WF2Q: W_pkt - W_GPS <= (1 - r_i/C) L_i,max <= Lmax. */
		CHECKF(r.lead <= LMAX + 0.01, "%s: lead %.3f > Lmax", cases[i].name,
		      r.lead);
		/*
		 * Guaranteed rate: while queue i stays backlogged in GPS too,
		 * service >= r_i * interval - Lmax - lead <= 2 Lmax follows
		 * from the two bounds above; a packet backlog that outlasts
		 * the GPS one is not covered by a theorem (measured up to
		 * 1.74 Lmax, a weight-1000 queue against 15 of weight 1),
		 * so 2 Lmax is a regression guard here. See doc/scheduler.md.
		 */
		CHECKF(r.bwfi <= 2.0 * LMAX, "%s: B-WFI %.3f > 2 Lmax", cases[i].name,
		      r.bwfi);
		if (r.lag > worst)
			worst = r.lag;
	}
	for (i = 0; i < sizeof(nor) / sizeof(nor[0]); i++) {
		struct gres r;

		gps_trial(&nor[i], &r);
		printf("gps %-20s %7" PRIu64 " pkts: lag %7.1f B (%.3f Lmax) "
		       "lead %7.1f B, B-WFI %7.1f B\n", nor[i].name,
		       r.completions, r.lag, r.lag / LMAX, r.lead, r.bwfi);
		CHECKF(r.drops == 0, "%s: %" PRIu64 " drops", nor[i].name, r.drops);
		/* Arrival instants inside a transmission are unknown here:
		 * see doc/scheduler.md. */
		CHECKF(r.lag <= 2.0 * LMAX, "%s: GPS lag %.3f > 2 Lmax", nor[i].name,
		      r.lag);
		if (r.lag > worst_nr)
			worst_nr = r.lag;
	}
	printf("gps: worst lag %.1f B = %.3f Lmax with the link rate, "
	       "%.1f B = %.3f Lmax without\n", worst, worst / LMAX, worst_nr,
	       worst_nr / LMAX);
}

int
main(void)
{
	test_rng_seed(&rng, 12345);
	test_gps();
	return test_report("test_sched_gps");
}
