/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP endpoint: one local address; demultiplexes frames to connections,
 * listens (SYNs go to the half-open table of tcp_syn.c and are answered
 * with a SYN-ACK whose ISN is a cookie; the final ACK, matching an entry or
 * carrying a valid cookie, makes the connection), answers ARP, sends RSTs
 * for segments of unknown connections (rate limited).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define EP_QUEUE	16	/* pending endpoint frames (RST, ARP replies) */

struct ep_frame {
	uint16_t len;
	uint8_t data[TCP_MIN_FRAME + TCP_OPT_MAX];
};

struct tcp_ep {
	struct tcp_ep_conf conf;
	struct tcp_conn **conns;
	uint32_t rr;			/* round-robin start for tx */
	uint32_t qhead, qlen;
	struct ep_frame q[EP_QUEUE];
	uint64_t rst_win;
	uint32_t rst_cnt;
	struct tcp_synq sq;		/* listen: the half-open table */
	struct tcp_ep_stats st;
};

void
tcp_ep_conf_default(struct tcp_ep_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_conns = 64;
	c->max_half_open = 4096;
	c->rst_per_sec = 100;
	tcp_conf_default(&c->accept_conf);
}

struct tcp_ep *
tcp_ep_create(const struct tcp_ep_conf *conf)
{
	struct tcp_ep *ep;

	if (conf->max_conns == 0 || conf->max_conns > 65536)
		return NULL;
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL)
		return NULL;
	ep->conf = *conf;
	ep->conns = calloc(conf->max_conns, sizeof(*ep->conns));
	if (ep->conns == NULL || (conf->listen && tcp_synq_init(&ep->sq, conf->max_half_open,
			conf->secret_seed, &conf->accept_conf) < 0)) {
		tcp_ep_free(ep);
		return NULL;
	}
	return ep;
}

void
tcp_ep_free(struct tcp_ep *ep)
{
	if (ep == NULL)
		return;
	for (uint32_t i = 0; ep->conns != NULL && i < ep->conf.max_conns; i++)
		tcp_conn_free(ep->conns[i]);
	tcp_synq_fini(&ep->sq);
	free(ep->conns);
	free(ep);
}

static int
ep_slot(struct tcp_ep *ep)
{
	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] == NULL)
			return (int)i;
	return -1;
}

struct tcp_conn *
tcp_ep_connect(struct tcp_ep *ep, const struct tcp_conf *conf, uint64_t now)
{
	int i = ep_slot(ep);
	struct tcp_conn *c;

	if (i < 0)
		return NULL;
	c = tcp_conn_connect(conf, now);
	if (c == NULL)
		return NULL;
	ep->conns[i] = c;
	ep->st.conns++;
	return c;
}

static struct ep_frame *
ep_enqueue(struct tcp_ep *ep)
{
	if (ep->qlen == EP_QUEUE)
		return NULL;
	return &ep->q[(ep->qhead + ep->qlen++) % EP_QUEUE];
}

/* RFC 9293 section 3.10.7.1: RST for a segment of no connection. */
static void
ep_rst(struct tcp_ep *ep, const struct tcp_seg *in, uint64_t now)
{
	struct tcp_seg s;
	struct ep_frame *f;
	int r;

	if (in->flags & TCP_FL_RST)
		return;
	if (now - ep->rst_win >= 1000000000ull) {
		ep->rst_win = now;
		ep->rst_cnt = 0;
	}
	if (ep->rst_cnt >= ep->conf.rst_per_sec || (f = ep_enqueue(ep)) == NULL) {
		ep->st.rst_suppressed++;
		return;
	}
	ep->rst_cnt++;
	memset(&s, 0, sizeof(s));
	memcpy(s.src_mac, ep->conf.local.mac, 6);
	memcpy(s.dst_mac, in->src_mac, 6);
	s.src_ip = in->dst_ip;
	s.dst_ip = in->src_ip;
	s.src_port = in->dst_port;
	s.dst_port = in->src_port;
	if (in->flags & TCP_FL_ACK) {
		s.seq = in->ack;
		s.flags = TCP_FL_RST;
	} else {
		s.ack = in->seq + in->len + ((in->flags & TCP_FL_SYN) ? 1 : 0) +
			((in->flags & TCP_FL_FIN) ? 1 : 0);
		s.flags = TCP_FL_RST | TCP_FL_ACK;
	}
	r = tcp_build(f->data, sizeof(f->data), &s);
	if (r < 0) {
		ep->qlen--;
		return;
	}
	f->len = (uint16_t)r;
	ep->st.rst_sent++;
}

