/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection: creation (with its item pool), the receive side of the
 * state machine (handshake, FIN / RST, TIME_WAIT) with every packet's
 * identity checked first (the peer's address and port, connection ids,
 * the tag), accessors. Timers, control packets and the tx burst are in
 * dfcp_ctrl.c, the sender in dfcp_tx.c, the receiver in dfcp_rx.c; struct
 * dfcp_conn is in dfcp_priv.h. Time in ns is passed in; after ESTABLISHED
 * nothing is allocated (items come from the pool, reserved at set-up), and
 * with the endpoint's slab (dfcp_slab.c) nothing when connecting either.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

static const char *const state_names[DFCP_STATE_MAX] = {
	"CLOSED", "SYN_SENT", "SYN_RECV", "ESTABLISHED", "FIN_WAIT1",
	"FIN_WAIT2", "CLOSE_WAIT", "LAST_ACK", "TIME_WAIT",
};

static const char *const reason_names[DFCP_CR_MAX] = {
	"none", "normal", "syn-timeout", "fin-timeout", "reset", "abort", "peer-timeout",
	"refused",
};

const char *
dfcp_state_str(enum dfcp_state s)
{
	return (unsigned int)s < DFCP_STATE_MAX ? state_names[s] : "?";
}

const char *
dfcp_close_reason_str(enum dfcp_close_reason r)
{
	return (unsigned int)r < DFCP_CR_MAX ? reason_names[r] : "?";
}

void
dfcp_conn_conf_default(struct dfcp_conn_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->T = DFCP_DEFAULT_T;
	c->K = DFCP_DEFAULT_K;
	c->window = 400;	/* >= 1 Gbit/s x 200 ms of 64 KiB blocks */
	c->redundancy = DFCP_DEFAULT_REDUNDANCY;
	c->acks = 1;
	c->encode = 1;
	c->decode = 1;
	c->csum = DFCP_CSUM_FULL;
	c->hs_rto_ns = 200000000ull;
	c->min_rto_ns = 1000000ull;
	c->time_wait_ns = 1000000000ull;
	c->xr = 1;
	c->rate_hint = 0;
	c->round_idle_ns = 250000ull;
	c->integrity = 1;
	c->peer_timeout_ns = 0;
}

void
dfcp_rtt_sample(struct dfcp_conn *c, uint64_t r)
{
	if (c->min_rtt == 0 || r < c->min_rtt)
		c->min_rtt = r;
	if (c->srtt == 0) {
		c->srtt = r;
		c->rttvar = r / 2;
		return;
	}
	uint64_t d = r > c->srtt ? r - c->srtt : c->srtt - r;

	c->rttvar = (3 * c->rttvar + d) / 4;
	c->srtt = (7 * c->srtt + r) / 8;
}

/* ------------------------------------------------------------------ */
/* construction                                                         */
/* ------------------------------------------------------------------ */

static int
conf_check(const struct dfcp_conn_conf *conf)
{
	struct dfcp_params p = {
		.block_size = (uint32_t)conf->K * conf->T,
		.T = conf->T, .K = conf->K, .window = conf->window,
		.redundancy = conf->redundancy,
		.max_window = conf->window, .max_K = conf->K, .max_T = conf->T,
	};

	if (conf->hs_rto_ns == 0 || conf->time_wait_ns == 0)
		return -EINVAL;
	if (conf->auth_key_len != 0 && conf->auth_key_len != 16 && conf->auth_key_len != 32)
		return -EINVAL;
	/* the pre-shared key authenticates the key exchange */
	if (conf->crypto >= DFCP_CRYPTO_MAX || (conf->crypto && conf->auth_key_len == 0))
		return -EINVAL;
	return dfcp_params_check(&p, NULL) == 0 ? 0 : -EINVAL;
}

