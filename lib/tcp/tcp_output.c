/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP output: segment building (SYN, ACKs and TCPW-C ACK pairs, RST, data
 * with SACK blocks and timestamps), the send buffer, the choice of the next
 * segment (retransmission, RFC 6675 NextSeg paced by RFC 6937 PRR, RACK's
 * lost segments, RFC 3042 limited transmit, zero-window probes, the FIN),
 * RACK tail loss probes, and tcp_conn_tx_burst.
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define PACE_QUANTUM_MAX	65536ull	/* bytes a late sender may catch up */

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
		s->tsval = tcp_ts_now(now);
		s->tsecr = c->ts_recent;
	}
}

/* SACK blocks: a D-SACK first (RFC 2883), then the block holding the
 * latest arrival, then the others from the highest down (RFC 2018 section
 * 4). */
static void
seg_sack(struct tcp_conn *c, struct tcp_seg *s)
{
	uint32_t max = c->ts_ok ? 3 : 4, first = UINT32_MAX;

	if (c->sack_ok && c->dsack_pending) {
		/* RFC 2883: the duplicate first, once */
		s->opts |= TCP_O_SACK;
		s->sack[s->nsack++] = c->dsack;
		c->dsack_pending = 0;
		c->st.dsack_tx++;
	}
	if (!c->sack_ok || c->nooo == 0)
		return;
	for (uint32_t i = 0; i < c->nooo; i++)
		if (TCP_SEQ_LEQ(c->ooo[i].start, c->last_ooo) &&
				TCP_SEQ_LT(c->last_ooo, c->ooo[i].end))
			first = i;
	s->opts |= TCP_O_SACK;
	if (first != UINT32_MAX)
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
		s.tsval = tcp_ts_now(now);
		s.tsecr = synack ? c->ts_recent : 0;
	}
	if (emit(c, &s, buf, cap, len) < 0)
		return -1;
	if (c->snd_max == c->iss)
		c->snd_max = c->snd_nxt = c->iss + 1;
	tcp_arm_rto(c, now);
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

/* A data segment of len bytes left at now: the next one's departure at the
 * module's pacing rate (payload bytes, as BBR measures delivery). A caller
 * late for departures may send what it missed back to back, up to a send
 * quantum (~1 ms at the rate, at least 2 segments, at most 64 KB: what
 * Linux sends as one TSO burst) or a cwnd if that is more: a busy-polling
 * lcore the host deschedules for milliseconds keeps the rate. Time when
 * cwnd or the application held the sender earns nothing (tx_burst). */
static void
pace_sent(struct tcp_conn *c, uint64_t now, uint32_t len)
{
	uint64_t rate = c->cc.pacing_Bps;
	uint64_t q = tcp_min64(tcp_max64(rate >> 10, 2ull * c->smss), PACE_QUANTUM_MAX);
	uint64_t q_ns = tcp_max64(q, c->cc.cwnd) * 1000000000ull / rate;

	if (c->pace_next + q_ns < now)
		c->pace_next = now - q_ns;
	c->pace_next += (uint64_t)len * 1000000000ull / rate;
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
		if (len)
			tcp_undo_rtx(c, now);
		/* Karn: a retransmission invalidates the timed segment */
		if (c->rtt_timing && TCP_SEQ_LEQ(seq, c->rtt_seq))
			c->rtt_timing = 0;
	} else if (!c->ts_ok && !c->rtt_timing && len) {
		c->rtt_timing = 1;
		c->rtt_seq = seq;
		c->rtt_ts = now;
	}
	if ((c->rack_on || c->rate_on) && len)
		tcp_rack_sent(&c->rk, seq, len, now);
	if (c->cc.pacing_Bps && len)
		pace_sent(c, now, len);
	if (TCP_SEQ_GT(end, c->snd_max))
		c->snd_max = end;
	if (c->rto_at == 0)
		tcp_arm_rto(c, now);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Segment selection                                                    */
/* ------------------------------------------------------------------ */

