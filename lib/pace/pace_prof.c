/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/pace: a timed rate profile's rate at a time (see pace.h). */
#include <errno.h>
#include <stdint.h>

#include "pace.h"

int
pace_prof_check(const struct pace_prof *pf)
{
	uint32_t i;

	if (pf == NULL || pf->n == 0 || pf->n > PACE_PROF_MAX || pf->t_ns[0] != 0 ||
			(pf->ramp && pf->n < 2))
		return -EINVAL;
	for (i = 0; i < pf->n; i++)
		if (pf->bps[i] < PACE_RATE_MIN || pf->bps[i] > PACE_RATE_MAX ||
				(i != 0 && pf->t_ns[i] <= pf->t_ns[i - 1]))
			return -EINVAL;
	return 0;
}

/* Rate of the ramp from point i to i + 1 at t (t_ns[i] <= t < t_ns[i + 1]),
 * constant over steps of PACE_PROF_STEPS per segment, none under
 * PACE_PROF_STEP_MIN_NS; *next: the next step's start. */
static uint64_t
prof_ramp(const struct pace_prof *pf, uint32_t i, uint64_t t, uint64_t *next)
{
	uint64_t t0 = pf->t_ns[i], seg = pf->t_ns[i + 1] - t0, r0 = pf->bps[i];
	uint64_t r1 = pf->bps[i + 1], step = seg / PACE_PROF_STEPS, off, d;

	if (r0 == r1) {
		*next = pf->t_ns[i + 1];
		return r0;
	}
	if (step < PACE_PROF_STEP_MIN_NS)
		step = PACE_PROF_STEP_MIN_NS;
	if (step > seg)
		step = seg;
	off = (t - t0) / step * step;
	*next = seg - off > step ? t0 + off + step : pf->t_ns[i + 1];
	d = (uint64_t)((unsigned __int128)(r1 > r0 ? r1 - r0 : r0 - r1) * off / seg);
	return r1 > r0 ? r0 + d : r0 - d;
}

uint64_t
pace_prof_rate(const struct pace_prof *pf, uint64_t t, uint64_t *next)
{
	uint32_t i = 0;

	while (i + 1 < pf->n && pf->t_ns[i + 1] <= t)
		i++;
	if (i + 1 == pf->n) {
		*next = UINT64_MAX;
		return pf->bps[i];
	}
	if (pf->ramp)
		return prof_ramp(pf, i, t, next);
	*next = pf->t_ns[i + 1];
	return pf->bps[i];
}
