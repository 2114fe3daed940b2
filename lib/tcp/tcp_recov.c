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
		/* RecoverFS: FlightSize (RFC 6937); Linux: cwnd before */
		c->recover_fs = c->rack_on ? prior_cwnd : flight ? flight : 1;
		break;
	}
	c->cc.in_recovery = c->in_rec;
	if (c->rec_mode != TCP_REC_NONE && c->ops->enter_recovery != NULL)
		c->ops->enter_recovery(&c->cc, now);
	tcp_apply_cap(c);
	tcp_trace(c, now, TCP_TR_RECOVERY);
}

void
tcp_exit_recovery(struct tcp_conn *c, uint64_t now)
{
	c->in_rec = 0;
	c->dupacks = 0;
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

/* Lost data outside recovery starts one (not while the window of an RTO
 * is being resent: as Linux's CA_Loss, that only retransmits). */
void
tcp_rack_recover(struct tcp_conn *c, uint64_t now, uint32_t delivered)
{
	if (c->in_rec || c->rk.lost_b == 0 || TCP_SEQ_LT(c->snd_una, c->recover))
		return;
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

/* RFC 8985 7.4: the ACK of a probe. Without D-SACK an ACK beyond the
 * probe after a retransmitted probe counts as a repaired loss (Linux's
 * rule without the D-SACK); a pure duplicate means both copies arrived. */
void
tcp_tlp_ack(struct tcp_conn *c, uint32_t ack, uint32_t acked, uint32_t sacked,
		uint64_t now)
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
