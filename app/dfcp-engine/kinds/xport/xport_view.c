/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the flows of transport tasks look from outside: ops->flow_view of the
 * dfcp and tcp kinds (the live view and the time series, obs/live.c) and
 * the /dfcp/flows telemetry command over every flow of both, each from the
 * snapshots the owning lcores publish (xport.h).
 */
#include <errno.h>
#include <string.h>

#include "config/config.h"
#include "core/runtime.h"
#include "kinds/xport/xport.h"
#include "obs/out.h"

int
eng_xport_flow_view(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_view *v)
{
	const struct eng_xflow *f = eng_xport_flow(rt, flow);
	const struct eng_xsnap *s;

	if (f == NULL || !f->snap.used)
		return -ENOENT;
	s = &f->snap;
	memset(v, 0, sizeof(*v));
	v->state = s->state != NULL ? s->state : "-";
	v->goodput_bytes = s->goodput_bytes;
	v->frame_bytes = s->frame_bytes;
	memcpy(v->sums, s->sums, sizeof(v->sums));
	v->window = s->window;
	v->redundancy = s->redundancy;
	v->loss_ppm = s->loss_ppm;
	v->established = s->established;
	v->done = s->done;
	f->x->ops->view(f, v);
	return 0;
}

/* "/dfcp/flows[,NAME]": every flow or the one named (all may not fit in 16 KiB). */
static int
tel_flows(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	unsigned int i;

	eng_out_arr(o, "flows");
	for (i = 0; i < rt->cfg->nb_flows; i++) {
		const struct eng_xflow *f = eng_xport_flow(rt, i);

		if (params != NULL && params[0] != '\0' && strcmp(params, rt->cfg->flows[i].name) != 0)
			continue;
		if (f == NULL || !f->snap.used || f->x->ops->write == NULL)
			continue;
		eng_out_item(o, "flow", f->fc->name);
		eng_out_str(o, "proto", f->fc->proto->name);
		f->x->ops->write(f, o);
		eng_out_end(o);
	}
	eng_out_end(o);
	return 0;
}

const struct eng_tel_cmd eng_xport_tel[] = {
	{"/dfcp/flows", "Flows (DFCP and TCP), their counters and latency. Parameter: a flow "
		"name (optional)", tel_flows},
	{NULL, NULL, NULL},
};