/* A zeroed record: the endpoint's slab's (no allocation) or the heap's. */
static struct dfcp_conn *
conn_new(const struct dfcp_conn_conf *conf, uint32_t lcid, struct dfcp_slab *slab)
{
	struct dfcp_conn *c;

	if (conf_check(conf) < 0 || lcid == 0)
		return NULL;
	c = slab != NULL ? dfcp_slab_get(slab) : calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->conf = *conf;
	c->lcid = lcid;
	c->local = conf->local;
	c->remote = conf->remote;
	if (conf->auth_key_len != 0) {
		dfcp_auth_init(&c->auth, conf->auth_key, conf->auth_key_len);
		c->has_auth = 1;
	}
	return c;
}

static void
local_params(const struct dfcp_conn_conf *conf, struct dfcp_params *p)
{
	p->block_size = (uint32_t)conf->K * conf->T;
	p->T = conf->T;
	p->K = conf->K;
	p->window = conf->window;
	p->redundancy = conf->redundancy;
	p->flags = (conf->acks ? DFCP_F_ACKS : 0) | (conf->encode ? DFCP_F_ENC : 0) |
		(conf->decode ? DFCP_F_DEC : 0);
	/* the extensions need block acks (they ride on them) */
	if (conf->xr && conf->acks)
		p->flags |= DFCP_F_XR | (conf->rate_hint ? DFCP_F_RHINT : 0);
	/* a block CRC means something only for real data, encoded and decoded */
	if (conf->integrity && conf->encode && conf->decode)
		p->flags |= DFCP_F_CRC;
	p->max_window = conf->window;
	p->max_K = conf->K;
	p->max_T = conf->T;
}

int
dfcp_conn_pool_attach(struct dfcp_conn *c, struct dfcp_pool *shared, uint32_t rx, uint32_t tx)
{
	struct dfcp_pool_conf pc;

	if (shared != NULL) {
		if (!dfcp_pool_shape_ok(shared, c->p.K, c->p.T) ||
				dfcp_pool_reserve(shared, &rx, &tx) < 0)
			return -ENOSPC;
		c->pool = shared;
	} else if (!c->sender && rx == 0) {
		return 0;	/* a receiver that does not decode draws nothing */
	} else {
		memset(&pc, 0, sizeof(pc));
		pc.K = c->p.K;
		pc.T = c->p.T;
		pc.rx_slots = rx;
		pc.tx_slots = tx;
		pc.lazy = 1;
		c->pool = dfcp_pool_create(&pc);
		if (c->pool == NULL)
			return -ENOMEM;
		c->pool_own = 1;
	}
	c->pool_rx = rx;
	c->pool_tx = tx;
	if (shared != NULL)
		c->st.rx_mem_bytes = (uint64_t)rx * dfcp_pool_rx_slot_bytes(shared);
	return 0;
}

void
dfcp_conn_pool_detach(struct dfcp_conn *c)
{
	if (c->pool == NULL)
		return;
	if (c->pool_own)
		dfcp_pool_free(c->pool);
	else
		dfcp_pool_unreserve(c->pool, c->pool_rx, c->pool_tx, c->g_rx_held, c->g_tx_held);
	c->pool = NULL;
	c->pool_rx = c->pool_tx = 0;
	c->g_rx_held = c->g_tx_held = 0;
}

struct dfcp_conn *
dfcp_conn_connect(const struct dfcp_conn_conf *conf, uint32_t lcid, uint64_t now)
{
	return dfcp_conn_connect_in(conf, lcid, NULL, now);
}

struct dfcp_conn *
dfcp_conn_connect_in(const struct dfcp_conn_conf *conf, uint32_t lcid, struct dfcp_slab *slab,
		uint64_t now)
{
	struct dfcp_conn *c = conn_new(conf, lcid, slab);

	if (c == NULL)
		return NULL;
	c->initiator = 1;
	c->sender = 1;
	local_params(conf, &c->p);
	/* a strict pool: the window offered is what it can still give */
	if (conf->pool != NULL && conf->encode && !dfcp_pool_is_shared(conf->pool) &&
			dfcp_pool_tx_free(conf->pool) < c->p.window) {
		c->p.window = c->p.max_window = dfcp_pool_tx_free(conf->pool);
		dfcp_pool_count_refused(conf->pool);
	}
	c->W = c->p.window;
	c->conf.window = c->W;
	if (c->W == 0 || dfcp_sess_connect(c) < 0 || dfcp_conn_pool_attach(c, conf->pool, 0, conf->encode ? c->W : 0) < 0 ||
			dfcp_sender_alloc(c) < 0) {
		dfcp_conn_free(c);
		return NULL;
	}
	c->state = DFCP_SYN_SENT;
	c->pending = P_SYN;
	c->syn_time = now;
	c->hs_deadline = now + conf->hs_rto_ns;
	c->st.window = c->W;
	return c;
}

