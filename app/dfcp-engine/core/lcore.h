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
#include "core/lcore_rt.h"

struct eng_runtime;

int eng_lcores_check(struct eng_runtime *rt);
int eng_lcores_launch(struct eng_runtime *rt);
int eng_lcores_wait(struct eng_runtime *rt);
int eng_lcore_main_has_tasks(struct eng_runtime *rt);
int eng_lcore_main_poll(struct eng_runtime *rt, uint64_t now);
/* Any thread: cycles of task index t (cfg->tasks[t]) so far. */
void eng_lcore_task_cycles(const struct eng_runtime *rt, unsigned int t, struct eng_cycles *out);

#endif /* ENG_LCORE_H */
