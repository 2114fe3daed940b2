/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The router's lookahead hold (kinds/route/hold.c) against a plain
 * reference: a list kept sorted by insertion (stable), the order the heap
 * must give. Interleaved sorted runs (senders sharing a wire), ties, random
 * times, full hold.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "kinds/route/hold.h"
#include "test_harness.h"

#define CAP 512

struct ref {
	uint32_t n;
	uint64_t t[CAP], h[CAP];
};

static void
ref_put(struct ref *r, uint64_t t, uint64_t h)
{
	uint32_t i = r->n++;

	while (i > 0 && r->t[i - 1] > t) {
		r->t[i] = r->t[i - 1];
		r->h[i] = r->h[i - 1];
		i--;
	}
	r->t[i] = t;
	r->h[i] = h;
}

static void
ref_take(struct ref *r, uint64_t *t, uint64_t *h)
{
	*t = r->t[0];
	*h = r->h[0];
	r->n--;
	memmove(r->t, r->t + 1, r->n * sizeof(r->t[0]));
	memmove(r->h, r->h + 1, r->n * sizeof(r->h[0]));
}

static struct test_rng rng;

static uint64_t
xs(void)
{
	return test_rng_next(&rng);
}

/* mode 0: random times; 1: four interleaved sorted runs; 2: few distinct times */
static void
test_mode(int mode)
{
	static uint8_t mem[sizeof(struct route_hold) + CAP * sizeof(struct route_hold_ent)];
	struct route_hold *q = route_hold_init(mem, CAP);
	static struct ref r;
	uint64_t run_t[4] = {0}, h = 0, taken = 0;

	CHECK(q != NULL);
	r.n = 0;
	for (int step = 0; step < 200000; step++) {
		int put = r.n == 0 || (r.n < CAP && xs() % 3 != 0);

		if (put) {
			uint64_t t;

			if (mode == 0) {
				t = xs() % 1000000;
			} else if (mode == 1) {
				unsigned int k = (unsigned int)(xs() % 4);

				run_t[k] += xs() % 100;
				t = run_t[k];
			} else {
				t = xs() % 4;
			}
			CHECK(route_hold_put(q, t, h) == 0);
			ref_put(&r, t, h);
			h++;
		} else {
			uint64_t t1, h1, t2, h2;

			CHECK(route_hold_next(q) == r.t[0]);
			CHECK(route_hold_take(q, &t1, &h1) == 0);
			ref_take(&r, &t2, &h2);
			CHECKF(t1 == t2 && h1 == h2, "mode %d take %" PRIu64 ": (%" PRIu64 ", %" PRIu64
			       ") want (%" PRIu64 ", %" PRIu64 ")", mode, taken, t1, h1, t2, h2);
			taken++;
		}
		CHECK(q->n == r.n);
	}
	printf("mode %d: %" PRIu64 " taken in order\n", mode, taken);
}

static void
test_edges(void)
{
	static uint8_t mem[sizeof(struct route_hold) + 2 * sizeof(struct route_hold_ent)];
	struct route_hold *q = route_hold_init(mem, 2);
	uint64_t t, h;

	CHECK(route_hold_init(mem, 0) == NULL);
	CHECK(route_hold_next(q) == UINT64_MAX);
	CHECK(route_hold_take(q, &t, &h) == -ENOENT);
	CHECK(route_hold_put(q, 5, 1) == 0);
	CHECK(route_hold_put(q, 5, 2) == 0);
	CHECK(route_hold_put(q, 1, 3) == -ENOSPC);
	CHECK(route_hold_take(q, &t, &h) == 0 && t == 5 && h == 1);
	CHECK(route_hold_take(q, &t, &h) == 0 && t == 5 && h == 2);
	CHECK(route_hold_take(q, &t, &h) == -ENOENT);
}

int
main(void)
{
	test_rng_seed(&rng, 7);
	test_edges();
	for (int m = 0; m < 3; m++)
		test_mode(m);
	return test_report("route-hold");
}
