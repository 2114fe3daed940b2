/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/pace timed rate profiles (pace_prof_rate) on a virtual clock:
 *   steps   each rate from its point's time to the next, the last one for
 *           ever; *next is the next point; the edges exactly
 *   ramp    up and down: bps[i] at t_ns[i], a staircase of at most 100 steps
 *           a segment (none under 1 ms), every step on the line, monotonic;
 *           short segments; equal neighbours hold
 *   poll    a caller that asks again only at *next (the lcore's check per
 *           poll) sees the same rate at every instant as one that asks
 *           every time; a pacer driven through the profile (pace_change_rate
 *           at each change) sends the profile's integral within two packets
 *           (steps and ramp)
 *   check   malformed profiles refused
 *   change  pace_change_rate: bad rates refused, the bytes owed re-timed
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pace.h"
#include "test_harness.h"

#define MS 1000000ull
#define S 1000000000ull

static struct pace_prof
prof(int ramp, uint32_t n, const uint64_t *t, const uint64_t *bps)
{
	struct pace_prof pf;

	memset(&pf, 0, sizeof(pf));
	pf.n = n;
	pf.ramp = ramp;
	memcpy(pf.t_ns, t, n * sizeof(t[0]));
	memcpy(pf.bps, bps, n * sizeof(bps[0]));
	REQUIRE(pace_prof_check(&pf) == 0);
	return pf;
}

static void
test_steps(void)
{
	static const uint64_t t[] = {0, 5 * S, 10 * S}, r[] = {1000000000, 5000000000, 10000000000};
	struct pace_prof pf = prof(0, 3, t, r);
	uint64_t next;

	CHECK(pace_prof_rate(&pf, 0, &next) == r[0] && next == 5 * S);
	CHECK(pace_prof_rate(&pf, 5 * S - 1, &next) == r[0] && next == 5 * S);
	CHECK(pace_prof_rate(&pf, 5 * S, &next) == r[1] && next == 10 * S);
	CHECK(pace_prof_rate(&pf, 10 * S - 1, &next) == r[1] && next == 10 * S);
	CHECK(pace_prof_rate(&pf, 10 * S, &next) == r[2] && next == UINT64_MAX);
	CHECK(pace_prof_rate(&pf, UINT64_MAX, &next) == r[2] && next == UINT64_MAX);
	pf.n = 1;	/* one point: a constant */
	CHECK(pace_prof_rate(&pf, 123 * S, &next) == r[0] && next == UINT64_MAX);
}

/* Every step of segment i of a ramp: on the line, at most 100 steps, none under 1 ms
 * (but the segment), monotonic. */
static void
ramp_segment(const struct pace_prof *pf, uint32_t i)
{
	uint64_t t = pf->t_ns[i], t1 = pf->t_ns[i + 1], seg = t1 - t, next, prev = pf->bps[i];
	uint64_t r0 = pf->bps[i], r1 = pf->bps[i + 1];
	unsigned int steps = 0;

	while (t < t1) {
		uint64_t r = pace_prof_rate(pf, t, &next);
		double line = (double)r0 + ((double)r1 - (double)r0) * (double)(t - pf->t_ns[i]) /
				(double)seg;

		CHECKF(r >= (r0 < r1 ? r0 : r1) && r <= (r0 < r1 ? r1 : r0), "r %" PRIu64, r);
		CHECKF(r0 == r1 || (r - line <= 1.0 && line - r <= 1.0), "t %" PRIu64 " r %" PRIu64
				" line %.1f", t, r, line);
		CHECK(r1 >= r0 ? r >= prev : r <= prev);
		CHECKF(next > t && next <= t1, "next %" PRIu64, next);
		CHECK(next == t1 || next - t >= PACE_PROF_STEP_MIN_NS);
		/* the rate holds until next */
		CHECK(pace_prof_rate(pf, next - 1, &next) == r);
		prev = r;
		t = next;
		steps++;
	}
	CHECKF(steps <= PACE_PROF_STEPS + 1, "%u steps", steps);
	CHECK(pace_prof_rate(pf, t1, &next) == r1);
}

static void
test_ramp(void)
{
	static const uint64_t t[] = {0, 10 * S, 12 * S, 12 * S + 500000, 12 * S + 50 * MS, 20 * S};
	static const uint64_t r[] = {1000000000, 10000000000, 10000000000, 2000000,
		7777777, 400000000000};
	struct pace_prof pf = prof(1, 6, t, r);
	uint64_t next;
	uint32_t i;

	CHECK(pace_prof_rate(&pf, 0, &next) == r[0] && next == 100 * MS);
	CHECK(pace_prof_rate(&pf, 100 * MS, &next) == 1090000000 && next == 200 * MS);
	CHECK(pace_prof_rate(&pf, 5 * S + 1, &next) == 5500000000 && next == 5100 * MS);
	CHECK(pace_prof_rate(&pf, 10 * S - 1, &next) == 9910000000 && next == 10 * S);
	CHECK(pace_prof_rate(&pf, 10 * S, &next) == r[1] && next == 12 * S); /* a flat one */
	/* 0.5 ms: one step; 49.5 ms: 1 ms steps (not 0.495 ms) */
	CHECK(pace_prof_rate(&pf, 12 * S, &next) == r[2] && next == t[3]);
	CHECK(pace_prof_rate(&pf, t[3], &next) == r[3] && next == t[3] + MS);
	for (i = 0; i + 1 < pf.n; i++)
		ramp_segment(&pf, i);
	CHECK(pace_prof_rate(&pf, 30 * S, &next) == r[5] && next == UINT64_MAX);
}

