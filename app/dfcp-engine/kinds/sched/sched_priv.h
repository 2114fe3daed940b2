/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The sched task's private state (sched_task.c), shared with its counters
 * (sched_stats.c), and the per-flow limit (eng_sched_limit_update, eng_sched_publish).
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

/* A flow, as the sched task's lcore counts it; what the data path touches
 * is in the first cache line. */
struct eng_sched_flow {
	uint64_t tx_pkts, tx_bytes;     /* sent in scheduling order */
	uint64_t enq_pkts, enq_bytes;   /* taken from the ring */
	uint64_t drops_seen;            /* drops[id] as the last classify saw it */
	uint64_t done_pub;              /* tx_pkts + drops_seen at the last publication in done[] */
	uint32_t qlen;                  /* in the backend now */
	uint32_t pub_step;              /* publish once this many more have left: 1/4 of the
	                                 * limit published last, so never more than that limit */
	uint32_t qlen_peak;             /* most in the backend at once */
	uint32_t weight;
	uint64_t run_tx_pkts, run_tx_bytes; /* at the end of the run phase */
} __rte_cache_aligned;

struct eng_sched_priv {
	const struct eng_sched_be *be;
	void *bs;                /* the backend's instance */
	struct pace *pace;       /* NULL: unshaped */
	struct eng_clock clk;    /* the runtime clock */
	uint16_t port_id, txq;
	int started;             /* backend started (1), failed (-1) */
	uint32_t nb_flows, max_flows, overhead, nb_ins, max_ins, ring_size;
	/* The shared backlog (doc/scheduler.md, "Per-flow backlog"): the backend
	 * holds at most `budget` packets (the classify gate); a flow may have
	 * flow_limit packets in its ring and the backend together (the limit
	 * for the flows in flight, eng_sched_limit_update). */
	uint32_t budget;         /* backlog_budget, at most max_flows x flow_queue */
	uint32_t flow_queue;     /* the per-flow cap: the producers' handles' limit */
	uint32_t flow_min;       /* the limit however many flows are backlogged */
	uint32_t flow_limit;     /* the limit now, published with each flow's done[] */
	uint32_t active;         /* flows with packets in the backend */
	uint32_t ring_pkts;      /* packets left in the producer rings by the last drain */
	uint32_t win_cur, win_prev; /* most active + ring_pkts in this and the last window */
	uint32_t flows_seen;     /* what flow_limit was computed for */
	uint64_t win_end;        /* ns: the end of this window */
	uint32_t backlog;        /* packets in the backend, all flows: <= budget */
	uint32_t backlog_peak;   /* most at once */
	uint32_t in_first;       /* the producer ring drained first this poll */
	uint64_t rate_bps;
	uint64_t tx_pkts, tx_bytes, tx_retries, bad_flow;
	uint64_t be_drops;       /* refused by the backend (any flow) */
	int run_over;            /* run-phase counters taken */
	uint16_t pend_n, pend_off;
	struct rte_mbuf *pend[SCH_MAX_BURST];
	struct eng_sched_in *ins;          /* [max_ins] */
	struct eng_egress_flow *txh;          /* [max_flows], the producers' */
	uint64_t *drops;                   /* [max_flows], refused by the backend */
	uint64_t *done;                    /* [max_flows], what left the flow's limit, less
	                                    * flow_queue - flow_limit (eng_sched_publish) */
	char (*names)[ENG_NAME_LEN];       /* [max_flows] */
	struct eng_sched_flow flows[];
};

/*
 * A flow's limit (packets in its ring and the scheduler) while n flows may
 * have packets in flight: the budget shared out among them, within
 * flow_min .. flow_queue, like Linux fq's flow_limit under its global limit
 * but following the flows present rather than max_flows.
 */
static inline uint32_t
eng_sched_limit(const struct eng_sched_priv *p, uint32_t n)
{
	uint32_t l = p->budget / (n != 0 ? n : 1);

	return RTE_MAX(p->flow_min, RTE_MIN(p->flow_queue, l));
}

#define SCH_LIMIT_WINDOW_NS 100000000ull /* the limit grows after 1..2 of these */

/*
 * Once a poll, before the dequeue publishes: the flows in flight are at most
 * those with packets in the scheduler plus one per packet waiting in the
 * rings, and at most the flows attached (a flow whose packets are all in a
 * ring is not active, and the rings fill when the budget gate closes:
 * counting them keeps the sum of the limits within the budget instead of
 * raising it). Its most over this window and the last sets the limit: a
 * flow leaving the scheduler for a moment does not raise the others'
 * limits, more flows lower them at once, and until the first window ends
 * every flow counts (no start-up overshoot). One division when that count
 * changed. A window of 100 ms outlasts a producer's lcore descheduled for
 * a while: limits raised then would outlive the pause by the time their
 * flows take to drain, the rings waiting at the budget meanwhile.
 */
static inline void
eng_sched_limit_update(struct eng_sched_priv *p, uint64_t now)
{
	uint32_t n = RTE_MIN(p->active + p->ring_pkts, p->nb_flows);

	if (unlikely(now >= p->win_end)) {
		p->win_prev = p->win_cur;
		p->win_cur = 0;
		p->win_end = now + SCH_LIMIT_WINDOW_NS;
	}
	if (n > p->win_cur)
		p->win_cur = n;
	n = RTE_MAX(p->win_cur, p->win_prev);
	if (n != p->flows_seen) {
		p->flows_seen = n;
		p->flow_limit = eng_sched_limit(p, n);
	}
}

/*
 * Tell flow id's producer that `out` of its packets have left (sent or
 * refused by the backend) and that its limit is flow_limit. The producer's
 * handle holds the cap (limit = flow_queue) and admits while sent - done[id]
 * < flow_queue; done[id] = out - (flow_queue - flow_limit) makes that sent
 * - out < flow_limit (modular: done[] may start below 0). The next
 * publication comes after a quarter of this limit has left, so a drained
 * flow looks at most that much too full, never full.
 */
static inline void
eng_sched_publish(struct eng_sched_priv *p, struct eng_sched_flow *fl, uint32_t id, uint64_t out)
{
	uint32_t lim = p->flow_limit;

	fl->done_pub = out;
	fl->pub_step = lim >= 4 ? lim / 4 : 1;
	__atomic_store_n(&p->done[id], out - (p->flow_queue - lim), __ATOMIC_RELEASE);
}

#endif /* ENG_SCHED_PRIV_H */
