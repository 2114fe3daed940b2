/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP sender: fountain-coded, fully reliable, with auto redundancy. The
 * encoder pool, block fill from the source, symbol generation into DATA
 * frames, first rounds and top-ups, block timers, BLOCK-ACK processing and
 * the loss estimate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

#define Q16		65536u
#define TOPUP_MARGIN	1u		/* top-up aims at missing + 1 arrivals */
#define EWMA_SHIFT	3		/* loss EWMA gain 1/8 */
#define SYM_CAP		65535u		/* symbols per round at most */
#define RTO_BACKOFF_MAX	6		/* block timer doubled up to 64 times */

/*
 * srtt + 4 rttvar, min_rto at least; before any RTT sample (the SYN was
 * retried: its SYNACK does not time the path) the handshake timeout.
 * With loss reports, doubled for each timer expiry in a row that brought
 * nothing back (no block acked, no report), up to 64 times.
 */
static uint64_t
block_rto(const struct dfcp_conn *c)
{
	uint64_t rto = c->srtt + 4 * c->rttvar;

	if (c->srtt == 0 && rto < c->conf.hs_rto_ns)
		rto = c->conf.hs_rto_ns;
	if (rto < c->conf.min_rto_ns)
		rto = c->conf.min_rto_ns;
	return rto << c->rto_backoff;
}

/* ------------------------------------------------------------------ */
/* sender                                                               */
/* ------------------------------------------------------------------ */

static void
tmr_arm(struct dfcp_conn *c, struct tx_slot *s, uint64_t when)
{
	s->deadline = when;
	if (c->tmr_min == 0 || when < c->tmr_min)
		c->tmr_min = when;
}

/* A top-up round for need more arrivals, sized now and again when it starts. */
static void
repair_schedule(struct dfcp_conn *c, struct tx_slot *s, uint32_t need)
{
	uint32_t idx = (uint32_t)(s - c->tx), syms = dfcp_topup_syms(c, s, need);

	if (syms == 0)
		syms = 1;
	s->repair_need = need;
	s->repair_left = syms;
	s->rnd_len = syms;
	s->round_esi = s->next_esi;
	s->topped = 1;
	s->deadline = 0;
	c->st.topups++;
	c->st.topup_syms += syms;
	if (!s->in_repair) {
		s->in_repair = 1;
		c->repair_ring[(c->rr_head + c->rr_count) % c->W] = idx;
		c->rr_count++;
	}
}

/* Slot done: its encoder goes back on top of the pool. */
static void
tx_release(struct dfcp_conn *c, struct tx_slot *s)
{
	s->state = TX_FREE;
	if (s->enc != NULL) {
		dfcp_pool_put_enc(c->pool, s->enc, s->g_enc);
		if (s->g_enc)
			c->g_tx_held--;
		s->enc = NULL;
		s->g_enc = 0;
	}
}

static void
block_acked(struct dfcp_conn *c, uint32_t b, uint64_t now)
{
	struct tx_slot *s;

	if ((int32_t)(b - c->snd_base) < 0 || (int32_t)(b - c->snd_next) >= 0)
		return;
	s = &c->tx[b % c->W];
	if (s->state != TX_ACTIVE || s->block != b)
		return;
	/* version 1: first-pass blocks time the path (with reports: every round) */
	if (!(c->p.flags & DFCP_F_XR) && !s->topped && s->first_left == 0 && now >= s->last_tx)
		dfcp_rtt_sample(c, now - s->last_tx);
	if (c->conf.block_latency != NULL && now >= s->first_tx)
		hist_record(c->conf.block_latency, now - s->first_tx);
	tx_release(c, s);
	s->first_left = 0;
	s->repair_left = 0;
	s->deadline = 0;
	c->st.blocks_acked++;
	c->rto_backoff = 0;
	dfcp_progress(c, now);
	if (!s->topped)
		c->st.blocks_first_pass++;
	c->st.goodput_bytes += s->len;
	while (c->snd_base != c->snd_next && c->tx[c->snd_base % c->W].state == TX_FREE)
		c->snd_base++;
}

