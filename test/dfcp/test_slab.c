/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Connection records made with the endpoint (issue #15, dfcp_ep_conf.slab),
 * on a virtual clock: after set-up (the endpoints, their slabs, the shared
 * pool) many connections open, move data through a lossy link (top-ups,
 * decoders) and close, and nothing is allocated or freed on the way: every
 * malloc/calloc/realloc/aligned_alloc/posix_memalign/free of the program is
 * counted (the link wraps them), and the heap does not grow. Records left:
 * a connection beyond them is refused and counted, never a crash; a connect
 * wider than the records is clamped; a listener's records make no connect.
 */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "test_harness.h"

#define MS	1000000ull
#define FRAME	2048
#define BURST	32
#define NOPEN	60
#define BYTES	(40 * 16 * 64)

/* ---- every allocation of the program, counted while g_counting ---- */

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t a, size_t n);
int __real_posix_memalign(void **p, size_t a, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t m);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_aligned_alloc(size_t a, size_t n);
int __wrap_posix_memalign(void **p, size_t a, size_t n);
void __wrap_free(void *p);

static int g_counting;
static uint64_t g_allocs, g_frees;

void *
__wrap_malloc(size_t n)
{
	g_allocs += g_counting;
	return __real_malloc(n);
}

void *
__wrap_calloc(size_t n, size_t m)
{
	g_allocs += g_counting;
	return __real_calloc(n, m);
}

void *
__wrap_realloc(void *p, size_t n)
{
	g_allocs += g_counting;
	return __real_realloc(p, n);
}

void *
__wrap_aligned_alloc(size_t a, size_t n)
{
	g_allocs += g_counting;
	return __real_aligned_alloc(a, n);
}

int
__wrap_posix_memalign(void **p, size_t a, size_t n)
{
	g_allocs += g_counting;
	return __real_posix_memalign(p, a, n);
}

void
__wrap_free(void *p)
{
	g_frees += g_counting && p != NULL;
	__real_free(p);
}

static uint64_t
heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return (uint64_t)mi.uordblks + (uint64_t)mi.hblkhd;
}

/* ---- two endpoints joined by a link that drops every 13th DATA frame ---- */

static const struct dfcp_addr SA = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr SB = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

struct run {
	struct dfcp_ep *ea, *eb;
	struct dfcp_pool *pool;
	struct dfcp_conn_conf cc;
	struct net_src_pattern src;
	struct net_sink_count sink;
	uint8_t frames[BURST][FRAME];
	void *bufs[BURST];
	uint16_t lens[BURST];
	uint64_t now, nframes;
};

static void
run_init(struct run *r, uint32_t listener_conns)
{
	struct dfcp_pool_conf pc = { .K = 16, .T = 64, .rx_slots = 8, .dec_slots = 4,
		.tx_slots = 8, .shared = 1, .tx_min = 1 };
	struct dfcp_ep_conf ac, bc;

	memset(r, 0, sizeof(*r));
	for (int i = 0; i < BURST; i++)
		r->bufs[i] = r->frames[i];
	r->pool = dfcp_pool_create(&pc);
	REQUIRE(r->pool != NULL);
	dfcp_conn_conf_default(&r->cc);
	r->cc.remote = SB;
	r->cc.T = 64;
	r->cc.K = 16;
	r->cc.window = 8;
	r->cc.csum = DFCP_CSUM_UDP_ZERO;
	r->cc.hs_rto_ns = 10 * MS;
	r->cc.time_wait_ns = 10 * MS;
	r->cc.pool = r->pool;
	r->cc.source = net_src_pattern_read;
	r->cc.source_ctx = &r->src;
	net_sink_count_init(&r->sink, 7, 0);
	dfcp_ep_conf_default(&ac);
	ac.local = SA;
	ac.listen = 0;
	ac.max_conns = 2;
	ac.max_half_open = 1;
	ac.limits.max_window = 8;
	ac.secret_seed = 3;
	ac.csum = DFCP_CSUM_UDP_ZERO;
	ac.slab = 1;
	dfcp_ep_conf_default(&bc);
	bc.local = SB;
	bc.max_conns = listener_conns;
	bc.max_half_open = 16;
	bc.limits.max_window = 8;
	bc.secret_seed = 4;
	bc.csum = DFCP_CSUM_UDP_ZERO;
	bc.accept_conf = r->cc;
	bc.accept_conf.pool = NULL;
	bc.accept_conf.source = NULL;
	bc.accept_conf.sink = net_sink_count_write;
	bc.accept_conf.sink_ctx = &r->sink;
	bc.pool = r->pool;
	bc.slab = 1;
	r->ea = dfcp_ep_create(&ac);
	r->eb = dfcp_ep_create(&bc);
	REQUIRE(r->ea != NULL && r->eb != NULL);
}

