/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP connection: handshake, send side (send buffer, RFC 6298 timer,
 * fast retransmit / recovery per the module's recovery kind, SACK
 * scoreboard), receive side (reassembly, delayed ACKs, SACK blocks, TCPW-C
 * ACK pairs), FIN / RST with the RFC 5961 checks. No allocation after
 * tcp_conn_connect / tcp_conn_accept; integer only on the packet path.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define SB_MAX		32	/* sender scoreboard blocks */
#define OOO_MAX		32	/* receiver out-of-order blocks */
#define CHALLENGE_PER_SEC 100	/* RFC 5961 challenge ACKs (per connection) */
#define NS_PER_US	1000ull

struct tcp_conn {
	struct tcp_conf conf;
	enum tcp_state state;
	enum tcp_close_reason reason;
	const struct tcp_cc_ops *ops;
	struct tcp_cc cc;
	enum tcp_recovery rec_mode;

	/* negotiated */
	uint16_t smss;		/* payload bytes per segment we send */
	uint16_t peer_mss;
	uint8_t snd_wscale, rcv_wscale;
	uint8_t ws_ok, sack_ok, ts_ok;
	uint8_t pair_acks;	/* we send TCPW-C ACK pairs */

	/* send side */
	uint32_t iss, snd_una, snd_nxt, snd_max;
	uint32_t snd_wnd, snd_wl1, snd_wl2;
	uint8_t *sndbuf;
	uint32_t sndbuf_size, snd_buffered;	/* bytes from snd_una */
	uint8_t src_eof, fin_queued;
	uint32_t fin_seq;			/* valid when fin_queued */
	uint32_t dupacks, recover, high_rxt;
	uint8_t in_rec, rtx_pending, ever_rec, probe;
	uint32_t nsb;
	struct tcp_sack_blk sb[SB_MAX];
	/* RFC 6937 proportional rate reduction (SACK recovery) */
	uint32_t prr_delivered, prr_out, recover_fs;
	int64_t prr_sndcnt;
	/* RFC 8985 RACK-TLP (tcp_rack.c), RFC 3042 limited transmit */
	struct tcp_rack rk;
	uint8_t rack_on, lt_on;
	/* RTT and timer */
	uint64_t srtt, rttvar, rto;
	uint64_t rtt_sum;
	uint8_t rtt_timing;
	uint32_t rtt_seq;
	uint64_t rtt_ts;
	uint32_t backoffs;
	uint64_t rto_at, delack_at, tw_at;
	uint32_t syn_tries;

	/* receive side */
	uint32_t irs, rcv_nxt;
	uint8_t *rcvbuf;
	uint32_t rcvbuf_size;
	uint64_t rcv_off;		/* stream offset of rcv_nxt */
	uint32_t nooo;
	struct tcp_sack_blk ooo[OOO_MAX];
	uint32_t last_ooo;		/* start of the most recent OOO arrival */
	uint8_t fin_rcvd, rfin_pending;
	uint32_t rfin_seq;
	uint32_t ts_recent, last_ack_sent;
	uint8_t ts_recent_ok;
	uint32_t rcv_mss;		/* largest payload seen */
	uint32_t unacked_segs;
	/* TCPW-C receiver: arrival time (TS clock) and TSval of the last two
	 * full in-order segments since the last segment we sent */
	uint32_t pair_rx[2], pair_tsv[2];
	uint8_t pair_n;

	/* pending control */
	uint8_t syn_pending, ack_now, pair_now, rst_pending;
	uint64_t chal_win;
	uint32_t chal_cnt;

	/* trace */
	uint32_t tr_cwnd, tr_ssthresh;

	struct tcp_stats st;
};

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

static uint32_t
ts_now(uint64_t now)
{
	return (uint32_t)(now / NS_PER_US);
}

