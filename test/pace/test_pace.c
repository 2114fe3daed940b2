/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/pace unit tests on a virtual clock (ns). Usage: test_pace NAME|all
 *
 *   ref     random schedules against the plain reference (pace_ref.h)
 *   stall   stalls of 0.1, 1, 10, 50 ms: exact bytes within the bound,
 *           the rest counted, never a burst above the bound
 *   rates   rates x sizes over long virtual time: the fixed point's
 *           prediction met exactly, no drift over 10^9 packets
 *   bucket  token-bucket depth, idle credit, stall credit on top of it
 *   api     bad configurations, monotonic time, counters
 *   setrate a rate changed mid-run: exact bytes at each rate, no burst or
 *           loss at the change, counters monotonic, bad rates refused
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pace.h"
#include "pace_ref.h"
#include "test_harness.h"

#define MS 1000000ull
#define US 1000ull

typedef unsigned __int128 u128;

static struct pace *
mk(uint64_t rate, uint32_t ovh, uint64_t catchup, uint64_t bucket)
{
	struct pace_conf c = { .rate_bps = rate, .overhead = ovh, .catchup_ns = catchup,
		.bucket = bucket };
	struct pace *p = pace_create(&c);

	REQUIRE(p != NULL);
	return p;
}

/*
 * (sigma, rho) monitor of what a caller sent: m is the largest excess of the
 * bytes sent in any window ending now over rate * window (bytes). A pacer
 * with bound L must keep m <= rate * L + one packet.
 */
struct envelope {
	double rate_Bpns, m, worst;
	uint64_t last;
};

static void
env_add(struct envelope *e, uint64_t now, uint64_t wire_bytes)
{
	e->m -= e->rate_Bpns * (double)(now - e->last);
	if (e->m < 0)
		e->m = 0;
	e->last = now;
	e->m += (double)wire_bytes;
	if (e->m > e->worst)
		e->worst = e->m;
}

/* ---------------------------------------------------------------- ref */

static void
cmp_stats(const struct pace *p, const struct pace_ref *r, uint64_t step)
{
	struct pace_stats st;

	pace_stats(p, &st);
	CHECKF(st.pkts == r->pkts && st.bytes == r->bytes, "step %" PRIu64, step);
	CHECKF(st.busy_ns == r->busy_ns, "step %" PRIu64 " busy %" PRIu64 " ref %" PRIu64, step,
	       st.busy_ns, r->busy_ns);
	CHECKF(st.stalls == r->stalls && st.lost_ns == (uint64_t)(r->lost >> 32),
	       "step %" PRIu64 " stalls %" PRIu64 "/%" PRIu64, step, st.stalls, r->stalls);
	CHECKF(st.max_lag_ns == r->max_lag_ns, "step %" PRIu64, step);
	CHECKF(pace_next(p) == (uint64_t)((r->t + 0xffffffffu) >> 32), "step %" PRIu64, step);
}

