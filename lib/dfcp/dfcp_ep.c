/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP endpoint: one local address:port. Demultiplexes received frames by
 * connection id, answers unknown ids with RST and ARP requests with replies,
 * accepts SYNs into a bounded half-open table.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

#define CTRL_RING	64u
#define CTRL_FRAME	DFCP_CTRL_MAX_LEN

struct dfcp_ep {
	struct dfcp_ep_conf conf;
	struct dfcp_conn **tab;
	uint8_t *half;			/* tab[i] counted as half-open */
	uint16_t *gen;
	uint32_t n_half, n_conns;
	uint32_t rr;			/* tx round robin */
	uint8_t ctrl[CTRL_RING][CTRL_FRAME];
	uint16_t ctrl_len[CTRL_RING];
	uint32_t ctrl_head, ctrl_count;
	struct dfcp_ep_stats st;
};

void
dfcp_ep_conf_default(struct dfcp_ep_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_conns = 1024;
	c->max_half_open = 64;
	c->limits.max_window = 4096;
	c->limits.max_K = DFCP_MAX_K;
	c->limits.max_T = DFCP_MAX_T;
	c->listen = 1;
	dfcp_conn_conf_default(&c->accept_conf);
}

struct dfcp_ep *
dfcp_ep_create(const struct dfcp_ep_conf *conf)
{
	struct dfcp_ep *ep;

	if (conf->max_conns == 0 || conf->max_conns > 65535 ||
			conf->max_half_open > conf->max_conns)
		return NULL;
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL)
		return NULL;
	ep->conf = *conf;
	ep->tab = calloc(conf->max_conns, sizeof(*ep->tab));
	ep->half = calloc(conf->max_conns, 1);
	ep->gen = calloc(conf->max_conns, sizeof(*ep->gen));
	if (ep->tab == NULL || ep->half == NULL || ep->gen == NULL) {
		dfcp_ep_free(ep);
		return NULL;
	}
	return ep;
}

void
dfcp_ep_free(struct dfcp_ep *ep)
{
	if (ep == NULL)
		return;
	for (uint32_t i = 0; ep->tab != NULL && i < ep->conf.max_conns; i++)
		dfcp_conn_free(ep->tab[i]);
	free(ep->tab);
	free(ep->half);
	free(ep->gen);
	free(ep);
}

static int
slot_alloc(struct dfcp_ep *ep, uint32_t *cid)
{
	for (uint32_t i = 0; i < ep->conf.max_conns; i++) {
		if (ep->tab[i] == NULL) {
			ep->gen[i]++;
			*cid = (uint32_t)ep->gen[i] << 16 | (i + 1);
			return (int)i;
		}
	}
	return -1;
}

struct dfcp_conn *
dfcp_ep_conn(struct dfcp_ep *ep, uint32_t cid)
{
	uint32_t idx = (cid & 0xffff);
	struct dfcp_conn *c;

	if (idx == 0 || idx > ep->conf.max_conns)
		return NULL;
	c = ep->tab[idx - 1];
	if (c == NULL || dfcp_conn_local_cid(c) != cid)
		return NULL;
	return c;
}

struct dfcp_conn *
dfcp_ep_connect(struct dfcp_ep *ep, const struct dfcp_conn_conf *conf, uint64_t now)
{
	struct dfcp_conn_conf cc = *conf;
	struct dfcp_conn *c;
	uint32_t cid;
	int i = slot_alloc(ep, &cid);

	if (i < 0)
		return NULL;
	cc.local = ep->conf.local;
	c = dfcp_conn_connect(&cc, cid, now);
	if (c == NULL)
		return NULL;
	ep->tab[i] = c;
	ep->n_conns++;
	return c;
}

static void
ctrl_push(struct dfcp_ep *ep, const struct dfcp_pkt *in, uint8_t type,
		uint16_t reason)
{
	struct dfcp_addr src = ep->conf.local, dst;
	struct dfcp_pkt pkt;
	uint32_t i;
	int len;

	if (ep->ctrl_count == CTRL_RING)
		return;		/* bounded: excess RSTs are not sent */
	memcpy(dst.mac, in->src_mac, 6);
	dst.ip = in->src_ip;
	dst.port = in->src_port;
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = type;
	pkt.dst_cid = in->src_cid;
	pkt.src_cid = in->dst_cid ? in->dst_cid : 0xffffffffu;
	pkt.u.rst.reason = reason;
	i = (ep->ctrl_head + ep->ctrl_count) % CTRL_RING;
	len = dfcp_build(ep->ctrl[i], CTRL_FRAME, &src, &dst, &pkt, ep->conf.csum);
	if (len < 0)
		return;
	ep->ctrl_len[i] = (uint16_t)len;
	ep->ctrl_count++;
	ep->st.rst_sent++;
}

