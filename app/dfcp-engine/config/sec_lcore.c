/* SPDX-License-Identifier: BSD-3-Clause */
/* [lcore N]: the tasks lcore N polls, in order, run to completion. */
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
			for (k = 0; k < cfg->nb_tasks; k++)
				if (strcmp(cfg->tasks[k].name, name) == 0)
					break;
			if (k == cfg->nb_tasks) {
				snprintf(err, errlen,
						"%s:%d: [lcore %u] tasks: unknown task \"%s\" (expected "
						"the name of a [task NAME] section)",
						cfg->file, lc->line, lc->lcore_id, name);
				return -EINVAL;
			}
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
	return 0;
}

const struct eng_section_kind eng_section_lcore = {
	.prefix = "lcore",
	.named = 1,
	.help = "the tasks an lcore polls",
	.parse = lcore_parse,
	.check = lcore_check,
};
