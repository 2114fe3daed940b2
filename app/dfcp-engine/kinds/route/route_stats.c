/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics of the pipes and their queues (the router kind's ops->report
 * and /dfcp/pipes): a block per pipe in the periodic output and the
 * summary, the "pipes" member of the summary JSON. Counters are read while
 * the owning lcores run (plain 64-bit loads, as for ports and tasks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "kinds/route/route.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "pktsched.h"

/* A pipe's counters and its rates over an interval. */
struct route_pipe_view {
	const char *name, *sched;
	uint64_t bw_bps, delay_ns;
	uint32_t overhead;
	double bw_mbps, delay_ms;
	struct pipe_stats s;
	double out_mbps, wire_mbps, jain, drop_pct;
	uint64_t jain_ppm;
};

#define PV(field) offsetof(struct route_pipe_view, field)
#define PS(field) (offsetof(struct route_pipe_view, s) + offsetof(struct pipe_stats, field))
#define V_TJ (ENG_V_TEXT | ENG_V_JSON)

static const struct eng_ctr pipe_ctrs[] = {
	{"name", "", PV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [pipe NAME]"},
	{"bw_bps", "bit/s", PV(bw_bps), ENG_CT_U64, 0, ENG_V_DATA, "bandwidth, 0 = unlimited"},
	{"bw_mbps", "Mbit/s", PV(bw_mbps), ENG_CT_DBL, 1, ENG_V_TEXT, "bandwidth, 0 = unlimited"},
	{"delay_ns", "ns", PV(delay_ns), ENG_CT_U64, 0, ENG_V_DATA, "one-way delay"},
	{"delay_ms", "ms", PV(delay_ms), ENG_CT_DBL, 3, ENG_V_TEXT, "one-way delay"},
	{"overhead", "B", PV(overhead), ENG_CT_U32, 0, ENG_V_JSON, "bytes per packet on the wire"},
	{"sched", "", PV(sched), ENG_CT_STR, 0, V_TJ, "scheduler of its queues"},
	{"in_packets", "pkts", PS(in_pkts), ENG_CT_U64, 0, 0, "packets offered (matched)"},
	{"in_bytes", "B", PS(in_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"out_packets", "pkts", PS(out_pkts), ENG_CT_U64, 0, 0, "packets that left the delay line"},
	{"out_bytes", "B", PS(out_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"out_mbps", "Mbit/s", PV(out_mbps), ENG_CT_DBL, 3, V_TJ, "out_bytes x 8 per second"},
	{"wire_mbps", "Mbit/s", PV(wire_mbps), ENG_CT_DBL, 1, ENG_V_TEXT,
		"(out_bytes + overhead per packet) x 8 per second"},
	{"lost_packets", "pkts", PS(loss_pkts), ENG_CT_U64, 0, 0, "emulated loss"},
	{"lost_bytes", "B", PS(loss_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"dropped_packets", "pkts", PS(drop_pkts), ENG_CT_U64, 0, 0, "drop-tail: a queue was full"},
	{"dropped_bytes", "B", PS(drop_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"drop_run_max", "pkts", PS(drop_run_max), ENG_CT_U64, 0, ENG_V_JSON,
		"most drop-tail drops in a row: how bursty its loss was (a drop-tail queue "
		"offered twice its rate drops about every other packet)"},
	{"drop_burst_packets", "pkts", PS(drop_burst_pkts), ENG_CT_U64, 0, ENG_V_JSON,
		"drop-tail drops 16th or later in a row: the share of its loss that came in bursts"},
	{"drop_pct", "%", PV(drop_pct), ENG_CT_DBL, 2, 0,
		"the bottleneck's drops: (lost_packets + dropped_packets) / in_packets (the live "
		"view: this period), not a flow's loss_est"},
	{"passed_packets", "pkts", PS(pass_pkts), ENG_CT_U64, 0, 0, "unmatched, passed untouched"},
	{"queued_packets", "pkts", PS(sched_pkts), ENG_CT_U32, 0, 0, "in its queues now"},
	{"queued_bytes", "B", PS(sched_bytes), ENG_CT_U64, 0, V_TJ, "their bytes"},
	{"line_packets", "pkts", PS(line_pkts), ENG_CT_U32, 0, 0, "on the delay line now"},
	{"line_stalls", "", PS(line_stalls), ENG_CT_U32, 0, ENG_V_JSON,
		"serializations held back: delay line full"},
	{"catchup_stalls", "", PS(catchup_stalls), ENG_CT_U64, 0, 0,
		"stalls of the router longer than [engine] pace_catchup: the link moved later"},
	{"catchup_lost_ns", "ns", PS(catchup_lost_ns), ENG_CT_U64, 0, ENG_V_DATA,
		"link time those stalls lost"},
	{"jain", "", PV(jain), ENG_CT_DBL, 6, V_TJ, "Jain's index of its queues' weighted shares"},
	{"jain_ppm", "ppm", PV(jain_ppm), ENG_CT_U64, 0, ENG_V_TEL, "the same, parts per million"},
};

/* A queue of a pipe. */
struct route_queue_view {
	const char *name;
	uint32_t index;
	struct sched_qstats q;
	double out_mbps;
};

#define QV(field) offsetof(struct route_queue_view, field)
#define QS(field) (offsetof(struct route_queue_view, q) + offsetof(struct sched_qstats, field))

static const struct eng_ctr queue_ctrs[] = {
	{"name", "", QV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [queue NAME], or default"},
	{"index", "", QV(index), ENG_CT_U32, 0, ENG_V_JSON, "queue number in the pipe"},
	{"weight", "", QS(weight), ENG_CT_U32, 0, 0, "its weight"},
	{"enq_packets", "pkts", QS(enq_pkts), ENG_CT_U64, 0, ENG_V_JSON, "accepted"},
	{"enq_bytes", "B", QS(enq_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"out_packets", "pkts", QS(deq_pkts), ENG_CT_U64, 0, V_TJ, "served"},
	{"out_bytes", "B", QS(deq_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"out_mbps", "Mbit/s", QV(out_mbps), ENG_CT_DBL, 3, V_TJ, "out_bytes x 8 per second"},
	{"dropped_packets", "pkts", QS(drop_pkts), ENG_CT_U64, 0, 0, "refused: queue full"},
	{"dropped_bytes", "B", QS(drop_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"qlen_packets", "pkts", QS(qlen_pkts), ENG_CT_U32, 0, 0, "in the queue now"},
	{"qlen_bytes", "B", QS(qlen_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
};

const struct eng_ctr_table eng_route_tables[] = {
	{"pipe", pipe_ctrs, RTE_DIM(pipe_ctrs)},
	{"queue", queue_ctrs, RTE_DIM(queue_ctrs)},
	{NULL, NULL, 0},
};

static struct pipe *
route_pipe(const struct eng_runtime *rt, unsigned int i)
{
	const struct eng_route_conf *r = eng_route_conf(rt->cfg);

	if (eng_route_rt(rt) == NULL || r == NULL || i >= r->nb_pipes)
		return NULL;
	return eng_route_rt(rt)->pipes[i].p;
}

/* Name of queue q of pipe i: "default" or the [queue NAME]. */
static const char *
route_queue_name(const struct eng_config *cfg, unsigned int pipe, uint32_t q)
{
	const struct eng_route_conf *r = eng_route_conf(cfg);
	unsigned int j;

	if (q != 0)
		for (j = 0; j < r->nb_queues; j++)
			if (r->queues[j].pipe_idx == (int)pipe && r->queues[j].pipe_q == q)
				return r->queues[j].name;
	return "default";
}

/* Queues of pipe i; period: rates since the last block (and move it on). */
static void
route_queues_write(struct eng_runtime *rt, struct eng_out *o, unsigned int i, uint64_t cycles,
		int period)
{
	struct eng_route_pipe_rt *pr = &eng_route_rt(rt)->pipes[i];
	uint32_t q;

	eng_out_arr(o, "queues");
	for (q = 0; q < pr->nb_q; q++) {
		struct route_queue_view v = {.name = route_queue_name(rt->cfg, i, q), .index = q};
		uint64_t base = period ? pr->last_deq_bytes[q] : 0;

		if (pipe_queue_stats(pr->p, q, &v.q) < 0)
			continue;
		if (o->kind == ENG_OUT_TEXT && q == 0 && v.q.enq_pkts == 0 && v.q.drop_pkts == 0)
			continue; /* the unused default queue */
		v.out_mbps = eng_clock_mbps(v.q.deq_bytes - base, cycles, rt->clock.hz);
		eng_out_item(o, "queue", v.name);
		eng_out_counters(o, queue_ctrs, RTE_DIM(queue_ctrs), &v);
		eng_out_end(o);
		if (period)
			pr->last_deq_bytes[q] = v.q.deq_bytes;
	}
	eng_out_end(o);
}

static void
route_pipe_write(struct eng_runtime *rt, struct eng_out *o, unsigned int i, uint64_t cycles, int period)
{
	const struct eng_pipe_conf *pc = &eng_route_conf(rt->cfg)->pipes[i];
	struct eng_route_pipe_rt *pr = &eng_route_rt(rt)->pipes[i];
	static const struct pipe_stats zero;
	const struct pipe_stats *b = period ? &pr->last : &zero;
	struct hist_summary h;
	struct route_pipe_view v = {
		.name = pc->name, .sched = pc->sched, .bw_bps = pc->bw_bps, .delay_ns = pc->delay_ns,
		.overhead = pc->overhead, .bw_mbps = (double)pc->bw_bps / 1e6,
		.delay_ms = (double)pc->delay_ns / 1e6,
	};

	pipe_stats_get(pr->p, &v.s);
	v.out_mbps = eng_clock_mbps(v.s.out_bytes - b->out_bytes, cycles, rt->clock.hz);
	v.wire_mbps = eng_clock_mbps(v.s.out_bytes - b->out_bytes +
			(v.s.out_pkts - b->out_pkts) * (uint64_t)pc->overhead, cycles, rt->clock.hz);
	if (v.s.in_pkts > b->in_pkts)
		v.drop_pct = (double)(v.s.loss_pkts - b->loss_pkts + v.s.drop_pkts - b->drop_pkts) *
				100.0 / (double)(v.s.in_pkts - b->in_pkts);
	v.jain = pipe_jain(pr->p, period ? pr->last_deq_bytes : NULL);
	v.jain_ppm = (uint64_t)(v.jain * 1e6 + 0.5);
	eng_out_item(o, "pipe", pc->name);
	eng_out_counters(o, pipe_ctrs, RTE_DIM(pipe_ctrs), &v);
	/* queueing delay since the start (obs/obs.h) */
	if (eng_lat_pipe_summary(rt, i, &h) == 0 && (o->kind != ENG_OUT_TEXT || h.count != 0))
		eng_out_hist(o, "queue_delay_ns", &h);
	route_queues_write(rt, o, i, cycles, period);
	eng_out_end(o);
	if (period)
		pr->last = v.s;
}

/* Every pipe a router created: period = 1 over the last block, else the run. */
static void
route_pipes_write(struct eng_runtime *rt, struct eng_out *o, int period)
{
	uint64_t now = rte_rdtsc(), cyc = eng_run_cycles(rt);
	unsigned int i;

	eng_out_arr(o, "pipes");
	for (i = 0; i < ENG_MAX_PIPES; i++) {
		struct eng_route_pipe_rt *pr;

		if (route_pipe(rt, i) == NULL)
			continue;
		pr = &eng_route_rt(rt)->pipes[i];
		if (!period) {
			route_pipe_write(rt, o, i, cyc, 0);
			continue;
		}
		if (pr->last_tsc == 0)
			pr->last_tsc = rt->start_tsc;
		route_pipe_write(rt, o, i, now - pr->last_tsc, 1);
		pr->last_tsc = now;
	}
	eng_out_end(o);
}

void
eng_route_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	if (what == ENG_REPORT_PERIOD)
		route_pipes_write(rt, o, 1);
	else if (what == ENG_REPORT_SUMMARY || what == ENG_REPORT_JSON)
		route_pipes_write(rt, o, 0);
}

void
eng_route_losses(struct eng_runtime *rt, eng_loss_note_fn note, void *ctx)
{
	const struct eng_route_conf *r = eng_route_conf(rt->cfg);
	char where[160];
	unsigned int i;

	for (i = 0; i < ENG_MAX_PIPES; i++) {
		struct pipe_stats st;

		if (route_pipe(rt, i) == NULL)
			continue;
		pipe_stats_get(route_pipe(rt, i), &st);
		snprintf(where, sizeof(where), "pipe %s lost_packets (emulated loss: plr, "
				"loss_model)", r->pipes[i].name);
		note(ctx, st.loss_pkts, "pipes", where);
		snprintf(where, sizeof(where), "pipe %s dropped_packets (a queue full: drop-tail)",
				r->pipes[i].name);
		note(ctx, st.drop_pkts, "pipes", where);
	}
}

static int
tel_pipes(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	route_pipes_write(rt, o, 0);
	return 0;
}

const struct eng_tel_cmd eng_route_tel[] = {
	{"/dfcp/pipes", "Emulated pipes, their queues and counters. No parameters", tel_pipes},
	{NULL, NULL, NULL},
};