/* ------------------------------------------------------------------ */
/* Set-up                                                               */
/* ------------------------------------------------------------------ */

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
	/* RACK's segment records: one per 256 bytes of send buffer (a smaller
	 * segment size limits the flight to that many segments) */
	if (conf->source != NULL && conf->rack != 0 && conf->sack &&
			tcp_rack_init(&c->rk, c->sndbuf_size / 256) < 0) {
		free(c->rcvbuf);
		c->rcvbuf = NULL;
	}
	if ((conf->source != NULL && c->sndbuf == NULL) || c->rcvbuf == NULL) {
		tcp_rack_fini(&c->rk);
		free(c->sndbuf);
		free(c->rcvbuf);
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
	/* our window scale: enough for rcvbuf in 16 bits */
	while (c->rcv_wscale < TCP_MAX_WSCALE && (c->rcvbuf_size >> c->rcv_wscale) > 65535)
		c->rcv_wscale++;
	if (!conf->wscale)
		c->rcv_wscale = 0;
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
	c->rack_on = c->rk.seg != NULL && c->sack_ok && c->rec_mode == TCP_REC_SACK;
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
tcp_conn_accept(const struct tcp_conf *conf, const struct tcp_seg *syn, uint64_t now)
{
	struct tcp_conn *c = conn_alloc(conf, now);

	if (c == NULL)
		return NULL;
	c->state = TCP_SYN_RECV;
	c->irs = syn->seq;
	c->rcv_nxt = syn->seq + 1;
	negotiate(c, syn);
	c->snd_wnd = syn->wnd;
	c->snd_wl1 = syn->seq;
	c->syn_pending = 1;
	return c;
}

void
tcp_conn_free(struct tcp_conn *c)
{
	if (c == NULL)
		return;
	tcp_rack_fini(&c->rk);
	free(c->sndbuf);
	free(c->rcvbuf);
	free(c);
}

int
tcp_conn_match(const struct tcp_conn *c, const struct tcp_seg *s)
{
	return c->conf.remote.ip == s->src_ip && c->conf.remote.port == s->src_port &&
		c->conf.local.port == s->dst_port;
}

int
tcp_conn_is_half_open(const struct tcp_conn *c)
{
	return c->state == TCP_SYN_RECV;
}

/* ------------------------------------------------------------------ */
/* Helpers                                                              */
/* ------------------------------------------------------------------ */

static void
trace(struct tcp_conn *c, uint64_t now, uint8_t ev)
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
cc_sync(struct tcp_conn *c, uint32_t flight)
{
	c->cc.flight = flight;
	c->cc.snd_nxt = c->snd_max;
	c->cc.srtt_ns = c->srtt;
	c->cc.rtt_min_ns = c->st.rtt_min_ns == UINT64_MAX ? 0 : c->st.rtt_min_ns;
	c->cc.in_recovery = c->in_rec;
}

static uint64_t
quantize(const struct tcp_conn *c, uint64_t t)
{
	uint64_t g = c->conf.tick_ns;

	if (g == 0)
		return t;
	return (t + g - 1) / g * g;
}

static void
arm_rto(struct tcp_conn *c, uint64_t now)
{
	c->rto_at = quantize(c, now + c->rto);
	if (c->rto_at <= now)
		c->rto_at = now + 1;
}

/* RFC 6298 (2.2)-(2.4) with clock granularity G = tick. */
static void
rtt_sample(struct tcp_conn *c, uint64_t r)
{
	uint64_t g = c->conf.tick_ns, var;

	if (r == 0)
		r = 1;
	if (c->srtt == 0) {
		c->srtt = r;
		c->rttvar = r / 2;
	} else {
		uint64_t d = c->srtt > r ? c->srtt - r : r - c->srtt;

		c->rttvar = (3 * c->rttvar + d) / 4;
		c->srtt = (7 * c->srtt + r) / 8;
	}
	var = tcp_max64(g, 4 * c->rttvar);
	c->rto = c->srtt + var;
	if (c->rto < c->conf.rto_min_ns)
		c->rto = c->conf.rto_min_ns;
	if (c->rto > c->conf.rto_max_ns)
		c->rto = c->conf.rto_max_ns;
	if (r < c->st.rtt_min_ns)
		c->st.rtt_min_ns = r;
	c->rtt_sum += r;
	c->st.rtt_samples++;
}

static int
challenge_ok(struct tcp_conn *c, uint64_t now)
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

static void
closed(struct tcp_conn *c, enum tcp_close_reason r, uint64_t now)
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

static void
time_wait(struct tcp_conn *c, uint64_t now)
{
	c->state = TCP_TIME_WAIT;
	c->rto_at = 0;
	c->rk.reo_at = c->rk.tlp_at = 0;
	c->rk.tlp_pending = 0;
	c->tw_at = now + (c->conf.time_wait_ns ? c->conf.time_wait_ns : 1);
}

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
static int
sb_next_lost(const struct tcp_conn *c, uint32_t *seq, uint32_t *len)
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
/* Frame output                                                         */
/* ------------------------------------------------------------------ */

static uint16_t
adv_window(const struct tcp_conn *c, int syn)
{
	uint32_t w = c->rcvbuf_size;

	if (syn)
		return (uint16_t)tcp_min32(w, 65535);
	return (uint16_t)tcp_min32(w >> c->rcv_wscale, 65535);
}

static void
seg_init(const struct tcp_conn *c, struct tcp_seg *s, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, c->conf.local.mac, 6);
	memcpy(s->dst_mac, c->conf.remote.mac, 6);
	s->src_ip = c->conf.local.ip;
	s->dst_ip = c->conf.remote.ip;
	s->src_port = c->conf.local.port;
	s->dst_port = c->conf.remote.port;
	s->ack = c->rcv_nxt;
	s->flags = TCP_FL_ACK;
	s->wnd = adv_window(c, 0);
	if (c->ts_ok) {
		s->opts |= TCP_O_TS;
		s->tsval = ts_now(now);
		s->tsecr = c->ts_recent;
	}
}