/*
 * One loss sample per DECODED report: the block decoded on its rcvd-th
 * distinct symbol, the span-th one sent (highest ESI seen + 1). The count of
 * losses before the rcvd-th arrival is negative binomial, for which
 * (span - rcvd) / (span - 1) is the unbiased estimate of p
 * ((span - rcvd) / span under-estimates it by a factor (span - 1) / span).
 */
static void
loss_sample(struct dfcp_conn *c, uint32_t rcvd, uint32_t span)
{
	int64_t sample, cur = c->loss_q16;

	if (span < 2 || rcvd == 0 || rcvd > span)
		return;
	sample = (int64_t)(span - rcvd) * Q16 / (span - 1);
	cur += (sample - cur) / (1 << EWMA_SHIFT);
	if (cur < 0)
		cur = 0;
	c->loss_q16 = (uint32_t)cur;
}

/*
 * What a report says about one block must fit what was sent of it: no more
 * symbols held than sent, a span within the round going out, a shortfall of
 * at most K. 0, or -DFCP_E_REPORT.
 */
static int
back_check(const struct dfcp_conn *c, const struct tx_slot *s, const struct dfcp_pkt *pkt)
{
	uint32_t limit = s->next_esi + s->first_left + s->repair_left;

	if (pkt->u.back.rcvd > s->sent || pkt->u.back.esi_span > limit)
		return -DFCP_E_REPORT;
	if (pkt->u.back.status == DFCP_BA_SHORT && pkt->u.back.missing > c->p.K)
		return -DFCP_E_REPORT;
	return 0;
}

/*
 * A report may say that block b is decoded only if the block was sent at
 * least K symbols (already acknowledged or released blocks: nothing to
 * check); never for a block not taken from the source yet.
 */
static int
claim_ok(const struct dfcp_conn *c, uint32_t b)
{
	const struct tx_slot *s;

	if ((int32_t)(b - c->snd_base) < 0)
		return 1;
	if ((int32_t)(b - c->snd_next) >= 0)
		return 0;
	s = &c->tx[b % c->W];
	if (s->state != TX_ACTIVE || s->block != b)
		return 1;
	return s->sent >= c->p.K;
}

/* Every block a BLOCK-ACK acknowledges (named, cumulative, bitmap) could be. */
static int
claims_ok(const struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	uint32_t cum = pkt->u.back.cum;
	uint64_t bm = pkt->u.back.bitmap;

	if ((int32_t)(cum - c->snd_next) > 0)
		return 0;
	if (pkt->u.back.status == DFCP_BA_DECODED && !claim_ok(c, pkt->u.back.block))
		return 0;
	for (uint32_t b = c->snd_base; (int32_t)(b - cum) < 0; b++)
		if (!claim_ok(c, b))
			return 0;
	while (bm != 0) {
		if (!claim_ok(c, cum + 1 + (uint32_t)__builtin_ctzll(bm)))
			return 0;
		bm &= bm - 1;
	}
	return 1;
}

/* The block's slot if b is an active block in flight, else NULL. */
static struct tx_slot *
tx_slot_of(struct dfcp_conn *c, uint32_t b)
{
	struct tx_slot *s;

	if ((int32_t)(b - c->snd_base) < 0 || (int32_t)(b - c->snd_next) >= 0)
		return NULL;
	s = &c->tx[b % c->W];
	return s->state == TX_ACTIVE && s->block == b ? s : NULL;
}

static void
back_decoded(struct dfcp_conn *c, struct tx_slot *s, const struct dfcp_pkt *pkt,
		uint64_t now)
{
	if (c->p.flags & DFCP_F_XR)
		return;		/* rounds give the samples (dfcp_model_report) */
	loss_sample(c, pkt->u.back.rcvd, pkt->u.back.esi_span);
	/*
	 * Karn: a topped-up block gives no RTT sample, so spurious timeouts
	 * could starve srtt for good. An ack that saw only first-round symbols
	 * still times the first round.
	 */
	if (s->topped && s->first_done && now >= s->first_done &&
			pkt->u.back.esi_span <= s->first_syms)
		dfcp_rtt_sample(c, now - s->first_done);
}