int
dfcp_accept_params(const struct dfcp_conn_conf *conf, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, struct dfcp_params *p)
{
	*p = syn->u.params;
	/* validate before allocating anything; the window is clamped */
	if (limits != NULL && limits->max_window && p->window > limits->max_window)
		p->window = limits->max_window;
	if (dfcp_params_check(p, limits) != 0)
		return -DFCP_E_PARAMS;
	/* extensions: only those both sides have (a hint needs the reports) */
	if (!conf->xr || !(p->flags & DFCP_F_ACKS) || !(p->flags & DFCP_F_XR))
		p->flags &= ~(DFCP_F_XR | DFCP_F_RHINT);
	if (!conf->integrity || !(p->flags & DFCP_F_ENC) || !(p->flags & DFCP_F_DEC))
		p->flags &= ~DFCP_F_CRC;
	if (limits != NULL) {
		p->max_window = limits->max_window;
		p->max_K = limits->max_K;
		p->max_T = limits->max_T;
	}
	return 0;
}

static struct dfcp_conn *
conn_accept(const struct dfcp_conn_conf *conf, uint32_t lcid, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, struct dfcp_slab *slab, uint64_t now)
{
	struct dfcp_params p;
	struct dfcp_conn *c;

	if (dfcp_accept_params(conf, syn, limits, &p) != 0)
		return NULL;
	c = conn_new(conf, lcid, slab);
	if (c == NULL)
		return NULL;
	c->initiator = 0;
	c->sender = 0;
	c->p = p;
	c->W = p.window;
	c->rcid = syn->src_cid;
	dfcp_pkt_src(syn, &c->remote);
	c->state = DFCP_SYN_RECV;
	c->pending = P_SYNACK;
	c->hs_deadline = now + conf->hs_rto_ns;
	c->syn_time = now;
	c->st.window = c->W;
	return c;
}

struct dfcp_conn *
dfcp_conn_accept(const struct dfcp_conn_conf *conf, uint32_t lcid,
		const struct dfcp_pkt *syn, const struct dfcp_params *limits,
		uint64_t now)
{
	/* encryption: through an endpoint, which keeps the responder's key */
	if (conf->crypto != DFCP_CRYPTO_OFF)
		return NULL;
	return conn_accept(conf, lcid, syn, limits, NULL, now);
}

static int become_established(struct dfcp_conn *c, uint64_t now);

struct dfcp_conn *
dfcp_conn_accept_established(const struct dfcp_conn_conf *conf, uint32_t lcid,
		const struct dfcp_pkt *syn, const struct dfcp_params *limits,
		struct dfcp_pool *pool, struct dfcp_slab *slab, uint64_t syn_time, int rtt_ok,
		uint64_t now)
{
	struct dfcp_conn *c = conn_accept(conf, lcid, syn, limits, slab, syn_time);

	if (c == NULL)
		return NULL;
	c->hs_deadline = 0;
	c->pending = 0;
	if (rtt_ok && now >= syn_time)
		dfcp_rtt_sample(c, now - syn_time);
	if (dfcp_conn_pool_attach(c, pool, (c->p.flags & DFCP_F_DEC) ? c->W : 0, 0) < 0 ||
			become_established(c, now) < 0) {
		dfcp_conn_free(c);
		return NULL;
	}
	return c;
}

void
dfcp_conn_free(struct dfcp_conn *c)
{
	if (c == NULL)
		return;
	dfcp_sender_free(c);
	dfcp_receiver_free(c);
	dfcp_conn_pool_detach(c);
	dfcp_sess_free(c);
	if (c->slab != NULL)
		dfcp_slab_put(c->slab, c);
	else
		free(c);
}

