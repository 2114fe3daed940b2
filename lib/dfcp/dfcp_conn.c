/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection: creation, the state machine (handshake, FIN / RST,
 * TIME_WAIT) with its control packets and their retransmission, the tx
 * burst and the next deadline, accessors and statistics. The sender is in
 * dfcp_tx.c, the receiver in dfcp_rx.c; struct dfcp_conn is in dfcp_priv.h.
 * Time in ns is passed in; after ESTABLISHED the only allocations are the
 * encoder / decoder / block buffer pools growing on first need, each up to
 * the window (dfcp_tx.c, dfcp_rx.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

/* pending control packets */
#define P_SYN		0x01
#define P_SYNACK	0x02
#define P_ACK		0x04
#define P_FIN		0x08
#define P_FINACK	0x10
#define P_RST		0x20

static const char *const state_names[DFCP_STATE_MAX] = {
	"CLOSED", "SYN_SENT", "SYN_RECV", "ESTABLISHED", "FIN_WAIT1",
	"FIN_WAIT2", "CLOSE_WAIT", "LAST_ACK", "TIME_WAIT",
};

const char *
dfcp_state_str(enum dfcp_state s)
{
	return (unsigned int)s < DFCP_STATE_MAX ? state_names[s] : "?";
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
	return dfcp_params_check(&p, NULL) == 0 ? 0 : -EINVAL;
}

static struct dfcp_conn *
conn_new(const struct dfcp_conn_conf *conf, uint32_t lcid)
{
	struct dfcp_conn *c;

	if (conf_check(conf) < 0 || lcid == 0)
		return NULL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return NULL;
	c->conf = *conf;
	c->lcid = lcid;
	c->local = conf->local;
	c->remote = conf->remote;
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
	p->max_window = conf->window;
	p->max_K = conf->K;
	p->max_T = conf->T;
}

struct dfcp_conn *
dfcp_conn_connect(const struct dfcp_conn_conf *conf, uint32_t lcid, uint64_t now)
{
	struct dfcp_conn *c = conn_new(conf, lcid);

	if (c == NULL)
		return NULL;
	c->initiator = 1;
	c->sender = 1;
	local_params(conf, &c->p);
	c->W = conf->window;
	if (dfcp_sender_alloc(c) < 0) {
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

struct dfcp_conn *
dfcp_conn_accept(const struct dfcp_conn_conf *conf, uint32_t lcid,
		const struct dfcp_pkt *syn, const struct dfcp_params *limits,
		uint64_t now)
{
	struct dfcp_params p = syn->u.params;
	struct dfcp_conn *c;

	/* validate before allocating anything; the window is clamped */
	if (limits != NULL && limits->max_window && p.window > limits->max_window)
		p.window = limits->max_window;
	if (dfcp_params_check(&p, limits) != 0)
		return NULL;
	/* extensions: only those both sides have (a hint needs the reports) */
	if (!conf->xr || !(p.flags & DFCP_F_ACKS) || !(p.flags & DFCP_F_XR))
		p.flags &= ~DFCP_F_EXT;
	c = conn_new(conf, lcid);
	if (c == NULL)
		return NULL;
	c->initiator = 0;
	c->sender = 0;
	c->p = p;
	if (limits != NULL) {
		c->p.max_window = limits->max_window;
		c->p.max_K = limits->max_K;
		c->p.max_T = limits->max_T;
	}
	c->W = p.window;
	c->rcid = syn->src_cid;
	memcpy(c->remote.mac, syn->src_mac, 6);
	c->remote.ip = syn->src_ip;
	c->remote.port = syn->src_port;
	c->state = DFCP_SYN_RECV;
	c->pending = P_SYNACK;
	c->hs_deadline = now + conf->hs_rto_ns;
	c->syn_time = now;
	c->st.window = c->W;
	return c;
}

void
dfcp_conn_free(struct dfcp_conn *c)
{
	if (c == NULL)
		return;
	dfcp_sender_free(c);
	dfcp_receiver_free(c);
	free(c);
}

int
dfcp_conn_matches_syn(const struct dfcp_conn *c, const struct dfcp_pkt *syn)
{
	return c->rcid == syn->src_cid && c->remote.ip == syn->src_ip &&
		c->remote.port == syn->src_port;
}

int
dfcp_conn_is_half_open(const struct dfcp_conn *c)
{
	return c->state == DFCP_SYN_RECV;
}

enum dfcp_state dfcp_conn_state(const struct dfcp_conn *c) { return c->state; }
enum dfcp_close_reason dfcp_conn_close_reason(const struct dfcp_conn *c) { return c->reason; }
uint32_t dfcp_conn_local_cid(const struct dfcp_conn *c) { return c->lcid; }
uint32_t dfcp_conn_remote_cid(const struct dfcp_conn *c) { return c->rcid; }
int dfcp_conn_is_sender(const struct dfcp_conn *c) { return c->sender; }
const struct dfcp_params *dfcp_conn_params(const struct dfcp_conn *c) { return &c->p; }

/* ------------------------------------------------------------------ */
/* state helpers                                                        */
/* ------------------------------------------------------------------ */

static void
to_closed(struct dfcp_conn *c, enum dfcp_close_reason why)
{
	c->state = DFCP_CLOSED;
	if (c->reason == DFCP_CR_NONE)
		c->reason = why;
	c->hs_deadline = 0;
	c->pending &= P_RST;	/* only a queued RST may still go out */
	c->back_count = 0;
}

static void
send_ctrl(struct dfcp_conn *c, uint32_t what, uint64_t now, int arm)
{
	c->pending |= what;
	if (arm) {
		c->hs_retries = 0;
		c->hs_deadline = now + c->conf.hs_rto_ns;
	}
}

static void
queue_ack(struct dfcp_conn *c, uint8_t what)
{
	c->pending |= P_ACK;
	c->ack_what = what;
}

static int
sender_done(const struct dfcp_conn *c)
{
	if (!c->src_eof)
		return 0;
	if (c->snd_first != c->snd_next)
		return 0;
	return c->snd_base == c->snd_next;
}

static void
start_fin(struct dfcp_conn *c, uint64_t now)
{
	c->state = DFCP_FIN_WAIT1;
	c->fin_nblocks = c->snd_next;
	c->fin_nbytes = c->snd_bytes;
	send_ctrl(c, P_FIN, now, 1);
}

int
dfcp_conn_close(struct dfcp_conn *c, uint64_t now)
{
	if (c->state == DFCP_ESTABLISHED) {
		start_fin(c, now);
		return 0;
	}
	if (c->state == DFCP_SYN_SENT || c->state == DFCP_SYN_RECV) {
		dfcp_conn_abort(c, now);
		return 0;
	}
	return -EINVAL;
}

void
dfcp_conn_abort(struct dfcp_conn *c, uint64_t now)
{
	(void)now;
	if (c->state == DFCP_CLOSED)
		return;
	to_closed(c, DFCP_CR_ABORT);
	c->rst_reason = DFCP_RST_ABORT;
	c->pending = P_RST;
}

/* ------------------------------------------------------------------ */
/* rx                                                                   */
/* ------------------------------------------------------------------ */

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
	if (!c->sender && dfcp_receiver_alloc(c) < 0) {
		to_closed(c, DFCP_CR_ABORT);
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

static int
conn_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint8_t t = pkt->type;

	/* in SYN_SENT the peer's cid is not known yet */
	if (c->state != DFCP_SYN_SENT && pkt->src_cid != c->rcid)
		return -DFCP_E_CONN;
	if (t == DFCP_T_RST) {
		/*
		 * TIME_WAIT: the transfer is complete; an RST there answers a
		 * late duplicate (e.g. of the last ACK) reaching a peer that has
		 * already closed, and must not turn DONE into RESET (RFC 1337).
		 */
		if (c->state == DFCP_CLOSED || c->state == DFCP_TIME_WAIT)
			return -DFCP_E_STATE;
		to_closed(c, DFCP_CR_RESET);
		c->pending = 0;
		return 0;
	}

	switch (c->state) {
	case DFCP_SYN_SENT:
		if (t != DFCP_T_SYNACK)
			return -DFCP_E_STATE;
		if (!synack_ok(c, &pkt->u.params)) {
			c->st.drops[DFCP_E_PARAMS]++;
			c->rcid = pkt->src_cid;
			c->rst_reason = DFCP_RST_PARAMS;
			to_closed(c, DFCP_CR_ABORT);
			c->pending = P_RST;
			return -DFCP_E_PARAMS;
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
		switch (t) {
		case DFCP_T_SYNACK:		/* our ACK was lost */
			if (c->initiator) {
				queue_ack(c, DFCP_T_SYNACK);
				return 0;
			}
			return -DFCP_E_STATE;
		case DFCP_T_ACK:
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
			if (!c->sender) {
				c->fin_seen = 1;
				if (!(c->p.flags & DFCP_F_ACKS))
					dfcp_rx_skip_to(c, pkt->u.fin.nblocks, now);
			}
			queue_ack(c, DFCP_T_FIN);
			c->state = DFCP_CLOSE_WAIT;
			return 0;
		default:
			return -DFCP_E_STATE;
		}
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
			queue_ack(c, DFCP_T_FIN);
			return 0;
		}
		if (c->state == DFCP_LAST_ACK && t == DFCP_T_ACK &&
				pkt->u.ack.acked == DFCP_T_FINACK) {
			to_closed(c, DFCP_CR_DONE);
			return 0;
		}
		if (t == DFCP_T_DATA || t == DFCP_T_BLOCK_ACK)
			return -DFCP_E_STALE;
		return -DFCP_E_STATE;
	default:
		return -DFCP_E_STATE;
	}
}

int
dfcp_conn_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	int rc;

	c->st.rx_pkts++;
	if (pkt->src_cid == c->rcid)
		c->peer_at = now;
	rc = conn_rx(c, pkt, now);
	if (rc < 0 && -rc < DFCP_E_MAX)
		c->st.drops[-rc]++;
	return rc;
}

/* ------------------------------------------------------------------ */
/* tx and timers                                                        */
/* ------------------------------------------------------------------ */

static void
hs_timer(struct dfcp_conn *c, uint64_t now)
{
	uint32_t what;

	if (c->hs_deadline == 0 || now < c->hs_deadline)
		return;
	switch (c->state) {
	case DFCP_SYN_SENT: what = P_SYN; break;
	case DFCP_SYN_RECV: what = P_SYNACK; break;
	case DFCP_FIN_WAIT1: what = P_FIN; break;
	case DFCP_LAST_ACK: what = P_FINACK; break;
	case DFCP_FIN_WAIT2:
		to_closed(c, DFCP_CR_FIN_TIMEOUT);
		return;
	case DFCP_TIME_WAIT:
		to_closed(c, DFCP_CR_DONE);
		return;
	default:
		c->hs_deadline = 0;
		return;
	}
	if (c->hs_retries >= DFCP_HS_RETRIES) {
		to_closed(c, (c->state == DFCP_SYN_SENT || c->state == DFCP_SYN_RECV) ?
				DFCP_CR_SYN_TIMEOUT : DFCP_CR_FIN_TIMEOUT);
		return;
	}
	c->hs_retries++;
	c->st.retransmits++;
	c->pending |= what;
	c->hs_deadline = now + c->conf.hs_rto_ns;
}

static int
build_ctrl(struct dfcp_conn *c, uint32_t what, uint8_t *buf, size_t cap)
{
	struct dfcp_pkt pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	switch (what) {
	case P_SYN:
	case P_SYNACK:
		pkt.type = what == P_SYN ? DFCP_T_SYN : DFCP_T_SYNACK;
		pkt.u.params = c->p;
		pkt.flags = c->p.flags;
		break;
	case P_ACK:
		pkt.type = DFCP_T_ACK;
		pkt.u.ack.acked = c->ack_what;
		break;
	case P_FIN:
		pkt.type = DFCP_T_FIN;
		pkt.u.fin.nblocks = c->fin_nblocks;
		pkt.u.fin.nbytes = c->fin_nbytes;
		break;
	case P_FINACK:
		pkt.type = DFCP_T_FINACK;
		break;
	case P_RST:
		pkt.type = DFCP_T_RST;
		pkt.u.rst.reason = c->rst_reason;
		break;
	default:
		return -EINVAL;
	}
	return dfcp_build(buf, cap, &c->local, &c->remote, &pkt, c->conf.csum);
}

static unsigned int
tx_ctrl(struct dfcp_conn *c, void *const *bufs, uint16_t *lens, size_t cap,
		unsigned int n)
{
	static const uint32_t order[] = { P_RST, P_SYN, P_SYNACK, P_ACK, P_FIN, P_FINACK };
	unsigned int k = 0;

	for (unsigned int i = 0; i < sizeof(order) / sizeof(order[0]) && k < n; i++) {
		int len;

		if (!(c->pending & order[i]))
			continue;
		len = build_ctrl(c, order[i], bufs[k], cap);
		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->pending &= ~order[i];
	}
	return k;
}

unsigned int
dfcp_conn_tx_burst(struct dfcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n)
{
	unsigned int k = 0;

	hs_timer(c, now);
	/* the application closes right after the peer's FIN */
	if (c->state == DFCP_CLOSE_WAIT) {
		c->state = DFCP_LAST_ACK;
		send_ctrl(c, P_FINACK, now, 1);
	}
	k = tx_ctrl(c, bufs, lens, cap, n);
	if (c->state == DFCP_CLOSED)
		goto out;
	dfcp_stall_check(c, now);
	if (!c->sender && c->state == DFCP_ESTABLISHED)
		dfcp_round_timer(c, now);
	while (k < n && c->back_count) {
		int len = dfcp_build_back(c, &c->back[c->back_head], bufs[k], cap);

		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->back_head = (c->back_head + 1) % BACK_RING;
		c->back_count--;
	}
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		dfcp_sender_timers(c, now);
		k += dfcp_sender_tx(c, now, bufs + k, lens + k, cap, n - k);
		if (sender_done(c)) {
			start_fin(c, now);
			k += tx_ctrl(c, bufs + k, lens + k, cap, n - k);
		}
	}
out:
	for (unsigned int i = 0; i < k; i++) {
		c->st.tx_pkts++;
		c->st.tx_bytes += lens[i];
	}
	return k;
}

uint64_t
dfcp_conn_next_deadline(const struct dfcp_conn *c, uint64_t now)
{
	uint64_t d = UINT64_MAX;

	if (c->pending || c->back_count || c->state == DFCP_CLOSE_WAIT)
		return now;
	if (c->state == DFCP_CLOSED)
		return UINT64_MAX;
	if (c->hs_deadline)
		d = c->hs_deadline;
	if (c->state == DFCP_ESTABLISHED && c->stall_at < d)
		d = c->stall_at;
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		if (sender_done(c))
			return now;
		if (c->rr_count || c->snd_first != c->snd_next ||
				(!c->src_eof && c->snd_next - c->snd_base < c->W)) {
			uint64_t t = dfcp_cap_next(c, now);

			if (t <= now)
				return now;
			if (t < d)
				d = t;
		}
		if (c->tmr_min && c->tmr_min < d)
			d = c->tmr_min;
	} else if (c->state == DFCP_ESTABLISHED) {
		uint64_t t = dfcp_round_deadline(c);

		if (t && t < d)
			d = t;
	}
	return d;
}
