/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp private definitions. */
#ifndef DFCP_PRIV_H
#define DFCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "dfcp.h"
#include "net.h"

/* Body lengths after the 12-byte common header. */
#define DFCP_SYN_BODY	24
#define DFCP_ACK_BODY	4
#define DFCP_DATA_BODY	12
#define DFCP_BACK_BODY	28
#define DFCP_RPT_LEN	24	/* the loss report after a BLOCK-ACK body */
#define DFCP_FIN_BODY	12
#define DFCP_RST_BODY	4

void dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum);

/* Connection internals used by the endpoint. */
struct dfcp_conn *dfcp_conn_accept(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, uint64_t now);
int dfcp_conn_matches_syn(const struct dfcp_conn *c, const struct dfcp_pkt *syn);
int dfcp_conn_is_half_open(const struct dfcp_conn *c);

/* Connection internals (dfcp_conn.c, dfcp_tx.c, dfcp_rx.c). */
struct rq_enc;
struct rq_dec;

#define BACK_RING	256u		/* pending BLOCK-ACKs */
#define GEN_MAX		64u		/* symbols queued for one rq_enc_symbols call */
#define DFCP_SEQ_WIN	1024u		/* receiver: seqs checked for duplicates */
#define DFCP_POOL_INIT	8u		/* encoders / decoders / buffers made at set-up */

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

/* Sender: one round sent (ring indexed by round count), for reports. */
struct rnd_ent {
	uint64_t t_end;		/* its last packet went out (0: not yet) */
	uint32_t seq;		/* first seq */
	uint32_t block;
	uint16_t len;
	uint8_t first;		/* the block's first round */
	uint8_t sampled;	/* its report went into the statistics */
	uint8_t timed;		/* its report gave an RTT sample */
};

/* Receiver: the send round being received (rounds are contiguous per flow). */
struct rx_round {
	uint32_t start, end;	/* seq range [start, end) */
	uint32_t block;
	uint32_t rcvd;
	uint8_t open;		/* not ended yet */
	uint8_t valid;		/* a round has been seen */
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
	uint32_t n_enc_alloc;		/* encoders made so far (<= window) */
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
	uint64_t cap_last;
	uint64_t hint_pps;		/* last hint received */
	uint32_t fin_nblocks;
	uint64_t fin_nbytes;

	/* receiver */
	struct rx_slot *rx;
	struct rq_dec **decs;		/* all decoders; LIFO pool below */
	struct rq_dec **dec_free;
	uint32_t n_dec_free;
	uint32_t n_dec_alloc;		/* made so far (<= window) */
	uint8_t **outs;			/* all block buffers; LIFO pool below */
	uint8_t **out_free;
	uint32_t n_out_free;
	uint32_t n_out_alloc;
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
	uint64_t seq_bits[DFCP_SEQ_WIN / 64u];	/* seqs seen, for duplicates */
	uint32_t rpt_seq, rpt_rcvd;	/* the last round that ended */
	uint16_t rpt_len;
	uint8_t rpt_end;
	uint64_t last_data;		/* time of the last DATA packet */
	uint64_t gap_ewma;		/* within-round inter-arrival time, ns (Q4) */
	uint64_t idle_at;		/* the open round ends then (0: none) */
	uint64_t rate_t0;		/* rate hint: measurement interval start */
	uint32_t rate_n0;
	uint64_t rate_pps;		/* EWMA of arrivals/s */
	struct back_ent back[BACK_RING];
	uint32_t back_head, back_count;
	int fin_seen;

	/* stall detection (both sides) */
	uint64_t progress_at;		/* last block acked / delivered */
	uint64_t peer_at;		/* last packet from the peer */
	uint64_t drops_at_progress;	/* drop count then */
	uint64_t stall_at;		/* next stall check */

	struct dfcp_stats st;
};

/* dfcp_conn.c */
void dfcp_rtt_sample(struct dfcp_conn *c, uint64_t r);
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
/* First round and top-up sizes from the connection's loss model. */
uint32_t dfcp_first_syms_model(const struct dfcp_conn *c);
uint32_t dfcp_topup_syms(const struct dfcp_conn *c, uint32_t need);
/* Sender: a BLOCK-ACK's loss report; 0, or -DFCP_E_REPORT when refused. */
int dfcp_model_report(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
/* Sender, after the report's acks: probe blocks of rounds it passed unreported. */
void dfcp_model_passed(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
void dfcp_model_round_done(struct dfcp_conn *c, const struct tx_slot *s, uint64_t now);
/* Sender: a round started (seq of its first packet, length). */
void dfcp_model_round(struct dfcp_conn *c, uint32_t block, uint32_t seq, uint32_t len,
		int first);
/* Sender: DATA frames the rate cap lets out now (n wanted); charge k sent. */
unsigned int dfcp_cap_allow(struct dfcp_conn *c, uint64_t now, unsigned int n);
void dfcp_cap_charge(struct dfcp_conn *c, unsigned int k);
uint64_t dfcp_cap_next(const struct dfcp_conn *c, uint64_t now);
/* Sender: reschedule a block whose round ended unheard (timer or later report). */
void dfcp_sender_probe(struct dfcp_conn *c, struct tx_slot *s);
/* dfcp_round.c: the receiver's round tracking and loss report */
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

#endif /* DFCP_PRIV_H */
