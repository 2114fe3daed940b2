/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP connection: creation and option negotiation, the state machine
 * (segment acceptability, RST / SYN with the RFC 5961 checks, PAWS, the FIN
 * handshake, TIME_WAIT), close / abort, accessors and statistics. The rest
 * of the connection: tcp_input.c (ACKs, SACK scoreboard, recovery,
 * reassembly), tcp_output.c (segments out), tcp_timer.c (RTO and the other
 * timers, deadlines); struct tcp_conn is in tcp_priv.h. No allocation after
 * tcp_conn_connect / tcp_conn_accept; integer only on the packet path.
 * Passive opens: the endpoint's half-open table (tcp_syn.c) answers the SYN
 * (tcp_conn_synack) and makes the connection on the final ACK.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define CHALLENGE_PER_SEC 100	/* RFC 5961 challenge ACKs (per connection) */

static uint32_t
pow2_ceil(uint32_t v)
{
	uint32_t p = 4096;

	while (p < v && p < (1u << 30))
		p <<= 1;
	return p;
}

void
tcp_conf_default(struct tcp_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->cc = "newreno";
	c->recovery = -1;
	c->mss = 1460;
	c->sndbuf = 1u << 20;
	c->rcvbuf = 1u << 20;
	c->wscale = 1;
	c->sack = 1;
	c->timestamps = 1;
	c->init_cwnd = 10;
	c->dupthresh = 3;
	c->rack = -1;
	c->limited_transmit = -1;
	c->delack_count = 2;
	c->delack_ns = 40000000ull;
	c->pair_acks = -1;
	c->rto_init_ns = 1000000000ull;
	c->rto_min_ns = 200000000ull;
	c->rto_max_ns = 60000000000ull;
	c->tick_ns = 0;
	c->max_retries = 12;
	c->syn_retries = 5;
	c->time_wait_ns = 1000000000ull;
	c->ttl = 64;
	c->close_on_eof = 1;
}

/* ------------------------------------------------------------------ */
/* Set-up                                                               */
/* ------------------------------------------------------------------ */

/* Our window scale: enough for rcvbuf in 16 bits. */
static uint8_t
conf_wscale(const struct tcp_conf *conf)
{
	uint32_t size = pow2_ceil(conf->rcvbuf);
	uint8_t ws = 0;

	while (conf->wscale && ws < TCP_MAX_WSCALE && (size >> ws) > 65535)
		ws++;
	return ws;
}

static struct tcp_conn *
conn_alloc(const struct tcp_conf *conf, uint64_t now)
{
	struct tcp_conn *c;
	const struct tcp_cc_ops *ops = tcp_cc_find(conf->cc ? conf->cc : "newreno");

	if (ops == NULL || conf->mss < 64 || conf->dupthresh == 0 ||
			conf->delack_count == 0 || conf->rto_min_ns == 0 ||
			conf->rto_init_ns == 0 || conf->rto_max_ns < conf->rto_min_ns)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->conf = *conf;
	c->ops = ops;
	c->rec_mode = conf->recovery >= 0 && conf->recovery <= TCP_REC_SACK ?
		(enum tcp_recovery)conf->recovery : ops->recovery;
	c->sndbuf_size = pow2_ceil(conf->sndbuf);
	c->rcvbuf_size = pow2_ceil(conf->rcvbuf);
	if (conf->source != NULL)
		c->sndbuf = malloc(c->sndbuf_size);
	c->rcvbuf = malloc(c->rcvbuf_size);
	c->ooo_cap = tcp_max32(OOO_MIN, tcp_min32(c->rcvbuf_size / OOO_PER_BYTES, OOO_MAX));
	c->ooo = calloc(c->ooo_cap, sizeof(*c->ooo));
	/* RACK's segment records: one per 256 bytes of send buffer (a smaller
	 * segment size limits the flight to that many segments); a module
	 * taking rate samples (cong_control) needs them in any case */
	if (conf->source != NULL && ((conf->rack != 0 && conf->sack) ||
			ops->cong_control != NULL) &&
			tcp_rack_init(&c->rk, c->sndbuf_size / 256) < 0) {
		free(c->rcvbuf);
		c->rcvbuf = NULL;
	}
	if ((conf->source != NULL && c->sndbuf == NULL) || c->rcvbuf == NULL ||
			c->ooo == NULL) {
		tcp_rack_fini(&c->rk);
		free(c->sndbuf);
		free(c->rcvbuf);
		free(c->ooo);
		free(c);
		return NULL;
	}
	c->src_eof = conf->source == NULL;
	c->rto = conf->rto_init_ns;
	c->st.start_ns = now;
	c->st.rtt_min_ns = UINT64_MAX;
	c->iss = conf->iss ? conf->iss :
		(uint32_t)((conf->local.ip * 2654435761u) ^ (conf->remote.ip * 40503u) ^
		((uint32_t)conf->local.port << 16 | conf->remote.port) ^ (uint32_t)(now >> 10));
	c->snd_una = c->snd_nxt = c->snd_max = c->iss;
	c->recover = c->iss;
	c->high_rxt = c->iss;
	c->rcv_wscale = conf_wscale(conf);
	c->rcv_mss = conf->mss;
	tcp_cc_init(&c->cc, ops, conf->mss, conf->init_cwnd, now);
	return c;
}