/* SACK blocks: the block holding the latest arrival first, then the
 * others from the highest down (RFC 2018 section 4). */
static void
seg_sack(const struct tcp_conn *c, struct tcp_seg *s)
{
	uint32_t max = c->ts_ok ? 3 : 4, first = OOO_MAX;

	if (!c->sack_ok || c->nooo == 0)
		return;
	for (uint32_t i = 0; i < c->nooo; i++)
		if (TCP_SEQ_LEQ(c->ooo[i].start, c->last_ooo) &&
				TCP_SEQ_LT(c->last_ooo, c->ooo[i].end))
			first = i;
	s->opts |= TCP_O_SACK;
	if (first != OOO_MAX)
		s->sack[s->nsack++] = c->ooo[first];
	for (int i = (int)c->nooo - 1; i >= 0 && s->nsack < max; i--)
		if ((uint32_t)i != first)
			s->sack[s->nsack++] = c->ooo[i];
}

static int
emit(struct tcp_conn *c, struct tcp_seg *s, void *buf, size_t cap, uint16_t *len)
{
	int r = tcp_wire_build(buf, cap, s, c->conf.ttl);

	if (r < 0)
		return r;
	*len = (uint16_t)r;
	c->st.tx_pkts++;
	c->st.tx_bytes += (uint32_t)r;
	if (s->flags & TCP_FL_ACK) {
		c->last_ack_sent = s->ack;
		c->ack_now = 0;
		c->delack_at = 0;
		c->unacked_segs = 0;
	}
	c->pair_n = 0;	/* later stamps are >= this segment's TSval */
	return 0;
}

static int
emit_syn(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *len)
{
	struct tcp_seg s;
	int synack = c->state == TCP_SYN_RECV;

	seg_init(c, &s, now);
	s.seq = c->iss;
	s.flags = synack ? (TCP_FL_SYN | TCP_FL_ACK) : TCP_FL_SYN;
	if (c->ops->flags & TCP_CC_F_PAIR_ACKS)
		s.rsv = TCP_RSV_PAIR;	/* ask the peer's receiver for ACK pairs */
	if (!synack)
		s.ack = 0;
	s.wnd = adv_window(c, 1);
	s.opts = TCP_O_MSS;
	s.mss = c->conf.mss;
	if (synack ? c->ws_ok : c->conf.wscale) {
		s.opts |= TCP_O_WS;
		s.wscale = c->rcv_wscale;
	}
	if (synack ? c->sack_ok : c->conf.sack)
		s.opts |= TCP_O_SACKOK;
	if (synack ? c->ts_ok : c->conf.timestamps) {
		s.opts |= TCP_O_TS;
		s.tsval = ts_now(now);
		s.tsecr = synack ? c->ts_recent : 0;
	}
	if (emit(c, &s, buf, cap, len) < 0)
		return -1;
	if (c->snd_max == c->iss)
		c->snd_max = c->snd_nxt = c->iss + 1;
	arm_rto(c, now);
	return 0;
}

/* pair: 0 a plain ACK, 1 the assistant ACK of a TCPW-C pair, 2 its standard
 * ACK. With stamps of two full segments (rx, tsv), the pair reflects the
 * data segments' dispersion at this receiver: the standard ACK carries
 * TSval = the first segment's arrival and echoes its TSval, the assistant
 * the second's (CAPPROBE on the data pair; the ACKs themselves leave back
 * to back). The stamps postdate every segment sent before, so TSval stays
 * monotonic. */
static int
emit_ack(struct tcp_conn *c, uint64_t now, int pair, const uint32_t *rx,
		const uint32_t *tsv, void *buf, size_t cap, uint16_t *len)
{
	struct tcp_seg s;

	seg_init(c, &s, now);
	s.seq = c->snd_nxt;
	seg_sack(c, &s);
	if (pair && rx != NULL && (s.opts & TCP_O_TS)) {
		s.tsval = rx[pair == 1];
		s.tsecr = tsv[pair == 1];
	}
	if (pair == 1) {
		s.rsv = TCP_RSV_PAIR;
		c->st.pair_acks_tx++;
	}
	c->st.sack_blocks_tx += s.nsack;
	c->st.acks_tx++;
	return emit(c, &s, buf, cap, len);
}

static int
emit_rst(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *len)
{
	struct tcp_seg s;

	seg_init(c, &s, now);
	s.opts = 0;
	s.seq = c->snd_nxt;
	s.flags = TCP_FL_RST | TCP_FL_ACK;
	s.wnd = 0;
	c->st.rst_tx++;
	return emit(c, &s, buf, cap, len);
}

