/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [lcore N]: the tasks lcore N polls, in order, run to completion; the tasks
 * of a [task NAME] lcores key join their lcores after those (sec_task.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config/config.h"

static int
lcore_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_lcore_conf *lc;
	char e[CFG_ERR_LEN];
	const char *v;
	uint32_t id;

	if (cfg_parse_u32(sec->id, 0, RTE_MAX_LCORE - 1, &id, e, sizeof(e)) < 0)
		return eng_sec_error(sec, NULL, "lcore id: %s", e);
	lc = &cfg->lcores[cfg->nb_lcores];
	memset(lc, 0, sizeof(*lc));
	lc->lcore_id = id;
	lc->line = sec->line;
	v = eng_sec_get_long(sec, "tasks");
	if (v == NULL)
		return eng_sec_missing(sec, "tasks", "a comma-separated list of task names");
	if (strlen(v) >= sizeof(lc->task_list))
		return eng_sec_error(sec, "tasks", "list too long (at most %d tasks of at most %d "
				"characters)", ENG_MAX_LCORE_TASKS, ENG_NAME_LEN - 1);
	snprintf(lc->task_list, sizeof(lc->task_list), "%s", v);
	cfg->nb_lcores++;
	return 0;
}

/* The task named name, by an [lcore N] section; its index or -1 with the reason. */
static int
lcore_task_find(struct eng_config *cfg, const struct eng_lcore_conf *lc, const char *name,
		char *err, size_t errlen)
{
	unsigned int k;

	for (k = 0; k < cfg->nb_tasks; k++) {
		const struct eng_task *t = &cfg->tasks[k];

		if (t->spread_n != 0 && (strcmp(t->name, name) == 0 ||
				strcmp(t->spread, name) == 0)) {
			snprintf(err, errlen, "%s:%d: [lcore %u] tasks: task \"%s\" runs on the "
					"lcores of [task %s] (lcores, line %d: %s.i on its i-th lcore); "
					"list it in no [lcore N]", cfg->file, lc->line, lc->lcore_id,
					name, t->spread, t->spread_line, t->spread);
			return -1;
		}
		if (strcmp(t->name, name) == 0)
			return (int)k;
	}
	snprintf(err, errlen, "%s:%d: [lcore %u] tasks: unknown task \"%s\" (expected the name "
			"of a [task NAME] section)", cfg->file, lc->line, lc->lcore_id, name);
	return -1;
}

/* The tasks of lcores keys join their lcores, after those an [lcore N] lists. */
static int
lcore_spread(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int k, i;

	for (k = 0; k < cfg->nb_tasks; k++) {
		struct eng_task *t = &cfg->tasks[k];
		struct eng_lcore_conf *lc = NULL;

		if (t->spread_n == 0)
			continue;
		for (i = 0; i < cfg->nb_lcores && lc == NULL; i++)
			if (cfg->lcores[i].lcore_id == t->lcore_id)
				lc = &cfg->lcores[i];
		if (lc == NULL) {
			lc = &cfg->lcores[cfg->nb_lcores++];
			memset(lc, 0, sizeof(*lc));
			lc->lcore_id = t->lcore_id;
			lc->line = t->spread_line;
			/* both char[ENG_NAME_LEN], NUL-terminated */
			memcpy(lc->spread, t->spread, sizeof(lc->spread));
		}
		if (lc->nb_tasks == ENG_MAX_LCORE_TASKS) {
			snprintf(err, errlen, "%s:%d: [task %s] lcores: lcore %u would poll more than "
					"%d tasks", cfg->file, t->spread_line, t->spread, t->lcore_id,
					ENG_MAX_LCORE_TASKS);
			return -EINVAL;
		}
		t->assigned = 1;
		lc->task_idx[lc->nb_tasks++] = (uint16_t)k;
	}
	return 0;
}

static int
lcore_check(struct eng_config *cfg, char *err, size_t errlen)
{
	char name[ENG_NAME_LEN], e[CFG_ERR_LEN];
	unsigned int i, j, k;

	for (i = 0; i < cfg->nb_lcores; i++) {
		struct eng_lcore_conf *lc = &cfg->lcores[i];
		const char *cur = lc->task_list;
		int rc;

		for (j = 0; j < i; j++)
			if (cfg->lcores[j].lcore_id == lc->lcore_id) {
				/* "[lcore 1]" and "[lcore 01]" */
				snprintf(err, errlen, "%s:%d: [lcore %u]: lcore defined twice", cfg->file,
						lc->line, lc->lcore_id);
				return -EINVAL;
			}
		while ((rc = cfg_list_next(&cur, name, sizeof(name), e, sizeof(e))) > 0) {
			int found = lcore_task_find(cfg, lc, name, err, errlen);

			if (found < 0)
				return -EINVAL;
			k = (unsigned int)found;
			if (cfg->tasks[k].assigned) {
				snprintf(err, errlen,
						"%s:%d: [lcore %u] tasks: task \"%s\" is already polled "
						"by lcore %u",
						cfg->file, lc->line, lc->lcore_id, name,
						cfg->tasks[k].lcore_id);
				return -EINVAL;
			}
			if (lc->nb_tasks == ENG_MAX_LCORE_TASKS) {
				snprintf(err, errlen, "%s:%d: [lcore %u] tasks: at most %d tasks",
						cfg->file, lc->line, lc->lcore_id, ENG_MAX_LCORE_TASKS);
				return -EINVAL;
			}
			cfg->tasks[k].assigned = 1;
			cfg->tasks[k].lcore_id = lc->lcore_id;
			lc->task_idx[lc->nb_tasks++] = (uint16_t)k;
		}
		if (rc < 0) {
			snprintf(err, errlen, "%s:%d: [lcore %u] tasks: %s", cfg->file, lc->line,
					lc->lcore_id, e);
			return -EINVAL;
		}
	}
	return lcore_spread(cfg, err, errlen);
}

const struct eng_section_kind eng_section_lcore = {
	.prefix = "lcore",
	.named = 1,
	.help = "the tasks an lcore polls",
	.parse = lcore_parse,
	.check = lcore_check,
};