static void
run_fini(struct run *r)
{
	dfcp_ep_free(r->ea);
	dfcp_ep_free(r->eb);
	dfcp_pool_free(r->pool);
}

/* One step of 20 us: each side's frames to the other (DATA a -> b: every 13th lost). */
static void
step(struct run *r)
{
	for (int d = 0; d < 2; d++) {
		struct dfcp_ep *from = d ? r->eb : r->ea, *to = d ? r->ea : r->eb;
		unsigned int n = dfcp_ep_tx_burst(from, r->now, r->bufs, r->lens, FRAME, BURST);

		for (unsigned int i = 0; i < n; i++) {
			if (d == 0 && r->lens[i] > 120 && r->nframes++ % 13 == 5)
				continue;
			dfcp_ep_rx(to, r->frames[i], r->lens[i], r->now);
		}
	}
	r->now += 20000;
}

/* One connection from open to both ends reaped: 1 if it delivered everything. */
static int
one_transfer(struct run *r, uint64_t seed)
{
	struct dfcp_ep_stats sa, sb;
	struct dfcp_conn *a;
	struct dfcp_stats st;
	uint64_t end = r->now + 10000 * MS;
	int ok;

	net_src_pattern_init(&r->src, seed, BYTES, 0);
	a = dfcp_ep_connect(r->ea, &r->cc, r->now);
	if (a == NULL)
		return 0;
	while (dfcp_conn_state(a) != DFCP_CLOSED && r->now < end)
		step(r);
	dfcp_conn_stats(a, &st);
	ok = dfcp_conn_close_reason(a) == DFCP_CR_DONE && st.completed &&
		st.goodput_bytes == BYTES;
	do {
		step(r);
		dfcp_ep_reap(r->ea);
		dfcp_ep_reap(r->eb);
		dfcp_ep_stats(r->ea, &sa);
		dfcp_ep_stats(r->eb, &sb);
	} while ((sa.conns || sb.conns) && r->now < end);
	return ok && sa.conns == 0 && sb.conns == 0;
}

static void
test_no_allocation(void)
{
	struct dfcp_ep_stats sa, sb;
	struct dfcp_pool_stats ps;
	uint64_t heap0, heap1;
	struct run *r = malloc(sizeof(*r));
	int ok = 1;

	REQUIRE(r != NULL);
	run_init(r, 4);
	dfcp_ep_stats(r->ea, &sa);
	dfcp_ep_stats(r->eb, &sb);
	CHECK(sa.slab_bytes == dfcp_ep_slab_bytes(2, 0, 8, 0) && sa.slab_free == 2);
	CHECK(sb.slab_bytes == dfcp_ep_slab_bytes(4, 1, 8, 16) && sb.slab_free == 4);
	/* set-up done: from here on, nothing */
	heap0 = heap_bytes();
	g_counting = 1;
	for (int i = 0; i < NOPEN; i++)
		ok &= one_transfer(r, 100 + (uint64_t)i);
	g_counting = 0;
	heap1 = heap_bytes();
	CHECK(ok);
	CHECKF(g_allocs == 0 && g_frees == 0, "%llu allocations, %llu frees after set-up",
			(unsigned long long)g_allocs, (unsigned long long)g_frees);
	CHECKF(heap1 == heap0, "heap %llu -> %llu bytes", (unsigned long long)heap0,
			(unsigned long long)heap1);
	dfcp_ep_stats(r->eb, &sb);
	dfcp_ep_stats(r->ea, &sa);
	CHECK(sb.slab_free == 4 && sa.slab_free == 2 && sb.slab_refused == 0);
	CHECKF(sb.syn_accepted == NOPEN, "%llu accepted", (unsigned long long)sb.syn_accepted);
	dfcp_pool_stats(r->pool, &ps);
	/* the loss made top-ups: decoders were drawn and given back */
	CHECK(ps.decs_peak >= 1 && ps.bufs_used == 0 && ps.decs_used == 0 && ps.encs_used == 0);
	CHECK(ps.rx_reserved == 0 && ps.tx_reserved == 0);
	run_fini(r);
	free(r);
}

