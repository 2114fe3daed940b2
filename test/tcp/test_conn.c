/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The connection state machine against a scripted peer (frames built with
 * tcp_build): handshake and option negotiation; Tahoe cwnd -> 1 MSS on three
 * duplicate ACKs; Reno halving and leaving recovery on a partial ACK;
 * NewReno staying in recovery across partial ACKs; SACK recovery
 * retransmitting every hole; the RTO with timer tick and backoff; delayed
 * ACK count and timeout; TCPW-C ACK pairs; RST and SYN challenge ACKs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tpeer.h"

static uint32_t peer_seq = 777000;

static int
feed(struct tcp_conn *c, uint64_t now, uint8_t flags, uint32_t seq, uint32_t ack,
		const struct tcp_sack_blk *sk, unsigned int nsk, const void *data, uint32_t len)
{
	struct tcp_seg s;

	tn_seg_init(&s, &peer, &me, seq, ack, flags);
	if (flags & TCP_FL_SYN) {
		s.opts = TCP_O_MSS | TCP_O_WS | TCP_O_SACKOK;
		s.mss = MSS;
		s.wscale = 4;
	}
	if (nsk) {
		s.opts |= TCP_O_SACK;
		s.nsack = (uint8_t)nsk;
		memcpy(s.sack, sk, nsk * sizeof(*sk));
	}
	s.payload = data;
	s.len = len;
	return tp_deliver(c, &s, now);
}

static struct net_src_pattern src;

/* A sender connected to the scripted peer, cwnd 10 segments of 1000 B,
 * no timestamps (exact payload sizes), 10 segments in flight. */
static struct tcp_conn *
sender(const char *cc, uint32_t *iss, uint64_t *now)
{
	struct tcp_conf cf;
	struct tcp_conn *c;
	unsigned int k;

	tcp_conf_default(&cf);
	cf.local = me;
	cf.remote = peer;
	cf.cc = cc;
	cf.mss = MSS;
	cf.timestamps = 0;
	cf.init_cwnd = 10;
	cf.rto_min_ns = 200 * MS;
	net_src_pattern_init(&src, 1, 1000000, 0);
	cf.source = net_src_pattern_read;
	cf.source_ctx = &src;
	c = tcp_conn_connect(&cf, 0);
	CHECK(c != NULL && tcp_conn_state(c) == TCP_SYN_SENT);
	k = tp_pull(c, 0);
	CHECK(k == 1 && out[0].flags == TCP_FL_SYN);
	CHECK(out[0].opts & TCP_O_MSS && out[0].mss == MSS);
	CHECK(out[0].opts & TCP_O_WS && out[0].opts & TCP_O_SACKOK);
	*iss = out[0].seq;
	*now = 10 * MS;
	CHECK(feed(c, *now, TCP_FL_SYN | TCP_FL_ACK, peer_seq, *iss + 1, NULL, 0, NULL, 0) == 0);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	/* the peer's first ACK carries its scaled window (no data out yet) */
	CHECK(feed(c, *now, TCP_FL_ACK, peer_seq + 1, *iss + 1, NULL, 0, NULL, 0) == 0);
	k = tp_pull(c, *now);
	CHECK(k == 10);		/* ACK piggybacked on 10 full segments */
	for (unsigned int i = 0; i < k; i++) {
		CHECK(out[i].seq == *iss + 1 + i * MSS && out[i].len == MSS);
		CHECK(out[i].ack == peer_seq + 1);
	}
	CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS);
	return c;
}

static void
dupacks(struct tcp_conn *c, uint64_t now, uint32_t ack, int n)
{
	for (int i = 0; i < n; i++)
		CHECK(feed(c, now, TCP_FL_ACK, peer_seq + 1, ack, NULL, 0, NULL, 0) == 0);
}

