/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A DFCP sender flow's `rate` on lib/pace: a virtual schedule on the engine
 * clock (ns), credit kept across a stall of the lcore up to [engine]
 * pace_catchup (the rest is counted), `bucket` bytes back-to-back after
 * idling (unset: one burst, max(burst, 16) full frames). The flow is idle,
 * not late, whenever its endpoint has nothing to send (xport calls
 * pace_idle, or a burst used less than it was allowed), so
 * a window-limited sender never banks credit beyond the bucket; nor does one
 * held back by a full port or sched ring (back-pressure from the path: a
 * burst after it would only overflow the bottleneck). Credit is kept for
 * what a stall of the lcore itself delayed.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "core/log.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "pace.h"


int
eng_dfcp_fpace_init(struct dfcp_fpace *fp, const struct eng_runtime *rt,
		const struct eng_dfcp_flow_conf *df, unsigned int burst, const char *name)
{
	struct pace_conf pc = {.rate_bps = df->rate_bps, .overhead = ENG_L1_OVERHEAD,
			.catchup_ns = rt->cfg->pace_catchup_ns, .bucket = df->bucket};

	memset(fp, 0, sizeof(*fp));
	if (df->rate_bps == 0)
		return 0;
	fp->frame = (uint32_t)df->T + DFCP_DATA_OFF;
	if (df->bucket == ENG_DFCP_BUCKET_AUTO)	/* one burst, as before lib/pace */
		pc.bucket = (uint64_t)(burst > 16 ? burst : 16) * (fp->frame + ENG_L1_OVERHEAD);
	fp->p = pace_create(&pc);
	if (fp->p == NULL) {
		ENG_LOG(ERR, task, "flow %s: cannot pace rate %" PRIu64 " bit/s with bucket %" PRIu64
				" B (pace_catchup + bucket time over %llu s?)", name, df->rate_bps,
				df->bucket, PACE_LAG_MAX_NS / 1000000000ull);
		return -EINVAL;
	}
	return 0;
}

void
eng_dfcp_fpace_free(struct dfcp_fpace *fp)
{
	pace_free(fp->p);
	fp->p = NULL;
}

/* Frames (at most n) the rate allows at now (ns). */
unsigned int
eng_dfcp_xpace_allow(struct eng_xep *e, uint64_t now, unsigned int n)
{
	const struct dfcp_fpace *fp = &((struct dfcp_flow *)e->priv)->pace;

	if (fp->p == NULL)
		return n;
	return pace_burst(fp->p, now, fp->frame, n);
}

void
eng_dfcp_xpace_charge(struct eng_xep *e, const uint16_t *lens, unsigned int k)
{
	const struct dfcp_fpace *fp = &((struct dfcp_flow *)e->priv)->pace;
	uint64_t b = 0;
	unsigned int i;

	if (fp->p == NULL || k == 0)
		return;
	for (i = 0; i < k; i++)
		b += lens[i];
	pace_sent(fp->p, k, b);
}

void
eng_dfcp_xpace_idle(struct eng_xep *e, uint64_t now)
{
	const struct dfcp_fpace *fp = &((struct dfcp_flow *)e->priv)->pace;

	if (fp->p != NULL)
		pace_idle(fp->p, now);
}

uint64_t
eng_dfcp_xpace_next(const struct eng_xep *e)
{
	const struct dfcp_fpace *fp = &((const struct dfcp_flow *)e->priv)->pace;

	return fp->p != NULL ? pace_next(fp->p) : 0;
}

int
eng_dfcp_flow_pace_view(const struct eng_runtime *rt, unsigned int flow,
		struct eng_pace_view *v, int period)
{
	const struct eng_xflow *xf = eng_xport_flow(rt, flow);
	struct dfcp_flow *f;

	if (xf == NULL || xf->fc->proto != &eng_task_dfcp || xf->priv == NULL)
		return -ENOENT;
	f = xf->priv;
	if (f->pace.p == NULL)
		return -ENOENT;
	v->task = xf->x->t->name;
	v->name = xf->fc->name;
	v->tx_full = f->snap.tx_dropped;
	v->no_mbuf = xf->x->cnt.no_mbuf;
	return eng_pace_view_fill(v, f->pace.p, period ? &f->pace.mark : NULL);
}
