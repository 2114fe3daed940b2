/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection slab: an endpoint's connection records with their window
 * arrays, made when the endpoint is created (dfcp_ep_conf.slab), so that
 * opening and closing a connection takes and returns a record and
 * allocates nothing on the polling thread. A listener's records carry the
 * receiver's arrays (block slots and their source bitmaps), another
 * endpoint's the sender's (block slots, repair ring, round ring), for
 * windows up to the endpoint's limits.max_window. A connection beyond the
 * records is refused (counted). Also the sender's arrays from a record or
 * the heap (dfcp_sender_alloc / _free). doc/architecture.md, "DFCP memory".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"

struct dfcp_slab {
	uint32_t n;			/* records */
	uint32_t W;			/* window each record's arrays hold */
	uint32_t have_words;		/* receiver: bitmap words per block slot */
	uint32_t R;			/* sender: round ring entries */
	int rx;				/* receiver arrays (else sender) */
	size_t rec;			/* bytes of a record, aligned */
	size_t area;			/* bytes of a record's arrays */
	uint8_t *recs;			/* n x rec */
	uint8_t *mem;			/* n x area */
	uint32_t *free_stk, n_free;
	uint64_t bytes;
	uint64_t refused;
};

static size_t
align64(size_t n)
{
	return (n + 63) / 64 * 64;
}

/* Round ring entries of a sender of window W: a power of 2 >= 2 W, 64 at least. */
uint32_t
dfcp_slab_rounds(uint32_t W)
{
	uint32_t R = 64;

	while (R < 2 * W)
		R *= 2;
	return R;
}

static size_t
area_bytes(int rx, uint32_t W, uint32_t have_words)
{
	if (rx)
		return align64((size_t)W * sizeof(struct rx_slot)) +
			align64((size_t)W * have_words * sizeof(uint64_t));
	return align64((size_t)W * sizeof(struct tx_slot)) +
		align64((size_t)dfcp_slab_rounds(W) * sizeof(struct rnd_ent)) +
		align64((size_t)W * sizeof(uint32_t));
}

uint64_t
dfcp_ep_slab_bytes(uint32_t max_conns, int listen, uint32_t window, uint16_t K)
{
	uint32_t hw = listen ? (K + 63u) / 64u : 0;

	return (uint64_t)max_conns * (align64(sizeof(struct dfcp_conn)) +
			area_bytes(listen, window, hw) + sizeof(uint32_t)) +
		sizeof(struct dfcp_slab);
}

struct dfcp_slab *
dfcp_slab_create(uint32_t n, int rx, uint32_t W, uint16_t K)
{
	struct dfcp_slab *s;

	if (n == 0 || W == 0 || W > DFCP_MAX_WINDOW)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->n = n;
	s->W = W;
	s->rx = rx;
	s->have_words = rx ? (K + 63u) / 64u : 0;
	s->R = rx ? 0 : dfcp_slab_rounds(W);
	s->rec = align64(sizeof(struct dfcp_conn));
	s->area = area_bytes(rx, W, s->have_words);
	s->recs = aligned_alloc(64, (size_t)n * s->rec);
	s->mem = aligned_alloc(64, (size_t)n * s->area);
	s->free_stk = calloc(n, sizeof(*s->free_stk));
	if (s->recs == NULL || s->mem == NULL || s->free_stk == NULL) {
		dfcp_slab_free(s);
		return NULL;
	}
	/* touched now, not when the first connection opens */
	memset(s->recs, 0, (size_t)n * s->rec);
	memset(s->mem, 0, (size_t)n * s->area);
	for (uint32_t i = 0; i < n; i++)
		s->free_stk[s->n_free++] = n - 1 - i;
	s->bytes = dfcp_ep_slab_bytes(n, rx, W, K);
	return s;
}

void
dfcp_slab_free(struct dfcp_slab *s)
{
	if (s == NULL)
		return;
	free(s->recs);
	free(s->mem);
	free(s->free_stk);
	free(s);
}

struct dfcp_conn *
dfcp_slab_get(struct dfcp_slab *s)
{
	struct dfcp_conn *c;
	uint32_t i;

	if (s->n_free == 0) {
		s->refused++;
		return NULL;
	}
	i = s->free_stk[--s->n_free];
	c = (struct dfcp_conn *)(s->recs + (size_t)i * s->rec);
	memset(c, 0, sizeof(*c));
	c->slab = s;
	c->slab_idx = i;
	return c;
}

void
dfcp_slab_put(struct dfcp_slab *s, struct dfcp_conn *c)
{
	s->free_stk[s->n_free++] = c->slab_idx;
}

