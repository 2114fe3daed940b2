/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP endpoint: one local address:port. Connection ids are random (a
 * per-endpoint secret seeded from getrandom()) and found through a hash
 * table; received frames go to their connection, unknown ids are answered
 * with RST and ARP requests with replies. A SYN makes only a small
 * half-open record (no connection, no buffers) in a FIFO table whose
 * oldest entry makes room when it is full; the connection is made, with
 * its receive memory reserved from the pool, when the initiator's ACK,
 * DATA or FIN proves it got our SYNACK. doc/protocol.md, "Identity" and
 * "Admission".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

/* ------------------------------------------------------------------ */
/* control frames of the endpoint (RST, SYNACK, ARP replies)            */
/* ------------------------------------------------------------------ */

static void
ctrl_put(struct dfcp_ep *ep, const struct dfcp_addr *dst, const struct dfcp_pkt *pkt)
{
	uint32_t i;
	int len;

	if (ep->ctrl_count == DFCP_EP_CTRL_RING)
		return;		/* bounded: excess control frames are not sent */
	i = (ep->ctrl_head + ep->ctrl_count) % DFCP_EP_CTRL_RING;
	len = dfcp_build_auth(ep->ctrl[i], DFCP_EP_CTRL_FRAME, &ep->conf.local, dst, pkt, ep->conf.csum,
			ep->has_auth ? &ep->auth : NULL);
	if (len < 0)
		return;
	ep->ctrl_len[i] = (uint16_t)len;
	ep->ctrl_count++;
	if (pkt->type == DFCP_T_RST)
		ep->st.rst_sent++;
}

static void
ctrl_rst(struct dfcp_ep *ep, const struct dfcp_pkt *in, uint16_t reason)
{
	struct dfcp_addr dst;
	struct dfcp_pkt pkt;

	dfcp_pkt_src(in, &dst);
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = DFCP_T_RST;
	pkt.dst_cid = in->src_cid;
	pkt.src_cid = in->dst_cid ? in->dst_cid : 0xffffffffu;
	pkt.u.rst.reason = reason;
	ctrl_put(ep, &dst, &pkt);
}

static void
ctrl_synack(struct dfcp_ep *ep, const struct ep_slot *s)
{
	struct dfcp_pkt pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.type = DFCP_T_SYNACK;
	pkt.dst_cid = s->rcid;
	pkt.src_cid = s->lcid;
	pkt.u.params = s->p;
	pkt.flags = s->p.flags;
	ctrl_put(ep, &s->peer, &pkt);
}

static int
ep_drop(struct dfcp_ep *ep, int rc)
{
	if (rc < 0 && -rc < DFCP_E_MAX)
		ep->st.drops[-rc]++;
	return rc;
}

/* With a key, what is not signed with it is dropped (and never answered). */
static int
ep_auth(const struct dfcp_ep *ep, const struct dfcp_pkt *pkt)
{
	if (ep->has_auth)
		return dfcp_auth_check(&ep->auth, pkt);
	return (pkt->flags & DFCP_F_AUTH) ? -DFCP_E_AUTH : 0;
}

/* ------------------------------------------------------------------ */
/* connections                                                          */
/* ------------------------------------------------------------------ */

struct dfcp_conn *
dfcp_ep_conn(struct dfcp_ep *ep, uint32_t cid)
{
	uint32_t i = dfcp_ep_cid_find(ep, cid);

	return i != DFCP_EP_NIL && ep->sl[i].state == SL_CONN ? ep->sl[i].conn : NULL;
}

struct dfcp_conn *
dfcp_ep_connect(struct dfcp_ep *ep, const struct dfcp_conn_conf *conf, uint64_t now)
{
	struct dfcp_conn_conf cc = *conf;
	struct dfcp_conn *c;
	uint32_t cid, i;

	if (ep->n_conns >= ep->conf.max_conns)
		return NULL;
	/* a listener's records are receivers; a sender's window fits its record */
	if (ep->slab != NULL && dfcp_slab_is_rx(ep->slab))
		return NULL;
	if (ep->slab != NULL && cc.window > dfcp_slab_window(ep->slab))
		cc.window = dfcp_slab_window(ep->slab);
	i = dfcp_ep_slot_take(ep, &cid);
	if (i == DFCP_EP_NIL)
		return NULL;
	cc.local = ep->conf.local;
	if (cc.auth_key_len == 0 && ep->has_auth) {
		memcpy(cc.auth_key, ep->conf.auth_key, sizeof(cc.auth_key));
		cc.auth_key_len = ep->conf.auth_key_len;
	}
	c = dfcp_conn_connect_in(&cc, cid, ep->slab, now);
	if (c == NULL) {
		dfcp_ep_slot_release(ep, i);
		return NULL;
	}
	dfcp_ep_slot_conn(ep, i, c);
	return c;
}

