/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Flow groups: a [flow NAME] section with "count = N" describes N flows,
 * expanded here at load time into NAME.0 .. NAME.(N-1). Flow i gets the
 * section's addresses plus i x the steps (local_port_step, remote_port_step,
 * local_ip_step, remote_ip_step), seed + i x seed_step, and the i-th weight
 * of the "weight" list taken in turn. Errors name the section and the key's
 * FILE:LINE. Keys: doc/config.md ("Flow groups").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/task.h"

struct group_keys {
	uint32_t count;			/* 0: a single flow (no count key) */
	uint32_t lport_step, rport_step, lip_step, rip_step, seed_step;
	uint32_t *weights;		/* the weight list (malloc'd) */
	unsigned int nb_weights;
};

static const char *const step_keys[] = {
	"local_port_step", "remote_port_step", "local_ip_step", "remote_ip_step", "seed_step",
};

/* "W" or "W1, W2, ..." (1..1000000 each) into gk->weights. */
static int
weights_parse(struct eng_sec *sec, struct group_keys *gk)
{
	const char *v = eng_sec_get_long(sec, "weight");
	char item[32], e[CFG_ERR_LEN];
	const char *cur = v;
	unsigned int cap = 0;
	uint32_t w;
	int rc;

	if (v == NULL) {
		gk->weights = malloc(sizeof(*gk->weights));
		if (gk->weights == NULL)
			return -ENOMEM;
		gk->weights[0] = 1;
		gk->nb_weights = 1;
		return 0;
	}
	while ((rc = cfg_list_next(&cur, item, sizeof(item), e, sizeof(e))) > 0) {
		if (cfg_parse_u32(item, 1, 1000000, &w, e, sizeof(e)) < 0)
			return eng_sec_error(sec, "weight", "item %u: %s", gk->nb_weights + 1, e);
		if (gk->nb_weights == cap) {
			uint32_t *t = realloc(gk->weights, (cap ? cap * 2 : 8) * sizeof(*t));

			if (t == NULL)
				return -ENOMEM;
			gk->weights = t;
			cap = cap ? cap * 2 : 8;
		}
		gk->weights[gk->nb_weights++] = w;
	}
	if (rc < 0)
		return eng_sec_error(sec, "weight", "%s", e);
	if (gk->nb_weights > 1 && gk->count == 0)
		return eng_sec_error(sec, "weight", "a list of %u weights needs count (a flow group)",
				gk->nb_weights);
	return 0;
}

/* The steps and weights (after the first flow's keys: "known keys" lists those first). */
static int
group_keys_parse(struct eng_sec *sec, struct group_keys *gk)
{
	uint32_t *steps[] = {&gk->lport_step, &gk->rport_step, &gk->lip_step, &gk->rip_step,
		&gk->seed_step};
	uint32_t max[] = {65535, 65535, UINT32_MAX, UINT32_MAX, UINT32_MAX};
	unsigned int i;
	int rc = 0;

	for (i = 0; rc == 0 && i < RTE_DIM(step_keys); i++) {
		if (gk->count == 0 && eng_sec_get(sec, step_keys[i]) != NULL)
			return eng_sec_error(sec, step_keys[i], "needs count (a flow group)");
		rc = eng_sec_u32(sec, step_keys[i], 0, max[i], steps[i]);
	}
	if (rc == 0)
		rc = weights_parse(sec, gk);
	return rc;
}

/* base + i x step within [0, max]; -ERANGE when it is not. */
static int
stepped(uint64_t base, uint64_t step, uint64_t i, uint64_t max, uint64_t *out)
{
	if (step != 0 && i > (max - base) / step)
		return -ERANGE;
	*out = base + i * step;
	return 0;
}

/* Flow i of the group: its addresses, seed and weight. */
static int
member_apply(struct eng_sec *sec, const struct group_keys *gk, struct eng_flow_conf *f,
		unsigned int i)
{
	uint64_t v;

	f->weight = gk->weights[i % gk->nb_weights];
	f->seed = (uint32_t)(f->seed + (uint64_t)i * gk->seed_step);
	if (gk->count == 0)
		return 0;
	if (stepped(f->local_port, gk->lport_step, i, 65535, &v) < 0)
		return eng_sec_error(sec, "local_port_step", "flow %s would have local port %" PRIu64
				" + %u x %u, above 65535", f->name, (uint64_t)f->local_port, i,
				gk->lport_step);
	f->local_port = (uint16_t)v;
	if (stepped(f->local_ip, gk->lip_step, i, UINT32_MAX, &v) < 0)
		return eng_sec_error(sec, "local_ip_step", "flow %s: the local address runs past "
				"255.255.255.255", f->name);
	f->local_ip = (uint32_t)v;
	if (f->remote_port != 0) {	/* 0: any (a receiver) stays any */
		if (stepped(f->remote_port, gk->rport_step, i, 65535, &v) < 0)
			return eng_sec_error(sec, "remote_port_step", "flow %s would have remote "
					"port %" PRIu64 " + %u x %u, above 65535", f->name,
					(uint64_t)f->remote_port, i, gk->rport_step);
		f->remote_port = (uint16_t)v;
	}
	if (f->remote_ip != 0) {
		if (stepped(f->remote_ip, gk->rip_step, i, UINT32_MAX, &v) < 0)
			return eng_sec_error(sec, "remote_ip_step", "flow %s: the remote address "
					"runs past 255.255.255.255", f->name);
		f->remote_ip = (uint32_t)v;
	}
	return 0;
}

