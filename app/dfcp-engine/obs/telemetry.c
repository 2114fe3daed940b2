/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_telemetry commands, read with dpdk-telemetry.py: the core's
 * (/dfcp/ports, /dfcp/pace, /dfcp/lcores, /dfcp/streams, /dfcp/cmd: the
 * console) and every kind's (eng_task_ops.tel), each answered through the
 * output writer's telemetry backend by one dispatcher.
 */
#include <errno.h>
#include <string.h>

#include <rte_telemetry.h>

#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/console.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "obs/stats.h"

/*
 * The runtime the commands read. DPDK 22.11's telemetry callbacks get no
 * context argument, so this pointer is the engine's one mutable file-scope
 * variable besides the log types and main.c's signal flag; it is set while
 * the runtime is up and cleared before the teardown.
 */
static struct eng_runtime *tel_rt;

static const struct eng_tel_cmd core_first[] = {
	{"/dfcp/ports", "Engine ports and their counters. No parameters", eng_stats_tel_ports},
	{NULL, NULL, NULL},
};

static const struct eng_tel_cmd core_last[] = {
	{"/dfcp/pace", "Paced tasks and flows: configured vs achieved rate, stalls. No parameters",
		eng_pace_tel},
	{"/dfcp/lcores", "Busy/idle TSC cycles and polls per lcore and task. No parameters",
		eng_lcore_tel},
	{"/dfcp/streams", "txonly/rxonly streams: frames, bytes, L2/L1 rates, losses. Optional "
		"parameter: a task name", eng_streams_tel},
	{"/dfcp/cmd", "A console line (obs/console.h), e.g. /dfcp/cmd,set rate tx0 1G; "
		"/dfcp/cmd,help lists them", eng_console_tel},
	{NULL, NULL, NULL},
};

static const struct eng_tel_cmd *
cmd_in(const struct eng_tel_cmd *c, const char *cmd)
{
	for (; c != NULL && c->cmd != NULL; c++)
		if (strcmp(c->cmd, cmd) == 0)
			return c;
	return NULL;
}

/* The command's entry: the core's first, then the kinds' in table order. */
static const struct eng_tel_cmd *
cmd_find(const char *cmd)
{
	const struct eng_tel_cmd *c = cmd_in(core_first, cmd);
	unsigned int k;

	for (k = 0; c == NULL && k < eng_kinds_count(); k++)
		c = cmd_in(eng_kind(k)->tel, cmd);
	return c != NULL ? c : cmd_in(core_last, cmd);
}

const struct eng_tel_cmd *
eng_telemetry_find(const char *cmd)
{
	return cmd_find(cmd);
}

static int
tel_dispatch(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct eng_runtime *rt = __atomic_load_n(&tel_rt, __ATOMIC_ACQUIRE);
	const struct eng_tel_cmd *c = cmd_find(cmd);
	struct eng_out o;
	int rc;

	if (rt == NULL || c == NULL)
		return -EINVAL;
	eng_out_tel(&o, d);
	rc = c->fn(rt, params, &o);
	eng_out_finish(&o);
	return rc;
}

static void
register_all(const struct eng_tel_cmd *c)
{
	int rc;

	for (; c != NULL && c->cmd != NULL; c++) {
		if (cmd_find(c->cmd) != c)
			continue;	/* listed by an earlier kind too */
		rc = rte_telemetry_register_cmd(c->cmd, tel_dispatch, c->help);
		if (rc != 0)
			ENG_LOG(WARNING, main, "telemetry command %s not registered: %s", c->cmd,
					strerror(-rc));
	}
}

int
eng_telemetry_register(struct eng_runtime *rt)
{
	unsigned int k;

	__atomic_store_n(&tel_rt, rt, __ATOMIC_RELEASE);
	register_all(core_first);
	for (k = 0; k < eng_kinds_count(); k++)
		register_all(eng_kind(k)->tel);
	register_all(core_last);
	return 0;
}

void
eng_telemetry_stop(void)
{
	__atomic_store_n(&tel_rt, NULL, __ATOMIC_RELEASE);
}
