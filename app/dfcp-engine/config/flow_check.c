/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [flow]'s load-time checks that must stay fast for thousands of flows
 * (sorts, no pairwise scans): unique names (and the sorted name index
 * eng_flow_index() searches) and no two flows of one protocol in different
 * tasks whose 4-tuples overlap (their return traffic could not be told apart;
 * a remote address or port 0, "any", overlaps every value). Flows of one task
 * are the kind's check (kinds/dfcp/dfcp_flow.c, kinds/tcp/tcp_conf.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/task.h"

static const struct eng_flow_conf *sort_flows;	/* qsort has no context argument */

/* The flows' indices sorted by cmp (malloc'd), or NULL with err set. */
static unsigned int *
sorted_flows(const struct eng_config *cfg, int (*cmp)(const void *, const void *), char *err,
		size_t errlen)
{
	unsigned int i, *v = malloc(((size_t)cfg->nb_flows + 1) * sizeof(*v));

	if (v == NULL) {
		snprintf(err, errlen, "%s: out of memory", cfg->file);
		return NULL;
	}
	for (i = 0; i < cfg->nb_flows; i++)
		v[i] = i;
	sort_flows = cfg->flows;
	qsort(v, cfg->nb_flows, sizeof(*v), cmp);
	return v;
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(sort_flows[*(const unsigned int *)a].name,
			sort_flows[*(const unsigned int *)b].name);
}

int
eng_flow_names_index(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, *v;

	free(cfg->flows_by_name);
	cfg->flows_by_name = NULL;
	v = sorted_flows(cfg, name_cmp, err, errlen);
	if (v == NULL)
		return -ENOMEM;
	for (i = 1; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *a = &cfg->flows[v[i - 1]], *b = &cfg->flows[v[i]];

		if (strcmp(a->name, b->name) == 0) {
			if (a->line > b->line) {
				const struct eng_flow_conf *t = a;

				a = b;
				b = t;
			}
			snprintf(err, errlen, "%s:%d: [flow %s]: flow defined twice (first by the "
					"section at line %d)", cfg->file, b->line, b->name, a->line);
			free(v);
			return -EINVAL;
		}
	}
	cfg->flows_by_name = v;
	return 0;
}

int
eng_flow_index(const struct eng_config *cfg, const char *name)
{
	unsigned int lo = 0, hi = cfg->nb_flows, i;

	if (cfg->flows_by_name == NULL) {
		for (i = 0; i < cfg->nb_flows; i++)
			if (strcmp(cfg->flows[i].name, name) == 0)
				return (int)i;
		return -1;
	}
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		int c = strcmp(cfg->flows[cfg->flows_by_name[mid]].name, name);

		if (c == 0)
			return (int)cfg->flows_by_name[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* By protocol, then local address and port. */
static int
local_cmp(const void *a, const void *b)
{
	const struct eng_flow_conf *x = &sort_flows[*(const unsigned int *)a];
	const struct eng_flow_conf *y = &sort_flows[*(const unsigned int *)b];

	if (x->proto != y->proto)
		return (uintptr_t)x->proto < (uintptr_t)y->proto ? -1 : 1;
	if (x->local_ip != y->local_ip)
		return x->local_ip < y->local_ip ? -1 : 1;
	if (x->local_port != y->local_port)
		return x->local_port < y->local_port ? -1 : 1;
	return (*(const unsigned int *)a > *(const unsigned int *)b) -
		(*(const unsigned int *)a < *(const unsigned int *)b);
}

/* Same local address: do the remote ends overlap (0 = any matches all)? */
static int
remote_overlap(const struct eng_flow_conf *f, const struct eng_flow_conf *g)
{
	if (f->task_idx == g->task_idx)	/* within a task: the kind's own check (a tcp
					 * listener serves several flows on one port) */
		return 0;
	return (f->remote_ip == 0 || g->remote_ip == 0 || f->remote_ip == g->remote_ip) &&
		(f->remote_port == 0 || g->remote_port == 0 || f->remote_port == g->remote_port);
}

static void
addr_str(uint32_t ip, uint16_t port, char *buf, size_t len)
{
	if (ip == 0 && port == 0)
		snprintf(buf, len, "any");
	else
		snprintf(buf, len, "%u.%u.%u.%u:%u", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff,
				ip & 0xff, port);
}

static int
overlap_error(const struct eng_config *cfg, const struct eng_flow_conf *f,
		const struct eng_flow_conf *g, char *err, size_t errlen)
{
	char l[32], r1[32], r2[32];

	if (f->line < g->line || (f->line == g->line && strcmp(f->name, g->name) < 0)) {
		const struct eng_flow_conf *t = f;

		f = g;
		g = t;
	}
	addr_str(f->local_ip, f->local_port, l, sizeof(l));
	addr_str(f->remote_ip, f->remote_port, r1, sizeof(r1));
	addr_str(g->remote_ip, g->remote_port, r2, sizeof(r2));
	snprintf(err, errlen, "%s:%d: [flow %s]: local %s, remote %s overlaps flow %s (line %d, "
			"remote %s) of task %s: two flows of one protocol need distinct 4-tuples "
			"(give a flow group port or address steps)", cfg->file, f->line, f->name, l,
			r1, g->name, g->line, r2, f->task_idx >= 0 ? cfg->tasks[g->task_idx].name : "?");
	return -EINVAL;
}

int
eng_flow_tuples_check(const struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j, k, *v;
	int rc = 0;

	v = sorted_flows(cfg, local_cmp, err, errlen);
	if (v == NULL)
		return -ENOMEM;
	for (i = 0; rc == 0 && i < cfg->nb_flows; i = j) {
		const struct eng_flow_conf *f = &cfg->flows[v[i]];

		for (j = i + 1; j < cfg->nb_flows; j++) {
			const struct eng_flow_conf *g = &cfg->flows[v[j]];

			if (g->proto != f->proto || g->local_ip != f->local_ip ||
					g->local_port != f->local_port)
				break;
		}
		/* a run of one local address: pairwise (runs are short but for listeners) */
		for (k = i; rc == 0 && k < j; k++) {
			unsigned int m;

			for (m = i; rc == 0 && m < k; m++)
				if (remote_overlap(&cfg->flows[v[k]], &cfg->flows[v[m]]))
					rc = overlap_error(cfg, &cfg->flows[v[k]], &cfg->flows[v[m]],
							err, errlen);
		}
	}
	free(v);
	return rc;
}

int
eng_task_flows_same_local(const struct eng_config *cfg, const struct eng_task *t,
		const struct eng_flow_conf **f, const struct eng_flow_conf **g)
{
	unsigned int i, *v;
	int found = 0;

	v = malloc(((size_t)t->nb_flows + 1) * sizeof(*v));
	if (v == NULL)
		return -ENOMEM;
	memcpy(v, t->flow_idx, t->nb_flows * sizeof(*v));
	sort_flows = cfg->flows;
	qsort(v, t->nb_flows, sizeof(*v), local_cmp);	/* ties: in index order */
	for (i = 1; i < t->nb_flows; i++) {
		const struct eng_flow_conf *a = &cfg->flows[v[i - 1]], *b = &cfg->flows[v[i]];

		if (a->local_ip != b->local_ip || a->local_port != b->local_port)
			continue;
		/* the pair whose later flow comes first in the task's list */
		if (!found || b->task_pos < (*f)->task_pos) {
			*f = b->task_pos > a->task_pos ? b : a;
			*g = b->task_pos > a->task_pos ? a : b;
			found = 1;
		}
	}
	free(v);
	return found;
}
