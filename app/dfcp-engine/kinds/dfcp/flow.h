/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP flows in the engine: [flow NAME] sections (section_flow.c), the
 * "dfcp" task kind that runs them (task_dfcp.c), their statistics, JSON and
 * /dfcp/flows telemetry (stats_flow.c). See doc/config.md and
 * doc/architecture.md ("DFCP flow path").
 */
#ifndef ENG_FLOW_H
#define ENG_FLOW_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "config/config.h"
#include "core/runtime.h"
#include "core/task.h"
#include "dfcp.h"

#define ENG_MAX_FLOWS 256
#define ENG_DFCP_MAX_TASK_FLOWS 16

enum eng_flow_role {
	ENG_FLOW_SENDER = 0,	/* initiator: source -> DFCP sender */
	ENG_FLOW_RECEIVER,	/* responder: listens, DFCP receiver -> sink */
};

enum eng_flow_source {
	ENG_SRC_PATTERN = 0,	/* dfcp_pattern_fill(seed, offset) */
	ENG_SRC_FILE,		/* read a file */
};

enum eng_flow_sink {
	ENG_SINK_COUNT = 0,	/* count goodput bytes */
	ENG_SINK_VERIFY,	/* check every byte against the pattern */
	ENG_SINK_FILE,		/* write the data to a file */
};

/* One [flow NAME] section. */
struct eng_flow_conf {
	char name[ENG_NAME_LEN];
	int line;
	int role;			/* enum eng_flow_role */
	int task_idx;			/* the dfcp task that lists it; -1 until checked */
	unsigned int task_pos;		/* its place in that task's list */
	uint32_t local_ip, remote_ip;	/* host order; remote 0: any (receiver) */
	uint16_t local_port, remote_port;
	int has_remote_mac;
	struct rte_ether_addr remote_mac;
	/* the thesis's five parameters */
	uint32_t window;		/* blocks; 0 = auto (bandwidth-delay product) */
	uint64_t path_rate_bps;		/* for window = auto */
	uint64_t path_rtt_ns;		/* for window = auto */
	uint16_t redundancy;		/* packets per block; 0 = auto */
	int acks, encode, decode;
	/* coding */
	uint32_t block_size;		/* bytes per block (K = block_size / T) */
	uint16_t T, K;
	/* fairness and pacing */
	uint32_t weight;		/* WF2Q+ weight at the egress scheduler */
	uint64_t rate_bps;		/* sender pacing, L1 bits; 0 = as fast as the port takes */
	char bottleneck[ENG_NAME_LEN];	/* Jain's index over flows with the same label */
	/* application */
	uint64_t duration_ns;		/* sender: stop reading the source after this; 0 = none */
	uint64_t bytes;			/* sender: bytes to send; 0 = no limit */
	uint64_t start_ns;		/* sender: connect this long after the run starts */
	uint32_t seed;			/* pattern seed */
	int source;			/* enum eng_flow_source */
	int sink;			/* enum eng_flow_sink */
	char path[PATH_MAX];		/* source or sink file */
	int verify;			/* sink verifies the pattern (sink = verify) */
	uint64_t hs_rto_ns, min_rto_ns, time_wait_ns;
};

enum eng_dfcp_csum {
	ENG_CSUM_AUTO = 0,	/* offload if the port has tx_checksum, else full */
	ENG_CSUM_FULL,		/* IPv4 and UDP checksums in software */
	ENG_CSUM_ZERO,		/* IPv4 in software, UDP checksum 0 (legal for IPv4) */
	ENG_CSUM_OFFLOAD,	/* the NIC computes both (needs tx_checksum = on) */
};

/* [task NAME] kind = dfcp: its kind-private configuration. */
struct eng_dfcp_conf {
	char flow_list[CFG_VALUE_LEN];
	unsigned int nb_flows;
	uint16_t flow_idx[ENG_DFCP_MAX_TASK_FLOWS];
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

/* flow_sec.c: [flow NAME] and the dfcp kind's check (task flow lists) */
extern const struct eng_section_kind eng_section_flow;
int eng_flow_index(const struct eng_config *cfg, const char *name);
int eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen);

/* task_dfcp.c */
/* Snapshot of a flow's counters (any thread); 0 or -ENOENT if not running. */
int eng_dfcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_snap *out);
/* Task-level drops (frames no flow accepted) by reason, and multi-segment frames. */
void eng_dfcp_task_drops(const struct eng_task *t, uint64_t drops[DFCP_E_MAX], uint64_t *seg);

/* dfcp_stats.c: the kind's report, /dfcp/flows, its counter table */
struct eng_out;
void eng_dfcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
extern const struct eng_tel_cmd eng_dfcp_tel[];
extern const struct eng_ctr_table eng_dfcp_tables[];

extern const struct eng_task_ops eng_task_dfcp;

#endif /* ENG_FLOW_H */
