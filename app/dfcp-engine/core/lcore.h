/* SPDX-License-Identifier: BSD-3-Clause */
/* Lcores (lcore.c): checks, the run-to-completion loop, launch and wait. */
#ifndef ENG_LCORE_H
#define ENG_LCORE_H

#include <stdint.h>

struct eng_runtime;

int eng_lcores_check(struct eng_runtime *rt);
int eng_lcores_launch(struct eng_runtime *rt);
int eng_lcores_wait(struct eng_runtime *rt);
int eng_lcore_main_has_tasks(struct eng_runtime *rt);
int eng_lcore_main_poll(struct eng_runtime *rt, uint64_t now);

#endif /* ENG_LCORE_H */