static void
test_tahoe(void)
{
	uint32_t iss;
	uint64_t now;
	struct tcp_conn *c = sender("tahoe", &iss, &now);
	struct tcp_stats st;
	unsigned int k;

	now += 20 * MS;
	dupacks(c, now, iss + 1, 2);
	CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS);
	dupacks(c, now, iss + 1, 1);
	CHECK(tcp_conn_cc(c)->cwnd == MSS);		/* cwnd -> 1 */
	CHECK(tcp_conn_cc(c)->ssthresh == 5 * MSS);	/* FlightSize / 2 */
	k = tp_pull(c, now);
	CHECK(k == 1 && out[0].seq == iss + 1 && out[0].len == MSS);
	/* further dupacks do not re-trigger */
	dupacks(c, now, iss + 1, 5);
	CHECK(tcp_conn_cc(c)->cwnd == MSS);
	/* the retransmission is acked: slow start from 1 */
	CHECK(feed(c, now + 20 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + MSS, NULL, 0, NULL, 0) == 0);
	CHECK(tcp_conn_cc(c)->cwnd == 2 * MSS);
	tcp_conn_stats(c, &st);
	CHECK(st.fast_retrans == 1 && st.retrans_pkts == 1 && st.dupacks_rx == 8);
	tcp_conn_free(c);
}

static void
test_reno(void)
{
	uint32_t iss;
	uint64_t now;
	struct tcp_conn *c = sender("reno", &iss, &now);
	unsigned int k;

	now += 20 * MS;
	dupacks(c, now, iss + 1, 3);
	CHECK(tcp_conn_cc(c)->ssthresh == 5 * MSS);
	CHECK(tcp_conn_cc(c)->cwnd == 8 * MSS);		/* ssthresh + 3 */
	k = tp_pull(c, now);
	CHECK(k >= 1 && out[0].seq == iss + 1);	/* fast retransmit */
	dupacks(c, now, iss + 1, 1);
	CHECK(tcp_conn_cc(c)->cwnd == 9 * MSS);		/* inflation */
	CHECK(tcp_conn_cc(c)->in_recovery);
	/* partial ACK (segment 5 also lost): Reno leaves recovery, halved */
	CHECK(feed(c, now + 20 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + 5 * MSS, NULL, 0,
			NULL, 0) == 0);
	CHECK(!tcp_conn_cc(c)->in_recovery);
	CHECK(tcp_conn_cc(c)->cwnd == 5 * MSS);
	tcp_conn_free(c);
}

static void
test_newreno(void)
{
	uint32_t iss;
	uint64_t now;
	struct tcp_conn *c = sender("newreno", &iss, &now);
	unsigned int k;

	now += 20 * MS;
	dupacks(c, now, iss + 1, 3);
	k = tp_pull(c, now);
	CHECK(k >= 1 && out[0].seq == iss + 1);
	/* partial ACK: stay in recovery, retransmit the next hole at once */
	CHECK(feed(c, now + 20 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + 5 * MSS, NULL, 0,
			NULL, 0) == 0);
	CHECK(tcp_conn_cc(c)->in_recovery);
	k = tp_pull(c, now + 20 * MS);
	CHECK(k >= 1 && out[0].seq == iss + 1 + 5 * MSS && out[0].len == MSS);
	/* a second partial ACK: still in recovery */
	CHECK(feed(c, now + 40 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + 7 * MSS, NULL, 0,
			NULL, 0) == 0);
	CHECK(tcp_conn_cc(c)->in_recovery);
	k = tp_pull(c, now + 40 * MS);
	CHECK(k >= 1 && out[0].seq == iss + 1 + 7 * MSS);
	/* everything up to 'recover' acked: leave with cwnd = ssthresh */
	CHECK(feed(c, now + 60 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + 10 * MSS, NULL, 0,
			NULL, 0) == 0);
	CHECK(!tcp_conn_cc(c)->in_recovery);
	CHECK(tcp_conn_cc(c)->cwnd == 5 * MSS);
	tcp_conn_free(c);
}

