/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Shared helpers of the lib/sched unit tests (test_sched.c, test_sched_gps.c,
 * test_sched_ref.c): one include per test program (test_harness.h rules).
 */
#ifndef SCHED_TEST_H
#define SCHED_TEST_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktsched.h"
#include "test_harness.h"

#define LMAX	1518u
#define LMIN	64u

static struct test_rng rng;

static inline uint32_t
rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + (uint32_t)(test_rng_next(&rng) % ((uint64_t)hi - lo + 1));
}

static inline double
rnd_unit(void)
{
	return (test_rng_next(&rng) >> 11) * 0x1.0p-53;
}

static inline struct sched *
mk(const char *algo, uint32_t nq, uint32_t pool)
{
	struct sched_conf c = { .algo = algo, .nb_queues = nq, .pool_pkts = pool };
	struct sched *s = sched_create(&c);

	if (s == NULL) {
		fprintf(stderr, "sched_create(%s, %u) failed\n", algo, nq);
		exit(1);
	}
	return s;
}

#endif /* SCHED_TEST_H */
