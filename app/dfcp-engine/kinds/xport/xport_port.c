/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport tasks of one port (xport.h, "Demultiplexing"): the first of
 * them to set up makes the port's record (rt->xport[port]) with the demux
 * table for every endpoint of every transport task on the port, sized from
 * the config; each task joins it, registers its endpoints and, when the
 * port has more than one transport task, makes its inbox (an MP/SC
 * rte_ring) for the frames the others receive for it. The last to leave
 * frees the record. No run-time allocation: the hot path (xport.c) only
 * reads the table and moves mbuf pointers through the rings.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"
#include "kinds/xport/xport.h"
#include "kinds/xport/xport_demux.h"

#define INBOX_SIZE	4096u	/* frames in flight to one task (a power of 2) */

/* Tasks that run flows on port p (the transport kinds), and their flows. */
static unsigned int
port_tasks(const struct eng_config *cfg, unsigned int p, unsigned int *flows)
{
	unsigned int i, n = 0;

	*flows = 0;
	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];

		if (t->nb_flows == 0 || t->nb_ports == 0 || t->ports[0].port_idx != p)
			continue;
		n++;
		*flows += t->nb_flows;
	}
	return n;
}

static struct eng_xport_port *
port_make(struct eng_runtime *rt, unsigned int p, int socket)
{
	struct eng_xport_port *pp;
	unsigned int flows, n = port_tasks(rt->cfg, p, &flows);

	if (n == 0)
		n = 1;	/* a task outside the count (cannot happen): room for it */
	pp = rte_zmalloc_socket("xport_port", sizeof(*pp) + n * sizeof(pp->tasks[0]),
			RTE_CACHE_LINE_SIZE, socket);
	if (pp == NULL)
		return NULL;
	pp->nb_tasks = n;
	pp->dmx = eng_demux_create(flows != 0 ? flows : 1);
	if (pp->dmx == NULL) {
		rte_free(pp);
		return NULL;
	}
	return pp;
}

int
eng_xport_port_join(struct eng_xtask *x, int socket)
{
	struct eng_runtime *rt = x->rt;
	unsigned int p = x->t->ports[0].port_idx;
	struct eng_xport_port *pp = rt->xport[p];
	char name[RTE_RING_NAMESIZE];

	if (pp == NULL) {
		pp = port_make(rt, p, socket);
		if (pp == NULL)
			return -ENOMEM;
		rt->xport[p] = pp;
	}
	if (pp->nb_reg == pp->nb_tasks)
		return -ENOSPC;
	x->pp = pp;
	x->pp_idx = pp->nb_reg;
	pp->tasks[pp->nb_reg++] = x;
	pp->refs++;
	if (pp->nb_tasks < 2)
		return 0;
	snprintf(name, sizeof(name), "xpin%u_%u", p, x->pp_idx);
	x->inbox = rte_ring_create(name, INBOX_SIZE, socket, RING_F_SC_DEQ);
	if (x->inbox == NULL) {
		ENG_LOG(ERR, task, "task %s: cannot create its inbox %s: %s", x->t->name, name,
				rte_strerror(rte_errno));
		return -ENOMEM;
	}
	if (x->pp_idx == 0)
		ENG_LOG(INFO, task, "port %s: %u transport tasks share it: frames reach their "
				"owner through software dispatch",
				rt->cfg->ports[p].name, pp->nb_tasks);
	return 0;
}

void
eng_xport_port_leave(struct eng_xtask *x)
{
	struct eng_xport_port *pp = x->pp;
	void *m;

	if (x->inbox != NULL) {
		while (rte_ring_sc_dequeue(x->inbox, &m) == 0)
			rte_pktmbuf_free(m);
		rte_ring_free(x->inbox);
		x->inbox = NULL;
	}
	if (pp == NULL)
		return;
	pp->tasks[x->pp_idx] = NULL;
	x->pp = NULL;
	if (--pp->refs != 0)
		return;
	x->rt->xport[x->t->ports[0].port_idx] = NULL;
	eng_demux_free(pp->dmx);
	rte_free(pp);
}

int
eng_xport_port_add(struct eng_xtask *x, struct eng_xep *e)
{
	void *prev = NULL;
	int rc = eng_demux_add(x->pp->dmx, e->local_ip, e->local_port, e, &prev);

	if (rc == -EEXIST) {
		const struct eng_xep *o = prev;

		ENG_LOG(ERR, task, "task %s: local %u.%u.%u.%u:%u is task %s's already on port %s: "
				"one endpoint per address on a port", x->t->name,
				e->local_ip >> 24, (e->local_ip >> 16) & 255, (e->local_ip >> 8) & 255,
				e->local_ip & 255, e->local_port, o->x->t->name,
				x->rt->cfg->ports[x->t->ports[0].port_idx].name);
	} else if (rc < 0) {
		ENG_LOG(ERR, task, "task %s: the demux table of its port is full", x->t->name);
	}
	return rc;
}

void
eng_xport_dispatch(const struct eng_task *t, struct eng_xdisp *out)
{
	const struct eng_xtask *x = t->priv;

	memset(out, 0, sizeof(*out));
	if (x != NULL)
		*out = x->disp;
}

int
eng_xport_shared(const struct eng_task *t)
{
	const struct eng_xtask *x = t->priv;

	return x != NULL && x->inbox != NULL;
}
