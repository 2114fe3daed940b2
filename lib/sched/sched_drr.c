/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Deficit Round Robin (Shreedhar & Varghese, 1995).
 *
 * Backlogged queues sit on a circular active list. The queue at the head
 * sends while its deficit covers its head packet; otherwise it earns its
 * quantum (weight * conf.quantum bytes) and goes to the tail. A queue joins
 * at the tail with one quantum and leaves with its deficit reset to zero.
 * O(1) per packet when the quantum is at least one maximum-size packet.
 */
#include <stdint.h>

#include "pktsched.h"
#include "sched_priv.h"

struct dq {
	uint64_t deficit;
	uint64_t quantum;
	uint32_t next;
	uint32_t pad;
};

struct drr {
	uint32_t head, tail;	/* active list, SCHED_NIL when empty */
	uint32_t base;		/* bytes per unit weight */
	uint32_t pad;
	struct dq *q;
};

static size_t
drr_priv_size(const struct sched_conf *c)
{
	return sizeof(struct drr) + (size_t)c->nb_queues * sizeof(struct dq);
}

static int
drr_init(struct sched *s)
{
	struct drr *d = s->priv;
	uint32_t i;

	d->q = (struct dq *)(d + 1);
	d->head = d->tail = SCHED_NIL;
	d->base = s->conf.quantum;
	for (i = 0; i < s->nb_queues; i++) {
		d->q[i].quantum = d->base;
		d->q[i].next = SCHED_NIL;
	}
	return 0;
}

static int
drr_arrive(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct drr *d = s->priv;

	(void)len;
	(void)now;
	if (!was_empty)
		return 0;
	d->q[q].deficit = d->q[q].quantum;
	d->q[q].next = SCHED_NIL;
	if (d->tail == SCHED_NIL)
		d->head = q;
	else
		d->q[d->tail].next = q;
	d->tail = q;
	return 0;
}

static unsigned int
drr_dequeue(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t max_bytes, uint64_t now)
{
	struct drr *d = s->priv;
	uint64_t bytes = 0;
	unsigned int k = 0;

	(void)now;
	while (k < n && bytes < max_bytes && d->head != SCHED_NIL) {
		uint32_t q = d->head;
		struct dq *dq = &d->q[q];
		uint32_t len = sched_head_len(s, q);

		if (dq->deficit >= len) {
			dq->deficit -= len;
			bytes += len;
			if (sched_pop(s, q, &out[k++]) == 0) {
				dq->deficit = 0;
				d->head = dq->next;
				if (d->head == SCHED_NIL)
					d->tail = SCHED_NIL;
			}
			continue;
		}
		dq->deficit += dq->quantum;
		if (d->head != d->tail) {
			d->head = dq->next;
			dq->next = SCHED_NIL;
			d->q[d->tail].next = q;
			d->tail = q;
		}
	}
	return k;
}

static void
drr_set_weight(struct sched *s, uint32_t q, uint32_t w)
{
	struct drr *d = s->priv;

	d->q[q].quantum = (uint64_t)w * d->base;
}

const struct sched_ops sched_drr_ops = {
	.name = "drr",
	.priv_size = drr_priv_size,
	.init = drr_init,
	.fini = NULL,
	.arrive = drr_arrive,
	.dequeue = drr_dequeue,
	.set_weight = drr_set_weight,
};
