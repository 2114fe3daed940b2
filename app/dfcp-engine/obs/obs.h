/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * obs.h: observability of the engine (doc/observability.md):
 *   latency.c      per-flow block latency and per-pipe queueing delay histograms
 *                  (lib/hist), their summaries for the output writer
 *   capture.c      [capture NAME] sections: pcapng of chosen ports, directions and
 *                  flows through ethdev rx/tx callbacks; rte_pdump (pdump = on)
 *   live.c         the periodic flow view (top-N by goodput + totals) and the
 *                  --timeseries CSV
 *   intervals.c    --intervals-json: a JSON record per period (ports, tasks,
 *                  flows, streams, pace records, console lines)
 *   streams.c      txonly / rxonly streams (flows = N): per-period rows, totals,
 *                  /dfcp/streams
 *   lcore_stats.c  busy/idle cycles per lcore and task (counted in core/lcore.c)
 *   screen.c       [engine] live = screen: the periodic view as a refreshing
 *                  ncurses screen (screen_none.c when built without ncurses)
 * Their state hangs off struct eng_runtime (lat, capture, live, intervals,
 * streams).
 */
#ifndef ENG_OBS_H
#define ENG_OBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/runtime.h"
#include "core/task.h"
#include "hist.h"
#include "obs/out.h"

#define ENG_HIST_SIG_BITS 7	/* <= 0.4 % relative error, 58 KiB per histogram */

struct eng_out;
struct rte_mbuf;

/* ---- latency.c ------------------------------------------------------------ */
/* Set-up (main lcore): the histogram of flow / pipe idx, allocated on socket the
 * first time (NULL: out of memory, latency is then not recorded). One writer:
 * the lcore that owns the flow or pipe. */
struct hist *eng_lat_flow_hist(struct eng_runtime *rt, unsigned int flow, int socket);
struct hist *eng_lat_pipe_hist(struct eng_runtime *rt, unsigned int pipe, int socket);
/* Any thread: summary of a snapshot; -ENOENT when the histogram does not exist. */
int eng_lat_flow_summary(const struct eng_runtime *rt, unsigned int flow, struct hist_summary *s);
int eng_lat_pipe_summary(const struct eng_runtime *rt, unsigned int pipe, struct hist_summary *s);
/* Any thread: merge a snapshot of flow's histogram into dst (same sig bits). */
int eng_lat_flow_merge(const struct eng_runtime *rt, struct hist *dst, unsigned int flow);
/* A summary through the writer: JSON {"count", "min", "mean", "p50", "p90",
 * "p99", "p99.9", "max"}, telemetry KEY_count ... KEY_max, text compact. */
void eng_out_hist(struct eng_out *o, const char *key, const struct hist_summary *s);
/* Compact text: "p50 1.23ms p90 .. p99 .. p99.9 .. max .." ("-" when empty). */
void eng_lat_fmt(char *buf, size_t len, const struct hist_summary *s);
/* "850ns", "12.3us", "1.23ms", "2.50s" */
void eng_ns_fmt(char *buf, size_t len, uint64_t ns);
/* The mbuf dynamic field of the pipe enqueue time: its offset or -errno. */
int eng_lat_ts_register(void);
static inline uint64_t *
eng_lat_ts(struct rte_mbuf *m, int off)
{
	return (uint64_t *)((char *)m + off);
}
/* After the tasks' teardown: free the histograms. */
void eng_lat_free(struct eng_runtime *rt);

/* ---- capture.c ------------------------------------------------------------ */
/* After the tasks' setup: open the files, install the callbacks (0 or -errno). */
int eng_capture_setup(struct eng_runtime *rt);
/* Housekeeping: write what the callbacks queued. */
void eng_capture_poll(struct eng_runtime *rt);
/* Lcores stopped: remove the callbacks, write the rest, close; print a line each. */
void eng_capture_close(struct eng_runtime *rt);
void eng_capture_write(struct eng_runtime *rt, struct eng_out *o); /* "captures": [...] */
void eng_capture_free(struct eng_runtime *rt); /* teardown: forget the captures */
/* Before the run: every capture file can be written (config/outputs.c). */
int eng_capture_outputs_check(const struct eng_config *cfg, char *err, size_t errlen);
extern const struct eng_ctr_table eng_capture_tables[];

