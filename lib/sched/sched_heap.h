/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A 4-ary min-heap of (64-bit key, 32-bit id), private to lib/sched.
 *
 * Keys are virtual times that wrap around: a < b means (int64_t)(a - b) < 0,
 * valid while all live keys lie within 2^63 of each other. The four children
 * of a node share one 64-byte cache line. With a position array (pos != NULL)
 * an entry can be removed from the middle by id.
 */
#ifndef SCHED_HEAP_H
#define SCHED_HEAP_H

#include <stdint.h>
#include <stdlib.h>

struct sheap_ent {
	uint64_t key;
	uint32_t id;
	uint32_t pad;
};

struct sheap {
	struct sheap_ent *a;	/* a[1..4] start a cache line */
	uint32_t *pos;		/* id -> index, or NULL */
	uint32_t n;
	uint32_t cap;
	void *mem;
};

static inline int
vt_lt(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

static inline int
vt_le(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) <= 0;
}

static inline uint64_t
vt_max(uint64_t a, uint64_t b)
{
	return vt_lt(a, b) ? b : a;
}

static inline int
sheap_init(struct sheap *h, uint32_t cap, int indexed)
{
	size_t bytes = ((size_t)cap + 4) * sizeof(struct sheap_ent);

	h->n = 0;
	h->cap = cap;
	h->pos = NULL;
	h->mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (h->mem == NULL)
		return -1;
	h->a = (struct sheap_ent *)((char *)h->mem + 64 - sizeof(struct sheap_ent));
	if (indexed) {
		h->pos = calloc(cap, sizeof(*h->pos));
		if (h->pos == NULL) {
			free(h->mem);
			h->mem = NULL;
			return -1;
		}
	}
	return 0;
}

static inline void
sheap_fini(struct sheap *h)
{
	free(h->mem);
	free(h->pos);
	h->mem = NULL;
	h->pos = NULL;
}

static inline void
sheap_set(struct sheap *h, uint32_t i, struct sheap_ent e)
{
	h->a[i] = e;
	if (h->pos)
		h->pos[e.id] = i;
}

static inline void
sheap_up(struct sheap *h, uint32_t i, struct sheap_ent e)
{
	while (i > 0) {
		uint32_t p = (i - 1) >> 2;

		if (!vt_lt(e.key, h->a[p].key))
			break;
		sheap_set(h, i, h->a[p]);
		i = p;
	}
	sheap_set(h, i, e);
}

static inline void
sheap_down(struct sheap *h, uint32_t i, struct sheap_ent e)
{
	uint32_t n = h->n;

	for (;;) {
		uint32_t c = 4 * i + 1, m, end, j;

		if (c >= n)
			break;
		end = c + 4 < n ? c + 4 : n;
		m = c;
		for (j = c + 1; j < end; j++)
			if (vt_lt(h->a[j].key, h->a[m].key))
				m = j;
		if (!vt_lt(h->a[m].key, e.key))
			break;
		sheap_set(h, i, h->a[m]);
		i = m;
	}
	sheap_set(h, i, e);
}

static inline void
sheap_push(struct sheap *h, uint64_t key, uint32_t id)
{
	struct sheap_ent e = { .key = key, .id = id, .pad = 0 };

	sheap_up(h, h->n++, e);
}

static inline struct sheap_ent *
sheap_top(struct sheap *h)
{
	return &h->a[0];
}

static inline void
sheap_pop(struct sheap *h)
{
	uint32_t n = --h->n;

	if (n > 0)
		sheap_down(h, 0, h->a[n]);
}

/* Change the key of the top entry and restore the order. */
static inline void
sheap_replace_top(struct sheap *h, uint64_t key)
{
	struct sheap_ent e = h->a[0];

	e.key = key;
	sheap_down(h, 0, e);
}

/* Remove the entry at index i (indexed heaps). */
static inline void
sheap_remove(struct sheap *h, uint32_t i)
{
	uint32_t n = --h->n;
	struct sheap_ent e;

	if (i == n)
		return;
	e = h->a[n];
	if (i > 0 && vt_lt(e.key, h->a[(i - 1) >> 2].key))
		sheap_up(h, i, e);
	else
		sheap_down(h, i, e);
}

#endif /* SCHED_HEAP_H */
