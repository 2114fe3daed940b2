/* SPDX-License-Identifier: BSD-3-Clause */
/* The packet-generator kinds (testpmd style): txonly, rxonly, io. */
#ifndef ENG_GEN_H
#define ENG_GEN_H

#include "core/task.h"

struct eng_out;
struct eng_pace_view;
struct eng_runtime;

extern const struct eng_task_ops eng_task_txonly;
extern const struct eng_task_ops eng_task_rxonly;
extern const struct eng_task_ops eng_task_io;

/* txonly.c: a paced txonly task's view (period: the rate since the last
 * periodic call, which moves on); 0, or -ENOENT when t is not one. */
int eng_txonly_pace_view(const struct eng_task *t, struct eng_pace_view *v, int period);

#endif /* ENG_GEN_H */
