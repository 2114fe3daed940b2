/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP endpoint table: set-up, slots, random connection ids and the hash
 * chains that find them, the half-open FIFO (the oldest entry makes room,
 * entries expire). The receive path is in dfcp_ep.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/crypto.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

void
dfcp_ep_conf_default(struct dfcp_ep_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->max_conns = 1024;
	c->max_half_open = 4096;
	c->limits.max_window = 4096;
	c->limits.max_K = DFCP_MAX_K;
	c->limits.max_T = DFCP_MAX_T;
	c->listen = 1;
	dfcp_conn_conf_default(&c->accept_conf);
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

static int
ep_secret(struct dfcp_ep *ep)
{
	uint8_t k[16];

	if (ep->conf.secret_seed != 0) {
		for (int i = 0; i < 16; i++)
			k[i] = (uint8_t)(ep->conf.secret_seed >> (8 * (i & 7))) ^ (uint8_t)(i * 0x3b);
	} else if (getrandom(k, sizeof(k), 0) != (ssize_t)sizeof(k)) {
		return -EIO;
	}
	net_sipkey_set(&ep->secret, k);
	return 0;
}

/* The receive pool: the caller's, or one of max_rx_memory bytes made here. */
static int
ep_pool(struct dfcp_ep *ep)
{
	const struct dfcp_conn_conf *ac = &ep->conf.accept_conf;
	struct dfcp_pool_conf pc;
	uint64_t n;

	if (ep->conf.pool != NULL) {
		ep->pool = ep->conf.pool;
		return 0;
	}
	if (ep->conf.max_rx_memory == 0 || !ep->conf.listen) {
		ep->rx_budget = ep->conf.rx_budget == UINT64_MAX ? 0 : ep->conf.rx_budget != 0 ?
				ep->conf.rx_budget : dfcp_rx_budget_default(ep->conf.max_conns,
				ep->conf.limits.max_window, ac->K, ac->T);
		return 0;
	}
	memset(&pc, 0, sizeof(pc));
	pc.K = ac->K;
	pc.T = ac->T;
	n = ep->conf.max_rx_memory / ((uint64_t)ac->K * ac->T);
	pc.rx_slots = (uint32_t)(n > (1u << 24) ? 1u << 24 : n);
	pc.max_bytes = ep->conf.max_rx_memory;
	ep->pool = dfcp_pool_create(&pc);
	ep->pool_own = 1;
	return ep->pool != NULL ? 0 : -ENOMEM;
}

/*
 * conf.slab: the connection records, made now. A receiver's source bitmaps
 * are for the pool's K (the only one it accepts), else for limits.max_K.
 */
static int
ep_slab(struct dfcp_ep *ep)
{
	uint16_t K = ep->conf.limits.max_K ? ep->conf.limits.max_K : DFCP_MAX_K;
	struct dfcp_pool_stats ps;

	if (!ep->conf.slab)
		return 0;
	if (ep->pool != NULL) {
		dfcp_pool_stats(ep->pool, &ps);
		K = ps.K;
	}
	ep->slab = dfcp_slab_create(ep->conf.max_conns, ep->conf.listen,
			ep->conf.limits.max_window, ep->conf.listen ? K : 0);
	return ep->slab != NULL ? 0 : -ENOMEM;
}

struct dfcp_ep *
dfcp_ep_create(const struct dfcp_ep_conf *conf)
{
	uint32_t hs = 16;
	struct dfcp_ep *ep;

	if (conf->max_conns == 0 || conf->max_conns > 65535 || conf->max_half_open > DFCP_EP_MAX_HALF ||
			(conf->auth_key_len != 0 && conf->auth_key_len != 16 &&
			 conf->auth_key_len != 32) ||
			conf->crypto >= DFCP_CRYPTO_MAX || (conf->crypto && !conf->auth_key_len) ||
			(conf->slab && (conf->limits.max_window == 0 ||
			 conf->limits.max_window > DFCP_MAX_WINDOW)))
		return NULL;
	dfcp_budget_init();	/* the senders' round table, made here at set-up */
	ep = calloc(1, sizeof(*ep));
	if (ep == NULL)
		return NULL;
	ep->conf = *conf;
	ep->nslots = conf->max_conns + conf->max_half_open;
	while (hs < 2 * ep->nslots)
		hs *= 2;
	ep->hmask = hs - 1;
	ep->sl = calloc(ep->nslots, sizeof(*ep->sl));
	ep->free_stk = calloc(ep->nslots, sizeof(*ep->free_stk));
	ep->conn_idx = calloc(conf->max_conns, sizeof(*ep->conn_idx));
	ep->half = calloc(conf->max_half_open ? conf->max_half_open : 1, sizeof(*ep->half));
	ep->cid_head = malloc(hs * sizeof(*ep->cid_head));
	ep->syn_head = malloc(hs * sizeof(*ep->syn_head));
	if (conf->crypto != DFCP_CRYPTO_OFF)
		ep->hkeys = calloc(ep->nslots, sizeof(*ep->hkeys));
	if (conf->crypto != DFCP_CRYPTO_OFF && conf->rx_defer)
		ep->defer = calloc(DFCP_EP_DEFER, sizeof(*ep->defer));
	if ((conf->crypto != DFCP_CRYPTO_OFF && (ep->hkeys == NULL ||
			(conf->rx_defer && ep->defer == NULL))) || ep->sl == NULL || ep->free_stk == NULL || ep->conn_idx == NULL || ep->half == NULL ||
			ep->cid_head == NULL || ep->syn_head == NULL || ep_secret(ep) < 0 ||
			ep_pool(ep) < 0 || ep_slab(ep) < 0) {
		dfcp_ep_free(ep);
		return NULL;
	}
	memset(ep->cid_head, 0xff, hs * sizeof(*ep->cid_head));
	memset(ep->syn_head, 0xff, hs * sizeof(*ep->syn_head));
	for (uint32_t i = 0; i < ep->nslots; i++)
		ep->free_stk[ep->n_free++] = ep->nslots - 1 - i;
	if (conf->auth_key_len != 0) {
		dfcp_auth_init(&ep->auth, conf->auth_key, conf->auth_key_len);
		ep->has_auth = 1;
	}
	ep->half_ns = conf->half_open_ns ? conf->half_open_ns :
		(DFCP_HS_RETRIES + 1) * conf->accept_conf.hs_rto_ns;
	return ep;
}

void
dfcp_ep_free(struct dfcp_ep *ep)
{
	if (ep == NULL)
		return;
	for (uint32_t i = 0; ep->sl != NULL && i < ep->nslots; i++)
		if (ep->sl[i].state == SL_CONN)
			dfcp_conn_free(ep->sl[i].conn);
	if (ep->pool_own)
		dfcp_pool_free(ep->pool);
	dfcp_slab_free(ep->slab);
	free(ep->sl);
	free(ep->free_stk);
	free(ep->conn_idx);
	free(ep->half);
	free(ep->cid_head);
	free(ep->syn_head);
	if (ep->hkeys != NULL)
		OPENSSL_cleanse(ep->hkeys, ep->nslots * sizeof(*ep->hkeys));
	free(ep->hkeys);
	free(ep->defer);
	free(ep);
}

/* ------------------------------------------------------------------ */
/* slots, ids, hash chains                                              */
/* ------------------------------------------------------------------ */

static inline uint32_t
cid_bucket(const struct dfcp_ep *ep, uint32_t cid)
{
	return (uint32_t)((cid * 0x9e3779b97f4a7c15ull) >> 32) & ep->hmask;
}

/* The initiator's (address, port, id) keyed by the secret: floods cannot aim at a chain. */
uint32_t
dfcp_ep_syn_bucket(const struct dfcp_ep *ep, uint32_t ip, uint16_t port, uint32_t rcid)
{
	uint8_t k[10];

	net_wr32(k, ip);
	net_wr16(k + 4, port);
	net_wr32(k + 6, rcid);
	return (uint32_t)net_siphash24(&ep->secret, k, sizeof(k)) & ep->hmask;
}

uint32_t
dfcp_ep_cid_find(const struct dfcp_ep *ep, uint32_t cid)
{
	for (uint32_t i = ep->cid_head[cid_bucket(ep, cid)]; i != DFCP_EP_NIL; i = ep->sl[i].cid_next)
		if (ep->sl[i].lcid == cid)
			return i;
	return DFCP_EP_NIL;
}

uint32_t
dfcp_ep_syn_find(const struct dfcp_ep *ep, const struct dfcp_pkt *pkt)
{
	uint32_t h = dfcp_ep_syn_bucket(ep, pkt->src_ip, pkt->src_port, pkt->src_cid);

	for (uint32_t i = ep->syn_head[h]; i != DFCP_EP_NIL; i = ep->sl[i].syn_next) {
		const struct ep_slot *s = &ep->sl[i];

		if (s->rcid == pkt->src_cid && s->peer.ip == pkt->src_ip &&
				s->peer.port == pkt->src_port)
			return i;
	}
	return DFCP_EP_NIL;
}

static void
chain_unlink(struct ep_slot *sl, uint32_t *head, uint32_t i, int syn)
{
	uint32_t *p = head;

	while (*p != DFCP_EP_NIL && *p != i)
		p = syn ? &sl[*p].syn_next : &sl[*p].cid_next;
	if (*p == i)
		*p = syn ? sl[i].syn_next : sl[i].cid_next;
}

/* A fresh random id: not 0, not all-ones (an RST's placeholder), not in use. */
static uint32_t
cid_new(struct dfcp_ep *ep)
{
	for (;;) {
		uint64_t ctr = ep->cid_ctr++;
		uint32_t cid = (uint32_t)net_siphash24(&ep->secret, &ctr, sizeof(ctr));

		if (cid != 0 && cid != UINT32_MAX && dfcp_ep_cid_find(ep, cid) == DFCP_EP_NIL)
			return cid;
	}
}

uint32_t
dfcp_ep_slot_take(struct dfcp_ep *ep, uint32_t *cid)
{
	uint32_t i, h;

	if (ep->n_free == 0)
		return DFCP_EP_NIL;
	i = ep->free_stk[--ep->n_free];
	memset(&ep->sl[i], 0, sizeof(ep->sl[i]));
	ep->sl[i].lcid = *cid = cid_new(ep);
	h = cid_bucket(ep, *cid);
	ep->sl[i].cid_next = ep->cid_head[h];
	ep->cid_head[h] = i;
	ep->sl[i].syn_next = DFCP_EP_NIL;
	return i;
}

void
dfcp_ep_slot_release(struct dfcp_ep *ep, uint32_t i)
{
	struct ep_slot *s = &ep->sl[i];

	chain_unlink(ep->sl, &ep->cid_head[cid_bucket(ep, s->lcid)], i, 0);
	if (s->on_syn)
		chain_unlink(ep->sl, &ep->syn_head[dfcp_ep_syn_bucket(ep, s->peer.ip, s->peer.port,
				s->rcid)], i, 1);
	if (s->state == SL_HALF)
		ep->n_half--;
	if (s->state == SL_CONN) {
		uint32_t last = ep->conn_idx[--ep->n_conns];

		ep->conn_idx[s->pos] = last;
		ep->sl[last].pos = s->pos;
	}
	ep->rx_used -= s->rx_resv;
	s->rx_resv = 0;
	if (ep->hkeys != NULL)		/* the session keys live on in the connection only */
		OPENSSL_cleanse(&ep->hkeys[i], sizeof(ep->hkeys[i]));
	s->state = SL_FREE;
	s->conn = NULL;
	ep->free_stk[ep->n_free++] = i;
}

void
dfcp_ep_slot_conn(struct dfcp_ep *ep, uint32_t i, struct dfcp_conn *c)
{
	struct ep_slot *s = &ep->sl[i];

	if (s->state == SL_HALF)
		ep->n_half--;
	s->state = SL_CONN;
	s->conn = c;
	s->pos = ep->n_conns;
	ep->conn_idx[ep->n_conns++] = i;
}

/* ------------------------------------------------------------------ */
/* the half-open FIFO                                                   */
/* ------------------------------------------------------------------ */

/* Pop the oldest entry; 1 if it was still half-open (and is now gone). */
static int
half_pop(struct dfcp_ep *ep)
{
	struct half_ent e = ep->half[ep->h_head];
	int live = ep->sl[e.slot].state == SL_HALF && ep->sl[e.slot].pos == e.seq;

	ep->h_head = (ep->h_head + 1) % ep->conf.max_half_open;
	ep->h_count--;
	if (live)
		dfcp_ep_slot_release(ep, e.slot);
	return live;
}

void
dfcp_ep_half_expire(struct dfcp_ep *ep, uint64_t now)
{
	while (ep->h_count) {
		const struct half_ent *e = &ep->half[ep->h_head];
		const struct ep_slot *s = &ep->sl[e->slot];

		if (s->state == SL_HALF && s->pos == e->seq && now - s->t < ep->half_ns)
			break;
		ep->st.half_open_expired += half_pop(ep);
	}
}

/* Room for one more: the oldest half-open entry goes. */
void
dfcp_ep_half_evict(struct dfcp_ep *ep)
{
	while (ep->h_count) {
		if (half_pop(ep)) {
			ep->st.half_open_evicted++;
			return;
		}
	}
}

void
dfcp_ep_half_push(struct dfcp_ep *ep, uint32_t i)
{
	uint32_t cap = ep->conf.max_half_open;

	if (ep->h_count == cap)
		ep->st.half_open_evicted += half_pop(ep);
	ep->sl[i].pos = ep->h_seq;
	ep->half[(ep->h_head + ep->h_count) % cap] = (struct half_ent){ i, ep->h_seq++ };
	ep->h_count++;
	ep->n_half++;
}

