/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's output writer (app/dfcp-engine/obs/out.c) without EAL: JSON
 * string escaping, nesting, commas and numbers, the text lines, counter
 * tables and their views, too-deep nesting, one-line JSON (JSON Lines and
 * console answers). Outputs are compared with
 * the exact expected bytes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "obs/out.h"
#include "test_harness.h"

static char *buf;
static size_t len;

static FILE *
mem_open(void)
{
	FILE *f = open_memstream(&buf, &len);

	REQUIRE(f != NULL);
	return f;
}

static void
expect(FILE *f, const char *want, const char *what)
{
	fclose(f);
	CHECKF(strcmp(buf, want) == 0, "%s:\n--- got ---\n%s\n--- want ---\n%s", what, buf, want);
	free(buf);
	buf = NULL;
}

static void
test_escape(void)
{
	char out[64];
	size_t n;

	n = eng_json_escape(out, sizeof(out), "a\"b\\c\n\t\x01\x7f" "\xc3\xa9");
	CHECKF(strcmp(out, "a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9") == 0, "escape: %s", out);
	CHECK(n == strlen(out));
	/* truncation: NUL-terminated, the full length returned */
	n = eng_json_escape(out, 5, "\"\"\"\"");
	CHECKF(n == 8 && strlen(out) == 4, "truncated: %zu \"%s\"", n, out);
	n = eng_json_escape(out, sizeof(out), "");
	CHECK(n == 0 && out[0] == '\0');
}

