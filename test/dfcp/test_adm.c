/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp admission (issue #15), on a virtual clock. A flood of 10,000
 * spoofed SYN/s from random sources does not keep a real client out (the
 * half-open FIFO evicts the oldest, a SYN costs no connection and no
 * buffers). A hostile SYN (K 8192, T 1432, window 64) is refused; one of
 * the right shape asking for a window of 65536 is clamped to the receive
 * memory still free, and once that is reserved the next is refused; the
 * heap stays within the budget made at set-up, and a concurrent flow takes
 * no longer than without them. Without max_rx_memory the default budget
 * (accounting only) clamps the hostile SYN, refuses the next, admits one of
 * the usual shape and frees it at the reset. Senders share one encoder pool.
 */
#include <malloc.h>

#include "sechelp.h"

#define US	1000ull

static uint64_t
heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

static int
build_syn(uint8_t *f, const struct dfcp_addr *src, uint32_t cid, uint16_t K, uint16_t T,
		uint32_t window)
{
	struct dfcp_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_SYN;
	p.src_cid = cid;
	p.flags = DFCP_F_ACKS | DFCP_F_ENC | DFCP_F_DEC | DFCP_F_XR | DFCP_F_CRC;
	p.u.params.block_size = (uint32_t)K * T;
	p.u.params.T = T;
	p.u.params.K = K;
	p.u.params.window = window;
	p.u.params.redundancy = 0;
	p.u.params.max_window = window;
	p.u.params.max_K = K;
	p.u.params.max_T = T;
	p.u.params.flags = p.flags;
	return dfcp_build(f, VN_FRAME, src, &SB, &p, DFCP_CSUM_UDP_ZERO);
}

static void
test_syn_flood(void)
{
	struct dfcp_ep_stats sb;
	struct test_rng rng;
	struct sec_run r;
	uint64_t flood = 0, t;
	uint8_t f[VN_FRAME];
	uint32_t max_half = 0;

	sec_init(&r, 100 * 16 * 64);
	r.ec.max_half_open = 256;
	r.defer_connect = 1;
	sec_start(&r, 21);
	for (int d = 0; d < 2; d++)
		r.v.dir[d].delay_ns = 2500 * US;	/* RTT 5 ms */
	test_rng_seed(&rng, 4);
	/* 2 s of 10,000 SYN/s; the client (connected at 0) starts at 0.3 s */
	for (t = 0; t < 2000 * MS; t += 100 * US) {
		struct dfcp_addr evil;
		uint64_t x = test_rng_next(&rng);

		int n;

		if (t == 300 * MS) {
			r.a = dfcp_ep_connect(r.ea, &r.cc, r.v.now);
			REQUIRE(r.a != NULL);
		}
		vn_run(&r.v, t, NULL, NULL);
		memcpy(evil.mac, SA.mac, 6);
		evil.ip = (uint32_t)x;
		evil.port = (uint16_t)(x >> 32);
		n = build_syn(f, &evil, (uint32_t)(x >> 40) | 1, 16, 64, 8);
		CHECK(dfcp_ep_rx(r.eb, f, (size_t)n, r.v.now) == 0);
		flood++;
		dfcp_ep_stats(r.eb, &sb);
		if (sb.half_open > max_half)
			max_half = (uint32_t)sb.half_open;
		CHECK(sb.conns <= 1);
	}
	sec_run_until(&r, 60000 * MS);
	dfcp_ep_stats(r.eb, &sb);
	CHECK(sec_verified(&r));
	CHECK(max_half <= 256 && sb.half_open_evicted + sb.half_open_expired >= flood - 256);
	printf("SYN flood: %llu spoofed SYNs in 2 s, at most %u half-open, %llu evicted, "
		"%llu expired; the client's transfer verified\n", (unsigned long long)flood, max_half,
		(unsigned long long)sb.half_open_evicted, (unsigned long long)sb.half_open_expired);
	sec_fini(&r);
}

/* ---- hostile SYNs against a memory budget ---- */

struct hostile {
	int on;
	int sent;
	uint32_t synack_cid, synack_window;
	int rc[4];
	uint64_t heap0, heap_max;
};

static struct hostile g_h;
static const struct dfcp_addr EVIL = { { 2, 0, 0, 0, 0, 0x66 }, 0x0a000066, 6666 };

static int
attack_hostile(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;
	uint8_t g[VN_FRAME];
	int n;

	if (!g_h.on)
		return 0;
	if (heap_bytes() > g_h.heap_max)
		g_h.heap_max = heap_bytes();
	/* the listener's answer to our hostile SYN: complete the handshake */
	if (dir == 1 && sec_type(f, len) == DFCP_T_SYNACK && dfcp_parse(f, len, 0, &p) == 0 &&
			p.dst_ip == EVIL.ip && g_h.synack_cid == 0) {
		g_h.synack_cid = p.src_cid;
		g_h.synack_window = p.u.params.window;
		memset(&p, 0, sizeof(p));
		p.type = DFCP_T_ACK;
		p.u.ack.acked = DFCP_T_SYNACK;
		p.dst_cid = g_h.synack_cid;
		p.src_cid = 0x4444;
		n = dfcp_build(g, sizeof(g), &EVIL, &SB, &p, DFCP_CSUM_UDP_ZERO);
		g_h.rc[2] = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
		return 1;
	}
	if (g_h.sent == 0 && r->sink.bytes >= r->bytes / 4) {
		g_h.sent = 1;
		g_h.heap0 = heap_bytes();
		n = build_syn(g, &EVIL, 0x3333, 8192, 1432, 64);
		g_h.rc[0] = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
		n = build_syn(g, &EVIL, 0x4444, 16, 64, 65536);
		g_h.rc[1] = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
	}
	if (g_h.sent == 1 && g_h.rc[2] == 0 && g_h.synack_cid != 0) {
		struct dfcp_addr e2 = EVIL;

		g_h.sent = 2;
		e2.port++;
		n = build_syn(g, &e2, 0x5555, 16, 64, 8);
		g_h.rc[3] = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
	}
	return 0;
}

static uint64_t
budget_run(int hostile, struct dfcp_pool_stats *ps, struct dfcp_ep_stats *sb)
{
	struct sec_run r;
	uint64_t t;

	memset(&g_h, 0, sizeof(g_h));
	g_h.on = hostile;
	sec_init(&r, 400 * 16 * 64);
	r.ec.max_rx_memory = 8u << 20;
	r.attack = attack_hostile;
	sec_start(&r, 22);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	t = r.v.now;
	dfcp_ep_stats(r.eb, sb);
	/* the endpoint's pool, through a connection's reservation */
	memset(ps, 0, sizeof(*ps));
	if (hostile) {
		uint32_t pos = 0;
		struct dfcp_conn *c;
		struct dfcp_stats cs;

		while ((c = dfcp_ep_next_conn(r.eb, &pos)) != NULL) {
			dfcp_conn_stats(c, &cs);
			ps->bytes += cs.rx_mem_bytes;
			ps->rx_reserved += cs.window;
		}
	}
	sec_fini(&r);
	return t;
}

static void
test_hostile_syn(void)
{
	struct dfcp_pool_stats ps, ps0;
	struct dfcp_ep_stats sb, sb0;
	uint64_t t0 = budget_run(0, &ps0, &sb0), t1 = budget_run(1, &ps, &sb);

	CHECKF(g_h.rc[0] == -DFCP_E_PARAMS, "K 8192 SYN: %s", dfcp_err_str(g_h.rc[0]));
	CHECK(g_h.rc[1] == 0 && g_h.rc[2] == 0);
	CHECK(g_h.synack_window > 0 && g_h.synack_window < 65536 && sb.syn_clamped >= 1);
	CHECKF(g_h.rc[3] == -DFCP_E_MEMORY, "SYN after the budget is reserved: %s",
			dfcp_err_str(g_h.rc[3]));
	CHECK(sb.drops[DFCP_E_MEMORY] == 1 && sb.drops[DFCP_E_PARAMS] == 1);
	/* everything reserved (client + hostile) within the 8 MiB made at set-up */
	CHECK(ps.bytes <= 8u << 20);
	CHECKF(g_h.heap_max - g_h.heap0 < (1u << 20), "heap grew %llu bytes",
			(unsigned long long)(g_h.heap_max - g_h.heap0));
	CHECKF(t1 * 10 <= t0 * 11, "transfer took %.3f s, %.3f s without the hostile SYNs",
			(double)t1 / 1e9, (double)t0 / 1e9);
	printf("hostile SYNs: K 8192 refused (%s), window 65536 clamped to %u, then %s; "
		"%llu bytes reserved of 8 MiB; heap +%llu bytes; transfer %.3f s (%.3f s alone)\n",
		dfcp_err_str(g_h.rc[0]), g_h.synack_window, dfcp_err_str(g_h.rc[3]),
		(unsigned long long)ps.bytes, (unsigned long long)(g_h.heap_max - g_h.heap0),
		(double)t1 / 1e9, (double)t0 / 1e9);
}

/* ---- the default budget: accounting only, no pool ---- */

struct dflt {
	int step;
	uint32_t cid_a, window_a;
	int rc_a, rc_ack, rc_b, rc_c;
	uint64_t heap0, heap_max;
};

static struct dflt g_d;

static int
attack_default(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_addr e = EVIL;
	struct dfcp_pkt p;
	uint8_t g[VN_FRAME];
	int n;

	if (g_d.step > 0 && heap_bytes() > g_d.heap_max)
		g_d.heap_max = heap_bytes();
	if (g_d.step == 0 && r->sink.bytes >= r->bytes / 4) {
		g_d.step = 1;
		g_d.heap0 = g_d.heap_max = heap_bytes();
		n = build_syn(g, &EVIL, 0x3333, 8192, 1432, 64);
		g_d.rc_a = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
	}
	if (dir != 1 || sec_type(f, len) != DFCP_T_SYNACK || dfcp_parse(f, len, 0, &p) != 0 ||
			p.dst_ip != EVIL.ip)
		return 0;
	if (g_d.step == 1 && p.dst_port == EVIL.port) {
		/* complete the hostile handshake: its window is reserved now */
		g_d.step = 2;
		g_d.cid_a = p.src_cid;
		g_d.window_a = p.u.params.window;
		memset(&p, 0, sizeof(p));
		p.type = DFCP_T_ACK;
		p.u.ack.acked = DFCP_T_SYNACK;
		p.dst_cid = g_d.cid_a;
		p.src_cid = 0x3333;
		n = dfcp_build(g, sizeof(g), &EVIL, &SB, &p, DFCP_CSUM_UDP_ZERO);
		g_d.rc_ack = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
		/* a second one no longer fits; one of the usual shape does */
		e.port++;
		n = build_syn(g, &e, 0x3334, 8192, 1432, 64);
		g_d.rc_b = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
		e.port++;
		n = build_syn(g, &e, 0x3335, 16, 64, 8);
		g_d.rc_c = dfcp_ep_rx(r->eb, g, (size_t)n, r->v.now);
	}
	return 1;
}

static void
test_default_budget(void)
{
	uint64_t block = dfcp_rx_block_bytes(8192, 1432);
	struct dfcp_addr e = EVIL;
	struct dfcp_ep_stats sb;
	struct dfcp_pkt p;
	struct dfcp_stats cs;
	struct dfcp_conn *c;
	struct sec_run r;
	uint8_t g[VN_FRAME];
	uint64_t held = 0;
	uint32_t pos = 0;
	int n;

	memset(&g_d, 0, sizeof(g_d));
	sec_init(&r, 400 * 16 * 64);
	/* the engine's default receiver: 4 connections of a 64-block window, no max_rx_memory */
	r.ec.max_conns = 4;
	r.ec.limits.max_window = 64;
	r.attack = attack_default;
	sec_start(&r, 24);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	CHECKF(g_d.rc_a == 0 && g_d.rc_ack == 0, "hostile SYN %s, its ACK %s",
			dfcp_err_str(g_d.rc_a), dfcp_err_str(g_d.rc_ack));
	/* 256 MiB (the floor) hold 4 blocks of 55.7 MB: the window 64 is clamped to 4 */
	CHECKF(g_d.window_a == DFCP_RX_BUDGET_MIN / block, "window %u", g_d.window_a);
	CHECKF(g_d.rc_b == -DFCP_E_MEMORY, "second hostile SYN: %s", dfcp_err_str(g_d.rc_b));
	CHECKF(g_d.rc_c == 0, "SYN of the usual shape: %s", dfcp_err_str(g_d.rc_c));
	dfcp_ep_stats(r.eb, &sb);
	CHECK(sb.drops[DFCP_E_MEMORY] == 1 && sb.syn_clamped >= 1);
	while ((c = dfcp_ep_next_conn(r.eb, &pos)) != NULL) {
		dfcp_conn_stats(c, &cs);
		held += cs.rx_mem_bytes;
	}
	CHECK(held <= DFCP_RX_BUDGET_MIN && held >= g_d.window_a * block);
	/* nothing preallocated: the reservation is counted, not made */
	CHECKF(g_d.heap_max - g_d.heap0 < (1u << 20), "heap grew %llu bytes",
			(unsigned long long)(g_d.heap_max - g_d.heap0));
	/* the hostile connection reset and reaped: its memory is free again */
	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_RST;
	p.dst_cid = g_d.cid_a;
	p.src_cid = 0x3333;
	n = dfcp_build(g, sizeof(g), &EVIL, &SB, &p, DFCP_CSUM_UDP_ZERO);
	dfcp_ep_rx(r.eb, g, (size_t)n, r.v.now);
	CHECK(dfcp_ep_reap(r.eb) >= 1);
	e.port += 3;
	n = build_syn(g, &e, 0x3336, 8192, 1432, 64);
	CHECKF(dfcp_ep_rx(r.eb, g, (size_t)n, r.v.now) == 0, "after the reset, SYN refused");
	printf("default budget: %llu bytes; hostile SYN (K 8192, window 64) clamped to %u, the next "
		"%s, window-8 SYN admitted; heap +%llu bytes; free again after its reset\n",
		(unsigned long long)DFCP_RX_BUDGET_MIN, g_d.window_a, dfcp_err_str(g_d.rc_b),
		(unsigned long long)(g_d.heap_max - g_d.heap0));
	sec_fini(&r);
}

/* ---- senders sharing one encoder pool ---- */

static void
test_shared_tx_pool(void)
{
	struct dfcp_pool_conf pc = { .K = 16, .T = 64, .tx_slots = 10 };
	struct dfcp_pool *pool = dfcp_pool_create(&pc);
	struct dfcp_pool_stats ps;
	struct sec_run r;
	struct dfcp_conn *a2;

	REQUIRE(pool != NULL);
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.tx_slots == 10 && ps.encs_used == 0 && ps.tx_slot_bytes > 0);
	sec_init(&r, 100 * 16 * 64);
	r.cc.pool = pool;
	sec_start(&r, 23);
	r.cc.source = NULL;	/* nothing to send: it opens and closes */
	a2 = dfcp_ep_connect(r.ea, &r.cc, 0);	/* 2 slots left of 10: window 2 */
	REQUIRE(a2 != NULL);
	CHECK(dfcp_conn_params(a2)->window == 2);
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.tx_reserved == 10);
	CHECK(dfcp_ep_connect(r.ea, &r.cc, 0) == NULL);	/* nothing left */
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	CHECK(dfcp_conn_state(a2) == DFCP_CLOSED);
	CHECK(dfcp_ep_reap(r.ea) == 2);
	dfcp_pool_stats(pool, &ps);
	CHECK(ps.tx_reserved == 0 && ps.encs_used == 0);
	sec_fini(&r);
	dfcp_pool_free(pool);
}

int
main(void)
{
	test_syn_flood();
	test_hostile_syn();
	test_default_budget();
	test_shared_tx_pool();
	return test_report("dfcp-adm");
}
