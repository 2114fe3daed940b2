/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [flow NAME]: one transfer (a sender or a receiver) of a transport kind
 * (proto = dfcp, the default, or tcp), run by the task of that kind that
 * lists it in its "flows" key. The keys every flow has are read here; the
 * kind reads its protocol keys (ops->flow_parse). Its check resolves the
 * tasks' flow lists (a task over several lcores: its flows placed by the RSS
 * hash). Keys: doc/config.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net_rss.h"

#include "config/config.h"
#include "config/flow.h"
#include "core/task.h"

static void
flow_defaults(struct eng_flow_conf *f, const char *name, int line,
		const struct eng_task_ops *proto)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%.*s", ENG_NAME_LEN - 1, name);
	f->line = line;
	f->proto = proto;
	f->task_idx = -1;
	f->group = -1;
	f->weight = 1;
	f->bucket = ENG_FLOW_BUCKET_AUTO;
	f->seed = 1;
	f->warmup_ns = UINT64_MAX;	/* [engine] warmup */
}

/* proto = KIND: a task kind that runs flows (has flow_parse). */
static int
flow_parse_proto(struct eng_sec *sec, const struct eng_task_ops **out)
{
	const char *v = eng_sec_get(sec, "proto");
	const struct eng_task_ops *k;
	char list[128];
	size_t off = 0;
	unsigned int i;

	k = eng_task_kind_find(v != NULL ? v : "dfcp");
	if (k != NULL && k->flow_parse != NULL) {
		*out = k;
		return 0;
	}
	list[0] = '\0';
	for (i = 0; i < eng_kinds_count() && off < sizeof(list); i++)
		if (eng_kind(i)->flow_parse != NULL)
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					off ? " or " : "", eng_kind(i)->name);
	return eng_sec_error(sec, "proto", "unknown protocol \"%s\" (expected %s)", v, list);
}

/* role, addresses. */
static int
flow_parse_addresses(struct eng_sec *sec, struct eng_flow_conf *f)
{
	static const char *const roles[] = {"sender", "receiver"};
	int rc;

	if (eng_sec_get(sec, "role") == NULL)
		return eng_sec_missing(sec, "role", "sender or receiver");
	rc = eng_sec_choice(sec, "role", roles, 2, &f->role, NULL, 0);
	if (rc == 0 && eng_sec_get(sec, "local") == NULL)
		rc = eng_sec_missing(sec, "local", "A.B.C.D:PORT");
	if (rc == 0)
		rc = eng_sec_addr(sec, "local", &f->local_ip, &f->local_port, 1);
	if (rc == 0 && f->role == ENG_FLOW_SENDER && eng_sec_get(sec, "remote") == NULL)
		rc = eng_sec_missing(sec, "remote", "A.B.C.D:PORT of the receiver");
	if (rc == 0)
		rc = eng_sec_addr(sec, "remote", &f->remote_ip, &f->remote_port,
				f->role == ENG_FLOW_SENDER);
	if (rc == 0 && eng_sec_get(sec, "remote_mac") != NULL) {
		f->has_remote_mac = 1;
		rc = eng_sec_mac(sec, "remote_mac", &f->remote_mac);
	}
	return rc;
}

/* rate and bucket: a sender's pacer (every transport kind). */
static int
flow_parse_pacing(struct eng_sec *sec, struct eng_flow_conf *f)
{
	static const char *const keys[] = {"rate", "bucket"};
	unsigned int i;
	int rc;

	if (f->role != ENG_FLOW_SENDER) {
		for (i = 0; i < RTE_DIM(keys); i++)
			if (eng_sec_get(sec, keys[i]) != NULL)
				return eng_sec_error(sec, keys[i], "paces a sender; a receiver "
						"answers what arrives");
		return 0;
	}
	rc = eng_sec_rate_profile(sec, "rate", 2, 400000000000ull, 1, &f->rate_prof);
	if (rc == 0 && f->rate_prof.n != 0)
		f->rate_bps = f->rate_prof.rate[0].value;
	else if (rc == 0)
		rc = eng_sec_rate(sec, "rate", 0, 400000000000ull, &f->rate_bps);
	if (rc == 0)
		rc = eng_sec_size(sec, "bucket", 0, UINT32_MAX - 1, &f->bucket);
	if (rc == 0 && f->rate_bps == 0 && f->bucket != ENG_FLOW_BUCKET_AUTO)
		rc = eng_sec_error(sec, "bucket", "needs a rate (it is the pacer's burst)");
	return rc;
}

