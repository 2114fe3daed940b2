/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * WF2Q+ (Bennett & Zhang) driven by the exact GPS virtual time, i.e. WF2Q
 * with WF2Q+'s O(log N) heaps; see doc/scheduler.md.
 *
 * Two systems are tracked side by side:
 *
 *  - the fluid (GPS) reference: V is its virtual time, in bytes per unit
 *    weight (64-bit fixed point, VT_SHIFT fractional bits, wrapping, all
 *    comparisons modular). Every arriving packet gets the GPS tags
 *    S = max(gF, V(a)), F = S + L/w, where gF is the finish tag of the
 *    queue's previous arrival; the queue is backlogged in GPS while
 *    V < gF. V advances with the work the link does, at rate 1/sum_w where
 *    sum_w sums the weights of the queues backlogged in GPS, piecewise: a
 *    queue whose gF is reached in the middle of a step leaves sum_w at that
 *    point (set `gps`: a heap plus a sorted ring, keyed by lower bounds
 *    of gF raised lazily when reached, so an arrival to a queue
 *    backlogged in GPS costs O(1)).
 *    The work comes from a byte clock: with a known link rate
 *    (sched_set_rate) arrivals advance it to their `now` and a dequeue to
 *    max(now, end of the previous transmission); without one, only
 *    dequeues advance it, by the bytes served.
 *
 *  - the packet system: the head packet of every backlogged queue carries
 *    its GPS tags S, F and sits in the run (a ring in which S and F are
 *    both nondecreasing), elig (S <= V, keyed by F) or ne (S > V, keyed
 *    by S); the eligible head with the smallest F is served (struct
 *    wf2qp below). A packet's S is the F of
 *    the packet before it unless the queue was idle in GPS when it arrived;
 *    then its S = V(a) is kept in a tag slot referenced from the spare bits
 *    of the node's len.
 *
 * With an exact V there is always an eligible packet while the link is busy
 * (Bennett & Zhang), and no queue lags GPS by more than one maximum packet.
 * When V is approximate (no link rate, or a caller that dequeues ahead of
 * the link) and nothing is eligible, WF2Q+'s rule V = min S applies.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "pktsched.h"
#include "sched_heap.h"
#include "sched_priv.h"

#define VT_SHIFT	40	/* fractional bits of virtual time */
#define CLK_SHIFT	24	/* fractional bits of the byte clock */
#define MARK_MAX	65535u	/* tag slots (16-bit references, 0 = none) */
#define PF_DIST		8	/* prefetch distance along the run, services */

struct wq {
	uint64_t F;		/* finish tag of the head packet */
	uint64_t gF;		/* GPS finish tag of the last arrival */
	uint64_t inv_w;		/* floor((2^64 - 1) / w) */
	uint32_t w;
	uint32_t in_gps;	/* in the gps set (backlogged in GPS) */
};

/*
 * Head packets of the backlogged queues (the packet system):
 *   run:  a ring of (S, F, queue) in which S and F are both nondecreasing.
 *         Its eligible entries (S <= V) are a prefix and the first has
 *         the smallest F among them, so the ring's head is the only
 *         candidate it holds. A queue's new head is appended when its tags
 *         are not below the last entry's (with equal weights and sizes
 *         always, and often otherwise), in O(1) and without moving it from
 *         ne to elig when it becomes eligible;
 *   elig: the others with S <= V, a heap keyed by F;
 *   ne:   the others with S > V, a heap keyed by S.
 * The queue served is the one with the smallest F of elig's top and the
 * run's head when eligible (ties go to the run).
 * gps: queues backlogged in GPS, keyed by a lower bound of gF (raised
 * lazily when V reaches it), a heap plus a sorted ring (sched_heap.h).
 * inv_sum equals inv_of(sum_w) between calls (sum_dirty only inside one).
 */
struct runent {
	uint64_t S, F;
	uint32_t id;
	uint32_t pad;
};

