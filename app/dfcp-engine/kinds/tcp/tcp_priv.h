/* SPDX-License-Identifier: BSD-3-Clause */
/* The tcp kind's run-time state (tcp_task.c, tcp_trace.c): private. */
#ifndef ENG_TCP_PRIV_H
#define ENG_TCP_PRIV_H

#include <stdint.h>

#include "hist.h"
#include "kinds/tcp/tcp_task.h"
#include "kinds/xport/xport.h"
#include "tcp.h"

struct tcp_task;

/* A local address of the task: one lib/tcp endpoint (eng_xep.priv). */
struct tcp_group {
	struct tcp_ep *ep;
	struct eng_xep *xep;
	uint32_t ip;
	uint16_t listen_port;		/* 0: no receiver here */
	unsigned int senders, receivers;
	struct tcp_task *d;
};

/* A TCP flow: one connection (eng_xflow.priv). */
struct tcp_flow {
	struct eng_xflow *xf;
	struct tcp_group *g;
	struct tcp_conn *conn;		/* NULL before start / after close (receiver) */
	struct tcp_conf conf;		/* sender: connect conf */
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct tcp_trace_buf trace;
	struct hist *rtt;		/* RTT samples (obs/obs.h), NULL: none */
	uint64_t rtt_n, rtt_sum;	/* samples so far, their sum */
	int used, done, started, closed;
	int src_end;			/* sender: the source ended by itself (its goal) */
	int completed;			/* sender: every byte acked / receiver: the FIN arrived */
	uint64_t done_ns;
	struct tcp_stats last;		/* the connection's counters when it closed */
	struct eng_tcp_snap snap;	/* published to other threads */
	struct eng_tcp_rep rep;		/* main thread: the periodic block's previous values */
};

/* The task (eng_xtask.priv). */
struct tcp_task {
	struct eng_xtask *x;
	struct tcp_cap *capp;
	struct tcp_cap_stats cap_snap;
	struct tcp_ep_stats ep_snap;	/* summed over the endpoints */
	uint64_t stray[TCP_E_MAX];	/* frames for no endpoint of the task */
	volatile int stop_src;
	int started, traces_written;
	unsigned int ticks;
	unsigned int nb_groups;
	struct tcp_group *groups;	/* [nb_flows] */
	struct tcp_flow flows[];	/* [nb_flows] */
};

/* tcp_trace.c: the task's cwnd trace file, a gnuplot data block per sender. */
int eng_tcp_write_traces(struct tcp_task *d);

#endif /* ENG_TCP_PRIV_H */
