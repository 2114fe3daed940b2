/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp extended reports (DFCP_F_XR), round ends without LAST: a later
 * packet, the idle time, the idle time across stalls of the receiver (a
 * late check, trusted the second time), across stalls upstream (the pause
 * learnt), and a slow flow's pace.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "xrpair.h"

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
	open_filtered(&pr, &ac, &bc, 4 * 640, drop_tail, &t);
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
	open_filtered(&pr, &ac, &bc, 640, drop_tail, &t);
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
	open_filtered(&pr, &ac, &bc, 640, hold_tail, &h);
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
	open_filtered(&pr, &ac, &bc, 640, hold_tail, &h);
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
 * The same stall twice in a row with the tail lost: the idle time starts
 * again once, and the second late end is trusted (a receiver whose every
 * poll is late, e.g. one lcore for 4096 receivers, started every round's
 * idle time again and again and never reported).
 */
static void
test_late_twice(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats rs;
	struct hold_ctx h;
	struct pair pr;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	memset(&h, 0, sizeof(h));
	h.tail = 2;
	open_filtered(&pr, &ac, &bc, 640, hold_tail, &h);
	move(&pr, 0);
	h.n = 0;		/* the tail is lost */
	pr.now += 5 * MS;
	move(&pr, 1);
	CHECK(h.shorts == 0);
	pr.now = dfcp_conn_next_deadline(pr.b, pr.now) + 5 * MS;	/* late again */
	move(&pr, 1);
	dfcp_conn_stats(pr.b, &rs);
	CHECKF(h.shorts == 1 && rs.rounds_late == 1 && rs.rounds_idle == 1,
			"shorts %u late %lu idle %lu", h.shorts, (unsigned long)rs.rounds_late,
			(unsigned long)rs.rounds_idle);
	close_pair(&pr);
}

/* Count the receiver's SHORTs, pass everything. */
static int
count_shorts(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p)
{
	(void)f;
	(void)len;
	if (dir == 1 && p->type == DFCP_T_BLOCK_ACK && p->u.back.status == DFCP_BA_SHORT)
		(*(uint32_t *)ctx)++;
	return 0;
}

/*
 * A flow with a small share of a link: its round's packets arrive 48 ms
 * apart (1/4096 of 1 Gbit/s), nothing lost. The receiver learns that pace
 * from the first gap: its idle time is then a few gaps, and the round does
 * not end idle between its packets (it did after every packet: the gaps
 * were longer than the 10 ms the pace was learnt from, and 50 ms the most
 * idle time, so a report for each packet).
 */
static void
test_slow_pace(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats rs;
	struct pair pr;
	uint32_t shorts = 0, n, i;
	uint64_t t0;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	open_filtered(&pr, &ac, &bc, 640, count_shorts, &shorts);
	n = dfcp_first_round_syms(pr.a);
	REQUIRE(n >= 10);
	CHECK(move_one(&pr) == DFCP_T_ACK);
	t0 = pr.now;
	for (i = 0; i < n; i++) {
		uint64_t next = t0 + (i + 1) * 48 * MS, d;
		unsigned int guard = 0;

		pr.now = t0 + i * 48 * MS;
		REQUIRE(move_one(&pr) == DFCP_T_DATA);
		/* the receiver polled at each of its deadlines until the next packet */
		while ((d = dfcp_conn_next_deadline(pr.b, pr.now)) < next && guard++ < 100) {
			pr.now = d;
			move(&pr, 1);
		}
	}
	dfcp_conn_stats(pr.b, &rs);
	CHECKF(rs.rounds_idle <= 1 && shorts <= 1 && rs.blocks_decoded == 1,
			"rounds ended idle %lu, SHORTs %u, decoded %lu", (unsigned long)rs.rounds_idle,
			shorts, (unsigned long)rs.blocks_decoded);
	close_pair(&pr);
}

/*
 * A round that takes longer than the peer timeout (a packet every 200 ms,
 * K 20): the receiver, hearing its peer but having nothing to report,
 * sends keepalives, and the sender does not take it for dead.
 */
static void
test_keepalive(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss, rs;
	struct pair pr;
	uint32_t shorts = 0, n, i;
	uint64_t t0, gap = 200 * MS;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	ac.K = bc.K = 20;
	open_filtered(&pr, &ac, &bc, 20 * 64, count_shorts, &shorts);
	n = dfcp_first_round_syms(pr.a);
	t0 = pr.now;
	for (i = 0; i < n + 1; i++) {
		uint64_t next = t0 + (i + 1) * gap, d;
		unsigned int guard = 0;

		pr.now = t0 + i * gap;
		move_one(&pr);	/* the ACK, then one DATA packet a call */
		while ((d = dfcp_conn_next_deadline(pr.b, pr.now)) < next && guard++ < 100) {
			pr.now = d;
			move(&pr, 1);
		}
		if (dfcp_conn_state(pr.a) != DFCP_ESTABLISHED)
			break;
	}
	dfcp_conn_stats(pr.a, &ss);
	dfcp_conn_stats(pr.b, &rs);
	CHECKF(ss.close_reason != DFCP_CR_PEER_TIMEOUT && rs.blocks_decoded == 1,
			"sender closed: %u (decoded %lu)", ss.close_reason,
			(unsigned long)rs.blocks_decoded);
	CHECKF(rs.keepalives >= 3 && ss.keepalives == rs.keepalives,
			"keepalives sent %lu, received %lu", (unsigned long)rs.keepalives,
			(unsigned long)ss.keepalives);
	close_pair(&pr);
}

/*
 * A stall upstream (the sender's or the scheduler's lcore descheduled):
 * from the tail of a block's round on, every frame a -> b waits `hold`
 * while the receiver keeps polling on time; the tail of block `drop` is
 * lost instead. The first stall ends the round idle (a SHORT for symbols
 * still on their way) and its rest then resumes it: the receiver learns
 * the pause, and the same stall of the next block ends nothing.
 */
