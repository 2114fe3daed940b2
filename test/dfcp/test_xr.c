/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp extended reports (DFCP_F_XR): negotiation and the fallback to the
 * version-1 format, round ends without LAST (a later packet, the idle
 * time), idle ends across stalls of the receiver (a late check) and of the
 * sender (an early SHORT), the sender refusing reports that do not fit
 * what it sent, the timer as the last resort, and the stall state.
 */
#include <stdio.h>
#include <stdlib.h>
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
	struct dfcp_src_pattern src;
	struct dfcp_sink_count sink;
	filter_fn filter;
	void *ctx;
	uint64_t now;
	uint64_t sent[2];
};

static void
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
static unsigned int
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
static void
open_pair(struct pair *pr, const struct dfcp_conn_conf *aconf,
		const struct dfcp_conn_conf *bconf, uint64_t bytes)
{
	struct dfcp_conn_conf ac = *aconf, bc = *bconf;
	struct dfcp_pkt syn;
	unsigned int k;

	memset(pr, 0, sizeof(*pr));
	for (int i = 0; i < VN_BURST; i++)
		fbp[i] = fb[i];
	dfcp_src_pattern_init(&pr->src, 5, bytes, 0);
	dfcp_sink_count_init(&pr->sink, 5, 1);
	ac.source = dfcp_src_pattern_read;
	ac.source_ctx = &pr->src;
	bc.sink = dfcp_sink_count_write;
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

static void
close_pair(struct pair *pr)
{
	dfcp_conn_free(pr->a);
	dfcp_conn_free(pr->b);
}

/* Both ways, every 1 us, until both closed or until t. */
static void
run_until(struct pair *pr, uint64_t t)
{
	while (pr->now < t && (dfcp_conn_state(pr->a) != DFCP_CLOSED ||
				dfcp_conn_state(pr->b) != DFCP_CLOSED)) {
		move(pr, 0);
		move(pr, 1);
		pr->now += US;
	}
}

/* ------------------------------------------------------------------ */

static void
test_negotiation(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_pkt syn, synack;
	struct dfcp_conn *a, *b;
	struct pair pr;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	/* both sides: extended; a hint asked for */
	ac.rate_hint = 1;
	open_pair(&pr, &ac, &bc, 3 * 640);
	CHECK(dfcp_conn_params(pr.a)->flags & DFCP_F_XR);
	CHECK(dfcp_conn_params(pr.a)->flags & DFCP_F_RHINT);
	CHECK(dfcp_conn_params(pr.b)->flags & DFCP_F_XR);
	run_until(&pr, 100 * MS);
	CHECK(pr.sink.bytes == 3 * 640 && pr.sink.bad_bytes == 0);
	close_pair(&pr);
	/* the responder without extensions (an older peer): version-1 frames */
	bc.xr = 0;
	open_pair(&pr, &ac, &bc, 3 * 640);
	CHECK(!(dfcp_conn_params(pr.a)->flags & (DFCP_F_XR | DFCP_F_RHINT)));
	CHECK(dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, VN_BURST) >= 2);
	CHECK(fl[1] == DFCP_DATA_OFF_V1 + DFCP_CRC_LEN + 64);
	close_pair(&pr);
	/* the initiator without them: none either */
	ac.xr = 0;
	bc.xr = 1;
	open_pair(&pr, &ac, &bc, 3 * 640);
	CHECK(!(dfcp_conn_params(pr.b)->flags & (DFCP_F_XR | DFCP_F_RHINT)));
	run_until(&pr, 100 * MS);
	CHECK(pr.sink.bytes == 3 * 640);
	close_pair(&pr);
	/* a SYNACK may not add an extension the SYN did not offer */
	a = dfcp_conn_connect(&ac, 0x100, 0);
	REQUIRE(dfcp_conn_tx_burst(a, 0, fbp, fl, VN_FRAME, 1) == 1);
	REQUIRE(dfcp_parse(fb[0], fl[0], 0, &syn) == 0);
	b = dfcp_conn_accept(&bc, 0x200, &syn, NULL, 0);
	REQUIRE(b != NULL && dfcp_conn_tx_burst(b, 1, fbp, fl, VN_FRAME, 1) == 1);
	REQUIRE(dfcp_parse(fb[0], fl[0], 0, &synack) == 0);
	synack.u.params.flags |= DFCP_F_XR;
	CHECK(dfcp_conn_rx(a, &synack, 2) == -DFCP_E_PARAMS);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	dfcp_conn_free(a);
	dfcp_conn_free(b);
}

