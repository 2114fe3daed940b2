/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection control: the state helpers, the handshake / FIN timers
 * and their retransmissions, the peer timeout, control packets, the tx
 * burst and the next deadline. The receive side of the state machine is in
 * dfcp_conn.c.
 */
#include <errno.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

void
dfcp_to_closed(struct dfcp_conn *c, enum dfcp_close_reason why)
{
	c->state = DFCP_CLOSED;
	if (c->reason == DFCP_CR_NONE)
		c->reason = why;
	c->hs_deadline = 0;
	c->pending &= P_RST;	/* only a queued RST may still go out */
	c->back_count = 0;
}

int
dfcp_sender_done(const struct dfcp_conn *c)
{
	if (!c->src_eof)
		return 0;
	if (c->snd_first != c->snd_next)
		return 0;
	return c->snd_base == c->snd_next;
}

void
dfcp_start_fin(struct dfcp_conn *c, uint64_t now)
{
	/* every byte of the source acknowledged (acks off: sent): the goal */
	if (c->sender && dfcp_sender_done(c))
		c->completed = 1;
	c->state = DFCP_FIN_WAIT1;
	c->fin_nblocks = c->snd_next;
	c->fin_nbytes = c->snd_bytes;
	c->pending |= P_FIN;
	c->hs_retries = 0;
	c->hs_deadline = now + c->conf.hs_rto_ns;
}

int
dfcp_conn_close(struct dfcp_conn *c, uint64_t now)
{
	if (c->state == DFCP_ESTABLISHED) {
		dfcp_start_fin(c, now);
		return 0;
	}
	if (c->state == DFCP_SYN_SENT || c->state == DFCP_SYN_RECV) {
		dfcp_conn_abort(c, now);
		return 0;
	}
	return -EINVAL;
}

void
dfcp_conn_abort(struct dfcp_conn *c, uint64_t now)
{
	(void)now;
	if (c->state == DFCP_CLOSED)
		return;
	dfcp_to_closed(c, DFCP_CR_ABORT);
	c->rst_reason = DFCP_RST_ABORT;
	c->pending = P_RST;
}

/* ------------------------------------------------------------------ */
/* timers                                                               */
/* ------------------------------------------------------------------ */

void
dfcp_hs_timer(struct dfcp_conn *c, uint64_t now)
{
	uint32_t what;

	if (c->hs_deadline == 0 || now < c->hs_deadline)
		return;
	switch (c->state) {
	case DFCP_SYN_SENT: what = P_SYN; break;
	case DFCP_SYN_RECV: what = P_SYNACK; break;
	case DFCP_FIN_WAIT1: what = P_FIN; break;
	case DFCP_LAST_ACK: what = P_FINACK; break;
	case DFCP_FIN_WAIT2:
		dfcp_to_closed(c, DFCP_CR_FIN_TIMEOUT);
		return;
	case DFCP_TIME_WAIT:
		dfcp_to_closed(c, DFCP_CR_DONE);
		return;
	default:
		c->hs_deadline = 0;
		return;
	}
	if (c->hs_retries >= DFCP_HS_RETRIES) {
		dfcp_to_closed(c, (c->state == DFCP_SYN_SENT || c->state == DFCP_SYN_RECV) ?
				DFCP_CR_SYN_TIMEOUT : DFCP_CR_FIN_TIMEOUT);
		return;
	}
	c->hs_retries++;
	c->st.retransmits++;
	c->pending |= what;
	c->hs_deadline = now + c->conf.hs_rto_ns;
}

/* The peer timeout: configured, or 10 block timeouts and 3 s at least. */
static uint64_t
peer_timeout(const struct dfcp_conn *c)
{
	uint64_t rto = c->srtt + 4 * c->rttvar;

	if (c->conf.peer_timeout_ns != 0)
		return c->conf.peer_timeout_ns;
	if (c->srtt == 0)
		rto = c->conf.hs_rto_ns;
	if (rto < c->conf.min_rto_ns)
		rto = c->conf.min_rto_ns;
	rto *= DFCP_PEER_TIMEOUT_RTOS;
	return rto < DFCP_PEER_TIMEOUT_MIN ? DFCP_PEER_TIMEOUT_MIN : rto;
}