/* Copy send-buffer bytes [seq, seq+len) to dst. */
static void
snd_copy(const struct tcp_conn *c, uint32_t seq, uint8_t *dst, uint32_t len)
{
	uint32_t mask = c->sndbuf_size - 1;
	uint32_t i = (seq - c->iss - 1) & mask;
	uint32_t first = tcp_min32(len, c->sndbuf_size - i);

	memcpy(dst, c->sndbuf + i, first);
	if (first < len)
		memcpy(dst + first, c->sndbuf, len - first);
}

/* Emit one segment [seq, seq+len) (+FIN). */
static int
emit_data(struct tcp_conn *c, uint64_t now, uint32_t seq, uint32_t len, int fin,
		void *buf, size_t cap, uint16_t *flen)
{
	struct tcp_seg s;
	unsigned int hl;
	uint32_t end;

	seg_init(c, &s, now);
	s.seq = seq;
	s.len = len;
	s.payload = NULL;
	if (fin)
		s.flags |= TCP_FL_FIN;
	if (len)
		s.flags |= TCP_FL_PSH;
	seg_sack(c, &s);
	hl = tcp_hdr_len(&s);
	if ((size_t)hl + len > cap)
		return -1;
	if (len)
		snd_copy(c, seq, (uint8_t *)buf + hl, len);
	if (emit(c, &s, buf, cap, flen) < 0)
		return -1;
	end = seq + len + (fin ? 1 : 0);
	if (len) {
		c->st.tx_data_pkts++;
		c->st.tx_data_bytes += len;
	}
	if (TCP_SEQ_LT(seq, c->snd_max)) {
		c->st.retrans_pkts++;
		c->st.retrans_bytes += len;
		/* Karn: a retransmission invalidates the timed segment */
		if (c->rtt_timing && TCP_SEQ_LEQ(seq, c->rtt_seq))
			c->rtt_timing = 0;
	} else if (!c->ts_ok && !c->rtt_timing && len) {
		c->rtt_timing = 1;
		c->rtt_seq = seq;
		c->rtt_ts = now;
	}
	if (c->rack_on && len)
		tcp_rack_sent(&c->rk, seq, len, now);
	if (TCP_SEQ_GT(end, c->snd_max))
		c->snd_max = end;
	if (c->rto_at == 0)
		arm_rto(c, now);
	return 0;
}

/* Pull data from the source into the send buffer. */
static void
fill_sndbuf(struct tcp_conn *c, uint64_t now)
{
	uint32_t mask = c->sndbuf_size - 1;

	while (!c->src_eof && c->snd_buffered < c->sndbuf_size) {
		uint32_t seq = c->snd_una + c->snd_buffered;
		uint32_t i = (seq - c->iss - 1) & mask;
		uint32_t room = tcp_min32(c->sndbuf_size - c->snd_buffered, c->sndbuf_size - i);
		size_t got = c->conf.source(c->conf.source_ctx, now, c->sndbuf + i, room);

		if (got == 0) {
			c->src_eof = 1;
			break;
		}
		if (got > room)
			got = room;
		c->snd_buffered += (uint32_t)got;
	}
	if (c->src_eof && !c->fin_queued && c->conf.close_on_eof && c->conf.source != NULL &&
			(c->state == TCP_ESTABLISHED || c->state == TCP_CLOSE_WAIT)) {
		c->fin_queued = 1;
		c->fin_seq = c->snd_una + c->snd_buffered;
		c->state = c->state == TCP_ESTABLISHED ? TCP_FIN_WAIT1 : TCP_LAST_ACK;
	}
}

static int
can_send_data(const struct tcp_conn *c)
{
	switch (c->state) {
	case TCP_ESTABLISHED:
	case TCP_CLOSE_WAIT:
	case TCP_FIN_WAIT1:
	case TCP_CLOSING:
	case TCP_LAST_ACK:
		return 1;
	default:
		return 0;
	}
}

/* RFC 3042 limited transmit: the first two duplicate ACKs each allow one
 * segment beyond cwnd. */
static uint32_t
lt_allow(const struct tcp_conn *c)
{
	if (!c->lt_on || c->in_rec || c->dupacks == 0 || c->dupacks >= c->conf.dupthresh)
		return 0;
	return tcp_min32(c->dupacks, 2) * c->smss;
}

/* RFC 8985 7.2: (re)start the probe timer after new data went out or new
 * data was acked, when not recovering and no probe is outstanding; never
 * past the RTO. */
