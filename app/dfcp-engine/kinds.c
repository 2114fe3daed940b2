/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The kind table: every task kind, each defined in its folder under kinds/.
 * Adding a kind: its folder, one line in each list below, one in meson.build
 * (doc/contributing.md). The order is the order of the kinds' report blocks.
 */
#include <stdio.h>
#include <string.h>

#include <rte_common.h>

#include "core/task.h"

extern const struct eng_task_ops eng_task_txonly;
extern const struct eng_task_ops eng_task_rxonly;
extern const struct eng_task_ops eng_task_io;
extern const struct eng_task_ops eng_task_dfcp;
extern const struct eng_task_ops eng_task_router;
extern const struct eng_task_ops eng_task_sched;
extern const struct eng_task_ops eng_task_tcp;
extern const struct eng_task_ops eng_task_drop;

static const struct eng_task_ops *const eng_task_kinds[] = {
	&eng_task_txonly,
	&eng_task_rxonly,
	&eng_task_io,
	&eng_task_dfcp,
	&eng_task_router,
	&eng_task_sched,
	&eng_task_tcp,
	&eng_task_drop,
};

unsigned int
eng_kinds_count(void)
{
	RTE_BUILD_BUG_ON(RTE_DIM(eng_task_kinds) > ENG_MAX_KINDS);
	return RTE_DIM(eng_task_kinds);
}

const struct eng_task_ops *
eng_kind(unsigned int i)
{
	return i < RTE_DIM(eng_task_kinds) ? eng_task_kinds[i] : NULL;
}

int
eng_kind_index(const struct eng_task_ops *ops)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(eng_task_kinds); i++)
		if (eng_task_kinds[i] == ops)
			return (int)i;
	return -1;
}

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
