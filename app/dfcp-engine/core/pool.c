/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mbuf pools: one per NUMA socket that has ports, created on that socket.
 * The mempool driver is `[engine] mbuf_pool_ops`; `auto` takes DPDK's
 * `stack` (LIFO: the mbufs freed last are handed out first, so a
 * pipeline's frames cycle through a working set as large as what is in
 * flight instead of the whole pool, as the FIFO ring driver does: fewer
 * cache and TLB misses, doc/performance.md) and the platform's default
 * (rte_mbuf_best_mempool_ops) where stack is not built in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_mbuf_pool_ops.h>
#include <rte_mempool.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"

#define POOL_OPS_AUTO	"stack"

static int
ops_known(const char *name)
{
	unsigned int i;

	for (i = 0; i < rte_mempool_ops_table.num_ops; i++)
		if (strcmp(rte_mempool_ops_table.ops[i].name, name) == 0)
			return 1;
	return 0;
}

/* The mempool driver the config names (auto: stack if built in); NULL if unknown. */
static const char *
pool_ops(const struct eng_config *cfg)
{
	unsigned int i;
	size_t off = 0;
	char list[256] = "";

	if (strcmp(cfg->mbuf_pool_ops, "auto") == 0)
		return ops_known(POOL_OPS_AUTO) ? POOL_OPS_AUTO : rte_mbuf_best_mempool_ops();
	if (ops_known(cfg->mbuf_pool_ops))
		return cfg->mbuf_pool_ops;
	for (i = 0; i < rte_mempool_ops_table.num_ops && off < sizeof(list); i++)
		off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s", i ? ", " : "",
				rte_mempool_ops_table.ops[i].name);
	ENG_LOG(ERR, main, "[engine] mbuf_pool_ops: '%s' is not a mempool driver of this "
			"DPDK (registered: %s; or auto)", cfg->mbuf_pool_ops, list);
	return NULL;
}

int
eng_pools_create(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	uint64_t need[RTE_MAX_NUMA_NODES] = {0};
	const char *ops = pool_ops(cfg);
	unsigned int i, s;

	if (ops == NULL)
		return -EINVAL;

	for (i = 0; i < cfg->nb_ports; i++) {
		const struct eng_port_conf *pc = &cfg->ports[i];

		s = (unsigned int)rt->ports[i].socket;
		need[s] += (uint64_t)pc->rx_queues * pc->rx_desc + (uint64_t)pc->tx_queues * pc->tx_desc;
		/* ring ports: packets can also sit in the peer's rx ring */
		need[s] += (uint64_t)pc->rx_queues * pc->rx_desc;
	}
	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];

		/* what the task may hold at once: two bursts unless it says more */
		need[t->nb_ports ? rt->ports[t->ports[0].port_idx].socket : 0] +=
				t->ops->pool_need != NULL ? t->ops->pool_need(t, cfg) :
				2ull * t->burst;
	}
	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		char name[RTE_MEMPOOL_NAMESIZE];
		uint64_t n;

		if (need[s] == 0)
			continue;
		n = need[s] + (uint64_t)rte_lcore_count() * cfg->mbuf_cache * 2 + 1024;
		if (cfg->mbufs != 0)
			n = cfg->mbufs;
		snprintf(name, sizeof(name), "eng_pool_s%u", s);
		rt->pools[s] = rte_pktmbuf_pool_create_by_ops(name, (unsigned int)n, cfg->mbuf_cache,
				0, (uint16_t)cfg->mbuf_data_size, (int)s, ops);
		if (rt->pools[s] == NULL) {
			ENG_LOG(ERR, main, "cannot create mbuf pool %s (%" PRIu64 " mbufs of %u B on "
					"socket %u, mempool driver %s): %s",
					name, n, cfg->mbuf_data_size, s, ops, rte_strerror(rte_errno));
			return -ENOMEM;
		}
		ENG_LOG(INFO, main, "mbuf pool %s: %" PRIu64 " mbufs on socket %u (mempool driver %s)",
				name, n, s, ops);
	}
	for (i = 0; i < cfg->nb_ports; i++)
		rt->ports[i].pool = rt->pools[rt->ports[i].socket];
	return 0;
}

void
eng_pools_free(struct eng_runtime *rt)
{
	unsigned int s;

	for (s = 0; s < RTE_MAX_NUMA_NODES; s++) {
		rte_mempool_free(rt->pools[s]);
		rt->pools[s] = NULL;
	}
}
