/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The scheduler backends of the sched task (`sched = ...`), one table of
 * functions each: lib/sched (sched_be_lib.c: wf2q+, drr, fifo) and DPDK's
 * librte_sched (sched_be_rte.c: rte_sched). Adding one is a file and an
 * entry in eng_sched_backends[] (sched_task.c).
 *
 * A backend instance is owned by the sched task's lcore. Packets are mbufs
 * tagged with their flow id (core/egress.h); the task's admission keeps every
 * flow at or below flow_queue packets and all flows together at or below
 * backlog packets, so a backend refuses a packet only when something is
 * wrong (it is then freed and counted).
 */
#ifndef ENG_SCHED_BE_H
#define ENG_SCHED_BE_H

#include <stddef.h>
#include <stdint.h>

struct rte_mbuf;

struct eng_sched_be_conf {
	const char *algo;	/* the `sched` key */
	const char *task;	/* the task's name (object names) */
	uint32_t max_flows;
	uint32_t flow_queue;	/* packets per flow, at most (queue_cap) */
	uint32_t backlog;	/* packets of all flows together, at most */
	uint32_t quantum;	/* DRR */
	uint32_t overhead;	/* wire bytes per packet beyond pkt_len */
	uint64_t rate_bps;	/* the shaped rate, 0: unshaped */
	int socket;
};

struct eng_sched_be {
	/* 0 if this backend runs scheduler algo */
	int (*check)(const char *algo);
	/* The algorithms it runs, ", "-separated, into buf (messages). */
	void (*names)(char *buf, size_t len);
	/* The packets per flow it holds for c (at most c->flow_queue), before
	 * create; NULL: c->flow_queue (queues sharing one store). */
	uint32_t (*queue_cap)(const struct eng_sched_be_conf *c);
	void *(*create)(const struct eng_sched_be_conf *c);
	/* flow id (< max_flows) attached with its weight (set-up) */
	int (*flow)(void *s, uint32_t id, uint32_t weight);
	/* All flows attached: the first poll, before any packet. 0 or -errno. */
	int (*start)(void *s);
	/* n tagged packets, ids[i] the flow id of pkts[i] (the task read the
	 * tag once, < max_flows); returns how many were queued. The
	 * refused ones are freed; their flows' ids are added to drop[] (one
	 * count each) when the backend knows them. */
	uint32_t (*enqueue)(void *s, struct rte_mbuf **pkts, const uint32_t *ids, uint32_t n,
			uint64_t now, uint64_t *drop);
	/* up to n packets in scheduling order with their flow ids and pkt_len,
	 * stopping once their wire bytes (pkt_len + overhead) add up to
	 * max_bytes or more (UINT64_MAX: unshaped); the mbufs are prefetched
	 * for the transmit that follows. A return below n with fewer than
	 * max_bytes taken: the backend ran empty. */
	uint32_t (*dequeue)(void *s, struct rte_mbuf **pkts, uint32_t *ids, uint32_t *lens,
			uint32_t n, uint64_t max_bytes, uint64_t now);
	const char *(*name)(const void *s);
	/* packets in the backend now */
	uint32_t (*backlog)(const void *s, uint32_t id);
	void (*free)(void *s);
};

extern const struct eng_sched_be eng_sched_be_lib;
extern const struct eng_sched_be eng_sched_be_rte;

#endif /* ENG_SCHED_BE_H */
