/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Endpoint deadlines and the ready list of a transport task (xport_due.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/xport/xport_due.h"

int
eng_due_init(struct eng_due *d, unsigned int cap)
{
	memset(d, 0, sizeof(*d));
	d->cap = cap;
	if (cap == 0)
		return 0;
	d->heap = calloc(cap, sizeof(*d->heap));
	d->pos = malloc(cap * sizeof(*d->pos));
	d->key = calloc(cap, sizeof(*d->key));
	d->ready = calloc(cap, sizeof(*d->ready));
	d->queued = calloc(cap, sizeof(*d->queued));
	if (d->heap == NULL || d->pos == NULL || d->key == NULL || d->ready == NULL ||
			d->queued == NULL)
		return -ENOMEM;
	for (unsigned int i = 0; i < cap; i++)
		d->pos[i] = ENG_DUE_NONE;
	return 0;
}

void
eng_due_free(struct eng_due *d)
{
	free(d->heap);
	free(d->pos);
	free(d->key);
	free(d->ready);
	free(d->queued);
	memset(d, 0, sizeof(*d));
}

static inline void
place(struct eng_due *d, unsigned int i, uint32_t id)
{
	d->heap[i] = id;
	d->pos[id] = i;
}

static void
sift_up(struct eng_due *d, unsigned int i)
{
	uint32_t id = d->heap[i];
	uint64_t k = d->key[id];

	while (i > 0) {
		unsigned int p = (i - 1) / 2;

		if (d->key[d->heap[p]] <= k)
			break;
		place(d, i, d->heap[p]);
		i = p;
	}
	place(d, i, id);
}

static void
sift_down(struct eng_due *d, unsigned int i)
{
	uint32_t id = d->heap[i];
	uint64_t k = d->key[id];

	for (;;) {
		unsigned int c = 2 * i + 1;

		if (c >= d->n)
			break;
		if (c + 1 < d->n && d->key[d->heap[c + 1]] < d->key[d->heap[c]])
			c++;
		if (d->key[d->heap[c]] >= k)
			break;
		place(d, i, d->heap[c]);
		i = c;
	}
	place(d, i, id);
}

void
eng_due_set(struct eng_due *d, uint32_t id, uint64_t t)
{
	uint32_t i = d->pos[id];

	if (i == ENG_DUE_NONE) {
		d->key[id] = t;
		place(d, d->n++, id);
		sift_up(d, d->n - 1);
		return;
	}
	if (t < d->key[id]) {
		d->key[id] = t;
		sift_up(d, i);
	} else if (t > d->key[id]) {
		d->key[id] = t;
		sift_down(d, i);
	}
}

void
eng_due_del(struct eng_due *d, uint32_t id)
{
	uint32_t i = d->pos[id], last;

	if (i == ENG_DUE_NONE)
		return;
	d->pos[id] = ENG_DUE_NONE;
	last = d->heap[--d->n];
	if (i == d->n)
		return;
	place(d, i, last);
	/* the last one may belong above or below the hole */
	if (i > 0 && d->key[d->heap[(i - 1) / 2]] > d->key[last])
		sift_up(d, i);
	else
		sift_down(d, i);
}

uint64_t
eng_due_min(const struct eng_due *d)
{
	return d->n != 0 ? d->key[d->heap[0]] : UINT64_MAX;
}

int
eng_due_pop(struct eng_due *d, uint64_t now, uint32_t *id)
{
	if (d->n == 0 || d->key[d->heap[0]] > now)
		return 0;
	*id = d->heap[0];
	eng_due_del(d, *id);
	return 1;
}

void
eng_due_wake(struct eng_due *d, uint32_t id)
{
	if (d->queued[id])
		return;
	eng_due_del(d, id);
	d->queued[id] = 1;
	d->ready[d->nready++] = id;
}

unsigned int
eng_due_wake_due(struct eng_due *d, uint64_t now)
{
	unsigned int k = 0;
	uint32_t id;

	while (eng_due_pop(d, now, &id)) {
		eng_due_wake(d, id);
		k++;
	}
	return k;
}

unsigned int
eng_due_take(struct eng_due *d, uint32_t *out)
{
	unsigned int n = d->nready;

	for (unsigned int i = 0; i < n; i++) {
		out[i] = d->ready[i];
		d->queued[out[i]] = 0;
	}
	d->nready = 0;
	return n;
}

unsigned int
eng_due_walk_ref(const uint64_t *key, unsigned int n, uint64_t now, uint32_t *out)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < n; i++)
		if (key[i] != UINT64_MAX && key[i] <= now)
			out[k++] = i;
	return k;
}
