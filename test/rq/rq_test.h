/* SPDX-License-Identifier: BSD-3-Clause */
/* Small helpers shared by the rq tests. */
#ifndef RQ_TEST_H
#define RQ_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int rqt_failures;

#define CHECK(cond, ...) do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			rqt_failures++; \
		} \
	} while (0)

/* xorshift64*: reproducible test data. */
static inline uint64_t
rqt_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static inline void
rqt_fill(uint8_t *p, size_t n, uint64_t *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rqt_rand(s) >> 56);
}

/* Shuffle a[0..n-1]. */
static inline void
rqt_shuffle(uint32_t *a, uint32_t n, uint64_t *s)
{
	uint32_t i;

	for (i = n; i > 1; i--) {
		uint32_t j = (uint32_t)(rqt_rand(s) % i), t = a[i - 1];

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
