/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Loss recovery of a connection: entering and leaving fast recovery per the
 * module's recovery kind (Tahoe, Reno, NewReno, SACK), RFC 6937 PRR, the
 * RACK-TLP hooks (loss marking, the reorder timer, recovery started by RACK,
 * the ACK of a tail loss probe), the seed-002 cwnd cap.
 */
#include "tcp.h"
#include "tcp_priv.h"

void
tcp_apply_cap(struct tcp_conn *c)
{
	uint32_t cap = c->cc.cwnd_cap;

	if (cap && cap >= 2 * c->smss && c->cc.cwnd > cap)
		c->cc.cwnd = cap;
	if (c->cc.cwnd < c->smss)
		c->cc.cwnd = c->smss;
}

void
tcp_enter_recovery(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una, prior_cwnd = c->cc.cwnd;

	tcp_undo_start(c, 0);
	/* ssthresh from FlightSize (RFC 5681); with RACK at most from cwnd, as
	 * Linux's ssthresh functions (cwnd / 2 for Reno) */
	tcp_cc_sync(c, c->rack_on ? tcp_min32(flight, c->cc.cwnd) : flight);
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
		/* RecoverFS: FlightSize (RFC 6937); Linux: cwnd before */
		c->recover_fs = c->rack_on ? prior_cwnd : flight ? flight : 1;
		break;
	}
	if (c->ops->cong_control != NULL)
		c->cc.cwnd = prior_cwnd;	/* the module keeps cwnd */
	c->cc.in_recovery = c->in_rec;
	if (c->rec_mode != TCP_REC_NONE && c->ops->enter_recovery != NULL)
		c->ops->enter_recovery(&c->cc, now);
	tcp_apply_cap(c);
	tcp_trace(c, now, TCP_TR_RECOVERY);
}

void
tcp_exit_recovery(struct tcp_conn *c, uint64_t now)
{
	if (c->rack_on)
		tcp_rack_recovered(&c->rk);
	c->in_rec = 0;
	c->dupacks = 0;
	if (c->ops->cong_control == NULL)
		c->cc.cwnd = c->cc.ssthresh;
	c->cc.in_recovery = 0;
	c->cc.ca_acc = 0;
	if (c->ops->exit_recovery != NULL)
		c->ops->exit_recovery(&c->cc, now);
	tcp_apply_cap(c);
	tcp_trace(c, now, TCP_TR_EXIT);
}

/*
 * PRR on each ACK in SACK recovery: how much may be sent now. delivered:
 * bytes newly acked or SACKed; safe: the ACK advanced snd_una and revealed
 * no new loss. RFC 6937 below ssthresh allows the slow start reduction
 * bound (SSRB: the delivered data + 1 MSS) on every ACK; with RACK the
 * connection follows Linux's tcp_cwnd_reduction, the rule of RFC 6937's
 * update (RFC 9937): SSRB only on a safe ACK, else the conservative bound
 * (what was delivered), RecoverFS = cwnd before the reduction, and an ACK
 * that delivers nothing leaves the allowance as it was.
 */
