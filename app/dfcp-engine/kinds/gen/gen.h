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

/* gen_pace.c: the paced generators' "pace" records (report, /dfcp/pace; their counter
 * table eng_pace_ctrs is listed by txonly's tables) */
void eng_gen_pace_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
extern const struct eng_tel_cmd eng_gen_pace_tel[];

#endif /* ENG_GEN_H */
