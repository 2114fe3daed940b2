/* SPDX-License-Identifier: BSD-3-Clause */
/* pace: virtual-schedule pacer with bounded catch-up (pace.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pace.h"

typedef unsigned __int128 u128;

#define NOT_READY UINT64_MAX	/* lag(): t is in the future */

struct pace {
	u128 t;			/* next departure, ns << 32 */
	uint64_t npb;		/* ns per wire byte << 32 */
	uint64_t bound_q;	/* L << 32 (< 2^64: PACE_LAG_MAX_NS) */
	uint64_t bucket_q;	/* bucket time << 32 */
	uint64_t last_ns;	/* latest now seen */
	uint32_t overhead;
	uint8_t started;
	uint8_t idle;		/* the latest call was pace_idle */
	/* counters */
	uint64_t pkts, bytes, busy_ns, stalls, max_lag_ns;
	uint64_t lost_ns;	/* 64-bit fields only: readable from another thread */
	uint32_t lost_frac;
	/* configuration, for stats and pace_set_rate */
	uint64_t rate_bps;
	uint64_t bucket;	/* bytes */
	/* wire bytes and busy time at the last rate change (achieved_ppm) */
	uint64_t base_wire, base_busy_ns;
};

uint64_t
pace_npb(uint64_t rate_bps)
{
	u128 num = (u128)8000000000ull << 32;

	if (rate_bps < PACE_RATE_MIN || rate_bps > PACE_RATE_MAX)
		return 0;
	return (uint64_t)((num + rate_bps / 2) / rate_bps);
}

size_t
pace_size(void)
{
	return sizeof(struct pace);
}

struct pace *
pace_init(void *mem, size_t len, const struct pace_conf *c)
{
	struct pace *p = mem;
	uint64_t catchup, npb;
	u128 bucket_q;

	if (mem == NULL || len < sizeof(*p) || ((uintptr_t)mem & 15) != 0 || c == NULL) {
		errno = EINVAL;
		return NULL;
	}
	npb = pace_npb(c->rate_bps);
	if (npb == 0) {
		errno = EINVAL;
		return NULL;
	}
	catchup = c->catchup_ns ? c->catchup_ns : PACE_CATCHUP_DEFAULT_NS;
	bucket_q = (u128)c->bucket * npb;
	if (catchup > PACE_LAG_MAX_NS || (bucket_q >> 32) > PACE_LAG_MAX_NS - catchup) {
		errno = ERANGE;
		return NULL;
	}
	memset(p, 0, sizeof(*p));
	p->npb = npb;
	p->bucket_q = (uint64_t)bucket_q;
	p->bound_q = (catchup << 32) + p->bucket_q;
	p->overhead = c->overhead;
	p->rate_bps = c->rate_bps;
	p->bucket = c->bucket;
	return p;
}

