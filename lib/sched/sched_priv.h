/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched internals shared by the generic layer and the schedulers.
 *
 * Adding a scheduler: write sched_<name>.c defining a `struct sched_ops`,
 * add its line to the table in sched.c and its file to meson.build.
 */
#ifndef SCHED_PRIV_H
#define SCHED_PRIV_H

#include <stdint.h>

#include "pktsched.h"

#define SCHED_NIL	UINT32_MAX

/*
 * A queued packet: one slot of the shared pool, linked per queue. Lengths
 * fit in 16 bits (SCHED_LEN_MAX); the upper 16 bits of len belong to the
 * scheduler (WF2Q+ keeps a tag-slot reference there) and are masked off by
 * sched_pop() and sched_head_len().
 */
struct sched_node {
	uint64_t pkt;
	uint32_t len;
	uint32_t next;
};

#define SCHED_LEN_MASK	0xffffu
#define SCHED_MARK_SHIFT	16

/*
 * Hot per-queue state: one cache line. Limits are stored as effective
 * bounds (0 = none becomes the type's maximum), so the enqueue check has
 * no special case; the enqueued counters are deq + current occupancy.
 */
struct sched_queue {
	uint32_t head, tail;
	uint32_t npkts, lim_pkts;
	uint64_t nbytes, lim_bytes;
	uint64_t deq_pkts, deq_bytes;
} __attribute__((aligned(64)));

static inline uint32_t
sched_lim_pkts(uint32_t limit)
{
	return limit ? limit : UINT32_MAX;
}

static inline uint64_t
sched_lim_bytes(uint64_t limit)
{
	return limit ? limit : UINT64_MAX;
}

/* Cold per-queue state. */
struct sched_qcold {
	uint64_t drop_pkts, drop_bytes;
	uint32_t weight;
	uint32_t pad;
};

struct sched_ops {
	const char *name;
	/* Bytes of private state for this configuration. */
	size_t (*priv_size)(const struct sched_conf *c);
	/* Initialise s->priv (zeroed, priv_size bytes). 0 or -errno. */
	int (*init)(struct sched *s);
	void (*fini)(struct sched *s);
	/* Packet appended to queue q; was_empty: q had no packet before.
	 * Returns 0 (so that sched_enqueue ends in a tail call). */
	int (*arrive)(struct sched *s, uint32_t q, uint32_t len, int was_empty,
			uint64_t now);
	/* Serve up to n packets with sched_pop(), stopping once their lens
	 * add up to max_bytes or more; returns the count. */
	unsigned int (*dequeue)(struct sched *s, struct sched_pkt *out,
			unsigned int n, uint64_t max_bytes, uint64_t now);
	/* Weight of q changes (called before cold[q].weight is updated). */
	void (*set_weight)(struct sched *s, uint32_t q, uint32_t w);
	/* Link rate (bit/s, 0 = unknown) and per-packet overhead; optional. */
	int (*set_rate)(struct sched *s, uint64_t rate_bps, uint32_t overhead);
};

struct sched {
	const struct sched_ops *ops;
	void *priv;
	struct sched_queue *q;
	struct sched_qcold *cold;
	struct sched_node *node;
	uint32_t free_head;
	uint32_t nb_queues;
	uint32_t pool_pkts;
	uint32_t backlog_pkts;
	uint64_t backlog_bytes;
	struct sched_conf conf;
};


/* Length of the head packet of queue q (which must not be empty). */
static inline uint32_t
sched_head_len(const struct sched *s, uint32_t q)
{
	return s->node[s->q[q].head].len & SCHED_LEN_MASK;
}

/*
 * Remove the head packet of queue q (not empty) into *out; returns the
 * number of packets left in q.
 */
static inline uint32_t
sched_pop(struct sched *s, uint32_t q, struct sched_pkt *out)
{
	struct sched_queue *sq = &s->q[q];
	uint32_t i = sq->head;
	struct sched_node *nd = &s->node[i];
	uint32_t len = nd->len & SCHED_LEN_MASK;

	out->pkt = nd->pkt;
	out->len = len;
	out->queue = q;
	sq->head = nd->next;
	nd->next = s->free_head;
	s->free_head = i;
	sq->npkts--;
	sq->nbytes -= len;
	sq->deq_pkts++;
	sq->deq_bytes += len;
	s->backlog_pkts--;
	s->backlog_bytes -= len;
	if (sq->npkts == 0)
		sq->tail = SCHED_NIL;
	return sq->npkts;
}

#endif /* SCHED_PRIV_H */
