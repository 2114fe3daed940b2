/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Lcores: each [lcore N] polls its tasks in order, one burst each, until the
 * phase becomes STOP (run to completion, no locks, no allocation). The main
 * lcore may host tasks too; it then also does the housekeeping (main.c)
 * between bursts. Each poll is timed (one rdtsc per poll): its cycles count as
 * busy when the task handled packets, idle otherwise (obs.h, obs/lcore_stats.c).
 */
#include <errno.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"

static inline uint64_t
poll_timed(struct eng_task *t, unsigned int idx, uint64_t now)
{
	struct eng_cycles *c = &t->rt->lcores.task[idx].c;
	uint16_t n = t->ops->poll(t, now);
	uint64_t end = rte_rdtsc();

	if (n != 0) {
		__atomic_store_n(&c->busy, c->busy + (end - now), __ATOMIC_RELAXED);
		__atomic_store_n(&c->busy_polls, c->busy_polls + 1, __ATOMIC_RELAXED);
	} else {
		__atomic_store_n(&c->idle, c->idle + (end - now), __ATOMIC_RELAXED);
		__atomic_store_n(&c->idle_polls, c->idle_polls + 1, __ATOMIC_RELAXED);
	}
	return end;
}

void
eng_lcore_task_cycles(const struct eng_runtime *rt, unsigned int t, struct eng_cycles *out)
{
	const struct eng_cycles *c = &rt->lcores.task[t % ENG_MAX_TASKS].c;

	out->busy = __atomic_load_n(&c->busy, __ATOMIC_RELAXED);
	out->idle = __atomic_load_n(&c->idle, __ATOMIC_RELAXED);
	out->busy_polls = __atomic_load_n(&c->busy_polls, __ATOMIC_RELAXED);
	out->idle_polls = __atomic_load_n(&c->idle_polls, __ATOMIC_RELAXED);
}

static const struct eng_lcore_conf *
lcore_conf(const struct eng_config *cfg, unsigned int lcore_id)
{
	unsigned int i;

	for (i = 0; i < cfg->nb_lcores; i++)
		if (cfg->lcores[i].lcore_id == lcore_id)
			return &cfg->lcores[i];
	return NULL;
}

int
eng_lcores_check(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j, a;

	for (i = 0; i < cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &cfg->lcores[i];
		unsigned int sock;

		if (!rte_lcore_is_enabled(lc->lcore_id) && lc->spread[0] != '\0') {
			ENG_LOG(ERR, lcore, "%s:%d: [task %s] lcores: lcore %u is not enabled in EAL "
					"(check -l / --lcores)", cfg->file, lc->line, lc->spread,
					lc->lcore_id);
			return -EINVAL;
		}
		if (!rte_lcore_is_enabled(lc->lcore_id)) {
			ENG_LOG(ERR, lcore, "%s:%d: [lcore %u]: lcore %u is not enabled in EAL (check "
					"-l / --lcores)",
					cfg->file, lc->line, lc->lcore_id, lc->lcore_id);
			return -EINVAL;
		}
		sock = rte_lcore_to_socket_id(lc->lcore_id);
		for (j = 0; j < lc->nb_tasks; j++) {
			const struct eng_task *t = &cfg->tasks[lc->task_idx[j]];

			for (a = 0; a < t->nb_ports; a++) {
				const struct eng_port *p = &rt->ports[t->ports[a].port_idx];

				if ((int)sock != p->socket)
					ENG_LOG(WARNING, lcore,
							"lcore %u (socket %u) polls port %s on socket %d "
							"(task %s): cross-socket traffic",
							lc->lcore_id, sock,
							cfg->ports[t->ports[a].port_idx].name,
							p->socket, t->name);
			}
		}
	}
	return 0;
}

static int
lcore_loop(void *arg)
{
	struct eng_runtime *rt = ((struct eng_lcore_arg *)arg)->rt;
	const struct eng_lcore_conf *lc = ((struct eng_lcore_arg *)arg)->lc;
	struct eng_task *tasks[ENG_MAX_LCORE_TASKS];
	unsigned int idx[ENG_MAX_LCORE_TASKS];
	unsigned int n = lc->nb_tasks, i;
	uint64_t now;

	for (i = 0; i < n; i++) {
		idx[i] = lc->task_idx[i];
		tasks[i] = &rt->cfg->tasks[idx[i]];
	}
	ENG_LOG(DEBUG, lcore, "lcore %u: polling %u tasks", lc->lcore_id, n);
	now = rte_rdtsc();
	while (rt->phase != ENG_PHASE_STOP) {
		for (i = 0; i < n; i++)
			now = poll_timed(tasks[i], idx[i], now);
	}
	return 0;
}

/*
 * The main lcore's [lcore] section (NULL: none), looked up once:
 * eng_lcore_main_poll runs between every housekeeping step of the main loop.
 */
static inline const struct eng_lcore_conf *
main_lcore_conf(struct eng_runtime *rt)
{
	if (unlikely(!rt->lcores.main_lc_known)) {
		rt->lcores.main_lc = lcore_conf(rt->cfg, rte_get_main_lcore());
		rt->lcores.main_lc_known = 1;
	}
	return rt->lcores.main_lc;
}

int
eng_lcore_main_has_tasks(struct eng_runtime *rt)
{
	const struct eng_lcore_conf *lc = main_lcore_conf(rt);

	return lc != NULL && lc->nb_tasks > 0;
}

int
eng_lcore_main_poll(struct eng_runtime *rt, uint64_t now)
{
	const struct eng_lcore_conf *lc = main_lcore_conf(rt);
	unsigned int i;
	int n = 0;

	if (lc == NULL)
		return 0;
	for (i = 0; i < lc->nb_tasks; i++) {
		struct eng_task *t = &rt->cfg->tasks[lc->task_idx[i]];
		uint64_t b = rt->lcores.task[lc->task_idx[i]].c.busy_polls;

		now = poll_timed(t, lc->task_idx[i], now);
		n += rt->lcores.task[lc->task_idx[i]].c.busy_polls != b;
	}
	return n;
}

int
eng_lcores_launch(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i;
	int rc;

	for (i = 0; i < cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &cfg->lcores[i];

		if (lc->lcore_id == rte_get_main_lcore() || lc->nb_tasks == 0)
			continue;
		rt->lcores.arg[i].rt = rt;
		rt->lcores.arg[i].lc = lc;
		rc = rte_eal_remote_launch(lcore_loop, &rt->lcores.arg[i], lc->lcore_id);
		if (rc != 0) {
			ENG_LOG(ERR, lcore, "cannot launch lcore %u: %s", lc->lcore_id,
					rte_strerror(-rc));
			return rc;
		}
	}
	return 0;
}

int
eng_lcores_wait(struct eng_runtime *rt)
{
	unsigned int id;
	int rc = 0;

	RTE_SET_USED(rt);
	RTE_LCORE_FOREACH_WORKER(id) {
		if (rte_eal_wait_lcore(id) < 0)
			rc = -EIO;
	}
	return rc;
}