enum dfcp_state dfcp_conn_state(const struct dfcp_conn *c) { return c->state; }
enum dfcp_close_reason dfcp_conn_close_reason(const struct dfcp_conn *c) { return c->reason; }
uint32_t dfcp_conn_local_cid(const struct dfcp_conn *c) { return c->lcid; }
uint32_t dfcp_conn_remote_cid(const struct dfcp_conn *c) { return c->rcid; }
int dfcp_conn_is_sender(const struct dfcp_conn *c) { return c->sender; }
const struct dfcp_params *dfcp_conn_params(const struct dfcp_conn *c) { return &c->p; }
const struct dfcp_addr *dfcp_conn_remote(const struct dfcp_conn *c) { return &c->remote; }

void
dfcp_conn_hold(struct dfcp_conn *c, int hold)
{
	c->hold = hold != 0;
}

void
dfcp_conn_set_sink(struct dfcp_conn *c, net_sink_fn sink, void *ctx)
{
	c->conf.sink = sink;
	c->conf.sink_ctx = ctx;
}

/* ------------------------------------------------------------------ */
/* rx                                                                   */
/* ------------------------------------------------------------------ */

static void
queue_ack(struct dfcp_conn *c, uint8_t what)
{
	c->pending |= P_ACK;
	c->ack_what = what;
}

/*
 * The responder accepts our parameters (the window may shrink) and may drop
 * the extensions we offered (an older peer does), never add one; a hint
 * without the reports it rides on is refused.
 */
static int
synack_ok(const struct dfcp_conn *c, const struct dfcp_params *p)
{
	if ((p->flags & ~DFCP_F_EXT) != (c->p.flags & ~DFCP_F_EXT) ||
			(p->flags & DFCP_F_EXT & ~c->p.flags) != 0 ||
			((p->flags & DFCP_F_RHINT) && !(p->flags & DFCP_F_XR)))
		return 0;
	return p->T == c->p.T && p->K == c->p.K && p->block_size == c->p.block_size &&
		p->window >= 1 && p->window <= c->p.window &&
		p->redundancy == c->p.redundancy;
}

static int
become_established(struct dfcp_conn *c, uint64_t now)
{
	if (!c->sender && ((c->pool == NULL && dfcp_conn_pool_attach(c, NULL,
			(c->p.flags & DFCP_F_DEC) ? c->W : 0, 0) < 0) ||
			dfcp_receiver_alloc(c) < 0)) {
		dfcp_to_closed(c, DFCP_CR_ABORT);
		c->rst_reason = DFCP_RST_FULL;
		c->pending = P_RST;
		return -ENOMEM;
	}
	c->state = DFCP_ESTABLISHED;
	c->hs_deadline = 0;
	c->pending &= ~P_SYNACK;
	c->peer_at = now;
	dfcp_progress(c, now);
	return 0;
}

/*
 * Who sent it, before anything else: the peer's address and port (and
 * ours), the connection ids, the tag. An off-path attacker has to guess
 * the 4-tuple and both 32-bit ids; with a key nobody without it can inject.
 */
static int
conn_identity(const struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	if (pkt->src_ip != c->remote.ip || pkt->src_port != c->remote.port ||
			pkt->dst_ip != c->local.ip || pkt->dst_port != c->local.port)
		return -DFCP_E_PEER;
	if (pkt->dst_cid != c->lcid && !(pkt->type == DFCP_T_SYN && pkt->dst_cid == 0))
		return -DFCP_E_CONN;
	/* in SYN_SENT the peer's cid is not known yet */
	if (c->state != DFCP_SYN_SENT && pkt->src_cid != c->rcid)
		return -DFCP_E_CONN;
	if (c->conf.crypto != DFCP_CRYPTO_OFF)
		return dfcp_sess_check(c, pkt);
	if (c->has_auth)
		return dfcp_auth_check(&c->auth, pkt);
	return (pkt->flags & (DFCP_F_AUTH | DFCP_F_CRYPT)) ? -DFCP_E_AUTH : 0;
}

