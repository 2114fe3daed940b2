/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp-bench: one-core micro-benchmarks of the engine's libraries. */
#include <stdio.h>
#include <string.h>

#include "bench.h"

static const struct bench_mode modes[] = {
	{ "codec", "RaptorQ encode/decode throughput (optionally against liblcrq)", bench_codec_main },
	{ "sched", "scheduler enqueue+dequeue rate (optionally against rte_sched)", bench_sched_main },
	{ "xor", "RaptorQ replay inner loop: multi-source XOR by stride and stripe", bench_xor_main },
	{ "demux", "transport demultiplexer: hash table vs linear scan over N endpoints", bench_demux_main },
};

static void
usage(FILE *f)
{
	unsigned int i;

	fprintf(f, "usage: dfcp-bench MODE [options]   (dfcp-bench MODE --help)\n"
		"       dfcp-bench --help | --version\nmodes:\n");
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(f, "  %-8s %s\n", modes[i].name, modes[i].summary);
	fprintf(f, "exit codes: 0 ok, 1 the benchmark failed (allocation, EAL, peer), 2 usage error\n");
}

int
main(int argc, char **argv)
{
	unsigned int i;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("dfcp-bench %s\n", DFCP_TOOL_VERSION);
		return 0;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(argv[1], modes[i].name) == 0)
			return modes[i].main(argc - 1, argv + 1);
	fprintf(stderr, "dfcp-bench: unknown mode '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
