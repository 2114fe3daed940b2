/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tcp task kind: TCP flows ([flow NAME] with proto = tcp, one lib/tcp
 * connection each; keys in tcp_conf.c) run on one port queue pair, the TCP
 * adapter of the transport skeleton (tcp_task.c, one lib/tcp endpoint per
 * local address of the task), their statistics and JSON (tcp_stats.c). The
 * task's own keys: egress, the seed-002 cap policy over its senders, cwnd
 * traces. A task written with the deprecated connection keys (role, local,
 * flows = N, cc = a, b ...) expands into flows TASK.0, TASK.1 ... See
 * doc/tcp.md ("In the engine") and doc/config.md.
 */
#ifndef ENG_TCP_TASK_H
#define ENG_TCP_TASK_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ether.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/runtime.h"
#include "core/task.h"
#include "tcp.h"

#define ENG_TCP_MAX_FLOWS	TCP_CAP_MAX_FLOWS	/* connections of a deprecated task */

enum eng_tcp_role {
	ENG_TCP_SENDER = 0,	/* active open, bulk source */
	ENG_TCP_RECEIVER,	/* listens, counting / verifying sink */
};

/* The settings a deprecated task may give each connection its own value of
 * (comma lists); a [flow]'s own. */
struct eng_tcp_conn_conf {
	char cc[32];			/* congestion-control module (tcp_cc_find) */
	int recovery;			/* -1: the module's, else enum tcp_recovery */
	uint32_t mss, init_cwnd, dupthresh;
	uint64_t rto_init_ns, rto_min_ns, tick_ns;
};

/* The other tcp_conf keys. */
struct eng_tcp_proto {
	uint32_t sndbuf, rcvbuf;
	uint32_t delack_count;
	uint64_t delack_ns;
	int pair_acks;			/* -1 auto, 0, 1 */
	int rack, limited_transmit;	/* -1 auto, 0, 1 (struct tcp_conf) */
	int sack, timestamps, wscale;
	uint64_t rto_max_ns, time_wait_ns;
	uint32_t max_retries, syn_retries;
};

/* The TCP keys of a [flow NAME] (its pconf). */
struct eng_tcp_flow_conf {
	struct eng_tcp_conn_conf k;
	struct eng_tcp_proto p;
};

static inline const struct eng_tcp_flow_conf *
eng_tcp_fc(const struct eng_flow_conf *f)
{
	return f->pconf;
}

/* [task NAME] kind = tcp: its kind-private configuration. */
struct eng_tcp_conf {
	/* egress */
	char egress[ENG_NAME_LEN];	/* sched task, "" = rte_eth_tx_burst */
	uint32_t weight;		/* of the task's endpoints there */
	/* cwnd traces */
	char cwnd_trace[PATH_MAX];	/* "" = none */
	uint32_t trace_points;		/* per connection */
	uint64_t trace_gap_ns;
	/* seed-002 cap policy over the task's senders */
	struct tcp_cap_conf cap;
	int hold;			/* never reach the goal (deprecated receiver, flows = 0) */
	/* the deprecated connection keys (alias = 1), expanded into flows */
	int alias;
	int role;			/* enum eng_tcp_role */
	uint32_t local_ip, remote_ip;	/* host order */
	uint16_t local_port, remote_port;
	int has_remote_mac;
	struct rte_ether_addr remote_mac;
	uint32_t flows;			/* sender: parallel connections; receiver: expected */
	struct eng_tcp_conn_conf conn[ENG_TCP_MAX_FLOWS];	/* per connection, all filled */
	uint32_t nb_conn_values;	/* the longest per-connection list (1: no list) */
	struct eng_tcp_proto proto;
	uint64_t bytes;			/* sender: per connection, 0 = no limit */
	uint64_t duration_ns;		/* sender: stop the source after this, 0 = none */
	uint64_t start_ns;		/* sender: connect this long after the run starts */
	uint32_t seed;
	int verify;			/* receiver: check the pattern of seed */
};

/* Live counters of a flow's connection, published by the owning lcore. */
struct eng_tcp_snap {
	struct tcp_stats st;
	int state;			/* enum tcp_state; TCP_CLOSED before start */
	int close_reason;		/* enum tcp_close_reason */
	int used;			/* the flow has (had) a connection */
	int done;
	int completed;			/* its goal reached (eng_xport_judge) */
	char fail[ENG_FAIL_LEN];	/* why it failed, "" if it did not */
	uint16_t local_port, remote_port;
	uint32_t remote_ip;
	uint64_t sink_bytes, bad_bytes, order_errors;
	uint64_t trace_points, trace_dropped;
	uint64_t snap_ns;		/* when published (ns, the task's clock) */
	uint64_t done_ns;		/* transfer finished (send_done / FIN received), 0 = not yet */
};

/* The periodic block's previous values of a flow (main thread). */
struct eng_tcp_rep {
	uint64_t bytes, ns;
};

/* tcp_conf.c: the task keys, a [flow]'s TCP keys, the kind's check */
int eng_tcp_parse_task(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg);
int eng_tcp_flow_parse(struct eng_flow_conf *f, struct eng_sec *sec, struct eng_config *cfg);
int eng_tcp_check(struct eng_config *cfg, char *err, size_t errlen);
/* A connection's struct tcp_conf from its flow's keys. */
void eng_tcp_conf_fill(struct tcp_conf *d, const struct eng_tcp_flow_conf *c);

/* tcp_task.c: for tcp_stats.c (any thread; NULL / -ENOENT when not running) */
int eng_tcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_tcp_snap *out);
struct eng_tcp_rep *eng_tcp_flow_rep(struct eng_runtime *rt, unsigned int flow);
int eng_tcp_cap_snap(const struct eng_task *t, struct tcp_cap_stats *out);
int eng_tcp_task_done(const struct eng_task *t);
void eng_tcp_ep_stats(const struct eng_task *t, struct tcp_ep_stats *out);
uint64_t eng_tcp_run_start_ns(const struct eng_task *t);

/* tcp_stats.c: the kind's report, a flow's fields, its counter tables (doc/tcp.md) */
struct eng_out;
struct eng_xflow;
void eng_tcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
void eng_tcp_flow_write(const struct eng_xflow *xf, struct eng_out *o);
extern const struct eng_ctr_table eng_tcp_tables[];

extern const struct eng_task_ops eng_task_tcp;

#endif /* ENG_TCP_TASK_H */