/* Pull data from the source into the send buffer. */
static void
fill_sndbuf(struct tcp_conn *c, uint64_t now)
{
	uint32_t mask = c->sndbuf_size - 1;

	if (c->hold)
		return;
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

int
tcp_can_send_data(const struct tcp_conn *c)
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
void
tcp_tlp_arm(struct tcp_conn *c, uint64_t now)
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

/* RACK's send test: PRR in recovery (unless the module owns cwnd), else
 * pipe + len <= cwnd (the SACKed and lost data out of the pipe, as Linux's
 * packets_in_flight). */
static int
rack_may_send(const struct tcp_conn *c, uint32_t len)
{
	if (c->in_rec && c->ops->cong_control == NULL)
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

/* New data [seq, seq+len) out (probe: a zero-window probe); 1 if sent. */
static int
send_new(struct tcp_conn *c, uint64_t now, uint32_t seq, uint32_t len, int probe, void *buf,
		size_t cap, uint16_t *flen)
{
	if (probe) {
		c->probe = 0;
		c->st.zero_window_probes++;
	}
	if (emit_data(c, now, seq, len, 0, buf, cap, flen) < 0)
		return 0;
	c->snd_nxt = seq + len;
	return 1;
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
 * tcp_next_data.
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
			tcp_arm_rto(c, now);
		return 0;
	} else if (!rack_may_send(c, len)) {
		return 0;
	}
	if (dry)
		return 1;
	if (!send_new(c, now, seq, len, probe, buf, cap, flen))
		return 0;
	prr_sent(c, len);
	tcp_tlp_arm(c, now);
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

	if (!tcp_can_send_data(c) || c->in_rec || c->snd_max == c->snd_una)
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
	tcp_arm_rto(c, now);
	return 1;
}

/*
 * One data / FIN segment if the windows allow; 1 if emitted. With buf ==
 * NULL only tells whether it would emit (for next_deadline), changing
 * nothing.
 */
int
tcp_next_data(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *flen)
{
	uint32_t dend = c->fin_queued ? c->fin_seq : c->snd_una + c->snd_buffered;
	uint32_t win, seq, len, avail;
	int dry = buf == NULL, probe = 0;

	if (!tcp_can_send_data(c))
		return 0;
	if (c->cc.pacing_Bps && now < c->pace_next)
		return 0;	/* paced: not yet */
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
		if (tcp_sb_next_lost(c, &seq, &len)) {
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
			tcp_arm_rto(c, now);	/* persist timer */
		return 0;
	}
	if (dry)
		return 1;
	if (!send_new(c, now, seq, len, probe, buf, cap, flen))
		return 0;
	if (c->in_rec && c->rec_mode == TCP_REC_SACK) {
		c->prr_sndcnt -= len;
		c->prr_out += len;
	}
	return 1;
}

/* Rate sampling: nothing (less than a segment) left to send, cwnd not
 * full and no loss waiting for its retransmission: the sender is
 * app-limited (Linux's tcp_rate_check_app_limited). */
static void
rate_check_app_limited(struct tcp_conn *c)
{
	uint32_t dend = c->fin_queued ? c->fin_seq : c->snd_una + c->snd_buffered;
	uint32_t pipe = tcp_rack_pipe(&c->rk);

	if (TCP_SEQ_LT(c->snd_nxt, dend) && dend - c->snd_nxt >= c->smss)
		return;
	if (pipe >= c->cc.cwnd || c->rk.lost_b > c->rk.rtx_b)
		return;
	tcp_rate_app_limited(&c->rk.rate, pipe);
}

unsigned int
tcp_conn_tx_burst(struct tcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;

	if (c->state == TCP_CLOSED && !c->rst_pending)
		return 0;
	tcp_run_timers(c, now);
	if (c->sndbuf != NULL && tcp_can_send_data(c))
		fill_sndbuf(c, now);
	while (k < n) {
		if (c->rst_pending) {
			c->rst_pending = 0;
			if (emit_rst(c, now, bufs[k], cap, &lens[k]) == 0)
				k++;
			tcp_closed(c, c->reason ? c->reason : TCP_CR_ABORT, now);
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
			if (tcp_next_data(c, now, bufs[k], cap, &lens[k])) {
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
	if (c->rate_on && c->sndbuf != NULL && tcp_can_send_data(c))
		rate_check_app_limited(c);
	if (k < n && c->cc.pacing_Bps && c->pace_next < now)
		c->pace_next = now;	/* not held by pacing: no credit to catch up */
	return k;
}