/* The application: fairness label and weight, amount, duration, start, warmup, data. */
static int
flow_parse_application(struct eng_sec *sec, struct eng_flow_conf *f)
{
	static const char *const sources[] = {"pattern", "file"};
	static const char *const sinks[] = {"count", "verify", "file"};
	char arg[PATH_MAX];
	int rc;

	/* weight: a list for flow groups (config/flow_group.c) */
	rc = eng_sec_name(sec, "bottleneck", f->bottleneck, sizeof(f->bottleneck));
	if (rc == 0)
		rc = eng_sec_time(sec, "duration", 1000000000ull, 0, UINT64_MAX / 4, &f->duration_ns);
	if (rc == 0)
		rc = eng_sec_size(sec, "bytes", 0, UINT64_MAX / 4, &f->bytes);
	if (rc == 0)
		rc = eng_sec_time(sec, "start", 1000000000ull, 0, 3600000000000ull, &f->start_ns);
	if (rc == 0 && eng_sec_get(sec, "warmup") != NULL)
		rc = eng_sec_time(sec, "warmup", 1000000000ull, 0, 3600000000000ull, &f->warmup_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "seed", 0, UINT32_MAX, &f->seed);
	if (rc == 0 && f->role == ENG_FLOW_SENDER) {
		rc = eng_sec_choice(sec, "source", sources, 2, &f->source, arg, sizeof(arg));
		if (rc == 0 && f->source == ENG_SRC_FILE) {
			if (arg[0] == '\0')
				return eng_sec_error(sec, "source", "expected \"file PATH\"");
			snprintf(f->path, sizeof(f->path), "%s", arg);
		}
	}
	if (rc == 0 && f->role == ENG_FLOW_RECEIVER) {
		f->sink = ENG_SINK_COUNT;
		rc = eng_sec_choice(sec, "sink", sinks, 3, &f->sink, arg, sizeof(arg));
		if (rc == 0 && f->sink == ENG_SINK_FILE) {
			if (arg[0] == '\0')
				return eng_sec_error(sec, "sink", "expected \"file PATH\"");
			snprintf(f->path, sizeof(f->path), "%s", arg);
		}
		f->verify = f->sink == ENG_SINK_VERIFY;
	}
	return rc;
}

struct eng_flow_conf *
eng_flow_add(struct eng_config *cfg, const char *name, int line, const struct eng_task_ops *proto,
		char *err, size_t errlen)
{
	char e[CFG_ERR_LEN];
	struct eng_flow_conf *f;

	if (cfg_check_name(name, ENG_NAME_LEN, e, sizeof(e)) < 0) {
		snprintf(err, errlen, "flow name \"%s\": %s", name, e);
		return NULL;
	}
	if (cfg->nb_flows == cfg->flows_cap) {
		/* grown while loading only: no pointer into the table outlives an add */
		unsigned int cap = cfg->flows_cap ? cfg->flows_cap * 2 : 16;
		struct eng_flow_conf *t = realloc(cfg->flows, (size_t)cap * sizeof(*t));

		if (t == NULL || cap <= cfg->flows_cap) {
			free(t == cfg->flows ? NULL : t);
			snprintf(err, errlen, "out of memory (%u flows)", cfg->nb_flows);
			return NULL;
		}
		cfg->flows = t;
		cfg->flows_cap = cap;
	}
	f = &cfg->flows[cfg->nb_flows++];
	flow_defaults(f, name, line, proto);
	return f;
}

/* The keys every flow of the section has, then the protocol's. */
static int
flow_parse_one(struct eng_config *cfg, struct eng_sec *sec, struct eng_flow_conf *f)
{
	int rc;

	rc = flow_parse_addresses(sec, f);
	if (rc == 0)
		rc = flow_parse_application(sec, f);
	if (rc == 0)
		rc = flow_parse_pacing(sec, f);
	if (rc == 0)
		rc = f->proto->flow_parse(f, sec, cfg);
	return rc;
}

static int
flow_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	const struct eng_task_ops *proto = NULL;
	char e[CFG_ERR_LEN];
	int rc;

	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	rc = flow_parse_proto(sec, &proto);
	if (rc < 0)
		return rc;
	return eng_flow_group_parse(cfg, sec, proto, flow_parse_one);
}

