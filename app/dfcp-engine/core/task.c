/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Tasks: the life cycle of every task in config order (setup, goals,
 * quiesce, teardown) and the port helpers of the kinds' parse().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_lcore.h>

#include "config/config.h"
#include "core/log.h"
#include "core/task.h"

int
eng_tasks_setup(struct eng_config *cfg, struct eng_runtime *rt)
{
	unsigned int i;
	int rc;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];
		int socket = (int)rte_lcore_to_socket_id(t->lcore_id);

		t->rt = rt;
		rc = t->ops->setup(t, rt, socket);
		if (rc < 0) {
			ENG_LOG(ERR, task, "task %s (%s): set-up failed: %s", t->name, t->ops->name,
					strerror(-rc));
			return rc;
		}
	}
	return 0;
}

enum eng_goal
eng_tasks_done(const struct eng_config *cfg)
{
	enum eng_goal all = ENG_GOAL_NONE;
	unsigned int i;

	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];
		enum eng_goal g = t->ops->done != NULL && t->priv != NULL ? t->ops->done(t) :
				ENG_GOAL_NONE;

		if (g == ENG_GOAL_PENDING)
			return ENG_GOAL_PENDING;
		if (g == ENG_GOAL_REACHED)
			all = ENG_GOAL_REACHED;
	}
	return all;
}

void
eng_tasks_quiesce(struct eng_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];

		if (t->priv != NULL && t->ops->quiesce != NULL)
			t->ops->quiesce(t);
	}
}

void
eng_tasks_teardown(struct eng_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];

		if (t->priv != NULL)
			t->ops->teardown(t);
	}
}

int
eng_task_parse_egress_port(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg,
		char *egress, size_t len)
{
	int rc = eng_sec_name(sec, "egress", egress, len);

	if (rc == 0)
		rc = eng_task_parse_port(t, sec, cfg, "port", "rxq",
				egress[0] != '\0' ? NULL : "txq", 1);
	return rc;
}

int
eng_task_parse_port(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg,
		const char *key, const char *rxq_key, const char *txq_key, int required)
{
	struct eng_task_port *p;
	int rc;

	RTE_SET_USED(cfg);
	if (eng_sec_get(sec, key) == NULL)
		return required ? eng_sec_missing(sec, key, "the name of a [port NAME] section") :
				  0;
	if (t->nb_ports == ENG_MAX_TASK_PORTS)
		return eng_sec_error(sec, key, "too many ports for one task");
	p = &t->ports[t->nb_ports];
	memset(p, 0, sizeof(*p));
	rc = eng_sec_name(sec, key, p->port_name, sizeof(p->port_name));
	if (rc < 0)
		return rc;
	p->rxq = UINT16_MAX;
	p->txq = UINT16_MAX;
	if (rxq_key != NULL) {
		p->rxq = 0;
		rc = eng_sec_u16(sec, rxq_key, 0, 15, &p->rxq);
	}
	if (rc == 0 && txq_key != NULL) {
		p->txq = 0;
		rc = eng_sec_u16(sec, txq_key, 0, 15, &p->txq);
	}
	if (rc == 0)
		t->nb_ports++;
	return rc;
}