/* ---- live.c --------------------------------------------------------------- */
/* Every period: the flow view (print = 1) and a time-series row per flow. */
void eng_live_period(struct eng_runtime *rt, int print);
/* Open cfg->timeseries (0 or -errno); at the end: last partial period, close. */
int eng_timeseries_open(struct eng_runtime *rt);
void eng_timeseries_close(struct eng_runtime *rt);
void eng_live_free(struct eng_runtime *rt);
/* Flow i in the last period (after eng_live_period): its goodput and throughput
 * (Mbit/s) and view; -ENOENT when it shows nothing (not running, no period yet). */
struct eng_flow_view;
int eng_live_row(const struct eng_runtime *rt, unsigned int i, double *goodput, double *thr,
		const struct eng_flow_view **v);

/* ---- intervals.c ---------------------------------------------------------- */
/* --intervals-json: opened with the time series (eng_timeseries_open), a
 * record every period (eng_live_period), the last partial one and close with
 * eng_timeseries_close (0 or -errno). Main lcore only. */
int eng_intervals_open(struct eng_runtime *rt);
void eng_intervals_period(struct eng_runtime *rt, uint64_t now);
void eng_intervals_close(struct eng_runtime *rt);
/* A console line run in this period: listed in its record. */
void eng_intervals_note(struct eng_runtime *rt, const char *line);
extern const struct eng_ctr_table eng_intervals_tables[];

/* ---- streams.c ------------------------------------------------------------ */
#define ENG_STREAM_NAME_LEN 64

/* One stream of a task (ops->stream_view): one of txonly's flows = N, or
 * one (source address, UDP source port) rxonly receives, with verify. */
struct eng_stream_view {
	char name[ENG_STREAM_NAME_LEN];	/* "tx0/3", "rx0/198.18.0.1:1027" */
	uint64_t key;			/* its place in the task's order */
	uint64_t packets, bytes;	/* sent (tx) or received (rx); bytes: no FCS */
	uint64_t lost, reordered;	/* rx: sequence gaps; late or repeated frames */
	uint64_t rate_bps;		/* tx: its own L1 rate (set rate TASK/N); 0: none */
	uint8_t rx, stopped;
};

/* A stream in the last period (eng_streams_period). */
struct eng_stream_row {
	const struct eng_task *t;
	struct eng_stream_view v;	/* at the end of the period */
	uint64_t packets, bytes, lost, reordered; /* in the period */
	double pps, mbps, l1_mbps;	/* L2: frame bytes, no FCS; L1: + 24 B a frame */
	double loss_pct;		/* rx: lost of (received + lost) in the period */
};

#define ENG_STREAM_NCTRS 13
extern const struct eng_ctr eng_stream_ctrs[ENG_STREAM_NCTRS];

/* The period hook (live.c, main lcore): every stream's row of the period
 * ending at now (0: at set-up, the tables only); 0, or -ENOENT when no task
 * has streams. */
int eng_streams_period(struct eng_runtime *rt, uint64_t now);
/* The rows of the last period: tasks in config order, a task's streams by
 * key; their count (0 before the first period). */
unsigned int eng_streams_rows(const struct eng_runtime *rt,
		const struct eng_stream_row *const **rows);
/* A row of the period as an item "stream NAME" (eng_stream_ctrs). */
void eng_streams_row_write(struct eng_out *o, const struct eng_stream_row *r);
/* A task's "streams" array, counters since the start (the summary JSON). */
void eng_streams_write(struct eng_out *o, const struct eng_task *t);
/* /dfcp/streams[,TASK]: every stream of every task (or of TASK). */
int eng_streams_tel(struct eng_runtime *rt, const char *params, struct eng_out *o);
void eng_streams_free(struct eng_runtime *rt);

/* ---- screen.c ------------------------------------------------------------- */
/* Before the run: start the screen when [engine] live asks for it (auto: stdout
 * is a terminal) and ncurses is built in; rte_log goes to a buffer meanwhile. */
void eng_screen_open(struct eng_runtime *rt);
/* Every period: redraw (0), or -ENOTSUP when the screen is not on (print the log). */
int eng_screen_period(struct eng_runtime *rt);
/* After the run (idempotent): restore the terminal, print the buffered log. */
void eng_screen_close(struct eng_runtime *rt);

/* ---- lcore_stats.c -------------------------------------------------------- */
/* "lcores": per lcore its cycles and its tasks' (PERIOD: since the last one). */
void eng_lcore_write(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
int eng_lcore_tel(struct eng_runtime *rt, const char *params, struct eng_out *o);
extern const struct eng_ctr_table eng_lcore_tables[];

#endif /* ENG_OBS_H */
