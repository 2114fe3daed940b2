/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-engine private header: configuration model, section and task tables,
 * runtime state. See doc/architecture.md.
 */
#ifndef ENG_H
#define ENG_H

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_cfgfile.h>
#include <rte_common.h>
#include <rte_ether.h>
#include <rte_log.h>

#include "cfg.h"

/* Exit codes (doc/config.md, README.md). */
enum eng_exit {
	ENG_EXIT_OK = 0,       /* ran and finished (duration, signal) */
	ENG_EXIT_CONFIG = 1,   /* bad command line or config file */
	ENG_EXIT_EAL = 2,      /* rte_eal_init() failed */
	ENG_EXIT_SETUP = 3,    /* ports, pools, lcores or tasks could not be set up */
	ENG_EXIT_RUNTIME = 4,  /* an lcore or task failed while running */
};

#define ENG_NAME_LEN 32
#define ENG_MAX_PORTS 32
#define ENG_MAX_TASKS 128
#define ENG_MAX_LCORE_TASKS 16
#define ENG_MAX_TASK_PORTS 2
#define ENG_MAX_SECTIONS 512
#define ENG_MAX_KEYS 64
#define ENG_ERR_LEN 512
#define ENG_MAX_CAPTURES 16

/* Log types, one per component (log.c). */
extern int eng_logtype_main;
extern int eng_logtype_config;
extern int eng_logtype_port;
extern int eng_logtype_lcore;
extern int eng_logtype_task;
extern int eng_logtype_stats;