int
dfcp_sender_block_ack(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint32_t b = pkt->u.back.block, cum = pkt->u.back.cum;
	struct tx_slot *s = tx_slot_of(c, b);
	int rc;

	if (s != NULL && back_check(c, s, pkt) < 0)
		return -DFCP_E_REPORT;
	/* nothing is acknowledged that could not have been decoded */
	if (!claims_ok(c, pkt))
		return -DFCP_E_VALUE;
	/*
	 * The loss report first: a top-up below is sized from the new estimate.
	 * One that does not fit what was sent gives no top-up and no sample,
	 * but its acknowledgements (checked above) count: a report is never
	 * what holds the transfer (doc/protocol.md, "Replay").
	 */
	rc = dfcp_model_report(c, pkt, now);
	if (pkt->u.back.status == DFCP_BA_DECODED) {
		if (s != NULL)
			back_decoded(c, s, pkt, now);
		block_acked(c, b, now);
	}
	/* cumulative part (never beyond what was sent: claims_ok) */
	while ((int32_t)(c->snd_base - cum) < 0)
		block_acked(c, c->snd_base, now);
	for (uint32_t i = 0; i < 64; i++)
		if (pkt->u.back.bitmap & (1ull << i))
			block_acked(c, cum + 1 + i, now);
	if (rc < 0)
		return rc;
	if (pkt->u.back.status == DFCP_BA_SHORT) {
		c->st.short_reports++;
		s = tx_slot_of(c, b);
		/*
		 * not while a round is still going out, nor from a report made
		 * before the latest round's last packet could arrive (XR)
		 */
		if (s != NULL && !s->first_left && !s->repair_left &&
				pkt->u.back.esi_span > s->round_esi) {	/* not older than it */
			const struct rnd_ent *e = dfcp_model_slot_round(c, s);

			if (e != NULL && dfcp_model_early(c, e, pkt, now))
				c->st.early_shorts++;
			else
				repair_schedule(c, s, pkt->u.back.missing +
						(dfcp_budget_slot(c, s) ? 0 : TOPUP_MARGIN));
		}
	}
	dfcp_model_passed(c, pkt);
	return 0;
}

/*
 * A block whose round ended unheard (its timer, or a report about a later
 * round): a probe top-up whose end brings a precise report. K/8 + 1
 * arrivals, or, with loss reports, what K lacks of the arrivals expected
 * from all sent so far (a round lost whole needs more than a lost report);
 * under the capacity budget one arrival (a guess past it is overshoot).
 */
void
dfcp_sender_probe(struct dfcp_conn *c, struct tx_slot *s)
{
	uint32_t need = c->p.K / 8u + 1u;

	if (dfcp_budget_slot(c, s)) {
		/* one symbol: its report says exactly what the block lacks */
		need = 1;
	} else if (c->p.flags & DFCP_F_XR) {
		uint64_t exp = (uint64_t)s->sent * (65536u - c->loss_q16) >> 16;

		if (exp + need < c->p.K)
			need = c->p.K - (uint32_t)exp;
	}
	repair_schedule(c, s, need);
}

/* Up to cap bytes from the source at p: fewer only at its end. */
static uint32_t
fill_from_source(struct dfcp_conn *c, uint64_t now, uint8_t *p, uint32_t cap)
{
	uint32_t len = 0;

	while (len < cap) {
		size_t r = c->conf.source(c->conf.source_ctx, now, p + len, cap - len);

		if (r == 0)
			break;
		len += (uint32_t)r;
	}
	return len;
}

/*
 * The block read straight into its encoder's source symbols (no staging
 * copy), its CRC-32C taken symbol by symbol: the bytes read; the encoder
 * loaded unless 0.
 */
static uint32_t
fill_enc(struct dfcp_conn *c, struct tx_slot *s, uint64_t now)
{
	uint32_t T = c->p.T, len = 0, got = T, crc = 0;

	for (uint32_t i = 0; i < c->p.K && got == T; i++) {
		uint8_t *p = rq_enc_src(s->enc, i);

		got = fill_from_source(c, now, p, T);
		if (c->p.flags & DFCP_F_CRC)
			crc = net_crc32c(p, got, crc);
		len += got;
	}
	/* what the receiver checks its decode against */
	s->crc = (c->p.flags & DFCP_F_CRC) ? crc : 0;
	if (len == 0 || rq_enc_load(s->enc, len) < 0)
		return 0;
	return len;
}