uint64_t
dfcp_peer_deadline(const struct dfcp_conn *c)
{
	return c->state == DFCP_ESTABLISHED ? c->peer_at + peer_timeout(c) : 0;
}

/*
 * A receiver's keepalive: when it hears its peer but sent nothing for a
 * quarter of a peer timeout, an ACK of DATA. A receiver reports at the end
 * of a round; a flow with a small share of a link takes longer than a peer
 * timeout for a round (1/4096 of 1 Gbit/s: 48 packets in 2.3 s, 3.5 s with
 * the lcore shared), and its sender, hearing nothing, took a live peer for
 * dead. A sender whose source is held (dfcp_conn_hold) with nothing in
 * flight sends one as well, so that both ends hear each other during the
 * pause. 0: none due.
 */
static uint64_t
keepalive_at(const struct dfcp_conn *c)
{
	uint64_t t = c->conf.peer_timeout_ns != 0 ? c->conf.peer_timeout_ns : DFCP_PEER_TIMEOUT_MIN;

	if (c->state != DFCP_ESTABLISHED)
		return 0;
	if (c->sender ? !c->hold || c->snd_base != c->snd_next || c->rr_count :
			c->peer_at <= c->tx_at)
		return 0;
	return c->tx_at + t / DFCP_KEEPALIVE_DIV;
}

/* 1: a keepalive is queued now. */
static int
keepalive(struct dfcp_conn *c, uint64_t now)
{
	uint64_t t = keepalive_at(c);

	if (t == 0 || now < t || (c->pending & P_ACK))
		return 0;
	c->pending |= P_ACK;
	c->ack_what = DFCP_T_DATA;
	c->st.keepalives += !c->sender;
	return 1;
}

/*
 * A dead peer: nothing accepted from it (spoofed packets do not count) for
 * the peer timeout while ESTABLISHED. The sender always waits for
 * something then (blocks in flight or its FIN), the receiver for DATA or
 * the FIN. An RST tells a peer that is only cut off one way.
 */
void
dfcp_peer_timer(struct dfcp_conn *c, uint64_t now)
{
	if (c->state != DFCP_ESTABLISHED || now < dfcp_peer_deadline(c))
		return;
	dfcp_to_closed(c, DFCP_CR_PEER_TIMEOUT);
	c->rst_reason = DFCP_RST_TIMEOUT;
	c->pending = P_RST;
}

/* ------------------------------------------------------------------ */
/* tx                                                                   */
/* ------------------------------------------------------------------ */

static int
build_ctrl(struct dfcp_conn *c, uint32_t what, uint8_t *buf, size_t cap)
{
	struct dfcp_pkt pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	switch (what) {
	case P_SYN:
	case P_SYNACK:
		pkt.type = what == P_SYN ? DFCP_T_SYN : DFCP_T_SYNACK;
		pkt.u.params = c->p;
		pkt.flags = c->p.flags;
		break;
	case P_ACK:
		pkt.type = DFCP_T_ACK;
		pkt.u.ack.acked = c->ack_what;
		break;
	case P_FIN:
		pkt.type = DFCP_T_FIN;
		pkt.u.fin.nblocks = c->fin_nblocks;
		pkt.u.fin.nbytes = c->fin_nbytes;
		break;
	case P_FINACK:
		pkt.type = DFCP_T_FINACK;
		break;
	case P_RST:
		pkt.type = DFCP_T_RST;
		pkt.u.rst.reason = c->rst_reason;
		break;
	default:
		return -EINVAL;
	}
	return dfcp_build_auth(buf, cap, &c->local, &c->remote, &pkt, c->conf.csum,
			dfcp_sess_mac(c, pkt.type));
}