static void
test_sack(void)
{
	uint32_t iss;
	uint64_t now;
	struct tcp_conn *c = sender("sack", &iss, &now);
	struct tcp_sack_blk b[2];
	unsigned int k, seen0 = 0, seen5 = 0;

	now += 20 * MS;
	/* segments 0 and 5 lost: SACK 1-4 then 6-9 */
	b[0].start = iss + 1 + MSS;
	b[0].end = iss + 1 + 5 * MSS;
	CHECK(feed(c, now, TCP_FL_ACK, peer_seq + 1, iss + 1, b, 1, NULL, 0) == 0);
	b[0].start = iss + 1 + 6 * MSS;
	b[0].end = iss + 1 + 10 * MSS;
	b[1].start = iss + 1 + MSS;
	b[1].end = iss + 1 + 5 * MSS;
	CHECK(feed(c, now, TCP_FL_ACK, peer_seq + 1, iss + 1, b, 2, NULL, 0) == 0);
	CHECK(feed(c, now, TCP_FL_ACK, peer_seq + 1, iss + 1, b, 2, NULL, 0) == 0);
	CHECK(tcp_conn_cc(c)->in_recovery);
	CHECK(tcp_conn_cc(c)->ssthresh == 5 * MSS);
	k = tp_pull(c, now);
	for (unsigned int i = 0; i < k; i++) {
		seen0 |= out[i].seq == iss + 1;
		seen5 |= out[i].seq == iss + 1 + 5 * MSS;
	}
	CHECK(seen0 && seen5);	/* both holes resent without waiting */
	CHECK(feed(c, now + 20 * MS, TCP_FL_ACK, peer_seq + 1, iss + 1 + 10 * MSS, NULL, 0,
			NULL, 0) == 0);
	CHECK(!tcp_conn_cc(c)->in_recovery);
	tcp_conn_free(c);
}

static void
test_rto(void)
{
	struct tcp_conf cf;
	struct tcp_conn *c;
	struct tcp_stats st;
	uint64_t now = 0, dl, dl2;
	uint32_t iss;
	unsigned int k;

	/* default conf: RTO from the initial 1 s, exact timer */
	c = sender("reno", &iss, &now);
	dl = tcp_conn_next_deadline(c, now);
	CHECK(dl == now + 1000 * MS);
	CHECK(tp_pull(c, dl - 1) == 0);
	k = tp_pull(c, dl);
	CHECK(k == 1 && out[0].seq == iss + 1);
	tcp_conn_stats(c, &st);
	CHECK(st.timeouts == 1 && st.cwnd == MSS && st.ssthresh == 5 * MSS);
	dl2 = tcp_conn_next_deadline(c, dl);
	CHECK(dl2 == dl + 2000 * MS);	/* backoff */
	tcp_conn_free(c);

	/* timer tick 500 ms (seed 003): deadlines on tick multiples, and an
	 * RTO never below one tick above SRTT */
	tcp_conf_default(&cf);
	cf.local = me;
	cf.remote = peer;
	cf.cc = "reno";
	cf.mss = MSS;
	cf.timestamps = 0;
	cf.tick_ns = 500 * MS;
	net_src_pattern_init(&src, 1, 1000000, 0);
	cf.source = net_src_pattern_read;
	cf.source_ctx = &src;
	c = tcp_conn_connect(&cf, 0);
	tp_pull(c, 0);
	iss = out[0].seq;
	now = 30 * MS;
	feed(c, now, TCP_FL_SYN | TCP_FL_ACK, peer_seq, iss + 1, NULL, 0, NULL, 0);
	k = tp_pull(c, now);
	CHECK(k == 10);
	now += 40 * MS;
	feed(c, now, TCP_FL_ACK, peer_seq + 1, iss + 1 + 2 * MSS, NULL, 0, NULL, 0);
	tcp_conn_stats(c, &st);
	CHECK(st.srtt_ns == 40 * MS && st.rto_ns >= 540 * MS);
	dl = tcp_conn_next_deadline(c, now);
	k = tp_pull(c, now);
	dl = tcp_conn_next_deadline(c, now);
	CHECK(dl % (500 * MS) == 0 && dl >= now + 540 * MS);
	tcp_conn_free(c);
}