/* Fill the next block from the source. 1 if a block was filled. */
static int
sender_fill(struct dfcp_conn *c, uint64_t now)
{
	uint32_t bs = c->p.block_size, len;
	struct tx_slot *s;

	if (c->hold && !c->src_eof && c->conf.source != NULL)
		return 0;
	/* encrypted: the block number is half the nonce, never used twice under a key */
	if (c->sess && c->snd_next == UINT32_MAX)
		c->src_eof = 1;
	if (c->src_eof || c->snd_next - c->snd_base >= c->W || c->conf.source == NULL) {
		if (c->conf.source == NULL)
			c->src_eof = 1;
		return 0;
	}
	/* queued symbols may come from an encoder that is free again */
	if (c->n_gen != 0)
		dfcp_gen_flush(c);
	s = &c->tx[c->snd_next % c->W];
	/* the encoder first: without one nothing is taken from the source */
	if ((c->p.flags & DFCP_F_ENC) && s->enc == NULL) {
		int g = c->g_tx_held < c->pool_tx;

		s->enc = dfcp_pool_get_enc(c->pool, g);
		if (s->enc == NULL) {
			/* the pool is short: the window is what we have; try again soon */
			c->pool_retry = now + DFCP_POOL_RETRY_NS;
			return 0;
		}
		c->pool_retry = 0;
		s->g_enc = (uint8_t)g;
		c->g_tx_held += (uint32_t)g;
	}
	if (c->p.flags & DFCP_F_ENC)
		len = fill_enc(c, s, now);
	else
		len = fill_from_source(c, now, c->stage, bs);
	if (len < bs)
		c->src_eof = 1;
	if (len == 0)
		return 0;
	if (!(c->p.flags & DFCP_F_ENC) && !c->enc0_loaded) {
		if (rq_enc_block(c->enc0, c->stage, len) < 0)
			return 0;
		c->enc0_loaded = 1;
	}
	s->block = c->snd_next;
	s->len = len;
	s->next_esi = 0;
	s->round_esi = 0;
	s->first_left = dfcp_first_round_syms(c);
	s->first_syms = s->first_left;
	s->first_done = 0;
	s->repair_left = 0;
	s->deadline = 0;
	s->topped = 0;
	s->sent = 0;
	s->rnd_len = s->first_syms;
	s->state = TX_ACTIVE;
	c->snd_bytes += len;
	c->snd_next++;
	return 1;
}

/* The DFCP fields of a DATA frame of the block's round. */
static void
data_fields(struct dfcp_conn *c, const struct tx_slot *s, int first, struct dfcp_pkt *pkt)
{
	uint32_t left = first ? s->first_left : s->repair_left;

	pkt->flags = (left == 1 ? DFCP_F_LAST : 0) | (c->p.flags & DFCP_F_CRC) |
		(c->sess ? DFCP_F_CRYPT : c->has_auth ? DFCP_F_AUTH : 0);
	pkt->u.data.crc = s->crc;
	pkt->u.data.block = s->block;
	pkt->u.data.esi = s->next_esi > RQ_MAX_ESI ? RQ_MAX_ESI : s->next_esi;
	pkt->u.data.block_len = s->len;
	if (c->p.flags & DFCP_F_XR) {
		pkt->flags |= DFCP_F_RND;
		pkt->u.data.seq = c->snd_seq;
		pkt->u.data.rlen = (uint16_t)s->rnd_len;
		pkt->u.data.rpos = (uint16_t)(s->rnd_len - left);
	}
}

/*
 * One DATA frame of the block's round (first: its first round, else a
 * top-up): the symbol is queued for generation straight into the frame
 * (dfcp_gen_flush), the headers are the prepared template with the block,
 * payload id, block length, round header and flags patched in: every other
 * Ethernet/IPv4/UDP field, the IPv4 checksum included, is the same for all
 * DATA frames of a connection. A full software UDP checksum is taken in
 * dfcp_gen_flush, once the symbol is in (the template's UDP checksum is 0).
 */
