/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp extended reports (DFCP_F_XR): negotiation and the fallback to the
 * version-1 format, idle ends across stalls of the sender (an early SHORT),
 * the sender refusing reports that do not fit what it sent, the timer as
 * the last resort, and the stall state. Round ends: test_xr_round.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "xrpair.h"

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
		/* a block holding more symbols than were sent of it: refused whole */
		uint8_t *r = f + DFCP_L2L4_LEN + DFCP_COMMON_LEN + 12;

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
	test_early_short();
	test_hostile_reports();
	test_stall();
	test_stall_slow_first_block();
	return test_report("dfcp-xr");
}
