/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hist: HDR-style log-linear latency histogram (see hist.h).
 *
 * Bucket of v with s significant bits: sh = max(0, floor(log2 v) - s),
 * index = (sh << s) + (v >> sh). For sh = 0 that is v itself (values below
 * 2^(s+1) are exact); for sh > 0, v >> sh lies in [2^s, 2^(s+1)), so the
 * group of sh holds 2^s buckets of width 2^sh starting at index
 * (sh + 1) << s. Largest index: v = 2^64 - 1, sh = 63 - s.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

struct hist {
	uint32_t sig_bits;
	uint32_t nbuckets;
	uint64_t count;
	uint64_t min;		/* UINT64_MAX while empty */
	uint64_t max;
	uint64_t sum_lo, sum_hi;	/* exact 128-bit sum */
	uint64_t counts[];
};

/* Single-writer fields: relaxed stores/loads (plain moves), see hist.h. */
#define ST(field, val)	__atomic_store_n(&(field), (val), __ATOMIC_RELAXED)
#define LD(field)	__atomic_load_n(&(field), __ATOMIC_RELAXED)

static inline uint32_t
nbuckets_of(unsigned int s)
{
	return (uint32_t)(65 - s) << s;
}

size_t
hist_size(unsigned int sig_bits)
{
	if (sig_bits < HIST_MIN_SIG_BITS || sig_bits > HIST_MAX_SIG_BITS)
		return 0;
	return sizeof(struct hist) + (size_t)nbuckets_of(sig_bits) * sizeof(uint64_t);
}

struct hist *
hist_init(void *mem, size_t len, unsigned int sig_bits)
{
	struct hist *h = mem;
	size_t need = hist_size(sig_bits);

	if (mem == NULL || need == 0 || len < need || ((uintptr_t)mem & 7) != 0)
		return NULL;
	memset(h, 0, need);
	h->sig_bits = sig_bits;
	h->nbuckets = nbuckets_of(sig_bits);
	h->min = UINT64_MAX;
	return h;
}

struct hist *
hist_create(unsigned int sig_bits)
{
	size_t need = hist_size(sig_bits);
	void *mem;

	if (need == 0)
		return NULL;
	mem = malloc(need);
	if (mem == NULL)
		return NULL;
	return hist_init(mem, need, sig_bits);
}

void
hist_free(struct hist *h)
{
	free(h);
}

unsigned int
hist_sig_bits(const struct hist *h)
{
	return h->sig_bits;
}

static inline uint32_t
bucket_index(unsigned int s, uint64_t v)
{
	unsigned int sh;

	if (v >> (s + 1) == 0)
		return (uint32_t)v;
	sh = (unsigned int)(63 - __builtin_clzll(v)) - s;
	return ((uint32_t)sh << s) + (uint32_t)(v >> sh);
}

static inline void
bucket_bounds(unsigned int s, uint32_t i, uint64_t *lo, uint64_t *width)
{
	unsigned int sh;

	if (i >> (s + 1) == 0) {
		*lo = i;
		*width = 1;
		return;
	}
	sh = (i >> s) - 1;
	*lo = (uint64_t)(i - ((uint32_t)sh << s)) << sh;
	*width = (uint64_t)1 << sh;
}

/* Middle of bucket i (never overflows: lo + width / 2 <= lo + width - 1). */
static inline uint64_t
bucket_mid(unsigned int s, uint32_t i)
{
	uint64_t lo, w;

	bucket_bounds(s, i, &lo, &w);
	return lo + w / 2;
}

uint32_t
hist_bucket_index(const struct hist *h, uint64_t v)
{
	return bucket_index(h->sig_bits, v);
}

uint32_t
hist_nbuckets(const struct hist *h)
{
	return h->nbuckets;
}

int
hist_bucket(const struct hist *h, uint32_t i, uint64_t *lo, uint64_t *width,
		uint64_t *count)
{
	uint64_t l, w;

	if (i >= h->nbuckets)
		return -ERANGE;
	bucket_bounds(h->sig_bits, i, &l, &w);
	if (lo != NULL)
		*lo = l;
	if (width != NULL)
		*width = w;
	if (count != NULL)
		*count = h->counts[i];
	return 0;
}

void
hist_record_n(struct hist *h, uint64_t v, uint64_t n)
{
	uint32_t i = bucket_index(h->sig_bits, v);
	unsigned __int128 add = (unsigned __int128)v * n;
	uint64_t lo = h->sum_lo + (uint64_t)add;

	if (n == 0)
		return;
	ST(h->counts[i], h->counts[i] + n);
	ST(h->count, h->count + n);
	ST(h->sum_hi, h->sum_hi + (uint64_t)(add >> 64) + (lo < h->sum_lo));
	ST(h->sum_lo, lo);
	if (v < h->min)
		ST(h->min, v);
	if (v > h->max)
		ST(h->max, v);
}

void
hist_record(struct hist *h, uint64_t v)
{
	hist_record_n(h, v, 1);
}

void
hist_reset(struct hist *h)
{
	for (uint32_t i = 0; i < h->nbuckets; i++)
		ST(h->counts[i], 0);
	ST(h->count, 0);
	ST(h->sum_lo, 0);
	ST(h->sum_hi, 0);
	ST(h->min, UINT64_MAX);
	ST(h->max, 0);
}