/* Drop the last `tail` packets of block 0's first round; count reports. */
struct tail_ctx {
	uint32_t tail;
	uint32_t shorts, decoded;
	uint16_t missing;
};

static int
drop_tail(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p)
{
	struct tail_ctx *t = ctx;

	(void)f;
	(void)len;
	if (dir == 0 && p->type == DFCP_T_DATA && p->u.data.block == 0 &&
			p->u.data.esi < p->u.data.rlen && p->u.data.rpos + t->tail >= p->u.data.rlen)
		return 1;
	if (dir == 1 && p->type == DFCP_T_BLOCK_ACK && p->u.back.block == 0) {
		if (p->u.back.status == DFCP_BA_SHORT) {
			t->shorts++;
			t->missing = p->u.back.missing;
		} else {
			t->decoded++;
		}
	}
	return 0;
}

static void
test_round_ends(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss, rs;
	struct tail_ctx t = { 3, 0, 0, 0 };
	struct pair pr;
	uint32_t n;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	/* a later block's packet ends block 0's round at once: its LAST is lost */
	open_pair(&pr, &ac, &bc, 4 * 640);
	pr.filter = drop_tail;
	pr.ctx = &t;
	n = dfcp_first_round_syms(pr.a);
	CHECK(n == 10);		/* no loss known yet: K */
	/* the ACK, block 0's round and the first packet of block 1 in one burst */
	CHECK(dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, n + 2) == n + 2);
	for (unsigned int i = 0; i < n + 2; i++) {
		struct dfcp_pkt p;

		REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
		if (!drop_tail(&t, 0, fb[i], fl[i], &p))
			dfcp_conn_rx(pr.b, &p, pr.now);
	}
	move(&pr, 1);
	CHECK(t.shorts == 1 && t.missing == 3);
	dfcp_conn_stats(pr.b, &rs);
	CHECK(rs.rounds_next == 1 && rs.rounds_idle == 0);
	run_until(&pr, 200 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(pr.sink.bytes == 4 * 640 && ss.timeouts == 0);
	close_pair(&pr);

	/* the idle time ends a round that nothing follows: one block only */
	memset(&t, 0, sizeof(t));
	t.tail = 2;
	open_pair(&pr, &ac, &bc, 640);
	pr.filter = drop_tail;
	pr.ctx = &t;
	move(&pr, 0);
	pr.now += 100 * US;
	move(&pr, 1);
	CHECK(t.shorts == 0);
	pr.now = dfcp_conn_next_deadline(pr.b, pr.now);
	CHECK(pr.now <= 20 * US + 100 * US + bc.round_idle_ns + 20 * US);
	move(&pr, 1);
	CHECK(t.shorts == 1 && t.missing == 2);
	dfcp_conn_stats(pr.b, &rs);
	CHECK(rs.rounds_idle == 1);
	run_until(&pr, 200 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(pr.sink.bytes == 640 && ss.timeouts == 0 && ss.blocks_acked == 1);
	close_pair(&pr);
}

/* Hold back the last `tail` packets of block 0's first round (the test releases them). */
struct hold_ctx {
	uint32_t tail;
	unsigned int n;
	uint8_t f[4][VN_FRAME];
	uint16_t len[4];
	uint32_t shorts, decoded;
};

static int
hold_tail(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p)
{
	struct hold_ctx *h = ctx;

	if (dir == 0 && p->type == DFCP_T_DATA && p->u.data.block == 0 &&
			p->u.data.esi < p->u.data.rlen &&
			p->u.data.rpos + h->tail >= p->u.data.rlen && h->n < 4) {
		memcpy(h->f[h->n], f, len);
		h->len[h->n++] = len;
		return 1;
	}
	if (dir == 1 && p->type == DFCP_T_BLOCK_ACK && p->u.back.block == 0) {
		if (p->u.back.status == DFCP_BA_SHORT)
			h->shorts++;
		else
			h->decoded++;
	}
	return 0;
}

/* The held packets reach the receiver now. */
static void
release(struct pair *pr, struct hold_ctx *h)
{
	for (unsigned int i = 0; i < h->n; i++) {
		struct dfcp_pkt p;

		REQUIRE(dfcp_parse(h->f[i], h->len[i], 0, &p) == 0);
		dfcp_conn_rx(pr->b, &p, pr->now);
	}
	h->n = 0;
}

/*
 * The receiver's lcore stalls while the tail of a round waits in its queue:
 * its idle time, noticed late, starts again instead of ending the round
 * (no SHORT, no top-up); a tail really lost still ends it, one idle time on.
 */
static void
test_late_idle(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss, rs;
	struct hold_ctx h;
	struct pair pr;
	uint64_t t;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	memset(&h, 0, sizeof(h));
	h.tail = 2;
	open_pair(&pr, &ac, &bc, 640);
	pr.filter = hold_tail;
	pr.ctx = &h;
	move(&pr, 0);		/* the ACK and the round: 8 arrive, 2 wait in the queue */
	REQUIRE(h.n == 2);
	pr.now += 5 * MS;	/* the receiver polls again only now */
	move(&pr, 1);
	dfcp_conn_stats(pr.b, &rs);
	CHECK(h.shorts == 0 && rs.rounds_late == 1 && rs.rounds_idle == 0);
	release(&pr, &h);
	move(&pr, 1);
	CHECK(h.shorts == 0 && h.decoded >= 1);
	run_until(&pr, 200 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(pr.sink.bytes == 640 && ss.topups == 0 && ss.timeouts == 0);
	close_pair(&pr);

	/* the same stall, the tail lost: the round ends an idle time after the late check */
	memset(&h, 0, sizeof(h));
	h.tail = 2;
	open_pair(&pr, &ac, &bc, 640);
	pr.filter = hold_tail;
	pr.ctx = &h;
	move(&pr, 0);
	pr.now += 5 * MS;
	t = pr.now;
	move(&pr, 1);
	h.n = 0;
	CHECK(h.shorts == 0);
	pr.now = dfcp_conn_next_deadline(pr.b, pr.now);
	CHECK(pr.now > t && pr.now <= t + bc.round_idle_ns + 20 * US);
	move(&pr, 1);
	dfcp_conn_stats(pr.b, &rs);
	CHECK(h.shorts == 1 && rs.rounds_idle == 1 && rs.rounds_late == 1);
	run_until(&pr, 200 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(pr.sink.bytes == 640 && ss.topups == 1);
	close_pair(&pr);
}

/*
 * The sender stops in the middle of a round (its lcore descheduled): the
 * receiver's idle time ends the round and its SHORT reaches the sender after
 * the rest went out. It was made before the rest could arrive: no top-up;
 * the rest reopens the round and decodes the block. If the rest is lost,
 * the block timer still finishes the block.
 */
static void
test_early_short(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss;
	struct pair pr;
	struct dfcp_pkt p, rpt;
	uint8_t held[VN_FRAME];
	unsigned int k, i;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	for (int lost = 0; lost < 2; lost++) {
		open_pair(&pr, &ac, &bc, 640);
		/* the ACK and 6 of the round's 10, then the sender stops */
		REQUIRE(dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, 7) == 7);
		for (i = 0; i < 7; i++) {
			REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
			dfcp_conn_rx(pr.b, &p, pr.now);
		}
		/* the receiver's idle time: a SHORT for 4 missing, on its way back */
		pr.now = dfcp_conn_next_deadline(pr.b, pr.now);
		k = dfcp_conn_tx_burst(pr.b, pr.now, fbp, fl, VN_FRAME, VN_BURST);
		REQUIRE(k == 1);
		memcpy(held, fb[0], fl[0]);
		REQUIRE(dfcp_parse(held, fl[0], 0, &rpt) == 0);
		REQUIRE(rpt.type == DFCP_T_BLOCK_ACK && rpt.u.back.status == DFCP_BA_SHORT &&
				rpt.u.back.missing == 4);
		/* 2 ms on the sender sends the rest (lost or not), then the SHORT arrives */
		pr.now += 2 * MS;
		k = dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, VN_BURST);
		REQUIRE(k == 4);
		for (i = 0; i < k && !lost; i++) {
			REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
			dfcp_conn_rx(pr.b, &p, pr.now);
		}
		pr.now += 50 * US;	/* past the least RTT (the handshake's 10 us) */
		CHECK(dfcp_conn_rx(pr.a, &rpt, pr.now) == 0);
		dfcp_conn_stats(pr.a, &ss);
		CHECK(ss.early_shorts == 1 && ss.topups == 0);
		run_until(&pr, 500 * MS);
		dfcp_conn_stats(pr.a, &ss);
		CHECK(pr.sink.bytes == 640 && ss.blocks_acked == 1);
		if (lost)
			CHECK(ss.topups >= 1);
		else
			CHECK(ss.topups == 0 && ss.timeouts == 0);
		close_pair(&pr);
	}
}

/* ------------------------------------------------------------------ */
/* reports that do not fit what was sent                                */
/* ------------------------------------------------------------------ */

/* A BLOCK-ACK from b to a, its report made up. */
static int
inject(struct pair *pr, uint16_t status, uint32_t block, uint32_t rcvd, uint32_t span,
		uint16_t missing, uint32_t rx, uint32_t seq_next, uint32_t rnd_seq,
		uint16_t rnd_len, uint16_t rnd_rcvd)
{
	struct dfcp_pkt p;
	uint8_t f[256];
	int len;

	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_BLOCK_ACK;
	p.flags = DFCP_F_RPT;
	p.dst_cid = dfcp_conn_local_cid(pr->a);
	p.src_cid = dfcp_conn_local_cid(pr->b);
	p.u.back.block = block;
	p.u.back.status = status;
	p.u.back.rcvd = rcvd;
	p.u.back.esi_span = span;
	p.u.back.missing = missing;
	p.u.back.rx_pkts = rx;
	p.u.back.seq_next = seq_next;
	p.u.back.rnd_seq = rnd_seq;
	p.u.back.rnd_len = rnd_len;
	p.u.back.rnd_rcvd = rnd_rcvd;
	p.u.back.rnd_end = rnd_len ? DFCP_END_NEXT : DFCP_END_NONE;
	len = dfcp_build(f, sizeof(f), &B, &A, &p, DFCP_CSUM_UDP_ZERO);
	REQUIRE(len > 0 && dfcp_parse(f, (size_t)len, 0, &p) == 0);
	return dfcp_conn_rx(pr->a, &p, pr->now);
}

static void
test_hostile_reports(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss;
	struct pair pr;
	uint32_t loss;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	open_pair(&pr, &ac, &bc, 2 * 640);
	/* two first rounds of 10 out, nothing delivered */
	REQUIRE(dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, VN_BURST) >= 20);
	/* a report can only be about packets that were sent */
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 10, 5, 15, 21, 0, 10, 5) == -DFCP_E_REPORT);
	/* more received than sent */
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 10, 5, 21, 20, 0, 10, 5) == -DFCP_E_REPORT);
	/* a round of another length than sent */
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 10, 5, 15, 20, 0, 11, 5) == -DFCP_E_REPORT);
	/* a block holding more symbols than were sent of it; a span past its round */
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 11, 10, 0, 15, 20, 0, 10, 5) == -DFCP_E_REPORT);
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 11, 5, 15, 20, 0, 10, 5) == -DFCP_E_REPORT);
	/* a shortfall larger than K */
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 10, 11, 15, 20, 0, 10, 5) == -DFCP_E_REPORT);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.drops[DFCP_E_REPORT] == 6 && ss.reports == 0 && ss.topups == 0);
	CHECK(ss.loss_ppm == 0);
	/* a consistent one, an RTT later: 5 of block 0's 10 arrived, 15 of 20 so far */
	pr.now += MS;
	CHECK(inject(&pr, DFCP_BA_SHORT, 0, 5, 10, 5, 15, 20, 0, 10, 5) == 0);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.reports == 1 && ss.topups == 1 && ss.loss_ppm == 250000);
	loss = ss.loss_ppm;
	/* fewer received than reported before */
	CHECK(inject(&pr, DFCP_BA_SHORT, 1, 5, 10, 5, 14, 20, 10, 10, 5) == -DFCP_E_REPORT);
	/* an older report (reordered on the way back): ignored, no error */
	CHECK(inject(&pr, DFCP_BA_SHORT, 1, 5, 10, 5, 10, 15, 0, 0, 0) == 0);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.reports == 1 && ss.loss_ppm == loss);
	close_pair(&pr);
}

