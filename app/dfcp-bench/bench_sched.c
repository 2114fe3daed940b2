/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-bench sched: one-core enqueue+dequeue rate of lib/sched over N
 * backlogged queues, optionally beside DPDK's librte_sched in the same run.
 *
 * Method (both implementations): prefill every queue with `depth` packets,
 * then loop { dequeue a burst of 32; enqueue each packet again into the
 * queue it came from }. One packet = one dequeue + one enqueue. The rate is
 * dequeued packets per wall-clock second (CLOCK_MONOTONIC).
 *
 * rte_sched mapping: one port (rate 100 Gbit/s so shaping never binds, frame
 * overhead 24), one subport, one pipe per flow (n_pipes_per_subport = next
 * power of two >= N), every packet in the best-effort traffic class (TC 12),
 * BE queue 0 of its pipe, colour green; all pipes share one profile with the
 * port rate for the BE class (the other classes have no queues), WRR
 * weights 1. Packets are mbufs from a mempool with pkt_len set;
 * the scheduler tree path is written once at prefill (rte_sched_port_pkt_write)
 * and survives the dequeue/enqueue cycle.
 */
#define ALLOW_EXPERIMENTAL_API /* rte_sched.h pulls in experimental rte_pie inlines */

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_eal.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_sched.h>

#include "cli.h"

#include "bench.h"
#include "pktsched.h"

#define PROG "dfcp-bench sched"
#define BURST	32

struct opts {
	uint32_t flows;		/* 0 = the standard set */
	uint32_t pkt_size;
	double seconds;
	int peer;		/* 1: rte_sched */
	int json;
	const char *algo;
};

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint32_t
depth_for(uint32_t flows)
{
	uint32_t d = 4096 / flows;

	if (d < 2)
		d = 2;
	if (d > 64)
		d = 64;
	return d;
}

static uint32_t
pow2_ge(uint32_t x)
{
	uint32_t p = 1;

	while (p < x)
		p <<= 1;
	return p;
}

static void
report(const struct opts *o, const char *impl, uint32_t flows, double mpps,
		double secs)
{
	if (o->json)
		printf("{\"impl\":\"%s\",\"flows\":%u,\"pkt_size\":%u,\"mpps\":%.3f,"
		       "\"seconds\":%.3f}\n", impl, flows, o->pkt_size, mpps, secs);
	else
		printf("%-10s flows %6u  pkt %4u B  %8.3f Mpps\n", impl, flows,
		       o->pkt_size, mpps);
	fflush(stdout);
}

static double
run_ours(const struct opts *o, uint32_t flows)
{
	uint32_t depth = depth_for(flows), i, k;
	struct sched_conf c = {
		.algo = o->algo, .nb_queues = flows, .pool_pkts = flows * depth,
	};
	struct sched_pkt out[BURST];
	struct sched *s = sched_create(&c);
	uint64_t pkts = 0, id = 0;
	double t0, t1, tend;

	if (s == NULL) {
		fprintf(stderr, "dfcp-bench: sched_create failed\n");
		return -1;
	}
	for (i = 0; i < flows; i++)
		for (k = 0; k < depth; k++)
			sched_enqueue(s, i, id++, o->pkt_size, 0);
	t0 = now_s();
	tend = t0 + o->seconds;
	do {
		for (k = 0; k < 1024; k++) {
			unsigned int n = sched_dequeue_burst(s, out, BURST, 0), j;

			for (j = 0; j < n; j++)
				sched_enqueue(s, out[j].queue, out[j].pkt, out[j].len, 0);
			pkts += n;
		}
		t1 = now_s();
	} while (t1 < tend);
	sched_free(s);
	return pkts / (t1 - t0) / 1e6;
}

static int eal_ready;

static int
eal_init(void)
{
	char *argv[] = { "dfcp-bench", "--no-huge", "-m", "512", "--no-pci",
		"--no-shconf", "-l", "0", "--log-level=lib.eal:error", NULL };

	if (eal_ready)
		return 0;
	if (rte_eal_init(9, argv) < 0) {
		fprintf(stderr, "dfcp-bench: rte_eal_init failed\n");
		return -1;
	}
	eal_ready = 1;
	return 0;
}

