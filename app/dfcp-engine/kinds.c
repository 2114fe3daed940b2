/* SPDX-License-Identifier: BSD-3-Clause */
/* The task table: add a kind = new task_*.c + one line here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kinds/dfcp/flow.h"
#include "kinds/gen/gen.h"
#include "kinds/route/route.h"
#include "kinds/sched/sched.h"
#include "kinds/tcp/tcp_task.h"

static const struct eng_task_ops *const eng_task_kinds[] = {
	&eng_task_txonly,
	&eng_task_rxonly,
	&eng_task_io,
	&eng_task_dfcp,
	&eng_task_router,
	&eng_task_sched,
	&eng_task_tcp,
};

const struct eng_task_ops *
eng_task_kind_find(const char *name)
{
	size_t i;

	for (i = 0; i < RTE_DIM(eng_task_kinds); i++)
		if (strcmp(eng_task_kinds[i]->name, name) == 0)
			return eng_task_kinds[i];
	return NULL;
}

void
eng_task_kind_list(char *buf, size_t len)
{
	size_t i, off = 0;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(eng_task_kinds) && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "",
				eng_task_kinds[i]->name);
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
