/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP receiver: block slots with their buffer and decoder pools, symbol
 * collection and decoding, in-order delivery, BLOCK-ACKs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

/* ------------------------------------------------------------------ */
/* receiver buffers                                                     */
/* ------------------------------------------------------------------ */

static void rx_release(struct dfcp_conn *c, struct rx_slot *s);

void
dfcp_receiver_free(struct dfcp_conn *c)
{
	for (uint32_t i = 0; c->rx != NULL && i < c->W; i++)
		rx_release(c, &c->rx[i]);
	if (c->slab == NULL) {
		free(c->have_mem);
		free(c->rx);
	}
	c->have_mem = NULL;
	c->rx = NULL;
}

int
dfcp_receiver_alloc(struct dfcp_conn *c)
{
	uint32_t W = c->W;

	if (c->rx != NULL)
		return 0;
	c->alloc_W = W;
	c->have_words = (c->p.flags & DFCP_F_DEC) ? (c->p.K + 63u) / 64u : 0;
	if (c->slab != NULL) {
		/* the endpoint's record holds them (made at its create) */
		if (dfcp_slab_rx_arrays(c, W, c->have_words) < 0)
			return -ENOMEM;
		for (uint32_t i = 0; i < W && c->have_words; i++)
			c->rx[i].have = c->have_mem + (size_t)i * c->have_words;
		return 0;
	}
	c->rx = calloc(W, sizeof(*c->rx));
	if (c->rx == NULL)
		return -ENOMEM;
	if (!(c->p.flags & DFCP_F_DEC))
		return 0;
	/*
	 * Block buffers and decoders come from the pool, where the window's
	 * worth is reserved (a shared pool made at set-up, or a private one
	 * that makes them on first need): a slot takes a buffer when its block
	 * starts and gives it back on delivery, so in-order traffic cycles
	 * through a few cache-hot buffers; a decoder (~450 KiB at K = 47,
	 * T = 1420) is taken only when a repair symbol is needed.
	 */
	c->have_mem = calloc((size_t)W * c->have_words, sizeof(uint64_t));
	if (c->have_mem == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < W; i++)
		c->rx[i].have = c->have_mem + (size_t)i * c->have_words;
	return 0;
}

/* ------------------------------------------------------------------ */
/* receiver                                                             */
/* ------------------------------------------------------------------ */

void
dfcp_rx_queue_back(struct dfcp_conn *c, uint32_t b, uint16_t status, uint16_t missing,
		uint32_t rcvd, uint32_t span)
{
	struct back_ent *e;

	if (!(c->p.flags & DFCP_F_ACKS))
		return;
	if (c->back_count == BACK_RING)
		return;		/* the cumulative ack and timers cover it */
	e = &c->back[(c->back_head + c->back_count) % BACK_RING];
	e->block = b;
	e->status = status;
	e->missing = missing;
	e->rcvd = rcvd;
	e->span = span;
	c->back_count++;
	if (status == DFCP_BA_SHORT)
		c->st.short_reports++;
}

/* Block buffer and decoder back to their pool. */
static void
rx_release(struct dfcp_conn *c, struct rx_slot *s)
{
	s->state = RX_FREE;
	if (s->dec != NULL) {
		dfcp_pool_put_dec(c->pool, s->dec);
		s->dec = NULL;
	}
	if (s->out != NULL) {
		dfcp_pool_put_buf(c->pool, s->out, s->g_buf);
		if (s->g_buf)
			c->g_rx_held--;
		s->out = NULL;
		s->g_buf = 0;
	}
}

/* The slot holding block b (collecting or decoded), or NULL. */
struct rx_slot *
dfcp_rx_slot_of(struct dfcp_conn *c, uint32_t b)
{
	struct rx_slot *s;

	if (c->rx == NULL || (int32_t)(b - c->rcv_cum) < 0 || b - c->rcv_cum >= c->W)
		return NULL;
	s = &c->rx[b % c->W];
	return s->state != RX_FREE && s->block == b ? s : NULL;
}

static void
rx_deliver(struct dfcp_conn *c, uint64_t now)
{
	for (;;) {
		struct rx_slot *s = &c->rx[c->rcv_cum % c->W];

		if (s->state != RX_DECODED || s->block != c->rcv_cum)
			break;
		if (c->conf.sink != NULL)
			c->conf.sink(c->conf.sink_ctx, c->rcv_off,
					(c->p.flags & DFCP_F_DEC) ? s->out : NULL, s->len);
		c->rcv_off += s->len;
		c->st.goodput_bytes += s->len;
		rx_release(c, s);
		c->rcv_cum++;
		dfcp_progress(c, now);
	}
}

