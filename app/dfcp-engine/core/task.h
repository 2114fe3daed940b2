/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tasks: one [task NAME] section is a task of some kind (struct
 * eng_task_ops, one folder per kind under kinds/, the table in kinds.c),
 * the ports and queues it uses and its private state.
 * See doc/architecture.md ("Lcore / task model").
 */
#ifndef ENG_TASK_H
#define ENG_TASK_H

#include <stddef.h>
#include <stdint.h>

#include "core/defs.h"

struct eng_config;
struct eng_runtime;
struct eng_sec;
struct eng_task_ops;

/* Task statistics, as reported by the ops->stats() callback. */
struct eng_task_stats {
	uint64_t tx_packets, tx_bytes, tx_dropped;  /* dropped: refused by the tx queue */
	uint64_t rx_packets, rx_bytes;
	uint64_t rx_valid;      /* engine test packets that verified */
	uint64_t rx_bad;        /* engine test packets that failed verification */
	uint64_t rx_other;      /* not engine test packets (ARP, IPv6, ...) */
	uint64_t seq_lost;      /* gaps in sequence numbers */
	uint64_t seq_reordered; /* duplicates or late packets */
	uint64_t lat_samples;
	uint64_t lat_min_ns, lat_avg_ns, lat_max_ns;
	uint64_t no_mbuf;       /* mbuf allocation failures */
};

/* One port a task uses; index into eng_config.ports plus queue ids. */
struct eng_task_port {
	char port_name[ENG_NAME_LEN]; /* resolved to port_idx after all sections */
	uint16_t port_idx;
	uint16_t rxq, txq;
};

/* One [task NAME] section: generic part plus kind-private conf and state. */
struct eng_task {
	char name[ENG_NAME_LEN];
	int line;
	const struct eng_task_ops *ops;
	uint16_t burst;
	unsigned int lcore_id;      /* filled by the [lcore N] section */
	int assigned;
	unsigned int nb_ports;
	struct eng_task_port ports[ENG_MAX_TASK_PORTS];
	void *conf;                 /* from ops->parse(); freed by eng_config_free() */
	void *priv;                 /* from ops->setup(); freed by ops->teardown() */
	struct eng_runtime *rt;
};

struct eng_task_ops {
	const char *name;   /* kind, as in "kind = txonly" */
	const char *help;
	/* Config time, no EAL: read kind keys from sec, fill t->ports, t->conf. */
	int (*parse)(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg);
	/* After ports start, on the main lcore: allocate t->priv on socket. */
	int (*setup)(struct eng_task *t, struct eng_runtime *rt, int socket);
	/* Hot path, on the task's lcore: one burst; returns packets handled. */
	uint16_t (*poll)(struct eng_task *t, uint64_t now_tsc);
	/* Any thread: snapshot of the counters. */
	void (*stats)(const struct eng_task *t, struct eng_task_stats *out);
	/* After the lcores have stopped: free mbufs held, t->priv. */
	void (*teardown)(struct eng_task *t);
};

/* The kind table (kinds.c). */
const struct eng_task_ops *eng_task_kind_find(const char *name);
void eng_task_kind_list(char *buf, size_t len);
/* Helper for parse(): read "KEY = PORTNAME" and optional queue keys. */
int eng_task_parse_port(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg,
		const char *key, const char *rxq_key, const char *txq_key, int required);
/*
 * "egress = SCHED_TASK" (optional, into egress[len]) and "port" with "rxq",
 * plus "txq" only without an egress: the scheduler then owns the tx queue.
 */
int eng_task_parse_egress_port(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg,
		char *egress, size_t len);

#endif /* ENG_TASK_H */
