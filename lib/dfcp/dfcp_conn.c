/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection: state machine, fountain-coded sender with full
 * reliability and auto redundancy, block receiver with in-order delivery.
 * Time in ns is passed in; no allocation after ESTABLISHED.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"

#define Q16		65536u
#define LOSS_CAP_Q16	58982u		/* 0.9: auto redundancy stops growing */
#define AUTO_Z_Q8	256u		/* first round: mean - z sd >= K, z = 1 (Q8) */
#define TOPUP_MARGIN	1u		/* top-up aims at missing + 1 arrivals */
#define EWMA_SHIFT	3		/* loss EWMA gain 1/8 */
#define BACK_RING	256u		/* pending BLOCK-ACKs */
#define SYM_CAP		65535u		/* symbols per round at most */
#define GEN_MAX		64u		/* symbols queued for one rq_enc_symbols call */

enum { TX_FREE = 0, TX_ACTIVE };
enum { RX_FREE = 0, RX_COLLECT, RX_DECODED };

/* pending control packets */
#define P_SYN		0x01
#define P_SYNACK	0x02
#define P_ACK		0x04
#define P_FIN		0x08
#define P_FINACK	0x10
#define P_RST		0x20

struct tx_slot {
	uint32_t block;
	uint32_t len;
	uint32_t next_esi;	/* next fresh ESI: never reused */
	uint32_t round_esi;	/* first ESI of the latest round */
	uint32_t first_left;	/* first-round packets still to send */
	uint32_t repair_left;	/* top-up packets still to send */
	uint64_t deadline;	/* block timer, 0: none */
	uint64_t last_tx;
	uint64_t first_done;	/* end of the first round (RTT sample after a top-up) */
	uint32_t first_syms;	/* packets of the first round */
	uint64_t first_tx;	/* first symbol sent (block latency) */
	uint8_t state;
	uint8_t in_repair;	/* slot index is in the repair ring */
	uint8_t topped;
	struct rq_enc *enc;
};

struct rx_slot {
	uint32_t block;
	uint32_t len;
	uint32_t esi_span;
	uint32_t count;		/* symbols held (decoding off: packets counted) */
	uint32_t nsrc;		/* source symbols copied into out */
	uint8_t state;
	uint8_t in_dec;		/* the source symbols went to the decoder too */
	struct rq_dec *dec;	/* from the pool, only once a repair symbol is needed */
	uint8_t *out;		/* from the pool while the slot is in use */
	uint64_t *have;		/* bitmap of the source ESIs in out (K bits) */
};

struct back_ent {
	uint32_t block;
	uint16_t status;
	uint16_t missing;
	uint32_t rcvd;
	uint32_t span;
};

struct dfcp_conn {
	enum dfcp_state state;
	enum dfcp_close_reason reason;
	int initiator;
	int sender;
	uint32_t lcid, rcid;
	struct dfcp_addr local, remote;
	struct dfcp_conn_conf conf;
	struct dfcp_params p;		/* negotiated */
	uint32_t W;			/* negotiated window */
	uint32_t alloc_W;		/* slots allocated */

	/* control */
	uint32_t pending;
	uint8_t ack_what;		/* type acked by the pending ACK */
	uint16_t rst_reason;
	uint32_t hs_retries;
	uint64_t hs_deadline;		/* 0: none */
	uint64_t syn_time;

	/* RTT */
	uint64_t srtt, rttvar;

	/* sender */
	struct tx_slot *tx;
	struct rq_enc *enc0;		/* encoding off: the only encoder */
	int enc0_loaded;
	struct rq_enc **encs;		/* all encoders (encoding on) */
	struct rq_enc **enc_free;	/* LIFO of free encoders: the hottest is reused */
	uint32_t n_enc_free;
	/* symbols to generate in one rq_enc_symbols call per encoder run */
	uint32_t n_gen;
	const struct rq_enc *gen_enc[GEN_MAX];
	uint32_t gen_esi[GEN_MAX];
	void *gen_out[GEN_MAX];
	/* prepared Ethernet/IPv4/UDP/DFCP-common header of DATA frames */
	uint8_t dhdr[DFCP_L2L4_LEN + DFCP_COMMON_LEN];
	int dhdr_ok;
	uint8_t *stage;
	uint32_t snd_base;		/* oldest unacked block */
	uint32_t snd_next;		/* next block to fill */
	uint32_t snd_first;		/* next block whose first round is due */
	uint64_t snd_bytes;		/* bytes taken from the source */
	int src_eof;
	uint32_t *repair_ring;
	uint32_t rr_head, rr_count;
	uint64_t tmr_min;		/* lower bound of the earliest block timer */
	uint32_t loss_q16;		/* EWMA of symbol loss */
	uint32_t fin_nblocks;
	uint64_t fin_nbytes;

