/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP receiver, extended reports (DFCP_F_XR): which send round a DATA
 * packet belongs to (its round header), when that round is over, the loss
 * report every BLOCK-ACK carries, and the rate hint.
 *
 * A sender sends each round contiguously, and a flow's packets keep their
 * order on the path (WF2Q+ and the pipes are FIFO per flow), so a round is
 * over when its last packet arrives (LAST), when a packet of a later round
 * arrives (its tail was lost), or when nothing arrives for the round idle
 * time (the tail was lost and the sender had nothing after it). Whichever
 * comes first ends it at once: a SHORT if the block is still short, else a
 * DECODED again; both carry the round's count in the loss report.
 * doc/protocol.md, "Round ends".
 */
#include <stdint.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

#define GAP_SHIFT	4		/* inter-arrival EWMA, gain 1/16 (and Q4) */
#define GAP_MAX_NS	250000000ull	/* a longer gap is a pause, not the pace */
#define IDLE_MAX_NS	50000000ull	/* the round idle time at most ... */
#define IDLE_GAPS	4u		/* ... unless the pace is slower: this many gaps */
#define RATE_WIN_NS	25000000ull	/* rate hint: one sample per 25 ms of arrivals */
#define NS		1000000000ull
#define LATE_NS		200000ull	/* an idle end noticed later than this: a stall */
#define PAUSE_FADE	5		/* the longest gap lately fades by 1/32 a round */

/* The anti-replay window: bit (seq % SEQ_WIN), for seq_next - SEQ_WIN <= seq < seq_next. */
static inline int
seq_test_set(struct dfcp_conn *c, uint32_t seq)
{
	uint64_t *w = &c->seq_bits[(seq / 64u) % (DFCP_SEQ_WIN / 64u)];
	uint64_t bit = 1ull << (seq % 64u);
	int was = (*w & bit) != 0;

	*w |= bit;
	return was;
}

/* seq_next moves to s + 1: forget the bits of the seqs it passes. */
static void
seq_advance(struct dfcp_conn *c, uint32_t s)
{
	uint32_t n = s + 1 - c->seq_next;

	if (n >= DFCP_SEQ_WIN) {
		memset(c->seq_bits, 0, sizeof(c->seq_bits));
	} else {
		for (uint32_t q = c->seq_next; q != s + 1; q++)
			c->seq_bits[(q / 64u) % (DFCP_SEQ_WIN / 64u)] &= ~(1ull << (q % 64u));
	}
	c->seq_next = s + 1;
}

/*
 * The anti-replay window (as IPsec's and QUIC's): seq_next is the highest
 * seq counted + 1, the bitmap holds which of the DFCP_SEQ_WIN seqs before it
 * were counted; a seq counted already (a duplicate, a replay) or older than
 * the window is a replay. Without a key seqs are not authenticated: a seq
 * a window or more ahead moves the window only once a second packet just
 * after it confirms the jump (one forged seq would put every genuine one
 * behind the window), and a seq older than the window may be a genuine
 * packet behind a forged jump: neither is counted, their symbols are used
 * (the block checks them). doc/protocol.md, "Replay".
 */
static int
seq_check(struct dfcp_conn *c, uint32_t s)
{
	uint32_t ahead = s - c->seq_next, back = c->seq_next - s, after = s - c->seq_cand;

	if ((int32_t)ahead < 0) {
		if (back > DFCP_SEQ_WIN)
			return c->has_auth ? DFCP_SEQ_REPLAY : DFCP_SEQ_UNCOUNTED;
		if (seq_test_set(c, s))
			return DFCP_SEQ_REPLAY;
		if (back - 1 > c->slack)
			c->slack = back - 1;
		return DFCP_SEQ_NEW;
	}
	if (ahead >= DFCP_SEQ_WIN && !c->has_auth &&
			(!c->seq_cand_ok || after == 0 || after >= DFCP_SEQ_WIN)) {
		c->seq_cand = s;
		c->seq_cand_ok = 1;
		return DFCP_SEQ_UNCOUNTED;
	}
	seq_advance(c, s);
	seq_test_set(c, s);
	if (c->seq_cand_ok && (int32_t)(c->seq_cand - c->seq_next) < 0) {
		/* passed (or confirmed: then counted too, it is within the window) */
		if (ahead >= DFCP_SEQ_WIN && !seq_test_set(c, c->seq_cand))
			c->rx_pkts++;
		c->seq_cand_ok = 0;
	}
	return DFCP_SEQ_NEW;
}