static void
ref_run(struct test_rng *g, unsigned int steps)
{
	static const uint64_t rates[] = { 1000, 1000000, 56000, 100000000, 999999937,
		1000000000, 2500000000ull, 10000000000ull, 100000000000ull, 400000000000ull };
	uint64_t rate = rates[test_rng_below(g, sizeof(rates) / sizeof(rates[0]))];
	uint32_t ovh = test_rng_below(g, 3) == 0 ? 0 : 24;
	uint64_t catchup = test_rng_below(g, 4) == 0 ? 0 : (1 + test_rng_below(g, 50)) * MS;
	uint64_t bucket = test_rng_below(g, 2) ? 0 : test_rng_below(g, 200000);
	struct pace *p;
	struct pace_ref r;
	uint64_t now = 1000 + test_rng_below(g, 1u << 30);
	unsigned int i;

	/* keep bucket time within the 4 s limit at slow rates */
	if ((double)bucket * 8e9 / (double)rate > 1e9)
		bucket = 0;
	p = mk(rate, ovh, catchup, bucket);
	pace_ref_init(&r, rate, ovh, catchup, bucket);
	CHECK(pace_npb_of(p) == (uint64_t)r.npb);
	for (i = 0; i < steps; i++) {
		uint32_t op = test_rng_below(g, 100), len = 64 + test_rng_below(g, 9000 - 63);
		uint64_t gap;

		/* gaps: mostly short, sometimes a stall of up to 60 ms, rarely backwards */
		if (test_rng_below(g, 50) == 0)
			gap = test_rng_below(g, 60 * MS);
		else
			gap = test_rng_below(g, (uint32_t)(20 * US));
		now += gap;
		if (test_rng_below(g, 200) == 0 && now > 5000)
			now -= 5000;
		if (op < 40) {
			uint32_t max = 1 + test_rng_below(g, 64);
			uint32_t k = pace_burst(p, now, len, max), kr = pace_ref_burst(&r, now, len, max);
			uint32_t sent;

			CHECKF(k == kr, "burst %u ref %u (rate %" PRIu64 ")", k, kr, rate);
			sent = test_rng_below(g, 4) == 0 ? test_rng_below(g, k + 1) : k;
			pace_sent(p, sent, (uint64_t)sent * len);
			pace_ref_sent(&r, sent, (uint64_t)sent * len);
		} else if (op < 65) {
			uint64_t b = pace_budget(p, now), br = pace_ref_budget(&r, now), wire = 0;
			uint32_t pk = 0;
			uint64_t bytes = 0;

			CHECKF(b == br, "budget %" PRIu64 " ref %" PRIu64, b, br);
			while (wire < b && pk < 256) {
				uint32_t l = 64 + test_rng_below(g, 1455);

				wire += l + ovh;
				bytes += l;
				pk++;
			}
			pace_sent(p, pk, bytes);
			pace_ref_sent(&r, pk, bytes);
		} else if (op < 80) {
			int a = pace_ready(p, now), ar = pace_ref_busy(&r, now);

			CHECKF(a == ar, "ready %d ref %d", a, ar);
			if (a) {
				pace_sent(p, 1, len);
				pace_ref_sent(&r, 1, len);
			}
		} else if (op < 97) {
			pace_idle(p, now);
			pace_ref_idle(&r, now);
		} else if (op < 99) {
			uint64_t d = test_rng_below(g, 5 * MS);

			pace_defer(p, d);
			pace_ref_defer(&r, d);
		} else {
			pace_reset(p, now);
			if (now < r.last)
				pace_ref_start(&r, r.last);
			else
				pace_ref_start(&r, now);
		}
		if (i % 97 == 0 || i + 1 == steps)
			cmp_stats(p, &r, i);
		if (test_failures > 20)
			break;
	}
	pace_free(p);
}

static void
test_ref(void)
{
	struct test_rng g;
	unsigned int k;

	test_rng_seed(&g, 16);
	for (k = 0; k < 200; k++)
		ref_run(&g, 5000);
	printf("ref: 200 random schedules x 5000 calls, identical to the reference\n");
}

/* -------------------------------------------------------------- stall */

/*
 * A caller that polls every 1 us, sends at most 64 packets per poll, is
 * stalled once for s ns at 100 ms, and stops at 400 ms. It must have sent
 * every packet whose slot started by then (the fixed point's count) when
 * s <= catch-up, and that many minus the (s - catch-up) not made up when
 * s > catch-up, which are counted; the envelope never exceeds the bound.
 */
