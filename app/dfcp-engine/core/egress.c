/* SPDX-License-Identifier: BSD-3-Clause */
/* The transmit path's set-up half: port tx hooks, flows attached to egress tasks (egress.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"
#include "core/egress.h"
#include "core/log.h"
#include "core/runtime.h"

struct eng_egress_hook eng_egress_hooks[RTE_MAX_ETHPORTS];

void
eng_egress_hook_set(uint16_t port, eng_egress_tx_fn fn, void *ctx)
{
	if (port >= RTE_MAX_ETHPORTS)
		return;
	eng_egress_hooks[port].ctx = fn != NULL ? ctx : NULL;
	eng_egress_hooks[port].tx = fn;
}

/* FNV-1a of a flow's name: where a flow of a producer not spread like the
 * egress goes (names are unique, so flows spread evenly and the same way
 * every run). */
static uint32_t
name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/*
 * The task EGRESS names: a task of that name, or one shard of a task spread
 * over several lcores (its tasks EGRESS.0 .. EGRESS.(n-1)): the producer's
 * own index when the producer is spread over as many (task i feeds shard i,
 * on the same lcore when both list the same lcores), else the flow name's
 * hash scaled to 0 .. n-1 (hash x n / 2^32: its high bits). NULL: none.
 */
static struct eng_task *
egress_find(struct eng_config *cfg, const struct eng_task *producer, const char *egress,
		const char *flow_name)
{
	struct eng_task *first = NULL;
	unsigned int i;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];

		if (strcmp(t->name, egress) == 0)
			return t;
		if (first == NULL && t->spread_n != 0 && strcmp(t->spread, egress) == 0)
			first = t;	/* the spread's tasks are consecutive, index order */
	}
	if (first == NULL)
		return NULL;
	if (producer->spread_n == first->spread_n)
		return first + producer->spread_i;
	return first + (uint32_t)(((uint64_t)name_hash(flow_name) * first->spread_n) >> 32);
}

struct eng_egress_flow *
eng_egress_attach(struct eng_runtime *rt, const struct eng_task *producer, const char *egress,
		const char *flow_name, uint32_t weight, uint32_t *flow_id)
{
	struct eng_task *t = egress_find(rt->cfg, producer, egress, flow_name);
	unsigned int i;

	if (t == NULL) {
		ENG_LOG(ERR, task, "flow %s: no task named \"%s\" to attach to", flow_name, egress);
		return NULL;
	}
	if (t->ops->egress_attach == NULL) {
		char kinds[128];
		size_t off = 0;

		kinds[0] = '\0';
		for (i = 0; i < eng_kinds_count() && off < sizeof(kinds); i++)
			if (eng_kind(i)->egress_attach != NULL)
				off += (size_t)snprintf(kinds + off, sizeof(kinds) - off, "%s%s",
						off ? ", " : "", eng_kind(i)->name);
		ENG_LOG(ERR, task, "flow %s: task %s is a %s task, which takes no flows (kinds "
				"that do: %s)", flow_name, egress, t->ops->name, kinds);
		return NULL;
	}
	return t->ops->egress_attach(rt, t, producer, flow_name, weight, flow_id);
}