/* Round r is over: count how, keep it for the report, tell the sender. */
static void
round_end(struct dfcp_conn *c, struct rx_round *r, uint8_t how)
{
	uint32_t b = r->block;
	struct rx_slot *s;

	r->open = 0;
	r->idled = how == DFCP_END_IDLE;
	if (r == &c->rr)
		c->idle_at = 0;
	/* the reordering allowance and the pause floor fade when nothing comes late */
	c->slack -= c->slack >> 4;
	c->pause_ns -= c->pause_ns >> PAUSE_FADE;
	if (how == DFCP_END_LAST)
		c->st.rounds_last++;
	else if (how == DFCP_END_NEXT)
		c->st.rounds_next++;
	else
		c->st.rounds_idle++;
	c->rpt_seq = r->start;
	c->rpt_len = (uint16_t)(r->end - r->start);
	c->rpt_rcvd = r->rcvd < c->rpt_len ? r->rcvd : c->rpt_len;
	c->rpt_end = how;
	if ((int32_t)(b - c->rcv_cum) < 0) {
		dfcp_rx_queue_back(c, b, DFCP_BA_DECODED, 0, 0, 0);
		return;
	}
	s = dfcp_rx_slot_of(c, b);
	if (s == NULL)
		return;		/* outside the window: the sender's timer covers it */
	if (s->state == RX_DECODED) {
		dfcp_rx_queue_back(c, b, DFCP_BA_DECODED, 0, s->count, s->esi_span);
	} else {
		uint32_t miss = s->count < c->p.K ? c->p.K - s->count : 1;

		dfcp_rx_queue_back(c, b, DFCP_BA_SHORT, (uint16_t)(miss > 65535 ? 65535 : miss),
				s->count, s->esi_span);
	}
}

/*
 * Idle time that ends the open round: its expected rest, plus the floor,
 * and at least 5/4 of the longest pause seen within a round lately (a
 * stall upstream: a sender or scheduler lcore descheduled for a time slice
 * holds a round's rest for milliseconds, and an idle end then is a SHORT
 * for symbols still on their way, a top-up of stale ones); at most 50 ms,
 * or IDLE_GAPS of the flow's gaps where its pace is slower (a flow with
 * 1/4096 of a 1 Gbit/s link gets a packet every 48 ms: with 50 ms most of
 * its rounds ended idle after every packet, a report each).
 */
static uint64_t
idle_time(const struct dfcp_conn *c, uint32_t left)
{
	uint64_t gap = c->gap_ewma >> GAP_SHIFT;
	uint64_t t = c->conf.round_idle_ns + (uint64_t)(left + 2) * gap;
	uint64_t least = c->conf.round_idle_ns + c->pause_ns + (c->pause_ns >> 2);
	uint64_t max = IDLE_GAPS * gap > IDLE_MAX_NS ? IDLE_GAPS * gap : IDLE_MAX_NS;

	if (t < least)
		t = least;
	return t > max ? max : t;
}

/*
 * Rate hint: the arrival rate over the last two windows of 25 ms each (the
 * hint moves every 25 ms; 50 ms is longer than an lcore's usual stall and
 * the pipes' 20 ms catch-up after it, so that a stall and the burst after
 * it average out: a burst that closes one window lands in the next). A window over
 * twice as long held a pause (the sender had nothing to send): not a
 * sample, and the next hint is of one window.
 */
static void
rate_sample(struct dfcp_conn *c, uint64_t now)
{
	uint64_t dt = now - c->rate_t0;
	uint32_t n = c->rx_pkts - c->rate_n0;

	if (dt < RATE_WIN_NS)
		return;
	if (dt < 2 * RATE_WIN_NS) {
		c->rate_pps = (uint64_t)(n + c->rate_prev_n) * NS / (dt + c->rate_prev_dt);
		c->rate_prev_n = n;
		c->rate_prev_dt = dt;
	} else {
		c->rate_prev_n = 0;
		c->rate_prev_dt = 0;
	}
	c->rate_t0 = now;
	c->rate_n0 = c->rx_pkts;
}

/*
 * A packet of a later round than the current one: the current round is
 * over, unless packets arrive out of order (slack: the largest displacement
 * seen lately), in which case it stays pending until a packet slack past
 * its end arrives, and keeps counting its late packets meanwhile.
 */
static void
round_next(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint32_t start, uint32_t end)
{
	struct rx_round *r = &c->rr, *p = &c->rp;

	if (p->open)
		round_end(c, p, DFCP_END_NEXT);
	if (r->valid && r->open) {
		*p = *r;
		if (c->slack == 0 || (int32_t)(pkt->u.data.seq - (p->end + c->slack)) >= 0)
			round_end(c, p, DFCP_END_NEXT);
	}
	r->start = start;
	r->end = end;
	r->block = pkt->u.data.block;
	r->rcvd = 1;
	r->open = 1;
	r->valid = 1;
	r->idled = 0;
}

/*
 * A DATA packet with a round header, before its symbol is used: the
 * anti-replay window (DFCP_SEQ_*: only a new seq goes on), the counters of
 * the report, the pace, and the end of the previous round when this one
 * starts a later round. Seqs start at 0 (the sender's first DATA).
 */
