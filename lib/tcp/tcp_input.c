/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP input of a synchronized connection (called from tcp_conn_rx): ACK
 * processing (window update, RTT samples, the module's callbacks), the
 * sender's SACK scoreboard (RFC 6675 IsLost / pipe / NextSeg), fast
 * retransmit / recovery per the module's recovery kind with RFC 6937 PRR,
 * the RACK-TLP hooks (loss marking, reorder timer, probe ACKs); data
 * reception: reassembly, in-order delivery, out-of-order blocks for SACK,
 * delayed ACKs, TCPW-C ACK pairs, the peer's FIN.
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

/* ------------------------------------------------------------------ */
/* Sender scoreboard (SACK)                                             */
/* ------------------------------------------------------------------ */

static void
sb_trim(struct tcp_conn *c)
{
	uint32_t i = 0, j = 0;

	for (; i < c->nsb; i++) {
		if (TCP_SEQ_LEQ(c->sb[i].end, c->snd_una))
			continue;
		if (TCP_SEQ_LT(c->sb[i].start, c->snd_una))
			c->sb[i].start = c->snd_una;
		c->sb[j++] = c->sb[i];
	}
	c->nsb = j;
}

/* Add [s, e); returns the number of newly SACKed bytes. */
static uint32_t
sb_add(struct tcp_conn *c, uint32_t s, uint32_t e)
{
	uint32_t i, newly, covered = 0;

	if (TCP_SEQ_LT(s, c->snd_una))
		s = c->snd_una;
	if (TCP_SEQ_GT(e, c->snd_max))
		e = c->snd_max;
	if (!TCP_SEQ_LT(s, e))
		return 0;
	newly = e - s;
	/* bytes already covered */
	for (i = 0; i < c->nsb; i++) {
		uint32_t a = TCP_SEQ_GT(c->sb[i].start, s) ? c->sb[i].start : s;
		uint32_t b = TCP_SEQ_LT(c->sb[i].end, e) ? c->sb[i].end : e;

		if (TCP_SEQ_LT(a, b))
			covered += b - a;
	}
	newly -= covered;
	/* merge overlapping / adjacent blocks into [s, e) */
	for (i = 0; i < c->nsb;) {
		if (TCP_SEQ_LEQ(c->sb[i].start, e) && TCP_SEQ_GEQ(c->sb[i].end, s)) {
			if (TCP_SEQ_LT(c->sb[i].start, s))
				s = c->sb[i].start;
			if (TCP_SEQ_GT(c->sb[i].end, e))
				e = c->sb[i].end;
			memmove(&c->sb[i], &c->sb[i + 1], (c->nsb - i - 1) * sizeof(c->sb[0]));
			c->nsb--;
		} else {
			i++;
		}
	}
	/* insert sorted; when full, drop the highest block (advisory data) */
	for (i = 0; i < c->nsb && TCP_SEQ_LT(c->sb[i].start, s); i++)
		;
	if (c->nsb == SB_MAX) {
		if (i == SB_MAX)
			return newly;
		c->nsb--;
	}
	memmove(&c->sb[i + 1], &c->sb[i], (c->nsb - i) * sizeof(c->sb[0]));
	c->sb[i].start = s;
	c->sb[i].end = e;
	c->nsb++;
	return newly;
}

/* Highest point below which unSACKed data is deemed lost (RFC 6675
 * IsLost: DupThresh * SMSS bytes SACKed above). snd_una if none. */
static uint32_t
sb_lost_edge(const struct tcp_conn *c)
{
	uint32_t need = c->conf.dupthresh * c->smss, cum = 0;

	for (int i = (int)c->nsb - 1; i >= 0; i--) {
		uint32_t len = c->sb[i].end - c->sb[i].start;

		if (cum + len >= need)
			return c->sb[i].end - (need - cum);
		cum += len;
	}
	return c->snd_una;
}

/* RFC 6675 pipe: unSACKed bytes not deemed lost, plus retransmitted ones. */
static uint32_t
sb_pipe(const struct tcp_conn *c)
{
	uint32_t edge = sb_lost_edge(c), pipe = 0, pos = c->snd_una;

	for (uint32_t i = 0; i <= c->nsb; i++) {
		uint32_t he = i < c->nsb ? c->sb[i].start : c->snd_max;

		/* hole [pos, he) */
		if (TCP_SEQ_LT(pos, he)) {
			uint32_t lost_end = TCP_SEQ_LT(edge, he) ? edge : he;

			if (TCP_SEQ_LT(pos, lost_end)) {
				uint32_t rx_end = TCP_SEQ_LT(c->high_rxt, lost_end) ?
					c->high_rxt : lost_end;

				if (TCP_SEQ_LT(pos, rx_end))
					pipe += rx_end - pos;
				pipe += he - lost_end;
			} else {
				pipe += he - pos;
			}
		}
		if (i < c->nsb)
			pos = c->sb[i].end;
	}
	return pipe;
}

/* NextSeg rule 1: first lost, not yet retransmitted byte; 0 if none. */
int
tcp_sb_next_lost(const struct tcp_conn *c, uint32_t *seq, uint32_t *len)
{
	uint32_t edge = sb_lost_edge(c), pos = c->snd_una;

	for (uint32_t i = 0; i < c->nsb; i++) {
		uint32_t hs = TCP_SEQ_GT(c->high_rxt, pos) ? c->high_rxt : pos;
		uint32_t he = c->sb[i].start;

		if (TCP_SEQ_GT(he, edge))
			he = edge;
		if (TCP_SEQ_LT(hs, he)) {
			*seq = hs;
			*len = tcp_min32(he - hs, c->smss);
			return 1;
		}
		pos = c->sb[i].end;
		if (!TCP_SEQ_LT(pos, edge))
			break;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* ACK processing and recovery                                          */
/* ------------------------------------------------------------------ */

static void
apply_cap(struct tcp_conn *c)
{
	uint32_t cap = c->cc.cwnd_cap;

	if (cap && cap >= 2 * c->smss && c->cc.cwnd > cap)
		c->cc.cwnd = cap;
	if (c->cc.cwnd < c->smss)
		c->cc.cwnd = c->smss;
}

static void
enter_recovery(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una;

	tcp_cc_sync(c, flight);
	c->cc.ssthresh = c->ops->ssthresh(&c->cc, now);
	c->recover = c->snd_max;
	c->ever_rec = 1;
	c->st.fast_retrans++;
	c->cc.ca_acc = 0;
	switch (c->rec_mode) {
	case TCP_REC_NONE:
		/* Tahoe: retransmit and slow start from one segment */
		c->cc.cwnd = c->smss;
		c->snd_nxt = c->snd_una;
		c->high_rxt = c->snd_una;
		break;
	case TCP_REC_RENO:
	case TCP_REC_NEWRENO:
		c->cc.cwnd = c->cc.ssthresh + c->conf.dupthresh * c->smss;
		c->in_rec = 1;
		c->rtx_pending = 1;
		break;
	case TCP_REC_SACK:
		c->cc.cwnd = c->cc.ssthresh;
		c->in_rec = 1;
		c->rtx_pending = !c->rack_on;	/* RACK: what it marked lost */
		c->rk.tlp_at = 0;
		c->high_rxt = c->snd_una;
		c->prr_delivered = 0;
		c->prr_out = 0;
		c->prr_sndcnt = 0;
		c->recover_fs = flight ? flight : 1;
		break;
	}
	c->cc.in_recovery = c->in_rec;
	if (c->rec_mode != TCP_REC_NONE && c->ops->enter_recovery != NULL)
		c->ops->enter_recovery(&c->cc, now);
	apply_cap(c);
	tcp_trace(c, now, TCP_TR_RECOVERY);
}

static void
exit_recovery(struct tcp_conn *c, uint64_t now)
{
	c->in_rec = 0;
	c->dupacks = 0;
	c->cc.cwnd = c->cc.ssthresh;
	c->cc.in_recovery = 0;
	c->cc.ca_acc = 0;
	if (c->ops->exit_recovery != NULL)
		c->ops->exit_recovery(&c->cc, now);
	apply_cap(c);
	tcp_trace(c, now, TCP_TR_EXIT);
}

/* RFC 6937 on each ACK in SACK recovery: how much may be sent now. */
static void
prr_update(struct tcp_conn *c, uint32_t delivered)
{
	uint32_t pipe = c->rack_on ? tcp_rack_pipe(&c->rk) : sb_pipe(c), ss = c->cc.ssthresh;
	int64_t sndcnt;

	c->prr_delivered += delivered;
	if (pipe > ss) {
		sndcnt = (int64_t)(((uint64_t)c->prr_delivered * ss + c->recover_fs - 1) /
			c->recover_fs) - c->prr_out;
	} else {
		/* slow start reduction bound */
		int64_t limit = (int64_t)c->prr_delivered - c->prr_out;

		if (limit < (int64_t)delivered)
			limit = delivered;
		limit += c->smss;
		sndcnt = (int64_t)ss - pipe;
		if (sndcnt > limit)
			sndcnt = limit;
	}
	/* RACK: the fast retransmit goes out on entry (as Linux; the classic
	 * path sends it through rtx_pending) */
	if (c->rack_on && c->prr_out == 0 && sndcnt < (int64_t)c->smss)
		sndcnt = c->smss;
	c->prr_sndcnt = sndcnt > 0 ? sndcnt : 0;
}

/* RACK: mark what is lost now (RFC 8985 6.2 step 5). una: the cumulative
 * ACK being processed. */
static void
rack_mark(struct tcp_conn *c, uint32_t una, uint64_t now)
{
	uint64_t min_rtt = c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns;
	int recovering = c->in_rec || TCP_SEQ_LT(una, c->recover);

	tcp_rack_detect(&c->rk, now, tcp_rack_reo_wnd(&c->rk, recovering,
			c->conf.dupthresh * c->smss, min_rtt, c->srtt));
}

/* Lost data outside recovery starts one (not while the window of an RTO
 * is being resent: as Linux's CA_Loss, that only retransmits). */
static void
rack_recover(struct tcp_conn *c, uint64_t now, uint32_t delivered)
{
	if (c->in_rec || c->rk.lost_b == 0 || TCP_SEQ_LT(c->snd_una, c->recover))
		return;
	enter_recovery(c, now);
	prr_update(c, delivered);
}

/* Reorder timer (RFC 8985 6.3). */
void
tcp_rack_timer(struct tcp_conn *c, uint64_t now)
{
	if (c->rk.reo_at && now >= c->rk.reo_at) {
		uint32_t lost = c->rk.lost_b;

		c->rk.reo_at = 0;
		rack_mark(c, c->snd_una, now);
		if (c->in_rec && c->rk.lost_b > lost)
			prr_update(c, 0);
		rack_recover(c, now, 0);
	}
	if (c->rk.tlp_at && now >= c->rk.tlp_at) {
		c->rk.tlp_at = 0;
		if (!c->in_rec && !c->rk.tlp_out && c->snd_max != c->snd_una)
			c->rk.tlp_pending = 1;
	}
}

/* A probe repaired a loss: one cwnd reduction (RFC 8985 7.4.2). */
static void
tlp_cwr(struct tcp_conn *c, uint64_t now)
{
	tcp_cc_sync(c, c->snd_max - c->snd_una);
	c->cc.ssthresh = c->ops->ssthresh(&c->cc, now);
	c->cc.cwnd = tcp_min32(c->cc.cwnd, c->cc.ssthresh);
	c->cc.ca_acc = 0;
	c->st.tlp_recoveries++;
	apply_cap(c);
	tcp_trace(c, now, TCP_TR_RECOVERY);
}

/* RFC 8985 7.4: the ACK of a probe. Without D-SACK an ACK beyond the
 * probe after a retransmitted probe counts as a repaired loss (Linux's
 * rule without the D-SACK); a pure duplicate means both copies arrived. */
static void
tlp_ack(struct tcp_conn *c, uint32_t ack, uint32_t acked, uint32_t sacked, uint64_t now)
{
	if (!c->rk.tlp_out || TCP_SEQ_LT(ack, c->rk.tlp_high))
		return;
	if (!c->rk.tlp_rtx || (acked == 0 && sacked == 0)) {
		c->rk.tlp_out = 0;
	} else if (TCP_SEQ_GT(ack, c->rk.tlp_high)) {
		c->rk.tlp_out = 0;
		if (!c->in_rec)
			tlp_cwr(c, now);
	}
}

/* ACK processing for synchronized states. Returns 0, or -TCP_E_* when
 * the segment must be dropped. */
int
tcp_process_ack(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_cc_ack a;
	uint32_t ack = s->ack, acked, sacked = 0;
	int pair = (s->rsv & TCP_RSV_PAIR) == TCP_RSV_PAIR;
	uint32_t old_wnd = c->snd_wnd;

	if (TCP_SEQ_GT(ack, c->snd_max)) {
		if (tcp_challenge_ok(c, now))
			c->ack_now = 1;
		return -TCP_E_ACK;
	}
	if (TCP_SEQ_LT(ack, c->snd_una - (65535u << c->snd_wscale)))
		return -TCP_E_ACK;	/* RFC 5961 section 5 */
	if (TCP_SEQ_LT(ack, c->snd_una))
		return 0;		/* old ACK: ignore, keep the data */
	/* window update (RFC 793 SND.WL1 / SND.WL2) */
	if (TCP_SEQ_LT(c->snd_wl1, s->seq) ||
			(c->snd_wl1 == s->seq && TCP_SEQ_LEQ(c->snd_wl2, ack))) {
		c->snd_wnd = (uint32_t)s->wnd << c->snd_wscale;
		c->snd_wl1 = s->seq;
		c->snd_wl2 = ack;
	}
	acked = ack - c->snd_una;
	memset(&a, 0, sizeof(a));
	a.now = now;
	a.ack = ack;
	a.frame_len = s->frame_len;
	a.pair = (uint8_t)pair;
	if (pair)
		c->st.pair_acks_rx++;
	/* RTT */
	if (c->ts_ok && (s->opts & TCP_O_TS) && s->tsecr) {
		uint64_t d = ((uint64_t)(uint32_t)(tcp_ts_now(now) - s->tsecr)) * NS_PER_US;

		a.tsval = s->tsval;
		a.has_tsval = 1;
		if (d < 600000000000ull) {
			a.delay_ns = d ? d : 1;
			if (acked)
				a.rtt_ns = a.delay_ns;
		}
	} else if (c->rtt_timing && TCP_SEQ_GT(ack, c->rtt_seq)) {
		a.rtt_ns = now - c->rtt_ts;
		if (a.rtt_ns == 0)
			a.rtt_ns = 1;
		c->rtt_timing = 0;
	}
	if (a.rtt_ns)
		tcp_rtt_sample(c, a.rtt_ns);
	/* SACK */
	if (c->sack_ok && (s->opts & TCP_O_SACK)) {
		for (uint32_t i = 0; i < s->nsack; i++) {
			const struct tcp_sack_blk *b = &s->sack[i];

			if (!TCP_SEQ_LT(b->start, b->end) || TCP_SEQ_LEQ(b->end, ack) ||
					TCP_SEQ_GT(b->end, c->snd_max) ||
					b->end - b->start > (1u << 30))
				continue;	/* D-SACK or bogus */
			c->st.sack_blocks_rx++;
			sacked += sb_add(c, b->start, b->end);
		}
	}
	a.sacked = sacked;
	if (c->rack_on) {
		tcp_rack_update(&c->rk, ack, c->sb, c->nsb, now,
				c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns);
		tlp_ack(c, ack, acked, sacked, now);
		if (c->rk.advanced)
			rack_mark(c, ack, now);
	}
	a.dup = !pair && acked == 0 && s->len == 0 &&
		!(s->flags & (TCP_FL_SYN | TCP_FL_FIN)) &&
		c->snd_max != c->snd_una && ((uint32_t)s->wnd << c->snd_wscale) == old_wnd;
	a.acked = acked;
	tcp_cc_sync(c, c->snd_max - c->snd_una);
	if (c->ops->on_ack != NULL)
		c->ops->on_ack(&c->cc, &a);
	if (acked) {
		uint32_t buffered_acked;

		buffered_acked = tcp_min32(acked, c->snd_buffered);
		c->snd_buffered -= buffered_acked;
		c->st.bytes_acked += buffered_acked;
		c->snd_una = ack;
		if (TCP_SEQ_LT(c->snd_nxt, c->snd_una))
			c->snd_nxt = c->snd_una;
		if (TCP_SEQ_LT(c->high_rxt, c->snd_una))
			c->high_rxt = c->snd_una;
		sb_trim(c);
		if (c->nsb && c->sb[0].start == c->snd_una) {
			/* the ACK stops where SACKed data begins: the receiver
			 * reneged (or the SACK was bogus); forget the marks */
			c->nsb = 0;
			if (c->rack_on)
				tcp_rack_clear_sacked(&c->rk);
		}
		c->backoffs = 0;
		if (c->srtt)
			c->rto = tcp_max64(c->srtt + tcp_max64(c->conf.tick_ns, 4 * c->rttvar),
					c->conf.rto_min_ns);
		tcp_cc_sync(c, c->snd_max - c->snd_una);
		if (c->in_rec) {
			if (TCP_SEQ_GEQ(ack, c->recover) || c->rec_mode == TCP_REC_RENO) {
				exit_recovery(c, now);
			} else {
				/* partial ACK */
				if (c->rec_mode == TCP_REC_NEWRENO) {
					c->rtx_pending = 1;
					c->cc.cwnd = c->cc.cwnd > acked ? c->cc.cwnd - acked : 0;
					if (acked >= c->smss)
						c->cc.cwnd += c->smss;
				}
				if (c->rec_mode == TCP_REC_SACK)
					prr_update(c, acked + sacked);
				if (c->ops->on_partial_ack != NULL)
					c->ops->on_partial_ack(&c->cc, &a);
				apply_cap(c);
				tcp_trace(c, now, TCP_TR_PARTIAL);
			}
		} else {
			c->dupacks = 0;
			c->ops->cong_avoid(&c->cc, &a);
			apply_cap(c);
			tcp_trace(c, now, TCP_TR_ACK);
		}
		if (c->snd_max != c->snd_una)
			tcp_arm_rto(c, now);
		else
			c->rto_at = 0;
		if (c->rack_on)
			tcp_tlp_arm(c, now);
	} else if (a.dup || (sacked && c->rec_mode == TCP_REC_SACK && !pair)) {
		c->dupacks++;
		c->st.dupacks_rx++;
		if (c->in_rec) {
			if (c->rec_mode == TCP_REC_RENO || c->rec_mode == TCP_REC_NEWRENO) {
				c->cc.cwnd += c->smss;	/* inflation */
				tcp_trace(c, now, TCP_TR_DUPACK);
			} else {
				prr_update(c, sacked);
			}
		} else if (!c->rack_on && (TCP_SEQ_GT(ack, c->recover) || !c->ever_rec)) {
			int lost = c->dupacks == c->conf.dupthresh;

			if (c->rec_mode == TCP_REC_SACK && c->sack_ok && !lost)
				lost = c->dupacks < c->conf.dupthresh &&
					TCP_SEQ_GT(sb_lost_edge(c), c->snd_una);
			if (lost) {
				enter_recovery(c, now);
				if (c->rec_mode == TCP_REC_SACK)
					prr_update(c, sacked);
			}
		}
	}
	if (c->rack_on)
		rack_recover(c, now, sacked);
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

/* Record an out-of-order block; returns 0 if it was already held. */
static int
ooo_add(struct tcp_conn *c, uint32_t s, uint32_t e)
{
	uint32_t i;

	for (i = 0; i < c->nooo; i++)
		if (TCP_SEQ_LEQ(c->ooo[i].start, s) && TCP_SEQ_GEQ(c->ooo[i].end, e))
			return 0;
	for (i = 0; i < c->nooo;) {
		if (TCP_SEQ_LEQ(c->ooo[i].start, e) && TCP_SEQ_GEQ(c->ooo[i].end, s)) {
			if (TCP_SEQ_LT(c->ooo[i].start, s))
				s = c->ooo[i].start;
			if (TCP_SEQ_GT(c->ooo[i].end, e))
				e = c->ooo[i].end;
			memmove(&c->ooo[i], &c->ooo[i + 1], (c->nooo - i - 1) * sizeof(c->ooo[0]));
			c->nooo--;
		} else {
			i++;
		}
	}
	for (i = 0; i < c->nooo && TCP_SEQ_LT(c->ooo[i].start, s); i++)
		;
	if (c->nooo == OOO_MAX) {
		/* no room: forget the highest block (the sender will resend) */
		if (i == OOO_MAX)
			return 1;
		c->nooo--;
	}
	memmove(&c->ooo[i + 1], &c->ooo[i], (c->nooo - i) * sizeof(c->ooo[0]));
	c->ooo[i].start = s;
	c->ooo[i].end = e;
	c->nooo++;
	return 1;
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
		if (!ooo_add(c, seq, end))
			c->st.dup_data_pkts++;
		c->last_ooo = seq;
	}
	if (fin) {
		c->rfin_pending = 1;
		c->rfin_seq = end;
	}
	c->ack_now = 1;
}
