/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp memory (issue #13), on a virtual clock: several connections share
 * one pool made at set-up (conf.shared). Their windows together want more
 * buffers, decoders and encoders than it holds: the draws that do not fit
 * are refused (waits counted, the sender starts no new block, the receiver
 * drops the DATA), every transfer still completes with every byte, nothing
 * is made after set-up (the pool's byte count and the heap stay put while
 * the data flows), and once the connections are gone every item and every
 * guarantee is back (in use 0, reserved 0). A connect or SYN whose
 * guarantee does not fit is refused.
 */
#include <malloc.h>

#include "sechelp.h"

#define NCONN	4
#define BYTES	(60 * 16 * 64)

static uint64_t
heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

struct mem_run {
	struct vnet v;
	struct dfcp_ep *ea, *eb;
	struct dfcp_conn *a[NCONN];
	struct net_src_pattern src[NCONN];
	struct dfcp_conn_conf cc;
	uint64_t heap_max;
};

static int
all_closed(void *ctx)
{
	struct mem_run *m = ctx;
	uint64_t h = heap_bytes();

	if (h > m->heap_max)
		m->heap_max = h;
	for (int i = 0; i < NCONN; i++)
		if (m->a[i] != NULL && dfcp_conn_state(m->a[i]) != DFCP_CLOSED)
			return 0;
	return 1;
}

static void
mem_setup(struct mem_run *m, struct dfcp_pool *pool, uint32_t loss_ppm)
{
	struct dfcp_ep_conf ac, bc;

	memset(m, 0, sizeof(*m));
	dfcp_conn_conf_default(&m->cc);
	m->cc.remote = SB;
	m->cc.T = 64;
	m->cc.K = 16;
	m->cc.window = 8;
	m->cc.csum = DFCP_CSUM_UDP_ZERO;
	m->cc.hs_rto_ns = 10 * MS;
	m->cc.time_wait_ns = 10 * MS;
	m->cc.pool = pool;
	dfcp_ep_conf_default(&ac);
	ac.local = SA;
	ac.listen = 0;
	ac.max_conns = NCONN;
	ac.secret_seed = 5;
	ac.csum = DFCP_CSUM_UDP_ZERO;
	dfcp_ep_conf_default(&bc);
	bc.local = SB;
	bc.max_conns = NCONN;
	bc.secret_seed = 6;
	bc.csum = DFCP_CSUM_UDP_ZERO;
	bc.accept_conf = m->cc;
	bc.accept_conf.pool = NULL;
	bc.pool = pool;
	m->ea = dfcp_ep_create(&ac);
	m->eb = dfcp_ep_create(&bc);
	REQUIRE(m->ea != NULL && m->eb != NULL);
	vn_init(&m->v, m->ea, m->eb, 31);
	for (int d = 0; d < 2; d++) {
		m->v.dir[d].delay_ns = 1 * MS;
		m->v.dir[d].loss_ppm = loss_ppm;
	}
}

static void
mem_fini(struct mem_run *m)
{
	vn_fini(&m->v);
	dfcp_ep_free(m->ea);
	dfcp_ep_free(m->eb);
}

/* Four senders with windows of 8 through a pool of 6 buffers, 2 decoders, 5 encoders. */
static void
test_shared_exhaustion(void)
{
	struct dfcp_pool_conf pc = { .K = 16, .T = 64, .rx_slots = 6, .dec_slots = 2,
		.tx_slots = 5, .shared = 1, .tx_min = 1 };
	struct dfcp_pool *pool = dfcp_pool_create(&pc);
	struct dfcp_pool_stats ps, ps0;
	struct mem_run m;
	uint64_t heap0, heap1;
	int i, ok = 1;

	REQUIRE(pool != NULL);
	dfcp_pool_stats(pool, &ps0);
	CHECK(ps0.rx_slots == 6 && ps0.dec_slots == 2 && ps0.tx_slots == 5);
	mem_setup(&m, pool, 20000);	/* 2 % loss: decoders are needed */
	for (i = 0; i < NCONN; i++) {
		net_src_pattern_init(&m.src[i], 40 + i, BYTES, 0);
		m.cc.source = net_src_pattern_read;
		m.cc.source_ctx = &m.src[i];
		m.a[i] = dfcp_ep_connect(m.ea, &m.cc, 0);
		REQUIRE(m.a[i] != NULL);
		/* the window is not clamped to what is free: it is drawn as it goes */
		CHECK(dfcp_conn_params(m.a[i])->window == 8);
	}
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.tx_reserved == NCONN);	/* one guaranteed encoder each */
	/* every connection established and under way: from here on nothing is made */
	vn_run(&m.v, 20 * MS, NULL, NULL);
	heap0 = m.heap_max = heap_bytes();
	vn_run(&m.v, 120000 * MS, all_closed, &m);
	dfcp_pool_stats(pool, &ps);
	for (i = 0; i < NCONN; i++) {
		struct dfcp_stats st;

		dfcp_conn_stats(m.a[i], &st);
		ok &= dfcp_conn_close_reason(m.a[i]) == DFCP_CR_DONE && st.completed &&
			st.goodput_bytes == BYTES;
	}
	CHECK(ok);
	CHECKF(ps.waits > 0, "waits %llu", (unsigned long long)ps.waits);
	CHECK(ps.bufs_peak <= 6 && ps.decs_peak <= 2 && ps.encs_peak <= 5);
	CHECK(ps.bufs_peak >= 1 && ps.encs_peak == 5);	/* drawn by all, not reserved */
	CHECK(ps.bytes == ps0.bytes);			/* nothing made since set-up */
	CHECK(ps.bytes_peak <= ps.bytes && ps.bytes_peak > 0);
	/* (the frames in flight on the test network are on the heap: not heap_max) */
	heap1 = heap_bytes();
	CHECKF(heap1 <= heap0 + 16384, "heap grew by %llu bytes while the data flowed",
			(unsigned long long)(heap1 - heap0));
	printf("shared pool: %d transfers of %d bytes (windows 8) through 6 buffers, 2 decoders, "
		"5 encoders: %llu draws refused, peaks %u/%u/%u, heap +%llu bytes after it\n", NCONN, BYTES,
		(unsigned long long)ps.waits, ps.bufs_peak, ps.decs_peak, ps.encs_peak,
		(unsigned long long)(heap1 > heap0 ? heap1 - heap0 : 0));
	mem_fini(&m);
	/* all connections freed: the accounting is back to zero */
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.bufs_used == 0 && ps.decs_used == 0 && ps.encs_used == 0);
	CHECK(ps.bytes_used == 0 && ps.rx_reserved == 0 && ps.tx_reserved == 0);
	dfcp_pool_free(pool);
}