struct wf2qp {
	struct sheap elig, ne;
	struct rheap gps;
	struct runent *run;
	uint32_t rhead, rn, rmask, nact; /* nact: queues with packets */
	uint64_t rlS, rlF;	/* tags of the run's last entry */
	uint64_t V;
	uint64_t sum_w;
	uint64_t inv_sum;
	uint64_t t_v;		/* byte clock V has been advanced to */
	uint64_t t_link;	/* byte clock at which the link frees up */
	uint64_t bpns;		/* link bytes per ns, 32 fractional bits; 0 */
	uint32_t ovh;		/* per-packet overhead bytes */
	uint32_t busy;		/* a busy period is open */
	uint32_t sum_dirty;	/* inv_sum stale */
	uint32_t mark_free;	/* free tag slots, linked through mark[] */
	uint32_t mark_cap;
	uint32_t pad;
	uint64_t *mark;		/* tag slots: S of a restarting packet */
	struct wq *q;
};

static inline uint64_t
inv_of(uint64_t w)
{
	return UINT64_MAX / w;
}

/* L / w in virtual-time units, from the precomputed inverse. */
static inline uint64_t
vt_inc(uint32_t len, uint64_t inv)
{
	return (uint64_t)(((unsigned __int128)len * inv) >> (64 - VT_SHIFT));
}

/* Byte clock at time now (ns), modular. */
static inline uint64_t
clk_of(const struct wf2qp *w, uint64_t now)
{
	return (uint64_t)(((unsigned __int128)now * w->bpns) >> (32 - CLK_SHIFT));
}

/* Virtual time the fluid server covers with `work` at the current sum_w. */
static inline uint64_t
gps_dv(const struct wf2qp *w, uint64_t work)
{
	return (uint64_t)(((unsigned __int128)work * w->inv_sum) >>
		(64 + CLK_SHIFT - VT_SHIFT));
}

static size_t
wf2qp_priv_size(const struct sched_conf *c)
{
	uint32_t marks = c->pool_pkts < MARK_MAX ? c->pool_pkts : MARK_MAX;

	return sizeof(struct wf2qp) + (size_t)c->nb_queues * sizeof(struct wq) +
		(size_t)marks * sizeof(uint64_t);
}

static void
wf2qp_fini(struct sched *s)
{
	struct wf2qp *w = s->priv;

	sheap_fini(&w->elig);
	sheap_fini(&w->ne);
	rheap_fini(&w->gps);
	free(w->run);
	w->run = NULL;
}

static int
wf2qp_init(struct sched *s)
{
	struct wf2qp *w = s->priv;
	uint32_t i, n = s->nb_queues;

	w->q = (struct wq *)(w + 1);
	w->mark = (uint64_t *)(w->q + n);
	w->mark_cap = s->pool_pkts < MARK_MAX ? s->pool_pkts : MARK_MAX;
	for (i = 0; i < w->mark_cap; i++)
		w->mark[i] = i + 1;
	w->mark_free = 0;
	for (i = 0; i < n; i++) {
		w->q[i].w = 1;
		w->q[i].inv_w = inv_of(1);
	}
	for (w->rmask = 1; w->rmask < n; w->rmask <<= 1)
		;
	w->run = malloc(sizeof(*w->run) * w->rmask);
	w->rmask--;
	if (w->run == NULL || sheap_init(&w->elig, n) || sheap_init(&w->ne, n) ||
	    rheap_init(&w->gps, n)) {
		wf2qp_fini(s);
		return -ENOMEM;
	}
	return 0;
}

/* The top of gps has a key <= V: its queue leaves GPS, or (stale key)
 * goes back with its real finish tag. */
static inline void
gps_top_reached(struct wf2qp *w, struct sheap_ent *top)
{
	uint32_t id = top->id;
	struct wq *wq = &w->q[id];

	rheap_pop(&w->gps, top);
	if (vt_lt(w->V, wq->gF)) {
		rheap_push(&w->gps, wq->gF, id);
	} else {
		wq->in_gps = 0;
		w->sum_w -= wq->w;
		w->sum_dirty = 1;
	}
}

static inline void
sum_fresh(struct wf2qp *w)
{
	if (w->sum_dirty) {
		w->inv_sum = w->sum_w ? inv_of(w->sum_w) : 0;
		w->sum_dirty = 0;
	}
}

