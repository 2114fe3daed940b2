/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's one flow model: a [flow NAME] section is one transfer of a
 * transport protocol (proto = dfcp | tcp: the task kind that runs it) with
 * its role, addresses, goal (bytes and/or duration) and data (sec_flow.c);
 * the kind reads its own protocol keys into pconf (ops->flow_parse). A task
 * of that kind lists it in "flows = a, b". See doc/config.md ("[flow NAME]").
 */
#ifndef ENG_FLOW_H
#define ENG_FLOW_H

#include <limits.h>
#include <stdint.h>

#include <rte_ether.h>

#include "cfg.h"
#include "core/defs.h"

#define ENG_FAIL_LEN 96	/* a failed flow's reason */
/* A flow group's count (config/flow_group.c): the 16-bit port space of its
 * port steps; the number of flows in a config is bounded by memory only. */
#define ENG_FLOW_GROUP_MAX 65536

struct eng_config;
struct eng_sec;
struct eng_task;
struct eng_task_ops;

enum eng_flow_role {
	ENG_FLOW_SENDER = 0,	/* initiator: source -> sender */
	ENG_FLOW_RECEIVER,	/* responder: listens, receiver -> sink */
};

enum eng_flow_source {
	ENG_SRC_PATTERN = 0,	/* the pattern of seed at each stream offset */
	ENG_SRC_FILE,		/* read a file */
};

enum eng_flow_sink {
	ENG_SINK_COUNT = 0,	/* count goodput bytes */
	ENG_SINK_VERIFY,	/* check every byte against the pattern */
	ENG_SINK_FILE,		/* write the data to a file */
};

/* One [flow NAME] section, or one flow of a flow group. */
/* bucket unset: one burst of the endpoint's largest frames (kinds/xport/xport.h) */
#define ENG_FLOW_BUCKET_AUTO UINT64_MAX

struct eng_flow_conf {
	char name[ENG_NAME_LEN];
	int line;
	const struct eng_task_ops *proto; /* the kind that runs it (proto = KIND) */
	int role;			/* enum eng_flow_role */
	int task_idx;			/* the task that lists it; -1 until checked */
	int group;			/* its cfg->groups index; -1: a single [flow] */
	unsigned int task_pos;		/* its place in that task's list */
	uint32_t local_ip, remote_ip;	/* host order; remote 0: any (receiver) */
	uint16_t local_port, remote_port;
	int has_remote_mac;
	struct rte_ether_addr remote_mac;
	/* fairness */
	uint32_t weight;		/* the flow's share: WF2Q+ weight, Jain's index */
	char bottleneck[ENG_NAME_LEN];	/* Jain's index over flows with the same label */
	/* sender pacing (kinds/xport/xport_pace.c) */
	uint64_t rate_bps;		/* L1 bits per second; 0: as fast as the path takes */
	struct cfg_rate_profile rate_prof; /* rate = a timed profile (n 0: none), bit/s;
					 * rate_bps is its first point */
	uint64_t bucket;		/* bytes back-to-back after idling; ENG_FLOW_BUCKET_AUTO */
	/* application: the goal and the data */
	uint64_t duration_ns;		/* sender: stop reading the source after this; 0 = none */
	uint64_t bytes;			/* sender: bytes to send; 0 = no limit */
	uint64_t start_ns;		/* sender: connect this long after the run starts */
	uint64_t warmup_ns;		/* left out of the after-warmup rates; UINT64_MAX: [engine]'s */
	uint32_t seed;			/* pattern seed */
	int source;			/* enum eng_flow_source */
	int sink;			/* enum eng_flow_sink */
	char path[PATH_MAX];		/* source or sink file */
	int verify;			/* sink verifies the pattern (sink = verify) */
	/* the protocol's keys, from proto->flow_parse (malloc'd, freed with the config) */
	void *pconf;
};

/*
 * A running flow as the live view and the time series see it (ops->flow_view;
 * -EAGAIN: never used, only done, completed and fail are set).
 */
struct eng_flow_view {
	const char *group;		/* its totals line: "senders", "tcp receivers" ... */
	const char *state;		/* of its connection */
	const char *sum_names[3];	/* the counters its totals line sums */
	const char *lat_name;		/* what its histogram holds in the totals, NULL: none */
	uint64_t goodput_bytes;		/* acked (sender) / delivered (receiver) */
	uint64_t frame_bytes;		/* sent (sender) / received (receiver) */
	uint64_t sums[3];
	uint32_t window;		/* dfcp: blocks in flight; tcp: cwnd in segments */
	uint32_t redundancy;		/* dfcp: packets per block */
	int has_redundancy;		/* tcp: 0 (an empty time-series cell) */
	uint32_t loss_ppm;		/* dfcp: symbol loss; tcp: retransmitted segments */
	int established, done;
	/* the outcome: the goal reached; why the flow failed ("" = it did not) */
	int completed;
	char fail[ENG_FAIL_LEN];
	char detail[160];		/* the rest of its line in the live view */
};

/*
 * A flow group: one [flow NAME] section with count = N, expanded at load time
 * into the flows NAME.0 .. NAME.(N-1), cfg->flows[first .. first + count)
 * (config/flow_group.c, doc/config.md "Flow groups").
 */
struct eng_flow_group {
	char name[ENG_NAME_LEN];
	int line;
	unsigned int first, count;
};

extern const struct eng_section_kind eng_section_flow;
/* The flow named name (a sorted index once [flow]'s check ran); -1: none. */
int eng_flow_index(const struct eng_config *cfg, const char *name);
/* The group named name; -1: none. */
int eng_flow_group_index(const struct eng_config *cfg, const char *name);
/* A new flow in cfg: zeroed but for its name, line, proto and defaults;
 * NULL with a reason in err. */
struct eng_flow_conf *eng_flow_add(struct eng_config *cfg, const char *name, int line,
		const struct eng_task_ops *proto, char *err, size_t errlen);
/* config/flow_group.c: parse one [flow NAME] section into one flow or, with
 * count, a group of flows; parse_one() reads the keys every flow has into f. */
int eng_flow_group_parse(struct eng_config *cfg, struct eng_sec *sec,
		const struct eng_task_ops *proto,
		int (*parse_one)(struct eng_config *cfg, struct eng_sec *sec, struct eng_flow_conf *f));
/* config/flow_check.c: the name index and the 4-tuple check (after the tasks
 * resolved their lists); 0 or a negative errno with the reason in err. */
int eng_flow_names_index(struct eng_config *cfg, char *err, size_t errlen);
int eng_flow_tuples_check(const struct eng_config *cfg, char *err, size_t errlen);
/* Two flows of task t on the same local address and port (sorted, not pairwise):
 * 1 with *f the later in the task's list and *g the earlier, 0 none, -ENOMEM. */
int eng_task_flows_same_local(const struct eng_config *cfg, const struct eng_task *t,
		const struct eng_flow_conf **f, const struct eng_flow_conf **g);
/* A transport task's required "flows = a, b" (resolved by [flow]'s check). */
int eng_task_parse_flows(struct eng_task *t, struct eng_sec *sec);
/* Flow i of task t (its position in the task's list). */
const struct eng_flow_conf *eng_task_flow(const struct eng_config *cfg, const struct eng_task *t,
		unsigned int i);

#endif /* ENG_FLOW_H */
