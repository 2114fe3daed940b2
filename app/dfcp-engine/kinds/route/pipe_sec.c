/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [pipe NAME]: one direction of an emulated link (lib/pipe): bandwidth,
 * delay, Bernoulli and Gilbert-Elliott loss, queue limits, scheduler, the
 * next pipe in series and where unmatched traffic goes. Its check() also
 * resolves every cross-reference of the routing part: queues -> pipes,
 * pipes -> next (no cycles, one feeder per pipe), router tasks -> pipes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kinds/route/route.h"
#include "pktsched.h"

struct eng_route_conf *
eng_route_conf_get(struct eng_config *cfg)
{
	void **slot = &cfg->kind_conf[eng_kind_index(&eng_task_router)];

	if (*slot == NULL)
		*slot = calloc(1, sizeof(struct eng_route_conf));
	return *slot;
}

int
eng_route_pipe_index(const struct eng_config *cfg, const char *name)
{
	unsigned int i;

	if (eng_route_conf(cfg) == NULL)
		return -1;
	for (i = 0; i < eng_route_conf(cfg)->nb_pipes; i++)
		if (strcmp(eng_route_conf(cfg)->pipes[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* A decimal number >= 1 (mean burst length in packets). Set-up only. */
static int
sec_burst(struct eng_sec *sec, const char *key, double *out)
{
	const char *v = eng_sec_get(sec, key);
	char *end;
	double d;

	if (v == NULL)
		return 0;
	d = strtod(v, &end);
	while (*end == ' ' || *end == '\t')
		end++;
	if (end == v || *end != '\0' || !(d >= 1.0) || d > 1e9)
		return eng_sec_error(sec, key,
				"expected a mean burst length in packets, a number >= 1 such as 2 or "
				"2.5; got \"%s\"",
				v);
	*out = d;
	return 0;
}

static int
sec_prob(struct eng_sec *sec, const char *key, double *out)
{
	const char *v = eng_sec_get(sec, key);
	char e[CFG_ERR_LEN];
	uint32_t ppb;

	if (v == NULL)
		return 0;
	if (cfg_parse_ratio(v, 0, CFG_RATIO_ONE, &ppb, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s", e);
	*out = cfg_ratio_to_double(ppb);
	return 0;
}

static uint64_t
name_seed(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/* loss_model and its Gilbert-Elliott keys (plr is read by the caller). */
static int
route_pipe_loss(struct eng_sec *sec, struct eng_pipe_conf *pc)
{
	static const char *const ge_keys[] = {"ge_loss", "ge_burst", "ge_p", "ge_r", "ge_loss_good",
					      "ge_loss_bad"};
	char model[16] = "bernoulli";
	int rc = eng_sec_str(sec, "loss_model", model, sizeof(model));
	unsigned int i;

	if (rc < 0)
		return rc;
	if (strcasecmp(model, "gilbert") == 0 || strcasecmp(model, "ge") == 0 ||
			strcasecmp(model, "gilbert-elliott") == 0) {
		int has_mean = eng_sec_get(sec, "ge_loss") != NULL || eng_sec_get(sec, "ge_burst") != NULL;
		int has_pr = eng_sec_get(sec, "ge_p") != NULL || eng_sec_get(sec, "ge_r") != NULL;

		pc->gilbert = 1;
		if (has_mean && has_pr)
			return eng_sec_error(sec, "ge_p",
					"give either ge_loss and ge_burst, or ge_p and ge_r, not both");
		if (has_mean) {
			double loss = 0, burst = 1;

			rc = sec_prob(sec, "ge_loss", &loss);
			if (rc == 0)
				rc = sec_burst(sec, "ge_burst", &burst);
			if (rc < 0)
				return rc;
			if (eng_sec_get(sec, "ge_loss") == NULL)
				return eng_sec_missing(sec, "ge_loss", "the mean loss rate, e.g. 1%");
			if (!(loss > 0 && loss < 1))
				return eng_sec_error(sec, "ge_loss", "must be between 0 and 100 %% (exclusive)");
			if (eng_sec_get(sec, "ge_loss_good") != NULL ||
					eng_sec_get(sec, "ge_loss_bad") != NULL)
				return eng_sec_error(sec, "ge_loss_good",
						"ge_loss_good/ge_loss_bad go with ge_p and ge_r");
			if (pipe_ge_from_mean(&pc->ge, loss, burst) < 0)
				return eng_sec_error(sec, "ge_burst",
						"no Gilbert model has mean loss %g and mean burst %g "
						"(needs loss / (1 - loss) <= burst)",
						loss, burst);
		} else if (has_pr) {
			pc->ge.loss_bad = 1;
			rc = sec_prob(sec, "ge_p", &pc->ge.p_gb);
			if (rc == 0)
				rc = sec_prob(sec, "ge_r", &pc->ge.p_bg);
			if (rc == 0)
				rc = sec_prob(sec, "ge_loss_good", &pc->ge.loss_good);
			if (rc == 0)
				rc = sec_prob(sec, "ge_loss_bad", &pc->ge.loss_bad);
			if (rc < 0)
				return rc;
			if (!(pc->ge.p_gb > 0))
				return eng_sec_error(sec, "ge_p", "must be above 0 (P(Good -> Bad))");
			if (!(pc->ge.p_bg > 0))
				return eng_sec_error(sec, "ge_r", "must be above 0 (P(Bad -> Good))");
		} else {
			return eng_sec_missing(sec, "ge_loss",
					"ge_loss and ge_burst, or ge_p and ge_r, with loss_model = "
					"gilbert");
		}
	} else if (strcasecmp(model, "bernoulli") == 0) {
		for (i = 0; i < RTE_DIM(ge_keys); i++)
			if (eng_sec_get(sec, ge_keys[i]) != NULL)
				return eng_sec_error(sec, ge_keys[i],
						"Gilbert-Elliott keys need loss_model = gilbert");
	} else {
		return eng_sec_error(sec, "loss_model",
				"unknown loss model \"%s\" (expected bernoulli or gilbert)", model);
	}
	return 0;
}

static int
route_pipe_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_route_conf *rc_ = eng_route_conf_get(cfg);
	char e[CFG_ERR_LEN];
	struct eng_pipe_conf *pc;
	uint64_t v;
	int rc;

	if (rc_ == NULL)
		return eng_sec_error(sec, NULL, "out of memory");
	if (cfg_check_name(sec->id, ENG_NAME_LEN, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "%s", e);
	if (strcmp(sec->id, "pass") == 0)
		return eng_sec_error(sec, NULL, "\"pass\" is reserved (it means: no pipe)");
	if (rc_->nb_pipes == ENG_MAX_PIPES)
		return eng_sec_error(sec, NULL, "too many pipes (at most %d)", ENG_MAX_PIPES);
	pc = &rc_->pipes[rc_->nb_pipes];
	memset(pc, 0, sizeof(*pc));
	snprintf(pc->name, sizeof(pc->name), "%.*s", ENG_NAME_LEN - 1, sec->id);
	pc->line = sec->line;
	pc->overhead = ENG_L1_OVERHEAD;
	snprintf(pc->sched, sizeof(pc->sched), "%s", sched_algo_name(0));
	snprintf(pc->unmatched, sizeof(pc->unmatched), "default");
	pc->next_idx = -1;
	pc->seed = name_seed(pc->name);

	rc = eng_sec_rate(sec, "bw", 0, 400000000000ull, &pc->bw_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "delay", 0, 0, 3600000000000ull, &pc->delay_ns);
	if (rc == 0 && eng_sec_get(sec, "plr") != NULL) {
		rc = cfg_parse_ratio(eng_sec_get(sec, "plr"), 0, CFG_RATIO_ONE, &pc->plr_ppb, e,
				sizeof(e));
		if (rc < 0)
			return eng_sec_error(sec, "plr", "%s", e);
	}
	if (rc == 0)
		rc = route_pipe_loss(sec, pc);
	if (rc < 0)
		return rc;
	rc = eng_sec_u64(sec, "seed", 0, UINT64_MAX, &pc->seed);
	if (rc == 0)
		rc = eng_sec_u32(sec, "overhead", 0, 1024, &pc->overhead);
	if (rc == 0)
		rc = eng_sec_str(sec, "sched", pc->sched, sizeof(pc->sched));
	if (rc == 0 && sched_algo_check(pc->sched) != 0) {
		char names[128];

		(void)sched_algo_list(names, sizeof(names), " or ");
		return eng_sec_error(sec, "sched", "unknown scheduler \"%s\" (expected %s)",
				pc->sched, names);
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "queue", 1, 1u << 20, &pc->queue_pkts);
	if (rc == 0) {
		v = 0;
		rc = eng_sec_size(sec, "queue_bytes", 64, 1ull << 32, &v);
		pc->queue_bytes = v;
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "line_pkts", 16, 1u << 24, &pc->line_pkts);
	if (rc == 0)
		rc = eng_sec_name(sec, "next", pc->next, sizeof(pc->next));
	if (rc == 0)
		rc = eng_sec_name(sec, "unmatched", pc->unmatched, sizeof(pc->unmatched));
	if (rc < 0)
		return rc;
	if (pc->queue_pkts == 0 && pc->queue_bytes == 0)
		pc->queue_pkts = 50; /* ipfw's default */
	rc_->nb_pipes++;
	return 0;
}

#define CHK_ERR(...) (snprintf(err, errlen, __VA_ARGS__), -EINVAL)

static int
feed(struct eng_config *cfg, int idx, const char *who, char *err, size_t errlen)
{
	struct eng_pipe_conf *pc = &eng_route_conf(cfg)->pipes[idx];

	if (pc->has_pred)
		return CHK_ERR("%s:%d: [pipe %s]: fed twice (by %s and another router direction or "
			       "pipe's next); a pipe belongs to one chain",
				cfg->file, pc->line, pc->name, who);
	pc->has_pred = 1;
	return 0;
}

static int
route_pipe_check(struct eng_config *cfg, char *err, size_t errlen)
{
	struct eng_route_conf *r = eng_route_conf(cfg);
	unsigned int i, j;
	int rc;

	if (r != NULL) {
		/* queues: resolve their pipe, number them inside it */
		for (i = 0; i < r->nb_queues; i++) {
			struct eng_queue_conf *q = &r->queues[i];
			int p = eng_route_pipe_index(cfg, q->pipe);

			if (p < 0)
				return CHK_ERR("%s:%d: [queue %s] pipe: unknown pipe \"%s\" (expected the "
					       "name of a [pipe NAME] section)",
						cfg->file, q->line, q->name, q->pipe);
			q->pipe_idx = p;
			q->pipe_q = ++r->pipes[p].nb_queues;
		}
		for (i = 0; i < r->nb_pipes; i++) {
			struct eng_pipe_conf *pc = &r->pipes[i];

			if (strcmp(pc->unmatched, "default") == 0) {
				pc->unmatched_idx = ENG_UNMATCHED_DEFAULT;
			} else if (strcmp(pc->unmatched, "pass") == 0) {
				pc->unmatched_idx = ENG_UNMATCHED_PASS;
			} else {
				for (j = 0; j < r->nb_queues; j++)
					if (strcmp(r->queues[j].name, pc->unmatched) == 0)
						break;
				if (j == r->nb_queues || r->queues[j].pipe_idx != (int)i)
					return CHK_ERR("%s:%d: [pipe %s] unmatched: \"%s\" is not a "
						       "[queue NAME] of this pipe (expected default, pass "
						       "or a queue whose pipe = %s)",
							cfg->file, pc->line, pc->name, pc->unmatched,
							pc->name);
				pc->unmatched_idx = (int)j;
			}
			if (pc->next[0] != '\0') {
				pc->next_idx = eng_route_pipe_index(cfg, pc->next);
				if (pc->next_idx < 0)
					return CHK_ERR("%s:%d: [pipe %s] next: unknown pipe \"%s\"",
							cfg->file, pc->line, pc->name, pc->next);
			}
		}
		/* cycles in next */
		for (i = 0; i < r->nb_pipes; i++) {
			int p = (int)i, n = 0;

			while (p >= 0 && n <= (int)r->nb_pipes) {
				p = r->pipes[p].next_idx;
				n++;
				if (p == (int)i)
					return CHK_ERR("%s:%d: [pipe %s] next: cycle (the chain of next "
						       "pipes comes back to %s)",
							cfg->file, r->pipes[i].line, r->pipes[i].name,
							r->pipes[i].name);
			}
			if (n > ENG_PIPE_CHAIN_MAX)
				return CHK_ERR("%s:%d: [pipe %s] next: more than %d pipes in series",
						cfg->file, r->pipes[i].line, r->pipes[i].name,
						ENG_PIPE_CHAIN_MAX);
		}
		for (i = 0; i < r->nb_pipes; i++)
			if (r->pipes[i].next_idx >= 0) {
				rc = feed(cfg, r->pipes[i].next_idx, r->pipes[i].name, err, errlen);
				if (rc < 0)
					return rc;
			}
		/* a queue without rules only gets traffic as the unmatched queue */
		for (i = 0; i < r->nb_queues; i++) {
			const struct eng_queue_conf *q = &r->queues[i];

			if (q->nb_rules == 0 &&
					r->pipes[q->pipe_idx].unmatched_idx != (int)i)
				return CHK_ERR("%s:%d: [queue %s]: no match rule, and not the "
					       "unmatched queue of pipe %s: it would never get a packet",
						cfg->file, q->line, q->name, q->pipe);
		}
	}
	return 0;
}

/* The router kind's check: each router direction -> the head of its chain. */
int
eng_route_check_routers(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i;
	int rc;

	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];
		struct eng_router_conf *rcf = t->conf;
		int d;

		if (t->ops != &eng_task_router)
			continue;
		for (d = 0; d < 2; d++) {
			const char *key = d == 0 ? "a_to_b" : "b_to_a";

			if (strcmp(rcf->pipe_name[d], "pass") == 0) {
				rcf->pipe_idx[d] = ENG_ROUTE_PASS;
				continue;
			}
			rcf->pipe_idx[d] = eng_route_pipe_index(cfg, rcf->pipe_name[d]);
			if (rcf->pipe_idx[d] < 0)
				return CHK_ERR("%s:%d: [task %s] %s: unknown pipe \"%s\" (expected pass "
					       "or the name of a [pipe NAME] section)",
						cfg->file, t->line, t->name, key, rcf->pipe_name[d]);
			rc = feed(cfg, rcf->pipe_idx[d], t->name, err, errlen);
			if (rc < 0)
				return rc;
		}
	}
	return 0;
}

static void
route_pipe_free(struct eng_config *cfg)
{
	free(eng_route_conf(cfg));
	cfg->kind_conf[eng_kind_index(&eng_task_router)] = NULL;
}

const struct eng_section_kind eng_section_pipe = {
	.prefix = "pipe",
	.named = 1,
	.help = "an emulated link direction: bw, delay, loss, queues, scheduler",
	.parse = route_pipe_parse,
	.check = route_pipe_check,
	.free = route_pipe_free,
};