/* Guarantees that do not fit: a connect (encoders) and a SYN (buffers) are refused. */
static void
test_shared_guarantee(void)
{
	struct dfcp_pool_conf pc = { .K = 16, .T = 64, .rx_slots = 1, .tx_slots = 2,
		.shared = 1, .tx_min = 1 };
	struct dfcp_pool *pool = dfcp_pool_create(&pc);
	struct dfcp_pool_stats ps;
	struct dfcp_stats st;
	struct mem_run m;

	REQUIRE(pool != NULL);
	mem_setup(&m, pool, 0);
	for (int i = 0; i < 2; i++) {
		net_src_pattern_init(&m.src[i], 50 + i, BYTES, 0);
		m.cc.source = net_src_pattern_read;
		m.cc.source_ctx = &m.src[i];
		m.a[i] = dfcp_ep_connect(m.ea, &m.cc, 0);
		REQUIRE(m.a[i] != NULL);
	}
	CHECK(dfcp_ep_connect(m.ea, &m.cc, 0) == NULL);	/* no third encoder guarantee */
	vn_run(&m.v, 120000 * MS, all_closed, &m);
	/* one receive buffer: the first SYN holds it, the other is refused */
	dfcp_conn_stats(m.a[0], &st);
	CHECK(dfcp_conn_close_reason(m.a[0]) == DFCP_CR_DONE && st.goodput_bytes == BYTES);
	CHECK(dfcp_conn_close_reason(m.a[1]) == DFCP_CR_REFUSED ||
			dfcp_conn_close_reason(m.a[1]) == DFCP_CR_RESET);
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.refused >= 1);
	mem_fini(&m);
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.bytes_used == 0 && ps.rx_reserved == 0 && ps.tx_reserved == 0);
	dfcp_pool_free(pool);
}

int
main(void)
{
	test_shared_exhaustion();
	test_shared_guarantee();
	return test_report("dfcp-mem");
}
