/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The configuration model (plain structs, filled without EAL), the section
 * kinds that fill it and the loader (loader.c). See doc/config.md.
 */
#ifndef ENG_CONFIG_H
#define ENG_CONFIG_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "cfg.h"
#include "config/keys.h"
#include "core/defs.h"
#include "core/task.h"

struct eng_port_conf {
	char name[ENG_NAME_LEN];
	int line;                   /* of its [port NAME] header */
	char device[CFG_VALUE_LEN]; /* "ring:WIRE", vdev "net_x0,args", PCI "0000:01:00.0" */
	char preset[ENG_NAME_LEN];
	char devargs[CFG_VALUE_LEN]; /* added to a vdev the engine creates: "k=v,k=v" */
	uint16_t rx_queues, tx_queues;
	/* lines of rx_queues and tx_queues in [port] (0: not given there): a
	 * task over several lcores raises only a count nobody wrote (sec_task.c) */
	int rx_queues_line, tx_queues_line;
	uint16_t rx_desc, tx_desc;
	uint16_t mtu;               /* 0: device default */
	int promisc;
	int rss;                    /* RSS over rx queues when rx_queues > 1 */
	int rx_checksum, tx_checksum; /* IPv4/UDP checksum offloads */
	int has_mac;
	struct rte_ether_addr mac;  /* optional: set the port MAC */
	struct rte_ether_addr peer_mac; /* destination MAC for generated traffic */
	int has_peer_mac;
	uint16_t arp_tries;         /* senders' ARP requests (200 ms apart) before giving up */
};

#define ENG_ARP_TRIES	15	/* arp_tries default */

struct eng_lcore_conf {
	unsigned int lcore_id;
	int line;
	/* as written, resolved after all sections: room for ENG_MAX_LCORE_TASKS
	 * names of ENG_NAME_LEN - 1 characters with ", " between them */
	char task_list[ENG_MAX_LCORE_TASKS * (ENG_NAME_LEN + 1)];
	unsigned int nb_tasks;
	uint16_t task_idx[ENG_MAX_LCORE_TASKS];
	/* made by the lcores key of [task spread] (line: the key's), not by an
	 * [lcore N] section; "" for a section */
	char spread[ENG_NAME_LEN];
};

struct eng_flow_conf;
struct eng_capture_conf;

/* [engine] live: the periodic view as a refreshing screen (obs/screen.c) or log blocks. */
enum eng_live_mode {
	ENG_LIVE_AUTO = 0,	/* screen when stdout is a terminal and ncurses is built in */
	ENG_LIVE_SCREEN,
	ENG_LIVE_LOG,
	ENG_LIVE_OFF,		/* nothing printed per period (--timeseries still written) */
};
/* "auto", "screen", "log", "off" -> enum eng_live_mode, or -EINVAL (sec_engine.c). */
int eng_live_mode(const char *name);

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
	char mbuf_pool_ops[32];     /* mempool driver; "auto": stack, else DPDK's default */
	/* observability (obs/obs.h, doc/observability.md) */
	uint32_t stats_top;         /* flows listed in the periodic view (top N by goodput) */
	int live;                   /* enum eng_live_mode: how the periodic view is shown */
	uint64_t warmup_ns;         /* rxonly: first seconds left out of the after-warmup rates */
	uint32_t summary_flows;     /* a set of more flows is folded in the summary (stats.h) */
	char timeseries[PATH_MAX];  /* CSV, one row per period per flow; "" = none */
	char intervals_json[PATH_MAX]; /* JSON Lines, one record per period; "" = none */
	int pdump;                  /* rte_pdump_init(): dpdk-dumpcap / dpdk-pdump may attach */
	/* pacing (lib/pace, doc/performance.md "Pacing") */
	uint64_t pace_catchup_ns;   /* credit every pacer keeps across a stall */
	/* [port NAME] */
	unsigned int nb_ports;
	struct eng_port_conf ports[ENG_MAX_PORTS];
	/* [task NAME] */
	unsigned int nb_tasks;
	struct eng_task tasks[ENG_MAX_TASKS];
	/* [lcore N] */
	unsigned int nb_lcores;
	struct eng_lcore_conf lcores[RTE_MAX_LCORE];
	/* [flow NAME] (config/sec_flow.c, flow.h): a table grown while loading */
	unsigned int nb_flows, flows_cap;
	struct eng_flow_conf *flows;
	unsigned int *flows_by_name;	/* flow indexes sorted by name ([flow]'s check) */
	unsigned int nb_flow_groups, flow_groups_cap;
	struct eng_flow_group *flow_groups;	/* [flow NAME] sections with count */
	/* the config of a kind's own sections, by kind index (kinds.c), e.g. the
	 * router's [pipe]s and [queue]s; freed by the sections' free() */
	void *kind_conf[ENG_MAX_KINDS];
	/* [capture NAME] (obs/capture.c): calloc'd */
	unsigned int nb_captures;
	struct eng_capture_conf *captures;
};

/* A section kind: [prefix NAME] or [prefix]. */
struct eng_section_kind {
	const char *prefix;   /* "port" matches [port NAME]; "eal" matches [eal] */
	int named;            /* 1: [prefix NAME] required; 0: [prefix] only, at most once */
	const char *help;     /* one line for "unknown section" messages */
	/* Parse one section; unknown keys are caught by the loader afterwards. */
	int (*parse)(struct eng_config *cfg, struct eng_sec *sec);
	/* Called once after all sections: cross-references and defaults. */
	int (*check)(struct eng_config *cfg, char *err, size_t errlen);
	/* eng_config_free(): release what parse() allocated (optional). */
	void (*free)(struct eng_config *cfg);
};

/* The core sections (config/sec_*.c, obs/capture.c); the kinds list theirs
 * in eng_task_ops.sections. */
extern const struct eng_section_kind eng_section_eal;
extern const struct eng_section_kind eng_section_engine;
extern const struct eng_section_kind eng_section_port;
extern const struct eng_section_kind eng_section_task;
extern const struct eng_section_kind eng_section_lcore;
extern const struct eng_section_kind eng_section_capture;
extern const struct eng_section_kind eng_section_flow;

/*
 * Load FILE into cfg (zeroed and defaulted first). Returns 0, or a negative
 * errno with the reason in err ("FILE:LINE: [SECTION] KEY: ..."). No EAL.
 */
int eng_config_load(struct eng_config *cfg, const char *file, char *err, size_t errlen);
/* outputs.c: every file the run will write can be written (nothing created);
 * 0 or a negative errno with the reason in err. */
int eng_config_outputs_check(const struct eng_config *cfg, char *err, size_t errlen);
int eng_output_check(const char *what, const char *path, char *err, size_t errlen);
void eng_config_free(struct eng_config *cfg);
int eng_config_port_index(const struct eng_config *cfg, const char *name);
/*
 * A file of one section (a driver preset) read with the config's rules (every
 * line "[section]", "key = value", a comment or blank; no key twice): SEC holds
 * its keys and lines, pointing into *MEM until eng_config_load_one_free(*MEM).
 * 0, or a negative errno with "FILE:LINE: reason" in ERR.
 */
int eng_config_load_one(const char *file, const char *section, struct eng_sec *sec,
		void **mem, char *err, size_t errlen);
void eng_config_load_one_free(void *mem);
/* Load drivers-config/<preset>.ini into pc (used by sec_port.c). */
int eng_preset_load(const struct eng_config *cfg, struct eng_port_conf *pc, const char *preset,
		struct eng_sec *owner);

#endif /* ENG_CONFIG_H */