static int
rx_synack(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	if (pkt->type != DFCP_T_SYNACK)
		return -DFCP_E_STATE;
	if (!synack_ok(c, &pkt->u.params)) {
		c->st.drops[DFCP_E_PARAMS]++;
		c->rcid = pkt->src_cid;
		c->rst_reason = DFCP_RST_PARAMS;
		dfcp_to_closed(c, DFCP_CR_REFUSED);
		c->pending = P_RST;
		return -DFCP_E_PARAMS;
	}
	if (dfcp_sess_synack(c, pkt) < 0) {
		c->st.drops[DFCP_E_CRYPTO]++;
		c->rcid = pkt->src_cid;
		c->rst_reason = DFCP_RST_PARAMS;
		dfcp_to_closed(c, DFCP_CR_REFUSED);
		c->pending = P_RST;
		return -DFCP_E_CRYPTO;
	}
	c->rcid = pkt->src_cid;
	c->W = pkt->u.params.window;
	c->p.window = c->W;
	c->p.flags = pkt->u.params.flags;
	c->st.window = c->W;
	if (c->hs_retries == 0 && now >= c->syn_time)
		dfcp_rtt_sample(c, now - c->syn_time);
	c->pending &= ~P_SYN;
	queue_ack(c, DFCP_T_SYNACK);
	return become_established(c, now);
}

/*
 * The receiver: the sender's FIN must say what was delivered, every block
 * and byte (it goes out only once all are acknowledged); with acks off it
 * may not skip beyond the window. A FIN that does not fit is dropped.
 */
static int
rx_fin(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint32_t nb = pkt->u.fin.nblocks;

	if (!c->sender) {
		if (c->p.flags & DFCP_F_ACKS) {
			if (nb != c->rcv_cum || pkt->u.fin.nbytes != c->rcv_off)
				return -DFCP_E_VALUE;
		} else if ((int32_t)(nb - c->rcv_cum) < 0 || nb - c->rcv_cum > c->W) {
			return -DFCP_E_VALUE;
		}
		c->fin_seen = 1;
		if (!(c->p.flags & DFCP_F_ACKS))
			dfcp_rx_skip_to(c, nb, now);
		c->completed = c->st.blocks_lost == 0 && pkt->u.fin.nbytes == c->rcv_off;
		c->fin_nblocks = nb;	/* a duplicate must say the same */
		c->fin_nbytes = pkt->u.fin.nbytes;
	}
	queue_ack(c, DFCP_T_FIN);
	c->state = DFCP_CLOSE_WAIT;
	return 0;
}

static int
rx_established(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	switch (pkt->type) {
	case DFCP_T_SYNACK:		/* our ACK was lost */
		if (c->initiator) {
			queue_ack(c, DFCP_T_SYNACK);
			return 0;
		}
		return -DFCP_E_STATE;
	case DFCP_T_ACK:
		if (pkt->u.ack.acked == DFCP_T_DATA) {
			/* a keepalive: the peer is there (peer_at); the receiver's
			 * counted, a held sender's (dfcp_conn_hold) not */
			c->st.keepalives += c->sender;
			return 0;
		}
		return pkt->u.ack.acked == DFCP_T_SYNACK ? 0 : -DFCP_E_STATE;
	case DFCP_T_DATA:
		if (c->sender)
			return -DFCP_E_STATE;
		return dfcp_rx_data(c, pkt, now);
	case DFCP_T_BLOCK_ACK:
		if (!c->sender)
			return -DFCP_E_STATE;
		return dfcp_sender_block_ack(c, pkt, now);
	case DFCP_T_FIN:
		return rx_fin(c, pkt, now);
	default:
		return -DFCP_E_STATE;
	}
}