/* acks off: the window slides over blocks that did not decode. */
void
dfcp_rx_skip_to(struct dfcp_conn *c, uint32_t cum, uint64_t now)
{
	while ((int32_t)(c->rcv_cum - cum) < 0) {
		struct rx_slot *s;

		rx_deliver(c, now);
		if ((int32_t)(c->rcv_cum - cum) >= 0)
			break;
		s = &c->rx[c->rcv_cum % c->W];
		if (s->state == RX_COLLECT && s->block == c->rcv_cum) {
			c->rcv_off += s->len;
			rx_release(c, s);
		}
		c->st.blocks_lost++;
		c->rcv_cum++;
	}
	rx_deliver(c, now);
}

/*
 * Decoding on: a source symbol (ESI < K) is copied once, straight to its
 * place in the slot's block buffer; when all K arrive the block is complete
 * without the decoder. A repair symbol goes to the slot's decoder (taken from
 * the pool on first use); once K symbols are held and a source symbol is
 * missing, the source symbols join it and the block is decoded into the
 * buffer. Returns 0 or -DFCP_E_*; s->count and s->state are updated.
 */
static int
rx_symbol(struct dfcp_conn *c, struct rx_slot *s, uint32_t esi, const uint8_t *sym)
{
	uint32_t K = c->p.K, T = c->p.T, n;
	int rc, added;

	if (esi < K && !s->in_dec) {
		uint64_t bit = 1ull << (esi & 63);

		if (s->have[esi >> 6] & bit)
			return 0;	/* duplicate */
		s->have[esi >> 6] |= bit;
		if (sym != s->out + (size_t)esi * T)	/* else opened there (dfcp_rx_sym_dst) */
			memcpy(s->out + (size_t)esi * T, sym, T);
		s->nsrc++;
		added = 1;
	} else {
		if (s->dec == NULL) {
			s->dec = dfcp_pool_get_dec(c->pool);
			if (s->dec == NULL)
				return -DFCP_E_NOBUF;	/* out of memory */
		}
		rc = rq_dec_add(s->dec, esi, sym);
		if (rc < 0)
			return -DFCP_E_ESI;
		added = rc > 0;
	}
	n = s->dec != NULL ? rq_dec_count(s->dec) : 0;
	s->count = s->in_dec ? n : s->nsrc + n;
	if (!s->in_dec && s->nsrc == K) {
		s->state = RX_DECODED;
		return 0;
	}
	if (!added || s->count < K)
		return 0;
	if (!s->in_dec) {
		for (uint32_t i = 0; i < K; i++) {
			if (!(s->have[i >> 6] & (1ull << (i & 63))))
				continue;
			/* in place: the decoder reads them where they are (no copy) */
			if (rq_dec_add_ref(s->dec, i, s->out + (size_t)i * T) < 0)
				return -DFCP_E_ESI;
		}
		s->in_dec = 1;
		s->count = rq_dec_count(s->dec);
	}
	if (rq_dec_decode(s->dec, s->out, s->len) == 0)
		s->state = RX_DECODED;
	else
		c->st.decode_failures++;
	return 0;
}

/*
 * Where a sealed DATA's source symbol may be opened to: its place in its
 * block's buffer, when the block is collecting, without the decoder, and
 * has not got it (so nothing held is overwritten; a symbol refused later
 * leaves a place that is not counted as had). NULL: open it in its frame.
 */
uint8_t *
dfcp_rx_sym_dst(struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	uint32_t b = pkt->u.data.block, esi = pkt->u.data.esi;
	const struct rx_slot *s;

	if (!(c->p.flags & DFCP_F_DEC) || pkt->type != DFCP_T_DATA || esi >= c->p.K ||
			pkt->u.data.sym_len != c->p.T || (int32_t)(b - c->rcv_cum) < 0 ||
			b - c->rcv_cum >= c->W)
		return NULL;
	s = &c->rx[b % c->W];
	if (s->state != RX_COLLECT || s->block != b || s->in_dec || s->out == NULL ||
			esi < s->esi_floor || (s->have[esi >> 6] & (1ull << (esi & 63))))
		return NULL;
	return s->out + (size_t)esi * c->p.T;
}