#define ENG_LOG(level, comp, fmt, ...) \
	rte_log(RTE_LOG_##level, eng_logtype_##comp, "dfcp-engine: " fmt "\n", ##__VA_ARGS__)

/* ---------------------------------------------------------------------------
 * Key reader: one config section being parsed. Section parsers read keys
 * through the eng_sec_*() getters; every key read is marked used, and the
 * loader reports any key left unused as unknown, listing the keys that were
 * asked for. Getters leave *out untouched when the key is absent (so it keeps
 * its default) and return 0; on a bad value they write the error
 * "FILE:LINE: [SECTION] KEY: reason" and return a negative errno.
 */
struct eng_sec {
	const char *file;
	char name[CFG_NAME_LEN];   /* whole name: "port p0" */
	char kind[CFG_NAME_LEN];   /* "port" */
	char id[CFG_NAME_LEN];     /* "p0", or "" for unnamed sections */
	int line;                  /* line of the [header] */
	int nb_entries;
	struct rte_cfgfile_entry entries[ENG_MAX_KEYS];
	int entry_line[ENG_MAX_KEYS];
	uint8_t used[ENG_MAX_KEYS];
	const char *asked[ENG_MAX_KEYS]; /* keys the parser asked for (for "unknown key") */
	int nb_asked;
	char *err;
	size_t errlen;
};

int eng_sec_error(struct eng_sec *sec, const char *key, const char *fmt, ...)
	__rte_format_printf(3, 4);
const char *eng_sec_get(struct eng_sec *sec, const char *key);
int eng_sec_missing(struct eng_sec *sec, const char *key, const char *expected);
int eng_sec_str(struct eng_sec *sec, const char *key, char *buf, size_t len);
int eng_sec_name(struct eng_sec *sec, const char *key, char *buf, size_t len);
int eng_sec_u64(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int eng_sec_u32(struct eng_sec *sec, const char *key, uint32_t min, uint32_t max, uint32_t *out);
int eng_sec_u16(struct eng_sec *sec, const char *key, uint16_t min, uint16_t max, uint16_t *out);
int eng_sec_bool(struct eng_sec *sec, const char *key, int *out);
int eng_sec_rate(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int eng_sec_time(struct eng_sec *sec, const char *key, uint64_t bare_unit_ns, uint64_t min,
		uint64_t max, uint64_t *out);
int eng_sec_size(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int eng_sec_ipv4(struct eng_sec *sec, const char *key, uint32_t *out);
int eng_sec_mac(struct eng_sec *sec, const char *key, struct rte_ether_addr *out);
int eng_sec_port_range(struct eng_sec *sec, const char *key, uint16_t *lo, uint16_t *hi);

/* ---------------------------------------------------------------------------
 * Configuration model (plain structs, filled without EAL).
 */
struct eng_port_conf {
	char name[ENG_NAME_LEN];
	char device[CFG_VALUE_LEN]; /* "ring:WIRE", vdev "net_x0,args", PCI "0000:01:00.0" */
	char preset[ENG_NAME_LEN];
	uint16_t rx_queues, tx_queues;
	uint16_t rx_desc, tx_desc;
	uint16_t mtu;               /* 0: device default */
	int promisc;
	int rss;                    /* RSS over rx queues when rx_queues > 1 */
	int rx_checksum, tx_checksum; /* IPv4/UDP checksum offloads */
	int has_mac;
	struct rte_ether_addr mac;  /* optional: set the port MAC */
	struct rte_ether_addr peer_mac; /* destination MAC for generated traffic */
	int has_peer_mac;
};

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

struct eng_lcore_conf {
	unsigned int lcore_id;
	int line;
	char task_list[CFG_VALUE_LEN]; /* as written; resolved after all sections */
	unsigned int nb_tasks;
	uint16_t task_idx[ENG_MAX_LCORE_TASKS];
};

struct eng_flow_conf;
struct eng_route_conf;
struct eng_capture_conf;

struct eng_config {
	char file[PATH_MAX];
	/* [eal] */
	int has_eal;
	char eal_args[CFG_VALUE_LEN];
	/* [engine] */
	uint64_t duration_ns;       /* 0: run until a signal */
	uint64_t stats_period_ns;   /* 0: no periodic stats */
	uint64_t drain_ns;          /* after stop: rx keeps polling this long */
	char summary_json[PATH_MAX];
	char drivers_dir[PATH_MAX];
	uint32_t mbufs;             /* per pool; 0: computed */
	uint32_t mbuf_cache;
	uint32_t mbuf_data_size;
	/* observability (obs.h, doc/observability.md) */
	uint32_t stats_top;         /* flows listed in the periodic view (top N by goodput) */
	char timeseries[PATH_MAX];  /* CSV, one row per period per flow; "" = none */
	int pdump;                  /* rte_pdump_init(): dpdk-dumpcap / dpdk-pdump may attach */
	/* [port NAME] */
	unsigned int nb_ports;
	struct eng_port_conf ports[ENG_MAX_PORTS];
	/* [task NAME] */
	unsigned int nb_tasks;
	struct eng_task tasks[ENG_MAX_TASKS];
	/* [lcore N] */
	unsigned int nb_lcores;
	struct eng_lcore_conf lcores[RTE_MAX_LCORE];
	/* Later sections ([pipe], [queue], [flow]) add their tables here. */
	/* [flow NAME] (section_flow.c, flow.h): calloc'd table */
	unsigned int nb_flows;
	struct eng_flow_conf *flows;
	/* [pipe NAME], [queue NAME] (section_pipe.c, section_queue.c, route.h): calloc'd */
	struct eng_route_conf *route;
	/* [capture NAME] (capture.c): calloc'd */
	unsigned int nb_captures;
	struct eng_capture_conf *captures;
};

/* ---------------------------------------------------------------------------
 * Section kinds (config.c holds the table, one section_*.c per kind).
 */
struct eng_section_kind {
	const char *prefix;   /* "port" matches [port NAME]; "eal" matches [eal] */
	int named;            /* 1: [prefix NAME] required; 0: [prefix] only, at most once */
	const char *help;     /* one line for "unknown section" messages */
	/* Parse one section; unknown keys are caught by the loader afterwards. */
	int (*parse)(struct eng_config *cfg, struct eng_sec *sec);
	/* Called once after all sections: cross-references and defaults. */
	int (*check)(struct eng_config *cfg, char *err, size_t errlen);
};

extern const struct eng_section_kind eng_section_eal;
extern const struct eng_section_kind eng_section_engine;
extern const struct eng_section_kind eng_section_port;
extern const struct eng_section_kind eng_section_task;
extern const struct eng_section_kind eng_section_lcore;
extern const struct eng_section_kind eng_section_flow;
extern const struct eng_section_kind eng_section_pipe;
extern const struct eng_section_kind eng_section_queue;
extern const struct eng_section_kind eng_section_capture;

/*
 * Load FILE into cfg (zeroed and defaulted first). Returns 0, or a negative
 * errno with the reason in err ("FILE:LINE: [SECTION] KEY: ..."). No EAL.
 */
int eng_config_load(struct eng_config *cfg, const char *file, char *err, size_t errlen);
void eng_config_free(struct eng_config *cfg);
int eng_config_port_index(const struct eng_config *cfg, const char *name);
/* Load drivers-config/<preset>.ini into pc (used by section_port.c). */
int eng_preset_load(const struct eng_config *cfg, struct eng_port_conf *pc, const char *preset,
		struct eng_sec *owner);

/* ---------------------------------------------------------------------------
 * Tasks (task.c holds the table, one task_*.c per kind).
 */
struct eng_runtime;

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

extern const struct eng_task_ops eng_task_txonly;
extern const struct eng_task_ops eng_task_rxonly;
extern const struct eng_task_ops eng_task_io;
extern const struct eng_task_ops eng_task_dfcp;
extern const struct eng_task_ops eng_task_router;
extern const struct eng_task_ops eng_task_sched;
extern const struct eng_task_ops eng_task_tcp;

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

/* ---------------------------------------------------------------------------
 * Runtime (EAL initialised).
 */
enum eng_phase {
	ENG_PHASE_INIT = 0,
	ENG_PHASE_RUN,    /* generators send */
	ENG_PHASE_DRAIN,  /* generators stop; receivers and forwarders keep polling */
	ENG_PHASE_STOP,   /* lcores return */
};

struct eng_port_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_missed, rx_errors, tx_errors, rx_nombuf;
};

struct eng_port {
	uint16_t port_id;
	int socket;
	int started;
	int created;              /* created by the engine (ring ports): free on exit */
	struct rte_mempool *pool;
	struct rte_ether_addr mac;
	uint64_t rx_offloads, tx_offloads; /* as enabled after the capability check */
	struct rte_ring *rings[2 * 16];
	unsigned int nb_rings;
	struct eng_port_stats base;   /* at start (stats reset may be unsupported) */
	struct eng_port_stats last;   /* at the previous periodic print */
	uint64_t last_tsc;
};

struct eng_runtime {
	struct eng_config *cfg;
	struct eng_port ports[ENG_MAX_PORTS];
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
	volatile int phase;
	uint64_t hz;
	uint64_t start_tsc, stop_tsc;
	int lcore_failed;
	struct eng_route_rt *route; /* pipes of the router tasks (route.c) */
};

/* mempool.c */
int eng_pools_create(struct eng_runtime *rt);
void eng_pools_free(struct eng_runtime *rt);
/* port.c */
int eng_ports_probe(struct eng_runtime *rt);
int eng_ports_start(struct eng_runtime *rt);
void eng_ports_close(struct eng_runtime *rt);
void eng_port_stats_read(struct eng_runtime *rt, unsigned int idx, struct eng_port_stats *out);
/* lcore.c */
int eng_lcores_check(struct eng_runtime *rt);
int eng_lcores_launch(struct eng_runtime *rt);
int eng_lcores_wait(struct eng_runtime *rt);
int eng_lcore_main_has_tasks(struct eng_runtime *rt);
int eng_lcore_main_poll(struct eng_runtime *rt, uint64_t now);
/* stats.c */
void eng_stats_start(struct eng_runtime *rt);
void eng_stats_period(struct eng_runtime *rt);
void eng_stats_summary(struct eng_runtime *rt);
int eng_stats_json(struct eng_runtime *rt, const char *path);
/* stats_route.c: pipes, queues and sched tasks */
void eng_route_stats_period(struct eng_runtime *rt);
void eng_route_stats_summary(struct eng_runtime *rt);
void eng_route_stats_json(struct eng_runtime *rt, FILE *f); /* ",\n  \"pipes\": [...], ..." */
struct rte_tel_data;
int eng_route_tel_pipes(struct eng_runtime *rt, struct rte_tel_data *d);
int eng_route_tel_sched(struct eng_runtime *rt, struct rte_tel_data *d);
/* stats_tcp.c: tcp tasks (task_tcp.c, doc/tcp.md) */
void eng_tcp_stats_period(struct eng_runtime *rt);
void eng_tcp_stats_summary(struct eng_runtime *rt);
void eng_tcp_stats_json(struct eng_runtime *rt, FILE *f); /* ",\n  \"tcp\": [...], ..." */
int eng_tcp_done(struct eng_runtime *rt); /* every tcp task (and DFCP flow) finished */
/* route.c: mbufs the pipes and sched tasks may hold at once (pool size) */
uint64_t eng_route_pool_need(const struct eng_config *cfg);
/* task_sched.c: attach a flow to sched task SCHED_TASK during set-up (from
 * another task's setup(), any task order). Returns the flow's SPSC ring (the
 * caller is its only producer; the sched task owns it and frees mbufs left in
 * it at teardown) and its id in *flow_id, or NULL with the reason logged. */
struct rte_ring *eng_sched_attach(struct eng_runtime *rt, const char *sched_task,
		const char *flow_name, uint32_t weight, uint32_t *flow_id);
/* telemetry.c */
int eng_telemetry_register(struct eng_runtime *rt);
void eng_telemetry_stop(void);

#endif /* ENG_H */