static int
rx_closing(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint8_t t = pkt->type;

	switch (c->state) {
	case DFCP_FIN_WAIT1:
		if (t == DFCP_T_ACK && pkt->u.ack.acked == DFCP_T_FIN) {
			c->state = DFCP_FIN_WAIT2;
			c->pending &= ~P_FIN;
			c->hs_retries = 0;
			c->hs_deadline = now + c->conf.hs_rto_ns * (DFCP_HS_RETRIES + 1);
			return 0;
		}
		/* fall through: a FINACK also acknowledges our FIN */
		/* FALLTHROUGH */
	case DFCP_FIN_WAIT2:
		if (t == DFCP_T_FINACK) {
			c->pending &= ~P_FIN;
			queue_ack(c, DFCP_T_FINACK);
			c->state = DFCP_TIME_WAIT;
			c->hs_deadline = now + c->conf.time_wait_ns;
			return 0;
		}
		if (t == DFCP_T_BLOCK_ACK || t == DFCP_T_DATA || t == DFCP_T_ACK)
			return -DFCP_E_STALE;
		return -DFCP_E_STATE;
	case DFCP_TIME_WAIT:
		if (t == DFCP_T_FINACK) {
			queue_ack(c, DFCP_T_FINACK);
			c->st.retransmits++;
			return 0;
		}
		return -DFCP_E_STATE;
	case DFCP_CLOSE_WAIT:
	case DFCP_LAST_ACK:
		if (t == DFCP_T_FIN) {
			if (!c->sender && (pkt->u.fin.nblocks != c->fin_nblocks ||
					pkt->u.fin.nbytes != c->fin_nbytes))
				return -DFCP_E_VALUE;
			queue_ack(c, DFCP_T_FIN);
			return 0;
		}
		if (c->state == DFCP_LAST_ACK && t == DFCP_T_ACK &&
				pkt->u.ack.acked == DFCP_T_FINACK) {
			dfcp_to_closed(c, DFCP_CR_DONE);
			return 0;
		}
		if (t == DFCP_T_DATA && !c->sender)
			c->st.stale_syms++;	/* every block was decoded */
		if (t == DFCP_T_DATA || t == DFCP_T_BLOCK_ACK)
			return -DFCP_E_STALE;
		return -DFCP_E_STATE;
	default:
		return -DFCP_E_STATE;
	}
}

static int
conn_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint8_t t = pkt->type;

	if (t == DFCP_T_RST) {
		/*
		 * TIME_WAIT: the transfer is complete; an RST there answers a
		 * late duplicate (e.g. of the last ACK) reaching a peer that has
		 * already closed, and must not turn DONE into RESET (RFC 1337).
		 */
		if (c->state == DFCP_CLOSED || c->state == DFCP_TIME_WAIT)
			return -DFCP_E_STATE;
		dfcp_to_closed(c, c->state == DFCP_SYN_SENT ? DFCP_CR_REFUSED : DFCP_CR_RESET);
		c->pending = 0;
		return 0;
	}
	switch (c->state) {
	case DFCP_SYN_SENT:
		return rx_synack(c, pkt, now);
	case DFCP_SYN_RECV:
		if (t == DFCP_T_SYN) {		/* our SYNACK was lost */
			c->pending |= P_SYNACK;
			return 0;
		}
		if ((t == DFCP_T_ACK && pkt->u.ack.acked == DFCP_T_SYNACK) ||
				t == DFCP_T_DATA) {
			if (now >= c->syn_time && c->hs_retries == 0)
				dfcp_rtt_sample(c, now - c->syn_time);
			if (become_established(c, now) < 0)
				return -DFCP_E_NOBUF;
			if (t == DFCP_T_DATA)
				return dfcp_rx_data(c, pkt, now);
			return 0;
		}
		return -DFCP_E_STATE;
	case DFCP_ESTABLISHED:
		return rx_established(c, pkt, now);
	default:
		return rx_closing(c, pkt, now);
	}
}

int
dfcp_conn_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	int rc;

	c->st.rx_pkts++;
	rc = conn_identity(c, pkt);
	if (rc == 0) {
		/* only what comes from the peer keeps the connection alive */
		c->peer_at = now;
		rc = conn_rx(c, pkt, now);
	}
	if (rc < 0 && -rc < DFCP_E_MAX)
		c->st.drops[-rc]++;
	return rc;
}
