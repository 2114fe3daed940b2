/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The streams' period rows and records (obs/streams.c) on a virtual clock,
 * no EAL: two tasks of a made-up kind with streams (ops->stream_view), one
 * sending 4 (slots 0..3, in order), one receiving 3 in a table of 8 slots
 * keyed out of slot order. Checked: every stream has a row, tasks in config
 * order and a task's streams by key; the period's packets, bytes, losses and
 * rates (L2, L1) are the differences over the period; the summary record
 * counts since the start and its packets add up; /dfcp/streams,TASK writes
 * that task's only and an unknown task is -ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "test_harness.h"

#define HZ 1000000000ull	/* 1 cycle = 1 ns */

/* What the made-up kind's streams have done: [task][slot]. */
static uint64_t pkts[2][8], lost[2][8];
static const int used[2][8] = {{1, 1, 1, 1}, {0, 1, 0, 1, 0, 0, 1, 0}};
static const uint64_t rx_key[8] = {0, 30, 0, 20, 0, 0, 10, 0};

static unsigned int
fk_slots(const struct eng_task *t)
{
	return t->name[0] == 't' ? 4 : 8;
}

static int
fk_view(const struct eng_task *t, unsigned int i, struct eng_stream_view *v)
{
	int k = t->name[0] == 't' ? 0 : 1;

	if (i >= fk_slots(t) || !used[k][i])
		return -ENOENT;
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s/%u", t->name, i);
	v->key = k ? rx_key[i] : i;
	v->rx = (uint8_t)k;
	v->packets = pkts[k][i];
	v->bytes = pkts[k][i] * 100;
	v->lost = lost[k][i];
	v->stopped = !k && i == 2;
	return 0;
}

static const struct eng_task_ops fk_ops = {
	.name = "fk",
	.stream_slots = fk_slots,
	.stream_view = fk_view,
};
static const struct eng_task_ops other_ops = {.name = "other"};	/* no streams */

static int
near(double a, double b)
{
	return a - b < 1e-6 && b - a < 1e-6;
}

/* The JSON writer's output of fn into buf. */
static void
json_of(char *buf, size_t len, struct eng_runtime *rt, const char *params, int *rc)
{
	FILE *f = fmemopen(buf, len, "w");
	struct eng_out o;

	REQUIRE(f != NULL);
	eng_out_json(&o, f);
	if (params == NULL) {
		eng_streams_write(&o, &rt->cfg->tasks[0]);
		*rc = 0;
	} else {
		*rc = eng_streams_tel(rt, params, &o);
	}
	eng_out_finish(&o);
	fclose(f);
}

