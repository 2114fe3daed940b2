/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP input of a synchronized connection (called from tcp_conn_rx): ACK
 * processing by concern (acceptability, window update, RTT samples, SACK
 * blocks, snd_una advance, new data vs duplicate ACKs, the module's
 * callbacks; recovery itself is in tcp_recov.c, the scoreboard in
 * tcp_sack.c); data reception: reassembly, in-order delivery, out-of-order
 * blocks for SACK, delayed ACKs, TCPW-C ACK pairs, the peer's FIN.
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define RENEG_WAIT_NS	10000000ull	/* reneging: RTO after max(SRTT / 2, this) */

/* ------------------------------------------------------------------ */
/* ACK processing                                                       */
/* ------------------------------------------------------------------ */

/* RFC 5961 / RFC 793 acceptability: 1 to process, 0 to ignore (an old
 * ACK), or -TCP_E_ACK to drop. */
static int
ack_acceptable(struct tcp_conn *c, uint32_t ack, uint64_t now)
{
	if (TCP_SEQ_GT(ack, c->snd_max)) {
		if (tcp_challenge_ok(c, now))
			c->ack_now = 1;
		return -TCP_E_ACK;
	}
	if (TCP_SEQ_LT(ack, c->snd_una - (65535u << c->snd_wscale)))
		return -TCP_E_ACK;	/* RFC 5961 section 5 */
	if (TCP_SEQ_LT(ack, c->snd_una))
		return 0;		/* old ACK: ignore, keep the data */
	return 1;
}

/* Window update (RFC 793 SND.WL1 / SND.WL2). */
static void
ack_window(struct tcp_conn *c, const struct tcp_seg *s)
{
	if (TCP_SEQ_LT(c->snd_wl1, s->seq) ||
			(c->snd_wl1 == s->seq && TCP_SEQ_LEQ(c->snd_wl2, s->ack))) {
		c->snd_wnd = (uint32_t)s->wnd << c->snd_wscale;
		c->snd_wl1 = s->seq;
		c->snd_wl2 = s->ack;
	}
}

/* RTT from the timestamp echo, else from the timed segment (Karn): fills
 * the delay / RTT / TSval fields of a and feeds the RFC 6298 estimator. */
static void
ack_rtt(struct tcp_conn *c, const struct tcp_seg *s, struct tcp_cc_ack *a, uint64_t now)
{
	if (c->ts_ok && (s->opts & TCP_O_TS) && s->tsecr) {
		uint64_t d = ((uint64_t)(uint32_t)(tcp_ts_now(now) - s->tsecr)) * NS_PER_US;

		a->tsval = s->tsval;
		a->has_tsval = 1;
		if (d < 600000000000ull) {
			a->delay_ns = d ? d : 1;
			if (a->acked)
				a->rtt_ns = a->delay_ns;
		}
	} else if (c->rtt_timing && TCP_SEQ_GT(a->ack, c->rtt_seq)) {
		a->rtt_ns = now - c->rtt_ts;
		if (a->rtt_ns == 0)
			a->rtt_ns = 1;
		c->rtt_timing = 0;
	}
	if (a->rtt_ns)
		tcp_rtt_sample(c, a->rtt_ns);
}

/* The segment's SACK blocks: into RACK's segment records (with RACK), else
 * into the scoreboard; newly SACKed bytes. A first block below the
 * cumulative ACK or inside the second is a D-SACK (RFC 2883): into *dsack
 * (end == start if none). */
static uint32_t
ack_sack(struct tcp_conn *c, const struct tcp_seg *s, struct tcp_sack_blk *dsack, uint64_t now)
{
	struct tcp_sack_blk blk[TCP_MAX_SACK];
	uint32_t n = 0, sacked = 0;

	dsack->start = dsack->end = 0;
	if (c->sack_ok && (s->opts & TCP_O_SACK)) {
		for (uint32_t i = 0; i < s->nsack && i < TCP_MAX_SACK; i++) {
			const struct tcp_sack_blk *b = &s->sack[i];
			uint32_t k = n;

			if (!TCP_SEQ_LT(b->start, b->end) || TCP_SEQ_GT(b->end, c->snd_max) ||
					b->end - b->start > (1u << 30))
				continue;	/* bogus */
			if (i == 0 && (TCP_SEQ_LEQ(b->end, s->ack) || (s->nsack > 1 &&
					TCP_SEQ_GEQ(b->start, s->sack[1].start) &&
					TCP_SEQ_LEQ(b->end, s->sack[1].end)))) {
				*dsack = *b;
				c->st.dsack_rx++;
				continue;
			}
			if (TCP_SEQ_LEQ(b->end, s->ack))
				continue;
			c->st.sack_blocks_rx++;
			/* sorted by start */
			while (k > 0 && TCP_SEQ_GT(blk[k - 1].start, b->start)) {
				blk[k] = blk[k - 1];
				k--;
			}
			blk[k] = *b;
			n++;
		}
	}
	if (c->rack_on)
		return tcp_rack_update(&c->rk, s->ack, blk, n, now,
				c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns);
	if (c->rate_on)	/* the records for the rate samples only */
		tcp_rack_update(&c->rk, s->ack, NULL, 0, now, 0);
	for (uint32_t i = 0; i < n; i++)
		sacked += tcp_sb_add(c, blk[i].start, blk[i].end);
	return sacked;
}