uint32_t
dfcp_slab_window(const struct dfcp_slab *s)
{
	return s->W;
}

int
dfcp_slab_is_rx(const struct dfcp_slab *s)
{
	return s->rx;
}

void
dfcp_slab_stats(const struct dfcp_slab *s, uint64_t *bytes, uint64_t *free_recs,
		uint64_t *refused)
{
	*bytes = s->bytes;
	*free_recs = s->n_free;
	*refused = s->refused;
}

/* The receiver's arrays of c (window W, bitmaps of hw words a slot), zeroed. */
int
dfcp_slab_rx_arrays(struct dfcp_conn *c, uint32_t W, uint32_t hw)
{
	const struct dfcp_slab *s = c->slab;
	uint8_t *a = s->mem + (size_t)c->slab_idx * s->area;

	if (!s->rx || W > s->W || hw > s->have_words)
		return -ENOMEM;
	c->rx = (struct rx_slot *)a;
	memset(c->rx, 0, (size_t)W * sizeof(*c->rx));
	c->have_mem = (uint64_t *)(a + align64((size_t)s->W * sizeof(struct rx_slot)));
	memset(c->have_mem, 0, (size_t)W * hw * sizeof(uint64_t));
	return 0;
}

/* The sender's arrays of c (window W, a round ring of R entries), zeroed. */
int
dfcp_slab_tx_arrays(struct dfcp_conn *c, uint32_t W, uint32_t R)
{
	const struct dfcp_slab *s = c->slab;
	uint8_t *a = s->mem + (size_t)c->slab_idx * s->area;
	size_t off = align64((size_t)s->W * sizeof(struct tx_slot));

	if (s->rx || W > s->W || R > s->R)
		return -ENOMEM;
	c->tx = (struct tx_slot *)a;
	memset(c->tx, 0, (size_t)W * sizeof(*c->tx));
	c->rnd = (struct rnd_ent *)(a + off);
	memset(c->rnd, 0, (size_t)R * sizeof(*c->rnd));
	off += align64((size_t)s->R * sizeof(struct rnd_ent));
	c->repair_ring = (uint32_t *)(a + off);
	memset(c->repair_ring, 0, (size_t)W * sizeof(uint32_t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* sender buffers (a slab's or the heap's)                             */
/* ------------------------------------------------------------------ */

void
dfcp_sender_free(struct dfcp_conn *c)
{
	for (uint32_t i = 0; c->tx != NULL && c->pool != NULL && i < c->W; i++) {
		if (c->tx[i].enc != NULL)
			dfcp_pool_put_enc(c->pool, c->tx[i].enc, c->tx[i].g_enc);
		if (c->tx[i].enc != NULL && c->tx[i].g_enc)
			c->g_tx_held--;
		c->tx[i].enc = NULL;
		c->tx[i].g_enc = 0;
	}
	if (c->slab == NULL) {
		free(c->tx);
		free(c->repair_ring);
		free(c->rnd);
	}
	rq_enc_free(c->enc0);
	c->rnd = NULL;
	c->tx = NULL;
	c->enc0 = NULL;
	c->stage = NULL;
	c->repair_ring = NULL;
}

int
dfcp_sender_alloc(struct dfcp_conn *c)
{
	/* rounds in flight: at most one per block, plus those being reported */
	uint32_t W = c->W, R = dfcp_slab_rounds(W);

	dfcp_budget_init();
	c->alloc_W = W;
	c->rnd_mask = R - 1;
	c->lm.phi_q16 = 65536u;		/* independent loss until reports say otherwise */
	if (c->slab != NULL) {
		/* the endpoint's record holds them (made at its create) */
		if (dfcp_slab_tx_arrays(c, W, R) < 0)
			return -ENOMEM;
	} else {
		c->rnd = calloc(R, sizeof(*c->rnd));
		c->tx = calloc(W, sizeof(*c->tx));
		c->repair_ring = calloc(W, sizeof(*c->repair_ring));
	}
	c->stage = c->pool != NULL ? dfcp_pool_stage(c->pool) : NULL;
	if (c->tx == NULL || c->repair_ring == NULL || c->stage == NULL || c->rnd == NULL)
		return -ENOMEM;
	/* encoders come from the pool (reserved for the window at connect) */
	if (!c->conf.encode) {
		c->enc0 = rq_enc_create(c->conf.K, c->conf.T);
		if (c->enc0 == NULL)
			return -ENOMEM;
	}
	return 0;
}