void
tcp_prr_update(struct tcp_conn *c, uint32_t delivered, int safe)
{
	uint32_t pipe = c->rack_on ? tcp_rack_pipe(&c->rk) : tcp_sb_pipe(c), ss = c->cc.ssthresh;
	int64_t sndcnt;

	if (c->rack_on && delivered == 0 && c->prr_out)
		return;
	c->prr_delivered += delivered;
	if (pipe > ss) {
		sndcnt = (int64_t)(((uint64_t)c->prr_delivered * ss + c->recover_fs - 1) /
			c->recover_fs) - c->prr_out;
	} else {
		/* slow start reduction bound (RACK: on safe ACKs only) */
		int64_t limit = (int64_t)c->prr_delivered - c->prr_out;

		if (limit < (int64_t)delivered)
			limit = delivered;
		if (!c->rack_on || safe)
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
uint32_t
tcp_rack_mark(struct tcp_conn *c, uint32_t una, uint64_t now)
{
	uint64_t min_rtt = c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns;
	int recovering = c->in_rec || TCP_SEQ_LT(una, c->recover);
	uint32_t lost = tcp_rack_detect(&c->rk, now, tcp_rack_reo_wnd(&c->rk, recovering,
			c->conf.dupthresh * c->smss, min_rtt, c->srtt));

	return lost;
}

/* Lost data outside recovery starts one. While the window of an RTO is
 * being resent (Linux's CA_Loss) only a lost retransmission does, as
 * Linux's FLAG_LOST_RETRANS: a second reduction, PRR from the window slow
 * start had regrown since the RTO. */
void
tcp_rack_recover(struct tcp_conn *c, uint64_t now, uint32_t delivered)
{
	if (c->in_rec || c->rk.lost_b == 0)
		return;
	if (TCP_SEQ_LT(c->snd_una, c->recover) && !c->rk.lost_rtx)
		return;
	c->rk.lost_rtx = 0;
	tcp_enter_recovery(c, now);
	tcp_prr_update(c, delivered, 0);
}

/* Reorder timer (RFC 8985 6.3). */
void
tcp_rack_timer(struct tcp_conn *c, uint64_t now)
{
	if (c->rk.reo_at && now >= c->rk.reo_at) {
		uint32_t lost = c->rk.lost_b;

		c->rk.reo_at = 0;
		tcp_rack_mark(c, c->snd_una, now);
		if (c->in_rec && c->rk.lost_b > lost)
			tcp_prr_update(c, 0, 0);
		tcp_rack_recover(c, now, 0);
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
	tcp_apply_cap(c);
	tcp_trace(c, now, TCP_TR_RECOVERY);
}

/* RFC 8985 7.4: the ACK of a probe. A D-SACK of a retransmitted probe
 * means both copies arrived: no loss (Linux's FLAG_DSACK_TLP); without one
 * an ACK beyond the probe after a retransmitted probe counts as a repaired
 * loss; a pure duplicate means both copies arrived. */
void
tcp_tlp_ack(struct tcp_conn *c, uint32_t ack, uint32_t acked, uint32_t sacked,
		const struct tcp_sack_blk *dsack, uint64_t now)
{
	if (!c->rk.tlp_out || TCP_SEQ_LT(ack, c->rk.tlp_high))
		return;
	if (!c->rk.tlp_rtx || (acked == 0 && sacked == 0) ||
			(dsack->start != dsack->end && TCP_SEQ_GEQ(dsack->end, c->rk.tlp_high))) {
		c->rk.tlp_out = 0;
	} else if (TCP_SEQ_GT(ack, c->rk.tlp_high)) {
		c->rk.tlp_out = 0;
		if (!c->in_rec)
			tlp_cwr(c, now);
	}
}

/* ------------------------------------------------------------------ */
/* Undo of spurious reductions (RACK connections, as Linux)             */
/* ------------------------------------------------------------------ */

/* A recovery (or, loss, an RTO) begins: remember what to restore. */
void
tcp_undo_start(struct tcp_conn *c, int loss)
{
	if (!c->rack_on)
		return;
	c->undo_on = 1;
	c->undo_loss = (uint8_t)loss;
	c->undo_marker = c->snd_una;
	c->undo_retrans = 0;
	c->undo_rtx = 0;
	c->retrans_stamp = 0;
	c->prior_cwnd = c->cc.cwnd;
	/* Linux's tcp_current_ssthresh: at least 3/4 of the window */
	c->prior_ssthresh = tcp_max32(c->cc.ssthresh, c->cc.cwnd / 4 * 3);
}

void
tcp_undo_rtx(struct tcp_conn *c, uint64_t now)
{
	if (!c->undo_on)
		return;
	c->undo_retrans++;
	c->undo_rtx++;
	if (c->retrans_stamp == 0)
		c->retrans_stamp = tcp_ts_now(now) ? tcp_ts_now(now) : 1;
}

static void
undo(struct tcp_conn *c, uint64_t now)
{
	c->cc.cwnd = tcp_max32(c->cc.cwnd, c->prior_cwnd);
	c->cc.ssthresh = tcp_max32(c->cc.ssthresh, c->prior_ssthresh);
	c->cc.ca_acc = 0;
	if (c->in_rec) {
		c->in_rec = 0;
		c->dupacks = 0;
		c->cc.in_recovery = 0;
	}
	if (c->undo_loss && TCP_SEQ_LT(c->snd_una, c->recover)) {
		/* a spurious RTO: what it marked lost was not (Linux's
		 * tcp_undo_cwnd_reduction(unmark_loss)); RACK re-marks real
		 * losses */
		tcp_rack_unmark_lost(&c->rk);
		c->snd_nxt = c->snd_max;
	}
	if (TCP_SEQ_LT(c->snd_una, c->recover))
		c->recover = c->snd_una;
	c->undo_on = 0;
	c->rk.advanced = 1;
	c->st.undos++;
	tcp_apply_cap(c);
	tcp_trace(c, now, TCP_TR_EXIT);
}

/*
 * After each ACK: was the episode's reduction spurious? Every retransmission
 * D-SACKed (RFC 2883, RFC 3708: both copies arrived), or, with timestamps,
 * an ACK that covers the first retransmitted segment echoes a TSval older
 * than that retransmission (Eifel, RFC 3522; the response of RFC 4015:
 * restore cwnd and ssthresh). As Linux's undo_marker, the episode can be
 * undone after its recovery ended too (the D-SACK of a retransmission comes
 * after the ACK of the late original), until the next one begins.
 */
void
tcp_undo_ack(struct tcp_conn *c, const struct tcp_seg *s, uint32_t acked,
		const struct tcp_sack_blk *dsack, uint64_t now)
{
	int spurious = 0;

	if (!c->undo_on)
		return;
	if (dsack->start != dsack->end && c->undo_retrans > 0 &&
			TCP_SEQ_GT(dsack->end, c->undo_marker)) {
		int32_t segs = (int32_t)((dsack->end - dsack->start + c->smss - 1) / c->smss);

		c->undo_retrans = c->undo_retrans > segs ? c->undo_retrans - segs : 0;
		spurious = c->undo_retrans == 0;
	}
	if (acked && c->ts_ok && c->retrans_stamp && (s->opts & TCP_O_TS) && s->tsecr &&
			TCP_SEQ_GT(s->ack, c->undo_marker) &&
			TCP_SEQ_LT(s->tsecr, c->retrans_stamp))
		spurious = 1;
	if (spurious && c->undo_rtx)
		undo(c, now);
}
