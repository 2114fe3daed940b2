/* SPDX-License-Identifier: BSD-3-Clause */
/* The router's lookahead hold: a binary min-heap (hold.h). */
#include <errno.h>
#include <stdint.h>

#include "kinds/route/hold.h"

static inline int
ent_before(const struct route_hold_ent *a, const struct route_hold_ent *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

struct route_hold *
route_hold_init(void *mem, uint32_t cap)
{
	struct route_hold *q = mem;

	if (q == NULL || cap == 0)
		return NULL;
	q->n = 0;
	q->cap = cap;
	q->seq = 0;
	return q;
}

int
route_hold_put(struct route_hold *q, uint64_t t, uint64_t h)
{
	struct route_hold_ent x = {.t = t, .seq = q->seq, .h = h};
	uint32_t i;

	if (q->n == q->cap)
		return -ENOSPC;
	q->seq++;
	for (i = q->n++; i > 0; ) {
		uint32_t up = (i - 1) / 2;

		if (!ent_before(&x, &q->e[up]))
			break;
		q->e[i] = q->e[up];
		i = up;
	}
	q->e[i] = x;
	return 0;
}

int
route_hold_take(struct route_hold *q, uint64_t *t, uint64_t *h)
{
	struct route_hold_ent x;
	uint32_t i = 0;

	if (q->n == 0)
		return -ENOENT;
	*t = q->e[0].t;
	*h = q->e[0].h;
	x = q->e[--q->n];
	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && ent_before(&q->e[c + 1], &q->e[c]))
			c++;
		if (!ent_before(&q->e[c], &x))
			break;
		q->e[i] = q->e[c];
		i = c;
	}
	if (q->n)
		q->e[i] = x;
	return 0;
}
