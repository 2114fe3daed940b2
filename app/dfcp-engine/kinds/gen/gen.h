/* SPDX-License-Identifier: BSD-3-Clause */
/* The packet-generator kinds (testpmd style): txonly, rxonly, io. */
#ifndef ENG_GEN_H
#define ENG_GEN_H

struct eng_task_ops;

extern const struct eng_task_ops eng_task_txonly;
extern const struct eng_task_ops eng_task_rxonly;
extern const struct eng_task_ops eng_task_io;

#endif /* ENG_GEN_H */
