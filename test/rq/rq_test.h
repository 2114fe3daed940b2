/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers of the rq tests on top of the shared harness (test_harness.h:
 * CHECK, CHECKF, REQUIRE, test_rng, test_report): random symbols, shuffles,
 * trial counts under the sanitizers, and the loop over kernel tiers.
 */
#ifndef RQ_TEST_H
#define RQ_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_harness.h"

static inline void
rqt_fill(uint8_t *p, size_t n, struct test_rng *r)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(test_rng_next(r) >> 56);
}

/* Shuffle a[0..n-1]. */
static inline void
rqt_shuffle(uint32_t *a, uint32_t n, struct test_rng *r)
{
	uint32_t i;

	for (i = n; i > 1; i--) {
		uint32_t j = test_rng_below(r, i), t = a[i - 1];

		a[i - 1] = a[j];
		a[j] = t;
	}
}

/* Under ASan/UBSan the trial counts shrink (set by meson). */
#ifdef RQ_TEST_SANITIZED
#define RQT_SCALE(n) (((n) + 9) / 10)
#else
#define RQT_SCALE(n) (n)
#endif

#endif /* RQ_TEST_H */