/*
 * A decoded block is checked against the CRC its packets carry. A mismatch
 * (a forged or corrupted symbol with a valid checksum, a codec fault)
 * discards everything held of the block and asks for K fresh symbols: the
 * sender's next ESIs are all above what was seen (esi_floor), so nothing
 * that went into the wrong decode is used again.
 */
static void
rx_restart(struct dfcp_conn *c, struct rx_slot *s)
{
	if (s->dec != NULL)
		rq_dec_reset(s->dec);
	if (c->have_words != 0)
		memset(s->have, 0, c->have_words * sizeof(uint64_t));
	s->state = RX_COLLECT;
	s->count = 0;
	s->nsrc = 0;
	s->in_dec = 0;
}

static int
crc_ok(struct dfcp_conn *c, struct rx_slot *s)
{
	if (!(c->p.flags & DFCP_F_CRC) || net_crc32c(s->out, s->len, 0) == s->crc)
		return 1;
	c->st.crc_failures++;
	rx_restart(c, s);
	s->esi_floor = s->esi_span;
	dfcp_rx_queue_back(c, s->block, DFCP_BA_SHORT, (uint16_t)c->p.K, 0, s->esi_span);
	return 0;
}

/*
 * Every packet of a block carries its length and CRC; the slot takes them
 * from the block's first packet. With a key that one is genuine, and a
 * packet that differs is dropped (`esi`, `crc`). Without a key the first
 * may be forged or corrupted: a packet that differs is dropped all the
 * same but kept as the other candidate (one, replaced by the next that
 * differs from both), and once more packets have carried the other than
 * the slot's, the slot takes it and starts the block again (what it held
 * goes, as after a failed CRC): a bad first packet costs its block one
 * genuine symbol, a top-up at worst. doc/protocol.md, "Integrity".
 */
static int
rx_header(struct dfcp_conn *c, struct rx_slot *s, const struct dfcp_pkt *pkt)
{
	uint32_t len = pkt->u.data.block_len;
	uint32_t crc = (c->p.flags & DFCP_F_CRC) ? pkt->u.data.crc : s->crc;
	int err = len != s->len ? -DFCP_E_ESI : -DFCP_E_CRC;

	if (len == s->len && crc == s->crc) {
		if (s->hdr_n < UINT16_MAX)
			s->hdr_n++;
		return 0;
	}
	if (c->has_auth)
		return err;
	if (s->alt_n != 0 && len == s->alt_len && crc == s->alt_crc) {
		if (s->alt_n < UINT16_MAX)
			s->alt_n++;
	} else {
		s->alt_len = len;
		s->alt_crc = crc;
		s->alt_n = 1;
	}
	if (s->alt_n <= s->hdr_n)
		return err;
	c->st.hdr_switches++;
	rx_restart(c, s);
	s->len = len;
	s->crc = crc;
	s->hdr_n = s->alt_n;
	s->alt_n = 0;
	s->esi_floor = 0;
	s->esi_span = 0;
	return 0;
}

/*
 * One DATA packet for its block. last: the version-1 round end (LAST flag;
 * with round headers dfcp_round_rx/after end rounds). esi_end: the ESI
 * after the packet's round (what was sent of the block by then).
 */
