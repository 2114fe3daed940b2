/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The paced-rate view (app/dfcp-engine/obs/pace_view.c) without EAL: a lib/pace
 * pacer driven on a virtual clock, then the view's achieved rate, the period
 * rate, the lost time of a stall past the catch-up bound and the summary's
 * warning line with its cause (stall, tx queue full, mbufs, CPU).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/pace_view.h"
#include "pace.h"
#include "test_harness.h"

#define RATE	1000000000ull	/* 1 Gbit/s */
#define LEN	1514u		/* frame without FCS; + 24 on the wire = 12.304 us */

/* Send whatever the pacer allows, polling every step ns from t to end. */
static uint64_t
drive(struct pace *p, uint64_t t, uint64_t end, uint64_t step)
{
	for (; t < end; t += step) {
		uint32_t n = pace_burst(p, t, LEN, 32);

		if (n != 0)
			pace_sent(p, n, (uint64_t)n * LEN);
	}
	return t;
}

static char *
warn_text(const struct eng_pace_view *v, int *warned)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	REQUIRE(f != NULL);
	*warned = eng_pace_warn(f, v);
	fclose(f);
	return buf;
}

static void
test_steady(void)
{
	struct pace_conf c = {.rate_bps = RATE, .overhead = 24, .catchup_ns = 20000000ull};
	struct pace *p = pace_create(&c);
	struct eng_pace_view v = {.task = "tx0", .name = "tx0"};
	struct eng_pace_mark mark = {0};
	char *w;
	int warned;

	REQUIRE(p != NULL);
	drive(p, 1000, 1000000000ull, 5000);
	CHECK(eng_pace_view_fill(&v, p, &mark) == 0);
	CHECKF(v.achieved_ppm >= 999000 && v.achieved_ppm <= 1001000, "ppm %u", v.achieved_ppm);
	CHECKF(v.rate_mbps == 1000.0, "rate %f", v.rate_mbps);
	CHECKF(v.period_mbps > 999.0 && v.period_mbps < 1001.0, "period %f", v.period_mbps);
	CHECK(v.stalls == 0 && v.lost_ms == 0.0);
	CHECK(mark.wire_bytes == v.wire_bytes);
	w = warn_text(&v, &warned);
	CHECKF(!warned && w[0] == '\0', "warned at full rate: %s", w);
	free(w);
	/* the summary view (no mark) leaves the mark alone */
	CHECK(eng_pace_view_fill(&v, p, NULL) == 0 && mark.wire_bytes == v.wire_bytes);
	CHECK(eng_pace_view_fill(NULL, p, NULL) < 0 && eng_pace_view_fill(&v, NULL, NULL) < 0);
	pace_free(p);
}

static void
test_stall(void)
{
	struct pace_conf c = {.rate_bps = RATE, .overhead = 24, .catchup_ns = 20000000ull};
	struct pace *p = pace_create(&c);
	struct eng_pace_view v = {.task = "d0", .name = "f1"};
	char *w;
	int warned;
	uint64_t t;

	REQUIRE(p != NULL);
	/* 0.5 s, a 100 ms stall (80 ms past the 20 ms bound), 0.4 s */
	t = drive(p, 1000, 500000000ull, 5000);
	t = drive(p, t + 100000000ull, 1000000000ull, 5000);
	CHECK(eng_pace_view_fill(&v, p, NULL) == 0);
	CHECKF(v.stalls == 1, "stalls %" PRIu64, v.stalls);
	CHECKF(v.lost_ms > 79.9 && v.lost_ms < 80.1, "lost %f ms", v.lost_ms);
	CHECKF(v.achieved_pct > 91.5 && v.achieved_pct < 92.5, "achieved %f %%", v.achieved_pct);
	w = warn_text(&v, &warned);
	CHECKF(warned && strstr(w, "task d0 flow f1") != NULL && strstr(w, "stall time lost") != NULL,
			"stall warning: %s", w);
	free(w);
	/* without lost time the cause comes from the task's counters */
	v.lost_ms = 0;
	v.tx_full = 7;
	w = warn_text(&v, &warned);
	CHECKF(warned && strstr(w, "tx queue full: 7") != NULL, "tx full: %s", w);
	free(w);
	v.tx_full = 0;
	v.no_mbuf = 3;
	w = warn_text(&v, &warned);
	CHECKF(warned && strstr(w, "mbufs exhausted") != NULL, "no mbuf: %s", w);
	free(w);
	v.no_mbuf = 0;
	w = warn_text(&v, &warned);
	CHECKF(warned && strstr(w, "CPU busy") != NULL, "cpu: %s", w);
	free(w);
	pace_free(p);
}

static void
test_table(void)
{
	unsigned int i, j;

	for (i = 0; i < ENG_PACE_NCTRS; i++) {
		CHECKF(eng_pace_ctrs[i].name != NULL && eng_pace_ctrs[i].help != NULL, "entry %u", i);
		for (j = 0; j < i; j++)
			CHECK(strcmp(eng_pace_ctrs[i].name, eng_pace_ctrs[j].name) != 0);
	}
}

int
main(void)
{
	test_steady();
	test_stall();
	test_table();
	return test_report("test_pace_view");
}
