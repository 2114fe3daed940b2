/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Recovery from a slow-start overshoot (issue #20): one bulk flow through a
 * 50 Mbit/s bottleneck with a 100-packet drop-tail queue and 50 ms one-way
 * delay (ACKs back unshaped), on the virtual clock. Slow start fills the
 * queue and loses a few hundred segments in one window, the receiver holds
 * hundreds of out-of-order blocks, many retransmissions are lost again. The
 * sender must be out of recovery within a few RTTs and then run at >= 80 % of
 * the link: Reno, NewReno and CUBIC (HyStart off) with Linux's loss recovery
 * (SACK + RACK-TLP + PRR). With HyStart (Linux's default) CUBIC leaves slow
 * start before the queue overflows much: few drops, no RTO.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tnet.h"

#define MS		1000000ull
#define LINK_BPS	50000000ull
#define DELAY_NS	(50 * MS)

static const struct tcp_addr addr_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr addr_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

struct burst {
	struct tcp_conn *rcv;
	struct net_sink_count sink;
};

static void
on_accept(void *ctx, struct tcp_conn *c)
{
	struct burst *b = ctx;

	b->rcv = c;
	tcp_conn_set_sink(c, net_sink_count_write, &b->sink);
}

/* hystart: CUBIC's HyStart on or off (tcp_cubic_hystart) */
static void
burst(const char *cc, int rack, int hystart)
{
	struct tcp_ep_conf ea, eb;
	struct tcp_ep *a, *b;
	struct tcp_conf t;
	struct net_src_pattern src;
	struct tcp_stats st;
	struct tn_link ab, ba;
	struct tnet v;
	struct burst x;
	struct tcp_conn *snd;
	uint64_t t_rec_start = 0, t_rec_end = 0, target = 0, acked0, drops;
	double mbps, rtts;

	memset(&x, 0, sizeof(x));
	net_sink_count_init(&x.sink, 3, 1);
	tcp_conf_default(&t);
	t.cc = cc;
	t.rack = rack;
	tcp_ep_conf_default(&ea);
	ea.local = addr_a;
	tcp_ep_conf_default(&eb);
	eb.local = addr_b;
	eb.listen = 1;
	eb.accept_conf = t;
	eb.on_accept = on_accept;
	eb.accept_ctx = &x;
	a = tcp_ep_create(&ea);
	b = tcp_ep_create(&eb);
	REQUIRE(a != NULL && b != NULL);
	net_src_pattern_init(&src, 3, 0, 0);	/* unlimited */
	t.local = addr_a;
	t.remote = addr_b;
	t.source = net_src_pattern_read;
	t.source_ctx = &src;
	snd = tcp_ep_connect(a, &t, 0);
	REQUIRE(snd != NULL);
	tn_link_default(&ab);
	ab.bw_bps = LINK_BPS;
	ab.delay_ns = DELAY_NS;
	ab.queue_pkts = 100;
	tn_link_default(&ba);
	ba.bw_bps = 10000000000ull;	/* the router's b_to_a = pass */
	ba.delay_ns = 0;
	ba.queue_pkts = 10000;
	tcp_cubic_hystart = (uint32_t)hystart;
	tn_init(&v, a, b, &ab, &ba, 1);
	/* the first recovery: everything outstanding then must get acked */
	while (v.now < 3000 * MS) {
		tn_run(&v, v.now + MS, NULL, NULL);
		tcp_conn_stats(snd, &st);
		if (t_rec_start == 0 && (st.fast_retrans || st.timeouts)) {
			t_rec_start = v.now;
			target = st.bytes_acked + st.flight;
		}
		if (t_rec_start && st.bytes_acked >= target) {
			t_rec_end = v.now;
			break;
		}
	}
	drops = v.pipe_dropped[0];
	CHECKF(t_rec_start != 0, "%s rack=%d: no loss in slow start", cc, rack);
	CHECKF(t_rec_end != 0, "%s rack=%d: stalled: %llu of %llu bytes acked at 3 s, cwnd %u, "
		"flight %u, rto %llu ms, %llu timeouts, %llu retransmissions", cc, rack,
		(unsigned long long)st.bytes_acked, (unsigned long long)target, st.cwnd / st.mss,
		st.flight, (unsigned long long)(st.rto_ns / MS), (unsigned long long)st.timeouts,
		(unsigned long long)st.retrans_pkts);
	if (t_rec_end == 0)
		t_rec_end = v.now;
	rtts = (double)(t_rec_end - t_rec_start) / (double)(2 * DELAY_NS);
	/* after the recovery: 3 s at >= 80 % of the link */
	acked0 = st.bytes_acked;
	tn_run(&v, t_rec_end + 3000 * MS, NULL, NULL);
	tcp_conn_stats(snd, &st);
	mbps = (double)(st.bytes_acked - acked0) * 8 / 3.0 / 1e6;
	printf("%-6s rack=%d hystart=%d: %llu drops in slow start, recovered in %.1f RTTs (%.0f ms), then "
		"%.1f Mbit/s; %llu retransmissions, %llu timeouts, %llu recoveries\n", cc, rack,
		hystart, (unsigned long long)drops, rtts, (double)(t_rec_end - t_rec_start) / 1e6, mbps,
		(unsigned long long)st.retrans_pkts, (unsigned long long)st.timeouts,
		(unsigned long long)st.fast_retrans);
	if (strcmp(cc, "cubic") || !hystart)
		CHECKF(drops >= 100, "%s rack=%d: only %llu drops: no overshoot to recover from",
			cc, rack, (unsigned long long)drops);
	else	/* HyStart leaves slow start before the queue overflows much */
		CHECKF(drops <= 50 && st.timeouts == 0, "cubic with HyStart: %llu drops",
			(unsigned long long)drops);
	CHECKF(rtts <= 8, "%s rack=%d: recovery took %.1f RTTs", cc, rack, rtts);
	CHECKF(mbps >= 0.8 * LINK_BPS / 1e6, "%s rack=%d: %.1f Mbit/s after the recovery", cc,
		rack, mbps);
	CHECK(x.sink.bad_bytes == 0 && x.sink.order_errors == 0);
	tcp_cubic_hystart = 1;
	tn_fini(&v);
	tcp_ep_free(a);
	tcp_ep_free(b);
}

int
main(void)
{
	burst("reno", 1, 1);
	burst("newreno", 1, 1);
	burst("cubic", -1, 0);	/* the overshoot: CUBIC without HyStart */
	burst("cubic", -1, 1);	/* Linux's default */
	return test_report("tcp-burst");
}