/* 0, or -NET_E_* (the numbers of -TCP_E_*) for a malformed frame. */
static int
ep_arp(struct tcp_ep *ep, const void *frame, size_t len)
{
	struct ep_frame *f = ep_enqueue(ep);
	int r;

	if (f == NULL)
		return 0;	/* no room for a reply */
	r = net_arp_answer(frame, len, ep->conf.local.mac, ep->conf.local.ip, f->data,
			sizeof(f->data));
	if (r <= 0) {
		ep->qlen--;
		return r;
	}
	f->len = (uint16_t)r;
	ep->st.arp_replies++;
	return 0;
}

/*
 * A SYN for the listener: a new entry (the oldest goes when the table is
 * full); the same SYN again, or one inside the entry's window (RFC 5961
 * section 4: a challenge), keeps the entry; either way its SYN-ACK is queued.
 */
static int
ep_syn(struct tcp_ep *ep, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_half *e = tcp_synq_find(&ep->sq, s->src_ip, s->src_port);
	uint32_t wnd = tcp_max32(ep->conf.accept_conf.rcvbuf, 65535);
	int evicted;

	if (e == NULL || (e->syn.seq != s->seq && s->seq - e->syn.seq - 1 >= wnd)) {
		/* outside an entry's window from its address and port: the
		 * latest SYN wins (a restarted initiator, or a spoofed one whose
		 * victim's ACK still completes by its cookie) */
		if (e != NULL)
			tcp_synq_kill(&ep->sq, e);
		ep->st.half_open_expired += tcp_synq_expire(&ep->sq, now);
		e = tcp_synq_add(&ep->sq, s, now, &evicted);
		ep->st.half_open_evicted += (uint64_t)evicted;
	}
	tcp_synq_queue(&ep->sq, e);
	ep->st.syn_rx++;
	return 0;
}

/*
 * A segment (ACK, no SYN or RST) for the listener from no connection: the
 * final ACK of a handshake whose entry or cookie it matches makes the
 * connection, ESTABLISHED before on_accept sees it and before its data (if
 * any) is delivered. Anything else: -TCP_E_NO_CONN.
 */
static int
ep_ack(struct tcp_ep *ep, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_half *e = tcp_synq_find(&ep->sq, s->src_ip, s->src_port);
	struct tcp_conf cf = ep->conf.accept_conf;
	struct tcp_seg syn, ack = *s;
	struct tcp_conn *c;
	uint64_t t = now;
	int slot, r, cookie = 0;

	if (e != NULL && s->ack == e->iss + 1) {
		syn = e->syn;
		t = e->t;
	} else if (e == NULL && !tcp_synq_cookie_mode(&ep->sq, now)) {
		return -TCP_E_NO_CONN;
	} else if (tcp_cookie_check(&ep->sq.key, s, now, &syn) < 0) {
		/* (an entry of its address and port: replaced by a later SYN) */
		ep->st.syn_cookies_bad++;
		return -TCP_E_NO_CONN;
	} else {
		cookie = 1;
	}
	slot = ep_slot(ep);
	cf.local = ep->conf.local;
	memcpy(cf.remote.mac, s->src_mac, 6);
	cf.remote.ip = s->src_ip;
	cf.remote.port = s->src_port;
	c = slot < 0 ? NULL : tcp_conn_accept(&cf, &syn, s->ack - 1, t);
	if (c == NULL) {
		ep->st.drops[TCP_E_FULL]++;
		return -TCP_E_FULL;
	}
	/* the handshake alone first: the application's sink is set by on_accept */
	ack.len = 0;
	ack.flags &= (uint8_t)~TCP_FL_FIN;
	r = tcp_conn_rx(c, &ack, now);
	if (tcp_conn_state(c) != TCP_ESTABLISHED) {
		tcp_conn_free(c);
		ep->st.conn_drops[r < 0 ? -r : TCP_E_STATE]++;
		return r < 0 ? r : -TCP_E_STATE;
	}
	if (e != NULL)
		tcp_synq_kill(&ep->sq, e);
	ep->st.syn_cookies_ok += (uint64_t)cookie;
	ep->conns[slot] = c;
	ep->st.conns++;
	ep->st.syn_accepted++;
	if (ep->conf.on_accept != NULL)
		ep->conf.on_accept(ep->conf.accept_ctx, c);
	if (s->len == 0 && !(s->flags & TCP_FL_FIN))
		return 0;
	c->st.rx_pkts--;	/* the same segment again, for its data */
	c->st.rx_bytes -= s->frame_len;
	r = tcp_conn_rx(c, s, now);
	if (r < 0)
		ep->st.conn_drops[-r]++;
	return r;
}

