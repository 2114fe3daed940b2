/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RACK-TLP loss detection (RFC 8985) for connections with SACK recovery.
 *
 * The sender keeps one record per transmitted data segment, in sequence
 * order, with its latest send time and whether it is SACKed, deemed lost or
 * has a retransmission in flight (a ring allocated with the connection).
 * RACK remembers the send time of the most recently sent segment that was
 * delivered; an older segment not delivered within RACK.rtt + reo_wnd of
 * its own send time is lost. Because send times are per transmission, a
 * lost retransmission is detected the same way as a lost original. The
 * reordering window is 0 before any reordering was seen once DupThresh
 * segments are SACKed or in recovery (the classic dupthresh rule), else
 * min_rtt / 4 (capped at SRTT); a segment still inside it arms the reorder
 * timer. The Tail Loss Probe timeout (PTO) is computed here as well; the
 * connection sends the probe (tcp_conn.c).
 *
 * pipe = outstanding - SACKed - lost + retransmissions in flight (RFC 6675
 * semantics on RACK's marks, Linux's packets_in_flight). Integer only; no
 * allocation after tcp_rack_init.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define TLP_MIN_NS	2000000ull	/* added to 2 SRTT (Linux: 2 jiffies) */
#define TLP_DELACK_NS	200000000ull	/* worst-case delayed ACK, one segment out */

int
tcp_rack_init(struct tcp_rack *r, uint32_t cap)
{
	uint32_t c = 64;

	memset(r, 0, sizeof(*r));
	while (c < cap && c < (1u << 16))
		c <<= 1;
	r->seg = calloc(c, sizeof(*r->seg));
	if (r->seg == NULL)
		return -ENOMEM;
	r->cap = c;
	return 0;
}

void
tcp_rack_fini(struct tcp_rack *r)
{
	free(r->seg);
	r->seg = NULL;
	r->cap = 0;
}

void
tcp_rack_reset(struct tcp_rack *r, uint32_t seq)
{
	struct tcp_rseg *seg = r->seg;
	uint32_t cap = r->cap;

	memset(r, 0, sizeof(*r));
	r->seg = seg;
	r->cap = cap;
	r->end = r->fack = r->end_seq = seq;
}

static struct tcp_rseg *
rec(const struct tcp_rack *r, uint32_t i)
{
	return &r->seg[(r->head + i) & (r->cap - 1)];
}

static uint32_t
rend(const struct tcp_rseg *g)
{
	return g->seq + g->len;
}

int
tcp_rack_full(const struct tcp_rack *r)
{
	return r->n == r->cap;
}

uint32_t
tcp_rack_pipe(const struct tcp_rack *r)
{
	return r->out_b - r->sacked_b - r->lost_b + r->rtx_b;
}

/* Index of the first record ending after seq (records are in sequence
 * order); r->n if none. */
static uint32_t
find(const struct tcp_rack *r, uint32_t seq)
{
	uint32_t lo = 0, hi = r->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (TCP_SEQ_GT(rend(rec(r, mid)), seq))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Remove bytes of a record from the counters its flags put them in. */
static void
uncount(struct tcp_rack *r, const struct tcp_rseg *g, uint32_t len)
{
	r->out_b -= len;
	if (g->fl & TCP_RS_SACKED)
		r->sacked_b -= len;
	if (g->fl & TCP_RS_LOST)
		r->lost_b -= len;
	if (g->fl & TCP_RS_RETRANS)
		r->rtx_b -= len;
}

void
tcp_rack_sent(struct tcp_rack *r, uint32_t seq, uint32_t len, uint64_t now)
{
	uint32_t end = seq + len;

	if (len == 0 || r->cap == 0)
		return;
	if (!TCP_SEQ_LT(seq, r->end)) {
		/* new data (seq == end; anything else cannot happen) */
		struct tcp_rseg *g;

		if (r->n == r->cap)
			return;	/* the sender checks tcp_rack_full first */
		g = rec(r, r->n++);
		g->seq = seq;
		g->len = (uint16_t)len;
		g->fl = 0;
		g->ts = now;
		tcp_rate_sent(&r->rate, g, r->out_b, now);
		r->out_b += len;
		r->end = end;
		return;
	}
	/* a retransmission: every record it overlaps */
	for (uint32_t i = find(r, seq); i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);

		if (!TCP_SEQ_GT(end, g->seq))
			break;
		if (!TCP_SEQ_GT(rend(g), seq) || (g->fl & TCP_RS_SACKED))
			continue;
		if (!(g->fl & TCP_RS_RETRANS))
			r->rtx_b += g->len;
		g->fl |= TCP_RS_RETRANS | TCP_RS_EVER_RTX;
		g->ts = now;
		tcp_rate_sent(&r->rate, g, r->out_b, now);
	}
}

