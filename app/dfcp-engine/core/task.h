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

#include <rte_cfgfile.h>

#include "core/defs.h"

/* Tasks one "lcores" key may expand into: each takes its own rx and tx
 * queue, and a port has at most 16. */
#define ENG_TASK_SPREAD_MAX 16

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
	/* "egress = SCHED_TASK" as the kind read it ("" = none) and its line, for
	 * the load-time check of the name (the sched kind's check) */
	char egress[ENG_NAME_LEN];
	int egress_line;
	/* kinds that run [flow]s: "flows = a, b" as written, resolved by [flow]'s
	 * check (config/sec_flow.c) into cfg->flows indexes; malloc'd, any length */
	char *flow_list;
	unsigned int nb_flows;
	unsigned int *flow_idx;
	/* "lcores = 2-5" (config/sec_task.c): one [task NAME] section expanded
	 * into the tasks NAME.0 .. NAME.(spread_n - 1), consecutive in the
	 * config; task i runs on the i-th lcore of the list with rx and tx queue
	 * i of its ports. Only the first keeps flow_list: [flow]'s check places
	 * its flows over all of them. spread_n 0: a task of its own. */
	char spread[ENG_NAME_LEN];	/* the section's name */
	unsigned int spread_n, spread_i;
	int spread_line;		/* of the lcores key */
	void *priv;                 /* from ops->setup(); freed by ops->teardown() */
	struct eng_runtime *rt;
};

/* A task's goal (ops->done): the run stops when every task that has one reached it. */
enum eng_goal {
	ENG_GOAL_NONE = 0,	/* runs until the duration or a signal */
	ENG_GOAL_PENDING,	/* has a goal, not reached yet */
	ENG_GOAL_REACHED,
};

/* What ops->report() writes (obs/stats.c calls it once per kind, in table order). */
enum eng_report {
	ENG_REPORT_PERIOD = 0,	/* text: the periodic block */
	ENG_REPORT_SUMMARY,	/* text: the final summary */
	ENG_REPORT_RESULT,	/* text: closing lines after every kind's summary */
	ENG_REPORT_JSON,	/* the kind's members of the summary JSON */
};

struct eng_out;
struct eng_section_kind;
struct eng_ctr;
struct eng_flow_conf;
struct eng_flow_view;

/*
 * ops->losses reports each place its tasks or sections lost or refused
 * frames through note: frames, the class they add to in the summary's
 * loss line ("pipes", "sched"; NULL: a refusal counted elsewhere too, e.g.
 * by the producer, so a candidate for the biggest place only) and where
 * ("pipe link lost_packets (emulated loss: plr)").
 */
typedef void (*eng_loss_note_fn)(void *ctx, uint64_t frames, const char *cls,
		const char *where);

/* A telemetry command (obs/telemetry.c registers every kind's). */
struct eng_tel_cmd {
	const char *cmd;	/* "/dfcp/flows" */
	const char *help;
	int (*fn)(struct eng_runtime *rt, const char *params, struct eng_out *o);
};

/* A counter table of a kind: the fields of one record type (obs/out.h). */
struct eng_ctr_table {
	const char *record;	/* "flow", "pipe", ... */
	const struct eng_ctr *ctr;
	unsigned int n;
};

/*
 * A task kind. Everything a kind needs is here: adding one is its folder
 * under kinds/, one line in kinds.c and one in meson.build
 * (doc/contributing.md, "Adding a task kind"). Only name, parse, setup,
 * poll, stats and teardown are required.
 */
struct eng_ctl_req;
struct eng_egress_flow;
struct eng_pace_view;
struct eng_stream_view;

struct eng_task_ops {
	const char *name;   /* kind, as in "kind = txonly" */
	const char *help;

