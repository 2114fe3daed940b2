/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The paced generators' output: one "pace" record per txonly task with a
 * rate (configured vs achieved, stall time lost, tx-queue and mbuf
 * failures; obs/pace_view.h) in the periodic stats, the summary, the JSON
 * summary ("pace" array) and /dfcp/pace; the summary's warning line when a
 * task achieved < 99 % of its rate.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "config/config.h"
#include "core/runtime.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/gen/gen.h"
#include "obs/out.h"
#include "obs/pace_view.h"

/* The i-th paced thing (tasks, then flows): 0, -ENOENT (not paced), -ERANGE (past the end). */
static int
pace_nth(struct eng_runtime *rt, unsigned int i, struct eng_pace_view *v, int period)
{
	memset(v, 0, sizeof(*v));
	if (i < rt->cfg->nb_tasks)
		return eng_txonly_pace_view(&rt->cfg->tasks[i], v, period);
	i -= rt->cfg->nb_tasks;
	if (i < rt->cfg->nb_flows)
		return eng_dfcp_flow_pace_view(rt, i, v, period);
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
eng_gen_pace_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
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

static int
tel_pace(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	if (!paces_write(rt, o, 0)) {
		eng_out_arr(o, "pace");
		eng_out_end(o);
	}
	return 0;
}

const struct eng_tel_cmd eng_gen_pace_tel[] = {
	{"/dfcp/pace", "Paced tasks and flows: configured vs achieved rate, stalls. No parameters",
		tel_pace},
	{NULL, NULL, NULL},
};
