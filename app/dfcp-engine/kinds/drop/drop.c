/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * drop: receive bursts on one port queue, count them, free them; with
 * `count = N` its goal is N packets (the run then stops once every task
 * with a goal reached it). The example of doc/contributing.md ("Adding a
 * task kind"): the whole kind is this file, two lines in kinds.c and one in
 * meson.build; its counters are one table that the summary text, the JSON
 * ("drop" member) and --counters all read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "config/config.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/out.h"

#define DROP_MAX_BURST 512

extern const struct eng_task_ops eng_task_drop;

struct drop_conf {
	uint64_t count;			/* the goal in packets, 0 = none */
};

/* Written by the task's lcore only, read by the others. */
struct drop_priv {
	uint16_t port_id, rxq;
	uint64_t count;
	uint64_t packets, bytes, bursts;
} __rte_cache_aligned;

static const struct eng_ctr drop_ctrs[] = {
	ENG_CTR_U64(struct drop_priv, packets, "packets", "pkts", "frames received and freed"),
	ENG_CTR_U64(struct drop_priv, bytes, "bytes", "B", "their bytes"),
	ENG_CTR_U64(struct drop_priv, bursts, "bursts", "", "rx bursts that returned frames"),
	ENG_CTR_U64(struct drop_priv, count, "count", "pkts", "the goal, 0 = none"),
};

static const struct eng_ctr_table drop_tables[] = {
	{"drop", drop_ctrs, RTE_DIM(drop_ctrs)},
	{NULL, NULL, 0},
};

static int
drop_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct drop_conf *c = calloc(1, sizeof(*c));
	int rc;

	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	rc = eng_task_parse_port(t, sec, cfg, "port", "rxq", NULL, 1);
	if (rc == 0)
		rc = eng_sec_u64(sec, "count", 0, UINT64_MAX, &c->count);
	return rc;
}

static int
drop_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct drop_conf *c = t->conf;
	struct drop_priv *p;

	p = rte_zmalloc_socket("drop", sizeof(*p), RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	p->port_id = rt->ports[t->ports[0].port_idx].port_id;
	p->rxq = t->ports[0].rxq;
	p->count = c->count;
	t->priv = p;
	return 0;
}

static uint16_t
drop_poll(struct eng_task *t, uint64_t now)
{
	struct drop_priv *p = t->priv;
	struct rte_mbuf *pkts[DROP_MAX_BURST];
	uint64_t bytes = 0;
	uint16_t n, i;

	RTE_SET_USED(now);
	n = rte_eth_rx_burst(p->port_id, p->rxq, pkts, RTE_MIN(t->burst, DROP_MAX_BURST));
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	rte_pktmbuf_free_bulk(pkts, n);
	p->bytes += bytes;
	p->packets += n;
	p->bursts++;
	return n;
}

static enum eng_goal
drop_done(const struct eng_task *t)
{
	const struct drop_priv *p = t->priv;

	if (p->count == 0)
		return ENG_GOAL_NONE;
	return p->packets >= p->count ? ENG_GOAL_REACHED : ENG_GOAL_PENDING;
}

static void
drop_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct drop_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	out->rx_packets = p->packets;
	out->rx_bytes = p->bytes;
}

/* The summary lines and the "drop" JSON member: one item per drop task. */
static void
drop_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i;

	for (i = 0; i < rt->cfg->nb_tasks && rt->cfg->tasks[i].ops != &eng_task_drop; i++)
		;
	if (i == rt->cfg->nb_tasks || (what != ENG_REPORT_SUMMARY && what != ENG_REPORT_JSON))
		return;		/* no "drop" member without drop tasks */
	eng_out_arr(o, "drop");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];

		if (t->ops != &eng_task_drop || t->priv == NULL)
			continue;
		eng_out_item(o, "drop", t->name);
		if (o->kind == ENG_OUT_JSON)
			eng_out_str(o, "task", t->name);
		eng_out_counters(o, drop_ctrs, RTE_DIM(drop_ctrs), t->priv);
		eng_out_end(o);
	}
	eng_out_end(o);
}

static void
drop_teardown(struct eng_task *t)
{
	rte_free(t->priv);
	t->priv = NULL;
}

const struct eng_task_ops eng_task_drop = {
	.name = "drop",
	.help = "receive, count and free frames (the example kind); count = N: a goal",
	.parse = drop_parse,
	.setup = drop_setup,
	.poll = drop_poll,
	.done = drop_done,
	.stats = drop_stats,
	.teardown = drop_teardown,
	.report = drop_report,
	.tables = drop_tables,
};