static struct eng_flow_group *
group_add(struct eng_config *cfg)
{
	if (cfg->nb_flow_groups == cfg->flow_groups_cap) {
		unsigned int cap = cfg->flow_groups_cap ? cfg->flow_groups_cap * 2 : 8;
		struct eng_flow_group *t = realloc(cfg->flow_groups, cap * sizeof(*t));

		if (t == NULL)
			return NULL;
		cfg->flow_groups = t;
		cfg->flow_groups_cap = cap;
	}
	return &cfg->flow_groups[cfg->nb_flow_groups++];
}

/* "NAME.I" fits a flow name for every I of the group. */
static int
group_name_check(struct eng_sec *sec, uint32_t count)
{
	char last[CFG_NAME_LEN + 16];
	int n = snprintf(last, sizeof(last), "%s.%u", sec->id, count - 1);

	if (n >= ENG_NAME_LEN)
		return eng_sec_error(sec, "count", "the group's last flow would be named \"%s\": "
				"%d characters (a flow name has at most %d)", last, n, ENG_NAME_LEN - 1);
	return 0;
}

static void
members_drop(struct eng_config *cfg, unsigned int first)
{
	while (cfg->nb_flows > first)
		free(cfg->flows[--cfg->nb_flows].pconf);
}

int
eng_flow_group_parse(struct eng_config *cfg, struct eng_sec *sec,
		const struct eng_task_ops *proto,
		int (*parse_one)(struct eng_config *cfg, struct eng_sec *sec, struct eng_flow_conf *f))
{
	unsigned int i, n, first = cfg->nb_flows;
	char name[ENG_NAME_LEN + 16], e[CFG_ERR_LEN];
	struct eng_flow_group *g = NULL;
	struct group_keys gk;
	int rc;

	memset(&gk, 0, sizeof(gk));
	gk.lport_step = 1;
	gk.rport_step = 1;
	gk.seed_step = 1;
	rc = eng_sec_u32(sec, "count", 1, ENG_FLOW_GROUP_MAX, &gk.count);
	if (rc == 0 && gk.count != 0)
		rc = group_name_check(sec, gk.count);
	n = gk.count ? gk.count : 1;
	for (i = 0; rc == 0 && i < n; i++) {
		struct eng_flow_conf *f;

		if (gk.count != 0)
			snprintf(name, sizeof(name), "%.*s.%u", ENG_NAME_LEN - 1, sec->id, i);
		else
			snprintf(name, sizeof(name), "%.*s", ENG_NAME_LEN - 1, sec->id);
		f = eng_flow_add(cfg, name, sec->line, proto, e, sizeof(e));
		if (f == NULL) {
			rc = eng_sec_error(sec, NULL, "%s", e);
			break;
		}
		rc = parse_one(cfg, sec, f);
		if (rc == 0 && i == 0)
			rc = group_keys_parse(sec, &gk);
		if (rc == 0 && gk.count > 1 && f->path[0] != '\0' && f->sink == ENG_SINK_FILE &&
				f->role == ENG_FLOW_RECEIVER)
			rc = eng_sec_error(sec, "sink", "a group of %u flows cannot write one file",
					gk.count);
		if (rc == 0)
			rc = member_apply(sec, &gk, f, i);
		f->group = gk.count ? (int)cfg->nb_flow_groups : -1;
	}
	if (rc == 0 && gk.count != 0) {
		g = group_add(cfg);
		if (g == NULL)
			rc = -ENOMEM;
	}
	if (rc < 0) {
		members_drop(cfg, first);
		free(gk.weights);
		return rc;
	}
	if (g != NULL) {
		snprintf(g->name, sizeof(g->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
		g->line = sec->line;
		g->first = first;
		g->count = gk.count;
	}
	free(gk.weights);
	return 0;
}

int
eng_flow_group_index(const struct eng_config *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_flow_groups; i++)
		if (strcmp(cfg->flow_groups[i].name, name) == 0)
			return (int)i;
	return -1;
}
