/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sched task (sched_task.c): a scheduler lcore with one SPSC ring per
 * attached flow. See doc/architecture.md ("Router and sched tasks").
 */
#ifndef ENG_SCHED_H
#define ENG_SCHED_H

#include <stdint.h>

#include "core/defs.h"
#include "core/task.h"

struct eng_config;
struct eng_runtime;
struct rte_ring;

/* Attach a flow to sched task SCHED_TASK during set-up (from another task's
 * setup(), any task order). Returns the flow's SPSC ring (the caller is its
 * only producer; the sched task owns it and frees mbufs left in it at
 * teardown) and its id in *flow_id, or NULL with the reason logged. */
struct rte_ring *eng_sched_attach(struct eng_runtime *rt, const char *sched_task,
		const char *flow_name, uint32_t weight, uint32_t *flow_id);

/* sched_stats.c: the kind's report, /dfcp/sched, its counter tables */
struct eng_out;
void eng_sched_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
extern const struct eng_tel_cmd eng_sched_tel[];
extern const struct eng_ctr_table eng_sched_tables[];

/* A sched task's counters (sched_task.c, for sched_stats.c). */
struct eng_sched_flow_stats {
	char name[ENG_NAME_LEN];
	uint32_t weight;
	uint64_t enq_pkts, enq_bytes;   /* taken from the flow's ring */
	uint64_t tx_pkts, tx_bytes;     /* sent in scheduling order */
	uint64_t run_tx_pkts, run_tx_bytes; /* of those, during the run phase */
	uint64_t drop_pkts;             /* refused by the scheduler (pool full) */
	uint32_t backlog;               /* in the scheduler now */
	uint32_t ring_count;            /* in the ring now */
};
struct eng_sched_stats {
	const char *algo;
	uint64_t rate_bps;              /* 0: unshaped */
	uint32_t nb_flows;
	uint64_t tx_pkts, tx_bytes, tx_retries;
};
/* 0 and the counters of a sched task (flows[] up to max entries), or -EINVAL
 * when t is not a sched task or not set up. */
int eng_sched_task_stats(const struct eng_task *t, struct eng_sched_stats *st,
		struct eng_sched_flow_stats *flows, uint32_t max);

extern const struct eng_task_ops eng_task_sched;

#endif /* ENG_SCHED_H */
