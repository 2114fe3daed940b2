/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Virtual-clock network for the tcp tests: endpoint A and endpoint B joined
 * by two lib/pipe links (A->B, B->A: rate, delay, DropTail queue, random
 * loss), an optional reordering stage after each pipe (a fraction of the
 * frames is held back for extra time) and a per-frame filter for scripted
 * drops.
 */
#ifndef TCP_TEST_TNET_H
#define TCP_TEST_TNET_H

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipe.h"
#include "tcp.h"
#include "test_harness.h"

#define TN_FRAME	2048
#define TN_BURST	32

struct tn_pkt {
	uint64_t t;
	uint64_t seq;
	int to;			/* 0: to A, 1: to B */
	uint16_t len;
	uint8_t data[TN_FRAME];
};

/* return nonzero to drop (dir 0: A->B, 1: B->A) */
typedef int (*tn_filter_fn)(void *ctx, int dir, const uint8_t *f, uint16_t len,
		uint64_t now);

struct tn_link {
	uint64_t bw_bps, delay_ns;
	double plr;
	uint32_t queue_pkts;
	uint32_t reorder_ppm;	/* frames delayed by an extra reorder_ns */
	uint64_t reorder_ns;
};

struct tnet {
	struct tcp_ep *ep[2];
	struct pipe *p[2];	/* p[0]: A -> B */
	struct tn_link l[2];
	struct tn_pkt **heap;
	uint32_t n, cap;
	uint64_t now, seq;
	struct test_rng rng;
	tn_filter_fn filter;
	void *filter_ctx;
	uint64_t sent[2], filtered[2], pipe_lost[2], pipe_dropped[2], reordered[2];
	uint8_t *bufs[TN_BURST];
};

/*
 * A segment from `from` to `to` (addresses, ports, sequence numbers, flags,
 * a 65535-byte window, no options or payload): the scripted peers' frames.
 */
static inline void
tn_seg_init(struct tcp_seg *s, const struct tcp_addr *from, const struct tcp_addr *to,
		uint32_t seq, uint32_t ack, uint8_t flags)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, from->mac, 6);
	memcpy(s->dst_mac, to->mac, 6);
	s->src_ip = from->ip;
	s->dst_ip = to->ip;
	s->src_port = from->port;
	s->dst_port = to->port;
	s->seq = seq;
	s->ack = ack;
	s->flags = flags;
	s->wnd = 65535;
}

static inline void
tn_link_default(struct tn_link *l)
{
	memset(l, 0, sizeof(*l));
	l->bw_bps = 10000000;
	l->delay_ns = 10000000;
	l->queue_pkts = 50;
}

static inline void
tn_init(struct tnet *v, struct tcp_ep *a, struct tcp_ep *b,
		const struct tn_link *ab, const struct tn_link *ba, uint64_t seed)
{
	memset(v, 0, sizeof(*v));
	v->ep[0] = a;
	v->ep[1] = b;
	v->l[0] = *ab;
	v->l[1] = *ba;
	test_rng_seed(&v->rng, seed);
	for (int d = 0; d < 2; d++) {
		struct pipe_conf pc;

		memset(&pc, 0, sizeof(pc));
		pc.name = d ? "ba" : "ab";
		pc.bw_bps = v->l[d].bw_bps;
		pc.delay_ns = v->l[d].delay_ns;
		pc.plr = v->l[d].plr;
		pc.seed = seed * 7 + (uint64_t)d + 1;
		pc.queue_pkts = v->l[d].queue_pkts;
		pc.sched = "fifo";
		v->p[d] = pipe_create(&pc);
		REQUIRE(v->p[d] != NULL);
	}
	v->cap = 1 << 12;
	v->heap = calloc(v->cap, sizeof(*v->heap));
	REQUIRE(v->heap != NULL);
	for (int i = 0; i < TN_BURST; i++) {
		v->bufs[i] = malloc(TN_FRAME);
		REQUIRE(v->bufs[i] != NULL);
	}
}

static inline void
tn_fini(struct tnet *v)
{
	struct pipe_pkt out[64];
	unsigned int k;

	for (int d = 0; d < 2; d++) {
		while ((k = pipe_flush(v->p[d], out, 64)) > 0)
			for (unsigned int i = 0; i < k; i++)
				free((void *)(uintptr_t)out[i].pkt);
		pipe_free(v->p[d]);
	}
	for (uint32_t i = 0; i < v->n; i++)
		free(v->heap[i]);
	free(v->heap);
	for (int i = 0; i < TN_BURST; i++)
		free(v->bufs[i]);
}