/* A record was delivered (cumulatively or by SACK): RFC 8985 6.2 step 2
 * (RACK.rtt, xmit_ts, end_seq) and the reordering check of 6.2 step 3. */
static void
delivered(struct tcp_rack *r, const struct tcp_rseg *g, uint64_t now, uint64_t min_rtt)
{
	uint32_t e = rend(g);
	uint64_t rtt = now - g->ts;

	if (!(g->fl & TCP_RS_EVER_RTX) && TCP_SEQ_LT(e, r->fack))
		r->reord_seen = 1;
	if (TCP_SEQ_GT(e, r->fack))
		r->fack = e;
	if (r->min_rtt && (min_rtt == 0 || r->min_rtt < min_rtt))
		min_rtt = r->min_rtt;
	/* an ACK of a retransmission sooner than min RTT was for the original */
	if ((g->fl & TCP_RS_EVER_RTX) && rtt < min_rtt)
		return;
	if (rtt && (r->min_rtt == 0 || rtt < r->min_rtt))
		r->min_rtt = rtt;
	r->rtt_ns = rtt;
	r->advanced = 1;
	if (g->ts > r->xmit_ts || (g->ts == r->xmit_ts && TCP_SEQ_GT(e, r->end_seq))) {
		r->xmit_ts = g->ts;
		r->end_seq = e;
	}
}

/* Mark the records inside [s, e) SACKed; newly SACKed bytes. */
static uint32_t
sack_block(struct tcp_rack *r, uint32_t s, uint32_t e, uint64_t now, uint64_t min_rtt)
{
	uint32_t newly = 0;

	for (uint32_t i = find(r, s); i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);

		if (!TCP_SEQ_LT(g->seq, e))
			break;
		if (TCP_SEQ_LT(g->seq, s) || TCP_SEQ_GT(rend(g), e) || (g->fl & TCP_RS_SACKED))
			continue;
		delivered(r, g, now, min_rtt);
		tcp_rate_delivered(&r->rate, g, g->len);
		uncount(r, g, g->len);
		g->fl = (uint8_t)((g->fl & (TCP_RS_EVER_RTX | TCP_RS_APPLTD)) | TCP_RS_SACKED);
		r->out_b += g->len;
		r->sacked_b += g->len;
		newly += g->len;
	}
	return newly;
}

uint32_t
tcp_rack_update(struct tcp_rack *r, uint32_t una, const struct tcp_sack_blk *sb,
		uint32_t nsb, uint64_t now, uint64_t min_rtt)
{
	uint32_t newly = 0;

	r->rate.newly = 0;
	r->rate.have = 0;
	/* cumulatively acknowledged records leave the ring */
	while (r->n) {
		struct tcp_rseg *g = rec(r, 0);

		if (TCP_SEQ_LEQ(rend(g), una)) {
			if (!(g->fl & TCP_RS_SACKED)) {
				delivered(r, g, now, min_rtt);
				tcp_rate_delivered(&r->rate, g, g->len);
			}
			uncount(r, g, g->len);
			r->head = (r->head + 1) & (r->cap - 1);
			r->n--;
			continue;
		}
		if (TCP_SEQ_LT(g->seq, una)) {
			/* partially acknowledged: keep the rest */
			if (!(g->fl & TCP_RS_SACKED))
				tcp_rate_delivered(&r->rate, g, una - g->seq);
			uncount(r, g, una - g->seq);
			g->len = (uint16_t)(rend(g) - una);
			g->seq = una;
		}
		break;
	}
	if (r->n == 0 && TCP_SEQ_GT(una, r->end))
		r->end = una;
	/* the SACK marks persist in the records: any number of holes */
	for (uint32_t j = 0; j < nsb; j++)
		newly += sack_block(r, sb[j].start, sb[j].end, now, min_rtt);
	return newly;
}

int
tcp_rack_reneged(const struct tcp_rack *r)
{
	return r->n && (rec(r, 0)->fl & TCP_RS_SACKED);
}

void
tcp_rack_clear_sacked(struct tcp_rack *r)
{
	for (uint32_t i = 0; i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);

		if (g->fl & TCP_RS_SACKED) {
			g->fl &= (uint8_t)~TCP_RS_SACKED;
			r->sacked_b -= g->len;
		}
	}
}

uint64_t
tcp_rack_reo_wnd(const struct tcp_rack *r, int recovering, uint32_t dupthresh_bytes,
		uint64_t min_rtt, uint64_t srtt)
{
	uint64_t w;

	if (!r->reord_seen && (recovering || r->sacked_b >= dupthresh_bytes))
		return 0;
	if (r->min_rtt && (min_rtt == 0 || r->min_rtt < min_rtt))
		min_rtt = r->min_rtt;
	w = min_rtt / 4 * (r->reo_steps ? r->reo_steps : 1);
	return srtt ? tcp_min64(w, srtt) : w;
}