int
main(void)
{
	static struct eng_config cfg;
	static struct eng_runtime rt;
	const struct eng_stream_row *const *r;
	static char buf[1 << 16];
	unsigned int i, n;
	int rc, dummy = 1;
	uint64_t sum = 0;
	char want[64];
	const char *p;

	rt.cfg = &cfg;
	rt.clock.hz = HZ;
	rt.start_tsc = 1000;
	cfg.nb_tasks = 3;
	snprintf(cfg.tasks[0].name, sizeof(cfg.tasks[0].name), "tx0");
	snprintf(cfg.tasks[1].name, sizeof(cfg.tasks[1].name), "x");
	snprintf(cfg.tasks[2].name, sizeof(cfg.tasks[2].name), "rx0");
	for (i = 0; i < cfg.nb_tasks; i++) {
		cfg.tasks[i].ops = i == 1 ? &other_ops : &fk_ops;
		cfg.tasks[i].priv = &dummy;
		cfg.tasks[i].rt = &rt;
	}
	CHECK(eng_streams_rows(&rt, &r) == 0);
	CHECK(eng_streams_period(&rt, 0) == 0);	/* set-up: no rows yet */
	CHECK(eng_streams_rows(&rt, &r) == 0);

	/* period 1: 0.5 s */
	for (i = 0; i < 4; i++)
		pkts[0][i] = 1000 * (i + 1);
	pkts[1][1] = 300;
	pkts[1][3] = 200;
	pkts[1][6] = 100;
	lost[1][6] = 25;
	CHECK(eng_streams_period(&rt, 1000 + HZ / 2) == 0);
	n = eng_streams_rows(&rt, &r);
	REQUIRE(n == 7);
	for (i = 0; i < 4; i++) {
		CHECKF(r[i]->t == &cfg.tasks[0] && r[i]->v.key == i, "row %u: %s", i, r[i]->v.name);
		CHECK(r[i]->packets == 1000 * (i + 1));
		CHECK(near(r[i]->pps, 2000.0 * (i + 1)));
		CHECK(near(r[i]->mbps, 1000.0 * (i + 1) * 100 * 8 / 0.5 / 1e6));
		CHECK(near(r[i]->l1_mbps, 1000.0 * (i + 1) * 124 * 8 / 0.5 / 1e6));
		CHECK(r[i]->v.stopped == (i == 2));
	}
	/* the receiver's by key: slot 6 (10), 3 (20), 1 (30) */
	CHECK(strcmp(r[4]->v.name, "rx0/6") == 0 && strcmp(r[5]->v.name, "rx0/3") == 0 &&
			strcmp(r[6]->v.name, "rx0/1") == 0);
	CHECK(r[4]->v.rx && r[4]->lost == 25 && near(r[4]->loss_pct, 20.0));

	/* period 2: 0.25 s later, tx0/1 sends 500 more, rx0/6 loses none */
	pkts[0][1] += 500;
	pkts[1][6] += 100;
	CHECK(eng_streams_period(&rt, 1000 + HZ / 2 + HZ / 4) == 0);
	n = eng_streams_rows(&rt, &r);
	REQUIRE(n == 7);
	CHECK(r[0]->packets == 0 && r[0]->pps == 0);
	CHECK(r[1]->packets == 500 && r[1]->bytes == 50000 && near(r[1]->pps, 2000));
	CHECK(r[4]->packets == 100 && r[4]->lost == 0 && r[4]->loss_pct == 0);

	/* the summary record: since the start (stop at 1 s), every stream of tx0 */
	rt.stop_tsc = 1000 + HZ;
	json_of(buf, sizeof(buf), &rt, NULL, &rc);
	for (i = 0, p = buf; i < 4; i++) {
		snprintf(want, sizeof(want), "\"name\": \"tx0/%u\"", i);
		CHECKF(strstr(buf, want) != NULL, "%s in %s", want, buf);
		p = strstr(p, "\"packets\": ");
		REQUIRE(p != NULL);
		sum += strtoull(p + 11, NULL, 10);
		p++;
	}
	CHECKF(sum == 1000 + 2500 + 3000 + 4000, "packets add up to %lu", (unsigned long)sum);
	CHECK(strstr(buf, "\"pps\": 1000.0") != NULL);	/* tx0/0: 1000 in 1 s */
	CHECK(strstr(buf, "\"stopped\": true") != NULL && strstr(buf, "rx0") == NULL);

	json_of(buf, sizeof(buf), &rt, "rx0", &rc);
	CHECK(rc == 0 && strstr(buf, "rx0/6") != NULL && strstr(buf, "tx0/") == NULL);
	CHECK(strstr(buf, "\"lost\": 25") != NULL && strstr(buf, "\"dir\": \"rx\"") != NULL);
	json_of(buf, sizeof(buf), &rt, "nosuch", &rc);
	CHECK(rc == -ENOENT);
	json_of(buf, sizeof(buf), &rt, "", &rc);
	CHECK(rc == 0 && strstr(buf, "rx0/1") != NULL && strstr(buf, "tx0/3") != NULL);

	eng_streams_free(&rt);
	CHECK(rt.streams == NULL);
	return test_report("streams");
}
