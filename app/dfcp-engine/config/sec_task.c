/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [task NAME]: one poll task; "kind" selects the entry of the task table.
 * With "lcores" the section is the tasks NAME.0 .. NAME.(n-1), one per lcore
 * with its own queue (doc/config.md, "A task over several lcores").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "core/log.h"

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

/* The task named name, or the first task of the section name that lcores
 * expanded: its index with the message in why, or -1 when the name is free. */
static int
task_name_taken(const struct eng_config *cfg, const char *name, char *why, size_t len)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];

		if (strcmp(t->name, name) == 0 || (t->spread_i == 0 && t->spread_n != 0 &&
				strcmp(t->spread, name) == 0)) {
			if (t->spread_n != 0)
				snprintf(why, len, "task \"%s\" is taken by [task %s] (lcores, line "
						"%d: tasks %s.0 .. %s.%u)", name, t->spread, t->spread_line,
						t->spread, t->spread, t->spread_n - 1);
			else
				snprintf(why, len, "task \"%s\" defined twice (line %d)", name, t->line);
			return (int)i;
		}
	}
	return -1;
}

/* One task of the section, named name, into cfg->tasks[cfg->nb_tasks]. */
static int
task_parse_one(struct eng_config *cfg, struct eng_sec *sec, const char *name)
{
	char kind[ENG_NAME_LEN], list[256];
	struct eng_task *t;
	int rc;

	if (cfg->nb_tasks == ENG_MAX_TASKS)
		return eng_sec_error(sec, NULL, "too many tasks (at most %d)", ENG_MAX_TASKS);
	t = &cfg->tasks[cfg->nb_tasks];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%.*s", ENG_NAME_LEN - 1, name);
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

/* "lcores = 2-5", "2,3,6", "2-3,6": distinct lcore ids, in the order written. */
static int
lcores_parse(struct eng_sec *sec, uint16_t *ids, unsigned int *n)
{
	const char *cur = eng_sec_get(sec, "lcores");
	char item[CFG_NAME_LEN], e[CFG_ERR_LEN];
	uint32_t lo, hi, id;
	unsigned int j;
	char *dash;
	int rc;

	*n = 0;
	while ((rc = cfg_list_next(&cur, item, sizeof(item), e, sizeof(e))) > 0) {
		dash = strchr(item, '-');
		if (dash != NULL)
			*dash = '\0';
		if (cfg_parse_u32(item, 0, RTE_MAX_LCORE - 1, &lo, e, sizeof(e)) < 0 ||
				(dash != NULL && cfg_parse_u32(dash + 1, 0, RTE_MAX_LCORE - 1, &hi, e,
				sizeof(e)) < 0))
			return eng_sec_error(sec, "lcores", "%s (expected lcore ids and ranges, "
					"such as 2-5 or 2,3,6)", e);
		if (dash == NULL)
			hi = lo;
		if (hi < lo)
			return eng_sec_error(sec, "lcores", "empty range %u-%u", lo, hi);
		for (id = lo; id <= hi; id++) {
			for (j = 0; j < *n; j++)
				if (ids[j] == id)
					return eng_sec_error(sec, "lcores", "lcore %u listed twice", id);
			if (*n == ENG_TASK_SPREAD_MAX)
				return eng_sec_error(sec, "lcores", "more than %d lcores (each task "
						"takes its own queue of a port of at most %d)",
						ENG_TASK_SPREAD_MAX, ENG_TASK_SPREAD_MAX);
			ids[(*n)++] = (uint16_t)id;
		}
	}
	if (rc < 0)
		return eng_sec_error(sec, "lcores", "%s", e);
	if (*n == 0)
		return eng_sec_error(sec, "lcores", "no lcore listed (expected lcore ids and "
				"ranges, such as 2-5 or 2,3,6)");
	return 0;
}

/* A queue key (rxq, txq, rxq_a, ...) with lcores: the expansion gives the queues. */
static int
spread_queue_keys(struct eng_sec *sec)
{
	int i;

	for (i = 0; i < sec->nb_entries; i++) {
		const char *k = sec->entries[i].name;

		if (strncmp(k, "rxq", 3) == 0 || strncmp(k, "txq", 3) == 0)
			return eng_sec_error(sec, k, "not with lcores: task %s.i takes rx and tx "
					"queue i of its port", sec->id);
	}
	return 0;
}

/*
 * [task NAME] with lcores: the tasks NAME.0 .. NAME.(n-1), each parsed from
 * the section like a task of its own, on its lcore, with queue i of every
 * port it names; the first keeps the flow list for [flow]'s check to place.
 */
static int
task_spread(struct eng_config *cfg, struct eng_sec *sec)
{
	uint16_t ids[ENG_TASK_SPREAD_MAX];
	char name[ENG_NAME_LEN + 16], e[CFG_ERR_LEN], why[CFG_ERR_LEN];
	unsigned int n, i, a, queues;
	int rc;

	rc = lcores_parse(sec, ids, &n);
	if (rc == 0)
		rc = spread_queue_keys(sec);
	if (rc < 0)
		return rc;
	for (i = 0; i < n; i++) {
		struct eng_task *t;

		snprintf(name, sizeof(name), "%.*s.%u", ENG_NAME_LEN - 1, sec->id, i);
		if (cfg_check_name(name, ENG_NAME_LEN, e, sizeof(e)) < 0)
			return eng_sec_error(sec, "lcores", "task %s: %s", name, e);
		if (task_name_taken(cfg, name, why, sizeof(why)) >= 0)
			return eng_sec_error(sec, "lcores", "%s", why);
		rc = task_parse_one(cfg, sec, name);
		if (rc < 0)
			return rc;
		t = &cfg->tasks[cfg->nb_tasks - 1];
		snprintf(t->spread, sizeof(t->spread), "%.*s", ENG_NAME_LEN - 1, sec->id);
		t->spread_n = n;
		t->spread_i = i;
		t->spread_line = eng_sec_line(sec, "lcores");
		t->lcore_id = ids[i];
		for (a = 0, queues = 0; a < t->nb_ports; a++) {
			if (t->ports[a].rxq != UINT16_MAX)
				t->ports[a].rxq = (uint16_t)i;
			if (t->ports[a].txq != UINT16_MAX)
				t->ports[a].txq = (uint16_t)i;
			queues += t->ports[a].rxq != UINT16_MAX || t->ports[a].txq != UINT16_MAX;
		}
		/* a producer into an egress task sends through its rings, not a queue */
		if (queues == 0 && t->egress[0] == '\0')
			return eng_sec_error(sec, "lcores", "a task of kind %s uses no queue of a "
					"port to give each lcore its own", t->ops->name);
		if (i > 0) {
			free(t->flow_list);
			t->flow_list = NULL;
		}
	}
	return 0;
}

static int
task_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	char e[CFG_ERR_LEN];

	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (task_name_taken(cfg, sec->id, e, sizeof(e)) >= 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (eng_sec_get(sec, "lcores") != NULL)
		return task_spread(cfg, sec);
	return task_parse_one(cfg, sec, sec->id);
}

/* Task i of a spread takes queue i: a port's default count is raised to
 * the number of its tasks, a count written in [port] must hold them. */
static int
queues_hold(const struct eng_config *cfg, const struct eng_task *t, const char *port,
		const char *key, uint16_t *count, int line, char *err, size_t errlen)
{
	if (*count >= t->spread_n)
		return 0;
	if (line > 0) {
		snprintf(err, errlen, "%s:%d: [task %s] lcores: %u tasks need %u %s on port %s, "
				"which has %s = %u (line %d)", cfg->file, t->spread_line, t->spread,
				t->spread_n, t->spread_n, key, port, key, *count, line);
		return -EINVAL;
	}
	ENG_LOG(INFO, config, "port %s: %s = %u for the %u tasks of [task %s] (lcores)", port,
			key, t->spread_n, t->spread_n, t->spread);
	*count = (uint16_t)t->spread_n;
	return 0;
}

static int
spread_queues(const struct eng_config *cfg, const struct eng_task *t,
		const struct eng_task_port *p, struct eng_port_conf *pc, char *err, size_t errlen)
{
	if (p->rxq != UINT16_MAX && queues_hold(cfg, t, pc->name, "rx_queues", &pc->rx_queues,
			pc->rx_queues_line, err, errlen) < 0)
		return -EINVAL;
	if (p->txq != UINT16_MAX && queues_hold(cfg, t, pc->name, "tx_queues", &pc->tx_queues,
			pc->tx_queues_line, err, errlen) < 0)
		return -EINVAL;
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
			struct eng_port_conf *pc;

			if (idx < 0) {
				snprintf(err, errlen,
						"%s:%d: [task %s]: unknown port \"%s\" (expected the "
						"name of a [port NAME] section)",
						cfg->file, t->line, t->name, p->port_name);
				return -EINVAL;
			}
			p->port_idx = (uint16_t)idx;
			pc = &cfg->ports[idx];
			if (t->spread_n != 0 && spread_queues(cfg, t, p, pc, err, errlen) < 0)
				return -EINVAL;
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
