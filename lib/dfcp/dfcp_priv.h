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

enum { TX_FREE = 0, TX_ACTIVE };
enum { RX_FREE = 0, RX_COLLECT, RX_DECODED };

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

/* dfcp_conn.c */
void dfcp_rtt_sample(struct dfcp_conn *c, uint64_t r);
/* dfcp_tx.c: the sender */
uint32_t dfcp_first_round_syms(const struct dfcp_conn *c);
int dfcp_sender_alloc(struct dfcp_conn *c);
void dfcp_sender_free(struct dfcp_conn *c);
void dfcp_sender_block_ack(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now);
void dfcp_sender_timers(struct dfcp_conn *c, uint64_t now);
unsigned int dfcp_sender_tx(struct dfcp_conn *c, uint64_t now, void *const *bufs,
		uint16_t *lens, size_t cap, unsigned int n);
/* dfcp_rx.c: the receiver */
/* Allocates the receiver buffers once established; returns 0 or -ENOMEM. */
int dfcp_receiver_alloc(struct dfcp_conn *c);
void dfcp_receiver_free(struct dfcp_conn *c);
void dfcp_rx_skip_to(struct dfcp_conn *c, uint32_t cum);
int dfcp_rx_data(struct dfcp_conn *c, const struct dfcp_pkt *pkt);
int dfcp_build_back(struct dfcp_conn *c, const struct back_ent *e, uint8_t *buf, size_t cap);

/* Auto redundancy, first round: smallest N with mean - 1 sd of arrivals >= need at loss p. */
uint32_t dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap);

#endif /* DFCP_PRIV_H */
