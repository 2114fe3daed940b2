/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The console's requests for the flows of a transport task (xport.h,
 * "xport_ctl.c"; core/ctl.h): checked and posted on the main lcore
 * (eng_xport_control, the dfcp and tcp kinds' ops->control), applied by the
 * task's own lcore at the top of a poll (eng_xport_ctl_apply): only that
 * lcore touches the pacers and the connections.
 *   start / stop   sender FLOW's source taken from again / held (ops->hold)
 *   rate           FLOW's share of its endpoint's pacer, in bit/s (L1, as
 *                  the [flow] rate key); the endpoint is paced at the sum
 *                  of its flows' shares, unpaced when all are 0; it ends
 *                  the flow's rate profile, which the owner follows until
 *                  then (eng_xport_prof_step)
 * Receivers, and a request for the task itself, are refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>

#include "config/config.h"
#include "core/runtime.h"
#include "kinds/xport/xport.h"

/* The flow of the request (cfg->flows index + 1) among the task's. */
static struct eng_xflow *
ctl_flow(struct eng_xtask *x, unsigned int flow)
{
	unsigned int i;

	for (i = 0; flow != 0 && i < x->nb_flows; i++)
		if (x->flows[i].idx == flow - 1)
			return &x->flows[i];
	return NULL;
}

/* Main lcore: f's share becomes bps (0: none), checked against the other
 * senders of its endpoint and the endpoint's pacer. */
static int
ctl_rate(struct eng_xtask *x, struct eng_xflow *f, const struct cfg_rate *r, char *err,
		size_t len)
{
	const struct eng_xep *e = f->ep;
	const char *unpaced = NULL, *paced = NULL;
	uint64_t bps = r->value, sum = 0;
	unsigned int i, n = 0;

	if (bps != 0 && r->unit != CFG_RATE_BPS) {
		snprintf(err, len, "flow %s: a flow's rate is in bit/s (as its [flow] rate: 400Mbit, "
				"1G), not packets/s or a share of the line rate", f->fc->name);
		return -EINVAL;
	}
	if (bps != 0 && (bps < PACE_RATE_MIN || bps > PACE_RATE_MAX)) {
		snprintf(err, len, "flow %s: rate %" PRIu64 " bit/s out of %llu..%llu", f->fc->name,
				bps, PACE_RATE_MIN, PACE_RATE_MAX);
		return -ERANGE;
	}
	for (i = 0; i < x->nb_flows; i++) {
		const struct eng_xflow *o = &x->flows[i];
		uint64_t b = o == f ? bps : __atomic_load_n(&o->want_bps, __ATOMIC_RELAXED);

		if (o->ep != e || o->fc->role != ENG_FLOW_SENDER)
			continue;
		n++;
		sum += b;
		*(b != 0 ? &paced : &unpaced) = o->fc->name;
	}
	if (paced != NULL && unpaced != NULL) {
		snprintf(err, len, "flow %s shares its local address (one pacer, at the sum of "
				"their rates) with %s: give each of them a rate, or set all to 0",
				f->fc->name, f->fc->name == paced ? unpaced : paced);
		return -EINVAL;
	}
	if (sum != 0) {
		struct pace_conf pc = {.rate_bps = RTE_MIN(sum, PACE_RATE_MAX),
				.overhead = ENG_L1_OVERHEAD, .catchup_ns = x->rt->cfg->pace_catchup_ns,
				.bucket = e->pace_bucket};
		struct pace *probe = e->pace_mem != NULL ? pace_create(&pc) : NULL;

		if (probe == NULL) {
			snprintf(err, len, "flow %s: cannot pace %" PRIu64 " bit/s with bucket %"
					PRIu64 " B (pace_catchup + bucket time over %llu s)",
					f->fc->name, sum, e->pace_bucket, PACE_LAG_MAX_NS / 1000000000ull);
			return -ERANGE;
		}
		pace_free(probe);	/* the owner's pace_set_rate will take it */
	}
	__atomic_store_n(&f->want_bps, bps, __ATOMIC_RELAXED);
	__atomic_fetch_add(&f->want_rates, 1, __ATOMIC_RELAXED);	/* ends a profile */
	eng_ctl_post(&x->box);
	if (bps == 0)
		snprintf(err, len, "flow %s unpaced", f->fc->name);
	else if (n > 1)
		snprintf(err, len, "flow %s at %.3f Mbit/s L1; its endpoint at %.3f Mbit/s (%u flows)",
				f->fc->name, (double)bps / 1e6, (double)sum / 1e6, n);
	else
		snprintf(err, len, "flow %s at %.3f Mbit/s L1", f->fc->name, (double)bps / 1e6);
	return 0;
}

int
eng_xport_control(struct eng_task *t, const struct eng_ctl_req *req, char *err, size_t len)
{
	struct eng_xtask *x = t->priv;
	struct eng_xflow *f;

	err[0] = '\0';
	if (x == NULL) {
		snprintf(err, len, "not running");
		return -ENOENT;
	}
	if (req->op == ENG_CTL_SYNC)
		return eng_ctl_pending(&x->box);
	f = ctl_flow(x, req->flow);
	if (f == NULL) {
		snprintf(err, len, "a %s task takes start, stop and set rate for its [flow]s "
				"(name the flow)", t->ops->name);
		return -ENOTSUP;
	}
	if (f->fc->role != ENG_FLOW_SENDER) {
		snprintf(err, len, "flow %s is a receiver: start, stop and set rate act on sender "
				"flows (its peer's sender)", f->fc->name);
		return -ENOTSUP;
	}
	switch (req->op) {
	case ENG_CTL_START:
	case ENG_CTL_STOP:
		__atomic_store_n(&f->want_run, req->op == ENG_CTL_START, __ATOMIC_RELAXED);
		eng_ctl_post(&x->box);
		snprintf(err, len, "flow %s %s", f->fc->name, req->op == ENG_CTL_START ?
				"takes from its source again" :
				"holds its source (what it sent is still delivered)");
		return 0;
	case ENG_CTL_RATE:
		return ctl_rate(x, f, &req->rate, err, len);
	case ENG_CTL_PKT_SIZE:
		snprintf(err, len, "flow %s: its segment size is set in its config only",
				f->fc->name);
		return -ENOTSUP;
	default:
		snprintf(err, len, "unknown request");
		return -EINVAL;
	}
}

/* Owner: endpoint e paced at the sum of its senders' shares (none: unpaced);
 * follow: a profile's step, the schedule goes on (pace_change_rate). */
static void
ep_repace(struct eng_xtask *x, struct eng_xep *e, uint64_t now, int follow)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++)
		if (x->flows[i].ep == e)
			sum += x->flows[i].rate_bps;
	if (sum == 0)
		__atomic_store_n(&e->pace, NULL, __ATOMIC_RELEASE);
	else if (e->pace_mem != NULL && (follow && e->pace != NULL ?
			pace_change_rate(e->pace_mem, RTE_MIN(sum, PACE_RATE_MAX), now) :
			pace_set_rate(e->pace_mem, RTE_MIN(sum, PACE_RATE_MAX), now)) == 0)
		__atomic_store_n(&e->pace, e->pace_mem, __ATOMIC_RELEASE);
	eng_xport_ep_wake(e);
}

