/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The periodic flow view and the time series.
 *
 * Every stats period: per flow (DFCP and TCP: ops->flow_view of its kind,
 * from the snapshots its task publishes) the goodput and throughput of the
 * period, then
 *   - the view: a totals line per group of flows ("senders", "receivers",
 *     "tcp senders" ...: flows, goodput, throughput, the kind's counters, the
 *     senders' merged histograms), then one line per flow: every flow when
 *     there are at most [engine] stats_top of them (config order), else the
 *     stats_top flows with the highest goodput in the period (highest first);
 *   - the time series (--timeseries FILE): one CSV row per flow,
 *     time_s,flow,goodput_mbps,throughput_mbps,window,redundancy,loss
 *     (the format of doc/observability.md, read by tools/plot);
 *   - the streams of txonly / rxonly tasks (streams.c): in the view a totals
 *     line per task, then its streams when there are at most stats_top of
 *     them; in the time series a row per stream (role sender / receiver,
 *     goodput L2, throughput L1, loss the period's lost share);
 *   - the intervals JSON record of the period (--intervals-json, intervals.c),
 *     also for runs without flows: this is the one period hook.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/log.h"
#include "obs/obs.h"

struct live_row {
	unsigned int idx;
	int valid;
	int ts_written;			/* --timeseries has a row of it */
	double goodput, thr;		/* Mbit/s in the period */
	struct eng_flow_view v;
};

/* The view's state, in eng_runtime.live (main thread only). */
struct eng_live_rt {
	struct {
		uint64_t tsc;
		uint64_t bytes, goodput;
	} *prev;			/* per flow, at the previous period */
	struct live_row *rows;
	unsigned int n;
	FILE *ts_file;
	uint64_t ts_last_tsc;
};

static struct eng_live_rt *
live_rt(struct eng_runtime *rt)
{
	if (rt->live == NULL)
		rt->live = calloc(1, sizeof(*rt->live));
	return rt->live;
}

static int
live_alloc(struct eng_runtime *rt)
{
	struct eng_live_rt *l = live_rt(rt);
	unsigned int n = rt->cfg->nb_flows;

	if (l == NULL)
		return -ENOMEM;
	if (l->rows != NULL)
		return 0;
	l->prev = calloc(n + 1, sizeof(*l->prev));
	l->rows = calloc(n + 1, sizeof(*l->rows));
	if (l->prev == NULL || l->rows == NULL) {
		free(l->prev);
		free(l->rows);
		l->prev = NULL;
		l->rows = NULL;
		return -ENOMEM;
	}
	l->n = n;
	return 0;
}

void
eng_live_free(struct eng_runtime *rt)
{
	if (rt->live == NULL) {
		eng_streams_free(rt);
		return;
	}
	if (rt->live->ts_file != NULL)
		fclose(rt->live->ts_file);
	free(rt->live->prev);
	free(rt->live->rows);
	free(rt->live);
	rt->live = NULL;
	eng_streams_free(rt);
}

/* Fill the rows for the period ending at now (and move the period on). */
static void
live_compute(struct eng_runtime *rt, uint64_t now)
{
	const struct eng_config *cfg = rt->cfg;
	struct eng_live_rt *l = rt->live;
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		const struct eng_task_ops *k = cfg->flows[i].proto;
		struct live_row *r = &l->rows[i];
		uint64_t b, g, prev_tsc = l->prev[i].tsc ? l->prev[i].tsc : rt->start_tsc;

		r->idx = i;
		r->valid = k != NULL && k->flow_view != NULL && k->flow_view(rt, i, &r->v) == 0;
		if (!r->valid)
			continue;
		b = r->v.frame_bytes;
		g = r->v.goodput_bytes;
		r->thr = now > prev_tsc ? eng_clock_mbps(b - l->prev[i].bytes, now - prev_tsc, rt->clock.hz) : 0;
		r->goodput = now > prev_tsc ?
				eng_clock_mbps(g - l->prev[i].goodput, now - prev_tsc, rt->clock.hz) : 0;
		l->prev[i].tsc = now;
		l->prev[i].bytes = b;
		l->prev[i].goodput = g;
	}
}

static int
by_goodput(const void *a, const void *b)
{
	const struct live_row *x = *(const struct live_row *const *)a;
	const struct live_row *y = *(const struct live_row *const *)b;

	if (x->goodput != y->goodput)
		return x->goodput < y->goodput ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void
flow_line(struct eng_runtime *rt, const struct live_row *r)
{
	const struct eng_flow_conf *fc = &rt->cfg->flows[r->idx];
	struct hist_summary h;
	char lat[160] = "";

	if (fc->role == ENG_FLOW_SENDER && eng_lat_flow_summary(rt, r->idx, &h) == 0 && h.count) {
		char a[5][16];

		eng_ns_fmt(a[0], sizeof(a[0]), h.p50);
		eng_ns_fmt(a[1], sizeof(a[1]), h.p90);
		eng_ns_fmt(a[2], sizeof(a[2]), h.p99);
		eng_ns_fmt(a[3], sizeof(a[3]), h.p999);
		eng_ns_fmt(a[4], sizeof(a[4]), h.max);
		snprintf(lat, sizeof(lat), " | lat p50/90/99/99.9/max %s/%s/%s/%s/%s", a[0], a[1],
				a[2], a[3], a[4]);
	}
	printf("  flow %-8s %-8s %-11s thr %8.1f goodput %8.1f Mbit/s | %s%s\n", fc->name,
			fc->role == ENG_FLOW_SENDER ? "sender" : "receiver", r->v.state, r->thr,
			r->goodput, r->v.detail, lat);
}

/* The totals line of the flows of one group ("senders", "tcp receivers" ...). */
static void
totals(struct eng_runtime *rt, const char *group)
{
	unsigned int i, n = 0, done = 0, running = 0;
	const struct eng_flow_view *first = NULL;
	double gp = 0, thr = 0;
	uint64_t sums[3] = {0, 0, 0};
	struct hist *all = NULL;
	char lat[160] = "";

	for (i = 0; i < rt->live->n; i++) {
		const struct live_row *r = &rt->live->rows[i];

		if (!r->valid || strcmp(r->v.group, group) != 0)
			continue;
		if (first == NULL && (first = &r->v)->lat_name != NULL)
			all = hist_create(ENG_HIST_SIG_BITS);
		n++;
		done += r->v.done != 0;
		running += r->v.established != 0;
		gp += r->goodput;
		thr += r->thr;
		sums[0] += r->v.sums[0];
		sums[1] += r->v.sums[1];
		sums[2] += r->v.sums[2];
		if (all != NULL)
			eng_lat_flow_merge(rt, all, i);
	}
	if (all != NULL && hist_count(all) != 0) {
		struct hist_summary s;

		hist_summarize(all, &s);
		snprintf(lat, sizeof(lat), " | %s ", first->lat_name);
		eng_lat_fmt(lat + strlen(lat), sizeof(lat) - strlen(lat), &s);
	}
	hist_free(all);
	printf("  %-13s %4u flows (%u established, %u done) | thr %9.1f goodput %9.1f Mbit/s | "
	       "%s %" PRIu64 " %s %" PRIu64 " %s %" PRIu64 "%s\n",
			group, n, running, done, thr, gp, first->sum_names[0], sums[0],
			first->sum_names[1], sums[1], first->sum_names[2], sums[2], lat);
}

static void
live_print(struct eng_runtime *rt)
{
	unsigned int i, j, k = 0, top = rt->cfg->stats_top;
	struct live_row **v;

	v = calloc(rt->live->n + 1, sizeof(*v));
	if (v == NULL)
		return;
	for (i = 0; i < rt->live->n; i++)
		if (rt->live->rows[i].valid)
			v[k++] = &rt->live->rows[i];
	if (k == 0) {
		free(v);
		return;
	}
	printf("  ---- flows: totals ----\n");
	for (i = 0; i < k; i++) {	/* each group once, in the order it first appears */
		for (j = 0; j < i && strcmp(v[j]->v.group, v[i]->v.group) != 0; j++)
			;
		if (j == i)
			totals(rt, v[i]->v.group);
	}
	if (top != 0 && k > top) {
		qsort(v, k, sizeof(*v), by_goodput);
		printf("  ---- flows: top %u of %u by goodput ----\n", top, k);
		k = top;
	}
	for (i = 0; i < k; i++)
		flow_line(rt, v[i]);
	free(v);
}

int
eng_live_row(const struct eng_runtime *rt, unsigned int i, double *goodput, double *thr,
		const struct eng_flow_view **v)
{
	const struct live_row *r;

	if (rt->live == NULL || rt->live->rows == NULL || i >= rt->live->n)
		return -ENOENT;
	r = &rt->live->rows[i];
	if (!r->valid)
		return -ENOENT;
	*goodput = r->goodput;
	*thr = r->thr;
	*v = &r->v;
	return 0;
}

/* The totals line of task t's streams r[0..n) in the period. */
static void
stream_totals(const struct eng_task *t, const struct eng_stream_row *const *r, unsigned int n)
{
	uint64_t lost = 0, got = 0;
	unsigned int i, stopped = 0;
	double pps = 0, mbps = 0, l1 = 0;

	for (i = 0; i < n; i++) {
		pps += r[i]->pps;
		mbps += r[i]->mbps;
		l1 += r[i]->l1_mbps;
		lost += r[i]->lost;
		got += r[i]->packets;
		stopped += r[i]->v.stopped;
	}
	printf("  streams %-8s %-6s %5u streams | %12.1f pkt/s %10.1f Mbit/s L2 %10.1f Mbit/s "
	       "L1 | ", t->name, t->ops->name, n, pps, mbps, l1);
	if (n != 0 && r[0]->v.rx)
		printf("lost %" PRIu64 " pkts (%.4f %%)\n", lost,
				lost + got ? (double)lost * 100 / (double)(lost + got) : 0.0);
	else
		printf("%u stopped\n", stopped);
}

/* Per task with streams: its totals line, then its streams (at most stats_top). */
static void
streams_print(struct eng_runtime *rt)
{
	const struct eng_stream_row *const *r;
	unsigned int n = eng_streams_rows(rt, &r), i = 0, j, m, top = rt->cfg->stats_top;

	if (n != 0)
		printf("  ---- streams (txonly / rxonly): this period ----\n");
	while (i < n) {
		for (j = i; j < n && r[j]->t == r[i]->t; j++)
			;
		m = j - i;
		stream_totals(r[i]->t, r + i, m);
		for (; m > 1 && (top == 0 || m <= top) && i < j; i++)
			printf("    %-24s %12.1f pkt/s %10.1f Mbit/s L2 %10.1f Mbit/s L1 | %s\n",
					r[i]->v.name, r[i]->pps, r[i]->mbps, r[i]->l1_mbps,
					r[i]->v.stopped ? "stopped" : r[i]->v.rx ? "" : "sending");
		i = j;
	}
}

/* A time-series row per stream: role, goodput L2, throughput L1, loss. */
static void
ts_stream_rows(struct eng_runtime *rt, uint64_t now)
{
	const struct eng_stream_row *const *r;
	unsigned int n = eng_streams_rows(rt, &r), i;
	double t = (double)(now - rt->start_tsc) / (double)rt->clock.hz;

	for (i = 0; i < n; i++)
		fprintf(rt->live->ts_file, "%.3f,%s,%.3f,%.3f,,,%.6f,%s\n", t, r[i]->v.name,
				r[i]->mbps, r[i]->l1_mbps, r[i]->loss_pct / 100,
				r[i]->v.rx ? "receiver" : "sender");
}

/* Every valid flow's row, or (unseen_only) those of flows without a row yet. */
static void
ts_rows(struct eng_runtime *rt, uint64_t now, int unseen_only)
{
	const struct eng_config *cfg = rt->cfg;
	double t = (double)(now - rt->start_tsc) / (double)rt->clock.hz;
	unsigned int i;

	for (i = 0; i < rt->live->n; i++) {
		struct live_row *r = &rt->live->rows[i];

		if (!r->valid || (unseen_only && r->ts_written))
			continue;
		r->ts_written = 1;
		char red[16] = "";

		if (r->v.has_redundancy)
			snprintf(red, sizeof(red), "%u", r->v.redundancy);
		fprintf(rt->live->ts_file, "%.3f,%s,%.3f,%.3f,%u,%s,%.6f,%s\n", t, cfg->flows[i].name,
				r->goodput, r->thr, r->v.window, red, r->v.loss_ppm / 1e6,
				cfg->flows[i].role == ENG_FLOW_SENDER ? "sender" : "receiver");
	}
	if (!unseen_only)
		ts_stream_rows(rt, now);
	fflush(rt->live->ts_file);
	rt->live->ts_last_tsc = now;
}

void
eng_live_period(struct eng_runtime *rt, int print)
{
	uint64_t now = rte_rdtsc();
	int streams = eng_streams_period(rt, now) == 0;

	if ((rt->cfg->nb_flows != 0 || streams) && live_alloc(rt) == 0) {
		live_compute(rt, now);
		if (print) {
			live_print(rt);
			streams_print(rt);
		}
		if (rt->live->ts_file != NULL)
			ts_rows(rt, now, 0);
	}
	eng_intervals_period(rt, now); /* --intervals-json (intervals.c): the same period */
}

int
eng_timeseries_open(struct eng_runtime *rt)
{
	const char *path = rt->cfg->timeseries;

	eng_streams_period(rt, 0); /* the streams' tables now, not in the first period */
	if (eng_intervals_open(rt) < 0)
		return -EIO;
	if (path[0] == '\0')
		return 0;
	if (live_rt(rt) == NULL)
		return -ENOMEM;
	rt->live->ts_file = fopen(path, "w");
	if (rt->live->ts_file == NULL) {
		int e = errno;

		ENG_LOG(ERR, stats, "timeseries: cannot write %s: %s", path, strerror(e));
		return -e;
	}
	fprintf(rt->live->ts_file, "time_s,flow,goodput_mbps,throughput_mbps,window,redundancy,loss,role\n");
	fflush(rt->live->ts_file);
	return 0;
}

void
eng_timeseries_close(struct eng_runtime *rt)
{
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc();
	int ts = rt->live != NULL && rt->live->ts_file != NULL;
	uint64_t last;

	/* the last, partial period (at least 1 ms long): its rows, its intervals record;
	 * shorter, the rows of flows that never had one (a flow that started and ended
	 * after the last periodic rows, whose snapshots predate it) */
	last = rt->live != NULL && rt->live->ts_last_tsc ? rt->live->ts_last_tsc : rt->start_tsc;
	if ((ts || rt->intervals != NULL) && end > last + rt->clock.hz / 1000 &&
			(eng_streams_period(rt, end) == 0 || rt->cfg->nb_flows != 0) &&
			live_alloc(rt) == 0) {
		live_compute(rt, end);
		if (ts)
			ts_rows(rt, end, 0);
	} else if (ts && rt->cfg->nb_flows != 0 && live_alloc(rt) == 0) {
		live_compute(rt, end > last ? end : last + 1);
		ts_rows(rt, end > last ? end : last, 1);
	}
	eng_intervals_close(rt);
	if (!ts)
		return;
	fclose(rt->live->ts_file);
	rt->live->ts_file = NULL;
	ENG_LOG(INFO, stats, "timeseries written to %s", rt->cfg->timeseries);
}