int
hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t lo;

	if (dst == NULL || src == NULL)
		return -EINVAL;
	if (src->count == 0)
		return 0;
	if (dst->sig_bits != src->sig_bits) {
		uint64_t mn = src->min, mx = src->max;
		uint64_t slo = dst->sum_lo, shi = dst->sum_hi;

		/* middles, then restore the exact extremes */
		for (uint32_t i = 0; i < src->nbuckets; i++)
			if (src->counts[i] != 0) {
				uint64_t m = bucket_mid(src->sig_bits, i);

				if (m < mn)
					m = mn;
				if (m > mx)
					m = mx;
				hist_record_n(dst, m, src->counts[i]);
			}
		if (mn < dst->min)
			ST(dst->min, mn);
		if (mx > dst->max)
			ST(dst->max, mx);
		/* and the exact sum */
		lo = slo + src->sum_lo;
		ST(dst->sum_hi, shi + src->sum_hi + (lo < slo));
		ST(dst->sum_lo, lo);
		return 0;
	}
	for (uint32_t i = 0; i < src->nbuckets; i++)
		if (src->counts[i] != 0)
			ST(dst->counts[i], dst->counts[i] + src->counts[i]);
	ST(dst->count, dst->count + src->count);
	lo = dst->sum_lo + src->sum_lo;
	ST(dst->sum_hi, dst->sum_hi + src->sum_hi + (lo < dst->sum_lo));
	ST(dst->sum_lo, lo);
	if (src->min < dst->min)
		ST(dst->min, src->min);
	if (src->max > dst->max)
		ST(dst->max, src->max);
	return 0;
}

int
hist_snapshot(struct hist *dst, const struct hist *src)
{
	uint64_t total = 0, lo, w;
	uint32_t first = UINT32_MAX, last = 0;

	if (dst == NULL || src == NULL || dst->sig_bits != src->sig_bits || dst == src)
		return -EINVAL;
	for (uint32_t i = 0; i < src->nbuckets; i++) {
		uint64_t c = LD(src->counts[i]);

		dst->counts[i] = c;
		if (c != 0) {
			total += c;
			if (first == UINT32_MAX)
				first = i;
			last = i;
		}
	}
	dst->count = total;
	dst->sum_lo = LD(src->sum_lo);
	dst->sum_hi = LD(src->sum_hi);
	dst->min = LD(src->min);
	dst->max = LD(src->max);
	if (total == 0) {
		dst->min = UINT64_MAX;
		dst->max = 0;
		dst->sum_lo = dst->sum_hi = 0;
		return 0;
	}
	/* the writer may be between its stores: keep min/max in their buckets */
	bucket_bounds(dst->sig_bits, first, &lo, &w);
	if (dst->min < lo || dst->min > lo + (w - 1))
		dst->min = lo;
	bucket_bounds(dst->sig_bits, last, &lo, &w);
	if (dst->max < lo || dst->max > lo + (w - 1))
		dst->max = lo + (w - 1);
	return 0;
}

uint64_t
hist_count(const struct hist *h)
{
	return h->count;
}

uint64_t
hist_min(const struct hist *h)
{
	return h->count ? h->min : 0;
}

uint64_t
hist_max(const struct hist *h)
{
	return h->count ? h->max : 0;
}

double
hist_mean(const struct hist *h)
{
	if (h->count == 0)
		return 0.0;
	return ((double)h->sum_hi * 18446744073709551616.0 + (double)h->sum_lo) /
		(double)h->count;
}

uint64_t
hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, cum = 0, v;
	double r;

	if (h->count == 0)
		return 0;
	if (!(pct > 0.0))	/* also NaN */
		return h->min;
	if (pct >= 100.0)
		return h->max;
	r = ceil(pct / 100.0 * (double)h->count);
	rank = r < 1.0 ? 1 : (r >= (double)h->count ? h->count : (uint64_t)r);
	for (uint32_t i = 0; i < h->nbuckets; i++) {
		cum += h->counts[i];
		if (cum >= rank) {
			v = bucket_mid(h->sig_bits, i);
			if (v < h->min)
				v = h->min;
			if (v > h->max)
				v = h->max;
			return v;
		}
	}
	return h->max;	/* counts and count disagree: not reached */
}

void
hist_summarize(const struct hist *h, struct hist_summary *s)
{
	s->count = h->count;
	s->min = hist_min(h);
	s->max = hist_max(h);
	s->mean = hist_mean(h);
	s->p50 = hist_percentile(h, 50.0);
	s->p90 = hist_percentile(h, 90.0);
	s->p99 = hist_percentile(h, 99.0);
	s->p999 = hist_percentile(h, 99.9);
}

int
hist_json(const struct hist *h, char *buf, size_t cap)
{
	struct hist_summary s;
	int n;

	hist_summarize(h, &s);
	n = snprintf(buf, cap,
		"{\"count\":%" PRIu64 ",\"min\":%" PRIu64 ",\"mean\":%.1f,"
		"\"p50\":%" PRIu64 ",\"p90\":%" PRIu64 ",\"p99\":%" PRIu64 ","
		"\"p99.9\":%" PRIu64 ",\"max\":%" PRIu64 "}",
		s.count, s.min, s.mean, s.p50, s.p90, s.p99, s.p999, s.max);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= cap)
		return -ENOSPC;
	return n;
}