struct pace *
pace_create(const struct pace_conf *c)
{
	void *mem = malloc(sizeof(struct pace));
	struct pace *p;

	if (mem == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	p = pace_init(mem, sizeof(struct pace), c);
	if (p == NULL)
		free(mem);
	return p;
}

void
pace_free(struct pace *p)
{
	free(p);
}

/* lost += v (Q32 ns) */
static void
lose(struct pace *p, u128 v)
{
	uint64_t f = (uint64_t)p->lost_frac + (uint32_t)v;

	p->lost_ns += (uint64_t)(v >> 32) + (f >> 32);
	p->lost_frac = (uint32_t)f;
	p->stalls++;
}

static void
start(struct pace *p, uint64_t now)
{
	u128 nq = (u128)now << 32;

	p->t = nq > p->bucket_q ? nq - p->bucket_q : 0;
	p->started = 1;
	p->idle = 0;
	p->last_ns = now;
}

void
pace_reset(struct pace *p, uint64_t now)
{
	if (now < p->last_ns)
		now = p->last_ns;
	start(p, now);
}

int
pace_set_rate(struct pace *p, uint64_t rate_bps, uint64_t now)
{
	uint64_t npb = pace_npb(rate_bps), catchup_q = p->bound_q - p->bucket_q;
	u128 bucket_q;

	if (npb == 0)
		return -EINVAL;
	bucket_q = (u128)p->bucket * npb;
	if ((bucket_q >> 32) > PACE_LAG_MAX_NS - (catchup_q >> 32))
		return -ERANGE;
	if (now < p->last_ns)
		now = p->last_ns;
	if (p->started && !p->idle)
		p->busy_ns += now - p->last_ns;	/* busy up to now at the old rate */
	p->npb = npb;
	p->bucket_q = (uint64_t)bucket_q;
	p->bound_q = catchup_q + p->bucket_q;
	p->rate_bps = rate_bps;
	p->base_wire = p->bytes + p->pkts * (uint64_t)p->overhead;
	p->base_busy_ns = p->busy_ns;
	if (p->started) {
		start(p, now);
		p->idle = 1;	/* a restart, not a stall: the next call's gap is not lost */
	}
	return 0;
}

int
pace_change_rate(struct pace *p, uint64_t rate_bps, uint64_t now)
{
	uint64_t old = p->npb;
	u128 nq, d;
	int ahead, rc;

	if (!p->started || p->idle)
		return pace_set_rate(p, rate_bps, now);
	if (now < p->last_ns)
		now = p->last_ns;
	nq = (u128)now << 32;
	ahead = p->t > nq;
	d = ahead ? p->t - nq : nq - p->t;
	if (!ahead && d > p->bound_q)
		d = p->bound_q;
	rc = pace_set_rate(p, rate_bps, now);
	if (rc < 0)
		return rc;
	d = d / old * p->npb + d % old * p->npb / old;	/* the same bytes at the new rate */
	if (!ahead && d > p->bound_q)
		d = p->bound_q;
	p->t = ahead ? nq + d : (nq > d ? nq - d : 0);
	p->idle = 0;
	return 0;
}

/*
 * A busy call at now: the lag now - t in Q32 after the bound (credit above
 * it dropped, counted unless the caller was idle), or NOT_READY.
 */
static inline uint64_t
lag(struct pace *p, uint64_t now)
{
	int was_idle = p->idle;
	u128 nq, d;

	if (now < p->last_ns)
		now = p->last_ns;
	if (!p->started) {
		start(p, now);
		was_idle = 1;
	} else if (!was_idle) {
		p->busy_ns += now - p->last_ns;
	}
	p->idle = 0;
	p->last_ns = now;
	nq = (u128)now << 32;
	if (p->t > nq)
		return NOT_READY;
	d = nq - p->t;
	if (!was_idle && (uint64_t)(d >> 32) > p->max_lag_ns)
		p->max_lag_ns = (uint64_t)(d >> 32);
	if (d > p->bound_q) {
		if (!was_idle)
			lose(p, d - p->bound_q);
		p->t = nq - p->bound_q;
		d = p->bound_q;
	}
	return (uint64_t)d;
}

int
pace_ready(struct pace *p, uint64_t now)
{
	return lag(p, now) != NOT_READY;
}

uint32_t
pace_burst(struct pace *p, uint64_t now, uint32_t len, uint32_t max)
{
	uint64_t d = lag(p, now), n;
	u128 cost;

	if (d == NOT_READY || max == 0)
		return 0;
	cost = (u128)((uint64_t)len + p->overhead) * p->npb;
	if (cost == 0)
		return max;
	if (cost > d)
		return 1;
	n = d / (uint64_t)cost + 1;
	return n < max ? (uint32_t)n : max;
}

uint64_t
pace_budget(struct pace *p, uint64_t now)
{
	uint64_t d = lag(p, now);

	return d == NOT_READY ? 0 : d / p->npb + 1;
}

void
pace_sent(struct pace *p, uint32_t pkts, uint64_t bytes)
{
	p->t += (u128)(bytes + (uint64_t)pkts * p->overhead) * p->npb;
	p->pkts += pkts;
	p->bytes += bytes;
}

void
pace_idle(struct pace *p, uint64_t now)
{
	u128 nq;

	if (now < p->last_ns)
		now = p->last_ns;
	if (!p->started)
		start(p, now);
	else if (!p->idle)
		p->busy_ns += now - p->last_ns;
	p->idle = 1;
	p->last_ns = now;
	nq = (u128)now << 32;
	if (nq > p->bucket_q && p->t < nq - p->bucket_q)
		p->t = nq - p->bucket_q;
}

void
pace_defer(struct pace *p, uint64_t ns)
{
	if (ns == 0)
		return;
	p->t += (u128)ns << 32;
	lose(p, (u128)ns << 32);
}

uint64_t
pace_next(const struct pace *p)
{
	return (uint64_t)((p->t + 0xffffffffu) >> 32);
}

uint64_t
pace_bound_ns(const struct pace *p)
{
	return p->bound_q >> 32;
}

uint64_t
pace_npb_of(const struct pace *p)
{
	return p->npb;
}

int
pace_stats(const struct pace *p, struct pace_stats *st)
{
	u128 wire, den;

	if (p == NULL || st == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->rate_bps = p->rate_bps;
	st->pkts = p->pkts;
	st->bytes = p->bytes;
	st->wire_bytes = p->bytes + p->pkts * (uint64_t)p->overhead;
	st->busy_ns = p->busy_ns;
	st->stalls = p->stalls;
	st->lost_ns = p->lost_ns;
	st->lost_bytes = (uint64_t)((((u128)p->lost_ns << 32) | p->lost_frac) / p->npb);
	st->max_lag_ns = p->max_lag_ns;
	wire = (u128)(st->wire_bytes - p->base_wire) * 8000000000ull * 1000000u;
	den = (u128)(p->busy_ns - p->base_busy_ns) * p->rate_bps;
	st->achieved_ppm = den ? (uint64_t)(wire / den) : 0;
	return 0;
}
