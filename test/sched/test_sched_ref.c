/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/sched unit test: WF2Q+ against its plain reference.
 * Virtual clock, fixed seeds: every run is identical. Usage: test_sched_ref
 */
#include "sched_test.h"

/*
 * Plain O(N) WF2Q+ beside the heap one: the same rule and arithmetic with
 * linear scans and per-packet tags, no lazy keys, no tag slots. The GPS
 * reference is advanced from one exact finish tag to the next (smallest gF
 * of the queues backlogged in GPS); the served queue must be an eligible
 * one (S <= V) with the smallest F.
 */
enum { RN = 16, RP = 64 };
struct ref {
	uint64_t S[RN], F[RN], gF[RN], V, sumw, t_v, t_link, bpns;
	uint32_t w[RN], npk[RN], ingps[RN], h[RN], busy;
	uint32_t lens[RN][RP], hasmk[RN][RP];
	uint64_t mk[RN][RP];
};

static uint64_t
ref_inc(uint32_t len, uint64_t w)
{
	return (uint64_t)(((unsigned __int128)len * (UINT64_MAX / w)) >> 24);
}

static int
lt(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static uint64_t
ref_clk(const struct ref *r, uint64_t now)
{
	return (uint64_t)(((unsigned __int128)now * r->bpns) >> 8);
}

/* Queues whose last finish tag V has reached leave GPS. */
static void
ref_gps_leave(struct ref *r)
{
	int i;

	for (i = 0; i < RN; i++)
		if (r->ingps[i] && !lt(r->V, r->gF[i])) {
			r->ingps[i] = 0;
			r->sumw -= r->w[i];
		}
}

/* Advance GPS by the work up to byte clock t: a step crosses the smallest
 * last finish tag gF when V + work / sum_w >= gF; V stops there, the work
 * to reach it is spent and the queue leaves. */
static void
ref_gps_to(struct ref *r, uint64_t t)
{
	uint64_t work;

	if (!lt(r->t_v, t))
		return;
	work = t - r->t_v;
	r->t_v = t;
	for (;;) {
		uint64_t k = 0, end;
		int i, any = 0;

		for (i = 0; i < RN; i++)
			if (r->ingps[i] && (!any++ || lt(r->gF[i], k)))
				k = r->gF[i];
		if (!any)
			return;
		end = r->V + (uint64_t)(((unsigned __int128)work *
			(UINT64_MAX / r->sumw)) >> 48);
		if (lt(end, k)) {
			r->V = end;
			return;
		}
		if (lt(r->V, k)) {
			unsigned __int128 need = ((unsigned __int128)(k - r->V) *
				r->sumw) >> 16;

			work = need < work ? work - (uint64_t)need : 0;
			r->V = k;
		}
		ref_gps_leave(r);
	}
}

static void
ref_arrive(struct ref *r, int q, uint32_t len, uint64_t now)
{
	uint64_t S;
	uint32_t slot = (r->h[q] + r->npk[q]) % RP;

	if (!r->busy) {
		r->busy = 1;
		if (r->bpns)
			r->t_v = ref_clk(r, now);
		r->t_link = r->t_v;
	} else if (r->bpns) {
		ref_gps_to(r, ref_clk(r, now));
	}
	r->lens[q][slot] = len;
	r->hasmk[q][slot] = 0;
	if (r->ingps[q] && lt(r->V, r->gF[q])) {
		S = r->gF[q];
	} else {
		S = r->V;
		if (!r->ingps[q]) {
			r->ingps[q] = 1;
			r->sumw += r->w[q];
		}
		r->hasmk[q][slot] = 1;
		r->mk[q][slot] = S;
	}
	r->gF[q] = S + ref_inc(len, r->w[q]);
	if (r->npk[q]++ == 0) {
		r->S[q] = S;
		r->F[q] = r->gF[q];
	}
}

/* byte_limit: dequeue with sched_dequeue_bytes and a random budget of
 * 1 .. 4 maximum packets; a short burst is then one that reached it. */
static void
run_ref(uint64_t rate_bps, unsigned int burst_max, int byte_limit)
{
	struct ref r;
	struct sched *s = mk("wf2q+", RN, 4096);
	uint64_t id = 0, now = 1000000;
	int step, i, jumps = 0;

	memset(&r, 0, sizeof(r));
	if (rate_bps) {
		CHECKF(sched_set_rate(s, rate_bps, 0) == 0, "rate");
		r.bpns = (uint64_t)(((unsigned __int128)rate_bps << 32) / 8000000000u);
	}
	for (i = 0; i < RN; i++) {
		r.w[i] = rnd_range(1, 1000);
		sched_queue_set(s, i, r.w[i], 0, 0);
	}
	for (step = 0; step < 300000; step++) {
		uint32_t u = rnd_range(0, 999);

		/* Real time moves on (rate mode): mostly within a packet
		 * time, sometimes a long idle gap. */
		now += u < 5 ? rnd_range(0, 10000000) : rnd_range(0, 1500);
		if (u < 8) {
			/* Weight change. */
			int q = (int)rnd_range(0, RN - 1);
			uint32_t nw = rnd_range(1, 1000);

			sched_queue_set(s, q, nw, 0, 0);
			if (r.ingps[q])
				r.sumw = r.sumw - r.w[q] + nw;
			r.w[q] = nw;
		} else if (u < 530) {
			int q = (int)rnd_range(0, RN - 1);
			uint32_t len = rnd_range(LMIN, LMAX);

			if (r.npk[q] >= RP - 4)
				continue;
			CHECKF(sched_enqueue(s, q, id++, len, now) == 0, "enqueue");
			ref_arrive(&r, q, len, now);
		} else {
			struct sched_pkt ob[8];
			unsigned int nb = burst_max > 1 ? rnd_range(1, burst_max) : 1;
			uint64_t maxb = byte_limit ? rnd_range(1, 4 * LMAX) : UINT64_MAX;
			unsigned int got = byte_limit ?
				sched_dequeue_bytes(s, ob, nb, maxb, now) :
				sched_dequeue_burst(s, ob, nb, now), j;
			uint64_t tnow, taken = 0;
			uint32_t hd;

			if (got == 0) {
				for (i = 0; i < RN; i++) {
					CHECKF(r.npk[i] == 0, "ref has packets");
					r.ingps[i] = 0;
				}
				r.sumw = 0;
				r.busy = 0;
				r.t_v = r.t_link;
				continue;
			}
			tnow = r.bpns ? ref_clk(&r, now) : r.t_link;
			/* A burst of n = n decisions, each when the link frees
			 * up, with no arrival in between. */
			for (j = 0; j < got; j++) {
				struct sched_pkt o = ob[j];
				uint64_t minS = 0, minF = 0, t;
				int anye = 0, anyb = 0, q;

				t = lt(r.t_link, tnow) ? tnow : r.t_link;
				ref_gps_to(&r, t);
				for (i = 0; i < RN; i++)
					if (r.npk[i] && (!anyb++ || lt(r.S[i], minS)))
						minS = r.S[i];
				CHECKF(anyb, "burst of %u returned %u, ref empty", nb, got);
				for (i = 0; i < RN; i++)
					anye |= r.npk[i] && !lt(r.V, r.S[i]);
				if (!anye && lt(r.V, minS)) {
					r.V = minS;	/* WF2Q+'s jump */
					ref_gps_leave(&r);
					jumps++;
				}
				anye = 0;
				for (i = 0; i < RN; i++)
					if (r.npk[i] && !lt(r.V, r.S[i]) &&
					    (!anye++ || lt(r.F[i], minF)))
						minF = r.F[i];
				q = (int)o.queue;
				CHECKF(r.npk[q] && !lt(r.V, r.S[q]) && r.F[q] == minF,
				      "rate %" PRIu64 " step %d (%u of %u): served queue %d "
				      "not the eligible min F", rate_bps, step, j, got, q);
				CHECKF(o.len == r.lens[q][r.h[q]], "len");
				CHECKF(taken < maxb, "byte budget %" PRIu64 " passed "
				      "before packet %u", maxb, j);
				taken += o.len;
				r.t_link = t + ((uint64_t)o.len << 24);
				r.h[q] = (r.h[q] + 1) % RP;
				r.S[q] = r.F[q];
				if (--r.npk[q]) {
					hd = r.h[q];
					if (r.hasmk[q][hd] && lt(r.S[q], r.mk[q][hd]))
						r.S[q] = r.mk[q][hd];
					r.F[q] = r.S[q] + ref_inc(r.lens[q][hd], r.w[q]);
				}
			}
			if (got < nb && taken < maxb)
				for (i = 0; i < RN; i++)
					CHECKF(r.npk[i] == 0, "short burst %u of %u, ref has "
					      "packets", got, nb);
			if (test_failures > 5)
				break;
		}
	}
	printf("ref rate %" PRIu64 " bursts <= %u%s: %d steps in lockstep, "
	       "%d V jumps\n", rate_bps, burst_max,
	       byte_limit ? " (byte budgets)" : "", step, jumps);
	sched_free(s);
}

static void
test_ref(void)
{
	run_ref(0, 1, 0);
	run_ref(8000000000ull, 1, 0);
	run_ref(1000000000ull, 1, 0);
	/* Bursts: decisions after the first of a call use the fluid
	 * system advanced within the call. */
	run_ref(0, 8, 0);
	run_ref(8000000000ull, 8, 0);
	run_ref(1000000000ull, 8, 0);
	/* sched_dequeue_bytes: bursts cut by a byte budget. */
	run_ref(0, 8, 1);
	run_ref(1000000000ull, 8, 1);
}

/*
 * The burst routines against their plain forms, every scheduler: twin
 * instances fed the same random traffic (queue limits that refuse some),
 * one through sched_enqueue_burst and sched_dequeue_bytes, the other
 * through sched_enqueue packet by packet and sched_dequeue_burst of the
 * count the first one returned. Same refusals, same packets in the same
 * order, same counters; the byte budget stops the burst at the first
 * packet that reaches it.
 */
static void
run_burst_twin(const char *algo, uint64_t rate_bps)
{
	enum { NQ = 64, NB = 32 };
	struct sched *a = mk(algo, NQ, 512), *b = mk(algo, NQ, 512);
	uint64_t id = 0, now = 1000, deq = 0, refused = 0;
	int step, q;

	for (q = 0; q < NQ; q++) {
		uint32_t w = rnd_range(1, 50), lim = rnd_range(2, 16);

		sched_queue_set(a, q, w, lim, 0);
		sched_queue_set(b, q, w, lim, 0);
	}
	if (rate_bps) {
		CHECKF(sched_set_rate(a, rate_bps, 24) == 0, "rate a");
		CHECKF(sched_set_rate(b, rate_bps, 24) == 0, "rate b");
	}
	for (step = 0; step < 40000 && test_failures < 5; step++) {
		struct sched_pkt in[NB], oa[NB], ob[NB];
		unsigned int n = rnd_range(0, NB), i, ka, kb, ra = 0;
		uint64_t maxb = rnd_range(1, 8) == 1 ? UINT64_MAX : rnd_range(0, 12 * LMAX);
		uint64_t taken = 0;
		uint64_t rb[NB];

		now += rnd_range(0, 20000);
		for (i = 0; i < n; i++) {
			/* a bad queue now and then: refused, not counted */
			in[i].queue = rnd_range(0, 200) == 0 ? NQ + 3 : rnd_range(0, NQ - 1);
			in[i].pkt = id++;
			in[i].len = rnd_range(LMIN, LMAX);
			if (sched_enqueue(b, in[i].queue, in[i].pkt, in[i].len, now) != 0)
				rb[ra++] = in[i].pkt;
		}
		ka = sched_enqueue_burst(a, in, n, now);
		CHECKF(ka == n - ra, "%s step %d: burst queued %u, plain %u", algo, step,
		      ka, n - ra);
		for (i = 0; i < ra && i < n - ka; i++)
			CHECKF(in[i].pkt == rb[i], "%s step %d: refused #%u differs", algo,
			      step, i);
		refused += ra;
		n = rnd_range(1, NB);
		ka = sched_dequeue_bytes(a, oa, n, maxb, now);
		kb = ka ? sched_dequeue_burst(b, ob, ka, now) : 0;
		CHECKF(kb == ka, "%s step %d: %u vs %u packets", algo, step, ka, kb);
		for (i = 0; i < ka && i < kb; i++) {
			CHECKF(taken < maxb, "%s step %d: budget passed before #%u", algo,
			      step, i);
			CHECKF(oa[i].pkt == ob[i].pkt && oa[i].queue == ob[i].queue &&
			      oa[i].len == ob[i].len, "%s step %d: packet %u differs", algo,
			      step, i);
			taken += oa[i].len;
		}
		if (ka < n && taken < maxb) {
			CHECKF(sched_backlog_pkts(a) == 0, "%s step %d: short burst with "
			      "packets left", algo, step);
			/* the empty call both see: the end of a busy period */
			CHECKF(sched_dequeue_burst(a, oa, 1, now) == 0, "a empty");
			CHECKF(sched_dequeue_burst(b, ob, 1, now) == 0, "b empty");
		}
		deq += ka;
	}
	for (q = 0; q < NQ; q++) {
		struct sched_qstats sa, sb;

		sched_queue_stats(a, q, &sa);
		sched_queue_stats(b, q, &sb);
		CHECKF(memcmp(&sa, &sb, sizeof(sa)) == 0, "%s queue %d: stats differ", algo, q);
	}
	printf("burst twin %s rate %" PRIu64 ": %d steps, %" PRIu64 " packets out, "
	       "%" PRIu64 " refused, identical\n", algo, rate_bps, step, deq, refused);
	sched_free(a);
	sched_free(b);
}

int
main(void)
{
	test_rng_seed(&rng, 12345);
	test_ref();
	run_burst_twin("wf2q+", 0);
	run_burst_twin("wf2q+", 1000000000ull);
	run_burst_twin("drr", 0);
	run_burst_twin("fifo", 0);
	return test_report("test_sched_ref");
}
