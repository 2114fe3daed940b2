/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Busy/idle cycles per lcore and per task (counted by lcore.c: each poll is
 * timed with one rdtsc; a poll that handled packets is busy, one that handled
 * none is idle). Periodic line per lcore, summary, JSON "lcores" and the
 * /dfcp/lcores telemetry command. An lcore at ~100 % busy is the bottleneck.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_telemetry.h>

#include "config/config.h"
#include "obs/obs.h"

static struct eng_cycles lc_prev[ENG_MAX_TASKS];

static double
pct(uint64_t part, uint64_t whole)
{
	return whole == 0 ? 0.0 : 100.0 * (double)part / (double)whole;
}

static void
sub(struct eng_cycles *d, const struct eng_cycles *a, const struct eng_cycles *b)
{
	d->busy = a->busy - b->busy;
	d->idle = a->idle - b->idle;
	d->busy_polls = a->busy_polls - b->busy_polls;
	d->idle_polls = a->idle_polls - b->idle_polls;
}

/* One line per lcore with tasks; period: since the previous call. */
static void
lcore_lines(struct eng_runtime *rt, int period)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j;

	for (i = 0; i < cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &cfg->lcores[i];
		struct eng_cycles cur[ENG_MAX_LCORE_TASKS], d[ENG_MAX_LCORE_TASKS];
		uint64_t busy = 0, total = 0;
		char line[1024];
		int off;

		if (lc->nb_tasks == 0)
			continue;
		for (j = 0; j < lc->nb_tasks; j++) {
			static const struct eng_cycles zero;

			eng_lcore_task_cycles(lc->task_idx[j], &cur[j]);
			sub(&d[j], &cur[j], period ? &lc_prev[lc->task_idx[j]] : &zero);
			busy += d[j].busy;
			total += d[j].busy + d[j].idle;
		}
		off = snprintf(line, sizeof(line), "  lcore %-3u busy %5.1f%% |", lc->lcore_id,
				pct(busy, total));
		for (j = 0; j < lc->nb_tasks && off > 0 && (size_t)off < sizeof(line); j++)
			off += snprintf(line + off, sizeof(line) - off, " %s %.1f%%",
					cfg->tasks[lc->task_idx[j]].name, pct(d[j].busy, total));
		printf("%s\n", line);
		if (period)
			for (j = 0; j < lc->nb_tasks; j++)
				lc_prev[lc->task_idx[j]] = cur[j];
	}
}

void
eng_lcore_stats_period(struct eng_runtime *rt)
{
	lcore_lines(rt, 1);
}

void
eng_lcore_stats_summary(struct eng_runtime *rt)
{
	printf("  lcores (busy = share of polling cycles spent in polls that handled packets):\n");
	lcore_lines(rt, 0);
}

void
eng_lcore_stats_json(struct eng_runtime *rt, FILE *f)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j, k = 0;

	fprintf(f, ",\n  \"lcores\": [");
	for (i = 0; i < cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &cfg->lcores[i];
		struct eng_cycles sum = {0};

		if (lc->nb_tasks == 0)
			continue;
		fprintf(f, "%s\n    {\"lcore\": %u, \"tasks\": [", k++ ? "," : "", lc->lcore_id);
		for (j = 0; j < lc->nb_tasks; j++) {
			struct eng_cycles c;

			eng_lcore_task_cycles(lc->task_idx[j], &c);
			sum.busy += c.busy;
			sum.idle += c.idle;
			sum.busy_polls += c.busy_polls;
			sum.idle_polls += c.idle_polls;
			fprintf(f, "%s{\"name\": \"%s\", \"busy_cycles\": %" PRIu64
				   ", \"idle_cycles\": %" PRIu64 ", \"busy_polls\": %" PRIu64
				   ", \"idle_polls\": %" PRIu64 "}",
					j ? ", " : "", cfg->tasks[lc->task_idx[j]].name, c.busy, c.idle,
					c.busy_polls, c.idle_polls);
		}
		fprintf(f, "], \"busy_cycles\": %" PRIu64 ", \"idle_cycles\": %" PRIu64
			   ", \"busy_polls\": %" PRIu64 ", \"idle_polls\": %" PRIu64
			   ", \"busy_pct\": %.3f}",
				sum.busy, sum.idle, sum.busy_polls, sum.idle_polls,
				pct(sum.busy, sum.busy + sum.idle));
	}
	fprintf(f, "\n  ]");
}

int
eng_lcore_tel(struct eng_runtime *rt, struct rte_tel_data *d)
{
	unsigned int i, j;

	rte_tel_data_start_dict(d);
	for (i = 0; i < rt->cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &rt->cfg->lcores[i];
		struct eng_cycles sum = {0};
		char key[RTE_TEL_MAX_STRING_LEN];
		struct rte_tel_data *x;

		if (lc->nb_tasks == 0)
			continue;
		x = rte_tel_data_alloc();
		if (x == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(x);
		for (j = 0; j < lc->nb_tasks; j++) {
			const char *tn = rt->cfg->tasks[lc->task_idx[j]].name;
			struct eng_cycles c;

			eng_lcore_task_cycles(lc->task_idx[j], &c);
			sum.busy += c.busy;
			sum.idle += c.idle;
			sum.busy_polls += c.busy_polls;
			sum.idle_polls += c.idle_polls;
			snprintf(key, sizeof(key), "%s/busy_cycles", tn);
			rte_tel_data_add_dict_u64(x, key, c.busy);
			snprintf(key, sizeof(key), "%s/idle_cycles", tn);
			rte_tel_data_add_dict_u64(x, key, c.idle);
			snprintf(key, sizeof(key), "%s/busy_polls", tn);
			rte_tel_data_add_dict_u64(x, key, c.busy_polls);
			snprintf(key, sizeof(key), "%s/idle_polls", tn);
			rte_tel_data_add_dict_u64(x, key, c.idle_polls);
		}
		rte_tel_data_add_dict_u64(x, "busy_cycles", sum.busy);
		rte_tel_data_add_dict_u64(x, "idle_cycles", sum.idle);
		rte_tel_data_add_dict_u64(x, "busy_polls", sum.busy_polls);
		rte_tel_data_add_dict_u64(x, "idle_polls", sum.idle_polls);
		rte_tel_data_add_dict_u64(x, "busy_ppm",
				sum.busy + sum.idle ? sum.busy * 1000000 / (sum.busy + sum.idle) : 0);
		rte_tel_data_add_dict_u64(x, "tsc_hz", rt->clock.hz);
		snprintf(key, sizeof(key), "%u", lc->lcore_id);
		rte_tel_data_add_dict_container(d, key, x, 0);
	}
	return 0;
}
