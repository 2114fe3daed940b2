/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sched task (sched_task.c): a scheduler lcore with one SPSC ring per
 * producer task, its mbufs tagged with their flow (core/egress.h). See
 * doc/scheduler.md ("Hand-off") and doc/architecture.md.
 */
#ifndef ENG_SCHED_H
#define ENG_SCHED_H

#include <stdint.h>

#include "core/defs.h"
#include "core/task.h"

struct eng_config;
struct eng_runtime;

/* sched_stats.c: the kind's report, /dfcp/sched, its counter tables */
struct eng_out;
void eng_sched_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
/* sched_stats.c: drops in the scheduler and refusals at its producers (ops->losses). */
void eng_sched_losses(struct eng_runtime *rt, eng_loss_note_fn note, void *ctx);
extern const struct eng_tel_cmd eng_sched_tel[];
extern const struct eng_ctr_table eng_sched_tables[];

/* A sched task's counters (sched_task.c, for sched_stats.c). */
struct eng_sched_flow_stats {
	char name[ENG_NAME_LEN];
	uint32_t weight;
	uint64_t enq_pkts, enq_bytes;   /* taken from the producer's ring */
	uint64_t tx_pkts, tx_bytes;     /* sent in scheduling order */
	uint64_t run_tx_pkts, run_tx_bytes; /* of those, during the run phase */
	uint64_t drop_pkts;             /* refused by the scheduler (pool full) */
	uint64_t refused_pkts;          /* refused at the producer: over its limit */
	uint32_t backlog;               /* in the scheduler now */
	uint32_t backlog_peak;          /* most in the scheduler at once */
	uint32_t ring_count;            /* in the producer's ring now */
};
struct eng_sched_stats {
	const char *algo;
	uint64_t rate_bps;              /* 0: unshaped */
	uint32_t nb_flows;
	uint64_t tx_pkts, tx_bytes, tx_retries;
	uint64_t bad_flow;              /* mbufs with an unknown flow id (freed) */
	uint64_t be_drops;              /* refused by the scheduler, all flows */
	uint32_t producers;             /* producer tasks (rings) */
	uint32_t backlog_budget;        /* most packets in the scheduler, all flows */
	uint32_t backlog_peak;          /* most there at once */
	uint32_t flow_queue;            /* a flow's limit, at most */
	uint32_t flow_limit;            /* a flow's limit now (the flows backlogged) */
	uint64_t pace_stalls, pace_lost_bytes; /* the shaper's (lib/pace) */
};
/* 0 and the counters of a sched task (flows[] up to max entries), or -EINVAL
 * when t is not a sched task or not set up. */
int eng_sched_task_stats(const struct eng_task *t, struct eng_sched_stats *st,
		struct eng_sched_flow_stats *flows, uint32_t max);

extern const struct eng_task_ops eng_task_sched;

#endif /* ENG_SCHED_H */