int
eng_task_parse_flows(struct eng_task *t, struct eng_sec *sec)
{
	const char *v = eng_sec_get_long(sec, "flows");

	if (v == NULL)
		return eng_sec_missing(sec, "flows", "a comma-separated list of flow and flow "
				"group names");
	free(t->flow_list);
	t->flow_list = strdup(v);
	return t->flow_list == NULL ? -ENOMEM : 0;
}

const struct eng_flow_conf *
eng_task_flow(const struct eng_config *cfg, const struct eng_task *t, unsigned int i)
{
	return i < t->nb_flows ? &cfg->flows[t->flow_idx[i]] : NULL;
}

/* Flow k into task ti's list: of the task's kind, run by no other task. */
static int
task_flow_add(struct eng_config *cfg, unsigned int ti, unsigned int k, unsigned int *cap,
		char *err, size_t errlen)
{
	struct eng_task *t = &cfg->tasks[ti];
	struct eng_flow_conf *f = &cfg->flows[k];

	if (f->proto != t->ops) {
		snprintf(err, errlen, "%s:%d: [task %s] flows: flow \"%s\" has proto = %s, "
				"the task is of kind %s", cfg->file, t->line, t->name, f->name,
				f->proto->name, t->ops->name);
		return -EINVAL;
	}
	if (f->task_idx >= 0) {
		snprintf(err, errlen, "%s:%d: [task %s] flows: flow \"%s\" is already "
				"run by task %s", cfg->file, t->line, t->name, f->name,
				cfg->tasks[f->task_idx].name);
		return -EINVAL;
	}
	if (t->nb_flows == *cap) {
		unsigned int ncap = *cap ? *cap * 2 : 16;
		unsigned int *v = realloc(t->flow_idx, ncap * sizeof(*v));

		if (v == NULL) {
			snprintf(err, errlen, "%s:%d: [task %s] flows: out of memory", cfg->file,
					t->line, t->name);
			return -ENOMEM;
		}
		t->flow_idx = v;
		*cap = ncap;
	}
	f->task_idx = (int)ti;
	f->task_pos = t->nb_flows;
	t->flow_idx[t->nb_flows++] = k;
	return 0;
}

/*
 * The task of spread t (its first) that runs flow f: the one polling the rx
 * queue a NIC doing RSS over t's port delivers f's frames to, the Toeplitz
 * hash of (remote, local) under the engine's key through its RETA
 * (lib/net/net_rss.h). A receiver's "any" remote hashes as 0.0.0.0:0; a
 * queue past the spread's tasks belongs to none of them: taken modulo.
 */
static unsigned int
spread_place(const struct eng_config *cfg, const struct eng_task *t,
		const struct eng_flow_conf *f)
{
	const struct eng_port_conf *pc = &cfg->ports[t->ports[0].port_idx];
	uint32_t h = net_rss_ipv4_l4(net_rss_key_default, f->remote_ip, f->local_ip,
			f->remote_port, f->local_port);

	return net_rss_queue(h, pc->rx_queues) % t->spread_n;
}

/* Flow k into task ti's list or, for a spread, the list of its task that
 * spread_place() names. */
static int
task_flow_place(struct eng_config *cfg, unsigned int ti, unsigned int k, unsigned int *caps,
		char *err, size_t errlen)
{
	const struct eng_task *t = &cfg->tasks[ti];
	unsigned int i = t->spread_n != 0 ? spread_place(cfg, t, &cfg->flows[k]) : 0;

	return task_flow_add(cfg, ti + i, k, &caps[i], err, errlen);
}

/* Every task of a spread runs a flow: each polls its queue and hands over what
 * the NIC puts there (the software dispatch, kinds/xport/xport_port.c). */
static int
spread_check(const struct eng_config *cfg, unsigned int ti, char *err, size_t errlen)
{
	const struct eng_task *t = &cfg->tasks[ti];
	unsigned int i, total = 0;

	for (i = 0; i < t->spread_n; i++)
		total += cfg->tasks[ti + i].nb_flows;
	for (i = 0; i < t->spread_n; i++)
		if (cfg->tasks[ti + i].nb_flows == 0) {
			snprintf(err, errlen, "%s:%d: [task %s] lcores: task %s runs none of the %u "
					"flows (their RSS hashes name the queues of the others); list "
					"more flows or fewer lcores", cfg->file, t->spread_line, t->spread,
					cfg->tasks[ti + i].name, total);
			return -EINVAL;
		}
	return 0;
}

