/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two lib/dfcp connections face to face on a virtual clock, for the
 * extended-report tests (test_xr.c, test_xr_round.c): a filter between them
 * may drop or hold frames.
 */
#ifndef TEST_XRPAIR_H
#define TEST_XRPAIR_H

#include <stdint.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "vnet.h"

#define US	1000ull
#define MS	1000000ull

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

static uint8_t fb[VN_BURST][VN_FRAME];
static void *fbp[VN_BURST];
static uint16_t fl[VN_BURST];

/* return 1 to drop frame f (parsed as p), dir 0: a -> b; may modify f */
typedef int (*filter_fn)(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p);

struct pair {
	struct dfcp_conn *a, *b;
	struct net_src_pattern src;
	struct net_sink_count sink;
	filter_fn filter;
	void *ctx;
	uint64_t now;
	uint64_t sent[2];
};

static inline void
conf_init(struct dfcp_conn_conf *c, const struct dfcp_addr *local,
		const struct dfcp_addr *remote)
{
	dfcp_conn_conf_default(c);
	c->local = *local;
	c->remote = *remote;
	c->T = 64;
	c->K = 10;
	c->window = 4;
	c->redundancy = DFCP_REDUNDANCY_AUTO;
	c->hs_rto_ns = 10 * MS;
	c->time_wait_ns = 10 * MS;
	c->csum = DFCP_CSUM_UDP_ZERO;
}

/* Frames of c at now to the peer (through the filter); returns frames sent. */
static inline unsigned int
move(struct pair *pr, int dir)
{
	struct dfcp_conn *from = dir ? pr->b : pr->a, *to = dir ? pr->a : pr->b;
	unsigned int k = dfcp_conn_tx_burst(from, pr->now, fbp, fl, VN_FRAME, VN_BURST);

	for (unsigned int i = 0; i < k; i++) {
		struct dfcp_pkt p;

		REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
		pr->sent[dir]++;
		if (pr->filter != NULL && pr->filter(pr->ctx, dir, fb[i], fl[i], &p))
			continue;
		REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
		if (to != NULL)
			dfcp_conn_rx(to, &p, pr->now);
	}
	return k;
}

/* SYN a -> b (accepted with bconf), SYNACK, ACK: both ESTABLISHED. */
static inline void
open_pair(struct pair *pr, const struct dfcp_conn_conf *aconf,
		const struct dfcp_conn_conf *bconf, uint64_t bytes)
{
	struct dfcp_conn_conf ac = *aconf, bc = *bconf;
	struct dfcp_pkt syn;
	unsigned int k;

	memset(pr, 0, sizeof(*pr));
	for (int i = 0; i < VN_BURST; i++)
		fbp[i] = fb[i];
	net_src_pattern_init(&pr->src, 5, bytes, 0);
	net_sink_count_init(&pr->sink, 5, 1);
	ac.source = net_src_pattern_read;
	ac.source_ctx = &pr->src;
	bc.sink = net_sink_count_write;
	bc.sink_ctx = &pr->sink;
	pr->a = dfcp_conn_connect(&ac, 0x100, 0);
	REQUIRE(pr->a != NULL);
	k = dfcp_conn_tx_burst(pr->a, 0, fbp, fl, VN_FRAME, VN_BURST);
	REQUIRE(k == 1 && dfcp_parse(fb[0], fl[0], 0, &syn) == 0);
	pr->b = dfcp_conn_accept(&bc, 0x200, &syn, NULL, 0);
	REQUIRE(pr->b != NULL);
	pr->now = 10 * US;
	move(pr, 1);		/* SYNACK */
	pr->now += 10 * US;
}

/* open_pair, then frames pass through filter (with ctx) */
static inline void
open_filtered(struct pair *pr, const struct dfcp_conn_conf *aconf,
		const struct dfcp_conn_conf *bconf, uint64_t bytes, filter_fn filter, void *ctx)
{
	open_pair(pr, aconf, bconf, bytes);
	pr->filter = filter;
	pr->ctx = ctx;
}

/* One frame a -> b at now (not filtered); its type, or -1 when a sent none. */
static inline int
move_one(struct pair *pr)
{
	struct dfcp_pkt p;

	if (dfcp_conn_tx_burst(pr->a, pr->now, fbp, fl, VN_FRAME, 1) != 1)
		return -1;
	REQUIRE(dfcp_parse(fb[0], fl[0], 0, &p) == 0);
	dfcp_conn_rx(pr->b, &p, pr->now);
	return p.type;
}

static inline void
close_pair(struct pair *pr)
{
	dfcp_conn_free(pr->a);
	dfcp_conn_free(pr->b);
}

/* Both ways, every 1 us, until both closed or until t. */
static inline void
run_until(struct pair *pr, uint64_t t)
{
	while (pr->now < t && (dfcp_conn_state(pr->a) != DFCP_CLOSED ||
				dfcp_conn_state(pr->b) != DFCP_CLOSED)) {
		move(pr, 0);
		move(pr, 1);
		pr->now += US;
	}
}

#endif /* TEST_XRPAIR_H */