static void
stall_run(uint64_t rate, uint32_t len, uint64_t stall)
{
	const uint32_t ovh = 24, max = 64;
	const uint64_t t0 = 5 * MS, t_stall = 100 * MS, t_end = 400 * MS;
	struct pace *p = mk(rate, ovh, 0, 0);
	struct envelope e = { .rate_Bpns = rate / 8e9, .last = t0 };
	struct pace_stats st;
	uint64_t now, sent = 0, cost_q, expect, lost_expect = 0, L = pace_bound_ns(p), slack;
	double bound;

	for (now = t0; now <= t_end; now += US) {
		uint32_t k;

		if (now == t_stall)
			now += stall;
		k = pace_burst(p, now, len, max);
		pace_sent(p, k, (uint64_t)k * len);
		sent += k;
		env_add(&e, now, (uint64_t)k * (len + ovh));
	}
	now -= US;
	pace_stats(p, &st);
	cost_q = (uint64_t)(len + ovh) * pace_npb_of(p);
	if (stall > L)
		lost_expect = stall - L;
	/* packets whose slots start in [t0, now] on the schedule minus what was lost */
	expect = (uint64_t)((((u128)(now - t0) << 32) - ((u128)st.lost_ns << 32)) / cost_q) + 1;
	bound = e.rate_Bpns * (double)L + (len + ovh);
	CHECKF(sent == expect || (stall > L && sent == expect + 1),
	       "rate %" PRIu64 " len %u stall %" PRIu64 ": sent %" PRIu64 " expect %" PRIu64, rate,
	       len, stall, sent, expect);
	/* the stall starts between two slots: the lag it leaves is the stall
	 * minus up to one slot, or plus up to the 1 us poll step */
	slack = (cost_q >> 32) + 1 + US;
	CHECKF(st.stalls == (stall > L ? 1u : 0u), "stalls %" PRIu64, st.stalls);
	CHECKF(st.lost_ns <= lost_expect + (lost_expect ? US : 0) &&
	       st.lost_ns + (lost_expect ? slack : 0) >= lost_expect,
	       "lost %" PRIu64 " ns, expect %" PRIu64, st.lost_ns, lost_expect);
	CHECKF(st.max_lag_ns <= stall + US && st.max_lag_ns + slack >= stall, "max lag %" PRIu64,
	       st.max_lag_ns);
	CHECKF(fabs((double)st.lost_bytes - st.lost_ns * e.rate_Bpns) <= 1, "lost bytes %" PRIu64,
	       st.lost_bytes);
	CHECKF(e.worst <= bound, "envelope %.0f > bound %.0f bytes", e.worst, bound);
	if (stall >= 10 * MS)
		CHECKF(e.worst >= e.rate_Bpns * (double)(stall < L ? stall : L),
		       "catch-up burst %.0f smaller than the stall", e.worst);
	pace_free(p);
}

static void
test_stall(void)
{
	static const uint64_t stalls[] = { 100 * US, 1 * MS, 10 * MS, 50 * MS };
	static const uint64_t rates[] = { 100000000, 1000000000, 10000000000ull };
	static const uint32_t lens[] = { 64, 1518, 9000 };
	unsigned int s, r, l;

	for (s = 0; s < 4; s++)
		for (r = 0; r < 3; r++)
			for (l = 0; l < 3; l++)
				stall_run(rates[r], lens[l], stalls[s]);
	printf("stall: 0.1/1/10 ms made up exactly, 50 ms: 30 ms counted lost (bound %llu ms)\n",
	       PACE_CATCHUP_DEFAULT_NS / MS);
}

/* -------------------------------------------------------------- rates */

/*
 * Every rate x size for 2 s of virtual time, polled at random 0..40 us with
 * no limit per poll: the packets sent are exactly those whose slot starts
 * by the end on the fixed-point schedule, and that count is the ideal
 * rate * time within one packet plus the rounding of ns_per_byte. Then the
 * drift over 10^9 packets, analytically: the schedule moves by exactly
 * 10^9 * cost_q (checked: 10^6 single sends == one send of 10^6).
 */
