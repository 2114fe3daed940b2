/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * WF2Q+ (Bennett & Zhang, 1997) in the form of Dummynet's wf2q+ scheduler.
 *
 * Virtual time is a 64-bit fixed-point count of bytes per unit weight with
 * VT_SHIFT fractional bits; it wraps, and all comparisons are modular.
 * Each backlogged queue has a start tag S and a finish tag F = S + L/w for
 * its head packet of L bytes. Three heaps:
 *   elig  backlogged queues with S <= V, keyed by F (the one served is the top)
 *   ne    backlogged queues with S > V, keyed by S
 *   idle  empty queues whose weight is still in sum_w, keyed by F
 * Serving L bytes advances V by L / sum_w, where sum_w counts the backlogged
 * queues and the idle ones V has not yet passed (V >= F drops them). When no
 * queue is eligible, V = max(V, min S). A dequeue call that finds no
 * backlog ends the busy period (callers dequeue when the link is free, as
 * Dummynet does): idle queues then leave sum_w at once. Divisions are replaced by 128-bit
 * multiplications with 2^64/w, recomputed only when a weight or sum_w
 * changes.
 */
#include <errno.h>
#include <stdint.h>

#include "pktsched.h"
#include "sched_heap.h"
#include "sched_priv.h"

#define VT_SHIFT	40	/* fractional bits of virtual time */

enum { WQ_NEW = 0, WQ_ACTIVE, WQ_IDLE };

struct wq {
	uint64_t S, F;
	uint64_t inv_w;		/* floor((2^64 - 1) / w) */
	uint32_t w;
	uint32_t state;
};

struct wf2qp {
	struct sheap elig, ne, idle;
	uint64_t V;
	uint64_t sum_w;
	uint64_t inv_sum;
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

static size_t
wf2qp_priv_size(const struct sched_conf *c)
{
	return sizeof(struct wf2qp) + (size_t)c->nb_queues * sizeof(struct wq);
}

static int
wf2qp_init(struct sched *s)
{
	struct wf2qp *w = s->priv;
	uint32_t i, n = s->nb_queues;

	w->q = (struct wq *)(w + 1);
	for (i = 0; i < n; i++) {
		w->q[i].w = 1;
		w->q[i].inv_w = inv_of(1);
		w->q[i].state = WQ_NEW;
	}
	if (sheap_init(&w->elig, n, 0) || sheap_init(&w->ne, n, 0) ||
	    sheap_init(&w->idle, n, 1)) {
		sheap_fini(&w->elig);
		sheap_fini(&w->ne);
		sheap_fini(&w->idle);
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
	sheap_fini(&w->idle);
}

static inline void
sum_update(struct wf2qp *w)
{
	w->inv_sum = w->sum_w ? inv_of(w->sum_w) : 0;
}

static void
wf2qp_arrive(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];

	(void)now;
	if (!was_empty)
		return;
	if (wq->state == WQ_IDLE) {
		/* Weight still in sum_w: continue from the old finish tag. */
		sheap_remove(&w->idle, w->idle.pos[q]);
		wq->S = vt_max(wq->F, w->V);
	} else {
		wq->S = w->V;
		w->sum_w += wq->w;
		sum_update(w);
	}
	wq->state = WQ_ACTIVE;
	wq->F = wq->S + vt_inc(len, wq->inv_w);
	if (w->elig.n == 0 && w->ne.n == 0)
		w->V = vt_max(w->V, wq->S);
	if (vt_le(wq->S, w->V))
		sheap_push(&w->elig, wq->F, q);
	else
		sheap_push(&w->ne, wq->S, q);
}

/*
 * A dequeue that finds nothing backlogged means the link is idle: the fluid
 * system has finished too, so every idle queue leaves sum_w.
 */
static void
idle_flush(struct wf2qp *w)
{
	while (w->idle.n) {
		w->q[sheap_top(&w->idle)->id].state = WQ_NEW;
		sheap_pop(&w->idle);
	}
	w->sum_w = 0;
	w->inv_sum = 0;
}

/* Idle queues whose finish tag V has passed leave sum_w. */
static inline void
idle_drain(struct wf2qp *w)
{
	int changed = 0;

	while (w->idle.n && vt_le(sheap_top(&w->idle)->key, w->V)) {
		struct wq *wq = &w->q[sheap_top(&w->idle)->id];

		wq->state = WQ_NEW;
		w->sum_w -= wq->w;
		sheap_pop(&w->idle);
		changed = 1;
	}
	if (changed)
		sum_update(w);
}

static unsigned int
wf2qp_dequeue(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t now)
{
	struct wf2qp *w = s->priv;
	unsigned int k;

	(void)now;
	if (w->elig.n == 0 && w->ne.n == 0) {
		idle_flush(w);
		return 0;
	}
	for (k = 0; k < n; k++) {
		struct wq *wq;
		uint32_t q, left;

		if (w->elig.n == 0) {
			if (w->ne.n == 0)
				break;
			w->V = vt_max(w->V, sheap_top(&w->ne)->key);
		}
		while (w->ne.n && vt_le(sheap_top(&w->ne)->key, w->V)) {
			uint32_t id = sheap_top(&w->ne)->id;

			sheap_pop(&w->ne);
			sheap_push(&w->elig, w->q[id].F, id);
		}
		q = sheap_top(&w->elig)->id;
		wq = &w->q[q];
		left = sched_pop(s, q, &out[k]);
		w->V += vt_inc(out[k].len, w->inv_sum);
		wq->S = wq->F;
		if (left == 0) {
			sheap_pop(&w->elig);
			wq->state = WQ_IDLE;
			sheap_push(&w->idle, wq->F, q);
		} else {
			wq->F = wq->S + vt_inc(sched_head_len(s, q), wq->inv_w);
			if (vt_le(wq->S, w->V)) {
				sheap_replace_top(&w->elig, wq->F);
			} else {
				sheap_pop(&w->elig);
				sheap_push(&w->ne, wq->S, q);
			}
		}
		if (w->idle.n)
			idle_drain(w);
	}
	return k;
}

static void
wf2qp_set_weight(struct sched *s, uint32_t q, uint32_t nw)
{
	struct wf2qp *w = s->priv;
	struct wq *wq = &w->q[q];

	if (wq->state != WQ_NEW) {
		w->sum_w = w->sum_w - wq->w + nw;
		sum_update(w);
	}
	wq->w = nw;
	wq->inv_w = inv_of(nw);
}

const struct sched_ops sched_wf2qp_ops = {
	.name = "wf2q+",
	.priv_size = wf2qp_priv_size,
	.init = wf2qp_init,
	.fini = wf2qp_fini,
	.arrive = wf2qp_arrive,
	.dequeue = wf2qp_dequeue,
	.set_weight = wf2qp_set_weight,
};
