/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lcores' state that struct eng_runtime embeds: the busy/idle cycles of
 * every task and the launched lcores' arguments. Apart from lcore.h so that
 * the runtime can hold it without depending on the lcore loop.
 */
#ifndef ENG_LCORE_RT_H
#define ENG_LCORE_RT_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_lcore.h>

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

#endif /* ENG_LCORE_RT_H */