/* snd_una moves to ack: the send buffer, the scoreboard (with the
 * reneging check), the RTO backoff. */
static void
ack_advance(struct tcp_conn *c, uint32_t ack, uint32_t acked)
{
	uint32_t buffered_acked = tcp_min32(acked, c->snd_buffered);

	c->snd_buffered -= buffered_acked;
	c->st.bytes_acked += buffered_acked;
	c->snd_una = ack;
	if (TCP_SEQ_LT(c->snd_nxt, c->snd_una))
		c->snd_nxt = c->snd_una;
	if (TCP_SEQ_LT(c->high_rxt, c->snd_una))
		c->high_rxt = c->snd_una;
	tcp_sb_trim(c);
	if (!c->rack_on && c->nsb && c->sb[0].start == c->snd_una) {
		/* the ACK stops where SACKed data begins: the receiver
		 * reneged (or the SACK was bogus); forget the marks */
		c->nsb = 0;
	}
	c->backoffs = 0;
	tcp_rto_update(c);	/* the backoff ends */
}

/* New data acked: recovery progress or exit, else congestion avoidance;
 * the retransmission and probe timers. */
static void
ack_new_data(struct tcp_conn *c, struct tcp_cc_ack *a, uint32_t lost, uint64_t now)
{
	ack_advance(c, a->ack, a->acked);
	tcp_cc_sync(c, c->snd_max - c->snd_una);
	if (c->in_rec) {
		if (TCP_SEQ_GEQ(a->ack, c->recover) || c->rec_mode == TCP_REC_RENO) {
			tcp_exit_recovery(c, now);
		} else {
			/* partial ACK */
			if (c->rec_mode == TCP_REC_NEWRENO)
				c->rtx_pending = 1;
			if (c->rec_mode == TCP_REC_NEWRENO && c->ops->cong_control == NULL) {
				c->cc.cwnd = c->cc.cwnd > a->acked ? c->cc.cwnd - a->acked : 0;
				if (a->acked >= c->smss)
					c->cc.cwnd += c->smss;
			}
			if (c->rec_mode == TCP_REC_SACK)
				tcp_prr_update(c, a->acked + a->sacked, lost == 0);
			if (c->ops->on_partial_ack != NULL)
				c->ops->on_partial_ack(&c->cc, a);
			tcp_apply_cap(c);
			tcp_trace(c, now, TCP_TR_PARTIAL);
		}
	} else {
		c->dupacks = 0;
		if (c->ops->cong_control == NULL)
			c->ops->cong_avoid(&c->cc, a);
		tcp_apply_cap(c);
		tcp_trace(c, now, TCP_TR_ACK);
	}
	if (c->snd_max != c->snd_una)
		tcp_arm_rto(c, now);
	else
		c->rto_at = 0;
	if (c->rack_on && tcp_rack_reneged(&c->rk)) {
		/* the ACK stops at a segment the receiver had SACKed: it
		 * reneged (RFC 2018 section 8). As Linux, give it a moment
		 * (max(SRTT / 2, 10 ms)) to deliver, then the RTO forgets
		 * the SACK marks and resends */
		c->rto_at = now + tcp_max64(c->srtt / 2, RENEG_WAIT_NS);
		c->rk.tlp_at = 0;
		return;
	}
	if (c->rack_on)
		tcp_tlp_arm(c, now);
}

/* A duplicate ACK (or, with SACK recovery, one that SACKs new data):
 * Reno inflation, PRR, or the classic fast-retransmit trigger. */
static void
ack_dup(struct tcp_conn *c, uint32_t sacked, uint64_t now)
{
	c->dupacks++;
	c->st.dupacks_rx++;
	if (c->in_rec) {
		if (c->rec_mode == TCP_REC_RENO || c->rec_mode == TCP_REC_NEWRENO) {
			if (c->ops->cong_control == NULL)
				c->cc.cwnd += c->smss;	/* inflation */
			tcp_trace(c, now, TCP_TR_DUPACK);
		} else {
			tcp_prr_update(c, sacked, 0);
		}
	} else if (!c->rack_on && (TCP_SEQ_GT(c->snd_una, c->recover) || !c->ever_rec)) {
		int lost = c->dupacks == c->conf.dupthresh;

		if (c->rec_mode == TCP_REC_SACK && c->sack_ok && !lost)
			lost = c->dupacks < c->conf.dupthresh &&
				TCP_SEQ_GT(tcp_sb_lost_edge(c), c->snd_una);
		if (lost) {
			tcp_enter_recovery(c, now);
			if (c->rec_mode == TCP_REC_SACK)
				tcp_prr_update(c, sacked, 0);
		}
	}
}

