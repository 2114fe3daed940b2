/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP item pool: block buffers, decoders and encoders of one block shape,
 * made at set-up (or, for a connection's private pool, on first need up to
 * its window), reserved per connection and drawn while polling without any
 * allocation. Each stack is LIFO, so in-order traffic cycles through a few
 * cache-hot items. Not thread-safe: the connections of one thread share it.
 *
 * Strict pools reserve a connection's whole window. Shared pools (conf.shared)
 * reserve only a guarantee (a receiver: one buffer, for its in-order head
 * block; a sender: tx_min encoders); other draws succeed while more items
 * are free than the guarantees still owed to the connections (owed_*), and
 * otherwise fail: the connection back-pressures (the sender starts no new
 * block, the receiver drops the symbol, counted), and nothing is allocated.
 */
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"

struct dfcp_pool {
	struct dfcp_pool_conf conf;
	uint8_t **buf_free;
	struct rq_dec **dec_free;
	struct rq_enc **enc_free;
	/* every item made, for dfcp_pool_free */
	uint8_t **bufs;
	struct rq_dec **decs;
	struct rq_enc **encs;
	uint32_t n_buf, n_dec, n_enc;		/* made */
	uint32_t f_buf, f_dec, f_enc;		/* on the free stacks */
	uint32_t rx_reserved, tx_reserved;
	uint32_t owed_buf, owed_enc;		/* shared: guarantees not drawn yet */
	uint32_t peak_buf, peak_dec, peak_enc;	/* most in use at once */
	uint64_t rx_slot_bytes, tx_slot_bytes;
	uint64_t bytes;
	uint64_t used, peak;			/* bytes of the items drawn */
	uint64_t refused;
	uint64_t waits;				/* shared: draws refused (back-pressure) */
	uint8_t *stage;				/* senders fill a block here (one thread) */
};

/* Heap bytes in use (all arenas, mmapped chunks included). */
static uint64_t
heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

static size_t
buf_size(const struct dfcp_pool *p)
{
	return ((size_t)p->conf.K * p->conf.T + 63) / 64 * 64;
}

/*
 * A coder's size, should the heap not tell (a sanitizer's or another
 * allocator): its symbol storage and tables, on the large side. lib/rq
 * keeps up to K + max(K/4, 64) received symbols, the intermediate ones and
 * 32 x K x 64 bytes of product tables.
 */
static uint64_t
coder_estimate(const struct dfcp_pool *p, int dec)
{
	uint64_t K = p->conf.K, T = (p->conf.T + 63u) / 64u * 64u;
	uint64_t keep = dec ? K + (K / 4 > 64 ? K / 4 : 64) : 0;

	return (keep + K + 64) * T + 32 * K * 64;
}

static uint64_t
measured(uint64_t used, uint64_t estimate)
{
	return used * 4 < estimate ? estimate : used;
}

static int
make_buf(struct dfcp_pool *p)
{
	uint8_t *b;

	if (p->n_buf >= p->conf.rx_slots || (b = aligned_alloc(64, buf_size(p))) == NULL)
		return -ENOMEM;
	p->bufs[p->n_buf++] = b;
	p->buf_free[p->f_buf++] = b;
	p->bytes += buf_size(p);
	return 0;
}

static int
make_dec(struct dfcp_pool *p)
{
	/* the heap is measured for the first one only: mallinfo2 walks every
	 * chunk (4096 coders: most of the set-up's time) */
	uint64_t before = p->rx_slot_bytes == 0 ? heap_bytes() : 0;
	struct rq_dec *d;

	if (p->n_dec >= p->conf.dec_slots || (d = rq_dec_create(p->conf.K, p->conf.T, 0)) == NULL)
		return -ENOMEM;
	if (p->rx_slot_bytes == 0)
		p->rx_slot_bytes = measured(heap_bytes() - before, coder_estimate(p, 1)) +
				buf_size(p);
	p->bytes += p->rx_slot_bytes - buf_size(p);
	p->decs[p->n_dec++] = d;
	p->dec_free[p->f_dec++] = d;
	return 0;
}

static int
make_enc(struct dfcp_pool *p)
{
	uint64_t before = p->tx_slot_bytes == 0 ? heap_bytes() : 0;
	struct rq_enc *e;

	if (p->n_enc >= p->conf.tx_slots || (e = rq_enc_create(p->conf.K, p->conf.T)) == NULL)
		return -ENOMEM;
	if (p->tx_slot_bytes == 0)
		p->tx_slot_bytes = measured(heap_bytes() - before, coder_estimate(p, 0));
	p->bytes += p->tx_slot_bytes;
	p->encs[p->n_enc++] = e;
	p->enc_free[p->f_enc++] = e;
	return 0;
}

