/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A sender connection against a scripted peer (test_rack.c, test_undo.c):
 * iw segments of 1000 B out at t = 10 ms, SACK negotiated, timestamps when
 * ts_peer is set; pull() counts each segment index's transmissions
 * (sent_n) and remembers the TSval of its first one; ack() / ack_opt()
 * send the peer's ACKs with a SACK block, a D-SACK block, a TS echo.
 */
#ifndef TCP_TEST_TSENDER_H
#define TCP_TEST_TSENDER_H

#include <string.h>

#include "tcp.h"
#include "tpeer.h"

static const uint32_t peer_seq = 555000;
static uint32_t iss;
static struct net_src_pattern src;
static int ts_peer;		/* negotiate timestamps */

/* the peer's transmissions of each segment index seen by pull() */
#define NSEG	128
static unsigned int sent_n[NSEG];
static uint32_t tsv_first[NSEG];	/* TSval of the first transmission */
static uint32_t hi;	/* segments below this index were sent */

static inline unsigned int
pull(struct tcp_conn *c, uint64_t now)
{
	unsigned int k = tp_pull(c, now);

	for (unsigned int i = 0; i < k; i++) {
		uint32_t idx;

		idx = (out[i].seq - iss - 1) / MSS;
		if (out[i].len && idx < NSEG) {
			if (sent_n[idx]++ == 0)
				tsv_first[idx] = out[i].tsval;
		}
		if (out[i].len && idx + 1 > hi)
			hi = idx + 1;
	}
	return k;
}

static inline uint32_t
seg(uint32_t i)
{
	return iss + 1 + i * MSS;
}

/* ACK a from the peer: SACK block [seg(s0), seg(s1)) when s1 > s0, a
 * D-SACK [seg(d0), seg(d1)) first when d1 > d0, TSecr tsecr (with ts_peer;
 * 0: the first TSval of the segment before a). */
static inline void
ack_opt(struct tcp_conn *c, uint64_t now, uint32_t a, uint32_t s0, uint32_t s1,
		uint32_t d0, uint32_t d1, uint32_t tsecr)
{
	struct tcp_seg s;

	tn_seg_init(&s, &peer, &me, peer_seq + 1, a, TCP_FL_ACK);
	if (d1 > d0) {
		s.opts = TCP_O_SACK;
		s.sack[s.nsack].start = seg(d0);
		s.sack[s.nsack++].end = seg(d1);
	}
	if (s1 > s0) {
		s.opts = TCP_O_SACK;
		s.sack[s.nsack].start = seg(s0);
		s.sack[s.nsack++].end = seg(s1);
	}
	if (ts_peer) {
		uint32_t k = (a - iss - 1) / MSS;

		s.opts |= TCP_O_TS;
		s.tsval = (uint32_t)(now / 1000);
		s.tsecr = tsecr ? tsecr : k > 0 && k <= NSEG ? tsv_first[k - 1] : 1;
	}
	CHECK(tp_deliver(c, &s, now) == 0);
}

static inline void
ack(struct tcp_conn *c, uint64_t now, uint32_t a, uint32_t s0, uint32_t s1)
{
	ack_opt(c, now, a, s0, s1, 0, 0, 0);
}

/*
 * A sender with iw segments of 1000 B out at t = 10 ms (without timestamps
 * the first segment is timed, Karn), SACK negotiated; total bytes of source
 * data, no FIN.
 */
static inline struct tcp_conn *
sender_iw(const char *cc, int rack, int lt, uint64_t total, uint32_t iw)
{
	struct tcp_conf cf;
	struct tcp_conn *c;
	struct tcp_seg s;
	unsigned int k = 0;

	memset(sent_n, 0, sizeof(sent_n));
	hi = 0;
	tcp_conf_default(&cf);
	cf.local = me;
	cf.remote = peer;
	cf.cc = cc;
	cf.mss = ts_peer ? MSS + 12 : MSS;	/* 1000-byte segments either way */
	cf.timestamps = ts_peer;
	cf.init_cwnd = iw;
	cf.rack = rack;
	cf.limited_transmit = lt;
	cf.close_on_eof = 0;
	net_src_pattern_init(&src, 1, total, 0);
	cf.source = net_src_pattern_read;
	cf.source_ctx = &src;
	c = tcp_conn_connect(&cf, 0);
	REQUIRE(c != NULL);
	REQUIRE(pull(c, 0) == 1);
	iss = out[0].seq;
	tn_seg_init(&s, &peer, &me, peer_seq, iss + 1, TCP_FL_SYN | TCP_FL_ACK);
	s.opts = TCP_O_MSS | TCP_O_WS | TCP_O_SACKOK;
	s.mss = ts_peer ? MSS + 12 : MSS;
	s.wscale = 4;
	if (ts_peer) {
		s.opts |= TCP_O_TS;
		s.tsval = 5;
		s.tsecr = out[0].tsval;
	}
	CHECK(tp_deliver(c, &s, 10 * MS) == 0);
	ack(c, 10 * MS, iss + 1, 0, 0);	/* the scaled window */
	memset(sent_n, 0, sizeof(sent_n));
	while (k < iw) {
		unsigned int got = pull(c, 10 * MS);

		REQUIRE(got > 0);
		k += got;
	}
	CHECK(k == iw);
	for (unsigned int i = 0; i < iw && i < NSEG; i++)
		CHECK(sent_n[i] == 1);
	return c;
}

static inline struct tcp_conn *
sender(const char *cc, int rack, int lt, uint64_t total)
{
	return sender_iw(cc, rack, lt, total, 10);
}

#endif /* TCP_TEST_TSENDER_H */
