/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP timers: the RFC 6298 RTT estimator and retransmission timer (SYN
 * retries, backoff, persist), the expiry of every timer on each poll
 * (TIME_WAIT / FIN_WAIT2, RTO, RACK reorder and probe, delayed ACK), and
 * tcp_conn_next_deadline.
 */
#include <stdint.h>

#include "tcp.h"
#include "tcp_priv.h"

/* ------------------------------------------------------------------ */
/* Timers                                                               */
/* ------------------------------------------------------------------ */

static uint64_t
quantize(const struct tcp_conn *c, uint64_t t)
{
	uint64_t g = c->conf.tick_ns;

	if (g == 0)
		return t;
	return (t + g - 1) / g * g;
}

void
tcp_arm_rto(struct tcp_conn *c, uint64_t now)
{
	c->rto_at = quantize(c, now + c->rto);
	if (c->rto_at <= now)
		c->rto_at = now + 1;
}

/* The RTO from the estimator's state: RFC 6298's SRTT + max(G, 4 RTTVAR)
 * floored at rto_min, or (RACK, Linux) SRTT + max(4 mdev, rto_min). */
void
tcp_rto_update(struct tcp_conn *c)
{
	uint64_t rto;

	if (c->srtt == 0)
		return;
	if (c->rack_on)
		rto = c->srtt + c->lx_rttvar;
	else
		rto = tcp_max64(c->srtt + tcp_max64(c->conf.tick_ns, 4 * c->rttvar),
				c->conf.rto_min_ns);
	c->rto = tcp_min64(rto, c->conf.rto_max_ns);
}

/*
 * Linux's tcp_rtt_estimator: SRTT as RFC 6298; the mean deviation (kept as
 * 4 mdev) takes 1/4 of each error, of an error below SRTT only 1/32; its
 * maximum over one
 * window of data, never below rto_min, is RTTVAR (decaying by 1/4 per
 * window towards the window's maximum). RTO = SRTT + RTTVAR: at least
 * SRTT + rto_min (200 ms), where RFC 6298's floor applies to the sum.
 */
static void
rtt_linux(struct tcp_conn *c, uint64_t r)
{
	uint64_t floor = c->conf.rto_min_ns;

	if (c->srtt == 0) {
		c->srtt = r;
		c->lx_mdev = 2 * r;	/* RTO = 3 RTT */
		c->lx_rttvar = tcp_max64(c->lx_mdev, floor);
		c->lx_mdev_max = c->lx_rttvar;
		c->lx_rtt_seq = c->snd_max;
	} else {
		int64_t m = (int64_t)r - (int64_t)c->srtt;

		c->srtt = (uint64_t)((int64_t)c->srtt + m / 8);
		if (m < 0) {
			m = -m - (int64_t)(c->lx_mdev / 4);
			if (m > 0)
				m /= 8;
		} else {
			m -= (int64_t)(c->lx_mdev / 4);
		}
		c->lx_mdev = (uint64_t)((int64_t)c->lx_mdev + m);	/* 3/4 mdev + 1/4 |err| */
		if (c->lx_mdev > c->lx_mdev_max) {
			c->lx_mdev_max = c->lx_mdev;
			if (c->lx_mdev_max > c->lx_rttvar)
				c->lx_rttvar = c->lx_mdev_max;
		}
		if (TCP_SEQ_GT(c->snd_una, c->lx_rtt_seq)) {
			if (c->lx_mdev_max < c->lx_rttvar)
				c->lx_rttvar -= (c->lx_rttvar - c->lx_mdev_max) / 4;
			c->lx_rtt_seq = c->snd_max;
			c->lx_mdev_max = floor;
		}
	}
	if (c->srtt == 0)
		c->srtt = 1;
	c->rttvar = c->lx_mdev / 4;	/* the mean deviation, for the stats */
}

/* One RTT sample: RFC 6298 (2.2)-(2.4) with clock granularity G = tick, or
 * with RACK Linux's estimator. */
void
tcp_rtt_sample(struct tcp_conn *c, uint64_t r)
{
	if (r == 0)
		r = 1;
	if (c->rack_on) {
		rtt_linux(c, r);
	} else if (c->srtt == 0) {
		c->srtt = r;
		c->rttvar = r / 2;
	} else {
		uint64_t d = c->srtt > r ? c->srtt - r : r - c->srtt;

		c->rttvar = (3 * c->rttvar + d) / 4;
		c->srtt = (7 * c->srtt + r) / 8;
	}
	tcp_rto_update(c);
	if (r < c->st.rtt_min_ns)
		c->st.rtt_min_ns = r;
	c->rtt_sum += r;
	c->st.rtt_samples++;
}

