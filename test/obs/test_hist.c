/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/hist against plain references: a loop-computed bucket index and
 * exact percentiles of the sorted samples, over random distributions and
 * every precision; merge, snapshot (also while a writer thread records),
 * reset, edge values (0, UINT64_MAX, empty), JSON.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "test_harness.h"

#define NSAMP	20000

static struct test_rng rng;

/* Reference bucket index: shift until the value fits in s + 1 bits. */
static uint32_t
ref_index(unsigned int s, uint64_t v)
{
	unsigned int sh = 0;

	while ((v >> sh) >> (s + 1) != 0)
		sh++;
	return ((uint32_t)sh << s) + (uint32_t)(v >> sh);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Exact percentile of sorted samples, same rank rule as hist.h. */
static uint64_t
ref_pct(const uint64_t *sorted, uint64_t n, double pct)
{
	double r;
	uint64_t rank;

	if (pct <= 0.0)
		return sorted[0];
	if (pct >= 100.0)
		return sorted[n - 1];
	r = ceil(pct / 100.0 * (double)n);
	rank = r < 1.0 ? 1 : (r >= (double)n ? n : (uint64_t)r);
	return sorted[rank - 1];
}

static void
test_buckets(unsigned int s)
{
	struct hist *h = hist_create(s);
	uint64_t prev_end = 0, lo, w, c;
	uint32_t n;

	CHECK(h != NULL);
	n = hist_nbuckets(h);
	CHECK(n == (uint32_t)(65 - s) << s);
	/* contiguous, covering [0, 2^64) */
	for (uint32_t i = 0; i < n; i++) {
		CHECK(hist_bucket(h, i, &lo, &w, &c) == 0);
		CHECK(c == 0);
		CHECK(lo == prev_end);
		CHECK(w >= 1 && (w & (w - 1)) == 0);
		CHECK(hist_bucket_index(h, lo) == i);
		CHECK(hist_bucket_index(h, lo + (w - 1)) == i);
		/* bucket width is at most 2^-s of its lower bound */
		CHECK(w == 1 || (w << s) <= lo);
		prev_end = lo + w;	/* wraps to 0 after the last */
	}
	CHECK(prev_end == 0);
	CHECK(hist_bucket(h, n, NULL, NULL, NULL) == -ERANGE);
	for (int i = 0; i < 100000; i++) {
		uint64_t v = test_rng_next(&rng) >> (test_rng_next(&rng) % 64);

		CHECK(hist_bucket_index(h, v) == ref_index(s, v));
	}
	CHECK(hist_bucket_index(h, UINT64_MAX) == n - 1);
	CHECK(ref_index(s, UINT64_MAX) == n - 1);
	hist_free(h);
}

static uint64_t
draw(int dist)
{
	switch (dist) {
	case 0:
		return test_rng_next(&rng) % 1000;				/* small uniform */
	case 1:
		return test_rng_next(&rng) >> 24;				/* uniform < 2^40 */
	case 2:
		return test_rng_next(&rng) >> (test_rng_next(&rng) % 64);			/* log-uniform */
	case 3:
		return 12345;					/* constant */
	case 4:						/* bimodal latency */
		return test_rng_next(&rng) % 10 ? 10000 + test_rng_next(&rng) % 200 : 5000000 + test_rng_next(&rng) % 100000;
	case 5:						/* heavy tail */
		return (uint64_t)(1000.0 / pow((double)(test_rng_next(&rng) % 1000000 + 1) / 1e6, 1.5));
	default:
		return test_rng_next(&rng);					/* full range */
	}
}
#define NDIST	7

static const double pcts[] = {
	0, 0.01, 0.1, 1, 5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100
};

static void
check_against(const struct hist *h, uint64_t *sorted, uint64_t n, unsigned int s)
{
	unsigned __int128 sum = 0;
	double exact_mean;

	CHECK(hist_count(h) == n);
	CHECK(hist_min(h) == sorted[0]);
	CHECK(hist_max(h) == sorted[n - 1]);
	for (uint64_t i = 0; i < n; i++)
		sum += sorted[i];
	exact_mean = (double)sum / (double)n;
	CHECK(fabs(hist_mean(h) - exact_mean) <= 1e-9 * exact_mean + 1e-9);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		uint64_t ex = ref_pct(sorted, n, pcts[k]);
		uint64_t got = hist_percentile(h, pcts[k]);
		uint64_t diff = got > ex ? got - ex : ex - got;

		if (diff > (ex >> (s + 1))) {
			fprintf(stderr, "s=%u p%.2f: exact %llu got %llu\n", s, pcts[k],
				(unsigned long long)ex, (unsigned long long)got);
			CHECK(0);
		}
	}
}

