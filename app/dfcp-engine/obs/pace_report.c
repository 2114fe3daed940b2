/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every paced task and flow's output: one "pace" record each (configured vs
 * achieved rate, stall time lost, tx-queue and mbuf failures; pace_view.h),
 * from the kinds' pace_view and flow_pace_view ops, in the periodic stats,
 * the summary, the JSON summary ("pace" array) and /dfcp/pace; the summary's
 * warning line when one achieved < 99 % of its rate.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/runtime.h"
#include "obs/out.h"
#include "obs/pace_view.h"
#include "obs/stats.h"

/* The i-th paced thing (tasks, then flows): 0, -ENOENT (not paced), -ERANGE (past the end). */
static int
pace_nth(struct eng_runtime *rt, unsigned int i, struct eng_pace_view *v, int period)
{
	const struct eng_task_ops *ops;

	memset(v, 0, sizeof(*v));
	if (i < rt->cfg->nb_tasks) {
		ops = rt->cfg->tasks[i].ops;
		return ops->pace_view != NULL ? ops->pace_view(&rt->cfg->tasks[i], v, period) :
				-ENOENT;
	}
	i -= rt->cfg->nb_tasks;
	if (i < rt->cfg->nb_flows) {
		ops = rt->cfg->flows[i].proto;
		return ops != NULL && ops->flow_pace_view != NULL ?
				ops->flow_pace_view(rt, i, v, period) : -ENOENT;
	}
	return -ERANGE;
}

/* Every paced task and flow; 1 when there is one. */
static int
paces_write(struct eng_runtime *rt, struct eng_out *o, int period)
{
	struct eng_pace_view v;
	unsigned int i, n = 0;
	int rc;

	for (i = 0; (rc = pace_nth(rt, i, &v, period)) != -ERANGE; i++) {
		if (rc < 0)
			continue;
		if (n++ == 0)
			eng_out_arr(o, "pace");
		eng_pace_write(o, &v);
	}
	if (n != 0)
		eng_out_end(o);
	return n != 0;
}

static void
paces_warn(struct eng_runtime *rt, FILE *f)
{
	struct eng_pace_view v;
	unsigned int i;
	int rc;

	for (i = 0; (rc = pace_nth(rt, i, &v, 0)) != -ERANGE; i++)
		if (rc == 0)
			eng_pace_warn(f, &v);
}

void
eng_pace_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	switch (what) {
	case ENG_REPORT_PERIOD:
		paces_write(rt, o, 1);
		break;
	case ENG_REPORT_SUMMARY:
	case ENG_REPORT_JSON:
		paces_write(rt, o, 0);
		break;
	case ENG_REPORT_RESULT:
		paces_warn(rt, o->f);
		break;
	}
}

int
eng_pace_tel(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	if (!paces_write(rt, o, 0)) {
		eng_out_arr(o, "pace");
		eng_out_end(o);
	}
	return 0;
}