static double
run_rte_sched(const struct opts *o, uint32_t flows)
{
	const uint64_t rate = 12500000000ull;	/* 100 Gbit/s in bytes/s */
	uint32_t depth = depth_for(flows), npkts = flows * depth, i, k;
	struct rte_sched_subport_profile_params spp;
	struct rte_sched_subport_params sub;
	struct rte_sched_pipe_params pp;
	struct rte_sched_port_params port;
	struct rte_sched_port *sp = NULL;
	struct rte_mempool *mp = NULL;
	struct rte_mbuf **all = NULL, *pkts[BURST];
	uint64_t done = 0;
	double t0, t1 = 0, tend, mpps = -1;
	char name[32];
	static unsigned int seq;

	if (eal_init() < 0)
		return -1;
	memset(&spp, 0, sizeof(spp));
	memset(&sub, 0, sizeof(sub));
	memset(&pp, 0, sizeof(pp));
	memset(&port, 0, sizeof(port));
	spp.tb_rate = rate;
	spp.tb_size = 1000000;
	for (i = 0; i < RTE_SCHED_TRAFFIC_CLASSES_PER_PIPE; i++)
		spp.tc_rate[i] = rate;
	spp.tc_period = 10;
	pp.tb_rate = rate;
	pp.tb_size = 1000000;
	pp.tc_rate[RTE_SCHED_TRAFFIC_CLASS_BE] = rate;	/* only TC used */
	pp.tc_period = 40;
	pp.tc_ov_weight = 1;
	for (i = 0; i < RTE_SCHED_BE_QUEUES_PER_PIPE; i++)
		pp.wrr_weights[i] = 1;
	snprintf(name, sizeof(name), "bench_port%u", seq++);
	port.name = name;
	port.socket = 0;
	port.rate = rate;
	port.mtu = 1522;
	port.frame_overhead = RTE_SCHED_FRAME_OVERHEAD_DEFAULT;
	port.n_subports_per_port = 1;
	port.subport_profiles = &spp;
	port.n_subport_profiles = 1;
	port.n_max_subport_profiles = 1;
	port.n_pipes_per_subport = pow2_ge(flows);
	sub.n_pipes_per_subport_enabled = flows;
	sub.qsize[RTE_SCHED_TRAFFIC_CLASS_BE] = (uint16_t)pow2_ge(depth * 2 < 16 ? 16 : depth * 2);
	sub.pipe_profiles = &pp;
	sub.n_pipe_profiles = 1;
	sub.n_max_pipe_profiles = 1;
	sp = rte_sched_port_config(&port);
	if (sp == NULL || rte_sched_subport_config(sp, 0, &sub, 0) != 0) {
		fprintf(stderr, "dfcp-bench: rte_sched port/subport config failed\n");
		goto out;
	}
	for (i = 0; i < flows; i++)
		if (rte_sched_pipe_config(sp, 0, i, 0) != 0) {
			fprintf(stderr, "dfcp-bench: rte_sched_pipe_config %u failed\n", i);
			goto out;
		}
	snprintf(name, sizeof(name), "bench_mp%u", seq);
	mp = rte_pktmbuf_pool_create(name, npkts + 1024, 256, 0,
			RTE_PKTMBUF_HEADROOM + (o->pkt_size > 2048 ? 2048 : o->pkt_size), 0);
	all = calloc(npkts, sizeof(*all));
	if (mp == NULL || all == NULL ||
	    rte_pktmbuf_alloc_bulk(mp, all, npkts) != 0) {
		fprintf(stderr, "dfcp-bench: mbuf pool failed\n");
		goto out;
	}
	for (i = 0; i < flows; i++)
		for (k = 0; k < depth; k++) {
			struct rte_mbuf *m = all[i * depth + k];

			m->pkt_len = o->pkt_size;
			m->data_len = (uint16_t)(o->pkt_size > 2048 ? 2048 : o->pkt_size);
			rte_sched_port_pkt_write(sp, m, 0, i, RTE_SCHED_TRAFFIC_CLASS_BE,
					0, RTE_COLOR_GREEN);
		}
	/* Prefill flow by flow; BURST at a time as the API expects. */
	for (i = 0; i < npkts; i += BURST) {
		uint32_t n = npkts - i < BURST ? npkts - i : BURST;

		if (rte_sched_port_enqueue(sp, &all[i], n) != (int)n) {
			fprintf(stderr, "dfcp-bench: rte_sched prefill dropped packets\n");
			goto out;
		}
	}
	t0 = now_s();
	tend = t0 + o->seconds;
	do {
		for (k = 0; k < 1024; k++) {
			int n = rte_sched_port_dequeue(sp, pkts, BURST);

			if (n > 0)
				rte_sched_port_enqueue(sp, pkts, (uint32_t)n);
			done += (uint64_t)(n > 0 ? n : 0);
		}
		t1 = now_s();
	} while (t1 < tend);
	mpps = done / (t1 - t0) / 1e6;
	/* Drain before freeing the mbufs. */
	for (;;) {
		int n = rte_sched_port_dequeue(sp, pkts, BURST);

		if (n <= 0)
			break;
		rte_pktmbuf_free_bulk(pkts, (unsigned int)n);
	}
out:
	if (sp)
		rte_sched_port_free(sp);
	free(all);
	if (mp)
		rte_mempool_free(mp);
	return mpps;
}

