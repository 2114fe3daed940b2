/* SPDX-License-Identifier: BSD-3-Clause */
/* txonly's IMIX size lists (kinds/gen/imix.c): parsing, the sequence's counts
 * and spread, against a plain count of the weights. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kinds/gen/imix.h"
#include "test_harness.h"

static void
test_parse(void)
{
	struct eng_imix m;
	char err[128];

	CHECK(eng_imix_parse(&m, "64,594,1518", "7,4,1", 64, 9618, err, sizeof(err)) == 0);
	CHECK(m.nb_sizes == 3 && m.size[1] == 594 && m.weight[0] == 7 && m.seq_len == 12);
	CHECK(eng_imix_max(&m) == 1518);
	CHECKF(eng_imix_mean(&m) > 361.8 && eng_imix_mean(&m) < 361.9, "mean %f",
			eng_imix_mean(&m));
	CHECK(eng_imix_parse(&m, "128, 1KiB", NULL, 64, 9618, err, sizeof(err)) == 0);
	CHECK(m.nb_sizes == 2 && m.size[1] == 1024 && m.weight[1] == 1 && m.seq_len == 2);
	CHECK(eng_imix_parse(&m, "256", "", 64, 9618, err, sizeof(err)) == 0 && m.seq_len == 1);
	/* bad input: a clear reason */
	CHECK(eng_imix_parse(&m, "64,32", NULL, 64, 9618, err, sizeof(err)) == -EINVAL);
	CHECKF(strstr(err, "item 2") != NULL, "%s", err);
	CHECK(eng_imix_parse(&m, "64,594", "7", 64, 9618, err, sizeof(err)) == -EINVAL);
	CHECKF(strstr(err, "1 weights for 2 sizes") != NULL, "%s", err);
	CHECK(eng_imix_parse(&m, "64,,594", NULL, 64, 9618, err, sizeof(err)) == -EINVAL);
	CHECK(eng_imix_parse(&m, "64,594", "0,1", 64, 9618, err, sizeof(err)) == -EINVAL);
	CHECK(eng_imix_parse(&m, "64,594", "4000,100", 64, 9618, err, sizeof(err)) == -EINVAL);
	CHECKF(strstr(err, "add up") != NULL, "%s", err);
	CHECK(eng_imix_parse(&m, "", NULL, 64, 9618, err, sizeof(err)) == -EINVAL);
}

/* Each size appears weight times per sequence, and no run of one size is
 * longer than ceil(weight / other weights) + 1 (the spread). */
static void
test_sequence(const char *sizes, const char *weights)
{
	struct eng_imix m;
	char err[128];
	unsigned int i, k, cnt[ENG_IMIX_MAX_SIZES] = {0}, run = 0, maxrun = 0;

	REQUIRE(eng_imix_parse(&m, sizes, weights, 64, 9618, err, sizeof(err)) == 0);
	REQUIRE(eng_imix_build(&m) == 0);
	for (k = 0; k < m.seq_len; k++) {
		for (i = 0; i < m.nb_sizes && m.size[i] != m.seq[k]; i++)
			;
		REQUIRE(i < m.nb_sizes);
		cnt[i]++;
		run = k > 0 && m.seq[k] == m.seq[k - 1] ? run + 1 : 1;
		if (run > maxrun)
			maxrun = run;
	}
	for (i = 0; i < m.nb_sizes; i++)
		CHECKF(cnt[i] == m.weight[i], "%s/%s: size %u %u times, weight %u", sizes, weights,
				m.size[i], cnt[i], m.weight[i]);
	{
		uint32_t wmax = 0, rest;

		for (i = 0; i < m.nb_sizes; i++)
			wmax = m.weight[i] > wmax ? m.weight[i] : wmax;
		rest = m.seq_len - wmax;
		CHECKF(rest == 0 || maxrun <= (wmax + rest - 1) / rest + 1, "%s/%s: run of %u",
				sizes, weights, maxrun);
	}
	eng_imix_free(&m);
}

int
main(void)
{
	test_parse();
	test_sequence("64,594,1518", "7,4,1");
	test_sequence("64,128,256,512,1024,1518", NULL);
	test_sequence("64,1518", "1,99");
	test_sequence("64,576,1500", "58,33,9");
	test_sequence("1000", NULL);
	return test_report("imix");
}