/* ------------------------------------------------------------------ */
/* stall state                                                          */
/* ------------------------------------------------------------------ */

/* Every report from b made inconsistent: a refuses them all, b stays alive. */
static int
spoil_reports(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p)
{
	(void)ctx;
	if (dir == 1 && p->type == DFCP_T_BLOCK_ACK) {
		/* rx_pkts beyond seq_next: the sender must refuse it */
		uint8_t *r = f + DFCP_L2L4_LEN + DFCP_COMMON_LEN + 28;

		r[0] = 0xff;
		f[DFCP_L2L4_LEN - 2] = f[DFCP_L2L4_LEN - 1] = 0;	/* UDP checksum off */
		(void)len;
	}
	return 0;
}

static void
test_stall(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss;
	struct pair pr;
	char why[96];

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	open_pair(&pr, &ac, &bc, 100 * 640);
	pr.filter = spoil_reports;
	run_until(&pr, 500 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.blocks_acked == 0 && ss.stall == 0 && ss.stalls == 0);
	run_until(&pr, 1500 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.stalls == 1);
	CHECK(ss.stall_ms == 1000);	/* no progress yet: the least stall time */
	CHECK((ss.stall & (DFCP_STALL_ON | DFCP_STALL_WINDOW | DFCP_STALL_RX_DROPS)) ==
			(DFCP_STALL_ON | DFCP_STALL_WINDOW | DFCP_STALL_RX_DROPS));
	dfcp_stall_str(ss.stall, why, sizeof(why));
	printf("stalled sender: %s (%llu report drops, %llu timeouts)\n", why,
		(unsigned long long)ss.drops[DFCP_E_REPORT], (unsigned long long)ss.timeouts);
	CHECK(strstr(why, "window full") != NULL && strstr(why, "rx drops") != NULL);
	CHECK(ss.drops[DFCP_E_REPORT] > 0);
	/* one episode, counted once however long it lasts */
	run_until(&pr, 3000 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.stalls == 1 && ss.stall != 0);
	/* reports good again: progress ends the stall */
	pr.filter = NULL;
	run_until(&pr, 6000 * MS);
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.stall == 0 && ss.blocks_acked == 100);
	/* the stall time follows the usual gap between blocks (EWMA): the one
	 * of ~5.5 s, then 99 short ones, leave it at the least again */
	CHECK(ss.stall_ms == 1000);
	CHECK(strcmp(dfcp_stall_str(0, why, sizeof(why)), "progressing") == 0);
	CHECK(strcmp(dfcp_stall_str(DFCP_STALL_ON | DFCP_STALL_POOL | DFCP_STALL_WINDOW, why,
			sizeof(why)), "window full, no encoder free for the next block "
			"(mem_budget)") == 0);
	CHECK(strcmp(dfcp_stall_str(DFCP_STALL_ON, why, sizeof(why)), "no progress") == 0);
	close_pair(&pr);
}