/* One task's list (a spread's, its first task's): flow names and flow group
 * names (a group adds all its flows). */
static int
task_flows_resolve(struct eng_config *cfg, unsigned int ti, char *err, size_t errlen)
{
	struct eng_task *t = &cfg->tasks[ti];
	char name[ENG_NAME_LEN], e[CFG_ERR_LEN];
	const char *cur = t->flow_list;
	unsigned int caps[ENG_TASK_SPREAD_MAX] = {0}, m;
	int rc;

	for (m = 0; m < RTE_MAX(1u, t->spread_n); m++)
		cfg->tasks[ti + m].nb_flows = 0;
	while ((rc = cfg_list_next(&cur, name, sizeof(name), e, sizeof(e))) > 0) {
		int k = eng_flow_index(cfg, name);
		int g = k < 0 ? eng_flow_group_index(cfg, name) : -1;

		if (k < 0 && g < 0) {
			snprintf(err, errlen, "%s:%d: [task %s] flows: unknown flow \"%s\" "
					"(expected the name of a [flow NAME] section or flow group)",
					cfg->file, t->line, t->name, name);
			return -EINVAL;
		}
		if (k >= 0) {
			rc = task_flow_place(cfg, ti, (unsigned int)k, caps, err, errlen);
			if (rc < 0)
				return rc;
			continue;
		}
		for (m = 0; m < cfg->flow_groups[g].count; m++) {
			rc = task_flow_place(cfg, ti, cfg->flow_groups[g].first + m, caps, err,
					errlen);
			if (rc < 0)
				return rc;
		}
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s:%d: [task %s] flows: %s", cfg->file, t->line, t->name, e);
		return -EINVAL;
	}
	if (t->nb_flows == 0 && t->spread_n == 0) {
		snprintf(err, errlen, "%s:%d: [task %s] flows: no flow listed", cfg->file, t->line,
				t->name);
		return -EINVAL;
	}
	return t->spread_n != 0 ? spread_check(cfg, ti, err, errlen) : 0;
}

/* [flow]'s check: unique names; every task of a flow-running kind resolves its
 * list; every flow is run by exactly one task of its kind; distinct 4-tuples. */
static int
flow_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i;
	int rc;

	rc = eng_flow_names_index(cfg, err, errlen);
	if (rc < 0)
		return rc;
	for (i = 0; i < cfg->nb_tasks; i++) {
		if (cfg->tasks[i].ops->flow_parse == NULL || cfg->tasks[i].spread_i != 0)
			continue;
		rc = task_flows_resolve(cfg, i, err, errlen);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *f = &cfg->flows[i];

		if (f->task_idx < 0) {
			snprintf(err, errlen, "%s:%d: [flow %s]: not listed in the flows of any "
					"[task NAME] of kind %s", cfg->file, f->line, f->name,
					f->proto->name);
			return -EINVAL;
		}
	}
	return eng_flow_tuples_check(cfg, err, errlen);
}

static void
flows_free(struct eng_config *cfg)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_flows; i++)
		free(cfg->flows[i].pconf);
	for (i = 0; i < cfg->nb_tasks; i++) {
		free(cfg->tasks[i].flow_idx);
		cfg->tasks[i].flow_idx = NULL;
		cfg->tasks[i].nb_flows = 0;
		free(cfg->tasks[i].flow_list);
		cfg->tasks[i].flow_list = NULL;
	}
	free(cfg->flows);
	cfg->flows = NULL;
	cfg->nb_flows = 0;
	cfg->flows_cap = 0;
	free(cfg->flows_by_name);
	cfg->flows_by_name = NULL;
	free(cfg->flow_groups);
	cfg->flow_groups = NULL;
	cfg->nb_flow_groups = 0;
	cfg->flow_groups_cap = 0;
}

const struct eng_section_kind eng_section_flow = {
	.prefix = "flow",
	.named = 1,
	.help = "a transfer (sender or receiver) of a dfcp or tcp task",
	.parse = flow_parse,
	.check = flow_check,
	.free = flows_free,
};