/* Preallocated pool with a byte budget: measure one slot of each kind, then fit. */
static int
pool_fill(struct dfcp_pool *p)
{
	uint64_t max = p->conf.max_bytes;
	int pairs = p->conf.dec_slots == p->conf.rx_slots;

	if (p->conf.tx_slots && make_enc(p) < 0)
		return -ENOMEM;
	if (p->conf.rx_slots && make_buf(p) < 0)
		return -ENOMEM;
	if (p->conf.dec_slots && make_dec(p) < 0)
		return -ENOMEM;
	if (p->rx_slot_bytes == 0)
		p->rx_slot_bytes = buf_size(p) + coder_estimate(p, 1);
	if (max != 0 && p->conf.tx_slots && (uint64_t)p->conf.tx_slots * p->tx_slot_bytes > max)
		p->conf.tx_slots = (uint32_t)(max / p->tx_slot_bytes);
	if (max != 0 && p->conf.rx_slots && pairs) {
		uint64_t left = max > (uint64_t)p->conf.tx_slots * p->tx_slot_bytes ?
			max - (uint64_t)p->conf.tx_slots * p->tx_slot_bytes : 0;

		if ((uint64_t)p->conf.rx_slots * p->rx_slot_bytes > left)
			p->conf.rx_slots = p->conf.dec_slots = (uint32_t)(left / p->rx_slot_bytes);
	}
	while (p->n_enc < p->conf.tx_slots)
		if (make_enc(p) < 0)
			return -ENOMEM;
	while (p->n_buf < p->conf.rx_slots)
		if (make_buf(p) < 0)
			return -ENOMEM;
	while (p->n_dec < p->conf.dec_slots)
		if (make_dec(p) < 0)
			return -ENOMEM;
	/* the measured first slot may no longer fit: give it back */
	while (p->f_enc > p->conf.tx_slots) {
		rq_enc_free(p->enc_free[--p->f_enc]);
		p->n_enc--;
		p->bytes -= p->tx_slot_bytes;
	}
	while (p->f_buf > p->conf.rx_slots) {
		free(p->buf_free[--p->f_buf]);
		p->n_buf--;
		p->bytes -= buf_size(p);
	}
	while (p->f_dec > p->conf.dec_slots) {
		rq_dec_free(p->dec_free[--p->f_dec]);
		p->n_dec--;
		p->bytes -= p->rx_slot_bytes - buf_size(p);
	}
	return 0;
}

struct dfcp_pool *
dfcp_pool_create(const struct dfcp_pool_conf *conf)
{
	uint32_t rx = conf->rx_slots, tx = conf->tx_slots;
	uint32_t nd = conf->dec_slots ? conf->dec_slots : rx;
	struct dfcp_pool *p;

	if (conf->K == 0 || conf->K > DFCP_MAX_K || conf->T < DFCP_MIN_T ||
			conf->T > DFCP_MAX_T || rx > (1u << 24) || tx > (1u << 24) ||
			nd > (1u << 24) || (conf->shared && conf->lazy))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (p == NULL)
		return NULL;
	p->conf = *conf;
	p->conf.dec_slots = nd;
	if (tx != 0 && !conf->lazy)
		p->stage = malloc((size_t)conf->K * conf->T);
	p->bufs = calloc(rx ? rx : 1, sizeof(*p->bufs));
	p->buf_free = calloc(rx ? rx : 1, sizeof(*p->buf_free));
	p->decs = calloc(nd ? nd : 1, sizeof(*p->decs));
	p->dec_free = calloc(nd ? nd : 1, sizeof(*p->dec_free));
	p->encs = calloc(tx ? tx : 1, sizeof(*p->encs));
	p->enc_free = calloc(tx ? tx : 1, sizeof(*p->enc_free));
	if (p->bufs == NULL || p->buf_free == NULL || p->decs == NULL || p->dec_free == NULL ||
			p->encs == NULL || p->enc_free == NULL ||
			(tx != 0 && !conf->lazy && p->stage == NULL) ||
			(!conf->lazy && pool_fill(p) < 0)) {
		dfcp_pool_free(p);
		return NULL;
	}
	return p;
}

