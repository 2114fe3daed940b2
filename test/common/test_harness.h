/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one harness of the C unit tests: checks that count failures (CHECK,
 * CHECKF) or stop the test (REQUIRE), a reproducible PRNG, and the exit
 * status. Header-only; every test program includes it once:
 *
 *	CHECK(x == 3);
 *	CHECKF(n <= max, "n %u max %u", n, max);
 *	REQUIRE(p != NULL);            // a failure here makes the rest meaningless
 *	struct test_rng r; test_rng_seed(&r, 42); uint64_t v = test_rng_next(&r);
 *	return test_report("sched");   // "sched: N checks failed" / exit status
 */
#ifndef TEST_HARNESS_H
#define TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned int test_failures;

#define CHECK(cond) do { \
	if (!(cond)) { \
		test_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECKF(cond, ...) do { \
	if (!(cond)) { \
		test_failures++; \
		fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
		fprintf(stderr, __VA_ARGS__); \
		fputc('\n', stderr); \
	} \
} while (0)

#define REQUIRE(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "FATAL %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		exit(1); \
	} \
} while (0)

/* splitmix64: reproducible, full-period test data. */
struct test_rng {
	uint64_t s;
};

static inline void
test_rng_seed(struct test_rng *r, uint64_t seed)
{
	r->s = seed;
}

static inline uint64_t
test_rng_next(struct test_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n) (n > 0; the modulo bias is below 2^-32 for n < 2^32). */
static inline uint32_t
test_rng_below(struct test_rng *r, uint32_t n)
{
	return (uint32_t)(test_rng_next(r) % n);
}

/* Uniform in [0, 1). */
static inline double
test_rng_unit(struct test_rng *r)
{
	return (double)(test_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Exit status of the test program; prints the outcome on stderr. */
static inline int
test_report(const char *name)
{
	if (test_failures != 0) {
		fprintf(stderr, "%s: %u checks failed\n", name, test_failures);
		return 1;
	}
	fprintf(stderr, "%s: ok\n", name);
	return 0;
}

#endif /* TEST_HARNESS_H */