static inline int
tn_less(const struct tn_pkt *a, const struct tn_pkt *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static inline void
tn_push(struct tnet *v, struct tn_pkt *p)
{
	uint32_t i = v->n++;

	if (v->n > v->cap) {
		v->cap *= 2;
		v->heap = realloc(v->heap, v->cap * sizeof(*v->heap));
		REQUIRE(v->heap != NULL);
	}
	while (i > 0) {
		uint32_t up = (i - 1) / 2;

		if (!tn_less(p, v->heap[up]))
			break;
		v->heap[i] = v->heap[up];
		i = up;
	}
	v->heap[i] = p;
}

static inline struct tn_pkt *
tn_pop(struct tnet *v)
{
	struct tn_pkt *top = v->heap[0], *last = v->heap[--v->n];
	uint32_t i = 0;

	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;
		const struct tn_pkt *mp = last;

		if (l < v->n && tn_less(v->heap[l], mp)) {
			m = l;
			mp = v->heap[l];
		}
		if (r < v->n && tn_less(v->heap[r], mp))
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
tn_send(struct tnet *v, int d, const uint8_t *f, uint16_t len)
{
	struct tn_pkt *p;
	int r;

	v->sent[d]++;
	if (v->filter != NULL && v->filter(v->filter_ctx, d, f, len, v->now)) {
		v->filtered[d]++;
		return;
	}
	p = malloc(sizeof(*p));
	REQUIRE(p != NULL);
	p->to = !d;
	p->len = len;
	memcpy(p->data, f, len);
	r = pipe_enqueue(v->p[d], (uint64_t)(uintptr_t)p, len, NULL, v->now);
	if (r < 0) {
		if (r == -EIO)
			v->pipe_lost[d]++;
		else
			v->pipe_dropped[d]++;
		free(p);
	}
}

static inline void
tn_drain_pipes(struct tnet *v)
{
	struct pipe_pkt out[64];
	unsigned int k;

	for (int d = 0; d < 2; d++) {
		while ((k = pipe_dequeue_burst(v->p[d], v->now, out, 64)) > 0) {
			for (unsigned int i = 0; i < k; i++) {
				struct tn_pkt *p = (struct tn_pkt *)(uintptr_t)out[i].pkt;

				p->t = out[i].t_depart;
				if (v->l[d].reorder_ppm &&
						test_rng_below(&v->rng, 1000000u) < v->l[d].reorder_ppm) {
					p->t += v->l[d].reorder_ns;
					v->reordered[d]++;
				}
				p->seq = v->seq++;
				tn_push(v, p);
			}
		}
	}
}

/* Run until 'until' or until done(ctx) is nonzero; returns 1 if done. */
static inline int
tn_run(struct tnet *v, uint64_t until, int (*done)(void *), void *ctx)
{
	uint32_t spins = 0;

	while (v->now < until) {
		uint64_t next = until;

		tn_drain_pipes(v);
		while (v->n && v->heap[0]->t <= v->now) {
			struct tn_pkt *p = tn_pop(v);

			tcp_ep_rx(v->ep[p->to], p->data, p->len, v->now);
			free(p);
		}
		for (int d = 0; d < 2; d++) {
			uint16_t lens[TN_BURST];
			unsigned int k;

			do {
				k = tcp_ep_tx_burst(v->ep[d], v->now, (void *const *)v->bufs, lens,
						TN_FRAME, TN_BURST);
				for (unsigned int i = 0; i < k; i++)
					tn_send(v, d, v->bufs[i], lens[i]);
			} while (k == TN_BURST);
		}
		if (done != NULL && done(ctx))
			return 1;
		tn_drain_pipes(v);
		if (v->n && v->heap[0]->t < next)
			next = v->heap[0]->t;
		for (int d = 0; d < 2; d++) {
			uint64_t dl = tcp_ep_next_deadline(v->ep[d], v->now);
			uint64_t pe = pipe_next_event(v->p[d]);

			if (dl < next)
				next = dl;
			if (pe < next)
				next = pe;
		}
		if (next <= v->now) {
			next = v->now + 1;
			if (++spins > 200000)
				fprintf(stderr, "tnet: endpoints spin at t=%llu ns\n",
					(unsigned long long)v->now);
			REQUIRE(spins <= 200000);
		} else {
			spins = 0;
		}
		v->now = next;
	}
	return done != NULL && done(ctx);
}

#endif /* TCP_TEST_TNET_H */
