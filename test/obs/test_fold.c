/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Summary folding (app/dfcp-engine/obs/fold.c, no EAL): counts, total,
 * nearest-rank percentiles, weighted Jain's index, the slowest flows by
 * goodput / weight, failure classes, and the JSON members, against values
 * worked out by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/fold.h"
#include "obs/out.h"
#include "test_harness.h"

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static void
test_stats(void)
{
	static char names[100][8];
	struct eng_fold_flow v[100];
	struct eng_fold s;
	unsigned int i;

	/* goodputs 1..100 Mbit/s, equal weights */
	for (i = 0; i < 100; i++) {
		snprintf(names[i], sizeof(names[i]), "g.%u", i);
		v[i] = (struct eng_fold_flow){names[i], 100.0 - i, 1, 1, ""};
	}
	REQUIRE(eng_fold_compute(v, 100, &s) == 0);
	CHECK(s.n == 100 && s.completed == 100 && s.failed == 0);
	CHECK(near(s.total_mbps, 5050) && near(s.min, 1) && near(s.max, 100));
	CHECK(near(s.p50, 50) && near(s.p90, 90) && near(s.p99, 99));
	/* Jain = (sum x)^2 / (n sum x^2) = 5050^2 / (100 x 338350) */
	CHECK(near(s.jain, 5050.0 * 5050.0 / (100.0 * 338350.0)));
	CHECK(s.nb_slow == ENG_FOLD_TOP && s.slow[0] == 99 && s.slow[1] == 98);

	/* weighted: goodput proportional to weight is perfectly fair */
	for (i = 0; i < 8; i++)
		v[i] = (struct eng_fold_flow){names[i], 10.0 * (1 + i % 4), 1 + i % 4, 1, ""};
	REQUIRE(eng_fold_compute(v, 8, &s) == 0);
	CHECK(near(s.jain, 1.0) && near(s.min, 10) && near(s.max, 40) && near(s.p50, 20));
	/* one flow at half its share is the slowest, though its goodput is not the lowest */
	v[7].mbps = 20;
	REQUIRE(eng_fold_compute(v, 8, &s) == 0);
	CHECK(s.slow[0] == 7 && s.jain < 1.0);

	/* a single flow; none */
	REQUIRE(eng_fold_compute(v, 1, &s) == 0);
	CHECK(near(s.p99, 10) && near(s.jain, 1.0) && s.nb_slow == 1);
	REQUIRE(eng_fold_compute(v, 0, &s) == 0);
	CHECK(s.n == 0 && s.jain == 0.0 && s.nb_slow == 0);
}

static void
test_failed(void)
{
	struct eng_fold_flow v[64];
	char buf[256];
	struct eng_fold s;
	unsigned int i;

	eng_fold_class("goal not reached: 123 of 4096 bytes acknowledged", buf, sizeof(buf));
	CHECK(strcmp(buf, "goal not reached: N of N bytes acknowledged") == 0);
	eng_fold_class("connection closed (syn-timeout) after 0 bytes", buf, sizeof(buf));
	CHECK(strcmp(buf, "never connected (syn-timeout)") == 0);
	for (i = 0; i < 64; i++)
		v[i] = (struct eng_fold_flow){"f", i < 16 ? 5.0 : 0.0, 1, i < 16, i < 16 ? "" :
			i < 60 ? "connection closed (syn-timeout) after 0 bytes" :
			"verify failed: 3 bad bytes, 0 out of order"};
	REQUIRE(eng_fold_compute(v, 64, &s) == 0);
	CHECK(s.completed == 16 && s.failed == 48 && s.nb_classes == 2);
	eng_fold_failures_str(&s, buf, sizeof(buf));
	CHECKF(strcmp(buf, "48 of 64 flows failed: 44 never connected (syn-timeout), "
			"4 verify failed: N bad bytes, N out of order") == 0, "%s", buf);
	/* a class of one flow shows that flow's reason, numbers and all */
	v[63].fail = "connection closed (reset) after 1234 bytes";
	REQUIRE(eng_fold_compute(v, 64, &s) == 0);
	eng_fold_failures_str(&s, buf, sizeof(buf));
	CHECKF(strcmp(buf, "48 of 64 flows failed: 44 never connected (syn-timeout), "
			"3 verify failed: N bad bytes, N out of order, "
			"1 connection closed (reset) after 1234 bytes") == 0, "%s", buf);
	/* more classes than named: the rest counted */
	for (i = 0; i < 6; i++) {
		static char f[6][32];

		snprintf(f[i], sizeof(f[i]), "reason %c", 'a' + i);
		v[i] = (struct eng_fold_flow){"f", 0, 1, 0, f[i]};
	}
	REQUIRE(eng_fold_compute(v, 6, &s) == 0);
	CHECK(s.nb_classes == ENG_FOLD_CLASSES && s.other_failed == 2);
}

static void
test_json(void)
{
	struct eng_fold_flow v[2] = {{"a", 10, 1, 1, ""}, {"b", 30, 1, 0, "never connected"}};
	struct eng_fold s;
	struct eng_out o;
	size_t len = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);

	REQUIRE(f != NULL && eng_fold_compute(v, 2, &s) == 0);
	eng_out_json(&o, f);
	eng_out_obj(&o, NULL);
	eng_fold_write(&o, v, &s);
	eng_out_end(&o);
	eng_out_finish(&o);
	fclose(f);
	CHECKF(strstr(buf, "\"flows\": 2") != NULL && strstr(buf, "\"goodput_total_mbps\": 40.000")
			!= NULL && strstr(buf, "\"jain\": 0.800000") != NULL &&
			strstr(buf, "\"slowest\": \"a 10.0, b 30.0\"") != NULL &&
			strstr(buf, "\"failures\": \"1 of 2 flows failed: 1 never connected\"") != NULL,
			"%s", buf);
	free(buf);
}

int
main(void)
{
	test_stats();
	test_failed();
	test_json();
	return test_report("test_fold");
}
