/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The router kind's private header (link emulation): its [pipe NAME] and
 * [queue NAME] sections (pipe_sec.c, queue_sec.c; their match rules are
 * lib/pipe's), the router task (router.c), the pipe runtime
 * (route.c) and their statistics and telemetry (route_stats.c).
 * See doc/architecture.md ("Router and sched tasks") and doc/config.md.
 */
#ifndef ENG_ROUTE_H
#define ENG_ROUTE_H

#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "pipe.h"

#define ENG_MAX_PIPES 64
#define ENG_MAX_QUEUES 256
#define ENG_MAX_QUEUE_RULES 16  /* keys match, match1 .. match15 */
#define ENG_PIPE_CHAIN_MAX 8    /* pipes in series behind one router direction */
#define ENG_ROUTE_PASS -1       /* "pass": no pipe */
#define ENG_UNMATCHED_DEFAULT -1 /* pipe's own queue 0 */
#define ENG_UNMATCHED_PASS -2

/* The router kind's check (pipe_sec.c): router directions -> chain heads. */
int eng_route_check_routers(struct eng_config *cfg, char *err, size_t errlen);


/* [pipe NAME] */
struct eng_pipe_conf {
	char name[ENG_NAME_LEN];
	int line;
	uint64_t bw_bps;            /* 0: unlimited */
	uint64_t delay_ns;
	uint32_t plr_ppb;
	int gilbert;                /* loss_model = gilbert */
	struct pipe_ge ge;
	uint64_t seed;
	uint32_t overhead;          /* bytes per packet on the wire */
	char sched[16];             /* wf2q+, drr, fifo */
	uint32_t queue_pkts;        /* default per-queue limits */
	uint64_t queue_bytes;
	uint32_t line_pkts;         /* delay-line capacity, 0: auto */
	char next[ENG_NAME_LEN];    /* "" or a pipe in series */
	int next_idx;               /* -1: none */
	char unmatched[ENG_NAME_LEN]; /* "default", "pass" or a queue name */
	int unmatched_idx;          /* queue index, ENG_UNMATCHED_DEFAULT or _PASS */
	int has_pred;               /* fed by a router direction or a pipe's next */
	unsigned int nb_queues;     /* [queue]s bound to it */
};

/* [queue NAME] */
struct eng_queue_conf {
	char name[ENG_NAME_LEN];
	int line;
	char pipe[ENG_NAME_LEN];
	int pipe_idx;
	uint32_t pipe_q;            /* index inside the pipe (>= 1), in file order */
	uint32_t weight;
	uint32_t limit_pkts;        /* 0: the pipe's */
	uint64_t limit_bytes;
	unsigned int nb_rules;
	struct pipe_rule rules[ENG_MAX_QUEUE_RULES];
};

/* Storage behind eng_config.route (allocated by the first [pipe]/[queue]). */
struct eng_route_conf {
	unsigned int nb_pipes;
	struct eng_pipe_conf pipes[ENG_MAX_PIPES];
	unsigned int nb_queues;
	struct eng_queue_conf queues[ENG_MAX_QUEUES];
};

extern const struct eng_task_ops eng_task_router;
extern const struct eng_section_kind eng_section_pipe;
extern const struct eng_section_kind eng_section_queue;

/* The router kind's config (cfg->kind_conf) and pipes (rt->kind_rt); NULL: none. */
static inline struct eng_route_conf *
eng_route_conf(const struct eng_config *cfg)
{
	return cfg->kind_conf[eng_kind_index(&eng_task_router)];
}

/* Allocated by the first [pipe] / [queue] section; NULL: out of memory. */
struct eng_route_conf *eng_route_conf_get(struct eng_config *cfg);
int eng_route_pipe_index(const struct eng_config *cfg, const char *name);

/* Router task conf (router.c; checked by pipe_sec.c). */
struct eng_router_conf {
	char pipe_name[2][ENG_NAME_LEN];  /* a_to_b, b_to_a; "pass" */
	int pipe_idx[2];                  /* ENG_ROUTE_PASS or chain head */
	uint64_t lookahead_ns;            /* the first pipes run this far behind (ns) */
};

#define ENG_ROUTE_HOLD_CAP 4096           /* frames a lookahead holds per direction */

/* Pipe runtime (route.c): one struct pipe per configured pipe, created by
 * the router task that owns its chain, on that task's socket. */
struct eng_route_pipe_rt {
	struct pipe *p;
	unsigned int nb_q;          /* queues in the pipe (0 + bound ones) */
	uint64_t *last_deq_bytes;   /* per queue, at the previous periodic block */
	struct pipe_stats last;
	uint64_t last_tsc;
};

struct eng_route_rt {
	struct eng_route_pipe_rt pipes[ENG_MAX_PIPES];
};

static inline struct eng_route_rt *
eng_route_rt(const struct eng_runtime *rt)
{
	return rt->kind_rt[eng_kind_index(&eng_task_router)];
}

struct eng_route_rt *eng_route_rt_get(struct eng_runtime *rt);
/* Create pipe idx (and configure its queues, rules, unmatched); NULL + log. */
struct pipe *eng_route_pipe_create(struct eng_runtime *rt, int idx);
void eng_route_free(struct eng_runtime *rt);

/* route_stats.c: the kind's report (pipes, queues), /dfcp/pipes, its counter tables */
struct eng_out;
void eng_route_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
/* route_stats.c: each pipe's emulated loss and queue drops (ops->losses). */
void eng_route_losses(struct eng_runtime *rt, eng_loss_note_fn note, void *ctx);
extern const struct eng_tel_cmd eng_route_tel[];
extern const struct eng_ctr_table eng_route_tables[];
/* route.c: mbufs the pipes of a router's chains may hold at once (pool size) */
uint64_t eng_route_pool_need(const struct eng_task *t, const struct eng_config *cfg);

#endif /* ENG_ROUTE_H */