struct tcp_conn *
tcp_conn_connect(const struct tcp_conf *conf, uint64_t now)
{
	struct tcp_conn *c = conn_alloc(conf, now);

	if (c == NULL)
		return NULL;
	c->state = TCP_SYN_SENT;
	c->syn_pending = 1;
	return c;
}

/* Apply the peer's SYN options. */
static void
negotiate(struct tcp_conn *c, const struct tcp_seg *s)
{
	uint32_t mss = (s->opts & TCP_O_MSS) && s->mss ? s->mss : 536;

	c->peer_mss = (uint16_t)tcp_min32(mss, 65535);
	c->ws_ok = c->conf.wscale && (s->opts & TCP_O_WS);
	c->snd_wscale = c->ws_ok ? s->wscale : 0;
	if (!c->ws_ok)
		c->rcv_wscale = 0;
	c->sack_ok = c->conf.sack && (s->opts & TCP_O_SACKOK);
	c->ts_ok = c->conf.timestamps && (s->opts & TCP_O_TS);
	if (c->ts_ok) {
		c->ts_recent = s->tsval;
		c->ts_recent_ok = 1;
	}
	mss = tcp_min32(mss, c->conf.mss);
	if (c->ts_ok)
		mss -= 12;
	if (mss < 32)
		mss = 32;
	c->smss = (uint16_t)mss;
	if (c->rec_mode == TCP_REC_SACK && !c->sack_ok)
		c->rec_mode = TCP_REC_NEWRENO;
	/* rack = 1: Linux's loss recovery (SACK + RACK-TLP + PRR) under a
	 * Reno / NewReno module unless the recovery kind is set explicitly */
	if (c->conf.rack > 0 && c->conf.recovery < 0 && c->sack_ok &&
			(c->rec_mode == TCP_REC_RENO || c->rec_mode == TCP_REC_NEWRENO))
		c->rec_mode = TCP_REC_SACK;
	c->rack_on = c->rk.seg != NULL && c->conf.rack != 0 && c->sack_ok &&
		c->rec_mode == TCP_REC_SACK;
	c->rate_on = c->rk.seg != NULL && c->ops->cong_control != NULL;
	c->lt_on = c->conf.limited_transmit < 0 ? c->rack_on : c->conf.limited_transmit > 0;
	/* auto: when our cc asks, or when the peer's SYN does (a TCPW-C
	 * sender marks its SYN with TCP_RSV_PAIR: without pairs from this
	 * receiver its CAPPROBE estimate never gets a sample) */
	if (c->conf.pair_acks > 0 ||
			(c->conf.pair_acks < 0 && ((c->ops->flags & TCP_CC_F_PAIR_ACKS) ||
				(s->rsv & TCP_RSV_PAIR) == TCP_RSV_PAIR)))
		c->pair_acks = 1;
}

