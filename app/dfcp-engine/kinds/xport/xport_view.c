/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * How the flows of transport tasks look from outside: ops->flow_view of the
 * dfcp and tcp kinds (the live view and the time series, obs/live.c) and
 * the /dfcp/flows telemetry command over every flow of both, each from the
 * snapshots the owning lcores publish (xport.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "core/clock.h"
#include "core/runtime.h"
#include "kinds/xport/xport.h"
#include "obs/out.h"

int
eng_xport_flow_view(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_view *v)
{
	const struct eng_xflow *f = eng_xport_flow(rt, flow);
	const struct eng_xsnap *s;

	if (f == NULL)
		return -ENOENT;
	s = &f->snap;
	memset(v, 0, sizeof(*v));
	v->done = s->done;
	v->completed = s->completed;
	memcpy(v->fail, s->fail, sizeof(v->fail));
	if (!s->used)
		return -EAGAIN;
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

/* The run reached its configured duration (its planned end, not a signal). */
static int
run_planned_end(const struct eng_runtime *rt)
{
	uint64_t dur = eng_clock_ns_cycles(&rt->clock, rt->cfg->duration_ns);

	return dur != 0 && rt->stop_tsc != 0 && rt->stop_tsc - rt->start_tsc >= dur;
}

/*
 * The outcome of a flow (doc/config.md, "Exit status"). A sender's goal is
 * its bytes (every byte acknowledged; a duration is then only a limit), else
 * its duration (the source ran that long, or the run's own duration ended
 * it first), else none; a receiver completes
 * when its peer's orderly close matches what it delivered. It fails: its
 * sink file failed a write or fsync; a verifying sink found bad data; an abnormal close before completing; no
 * ARP answer; never connected; a sender with a goal that the end of the run
 * cut short.
 */
void
eng_xport_judge(struct eng_xflow *xf, const struct eng_xfacts *in)
{
	const struct eng_flow_conf *fc = xf->fc;
	struct eng_xsnap *s = &xf->snap;
	int sender = fc->role == ENG_FLOW_SENDER;
	int goal = sender && (fc->bytes != 0 || fc->duration_ns != 0 || fc->source == ENG_SRC_FILE);
	char *w = s->fail;
	size_t n = sizeof(s->fail);

	s->completed = in->completed;
	/* the drain closes a sender orderly whatever it sent: its goal holds only
	 * if its source ended by itself or its bytes were all acknowledged */
	if (goal && s->completed && !in->src_end && (fc->bytes == 0 || in->goodput < fc->bytes))
		s->completed = 0;
	if (sender && !s->completed && fc->bytes == 0 && fc->duration_ns != 0 &&
			(in->src_end || run_planned_end(xf->x->rt)) && in->closed == NULL &&
			in->connected && fc->source != ENG_SRC_FILE)
		s->completed = 1;	/* its goal is a duration, and it ran that long */
	w[0] = '\0';
	if (in->sink_err != 0) {
		s->completed = 0;	/* the data is not (all) where it was to go */
		snprintf(w, n, "sink write failed: %s after %" PRIu64 " bytes",
				strerror(-in->sink_err), in->sink_file_bytes);
	} else if (fc->verify && (in->bad_bytes != 0 || in->order_errors != 0))
		snprintf(w, n, "verify failed: %" PRIu64 " bad bytes, %" PRIu64 " out of order",
				in->bad_bytes, in->order_errors);
	else if (s->completed)
		return;
	else if (xf->arp_failed)
		snprintf(w, n, "no ARP answer for %u.%u.%u.%u after %u requests",
				(fc->remote_ip >> 24) & 0xff, (fc->remote_ip >> 16) & 0xff,
				(fc->remote_ip >> 8) & 0xff, fc->remote_ip & 0xff, xf->arp_sent);
	else if (in->closed != NULL)
		snprintf(w, n, "connection closed (%s) after %" PRIu64 " bytes", in->closed,
				in->goodput);
	else if (!in->connected)
		snprintf(w, n, sender ? "never connected" : "no connection arrived");
	else if (goal && fc->bytes != 0)
		snprintf(w, n, "goal not reached%s: %" PRIu64 " of %" PRIu64
				" bytes acknowledged", fc->duration_ns != 0 ? " (bytes within duration)" : "",
				in->goodput, fc->bytes);
	else if (goal)
		snprintf(w, n, "goal not reached (%s) after %" PRIu64 " bytes",
				fc->bytes == 0 && fc->duration_ns != 0 ? "duration" : "end of file",
				in->goodput);
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
