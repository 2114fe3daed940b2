/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef DFCP_BENCH_H
#define DFCP_BENCH_H

/* One entry per benchmark mode: `dfcp-bench MODE [options]`. */
struct bench_mode {
	const char *name;
	const char *summary;
	int (*main)(int argc, char **argv);	/* argv[0] is the mode name */
};

int bench_codec_main(int argc, char **argv);
int bench_sched_main(int argc, char **argv);
int bench_xor_main(int argc, char **argv);
int bench_demux_main(int argc, char **argv);

#endif /* DFCP_BENCH_H */