static int
ep_drop(struct dfcp_ep *ep, int rc)
{
	if (rc < 0 && -rc < DFCP_E_MAX)
		ep->st.drops[-rc]++;
	return rc;
}

static int
ep_syn(struct dfcp_ep *ep, const struct dfcp_pkt *pkt, uint64_t now)
{
	struct dfcp_params p = pkt->u.params;
	struct dfcp_conn_conf cc;
	struct dfcp_conn *c;
	uint32_t cid;
	int i;

	/* a retransmitted SYN goes to its half-open connection */
	for (uint32_t j = 0; j < ep->conf.max_conns; j++) {
		c = ep->tab[j];
		if (c != NULL && !dfcp_conn_is_sender(c) &&
				dfcp_conn_state(c) != DFCP_CLOSED &&
				dfcp_conn_matches_syn(c, pkt))
			return dfcp_conn_rx(c, pkt, now);
	}
	if (!ep->conf.listen) {
		ctrl_push(ep, pkt, DFCP_T_RST, DFCP_RST_UNKNOWN);
		return ep_drop(ep, -DFCP_E_CONN);
	}
	if (ep->n_half >= ep->conf.max_half_open)
		return ep_drop(ep, -DFCP_E_BACKLOG);
	if (ep->conf.limits.max_window && p.window > ep->conf.limits.max_window)
		p.window = ep->conf.limits.max_window;
	if (dfcp_params_check(&p, &ep->conf.limits) != 0) {
		ctrl_push(ep, pkt, DFCP_T_RST, DFCP_RST_PARAMS);
		return ep_drop(ep, -DFCP_E_PARAMS);
	}
	i = slot_alloc(ep, &cid);
	if (i < 0) {
		ctrl_push(ep, pkt, DFCP_T_RST, DFCP_RST_FULL);
		return ep_drop(ep, -DFCP_E_BACKLOG);
	}
	cc = ep->conf.accept_conf;
	cc.local = ep->conf.local;
	cc.csum = ep->conf.csum;
	c = dfcp_conn_accept(&cc, cid, pkt, &ep->conf.limits, now);
	if (c == NULL)
		return ep_drop(ep, -DFCP_E_PARAMS);
	ep->tab[i] = c;
	ep->half[i] = 1;
	ep->n_half++;
	ep->n_conns++;
	ep->st.syn_accepted++;
	return 0;
}