static int
build_data(struct dfcp_conn *c, struct tx_slot *s, int first, uint64_t now, uint8_t *buf,
		size_t cap)
{
	const struct rq_enc *enc = (c->p.flags & DFCP_F_ENC) ? s->enc : c->enc0;
	uint32_t off = dfcp_data_off(c);
	uint32_t tag = dfcp_data_tag_len(c->has_auth, c->sess ? c->conf.crypto : 0);
	struct dfcp_pkt pkt;
	uint8_t *d;
	int len;

	if (cap < (size_t)off + c->p.T + tag)
		return -EMSGSIZE;
	/*
	 * The frame's lines, before its header and (in dfcp_gen_flush) its symbol
	 * go in: an mbuf comes back from the lcore that received it, so each
	 * line is a cross-core miss; issued together here they overlap
	 * (bench-lossy: the sender's cycles a frame -10 %). A read prefetch at
	 * the x86-64-v2 baseline; prefetchw measured no better.
	 */
	for (uint32_t o = 0; o < off + c->p.T + tag; o += 64)
		__builtin_prefetch(buf + o, 1, 3);
	data_fields(c, s, first, &pkt);
	if (c->n_gen == GEN_MAX)
		dfcp_gen_flush(c);
	c->gen_enc[c->n_gen] = enc;
	c->gen_esi[c->n_gen] = pkt.u.data.esi;
	c->gen_out[c->n_gen++] = buf + off;
	if (pkt.u.data.rpos == 0 && (c->p.flags & DFCP_F_XR)) {
		s->rnd_idx = c->rnd_count;
		dfcp_model_round(c, s->block, c->snd_seq, s->rnd_len, first, now);
	} else if (c->p.flags & DFCP_F_XR) {
		dfcp_model_round_pkt(c, s, c->snd_seq, now);
	}
	if (s->next_esi <= RQ_MAX_ESI)
		s->next_esi++;
	s->sent++;
	c->snd_seq++;
	c->snd_seq64++;
	c->last_data_tx = now;
	if (c->dhdr_ok) {
		d = buf + DFCP_L2L4_LEN;
		memcpy(buf, c->dhdr, sizeof(c->dhdr));
		net_wr16(d + 2, pkt.flags);
		d += DFCP_COMMON_LEN;
		net_wr32(d, s->block);
		net_wr32(d + 4, ((s->block & 0xff) << 24) | (pkt.u.data.esi & 0xffffff));
		net_wr32(d + 8, s->len);
		if (pkt.flags & DFCP_F_RND) {
			net_wr32(d + 12, pkt.u.data.seq);
			net_wr16(d + 16, pkt.u.data.rlen);
			net_wr16(d + 18, pkt.u.data.rpos);
		}
		if (pkt.flags & DFCP_F_CRC)
			net_wr32(buf + off - DFCP_CRC_LEN, pkt.u.data.crc);
		return (int)(off + c->p.T + tag);
	}
	pkt.type = DFCP_T_DATA;
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	pkt.u.data.sym = NULL;
	pkt.u.data.sym_len = c->p.T;
	/* full: the UDP checksum once the symbol is in (dfcp_gen_flush) */
	len = dfcp_build_auth(buf, cap, &c->local, &c->remote, &pkt,
			c->conf.csum == DFCP_CSUM_FULL ? DFCP_CSUM_UDP_ZERO : c->conf.csum,
			c->has_auth ? &c->auth : NULL);
	if (len == (int)(off + c->p.T + tag)) {
		memcpy(c->dhdr, buf, sizeof(c->dhdr));
		c->dhdr_ok = 1;
	}
	return len;
}

static void
sender_round_done(struct dfcp_conn *c, struct tx_slot *s, uint64_t now)
{
	s->last_tx = now;
	s->rnd_end = c->snd_seq;
	if (c->p.flags & DFCP_F_XR)
		dfcp_model_round_done(c, s, now);
	if (!s->topped)
		s->first_done = now;
	if (!(c->p.flags & DFCP_F_ACKS)) {
		/* acks off: the buffer frees right after sending */
		tx_release(c, s);
		c->st.goodput_bytes += s->len;
		while (c->snd_base != c->snd_next &&
				c->tx[c->snd_base % c->W].state == TX_FREE)
			c->snd_base++;
		return;
	}
	tmr_arm(c, s, now + block_rto(c));
}

