/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pktsched.h: lib/sched, packet schedulers over many queues (WF2Q+, DRR,
 * FIFO) behind one interface. (Not "sched.h": that would shadow libc's
 * <sched.h> for every file built with this include path.)
 *
 * No DPDK dependency. A packet is an opaque 64-bit handle (cast an mbuf
 * pointer to uintptr_t), a length in bytes and the time of the call in ns;
 * the library never looks inside a packet. Every queue has drop-tail limits
 * in packets and/or bytes and its own counters. Instances are not shared
 * between threads (one scheduler lcore owns one instance).
 *
 * Data path (sched_enqueue, sched_dequeue_burst): integer arithmetic only,
 * no allocation, O(log N) per packet for WF2Q+, O(1) for DRR and FIFO.
 *
 * Weights: integers 1 .. SCHED_WEIGHT_MAX (2^20). Lengths: 1 .. SCHED_LEN_MAX.
 * Queues per instance: 1 .. SCHED_MAX_QUEUES (2^22).
 *
 * Error codes: -EINVAL bad parameter, -ENOBUFS packet dropped (queue limit or
 * packet pool full; counted as a drop of that queue; the caller still owns
 * and frees the packet), -ENOMEM allocation failed (constructor only),
 * -ENOENT unknown scheduler name.
 */
#ifndef PKTSCHED_H
#define PKTSCHED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SCHED_WEIGHT_MAX	(1u << 20)
#define SCHED_LEN_MAX		65535u
#define SCHED_MAX_QUEUES	(1u << 22)
#define SCHED_DEFAULT_QUANTUM	1518u	/* DRR bytes per round per unit weight */

struct sched;

struct sched_conf {
	const char *algo;	/* "wf2q+" (NULL = default), "drr", "fifo" */
	uint32_t nb_queues;	/* queues 0 .. nb_queues-1, all weight 1 */
	uint32_t pool_pkts;	/* packets held at once over all queues;
				 * 0 = 64 per queue */
	uint32_t limit_pkts;	/* default per-queue limit, 0 = pool only */
	uint64_t limit_bytes;	/* default per-queue byte limit, 0 = none */
	uint32_t quantum;	/* DRR: bytes per round per unit weight;
				 * 0 = SCHED_DEFAULT_QUANTUM */
};

/* One dequeued packet. */
struct sched_pkt {
	uint64_t pkt;		/* the handle given to sched_enqueue */
	uint32_t len;
	uint32_t queue;
};

struct sched_qstats {
	uint64_t enq_pkts, enq_bytes;	/* accepted */
	uint64_t deq_pkts, deq_bytes;	/* served */
	uint64_t drop_pkts, drop_bytes;	/* refused by drop-tail */
	uint32_t qlen_pkts;		/* occupancy now */
	uint32_t weight;
	uint64_t qlen_bytes;
};

/* The i-th built-in scheduler's name (0: the default), NULL past the end. */
const char *sched_algo_name(unsigned int i);
/* Their names into buf ("wf2q+, drr, fifo"; last_sep, e.g. " or ", before the
 * last one when not NULL). 0, or -ENOSPC (buf cut). */
int sched_algo_list(char *buf, size_t len, const char *last_sep);
/* 0 if name is a known scheduler, -ENOENT otherwise. */
int sched_algo_check(const char *name);

struct sched *sched_create(const struct sched_conf *conf);
void sched_free(struct sched *s);
const char *sched_algo(const struct sched *s);
uint32_t sched_nb_queues(const struct sched *s);

/*
 * Weight (1..SCHED_WEIGHT_MAX) and drop-tail limits (0 = none) of queue q.
 * May be called at any time; a new weight applies from the next packet
 * the queue sends.
 */
int sched_queue_set(struct sched *s, uint32_t q, uint32_t weight,
		uint32_t limit_pkts, uint64_t limit_bytes);

/*
 * Append a packet to queue q at time now (ns). 0 on success, -ENOBUFS when
 * drop-tail refused it (counted; the caller frees the packet), -EINVAL for
 * a bad queue or length.
 */
int sched_enqueue(struct sched *s, uint32_t q, uint64_t pkt, uint32_t len,
		uint64_t now);

/*
 * sched_enqueue of pkts[i].pkt, .len to queue pkts[i].queue for i = 0..n-1,
 * in order, at time now; returns the count queued, k. The n - k refused
 * packets (drop-tail, bad queue or length: counted as sched_enqueue does)
 * are moved, in order, to pkts[0 .. n-k) for the caller to free.
 */
unsigned int sched_enqueue_burst(struct sched *s, struct sched_pkt *pkts,
		unsigned int n, uint64_t now);

/*
 * Take up to n packets in scheduling order; returns the count. Call it when
 * the link can take packets: a call that finds nothing queued marks the end
 * of a busy period (WF2Q+ then forgets the finish tags of idle queues, as
 * the fluid reference system has drained too).
 */
unsigned int sched_dequeue_burst(struct sched *s, struct sched_pkt *out,
		unsigned int n, uint64_t now);

/*
 * As sched_dequeue_burst, but stop as soon as the packets taken add up to
 * max_bytes or more (their len as given to sched_enqueue; the last one may
 * go past it): the same packets, in the same order, as sched_dequeue_burst
 * with n = the count returned. For a shaper: max_bytes = the byte budget.
 * max_bytes 0 takes nothing and tells the scheduler nothing. A return
 * below n with fewer than max_bytes taken means the scheduler ran empty.
 */
unsigned int sched_dequeue_bytes(struct sched *s, struct sched_pkt *out,
		unsigned int n, uint64_t max_bytes, uint64_t now);

/*
 * Tell the scheduler the rate of the link it feeds (bit/s) and the bytes of
 * per-packet overhead the link spends beyond len (framing; 0 = none), so
 * that WF2Q+ tracks the fluid GPS reference in real time: arrivals are
 * tagged with the GPS virtual time at their `now`, and a dequeue is taken
 * to happen at max(now, the end of the previous packet's transmission).
 * rate_bps 0 (the default) = rate unknown: the fluid reference is then
 * advanced by the bytes dequeued, and an arrival is tagged with the virtual
 * time of the last dequeue. Overhead counts as service in both cases.
 * Call it while the scheduler is empty. 0, or -EINVAL. DRR and FIFO
 * ignore it.
 */
int sched_set_rate(struct sched *s, uint64_t rate_bps, uint32_t overhead);

/* Packets and bytes queued over all queues. */
uint32_t sched_backlog_pkts(const struct sched *s);
uint64_t sched_backlog_bytes(const struct sched *s);

int sched_queue_stats(const struct sched *s, uint32_t q,
		struct sched_qstats *st);

/*
 * Jain's fairness index (sum x)^2 / (n * sum x^2) over n values; for
 * weighted queues pass x_i = service_i / weight_i. 1.0 for n == 0.
 * Floating point: statistics path only.
 */
double sched_jain(const double *x, unsigned int n);

#ifdef __cplusplus
}
#endif

#endif /* PKTSCHED_H */
