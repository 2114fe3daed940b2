/* SPDX-License-Identifier: BSD-3-Clause */
/* The transmit path's set-up half: port tx hooks, flows attached to egress tasks (egress.h). */
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

struct eng_egress_flow *
eng_egress_attach(struct eng_runtime *rt, const struct eng_task *producer, const char *egress,
		const char *flow_name, uint32_t weight, uint32_t *flow_id)
{
	struct eng_task *t = NULL;
	unsigned int i;

	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (strcmp(rt->cfg->tasks[i].name, egress) == 0)
			t = &rt->cfg->tasks[i];
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
