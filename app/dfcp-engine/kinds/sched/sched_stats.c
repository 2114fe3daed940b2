/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics of the sched tasks (the sched kind's ops->report and
 * /dfcp/sched): a block per sched task and its flows in the summary, the
 * "sched" member of the summary JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "config/config.h"
#include "core/runtime.h"
#include "kinds/sched/sched.h"
#include "kinds/sched/sched_priv.h"
#include "obs/out.h"
#include "pace.h"
#include "pktsched.h"

/* A sched task over the run. */
struct eng_sched_view {
	const char *task;
	struct eng_sched_stats st;
	double tx_mbps, jain;
	char rate[32];		/* text: "500.0Mbit/s" or "unshaped" */
};

#define SV(field) offsetof(struct eng_sched_view, field)
#define SS(field) (offsetof(struct eng_sched_view, st) + offsetof(struct eng_sched_stats, field))
#define V_TJ (ENG_V_TEXT | ENG_V_JSON)

static const struct eng_ctr eng_sched_ctrs[] = {
	{"task", "", SV(task), ENG_CT_STR, 0, ENG_V_JSON, "the sched task"},
	{"algo", "", SS(algo), ENG_CT_STR, 0, V_TJ, "the task's scheduler (its sched key)"},
	{"rate_bps", "bit/s", SS(rate_bps), ENG_CT_U64, 0, ENG_V_DATA, "shaped rate, 0 = unshaped"},
	{"rate", "", SV(rate), ENG_CT_CHARS, 0, ENG_V_TEXT,
		"shaped rate (\"500.0Mbit/s\") or \"unshaped\""},
	{"tx_packets", "pkts", SS(tx_pkts), ENG_CT_U64, 0, 0, "sent in scheduling order"},
	{"tx_bytes", "B", SS(tx_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"tx_retries", "", SS(tx_retries), ENG_CT_U64, 0, 0, "bursts the tx queue refused in part"},
	{"tx_mbps", "Mbit/s", SV(tx_mbps), ENG_CT_DBL, 3, V_TJ, "tx_bytes x 8 per second"},
	{"flows", "", SS(nb_flows), ENG_CT_U32, 0, ENG_V_TEXT, "flows attached"},
	{"producers", "", SS(producers), ENG_CT_U32, 0, 0, "producer tasks (one ring each)"},
	{"bad_flow", "pkts", SS(bad_flow), ENG_CT_U64, 0, ENG_V_JSON,
		"mbufs with an unknown flow id (freed)"},
	{"dropped_packets", "pkts", SS(be_drops), ENG_CT_U64, 0, V_TJ,
		"refused by the scheduler (every flow within its limit: none expected)"},
	{"backlog_budget", "pkts", SS(backlog_budget), ENG_CT_U32, 0, ENG_V_DATA,
		"most packets in the scheduler, all flows (backlog_budget)"},
	{"backlog_peak", "pkts", SS(backlog_peak), ENG_CT_U32, 0, ENG_V_DATA,
		"most packets in the scheduler at once, all flows"},
	{"flow_queue", "pkts", SS(flow_queue), ENG_CT_U32, 0, ENG_V_DATA,
		"a flow's limit (in its ring + in the scheduler) at most"},
	{"flow_limit", "pkts", SS(flow_limit), ENG_CT_U32, 0, ENG_V_DATA,
		"a flow's limit now: backlog_budget / flows backlogged, within 4 .. flow_queue"},
	{"pace_stalls", "", SS(pace_stalls), ENG_CT_U64, 0, ENG_V_JSON,
		"shaper: stalls longer than [engine] pace_catchup"},
	{"pace_lost_bytes", "B", SS(pace_lost_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"shaper: wire bytes of schedule lost in those stalls"},
	{"jain", "", SV(jain), ENG_CT_DBL, 6, V_TJ,
		"Jain's index of the flows' weighted run-phase bytes"},
};

/* A flow attached to a sched task. */
struct eng_sched_flow_view {
	const char *name;
	uint32_t id;
	struct eng_sched_flow_stats f;
	double tx_mbps;
};

#define FV(field) offsetof(struct eng_sched_flow_view, field)
#define FF(field) (offsetof(struct eng_sched_flow_view, f) + offsetof(struct eng_sched_flow_stats, field))

static const struct eng_ctr eng_sched_flow_ctrs[] = {
	{"name", "", FV(name), ENG_CT_STR, 0, ENG_V_JSON, "the flow (task or DFCP flow)"},
	{"id", "", FV(id), ENG_CT_U32, 0, ENG_V_JSON, "its queue in the scheduler"},
	{"weight", "", FF(weight), ENG_CT_U32, 0, 0, "its weight"},
	{"enq_packets", "pkts", FF(enq_pkts), ENG_CT_U64, 0, V_TJ, "taken from its ring"},
	{"enq_bytes", "B", FF(enq_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"tx_packets", "pkts", FF(tx_pkts), ENG_CT_U64, 0, V_TJ, "sent in scheduling order"},
	{"tx_bytes", "B", FF(tx_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"run_tx_packets", "pkts", FF(run_tx_pkts), ENG_CT_U64, 0, ENG_V_JSON,
		"of those, during the run phase"},
	{"run_tx_bytes", "B", FF(run_tx_bytes), ENG_CT_U64, 0, ENG_V_JSON, "their bytes"},
	{"dropped_packets", "pkts", FF(drop_pkts), ENG_CT_U64, 0, V_TJ,
		"refused by the scheduler (pool full)"},
	{"refused_packets", "pkts", FF(refused_pkts), ENG_CT_U64, 0, V_TJ,
		"refused at the producer: over its limit or the ring full"},
	{"backlog", "pkts", FF(backlog), ENG_CT_U32, 0, 0, "in the scheduler now"},
	{"backlog_peak", "pkts", FF(backlog_peak), ENG_CT_U32, 0, ENG_V_DATA,
		"most in the scheduler at once"},
	{"ring", "pkts", FF(ring_count), ENG_CT_U32, 0, V_TJ, "in the producer's ring now"},
	{"tx_mbps", "Mbit/s", FV(tx_mbps), ENG_CT_DBL, 3, V_TJ,
		"run_tx_bytes x 8 per second of the run"},
};

/* A sched task spread over several lcores: its shards together. */
struct eng_sched_group_view {
	const char *name;
	uint32_t shards, flows;
	double tx_mbps, jain;
};

#define GV(field) offsetof(struct eng_sched_group_view, field)

static const struct eng_ctr eng_sched_group_ctrs[] = {
	{"name", "", GV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [task NAME] spread by lcores"},
	{"shards", "", GV(shards), ENG_CT_U32, 0, 0, "its sched tasks NAME.0 .."},
	{"flows", "", GV(flows), ENG_CT_U32, 0, 0, "flows over all shards"},
	{"tx_mbps", "Mbit/s", GV(tx_mbps), ENG_CT_DBL, 3, 0, "all shards, L2"},
	{"jain", "", GV(jain), ENG_CT_DBL, 6, 0,
		"Jain's index of the weighted shares of all its flows (each shard's: its jain)"},
};

const struct eng_ctr_table eng_sched_tables[] = {
	{"sched", eng_sched_ctrs, RTE_DIM(eng_sched_ctrs)},
	{"sched_flow", eng_sched_flow_ctrs, RTE_DIM(eng_sched_flow_ctrs)},
	{"sched_group", eng_sched_group_ctrs, RTE_DIM(eng_sched_group_ctrs)},
	{NULL, NULL, 0},
};

static double
flows_jain(const struct eng_sched_flow_stats *fl, uint32_t n)
{
	double *x = calloc(n + 1, sizeof(double));
	uint32_t i, k = 0;
	double j;

	if (x == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (fl[i].run_tx_bytes != 0)
			x[k++] = (double)fl[i].run_tx_bytes / fl[i].weight;
	j = sched_jain(x, k);
	free(x);
	return j;
}

static void
eng_sched_write(struct eng_runtime *rt, struct eng_out *o, const struct eng_task *t)
{
	uint64_t cyc = eng_run_cycles(rt);
	struct eng_sched_flow_stats *fl;
	struct eng_sched_view v = {.task = t->name};
	uint32_t k;

	if (eng_sched_task_stats(t, &v.st, NULL, 0) < 0)
		return;
	fl = calloc(v.st.nb_flows + 1, sizeof(*fl));
	if (fl == NULL || eng_sched_task_stats(t, &v.st, fl, v.st.nb_flows) < 0) {
		free(fl);
		return;
	}
	if (v.st.rate_bps != 0)
		snprintf(v.rate, sizeof(v.rate), "%.1fMbit/s", (double)v.st.rate_bps / 1e6);
	else
		snprintf(v.rate, sizeof(v.rate), "unshaped");
	v.tx_mbps = eng_clock_mbps(v.st.tx_bytes, cyc, rt->clock.hz);
	v.jain = flows_jain(fl, v.st.nb_flows);
	eng_out_item(o, "sched", t->name);
	eng_out_counters(o, eng_sched_ctrs, RTE_DIM(eng_sched_ctrs), &v);
	eng_out_arr(o, "flows");
	for (k = 0; k < v.st.nb_flows; k++) {
		struct eng_sched_flow_view f = {.name = fl[k].name, .id = k, .f = fl[k]};

		f.tx_mbps = eng_clock_mbps(fl[k].run_tx_bytes, cyc, rt->clock.hz);
		eng_out_item(o, "flow", f.name);
		eng_out_counters(o, eng_sched_flow_ctrs, RTE_DIM(eng_sched_flow_ctrs), &f);
		eng_out_end(o);
	}
	eng_out_end(o);
	eng_out_end(o);
	free(fl);
}

/* The shards first .. first + spread_n - 1 (consecutive tasks) as one. */
static void
eng_sched_group_write(struct eng_runtime *rt, struct eng_out *o, const struct eng_task *first)
{
	uint64_t cyc = eng_run_cycles(rt), bytes = 0;
	struct eng_sched_group_view g = {.name = first->spread, .shards = first->spread_n};
	struct eng_sched_flow_stats *fl = NULL;
	struct eng_sched_stats st;
	unsigned int i;

	for (i = 0; i < first->spread_n; i++)
		if (eng_sched_task_stats(&first[i], &st, NULL, 0) == 0)
			g.flows += st.nb_flows;
	fl = calloc(g.flows + 1, sizeof(*fl));
	if (fl == NULL)
		return;
	for (i = 0, g.flows = 0; i < first->spread_n; i++)
		if (eng_sched_task_stats(&first[i], &st, NULL, 0) == 0 &&
				eng_sched_task_stats(&first[i], &st, fl + g.flows, st.nb_flows) == 0) {
			g.flows += st.nb_flows;
			bytes += st.tx_bytes;
		}
	g.tx_mbps = eng_clock_mbps(bytes, cyc, rt->clock.hz);
	g.jain = flows_jain(fl, g.flows);
	eng_out_item(o, "sched_group", g.name);
	eng_out_counters(o, eng_sched_group_ctrs, RTE_DIM(eng_sched_group_ctrs), &g);
	eng_out_end(o);
	free(fl);
}

static void
eng_scheds_write(struct eng_runtime *rt, struct eng_out *o)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i;

	eng_out_arr(o, "sched");
	for (i = 0; i < cfg->nb_tasks; i++)
		if (cfg->tasks[i].ops == &eng_task_sched)
			eng_sched_write(rt, o, &cfg->tasks[i]);
	eng_out_end(o);
	eng_out_arr(o, "sched_groups");
	for (i = 0; i < cfg->nb_tasks; i++)
		if (cfg->tasks[i].ops == &eng_task_sched && cfg->tasks[i].spread_n > 1 &&
				cfg->tasks[i].spread_i == 0)
			eng_sched_group_write(rt, o, &cfg->tasks[i]);
	eng_out_end(o);
}

void
eng_sched_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	if (what == ENG_REPORT_SUMMARY || what == ENG_REPORT_JSON)
		eng_scheds_write(rt, o);
}

void
eng_sched_losses(struct eng_runtime *rt, eng_loss_note_fn note, void *ctx)
{
	const struct eng_config *cfg = rt->cfg;
	struct eng_sched_flow_stats *fl;
	struct eng_sched_stats st;
	char where[160];
	unsigned int i;
	uint32_t k;

	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];

		if (t->ops != &eng_task_sched || eng_sched_task_stats(t, &st, NULL, 0) < 0)
			continue;
		fl = calloc(st.nb_flows + 1, sizeof(*fl));
		if (fl == NULL || eng_sched_task_stats(t, &st, fl, st.nb_flows) < 0) {
			free(fl);
			continue;
		}
		snprintf(where, sizeof(where), "sched %s bad_flow (an unknown flow id)", t->name);
		note(ctx, st.bad_flow, "sched", where);
		for (k = 0; k < st.nb_flows; k++) {
			snprintf(where, sizeof(where), "sched %s flow %s dropped_packets (the "
					"scheduler full)", t->name, fl[k].name);
			note(ctx, fl[k].drop_pkts, "sched", where);
			snprintf(where, sizeof(where), "sched %s flow %s refused_packets (at its "
					"producer: over its limit or the ring full)", t->name, fl[k].name);
			note(ctx, fl[k].refused_pkts, NULL, where);
		}
		free(fl);
	}
}

static int
tel_sched(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	eng_scheds_write(rt, o);
	return 0;
}

const struct eng_tel_cmd eng_sched_tel[] = {
	{"/dfcp/sched", "Sched tasks and their flows' counters. No parameters", tel_sched},
	{NULL, NULL, NULL},
};

int
eng_sched_task_stats(const struct eng_task *t, struct eng_sched_stats *st,
		struct eng_sched_flow_stats *flows, uint32_t max)
{
	const struct eng_sched_priv *p = t->priv;
	uint32_t f;

	if (t->ops != &eng_task_sched || p == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->algo = p->be->name(p->bs);
	st->rate_bps = p->rate_bps;
	st->nb_flows = p->nb_flows;
	st->tx_pkts = p->tx_pkts;
	st->tx_bytes = p->tx_bytes;
	st->tx_retries = p->tx_retries;
	st->bad_flow = p->bad_flow;
	st->be_drops = p->be_drops;
	st->producers = p->nb_ins;
	st->backlog_budget = p->budget;
	st->backlog_peak = p->backlog_peak;
	st->flow_queue = p->flow_queue;
	st->flow_limit = p->flow_limit;
	if (p->pace != NULL) {
		struct pace_stats ps;

		pace_stats(p->pace, &ps);
		st->pace_stalls = ps.stalls;
		st->pace_lost_bytes = ps.lost_bytes;
	}
	for (f = 0; f < p->nb_flows && f < max; f++) {
		const struct eng_sched_flow *fl = &p->flows[f];
		struct eng_sched_flow_stats *o = &flows[f];

		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%s", p->names[f]);
		o->weight = fl->weight;
		o->enq_pkts = fl->enq_pkts;
		o->enq_bytes = fl->enq_bytes;
		o->tx_pkts = fl->tx_pkts;
		o->tx_bytes = fl->tx_bytes;
		o->run_tx_pkts = p->run_over ? fl->run_tx_pkts : fl->tx_pkts;
		o->run_tx_bytes = p->run_over ? fl->run_tx_bytes : fl->tx_bytes;
		o->drop_pkts = p->drops[f];
		o->refused_pkts = p->txh[f].refused;
		o->backlog = p->be->backlog(p->bs, f);
		o->backlog_peak = fl->qlen_peak;
		o->ring_count = (uint32_t)(p->txh[f].sent - fl->enq_pkts);
	}
	return 0;
}