/* An lcore polling every `poll` ns that asks only at next, against asking always. */
static void
poll_same(const struct pace_prof *pf, uint64_t poll, uint64_t end)
{
	uint64_t t, next = 0, cur = 0, n2, calls = 0;

	for (t = 0; t < end; t += poll) {
		if (t >= next) {
			cur = pace_prof_rate(pf, t, &next);
			calls++;
		}
		if (pace_prof_rate(pf, t, &n2) != cur) {
			CHECKF(0, "t %" PRIu64 ": %" PRIu64 " held, %" PRIu64 " due", t, cur,
					pace_prof_rate(pf, t, &n2));
			return;
		}
	}
	CHECKF(calls <= (uint64_t)pf->n * (PACE_PROF_STEPS + 1), "%" PRIu64 " calls", calls);
}

/* The bytes a pacer lets out when its rate follows pf, against the integral. */
static void
pace_follow(const struct pace_prof *pf, uint64_t end, double want_bytes)
{
	struct pace_conf c = {.rate_bps = pf->bps[0], .overhead = 24, .bucket = 0};
	struct pace *p = pace_create(&c);
	uint64_t t, next = 0, sent = 0;

	REQUIRE(p != NULL);
	for (t = 0; t < end; t += 1000) {	/* a poll every us */
		uint32_t k;

		if (t >= next)
			REQUIRE(pace_change_rate(p, pace_prof_rate(pf, t, &next), t) == 0);
		k = pace_burst(p, t, 1476, 64);
		pace_sent(p, k, (uint64_t)k * 1476);
		sent += (uint64_t)k * 1500;
	}
	CHECKF((double)sent > want_bytes - 3000 && (double)sent < want_bytes + 3000,
			"sent %" PRIu64 " B, want %.0f", sent, want_bytes);
	pace_free(p);
}

static void
test_poll(void)
{
	static const uint64_t t[] = {0, 1 * S, 2 * S}, r[] = {100000000, 300000000, 200000000};
	struct pace_prof st = prof(0, 3, t, r), rp = prof(1, 3, t, r);

	poll_same(&st, 997, 3 * S);
	poll_same(&rp, 997, 3 * S);
	poll_same(&rp, 3 * MS + 1, 3 * S);
	/* steps: 0.1 + 0.3 + 0.2 Gbit over 3 s; ramp: 0.199 + 0.2505 + 0.2 (the staircase: each
	 * step at its start, 1/200 of the change below the line) */
	pace_follow(&st, 3 * S, (100e6 + 300e6 + 200e6) / 8);
	pace_follow(&rp, 3 * S, (199e6 + 250.5e6 + 200e6) / 8);
}

static void
test_check(void)
{
	static const uint64_t t[] = {0, 5 * S}, r[] = {1000, 2000};
	struct pace_prof pf = prof(0, 2, t, r);

	pf.t_ns[0] = 1;
	CHECK(pace_prof_check(&pf) < 0);
	pf.t_ns[0] = 0;
	pf.t_ns[1] = 0;
	CHECK(pace_prof_check(&pf) < 0);
	pf.t_ns[1] = 5 * S;
	pf.bps[1] = 1;
	CHECK(pace_prof_check(&pf) < 0);
	pf.bps[1] = PACE_RATE_MAX + 1;
	CHECK(pace_prof_check(&pf) < 0);
	pf.bps[1] = 2000;
	pf.n = 0;
	CHECK(pace_prof_check(&pf) < 0);
	pf.n = PACE_PROF_MAX + 1;
	CHECK(pace_prof_check(&pf) < 0);
	pf.n = 1;
	pf.ramp = 1;
	CHECK(pace_prof_check(&pf) < 0);
	CHECK(pace_prof_check(NULL) < 0);
}

/* pace_change_rate: bad rates refused with the pacer unchanged; a debt carried over. */
static void
test_change(void)
{
	struct pace_conf c = {.rate_bps = 1000000000, .overhead = 24};
	struct pace *p = pace_create(&c);
	uint64_t npb;

	REQUIRE(p != NULL);
	CHECK(pace_change_rate(p, 2000000000, 0) == 0);	/* not started: a set rate */
	CHECK(pace_burst(p, 1000, 1476, 64) == 1);	/* 1500 B at 2 Gbit/s: 6 us */
	pace_sent(p, 1, 1476);
	npb = pace_npb_of(p);
	CHECK(pace_change_rate(p, 0, 2000) == -EINVAL);
	CHECK(pace_change_rate(p, PACE_RATE_MAX + 1, 2000) == -EINVAL);
	CHECK(pace_npb_of(p) == npb);
	/* sent at 1 us, 6 us at 2 Gbit/s: at 2 us 5 us owed = 1250 B, 10 us at 1 Gbit/s */
	CHECK(pace_change_rate(p, 1000000000, 2000) == 0);
	CHECK(pace_ready(p, 11999) == 0);
	CHECK(pace_ready(p, 12000) == 1);
	pace_free(p);
}

int
main(void)
{
	test_steps();
	test_ramp();
	test_poll();
	test_check();
	test_change();
	return test_report("pace_prof");
}