/* A receiver accepted through an endpoint; returns the endpoint. */
static struct tcp_ep *
receiver(struct tcp_conf *tmpl, struct tcp_conn **cp, uint32_t *iss_out)
{
	struct tcp_ep_conf ec;
	struct tcp_ep *ep;
	struct tcp_seg s;
	uint8_t f[256];
	uint32_t pos = 0;
	unsigned int k;
	int n;

	tcp_ep_conf_default(&ec);
	ec.local = me;
	ec.listen = 1;
	ec.accept_conf = *tmpl;
	ep = tcp_ep_create(&ec);
	REQUIRE(ep != NULL);
	tn_seg_init(&s, &peer, &me, peer_seq, 0, TCP_FL_SYN);
	s.opts = TCP_O_MSS | TCP_O_SACKOK | TCP_O_TS;
	s.mss = MSS;
	s.tsval = 100;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_ep_rx(ep, f, (size_t)n, 0) == 0);
	CHECK(tcp_ep_next_conn(ep, &pos) == NULL);	/* a half-open entry only */
	k = tp_pull_ep(ep, 0);
	CHECK(k == 1);
	CHECK(out[0].flags == (TCP_FL_SYN | TCP_FL_ACK) && out[0].ack == peer_seq + 1);
	CHECK((out[0].opts & (TCP_O_SACKOK | TCP_O_TS | TCP_O_MSS)) ==
		(TCP_O_SACKOK | TCP_O_TS | TCP_O_MSS));
	CHECK(!(out[0].opts & TCP_O_WS));	/* not offered by the peer */
	CHECK(out[0].tsecr == 100);
	*iss_out = out[0].seq;
	/* the final ACK makes the connection */
	tn_seg_init(&s, &peer, &me, peer_seq + 1, *iss_out + 1, TCP_FL_ACK);
	s.opts = TCP_O_TS;
	s.tsval = 100;
	s.tsecr = out[0].tsval;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_ep_rx(ep, f, (size_t)n, 0) == 0);
	pos = 0;
	*cp = tcp_ep_next_conn(ep, &pos);
	REQUIRE(*cp != NULL);
	CHECK(tcp_conn_state(*cp) == TCP_ESTABLISHED);
	return ep;
}

static int
feed_ts(struct tcp_conn *c, uint64_t now, uint8_t flags, uint32_t seq, uint32_t ack,
		uint32_t len)
{
	static uint8_t data[2048];
	struct tcp_seg s;

	tn_seg_init(&s, &peer, &me, seq, ack, flags);
	s.opts = TCP_O_TS;
	s.tsval = (uint32_t)(200 + now / MS);
	s.tsecr = 1;
	s.payload = data;
	s.len = len;
	return tp_deliver(c, &s, now);
}

static void
test_delack_pairs(void)
{
	struct tcp_conf t;
	struct tcp_conn *c;
	struct tcp_ep *ep;
	struct tcp_stats st;
	uint32_t iss, seq = peer_seq + 1, dlen = MSS - 12;
	uint64_t now = 10 * MS;
	unsigned int k;

	tcp_conf_default(&t);
	t.delack_count = 3;
	t.delack_ns = 200 * MS;
	t.pair_acks = 0;
	ep = receiver(&t, &c, &iss);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, 0) == 0);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	/* two full segments: no ACK yet (count 3) */
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	CHECK(tp_pull(c, now) == 0);
	CHECK(tcp_conn_next_deadline(c, now) == now + 200 * MS);
	/* the third: ACK now */
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	k = tp_pull(c, now);
	CHECK(k == 1 && out[0].ack == seq && out[0].rsv == 0);
	/* one segment then the timeout */
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	CHECK(tp_pull(c, now + 199 * MS) == 0);
	k = tp_pull(c, now + 200 * MS);
	CHECK(k == 1 && out[0].ack == seq);
	/* out of order: immediate ACK with a SACK block */
	now += 300 * MS;
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq + dlen, iss + 1, dlen) == 0);
	k = tp_pull(c, now);
	CHECK(k == 1 && out[0].ack == seq && out[0].nsack == 1);
	CHECK(out[0].sack[0].start == seq + dlen && out[0].sack[0].end == seq + 2 * dlen);
	/* hole filled: immediate ACK of both */
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	k = tp_pull(c, now);
	CHECK(k == 1 && out[0].ack == seq + 2 * dlen && out[0].nsack == 0);
	tcp_conn_stats(c, &st);
	CHECK(st.bytes_delivered == 6u * dlen);
	tcp_ep_free(ep);

	/* TCPW-C receiver: every two full segments, two back-to-back ACKs,
	 * the second marked in the reserved bits */
	tcp_conf_default(&t);
	t.cc = "tcpw-c";
	seq = peer_seq + 1;
	ep = receiver(&t, &c, &iss);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, 0) == 0);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	CHECK(tp_pull(c, now) == 0);
	CHECK(feed_ts(c, now + 1600000, TCP_FL_ACK, seq, iss + 1, dlen) == 0);
	seq += dlen;
	k = tp_pull(c, now + 1600000);
	CHECK(k == 2);
	CHECK(out[0].ack == seq && out[1].ack == seq);
	CHECK(out[0].rsv == 0 && out[1].rsv == TCP_RSV_PAIR);
	/* each ACK carries its data segment's arrival time (TS clock, us):
	 * the dispersion of the data pair */
	CHECK(out[1].tsval - out[0].tsval == 1600);
	tcp_conn_stats(c, &st);
	CHECK(st.pair_acks_tx == 1);
	tcp_ep_free(ep);
}

