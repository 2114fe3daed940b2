/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pace-gaps (not a test): how long a busy-polling thread is descheduled.
 * Pins itself to one CPU, reads CLOCK_MONOTONIC in a tight loop for the
 * given time and counts every gap between two consecutive reads that is
 * longer than 1 us (the thread was preempted, interrupted or the vCPU was
 * not running). Prints a histogram of the gaps, their share of the wall
 * time, and percentiles of the gap lengths and of the runs between them.
 * Run it beside a CPU hog pinned to the same CPU to see the stalls a paced
 * lcore sees (scripts/bench-pacing.sh --gaps; doc/performance.md).
 *
 * Usage: pace-gaps [--cpu N] [--seconds S] [--min-us U]
 */
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static const uint64_t edges_us[] = { 1, 10, 100, 1000, 2000, 5000, 10000, 20000, 50000,
	100000 };
#define NB_EDGES (sizeof(edges_us) / sizeof(edges_us[0]))

static void
usage(void)
{
	fprintf(stderr, "usage: pace-gaps [--cpu N] [--seconds S] [--min-us U]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	uint64_t count[NB_EDGES] = { 0 }, sum[NB_EDGES] = { 0 };
	struct hist *gaps = hist_create(HIST_DEFAULT_SIG_BITS);
	struct hist *runs = hist_create(HIST_DEFAULT_SIG_BITS);
	struct hist_summary g, r;
	double seconds = 3;
	uint64_t min_ns = 1000, t0, t, prev, end, run_start, total = 0;
	int cpu = -1, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--cpu") == 0 && i + 1 < argc)
			cpu = atoi(argv[++i]);
		else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (strcmp(argv[i], "--min-us") == 0 && i + 1 < argc)
			min_ns = (uint64_t)(atof(argv[++i]) * 1000);
		else
			usage();
	}
	if (gaps == NULL || runs == NULL || !(seconds > 0) || min_ns == 0)
		usage();
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) != 0) {
			fprintf(stderr, "pace-gaps: cpu %d: %s\n", cpu, strerror(errno));
			return 1;
		}
	}
	t0 = prev = run_start = now_ns();
	end = t0 + (uint64_t)(seconds * 1e9);
	do {
		uint64_t d;

		t = now_ns();
		d = t - prev;
		if (d >= min_ns) {
			unsigned int k = 0;

			while (k + 1 < NB_EDGES && d >= edges_us[k + 1] * 1000)
				k++;
			count[k]++;
			sum[k] += d;
			total += d;
			hist_record(gaps, d);
			hist_record(runs, prev - run_start);
			run_start = t;
		}
		prev = t;
	} while (t < end);
	hist_summarize(gaps, &g);
	hist_summarize(runs, &r);
	printf("pace-gaps: cpu %d, %.2f s, gaps >= %.1f us: %" PRIu64 ", %.2f %% of the time\n",
	       cpu, (t - t0) * 1e-9, min_ns / 1e3, g.count, 100.0 * total / (double)(t - t0));
	printf("%-18s %10s %12s %10s\n", "gap", "count", "time (ms)", "% of run");
	for (i = 0; i < (int)NB_EDGES; i++) {
		char lab[32];

		if (i + 1 < (int)NB_EDGES)
			snprintf(lab, sizeof(lab), "%g-%g ms", edges_us[i] / 1e3, edges_us[i + 1] / 1e3);
		else
			snprintf(lab, sizeof(lab), ">= %g ms", edges_us[i] / 1e3);
		printf("%-18s %10" PRIu64 " %12.3f %10.2f\n", lab, count[i], sum[i] / 1e6,
		       100.0 * sum[i] / (double)(t - t0));
	}
	printf("gap length (us): p50 %.1f p90 %.1f p99 %.1f p99.9 %.1f max %.1f\n", g.p50 / 1e3,
	       g.p90 / 1e3, g.p99 / 1e3, g.p999 / 1e3, g.max / 1e3);
	printf("run between gaps (us): p50 %.1f p90 %.1f p99 %.1f max %.1f\n", r.p50 / 1e3,
	       r.p90 / 1e3, r.p99 / 1e3, r.max / 1e3);
	hist_free(gaps);
	hist_free(runs);
	return 0;
}