static void
established(struct tcp_conn *c, uint64_t now)
{
	c->state = TCP_ESTABLISHED;
	c->st.established_ns = now;
	tcp_cc_init(&c->cc, c->ops, c->smss, c->conf.init_cwnd, now);
	c->tr_cwnd = c->tr_ssthresh = 0;
	c->rto_at = 0;
	c->backoffs = 0;
	c->syn_tries = 0;
	if (c->srtt == 0)
		c->rto = tcp_max64(c->conf.rto_init_ns, c->conf.rto_min_ns);
	if (c->rk.seg != NULL)
		tcp_rack_reset(&c->rk, c->snd_una);
}

struct tcp_conn *
tcp_conn_accept(const struct tcp_conf *conf, const struct tcp_seg *syn, uint32_t iss,
		uint64_t syn_t)
{
	struct tcp_conn *c = conn_alloc(conf, syn_t);

	if (c == NULL)
		return NULL;
	c->state = TCP_SYN_RECV;
	c->iss = c->snd_una = c->recover = c->high_rxt = iss;
	c->snd_nxt = c->snd_max = iss + 1;
	c->irs = syn->seq;
	c->rcv_nxt = syn->seq + 1;
	c->last_ack_sent = c->rcv_nxt;
	negotiate(c, syn);
	c->snd_wnd = syn->wnd;
	c->snd_wl1 = syn->seq;
	return c;
}

void
tcp_conn_synack(const struct tcp_conf *conf, const struct tcp_seg *syn, uint32_t iss,
		uint64_t now, struct tcp_seg *s)
{
	const struct tcp_cc_ops *ops = tcp_cc_find(conf->cc ? conf->cc : "newreno");

	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, conf->local.mac, 6);
	memcpy(s->dst_mac, syn->src_mac, 6);
	s->src_ip = conf->local.ip;
	s->dst_ip = syn->src_ip;
	s->src_port = conf->local.port;
	s->dst_port = syn->src_port;
	s->seq = iss;
	s->ack = syn->seq + 1;
	s->flags = TCP_FL_SYN | TCP_FL_ACK;
	if (ops != NULL && (ops->flags & TCP_CC_F_PAIR_ACKS))
		s->rsv = TCP_RSV_PAIR;	/* ask the peer's receiver for ACK pairs */
	s->wnd = (uint16_t)tcp_min32(pow2_ceil(conf->rcvbuf), 65535);
	s->opts = TCP_O_MSS;
	s->mss = conf->mss;
	if (conf->wscale && (syn->opts & TCP_O_WS)) {
		s->opts |= TCP_O_WS;
		s->wscale = conf_wscale(conf);
	}
	if (conf->sack && (syn->opts & TCP_O_SACKOK))
		s->opts |= TCP_O_SACKOK;
	if (conf->timestamps && (syn->opts & TCP_O_TS)) {
		s->opts |= TCP_O_TS;
		s->tsval = tcp_ts_now(now);
		s->tsecr = syn->tsval;
	}
}

void
tcp_conn_free(struct tcp_conn *c)
{
	if (c == NULL)
		return;
	tcp_rack_fini(&c->rk);
	free(c->sndbuf);
	free(c->rcvbuf);
	free(c->ooo);
	free(c);
}

