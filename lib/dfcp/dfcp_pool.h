/* SPDX-License-Identifier: BSD-3-Clause */
/* DFCP item pool (included by dfcp.h): block buffers, decoders, encoders. */
#ifndef DFCP_POOL_H
#define DFCP_POOL_H

#include <stdint.h>

struct dfcp_pool;

/* ------------------------------------------------------------------ */
/* Item pool: block buffers, decoders, encoders made at set-up          */
/* ------------------------------------------------------------------ */

/*
 * A pool of one block shape (K, T) that several connections (of one
 * thread) draw from: rx slots (a block buffer of K*T bytes and a decoder
 * each) and tx slots (an encoder each). A connection reserves its window's
 * worth when it opens (receiver: at the ACK that establishes it; sender: at
 * connect), draws and returns items as blocks start and finish, and gives
 * the reservation back when freed, so one connection's start never takes
 * what another one holds and nothing is allocated while polling.
 */
struct dfcp_pool_conf {
	uint16_t K, T;			/* the block shape of every item */
	uint32_t rx_slots;		/* block buffers (with a decoder each unless dec_slots) */
	uint32_t dec_slots;		/* decoders; 0: rx_slots */
	uint32_t tx_slots;		/* encoders */
	/* > 0: at most this many bytes: fewer slots if they would not fit
	 * (each kind's size measured on the first item made; buffers and
	 * decoders trimmed together only when they are pairs) */
	uint64_t max_bytes;
	int lazy;			/* items made on first need (private pools) */
	/*
	 * Shared among many connections (not with lazy): a connection reserves
	 * only a guarantee, one block buffer for its in-order head block
	 * (receiver) and min(window, tx_min) encoders (sender), and draws the
	 * rest of its window while more items are free than the guarantees
	 * still owed to others; otherwise the draw fails and it back-pressures:
	 * a sender starts no new block, a receiver drops the DATA (counted
	 * "nobuf") so that the sender repeats it later. Windows are not clamped
	 * to what is free, SYNs and connects are refused only when the
	 * guarantee does not fit. Decoders have no guarantee (a block takes one
	 * only for repair symbols and gives it back once decoded).
	 */
	int shared;
	uint32_t tx_min;
};
struct dfcp_pool_stats {
	uint16_t K, T;
	uint32_t rx_slots, dec_slots, tx_slots;	/* made (or allowed, lazy) */
	uint32_t rx_reserved, tx_reserved;	/* shared: guarantees */
	uint32_t bufs_used, decs_used, encs_used;
	uint32_t bufs_peak, decs_peak, encs_peak;
	uint64_t rx_slot_bytes, tx_slot_bytes;	/* measured per slot (0: not yet) */
	uint64_t bytes;			/* made so far */
	uint64_t bytes_used, bytes_peak;	/* of the items drawn */
	uint64_t refused;		/* reservations refused or clamped */
	uint64_t waits;			/* shared: draws refused (back-pressure) */
};
struct dfcp_pool *dfcp_pool_create(const struct dfcp_pool_conf *conf);
void dfcp_pool_free(struct dfcp_pool *p);	/* after every connection using it */
void dfcp_pool_stats(const struct dfcp_pool *p, struct dfcp_pool_stats *st);
/* A receive block's worst case (buffer + decoder), bytes; the default budget:
 * max(conns x window x that, DFCP_RX_BUDGET_MIN). */
#define DFCP_RX_BUDGET_MIN (256ull << 20)
uint64_t dfcp_rx_block_bytes(uint16_t K, uint16_t T);
/*
 * What one item of shape (K, T) takes, measured by making one (at set-up or
 * load only; the last shape is remembered): a block buffer, a decoder, an
 * encoder. 0 or -ENOMEM.
 */
int dfcp_pool_item_bytes(uint16_t K, uint16_t T, uint64_t *buf, uint64_t *dec, uint64_t *enc);
uint64_t dfcp_rx_budget_default(uint32_t conns, uint32_t window, uint16_t K, uint16_t T);

#endif /* DFCP_POOL_H */