static void
tlp_arm(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una;
	uint64_t pto;

	c->rk.tlp_at = 0;
	if (!c->rack_on || c->in_rec || c->rk.tlp_out || flight == 0 ||
			TCP_SEQ_LT(c->snd_una, c->recover))
		return;
	pto = tcp_rack_pto(c->srtt, flight, c->smss);
	if (pto == 0 || (c->rto_at && now + pto >= c->rto_at))
		return;
	c->rk.tlp_at = now + pto;
}

/* RACK's send test: PRR in recovery, else pipe + len <= cwnd (the SACKed
 * and lost data out of the pipe, as Linux's packets_in_flight). */
static int
rack_may_send(const struct tcp_conn *c, uint32_t len)
{
	if (c->in_rec)
		return c->prr_sndcnt >= (int64_t)len;
	return tcp_rack_pipe(&c->rk) + len <= c->cc.cwnd;
}

static void
prr_sent(struct tcp_conn *c, uint32_t len)
{
	if (c->in_rec) {
		c->prr_sndcnt -= len;
		c->prr_out += len;
	}
}

/* The FIN once every byte went out (again after a timeout). */
static int
fin_next(struct tcp_conn *c, uint64_t now, uint32_t seq, void *buf, size_t cap,
		uint16_t *flen)
{
	if (!c->fin_queued || seq != c->fin_seq || c->snd_nxt == c->fin_seq + 1)
		return 0;
	if (buf == NULL)
		return 1;
	if (emit_data(c, now, seq, 0, 1, buf, cap, flen) < 0)
		return 0;
	c->snd_nxt = seq + 1;
	return 1;
}

/*
 * Sending with RACK: segments RACK (or the RTO) marked lost first (RFC 6675
 * NextSeg rule 1 on RACK's marks), then new data. Same contract as
 * next_data.
 */
static int
next_data_rack(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *flen)
{
	uint32_t dend = c->fin_queued ? c->fin_seq : c->snd_una + c->snd_buffered;
	uint32_t seq, len, avail;
	int dry = buf == NULL, probe = 0;

	if (tcp_rack_next_lost(&c->rk, &seq, &len)) {
		if (!rack_may_send(c, len))
			return 0;
		if (dry)
			return 1;
		prr_sent(c, len);
		return emit_data(c, now, seq, len, 0, buf, cap, flen) == 0;
	}
	seq = c->snd_nxt;
	avail = TCP_SEQ_LT(seq, dend) ? dend - seq : 0;
	len = tcp_min32(avail, c->smss);
	if (len == 0)
		return fin_next(c, now, seq, buf, cap, flen);
	if ((len < c->smss && !c->src_eof && !c->fin_queued) || tcp_rack_full(&c->rk))
		return 0;
	if (c->snd_wnd == 0 && c->snd_una == c->snd_max && c->probe) {
		probe = 1;
		len = 1;
	} else if ((uint32_t)(seq + len - c->snd_una) > c->snd_wnd) {
		if (!dry && c->snd_wnd == 0 && c->rto_at == 0)
			arm_rto(c, now);
		return 0;
	} else if (!rack_may_send(c, len)) {
		return 0;
	}
	if (dry)
		return 1;
	if (probe) {
		c->probe = 0;
		c->st.zero_window_probes++;
	}
	if (emit_data(c, now, seq, len, 0, buf, cap, flen) < 0)
		return 0;
	c->snd_nxt = seq + len;
	prr_sent(c, len);
	tlp_arm(c, now);
	return 1;
}

/*
 * RFC 8985 7.3: the probe is one new segment if the peer's window allows,
 * else a retransmission of the highest unSACKed segment; the RTO is
 * re-armed behind it.
 */
static int
tlp_send(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *flen)
{
	uint32_t dend = c->fin_queued ? c->fin_seq : c->snd_una + c->snd_buffered;
	uint32_t seq = c->snd_nxt, len, avail;
	int rtx = 0;

	if (!can_send_data(c) || c->in_rec || c->snd_max == c->snd_una)
		return 0;
	avail = TCP_SEQ_LT(seq, dend) ? dend - seq : 0;
	len = tcp_min32(avail, c->smss);
	if (len == 0 || tcp_rack_full(&c->rk) || (len < c->smss && !c->src_eof &&
			!c->fin_queued) || (uint32_t)(seq + len - c->snd_una) > c->snd_wnd) {
		if (!tcp_rack_last(&c->rk, &seq, &len)) {
			/* only the FIN is outstanding: probe with it */
			if (!c->fin_queued || c->snd_nxt != c->fin_seq + 1)
				return 0;
			seq = c->fin_seq;
			len = 0;
		}
		rtx = 1;
	}
	if (emit_data(c, now, seq, len, len == 0, buf, cap, flen) < 0)
		return 0;
	if (!rtx)
		c->snd_nxt = seq + len;
	c->rk.tlp_out = 1;
	c->rk.tlp_rtx = (uint8_t)rtx;
	c->rk.tlp_high = c->snd_max;
	c->st.tlp_probes++;
	arm_rto(c, now);
	return 1;
}