/*
 * The receiver keeps every out-of-order segment its buffer holds (as Linux):
 * 300 separate blocks (every other segment of 600 lost, then the holes
 * filled from the top down) are all delivered once the first hole fills, and
 * every ACK meanwhile reports the block of the latest arrival first. Before
 * issue #20 the receiver forgot blocks beyond 32 (it reneged on SACKed data).
 */
static void
test_ooo_capacity(void)
{
	const uint32_t dlen = MSS - 12, nseg = 600;
	struct tcp_conf t;
	struct tcp_conn *c;
	struct tcp_ep *ep;
	struct tcp_stats st;
	uint32_t iss, seq0 = peer_seq + 1;
	uint64_t now = 10 * MS;
	unsigned int bad = 0;

	tcp_conf_default(&t);
	ep = receiver(&t, &c, &iss);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq0, iss + 1, 0) == 0);
	for (uint32_t i = 1; i < nseg; i += 2) {
		CHECK(feed_ts(c, now, TCP_FL_ACK, seq0 + i * dlen, iss + 1, dlen) == 0);
		if (tp_pull(c, now) != 1 || out[0].ack != seq0 || out[0].nsack == 0 ||
				out[0].sack[0].start != seq0 + i * dlen)
			bad++;
	}
	for (uint32_t i = nseg - 2; i >= 2 && i < nseg; i -= 2) {
		CHECK(feed_ts(c, now, TCP_FL_ACK, seq0 + i * dlen, iss + 1, dlen) == 0);
		if (tp_pull(c, now) != 1 || out[0].ack != seq0)
			bad++;
	}
	CHECK(bad == 0);
	tcp_conn_stats(c, &st);
	CHECK(st.bytes_delivered == 0);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq0, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].ack == seq0 + nseg * dlen && out[0].nsack == 0);
	tcp_conn_stats(c, &st);
	CHECK(st.bytes_delivered == (uint64_t)nseg * dlen);
	tcp_ep_free(ep);
}

/*
 * D-SACK (RFC 2883), as Linux's receiver sends it: a segment that arrives
 * again is reported once in the first SACK block of the next ACK - below the
 * cumulative ACK for old data, inside the next block for a repeated
 * out-of-order segment, the overlap for a partial duplicate.
 */
static void
test_dsack(void)
{
	const uint32_t dlen = MSS - 12;
	struct tcp_conf t;
	struct tcp_conn *c;
	struct tcp_ep *ep;
	struct tcp_stats st;
	uint32_t iss, s0 = peer_seq + 1;
	uint64_t now = 10 * MS;

	tcp_conf_default(&t);
	t.delack_count = 1;
	ep = receiver(&t, &c, &iss);
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0, iss + 1, 0) == 0);
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].nsack == 0);
	/* the same segment again: D-SACK below the ACK */
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].ack == s0 + dlen && out[0].nsack == 1);
	CHECK(out[0].sack[0].start == s0 && out[0].sack[0].end == s0 + dlen);
	/* segment 2 (1 missing), then 2 again: D-SACK, then its block */
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0 + 2 * dlen, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].nsack == 1 &&
		out[0].sack[0].start == s0 + 2 * dlen);
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0 + 2 * dlen, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].nsack == 2);
	CHECK(out[0].sack[0].start == s0 + 2 * dlen && out[0].sack[0].end == s0 + 3 * dlen);
	CHECK(out[0].sack[1].start == s0 + 2 * dlen && out[0].sack[1].end == s0 + 3 * dlen);
	/* reported once: the hole filled by a segment overlapping the first
	 * one (its first half): the overlap is reported, the fill acked */
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0 + dlen / 2, iss + 1, dlen + dlen / 2) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].ack == s0 + 3 * dlen && out[0].nsack == 1);
	CHECK(out[0].sack[0].start == s0 + dlen / 2 && out[0].sack[0].end == s0 + dlen);
	CHECK(feed_ts(c, now, TCP_FL_ACK, s0 + 3 * dlen, iss + 1, dlen) == 0);
	CHECK(tp_pull(c, now) == 1 && out[0].nsack == 0);
	tcp_conn_stats(c, &st);
	CHECK(st.dsack_tx == 3 && st.bytes_delivered == 4u * dlen);
	tcp_ep_free(ep);
}