	/* receiver */
	struct rx_slot *rx;
	struct rq_dec **decs;		/* all decoders; LIFO pool below */
	struct rq_dec **dec_free;
	uint32_t n_dec_free;
	uint8_t **outs;			/* all block buffers; LIFO pool below */
	uint8_t **out_free;
	uint32_t n_out_free;
	uint64_t *have_mem;
	uint32_t have_words;		/* per slot */
	uint32_t rcv_cum;		/* next block to deliver */
	uint64_t rcv_off;		/* stream offset delivered */
	uint64_t rcv_sum_rcvd, rcv_sum_span;
	struct back_ent back[BACK_RING];
	uint32_t back_head, back_count;
	int fin_seen;

	struct dfcp_stats st;
};

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
}

/* ------------------------------------------------------------------ */
/* auto redundancy                                                      */
/* ------------------------------------------------------------------ */

/*
 * First round: the smallest N such that, with independent loss p, the
 * received count X ~ Bin(N, q), q = 1 - p, satisfies E[X] - z sd(X) >= need,
 * i.e. N q - need >= z sqrt(N p q), z = 1 (~85-95 % of blocks decode on the
 * first pass; the rest get an exact top-up, which costs an RTT, not excess:
 * doc/protocol.md, "Auto redundancy"). Integer fixed point Q16.
 */
uint32_t
dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap)
{
	uint64_t p, q, n;

	if (need == 0)
		return 0;
	p = loss_q16 > LOSS_CAP_Q16 ? LOSS_CAP_Q16 : loss_q16;
	q = Q16 - p;
	n = ((uint64_t)need * Q16 + q - 1) / q;
	if (n < need)
		n = need;
	for (; n < cap; n++) {
		uint64_t a = n * q, b = (uint64_t)need * Q16;
		unsigned __int128 lhs, rhs;

		if (a < b)
			continue;
		/* (a - b)^2 >= z^2 n p q, all in Q32; z in Q8 */
		lhs = (unsigned __int128)(a - b) * (a - b) << 16;
		rhs = (unsigned __int128)AUTO_Z_Q8 * AUTO_Z_Q8 * n * p * q;
		if (lhs >= rhs)
			break;
	}
	return n > cap ? cap : (uint32_t)n;
}

/*
 * Top-up: enough fresh symbols that on average need arrive,
 * ceil(need / q): sized to the shortfall, no spread term (a second short
 * report costs one more small round, a spread term costs every round).
 */
static uint32_t
topup_syms(uint32_t need, uint32_t loss_q16)
{
	uint64_t q, n;

	q = Q16 - (loss_q16 > LOSS_CAP_Q16 ? LOSS_CAP_Q16 : loss_q16);
	n = ((uint64_t)need * Q16 + q - 1) / q;
	if (n < need)
		n = need;
	return n > SYM_CAP ? SYM_CAP : (uint32_t)n;
}

static uint32_t
first_round_syms(const struct dfcp_conn *c)
{
	if (c->p.redundancy != DFCP_REDUNDANCY_AUTO)
		return c->p.redundancy;
	return dfcp_auto_symbols(c->p.K, c->loss_q16, SYM_CAP);
}

static uint64_t
block_rto(const struct dfcp_conn *c)
{
	uint64_t rto = c->srtt + 4 * c->rttvar;

	if (rto < c->conf.min_rto_ns)
		rto = c->conf.min_rto_ns;
	return rto;
}

