/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The listener's half-open table and SYN cookies (RFC 4987 sections 3.3
 * and 3.6). An entry is a small record (the SYN, our ISN, timers): no
 * connection and no buffers until the final ACK. The table is a FIFO ring:
 * a SYN arriving when it is full evicts the oldest entry. Every SYN-ACK's
 * ISN is a cookie, so the handshake of an evicted entry still completes by
 * the cookie alone. A cookie is 9 bits of the SYN's options (MSS index,
 * window scale, SACK-permitted, timestamps) under a 23-bit SipHash MAC of
 * the addresses, ports, the peer's ISN, the options and the cookie period.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "tcp.h"
#include "tcp_priv.h"

#define PEND_CAP	256u	/* SYN-ACKs queued between two tx bursts */

/* ------------------------------------------------------------------ */
/* cookies                                                              */
/* ------------------------------------------------------------------ */

static const uint16_t cookie_mss[8] = {64, 536, 1220, 1380, 1440, 1460, 4036, 8960};

#define CK_WS_NONE	15u
#define CK_SACK		0x80u
#define CK_TS		0x100u
#define CK_BITS		9

/* 23-bit MAC over the initiator's and our address, its ISN, data, period. */
static uint32_t
cookie_mac(const struct net_sipkey *k, uint32_t pip, uint16_t pport, uint32_t lip,
		uint16_t lport, uint32_t irs, uint32_t data, uint64_t period)
{
	uint8_t b[28];

	net_wr32(b, pip);
	net_wr32(b + 4, lip);
	net_wr16(b + 8, pport);
	net_wr16(b + 10, lport);
	net_wr32(b + 12, irs);
	net_wr32(b + 16, data);
	net_wr64(b + 20, period);
	return (uint32_t)net_siphash24(k, b, sizeof(b)) & ((1u << (32 - CK_BITS)) - 1);
}

uint32_t
tcp_cookie_make(const struct net_sipkey *k, const struct tcp_seg *syn, uint64_t now)
{
	uint32_t mss = (syn->opts & TCP_O_MSS) && syn->mss ? syn->mss : 536, data = 0;

	for (uint32_t i = 1; i < 8 && cookie_mss[i] <= mss; i++)
		data = i;
	data |= ((syn->opts & TCP_O_WS) ? tcp_min32(syn->wscale, TCP_MAX_WSCALE) : CK_WS_NONE) << 3;
	if (syn->opts & TCP_O_SACKOK)
		data |= CK_SACK;
	if (syn->opts & TCP_O_TS)
		data |= CK_TS;
	return cookie_mac(k, syn->src_ip, syn->src_port, syn->dst_ip, syn->dst_port, syn->seq,
			data, now >> TCP_COOKIE_PERIOD_SHIFT) << CK_BITS | data;
}

int
tcp_cookie_check(const struct net_sipkey *k, const struct tcp_seg *ack, uint64_t now,
		struct tcp_seg *syn)
{
	uint32_t isn = ack->ack - 1, irs = ack->seq - 1, data = isn & ((1u << CK_BITS) - 1);
	uint32_t mac = isn >> CK_BITS, ws = (data >> 3) & 15;
	uint64_t p = now >> TCP_COOKIE_PERIOD_SHIFT;

