/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rte_telemetry commands, read with dpdk-telemetry.py. One table; a later
 * library adds "/dfcp/flows" etc. with one callback and one entry.
 */
#include <errno.h>
#include <string.h>

#include <rte_telemetry.h>

#include "kinds/dfcp/flow.h"
#include "kinds/route/route.h"
#include "obs/obs.h"
#include "obs/stats.h"

static struct eng_runtime *tel_rt;

static int
tel_ports(const char *cmd, const char *params, struct rte_tel_data *d)
{
	unsigned int i;

	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	if (tel_rt == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	for (i = 0; i < tel_rt->cfg->nb_ports; i++) {
		struct rte_tel_data *p = rte_tel_data_alloc();
		struct eng_port_stats s;

		if (p == NULL)
			return -ENOMEM;
		eng_port_stats_read(tel_rt, i, &s);
		rte_tel_data_start_dict(p);
		rte_tel_data_add_dict_u64(p, "port_id", tel_rt->ports[i].port_id);
		rte_tel_data_add_dict_u64(p, "rx_packets", s.rx_packets);
		rte_tel_data_add_dict_u64(p, "tx_packets", s.tx_packets);
		rte_tel_data_add_dict_u64(p, "rx_bytes", s.rx_bytes);
		rte_tel_data_add_dict_u64(p, "tx_bytes", s.tx_bytes);
		rte_tel_data_add_dict_u64(p, "rx_missed", s.rx_missed);
		rte_tel_data_add_dict_u64(p, "rx_errors", s.rx_errors);
		rte_tel_data_add_dict_u64(p, "tx_errors", s.tx_errors);
		rte_tel_data_add_dict_u64(p, "rx_nombuf", s.rx_nombuf);
		rte_tel_data_add_dict_container(d, tel_rt->cfg->ports[i].name, p, 0);
	}
	return 0;
}

/* pipes, queues and sched tasks (stats_route.c) */
static int
tel_pipes(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	return tel_rt == NULL ? -EINVAL : eng_route_tel_pipes(tel_rt, d);
}

static int
tel_sched(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	return tel_rt == NULL ? -EINVAL : eng_route_tel_sched(tel_rt, d);
}

/* busy/idle cycles per lcore and task (stats_lcore.c) */
static int
tel_lcores(const char *cmd, const char *params, struct rte_tel_data *d)
{
	RTE_SET_USED(cmd);
	RTE_SET_USED(params);
	return tel_rt == NULL ? -EINVAL : eng_lcore_tel(tel_rt, d);
}

static const struct {
	const char *cmd;
	telemetry_cb fn;
	const char *help;
} eng_tel_cmds[] = {
	{"/dfcp/ports", tel_ports, "Engine ports and their counters. No parameters"},
	{"/dfcp/flows", eng_flow_telemetry,
			"DFCP flows, counters, block latency. Parameter: a flow name (optional)"},
	{"/dfcp/pipes", tel_pipes, "Emulated pipes, their queues and counters. No parameters"},
	{"/dfcp/sched", tel_sched, "Sched tasks and their flows' counters. No parameters"},
	{"/dfcp/lcores", tel_lcores,
			"Busy/idle TSC cycles and polls per lcore and task. No parameters"},
};

int
eng_telemetry_register(struct eng_runtime *rt)
{
	size_t i;
	int rc;

	tel_rt = rt;
	for (i = 0; i < RTE_DIM(eng_tel_cmds); i++) {
		rc = rte_telemetry_register_cmd(eng_tel_cmds[i].cmd, eng_tel_cmds[i].fn,
				eng_tel_cmds[i].help);
		if (rc != 0)
			ENG_LOG(WARNING, main, "telemetry command %s not registered: %s",
					eng_tel_cmds[i].cmd, strerror(-rc));
	}
	return 0;
}

void
eng_telemetry_stop(void)
{
	tel_rt = NULL;
}