static void
test_rates(void)
{
	static const uint64_t rates[] = { 1000000, 10000000, 100000000, 1000000000,
		2500000000ull, 10000000000ull, 25000000000ull, 40000000000ull, 100000000000ull };
	static const uint32_t lens[] = { 64, 128, 576, 1500, 1518, 9000 };
	const uint32_t ovh = 20;
	struct test_rng g;
	double worst_run = 0, worst_drift = 0;
	unsigned int r, l;

	test_rng_seed(&g, 1600);
	for (r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
		for (l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
			struct pace *p = mk(rates[r], ovh, 0, 0), *q = mk(rates[r], ovh, 0, 0);
			uint64_t t0 = 12345, now = t0, end = t0 + 2000 * MS, sent = 0, expect, i;
			uint64_t cost_q = (uint64_t)(lens[l] + ovh) * pace_npb_of(p);
			double ideal, err, drift;

			while (now < end) {
				uint32_t k = pace_burst(p, now, lens[l], UINT32_MAX);

				pace_sent(p, k, (uint64_t)k * lens[l]);
				sent += k;
				now += test_rng_below(&g, (uint32_t)(40 * US));
			}
			now = end;
			{
				uint32_t k = pace_burst(p, now, lens[l], UINT32_MAX);

				pace_sent(p, k, (uint64_t)k * lens[l]);
				sent += k;
			}
			expect = (uint64_t)(((u128)(end - t0) << 32) / cost_q) + 1;
			CHECKF(sent == expect, "rate %" PRIu64 " len %u: %" PRIu64 " vs %" PRIu64,
			       rates[r], lens[l], sent, expect);
			ideal = (double)(end - t0) * rates[r] / 8e9 / (lens[l] + ovh);
			err = fabs((double)sent - ideal);
			CHECKF(err <= 1.0 + ideal * 1e-8, "rate %" PRIu64 " len %u: %" PRIu64
			       " packets, ideal %.3f", rates[r], lens[l], sent, ideal);
			if (err > worst_run)
				worst_run = err;
			/* exactness: 10^6 single steps == one step of 10^6 */
			pace_free(p);
			p = mk(rates[r], ovh, 0, 0);
			pace_reset(p, 0);
			pace_reset(q, 0);
			for (i = 0; i < 1000000; i++)
				pace_sent(q, 1, lens[l]);
			pace_sent(p, 1000000, 1000000ull * lens[l]);
			CHECK(pace_next(p) == pace_next(q));
			CHECK(pace_next(p) == (uint64_t)(((u128)1000000 * cost_q + 0xffffffffu) >> 32));
			/* 10^9 packets: schedule 10^9 * cost_q / 2^32 ns vs the ideal */
			drift = fabs(1e9 * ((double)cost_q / 4294967296.0) -
				     1e9 * (lens[l] + ovh) * 8e9 / (double)rates[r]);
			drift /= 1e9 * (lens[l] + ovh) * 8e9 / (double)rates[r];
			CHECKF(drift <= 1.0 / 8589934592.0 / ((double)pace_npb_of(p) / 4294967296.0) * 1.01,
			       "drift %.3g", drift);
			if (drift > worst_drift)
				worst_drift = drift;
			pace_free(p);
			pace_free(q);
		}
	}
	CHECKF(worst_drift < 1e-8, "worst relative rate error %.3g", worst_drift);
	printf("rates: 9 rates x 6 sizes, 2 s each: exact count; worst |sent - ideal| %.3f packets;"
	       " relative rate error of the fixed point (any run length) <= %.2g\n", worst_run,
	       worst_drift);
}

/* ------------------------------------------------------------- bucket */

static void
test_bucket(void)
{
	const uint64_t rate = 100000000, B = 30000;	/* 100 Mbit/s, 30 kB bucket */
	const uint32_t len = 1000, ovh = 24;
	struct pace *p = mk(rate, ovh, 10 * MS, B);
	struct pace_stats st;
	uint64_t now = 1000 * MS, cost_q = (uint64_t)(len + ovh) * pace_npb_of(p), n_bucket;
	uint32_t k;

	n_bucket = (uint64_t)(((u128)B * pace_npb_of(p)) / cost_q) + 1;
	/* start: a full bucket */
	k = pace_burst(p, now, len, UINT32_MAX);
	CHECKF(k == n_bucket, "start burst %u, bucket %" PRIu64, k, n_bucket);
	pace_sent(p, k, (uint64_t)k * len);
	/* 1 s of reported idleness: again the bucket, not more */
	for (; now < 2000 * MS; now += 50 * US)
		pace_idle(p, now);
	k = pace_burst(p, now, len, UINT32_MAX);
	CHECKF(k == n_bucket, "after idle %u", k);
	pace_sent(p, k, (uint64_t)k * len);
	pace_stats(p, &st);
	CHECK(st.stalls == 0 && st.lost_ns == 0);
	/* busy and punctual for 100 ms: exactly the rate */
	{
		uint64_t t1 = now, sent = 0;

		for (now += 10 * US; now <= t1 + 100 * MS; now += 10 * US) {
			k = pace_burst(p, now, len, UINT32_MAX);
			pace_sent(p, k, (uint64_t)k * len);
			sent += k;
		}
		now -= 10 * US;
		CHECKF(llabs((int64_t)sent - (int64_t)((now - t1) * rate / 8e9 / (len + ovh))) <= 1,
		       "busy %" PRIu64, sent);
	}
	/* a busy 5 ms stall: made up (5 ms worth in one burst, no loss) */
	now += 5 * MS;
	k = pace_burst(p, now, len, UINT32_MAX);
	CHECKF(k + 1 >= (uint64_t)(5 * MS * rate / 8e9 / (len + ovh)) &&
	       k <= (uint64_t)(5 * MS * rate / 8e9 / (len + ovh)) + 2, "after a 5 ms stall %u", k);
	pace_sent(p, k, (uint64_t)k * len);
	/* a busy 50 ms stall: catch-up + bucket kept, the rest counted (the lag
	 * before it is within one slot of 0) */
	now += 50 * MS;
	k = pace_burst(p, now, len, UINT32_MAX);
	pace_stats(p, &st);
	CHECKF(st.stalls == 1 && fabs(st.lost_ns + 10e6 + B * 8e9 / rate - 50e6) <=
	       (cost_q >> 32) + 10 * US, "stall counted %" PRIu64 " lost %" PRIu64, st.stalls,
	       st.lost_ns);
	CHECKF(k == (uint64_t)((((u128)10 * MS << 32) + (u128)B * pace_npb_of(p)) / cost_q) + 1,
	       "burst after the long stall %u", k);
	pace_sent(p, k, (uint64_t)k * len);
	/* idle reported, then a gap: silent (the caller was idle), bounded */
	pace_idle(p, now);
	now += 40 * MS;
	k = pace_burst(p, now, len, UINT32_MAX);
	pace_stats(p, &st);
	CHECKF(st.stalls == 1, "an idle gap counted as a stall");
	CHECKF(k <= (uint64_t)((((u128)10 * MS << 32) + (u128)B * pace_npb_of(p)) / cost_q) + 1,
	       "idle gap burst %u", k);
	pace_free(p);
	printf("bucket: %" PRIu64 "-packet bucket after idle, stall credit on top, idle gaps silent\n",
	       n_bucket);
}