/*
 * A sender whose egress lets one DATA frame out every 150 ms (a small share
 * of a scheduler's bottleneck: back-pressure paces it), so its first block
 * takes ~2 s: not stalled while its DATA keeps leaving, before the first
 * block is acked; the transfer completes, verified.
 */
static void
test_stall_slow_first_block(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss;
	struct pair pr;
	uint64_t next = 0;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	open_pair(&pr, &ac, &bc, 2 * 640);
	while (pr.now < 12000 * MS && dfcp_conn_state(pr.a) != DFCP_CLOSED) {
		if (pr.now >= next) {
			unsigned int k = dfcp_conn_tx_burst(pr.a, pr.now, fbp, fl, VN_FRAME, 1);

			for (unsigned int i = 0; i < k; i++) {
				struct dfcp_pkt p;

				REQUIRE(dfcp_parse(fb[i], fl[i], 0, &p) == 0);
				dfcp_conn_rx(pr.b, &p, pr.now);
			}
			next = pr.now + 150 * MS;
		}
		move(&pr, 1);
		pr.now += 100 * US;
		if (pr.now == 1600 * MS) {
			dfcp_conn_stats(pr.a, &ss);
			CHECK(ss.blocks_acked == 0);	/* still its first block */
			CHECK(ss.stalls == 0 && ss.stall == 0);
		}
	}
	dfcp_conn_stats(pr.a, &ss);
	CHECK(ss.blocks_acked == 2 && ss.stalls == 0);
	CHECK(pr.sink.bytes == 2 * 640 && pr.sink.bad_bytes == 0);
	close_pair(&pr);
}

int
main(void)
{
	test_negotiation();
	test_round_ends();
	test_late_idle();
	test_early_short();
	test_hostile_reports();
	test_stall();
	test_stall_slow_first_block();
	return test_report("dfcp-xr");
}
