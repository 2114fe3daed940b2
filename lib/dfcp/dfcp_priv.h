/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp private definitions. */
#ifndef DFCP_PRIV_H
#define DFCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_keys.h"
#include "net.h"
#include "net_hash.h"

/* pending control packets (dfcp_conn.pending) */
#define P_SYN		0x01
#define P_SYNACK	0x02
#define P_ACK		0x04
#define P_FIN		0x08
#define P_FINACK	0x10
#define P_RST		0x20

/* Body lengths after the 12-byte common header. */
#define DFCP_SYN_BODY	24
#define DFCP_ACK_BODY	4
#define DFCP_DATA_BODY	12
#define DFCP_BACK_BODY	28
#define DFCP_RPT_LEN	24	/* the loss report after a BLOCK-ACK body */
#define DFCP_FIN_BODY	12
#define DFCP_RST_BODY	4

void dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum);
/* The UDP checksum of a built frame (its IPv4 header complete), in software. */
void dfcp_udp_csum(uint8_t *f);
/* dfcp_wire.c: the tag of a built frame (message of msg_len bytes at f + 42). */
void dfcp_auth_sign(const struct dfcp_auth *a, uint8_t *f, uint32_t msg_len);

/* dfcp_sess.c: a connection's encryption session */
struct dfcp_conn;
int dfcp_sess_connect(struct dfcp_conn *c);
int dfcp_sess_install(struct dfcp_conn *c, const struct dfcp_keyset *k, int initiator);
int dfcp_sess_synack(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
int dfcp_sess_respond(unsigned int suite, const uint8_t *psk, size_t psk_len,
		const struct dfcp_pkt *syn, uint32_t lcid, struct dfcp_params *p,
		struct dfcp_keyset *k);
int dfcp_sess_half_check(const struct dfcp_keyset *k, const struct dfcp_auth *psk,
		struct dfcp_pkt *pkt);
const struct dfcp_auth *dfcp_sess_mac(const struct dfcp_conn *c, uint8_t type);
int dfcp_sess_check(const struct dfcp_conn *c, const struct dfcp_pkt *pkt);
int dfcp_sess_defer_ok(const struct dfcp_conn *c, const struct dfcp_pkt *pkt);
void dfcp_sess_open_burst(struct dfcp_conn *c, struct dfcp_pkt *const *pkt, uint32_t n);
void dfcp_sess_seal(struct dfcp_conn *c, void *const *out, const void *const *src, uint32_t n,
		uint32_t hdr);
void dfcp_gen_flush(struct dfcp_conn *c);
void dfcp_sess_free(struct dfcp_conn *c);

/* The address a received packet came from: where an answer to it goes. */
static inline void
dfcp_pkt_src(const struct dfcp_pkt *pkt, struct dfcp_addr *a)
{
	memcpy(a->mac, pkt->src_mac, 6);
	a->ip = pkt->src_ip;
	a->port = pkt->src_port;
}

/* Connection internals used by the endpoint. */
struct dfcp_conn *dfcp_conn_accept(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, uint64_t now);
struct dfcp_slab;
/*
 * The parameters a responder with conf and limits answers syn with (the
 * window clamped, extensions both sides have): 0 or -DFCP_E_PARAMS.
 */
int dfcp_accept_params(const struct dfcp_conn_conf *conf, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, struct dfcp_params *p);
/*
 * Endpoint: a half-open entry became a connection (its ACK, DATA or FIN
 * arrived): made ESTABLISHED at once, its receive slots reserved from
 * pool (NULL: a private pool). rtt_ok: the SYN was not retried (its time
 * syn_time times the path). NULL: no memory.
 */
struct dfcp_conn *dfcp_conn_accept_established(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, const struct dfcp_pkt *syn, const struct dfcp_params *limits,
		struct dfcp_pool *pool, struct dfcp_slab *slab, uint64_t syn_time, int rtt_ok,
		uint64_t now);	/* slab: where the record comes from (NULL: the heap) */

/* dfcp_pool.c: the connections' side of a pool */
int dfcp_pool_shape_ok(const struct dfcp_pool *p, uint16_t K, uint16_t T);
uint32_t dfcp_pool_rx_free(const struct dfcp_pool *p);
uint32_t dfcp_pool_tx_free(const struct dfcp_pool *p);
uint64_t dfcp_pool_rx_slot_bytes(const struct dfcp_pool *p);
/*
 * Reserve a connection's rx buffers and tx encoders: all of them (strict
 * pool) or its guarantee (shared: *rx, *tx become what is guaranteed: one
 * buffer for the receiver's head block, tx_min encoders). 0 or -ENOSPC.
 */
int dfcp_pool_reserve(struct dfcp_pool *p, uint32_t *rx, uint32_t *tx);
/* Give the reservation back; *_held: guaranteed items the connection still holds. */
void dfcp_pool_unreserve(struct dfcp_pool *p, uint32_t rx, uint32_t tx, uint32_t rx_held,
		uint32_t tx_held);
int dfcp_pool_is_shared(const struct dfcp_pool *p);
/* K x T bytes a sender fills a block in before encoding it (shared by the pool's senders) */
uint8_t *dfcp_pool_stage(struct dfcp_pool *p);
void dfcp_pool_count_refused(struct dfcp_pool *p);
/*
 * Draws (NULL: none for this connection now, counted as a wait in a shared
 * pool). g: drawn on the connection's guarantee (shared pools; strict ones
 * ignore it), and given back with the same g.
 */
uint8_t *dfcp_pool_get_buf(struct dfcp_pool *p, int g);
void dfcp_pool_put_buf(struct dfcp_pool *p, uint8_t *b, int g);
struct rq_dec *dfcp_pool_get_dec(struct dfcp_pool *p);
void dfcp_pool_put_dec(struct dfcp_pool *p, struct rq_dec *d);	/* resets it */
struct rq_enc *dfcp_pool_get_enc(struct dfcp_pool *p, int g);
void dfcp_pool_put_enc(struct dfcp_pool *p, struct rq_enc *e, int g);

/* Connection internals (dfcp_conn.c, dfcp_tx.c, dfcp_rx.c). */
struct rq_enc;
struct rq_dec;

#define BACK_RING	256u		/* pending BLOCK-ACKs */
#define GEN_MAX		64u		/* symbols queued for one rq_enc_symbols call */
#define DFCP_POOL_RETRY_NS	50000ull	/* a sender short of an encoder tries again */
#define DFCP_SEQ_WIN	1024u		/* receiver: the anti-replay window, seqs */
#define DFCP_PEER_TIMEOUT_MIN	3000000000ull	/* default peer timeout at least 3 s */
#define DFCP_PEER_TIMEOUT_RTOS	10u		/* ... and 10 block timeouts */
/* A receiver that hears its peer but sent nothing for a quarter of the
 * default (or its configured) peer timeout sends a keepalive (dfcp_ctrl.c) */
#define DFCP_KEEPALIVE_DIV	4u

enum { TX_FREE = 0, TX_ACTIVE };
enum { RX_FREE = 0, RX_COLLECT, RX_DECODED };

struct tx_slot {
	uint32_t block;
	uint32_t len;
	uint32_t next_esi;	/* next fresh ESI: never reused */
	uint32_t round_esi;	/* first ESI of the latest round */
	uint32_t first_left;	/* first-round packets still to send */
	uint32_t repair_left;	/* top-up packets still to send */
	uint32_t repair_need;	/* arrivals the top-up aims at */
	uint64_t deadline;	/* block timer, 0: none */
	uint64_t last_tx;
	uint64_t first_done;	/* end of the first round (RTT sample after a top-up) */
	uint32_t first_syms;	/* packets of the first round */
	uint64_t first_tx;	/* first symbol sent (block latency) */
	uint32_t rnd_len;	/* packets of the round going out / last sent */
	uint32_t rnd_end;	/* seq after the latest round's last packet */
	uint32_t rnd_idx;	/* the latest round in the sender's round ring */
	uint32_t sent;		/* symbols sent for this block */
	uint8_t state;
	uint8_t in_repair;	/* slot index is in the repair ring */
	uint8_t topped;
	uint8_t g_enc;		/* enc was drawn on the connection's guarantee */
	uint32_t crc;		/* CRC-32C of the block's data (integrity) */
	struct rq_enc *enc;
};

struct rx_slot {
	uint32_t block;
	uint32_t len;
	uint32_t esi_span;
	uint32_t count;		/* symbols held (decoding off: packets counted) */
	uint32_t nsrc;		/* source symbols copied into out */
	uint32_t crc;		/* the block's CRC-32C (its packets' header, see rx_header) */
	uint32_t esi_floor;	/* after a failed CRC: older symbols are ignored */
	uint32_t alt_crc, alt_len;	/* no key: another header seen for the block ... */
	uint16_t hdr_n, alt_n;		/* ... packets that carried the slot's / the other */
	uint8_t state;
	uint8_t in_dec;		/* the source symbols went to the decoder too */
	uint8_t g_buf;		/* out was drawn on the connection's guarantee */
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

/* Sender: one round sent (ring indexed by round count), for reports. */
struct rnd_ent {
	uint64_t t_end;		/* its last packet went out (0: not yet) */
	uint64_t t_last;	/* its latest packet went out */
	uint32_t seq;		/* first seq */
	uint32_t pause_seq;	/* paused: the first seq after its latest pause */
	uint32_t block;
	uint16_t len;
	uint8_t first;		/* the block's first round */
	uint8_t sampled;	/* its report went into the statistics */
	uint8_t timed;		/* its report gave an RTT sample */
	uint8_t paused;		/* the sender stopped for a while in the middle of it */
};

/* Receiver: the send round being received (rounds are contiguous per flow). */
struct rx_round {
	uint32_t start, end;	/* seq range [start, end) */
	uint32_t block;
	uint32_t rcvd;
	uint8_t open;		/* not ended yet */
	uint8_t valid;		/* a round has been seen */
	uint8_t idled;		/* ended by the idle time (and not gone on since) */
};

/* Sender: the loss model (dfcp_model.c). */
struct loss_model {
	uint64_t seq64, rx64;		/* last accepted report, unwrapped */
	uint32_t rpt_seq, rpt_rx;	/* the same, as on the wire */
	uint64_t acc_seq;		/* packets since the last update */
	int64_t acc_lost;		/* their losses (late arrivals subtract) */
	uint64_t total;			/* packets covered by accepted reports */
	uint32_t loss_q16;		/* estimate of p */
	int32_t bias_q16;		/* first rounds: mean (X - qN) / N */
	uint32_t phi_q16;		/* first rounds: var(X) / (N p q) */
	uint32_t nsamples;		/* first-round samples so far */
	int have;			/* a report was accepted */
};

struct dfcp_slab;

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
	struct dfcp_slab *slab;		/* the endpoint's record (NULL: from the heap) */
	uint32_t slab_idx;
	/* items: a shared pool or a private one (pool_own), with what is reserved */
	struct dfcp_pool *pool;
	int pool_own;
	uint64_t rx_budget, rx_used;	/* accounting only, without a pool (0: none) */
	uint32_t pool_rx, pool_tx;	/* reserved (shared pool: guaranteed) */
	uint32_t g_rx_held, g_tx_held;	/* guaranteed items held now */
	uint64_t pool_retry;		/* sender: no encoder for a new block; try then (0: none) */
	/* authentication (conf.auth_key) */
	struct dfcp_auth auth;
	int has_auth;
	/* encryption (conf.crypto, dfcp_sess.c): the session's keys once derived */
	int sess;
	uint8_t kx_priv[DFCP_KX_KEY];	/* initiator: until the SYNACK */
	struct dfcp_aead tx_aead, rx_aead;
	struct dfcp_auth tx_mac, rx_mac;
	int completed;			/* the goal was reached (dfcp_stats.completed) */

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
	/* symbols to generate in one rq_enc_symbols call per encoder run */
	uint32_t n_gen;
	const struct rq_enc *gen_enc[GEN_MAX];
	uint32_t gen_esi[GEN_MAX];
	void *gen_out[GEN_MAX];
	/* prepared Ethernet/IPv4/UDP/DFCP-common header of DATA frames */
	uint8_t dhdr[DFCP_L2L4_LEN + DFCP_COMMON_LEN];
	int dhdr_ok;
	uint8_t *stage;			/* the pool's */
	uint32_t snd_base;		/* oldest unacked block */
	uint32_t snd_next;		/* next block to fill */
	uint32_t snd_first;		/* next block whose first round is due */
	uint64_t snd_bytes;		/* bytes taken from the source */
	int src_eof;
	int hold;			/* sender: the source is not pulled (dfcp_conn_hold) */
	uint32_t *repair_ring;
	uint32_t rr_head, rr_count;
	uint64_t tmr_min;		/* lower bound of the earliest block timer */
	uint32_t rto_backoff;		/* block timer doublings (expiries in a row) */
	uint32_t loss_q16;		/* EWMA of symbol loss */
	/* extended reports (xr): DATA sequence numbers, rounds sent, the model */
	uint32_t snd_seq;		/* next DATA seq */
	uint64_t snd_seq64;		/* DATA packets sent */
	struct rnd_ent *rnd;		/* ring of rnd_mask + 1 >= 2 W rounds */
	uint32_t rnd_mask;
	uint32_t rnd_count;		/* rounds started (index of the next) */
	uint32_t wait_head;		/* rounds from here on may still await their report */
	struct loss_model lm;
	uint64_t last_rpt;		/* last loss report accepted */
	uint64_t min_rtt;
	/* rate cap from the receiver's hints (rate_hint) */
	uint64_t cap_pps;		/* 0: no cap */
	uint64_t cap_tokens;		/* Q16 packets */
	uint64_t cap_max;		/* Q16 packets of credit at most (cap_update) */
	uint64_t cap_last;
	uint64_t cap_low;		/* the loss fell under 1/64 then (0: not) */
	uint64_t hint_pps;		/* last hint received */
	uint32_t fin_nblocks;
	uint64_t fin_nbytes;

	/* receiver */
	struct rx_slot *rx;
	uint64_t *have_mem;
	uint32_t have_words;		/* per slot */
	uint32_t rcv_cum;		/* next block to deliver */
	uint64_t rcv_off;		/* stream offset delivered */
	uint64_t rcv_sum_rcvd, rcv_sum_span;
	/* extended reports (xr): round tracking, loss report, rate hint */
	struct rx_round rr;		/* the round being received */
	struct rx_round rp;		/* the one before, while late packets may come */
	uint32_t slack;			/* reordering seen lately, packets */
	uint32_t rx_pkts, seq_next;	/* the report's counters */
	int seq_seen;
	uint64_t seq_bits[DFCP_SEQ_WIN / 64u];	/* the anti-replay window: seqs seen */
	uint32_t seq_cand;		/* no key: a seq far ahead, not yet confirmed ... */
	int seq_cand_ok;		/* ... (dfcp_round.c) */
	uint32_t rpt_seq, rpt_rcvd;	/* the last round that ended */
	uint16_t rpt_len;
	uint8_t rpt_end;
	uint64_t last_data;		/* time of the last DATA packet */
	uint64_t gap_ewma;		/* within-round inter-arrival time, ns (Q4) */
	uint64_t pause_ns;		/* the longest within-round gap lately: the idle floor */
	uint64_t idle_at;		/* the open round ends then (0: none) */
	uint64_t idle_len;		/* ... its idle time (again from a late check) */
	int idle_late;			/* ... started again once: the next end is trusted */
	uint64_t rate_t0;		/* rate hint: measurement interval start */
	uint32_t rate_n0;
	uint64_t rate_pps;		/* the hint: arrivals/s over two windows */
	uint64_t rate_prev_dt;		/* the last window: its length, its arrivals */
	uint32_t rate_prev_n;
	struct back_ent back[BACK_RING];
	uint32_t back_head, back_count;
	int fin_seen;

	/* stall detection (both sides) */
	uint64_t progress_at;		/* last block acked / delivered */
	uint64_t peer_at;		/* last packet from the peer */
	uint64_t tx_at;			/* last packet to the peer */
	uint64_t drops_at_progress;	/* drop count then */
	uint64_t stall_at;		/* next stall check */
	uint64_t gap_avg;		/* between two progresses, EWMA 1/4 (0: none yet) */
	uint32_t rx_at_progress;	/* receiver: rx_pkts then */
	uint64_t snd_at_progress;	/* sender: snd_seq64 then */
	uint64_t last_data_tx;		/* sender: time of the last DATA built */

	struct dfcp_stats st;
};

/*
 * dfcp_slab.c: an endpoint's connection records and their window arrays,
 * made at create (rx: receivers' arrays with bitmaps for K, else senders').
 * get: a zeroed record (NULL: none left, counted); *_arrays: c's arrays for
 * its window inside its record (0, or -ENOMEM when they do not fit).
 */
struct dfcp_slab *dfcp_slab_create(uint32_t n, int rx, uint32_t W, uint16_t K);
void dfcp_slab_free(struct dfcp_slab *s);
struct dfcp_conn *dfcp_slab_get(struct dfcp_slab *s);
void dfcp_slab_put(struct dfcp_slab *s, struct dfcp_conn *c);
uint32_t dfcp_slab_window(const struct dfcp_slab *s);
int dfcp_slab_is_rx(const struct dfcp_slab *s);
void dfcp_slab_stats(const struct dfcp_slab *s, uint64_t *bytes, uint64_t *free_recs,
		uint64_t *refused);
uint32_t dfcp_slab_rounds(uint32_t W);
int dfcp_slab_rx_arrays(struct dfcp_conn *c, uint32_t W, uint32_t hw);
int dfcp_slab_tx_arrays(struct dfcp_conn *c, uint32_t W, uint32_t R);
/* dfcp_conn.c: an active open whose record comes from slab (NULL: the heap) */
struct dfcp_conn *dfcp_conn_connect_in(const struct dfcp_conn_conf *conf, uint32_t lcid,
		struct dfcp_slab *slab, uint64_t now);

/* dfcp_conn.c */
void dfcp_rtt_sample(struct dfcp_conn *c, uint64_t r);
/* Symbol offset of this connection's DATA frames (its negotiated layout). */
static inline uint32_t
dfcp_data_off(const struct dfcp_conn *c)
{
	return DFCP_DATA_OFF_V1 + ((c->p.flags & DFCP_F_XR) ? DFCP_RND_LEN : 0) +
		((c->p.flags & DFCP_F_CRC) ? DFCP_CRC_LEN : 0);
}
/* The connection's items: its pool (shared or private) reserved for its window. */
int dfcp_conn_pool_attach(struct dfcp_conn *c, struct dfcp_pool *shared, uint32_t rx,
		uint32_t tx);
void dfcp_conn_pool_detach(struct dfcp_conn *c);
/* dfcp_ctrl.c: control packets and timers */
unsigned int dfcp_tx_ctrl(struct dfcp_conn *c, void *const *bufs, uint16_t *lens,
		size_t cap, unsigned int n);
void dfcp_hs_timer(struct dfcp_conn *c, uint64_t now);
void dfcp_peer_timer(struct dfcp_conn *c, uint64_t now);
uint64_t dfcp_peer_deadline(const struct dfcp_conn *c);
void dfcp_to_closed(struct dfcp_conn *c, enum dfcp_close_reason why);
int dfcp_sender_done(const struct dfcp_conn *c);
void dfcp_start_fin(struct dfcp_conn *c, uint64_t now);
/* dfcp_tx.c: the sender */
uint32_t dfcp_first_round_syms(const struct dfcp_conn *c);
int dfcp_sender_alloc(struct dfcp_conn *c);
void dfcp_sender_free(struct dfcp_conn *c);
int dfcp_sender_block_ack(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
void dfcp_sender_timers(struct dfcp_conn *c, uint64_t now);
unsigned int dfcp_sender_tx(struct dfcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n);
/* dfcp_rx.c: the receiver */
/* Allocates the receiver buffers once established; returns 0 or -ENOMEM. */
int dfcp_receiver_alloc(struct dfcp_conn *c);
void dfcp_receiver_free(struct dfcp_conn *c);
void dfcp_rx_skip_to(struct dfcp_conn *c, uint32_t cum, uint64_t now);
int dfcp_rx_data(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
uint8_t *dfcp_rx_sym_dst(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
int dfcp_build_back(struct dfcp_conn *c, const struct back_ent *e, uint8_t *buf, size_t cap);

/*
 * dfcp_model.c. Symbols to send so that need arrive: the smallest N with
 * N (q + bias) - need >= z sqrt(phi N p q) (q = 1 - p; z, bias, phi in Q16;
 * phi = 1, bias = 0: independent loss), at most cap.
 */
uint32_t dfcp_model_symbols(uint32_t need, uint32_t loss_q16, int32_t bias_q16,
		uint32_t phi_q16, uint32_t z_q16, uint32_t cap);
/* Auto redundancy, first round: smallest N with mean - 1 sd of arrivals >= need at loss p. */
uint32_t dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap);
/*
 * dfcp_budget.c: the capacity budget. init: the table (set-up, once per
 * process); syms: symbols for need arrivals at loss loss_q16 (integer);
 * loss_lo: the estimate less one standard deviation of it.
 */
void dfcp_budget_init(void);
uint32_t dfcp_budget_syms(uint32_t need, uint32_t loss_q16, uint32_t cap);
uint32_t dfcp_budget_loss_lo(const struct loss_model *lm);
/* dfcp_model.c: the budget sizes this connection's rounds now */
int dfcp_budget_on(const struct dfcp_conn *c);
/* ... and the top-ups and probes of slot s (not a late block) */
int dfcp_budget_slot(const struct dfcp_conn *c, const struct tx_slot *s);
/* First round and top-up sizes from the connection's loss model. */
uint32_t dfcp_first_syms_model(const struct dfcp_conn *c);
uint32_t dfcp_topup_syms(const struct dfcp_conn *c, const struct tx_slot *s, uint32_t need);
/*
 * Sender: the report of BLOCK-ACK pkt at now was made before round e could
 * have arrived whole; the latest round of slot s (NULL: gone from the ring).
 */
int dfcp_model_early(const struct dfcp_conn *c, const struct rnd_ent *e,
		const struct dfcp_pkt *pkt, uint64_t now);
const struct rnd_ent *dfcp_model_slot_round(const struct dfcp_conn *c, const struct tx_slot *s);
/* Sender: a BLOCK-ACK's loss report; 0, or -DFCP_E_REPORT when refused. */
int dfcp_model_report(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
/* Sender, after the report's acks: probe blocks of rounds it passed unreported. */
void dfcp_model_passed(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
void dfcp_model_round_done(struct dfcp_conn *c, const struct tx_slot *s, uint64_t now);
/* Sender: a round started at now (seq of its first packet, length); a later packet of it. */
void dfcp_model_round(struct dfcp_conn *c, uint32_t block, uint32_t seq, uint32_t len,
		int first, uint64_t now);
void dfcp_model_round_pkt(struct dfcp_conn *c, const struct tx_slot *s, uint32_t seq,
		uint64_t now);
/* Sender: DATA frames the rate cap lets out now (n wanted); charge k sent. */
unsigned int dfcp_cap_allow(struct dfcp_conn *c, uint64_t now, unsigned int n);
void dfcp_cap_charge(struct dfcp_conn *c, unsigned int k);
uint64_t dfcp_cap_next(const struct dfcp_conn *c, uint64_t now);
/* Sender: reschedule a block whose round ended unheard (timer or later report). */
void dfcp_sender_probe(struct dfcp_conn *c, struct tx_slot *s);
/*
 * dfcp_round.c: the receiver's round tracking and loss report. round_rx:
 * DFCP_SEQ_NEW (counted), _REPLAY (seen already or older than the window:
 * dropped), _UNCOUNTED (no key: a seq that cannot be placed; not counted,
 * its symbol used).
 */
enum { DFCP_SEQ_NEW = 0, DFCP_SEQ_REPLAY, DFCP_SEQ_UNCOUNTED };
int dfcp_round_rx(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
void dfcp_round_after(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
void dfcp_round_timer(struct dfcp_conn *c, uint64_t now);
uint64_t dfcp_round_deadline(const struct dfcp_conn *c);
void dfcp_round_fill(const struct dfcp_conn *c, struct dfcp_pkt *pkt);
/* dfcp_rx.c */
void dfcp_rx_queue_back(struct dfcp_conn *c, uint32_t b, uint16_t status, uint16_t missing,
		uint32_t rcvd, uint32_t span);
struct rx_slot *dfcp_rx_slot_of(struct dfcp_conn *c, uint32_t b);
/* dfcp_conn.c: stall detection */
void dfcp_stall_check(struct dfcp_conn *c, uint64_t now);
void dfcp_progress(struct dfcp_conn *c, uint64_t now);

/* ------------------------------------------------------------------ */
/* endpoint (dfcp_ep.c, dfcp_eptab.c)                                   */
/* ------------------------------------------------------------------ */

#define DFCP_EP_CTRL_RING	64u
#define DFCP_EP_CTRL_FRAME	DFCP_CTRL_MAX_LEN
#define DFCP_EP_NIL	UINT32_MAX
#define DFCP_EP_MAX_HALF	(1u << 20)

enum { SL_FREE = 0, SL_HALF, SL_CONN };

struct ep_slot {
	struct dfcp_conn *conn;		/* SL_CONN */
	uint32_t lcid, rcid;
	uint32_t cid_next, syn_next;	/* hash chains */
	uint32_t pos;			/* SL_CONN: index in conn_idx; SL_HALF: FIFO number */
	uint8_t state;
	uint8_t on_syn;			/* on the SYN chain (accepted from a SYN) */
	uint8_t retried;		/* SL_HALF: the SYN came again (no RTT sample) */
	uint64_t t;			/* SL_HALF: the SYN's arrival */
	struct dfcp_addr peer;		/* SL_HALF: the initiator */
	struct dfcp_params p;		/* SL_HALF: what the SYNACK said */
	uint64_t rx_resv;		/* SL_CONN: bytes of ep->rx_budget it holds */
};

struct half_ent {
	uint32_t slot, seq;
};

/* A DATA frame an endpoint holds (conf.rx_defer) and the connection it is for. */
struct ep_defer {
	struct dfcp_pkt pkt;
	struct dfcp_conn *c;
};

struct dfcp_ep {
	struct dfcp_ep_conf conf;
	struct ep_slot *sl;
	uint32_t nslots;
	uint32_t *free_stk, n_free;
	uint32_t *cid_head, *syn_head, hmask;
	uint32_t *conn_idx, n_conns;
	struct half_ent *half;		/* FIFO of half-open entries, oldest first */
	uint32_t h_head, h_count, h_seq, n_half;
	uint64_t half_ns;
	struct net_sipkey secret;
	uint64_t cid_ctr;
	struct dfcp_auth auth;
	int has_auth;
	struct dfcp_keyset *hkeys;	/* conf.crypto: a half-open slot's session keys */
	struct dfcp_pool *pool;
	int pool_own;
	uint64_t rx_budget, rx_used;	/* accounting only, without a pool (0: none) */
	struct dfcp_slab *slab;		/* conf.slab: the connection records */
	uint32_t rr;			/* tx round robin */
	uint8_t ctrl[DFCP_EP_CTRL_RING][DFCP_EP_CTRL_FRAME];
	uint16_t ctrl_len[DFCP_EP_CTRL_RING];
	uint32_t ctrl_head, ctrl_count;
	struct ep_defer *defer;		/* conf.rx_defer: DATA held for one burst open */
	uint32_t n_defer;
	uint32_t defer_bad;		/* refused by flushes the endpoint made itself */
	uint64_t defer_now;		/* the time of the last frame held */
	struct dfcp_ep_stats st;
};

/* dfcp_eptab.c: the endpoint's table */
uint32_t dfcp_ep_cid_find(const struct dfcp_ep *ep, uint32_t cid);
uint32_t dfcp_ep_syn_find(const struct dfcp_ep *ep, const struct dfcp_pkt *pkt);
uint32_t dfcp_ep_syn_bucket(const struct dfcp_ep *ep, uint32_t ip, uint16_t port, uint32_t rcid);
uint32_t dfcp_ep_slot_take(struct dfcp_ep *ep, uint32_t *cid);	/* DFCP_EP_NIL: none */
void dfcp_ep_slot_release(struct dfcp_ep *ep, uint32_t i);
void dfcp_ep_slot_conn(struct dfcp_ep *ep, uint32_t i, struct dfcp_conn *c);
void dfcp_ep_half_expire(struct dfcp_ep *ep, uint64_t now);
void dfcp_ep_half_evict(struct dfcp_ep *ep);
void dfcp_ep_half_push(struct dfcp_ep *ep, uint32_t i);

#endif /* DFCP_PRIV_H */
