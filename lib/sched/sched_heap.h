/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Priority queues of (64-bit key, 32-bit id), private to lib/sched.
 *
 * Keys are virtual times that wrap around: a < b means (int64_t)(a - b) < 0,
 * valid while all live keys lie within 2^63 of each other.
 *
 * struct sheap: a 4-ary min-heap; the four children of a node share one
 * 64-byte cache line.
 *
 * struct rheap: a sheap plus a ring of entries in nondecreasing key order.
 * A key not below the ring's newest one is appended to the ring in O(1);
 * other keys go to the heap; the minimum is the smaller of the two heads.
 * Schedulers' keys mostly come in order (virtual times of successive
 * services), so most operations are O(1) and touch sequential memory; the
 * worst case stays O(log N) plus one comparison.
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
sheap_init(struct sheap *h, uint32_t cap)
{
	size_t bytes = ((size_t)cap + 4) * sizeof(struct sheap_ent);

	h->n = 0;
	h->cap = cap;
	h->mem = aligned_alloc(64, (bytes + 63) & ~(size_t)63);
	if (h->mem == NULL)
		return -1;
	h->a = (struct sheap_ent *)((char *)h->mem + 64 - sizeof(struct sheap_ent));
	return 0;
}

static inline void
sheap_fini(struct sheap *h)
{
	free(h->mem);
	h->mem = NULL;
}

static inline void
sheap_up(struct sheap *h, uint32_t i, struct sheap_ent e)
{
	struct sheap_ent *a = h->a;

	while (i > 0) {
		uint32_t p = (i - 1) >> 2;

		if (!vt_lt(e.key, a[p].key))
			break;
		a[i] = a[p];
		i = p;
	}
	a[i] = e;
}

static inline void
sheap_down(struct sheap *h, uint32_t i, struct sheap_ent e)
{
	struct sheap_ent *a = h->a;
	uint32_t n = h->n;

	for (;;) {
		uint32_t c = 4 * i + 1, m;
		uint64_t mk;

		if (c + 3 < n) {
			/* All four children (one cache line): a tournament. */
			uint32_t m0 = vt_lt(a[c + 1].key, a[c].key) ? c + 1 : c;
			uint32_t m1 = vt_lt(a[c + 3].key, a[c + 2].key) ? c + 3 : c + 2;

			m = vt_lt(a[m1].key, a[m0].key) ? m1 : m0;
		} else if (c < n) {
			uint32_t j;

			m = c;
			for (j = c + 1; j < n; j++)
				if (vt_lt(a[j].key, a[m].key))
					m = j;
		} else {
			break;
		}
		mk = a[m].key;
		if (!vt_lt(mk, e.key))
			break;
		a[i] = a[m];
		i = m;
	}
	a[i] = e;
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

struct rheap {
	struct sheap h;
	struct sheap_ent *ring;	/* rmask + 1 entries */
	uint32_t rhead, rn, rmask, pad;
	uint64_t rlast;		/* key of the newest ring entry (rn > 0) */
};

static inline int
rheap_init(struct rheap *r, uint32_t cap)
{
	uint32_t rc = 1;

	while (rc < cap)
		rc <<= 1;
	r->rhead = r->rn = 0;
	r->rmask = rc - 1;
	r->rlast = 0;
	r->ring = aligned_alloc(64, (size_t)rc * sizeof(*r->ring) < 64 ? 64 :
		(size_t)rc * sizeof(*r->ring));
	if (r->ring == NULL)
		return -1;
	if (sheap_init(&r->h, cap) != 0) {
		free(r->ring);
		r->ring = NULL;
		return -1;
	}
	return 0;
}

static inline void
rheap_fini(struct rheap *r)
{
	sheap_fini(&r->h);
	free(r->ring);
	r->ring = NULL;
}

static inline uint32_t
rheap_n(const struct rheap *r)
{
	return r->h.n + r->rn;
}

/* The entry with the smallest key (not empty); ties go to the ring. */
static inline struct sheap_ent *
rheap_top(struct rheap *r)
{
	struct sheap_ent *re = &r->ring[r->rhead];

	if (r->rn == 0 || (r->h.n && vt_lt(r->h.a[0].key, re->key)))
		return &r->h.a[0];
	return re;
}

static inline void
rheap_push(struct rheap *r, uint64_t key, uint32_t id)
{
	if (r->rn == 0 || vt_le(r->rlast, key)) {
		struct sheap_ent *e = &r->ring[(r->rhead + r->rn) & r->rmask];

		e->key = key;
		e->id = id;
		r->rn++;
		r->rlast = key;
	} else {
		sheap_push(&r->h, key, id);
	}
}

/* Remove top (as returned by rheap_top). */
static inline void
rheap_pop(struct rheap *r, const struct sheap_ent *top)
{
	if (top == &r->h.a[0]) {
		sheap_pop(&r->h);
	} else {
		r->rhead = (r->rhead + 1) & r->rmask;
		r->rn--;
	}
}

/* Give top (as returned by rheap_top) a new key. */
static inline void
rheap_replace_top(struct rheap *r, struct sheap_ent *top, uint64_t key)
{
	uint32_t id = top->id;

	if (top == &r->h.a[0] && r->rn != 0 && vt_lt(key, r->rlast)) {
		sheap_replace_top(&r->h, key);
		return;
	}
	rheap_pop(r, top);
	rheap_push(r, key, id);
}

/* Empty it. */
static inline void
rheap_clear(struct rheap *r)
{
	r->h.n = 0;
	r->rn = 0;
	r->rhead = 0;
}

#endif /* SCHED_HEAP_H */