/* ---------------------------------------------------------------- api */

static void
test_api(void)
{
	struct pace_conf c = { .rate_bps = 0 };
	struct pace_stats st;
	struct pace *p;
	_Alignas(16) unsigned char mem[512];
	uint64_t now;

	errno = 0;
	CHECK(pace_create(&c) == NULL && errno == EINVAL);
	c.rate_bps = PACE_RATE_MAX + 1;
	CHECK(pace_create(&c) == NULL && errno == EINVAL);
	c.rate_bps = PACE_RATE_MIN;
	c.bucket = 1000;	/* 8 s at 1 kbit/s */
	CHECK(pace_create(&c) == NULL && errno == ERANGE);
	c.bucket = 0;
	c.catchup_ns = PACE_LAG_MAX_NS + 1;
	CHECK(pace_create(&c) == NULL && errno == ERANGE);
	c.catchup_ns = 0;
	CHECK(pace_create(NULL) == NULL);
	CHECK(pace_size() <= sizeof(mem));
	CHECK(pace_init(mem + 8, sizeof(mem) - 8, &c) == NULL && errno == EINVAL);
	CHECK(pace_init(mem, pace_size() - 1, &c) == NULL);
	CHECK(pace_npb(0) == 0 && pace_npb(8000000000ull) == 1ull << 32);
	c.rate_bps = 1000000000;
	p = pace_init(mem, sizeof(mem), &c);
	REQUIRE(p != NULL);
	CHECK(pace_bound_ns(p) == PACE_CATCHUP_DEFAULT_NS);
	CHECK(pace_next(p) == 0);
	CHECK(pace_ready(p, 1000) == 1);
	pace_sent(p, 1, 125);		/* 1000 ns at 1 Gbit/s */
	CHECK(pace_next(p) == 2000);
	CHECK(pace_ready(p, 1999) == 0);
	CHECK(pace_ready(p, 500) == 0);	/* earlier time: taken as 1999 */
	CHECK(pace_budget(p, 2000) == 1);
	CHECK(pace_budget(p, 2007) == 1);
	CHECK(pace_budget(p, 2008) == 2);
	pace_defer(p, 3000);
	CHECK(pace_next(p) == 5000 && pace_ready(p, 4999) == 0);
	pace_stats(p, &st);
	CHECK(st.stalls == 1 && st.lost_ns == 3000 && st.lost_bytes == 375);
	/* a busy, punctual caller achieves the configured rate */
	for (now = 5000; now < 10 * MS; now += 100) {
		uint32_t k = pace_burst(p, now, 100, 1000);

		pace_sent(p, k, 100ull * k);
	}
	pace_stats(p, &st);
	CHECKF(st.achieved_ppm > 999000 && st.achieved_ppm <= 1000100, "achieved %" PRIu64 " ppm",
	       st.achieved_ppm);
	CHECK(pace_stats(NULL, &st) == -EINVAL);
	pace_free(NULL);
	printf("api: ok\n");
}