unsigned int
dfcp_tx_ctrl(struct dfcp_conn *c, void *const *bufs, uint16_t *lens, size_t cap,
		unsigned int n)
{
	static const uint32_t order[] = { P_RST, P_SYN, P_SYNACK, P_ACK, P_FIN, P_FINACK };
	unsigned int k = 0;

	for (unsigned int i = 0; i < sizeof(order) / sizeof(order[0]) && k < n; i++) {
		int len;

		if (!(c->pending & order[i]))
			continue;
		len = build_ctrl(c, order[i], bufs[k], cap);
		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->pending &= ~order[i];
	}
	return k;
}

unsigned int
dfcp_conn_tx_burst(struct dfcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;

	dfcp_hs_timer(c, now);
	dfcp_peer_timer(c, now);
	/* the application closes right after the peer's FIN */
	if (c->state == DFCP_CLOSE_WAIT) {
		c->state = DFCP_LAST_ACK;
		c->pending |= P_FINACK;
		c->hs_retries = 0;
		c->hs_deadline = now + c->conf.hs_rto_ns;
	}
	k = dfcp_tx_ctrl(c, bufs, lens, cap, n);
	if (c->state == DFCP_CLOSED)
		goto out;
	dfcp_stall_check(c, now);
	if (!c->sender && c->state == DFCP_ESTABLISHED)
		dfcp_round_timer(c, now);
	while (k < n && c->back_count) {
		int len = dfcp_build_back(c, &c->back[c->back_head], bufs[k], cap);

		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->back_head = (c->back_head + 1) % BACK_RING;
		c->back_count--;
	}
	if (k == 0 && c->state == DFCP_ESTABLISHED && keepalive(c, now))
		k = dfcp_tx_ctrl(c, bufs, lens, cap, n);
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		dfcp_sender_timers(c, now);
		k += dfcp_sender_tx(c, now, bufs + k, lens + k, cap, n - k);
		if (dfcp_sender_done(c)) {
			dfcp_start_fin(c, now);
			k += dfcp_tx_ctrl(c, bufs + k, lens + k, cap, n - k);
		}
	}
out:
	for (unsigned int i = 0; i < k; i++) {
		c->st.tx_pkts++;
		c->st.tx_bytes += lens[i];
	}
	if (k != 0)
		c->tx_at = now;
	return k;
}

uint64_t
dfcp_conn_next_deadline(const struct dfcp_conn *c, uint64_t now)
{
	uint64_t d = UINT64_MAX, t;

	if (c->pending || c->back_count || c->state == DFCP_CLOSE_WAIT)
		return now;
	if (c->state == DFCP_CLOSED)
		return UINT64_MAX;
	if (c->hs_deadline)
		d = c->hs_deadline;
	if (c->state == DFCP_ESTABLISHED && c->stall_at < d)
		d = c->stall_at;
	t = dfcp_peer_deadline(c);
	if (t && t < d)
		d = t;
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		if (dfcp_sender_done(c))
			return now;
		/* a new block waits on the pool: retried at pool_retry */
		if (c->pool_retry && !c->rr_count && c->snd_first == c->snd_next) {
			if (c->pool_retry < d)
				d = c->pool_retry > now ? c->pool_retry : now;
		} else if (c->rr_count || c->snd_first != c->snd_next ||
				(!c->src_eof && !c->hold && c->snd_next - c->snd_base < c->W)) {
			t = dfcp_cap_next(c, now);
			if (t <= now)
				return now;
			if (t < d)
				d = t;
		}
		if (c->tmr_min && c->tmr_min < d)
			d = c->tmr_min;
		t = keepalive_at(c);	/* held (dfcp_conn_hold) */
		if (t && t < d)
			d = t;
	} else if (c->state == DFCP_ESTABLISHED) {
		t = dfcp_round_deadline(c);
		if (t && t < d)
			d = t;
		t = keepalive_at(c);
		if (t && t < d)
			d = t;
	}
	return d;
}