static void
test_rst_syn(void)
{
	struct tcp_conf t;
	struct tcp_conn *c;
	struct tcp_ep *ep;
	struct tcp_stats st;
	uint32_t iss, seq = peer_seq + 1;
	uint64_t now = 10 * MS;
	unsigned int k;

	tcp_conf_default(&t);
	ep = receiver(&t, &c, &iss);
	CHECK(feed_ts(c, now, TCP_FL_ACK, seq, iss + 1, 0) == 0);
	/* in-window RST not at rcv_nxt: challenge ACK, no reset */
	CHECK(feed_ts(c, now, TCP_FL_RST, seq + 100, 0, 0) == -TCP_E_RST);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	k = tp_pull(c, now);
	CHECK(k == 1 && out[0].flags == TCP_FL_ACK && out[0].ack == seq);
	/* RST storm: thousands, in and out of the window; challenges limited */
	for (uint32_t i = 1; i <= 20000; i++)
		CHECK(feed_ts(c, now, TCP_FL_RST | (i & 1 ? TCP_FL_ACK : 0),
				seq + i * 7919u, 0, 0) == -TCP_E_RST);
	tp_pull(c, now);
	tcp_conn_stats(c, &st);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	CHECK(st.rst_rx == 20001 && st.challenge_acks <= 100);
	/* SYN on an established connection: challenge ACK */
	CHECK(feed_ts(c, now + 2000 * MS, TCP_FL_SYN, seq, 0, 0) == -TCP_E_SYN);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	k = tp_pull(c, now + 2000 * MS);
	CHECK(k == 1 && out[0].flags == TCP_FL_ACK);
	/* ACK of data never sent: dropped, answered */
	CHECK(feed_ts(c, now + 2000 * MS, TCP_FL_ACK, seq, iss + 100000, 0) == -TCP_E_ACK);
	/* data far right of the window: dropped */
	CHECK(feed_ts(c, now + 2000 * MS, TCP_FL_ACK, seq + (1u << 30), iss + 1, 100) ==
		-TCP_E_WINDOW);
	/* the exact RST resets */
	CHECK(feed_ts(c, now + 2000 * MS, TCP_FL_RST, seq, 0, 0) == 0);
	CHECK(tcp_conn_state(c) == TCP_CLOSED && tcp_conn_close_reason(c) == TCP_CR_RESET);
	CHECK(tcp_ep_reap(ep) == 1);
	tcp_ep_free(ep);
}

static void
test_syn_retries(void)
{
	struct tcp_conf cf;
	struct tcp_conn *c;
	uint64_t now = 0;
	unsigned int syns = 0;

	tcp_conf_default(&cf);
	cf.local = me;
	cf.remote = peer;
	cf.syn_retries = 3;
	c = tcp_conn_connect(&cf, 0);
	while (tcp_conn_state(c) != TCP_CLOSED && now < 100000 * MS) {
		syns += tp_pull(c, now);
		now = tcp_conn_next_deadline(c, now);
	}
	CHECK(syns == 4 && tcp_conn_close_reason(c) == TCP_CR_SYN_TIMEOUT);
	tcp_conn_free(c);
}

int
main(void)
{
	test_tahoe();
	test_reno();
	test_newreno();
	test_sack();
	test_rto();
	test_delack_pairs();
	test_ooo_capacity();
	test_dsack();
	test_rst_syn();
	test_syn_retries();
	return test_report("tcp-conn");
}