/*
 * One data / FIN segment if the windows allow; 1 if emitted. With buf ==
 * NULL only tells whether it would emit (for next_deadline), changing
 * nothing.
 */
static int
next_data(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *flen)
{
	uint32_t dend = c->fin_queued ? c->fin_seq : c->snd_una + c->snd_buffered;
	uint32_t win, seq, len, avail;
	int dry = buf == NULL, probe = 0;

	if (!can_send_data(c))
		return 0;
	if (c->rack_on)
		return next_data_rack(c, now, buf, cap, flen);
	if (c->rtx_pending) {
		if (dry)
			return 1;
		c->rtx_pending = 0;
		if (TCP_SEQ_LT(c->snd_una, dend)) {
			len = tcp_min32(c->smss, dend - c->snd_una);
			if (TCP_SEQ_GT(c->snd_una + len, c->high_rxt))
				c->high_rxt = c->snd_una + len;
			if (c->in_rec && c->rec_mode == TCP_REC_SACK) {
				c->prr_sndcnt -= len;
				c->prr_out += len;
			}
			return emit_data(c, now, c->snd_una, len, 0, buf, cap, flen) == 0;
		}
		if (c->fin_queued && c->snd_una == c->fin_seq)
			return emit_data(c, now, c->fin_seq, 0, 1, buf, cap, flen) == 0;
	}
	if (c->in_rec && c->rec_mode == TCP_REC_SACK) {
		/* RFC 6675 NextSeg, paced by RFC 6937 PRR */
		if (c->prr_sndcnt < (int64_t)c->smss)
			return 0;
		if (sb_next_lost(c, &seq, &len)) {
			if (dry)
				return 1;
			c->high_rxt = seq + len;
			c->prr_sndcnt -= len;
			c->prr_out += len;
			return emit_data(c, now, seq, len, 0, buf, cap, flen) == 0;
		}
		win = c->snd_wnd;	/* new data: PRR checked above */
	} else {
		win = tcp_min32(c->cc.cwnd + lt_allow(c), c->snd_wnd);
	}
	seq = c->snd_nxt;
	/* go-back-N after a timeout: skip what the peer SACKed */
	for (uint32_t i = 0; i < c->nsb; i++)
		if (TCP_SEQ_LEQ(c->sb[i].start, seq) && TCP_SEQ_LT(seq, c->sb[i].end))
			seq = c->sb[i].end;
	avail = TCP_SEQ_LT(seq, dend) ? dend - seq : 0;
	len = tcp_min32(avail, c->smss);
	for (uint32_t i = 0; i < c->nsb; i++)
		if (TCP_SEQ_GT(c->sb[i].start, seq) && TCP_SEQ_LT(c->sb[i].start, seq + len))
			len = c->sb[i].start - seq;
	if (len == 0) {
		/* FIN once every byte went out (again after a timeout) */
		if (c->fin_queued && seq == c->fin_seq && c->snd_nxt != c->fin_seq + 1) {
			if (dry)
				return 1;
			if (emit_data(c, now, seq, 0, 1, buf, cap, flen) < 0)
				return 0;
			c->snd_nxt = seq + 1;
			return 1;
		}
		return 0;
	}
	if (len < c->smss && !c->src_eof && !c->fin_queued)
		return 0;	/* bulk sender: only full segments until the end */
	if (c->snd_wnd == 0 && c->snd_una == c->snd_max && c->probe) {
		probe = 1;	/* zero-window probe: one byte beyond the window */
		len = 1;
	} else if ((uint32_t)(seq + len - c->snd_una) > win) {
		if (!dry && c->snd_wnd == 0 && c->rto_at == 0)
			arm_rto(c, now);	/* persist timer */
		return 0;
	}
	if (dry)
		return 1;
	if (probe) {
		c->probe = 0;
		c->st.zero_window_probes++;
	}
	if (emit_data(c, now, seq, len, 0, buf, cap, flen) < 0)
		return 0;
	c->snd_nxt = seq + len;
	if (c->in_rec && c->rec_mode == TCP_REC_SACK) {
		c->prr_sndcnt -= len;
		c->prr_out += len;
	}
	return 1;
}

/* ------------------------------------------------------------------ */
/* Timers                                                               */
/* ------------------------------------------------------------------ */

