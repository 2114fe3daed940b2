/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-bench xor: the RaptorQ plan replay's inner loop alone — random
 * multi-source XOR operations (rq_xor_idx_at) over `slots` symbols, replayed
 * column stripe by column stripe as rq_plan_run does — to measure how the
 * symbol stride (T vs T rounded to 64 bytes) and the stripe length change the
 * rate at which source bytes are read (doc/raptorq.md).
 *
 *   dfcp-bench xor [--slots N] [--symbol-size T] [--stride B] [--stripe S]
 *                  [--sources M] [--ops N] [--json]
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "rq.h"
#include "rq_bench.h"	/* internal-for-bench: the XOR kernel, symbol memory */

#define PROG "dfcp-bench xor"

static double
cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
usage(FILE *f)
{
	fprintf(f, "usage: dfcp-bench xor [--slots N] [--symbol-size T] [--stride B] [--stripe S]\n"
		"                      [--sources M] [--ops N] [--json]\n"
		"  --slots N        symbols the operations pick from (default 2140: K = 1000)\n"
		"  --symbol-size T  bytes XORed per symbol (default 1420)\n"
		"  --stride B       bytes between two symbols (default T; 0: T rounded up to 64)\n"
		"  --stripe S       column stripe, bytes (default 512)\n"
		"  --sources M      sources per operation (default 8)\n"
		"  --ops N          operations per replay (default 2000)\n"
		"Prints GB/s of source bytes read, best of 7 replays, thread CPU time.\n");
}

int
bench_xor_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "slots", required_argument, NULL, 'n' },
		{ "symbol-size", required_argument, NULL, 't' },
		{ "stride", required_argument, NULL, 'b' },
		{ "stripe", required_argument, NULL, 's' },
		{ "sources", required_argument, NULL, 'm' },
		{ "ops", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long slots = 2140, T = 1420, stride = ~0ul, stripe = 512, m = 8, ops = 2000;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	uint32_t *idx, *dst;
	uint8_t *mem, **tab;
	double best = 1e30;
	int opt, json = 0, rep;
	size_t i, j, o;

	if (rq_isa_init() != 0)		/* RQ_ISA refused: lib/rq said why on stderr */
		return 2;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'n': slots = cli_uint(PROG, "--slots", optarg, 2, 1ul << 24); break;
		case 't': T = cli_uint(PROG, "--symbol-size", optarg, 1, 65535); break;
		case 'b': stride = cli_uint(PROG, "--stride", optarg, 0, 65536); break;
		case 's': stripe = cli_uint(PROG, "--stripe", optarg, 1, 1ul << 20); break;
		case 'm': m = cli_uint(PROG, "--sources", optarg, 1, 64); break;
		case 'o': ops = cli_uint(PROG, "--ops", optarg, 1, 1ul << 24); break;
		case 'j': json = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (stride == ~0ul)
		stride = T;
	else if (stride == 0)
		stride = rq_sym_stride(T);
	if (slots < m + 1 || slots > (1ul << 24) || T == 0 || T > 65535 || stride < T ||
			stride > 65536 || stripe == 0 || m == 0 || m > 64 || ops == 0 ||
			ops > (1ul << 24) || optind < argc) {
		fprintf(stderr, PROG ": --slots must exceed --sources, --stride be at least "
				"--symbol-size; no arguments besides options\n");
		usage(stderr);
		return 2;
	}
	mem = rq_sym_alloc(slots * stride);
	tab = malloc(slots * sizeof(*tab));
	idx = malloc(ops * m * sizeof(*idx));
	dst = malloc(ops * sizeof(*dst));
	if (mem == NULL || tab == NULL || idx == NULL || dst == NULL) {
		fprintf(stderr, "xor: out of memory\n");
		return 1;
	}
	for (i = 0; i < slots * stride; i++)
		mem[i] = (uint8_t)rnd(&seed);
	for (i = 0; i < slots; i++)
		tab[i] = mem + i * stride;
	for (i = 0; i < ops; i++) {	/* sources differ from the destination */
		dst[i] = (uint32_t)(rnd(&seed) % slots);
		for (j = 0; j < m; j++)
			do
				idx[i * m + j] = (uint32_t)(rnd(&seed) % slots);
			while (idx[i * m + j] == dst[i]);
	}
	for (rep = 0; rep < 7; rep++) {
		double t = cpu_s();

		for (o = 0; o < T; o += stripe) {
			size_t len = T - o < stripe ? T - o : stripe;

			for (i = 0; i < ops; i++)
				rq_xor_idx_at(tab[dst[i]] + o, tab, idx + i * m, (unsigned int)m, o, len);
		}
		t = cpu_s() - t;
		if (t < best)
			best = t;
	}
	if (json)
		printf("{\"isa\": \"%s\", \"slots\": %lu, \"t\": %lu, \"stride\": %lu, \"stripe\": %lu, \"sources\": %lu, "
			"\"ops\": %lu, \"gbytes_per_s\": %.2f}\n", rq_isa_name(), slots, T, stride, stripe, m, ops,
			(double)ops * m * T / best / 1e9);
	else
		printf("xor (%s): %lu slots, T %lu, stride %lu, stripe %lu, %lu sources x %lu ops: "
			"%.1f GB/s of source reads\n", rq_isa_name(), slots, T, stride, stripe, m, ops,
			(double)ops * m * T / best / 1e9);
	free(mem);
	free(tab);
	free(idx);
	free(dst);
	return 0;
}
