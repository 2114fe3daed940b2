/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Scaffolding of the scripted-peer tests (test_conn.c, test_rack.c): the two
 * addresses, 1000-byte segments, and tp_pull, which takes a connection's
 * frames and parses them into tp_out[].
 */
#ifndef TCP_TEST_TPEER_H
#define TCP_TEST_TPEER_H

#include "tcp.h"
#include "tnet.h"

#define MS	1000000ull
#define MSS	1000u
#define TP_BURST	64

static const struct tcp_addr me = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr peer = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

static uint8_t tp_fb[TP_BURST][2048];
static struct tcp_seg out[TP_BURST];

/*
 * Pull up to TP_BURST frames from a connection (or, with c NULL, from the
 * endpoint ep) and parse them into out[].
 */
static inline unsigned int
tp_pull_any(struct tcp_conn *c, struct tcp_ep *ep, uint64_t now)
{
	void *bufs[TP_BURST];
	uint16_t lens[TP_BURST];
	unsigned int k, i;

	for (i = 0; i < TP_BURST; i++)
		bufs[i] = tp_fb[i];
	k = c != NULL ? tcp_conn_tx_burst(c, now, bufs, lens, sizeof(tp_fb[0]), TP_BURST) :
		tcp_ep_tx_burst(ep, now, bufs, lens, sizeof(tp_fb[0]), TP_BURST);
	for (i = 0; i < k; i++)
		REQUIRE(tcp_parse(tp_fb[i], lens[i], 0, &out[i]) == 0);
	return k;
}

static inline unsigned int
tp_pull(struct tcp_conn *c, uint64_t now)
{
	return tp_pull_any(c, NULL, now);
}

static inline unsigned int
tp_pull_ep(struct tcp_ep *ep, uint64_t now)
{
	return tp_pull_any(NULL, ep, now);
}

/* Build s as a frame, parse it back and hand it to c: tcp_conn_rx's result. */
static inline int
tp_deliver(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now)
{
	struct tcp_seg p;
	uint8_t f[2048];
	int n;

	n = tcp_build(f, sizeof(f), s);
	REQUIRE(n > 0 && tcp_parse(f, (size_t)n, 0, &p) == 0);
	return tcp_conn_rx(c, &p, now);
}

#endif /* TCP_TEST_TPEER_H */
