/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-path-bench (not a test): the lib/dfcp data path on one thread, no
 * DPDK. A sender endpoint and a listening receiver endpoint exchange frames
 * through plain buffers (no loss, in order, optional queue depth), encode and
 * decode on, pattern source and verifying sink, as in configs/bench-linerate.ini.
 * Prints the time spent on each side per delivered byte. The two sides run in
 * the noinline functions send_side() and recv_side(), so that
 *   valgrind --tool=callgrind build/test/dfcp/dfcp-path-bench --mb 64
 *   callgrind_annotate --inclusive=yes callgrind.out.* | grep _side
 * gives stable instruction counts per side (divide by the delivered bytes).
 *
 * Usage: dfcp-path-bench [--mb N] [--K K] [--T T] [--redundancy R]
 *                        [--window W] [--burst B] [--loss PPM] [--csum zero|full]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dfcp.h"

#define FRAME	9216
#define QCAP	4096u	/* frames in flight a -> b (a net_ring of 2048 x 2) */

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5001 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6001 };

struct q {
	uint8_t (*f)[FRAME];
	uint16_t *len;
	uint32_t head, n;
};

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t rng = 88172645463325252ull;

static uint32_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % 1000000u);
}

/* Pull up to burst frames from ep into the tail of q. */
static __attribute__((noinline)) unsigned int
send_side(struct dfcp_ep *ep, struct q *q, uint64_t now, unsigned int burst, uint32_t loss)
{
	void *bufs[512];
	uint16_t lens[512];
	unsigned int k, i, n = 0;

	if (q->n + burst > QCAP)
		burst = QCAP - q->n;
	if (burst == 0)
		return 0;
	for (i = 0; i < burst; i++)
		bufs[i] = q->f[(q->head + q->n + i) % QCAP];
	k = dfcp_ep_tx_burst(ep, now, bufs, lens, FRAME, burst);
	for (i = 0; i < k; i++) {
		uint32_t slot = (q->head + q->n) % QCAP;

		if (loss && rnd() < loss)
			continue;
		if (bufs[i] != q->f[slot])
			memcpy(q->f[slot], bufs[i], lens[i]);
		q->len[slot] = lens[i];
		q->n++;
		n++;
	}
	return n;
}

/* Feed up to burst frames of q to ep. */
static __attribute__((noinline)) unsigned int
recv_side(struct dfcp_ep *ep, struct q *q, uint64_t now, unsigned int burst)
{
	unsigned int i;

	for (i = 0; i < burst && q->n; i++) {
		dfcp_ep_rx(ep, q->f[q->head], q->len[q->head], now);
		q->head = (q->head + 1) % QCAP;
		q->n--;
	}
	return i;
}

static void
q_init(struct q *q)
{
	q->f = aligned_alloc(64, (size_t)QCAP * FRAME);
	q->len = calloc(QCAP, sizeof(*q->len));
	q->head = q->n = 0;
	if (q->f == NULL || q->len == NULL) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
}