/* RFC 8985 6.2 step 4 (Linux's tcp_rack_update_reo_wnd): a D-SACK, at most
 * once per round trip, widens reo_wnd by min_RTT/4 for the next 16
 * recoveries. */
void
tcp_rack_dsack(struct tcp_rack *r, uint64_t now, uint64_t srtt)
{
	if (r->reo_step_at && now - r->reo_step_at < srtt)
		return;
	if (r->reo_steps < 255)
		r->reo_steps = (uint8_t)((r->reo_steps ? r->reo_steps : 1) + 1);
	r->reo_persist = 16;
	r->reo_step_at = now;
}

void
tcp_rack_recovered(struct tcp_rack *r)
{
	if (r->reo_persist)
		r->reo_persist--;
	else
		r->reo_steps = 1;
}

/* A spurious RTO: the segments it marked lost (and not resent since) are
 * in flight after all. */
void
tcp_rack_unmark_lost(struct tcp_rack *r)
{
	for (uint32_t i = 0; i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);

		if ((g->fl & (TCP_RS_LOST | TCP_RS_RETRANS)) == TCP_RS_LOST) {
			g->fl &= (uint8_t)~TCP_RS_LOST;
			r->lost_b -= g->len;
		}
	}
}

static void
mark_lost(struct tcp_rack *r, struct tcp_rseg *g)
{
	if (g->fl & TCP_RS_RETRANS) {
		g->fl &= (uint8_t)~TCP_RS_RETRANS;
		r->rtx_b -= g->len;
		r->lost_rtx = 1;
	}
	if (!(g->fl & TCP_RS_LOST)) {
		g->fl |= TCP_RS_LOST;
		r->lost_b += g->len;
	}
	r->marked++;
}

uint32_t
tcp_rack_detect(struct tcp_rack *r, uint64_t now, uint64_t reo_wnd)
{
	uint64_t wait = 0;
	uint32_t lost = 0;

	r->advanced = 0;
	r->reo_at = 0;
	r->lost_rtx = 0;
	if (r->xmit_ts == 0)
		return 0;
	for (uint32_t i = 0; i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);
		uint64_t dl;

		if ((g->fl & TCP_RS_SACKED) ||
				(g->fl & (TCP_RS_LOST | TCP_RS_RETRANS)) == TCP_RS_LOST)
			continue;	/* delivered, or lost and not resent yet */
		if (g->ts > r->xmit_ts ||
				(g->ts == r->xmit_ts && !TCP_SEQ_LT(rend(g), r->end_seq))) {
			/* sent after RACK's segment; originals are in time
			 * order, so every later original is newer too */
			if (!(g->fl & TCP_RS_EVER_RTX))
				break;
			continue;
		}
		dl = g->ts + r->rtt_ns + reo_wnd;
		if (dl <= now) {
			mark_lost(r, g);
			lost += g->len;
		} else if (dl - now > wait) {
			wait = dl - now;
		}
	}
	if (wait)
		r->reo_at = now + wait;
	return lost;
}

void
tcp_rack_mark_all_lost(struct tcp_rack *r)
{
	for (uint32_t i = 0; i < r->n; i++) {
		struct tcp_rseg *g = rec(r, i);

		if (!(g->fl & TCP_RS_SACKED)) {
			uint64_t m = r->marked;

			mark_lost(r, g);
			r->marked = m;	/* counted as timeouts, not RACK marks */
			r->lost_rtx = 0;
		}
	}
	r->reo_at = 0;
}

int
tcp_rack_next_lost(const struct tcp_rack *r, uint32_t *seq, uint32_t *len)
{
	for (uint32_t i = 0; i < r->n; i++) {
		const struct tcp_rseg *g = rec(r, i);

		if ((g->fl & (TCP_RS_LOST | TCP_RS_RETRANS | TCP_RS_SACKED)) == TCP_RS_LOST) {
			*seq = g->seq;
			*len = g->len;
			return 1;
		}
	}
	return 0;
}

int
tcp_rack_last(const struct tcp_rack *r, uint32_t *seq, uint32_t *len)
{
	for (uint32_t i = r->n; i > 0; i--) {
		const struct tcp_rseg *g = rec(r, i - 1);

		if (!(g->fl & TCP_RS_SACKED)) {
			*seq = g->seq;
			*len = g->len;
			return 1;
		}
	}
	return 0;
}

uint64_t
tcp_rack_pto(uint64_t srtt, uint32_t flight, uint32_t smss)
{
	uint64_t pto;

	if (srtt == 0)
		return 0;	/* no RTT yet: leave it to the RTO */
	pto = 2 * srtt;
	pto += flight <= smss ? TLP_DELACK_NS : TLP_MIN_NS;
	return pto;
}
