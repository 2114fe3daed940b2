/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The endpoints' pacers (xport.h, "xport_pace.c"): made from the [flow] rate and bucket
 * keys after the adapter created the endpoints (one for every endpoint with
 * a sender: an unpaced one's idles until the console's set rate,
 * xport_ctl.c), freed at teardown, and read by the pace reports of every
 * transport kind.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include <rte_common.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"
#include "kinds/xport/xport.h"
#include "obs/pace_view.h"

/* What the sender flows of one endpoint ask for. */
struct ep_want {
	uint64_t rate_bps, bucket;
	const char *paced, *unpaced;	/* a flow of each kind, for the error */
};

/* Rate of the pacer of an endpoint whose senders have none: it waits,
 * disabled, for the console's set rate (xport_ctl.c). */
#define EP_PACE_IDLE_BPS	1000000000ull

/* Bucket of a flow that did not set one: one burst of full frames. */
static uint64_t
auto_bucket(const struct eng_xtask *x, const struct eng_xep *e)
{
	return (uint64_t)RTE_MAX(x->burst, (uint16_t)16) * (e->frame_len + ENG_L1_OVERHEAD);
}

static void
want_add(const struct eng_xtask *x, struct ep_want *w, const struct eng_xflow *xf)
{
	const struct eng_flow_conf *fc = xf->fc;

	if (fc->role != ENG_FLOW_SENDER)
		return;
	if (fc->rate_bps == 0) {
		w->unpaced = fc->name;
		if (w->paced == NULL)
			w->bucket = auto_bucket(x, xf->ep);
		return;
	}
	if (w->paced == NULL)
		w->bucket = 0;
	w->paced = fc->name;
	w->rate_bps += fc->rate_bps;
	w->bucket += fc->bucket == ENG_FLOW_BUCKET_AUTO ? auto_bucket(x, xf->ep) : fc->bucket;
}

static int
ep_pace_create(struct eng_xtask *x, struct eng_xep *e, const struct ep_want *w)
{
	struct pace_conf pc = {.rate_bps = RTE_MIN(w->rate_bps, PACE_RATE_MAX),
			.overhead = ENG_L1_OVERHEAD, .catchup_ns = x->rt->cfg->pace_catchup_ns,
			.bucket = w->bucket};

	if (w->paced == NULL) {	/* unpaced: a pacer for the console, disabled */
		pc.rate_bps = EP_PACE_IDLE_BPS;
		e->pace_mem = pace_create(&pc);
		e->pace_bucket = w->bucket;
		return e->pace_mem != NULL ? 0 : -ENOMEM;
	}
	if (w->unpaced != NULL) {
		ENG_LOG(ERR, task, "task %s: flows %s (rate) and %s (no rate) share the local "
				"address %u.%u.%u.%u: give all of its sender flows a rate, or none",
				x->t->name, w->paced, w->unpaced, e->local_ip >> 24,
				(e->local_ip >> 16) & 255, (e->local_ip >> 8) & 255, e->local_ip & 255);
		return -EINVAL;
	}
	e->pace = e->pace_mem = pace_create(&pc);
	e->pace_bucket = w->bucket;
	if (e->pace == NULL) {
		ENG_LOG(ERR, task, "flow %s: cannot pace rate %" PRIu64 " bit/s with bucket %" PRIu64
				" B (pace_catchup + bucket time over %llu s?)", w->paced, w->rate_bps,
				w->bucket, PACE_LAG_MAX_NS / 1000000000ull);
		return -EINVAL;
	}
	return 0;
}

/* Flow f's rate profile ([flow] rate = 0s:1G,...) for its owner to follow;
 * every point's rate checked against its endpoint's bucket. */