int
main(int argc, char **argv)
{
	uint64_t mb = 256, t_send = 0, t_recv = 0, t0, t1, now = 1;
	unsigned int K = DFCP_DEFAULT_K, T = DFCP_DEFAULT_T, R = DFCP_DEFAULT_REDUNDANCY;
	unsigned int W = 256, burst = 64;
	uint32_t loss = 0;
	enum dfcp_csum csum = DFCP_CSUM_UDP_ZERO;
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct dfcp_ep_conf ec;
	struct dfcp_conn_conf cc;
	struct dfcp_ep *ea, *eb;
	struct dfcp_conn *a;
	struct dfcp_stats ss;
	struct q ab, ba;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		unsigned long v = strtoul(argv[i + 1], NULL, 0);

		if (!strcmp(argv[i], "--mb"))
			mb = v;
		else if (!strcmp(argv[i], "--K"))
			K = (unsigned int)v;
		else if (!strcmp(argv[i], "--T"))
			T = (unsigned int)v;
		else if (!strcmp(argv[i], "--redundancy"))
			R = (unsigned int)v;
		else if (!strcmp(argv[i], "--window"))
			W = (unsigned int)v;
		else if (!strcmp(argv[i], "--burst"))
			burst = v > 512 ? 512 : (unsigned int)v;
		else if (!strcmp(argv[i], "--loss"))
			loss = (uint32_t)v;
		else if (!strcmp(argv[i], "--csum") && !strcmp(argv[i + 1], "full"))
			csum = DFCP_CSUM_FULL;
		else if (!strcmp(argv[i], "--csum") && !strcmp(argv[i + 1], "zero"))
			csum = DFCP_CSUM_UDP_ZERO;
		else {
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	q_init(&ab);
	q_init(&ba);
	net_src_pattern_init(&src, 7, mb << 20, 0);
	net_sink_count_init(&sink, 7, 1);

	dfcp_ep_conf_default(&ec);
	ec.csum = csum;
	ec.local = A;
	ec.listen = 0;
	ec.max_conns = 2;
	ec.max_half_open = 1;
	ea = dfcp_ep_create(&ec);
	ec.local = B;
	ec.listen = 1;
	ec.max_conns = 4;
	ec.max_half_open = 4;
	ec.accept_conf.csum = csum;
	ec.accept_conf.min_rto_ns = 10000000ull;
	ec.accept_conf.sink = net_sink_count_write;
	ec.accept_conf.sink_ctx = &sink;
	eb = dfcp_ep_create(&ec);
	dfcp_conn_conf_default(&cc);
	cc.remote = B;
	cc.K = (uint16_t)K;
	cc.T = (uint16_t)T;
	cc.redundancy = (uint16_t)R;
	cc.window = W;
	cc.csum = csum;
	cc.min_rto_ns = 10000000ull;
	cc.source = net_src_pattern_read;
	cc.source_ctx = &src;
	if (ea == NULL || eb == NULL || (a = dfcp_ep_connect(ea, &cc, now)) == NULL) {
		fprintf(stderr, "set-up failed\n");
		return 1;
	}
	/* virtual time advances 1 us per iteration: no timer fires spuriously */
	while (dfcp_conn_state(a) != DFCP_CLOSED && dfcp_conn_state(a) != DFCP_TIME_WAIT) {
		t0 = now_ns();
		send_side(ea, &ab, now, burst, loss);
		recv_side(ea, &ba, now, burst);
		t1 = now_ns();
		recv_side(eb, &ab, now, burst);
		send_side(eb, &ba, now, burst, 0);
		t_send += t1 - t0;
		t_recv += now_ns() - t1;
		now += 1000;
		if (now > 3600ull * 1000000000ull) {
			fprintf(stderr, "no progress\n");
			return 1;
		}
	}
	dfcp_conn_stats(a, &ss);
	printf("delivered %llu bytes (%s), bad %llu, order errors %llu, top-ups %llu\n",
			(unsigned long long)sink.bytes,
			sink.bytes == mb << 20 ? "all" : "INCOMPLETE",
			(unsigned long long)sink.bad_bytes, (unsigned long long)sink.order_errors,
			(unsigned long long)ss.topups);
	printf("sender   %.3f ns/byte = %.2f Gbit/s on one core\n",
			(double)t_send / (double)sink.bytes, 8.0 * (double)sink.bytes / (double)t_send);
	printf("receiver %.3f ns/byte = %.2f Gbit/s on one core\n",
			(double)t_recv / (double)sink.bytes, 8.0 * (double)sink.bytes / (double)t_recv);
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
	free(ab.f);
	free(ab.len);
	free(ba.f);
	free(ba.len);
	return sink.bytes == mb << 20 && sink.bad_bytes == 0 && sink.order_errors == 0 ? 0 : 1;
}
