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
