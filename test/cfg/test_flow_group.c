/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow groups ([flow NAME] with count, config/flow_group.c) and the loader's
 * limits: names, address and port steps, seeds, weight rotation, errors with
 * FILE:LINE, a group's warmup, overlapping 4-tuples refused, long lists, many sections, and a
 * 4096-flow group that loads fast. Uses rte_cfgfile only for presets, never
 * the EAL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-group-test-XXXXXX"
#include "test_config_util.h"
#include "config/flow.h"

/* %s: the sender group's extra keys, %s: the receiver group's */
static const char *group_fmt =
	"[port a]\ndevice = ring:w\n[port b]\ndevice = ring:w\n"
	"[flow s]\nrole = sender\ncount = %u\nlocal = 10.0.0.1:5000\nremote = 10.0.1.1:6000\n"
	"bytes = 1MiB\nseed = 7\n%s\n"
	"[flow r]\nrole = receiver\ncount = %u\nlocal = 10.0.1.1:6000\nsink = verify\n"
	"seed = 7\n%s\n"
	"[task tx]\nkind = dfcp\nport = a\nflows = s\n"
	"[task rx]\nkind = dfcp\nport = b\nflows = r\n"
	"[lcore 1]\ntasks = tx, rx\n";

static char text[1 << 16];

static const char *
group_text(unsigned int n, const char *s_extra, unsigned int m, const char *r_extra)
{
	snprintf(text, sizeof(text), group_fmt, n, s_extra, m, r_extra);
	return text;
}

/* base + extra sections, with task2 added to the lcore (a static buffer) */
static const char *
with_task(const char *base, const char *extra, const char *task2)
{
	static char out[sizeof(text) + 4096];
	char lc[64];
	const char *p = strstr(base, "tasks = tx, rx");

	snprintf(lc, sizeof(lc), "tasks = tx, rx, %s", task2);
	snprintf(out, sizeof(out), "%.*s%s%s%s", (int)(p - base), base, lc,
			p + strlen("tasks = tx, rx"), extra);
	return out;
}

static const struct eng_flow_conf *
flow(const char *name)
{
	int i = eng_flow_index(&cfg, name);

	return i >= 0 ? &cfg.flows[i] : NULL;
}

static void
test_expand(void)
{
	const struct eng_flow_conf *s0, *s3, *r2;
	const struct eng_task *tx;
	char err[ENG_ERR_LEN];
	unsigned int i;

	if (load(group_text(4, "weight = 1, 2, 3\nlocal_ip_step = 1\n", 4, ""), err,
				sizeof(err)) != 0) {
		fprintf(stderr, "FAIL expand: %s\n", err);
		test_failures++;
		return;
	}
	CHECK(cfg.nb_flows == 8 && cfg.nb_flow_groups == 2);
	s0 = flow("s.0");
	s3 = flow("s.3");
	r2 = flow("r.2");
	REQUIRE(s0 != NULL && s3 != NULL && r2 != NULL && flow("s.4") == NULL && flow("s") == NULL);
	/* ports and addresses stepped, remote port too; receivers' remote stays "any" */
	CHECK(s0->local_port == 5000 && s3->local_port == 5003 && s3->remote_port == 6003);
	CHECK(s0->local_ip == 0x0a000001 && s3->local_ip == 0x0a000004);
	CHECK(s3->remote_ip == 0x0a000101);
	CHECK(r2->local_port == 6002 && r2->remote_port == 0 && r2->remote_ip == 0);
	/* seeds vary per flow and agree between the pairs; weights rotate */
	CHECK(s0->seed == 7 && s3->seed == 10 && r2->seed == 9);
	CHECK(s0->weight == 1 && flow("s.1")->weight == 2 && flow("s.2")->weight == 3 &&
			s3->weight == 1 && r2->weight == 1);
	CHECK(s3->group >= 0 && strcmp(cfg.flow_groups[s3->group].name, "s") == 0);
	CHECK(s0->line == s3->line && s0->bytes == 1 << 20);
	/* "flows = s" runs the whole group, in order */
	tx = &cfg.tasks[0];
	REQUIRE(strcmp(tx->name, "tx") == 0 && tx->nb_flows == 4);
	for (i = 0; i < 4; i++)
		CHECK(eng_task_flow(&cfg, tx, i) == flow(i == 0 ? "s.0" : i == 1 ? "s.1" :
					i == 2 ? "s.2" : "s.3") && eng_task_flow(&cfg, tx, i)->task_pos == i);
	eng_config_free(&cfg);

	/* steps of 0 and 7, seed_step 0; a group of one is NAME.0 */
	if (load(group_text(3, "local_port_step = 7\nremote_port_step = 0\nseed_step = 0\n", 1, ""),
				err, sizeof(err)) == 0) {
		CHECK(flow("s.2")->local_port == 5014 && flow("s.2")->remote_port == 6000 &&
				flow("s.2")->seed == 7 && flow("r.0") != NULL);
		eng_config_free(&cfg);
	} else {
		fprintf(stderr, "FAIL steps: %s\n", err);
		test_failures++;
	}
}