static void
rtt_sample(struct dfcp_conn *c, uint64_t r)
{
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
sender_free(struct dfcp_conn *c)
{
	if (c->encs != NULL) {
		for (uint32_t i = 0; i < c->alloc_W; i++)
			rq_enc_free(c->encs[i]);
	}
	free(c->encs);
	free(c->enc_free);
	c->encs = NULL;
	c->enc_free = NULL;
	free(c->tx);
	rq_enc_free(c->enc0);
	free(c->stage);
	free(c->repair_ring);
	c->tx = NULL;
	c->enc0 = NULL;
	c->stage = NULL;
	c->repair_ring = NULL;
}

static void
receiver_free(struct dfcp_conn *c)
{
	for (uint32_t i = 0; c->decs != NULL && i < c->alloc_W; i++)
		rq_dec_free(c->decs[i]);
	for (uint32_t i = 0; c->outs != NULL && i < c->alloc_W; i++)
		free(c->outs[i]);
	free(c->decs);
	free(c->dec_free);
	free(c->outs);
	free(c->out_free);
	free(c->have_mem);
	free(c->rx);
	c->decs = NULL;
	c->dec_free = NULL;
	c->outs = NULL;
	c->out_free = NULL;
	c->have_mem = NULL;
	c->rx = NULL;
}

static int
sender_alloc(struct dfcp_conn *c)
{
	uint32_t W = c->conf.window;

	c->alloc_W = W;
	c->tx = calloc(W, sizeof(*c->tx));
	c->repair_ring = calloc(W, sizeof(*c->repair_ring));
	c->stage = malloc((size_t)c->conf.K * c->conf.T);
	if (c->tx == NULL || c->repair_ring == NULL || c->stage == NULL)
		return -ENOMEM;
	if (c->conf.encode) {
		c->encs = calloc(W, sizeof(*c->encs));
		c->enc_free = calloc(W, sizeof(*c->enc_free));
		if (c->encs == NULL || c->enc_free == NULL)
			return -ENOMEM;
		for (uint32_t i = 0; i < W; i++) {
			c->encs[i] = rq_enc_create(c->conf.K, c->conf.T);
			if (c->encs[i] == NULL)
				return -ENOMEM;
			c->enc_free[c->n_enc_free++] = c->encs[i];
		}
	} else {
		c->enc0 = rq_enc_create(c->conf.K, c->conf.T);
		if (c->enc0 == NULL)
			return -ENOMEM;
	}
	return 0;
}

static int
receiver_alloc(struct dfcp_conn *c)
{
	uint32_t W = c->W;

	if (c->rx != NULL)
		return 0;
	c->alloc_W = W;
	c->rx = calloc(W, sizeof(*c->rx));
	if (c->rx == NULL)
		return -ENOMEM;
	if (!(c->p.flags & DFCP_F_DEC))
		return 0;
	/*
	 * Pools: a slot takes a block buffer when its block starts and gives it
	 * back on delivery, so in-order traffic cycles through a few cache-hot
	 * buffers; a decoder is taken only when a repair symbol is needed.
	 */
	c->have_words = (c->p.K + 63u) / 64u;
	c->decs = calloc(W, sizeof(*c->decs));
	c->dec_free = calloc(W, sizeof(*c->dec_free));
	c->outs = calloc(W, sizeof(*c->outs));
	c->out_free = calloc(W, sizeof(*c->out_free));
	c->have_mem = calloc((size_t)W * c->have_words, sizeof(uint64_t));
	if (c->decs == NULL || c->dec_free == NULL || c->outs == NULL ||
			c->out_free == NULL || c->have_mem == NULL)
		return -ENOMEM;
	for (uint32_t i = 0; i < W; i++) {
		c->decs[i] = rq_dec_create(c->p.K, c->p.T, 0);
		c->outs[i] = aligned_alloc(64, ((size_t)c->p.K * c->p.T + 63) / 64 * 64);
		if (c->decs[i] == NULL || c->outs[i] == NULL)
			return -ENOMEM;
		/* pushed in reverse: buffer 0 is taken first */
		c->dec_free[W - 1 - i] = c->decs[i];
		c->out_free[W - 1 - i] = c->outs[i];
		c->rx[i].have = c->have_mem + (size_t)i * c->have_words;
	}
	c->n_dec_free = W;
	c->n_out_free = W;
	return 0;
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
	if (sender_alloc(c) < 0) {
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
	sender_free(c);
	receiver_free(c);
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

void
dfcp_conn_stats(const struct dfcp_conn *c, struct dfcp_stats *st)
{
	*st = c->st;
	st->srtt_ns = c->srtt;
	if (c->sender) {
		st->loss_ppm = (uint32_t)(((uint64_t)c->loss_q16 * 1000000u) >> 16);
		st->redundancy = first_round_syms(c);
		st->window_used = c->snd_next - c->snd_base;
	} else {
		uint32_t used = 0;

		if (c->rcv_sum_span)
			st->loss_ppm = (uint32_t)((c->rcv_sum_span - c->rcv_sum_rcvd) *
				1000000u / c->rcv_sum_span);
		for (uint32_t i = 0; c->rx != NULL && i < c->W; i++)
			used += c->rx[i].state != RX_FREE;
		st->window_used = used;
		st->redundancy = c->p.redundancy;
	}
}

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
/* sender                                                               */
/* ------------------------------------------------------------------ */

static void
tmr_arm(struct dfcp_conn *c, struct tx_slot *s, uint64_t when)
{
	s->deadline = when;
	if (c->tmr_min == 0 || when < c->tmr_min)
		c->tmr_min = when;
}

static void
repair_schedule(struct dfcp_conn *c, struct tx_slot *s, uint32_t syms)
{
	uint32_t idx = (uint32_t)(s - c->tx);

	if (syms == 0)
		syms = 1;
	s->repair_left = syms;
	s->round_esi = s->next_esi;
	s->topped = 1;
	s->deadline = 0;
	c->st.topups++;
	c->st.topup_syms += syms;
	if (!s->in_repair) {
		s->in_repair = 1;
		c->repair_ring[(c->rr_head + c->rr_count) % c->W] = idx;
		c->rr_count++;
	}
}

/* Slot done: its encoder goes back on top of the pool. */
static void
tx_release(struct dfcp_conn *c, struct tx_slot *s)
{
	s->state = TX_FREE;
	if (s->enc != NULL) {
		c->enc_free[c->n_enc_free++] = s->enc;
		s->enc = NULL;
	}
}

/*
 * Generate the queued symbols straight into their frames (headers already
 * written): one rq_enc_symbols call per run of frames of the same encoder, so
 * that the repair symbols of a block come from one generator pass. Should the
 * codec refuse a symbol (it cannot: encoders are loaded, ESIs in range), its
 * frame gets DFCP version 0: the peer drops it like a lost packet.
 */
static void
gen_flush(struct dfcp_conn *c)
{
	uint32_t i = 0, n = c->n_gen;

	c->n_gen = 0;
	while (i < n) {
		uint32_t j = i + 1;

		while (j < n && c->gen_enc[j] == c->gen_enc[i])
			j++;
		if (rq_enc_symbols(c->gen_enc[i], &c->gen_esi[i], &c->gen_out[i], j - i) < 0) {
			for (; i < j; i++)
				if (rq_enc_symbol(c->gen_enc[i], c->gen_esi[i], c->gen_out[i]) < 0)
					((uint8_t *)c->gen_out[i])[DFCP_L2L4_LEN - DFCP_DATA_OFF] = 0;
		}
		i = j;
	}
}

static void
block_acked(struct dfcp_conn *c, uint32_t b, uint64_t now)
{
	struct tx_slot *s;

	if ((int32_t)(b - c->snd_base) < 0 || (int32_t)(b - c->snd_next) >= 0)
		return;
	s = &c->tx[b % c->W];
	if (s->state != TX_ACTIVE || s->block != b)
		return;
	if (!s->topped && s->first_left == 0 && now >= s->last_tx)
		rtt_sample(c, now - s->last_tx);
	if (c->conf.block_latency != NULL && now >= s->first_tx)
		hist_record(c->conf.block_latency, now - s->first_tx);
	tx_release(c, s);
	s->first_left = 0;
	s->repair_left = 0;
	s->deadline = 0;
	c->st.blocks_acked++;
	if (!s->topped)
		c->st.blocks_first_pass++;
	c->st.goodput_bytes += s->len;
	while (c->snd_base != c->snd_next && c->tx[c->snd_base % c->W].state == TX_FREE)
		c->snd_base++;
}

/*
 * One loss sample per DECODED report: the block decoded on its rcvd-th
 * distinct symbol, the span-th one sent (highest ESI seen + 1). The count of
 * losses before the rcvd-th arrival is negative binomial, for which
 * (span - rcvd) / (span - 1) is the unbiased estimate of p
 * ((span - rcvd) / span under-estimates it by a factor (span - 1) / span).
 */
static void
loss_sample(struct dfcp_conn *c, uint32_t rcvd, uint32_t span)
{
	int64_t sample, cur = c->loss_q16;

	if (span < 2 || rcvd == 0 || rcvd > span)
		return;
	sample = (int64_t)(span - rcvd) * Q16 / (span - 1);
	cur += (sample - cur) / (1 << EWMA_SHIFT);
	if (cur < 0)
		cur = 0;
	c->loss_q16 = (uint32_t)cur;
}

static void
sender_block_ack(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	uint32_t b = pkt->u.back.block, cum = pkt->u.back.cum;

	if (pkt->u.back.status == DFCP_BA_DECODED) {
		struct tx_slot *s = &c->tx[b % c->W];

		if (s->state == TX_ACTIVE && s->block == b) {
			loss_sample(c, pkt->u.back.rcvd, pkt->u.back.esi_span);
			/*
			 * Karn: a topped-up block gives no RTT sample, so spurious
			 * timeouts could starve srtt for good. An ack that saw only
			 * first-round symbols still times the first round.
			 */
			if (s->topped && s->first_done && now >= s->first_done &&
					pkt->u.back.esi_span <= s->first_syms)
				rtt_sample(c, now - s->first_done);
		}
		block_acked(c, b, now);
	}
	/* cumulative part: never beyond what was sent */
	if ((int32_t)(cum - c->snd_next) > 0)
		cum = c->snd_next;
	while ((int32_t)(c->snd_base - cum) < 0)
		block_acked(c, c->snd_base, now);
	for (uint32_t i = 0; i < 64; i++)
		if (pkt->u.back.bitmap & (1ull << i))
			block_acked(c, cum + 1 + i, now);

	if (pkt->u.back.status == DFCP_BA_SHORT) {
		struct tx_slot *s;

		c->st.short_reports++;
		if ((int32_t)(b - c->snd_base) < 0 || (int32_t)(b - c->snd_next) >= 0)
			return;
		s = &c->tx[b % c->W];
		if (s->state != TX_ACTIVE || s->block != b)
			return;
		if (s->first_left || s->repair_left)
			return;		/* a round is still going out */
		if (pkt->u.back.esi_span <= s->round_esi)
			return;		/* report predates the latest round */
		repair_schedule(c, s, topup_syms(pkt->u.back.missing + TOPUP_MARGIN,
					c->loss_q16));
	}
}

/* Fill the next block from the source. 1 if a block was filled. */
static int
sender_fill(struct dfcp_conn *c, uint64_t now)
{
	uint32_t bs = c->p.block_size, len = 0;
	struct tx_slot *s;
	struct rq_enc *enc;

	if (c->src_eof || c->snd_next - c->snd_base >= c->W || c->conf.source == NULL) {
		if (c->conf.source == NULL)
			c->src_eof = 1;
		return 0;
	}
	/* queued symbols may come from an encoder that is free again */
	if (c->n_gen != 0)
		gen_flush(c);
	while (len < bs) {
		size_t r = c->conf.source(c->conf.source_ctx, now, c->stage + len, bs - len);

		if (r == 0)
			break;
		len += (uint32_t)r;
	}
	if (len < bs)
		c->src_eof = 1;
	if (len == 0)
		return 0;
	s = &c->tx[c->snd_next % c->W];
	if (c->p.flags & DFCP_F_ENC) {
		if (s->enc == NULL) {
			if (c->n_enc_free == 0)
				return 0;	/* cannot happen: one encoder per window slot */
			s->enc = c->enc_free[--c->n_enc_free];
		}
		enc = s->enc;
		if (rq_enc_block(enc, c->stage, len) < 0)
			return 0;
	} else if (!c->enc0_loaded) {
		if (rq_enc_block(c->enc0, c->stage, len) < 0)
			return 0;
		c->enc0_loaded = 1;
	}
	s->block = c->snd_next;
	s->len = len;
	s->next_esi = 0;
	s->round_esi = 0;
	s->first_left = first_round_syms(c);
	s->first_syms = s->first_left;
	s->first_done = 0;
	s->repair_left = 0;
	s->deadline = 0;
	s->topped = 0;
	s->state = TX_ACTIVE;
	c->snd_bytes += len;
	c->snd_next++;
	return 1;
}

/*
 * One DATA frame: the symbol is queued for generation straight into the frame
 * (gen_flush), the headers are the prepared template with the block, payload
 * id, block length and flags patched in: every other Ethernet/IPv4/UDP field,
 * the IPv4 checksum included, is the same for all DATA frames of a connection.
 * A full software UDP checksum needs the symbol first: built the long way.
 */
static int
build_data(struct dfcp_conn *c, struct tx_slot *s, int last, uint8_t *buf,
		size_t cap)
{
	struct dfcp_pkt pkt;
	const struct rq_enc *enc = (c->p.flags & DFCP_F_ENC) ? s->enc : c->enc0;
	uint32_t esi = s->next_esi;
	uint8_t *d;
	int len;

	if (cap < (size_t)DFCP_DATA_OFF + c->p.T)
		return -EMSGSIZE;
	if (esi > RQ_MAX_ESI)
		esi = RQ_MAX_ESI;	/* 16M symbols for one block: cannot happen */
	if (c->conf.csum == DFCP_CSUM_FULL) {
		if (rq_enc_symbol(enc, esi, buf + DFCP_DATA_OFF) < 0)
			return -EIO;
	} else {
		if (c->n_gen == GEN_MAX)
			gen_flush(c);
		c->gen_enc[c->n_gen] = enc;
		c->gen_esi[c->n_gen] = esi;
		c->gen_out[c->n_gen++] = buf + DFCP_DATA_OFF;
	}
	if (s->next_esi <= RQ_MAX_ESI)
		s->next_esi++;
	if (c->dhdr_ok) {
		d = buf + DFCP_L2L4_LEN;
		memcpy(buf, c->dhdr, sizeof(c->dhdr));
		net_wr16(d + 2, last ? DFCP_F_LAST : 0);
		d += DFCP_COMMON_LEN;
		net_wr32(d, s->block);
		net_wr32(d + 4, ((s->block & 0xff) << 24) | (esi & 0xffffff));
		net_wr32(d + 8, s->len);
		return DFCP_DATA_OFF + c->p.T;
	}
	pkt.type = DFCP_T_DATA;
	pkt.flags = last ? DFCP_F_LAST : 0;
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	pkt.u.data.block = s->block;
	pkt.u.data.esi = esi;
	pkt.u.data.block_len = s->len;
	pkt.u.data.sym = NULL;
	pkt.u.data.sym_len = c->p.T;
	len = dfcp_build(buf, cap, &c->local, &c->remote, &pkt, c->conf.csum);
	if (len == DFCP_DATA_OFF + c->p.T && c->conf.csum != DFCP_CSUM_FULL) {
		memcpy(c->dhdr, buf, sizeof(c->dhdr));
		c->dhdr_ok = 1;
	}
	return len;
}

static void
sender_round_done(struct dfcp_conn *c, struct tx_slot *s, uint64_t now)
{
	s->last_tx = now;
	if (!s->topped)
		s->first_done = now;
	if (!(c->p.flags & DFCP_F_ACKS)) {
		/* acks off: the buffer frees right after sending */
		tx_release(c, s);
		c->st.goodput_bytes += s->len;
		while (c->snd_base != c->snd_next &&
				c->tx[c->snd_base % c->W].state == TX_FREE)
			c->snd_base++;
		return;
	}
	tmr_arm(c, s, now + block_rto(c));
}

static void
sender_timers(struct dfcp_conn *c, uint64_t now)
{
	uint64_t min = 0;

	if (c->tmr_min == 0 || now < c->tmr_min)
		return;
	for (uint32_t b = c->snd_base; b != c->snd_next; b++) {
		struct tx_slot *s = &c->tx[b % c->W];

		if (s->state != TX_ACTIVE || s->deadline == 0)
			continue;
		if (s->deadline <= now) {
			c->st.timeouts++;
			repair_schedule(c, s, topup_syms(c->p.K / 8u + 1u,
						c->loss_q16));
			continue;
		}
		if (min == 0 || s->deadline < min)
			min = s->deadline;
	}
	c->tmr_min = min;
}

static unsigned int
sender_tx(struct dfcp_conn *c, uint64_t now, void *const *bufs, uint16_t *lens,
		size_t cap, unsigned int n)
{
	unsigned int k = 0;

	while (k < n) {
		struct tx_slot *s = NULL;
		int last, len;

		/* fresh repair for old blocks first */
		while (c->rr_count) {
			struct tx_slot *r = &c->tx[c->repair_ring[c->rr_head]];

			if (r->state == TX_ACTIVE && r->repair_left) {
				s = r;
				break;
			}
			r->in_repair = 0;
			c->rr_head = (c->rr_head + 1) % c->W;
			c->rr_count--;
		}
		if (s != NULL) {
			last = s->repair_left == 1;
			len = build_data(c, s, last, bufs[k], cap);
			if (len < 0)
				break;
			lens[k++] = (uint16_t)len;
			c->st.tx_data_pkts++;
			if (--s->repair_left == 0) {
				s->in_repair = 0;
				c->rr_head = (c->rr_head + 1) % c->W;
				c->rr_count--;
				sender_round_done(c, s, now);
			}
			continue;
		}
		/* first rounds, in block order */
		while (c->snd_first != c->snd_next) {
			struct tx_slot *f = &c->tx[c->snd_first % c->W];

			if (f->state == TX_ACTIVE && f->block == c->snd_first &&
					f->first_left)
				break;
			c->snd_first++;
		}
		if (c->snd_first == c->snd_next) {
			if (!sender_fill(c, now))
				break;
		}
		s = &c->tx[c->snd_first % c->W];
		if (s->next_esi == 0) {
			c->st.blocks_sent++;
			s->first_tx = now;
		}
		last = s->first_left == 1;
		len = build_data(c, s, last, bufs[k], cap);
		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->st.tx_data_pkts++;
		if (--s->first_left == 0) {
			c->snd_first++;
			sender_round_done(c, s, now);
		}
	}
	if (c->n_gen != 0)
		gen_flush(c);
	return k;
}

/* ------------------------------------------------------------------ */
/* receiver                                                             */
/* ------------------------------------------------------------------ */

static void
queue_back(struct dfcp_conn *c, uint32_t b, uint16_t status, uint16_t missing,
		uint32_t rcvd, uint32_t span)
{
	struct back_ent *e;

	if (!(c->p.flags & DFCP_F_ACKS))
		return;
	if (c->back_count == BACK_RING)
		return;		/* the cumulative ack and timers cover it */
	e = &c->back[(c->back_head + c->back_count) % BACK_RING];
	e->block = b;
	e->status = status;
	e->missing = missing;
	e->rcvd = rcvd;
	e->span = span;
	c->back_count++;
	if (status == DFCP_BA_SHORT)
		c->st.short_reports++;
}

/* Block buffer and decoder back to their pools. */
static void
rx_release(struct dfcp_conn *c, struct rx_slot *s)
{
	s->state = RX_FREE;
	if (s->dec != NULL) {
		rq_dec_reset(s->dec);
		c->dec_free[c->n_dec_free++] = s->dec;
		s->dec = NULL;
	}
	if (s->out != NULL) {
		c->out_free[c->n_out_free++] = s->out;
		s->out = NULL;
	}
}

static void
rx_deliver(struct dfcp_conn *c)
{
	for (;;) {
		struct rx_slot *s = &c->rx[c->rcv_cum % c->W];

		if (s->state != RX_DECODED || s->block != c->rcv_cum)
			break;
		if (c->conf.sink != NULL)
			c->conf.sink(c->conf.sink_ctx, c->rcv_off,
					(c->p.flags & DFCP_F_DEC) ? s->out : NULL, s->len);
		c->rcv_off += s->len;
		c->st.goodput_bytes += s->len;
		rx_release(c, s);
		c->rcv_cum++;
	}
}

/* acks off: the window slides over blocks that did not decode. */
static void
rx_skip_to(struct dfcp_conn *c, uint32_t cum)
{
	while ((int32_t)(c->rcv_cum - cum) < 0) {
		struct rx_slot *s;

		rx_deliver(c);
		if ((int32_t)(c->rcv_cum - cum) >= 0)
			break;
		s = &c->rx[c->rcv_cum % c->W];
		if (s->state == RX_COLLECT && s->block == c->rcv_cum) {
			c->rcv_off += s->len;
			rx_release(c, s);
		}
		c->st.blocks_lost++;
		c->rcv_cum++;
	}
	rx_deliver(c);
}

/*
 * Decoding on: a source symbol (ESI < K) is copied once, straight to its
 * place in the slot's block buffer; when all K arrive the block is complete
 * without the decoder. A repair symbol goes to the slot's decoder (taken from
 * the pool on first use); once K symbols are held and a source symbol is
 * missing, the source symbols join it and the block is decoded into the
 * buffer. Returns 0 or -DFCP_E_*; s->count and s->state are updated.
 */
static int
rx_symbol(struct dfcp_conn *c, struct rx_slot *s, uint32_t esi, const uint8_t *sym)
{
	uint32_t K = c->p.K, T = c->p.T, n;
	int rc, added;

	if (esi < K && !s->in_dec) {
		uint64_t bit = 1ull << (esi & 63);

		if (s->have[esi >> 6] & bit)
			return 0;	/* duplicate */
		s->have[esi >> 6] |= bit;
		memcpy(s->out + (size_t)esi * T, sym, T);
		s->nsrc++;
		added = 1;
	} else {
		if (s->dec == NULL) {
			if (c->n_dec_free == 0)
				return -DFCP_E_NOBUF;	/* cannot happen: W decoders */
			s->dec = c->dec_free[--c->n_dec_free];
		}
		rc = rq_dec_add(s->dec, esi, sym);
		if (rc < 0)
			return -DFCP_E_ESI;
		added = rc > 0;
	}
	n = s->dec != NULL ? rq_dec_count(s->dec) : 0;
	s->count = s->in_dec ? n : s->nsrc + n;
	if (!s->in_dec && s->nsrc == K) {
		s->state = RX_DECODED;
		return 0;
	}
	if (!added || s->count < K)
		return 0;
	if (!s->in_dec) {
		for (uint32_t i = 0; i < K; i++) {
			if (!(s->have[i >> 6] & (1ull << (i & 63))))
				continue;
			/* in place: the decoder reads them where they are (no copy) */
			if (rq_dec_add_ref(s->dec, i, s->out + (size_t)i * T) < 0)
				return -DFCP_E_ESI;
		}
		s->in_dec = 1;
		s->count = rq_dec_count(s->dec);
	}
	if (rq_dec_decode(s->dec, s->out, s->len) == 0)
		s->state = RX_DECODED;
	else
		c->st.decode_failures++;
	return 0;
}

static int
rx_data(struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	uint32_t b = pkt->u.data.block, esi = pkt->u.data.esi;
	int last = pkt->flags & DFCP_F_LAST;
	struct rx_slot *s;

	if (pkt->u.data.sym_len != c->p.T)
		return -DFCP_E_SYMLEN;
	if (pkt->u.data.block_len > c->p.block_size)
		return -DFCP_E_ESI;
	c->st.rx_data_pkts++;
	if ((int32_t)(b - c->rcv_cum) < 0) {
		if (last)
			queue_back(c, b, DFCP_BA_DECODED, 0, 0, 0);
		return -DFCP_E_STALE;
	}
	if (b - c->rcv_cum >= c->W) {
		if (c->p.flags & DFCP_F_ACKS)
			return -DFCP_E_NOBUF;
		rx_skip_to(c, b - c->W + 1);
	}
	s = &c->rx[b % c->W];
	if (s->state != RX_FREE && s->block != b) {
		/* cannot happen: a slot only holds blocks of the window */
		rx_release(c, s);
	}
	if (s->state == RX_FREE) {
		if (c->p.flags & DFCP_F_DEC) {
			if (c->n_out_free == 0)
				return -DFCP_E_NOBUF;	/* cannot happen: W buffers */
			s->out = c->out_free[--c->n_out_free];
			memset(s->have, 0, c->have_words * sizeof(uint64_t));
		}
		s->state = RX_COLLECT;
		s->block = b;
		s->len = pkt->u.data.block_len;
		s->esi_span = 0;
		s->count = 0;
		s->nsrc = 0;
		s->in_dec = 0;
	} else if (s->state == RX_DECODED) {
		if (last)
			queue_back(c, b, DFCP_BA_DECODED, 0, 0, 0);
		return -DFCP_E_STALE;
	}
	if (pkt->u.data.block_len != s->len)
		return -DFCP_E_ESI;
	if (esi + 1 > s->esi_span)
		s->esi_span = esi + 1;
	if (c->p.flags & DFCP_F_DEC) {
		int rc = rx_symbol(c, s, esi, pkt->u.data.sym);

		if (rc < 0)
			return rc;
	} else {
		if (++s->count >= c->p.K)
			s->state = RX_DECODED;
	}
	if (s->state == RX_DECODED) {
		c->st.blocks_decoded++;
		c->rcv_sum_rcvd += s->count;
		c->rcv_sum_span += s->esi_span > s->count ? s->esi_span : s->count;
		queue_back(c, b, DFCP_BA_DECODED, 0, s->count, s->esi_span);
		rx_deliver(c);
	} else if (last) {
		uint32_t miss = s->count < c->p.K ? c->p.K - s->count : 1;

		queue_back(c, b, DFCP_BA_SHORT, (uint16_t)(miss > 65535 ? 65535 : miss),
				s->count, s->esi_span);
	}
	return 0;
}

static int
build_back(struct dfcp_conn *c, const struct back_ent *e, uint8_t *buf, size_t cap)
{
	struct dfcp_pkt pkt;
	uint64_t bm = 0;

	for (uint32_t i = 0; i < 64 && i + 1 < c->W; i++) {
		uint32_t b = c->rcv_cum + 1 + i;
		const struct rx_slot *s = &c->rx[b % c->W];

		if (s->state == RX_DECODED && s->block == b)
			bm |= 1ull << i;
	}
	memset(&pkt, 0, sizeof(pkt));
	pkt.type = DFCP_T_BLOCK_ACK;
	pkt.dst_cid = c->rcid;
	pkt.src_cid = c->lcid;
	pkt.u.back.block = e->block;
	pkt.u.back.cum = c->rcv_cum;
	pkt.u.back.status = e->status;
	pkt.u.back.missing = e->missing;
	pkt.u.back.rcvd = e->rcvd;
	pkt.u.back.esi_span = e->span;
	pkt.u.back.bitmap = bm;
	return dfcp_build(buf, cap, &c->local, &c->remote, &pkt, c->conf.csum);
}

/* ------------------------------------------------------------------ */
/* rx                                                                   */
/* ------------------------------------------------------------------ */

static int
synack_ok(const struct dfcp_conn *c, const struct dfcp_params *p)
{
	return p->T == c->p.T && p->K == c->p.K && p->block_size == c->p.block_size &&
		p->window >= 1 && p->window <= c->p.window &&
		p->redundancy == c->p.redundancy && p->flags == c->p.flags;
}

static int
become_established(struct dfcp_conn *c)
{
	if (!c->sender && receiver_alloc(c) < 0) {
		to_closed(c, DFCP_CR_ABORT);
		c->rst_reason = DFCP_RST_FULL;
		c->pending = P_RST;
		return -ENOMEM;
	}
	c->state = DFCP_ESTABLISHED;
	c->hs_deadline = 0;
	c->pending &= ~P_SYNACK;
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
		c->st.window = c->W;
		if (c->hs_retries == 0 && now >= c->syn_time)
			rtt_sample(c, now - c->syn_time);
		c->pending &= ~P_SYN;
		queue_ack(c, DFCP_T_SYNACK);
		return become_established(c);
	case DFCP_SYN_RECV:
		if (t == DFCP_T_SYN) {		/* our SYNACK was lost */
			c->pending |= P_SYNACK;
			return 0;
		}
		if ((t == DFCP_T_ACK && pkt->u.ack.acked == DFCP_T_SYNACK) ||
				t == DFCP_T_DATA) {
			if (now >= c->syn_time && c->hs_retries == 0)
				rtt_sample(c, now - c->syn_time);
			if (become_established(c) < 0)
				return -DFCP_E_NOBUF;
			if (t == DFCP_T_DATA)
				return rx_data(c, pkt);
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
			return rx_data(c, pkt);
		case DFCP_T_BLOCK_ACK:
			if (!c->sender)
				return -DFCP_E_STATE;
			sender_block_ack(c, pkt, now);
			return 0;
		case DFCP_T_FIN:
			if (!c->sender) {
				c->fin_seen = 1;
				if (!(c->p.flags & DFCP_F_ACKS))
					rx_skip_to(c, pkt->u.fin.nblocks);
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
	while (k < n && c->back_count) {
		int len = build_back(c, &c->back[c->back_head], bufs[k], cap);

		if (len < 0)
			break;
		lens[k++] = (uint16_t)len;
		c->back_head = (c->back_head + 1) % BACK_RING;
		c->back_count--;
	}
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		sender_timers(c, now);
		k += sender_tx(c, now, bufs + k, lens + k, cap, n - k);
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
	if (c->sender && c->state == DFCP_ESTABLISHED) {
		if (c->rr_count || c->snd_first != c->snd_next ||
				(!c->src_eof && c->snd_next - c->snd_base < c->W) ||
				sender_done(c))
			return now;
		if (c->tmr_min && c->tmr_min < d)
			d = c->tmr_min;
	}
	return d;
}
