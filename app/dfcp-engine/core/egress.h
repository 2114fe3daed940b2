/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one transmit path of every task (egress.c).
 *
 * To a port: eng_port_tx(), rte_eth_tx_burst() unless the port has a tx hook
 * (a tx [capture] sets one at set-up, before the lcores run).
 *
 * To an egress task (a task whose ops have egress_attach, such as the sched
 * task): one SPSC ring per producer task carries the mbufs of all its flows,
 * each tagged with its flow id in the mbuf's first cache line (`hash.usr`, as
 * rte_sched keeps its tree path in `hash.sched`; a dynfield is in the second
 * line, which the producer would then take over from the egress lcore once
 * per packet). Per-flow back-pressure stays at the producer: a flow may have
 * at most `limit` packets in the ring and the egress task together; the
 * producer counts what it sent, the egress task what it took out (`done`,
 * read here only when the flow looks full), and a packet over the limit is
 * refused here and counted in the flow's `refused`. The egress task publishes
 * `done` every quarter of the limit (a flow that drained shows at most that
 * much too full, never full), so the cache line bounces between the lcores
 * once per limit/4 packets of a flow, not once per packet. The cost per
 * packet does not depend on the number of flows. A handle is written by its
 * producer's lcore only (its own cache line).
 */
#ifndef ENG_EGRESS_H
#define ENG_EGRESS_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

struct eng_runtime;
struct eng_task;

/* A port's tx hook: sends (or keeps) n frames, returns how many the queue took. */
typedef uint16_t (*eng_egress_tx_fn)(void *ctx, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n);

struct eng_egress_hook {
	eng_egress_tx_fn tx;	/* NULL: rte_eth_tx_burst() */
	void *ctx;
};

extern struct eng_egress_hook eng_egress_hooks[RTE_MAX_ETHPORTS];

/* Set (fn NULL: clear) port's tx hook; set-up and close only, lcores stopped. */
void eng_egress_hook_set(uint16_t port, eng_egress_tx_fn fn, void *ctx);

static inline uint16_t
eng_port_tx(uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	const struct eng_egress_hook *h = &eng_egress_hooks[port];

	if (likely(h->tx == NULL))
		return rte_eth_tx_burst(port, queue, pkts, n);
	return h->tx(h->ctx, port, queue, pkts, n);
}

/*
 * Attach a flow of task PRODUCER to the egress task named EGRESS during
 * set-up (from the producer's setup(), any task order): the flow's handle for
 * eng_egress_tx_burst() and eng_egress_admit() (used on the producer's lcore
 * only; the egress task owns the producer's ring and frees mbufs left in it at
 * teardown) and its id in *flow_id, or NULL with the reason logged. EGRESS
 * may name a task spread over several lcores (its tasks EGRESS.i, shards):
 * a producer spread over as many feeds shard i from its task i, any other
 * flow the shard its name hashes to (FNV-1a, scaled to the shards).
 */
struct eng_egress_flow *eng_egress_attach(struct eng_runtime *rt, const struct eng_task *producer,
		const char *egress, const char *flow_name, uint32_t weight, uint32_t *flow_id);

/* A flow's handle on its producer (eng_egress_attach). */
struct eng_egress_flow {
	struct rte_ring *ring;		/* the producer task's ring */
	const uint64_t *done;		/* the flow's packets the egress task took out */
	uint32_t id;			/* the flow's queue in the scheduler */
	uint32_t limit;			/* flow_queue: in the ring + in the scheduler */
	uint64_t sent;			/* handed to the ring */
	uint64_t done_seen;		/* *done when last read */
	uint64_t refused;		/* refused: the flow over its limit or the ring full */
} __rte_cache_aligned;

/* The flow id an mbuf carries from its producer to the egress task. */
static inline uint32_t
eng_egress_flow_id(const struct rte_mbuf *m)
{
	return m->hash.usr;
}

static inline void
eng_egress_flow_id_set(struct rte_mbuf *m, uint32_t id)
{
	m->hash.usr = id;
}

/* Packets flow f may still hand over (at most want). */
static inline uint32_t
eng_egress_room(struct eng_egress_flow *f, uint32_t want)
{
	uint64_t inq = f->sent - f->done_seen;

	if (inq + want > f->limit) {
		f->done_seen = __atomic_load_n(f->done, __ATOMIC_ACQUIRE);
		inq = f->sent - f->done_seen;
	}
	if (inq >= f->limit)
		return 0;
	return f->limit - inq < want ? (uint32_t)(f->limit - inq) : want;
}

/* Hand n packets of flow f over; returns how many were taken (the first
 * ones; the caller owns the rest, counted in f->refused). */
static inline uint16_t
eng_egress_tx_burst(struct eng_egress_flow *f, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t k = eng_egress_room(f, n), free = rte_ring_free_count(f->ring), i;

	if (k > free)
		k = free; /* single producer: all of them fit */
	for (i = 0; i < k; i++)
		eng_egress_flow_id_set(pkts[i], f->id);
	if (k != 0)
		k = rte_ring_sp_enqueue_burst(f->ring, (void **)pkts, k, NULL);
	f->sent += k;
	f->refused += n - k;
	return (uint16_t)k;
}

/* 1: the producer's ring is full: it refuses every flow of the producer,
 * not only this one. */
static inline int
eng_egress_ring_full(const struct eng_egress_flow *f)
{
	return rte_ring_free_count(f->ring) == 0;
}

/*
 * Several flows of one producer (they share one ring), packet by packet:
 * eng_egress_admit() says whether flow f may hand one more packet over (and
 * counts it as sent, or as refused); eng_egress_tag() marks an admitted
 * packet; eng_egress_push() hands the admitted packets over in one burst.
 * Admit at most eng_egress_ring_room() packets per push.
 */
static inline uint32_t
eng_egress_ring_room(const struct eng_egress_flow *f)
{
	return rte_ring_free_count(f->ring);
}

static inline int
eng_egress_admit(struct eng_egress_flow *f)
{
	if (eng_egress_room(f, 1) == 0) {
		f->refused++;
		return 0;
	}
	f->sent++;
	return 1;
}

static inline void
eng_egress_tag(const struct eng_egress_flow *f, struct rte_mbuf *m)
{
	eng_egress_flow_id_set(m, f->id);
}

static inline void
eng_egress_push(const struct eng_egress_flow *f, struct rte_mbuf **pkts, uint32_t n)
{
	if (n != 0)
		rte_ring_sp_enqueue_burst(f->ring, (void **)pkts, n, NULL);
}

#endif /* ENG_EGRESS_H */