/* A listener of 2 records: the third handshake gets RST "full" (drop "backlog" counted). */
static void
test_exhaustion(void)
{
	struct dfcp_conn *a[3];
	struct dfcp_ep_stats sb;
	struct run *r = malloc(sizeof(*r));
	struct dfcp_ep_conf ac;
	int est = 0, reset = 0;

	REQUIRE(r != NULL);
	run_init(r, 2);
	/* a sender endpoint of 3 records, so that the third connect goes out */
	dfcp_ep_free(r->ea);
	dfcp_ep_conf_default(&ac);
	ac.local = SA;
	ac.listen = 0;
	ac.max_conns = 3;
	ac.limits.max_window = 8;
	ac.secret_seed = 3;
	ac.csum = DFCP_CSUM_UDP_ZERO;
	ac.slab = 1;
	r->ea = dfcp_ep_create(&ac);
	REQUIRE(r->ea != NULL);
	net_src_pattern_init(&r->src, 5, 1u << 30, 0);	/* long: they stay open */
	for (int i = 0; i < 3; i++) {
		a[i] = dfcp_ep_connect(r->ea, &r->cc, r->now);
		REQUIRE(a[i] != NULL);
	}
	for (int i = 0; i < 200; i++)
		step(r);
	/* the handshakes complete in any order: the one beyond the records is reset */
	for (int i = 0; i < 3; i++) {
		if (dfcp_conn_state(a[i]) == DFCP_ESTABLISHED)
			est++;
		else if (dfcp_conn_state(a[i]) == DFCP_CLOSED &&
				dfcp_conn_close_reason(a[i]) == DFCP_CR_RESET)
			reset++;
	}
	CHECKF(est == 2 && reset == 1, "%d established, %d reset", est, reset);
	dfcp_ep_stats(r->eb, &sb);
	CHECK(sb.conns == 2 && sb.slab_free == 0 && sb.drops[DFCP_E_BACKLOG] >= 1);
	/* a wider connect is clamped to the records' window; a listener makes none */
	CHECK(dfcp_ep_reap(r->ea) == 1);
	r->cc.window = 100;
	a[2] = dfcp_ep_connect(r->ea, &r->cc, r->now);
	REQUIRE(a[2] != NULL);
	CHECK(dfcp_conn_params(a[2])->window == 8);
	r->cc.window = 8;
	CHECK(dfcp_ep_connect(r->eb, &r->cc, r->now) == NULL);
	run_fini(r);
	free(r);
}

/* The slab itself: records out, one refused (counted), back, out again; arrays bounded. */
static void
test_slab_unit(void)
{
	struct dfcp_slab *s = dfcp_slab_create(2, 1, 4, 100);
	struct dfcp_conn *c1, *c2;
	uint64_t bytes, nfree, refused;

	REQUIRE(s != NULL);
	c1 = dfcp_slab_get(s);
	c2 = dfcp_slab_get(s);
	CHECK(c1 != NULL && c2 != NULL && c1 != c2);
	CHECK(dfcp_slab_get(s) == NULL);
	dfcp_slab_stats(s, &bytes, &nfree, &refused);
	CHECK(nfree == 0 && refused == 1 && bytes == dfcp_ep_slab_bytes(2, 1, 4, 100));
	CHECK(dfcp_slab_rx_arrays(c1, 4, 2) == 0 && dfcp_slab_rx_arrays(c2, 4, 2) == 0);
	CHECK(c1->rx != c2->rx && c1->have_mem != c2->have_mem);
	CHECK(dfcp_slab_rx_arrays(c1, 5, 2) == -ENOMEM);	/* wider than the records */
	CHECK(dfcp_slab_rx_arrays(c1, 4, 3) == -ENOMEM);	/* K above 128 */
	CHECK(dfcp_slab_tx_arrays(c1, 4, 64) == -ENOMEM);	/* receivers' records */
	dfcp_slab_put(s, c1);
	CHECK(dfcp_slab_get(s) == c1);
	dfcp_slab_free(s);
	CHECK(dfcp_slab_create(0, 1, 4, 16) == NULL && dfcp_slab_create(2, 0, 0, 0) == NULL);
}

int
main(void)
{
	test_slab_unit();
	test_no_allocation();
	test_exhaustion();
	return test_report("dfcp-slab");
}