struct stall_ctx {
	struct pair *pr;
	uint32_t tail, drop;
	uint64_t hold, until;
	uint32_t stalled;		/* blocks whose stall began (bit b) */
	unsigned int n;
	uint8_t f[16][VN_FRAME];
	uint16_t len[16];
	uint32_t shorts[4];
	uint64_t short_at[4];
};

static int
stall_tail(void *ctx, int dir, uint8_t *f, uint16_t len, struct dfcp_pkt *p)
{
	struct stall_ctx *st = ctx;
	uint32_t b = p->u.data.block;

	if (dir == 1) {
		if (p->type == DFCP_T_BLOCK_ACK && p->u.back.status == DFCP_BA_SHORT &&
				p->u.back.block < 4) {
			if (st->shorts[p->u.back.block]++ == 0)
				st->short_at[p->u.back.block] = st->pr->now;	/* the first */
		}
		return 0;
	}
	if (p->type == DFCP_T_DATA && b < 4 && p->u.data.esi < p->u.data.rlen &&
			p->u.data.rpos + st->tail >= p->u.data.rlen) {
		if (b == st->drop)
			return 1;
		if (!(st->stalled & (1u << b))) {
			st->stalled |= 1u << b;
			st->until = st->pr->now + st->hold;
		}
	}
	if (st->until == 0)
		return 0;
	REQUIRE(st->n < 16);
	memcpy(st->f[st->n], f, len);
	st->len[st->n++] = len;
	return 1;
}

/* One frame a -> b every 10 us (a paced sender: the receiver learns its gaps), through the filter. */
static void
stall_step(struct pair *pr, struct stall_ctx *st)
{
	if (pr->now % (10 * US) == 0 &&
			dfcp_conn_tx_burst(pr->a, pr->now, fbp, fl, VN_FRAME, 1) == 1) {
		struct dfcp_pkt p;

		REQUIRE(dfcp_parse(fb[0], fl[0], 0, &p) == 0);
		if (!stall_tail(st, 0, fb[0], fl[0], &p)) {
			REQUIRE(dfcp_parse(fb[0], fl[0], 0, &p) == 0);
			dfcp_conn_rx(pr->b, &p, pr->now);
		}
	}
	if (st->until != 0 && pr->now >= st->until) {
		for (unsigned int i = 0; i < st->n; i++) {
			struct dfcp_pkt p;

			REQUIRE(dfcp_parse(st->f[i], st->len[i], 0, &p) == 0);
			dfcp_conn_rx(pr->b, &p, pr->now);
		}
		st->n = 0;
		st->until = 0;
	}
	move(pr, 1);
	pr->now += US;
}

static void
test_upstream_pause(void)
{
	struct dfcp_conn_conf ac, bc;
	struct dfcp_stats ss, rs;
	struct stall_ctx st;
	struct pair pr;
	uint64_t t2 = 0;

	conf_init(&ac, &A, &B);
	conf_init(&bc, &B, &A);
	ac.window = bc.window = 1;	/* one block at a time: each stall alone */
	memset(&st, 0, sizeof(st));
	st.pr = &pr;
	st.tail = 2;
	st.hold = 3 * MS;
	st.drop = 2;
	open_filtered(&pr, &ac, &bc, 3 * 640, stall_tail, &st);
	while (pr.now < 200 * MS && (dfcp_conn_state(pr.a) != DFCP_CLOSED ||
			dfcp_conn_state(pr.b) != DFCP_CLOSED)) {
		if (t2 == 0 && (st.stalled & 2u) && st.until == 0)
			t2 = pr.now;	/* block 1's stall is over: block 2 goes out next */
		stall_step(&pr, &st);
	}
	dfcp_conn_stats(pr.a, &ss);
	dfcp_conn_stats(pr.b, &rs);
	CHECKF(st.shorts[0] == 1 && rs.rounds_resumed >= 1,
			"block 0: %u SHORTs, rounds resumed %lu", st.shorts[0],
			(unsigned long)rs.rounds_resumed);
	CHECKF(st.shorts[1] == 0, "block 1 (the same stall again): %u SHORTs", st.shorts[1]);
	/* a lost tail still ends the round, within the learnt floor (5/4 of 3 ms); the
	 * sender's block timer (its RTT is microseconds here) fires during each stall.
	 * Each top-up of block 2 loses its last two packets too: one aimed at the
	 * exact shortfall (the capacity budget) ends short again, a SHORT each */
	CHECKF(st.shorts[2] >= 1 && t2 != 0 && st.short_at[2] > t2 &&
			st.short_at[2] - t2 <= bc.round_idle_ns + 3 * MS + 3 * MS / 4 + 200 * US,
			"block 2 (tail lost): %u SHORTs, %lu us after block 1's stall", st.shorts[2],
			(unsigned long)((st.short_at[2] - t2) / US));
	CHECKF(pr.sink.bytes == 3 * 640, "delivered %lu of %u, timeouts %lu, "
			"SHORTs %u %u %u, idle %lu resumed %lu, t %lu us", (unsigned long)pr.sink.bytes, 3 * 640,
			(unsigned long)ss.timeouts, st.shorts[0], st.shorts[1], st.shorts[2],
			(unsigned long)rs.rounds_idle, (unsigned long)rs.rounds_resumed,
			(unsigned long)(pr.now / US));
	close_pair(&pr);
}

int
main(void)
{
	test_round_ends();
	test_late_idle();
	test_late_twice();
	test_slow_pace();
	test_keepalive();
	test_upstream_pause();
	return test_report("dfcp-xr-round");
}
