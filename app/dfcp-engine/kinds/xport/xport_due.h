/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * When a transport task's endpoints want the lcore (xport_due.c), so that a
 * poll costs what the endpoints with something to do cost, not what all of
 * them do (issue 13: at 4096 flows the walk over every endpoint each poll
 * took half of the senders' lcore):
 *
 *   eng_due    a min-heap of endpoint deadlines (the protocol's next timer
 *              or the pacer's next departure), indexed by endpoint, with
 *              each endpoint's place kept so that moving or removing a
 *              deadline is O(log n); the endpoints due at now come out
 *              earliest first;
 *   ready      (eng_due_ready_*) the endpoints to run in the next poll
 *              (something received, pending frames, a tick, due), each
 *              at most once;
 *   stuck      (eng_xport_stuck) whether pending frames that a queue keeps
 *              refusing are back-pressure (the task's egress still moves:
 *              keep them) or a dead link (nothing of the task's left for
 *              ENG_XPORT_STUCK_NS: drop them, so that the protocol's
 *              timers run again).
 *
 * No DPDK, times in ns given by the caller; allocation only in
 * eng_due_init. Unit-tested against the plain walk it replaced
 * (eng_due_walk_ref, kept beside it) in test/engine/test_xport_due.c.
 */
#ifndef ENG_XPORT_DUE_H
#define ENG_XPORT_DUE_H

#include <stdint.h>

#define ENG_DUE_NONE		UINT32_MAX	/* pos[]: not in the heap */
/* Pending frames refused this long while nothing of the task's egress
 * moved either: a dead link, dropped. */
#define ENG_XPORT_STUCK_NS	500000000ull
/* Refused this long while the egress moves (others' frames leave): dropped
 * all the same (a queue that never serves this flow). */
#define ENG_XPORT_STUCK_MAX_NS	5000000000ull
/* The stuck times count the task's running time (eng_xport_active): a gap
 * between two polls counts at most this much (the lcore descheduled, or the
 * lcore's other tasks: not a dead link). */
#define ENG_XPORT_GAP_MAX_NS	1000000ull

struct eng_due {
	unsigned int n, cap;
	uint32_t *heap;		/* [cap] endpoint ids, a binary min-heap on key[] */
	uint32_t *pos;		/* [cap] id -> place in heap, ENG_DUE_NONE */
	uint64_t *key;		/* [cap] id -> deadline (valid while in the heap) */
	/* the ready list: ids to run in the next poll */
	unsigned int nready;
	uint32_t *ready;	/* [cap] */
	uint8_t *queued;	/* [cap] id is in ready[] */
};

/* For ids 0 .. cap - 1: 0 or -ENOMEM (eng_due_free cleans up either way). */
int eng_due_init(struct eng_due *d, unsigned int cap);
void eng_due_free(struct eng_due *d);
/* id's deadline is t (inserted, or moved when it had one). */
void eng_due_set(struct eng_due *d, uint32_t id, uint64_t t);
/* id has no deadline (nothing when it had none). */
void eng_due_del(struct eng_due *d, uint32_t id);
/* The earliest deadline, UINT64_MAX when none. */
uint64_t eng_due_min(const struct eng_due *d);
/* Take out one id whose deadline is <= now, the earliest first: 1, or 0
 * when none is due. */
int eng_due_pop(struct eng_due *d, uint64_t now, uint32_t *id);

/* id into the ready list (its deadline removed); nothing when it is there. */
void eng_due_wake(struct eng_due *d, uint32_t id);
/* Every id due at now into the ready list; returns how many came. */
unsigned int eng_due_wake_due(struct eng_due *d, uint64_t now);
/* The ready list moves to out[] (at most cap ids) and is emptied; returns
 * how many. The ids are no longer queued: a wake while the caller runs them
 * queues them for the following round. */
unsigned int eng_due_take(struct eng_due *d, uint32_t *out);

/* Reference for the tests: the plain walk, the ids of key[0 .. n) with a
 * deadline (not UINT64_MAX) <= now, in id order. */
unsigned int eng_due_walk_ref(const uint64_t *key, unsigned int n, uint64_t now, uint32_t *out);

/*
 * The task's running time at a poll at now: *active advanced by the time
 * since the previous poll (*last), at most ENG_XPORT_GAP_MAX_NS; returned.
 */
static inline uint64_t
eng_xport_active(uint64_t *active, uint64_t *last, uint64_t now)
{
	uint64_t d = *last != 0 && now > *last ? now - *last : 0;

	*active += d < ENG_XPORT_GAP_MAX_NS ? d : ENG_XPORT_GAP_MAX_NS;
	if (now > *last)
		*last = now;	/* an earlier time is taken as the latest seen */
	return *active;
}

/*
 * Pending frames of an endpoint were refused again at now (no progress; all
 * three times the task's running time, eng_xport_active),
 * refused since `since` (its last progress); the task's egress last moved
 * (any of its endpoints' frames accepted) at `moved`. 1: drop them.
 */
static inline int
eng_xport_stuck(uint64_t since, uint64_t moved, uint64_t now)
{
	uint64_t own = now - since;

	if (own < ENG_XPORT_STUCK_NS)
		return 0;
	return now - moved >= ENG_XPORT_STUCK_NS || own >= ENG_XPORT_STUCK_MAX_NS;
}

/*
 * Backoff of an endpoint whose flow is over its own queue at the scheduler
 * (flow_queue): the next try of its pending frames. Doubled each time it is
 * refused again once due (a try before it, the endpoint woken by a packet
 * it received, keeps the time), halved each time frames of it leave
 * (eng_xport_backoff_moved), so that the tries follow the rate the
 * scheduler serves the flow at instead of every poll. Between
 * ENG_XPORT_BACKOFF_MIN_NS and ENG_XPORT_BACKOFF_MAX_NS. The scheduler
 * gives a flow room a quarter of its flow_queue at a time, so a try at most
 * twice the wait for room finds the queue still 3/4 full: the flow's share
 * is kept (test_xport_due.c checks it against a try every poll).
 */
#define ENG_XPORT_BACKOFF_MIN_NS	1000ull
#define ENG_XPORT_BACKOFF_MAX_NS	16000000ull

static inline uint64_t
eng_xport_backoff(uint64_t *backoff, uint64_t *retry_at, uint64_t now)
{
	if (*retry_at > now)
		return *retry_at;
	*backoff = *backoff < ENG_XPORT_BACKOFF_MIN_NS ? ENG_XPORT_BACKOFF_MIN_NS :
			*backoff >= ENG_XPORT_BACKOFF_MAX_NS / 2 ? ENG_XPORT_BACKOFF_MAX_NS :
			2 * *backoff;
	*retry_at = now + *backoff;
	return *retry_at;
}

static inline void
eng_xport_backoff_moved(uint64_t *backoff, uint64_t *retry_at)
{
	*backoff >>= 1;
	*retry_at = 0;
}

#endif /* ENG_XPORT_DUE_H */