static int
flow_prof_setup(struct eng_xtask *x, struct eng_xflow *f)
{
	const struct cfg_rate_profile *rp = &f->fc->rate_prof;
	struct pace_conf pc = {.overhead = ENG_L1_OVERHEAD,
			.catchup_ns = x->rt->cfg->pace_catchup_ns, .bucket = f->ep->pace_bucket};
	struct pace *probe;
	unsigned int i;

	f->prof = calloc(1, sizeof(*f->prof));
	if (f->prof == NULL)
		return -ENOMEM;
	f->prof->n = rp->n;
	f->prof->ramp = rp->ramp;
	for (i = 0; i < rp->n; i++) {
		f->prof->t_ns[i] = rp->t_ns[i];
		f->prof->bps[i] = pc.rate_bps = rp->rate[i].value;
		probe = pace_create(&pc);
		if (probe == NULL) {
			ENG_LOG(ERR, task, "flow %s: rate point %u: cannot pace %" PRIu64 " bit/s "
					"with bucket %" PRIu64 " B (pace_catchup + bucket time over "
					"%llu s?)", f->fc->name, i + 1, pc.rate_bps, pc.bucket,
					PACE_LAG_MAX_NS / 1000000000ull);
			return -EINVAL;
		}
		pace_free(probe);
	}
	if (pace_prof_check(f->prof) < 0)
		return -EINVAL;
	f->prof_on = 1;
	x->prof_next_ns = 0;	/* from the first poll */
	ENG_LOG(INFO, task, "flow %s: rate profile of %u points (%s), %.3f Mbit/s L1 from 0 s "
			"to %.3f Mbit/s from %.3f s", f->fc->name, rp->n, rp->ramp ? "ramp" : "steps",
			(double)f->prof->bps[0] / 1e6, (double)f->prof->bps[rp->n - 1] / 1e6,
			(double)rp->t_ns[rp->n - 1] / 1e9);
	return 0;
}

int
eng_xport_pace_setup(struct eng_xtask *x)
{
	struct ep_want *w;
	unsigned int i;
	int rc = 0;

	if (x->nb_eps == 0)
		return 0;
	w = calloc(x->nb_eps, sizeof(*w));
	if (w == NULL)
		return -ENOMEM;
	for (i = 0; i < x->nb_flows; i++)
		if (x->flows[i].ep != NULL)
			want_add(x, &w[x->flows[i].ep - x->eps], &x->flows[i]);
	for (i = 0; rc == 0 && i < x->nb_eps; i++)
		if (w[i].paced != NULL || w[i].unpaced != NULL)
			rc = ep_pace_create(x, &x->eps[i], &w[i]);
	free(w);
	x->prof_next_ns = UINT64_MAX;
	for (i = 0; rc == 0 && i < x->nb_flows; i++)
		if (x->flows[i].ep != NULL && x->flows[i].fc->role == ENG_FLOW_SENDER &&
				x->flows[i].fc->rate_prof.n != 0)
			rc = flow_prof_setup(x, &x->flows[i]);
	return rc;
}

void
eng_xport_pace_free(struct eng_xtask *x)
{
	unsigned int i;

	for (i = 0; i < x->nb_eps; i++) {
		pace_free(x->eps[i].pace_mem);
		x->eps[i].pace = x->eps[i].pace_mem = NULL;
	}
	for (i = 0; i < x->nb_flows; i++) {
		free(x->flows[i].prof);
		x->flows[i].prof = NULL;
	}
}

int
eng_xport_flow_pace_view(const struct eng_runtime *rt, unsigned int flow,
		struct eng_pace_view *v, int period)
{
	const struct eng_xflow *xf = eng_xport_flow(rt, flow);
	struct eng_xep *e;
	struct pace *p;

	if (xf == NULL || xf->ep == NULL)
		return -ENOENT;
	e = xf->ep;
	p = __atomic_load_n(&e->pace, __ATOMIC_ACQUIRE);	/* the console's set rate */
	if (p == NULL)
		return -ENOENT;
	v->task = xf->x->t->name;
	v->name = xf->fc->name;
	v->tx_full = e->tx_dropped;
	v->no_mbuf = xf->x->cnt.no_mbuf;
	return eng_pace_view_fill(v, p, period ? &e->pace_mark : NULL);
}