	if (ws > TCP_MAX_WSCALE && ws != CK_WS_NONE)
		return -1;
	if (mac != cookie_mac(k, ack->src_ip, ack->src_port, ack->dst_ip, ack->dst_port, irs,
			data, p) && (p == 0 || mac != cookie_mac(k, ack->src_ip, ack->src_port,
			ack->dst_ip, ack->dst_port, irs, data, p - 1)))
		return -1;
	memset(syn, 0, sizeof(*syn));
	memcpy(syn->src_mac, ack->src_mac, 6);
	memcpy(syn->dst_mac, ack->dst_mac, 6);
	syn->src_ip = ack->src_ip;
	syn->dst_ip = ack->dst_ip;
	syn->src_port = ack->src_port;
	syn->dst_port = ack->dst_port;
	syn->seq = irs;
	syn->flags = TCP_FL_SYN;
	syn->wnd = ack->wnd;
	syn->opts = TCP_O_MSS;
	syn->mss = cookie_mss[data & 7];
	if (ws != CK_WS_NONE) {
		syn->opts |= TCP_O_WS;
		syn->wscale = (uint8_t)ws;
	}
	if (data & CK_SACK)
		syn->opts |= TCP_O_SACKOK;
	if ((data & CK_TS) && (ack->opts & TCP_O_TS)) {
		syn->opts |= TCP_O_TS;
		syn->tsval = ack->tsval;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the table                                                            */
/* ------------------------------------------------------------------ */

int
tcp_synq_init(struct tcp_synq *q, uint32_t cap, uint64_t seed, const struct tcp_conf *ac)
{
	uint32_t hs = 16;
	uint8_t k[NET_SIPKEY_LEN];
	uint64_t rto = ac->rto_init_ns ? ac->rto_init_ns : 1000000000ull;

	memset(q, 0, sizeof(*q));
	if (cap == 0 || cap > TCP_EP_MAX_HALF)
		return -EINVAL;
	if (seed != 0) {
		for (int i = 0; i < NET_SIPKEY_LEN; i++)
			k[i] = (uint8_t)(seed >> (8 * (i & 7))) ^ (uint8_t)(i * 0x5b);
	} else if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
		return -EIO;
	}
	net_sipkey_set(&q->key, k);
	while (hs < 2 * cap)
		hs *= 2;
	q->cap = cap;
	q->mask = hs - 1;
	q->pcap = PEND_CAP;
	q->h = calloc(cap, sizeof(*q->h));
	q->bucket = malloc(hs * sizeof(*q->bucket));
	q->pend = calloc(q->pcap, sizeof(*q->pend));
	if (q->h == NULL || q->bucket == NULL || q->pend == NULL) {
		tcp_synq_fini(q);
		return -ENOMEM;
	}
	memset(q->bucket, 0xff, hs * sizeof(*q->bucket));
	q->rto_ns = rto;
	q->retries = ac->syn_retries;
	for (uint32_t i = 0; i <= q->retries; i++)
		q->life_ns += tcp_min64(rto << (i < 20 ? i : 20), tcp_max64(ac->rto_max_ns, rto));
	q->scan_at = UINT64_MAX;
	return 0;
}

void
tcp_synq_fini(struct tcp_synq *q)
{
	free(q->h);
	free(q->bucket);
	free(q->pend);
	q->h = NULL;
	q->bucket = NULL;
	q->pend = NULL;
}

/* The chain of (ip, port), keyed: a flood cannot aim at one chain. */
static uint32_t *
chain(struct tcp_synq *q, uint32_t ip, uint16_t port)
{
	uint8_t b[6];

	net_wr32(b, ip);
	net_wr16(b + 4, port);
	return &q->bucket[net_siphash24(&q->key, b, sizeof(b)) & q->mask];
}

struct tcp_half *
tcp_synq_find(struct tcp_synq *q, uint32_t ip, uint16_t port)
{
	for (uint32_t i = *chain(q, ip, port); i != TCP_HALF_NIL; i = q->h[i].next)
		if (q->h[i].syn.src_ip == ip && q->h[i].syn.src_port == port)
			return &q->h[i];
	return NULL;
}

void
tcp_synq_kill(struct tcp_synq *q, struct tcp_half *e)
{
	uint32_t i = (uint32_t)(e - q->h), *p;

	if (!e->live)
		return;
	p = chain(q, e->syn.src_ip, e->syn.src_port);
	while (*p != TCP_HALF_NIL && *p != i)
		p = &q->h[*p].next;
	if (*p == i)
		*p = e->next;
	e->live = 0;
	q->live--;
}

/* Drop the oldest ring entry; 1 if it was live. */
static int
pop(struct tcp_synq *q)
{
	struct tcp_half *e = &q->h[q->head];
	int live = e->live;

	tcp_synq_kill(q, e);
	q->head = (q->head + 1) % q->cap;
	q->count--;
	return live;
}

uint32_t
tcp_synq_expire(struct tcp_synq *q, uint64_t now)
{
	uint32_t n = 0;

	while (q->count) {
		const struct tcp_half *e = &q->h[q->head];

		if (e->live && now - e->t < q->life_ns)
			break;
		n += (uint32_t)pop(q);
	}
	return n;
}

struct tcp_half *
tcp_synq_add(struct tcp_synq *q, const struct tcp_seg *syn, uint64_t now, int *evicted)
{
	struct tcp_half *e;
	uint32_t i, *c;
	uint8_t queued;

	*evicted = 0;
	if (q->count == q->cap)
		*evicted = pop(q);
	if (*evicted || q->live + 1 == q->cap)
		q->full_at = now ? now : 1;
	i = (q->head + q->count++) % q->cap;
	e = &q->h[i];
	queued = e->queued;	/* a queued SYN-ACK of the slot's last entry serves this one */
	memset(e, 0, sizeof(*e));
	e->queued = queued;
	e->syn = *syn;
	e->syn.payload = NULL;
	e->syn.len = 0;
	e->t = now;
	e->rtx_at = now + q->rto_ns;
	e->iss = tcp_cookie_make(&q->key, syn, now);
	e->live = 1;
	q->live++;
	c = chain(q, syn->src_ip, syn->src_port);
	e->next = *c;
	*c = i;
	if (q->retries && e->rtx_at < q->scan_at)
		q->scan_at = e->rtx_at;
	return e;
}

void
tcp_synq_queue(struct tcp_synq *q, struct tcp_half *e)
{
	if (e->queued || q->pcount == q->pcap)
		return;
	e->queued = 1;
	q->pend[(q->phead + q->pcount++) % q->pcap] = (uint32_t)(e - q->h);
}

/* SYN-ACKs due again: queued; the next look at most 8 times per RTO. */
static void
scan(struct tcp_synq *q, uint64_t now)
{
	uint64_t next = UINT64_MAX;

	for (uint32_t j = 0; j < q->count; j++) {
		struct tcp_half *e = &q->h[(q->head + j) % q->cap];

		if (!e->live || e->tries >= q->retries)
			continue;
		if (e->rtx_at <= now) {
			e->tries++;
			e->rtx_at = now + (q->rto_ns << (e->tries < 20 ? e->tries : 20));
			tcp_synq_queue(q, e);
		}
		if (e->tries < q->retries && e->rtx_at < next)
			next = e->rtx_at;
	}
	q->scan_at = next == UINT64_MAX ? next : tcp_max64(next, now + q->rto_ns / 8);
}

struct tcp_half *
tcp_synq_next(struct tcp_synq *q, uint64_t now)
{
	if (now >= q->scan_at)
		scan(q, now);
	while (q->pcount) {
		struct tcp_half *e = &q->h[q->pend[q->phead]];

		q->phead = (q->phead + 1) % q->pcap;
		q->pcount--;
		e->queued = 0;
		if (e->live)
			return e;
	}
	return NULL;
}

uint64_t
tcp_synq_deadline(const struct tcp_synq *q)
{
	uint64_t d = q->live ? q->scan_at : UINT64_MAX;

	if (q->count && q->h[q->head].live && q->h[q->head].t + q->life_ns < d)
		d = q->h[q->head].t + q->life_ns;
	return d;
}

int
tcp_synq_cookie_mode(const struct tcp_synq *q, uint64_t now)
{
	return q->full_at != 0 && now - q->full_at < (2ull << TCP_COOKIE_PERIOD_SHIFT);
}