/*
 * Advance the fluid system by `work` byte-clock units: V moves at
 * 1/sum_w, and a queue whose last finish tag is reached on the way leaves
 * sum_w there (V is set to that tag exactly, and the work to get there is
 * spent). Idle time (GPS empty) is dropped. A step crosses a tag when
 * V + work/sum_w >= tag; stale (too low) keys met on the way are raised
 * first, so the result does not depend on them. (gps_to's fast path is
 * this loop's first iteration when no tag is crossed.)
 */
static void
gps_run(struct wf2qp *w, uint64_t work)
{
	while (rheap_n(&w->gps)) {
		struct sheap_ent *top;
		uint64_t key, end;

		sum_fresh(w);
		end = w->V + gps_dv(w, work);
		top = rheap_top(&w->gps);
		while (vt_le(top->key, end) && w->q[top->id].gF != top->key) {
			uint32_t id = top->id;

			rheap_pop(&w->gps, top);
			rheap_push(&w->gps, w->q[id].gF, id);
			top = rheap_top(&w->gps);
		}
		key = top->key;
		if (vt_lt(end, key)) {
			w->V = end;
			return;
		}
		/* The top queue's last packet finishes within this step. */
		if (vt_lt(w->V, key)) {
			unsigned __int128 need = ((unsigned __int128)(key - w->V) *
				w->sum_w) >> (VT_SHIFT - CLK_SHIFT);

			work = need < work ? work - (uint64_t)need : 0;
			w->V = key;
		}
		gps_top_reached(w, top);
	}
	sum_fresh(w);
}

/* V jumped (no eligible packet): queues whose tags it passed leave GPS. */
static void
gps_skip(struct wf2qp *w)
{
	while (rheap_n(&w->gps) && vt_le(rheap_top(&w->gps)->key, w->V))
		gps_top_reached(w, rheap_top(&w->gps));
	sum_fresh(w);
}

/* The link went idle: so has the fluid system. */
static void
gps_flush(struct wf2qp *w)
{
	struct rheap *g = &w->gps;
	uint32_t i;

	for (i = 0; i < g->h.n; i++)
		w->q[g->h.a[i].id].in_gps = 0;
	for (i = 0; i < g->rn; i++)
		w->q[g->ring[(g->rhead + i) & g->rmask].id].in_gps = 0;
	rheap_clear(g);
	w->sum_w = 0;
	w->inv_sum = 0;
	w->sum_dirty = 0;
}

/* Advance the fluid system to byte clock t. */
static inline void
gps_to(struct wf2qp *w, uint64_t t)
{
	uint64_t work;

	if (!vt_lt(w->t_v, t))
		return;
	work = t - w->t_v;
	w->t_v = t;
	if (__builtin_expect(rheap_n(&w->gps) != 0, 1)) {
		/* Fast path: no GPS finish tag (or stale key) is reached. */
		uint64_t end = w->V + gps_dv(w, work);

		if (__builtin_expect(vt_lt(end, rheap_top(&w->gps)->key), 1)) {
			w->V = end;
			return;
		}
		gps_run(w, work);
	}
}

/* Queue q's head packet, tags S and F, goes to the run, elig or ne. */
static inline void
head_place(struct wf2qp *w, uint32_t q, uint64_t S, uint64_t F)
{
	if (w->rn == 0 || (vt_le(w->rlS, S) && vt_le(w->rlF, F))) {
		struct runent *e = &w->run[(w->rhead + w->rn) & w->rmask];

		e->S = S;
		e->F = F;
		e->id = q;
		w->rn++;
		w->rlS = S;
		w->rlF = F;
	} else if (vt_le(S, w->V)) {
		sheap_push(&w->elig, F, q);
	} else {
		sheap_push(&w->ne, S, q);
	}
}

