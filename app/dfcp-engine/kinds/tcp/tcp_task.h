/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP baselines in the engine (issue #7): the "tcp" task kind (task_tcp.c)
 * runs lib/tcp connections on one port, its statistics, JSON and cwnd traces
 * are in stats_tcp.c. See doc/tcp.md ("In the engine") and doc/config.md.
 */
#ifndef ENG_TASK_TCP_H
#define ENG_TASK_TCP_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "config/config.h"
#include "core/runtime.h"
#include "core/task.h"
#include "tcp.h"

#define ENG_TCP_MAX_FLOWS	TCP_CAP_MAX_FLOWS	/* connections per task */

enum eng_tcp_role {
	ENG_TCP_SENDER = 0,	/* active open, bulk source */
	ENG_TCP_RECEIVER,	/* listens, counting / verifying sink */
};

/*
 * Settings a sender may give each connection its own value of: the key takes
 * a comma list, connection i the element i (the last element repeats; one
 * value = every connection). A receiver's connections share conn[0] (the
 * listener's settings).
 */
struct eng_tcp_conn_conf {
	char cc[32];			/* congestion-control module (tcp_cc_find) */
	int recovery;			/* -1: the module's, else enum tcp_recovery */
	uint32_t mss, init_cwnd, dupthresh;
	uint64_t rto_init_ns, rto_min_ns, tick_ns;
};

/* [task NAME] kind = tcp: its kind-private configuration. */
struct eng_tcp_conf {
	int role;			/* enum eng_tcp_role */
	uint32_t local_ip, remote_ip;	/* host order */
	uint16_t local_port, remote_port;
	int has_remote_mac;
	struct rte_ether_addr remote_mac;
	uint32_t flows;			/* sender: parallel connections; receiver: expected */
	struct eng_tcp_conn_conf conn[ENG_TCP_MAX_FLOWS];	/* per connection, all filled */
	uint32_t nb_conn_values;	/* the longest per-connection list (1: no list) */
	uint32_t sndbuf, rcvbuf;
	uint32_t delack_count;
	uint64_t delack_ns;
	int pair_acks;			/* -1 auto, 0, 1 */
	int rack, limited_transmit;	/* -1 auto, 0, 1 (struct tcp_conf) */
	int sack, timestamps, wscale;
	uint64_t rto_max_ns, time_wait_ns;
	uint32_t max_retries, syn_retries;
	/* application */
	uint64_t bytes;			/* sender: per connection, 0 = no limit */
	uint64_t duration_ns;		/* sender: stop the source after this, 0 = none */
	uint64_t start_ns;		/* sender: connect this long after the run starts */
	uint32_t seed;
	int verify;			/* receiver: check the pattern of seed */
	/* egress */
	char egress[ENG_NAME_LEN];	/* sched task, "" = rte_eth_tx_burst */
	uint32_t weight;
	/* cwnd traces */
	char cwnd_trace[PATH_MAX];	/* "" = none */
	uint32_t trace_points;		/* per connection */
	uint64_t trace_gap_ns;
	/* seed-002 cap policy over the task's connections */
	struct tcp_cap_conf cap;
};

/* Connection i's settings (a receiver's connections: the listener's, conn[0]). */
static inline const struct eng_tcp_conn_conf *
eng_tcp_conn_conf(const struct eng_tcp_conf *tc, unsigned int i)
{
	return &tc->conn[tc->role == ENG_TCP_SENDER && i < ENG_TCP_MAX_FLOWS ? i : 0];
}

/* Live per-connection counters, published by the owning lcore. */
struct eng_tcp_snap {
	struct tcp_stats st;
	int state;			/* enum tcp_state; TCP_CLOSED before start */
	int close_reason;		/* enum tcp_close_reason */
	int used;			/* the slot has (had) a connection */
	int done;
	uint16_t local_port, remote_port;
	uint32_t remote_ip;
	uint64_t sink_bytes, bad_bytes, order_errors;
	uint64_t trace_points, trace_dropped;
	uint64_t snap_ns;		/* when published (ns, the task's clock) */
	uint64_t done_ns;		/* transfer finished (send_done / FIN received), 0 = not yet */
};

/* The periodic block's previous values of a connection (main thread). */
struct eng_tcp_rep {
	uint64_t bytes, ns;
};

/* task_tcp.c: snapshots for stats_tcp.c (any thread). */
struct eng_tcp_rep *eng_tcp_flow_rep(struct eng_task *t, unsigned int i);
unsigned int eng_tcp_task_flows(const struct eng_task *t);
int eng_tcp_flow_snap(const struct eng_task *t, unsigned int i, struct eng_tcp_snap *out);
int eng_tcp_cap_snap(const struct eng_task *t, struct tcp_cap_stats *out);
int eng_tcp_task_done(const struct eng_task *t);
void eng_tcp_ep_stats(const struct eng_task *t, struct tcp_ep_stats *out);
uint64_t eng_tcp_run_start_ns(const struct eng_task *t);
/* The task keys of a kind = tcp section (task_tcp_conf.c). */
int eng_tcp_parse_task(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg);

/* tcp_stats.c: the kind's report, its counter tables (doc/tcp.md) */
struct eng_out;
void eng_tcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
extern const struct eng_ctr_table eng_tcp_tables[];

extern const struct eng_task_ops eng_task_tcp;

#endif /* ENG_TASK_TCP_H */
