/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The producer side of the sched task's hand-off (doc/scheduler.md,
 * "Hand-off"). One SPSC ring per producer task carries the mbufs of all its
 * flows, each tagged with its flow id in the mbuf's first cache line
 * (`hash.usr`, as rte_sched keeps its tree path in `hash.sched`; a dynfield
 * is in the second line, which the producer would then take over from the
 * sched lcore once per packet); the sched task classifies them into its
 * per-flow queues. Per-flow back-pressure stays at
 * the producer: a flow may have at most `limit` packets in the ring and the
 * scheduler together; the producer counts what it sent, the sched task
 * what it sent on (tx_pkts, read here only when the flow looks full), and a
 * packet over the limit is refused here and counted in the flow's
 * `refused`. The sched task publishes `done` (sent on + refused by its
 * backend) every quarter of the limit (a
 * flow that drained shows at most that much too full, never full), so the
 * cache line bounces between the lcores once per limit/4 packets of a flow,
 * not once per packet. The cost per packet does not depend on the number of
 * flows.
 *
 * A handle is written by its producer's lcore only (its own cache line);
 * the sched task reads `refused` for its counters.
 */
#ifndef ENG_SCHED_TX_H
#define ENG_SCHED_TX_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

/* A flow's handle on its producer (eng_sched_attach). */
struct eng_sched_tx {
	struct rte_ring *ring;		/* the producer task's ring */
	const uint64_t *done;		/* the flow's packets the sched task took out */
	uint32_t id;			/* the flow's queue in the scheduler */
	uint32_t limit;			/* flow_queue: in the ring + in the scheduler */
	uint64_t sent;			/* handed to the ring */
	uint64_t done_seen;		/* *done when last read */
	uint64_t refused;		/* refused: the flow over its limit or the ring full */
} __rte_cache_aligned;

/* The flow id an mbuf carries from its producer to the sched task. */
static inline uint32_t
eng_sched_flow_get(const struct rte_mbuf *m)
{
	return m->hash.usr;
}

static inline void
eng_sched_flow_set(struct rte_mbuf *m, uint32_t id)
{
	m->hash.usr = id;
}

/* Packets flow f may still hand over (at most want). */
static inline uint32_t
eng_sched_room(struct eng_sched_tx *f, uint32_t want)
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
eng_sched_tx_burst(struct eng_sched_tx *f, struct rte_mbuf **pkts, uint16_t n)
{
	uint32_t k = eng_sched_room(f, n), free = rte_ring_free_count(f->ring), i;

	if (k > free)
		k = free; /* single producer: all of them fit */
	for (i = 0; i < k; i++)
		eng_sched_flow_set(pkts[i], f->id);
	if (k != 0)
		k = rte_ring_sp_enqueue_burst(f->ring, (void **)pkts, k, NULL);
	f->sent += k;
	f->refused += n - k;
	return (uint16_t)k;
}

/* 1: the producer's ring is full: it refuses every flow of the producer,
 * not only this one. */
static inline int
eng_sched_ring_full(const struct eng_sched_tx *f)
{
	return rte_ring_free_count(f->ring) == 0;
}

/*
 * Several flows of one producer (they share one ring), packet by packet:
 * eng_sched_admit() says whether flow f may hand one more packet over (and
 * counts it as sent, or as refused); eng_sched_tag() marks an admitted
 * packet; eng_sched_push() hands the admitted packets over in one burst.
 * Admit at most eng_sched_ring_room() packets per push.
 */
static inline uint32_t
eng_sched_ring_room(const struct eng_sched_tx *f)
{
	return rte_ring_free_count(f->ring);
}

static inline int
eng_sched_admit(struct eng_sched_tx *f)
{
	if (eng_sched_room(f, 1) == 0) {
		f->refused++;
		return 0;
	}
	f->sent++;
	return 1;
}

static inline void
eng_sched_tag(const struct eng_sched_tx *f, struct rte_mbuf *m)
{
	eng_sched_flow_set(m, f->id);
}

static inline void
eng_sched_push(const struct eng_sched_tx *f, struct rte_mbuf **pkts, uint32_t n)
{
	if (n != 0)
		rte_ring_sp_enqueue_burst(f->ring, (void **)pkts, n, NULL);
}

#endif /* ENG_SCHED_TX_H */