static int __attribute__((noinline))
wf2qp_arrive_slow(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];
	uint64_t S, F;

	if (__builtin_expect(!w->busy, 0)) {
		/* First packet of a busy period: the link starts now. */
		w->busy = 1;
		if (w->bpns)
			w->t_v = clk_of(w, now);
		w->t_link = w->t_v;
	} else if (w->bpns) {
		gps_to(w, clk_of(w, now));
	}
	if (__builtin_expect(wq->in_gps && vt_lt(w->V, wq->gF), 1)) {
		/* Backlogged in GPS: the common case, O(1). */
		S = wq->gF;
		F = S + vt_inc(len + w->ovh, wq->inv_w);
	} else {
		S = w->V;
		F = S + vt_inc(len + w->ovh, wq->inv_w);
		if (!wq->in_gps) {
			wq->in_gps = 1;
			w->sum_w += wq->w;
			w->inv_sum = inv_of(w->sum_w);
			rheap_push(&w->gps, F, q);
		}
		if (!was_empty && w->mark_free < w->mark_cap) {
			/* Restarts in GPS behind older packets: keep its S. */
			uint32_t m = w->mark_free;

			w->mark_free = (uint32_t)w->mark[m];
			w->mark[m] = S;
			s->node[s->q[q].tail].len |= (m + 1) << SCHED_MARK_SHIFT;
		}
	}
	wq->gF = F;
	if (!was_empty)
		return 0;
	w->nact++;
	wq->F = F;
	head_place(w, q, S, F);
	return 0;
}

static int
wf2qp_arrive(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];

	/*
	 * The common case: a packet joins a queue that has packets and is
	 * backlogged in GPS, no link rate: its GPS tags follow the previous
	 * arrival's, O(1). (busy is set while a queue has packets.)
	 */
	if (__builtin_expect(!was_empty && !w->bpns && wq->in_gps &&
	    vt_lt(w->V, wq->gF), 1)) {
		wq->gF += vt_inc(len + w->ovh, wq->inv_w);
		return 0;
	}
	return wf2qp_arrive_slow(s, q, len, was_empty, now);
}

/* The new tags of served queue q (still backlogged) from its new head. */
static inline void
head_tags(struct sched *s, struct wf2qp *w, uint32_t q, uint64_t *Sp,
		uint64_t *Fp)
{
	struct wq *wq = &w->q[q];
	struct sched_node *hd = &s->node[s->q[q].head];
	uint32_t m = hd->len >> SCHED_MARK_SHIFT;
	uint32_t L = hd->len & SCHED_LEN_MASK;
	uint64_t S = wq->F;

	if (__builtin_expect(m != 0, 0)) {
		hd->len = L;
		S = vt_max(S, w->mark[m - 1]);
		w->mark[m - 1] = w->mark_free;
		w->mark_free = m - 1;
	}
	*Sp = S;
	*Fp = wq->F = S + vt_inc(L + w->ovh, wq->inv_w);
}

/*
 * Choose the queue to serve (some queue has packets): the eligible head
 * with the smallest F. *from_run tells where it is. If nothing is eligible
 * (V behind the exact GPS time), WF2Q+'s V = min S first.
 */
static inline uint32_t
head_choose(struct wf2qp *w, int *from_run)
{
	for (;;) {
		struct runent *re = &w->run[w->rhead];

		while (w->ne.n && vt_le(w->ne.a[0].key, w->V)) {
			uint32_t id = w->ne.a[0].id;

			sheap_pop(&w->ne);
			sheap_push(&w->elig, w->q[id].F, id);
		}
		if (__builtin_expect(w->rn != 0, 1) && vt_le(re->S, w->V)) {
			if (w->elig.n == 0 || !vt_lt(w->elig.a[0].key, re->F)) {
				*from_run = 1;
				return re->id;
			}
			*from_run = 0;
			return w->elig.a[0].id;
		}
		if (w->elig.n) {
			*from_run = 0;
			return w->elig.a[0].id;
		}
		/* Nothing eligible: V = min S. */
		if (w->rn && (w->ne.n == 0 || vt_lt(re->S, w->ne.a[0].key)))
			w->V = re->S;
		else
			w->V = w->ne.a[0].key;
		gps_skip(w);
	}
}