static void
on_rto(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una;

	c->rto_at = 0;
	if (c->state == TCP_SYN_SENT || c->state == TCP_SYN_RECV) {
		if (++c->syn_tries > c->conf.syn_retries) {
			closed(c, TCP_CR_SYN_TIMEOUT, now);
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
	cc_sync(c, flight);
	c->cc.ssthresh = c->ops->ssthresh(&c->cc, now);
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
	 * in process_ack */
	c->rto = tcp_min64(c->rto * 2, c->conf.rto_max_ns);
	if (c->rack_on) {
		/* everything not SACKed is lost and resent from the records;
		 * new data (and a lost FIN) continue after them */
		tcp_rack_mark_all_lost(&c->rk);
		c->snd_nxt = TCP_SEQ_LT(c->rk.end, c->snd_max) ? c->rk.end : c->snd_max;
		c->rk.tlp_at = 0;
		c->rk.tlp_out = c->rk.tlp_pending = 0;
	}
	trace(c, now, TCP_TR_TIMEOUT);
	arm_rto(c, now);
}

static void rack_timer(struct tcp_conn *c, uint64_t now);

static void
run_timers(struct tcp_conn *c, uint64_t now)
{
	if (c->tw_at && now >= c->tw_at) {
		c->tw_at = 0;
		closed(c, c->state == TCP_FIN_WAIT2 ? TCP_CR_TIMEOUT : TCP_CR_DONE, now);
		return;
	}
	if (c->rto_at && now >= c->rto_at)
		on_rto(c, now);
	if (c->rack_on)
		rack_timer(c, now);
	if (c->delack_at && now >= c->delack_at) {
		c->delack_at = 0;
		c->ack_now = 1;
	}
}

unsigned int
tcp_conn_tx_burst(struct tcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;

	if (c->state == TCP_CLOSED && !c->rst_pending)
		return 0;
	run_timers(c, now);
	if (c->sndbuf != NULL && can_send_data(c))
		fill_sndbuf(c, now);
	while (k < n) {
		if (c->rst_pending) {
			c->rst_pending = 0;
			if (emit_rst(c, now, bufs[k], cap, &lens[k]) == 0)
				k++;
			closed(c, c->reason ? c->reason : TCP_CR_ABORT, now);
			break;
		}
		if (c->state == TCP_CLOSED)
			break;
		if (c->syn_pending) {
			c->syn_pending = 0;
			if (emit_syn(c, now, bufs[k], cap, &lens[k]) == 0)
				k++;
			continue;
		}
		if (c->pair_now && k + 2 <= n) {
			uint32_t rx[2], tsv[2];
			int stamped = c->pair_n == 2;

			c->pair_now = 0;
			memcpy(rx, c->pair_rx, sizeof(rx));
			memcpy(tsv, c->pair_tsv, sizeof(tsv));
			if (emit_ack(c, now, 2, stamped ? rx : NULL, tsv, bufs[k], cap,
					&lens[k]) == 0)
				k++;
			if (emit_ack(c, now, 1, stamped ? rx : NULL, tsv, bufs[k], cap,
					&lens[k]) == 0)
				k++;
			continue;
		}
		if (c->pair_now)
			break;
		if (c->rk.tlp_pending) {
			c->rk.tlp_pending = 0;
			if (tlp_send(c, now, bufs[k], cap, &lens[k]))
				k++;
			continue;
		}
		if (c->sndbuf != NULL || c->fin_queued) {
			if (next_data(c, now, bufs[k], cap, &lens[k])) {
				k++;
				continue;
			}
		} else if (c->fin_queued == 0 && c->fin_rcvd && c->state == TCP_CLOSE_WAIT &&
				c->conf.close_on_eof) {
			/* receive-only side: close after the peer's FIN */
			c->fin_queued = 1;
			c->fin_seq = c->snd_nxt;
			c->state = TCP_LAST_ACK;
			continue;
		}
		if (c->ack_now) {
			if (emit_ack(c, now, 0, NULL, NULL, bufs[k], cap, &lens[k]) == 0)
				k++;
			c->ack_now = 0;
			continue;
		}
		break;
	}
	return k;
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

		if (c->sndbuf != NULL && can_send_data(c) && !c->src_eof &&
				c->snd_buffered < c->sndbuf_size)
			return now;	/* the source may have more */
		if (next_data(m, now, NULL, 0, NULL))
			return now;
	}
	return d;
}

/* ------------------------------------------------------------------ */
/* Input                                                                */
/* ------------------------------------------------------------------ */

static void
enter_recovery(struct tcp_conn *c, uint64_t now)
{
	uint32_t flight = c->snd_max - c->snd_una;

	cc_sync(c, flight);
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
	trace(c, now, TCP_TR_RECOVERY);
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
	trace(c, now, TCP_TR_EXIT);
}

static int
fin_acked(const struct tcp_conn *c)
{
	return c->fin_queued && TCP_SEQ_GT(c->snd_una, c->fin_seq);
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
static void
rack_timer(struct tcp_conn *c, uint64_t now)
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
	cc_sync(c, c->snd_max - c->snd_una);
	c->cc.ssthresh = c->ops->ssthresh(&c->cc, now);
	c->cc.cwnd = tcp_min32(c->cc.cwnd, c->cc.ssthresh);
	c->cc.ca_acc = 0;
	c->st.tlp_recoveries++;
	apply_cap(c);
	trace(c, now, TCP_TR_RECOVERY);
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
static int
process_ack(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_cc_ack a;
	uint32_t ack = s->ack, acked, sacked = 0;
	int pair = (s->rsv & TCP_RSV_PAIR) == TCP_RSV_PAIR;
	uint32_t old_wnd = c->snd_wnd;

	if (TCP_SEQ_GT(ack, c->snd_max)) {
		if (challenge_ok(c, now))
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
		uint64_t d = ((uint64_t)(uint32_t)(ts_now(now) - s->tsecr)) * NS_PER_US;

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
		rtt_sample(c, a.rtt_ns);
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
	cc_sync(c, c->snd_max - c->snd_una);
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
		cc_sync(c, c->snd_max - c->snd_una);
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
				trace(c, now, TCP_TR_PARTIAL);
			}
		} else {
			c->dupacks = 0;
			c->ops->cong_avoid(&c->cc, &a);
			apply_cap(c);
			trace(c, now, TCP_TR_ACK);
		}
		if (c->snd_max != c->snd_una)
			arm_rto(c, now);
		else
			c->rto_at = 0;
		if (c->rack_on)
			tlp_arm(c, now);
	} else if (a.dup || (sacked && c->rec_mode == TCP_REC_SACK && !pair)) {
		c->dupacks++;
		c->st.dupacks_rx++;
		if (c->in_rec) {
			if (c->rec_mode == TCP_REC_RENO || c->rec_mode == TCP_REC_NEWRENO) {
				c->cc.cwnd += c->smss;	/* inflation */
				trace(c, now, TCP_TR_DUPACK);
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
		if (fin_acked(c))
			time_wait(c, now);
		else
			c->state = TCP_CLOSING;
		break;
	case TCP_FIN_WAIT2:
		time_wait(c, now);
		break;
	default:
		break;
	}
}

/* Data and FIN of an acceptable segment. */
static void
process_data(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
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
				c->pair_rx[c->pair_n] = ts_now(now);
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

static int
rx_syn_sent(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	if ((s->flags & TCP_FL_ACK) && s->ack != c->iss + 1) {
		return -TCP_E_ACK;
	}
	if (s->flags & TCP_FL_RST) {
		c->st.rst_rx++;
		if (s->flags & TCP_FL_ACK) {
			closed(c, TCP_CR_RESET, now);
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
			rtt_sample(c, (uint64_t)(uint32_t)(ts_now(now) - s->tsecr) * NS_PER_US);
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
			closed(c, TCP_CR_RESET, now);
			return 0;
		}
		if (acceptable && challenge_ok(c, now))
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
			return 0;
		} else {
			if (challenge_ok(c, now))
				c->ack_now = 1;
			return -TCP_E_WINDOW;
		}
	}
	if (s->flags & TCP_FL_SYN) {
		/* RFC 5961 section 4: challenge ACK */
		if (challenge_ok(c, now))
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
			rtt_sample(c, (uint64_t)(uint32_t)(ts_now(now) - s->tsecr) * NS_PER_US);
		established(c, now);
	}
	r = process_ack(c, s, now);
	if (r < 0)
		return r;
	if (!acceptable)
		return 0;
	/* FIN handshake progress */
	if (fin_acked(c)) {
		switch (c->state) {
		case TCP_FIN_WAIT1:
			c->state = TCP_FIN_WAIT2;
			c->rto_at = 0;
			if (c->tw_at == 0)
				c->tw_at = now + 4 * (c->conf.time_wait_ns ? c->conf.time_wait_ns : 1);
			break;
		case TCP_CLOSING:
			time_wait(c, now);
			break;
		case TCP_LAST_ACK:
			closed(c, TCP_CR_DONE, now);
			return 0;
		default:
			break;
		}
	}
	if (c->state == TCP_TIME_WAIT) {
		if (s->flags & TCP_FL_FIN) {
			c->ack_now = 1;
			time_wait(c, now);
		}
		return 0;
	}
	process_data(c, s, now);
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
		closed(c, TCP_CR_ABORT, now);
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
		closed(c, TCP_CR_ABORT, now);
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

int
tcp_conn_send_done(const struct tcp_conn *c)
{
	if (c->conf.source == NULL)
		return 1;
	return c->src_eof && c->snd_buffered == 0 && (!c->fin_queued || fin_acked(c));
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
tcp_conn_set_sink(struct tcp_conn *c, tcp_sink_fn fn, void *ctx)
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
	st->rack = c->rack_on;
	st->rack_marked = c->rk.marked;
}
