/* SPDX-License-Identifier: BSD-3-Clause */
/* Periodic blocks, the final summary and the summary JSON (stats.c). */
#ifndef ENG_STATS_H
#define ENG_STATS_H

#include <stdio.h>

#include "core/task.h"	/* enum eng_report */

struct eng_runtime;

void eng_stats_start(struct eng_runtime *rt);
void eng_stats_period(struct eng_runtime *rt);
void eng_stats_summary(struct eng_runtime *rt);
int eng_stats_json(struct eng_runtime *rt, const char *path);
/* Flows that failed (doc/config.md, "Exit status"): the run exits ENG_EXIT_FLOW. */
unsigned int eng_stats_failed(struct eng_runtime *rt);

/* /dfcp/ports */
struct eng_out;
int eng_stats_tel_ports(struct eng_runtime *rt, const char *params, struct eng_out *o);
/* One record of the "ports" array: port i's counters s and the rates of
 * s - prev over cycles (TSC); of the "tasks" array: task t's counters ts. For
 * the writers of other periods (obs/intervals.c) and of the console. */
struct eng_port_stats;
void eng_stats_port_write(struct eng_runtime *rt, struct eng_out *o, unsigned int i,
		const struct eng_port_stats *s, const struct eng_port_stats *prev, uint64_t cycles);
void eng_stats_task_write(struct eng_out *o, const struct eng_task *t,
		const struct eng_task_stats *ts);
/* The core's counter tables ({NULL}-terminated): ports, tasks, pools. */
struct eng_ctr_table;
extern const struct eng_ctr_table eng_core_tables[];

/* Every counter table: record, name, unit, outputs, meaning (--counters). */
void eng_counters_print(FILE *f);

/* pace_report.c: every paced task's and flow's "pace" record (the kinds'
 * pace_view and flow_pace_view ops) in each report, and /dfcp/pace. */
void eng_pace_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
int eng_pace_tel(struct eng_runtime *rt, const char *params, struct eng_out *o);

/* telemetry.c */
int eng_telemetry_register(struct eng_runtime *rt);
void eng_telemetry_stop(void);
/* The entry of a telemetry command ("/dfcp/flows": the core's, then the
 * kinds'), or NULL; the console's show commands use their writers. */
struct eng_tel_cmd;
const struct eng_tel_cmd *eng_telemetry_find(const char *cmd);

#endif /* ENG_STATS_H */