	/* --- config time, no EAL --- */
	/* Section kinds this kind owns besides its [task]s (NULL-terminated). */
	const struct eng_section_kind *const *sections;
	/* Read kind keys from sec, fill t->ports, t->conf. */
	int (*parse)(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg);
	/* Once, after every section was parsed and checked: cross-references. */
	int (*check)(struct eng_config *cfg, char *err, size_t errlen);
	/* Kinds that run [flow]s (proto = KIND): read a flow's protocol keys
	 * into f->pconf (malloc'd). */
	int (*flow_parse)(struct eng_flow_conf *f, struct eng_sec *sec, struct eng_config *cfg);
	/* ... and, any thread, how flow (cfg->flows index) runs: 0, or -ENOENT
	 * when it is not running or shows nothing yet (the live view, --timeseries). */
	int (*flow_view)(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_view *v);
	/* Any thread: a paced task's pace record (obs/pace_view.h; period: the
	 * rate since the last periodic call, which moves on); 0, or -ENOENT
	 * when t is not paced. */
	int (*pace_view)(const struct eng_task *t, struct eng_pace_view *v, int period);
	/* ... and a paced flow's (cfg->flows index) of a kind that runs [flow]s. */
	int (*flow_pace_view)(const struct eng_runtime *rt, unsigned int flow,
			struct eng_pace_view *v, int period);
	/* Any thread: the streams of a task that sends or receives several
	 * (txonly / rxonly, flows = N; obs/streams.c): how many slots it has,
	 * and slot i's view: 0, or -ENOENT when slot i holds no stream. */
	unsigned int (*stream_slots)(const struct eng_task *t);
	int (*stream_view)(const struct eng_task *t, unsigned int i, struct eng_stream_view *v);
	/* mbufs the task may hold at once (pool size); NULL: two bursts. */
	uint64_t (*pool_need)(const struct eng_task *t, const struct eng_config *cfg);

	/* --- run time --- */
	/* After ports start, on the main lcore: allocate t->priv on socket. */
	int (*setup)(struct eng_task *t, struct eng_runtime *rt, int socket);
	/* An egress task (core/egress.h): attach flow_name of PRODUCER to task t
	 * during set-up; its handle and *flow_id, or NULL with the reason logged. */
	struct eng_egress_flow *(*egress_attach)(struct eng_runtime *rt, struct eng_task *t,
			const struct eng_task *producer, const char *flow_name, uint32_t weight,
			uint32_t *flow_id);
	/* Hot path, on the task's lcore: one burst; returns packets handled. */
	uint16_t (*poll)(struct eng_task *t, uint64_t now_tsc);
	/* Any thread: the task's goal (NULL: ENG_GOAL_NONE). */
	enum eng_goal (*done)(const struct eng_task *t);
	/* After the lcores stopped: hand back mbufs, publish final counters. */
	void (*quiesce)(struct eng_task *t);
	/* At the end: free mbufs still held, t->priv. */
	void (*teardown)(struct eng_task *t);

	/* --- output (obs/) --- */
	/* Any thread: the generic counters of the "tasks" JSON array. */
	void (*stats)(const struct eng_task *t, struct eng_task_stats *out);
	/* Once per kind (not per task): its blocks, summary, JSON members. */
	void (*report)(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
	/* Its telemetry commands ({NULL}-terminated). */
	const struct eng_tel_cmd *tel;
	/* Its counter tables ({NULL}-terminated), for --counters and the docs. */
	const struct eng_ctr_table *tables;
	/* Once per kind, after the run: the places it lost frames (eng_loss_note_fn),
	 * beside the ports' and tasks' counters in the summary's loss line. */
	void (*losses)(struct eng_runtime *rt, eng_loss_note_fn note, void *ctx);

	/* --- run-time control (obs/console.c, core/ctl.h) --- */
	/* Main lcore, while the run is on: validate req and post it to the
	 * task's mailbox for its lcore (never touching what that lcore owns);
	 * ENG_CTL_SYNC: 1 while the lcore has not applied it, else 0. 0, or a
	 * negative errno with the reason in err. NULL: the kind takes none. */
	int (*control)(struct eng_task *t, const struct eng_ctl_req *req, char *err, size_t len);
};

/* The kind table (kinds.c). */
unsigned int eng_kinds_count(void);
const struct eng_task_ops *eng_kind(unsigned int i);
const struct eng_task_ops *eng_task_kind_find(const char *name);
int eng_kind_index(const struct eng_task_ops *ops);	/* -1: not in the table */
void eng_task_kind_list(char *buf, size_t len);

/* Every task in config order (task.c): setup (0 or the first error), goals,
 * quiesce and teardown of the tasks that were set up. */
int eng_tasks_setup(struct eng_config *cfg, struct eng_runtime *rt);
enum eng_goal eng_tasks_done(const struct eng_config *cfg);
void eng_tasks_quiesce(struct eng_config *cfg);
void eng_tasks_teardown(struct eng_config *cfg);

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