int
dfcp_ep_rx(struct dfcp_ep *ep, const void *frame, size_t len, uint64_t now)
{
	struct dfcp_pkt pkt;
	struct dfcp_conn *c;
	uint32_t idx;
	int rc;

	ep->st.rx_pkts++;
	if (len >= DFCP_ETH_LEN && net_rd16((const uint8_t *)frame + 12) == DFCP_ETHERTYPE_ARP) {
		uint32_t i;

		if (ep->ctrl_count == CTRL_RING)
			return 0;
		i = (ep->ctrl_head + ep->ctrl_count) % CTRL_RING;
		rc = dfcp_arp_answer(frame, len, ep->conf.local.mac, ep->conf.local.ip,
				ep->ctrl[i], CTRL_FRAME);
		if (rc < 0)
			return ep_drop(ep, rc);
		if (rc > 0) {
			ep->ctrl_len[i] = (uint16_t)rc;
			ep->ctrl_count++;
			ep->st.arp_replies++;
		}
		return 0;
	}
	rc = dfcp_parse(frame, len, ep->conf.rx_flags, &pkt);
	if (rc == -DFCP_E_PARAMS && pkt.type == DFCP_T_SYN &&
			pkt.dst_ip == ep->conf.local.ip && pkt.dst_port == ep->conf.local.port)
		ctrl_push(ep, &pkt, DFCP_T_RST, DFCP_RST_PARAMS);
	if (rc < 0)
		return ep_drop(ep, rc);
	if (pkt.dst_ip != ep->conf.local.ip || pkt.dst_port != ep->conf.local.port)
		return ep_drop(ep, -DFCP_E_ADDR);
	if (pkt.type == DFCP_T_SYN)
		return ep_syn(ep, &pkt, now);
	c = dfcp_ep_conn(ep, pkt.dst_cid);
	if (c == NULL && pkt.type == DFCP_T_RST) {
		/* an RST answering our SYN names only our cid in dst */
		return ep_drop(ep, -DFCP_E_CONN);
	}
	if (c == NULL || dfcp_conn_state(c) == DFCP_CLOSED) {
		if (pkt.type != DFCP_T_RST)
			ctrl_push(ep, &pkt, DFCP_T_RST, DFCP_RST_UNKNOWN);
		return ep_drop(ep, -DFCP_E_CONN);
	}
	idx = (pkt.dst_cid & 0xffff) - 1;
	rc = dfcp_conn_rx(c, &pkt, now);
	if (ep->half[idx] && !dfcp_conn_is_half_open(c)) {
		ep->half[idx] = 0;
		ep->n_half--;
		if (dfcp_conn_state(c) == DFCP_ESTABLISHED && ep->conf.on_accept != NULL)
			ep->conf.on_accept(ep->conf.accept_ctx, c);
	}
	return rc < 0 ? ep_drop(ep, rc) : rc;
}

unsigned int
dfcp_ep_tx_burst(struct dfcp_ep *ep, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;
	uint32_t m = ep->conf.max_conns;

	while (k < n && ep->ctrl_count) {
		uint32_t i = ep->ctrl_head;

		if (cap < ep->ctrl_len[i])
			break;
		memcpy(bufs[k], ep->ctrl[i], ep->ctrl_len[i]);
		lens[k++] = ep->ctrl_len[i];
		ep->ctrl_head = (i + 1) % CTRL_RING;
		ep->ctrl_count--;
	}
	for (uint32_t j = 0; j < m && k < n; j++) {
		uint32_t i = (ep->rr + j) % m;
		struct dfcp_conn *c = ep->tab[i];

		if (c == NULL)
			continue;
		k += dfcp_conn_tx_burst(c, now, bufs + k, lens + k, cap, n - k);
		if (ep->half[i] && dfcp_conn_state(c) == DFCP_CLOSED) {
			ep->half[i] = 0;
			ep->n_half--;
		}
	}
	ep->rr = (ep->rr + 1) % m;
	return k;
}

uint64_t
dfcp_ep_next_deadline(const struct dfcp_ep *ep, uint64_t now)
{
	uint64_t d = ep->ctrl_count ? now : UINT64_MAX;

	for (uint32_t i = 0; i < ep->conf.max_conns && d > now; i++) {
		if (ep->tab[i] != NULL) {
			uint64_t x = dfcp_conn_next_deadline(ep->tab[i], now);

			if (x < d)
				d = x;
		}
	}
	return d;
}

unsigned int
dfcp_ep_reap(struct dfcp_ep *ep)
{
	unsigned int n = 0;

	for (uint32_t i = 0; i < ep->conf.max_conns; i++) {
		struct dfcp_conn *c = ep->tab[i];

		if (c == NULL || dfcp_conn_state(c) != DFCP_CLOSED)
			continue;
		if (dfcp_conn_next_deadline(c, 0) == 0)
			continue;	/* a final RST is still queued */
		if (ep->half[i]) {
			ep->half[i] = 0;
			ep->n_half--;
		}
		dfcp_conn_free(c);
		ep->tab[i] = NULL;
		ep->n_conns--;
		n++;
	}
	return n;
}

struct dfcp_conn *
dfcp_ep_next_conn(struct dfcp_ep *ep, uint32_t *pos)
{
	for (; *pos < ep->conf.max_conns; (*pos)++) {
		if (ep->tab[*pos] != NULL)
			return ep->tab[(*pos)++];
	}
	return NULL;
}

void
dfcp_ep_stats(const struct dfcp_ep *ep, struct dfcp_ep_stats *st)
{
	*st = ep->st;
	st->half_open = ep->n_half;
	st->conns = ep->n_conns;
}