static void
test_errors(void)
{
	static char buf[sizeof(text) + 256];

	/* the group's key line: "count" is line 8 of the file */
	expect_err("group count 0", group_text(0, "", 1, ""), ":7: [flow s] count:", NULL);
	expect_err("group too many", group_text(65537, "", 1, ""), ":7: [flow s] count:",
			"65536");
	expect_err("group port past 65535", group_text(1000, "local_port_step = 100\n", 1, ""),
			"[flow s] local_port_step:", "above 65535");
	expect_err("group bad weight", group_text(2, "weight = 1, x\n", 2, ""), "[flow s] weight:",
			"item 2");
	expect_err("group weight 0", group_text(2, "weight = 1,0\n", 2, ""), "[flow s] weight:",
			NULL);
	/* list of weights or a step without count */
	expect_err("weights need count", config_edit(group_text(2, "weight = 1, 2\n", 2, ""),
			"count = 2\n", ""), "[flow s] weight:", "needs count");
	expect_err("step needs count", config_edit(group_text(2, "seed_step = 2\n", 2, ""),
			"count = 2\n", ""), "[flow s] seed_step:", "needs count");
	/* names: the last member must fit a flow name */
	snprintf(buf, sizeof(buf), "%s", group_text(20000, "", 1, ""));
	expect_err("group name too long", config_edit(buf, "[flow s]", "[flow s23456789012345678901234567]"),
			"[flow s23456789012345678901234567] count:", "at most 31");
	/* a member defined again by a single section */
	snprintf(buf, sizeof(buf), "%s[flow s.1]\nrole = sender\nlocal = 10.0.0.9:1\n"
			"remote = 10.0.0.8:1\n", group_text(2, "", 2, ""));
	expect_err("member twice", buf, "[flow s.1]: flow defined twice", "line 5");
	/* a group sized differently from its peers is fine; an error in a shared key names it */
	expect_err("group bad key", group_text(2, "window = x\n", 2, ""), "[flow s] window:", NULL);
	expect_err("group bad warmup", group_text(2, "", 2, "warmup = soon\n"), "[flow r] warmup:",
			NULL);
	/* one file sink for a group */
	expect_err("group sink file", config_edit(group_text(2, "", 2, ""), "sink = verify",
			"sink = file /tmp/x"), "[flow r] sink:", "cannot write one file");
}

