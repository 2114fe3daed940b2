/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sender's loss estimate (the one `redundancy = auto` sizes rounds
 * from) against the loss a drop-tail bottleneck really inflicts, on a
 * virtual clock (simnet.h, lib/pipe): one flow through a 1 Gbit/s drop-tail
 * bottleneck (queue 100, 10 ms each way) that drops ~5 % of what it sends,
 * either steadily (paced 5 % above the bottleneck) or in bursts (1.8 Gbit/s
 * for 10 ms, then 0.6 Gbit/s for 190 ms: what the engine's bottleneck does
 * when its router lcore is descheduled and the backlog arrives at once).
 * At the end of the transfer the sender's loss_est (dfcp_conn_stats) must
 * be within 1 point of the bottleneck's drop share, and so must the
 * receiver's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "simnet.h"

#define MS		1000000ull
#define SEC		1000000000ull

static void
test_droptail_5pct(uint16_t redundancy, int bursty)
{
	struct dfcp_conn_conf cc;
	struct dfcp_stats ss, rs;
	struct pipe_stats ps;
	struct simnet n;
	struct dfcp_conn *rc;
	uint32_t hops[1], w[1] = { 1 }, back, pos = 0;
	double drop, snd, rcv;

	sn_init(&n, 64, 1420, 100 * MS);
	hops[0] = sn_pipe(&n, 1000000000ull, 10 * MS, 100, 0, 1);
	back = sn_pipe(&n, 0, 10 * MS, 0, 0, 2);
	dfcp_conn_conf_default(&cc);
	cc.T = 64;
	cc.K = DFCP_DEFAULT_K;
	cc.window = 128;
	cc.redundancy = redundancy;
	cc.csum = DFCP_CSUM_UDP_ZERO;
	cc.min_rto_ns = 10 * MS;
	sn_path(&n, 0, hops, 1, w, back);
	sn_flow(&n, 0, &cc, 0, 1050000000ull, 0);
	n.f[0].src.duration_ns = 1 * SEC;
	for (uint64_t t = 0; bursty && t < 1200 * MS; t += 200 * MS) {
		n.f[0].rate_bps = 1800000000ull;
		sn_run(&n, t + 10 * MS);
		n.f[0].rate_bps = 600000000ull;
		sn_run(&n, t + 200 * MS);
	}
	sn_run(&n, 10 * SEC);
	pipe_stats_get(n.pipe[hops[0]], &ps);
	dfcp_conn_stats(n.f[0].conn, &ss);
	rc = dfcp_ep_next_conn(n.f[0].rep, &pos);
	REQUIRE(rc != NULL);
	dfcp_conn_stats(rc, &rs);
	drop = 100.0 * (double)ps.drop_pkts / (double)ps.in_pkts;
	snd = ss.loss_ppm / 1e4;
	rcv = rs.loss_ppm / 1e4;
	printf("%s, redundancy %u: bottleneck drops %.2f %% (%llu of %llu), sender loss_est "
		"%.2f %%, receiver loss_est %.2f %%, sink %llu bytes\n", bursty ? "bursty" : "steady", redundancy, drop,
		(unsigned long long)ps.drop_pkts, (unsigned long long)ps.in_pkts, snd, rcv,
		(unsigned long long)n.f[0].sink.bytes);
	CHECK(n.f[0].sink.bytes > 0 && n.f[0].sink.bad_bytes == 0);
	CHECKF(drop > 3 && drop < 7, "drop %.2f %%", drop);
	CHECKF(rcv > drop - 1 && rcv < drop + 1, "receiver %.2f %%, drop %.2f %%", rcv, drop);
	CHECKF(snd > drop - 1 && snd < drop + 1, "sender %.2f %%, drop %.2f %%", snd, drop);
	sn_fini(&n);
}

int
main(void)
{
	test_droptail_5pct(DFCP_REDUNDANCY_AUTO, 0);
	test_droptail_5pct(49, 0);
	test_droptail_5pct(DFCP_REDUNDANCY_AUTO, 1);
	test_droptail_5pct(49, 1);
	return test_report("dfcp-lossest");
}