static void
test_random(unsigned int s)
{
	uint64_t *x = malloc(NSAMP * sizeof(*x));
	struct hist *h = hist_create(s), *a = hist_create(s), *b = hist_create(s);
	struct hist *snap = hist_create(s);

	CHECK(x != NULL && h != NULL && a != NULL && b != NULL && snap != NULL);
	for (int dist = 0; dist < NDIST; dist++) {
		uint64_t n = dist == 3 ? 100 : NSAMP;

		hist_reset(h);
		hist_reset(a);
		hist_reset(b);
		for (uint64_t i = 0; i < n; i++) {
			x[i] = draw(dist);
			hist_record(h, x[i]);
			hist_record(i % 3 ? a : b, x[i]);
		}
		qsort(x, n, sizeof(*x), cmp_u64);
		check_against(h, x, n, s);

		/* merge of two parts == the whole, bucket by bucket */
		CHECK(hist_merge(a, b) == 0);
		check_against(a, x, n, s);
		for (uint32_t i = 0; i < hist_nbuckets(h); i++) {
			uint64_t c1, c2;

			hist_bucket(h, i, NULL, NULL, &c1);
			hist_bucket(a, i, NULL, NULL, &c2);
			CHECK(c1 == c2);
		}
		/* snapshot == the original */
		CHECK(hist_snapshot(snap, h) == 0);
		check_against(snap, x, n, s);
		CHECK(hist_mean(snap) == hist_mean(h));
	}
	/* merging a finer histogram into a coarser one = recording into it */
	if (s > 1) {
		struct hist *fine = hist_create(s + 3 > HIST_MAX_SIG_BITS ? HIST_MAX_SIG_BITS : s + 3);

		CHECK(fine != NULL);
		hist_reset(h);
		hist_reset(a);
		for (uint64_t i = 0; i < NSAMP; i++) {
			x[i] = draw(2);
			hist_record(h, x[i]);
			hist_record(fine, x[i]);
		}
		if (hist_sig_bits(fine) != s) {
			CHECK(hist_merge(a, fine) == 0);
			CHECK(hist_count(a) == hist_count(h));
			CHECK(hist_min(a) == hist_min(h) && hist_max(a) == hist_max(h));
			for (uint32_t i = 0; i < hist_nbuckets(h); i++) {
				uint64_t c1, c2;

				hist_bucket(h, i, NULL, NULL, &c1);
				hist_bucket(a, i, NULL, NULL, &c2);
				CHECK(c1 == c2);
			}
		}
		hist_free(fine);
	}
	hist_free(h);
	hist_free(a);
	hist_free(b);
	hist_free(snap);
	free(x);
}

