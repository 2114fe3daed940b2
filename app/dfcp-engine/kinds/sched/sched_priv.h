/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sched task's private state (sched_task.c), shared with its counters
 * (sched_stats.c).
 */
#ifndef ENG_SCHED_PRIV_H
#define ENG_SCHED_PRIV_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/clock.h"
#include "core/egress.h"
#include "kinds/sched/sched_be.h"

#define SCH_MAX_BURST 512

/* A producer task's ring. */
struct eng_sched_in {
	struct rte_ring *ring;
	const struct eng_task *prod;
};

/* A flow, as the sched task's lcore counts it. */
struct eng_sched_flow {
	uint64_t tx_pkts, tx_bytes;     /* sent in scheduling order */
	uint64_t enq_pkts, enq_bytes;   /* taken from the ring */
	uint64_t run_tx_pkts, run_tx_bytes; /* at the end of the run phase */
	uint64_t drops_seen;            /* drops[id] as the last classify saw it */
	uint64_t done_pub;              /* tx_pkts + drops_seen last published in done[] */
	uint32_t weight;
} __rte_cache_aligned;

struct eng_sched_priv {
	const struct eng_sched_be *be;
	void *bs;                /* the backend's instance */
	struct pace *pace;       /* NULL: unshaped */
	struct eng_clock clk;    /* the runtime clock */
	uint16_t port_id, txq;
	int started;             /* backend started (1), failed (-1) */
	uint32_t nb_flows, max_flows, flow_queue, overhead, nb_ins, max_ins, ring_size;
	uint64_t rate_bps;
	uint64_t tx_pkts, tx_bytes, tx_retries, bad_flow;
	uint64_t be_drops;       /* refused by the backend (any flow) */
	int run_over;            /* run-phase counters taken */
	uint16_t pend_n, pend_off;
	struct rte_mbuf *pend[SCH_MAX_BURST];
	struct eng_sched_in *ins;          /* [max_ins] */
	struct eng_egress_flow *txh;          /* [max_flows], the producers' */
	uint64_t *drops;                   /* [max_flows], refused by the backend */
	uint64_t *done;                    /* [max_flows], tx_pkts + drops: what left the flow's limit */
	uint32_t done_step;                /* published every done_step packets */
	char (*names)[ENG_NAME_LEN];       /* [max_flows] */
	struct eng_sched_flow flows[];
};

#endif /* ENG_SCHED_PRIV_H */
