/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Virtual-clock network for the dfcp tests: two endpoints joined by a
 * link with a rate, one-way delay, random loss, duplication and reordering
 * (jitter), plus a per-packet filter for scripted drops.
 */
#ifndef DFCP_TEST_VNET_H
#define DFCP_TEST_VNET_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "test_harness.h"

#define VN_FRAME	2048
#define VN_BURST	32

struct vn_pkt {
	uint64_t t;
	uint64_t seq;
	int to;			/* 0: to side a, 1: to side b */
	uint16_t len;
	uint8_t data[VN_FRAME];
};

struct vn_dir {
	uint32_t loss_ppm, dup_ppm;
	uint64_t delay_ns, jitter_ns, pkt_ns;
	uint64_t free_at;
	uint64_t sent, lost, dups, delivered;
};

/* return nonzero to drop this frame (dir 0: a->b, 1: b->a) */
typedef int (*vn_filter_fn)(void *ctx, int dir, const uint8_t *f, uint16_t len);

struct vnet {
	struct dfcp_ep *ep[2];
	struct vn_dir dir[2];	/* dir[0]: a -> b */
	struct vn_pkt **heap;
	uint32_t n, cap;
	uint64_t now, seq;
	struct test_rng rng;
	vn_filter_fn filter;
	void *filter_ctx;
	uint8_t *bufs[VN_BURST];
	uint64_t flush_bad;	/* held frames the flushes refused */
};

static inline uint32_t
vn_rand(struct vnet *v)
{
	return (uint32_t)(test_rng_next(&v->rng) >> 32);
}

static inline void
vn_init(struct vnet *v, struct dfcp_ep *a, struct dfcp_ep *b, uint64_t seed)
{
	memset(v, 0, sizeof(*v));
	v->ep[0] = a;
	v->ep[1] = b;
	test_rng_seed(&v->rng, seed * 2654435761u + 88172645463325252ull);
	v->cap = 1 << 16;
	v->heap = calloc(v->cap, sizeof(*v->heap));
	for (int i = 0; i < VN_BURST; i++)
		v->bufs[i] = malloc(VN_FRAME);
	for (int d = 0; d < 2; d++) {
		v->dir[d].delay_ns = 100000;	/* 100 us */
		v->dir[d].pkt_ns = 1000;	/* ~11 Gbit/s at 1.4 KB */
	}
}

static inline void
vn_fini(struct vnet *v)
{
	for (uint32_t i = 0; i < v->n; i++)
		free(v->heap[i]);
	free(v->heap);
	for (int i = 0; i < VN_BURST; i++)
		free(v->bufs[i]);
}

static inline int
vn_less(const struct vn_pkt *a, const struct vn_pkt *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void
vn_push(struct vnet *v, struct vn_pkt *p)
{
	uint32_t i = v->n++;

	if (v->n > v->cap) {
		v->cap *= 2;
		v->heap = realloc(v->heap, v->cap * sizeof(*v->heap));
	}
	while (i > 0) {
		uint32_t up = (i - 1) / 2;

		if (!vn_less(p, v->heap[up]))
			break;
		v->heap[i] = v->heap[up];
		i = up;
	}
	v->heap[i] = p;
}

static inline struct vn_pkt *
vn_pop(struct vnet *v)
{
	struct vn_pkt *top = v->heap[0], *last = v->heap[--v->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		const struct vn_pkt *mp = last;

		if (l < v->n && vn_less(v->heap[l], mp)) {
			m = l;
			mp = v->heap[l];
		}
		if (r < v->n && vn_less(v->heap[r], mp))
			m = r;
		if (m == i)
			break;
		v->heap[i] = v->heap[m];
		i = m;
	}
	if (v->n)
		v->heap[i] = last;
	return top;
}

static inline void
vn_send(struct vnet *v, int d, const uint8_t *f, uint16_t len)
{
	struct vn_dir *dir = &v->dir[d];
	int copies = 1;

	dir->sent++;
	if (v->filter != NULL && v->filter(v->filter_ctx, d, f, len)) {
		dir->lost++;
		return;
	}
	if (dir->loss_ppm && vn_rand(v) % 1000000u < dir->loss_ppm) {
		dir->lost++;
		return;
	}
	if (dir->dup_ppm && vn_rand(v) % 1000000u < dir->dup_ppm) {
		copies = 2;
		dir->dups++;
	}
	for (int c = 0; c < copies; c++) {
		struct vn_pkt *p = malloc(sizeof(*p));

		p->t = v->now + dir->delay_ns +
			(dir->jitter_ns ? vn_rand(v) % dir->jitter_ns : 0);
		p->seq = v->seq++;
		p->to = !d;
		p->len = len;
		memcpy(p->data, f, len);
		vn_push(v, p);
	}
}

/* Run until 'until' (ns) or until done(ctx) returns nonzero. */
static inline void
vn_run(struct vnet *v, uint64_t until, int (*done)(void *), void *ctx)
{
	while (v->now < until) {
		uint64_t next = until;

		/* the frames due, in bursts: an endpoint that holds sealed DATA
		 * (rx_defer) has it until the flush, before the frames go */
		while (v->n && v->heap[0]->t <= v->now) {
			struct vn_pkt *due[VN_BURST];
			unsigned int k = 0;

			while (k < VN_BURST && v->n && v->heap[0]->t <= v->now) {
				struct vn_pkt *p = vn_pop(v);

				v->dir[!p->to].delivered++;
				dfcp_ep_rx(v->ep[p->to], p->data, p->len, v->now);
				due[k++] = p;
			}
			for (int d = 0; d < 2; d++)
				if (v->ep[d] != NULL)
					v->flush_bad += dfcp_ep_rx_flush(v->ep[d], v->now);
			while (k > 0)
				free(due[--k]);
		}
		for (int d = 0; d < 2; d++) {
			struct vn_dir *dir = &v->dir[d];
			uint16_t lens[VN_BURST];
			unsigned int k;

			if (dir->free_at > v->now)
				continue;
			k = dfcp_ep_tx_burst(v->ep[d], v->now, (void *const *)v->bufs, lens,
					VN_FRAME, VN_BURST);
			for (unsigned int i = 0; i < k; i++)
				vn_send(v, d, v->bufs[i], lens[i]);
			if (k)
				dir->free_at = v->now + k * dir->pkt_ns;
		}
		if (done != NULL && done(ctx))
			return;
		if (v->n && v->heap[0]->t < next)
			next = v->heap[0]->t;
		for (int d = 0; d < 2; d++) {
			uint64_t dl = dfcp_ep_next_deadline(v->ep[d], v->now);

			if (dl < v->dir[d].free_at)
				dl = v->dir[d].free_at;
			if (dl < next)
				next = dl;
		}
		if (next <= v->now)
			next = v->now + 1;
		v->now = next;
	}
}

#endif /* DFCP_TEST_VNET_H */