static void
test_edges(void)
{
	struct hist *h = hist_create(HIST_DEFAULT_SIG_BITS);
	struct hist *o = hist_create(4);
	struct hist_summary s;
	char buf[256];
	uint64_t mem[8];

	CHECK(h != NULL && o != NULL);
	CHECK(hist_create(0) == NULL);
	CHECK(hist_create(HIST_MAX_SIG_BITS + 1) == NULL);
	CHECK(hist_size(0) == 0);
	CHECK(hist_init(mem, sizeof(mem), 7) == NULL);		/* too small */
	CHECK(hist_init((char *)mem + 1, 1 << 20, 7) == NULL);	/* misaligned */
	CHECK(hist_merge(NULL, h) == -EINVAL);
	CHECK(hist_snapshot(o, h) == -EINVAL);			/* sig bits differ */

	/* empty */
	CHECK(hist_count(h) == 0 && hist_min(h) == 0 && hist_max(h) == 0);
	CHECK(hist_mean(h) == 0.0 && hist_percentile(h, 50) == 0);
	hist_summarize(h, &s);
	CHECK(s.count == 0 && s.p999 == 0);
	CHECK(hist_json(h, buf, sizeof(buf)) > 0);
	CHECK(strcmp(buf, "{\"count\":0,\"min\":0,\"mean\":0.0,\"p50\":0,\"p90\":0,"
		"\"p99\":0,\"p99.9\":0,\"max\":0}") == 0);
	CHECK(hist_merge(o, h) == 0 && hist_count(o) == 0);
	hist_record_n(h, 5, 0);
	CHECK(hist_count(h) == 0);

	/* 0 and UINT64_MAX */
	hist_record(h, 0);
	hist_record(h, UINT64_MAX);
	hist_record(h, UINT64_MAX);
	CHECK(hist_count(h) == 3 && hist_min(h) == 0 && hist_max(h) == UINT64_MAX);
	CHECK(hist_percentile(h, 0) == 0);
	CHECK(hist_percentile(h, 30) == 0);
	CHECK(hist_percentile(h, 50) >= UINT64_MAX - (UINT64_MAX >> 8));
	CHECK(hist_percentile(h, 100) == UINT64_MAX);
	CHECK(hist_percentile(h, NAN) == 0);
	/* the exact sum is 2^65 - 2: mean (2^65 - 2) / 3 */
	CHECK(fabs(hist_mean(h) - 36893488147419103230.0 / 3) < 1e5);
	/* merge across precisions keeps the extremes */
	CHECK(hist_merge(o, h) == 0);
	CHECK(hist_count(o) == 3 && hist_min(o) == 0 && hist_max(o) == UINT64_MAX);
	CHECK(fabs(hist_mean(o) - hist_mean(h)) < 1e-6 * hist_mean(h));

	/* exact JSON on a small case, and a too small buffer */
	hist_reset(h);
	CHECK(hist_count(h) == 0 && hist_max(h) == 0);
	hist_record(h, 1);
	hist_record(h, 2);
	hist_record_n(h, 3, 2);
	hist_record(h, 4);
	CHECK(hist_json(h, buf, sizeof(buf)) > 0);
	CHECK(strcmp(buf, "{\"count\":5,\"min\":1,\"mean\":2.6,\"p50\":3,\"p90\":4,"
		"\"p99\":4,\"p99.9\":4,\"max\":4}") == 0);
	CHECK(hist_json(h, buf, 10) == -ENOSPC);
	CHECK(strlen(buf) == 9);

	/* caller-provided memory */
	{
		size_t sz = hist_size(3);
		void *m = aligned_alloc(64, (sz + 63) & ~(size_t)63);
		struct hist *c = hist_init(m, sz, 3);

		CHECK(c != NULL && (void *)c == m && hist_nbuckets(c) == 62u << 3);
		hist_record(c, 960);
		hist_record(c, 1000);
		hist_record(c, 1020);	/* one bucket [960, 1024) */
		CHECK(hist_percentile(c, 50) == 992);
		CHECK(hist_percentile(c, 0) == 960 && hist_percentile(c, 1) == 992 && hist_percentile(c, 100) == 1020);
		free(m);
	}
	hist_free(h);
	hist_free(o);
	hist_free(NULL);
}

/* A reader snapshots while the writer records: every snapshot is self-consistent. */
struct conc {
	struct hist *h;
	volatile int done;
};

static void *
writer(void *arg)
{
	struct conc *c = arg;
	uint64_t st = 88172645463325252ull;

	for (int i = 0; i < 300000; i++) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		hist_record(c->h, 1000 + st % 1000000);
	}
	__atomic_store_n(&c->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void
test_concurrent(void)
{
	struct conc c = { hist_create(7), 0 };
	struct hist *snap = hist_create(7);
	pthread_t t;
	uint64_t last = 0;
	int rounds = 0;

	CHECK(c.h != NULL && snap != NULL);
	CHECK(pthread_create(&t, NULL, writer, &c) == 0);
	while (!__atomic_load_n(&c.done, __ATOMIC_ACQUIRE) || rounds < 3) {
		uint64_t n, p50;

		CHECK(hist_snapshot(snap, c.h) == 0);
		n = hist_count(snap);
		CHECK(n >= last);	/* counters only grow */
		last = n;
		if (n != 0) {
			p50 = hist_percentile(snap, 50);
			CHECK(hist_min(snap) <= p50 && p50 <= hist_max(snap));
			CHECK(hist_min(snap) >= 1000 && hist_max(snap) < 1001000);
		}
		rounds++;
	}
	pthread_join(t, NULL);
	CHECK(hist_snapshot(snap, c.h) == 0 && hist_count(snap) == 300000);
	hist_free(c.h);
	hist_free(snap);
}

int
main(void)
{
	test_rng_seed(&rng, 0x9e3779b97f4a7c15ull);
	for (unsigned int s = HIST_MIN_SIG_BITS; s <= HIST_MAX_SIG_BITS; s++)
		test_buckets(s);
	for (unsigned int s = HIST_MIN_SIG_BITS; s <= HIST_MAX_SIG_BITS; s++)
		test_random(s);
	test_edges();
	test_concurrent();
	return test_report("hist");
}