/* ------------------------------------------------------------ setrate */

/* A punctual caller of len-byte packets from *now to end (1 us polls): wire bytes sent. */
static uint64_t
drive(struct pace *p, uint64_t *now, uint64_t end, uint32_t len, uint32_t ovh)
{
	uint64_t wire = 0;

	for (; *now < end; *now += US) {
		uint32_t k = pace_burst(p, *now, len, 64);

		pace_sent(p, k, (uint64_t)k * len);
		wire += (uint64_t)k * (len + ovh);
	}
	return wire;
}

static void
test_setrate(void)
{
	struct pace_stats st, st2;
	struct pace *p = mk(1000000000ull, 24, 0, 0);
	uint64_t now = 1000 * US, w1, w3, want;

	w1 = drive(p, &now, now + 100 * MS, 1514, 24);
	want = 1000000000ull / 8 / 10;	/* 100 ms at 1 Gbit/s */
	CHECKF(w1 >= want - 1538 && w1 <= want + 2 * 1538, "1G: %" PRIu64 " B, want %" PRIu64,
	       w1, want);
	pace_stats(p, &st);
	CHECK(pace_set_rate(p, 0, now) == -EINVAL);
	CHECK(pace_set_rate(p, PACE_RATE_MAX + 1, now) == -EINVAL);
	pace_stats(p, &st2);
	CHECK(st2.rate_bps == 1000000000ull);
	CHECK(pace_set_rate(p, 3000000000ull, now) == 0);
	w3 = drive(p, &now, now + 100 * MS, 1514, 24);
	want = 3000000000ull / 8 / 10;
	CHECKF(w3 >= want - 1538 && w3 <= want + 2 * 1538, "3G: %" PRIu64 " B, want %" PRIu64,
	       w3, want);
	pace_stats(p, &st2);
	CHECK(st2.rate_bps == 3000000000ull && st2.pkts > st.pkts && st2.busy_ns > st.busy_ns);
	CHECK(st2.stalls == 0 && st2.lost_ns == 0);
	CHECKF(st2.achieved_ppm > 990000 && st2.achieved_ppm <= 1001000,
	       "achieved %" PRIu64 " ppm of the new rate", st2.achieved_ppm);
	/* down again, after an idle gap of 50 ms: no burst of the gap at either rate */
	now += 50 * MS;
	pace_idle(p, now);
	CHECK(pace_set_rate(p, 200000000ull, now) == 0);
	w1 = drive(p, &now, now + 100 * MS, 1514, 24);
	want = 200000000ull / 8 / 10;
	CHECKF(w1 >= want - 1538 && w1 <= want + 2 * 1538, "200M: %" PRIu64 " B, want %" PRIu64,
	       w1, want);
	pace_free(p);
	/* a bucket whose time at the new rate is over the bound: refused, pacer kept */
	p = mk(1000000000ull, 24, 0, 100000);
	CHECK(pace_set_rate(p, PACE_RATE_MIN, 0) == -ERANGE);
	pace_stats(p, &st);
	CHECK(st.rate_bps == 1000000000ull);
	pace_free(p);
	printf("setrate: ok\n");
}

static const struct {
	const char *name;
	void (*fn)(void);
} tests[] = {
	{ "ref", test_ref }, { "stall", test_stall }, { "rates", test_rates },
	{ "bucket", test_bucket }, { "api", test_api }, { "setrate", test_setrate },
};

int
main(int argc, char **argv)
{
	unsigned int i, ran = 0;

	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (argc < 2 || strcmp(argv[1], "all") == 0 || strcmp(argv[1], tests[i].name) == 0) {
			tests[i].fn();
			ran++;
		}
	if (ran == 0) {
		fprintf(stderr, "unknown test\n");
		return 2;
	}
	return test_report("pace");
}