/* Bytes in the network: RACK's pipe where the records are kept. */
static uint32_t
conn_pipe(const struct tcp_conn *c)
{
	return c->rack_on || c->rate_on ? tcp_rack_pipe(&c->rk) : c->snd_max - c->snd_una;
}

/* A module owning cwnd (cong_control): the ACK's delivery-rate sample. */
static void
ack_cong_control(struct tcp_conn *c, const struct tcp_cc_ack *a, uint32_t prior_pipe,
		uint32_t lost, uint64_t now)
{
	struct tcp_rate_sample rs;

	memset(&rs, 0, sizeof(rs));
	rs.prior_in_flight = prior_pipe;
	rs.losses = lost;
	if (c->rate_on)
		tcp_rate_gen(&c->rk.rate, now,
				c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns, &rs);
	rs.in_flight = conn_pipe(c);
	tcp_cc_sync(c, rs.in_flight);
	c->ops->cong_control(&c->cc, a, &rs);
	if (c->cc.app_limited && c->rate_on)
		tcp_rate_app_limited(&c->rk.rate, rs.in_flight);
	c->cc.app_limited = 0;
	tcp_apply_cap(c);
}

/* ACK processing for synchronized states. Returns 0, or -TCP_E_* when
 * the segment must be dropped. */
