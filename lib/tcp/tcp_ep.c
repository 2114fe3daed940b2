/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP endpoint: one local address; demultiplexes frames to connections,
 * accepts SYNs (bounded half-open table), answers ARP, sends RSTs for
 * segments of unknown connections (rate limited).
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
	struct tcp_ep_stats st;
};

void
tcp_ep_conf_default(struct tcp_ep_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_conns = 64;
	c->max_half_open = 16;
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
	if (ep->conns == NULL) {
		free(ep);
		return NULL;
	}
	return ep;
}

void
tcp_ep_free(struct tcp_ep *ep)
{
	if (ep == NULL)
		return;
	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		tcp_conn_free(ep->conns[i]);
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

static uint32_t
ep_half_open(const struct tcp_ep *ep)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < ep->conf.max_conns; i++)
		if (ep->conns[i] != NULL && tcp_conn_is_half_open(ep->conns[i]))
			n++;
	return n;
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
	if (ep->conf.listen && s.dst_port == ep->conf.local.port &&
			(s.flags & (TCP_FL_SYN | TCP_FL_ACK | TCP_FL_RST)) == TCP_FL_SYN) {
		struct tcp_conf cf = ep->conf.accept_conf;
		int slot = ep_slot(ep);

		if (slot < 0 || ep_half_open(ep) >= ep->conf.max_half_open) {
			ep->st.drops[TCP_E_FULL]++;
			return -TCP_E_FULL;
		}
		cf.local = ep->conf.local;
		memcpy(cf.remote.mac, s.src_mac, 6);
		cf.remote.ip = s.src_ip;
		cf.remote.port = s.src_port;
		c = tcp_conn_accept(&cf, &s, now);
		if (c == NULL) {
			ep->st.drops[TCP_E_FULL]++;
			return -TCP_E_FULL;
		}
		ep->conns[slot] = c;
		ep->st.conns++;
		ep->st.syn_accepted++;
		if (ep->conf.on_accept != NULL)
			ep->conf.on_accept(ep->conf.accept_ctx, c);
		return 0;
	}
	ep->st.drops[TCP_E_NO_CONN]++;
	ep_rst(ep, &s, now);
	return -TCP_E_NO_CONN;
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

	if (ep->qlen)
		return now;
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
}