static inline void
head_remove(struct wf2qp *w, int from_run)
{
	if (from_run) {
		w->rhead = (w->rhead + 1) & w->rmask;
		w->rn--;
	} else {
		sheap_pop(&w->elig);
	}
}

/* Served queue q (still backlogged) gets its new head's tags and goes back. */
static inline void
head_requeue(struct sched *s, struct wf2qp *w, uint32_t q, int from_run)
{
	uint64_t S, F;

	head_tags(s, w, q, &S, &F);
	if (!from_run && vt_le(S, w->V) &&
	    (w->rn == 0 || vt_lt(S, w->rlS) || vt_lt(F, w->rlF))) {
		/* Stays in elig. */
		sheap_replace_top(&w->elig, F);
		return;
	}
	head_remove(w, from_run);
	head_place(w, q, S, F);
}

static unsigned int
wf2qp_dequeue(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t max_bytes, uint64_t now)
{
	struct wf2qp *w = s->priv;
	uint64_t tnow, t, bytes = 0;
	unsigned int k;

	if (w->nact == 0) {
		gps_flush(w);
		w->busy = 0;
		w->t_v = w->t_link;
		return 0;
	}
	tnow = w->bpns ? clk_of(w, now) : w->t_link;
	/* The decision is taken when the link frees up. */
	t = vt_lt(w->t_link, tnow) ? tnow : w->t_link;
	gps_to(w, t);
	for (k = 0;;) {
		uint32_t q, left;
		int from_run;

		q = head_choose(w, &from_run);
		if (w->rn > PF_DIST) {
			/* The run is the likely order of the next services:
			 * prefetch their queue state and head packets. */
			uint32_t p = w->run[(w->rhead + PF_DIST) & w->rmask].id;

			__builtin_prefetch(&s->q[p], 1);
			__builtin_prefetch(&w->q[p], 1);
			p = w->run[(w->rhead + PF_DIST / 2) & w->rmask].id;
			__builtin_prefetch(&s->node[s->q[p].head], 1);
		}
		left = sched_pop(s, q, &out[k]);
		w->t_link = t + ((uint64_t)(out[k].len + w->ovh) << CLK_SHIFT);
		bytes += out[k].len;
		if (++k == n || bytes >= max_bytes) {
			/* The next decision's time is known at the next call. */
			if (left == 0) {
				head_remove(w, from_run);
				w->nact--;
			} else {
				head_requeue(s, w, q, from_run);
			}
			break;
		}
		if (left == 0) {
			head_remove(w, from_run);
			if (--w->nact == 0)
				break;
		}
		/*
		 * The next decision, within this call, is at t: advance the
		 * fluid system there now (it does not depend on the served
		 * queue's packet tags), so that the served queue goes
		 * straight back among the eligible ones when it is.
		 */
		t = vt_lt(w->t_link, tnow) ? tnow : w->t_link;
		gps_to(w, t);
		if (left)
			head_requeue(s, w, q, from_run);
	}
	return k;
}

static void
wf2qp_set_weight(struct sched *s, uint32_t q, uint32_t nw)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];

	if (wq->in_gps) {
		w->sum_w = w->sum_w - wq->w + nw;
		w->inv_sum = inv_of(w->sum_w);
		w->sum_dirty = 0;
	}
	wq->w = nw;
	wq->inv_w = inv_of(nw);
}

static int
wf2qp_set_rate(struct sched *s, uint64_t rate_bps, uint32_t overhead)
{
	struct wf2qp *w = s->priv;
	uint64_t bpns = (uint64_t)(((unsigned __int128)rate_bps << 32) /
		8000000000u);

	if (rate_bps && bpns == 0)
		return -EINVAL;
	w->bpns = bpns;
	w->ovh = overhead;
	return 0;
}

const struct sched_ops sched_wf2qp_ops = {
	.name = "wf2q+",
	.priv_size = wf2qp_priv_size,
	.init = wf2qp_init,
	.fini = wf2qp_fini,
	.arrive = wf2qp_arrive,
	.dequeue = wf2qp_dequeue,
	.set_weight = wf2qp_set_weight,
	.set_rate = wf2qp_set_rate,
};
