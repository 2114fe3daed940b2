/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dfcp kind's drop and dispatch members of the summary and its JSON
 * (dfcp_stats.c writes the rest): a flow's drops by reason, the frames no
 * flow of a task accepted, the frames handed between the tasks of a port.
 */
#include <stdint.h>

#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "obs/out.h"

/* The drop reasons with a count (index 0 is not a reason). */
void
eng_dfcp_drops_write(struct eng_out *o, const char *key, const uint64_t *drops)
{
	unsigned int j;

	eng_out_obj(o, key);
	for (j = 1; j < DFCP_E_MAX; j++)
		if (drops[j] != 0)
			eng_out_u64(o, dfcp_err_str((int)j), drops[j]);
	eng_out_end(o);
}

/* Frames no flow of a task accepted, by reason (and multi-segment ones). */
void
eng_dfcp_task_drops_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i, j;

	if (o->kind == ENG_OUT_JSON)
		eng_out_obj(o, "dfcp_drops");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		uint64_t drops[DFCP_E_MAX], seg, any = 0;

		if (t->ops != &eng_task_dfcp)
			continue;
		eng_dfcp_task_drops(t, drops, &seg);
		drops[0] = 0;
		if (o->kind == ENG_OUT_JSON) {
			eng_dfcp_drops_write(o, t->name, drops);
			continue;
		}
		for (j = 1; j < DFCP_E_MAX; j++)
			any |= drops[j];
		if (any == 0 && seg == 0)
			continue;
		eng_out_item(o, "task", t->name);
		eng_dfcp_drops_write(o, "frames_for_no_flow", drops);
		eng_out_u64(o, "multi_segment_dropped", seg);
		eng_out_end(o);
	}
	if (o->kind == ENG_OUT_JSON)
		eng_out_end(o);
}

/*
 * Frames handed between the tasks of a port (kinds/xport, software
 * dispatch): JSON "dispatch" {TASK: {out, in, full}} for every dfcp task
 * that shares its port; in text the tasks that handed any.
 */
void
eng_dfcp_dispatch_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i, n = 0;

	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_xdisp dv;

		if (t->ops != &eng_task_dfcp || !eng_xport_shared(t))
			continue;
		eng_xport_dispatch(t, &dv);
		if (o->kind != ENG_OUT_JSON && dv.out + dv.in + dv.full == 0)
			continue;
		if (n++ == 0 && o->kind == ENG_OUT_JSON)
			eng_out_obj(o, "dispatch");
		if (o->kind == ENG_OUT_JSON)
			eng_out_obj(o, t->name);
		else
			eng_out_item(o, "dispatch", t->name);
		eng_out_u64(o, "out", dv.out);
		eng_out_u64(o, "in", dv.in);
		eng_out_u64(o, "full", dv.full);
		eng_out_end(o);
	}
	if (n != 0 && o->kind == ENG_OUT_JSON)
		eng_out_end(o);
}
