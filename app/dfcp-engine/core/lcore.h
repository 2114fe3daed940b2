/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lcores (lcore.c): checks, the run-to-completion loop, launch and wait, and
 * the busy/idle cycles of every task (one rdtsc per poll; obs/lcore_stats.c
 * writes them out).
 */
#ifndef ENG_LCORE_H
#define ENG_LCORE_H

#include <stdint.h>

#include <rte_common.h>

#include "core/defs.h"

struct eng_runtime;
struct eng_lcore_conf;

struct eng_cycles {
	uint64_t busy, idle;		/* TSC cycles in polls that handled > 0 / 0 packets */
	uint64_t busy_polls, idle_polls;
};

/* What a worker lcore's loop gets. */
struct eng_lcore_arg {
	struct eng_runtime *rt;
	const struct eng_lcore_conf *lc;
};

/* The lcores' state in eng_runtime. */
struct eng_lcore_rt {
	/* per task (cfg->tasks index), one writer: the lcore polling it */
	struct {
		struct eng_cycles c;
	} __rte_cache_aligned task[ENG_MAX_TASKS];
	/* main thread: cycles at the previous periodic block */
	struct eng_cycles prev[ENG_MAX_TASKS];
	/* the main lcore's [lcore] section (NULL: none), looked up once */
	const struct eng_lcore_conf *main_lc;
	int main_lc_known;
	struct eng_lcore_arg arg[RTE_MAX_LCORE];	/* of the launched lcores */
};

int eng_lcores_check(struct eng_runtime *rt);
int eng_lcores_launch(struct eng_runtime *rt);
int eng_lcores_wait(struct eng_runtime *rt);
int eng_lcore_main_has_tasks(struct eng_runtime *rt);
int eng_lcore_main_poll(struct eng_runtime *rt, uint64_t now);
/* Any thread: cycles of task index t (cfg->tasks[t]) so far. */
void eng_lcore_task_cycles(const struct eng_runtime *rt, unsigned int t, struct eng_cycles *out);

#endif /* ENG_LCORE_H */
