/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Plain reference of lib/pace for the tests: the same model (pace.h) written
 * step by step, without the optimized arithmetic: bursts are counted packet
 * by packet, budgets found by bisection, no shortcut for the bound. Same
 * fixed-point ns per byte, so every decision and counter must be identical.
 */
#ifndef PACE_REF_H
#define PACE_REF_H

#include <stdint.h>

typedef unsigned __int128 ref_u128;

struct pace_ref {
	ref_u128 t;		/* ns << 32 */
	ref_u128 npb, bucket_t, bound_t;
	uint64_t last, overhead;
	int started, idle;
	uint64_t pkts, bytes, busy_ns, stalls, max_lag_ns;
	ref_u128 lost;
};

static inline void
pace_ref_init(struct pace_ref *r, uint64_t rate, uint32_t overhead, uint64_t catchup,
		uint64_t bucket)
{
	ref_u128 one_byte = (ref_u128)8000000000ull << 32;	/* 8e9 ns * 2^32 per (bit/s) */

	*r = (struct pace_ref){ 0 };
	/* nearest integer to one_byte / rate, by bisection */
	{
		ref_u128 lo = 0, hi = one_byte;

		while (lo < hi) {
			ref_u128 mid = (lo + hi + 1) / 2;

			if (mid * rate <= one_byte)
				lo = mid;
			else
				hi = mid - 1;
		}
		/* lo = floor; round up when the remainder is at least half the rate */
		if ((one_byte - lo * rate) * 2 >= rate)
			lo++;
		r->npb = lo;
	}
	r->overhead = overhead;
	r->bucket_t = (ref_u128)bucket * r->npb;
	r->bound_t = ((ref_u128)(catchup ? catchup : 20000000ull) << 32) + r->bucket_t;
}

static inline void
pace_ref_start(struct pace_ref *r, uint64_t now)
{
	ref_u128 n = (ref_u128)now << 32;

	r->t = n > r->bucket_t ? n - r->bucket_t : 0;
	r->started = 1;
	r->idle = 0;
	r->last = now;
}

/* 1: may send (t <= now after the bound), 0: not yet. */
static inline int
pace_ref_busy(struct pace_ref *r, uint64_t now)
{
	int was_idle = r->idle;
	ref_u128 n;

	if (now < r->last)
		now = r->last;
	if (!r->started) {
		pace_ref_start(r, now);
		was_idle = 1;
	} else if (!was_idle) {
		r->busy_ns += now - r->last;
	}
	r->idle = 0;
	r->last = now;
	n = (ref_u128)now << 32;
	if (r->t > n)
		return 0;
	if (!was_idle && (uint64_t)((n - r->t) >> 32) > r->max_lag_ns)
		r->max_lag_ns = (uint64_t)((n - r->t) >> 32);
	if (n - r->t > r->bound_t) {
		if (!was_idle) {
			r->stalls++;
			r->lost += n - r->t - r->bound_t;
		}
		r->t = n - r->bound_t;
	}
	return 1;
}

static inline uint32_t
pace_ref_burst(struct pace_ref *r, uint64_t now, uint32_t len, uint32_t max)
{
	ref_u128 n = (ref_u128)(now < r->last ? r->last : now) << 32, s;
	uint32_t k = 0;

	if (!pace_ref_busy(r, now))
		return 0;
	s = r->t;
	while (k < max && s <= n) {
		k++;
		s += (ref_u128)(len + r->overhead) * r->npb;
	}
	return k;
}

static inline uint64_t
pace_ref_budget(struct pace_ref *r, uint64_t now)
{
	ref_u128 n = (ref_u128)(now < r->last ? r->last : now) << 32;
	uint64_t lo = 0, hi = UINT64_MAX / 2;

	if (!pace_ref_busy(r, now))
		return 0;
	/* the largest b with t + (b - 1) * npb <= now: bytes 0..b-1 start by now */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (r->t + (ref_u128)(mid - 1) * r->npb <= n)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static inline void
pace_ref_sent(struct pace_ref *r, uint32_t pkts, uint64_t bytes)
{
	uint32_t i;

	/* packet by packet: the bytes spread evenly, the rest on the first */
	for (i = 0; i < pkts; i++) {
		uint64_t b = bytes / pkts + (i == 0 ? bytes % pkts : 0);

		r->t += (ref_u128)(b + r->overhead) * r->npb;
	}
	if (pkts == 0)
		r->t += (ref_u128)bytes * r->npb;
	r->pkts += pkts;
	r->bytes += bytes;
}

static inline void
pace_ref_idle(struct pace_ref *r, uint64_t now)
{
	ref_u128 n;

	if (now < r->last)
		now = r->last;
	if (!r->started)
		pace_ref_start(r, now);
	else if (!r->idle)
		r->busy_ns += now - r->last;
	r->idle = 1;
	r->last = now;
	n = (ref_u128)now << 32;
	if (n > r->bucket_t && r->t < n - r->bucket_t)
		r->t = n - r->bucket_t;
}

static inline void
pace_ref_defer(struct pace_ref *r, uint64_t ns)
{
	if (ns == 0)
		return;
	r->t += (ref_u128)ns << 32;
	r->lost += (ref_u128)ns << 32;
	r->stalls++;
}

#endif /* PACE_REF_H */