void
eng_xport_ctl_apply(struct eng_xtask *x, uint64_t g, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++) {
		struct eng_xflow *f = &x->flows[i];
		int held = __atomic_load_n(&f->want_run, __ATOMIC_RELAXED) == 0;
		uint64_t bps = __atomic_load_n(&f->want_bps, __ATOMIC_RELAXED);
		uint64_t rn = __atomic_load_n(&f->want_rates, __ATOMIC_RELAXED);

		if (f->fc->role != ENG_FLOW_SENDER || f->ep == NULL)
			continue;
		if (rn != f->rates_seen) {	/* a set rate: the profile ends */
			f->rates_seen = rn;
			f->prof_on = 0;
		}
		if (held != f->held) {
			f->held = held;
			if (x->ops->hold != NULL)
				x->ops->hold(f, now);
			eng_xport_ep_wake(f->ep);
		}
		if (!f->prof_on && bps != f->rate_bps) {
			f->rate_bps = bps;
			ep_repace(x, f->ep, now, 0);
		}
	}
	x->ctl_applied = g;
	eng_ctl_ack(&x->box, g);
}

void
eng_xport_prof_step(struct eng_xtask *x, uint64_t now)
{
	uint64_t t = now > x->run_start_ns ? now - x->run_start_ns : 0, soonest = UINT64_MAX;
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++) {
		struct eng_xflow *f = &x->flows[i];
		uint64_t next, bps;

		if (f->prof == NULL || !f->prof_on)
			continue;
		bps = pace_prof_rate(f->prof, t, &next);
		soonest = RTE_MIN(soonest, next);
		if (bps != f->rate_bps) {
			f->rate_bps = bps;
			ep_repace(x, f->ep, now, 1);
		}
	}
	x->prof_next_ns = soonest == UINT64_MAX ? UINT64_MAX : x->run_start_ns + soonest;
}

int
eng_xport_hold_now(struct eng_xflow *f, const struct net_src_pattern *s, int stop,
		uint64_t now)
{
	int h = f->held && !stop &&
			!(s->duration_ns != 0 && s->started && now - s->start_ns >= s->duration_ns);

	if (h != f->hold_on) {
		f->hold_on = h;
		eng_xport_ep_wake(f->ep);
	}
	return h;
}
