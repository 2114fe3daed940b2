/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-bench demux: the transport demultiplexer's lookup (the engine's
 * kinds/xport/xport_demux.c, one hash table of a port's endpoints) against
 * the linear scan it replaced, for N endpoints (64 ports per address) and
 * random lookups of existing endpoints: ns per lookup, best of 5, thread
 * CPU time (doc/architecture.md, "Demultiplexing and dispatch").
 *
 *   dfcp-bench demux [--flows N] [--lookups N]
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "kinds/xport/xport_demux.h"

#define PROG "dfcp-bench demux"

static volatile uintptr_t bench_demux_sink;

struct bep {
	uint32_t ip;
	uint16_t port;
};

static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* the old xport_ep_find: first endpoint of ip whose port matches or is 0 */
static const struct bep *
scan(const struct bep *e, unsigned long n, uint32_t ip, uint16_t port)
{
	for (unsigned long i = 0; i < n; i++)
		if (e[i].ip == ip && (e[i].port == port || e[i].port == 0))
			return &e[i];
	return NULL;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: dfcp-bench demux [--flows N] [--lookups N]\n"
		"  --flows N    endpoints in the table (default 4096)\n"
		"  --lookups N  random lookups per round (default 1000000; the scan: / 16 at N > 256)\n"
		"Prints ns per lookup of the hash table and of the linear scan, best of 5 rounds.\n");
}

static double
round_ns(const struct eng_demux *d, const struct bep *e, unsigned long n, const uint32_t *q,
		unsigned long nq, int hash, uintptr_t *sink)
{
	double best = 1e30;

	for (int r = 0; r < 5; r++) {
		double t = cpu_s();

		for (unsigned long i = 0; i < nq; i++)
			*sink += hash ? (uintptr_t)eng_demux_find(d, e[q[i]].ip, e[q[i]].port) :
				(uintptr_t)scan(e, n, e[q[i]].ip, e[q[i]].port);
		t = cpu_s() - t;
		if (t < best)
			best = t;
	}
	return best / (double)nq * 1e9;
}

int
bench_demux_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "flows", required_argument, NULL, 'f' },
		{ "lookups", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = 4096, nq = 1000000, i;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	struct eng_demux *d;
	uintptr_t sink = 0;
	struct bep *e;
	uint32_t *q;
	double th, ts;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'f': n = cli_uint(PROG, "--flows", optarg, 1, 1ul << 20); break;
		case 'l': nq = cli_uint(PROG, "--lookups", optarg, 16, 1ul << 28); break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": '%s': no arguments besides options\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	e = calloc(n, sizeof(*e));
	q = malloc(nq * sizeof(*q));
	d = eng_demux_create((unsigned int)n);
	if (e == NULL || q == NULL || d == NULL) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		e[i].ip = 0x0a000001u + (uint32_t)(i / 64);
		e[i].port = (uint16_t)(5000 + i % 64);
		if (eng_demux_add(d, e[i].ip, e[i].port, &e[i], NULL) != 0) {
			fprintf(stderr, PROG ": cannot add endpoint %lu\n", i);
			return 1;
		}
	}
	for (i = 0; i < nq; i++) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		q[i] = (uint32_t)(s % n);
	}
	th = round_ns(d, e, n, q, nq, 1, &sink);
	ts = round_ns(d, e, n, q, n > 256 ? nq / 16 : nq, 0, &sink);
	bench_demux_sink = sink;	/* the lookups' results are used */
	printf("demux: %lu endpoints: hash %.1f ns/lookup (longest probe %u), scan %.1f ns/lookup, "
		"%.0fx\n", n, th, eng_demux_max_probe(d), ts, ts / th);
	eng_demux_free(d);
	free(e);
	free(q);
	return 0;
}