void
dfcp_pool_free(struct dfcp_pool *p)
{
	if (p == NULL)
		return;
	for (uint32_t i = 0; p->bufs != NULL && i < p->n_buf; i++)
		free(p->bufs[i]);
	for (uint32_t i = 0; p->decs != NULL && i < p->n_dec; i++)
		rq_dec_free(p->decs[i]);
	for (uint32_t i = 0; p->encs != NULL && i < p->n_enc; i++)
		rq_enc_free(p->encs[i]);
	free(p->bufs);
	free(p->buf_free);
	free(p->decs);
	free(p->dec_free);
	free(p->encs);
	free(p->enc_free);
	free(p->stage);
	free(p);
}

void
dfcp_pool_stats(const struct dfcp_pool *p, struct dfcp_pool_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->K = p->conf.K;
	st->T = p->conf.T;
	st->rx_slots = p->conf.rx_slots;
	st->dec_slots = p->conf.dec_slots;
	st->tx_slots = p->conf.tx_slots;
	st->rx_reserved = p->rx_reserved;
	st->tx_reserved = p->tx_reserved;
	st->bufs_used = p->n_buf - p->f_buf;
	st->decs_used = p->n_dec - p->f_dec;
	st->encs_used = p->n_enc - p->f_enc;
	st->rx_slot_bytes = p->rx_slot_bytes;
	st->tx_slot_bytes = p->tx_slot_bytes;
	st->bytes = p->bytes;
	st->bytes_used = p->used;
	st->bytes_peak = p->peak;
	st->bufs_peak = p->peak_buf;
	st->decs_peak = p->peak_dec;
	st->encs_peak = p->peak_enc;
	st->refused = p->refused;
	st->waits = p->waits;
}

int
dfcp_pool_item_bytes(uint16_t K, uint16_t T, uint64_t *buf, uint64_t *dec, uint64_t *enc)
{
	static struct { uint16_t K, T; uint64_t buf, dec, enc; } last;
	struct dfcp_pool_conf pc = { .K = K, .T = T, .rx_slots = 1, .tx_slots = 1 };
	struct dfcp_pool_stats st;
	struct dfcp_pool *p;

	if (last.K != K || last.T != T) {
		p = dfcp_pool_create(&pc);
		if (p == NULL)
			return -ENOMEM;
		dfcp_pool_stats(p, &st);
		dfcp_pool_free(p);
		last.K = K;
		last.T = T;
		last.buf = (uint64_t)K * T;
		last.buf = (last.buf + 63) / 64 * 64;
		last.dec = st.rx_slot_bytes - last.buf;
		last.enc = st.tx_slot_bytes;
	}
	*buf = last.buf;
	*dec = last.dec;
	*enc = last.enc;
	return 0;
}

/* ------------------------------------------------------------------ */
/* connections' side (dfcp_priv.h)                                      */
/* ------------------------------------------------------------------ */

int
dfcp_pool_shape_ok(const struct dfcp_pool *p, uint16_t K, uint16_t T)
{
	return p->conf.K == K && p->conf.T == T;
}

uint32_t
dfcp_pool_rx_free(const struct dfcp_pool *p)
{
	return p->conf.rx_slots - p->rx_reserved;
}

uint32_t
dfcp_pool_tx_free(const struct dfcp_pool *p)
{
	return p->conf.tx_slots - p->tx_reserved;
}

uint64_t
dfcp_pool_rx_slot_bytes(const struct dfcp_pool *p)
{
	return p->rx_slot_bytes ? p->rx_slot_bytes : buf_size(p);
}

/* shared: what a connection reserving rx buffers and tx encoders is guaranteed */
static void
guarantee(const struct dfcp_pool *p, uint32_t *rx, uint32_t *tx)
{
	if (!p->conf.shared)
		return;
	*rx = *rx ? 1 : 0;
	if (*tx > p->conf.tx_min)
		*tx = p->conf.tx_min;
}

int
dfcp_pool_reserve(struct dfcp_pool *p, uint32_t *rx, uint32_t *tx)
{
	guarantee(p, rx, tx);
	if (*rx > dfcp_pool_rx_free(p) || *tx > dfcp_pool_tx_free(p)) {
		p->refused++;
		return -ENOSPC;
	}
	p->rx_reserved += *rx;
	p->tx_reserved += *tx;
	if (p->conf.shared) {
		p->owed_buf += *rx;
		p->owed_enc += *tx;
	}
	return 0;
}

void
dfcp_pool_unreserve(struct dfcp_pool *p, uint32_t rx, uint32_t tx, uint32_t rx_held,
		uint32_t tx_held)
{
	p->rx_reserved -= rx;
	p->tx_reserved -= tx;
	if (p->conf.shared) {
		p->owed_buf -= rx - rx_held;
		p->owed_enc -= tx - tx_held;
	}
}