int
dfcp_round_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint32_t s = pkt->u.data.seq, start = s - pkt->u.data.rpos;
	uint32_t end = start + pkt->u.data.rlen;
	struct rx_round *r = &c->rr;
	int rc;

	if (!c->seq_seen) {
		c->seq_seen = 1;
		c->rate_t0 = now;
		c->rate_n0 = 0;
	}
	rc = seq_check(c, s);
	if (rc != DFCP_SEQ_NEW)
		return rc;
	c->rx_pkts++;
	if (c->p.flags & DFCP_F_RHINT)
		rate_sample(c, now);
	if (r->valid && start == r->start && end == r->end && pkt->u.data.block == r->block) {
		/* the round being received (or one that ended idle: it goes on) */
		if (now > c->last_data && now - c->last_data < GAP_MAX_NS) {
			uint64_t gap = now - c->last_data;

			if (c->gap_ewma == 0)
				c->gap_ewma = gap << GAP_SHIFT;	/* the first sample */
			else
				c->gap_ewma += gap - (c->gap_ewma >> GAP_SHIFT);
			if (gap > c->pause_ns)
				c->pause_ns = gap;
		}
		if (r->idled) {
			r->idled = 0;
			c->st.rounds_resumed++;
		}
		r->rcvd++;
		r->open = 1;
	} else if (!r->valid || (int32_t)(start - r->start) > 0) {
		round_next(c, pkt, start, end);
	} else if (c->rp.open && start == c->rp.start && end == c->rp.end) {
		c->rp.rcvd++;	/* a late packet of the pending round */
	}
	if (c->rp.open && (int32_t)(s - (c->rp.end + c->slack)) >= 0)
		round_end(c, &c->rp, DFCP_END_NEXT);
	if (now > c->last_data)
		c->last_data = now;
	if (r->open) {
		c->idle_len = idle_time(c, (uint32_t)(r->end - 1 - s));
		c->idle_at = now + c->idle_len;
		c->idle_late = 0;
	}
	return 0;
}

/* After the symbol went to its block: the round's last packet ends it. */
void
dfcp_round_after(struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	struct rx_round *r = &c->rr;

	if (r->open && pkt->u.data.rpos + 1u == pkt->u.data.rlen &&
			pkt->u.data.seq - pkt->u.data.rpos == r->start)
		round_end(c, r, DFCP_END_LAST);
}

/*
 * The open round's idle time is over. A receiver that polls (busy-polling:
 * every few microseconds) notices that at once; noticed more than LATE_NS
 * late, its lcore was not running (descheduled, or a router on the same
 * lcore took the time): the round's packets may be waiting in the receive
 * queue, so the idle time starts again now, once: a second late end is
 * trusted (an lcore slower than LATE_NS a poll, e.g. 4096 receivers, started
 * every round's idle time again and again, each time a visit to the
 * connection, and fell further behind; doc/protocol.md, "Round ends").
 */
void
dfcp_round_timer(struct dfcp_conn *c, uint64_t now)
{
	if (c->idle_at == 0 || now < c->idle_at)
		return;
	if (now - c->idle_at > LATE_NS && !c->idle_late) {
		c->idle_at = now + c->idle_len;
		c->idle_late = 1;
		c->st.rounds_late++;
		return;
	}
	if (c->rp.open)
		round_end(c, &c->rp, DFCP_END_IDLE);
	if (c->rr.open)
		round_end(c, &c->rr, DFCP_END_IDLE);
}

uint64_t
dfcp_round_deadline(const struct dfcp_conn *c)
{
	return c->rr.open ? c->idle_at : 0;
}

/* The loss report of a BLOCK-ACK about to be built. */
void
dfcp_round_fill(const struct dfcp_conn *c, struct dfcp_pkt *pkt)
{
	if (!(c->p.flags & DFCP_F_XR))
		return;
	pkt->flags |= DFCP_F_RPT;
	pkt->u.back.rx_pkts = c->rx_pkts;
	pkt->u.back.seq_next = c->seq_next;
	pkt->u.back.rnd_seq = c->rpt_end != DFCP_END_NONE ? c->rpt_seq : 0;
	pkt->u.back.rnd_len = c->rpt_end != DFCP_END_NONE ? c->rpt_len : 0;
	pkt->u.back.rnd_rcvd = c->rpt_end != DFCP_END_NONE ? (uint16_t)c->rpt_rcvd : 0;
	pkt->u.back.rnd_end = c->rpt_end;
	pkt->u.back.rate = (c->p.flags & DFCP_F_RHINT) ?
		(uint32_t)(c->rate_pps > UINT32_MAX ? UINT32_MAX : c->rate_pps) : 0;
}
