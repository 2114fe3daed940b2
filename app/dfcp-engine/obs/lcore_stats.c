/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Busy/idle cycles per lcore and per task (counted by core/lcore.c: each
 * poll is timed with one rdtsc; a poll that handled packets is busy, one
 * that handled none is idle): a line per lcore with its tasks' shares in
 * the periodic block and the summary, the "lcores" JSON array and the
 * /dfcp/lcores telemetry command. An lcore at ~100 % busy is the bottleneck.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "core/lcore.h"
#include "core/runtime.h"
#include "obs/obs.h"
#include "obs/out.h"

/* One lcore or one of its tasks, over an interval. */
struct lcore_view {
	const char *name;		/* task name ("" for the lcore) */
	uint32_t lcore;
	struct eng_cycles c;
	double busy;			/* % of the lcore's polling cycles (text) */
	double busy_pct;		/* the same, JSON */
	uint64_t busy_ppm;		/* the same, telemetry */
	uint64_t tsc_hz;
};

#define LV(field) offsetof(struct lcore_view, field)
#define LC(field) (offsetof(struct lcore_view, c) + offsetof(struct eng_cycles, field))

static const struct eng_ctr lcore_ctrs[] = {
	{"lcore", "", LV(lcore), ENG_CT_U32, 0, ENG_V_JSON, "lcore id"},
	{"busy", "%", LV(busy), ENG_CT_DBL, 1, ENG_V_TEXT,
		"share of polling cycles spent in polls that handled packets"},
	{"busy_cycles", "cycles", LC(busy), ENG_CT_U64, 0, ENG_V_DATA,
		"TSC cycles of polls that handled packets"},
	{"idle_cycles", "cycles", LC(idle), ENG_CT_U64, 0, ENG_V_DATA,
		"TSC cycles of polls that handled none"},
	{"busy_polls", "", LC(busy_polls), ENG_CT_U64, 0, ENG_V_DATA, "polls that handled packets"},
	{"idle_polls", "", LC(idle_polls), ENG_CT_U64, 0, ENG_V_DATA, "polls that handled none"},
	{"busy_pct", "%", LV(busy_pct), ENG_CT_DBL, 3, ENG_V_JSON, "busy share, percent"},
	{"busy_ppm", "ppm", LV(busy_ppm), ENG_CT_U64, 0, ENG_V_TEL, "busy share, parts per million"},
	{"tsc_hz", "Hz", LV(tsc_hz), ENG_CT_U64, 0, ENG_V_TEL, "TSC frequency"},
};

static const struct eng_ctr lcore_task_ctrs[] = {
	{"name", "", LV(name), ENG_CT_STR, 0, ENG_V_JSON, "task name"},
	{"busy", "%", LV(busy), ENG_CT_DBL, 1, ENG_V_TEXT,
		"share of the lcore's polling cycles this task spent busy"},
	{"busy_cycles", "cycles", LC(busy), ENG_CT_U64, 0, ENG_V_DATA,
		"TSC cycles of the task's polls that handled packets"},
	{"idle_cycles", "cycles", LC(idle), ENG_CT_U64, 0, ENG_V_DATA,
		"TSC cycles of the task's polls that handled none"},
	{"busy_polls", "", LC(busy_polls), ENG_CT_U64, 0, ENG_V_DATA, "the task's busy polls"},
	{"idle_polls", "", LC(idle_polls), ENG_CT_U64, 0, ENG_V_DATA, "the task's idle polls"},
};

const struct eng_ctr_table eng_lcore_tables[] = {
	{"lcore", lcore_ctrs, RTE_DIM(lcore_ctrs)},
	{"lcore_task", lcore_task_ctrs, RTE_DIM(lcore_task_ctrs)},
	{NULL, NULL, 0},
};

static double
pct(uint64_t part, uint64_t whole)
{
	return whole == 0 ? 0.0 : 100.0 * (double)part / (double)whole;
}

static void
sub(struct eng_cycles *d, const struct eng_cycles *a, const struct eng_cycles *b)
{
	d->busy = a->busy - b->busy;
	d->idle = a->idle - b->idle;
	d->busy_polls = a->busy_polls - b->busy_polls;
	d->idle_polls = a->idle_polls - b->idle_polls;
}

static void
add(struct eng_cycles *d, const struct eng_cycles *a)
{
	d->busy += a->busy;
	d->idle += a->idle;
	d->busy_polls += a->busy_polls;
	d->idle_polls += a->idle_polls;
}

/* One item per lcore with tasks, its tasks nested; period: since the previous one. */
static void
lcore_write(struct eng_runtime *rt, struct eng_out *o, const struct eng_lcore_conf *lc, int period)
{
	static const struct eng_cycles zero;
	struct eng_cycles cur[ENG_MAX_LCORE_TASKS], d[ENG_MAX_LCORE_TASKS];
	struct lcore_view v;
	char id[16];
	unsigned int j;

	memset(&v, 0, sizeof(v));
	v.lcore = lc->lcore_id;
	v.tsc_hz = rt->clock.hz;
	for (j = 0; j < lc->nb_tasks; j++) {
		eng_lcore_task_cycles(rt, lc->task_idx[j], &cur[j]);
		sub(&d[j], &cur[j], period ? &rt->lcores.prev[lc->task_idx[j]] : &zero);
		add(&v.c, &d[j]);
	}
	v.busy = v.busy_pct = pct(v.c.busy, v.c.busy + v.c.idle);
	v.busy_ppm = v.c.busy + v.c.idle ? v.c.busy * 1000000 / (v.c.busy + v.c.idle) : 0;
	snprintf(id, sizeof(id), "%u", lc->lcore_id);
	eng_out_item(o, "lcore", id);
	eng_out_counters(o, lcore_ctrs, RTE_DIM(lcore_ctrs), &v);
	eng_out_arr(o, "tasks");
	for (j = 0; j < lc->nb_tasks; j++) {
		struct lcore_view tv;

		memset(&tv, 0, sizeof(tv));
		tv.name = rt->cfg->tasks[lc->task_idx[j]].name;
		tv.c = d[j];
		tv.busy = pct(d[j].busy, v.c.busy + v.c.idle);
		eng_out_item(o, NULL, tv.name);
		eng_out_counters(o, lcore_task_ctrs, RTE_DIM(lcore_task_ctrs), &tv);
		eng_out_end(o);
		if (period)
			rt->lcores.prev[lc->task_idx[j]] = cur[j];
	}
	eng_out_end(o);
	eng_out_end(o);
}

void
eng_lcore_write(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i;

	if (what == ENG_REPORT_RESULT)
		return;
	eng_out_arr(o, "lcores");
	for (i = 0; i < rt->cfg->nb_lcores; i++)
		if (rt->cfg->lcores[i].nb_tasks != 0)
			lcore_write(rt, o, &rt->cfg->lcores[i], what == ENG_REPORT_PERIOD);
	eng_out_end(o);
}

int
eng_lcore_tel(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	eng_lcore_write(rt, o, ENG_REPORT_JSON);
	return 0;
}
