/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Pipe runtime: one lib/pipe instance per configured pipe, created by the
 * router task whose chain it belongs to (so it lives on that task's socket
 * and is used by that lcore only), plus the mbuf estimate of a router's
 * pipes for the pool size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>

#include "kinds/route/route.h"

struct eng_route_rt *
eng_route_rt_get(struct eng_runtime *rt)
{
	void **slot = &rt->kind_rt[eng_kind_index(&eng_task_router)];

	if (*slot == NULL)
		*slot = calloc(1, sizeof(struct eng_route_rt));
	return *slot;
}

struct pipe *
eng_route_pipe_create(struct eng_runtime *rt, int idx)
{
	struct eng_route_rt *rr = eng_route_rt_get(rt);
	const struct eng_route_conf *r = eng_route_conf(rt->cfg);
	const struct eng_pipe_conf *pc;
	struct eng_route_pipe_rt *pr;
	struct pipe_conf c;
	unsigned int i, j;
	int rc, q;

	if (rr == NULL || r == NULL || idx < 0 || (unsigned int)idx >= r->nb_pipes)
		return NULL;
	pc = &r->pipes[idx];
	pr = &rr->pipes[idx];
	if (pr->p != NULL)
		return pr->p;
	memset(&c, 0, sizeof(c));
	c.name = pc->name;
	c.bw_bps = pc->bw_bps;
	c.delay_ns = pc->delay_ns;
	c.plr = cfg_ratio_to_double(pc->plr_ppb);
	if (pc->gilbert)
		c.ge = pc->ge;
	c.seed = pc->seed;
	c.overhead = pc->overhead;
	c.sched = pc->sched;
	c.max_queues = pc->nb_queues + 1;
	c.max_rules = 0;
	for (i = 0; i < r->nb_queues; i++)
		if (r->queues[i].pipe_idx == idx)
			c.max_rules += r->queues[i].nb_rules;
	if (c.max_rules == 0)
		c.max_rules = 1;
	c.queue_pkts = pc->queue_pkts;
	c.queue_bytes = pc->queue_bytes;
	c.line_pkts = pc->line_pkts;
	c.catchup_ns = rt->cfg->pace_catchup_ns;
	pr->p = pipe_create(&c);
	if (pr->p == NULL) {
		ENG_LOG(ERR, task, "pipe %s: cannot create (out of memory or bad parameters)",
				pc->name);
		return NULL;
	}
	/* queues in file order, then their rules in key order: first match wins */
	for (i = 0; i < r->nb_queues; i++) {
		const struct eng_queue_conf *qc = &r->queues[i];

		if (qc->pipe_idx != idx)
			continue;
		q = pipe_queue_add(pr->p, qc->weight, qc->limit_pkts, qc->limit_bytes);
		if (q < 0 || (uint32_t)q != qc->pipe_q) {
			ENG_LOG(ERR, task, "pipe %s: cannot add queue %s: %s", pc->name, qc->name,
					strerror(q < 0 ? -q : EINVAL));
			goto fail;
		}
		for (j = 0; j < qc->nb_rules; j++) {
			struct pipe_rule rule = qc->rules[j];

			rule.queue = (uint32_t)q;
			rc = pipe_rule_add(pr->p, &rule);
			if (rc < 0) {
				ENG_LOG(ERR, task, "pipe %s: queue %s: cannot add rule: %s", pc->name,
						qc->name, strerror(-rc));
				goto fail;
			}
		}
	}
	if (pc->unmatched_idx == ENG_UNMATCHED_PASS)
		rc = pipe_set_unmatched(pr->p, PIPE_NO_QUEUE);
	else if (pc->unmatched_idx >= 0)
		rc = pipe_set_unmatched(pr->p, r->queues[pc->unmatched_idx].pipe_q);
	else
		rc = 0;
	if (rc < 0)
		goto fail;
	pr->nb_q = pc->nb_queues + 1;
	pr->last_deq_bytes = calloc(pr->nb_q, sizeof(uint64_t));
	if (pr->last_deq_bytes == NULL)
		goto fail;
	return pr->p;
fail:
	pipe_free(pr->p);
	pr->p = NULL;
	return NULL;
}

void
eng_route_free(struct eng_runtime *rt)
{
	struct eng_route_rt *rr = eng_route_rt(rt);
	unsigned int i;

	if (rr == NULL)
		return;
	for (i = 0; i < ENG_MAX_PIPES; i++) {
		pipe_free(rr->pipes[i].p);
		free(rr->pipes[i].last_deq_bytes);
	}
	free(rr);
	rt->kind_rt[eng_kind_index(&eng_task_router)] = NULL;
}

/* Packets a pipe can hold: queues + the delay line at 64-byte frames. */
static uint64_t
route_pipe_mbufs(const struct eng_route_conf *r, unsigned int idx)
{
	const struct eng_pipe_conf *pc = &r->pipes[idx];
	uint64_t n = 0, line;
	unsigned int i;

	for (i = 0; i <= pc->nb_queues; i++)
		n += pc->queue_pkts ? pc->queue_pkts : pc->queue_bytes / 64 + 1;
	for (i = 0; i < r->nb_queues; i++)
		if (r->queues[i].pipe_idx == (int)idx && r->queues[i].limit_pkts > pc->queue_pkts)
			n += r->queues[i].limit_pkts - pc->queue_pkts;
	if (pc->bw_bps != 0)
		line = (uint64_t)((unsigned __int128)pc->bw_bps * pc->delay_ns /
				  (8ull * (64 + pc->overhead) * 1000000000ull));
	else
		line = pc->delay_ns ? 8192 : 0; /* unknown rate: set [engine] mbufs */
	if (pc->line_pkts && line > pc->line_pkts)
		line = pc->line_pkts;
	return n + line + 64;
}

uint64_t
eng_route_pool_need(const struct eng_task *t, const struct eng_config *cfg)
{
	const struct eng_router_conf *c = t->conf;
	const struct eng_route_conf *r = eng_route_conf(cfg);
	uint64_t n = 2ull * t->burst;
	int d, idx, k;

	for (d = 0; d < 2 && r != NULL; d++)
		for (idx = c->pipe_idx[d], k = 0; idx >= 0 && k < ENG_PIPE_CHAIN_MAX;
				idx = r->pipes[idx].next_idx, k++)
			n += route_pipe_mbufs(r, (unsigned int)idx);
	for (d = 0; d < 2 && c->lookahead_ns != 0; d++)
		if (c->pipe_idx[d] >= 0)
			n += ENG_ROUTE_HOLD_CAP;
	return n;
}