/* Two tasks whose flows' 4-tuples overlap: refused, naming both. */
/* warmup: every member of a group has it; unset is [engine]'s (resolved at set-up) */
static void
test_warmup(void)
{
	char err[ENG_ERR_LEN];

	if (load(group_text(2, "", 2, "warmup = 2\n"), err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL warmup: %s\n", err);
		test_failures++;
		return;
	}
	CHECK(flow("r.0")->warmup_ns == 2000000000ull && flow("r.1")->warmup_ns == 2000000000ull);
	CHECK(flow("s.0")->warmup_ns == UINT64_MAX);	/* [engine] warmup */
	eng_config_free(&cfg);
}

static void
test_overlap(void)
{
	/* a second sender group on another task with the same local ports */
	expect_err("overlap groups", with_task(group_text(4, "", 4, ""), "[flow t]\nrole = sender\n"
			"count = 3\nlocal = 10.0.0.1:5002\nremote = 10.0.1.1:6002\n[port c]\n"
			"device = ring:w2\n[task tx2]\nkind = dfcp\nport = c\nflows = t\n", "tx2"), "overlaps flow", "s.2");
	/* a receiver listening to any remote on another task's address */
	expect_err("overlap any", with_task(group_text(2, "", 2, ""), "[flow r9]\nrole = receiver\n"
			"local = 10.0.1.1:6001\n[port c]\ndevice = ring:w2\n[task rx2]\nkind = dfcp\nport = c\n"
			"flows = r9\n", "rx2"),
			"[flow r9]: local 10.0.1.1:6001, remote any overlaps flow r.1", NULL);
	/* distinct remote ports on one local address are fine across tasks */
	expect_ok("no overlap", with_task(group_text(2, "", 2, ""), "[flow u]\nrole = sender\n"
			"local = 10.0.0.1:5000\nremote = 10.0.1.1:7000\n[port c]\ndevice = ring:w2\n"
			"[task tx2]\nkind = dfcp\nport = c\nflows = u\n", "tx2"));
}

/* A list of 300 flow names (over rte_cfgfile's 255 characters) and 600 sections. */
static void
test_long_lists(void)
{
	static char big[1 << 20];
	size_t off = 0;
	char err[ENG_ERR_LEN];
	unsigned int i;

	off += (size_t)snprintf(big + off, sizeof(big) - off, "[port a]\ndevice = ring:w\n"
			"[port b]\ndevice = ring:w\n[flow r]\nrole = receiver\nlocal = 10.0.1.1:6000\n"
			"[task rx]\nkind = dfcp\nport = b\nflows = r\n");
	for (i = 0; i < 600; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "[flow s%u]\nrole = sender\n"
				"local = 10.0.0.1:%u\nremote = 10.0.1.1:6000\n", i, 1000 + i);
	off += (size_t)snprintf(big + off, sizeof(big) - off, "[task tx]\nkind = dfcp\nport = a\n"
			"flows = ");
	for (i = 0; i < 600; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "%ss%u", i ? ", " : "", i);
	snprintf(big + off, sizeof(big) - off, "\n[lcore 1]\ntasks = tx, rx\n");
	if (load(big, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL long list: %s\n", err);
		test_failures++;
		return;
	}
	CHECK(cfg.nb_flows == 601 && cfg.tasks[1].nb_flows == 600);
	CHECK(eng_task_flow(&cfg, &cfg.tasks[1], 599) == flow("s599"));
	eng_config_free(&cfg);
	/* other values keep their limit, with FILE:LINE */
	memset(err, 'x', 300);
	err[300] = '\0';
	snprintf(big, sizeof(big), "[port a]\ndevice = ring:%s\n", err);
	expect_err("long device", big, ":2: [port a] device:", "at most 255");
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* 4096 sender and 4096 receiver flows in two groups. */
static void
test_4096(void)
{
	char err[ENG_ERR_LEN];
	double t0, dt;

	t0 = now_s();
	if (load(group_text(4096, "weight = 1,2,3,4\n", 4096, ""), err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL 4096: %s\n", err);
		test_failures++;
		return;
	}
	dt = now_s() - t0;
	CHECK(cfg.nb_flows == 8192 && cfg.tasks[0].nb_flows == 4096);
	CHECK(flow("s.4095")->local_port == 5000 + 4095 && flow("s.4095")->weight == 4);
	CHECK(flow("r.4095")->local_port == 6000 + 4095);
	printf("ok 4096-flow groups: loaded in %.3f s\n", dt);
	eng_config_free(&cfg);
	/* overlap found among thousands: one receiver port repeated at the end */
	expect_err("overlap 4096", with_task(group_text(4096, "", 4096, ""), "[flow x]\n"
			"role = receiver\nlocal = 10.0.1.1:9000\n[port c]\ndevice = ring:w2\n[task rx2]\n"
			"kind = dfcp\nport = c\n"
			"flows = x\n", "rx2"), "overlaps flow r.3000", NULL);
}

int
main(void)
{
	if (config_file_create() < 0)
		return 1;
	test_expand();
	test_errors();
	test_warmup();
	test_overlap();
	test_long_lists();
	test_4096();
	return config_file_finish("test_flow_group");
}