/* A segment for the listening port from no connection: SYN, final ACK, RST. */
static int
ep_listen(struct tcp_ep *ep, const struct tcp_seg *s, uint64_t now)
{
	uint8_t f = s->flags & (TCP_FL_SYN | TCP_FL_ACK | TCP_FL_RST);
	struct tcp_half *e;

	if (f == TCP_FL_SYN)
		return ep_syn(ep, s, now);
	if (f == TCP_FL_ACK)
		return ep_ack(ep, s, now);
	if (f & TCP_FL_RST) {
		/* RFC 5961 section 3.2: an entry ends only at exactly its sequence */
		e = tcp_synq_find(&ep->sq, s->src_ip, s->src_port);
		if (e != NULL && s->seq == e->syn.seq + 1) {
			tcp_synq_kill(&ep->sq, e);
			return 0;
		}
	}
	return -TCP_E_NO_CONN;
}

int
tcp_ep_rx(struct tcp_ep *ep, const void *frame, size_t len, uint64_t now)
{
	struct tcp_seg s;
	struct tcp_conn *c = NULL;
	int r;

	ep->st.rx_pkts++;
	if (len >= TCP_ETH_LEN &&
			net_rd16((const uint8_t *)frame + 12) == NET_ETHERTYPE_ARP) {
		r = ep_arp(ep, frame, len);
		if (r < 0)
			ep->st.drops[-r]++;
		return r;
	}
	r = tcp_parse(frame, len, ep->conf.rx_flags, &s);
	if (r < 0) {
		ep->st.drops[-r]++;
		return r;
	}
	if (s.dst_ip != ep->conf.local.ip) {
		ep->st.drops[TCP_E_ADDR]++;
		return -TCP_E_ADDR;
	}
	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] != NULL && tcp_conn_state(ep->conns[i]) != TCP_CLOSED &&
				tcp_conn_match(ep->conns[i], &s)) {
			c = ep->conns[i];
			break;
		}
	if (c != NULL) {
		r = tcp_conn_rx(c, &s, now);
		if (r < 0)
			ep->st.conn_drops[-r]++;
		if (r == -TCP_E_ACK && tcp_conn_state(c) == TCP_SYN_SENT)
			ep_rst(ep, &s, now);
		return r;
	}
	r = -TCP_E_NO_CONN;
	if (ep->conf.listen && s.dst_port == ep->conf.local.port) {
		r = ep_listen(ep, &s, now);
		if (r != -TCP_E_NO_CONN)
			return r;
	}
	ep->st.drops[TCP_E_NO_CONN]++;
	ep_rst(ep, &s, now);
	return r;
}