uint8_t *
dfcp_pool_stage(struct dfcp_pool *p)
{
	/* made at create for a pool with encoders, else at its first sender's connect */
	if (p->stage == NULL)
		p->stage = malloc((size_t)p->conf.K * p->conf.T);
	return p->stage;
}

int
dfcp_pool_is_shared(const struct dfcp_pool *p)
{
	return p->conf.shared;
}

void
dfcp_pool_count_refused(struct dfcp_pool *p)
{
	p->refused++;
}

static void
use(struct dfcp_pool *p, uint64_t bytes)
{
	p->used += bytes;
	if (p->used > p->peak)
		p->peak = p->used;
}

/*
 * Shared: a draw on a guarantee (g) takes what is owed; any other only an
 * item beyond what is still owed to others.
 */
static int
may_draw(struct dfcp_pool *p, uint32_t nfree, uint32_t *owed, int g)
{
	if (!p->conf.shared)
		return 1;
	if (g && *owed > 0) {
		(*owed)--;
		return 1;
	}
	if (nfree > *owed)
		return 1;
	p->waits++;
	return 0;
}

uint8_t *
dfcp_pool_get_buf(struct dfcp_pool *p, int g)
{
	if (p->f_buf == 0 && (!p->conf.lazy || make_buf(p) < 0)) {
		if (p->conf.shared)
			p->waits++;
		return NULL;
	}
	if (!may_draw(p, p->f_buf, &p->owed_buf, g))
		return NULL;
	use(p, buf_size(p));
	if (p->n_buf - p->f_buf + 1 > p->peak_buf)
		p->peak_buf = p->n_buf - p->f_buf + 1;
	return p->buf_free[--p->f_buf];
}

void
dfcp_pool_put_buf(struct dfcp_pool *p, uint8_t *b, int g)
{
	p->buf_free[p->f_buf++] = b;
	p->used -= buf_size(p);
	if (g && p->conf.shared)
		p->owed_buf++;
}

struct rq_dec *
dfcp_pool_get_dec(struct dfcp_pool *p)
{
	uint32_t dummy = 0;

	if (p->f_dec == 0 && (!p->conf.lazy || make_dec(p) < 0)) {
		if (p->conf.shared)
			p->waits++;
		return NULL;
	}
	if (!may_draw(p, p->f_dec, &dummy, 0))
		return NULL;
	use(p, p->rx_slot_bytes - buf_size(p));
	if (p->n_dec - p->f_dec + 1 > p->peak_dec)
		p->peak_dec = p->n_dec - p->f_dec + 1;
	return p->dec_free[--p->f_dec];
}

void
dfcp_pool_put_dec(struct dfcp_pool *p, struct rq_dec *d)
{
	rq_dec_reset(d);
	p->dec_free[p->f_dec++] = d;
	p->used -= p->rx_slot_bytes - buf_size(p);
}

struct rq_enc *
dfcp_pool_get_enc(struct dfcp_pool *p, int g)
{
	if (p->f_enc == 0 && (!p->conf.lazy || make_enc(p) < 0)) {
		if (p->conf.shared)
			p->waits++;
		return NULL;
	}
	if (!may_draw(p, p->f_enc, &p->owed_enc, g))
		return NULL;
	use(p, p->tx_slot_bytes);
	if (p->n_enc - p->f_enc + 1 > p->peak_enc)
		p->peak_enc = p->n_enc - p->f_enc + 1;
	return p->enc_free[--p->f_enc];
}

void
dfcp_pool_put_enc(struct dfcp_pool *p, struct rq_enc *e, int g)
{
	p->enc_free[p->f_enc++] = e;
	p->used -= p->tx_slot_bytes;
	if (g && p->conf.shared)
		p->owed_enc++;
}

uint64_t
dfcp_rx_block_bytes(uint16_t K, uint16_t T)
{
	struct dfcp_pool p = { .conf = { .K = K, .T = T } };

	return buf_size(&p) + coder_estimate(&p, 1);
}

uint64_t
dfcp_rx_budget_default(uint32_t conns, uint32_t window, uint16_t K, uint16_t T)
{
	unsigned __int128 b = (unsigned __int128)conns * window * dfcp_rx_block_bytes(K, T);

	if (b > UINT64_MAX / 2)
		return UINT64_MAX / 2;
	return b < DFCP_RX_BUDGET_MIN ? DFCP_RX_BUDGET_MIN : (uint64_t)b;
}
