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
 *    its GPS tags S, F. elig holds those with S <= V keyed by F (the top
 *    is served), ne those with S > V keyed by S. A packet's S is the F of
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

struct wq {
	uint64_t F;		/* finish tag of the head packet */
	uint64_t gF;		/* GPS finish tag of the last arrival */
	uint64_t inv_w;		/* floor((2^64 - 1) / w) */
	uint32_t w;
	uint32_t in_gps;	/* in the gps heap (backlogged in GPS) */
};

/*
 * The GPS finish tags: a heap plus a ring of entries in nondecreasing key
 * order. A key that is not below the ring's last one is appended there
 * (O(1), sequential memory: raised keys mostly come in order); others go
 * to the heap. The minimum is the smaller of the two heads.
 */
struct gset {
	struct sheap h;
	struct sheap_ent *ring;
	uint32_t rhead, rn, cap;
};

struct wf2qp {
	struct sheap elig, ne;
	struct gset gps;
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

static inline uint32_t
gset_n(const struct gset *g)
{
	return g->h.n + g->rn;
}

/* The entry with the smallest key (set not empty). */
static inline struct sheap_ent *
gset_top(struct gset *g)
{
	struct sheap_ent *r = &g->ring[g->rhead];

	if (g->rn == 0 || (g->h.n && vt_lt(g->h.a[0].key, r->key)))
		return &g->h.a[0];
	return r;
}

static inline void
gset_push(struct gset *g, uint64_t key, uint32_t id)
{
	if (g->rn == 0 || vt_le(g->ring[(g->rhead + g->rn - 1) % g->cap].key, key)) {
		uint32_t i = g->rhead + g->rn;

		if (i >= g->cap)
			i -= g->cap;
		g->ring[i].key = key;
		g->ring[i].id = id;
		g->rn++;
	} else {
		sheap_push(&g->h, key, id);
	}
}

/* Remove the top (as returned by gset_top). */
static inline void
gset_pop(struct gset *g, const struct sheap_ent *top)
{
	if (top == &g->h.a[0]) {
		sheap_pop(&g->h);
	} else {
		if (++g->rhead == g->cap)
			g->rhead = 0;
		g->rn--;
	}
}

static size_t
wf2qp_priv_size(const struct sched_conf *c)
{
	uint32_t marks = c->pool_pkts < MARK_MAX ? c->pool_pkts : MARK_MAX;

	return sizeof(struct wf2qp) + (size_t)c->nb_queues * sizeof(struct wq) +
		(size_t)marks * sizeof(uint64_t);
}

static int
wf2qp_init(struct sched *s)
{
	struct wf2qp *w = s->priv;
	uint32_t i, n = s->nb_queues;

	w->q = (struct wq *)(w + 1);
	w->mark = (uint64_t *)(w->q + n);
	w->gps.cap = n;
	w->gps.ring = malloc(sizeof(*w->gps.ring) * n);
	w->mark_cap = s->pool_pkts < MARK_MAX ? s->pool_pkts : MARK_MAX;
	for (i = 0; i < w->mark_cap; i++)
		w->mark[i] = i + 1;
	w->mark_free = 0;
	for (i = 0; i < n; i++) {
		w->q[i].w = 1;
		w->q[i].inv_w = inv_of(1);
	}
	if (sheap_init(&w->elig, n, 0) || sheap_init(&w->ne, n, 0) ||
	    sheap_init(&w->gps.h, n, 0) || w->gps.ring == NULL) {
		sheap_fini(&w->elig);
		sheap_fini(&w->ne);
		sheap_fini(&w->gps.h);
		free(w->gps.ring);
		return -ENOMEM;
	}
	return 0;
}

static void
wf2qp_fini(struct sched *s)
{
	struct wf2qp *w = s->priv;

	sheap_fini(&w->elig);
	sheap_fini(&w->ne);
	sheap_fini(&w->gps.h);
	free(w->gps.ring);
}

/* The top of gps has a key <= V: its queue leaves GPS, or (stale key)
 * goes back with its real finish tag. */
static inline void
gps_top_reached(struct wf2qp *w, struct sheap_ent *top)
{
	uint32_t id = top->id;
	struct wq *wq = &w->q[id];

	gset_pop(&w->gps, top);
	if (vt_lt(w->V, wq->gF)) {
		gset_push(&w->gps, wq->gF, id);
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
 * first, so the result does not depend on them.
 */
static void
gps_run(struct wf2qp *w, uint64_t work)
{
	while (gset_n(&w->gps)) {
		struct sheap_ent *top;
		uint64_t dv, key, end;

		sum_fresh(w);
		dv = (uint64_t)(((unsigned __int128)work * w->inv_sum) >>
			(64 + CLK_SHIFT - VT_SHIFT));
		end = w->V + dv;
		top = gset_top(&w->gps);
		while (vt_le(top->key, end) && w->q[top->id].gF != top->key) {
			uint32_t id = top->id;

			gset_pop(&w->gps, top);
			gset_push(&w->gps, w->q[id].gF, id);
			top = gset_top(&w->gps);
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
}

/* V jumped (no eligible packet): queues whose tags it passed leave GPS. */
static void
gps_skip(struct wf2qp *w)
{
	while (gset_n(&w->gps) && vt_le(gset_top(&w->gps)->key, w->V))
		gps_top_reached(w, gset_top(&w->gps));
	sum_fresh(w);
}

/* The link went idle: so has the fluid system. */
static void
gps_flush(struct wf2qp *w)
{
	uint32_t i;

	for (i = 0; i < w->gps.h.n; i++)
		w->q[w->gps.h.a[i].id].in_gps = 0;
	for (i = 0; i < w->gps.rn; i++)
		w->q[w->gps.ring[(w->gps.rhead + i) % w->gps.cap].id].in_gps = 0;
	w->gps.h.n = 0;
	w->gps.rn = 0;
	w->gps.rhead = 0;
	w->sum_w = 0;
	w->inv_sum = 0;
	w->sum_dirty = 0;
}

static inline void
gps_to(struct wf2qp *w, uint64_t t)
{
	if (vt_lt(w->t_v, t)) {
		gps_run(w, t - w->t_v);
		w->t_v = t;
	}
}

static void
wf2qp_arrive(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];
	uint64_t S, F;

	if (!w->busy) {
		/* First packet of a busy period: the link starts now. */
		w->busy = 1;
		if (w->bpns)
			w->t_v = clk_of(w, now);
		w->t_link = w->t_v;
	} else if (w->bpns) {
		gps_to(w, clk_of(w, now));
	}
	if (wq->in_gps && vt_lt(w->V, wq->gF)) {
		S = wq->gF;
		F = S + vt_inc(len + w->ovh, wq->inv_w);
	} else {
		S = w->V;
		F = S + vt_inc(len + w->ovh, wq->inv_w);
		if (!wq->in_gps) {
			wq->in_gps = 1;
			w->sum_w += wq->w;
			w->sum_dirty = 1;
			gset_push(&w->gps, F, q);
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
	sum_fresh(w);
	if (!was_empty)
		return;
	wq->F = F;
	if (vt_le(S, w->V))
		sheap_push(&w->elig, F, q);
	else
		sheap_push(&w->ne, S, q);
}

static unsigned int
wf2qp_dequeue(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	uint64_t tnow;
	unsigned int k;

	if (w->elig.n == 0 && w->ne.n == 0) {
		gps_flush(w);
		w->busy = 0;
		w->t_v = w->t_link;
		return 0;
	}
	tnow = w->bpns ? clk_of(w, now) : w->t_link;
	for (k = 0; k < n; k++) {
		struct sched_node *hd;
		struct wq *wq;
		uint32_t q, left, m, L;
		uint64_t t, S;

		if (w->elig.n == 0 && w->ne.n == 0)
			break;
		/* The decision is taken when the link frees up. */
		t = vt_lt(w->t_link, tnow) ? tnow : w->t_link;
		gps_to(w, t);
		if (w->elig.n == 0 && vt_lt(w->V, sheap_top(&w->ne)->key)) {
			/* V is behind the exact GPS time: WF2Q+'s jump. */
			w->V = sheap_top(&w->ne)->key;
			gps_skip(w);
		}
		while (w->ne.n && vt_le(sheap_top(&w->ne)->key, w->V)) {
			uint32_t id = sheap_top(&w->ne)->id;

			sheap_pop(&w->ne);
			sheap_push(&w->elig, w->q[id].F, id);
		}
		q = sheap_top(&w->elig)->id;
		wq = &w->q[q];
		left = sched_pop(s, q, &out[k]);
		w->t_link = t + ((uint64_t)(out[k].len + w->ovh) << CLK_SHIFT);
		if (left == 0) {
			sheap_pop(&w->elig);
			continue;
		}
		hd = &s->node[s->q[q].head];
		m = hd->len >> SCHED_MARK_SHIFT;
		L = hd->len & SCHED_LEN_MASK;
		S = wq->F;
		if (m) {
			hd->len = L;
			S = vt_max(S, w->mark[m - 1]);
			w->mark[m - 1] = w->mark_free;
			w->mark_free = m - 1;
		}
		wq->F = S + vt_inc(L + w->ovh, wq->inv_w);
		if (vt_le(S, w->V)) {
			sheap_replace_top(&w->elig, wq->F);
		} else {
			sheap_pop(&w->elig);
			sheap_push(&w->ne, S, q);
		}
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