/* Queued SYN-ACKs into bufs[0..n): how many. */
static unsigned int
ep_synacks(struct tcp_ep *ep, uint64_t now, void *const *bufs, uint16_t *lens, size_t cap,
		unsigned int n)
{
	struct tcp_conf cf = ep->conf.accept_conf;
	unsigned int k = 0;
	struct tcp_half *e;
	struct tcp_seg s;
	int r;

	cf.local = ep->conf.local;
	ep->st.half_open_expired += tcp_synq_expire(&ep->sq, now);
	while (k < n && (e = tcp_synq_next(&ep->sq, now)) != NULL) {
		tcp_conn_synack(&cf, &e->syn, e->iss, now, &s);
		r = tcp_wire_build(bufs[k], cap, &s, cf.ttl);
		if (r < 0)
			continue;
		lens[k++] = (uint16_t)r;
		if (ep->sq.live == ep->sq.cap)
			ep->st.syn_cookies_sent++;
	}
	return k;
}

unsigned int
tcp_ep_tx_burst(struct tcp_ep *ep, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;
	uint32_t m = ep->conf.max_conns;

	while (k < n && ep->qlen) {
		struct ep_frame *f = &ep->q[ep->qhead];

		if (cap >= f->len) {
			memcpy(bufs[k], f->data, f->len);
			lens[k++] = f->len;
		}
		ep->qhead = (ep->qhead + 1) % EP_QUEUE;
		ep->qlen--;
	}
	if (ep->conf.listen)
		k += ep_synacks(ep, now, bufs + k, lens + k, cap, n - k);
	for (uint32_t j = 0; j < m && k < n; j++) {
		uint32_t i = (ep->rr + j) % m;

		if (ep->conns[i] != NULL)
			k += tcp_conn_tx_burst(ep->conns[i], now, bufs + k, lens + k, cap, n - k);
	}
	ep->rr = (ep->rr + 1) % m;
	return k;
}

uint64_t
tcp_ep_next_deadline(const struct tcp_ep *ep, uint64_t now)
{
	uint64_t d = UINT64_MAX;

	if (ep->qlen || ep->sq.pcount)
		return now;
	if (ep->conf.listen)
		d = tcp_synq_deadline(&ep->sq);
	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] != NULL) {
			uint64_t t = tcp_conn_next_deadline(ep->conns[i], now);

			if (t < d)
				d = t;
		}
	return d;
}

unsigned int
tcp_ep_reap(struct tcp_ep *ep)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] != NULL && tcp_conn_state(ep->conns[i]) == TCP_CLOSED) {
			tcp_conn_free(ep->conns[i]);
			ep->conns[i] = NULL;
			n++;
		}
	return n;
}

struct tcp_conn *
tcp_ep_next_conn(struct tcp_ep *ep, uint32_t *pos)
{
	for (; *pos < ep->conf.max_conns; (*pos)++)
		if (ep->conns[*pos] != NULL)
			return ep->conns[(*pos)++];
	return NULL;
}

void
tcp_ep_stats(const struct tcp_ep *ep, struct tcp_ep_stats *st)
{
	uint64_t n = 0;

	*st = ep->st;
	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] != NULL)
			n++;
	st->conns = n;
	st->half_open = ep->sq.live;
}

void
tcp_ep_stats_add(struct tcp_ep_stats *sum, const struct tcp_ep_stats *a)
{
	sum->rx_pkts += a->rx_pkts;
	sum->rst_sent += a->rst_sent;
	sum->rst_suppressed += a->rst_suppressed;
	sum->syn_accepted += a->syn_accepted;
	sum->syn_rx += a->syn_rx;
	sum->arp_replies += a->arp_replies;
	sum->conns += a->conns;
	sum->half_open += a->half_open;
	sum->half_open_evicted += a->half_open_evicted;
	sum->half_open_expired += a->half_open_expired;
	sum->syn_cookies_sent += a->syn_cookies_sent;
	sum->syn_cookies_ok += a->syn_cookies_ok;
	sum->syn_cookies_bad += a->syn_cookies_bad;
	for (int e = 0; e < TCP_E_MAX; e++) {
		sum->drops[e] += a->drops[e];
		sum->conn_drops[e] += a->conn_drops[e];
	}
}
