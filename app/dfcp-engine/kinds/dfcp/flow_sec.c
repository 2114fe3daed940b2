/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [flow NAME]: one DFCP flow (a sender or a receiver), run by the dfcp task
 * that lists it in its "flows" key. Keys: doc/config.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/dfcp/flow.h"

/* "A.B.C.D:PORT" (port required) or "A.B.C.D" (port 0 allowed when !need_port). */
static int
sec_addr(struct eng_sec *sec, const char *key, uint32_t *ip, uint16_t *port, int need_port)
{
	const char *v = eng_sec_get(sec, key);
	char buf[CFG_VALUE_LEN], e[CFG_ERR_LEN], *colon;
	uint64_t p;

	if (v == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	colon = strchr(buf, ':');
	if (colon != NULL)
		*colon = '\0';
	if (cfg_parse_ipv4(buf, ip, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s (expected A.B.C.D:PORT)", e);
	if (colon == NULL) {
		if (need_port)
			return eng_sec_error(sec, key, "missing \":PORT\" (expected A.B.C.D:PORT)");
		return 0;
	}
	if (cfg_parse_u64(colon + 1, 1, 65535, &p, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "UDP port: %s", e);
	*port = (uint16_t)p;
	return 0;
}

static int
sec_choice(struct eng_sec *sec, const char *key, const char *const *names, int n, int *out,
		char *arg, size_t arglen)
{
	const char *v = eng_sec_get(sec, key);
	char word[CFG_VALUE_LEN];
	const char *sp;
	int i;

	if (v == NULL)
		return 0;
	sp = strchr(v, ' ');
	snprintf(word, sizeof(word), "%.*s", sp ? (int)(sp - v) : (int)strlen(v), v);
	for (i = 0; i < n; i++) {
		if (strcmp(word, names[i]) != 0)
			continue;
		*out = i;
		if (arg != NULL) {
			arg[0] = '\0';
			if (sp != NULL) {
				while (*sp == ' ' || *sp == '\t')
					sp++;
				snprintf(arg, arglen, "%s", sp);
			}
		}
		return 0;
	}
	return eng_sec_error(sec, key, "unknown value \"%s\"", word);
}

static void
flow_defaults(struct eng_flow_conf *f, const struct eng_sec *sec)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
	f->line = sec->line;
	f->task_idx = -1;
	f->path_rate_bps = 1000000000ull;
	f->path_rtt_ns = 200000000ull;
	f->redundancy = DFCP_DEFAULT_REDUNDANCY;
	f->acks = f->encode = f->decode = 1;
	f->T = DFCP_DEFAULT_T;
	f->block_size = 65536;
	f->weight = 1;
	f->seed = 1;
	f->hs_rto_ns = 200000000ull;
	f->min_rto_ns = 10000000ull; /* above the queueing delay of deep rings */
	f->time_wait_ns = 1000000000ull;
}

/* role, addresses. */
static int
flow_parse_addresses(struct eng_sec *sec, struct eng_flow_conf *f)
{
	static const char *const roles[] = {"sender", "receiver"};
	int rc;

	if (eng_sec_get(sec, "role") == NULL)
		return eng_sec_missing(sec, "role", "sender or receiver");
	rc = sec_choice(sec, "role", roles, 2, &f->role, NULL, 0);
	if (rc == 0 && eng_sec_get(sec, "local") == NULL)
		rc = eng_sec_missing(sec, "local", "A.B.C.D:PORT");
	if (rc == 0)
		rc = sec_addr(sec, "local", &f->local_ip, &f->local_port, 1);
	if (rc == 0 && f->role == ENG_FLOW_SENDER && eng_sec_get(sec, "remote") == NULL)
		rc = eng_sec_missing(sec, "remote", "A.B.C.D:PORT of the receiver");
	if (rc == 0)
		rc = sec_addr(sec, "remote", &f->remote_ip, &f->remote_port,
				f->role == ENG_FLOW_SENDER);
	if (rc == 0 && eng_sec_get(sec, "remote_mac") != NULL) {
		f->has_remote_mac = 1;
		rc = eng_sec_mac(sec, "remote_mac", &f->remote_mac);
	}
	return rc;
}

/* The application: fairness label and weight, amount, duration, start, data. */
static int
flow_parse_application(struct eng_sec *sec, struct eng_flow_conf *f)
{
	static const char *const sources[] = {"pattern", "file"};
	static const char *const sinks[] = {"count", "verify", "file"};
	char arg[PATH_MAX];
	int rc;

	rc = eng_sec_u32(sec, "weight", 1, 1000000, &f->weight);
	if (rc == 0)
		rc = eng_sec_name(sec, "bottleneck", f->bottleneck, sizeof(f->bottleneck));
	if (rc == 0)
		rc = eng_sec_time(sec, "duration", 1000000000ull, 0, UINT64_MAX / 4, &f->duration_ns);
	if (rc == 0)
		rc = eng_sec_size(sec, "bytes", 0, UINT64_MAX / 4, &f->bytes);
	if (rc == 0)
		rc = eng_sec_time(sec, "start", 1000000000ull, 0, 3600000000000ull, &f->start_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "seed", 0, UINT32_MAX, &f->seed);
	if (rc == 0 && f->role == ENG_FLOW_SENDER) {
		rc = sec_choice(sec, "source", sources, 2, &f->source, arg, sizeof(arg));
		if (rc == 0 && f->source == ENG_SRC_FILE) {
			if (arg[0] == '\0')
				return eng_sec_error(sec, "source", "expected \"file PATH\"");
			snprintf(f->path, sizeof(f->path), "%s", arg);
		}
	}
	if (rc == 0 && f->role == ENG_FLOW_RECEIVER) {
		f->sink = ENG_SINK_COUNT;
		rc = sec_choice(sec, "sink", sinks, 3, &f->sink, arg, sizeof(arg));
		if (rc == 0 && f->sink == ENG_SINK_FILE) {
			if (arg[0] == '\0')
				return eng_sec_error(sec, "sink", "expected \"file PATH\"");
			snprintf(f->path, sizeof(f->path), "%s", arg);
		}
		f->verify = f->sink == ENG_SINK_VERIFY;
	}
	return rc;
}

/* The thesis's five parameters and the path they are sized for. */
static int
flow_parse_five(struct eng_sec *sec, struct eng_flow_conf *f)
{
	const char *v = eng_sec_get(sec, "window");
	int rc = 0;

	if (v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_u32(sec, "window", 1, DFCP_MAX_WINDOW, &f->window);
	if (rc == 0)
		rc = eng_sec_rate(sec, "path_rate", 1000, 400000000000ull, &f->path_rate_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "path_rtt", 1000000ull, 0, 10000000000ull, &f->path_rtt_ns);
	v = eng_sec_get(sec, "redundancy");
	if (rc == 0 && v != NULL) {
		if (strcmp(v, "auto") == 0)
			f->redundancy = DFCP_REDUNDANCY_AUTO;
		else
			rc = eng_sec_u16(sec, "redundancy", 1, DFCP_MAX_REDUNDANCY, &f->redundancy);
	}
	if (rc == 0)
		rc = eng_sec_bool(sec, "acks", &f->acks);
	if (rc == 0)
		rc = eng_sec_bool(sec, "encode", &f->encode);
	if (rc == 0)
		rc = eng_sec_bool(sec, "decode", &f->decode);
	return rc;
}

/* Coding (symbol and block size), pacing and the connection's timers. */
static int
flow_parse_coding(struct eng_sec *sec, struct eng_flow_conf *f)
{
	uint64_t u = f->block_size;
	int rc;

	rc = eng_sec_u16(sec, "symbol_size", DFCP_MIN_T, DFCP_MAX_T, &f->T);
	if (rc == 0)
		rc = eng_sec_size(sec, "block_size", 1, (uint64_t)DFCP_MAX_K * DFCP_MAX_T, &u);
	if (rc < 0)
		return rc;
	f->block_size = (uint32_t)u;
	u = (f->block_size + f->T - 1u) / f->T;
	if (u > DFCP_MAX_K)
		return eng_sec_error(sec, "block_size", "%u bytes need K = %" PRIu64
				" symbols of %u bytes (at most %u)", f->block_size, u, f->T,
				DFCP_MAX_K);
	f->K = (uint16_t)u;
	if (f->redundancy != DFCP_REDUNDANCY_AUTO && f->redundancy < f->K)
		return eng_sec_error(sec, "redundancy",
				"%u packets per block is fewer than K = %u source symbols",
				f->redundancy, f->K);
	rc = eng_sec_rate(sec, "rate", 0, 400000000000ull, &f->rate_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "hs_rto", 1000000ull, 1000000ull, 60000000000ull, &f->hs_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "min_rto", 1000000ull, 1000ull, 60000000000ull, &f->min_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "time_wait", 1000000ull, 1000000ull, 600000000000ull,
				&f->time_wait_ns);
	return rc;
}

static int
flow_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_flow_conf *f;
	char e[CFG_ERR_LEN];
	int rc;

	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (cfg->flows == NULL) {
		cfg->flows = calloc(ENG_MAX_FLOWS, sizeof(*cfg->flows));
		if (cfg->flows == NULL)
			return -ENOMEM;
	}
	if (cfg->nb_flows == ENG_MAX_FLOWS)
		return eng_sec_error(sec, NULL, "too many flows (at most %d)", ENG_MAX_FLOWS);
	f = &cfg->flows[cfg->nb_flows];
	flow_defaults(f, sec);
	rc = flow_parse_addresses(sec, f);
	if (rc == 0)
		rc = flow_parse_five(sec, f);
	if (rc == 0)
		rc = flow_parse_coding(sec, f);
	if (rc == 0)
		rc = flow_parse_application(sec, f);
	if (rc < 0)
		return rc;
	if (f->window == 0) {
		/* auto: the bandwidth-delay product in blocks, plus 64 blocks for queues */
		unsigned __int128 bdp = (unsigned __int128)f->path_rate_bps * f->path_rtt_ns;
		uint64_t blocks = (uint64_t)(bdp / 8u / 1000000000u / f->block_size) + 64u;

		f->window = blocks > DFCP_MAX_WINDOW ? DFCP_MAX_WINDOW : (uint32_t)blocks;
	}
	cfg->nb_flows++;
	return 0;
}

int
eng_flow_index(const struct eng_config *cfg, const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_flows; i++)
		if (strcmp(cfg->flows[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* [flow]'s check: names are unique. */
static int
flow_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j;

	for (i = 0; i < cfg->nb_flows; i++)
		for (j = 0; j < i; j++)
			if (strcmp(cfg->flows[i].name, cfg->flows[j].name) == 0) {
				snprintf(err, errlen, "%s:%d: [flow %s]: flow defined twice",
						cfg->file, cfg->flows[i].line, cfg->flows[i].name);
				return -EINVAL;
			}
	return 0;
}

/* The dfcp kind's check: resolve every dfcp task's "flows" list; each flow
 * belongs to exactly one task. */
int
eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen)
{
	char name[ENG_NAME_LEN], e[CFG_ERR_LEN];
	unsigned int i, j;
	int rc;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];
		struct eng_dfcp_conf *dc = t->conf;
		const char *cur;

		if (t->ops != &eng_task_dfcp)
			continue;
		cur = dc->flow_list;
		dc->nb_flows = 0;
		while ((rc = cfg_list_next(&cur, name, sizeof(name), e, sizeof(e))) > 0) {
			int k = eng_flow_index(cfg, name);

			if (k < 0) {
				snprintf(err, errlen, "%s:%d: [task %s] flows: unknown flow \"%s\" "
						"(expected the name of a [flow NAME] section)",
						cfg->file, t->line, t->name, name);
				return -EINVAL;
			}
			if (cfg->flows[k].task_idx >= 0) {
				snprintf(err, errlen, "%s:%d: [task %s] flows: flow \"%s\" is already "
						"run by task %s", cfg->file, t->line, t->name, name,
						cfg->tasks[cfg->flows[k].task_idx].name);
				return -EINVAL;
			}
			if (dc->nb_flows == ENG_DFCP_MAX_TASK_FLOWS) {
				snprintf(err, errlen, "%s:%d: [task %s] flows: at most %d flows per task",
						cfg->file, t->line, t->name, ENG_DFCP_MAX_TASK_FLOWS);
				return -EINVAL;
			}
			cfg->flows[k].task_idx = (int)i;
			cfg->flows[k].task_pos = dc->nb_flows;
			dc->flow_idx[dc->nb_flows++] = (uint16_t)k;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s:%d: [task %s] flows: %s", cfg->file, t->line,
					t->name, e);
			return -EINVAL;
		}
		if (dc->nb_flows == 0) {
			snprintf(err, errlen, "%s:%d: [task %s] flows: no flow listed", cfg->file,
					t->line, t->name);
			return -EINVAL;
		}
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *f = &cfg->flows[i];

		if (f->task_idx < 0) {
			snprintf(err, errlen, "%s:%d: [flow %s]: not listed in the flows of any "
					"[task NAME] of kind dfcp", cfg->file, f->line, f->name);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			const struct eng_flow_conf *g = &cfg->flows[j];

			if (g->task_idx == f->task_idx && g->local_ip == f->local_ip &&
					g->local_port == f->local_port) {
				snprintf(err, errlen, "%s:%d: [flow %s] local: same address and port "
						"as flow %s on the same task", cfg->file, f->line,
						f->name, g->name);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static void
flows_free(struct eng_config *cfg)
{
	free(cfg->flows);
	cfg->flows = NULL;
	cfg->nb_flows = 0;
}

const struct eng_section_kind eng_section_flow = {
	.prefix = "flow",
	.named = 1,
	.help = "a DFCP flow (sender or receiver) run by a dfcp task",
	.parse = flow_parse,
	.check = flow_check,
	.free = flows_free,
};