static void
test_json(void)
{
	struct eng_out o;
	FILE *f = mem_open();
	char longs[300];

	memset(longs, 'x', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	longs[100] = '"';
	eng_out_json(&o, f);
	eng_out_str(&o, "config", "a \"quoted\"\\path\n");
	eng_out_dbl(&o, "duration_s", 1.5, 6);
	eng_out_arr(&o, "ports");
	eng_out_item(&o, "port", "p0");
	eng_out_str(&o, "name", "p0");
	eng_out_u64(&o, "rx", UINT64_MAX);
	eng_out_int(&o, "neg", -42);
	eng_out_bool(&o, "up", 1);
	eng_out_dbl(&o, "nan", NAN, 3);
	eng_out_end(&o);
	eng_out_item(&o, "port", "p1");
	eng_out_obj(&o, "drops");
	eng_out_end(&o);
	eng_out_arr(&o, "names");
	eng_out_str(&o, NULL, "r1");
	eng_out_str(&o, NULL, "r2");
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_arr(&o, "empty");
	eng_out_end(&o);
	eng_out_obj(&o, "by_task");
	eng_out_obj(&o, "d1");
	eng_out_u64(&o, "addr", 3);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_str(&o, "long", longs);
	CHECK(eng_out_finish(&o) == 0);
	{
		char want[2048];

		snprintf(want, sizeof(want),
				"{\n"
				"  \"config\": \"a \\\"quoted\\\"\\\\path\\n\",\n"
				"  \"duration_s\": 1.500000,\n"
				"  \"ports\": [\n"
				"    {\"name\": \"p0\", \"rx\": 18446744073709551615, \"neg\": -42, "
				"\"up\": true, \"nan\": null},\n"
				"    {\"drops\": {}, \"names\": [\"r1\", \"r2\"]}\n"
				"  ],\n"
				"  \"empty\": [],\n"
				"  \"by_task\": {\"d1\": {\"addr\": 3}},\n"
				"  \"long\": \"%.100s\\\"%s\"\n"
				"}\n", longs, longs + 101);
		expect(f, want, "json");
	}
}

static void
test_json_nested_arrays(void)
{
	struct eng_out o;
	FILE *f = mem_open();

	eng_out_json(&o, f);
	eng_out_arr(&o, "pipes");
	eng_out_item(&o, NULL, "link");
	eng_out_u64(&o, "in", 1);
	eng_out_arr(&o, "queues");
	eng_out_item(&o, NULL, "q1");
	eng_out_u64(&o, "w", 50);
	eng_out_end(&o);
	eng_out_item(&o, NULL, "q2");
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_end(&o);
	/* unbalanced: finish closes what is open */
	eng_out_arr(&o, "open");
	eng_out_u64(&o, NULL, 7);
	CHECK(eng_out_finish(&o) == 0);
	expect(f, "{\n"
			"  \"pipes\": [\n"
			"    {\"in\": 1, \"queues\": [\n"
			"      {\"w\": 50},\n"
			"      {}\n"
			"    ]}\n"
			"  ],\n"
			"  \"open\": [7]\n"
			"}\n", "nested arrays");
}

/* eng_out_json_line: the same nesting as test_json_nested_arrays on one line. */
static void
test_json_line(void)
{
	struct eng_out o;
	FILE *f = mem_open();

	eng_out_json_line(&o, f);
	eng_out_dbl(&o, "time_s", 0.5, 3);
	eng_out_arr(&o, "pipes");
	eng_out_item(&o, NULL, "link");
	eng_out_u64(&o, "in", 1);
	eng_out_arr(&o, "queues");
	eng_out_item(&o, NULL, "q1");
	eng_out_str(&o, "name", "a\nb");
	eng_out_end(&o);
	eng_out_item(&o, NULL, "q2");
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_arr(&o, "console");
	eng_out_str(&o, NULL, "set rate tx0 3G");
	CHECK(eng_out_finish(&o) == 0);
	expect(f, "{\"time_s\": 0.500, \"pipes\": [{\"in\": 1, \"queues\": [{\"name\": \"a\\nb\"}, "
			"{}]}], \"console\": [\"set rate tx0 3G\"]}\n", "json line");
}

static void
test_deep(void)
{
	struct eng_out o;
	FILE *f = mem_open();
	int i;

	eng_out_json(&o, f);
	for (i = 0; i < ENG_OUT_DEPTH + 3; i++)
		eng_out_obj(&o, "d");
	eng_out_u64(&o, "x", 1);	/* too deep: dropped */
	for (i = 0; i < ENG_OUT_DEPTH + 3; i++)
		eng_out_end(&o);
	eng_out_u64(&o, "after", 2);
	CHECK(eng_out_finish(&o) == -ENOSPC);
	fclose(f);
	/* balanced braces despite the error, and the member after it written */
	{
		int open = 0, close = 0;
		const char *p;

		for (p = buf; *p; p++)
			open += *p == '{', close += *p == '}';
		CHECKF(open == close && open == ENG_OUT_DEPTH + 1, "braces %d/%d", open, close);
		CHECKF(strstr(buf, "\"after\": 2") != NULL && strstr(buf, "\"x\"") == NULL,
				"%s", buf);
	}
	free(buf);
	buf = NULL;
}

struct sample {
	uint64_t pkts;
	uint32_t win;
	int state;
	int done;
	double mbps;
	const char *role;
	char name[8];
};

static const struct eng_ctr sample_ctrs[] = {
	ENG_CTR(struct sample, name, ENG_CT_CHARS, "name", "", ENG_V_DATA, 0, "flow name"),
	ENG_CTR_U64(struct sample, pkts, "tx_packets", "pkts", "frames sent"),
	ENG_CTR_U32(struct sample, win, "window", "blocks", "window"),
	ENG_CTR(struct sample, state, ENG_CT_INT, "state", "", ENG_V_JSON, 0, "state"),
	ENG_CTR(struct sample, done, ENG_CT_BOOL, "done", "", 0, 0, "finished"),
	ENG_CTR_DBL(struct sample, mbps, "goodput_mbps", "Mbit/s", 3, "goodput"),
	ENG_CTR(struct sample, role, ENG_CT_STR, "role", "", ENG_V_TEXT, 0, "role"),
};

static void
test_counters(void)
{
	struct sample s = {.pkts = 10, .win = 7, .state = -1, .done = 1, .mbps = 2.0 / 3,
			   .role = "sender", .name = "f1"};
	struct eng_out o;
	FILE *f = mem_open();

	eng_out_json(&o, f);
	eng_out_arr(&o, "flows");
	eng_out_item(&o, "flow", "f1");
	eng_out_counters(&o, sample_ctrs, (sizeof(sample_ctrs) / sizeof(sample_ctrs[0])), &s);
	eng_out_end(&o);
	eng_out_end(&o);
	CHECK(eng_out_finish(&o) == 0);
	expect(f, "{\n"
			"  \"flows\": [\n"
			"    {\"name\": \"f1\", \"tx_packets\": 10, \"window\": 7, \"state\": -1, "
			"\"done\": true, \"goodput_mbps\": 0.667}\n"
			"  ]\n"
			"}\n", "counters json");

	f = mem_open();
	eng_out_text(&o, f, 2);
	eng_out_arr(&o, "flows");
	eng_out_item(&o, "flow", "f1");
	eng_out_counters(&o, sample_ctrs, (sizeof(sample_ctrs) / sizeof(sample_ctrs[0])), &s);
	eng_out_item(&o, "conn", "0");	/* nested item: its own, deeper line */
	eng_out_u64(&o, "rtt_ns", 5);
	eng_out_end(&o);
	eng_out_end(&o);
	eng_out_item(&o, "flow", "f2");
	eng_out_str(&o, "role", "");
	eng_out_obj(&o, "drops");	/* empty object inside a line */
	eng_out_end(&o);
	eng_out_obj(&o, "errs");
	eng_out_u64(&o, "stale", 3);
	eng_out_u64(&o, "short", 1);
	eng_out_end(&o);
	eng_out_str(&o, "verify", "ok");
	eng_out_end(&o);
	eng_out_end(&o);
	CHECK(eng_out_finish(&o) == 0);
	expect(f, "  flow f1 tx_packets 10 window 7 done yes goodput_mbps 0.667 role sender\n"
			"    conn 0 rtt_ns 5\n"
			"  flow f2 role - | drops: none | errs: stale 3 short 1 | verify ok\n",
			"counters text");
}

static void
test_tables_sane(void)
{
	unsigned int i, j;

	for (i = 0; i < (sizeof(sample_ctrs) / sizeof(sample_ctrs[0])); i++) {
		CHECK(sample_ctrs[i].name != NULL && sample_ctrs[i].help != NULL);
		for (j = 0; j < i; j++)
			CHECK(strcmp(sample_ctrs[i].name, sample_ctrs[j].name) != 0);
	}
}

int
main(void)
{
	test_escape();
	test_json();
	test_json_nested_arrays();
	test_json_line();
	test_deep();
	test_counters();
	test_tables_sane();
	return test_report("test_out");
}
