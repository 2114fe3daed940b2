/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dfcp task kind: DFCP flows ([flow NAME] with proto = dfcp; their DFCP
 * keys in dfcp_flow.c) run on one port queue pair (dfcp_task.c), their
 * statistics, JSON and /dfcp/flows telemetry (dfcp_stats.c). See
 * doc/config.md and doc/architecture.md ("DFCP flow path").
 */
#ifndef ENG_DFCP_TASK_H
#define ENG_DFCP_TASK_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/runtime.h"
#include "core/task.h"
#include "dfcp.h"

/* The DFCP keys of a [flow NAME] (its pconf; dfcp_flow.c). */
struct eng_dfcp_flow_conf {
	/* the thesis's five parameters */
	uint32_t window;		/* blocks; 0 = auto (bandwidth-delay product) */
	uint64_t path_rate_bps;		/* for window = auto */
	uint64_t path_rtt_ns;		/* for window = auto */
	uint16_t redundancy;		/* packets per block; 0 = auto */
	int acks, encode, decode;
	/* coding */
	uint32_t block_size;		/* bytes per block (K = block_size / T) */
	uint16_t T, K;
	/* pacing */
	uint64_t rate_bps;		/* sender pacing, L1 bits; 0 = as fast as the port takes */
	uint64_t hs_rto_ns, min_rto_ns, time_wait_ns;
	/* extended reports (doc/protocol.md): round header, loss reports, rate hints */
	int xr;				/* negotiate DFCP_F_XR (default on) */
	int rate_hint;			/* sender: cap the rate at the receiver's hint */
	uint64_t round_idle_ns;		/* receiver: idle time that ends a round */
};

static inline const struct eng_dfcp_flow_conf *
eng_dfcp_fc(const struct eng_flow_conf *f)
{
	return f->pconf;
}

enum eng_dfcp_csum {
	ENG_CSUM_AUTO = 0,	/* offload if the port has tx_checksum, else full */
	ENG_CSUM_FULL,		/* IPv4 and UDP checksums in software */
	ENG_CSUM_ZERO,		/* IPv4 in software, UDP checksum 0 (legal for IPv4) */
	ENG_CSUM_OFFLOAD,	/* the NIC computes both (needs tx_checksum = on) */
};

/* [task NAME] kind = dfcp: its kind-private configuration (flows: the task's list). */
struct eng_dfcp_conf {
	char egress[ENG_NAME_LEN];	/* sched task; "" = rte_eth_tx_burst */
	int csum;			/* enum eng_dfcp_csum */
	uint32_t max_conns;		/* per receiver flow */
};

/* Live per-flow counters, published by the owning lcore (stats_flow.c reads). */
struct eng_flow_snap {
	struct dfcp_stats st;		/* sum over the flow's connections */
	uint64_t start_ns, last_ns;	/* first ESTABLISHED, last goodput change */
	uint64_t bad_bytes, order_errors;	/* verifying sink */
	uint64_t sink_bytes;
	uint64_t tx_dropped;		/* frames refused by the port / sched ring */
	uint32_t conns;			/* connections handled */
	int state;			/* enum dfcp_state of the current connection */
	int close_reason;
	int done;			/* the flow has finished (closed) */
};

/* dfcp_flow.c: a [flow]'s DFCP keys, the kind's check (addresses per task) */
int eng_dfcp_flow_parse(struct eng_flow_conf *f, struct eng_sec *sec, struct eng_config *cfg);
int eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen);

/* task_dfcp.c */
/* Snapshot of a flow's counters (any thread); 0 or -ENOENT if not running. */
int eng_dfcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_snap *out);
/* Task-level drops (frames no flow accepted) by reason, and multi-segment frames. */
void eng_dfcp_task_drops(const struct eng_task *t, uint64_t drops[DFCP_E_MAX], uint64_t *seg);

/* dfcp_stats.c: the kind's report, a flow's fields, its counter table */
struct eng_out;
struct eng_xflow;
void eng_dfcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
void eng_dfcp_flow_write(const struct eng_xflow *xf, struct eng_out *o);
extern const struct eng_ctr_table eng_dfcp_tables[];

extern const struct eng_task_ops eng_task_dfcp;

#endif /* ENG_DFCP_TASK_H */
