/* SPDX-License-Identifier: BSD-3-Clause */
/* [task NAME]: one poll task; "kind" selects the entry of the task table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"

/* The kind read an "egress" key: remember it and its line (task.h). */
static void
egress_note(struct eng_task *t, struct eng_sec *sec)
{
	int i;

	for (i = 0; i < sec->nb_entries; i++)
		if (sec->used[i] && strcmp(sec->entries[i].name, "egress") == 0) {
			snprintf(t->egress, sizeof(t->egress), "%s", sec->entries[i].value);
			t->egress_line = sec->entry_line[i];
		}
}

static int
task_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	char kind[ENG_NAME_LEN], list[256], e[CFG_ERR_LEN];
	struct eng_task *t;
	unsigned int i;
	int rc;

	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	for (i = 0; i < cfg->nb_tasks; i++)
		if (strcmp(cfg->tasks[i].name, sec->id) == 0)
			return eng_sec_error(sec, NULL, "task \"%s\" defined twice", sec->id);
	if (cfg->nb_tasks == ENG_MAX_TASKS)
		return eng_sec_error(sec, NULL, "too many tasks (at most %d)", ENG_MAX_TASKS);
	t = &cfg->tasks[cfg->nb_tasks];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
	t->line = sec->line;
	t->burst = 32;

	eng_task_kind_list(list, sizeof(list));
	if (eng_sec_get(sec, "kind") == NULL)
		return eng_sec_missing(sec, "kind", list);
	rc = eng_sec_str(sec, "kind", kind, sizeof(kind));
	if (rc < 0)
		return rc;
	t->ops = eng_task_kind_find(kind);
	if (t->ops == NULL)
		return eng_sec_error(sec, "kind", "unknown task kind \"%s\" (expected one of: %s)",
				kind, list);
	rc = eng_sec_u16(sec, "burst", 1, 512, &t->burst);
	if (rc == 0)
		rc = t->ops->parse(t, sec, cfg);
	if (rc < 0) {
		free(t->conf);
		t->conf = NULL;
		free(t->flow_idx);
		t->flow_idx = NULL;
		free(t->flow_list);
		t->flow_list = NULL;
		return rc;
	}
	egress_note(t, sec);
	cfg->nb_tasks++;
	return 0;
}

static int
task_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j, a, b;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];

		for (a = 0; a < t->nb_ports; a++) {
			struct eng_task_port *p = &t->ports[a];
			int idx = eng_config_port_index(cfg, p->port_name);
			const struct eng_port_conf *pc;

			if (idx < 0) {
				snprintf(err, errlen,
						"%s:%d: [task %s]: unknown port \"%s\" (expected the "
						"name of a [port NAME] section)",
						cfg->file, t->line, t->name, p->port_name);
				return -EINVAL;
			}
			p->port_idx = (uint16_t)idx;
			pc = &cfg->ports[idx];
			if (p->rxq != UINT16_MAX && p->rxq >= pc->rx_queues) {
				snprintf(err, errlen,
						"%s:%d: [task %s]: rx queue %u out of range (port %s has "
						"%u rx_queues)",
						cfg->file, t->line, t->name, p->rxq, pc->name,
						pc->rx_queues);
				return -EINVAL;
			}
			if (p->txq != UINT16_MAX && p->txq >= pc->tx_queues) {
				snprintf(err, errlen,
						"%s:%d: [task %s]: tx queue %u out of range (port %s has "
						"%u tx_queues)",
						cfg->file, t->line, t->name, p->txq, pc->name,
						pc->tx_queues);
				return -EINVAL;
			}
		}
		if (!t->assigned) {
			snprintf(err, errlen,
					"%s:%d: [task %s]: not listed in the tasks of any [lcore N] "
					"section",
					cfg->file, t->line, t->name);
			return -EINVAL;
		}
		/* A queue is polled by one task only (no locks on the hot path). */
		for (j = 0; j < i; j++) {
			const struct eng_task *u = &cfg->tasks[j];

			if (u->nb_ports == 0)
				continue;

			for (a = 0; a < t->nb_ports; a++)
				for (b = 0; b < u->nb_ports; b++) {
					const struct eng_task_port *p = &t->ports[a], *q = &u->ports[b];

					if (p->port_idx != q->port_idx)
						continue;
					if (p->rxq == q->rxq && p->rxq != UINT16_MAX) {
						snprintf(err, errlen,
								"%s:%d: [task %s]: rx queue %u of port %s "
								"is already polled by task %s",
								cfg->file, t->line, t->name, p->rxq,
								cfg->ports[p->port_idx].name, u->name);
						return -EINVAL;
					}
					if (p->txq == q->txq && p->txq != UINT16_MAX) {
						snprintf(err, errlen,
								"%s:%d: [task %s]: tx queue %u of port %s "
								"is already used by task %s",
								cfg->file, t->line, t->name, p->txq,
								cfg->ports[p->port_idx].name, u->name);
						return -EINVAL;
					}
				}
		}
	}
	return 0;
}

const struct eng_section_kind eng_section_task = {
	.prefix = "task",
	.named = 1,
	.help = "a poll task (txonly, rxonly, io, ...)",
	.parse = task_parse,
	.check = task_check,
};