static void
on_rto(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una;

	c->rto_at = 0;
	if (c->state == TCP_SYN_SENT || c->state == TCP_SYN_RECV) {
		if (++c->syn_tries > c->conf.syn_retries) {
			tcp_closed(c, TCP_CR_SYN_TIMEOUT, now);
			return;
		}
		c->rto = tcp_min64(c->rto * 2, c->conf.rto_max_ns);
		c->syn_pending = 1;
		c->st.timeouts++;
		return;
	}
	if (flight == 0 && !c->fin_queued) {
		/* persist timer with nothing outstanding: zero-window probe */
		if (c->snd_wnd == 0 && c->snd_buffered) {
			c->probe = 1;
			c->rto = tcp_min64(c->rto * 2, c->conf.rto_max_ns);
		}
		return;
	}
	if (flight == 0)
		return;
	c->st.timeouts++;
	if (++c->backoffs > c->conf.max_retries) {
		c->rst_pending = 1;
		c->reason = TCP_CR_TIMEOUT;
		return;
	}
	/* Linux's tcp_enter_loss: with RACK a new reduction only for a new
	 * episode (not inside a recovery, nor on a repeated RTO without any
	 * progress since the last one); undo can restore it */
	if (!c->rack_on || !TCP_SEQ_LT(c->snd_una, c->recover) ||
			(!c->in_rec && c->backoffs == 1)) {
		tcp_undo_start(c, 1);
		tcp_cc_sync(c, c->rack_on ? tcp_min32(flight, c->cc.cwnd) : flight);
		c->cc.ssthresh = c->ops->ssthresh(&c->cc, now);
	} else {
		c->undo_loss = c->undo_on;
	}
	c->cc.cwnd = c->smss;
	c->cc.ca_acc = 0;
	if (c->ops->on_timeout != NULL)
		c->ops->on_timeout(&c->cc, now);
	if (c->cc.cwnd < c->smss)
		c->cc.cwnd = c->smss;
	c->in_rec = 0;
	c->dupacks = 0;
	c->rtx_pending = 0;
	c->recover = c->snd_max;
	c->ever_rec = 1;
	c->high_rxt = c->snd_una;
	c->snd_nxt = c->snd_una;
	c->rtt_timing = 0;
	/* SACK marks are kept (go-back-N skips them); reneging is detected
	 * in tcp_process_ack */
	c->rto = tcp_min64(c->rto * 2, c->conf.rto_max_ns);
	if (c->rack_on) {
		/* everything not SACKed is lost and resent from the records;
		 * new data (and a lost FIN) continue after them. A SACKed
		 * segment at the cumulative ACK means the receiver reneged:
		 * then no SACK mark can be trusted (RFC 2018 section 8) */
		if (tcp_rack_reneged(&c->rk)) {
			tcp_rack_clear_sacked(&c->rk);
			c->nsb = 0;
		}
		tcp_rack_mark_all_lost(&c->rk);
		c->snd_nxt = TCP_SEQ_LT(c->rk.end, c->snd_max) ? c->rk.end : c->snd_max;
		c->rk.tlp_at = 0;
		c->rk.tlp_out = c->rk.tlp_pending = 0;
	}
	tcp_trace(c, now, TCP_TR_TIMEOUT);
	tcp_arm_rto(c, now);
}

void
tcp_run_timers(struct tcp_conn *c, uint64_t now)
{
	if (c->tw_at && now >= c->tw_at) {
		c->tw_at = 0;
		tcp_closed(c, c->state == TCP_FIN_WAIT2 ? TCP_CR_TIMEOUT : TCP_CR_DONE, now);
		return;
	}
	if (c->rto_at && now >= c->rto_at)
		on_rto(c, now);
	if (c->rack_on)
		tcp_rack_timer(c, now);
	if (c->delack_at && now >= c->delack_at) {
		c->delack_at = 0;
		c->ack_now = 1;
	}
}

uint64_t
tcp_conn_next_deadline(const struct tcp_conn *c, uint64_t now)
{
	uint64_t d = UINT64_MAX;

	if (c->rst_pending)
		return now;
	if (c->state == TCP_CLOSED)
		return UINT64_MAX;
	if (c->syn_pending || c->ack_now || c->pair_now || c->rk.tlp_pending)
		return now;
	if (c->rto_at && c->rto_at < d)
		d = c->rto_at;
	if (c->rk.reo_at && c->rk.reo_at < d)
		d = c->rk.reo_at;
	if (c->rk.tlp_at && c->rk.tlp_at < d)
		d = c->rk.tlp_at;
	if (c->delack_at && c->delack_at < d)
		d = c->delack_at;
	if (c->tw_at && c->tw_at < d)
		d = c->tw_at;
	if (c->state == TCP_CLOSE_WAIT && c->sndbuf == NULL && !c->fin_queued &&
			c->conf.close_on_eof)
		return now;
	if (c->sndbuf != NULL || c->fin_queued) {
		struct tcp_conn *m = (struct tcp_conn *)(uintptr_t)c;

		if (c->sndbuf != NULL && tcp_can_send_data(c) && !c->src_eof &&
				c->snd_buffered < c->sndbuf_size)
			return now;	/* the source may have more */
		if (tcp_next_data(m, now, NULL, 0, NULL))
			return now;
		/* paced: the next departure, if something is to go then */
		if (c->cc.pacing_Bps && now < c->pace_next && c->pace_next < d &&
				tcp_next_data(m, c->pace_next, NULL, 0, NULL))
			d = c->pace_next;
	}
	return d;
}
