/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * obs.h: observability of the engine (doc/observability.md):
 *   latency.c     per-flow block latency and per-pipe queueing delay histograms
 *                 (lib/hist), their summaries for stats, JSON and telemetry
 *   capture.c     [capture NAME] sections: pcapng of chosen ports, directions and
 *                 flows through ethdev rx/tx callbacks; rte_pdump (pdump = on)
 *   stats_live.c  the periodic flow view (top-N by goodput + totals) and the
 *                 --timeseries CSV
 *   stats_lcore.c busy/idle cycles per lcore and task (counted in lcore.c)
 */
#ifndef ENG_OBS_H
#define ENG_OBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/runtime.h"
#include "hist.h"

#define ENG_HIST_SIG_BITS 7	/* <= 0.4 % relative error, 58 KiB per histogram */

struct rte_mbuf;
struct rte_tel_data;

/* ---- latency.c ------------------------------------------------------------ */
/* Set-up (main lcore): the histogram of flow / pipe idx, allocated on socket the
 * first time (NULL: out of memory, latency is then not recorded). One writer:
 * the lcore that owns the flow or pipe. */
struct hist *eng_lat_flow_hist(struct eng_runtime *rt, unsigned int flow, int socket);
struct hist *eng_lat_pipe_hist(struct eng_runtime *rt, unsigned int pipe, int socket);
/* Any thread: summary of a snapshot; -ENOENT when the histogram does not exist. */
int eng_lat_flow_summary(unsigned int flow, struct hist_summary *s);
int eng_lat_pipe_summary(unsigned int pipe, struct hist_summary *s);
/* Any thread: merge a snapshot of flow's histogram into dst (same sig bits). */
int eng_lat_flow_merge(struct hist *dst, unsigned int flow);
/* JSON: ", \"block_latency_ns\": {hist_json}" (nothing if no histogram). */
void eng_lat_flow_json(FILE *f, unsigned int flow);
void eng_lat_pipe_json(FILE *f, unsigned int pipe);   /* ", \"queue_delay_ns\": {...}" */
/* Telemetry: PREFIX_count, _min, _p50, _p90, _p99, _p999, _max (ns) into dict d. */
void eng_lat_tel(struct rte_tel_data *d, const char *prefix, const struct hist_summary *s);
void eng_lat_flow_tel(struct rte_tel_data *d, unsigned int flow);
void eng_lat_pipe_tel(struct rte_tel_data *d, unsigned int pipe);
/* Compact text: "p50 1.23ms p90 .. p99 .. p99.9 .. max .." ("-" when empty). */
void eng_lat_fmt(char *buf, size_t len, const struct hist_summary *s);
/* "850ns", "12.3us", "1.23ms", "2.50s" */
void eng_ns_fmt(char *buf, size_t len, uint64_t ns);
/* Enqueue timestamps of packets in the router's pipes (an mbuf dynamic field). */
int eng_lat_ts_register(void);
extern int eng_lat_ts_off;
static inline uint64_t *
eng_lat_ts(struct rte_mbuf *m)
{
	return (uint64_t *)((char *)m + eng_lat_ts_off);
}
/* After the tasks' teardown: free the histograms. */
void eng_lat_free(void);

/* ---- capture.c ------------------------------------------------------------ */
/* After tasks_setup: open the files, install the callbacks (0 or -errno). */
int eng_capture_setup(struct eng_runtime *rt);
/* Housekeeping: write what the callbacks queued. */
void eng_capture_poll(struct eng_runtime *rt);
/* Lcores stopped: remove the callbacks, write the rest, close; print a line each. */
void eng_capture_close(struct eng_runtime *rt);
void eng_capture_json(struct eng_runtime *rt, FILE *f); /* ",\n  \"captures\": [...]" */
void eng_capture_free(void); /* teardown: forget the captures */

/* ---- stats_live.c --------------------------------------------------------- */
/* Every period: the flow view (print = 1) and a time-series row per flow. */
void eng_live_period(struct eng_runtime *rt, int print);
/* Open cfg->timeseries (0 or -errno); at the end: last partial period, close. */
int eng_timeseries_open(struct eng_runtime *rt);
void eng_timeseries_close(struct eng_runtime *rt);

/* ---- lcore.c / stats_lcore.c ---------------------------------------------- */
struct eng_cycles {
	uint64_t busy, idle;		/* TSC cycles in polls that handled > 0 / 0 packets */
	uint64_t busy_polls, idle_polls;
};
/* Any thread: cycles of task index t (cfg->tasks[t]) so far. */
void eng_lcore_task_cycles(unsigned int t, struct eng_cycles *out);
void eng_lcore_stats_period(struct eng_runtime *rt);
void eng_lcore_stats_summary(struct eng_runtime *rt);
void eng_lcore_stats_json(struct eng_runtime *rt, FILE *f); /* ",\n  \"lcores\": [...]" */
int eng_lcore_tel(struct eng_runtime *rt, struct rte_tel_data *d); /* /dfcp/lcores */

#endif /* ENG_OBS_H */