int
tcp_process_ack(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_cc_ack a;
	int pair = (s->rsv & TCP_RSV_PAIR) == TCP_RSV_PAIR;
	uint32_t old_wnd = c->snd_wnd;
	int r = ack_acceptable(c, s->ack, now);
	uint32_t lost = 0, prior_pipe;
	struct tcp_sack_blk dsack;

	if (r <= 0)
		return r;
	prior_pipe = conn_pipe(c);
	ack_window(c, s);
	memset(&a, 0, sizeof(a));
	a.now = now;
	a.ack = s->ack;
	a.acked = s->ack - c->snd_una;
	a.frame_len = s->frame_len;
	a.pair = (uint8_t)pair;
	if (pair)
		c->st.pair_acks_rx++;
	ack_rtt(c, s, &a, now);
	a.sacked = ack_sack(c, s, &dsack, now);
	if (c->rack_on) {
		if (dsack.start != dsack.end)
			tcp_rack_dsack(&c->rk, now, c->srtt);
		tcp_tlp_ack(c, a.ack, a.acked, a.sacked, &dsack, now);
		if (c->rk.advanced)
			lost = tcp_rack_mark(c, a.ack, now);
	}
	a.dup = !pair && a.acked == 0 && s->len == 0 &&
		!(s->flags & (TCP_FL_SYN | TCP_FL_FIN)) &&
		c->snd_max != c->snd_una && ((uint32_t)s->wnd << c->snd_wscale) == old_wnd;
	tcp_cc_sync(c, c->snd_max - c->snd_una);
	if (c->ops->on_ack != NULL)
		c->ops->on_ack(&c->cc, &a);
	if (a.acked)
		ack_new_data(c, &a, lost, now);
	else if (a.dup || (a.sacked && c->rec_mode == TCP_REC_SACK && !pair))
		ack_dup(c, a.sacked, now);
	if (c->rack_on) {
		tcp_undo_ack(c, s, a.acked, &dsack, now);
		tcp_rack_recover(c, now, a.sacked);
	}
	if (c->ops->cong_control != NULL)
		ack_cong_control(c, &a, prior_pipe, lost, now);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Data reception                                                       */
/* ------------------------------------------------------------------ */

/* Store payload [seq, seq+len) at its place in the receive ring. */
static void
rcv_store(struct tcp_conn *c, uint32_t seq, const uint8_t *p, uint32_t len)
{
	uint32_t mask = c->rcvbuf_size - 1;
	uint32_t i = (seq - c->irs - 1) & mask;
	uint32_t first = tcp_min32(len, c->rcvbuf_size - i);

	memcpy(c->rcvbuf + i, p, first);
	if (first < len)
		memcpy(c->rcvbuf, p + first, len - first);
}

static void
rcv_deliver(struct tcp_conn *c, uint32_t from, uint32_t to)
{
	uint32_t mask = c->rcvbuf_size - 1, len = to - from;
	uint32_t i = (from - c->irs - 1) & mask;
	uint32_t first = tcp_min32(len, c->rcvbuf_size - i);

	if (c->conf.sink != NULL) {
		c->conf.sink(c->conf.sink_ctx, c->rcv_off, c->rcvbuf + i, first);
		if (first < len)
			c->conf.sink(c->conf.sink_ctx, c->rcv_off + first, c->rcvbuf,
					len - first);
	}
	c->rcv_off += len;
	c->st.bytes_delivered += len;
}

static void
rcv_fin(struct tcp_conn *c, uint64_t now)
{
	c->rcv_nxt++;
	c->fin_rcvd = 1;
	c->rfin_pending = 0;
	c->ack_now = 1;
	switch (c->state) {
	case TCP_ESTABLISHED:
		c->state = TCP_CLOSE_WAIT;
		break;
	case TCP_FIN_WAIT1:
		if (tcp_fin_acked(c))
			tcp_time_wait(c, now);
		else
			c->state = TCP_CLOSING;
		break;
	case TCP_FIN_WAIT2:
		tcp_time_wait(c, now);
		break;
	default:
		break;
	}
}

/* Data and FIN of an acceptable segment. */
void
tcp_process_data(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	uint32_t seq = s->seq, len = s->len, end;
	const uint8_t *p = s->payload;
	uint32_t wnd_end = c->rcv_nxt + c->rcvbuf_size;
	int fin = (s->flags & TCP_FL_FIN) != 0;

	if (c->fin_rcvd) {
		if (fin || len)
			c->ack_now = 1;	/* retransmitted FIN / data after FIN */
		return;
	}
	if (len == 0 && !fin)
		return;
	c->st.rx_data_pkts += len ? 1 : 0;
	c->st.rx_data_bytes += len;
	if (TCP_SEQ_LT(seq, c->rcv_nxt)) {
		uint32_t cut = tcp_min32(c->rcv_nxt - seq, len);

		tcp_rcv_dsack(c, seq, seq + cut);	/* the part we had */
		seq += cut;
		p += cut;
		len -= cut;
	}
	if (TCP_SEQ_GT(seq + len, wnd_end)) {
		len = TCP_SEQ_GT(wnd_end, seq) ? wnd_end - seq : 0;
		fin = 0;
	}
	end = seq + len;
	if (len == 0 && !(fin && seq == c->rcv_nxt)) {
		if (fin && TCP_SEQ_GT(seq, c->rcv_nxt)) {
			c->rfin_pending = 1;
			c->rfin_seq = seq;
		}
		c->st.dup_data_pkts++;
		c->ack_now = 1;
		return;
	}
	if (len > c->rcv_mss)
		c->rcv_mss = len;
	if (seq == c->rcv_nxt) {
		uint32_t from = c->rcv_nxt;
		int filled = c->nooo > 0;

		if (len)
			rcv_store(c, seq, p, len);
		c->rcv_nxt = end;
		while (c->nooo && TCP_SEQ_LEQ(c->ooo[0].start, c->rcv_nxt)) {
			if (TCP_SEQ_GT(c->ooo[0].end, c->rcv_nxt))
				c->rcv_nxt = c->ooo[0].end;
			memmove(&c->ooo[0], &c->ooo[1], (c->nooo - 1) * sizeof(c->ooo[0]));
			c->nooo--;
		}
		if (c->rcv_nxt != from)
			rcv_deliver(c, from, c->rcv_nxt);
		if (fin)
			rcv_fin(c, now);
		else if (c->rfin_pending && c->rcv_nxt == c->rfin_seq)
			rcv_fin(c, now);
		if (filled) {
			c->ack_now = 1;
		} else if (len >= c->rcv_mss || len >= c->smss) {
			c->unacked_segs++;
			if (c->pair_acks && c->ts_ok && (s->opts & TCP_O_TS)) {
				if (c->pair_n == 2) {
					c->pair_rx[0] = c->pair_rx[1];
					c->pair_tsv[0] = c->pair_tsv[1];
					c->pair_n = 1;
				}
				c->pair_rx[c->pair_n] = tcp_ts_now(now);
				c->pair_tsv[c->pair_n] = s->tsval;
				c->pair_n++;
			}
			if (c->pair_acks) {
				/* TCPW-C: two full segments -> an ACK pair */
				if (c->unacked_segs >= 2)
					c->pair_now = 1;
			} else if (c->unacked_segs >= c->conf.delack_count) {
				c->ack_now = 1;
			}
		}
		if (!c->ack_now && !c->pair_now && c->delack_at == 0)
			c->delack_at = now + c->conf.delack_ns;
		return;
	}
	/* out of order */
	c->st.ooo_pkts++;
	if (len) {
		rcv_store(c, seq, p, len);
		if (!tcp_ooo_add(c, seq, end)) {
			c->st.dup_data_pkts++;
			tcp_rcv_dsack(c, seq, end);
		}
		c->last_ooo = seq;
	}
	if (fin) {
		c->rfin_pending = 1;
		c->rfin_seq = end;
	}
	c->ack_now = 1;
}