int
tcp_conn_match(const struct tcp_conn *c, const struct tcp_seg *s)
{
	return c->conf.remote.ip == s->src_ip && c->conf.remote.port == s->src_port &&
		c->conf.local.port == s->dst_port;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

void
tcp_trace(struct tcp_conn *c, uint64_t now, uint8_t ev)
{
	struct tcp_trace_pt pt;

	if (c->conf.trace == NULL)
		return;
	if (ev == TCP_TR_ACK && c->cc.cwnd == c->tr_cwnd && c->cc.ssthresh == c->tr_ssthresh)
		return;
	c->tr_cwnd = c->cc.cwnd;
	c->tr_ssthresh = c->cc.ssthresh;
	pt.now = now;
	pt.cwnd = c->cc.cwnd;
	pt.ssthresh = c->cc.ssthresh;
	pt.flight = c->snd_max - c->snd_una;
	pt.srtt_ns = c->srtt;
	pt.ev = ev;
	c->conf.trace(c->conf.trace_ctx, &pt);
}

void
tcp_cc_sync(struct tcp_conn *c, uint32_t flight)
{
	c->cc.flight = flight;
	c->cc.snd_nxt = c->snd_max;
	c->cc.srtt_ns = c->srtt;
	c->cc.rtt_min_ns = c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns;
	c->cc.in_recovery = c->in_rec;
	c->cc.in_loss = !c->in_rec && c->ever_rec && TCP_SEQ_LT(c->snd_una, c->recover);
}

int
tcp_challenge_ok(struct tcp_conn *c, uint64_t now)
{
	if (now - c->chal_win >= 1000000000ull) {
		c->chal_win = now;
		c->chal_cnt = 0;
	}
	if (c->chal_cnt >= CHALLENGE_PER_SEC)
		return 0;
	c->chal_cnt++;
	c->st.challenge_acks++;
	return 1;
}

void
tcp_closed(struct tcp_conn *c, enum tcp_close_reason r, uint64_t now)
{
	if (c->state != TCP_CLOSED) {
		c->state = TCP_CLOSED;
		c->reason = r;
		c->st.done_ns = now;
	}
	c->rto_at = c->delack_at = c->tw_at = 0;
	c->rk.reo_at = c->rk.tlp_at = 0;
	c->rk.tlp_pending = 0;
	c->ack_now = c->pair_now = c->syn_pending = 0;
}

void
tcp_time_wait(struct tcp_conn *c, uint64_t now)
{
	c->state = TCP_TIME_WAIT;
	c->rto_at = 0;
	c->rk.reo_at = c->rk.tlp_at = 0;
	c->rk.tlp_pending = 0;
	c->tw_at = now + (c->conf.time_wait_ns ? c->conf.time_wait_ns : 1);
}

int
tcp_fin_acked(const struct tcp_conn *c)
{
	return c->fin_queued && TCP_SEQ_GT(c->snd_una, c->fin_seq);
}

/* ------------------------------------------------------------------ */
/* Input: the state machine                                             */
/* ------------------------------------------------------------------ */

static int
rx_syn_sent(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	if ((s->flags & TCP_FL_ACK) && s->ack != c->iss + 1) {
		return -TCP_E_ACK;
	}
	if (s->flags & TCP_FL_RST) {
		c->st.rst_rx++;
		if (s->flags & TCP_FL_ACK) {
			tcp_closed(c, TCP_CR_RESET, now);
			return 0;
		}
		return -TCP_E_RST;
	}
	if (!(s->flags & TCP_FL_SYN))
		return -TCP_E_STATE;
	c->irs = s->seq;
	c->rcv_nxt = s->seq + 1;
	negotiate(c, s);
	if (s->flags & TCP_FL_ACK) {
		c->snd_una = s->ack;
		c->snd_nxt = c->snd_max = s->ack;
		c->snd_wnd = s->wnd;	/* never scaled in a SYN */
		c->snd_wl1 = s->seq;
		c->snd_wl2 = s->ack;
		if (c->ts_ok && s->tsecr)
			tcp_rtt_sample(c, (uint64_t)(uint32_t)(tcp_ts_now(now) - s->tsecr) * NS_PER_US);
		established(c, now);
		c->ack_now = 1;
	} else {
		/* simultaneous open */
		c->state = TCP_SYN_RECV;
		c->syn_pending = 1;
	}
	return 0;
}

int
tcp_conn_rx(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	uint32_t wnd = c->rcvbuf_size, slen;
	int acceptable, r;

	c->st.rx_pkts++;
	c->st.rx_bytes += s->frame_len;
	if (c->state == TCP_CLOSED)
		return -TCP_E_STATE;
	if (c->state == TCP_SYN_SENT)
		return rx_syn_sent(c, s, now);

	/* SYN_RECV: retransmitted SYN means our SYN-ACK was lost */
	if (c->state == TCP_SYN_RECV && (s->flags & TCP_FL_SYN) &&
			!(s->flags & TCP_FL_ACK) && s->seq == c->irs) {
		c->syn_pending = 1;
		return 0;
	}
	/* sequence acceptability (RFC 793 / 9293 section 3.10.7.4) */
	slen = s->len + ((s->flags & TCP_FL_FIN) ? 1 : 0);
	if (slen == 0)
		acceptable = TCP_SEQ_GEQ(s->seq, c->rcv_nxt) &&
			TCP_SEQ_LT(s->seq, c->rcv_nxt + wnd);
	else
		acceptable = (TCP_SEQ_GEQ(s->seq, c->rcv_nxt) &&
			TCP_SEQ_LT(s->seq, c->rcv_nxt + wnd)) ||
			(TCP_SEQ_GEQ(s->seq + slen - 1, c->rcv_nxt) &&
			TCP_SEQ_LT(s->seq + slen - 1, c->rcv_nxt + wnd));
	if (s->flags & TCP_FL_RST) {
		c->st.rst_rx++;
		if (c->state == TCP_TIME_WAIT)
			return -TCP_E_RST;	/* RFC 1337: no TIME-WAIT assassination */
		if (s->seq == c->rcv_nxt) {
			tcp_closed(c, TCP_CR_RESET, now);
			return 0;
		}
		if (acceptable && tcp_challenge_ok(c, now))
			c->ack_now = 1;
		return -TCP_E_RST;
	}
	/* PAWS (RFC 7323 section 5) */
	if (c->ts_ok && c->ts_recent_ok && (s->opts & TCP_O_TS) &&
			TCP_SEQ_LT(s->tsval, c->ts_recent)) {
		c->ack_now = 1;
		return -TCP_E_PAWS;
	}
	if (!acceptable) {
		if (slen == 0 && TCP_SEQ_LT(s->seq, c->rcv_nxt) &&
				TCP_SEQ_GEQ(s->seq, c->rcv_nxt - c->rcvbuf_size)) {
			/* a pure ACK left of the window still carries news */
		} else if (TCP_SEQ_LEQ(s->seq + slen, c->rcv_nxt) &&
				TCP_SEQ_GEQ(s->seq, c->rcv_nxt - c->rcvbuf_size)) {
			c->st.dup_data_pkts++;
			c->ack_now = 1;	/* old duplicate: re-ACK, drop */
			if (slen)
				tcp_rcv_dsack(c, s->seq, s->seq + s->len);
			return 0;
		} else {
			if (tcp_challenge_ok(c, now))
				c->ack_now = 1;
			return -TCP_E_WINDOW;
		}
	}
	if (s->flags & TCP_FL_SYN) {
		/* RFC 5961 section 4: challenge ACK */
		if (tcp_challenge_ok(c, now))
			c->ack_now = 1;
		return -TCP_E_SYN;
	}
	if (!(s->flags & TCP_FL_ACK))
		return -TCP_E_FLAGS;
	if (c->ts_ok && (s->opts & TCP_O_TS) && TCP_SEQ_LEQ(s->seq, c->last_ack_sent)) {
		c->ts_recent = s->tsval;
		c->ts_recent_ok = 1;
	}
	if (c->state == TCP_SYN_RECV) {
		if (s->ack != c->iss + 1) {
			c->rst_pending = 0;
			return -TCP_E_ACK;
		}
		c->snd_una = c->snd_nxt = c->snd_max = s->ack;
		c->snd_wnd = (uint32_t)s->wnd << c->snd_wscale;
		c->snd_wl1 = s->seq;
		c->snd_wl2 = s->ack;
		if (c->ts_ok && s->tsecr)
			tcp_rtt_sample(c, (uint64_t)(uint32_t)(tcp_ts_now(now) - s->tsecr) * NS_PER_US);
		established(c, now);
	}
	r = tcp_process_ack(c, s, now);
	if (r < 0)
		return r;
	if (!acceptable)
		return 0;
	/* FIN handshake progress */
	if (tcp_fin_acked(c)) {
		switch (c->state) {
		case TCP_FIN_WAIT1:
			c->state = TCP_FIN_WAIT2;
			c->rto_at = 0;
			if (c->tw_at == 0)
				c->tw_at = now + 4 * (c->conf.time_wait_ns ? c->conf.time_wait_ns : 1);
			break;
		case TCP_CLOSING:
			tcp_time_wait(c, now);
			break;
		case TCP_LAST_ACK:
			tcp_closed(c, TCP_CR_DONE, now);
			return 0;
		default:
			break;
		}
	}
	if (c->state == TCP_TIME_WAIT) {
		if (s->flags & TCP_FL_FIN) {
			c->ack_now = 1;
			tcp_time_wait(c, now);
		}
		return 0;
	}
	tcp_process_data(c, s, now);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Control and accessors                                                */
/* ------------------------------------------------------------------ */

int
tcp_conn_close(struct tcp_conn *c, uint64_t now)
{
	(void)now;
	if (c->fin_queued)
		return 0;
	switch (c->state) {
	case TCP_SYN_SENT:
	case TCP_SYN_RECV:
		tcp_closed(c, TCP_CR_ABORT, now);
		return 0;
	case TCP_ESTABLISHED:
		c->state = TCP_FIN_WAIT1;
		break;
	case TCP_CLOSE_WAIT:
		c->state = TCP_LAST_ACK;
		break;
	default:
		return -EINVAL;
	}
	c->src_eof = 1;
	c->fin_queued = 1;
	c->fin_seq = c->snd_una + c->snd_buffered;
	if (c->sndbuf == NULL)
		c->fin_seq = c->snd_nxt;
	return 0;
}

void
tcp_conn_abort(struct tcp_conn *c, uint64_t now)
{
	if (c->state == TCP_CLOSED)
		return;
	if (c->state == TCP_SYN_SENT) {
		tcp_closed(c, TCP_CR_ABORT, now);
		return;
	}
	c->rst_pending = 1;
	c->reason = TCP_CR_ABORT;
}

enum tcp_state
tcp_conn_state(const struct tcp_conn *c)
{
	return c->state;
}

enum tcp_close_reason
tcp_conn_close_reason(const struct tcp_conn *c)
{
	return c->reason;
}

struct tcp_cc *
tcp_conn_cc(struct tcp_conn *c)
{
	return &c->cc;
}

void
tcp_conn_hold(struct tcp_conn *c, int hold)
{
	c->hold = hold != 0;
}

int
tcp_conn_send_done(const struct tcp_conn *c)
{
	if (c->conf.source == NULL)
		return 1;
	return c->src_eof && c->snd_buffered == 0 && (!c->fin_queued || tcp_fin_acked(c));
}

int
tcp_conn_recv_done(const struct tcp_conn *c)
{
	return c->fin_rcvd;
}

const struct tcp_addr *
tcp_conn_remote(const struct tcp_conn *c)
{
	return &c->conf.remote;
}

void
tcp_conn_set_sink(struct tcp_conn *c, net_sink_fn fn, void *ctx)
{
	c->conf.sink = fn;
	c->conf.sink_ctx = ctx;
}

uint16_t
tcp_conn_local_port(const struct tcp_conn *c)
{
	return c->conf.local.port;
}

void
tcp_conn_stats(const struct tcp_conn *c, struct tcp_stats *st)
{
	*st = c->st;
	st->cwnd = c->cc.cwnd;
	st->ssthresh = c->cc.ssthresh;
	st->mss = c->smss;
	st->flight = c->snd_max - c->snd_una;
	st->snd_wnd = c->snd_wnd;
	st->rcv_wnd = c->rcvbuf_size;
	st->srtt_ns = c->srtt;
	st->rttvar_ns = c->rttvar;
	st->rto_ns = c->rto;
	if (st->rtt_min_ns == UINT64_MAX)
		st->rtt_min_ns = 0;
	st->rtt_avg_ns = c->st.rtt_samples ? c->rtt_sum / c->st.rtt_samples : 0;
	st->bw_est_bps = c->ops->bw_bps != NULL ? c->ops->bw_bps(&c->cc) : 0;
	st->pacing_bps = c->cc.pacing_Bps * 8;
	st->rack = c->rack_on;
	st->rack_marked = c->rk.marked;
	st->dsack_rx = c->st.dsack_rx;
	st->dsack_tx = c->st.dsack_tx;
	st->undos = c->st.undos;
}
