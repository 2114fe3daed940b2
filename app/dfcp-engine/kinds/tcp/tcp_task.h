/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The tcp task kind: TCP flows ([flow NAME] with proto = tcp, one lib/tcp
 * connection each; keys in tcp_conf.c) run on one port queue pair, the TCP
 * adapter of the transport skeleton (tcp_task.c, one lib/tcp endpoint per
 * local address of the task), their statistics and JSON (tcp_stats.c). The
 * task's own keys: egress, the seed-002 cap policy over its senders, cwnd
 * traces. See doc/tcp.md ("In the engine") and doc/config.md.
 */
#ifndef ENG_TCP_TASK_H
#define ENG_TCP_TASK_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/runtime.h"
#include "core/task.h"
#include "tcp.h"

/* A [flow]'s connection settings: congestion control and timers. */
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
	uint64_t arp_unsolicited, arp_conflicts;	/* sender: its ARP entry's (lib/net) */
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