static int
rx_block(struct dfcp_conn *c, const struct dfcp_pkt *pkt, int last, uint32_t esi_end,
		uint64_t now)
{
	uint32_t b = pkt->u.data.block, esi = pkt->u.data.esi;
	struct rx_slot *s;
	int rc;

	if ((int32_t)(b - c->rcv_cum) < 0) {
		c->st.stale_syms++;
		if (last)
			dfcp_rx_queue_back(c, b, DFCP_BA_DECODED, 0, 0, 0);
		return -DFCP_E_STALE;
	}
	if (b - c->rcv_cum >= c->W) {
		if (c->p.flags & DFCP_F_ACKS)
			return -DFCP_E_NOBUF;
		dfcp_rx_skip_to(c, b - c->W + 1, now);
	}
	s = &c->rx[b % c->W];
	if (s->state != RX_FREE && s->block != b) {
		/* cannot happen: a slot only holds blocks of the window */
		rx_release(c, s);
	}
	if (s->state == RX_FREE) {
		if (c->p.flags & DFCP_F_DEC) {
			/* the guarantee (shared pool) is for the in-order head block */
			int g = b == c->rcv_cum && c->g_rx_held < c->pool_rx;

			s->out = dfcp_pool_get_buf(c->pool, g);
			if (s->out == NULL)
				return -DFCP_E_NOBUF;	/* out of memory */
			s->g_buf = (uint8_t)g;
			c->g_rx_held += (uint32_t)g;
			memset(s->have, 0, c->have_words * sizeof(uint64_t));
		}
		s->state = RX_COLLECT;
		s->block = b;
		s->len = pkt->u.data.block_len;
		s->crc = pkt->u.data.crc;
		s->hdr_n = 0;
		s->alt_n = 0;
		s->esi_floor = 0;
		s->esi_span = 0;
		s->count = 0;
		s->nsrc = 0;
		s->in_dec = 0;
	} else if (s->state == RX_DECODED) {
		c->st.stale_syms++;
		if (last)
			dfcp_rx_queue_back(c, b, DFCP_BA_DECODED, 0, 0, 0);
		return -DFCP_E_STALE;
	}
	rc = rx_header(c, s, pkt);
	if (rc < 0)
		return rc;
	if (esi < s->esi_floor)
		return -DFCP_E_STALE;	/* sent before a decode that failed its CRC */
	if (esi_end > s->esi_span)
		s->esi_span = esi_end;
	if (c->p.flags & DFCP_F_DEC) {
		rc = rx_symbol(c, s, esi, pkt->u.data.sym);
		if (rc < 0)
			return rc;
		if (s->state == RX_DECODED && !crc_ok(c, s))
			return 0;	/* re-requested: nothing delivered */
		if (s->state == RX_DECODED && s->dec != NULL) {
			/* decoded into out: the decoder serves another block */
			dfcp_pool_put_dec(c->pool, s->dec);
			s->dec = NULL;
		}
	} else {
		if (++s->count >= c->p.K)
			s->state = RX_DECODED;
	}
	if (s->state == RX_DECODED) {
		c->st.blocks_decoded++;
		c->rcv_sum_rcvd += s->count;
		c->rcv_sum_span += s->esi_span > s->count ? s->esi_span : s->count;
		dfcp_rx_queue_back(c, b, DFCP_BA_DECODED, 0, s->count, s->esi_span);
		rx_deliver(c, now);
	} else if (last) {
		uint32_t miss = s->count < c->p.K ? c->p.K - s->count : 1;

		dfcp_rx_queue_back(c, b, DFCP_BA_SHORT, (uint16_t)(miss > 65535 ? 65535 : miss),
				s->count, s->esi_span);
	}
	return 0;
}

int
dfcp_rx_data(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	int xr = (pkt->flags & DFCP_F_RND) && (c->p.flags & DFCP_F_XR), rc, seq;
	uint32_t esi = pkt->u.data.esi;

	if (pkt->u.data.sym_len != c->p.T)
		return -DFCP_E_SYMLEN;
	if (pkt->u.data.block_len > c->p.block_size)
		return -DFCP_E_ESI;
	c->st.rx_data_pkts++;
	if (!xr)
		return rx_block(c, pkt, pkt->flags & DFCP_F_LAST, esi + 1, now);
	/* ESIs of a round are consecutive: it ends at esi + (rlen - rpos) */
	seq = dfcp_round_rx(c, pkt, now);
	if (seq == DFCP_SEQ_REPLAY)
		return -DFCP_E_REPLAY;
	rc = rx_block(c, pkt, 0, esi + pkt->u.data.rlen - pkt->u.data.rpos, now);
	if (seq == DFCP_SEQ_NEW)
		dfcp_round_after(c, pkt);
	return rc;
}

int
dfcp_build_back(struct dfcp_conn *c, const struct back_ent *e, uint8_t *buf, size_t cap)
{
	struct dfcp_pkt pkt;
	uint64_t bm = 0;

	for (uint32_t i = 0; i < 64 && i + 1 < c->W; i++) {
		uint32_t b = c->rcv_cum + 1 + i;
		const struct rx_slot *s = &c->rx[b % c->W];

		if (s->state == RX_DECODED && s->block == b)
			bm |= 1ull << i;
	}
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = DFCP_T_BLOCK_ACK;
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	pkt.u.back.block = e->block;
	pkt.u.back.cum = c->rcv_cum;
	pkt.u.back.status = e->status;
	pkt.u.back.missing = e->missing;
	pkt.u.back.rcvd = e->rcvd;
	pkt.u.back.esi_span = e->span;
	pkt.u.back.bitmap = bm;
	dfcp_round_fill(c, &pkt);
	return dfcp_build_auth(buf, cap, &c->local, &c->remote, &pkt, c->conf.csum,
			dfcp_sess_mac(c, pkt.type));
}