/*
 * Block timers, the last resort. With loss reports a round whose report
 * does not come is caught by the next report (dfcp_model_passed), so while
 * reports keep coming (the last within a timeout) an expired timer waits a
 * timeout after the last one instead: a queue building up on the path makes
 * reports late, not lost. When nothing has come back for a timeout (the
 * peer or the path paused, or everything was lost), only the oldest expired
 * block is probed; its report brings the others' (or their implicit probes)
 * and the rest wait another, doubled, timeout.
 */
void
dfcp_sender_timers(struct dfcp_conn *c, uint64_t now)
{
	int xr = (c->p.flags & DFCP_F_XR) != 0, probed = 0;
	uint64_t min = 0, rto = block_rto(c);
	int defer = xr && c->last_rpt != 0 && now - c->last_rpt < rto;

	if (c->tmr_min == 0 || now < c->tmr_min)
		return;
	for (uint32_t b = c->snd_base; b != c->snd_next; b++) {
		struct tx_slot *s = &c->tx[b % c->W];

		if (s->state != TX_ACTIVE || s->deadline == 0)
			continue;
		if (s->deadline <= now && defer)
			s->deadline = c->last_rpt + rto;
		if (s->deadline <= now && xr && probed)
			s->deadline = now + 2 * rto;	/* after the backoff below */
		if (s->deadline <= now) {
			c->st.timeouts++;
			probed = 1;
			dfcp_sender_probe(c, s);
			continue;
		}
		if (min == 0 || s->deadline < min)
			min = s->deadline;
	}
	c->tmr_min = min;
	/* with reports the timer is the last resort: nothing heard, back off */
	if (probed && xr && c->rto_backoff < RTO_BACKOFF_MAX)
		c->rto_backoff++;
}

/*
 * The block whose round goes out next: a first round already begun (rounds
 * go out whole, one after the other: the receiver learns a round is over
 * from the next one), else a top-up (repair before new data), else the next
 * first round, filling a block from the source. NULL: nothing to send.
 */
static struct tx_slot *
next_round(struct dfcp_conn *c, uint64_t now, int *first)
{
	struct tx_slot *f = NULL;

	while (c->snd_first != c->snd_next) {
		f = &c->tx[c->snd_first % c->W];
		if (f->state == TX_ACTIVE && f->block == c->snd_first && f->first_left)
			break;
		c->snd_first++;
		f = NULL;
	}
	*first = 1;
	if (f != NULL && f->first_left != f->first_syms)
		return f;
	while (c->rr_count) {
		struct tx_slot *r = &c->tx[c->repair_ring[c->rr_head]];

		if (r->state == TX_ACTIVE && r->repair_left) {
			/* a top-up not started yet: sized from the estimate of now */
			if (r->repair_left == r->rnd_len && r->next_esi == r->round_esi &&
					(c->p.flags & DFCP_F_XR)) {
				uint32_t n = dfcp_topup_syms(c, r, r->repair_need);

				c->st.topup_syms += n;
				c->st.topup_syms -= r->rnd_len;
				r->repair_left = r->rnd_len = n ? n : 1;
			}
			*first = 0;
			return r;
		}
		r->in_repair = 0;
		c->rr_head = (c->rr_head + 1) % c->W;
		c->rr_count--;
	}
	if (f == NULL && !sender_fill(c, now))
		return NULL;
	return &c->tx[c->snd_first % c->W];
}

unsigned int
dfcp_sender_tx(struct dfcp_conn *c, uint64_t now, void *const *bufs, uint16_t *lens,
		size_t cap, unsigned int n)
{
	unsigned int k = 0;

	n = dfcp_cap_allow(c, now, n);
	while (k < n) {
		int first, len;
		struct tx_slot *s = next_round(c, now, &first);

		if (s == NULL)
			break;
		if (first && s->next_esi == 0) {
			c->st.blocks_sent++;
			s->first_tx = now;
		}
		len = build_data(c, s, first, now, bufs[k], cap);
		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->st.tx_data_pkts++;
		if (first && --s->first_left == 0) {
			c->snd_first++;
			sender_round_done(c, s, now);
		} else if (!first && --s->repair_left == 0) {
			s->in_repair = 0;
			c->rr_head = (c->rr_head + 1) % c->W;
			c->rr_count--;
			sender_round_done(c, s, now);
		}
	}
	dfcp_cap_charge(c, k);
	if (c->n_gen != 0)
		dfcp_gen_flush(c);
	return k;
}