/* Blocks of p's shape still within the accounting budget (UINT32_MAX: no budget). */
static uint32_t
budget_blocks(const struct dfcp_ep *ep, const struct dfcp_params *p)
{
	uint64_t n;

	if (ep->rx_budget == 0)
		return UINT32_MAX;
	n = (ep->rx_budget - ep->rx_used) / dfcp_rx_block_bytes(p->K, p->T);
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

/* Without a pool: the window clamped to the budget left; none left: refused. */
static uint16_t
syn_budget(struct dfcp_ep *ep, struct dfcp_params *p, int *err)
{
	uint32_t n = budget_blocks(ep, p);

	if (n == 0) {
		*err = -DFCP_E_MEMORY;
		return DFCP_RST_FULL;
	}
	if (p->window > n) {
		p->window = n;
		ep->st.syn_clamped++;
	}
	return 0;
}

/*
 * What a SYN may get: the listener's limits (window clamped, K and T
 * refused), the pool's shape, and the window clamped to the receive memory
 * still free. 0, or the RST reason (and *err the drop reason).
 */
static uint16_t
syn_admit(struct dfcp_ep *ep, const struct dfcp_pkt *pkt, struct dfcp_params *p, int *err)
{
	*err = -DFCP_E_PARAMS;
	if (dfcp_accept_params(&ep->conf.accept_conf, pkt, &ep->conf.limits, p) != 0)
		return DFCP_RST_PARAMS;
	if (p->window < pkt->u.params.window)
		ep->st.syn_clamped++;
	if (!(p->flags & DFCP_F_DEC))
		return 0;
	if (ep->pool == NULL)
		return syn_budget(ep, p, err);
	if (!dfcp_pool_shape_ok(ep->pool, p->K, p->T))
		return DFCP_RST_PARAMS;
	if (dfcp_pool_rx_free(ep->pool) == 0) {
		dfcp_pool_count_refused(ep->pool);
		*err = -DFCP_E_MEMORY;
		return DFCP_RST_FULL;
	}
	/* shared: the window is drawn as free (its guarantee: one buffer) */
	if (!dfcp_pool_is_shared(ep->pool) && p->window > dfcp_pool_rx_free(ep->pool)) {
		p->window = dfcp_pool_rx_free(ep->pool);
		dfcp_pool_count_refused(ep->pool);
		ep->st.syn_clamped++;
	}
	return 0;
}

static int
ep_syn(struct dfcp_ep *ep, const struct dfcp_pkt *pkt, uint64_t now)
{
	struct dfcp_params p;
	struct ep_slot *s;
	uint32_t i, cid, h;
	uint16_t rst;
	int rc;

	rc = ep_auth(ep, pkt);
	if (rc < 0)
		return ep_drop(ep, rc);
	/* a retransmitted SYN: its SYNACK again (or the connection's answer) */
	i = dfcp_ep_syn_find(ep, pkt);
	if (i != DFCP_EP_NIL && ep->sl[i].state == SL_HALF) {
		ep->sl[i].retried = 1;
		ctrl_synack(ep, &ep->sl[i]);
		return 0;
	}
	if (i != DFCP_EP_NIL)
		return ep_drop(ep, dfcp_conn_rx(ep->sl[i].conn, pkt, now));
	if (!ep->conf.listen) {
		ctrl_rst(ep, pkt, DFCP_RST_UNKNOWN);
		return ep_drop(ep, -DFCP_E_CONN);
	}
	rst = syn_admit(ep, pkt, &p, &rc);
	/* encryption: the SYN offers the suite required, or it is refused */
	if (rst == 0 && pkt->u.params.suite != ep->conf.crypto) {
		rst = DFCP_RST_PARAMS;
		rc = -DFCP_E_CRYPTO;
	}
	if (rst != 0) {
		ctrl_rst(ep, pkt, rst);
		return ep_drop(ep, rc);
	}
	dfcp_ep_half_expire(ep, now);
	if (ep->conf.max_half_open == 0)
		return ep_drop(ep, -DFCP_E_BACKLOG);
	if (ep->n_half >= ep->conf.max_half_open)
		dfcp_ep_half_evict(ep);
	i = dfcp_ep_slot_take(ep, &cid);
	if (i == DFCP_EP_NIL)
		return ep_drop(ep, -DFCP_E_BACKLOG);
	s = &ep->sl[i];
	if (ep->hkeys != NULL && dfcp_sess_respond(ep->conf.crypto, ep->conf.auth_key,
			ep->conf.auth_key_len, pkt, cid, &p, &ep->hkeys[i]) < 0) {
		dfcp_ep_slot_release(ep, i);
		return ep_drop(ep, -DFCP_E_CRYPTO);
	}
	s->state = SL_HALF;
	s->rcid = pkt->src_cid;
	dfcp_pkt_src(pkt, &s->peer);
	s->p = p;
	s->t = now;
	s->on_syn = 1;
	h = dfcp_ep_syn_bucket(ep, s->peer.ip, s->peer.port, s->rcid);
	s->syn_next = ep->syn_head[h];
	ep->syn_head[h] = i;
	dfcp_ep_half_push(ep, i);
	ep->st.syn_accepted++;
	ctrl_synack(ep, s);
	return 0;
}

/*
 * A packet for a half-open entry. The initiator's ACK, DATA or FIN (from
 * its address and id: it got our SYNACK) makes the connection, its
 * receive memory reserved now; its RST ends the entry.
 */
static int
ep_half_rx(struct dfcp_ep *ep, uint32_t i, struct dfcp_pkt *pkt, uint64_t now)
{
	struct ep_slot *s = &ep->sl[i];
	struct dfcp_conn_conf cc;
	struct dfcp_conn *c;
	struct dfcp_pkt syn;
	uint8_t t = pkt->type;
	int rc;

	if (pkt->src_ip != s->peer.ip || pkt->src_port != s->peer.port)
		return ep_drop(ep, -DFCP_E_PEER);
	if (pkt->src_cid != s->rcid)
		return ep_drop(ep, -DFCP_E_CONN);
	rc = ep->hkeys != NULL ? dfcp_sess_half_check(&ep->hkeys[i], &ep->auth, pkt) :
		ep_auth(ep, pkt);
	if (rc < 0)
		return ep_drop(ep, rc);
	if (t == DFCP_T_RST) {
		dfcp_ep_slot_release(ep, i);
		return 0;
	}
	if (!(t == DFCP_T_ACK && pkt->u.ack.acked == DFCP_T_SYNACK) && t != DFCP_T_DATA &&
			t != DFCP_T_FIN)
		return ep_drop(ep, -DFCP_E_STATE);
	if (ep->n_conns >= ep->conf.max_conns) {
		ctrl_rst(ep, pkt, DFCP_RST_FULL);
		dfcp_ep_slot_release(ep, i);
		return ep_drop(ep, -DFCP_E_BACKLOG);
	}
	/* the budget may have gone to others since the SYNACK */
	if (ep->pool == NULL && (s->p.flags & DFCP_F_DEC) && budget_blocks(ep, &s->p) < s->p.window) {
		ctrl_rst(ep, pkt, DFCP_RST_FULL);
		dfcp_ep_slot_release(ep, i);
		return ep_drop(ep, -DFCP_E_MEMORY);
	}
	memset(&syn, 0, sizeof(syn));
	syn.type = DFCP_T_SYN;
	memcpy(syn.src_mac, s->peer.mac, 6);
	syn.src_ip = s->peer.ip;
	syn.src_port = s->peer.port;
	syn.src_cid = s->rcid;
	syn.u.params = s->p;
	syn.flags = s->p.flags;
	cc = ep->conf.accept_conf;
	cc.local = ep->conf.local;
	cc.crypto = ep->conf.crypto;
	cc.csum = ep->conf.csum;
	memcpy(cc.auth_key, ep->conf.auth_key, sizeof(cc.auth_key));
	cc.auth_key_len = ep->conf.auth_key_len;
	c = dfcp_conn_accept_established(&cc, s->lcid, &syn, &ep->conf.limits, ep->pool, ep->slab,
			s->t, !s->retried, now);
	if (c == NULL) {
		ctrl_rst(ep, pkt, DFCP_RST_FULL);
		dfcp_ep_slot_release(ep, i);
		return ep_drop(ep, -DFCP_E_MEMORY);
	}
	if (ep->hkeys != NULL && dfcp_sess_install(c, &ep->hkeys[i], 0) < 0) {
		dfcp_conn_free(c);
		ctrl_rst(ep, pkt, DFCP_RST_FULL);
		dfcp_ep_slot_release(ep, i);
		return ep_drop(ep, -DFCP_E_MEMORY);
	}
	dfcp_ep_slot_conn(ep, i, c);
	if (ep->pool == NULL && ep->rx_budget != 0 && (s->p.flags & DFCP_F_DEC)) {
		s->rx_resv = (uint64_t)s->p.window * dfcp_rx_block_bytes(s->p.K, s->p.T);
		ep->rx_used += s->rx_resv;
		c->st.rx_mem_bytes = s->rx_resv;
	}
	if (ep->conf.on_accept != NULL)
		ep->conf.on_accept(ep->conf.accept_ctx, c);
	rc = dfcp_conn_rx(c, pkt, now);
	return rc < 0 ? ep_drop(ep, rc) : rc;
}

static int
ep_arp(struct dfcp_ep *ep, const void *frame, size_t len)
{
	uint32_t i;
	int rc;

	if (ep->ctrl_count == DFCP_EP_CTRL_RING)
		return 0;
	i = (ep->ctrl_head + ep->ctrl_count) % DFCP_EP_CTRL_RING;
	rc = net_arp_answer(frame, len, ep->conf.local.mac, ep->conf.local.ip, ep->ctrl[i],
			DFCP_EP_CTRL_FRAME);
	if (rc < 0)
		return ep_drop(ep, rc);	/* -NET_E_*: the numbers of -DFCP_E_* */
	if (rc > 0) {
		ep->ctrl_len[i] = (uint16_t)rc;
		ep->ctrl_count++;
		ep->st.arp_replies++;
	}
	return 0;
}

/* conf.rx_defer: a sealed DATA of established c held for the next flush. */
static int
ep_hold(struct dfcp_ep *ep, struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	if (ep->n_defer == DFCP_EP_DEFER)
		ep->defer_bad += dfcp_ep_rx_flush(ep, now);
	ep->defer[ep->n_defer].pkt = *pkt;
	ep->defer[ep->n_defer].c = c;
	ep->n_defer++;
	ep->st.rx_held++;
	ep->defer_now = now;
	return 0;
}

/*
 * The held DATA: opened in one AEAD burst per run of one connection, then
 * each handled as dfcp_ep_rx would have (a connection a frame before it
 * closed drops the rest as "conn"). No connection is freed between a hold
 * and its flush: dfcp_ep_reap flushes first.
 */
unsigned int
dfcp_ep_rx_flush(struct dfcp_ep *ep, uint64_t now)
{
	struct dfcp_pkt *run[DFCP_EP_DEFER];
	uint32_t n = ep->n_defer, i = 0, k;
	unsigned int bad;

	ep->n_defer = 0;
	while (i < n) {
		for (k = 0; i + k < n && ep->defer[i + k].c == ep->defer[i].c; k++)
			run[k] = &ep->defer[i + k].pkt;
		dfcp_sess_open_burst(ep->defer[i].c, run, k);
		ep->st.rx_held_bursts++;
		i += k;
	}
	for (i = 0; i < n; i++) {
		struct dfcp_conn *c = ep->defer[i].c;
		int rc = dfcp_conn_state(c) == DFCP_CLOSED ? -DFCP_E_CONN :
			dfcp_conn_rx(c, &ep->defer[i].pkt, now);

		if (rc < 0) {
			ep_drop(ep, rc);
			ep->defer_bad += rc != -DFCP_E_STALE;
		}
	}
	bad = ep->defer_bad;
	ep->defer_bad = 0;
	return bad;
}

unsigned int
dfcp_ep_rx_held(const struct dfcp_ep *ep)
{
	return ep->n_defer;
}

int
dfcp_ep_rx(struct dfcp_ep *ep, const void *frame, size_t len, uint64_t now)
{
	struct dfcp_pkt pkt;
	struct dfcp_conn *c;
	uint32_t i;
	int rc;

	ep->st.rx_pkts++;
	if (len >= DFCP_ETH_LEN && net_rd16((const uint8_t *)frame + 12) == NET_ETHERTYPE_ARP)
		return ep_arp(ep, frame, len);
	rc = dfcp_parse(frame, len, ep->conf.rx_flags, &pkt);
	if (rc == -DFCP_E_PARAMS && pkt.type == DFCP_T_SYN && !ep->has_auth &&
			pkt.dst_ip == ep->conf.local.ip && pkt.dst_port == ep->conf.local.port)
		ctrl_rst(ep, &pkt, DFCP_RST_PARAMS);
	if (rc < 0)
		return ep_drop(ep, rc);
	if (pkt.dst_ip != ep->conf.local.ip || pkt.dst_port != ep->conf.local.port)
		return ep_drop(ep, -DFCP_E_ADDR);
	i = pkt.type == DFCP_T_SYN ? DFCP_EP_NIL : dfcp_ep_cid_find(ep, pkt.dst_cid);
	c = i != DFCP_EP_NIL && ep->sl[i].state != SL_HALF ? ep->sl[i].conn : NULL;
	if (ep->defer != NULL && c != NULL && dfcp_conn_state(c) != DFCP_CLOSED &&
			dfcp_sess_defer_ok(c, &pkt))
		return ep_hold(ep, c, &pkt, now);
	if (ep->n_defer != 0)	/* what was held goes first: the order of frames is kept */
		ep->defer_bad += dfcp_ep_rx_flush(ep, now);
	if (pkt.type == DFCP_T_SYN)
		return ep_syn(ep, &pkt, now);
	if (i != DFCP_EP_NIL && ep->sl[i].state == SL_HALF)
		return ep_half_rx(ep, i, &pkt, now);
	if (c == NULL || dfcp_conn_state(c) == DFCP_CLOSED) {
		/* an RST answering our SYN names only our cid in dst; never an RST for an RST */
		if (pkt.type == DFCP_T_RST)
			return ep_drop(ep, -DFCP_E_CONN);
		rc = ep_auth(ep, &pkt);
		if (rc < 0)
			return ep_drop(ep, rc);
		ctrl_rst(ep, &pkt, DFCP_RST_UNKNOWN);
		return ep_drop(ep, -DFCP_E_CONN);
	}
	rc = dfcp_conn_rx(c, &pkt, now);
	return rc < 0 ? ep_drop(ep, rc) : rc;
}

unsigned int
dfcp_ep_tx_burst(struct dfcp_ep *ep, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;
	uint32_t m = ep->n_conns;

	while (k < n && ep->ctrl_count) {
		uint32_t i = ep->ctrl_head;

		if (cap < ep->ctrl_len[i])
			break;
		memcpy(bufs[k], ep->ctrl[i], ep->ctrl_len[i]);
		lens[k++] = ep->ctrl_len[i];
		ep->ctrl_head = (i + 1) % DFCP_EP_CTRL_RING;
		ep->ctrl_count--;
	}
	dfcp_ep_half_expire(ep, now);
	for (uint32_t j = 0; j < m && k < n; j++) {
		struct dfcp_conn *c = ep->sl[ep->conn_idx[(ep->rr + j) % m]].conn;

		k += dfcp_conn_tx_burst(c, now, bufs + k, lens + k, cap, n - k);
	}
	if (m)
		ep->rr = (ep->rr + 1) % m;
	return k;
}

uint64_t
dfcp_ep_next_deadline(const struct dfcp_ep *ep, uint64_t now)
{
	uint64_t d = ep->ctrl_count ? now : UINT64_MAX;

	for (uint32_t j = 0; j < ep->n_conns && d > now; j++) {
		uint64_t x = dfcp_conn_next_deadline(ep->sl[ep->conn_idx[j]].conn, now);

		if (x < d)
			d = x;
	}
	return d;
}

unsigned int
dfcp_ep_reap(struct dfcp_ep *ep)
{
	unsigned int n = 0;

	if (ep->n_defer != 0)	/* a held frame names its connection */
		ep->defer_bad += dfcp_ep_rx_flush(ep, ep->defer_now);

	for (uint32_t j = ep->n_conns; j-- > 0;) {
		uint32_t i = ep->conn_idx[j];
		struct dfcp_conn *c = ep->sl[i].conn;

		if (dfcp_conn_state(c) != DFCP_CLOSED)
			continue;
		if (dfcp_conn_next_deadline(c, 0) == 0)
			continue;	/* a final RST is still queued */
		dfcp_conn_free(c);
		dfcp_ep_slot_release(ep, i);
		n++;
	}
	return n;
}

struct dfcp_conn *
dfcp_ep_next_conn(struct dfcp_ep *ep, uint32_t *pos)
{
	if (*pos >= ep->n_conns)
		return NULL;
	return ep->sl[ep->conn_idx[(*pos)++]].conn;
}

void
dfcp_ep_stats(const struct dfcp_ep *ep, struct dfcp_ep_stats *st)
{
	*st = ep->st;
	st->half_open = ep->n_half;
	st->conns = ep->n_conns;
	if (ep->slab != NULL)
		dfcp_slab_stats(ep->slab, &st->slab_bytes, &st->slab_free, &st->slab_refused);
}
