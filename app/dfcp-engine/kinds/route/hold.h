/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The router's lookahead hold: frames waiting for their arrival time to
 * come round on the first pipe's clock, which runs `lookahead` behind now.
 * A binary min-heap on (arrival, order of insertion): frames leave by
 * arrival time, and frames of equal time in the order they came (a flow's
 * frames carry non-decreasing times, so its order is kept). Handles are
 * opaque 64-bit values (the router's mbuf pointers). No DPDK; the caller
 * gives the storage (route_hold_size) and the times. Insert and take are
 * O(log n), no allocation.
 */
#ifndef ROUTE_HOLD_H
#define ROUTE_HOLD_H

#include <stddef.h>
#include <stdint.h>

struct route_hold_ent {
	uint64_t t;		/* arrival (ns) */
	uint64_t seq;		/* insertion order */
	uint64_t h;		/* handle */
};

struct route_hold {
	uint32_t n, cap;
	uint64_t seq;
	struct route_hold_ent e[];
};

static inline size_t
route_hold_size(uint32_t cap)
{
	return sizeof(struct route_hold) + (size_t)cap * sizeof(struct route_hold_ent);
}

/* Set up in mem (route_hold_size(cap) bytes); NULL if cap is 0. */
struct route_hold *route_hold_init(void *mem, uint32_t cap);
/* 0, or -ENOSPC when full (take the earliest first). */
int route_hold_put(struct route_hold *q, uint64_t t, uint64_t h);
/* The earliest frame's time; UINT64_MAX when empty. */
static inline uint64_t
route_hold_next(const struct route_hold *q)
{
	return q->n ? q->e[0].t : UINT64_MAX;
}
/* Take the earliest frame (time into *t); 0, or -ENOENT when empty. */
int route_hold_take(struct route_hold *q, uint64_t *t, uint64_t *h);

#endif