static void
usage(FILE *f)
{
	char algos[128];

	sched_algo_list(algos, sizeof(algos), " or ");
	fprintf(f,
		"usage: dfcp-bench sched [--flows N] [--pkt-size B] [--seconds S]\n"
		"                        [--algo ALGO] [--peer rte_sched] [--json]\n"
		"  N backlogged queues (default: 1, 64, 1024 and 65536 in turn);\n"
		"  B bytes per packet (64); S seconds per measurement (1);\n"
		"  ALGO %s (lib/sched's table).\n", algos);
}

int
bench_sched_main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "flows", required_argument, NULL, 'f' },
		{ "pkt-size", required_argument, NULL, 'b' },
		{ "seconds", required_argument, NULL, 's' },
		{ "peer", required_argument, NULL, 'p' },
		{ "algo", required_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const uint32_t std_flows[] = { 1, 64, 1024, 65536 };
	struct opts o = { .flows = 0, .pkt_size = 64, .seconds = 1.0, .algo = "wf2q+" };
	uint32_t list[4];
	unsigned int nl, i;
	int c, rc = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		switch (c) {
		case 'f':
			o.flows = (uint32_t)cli_uint(PROG, "--flows", optarg, 1, 1u << 20);
			break;
		case 'b':
			o.pkt_size = (uint32_t)cli_uint(PROG, "--pkt-size", optarg, 1, SCHED_LEN_MAX);
			break;
		case 's':
			o.seconds = cli_double(PROG, "--seconds", optarg, 0.001, 1e6);
			break;
		case 'p':
			if (strcmp(optarg, "rte_sched") != 0) {
				fprintf(stderr, PROG ": --peer: unknown peer '%s' (rte_sched)\n", optarg);
				return 2;
			}
			o.peer = 1;
			break;
		case 'a':
			if (sched_algo_check(optarg) != 0) {
				fprintf(stderr, PROG ": --algo: unknown scheduler '%s'\n", optarg);
				return 2;
			}
			o.algo = optarg;
			break;
		case 'j':
			o.json = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return CLI_EXIT_USAGE;
	}
	if (o.flows) {
		list[0] = o.flows;
		nl = 1;
	} else {
		memcpy(list, std_flows, sizeof(list));
		nl = 4;
	}
	for (i = 0; i < nl; i++) {
		double ours = run_ours(&o, list[i]), peer;

		if (ours < 0)
			return 1;
		report(&o, o.algo, list[i], ours, o.seconds);
		if (!o.peer)
			continue;
		peer = run_rte_sched(&o, list[i]);
		if (peer < 0) {
			rc = 1;
			continue;
		}
		report(&o, "rte_sched", list[i], peer, o.seconds);
		if (o.json)
			printf("{\"impl\":\"ratio\",\"flows\":%u,\"ratio\":%.3f,\"mpps\":%.3f}\n",
			       list[i], ours / peer, ours);
		else
			printf("%-10s flows %6u  %s/rte_sched = %.2fx\n", "ratio", list[i],
			       o.algo, ours / peer);
	}
	if (eal_ready)
		rte_eal_cleanup();
	return rc;
}
