/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * FIFO: one arrival order over all queues (Dummynet's "fifo" scheduler).
 * Queues keep their own drop-tail limits and counters; weights are ignored.
 * A ring of queue ids, one slot per pool packet, records the arrival order.
 */
#include <stdint.h>

#include "pktsched.h"
#include "sched_priv.h"

struct fifo {
	uint32_t rd, wr;	/* free-running indices */
	uint32_t size;		/* ring slots (>= pool_pkts) */
	uint32_t pad;
	uint32_t ring[];
};

static size_t
fifo_priv_size(const struct sched_conf *c)
{
	return sizeof(struct fifo) + (size_t)c->pool_pkts * sizeof(uint32_t);
}

static int
fifo_init(struct sched *s)
{
	struct fifo *f = s->priv;

	f->size = s->pool_pkts;
	return 0;
}

static int
fifo_arrive(struct sched *s, uint32_t q, uint32_t len, int was_empty,
		uint64_t now)
{
	struct fifo *f = s->priv;
	uint32_t i = f->wr++;

	(void)len;
	(void)was_empty;
	(void)now;
	if (i >= f->size)
		f->wr = 1, i = 0;
	f->ring[i] = q;
	return 0;
}

static unsigned int
fifo_dequeue(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t max_bytes, uint64_t now)
{
	struct fifo *f = s->priv;
	uint64_t bytes = 0;
	unsigned int k;

	(void)now;
	for (k = 0; k < n && bytes < max_bytes && s->backlog_pkts; k++) {
		uint32_t i = f->rd++;

		if (i >= f->size)
			f->rd = 1, i = 0;
		sched_pop(s, f->ring[i], &out[k]);
		bytes += out[k].len;
	}
	return k;
}

const struct sched_ops sched_fifo_ops = {
	.name = "fifo",
	.priv_size = fifo_priv_size,
	.init = fifo_init,
	.fini = NULL,
	.arrive = fifo_arrive,
	.dequeue = fifo_dequeue,
	.set_weight = NULL,
};
