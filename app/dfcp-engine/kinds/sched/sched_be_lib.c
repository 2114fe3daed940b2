/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The lib/sched backend of the sched task (sched_be.h): WF2Q+, DRR or FIFO,
 * one lib/sched queue per flow; a packet is its mbuf pointer. The queues are
 * linked lists through one pool of `backlog` 16-byte nodes, so a flow may
 * hold up to flow_queue packets whatever max_flows is: the memory is the
 * backlog's, not max_flows x flow_queue.
 */
#include <errno.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "core/egress.h"
#include "kinds/sched/sched_be.h"
#include "pktsched.h"

#define BE_LIB_BURST 64

struct be_lib {
	struct sched *s;
	uint32_t overhead;
	uint32_t flow_queue;
};

static void
be_lib_names(char *buf, size_t len)
{
	(void)sched_algo_list(buf, len, NULL);
}

static int
be_lib_check(const char *algo)
{
	return sched_algo_check(algo);
}

static void *
be_lib_create(const struct eng_sched_be_conf *c)
{
	struct be_lib *b = rte_zmalloc_socket("sched_be_lib", sizeof(*b), 0, c->socket);
	struct sched_conf sc;

	if (b == NULL)
		return NULL;
	memset(&sc, 0, sizeof(sc));
	sc.algo = c->algo;
	sc.nb_queues = c->max_flows;
	sc.limit_pkts = c->flow_queue;
	sc.pool_pkts = c->backlog;
	sc.quantum = c->quantum;
	b->s = sched_create(&sc);
	if (b->s == NULL) {
		rte_free(b);
		return NULL;
	}
	b->overhead = c->overhead;
	b->flow_queue = c->flow_queue;
	return b;
}

static int
be_lib_flow(void *s, uint32_t id, uint32_t weight)
{
	struct be_lib *b = s;

	return sched_queue_set(b->s, id, weight, b->flow_queue, 0) < 0 ? -EINVAL : 0;
}

static int
be_lib_start(void *s)
{
	RTE_SET_USED(s);
	return 0;
}

static uint32_t
be_lib_enqueue(void *s, struct rte_mbuf **pkts, const uint32_t *ids, uint32_t n, uint64_t now,
		uint64_t *drop)
{
	struct be_lib *b = s;
	struct sched_pkt sp[BE_LIB_BURST];
	uint32_t done = 0, k, i, queued = 0;

	while (done < n) {
		uint32_t want = n - done < BE_LIB_BURST ? n - done : BE_LIB_BURST;

		for (i = 0; i < want; i++) {
			sp[i].pkt = (uintptr_t)pkts[done + i];
			sp[i].len = pkts[done + i]->pkt_len + b->overhead;
			sp[i].queue = ids[done + i];
		}
		k = sched_enqueue_burst(b->s, sp, want, now);
		for (i = 0; i < want - k; i++) { /* the refused ones, at the front */
			if (sp[i].queue < sched_nb_queues(b->s))
				drop[sp[i].queue]++;
			rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)sp[i].pkt);
		}
		queued += k;
		done += want;
	}
	return queued;
}

static uint32_t
be_lib_dequeue(void *s, struct rte_mbuf **pkts, uint32_t *ids, uint32_t *lens, uint32_t n,
		uint64_t max_bytes, uint64_t now)
{
	struct be_lib *b = s;
	struct sched_pkt sp[BE_LIB_BURST];
	uint32_t done = 0, k, i;

	while (done < n && max_bytes != 0) {
		uint32_t want = n - done < BE_LIB_BURST ? n - done : BE_LIB_BURST;
		uint64_t wire = 0;

		k = sched_dequeue_bytes(b->s, sp, want, max_bytes, now);
		for (i = 0; i < k; i++) {
			struct rte_mbuf *m = (struct rte_mbuf *)(uintptr_t)sp[i].pkt;

			/* the transmit frees them: both lines, all misses in flight */
			rte_prefetch0(m);
			rte_prefetch0((char *)m + RTE_CACHE_LINE_SIZE);
			pkts[done + i] = m;
			ids[done + i] = sp[i].queue;
			lens[done + i] = sp[i].len - b->overhead;
			wire += sp[i].len;
		}
		done += k;
		if (k < want || wire >= max_bytes)
			break;
		max_bytes -= wire;
	}
	return done;
}

static const char *
be_lib_name(const void *s)
{
	const struct be_lib *b = s;

	return sched_algo(b->s);
}

static uint32_t
be_lib_backlog(const void *s, uint32_t id)
{
	const struct be_lib *b = s;
	struct sched_qstats st;

	return sched_queue_stats(b->s, id, &st) == 0 ? st.qlen_pkts : 0;
}

static void
be_lib_free(void *s)
{
	struct be_lib *b = s;
	struct sched_pkt sp[BE_LIB_BURST];
	unsigned int k, i;

	if (b == NULL)
		return;
	while ((k = sched_dequeue_burst(b->s, sp, BE_LIB_BURST, 0)) > 0)
		for (i = 0; i < k; i++)
			rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)sp[i].pkt);
	sched_free(b->s);
	rte_free(b);
}

const struct eng_sched_be eng_sched_be_lib = {
	.check = be_lib_check,
	.names = be_lib_names,
	.create = be_lib_create,
	.flow = be_lib_flow,
	.start = be_lib_start,
	.enqueue = be_lib_enqueue,
	.dequeue = be_lib_dequeue,
	.name = be_lib_name,
	.backlog = be_lib_backlog,
	.free = be_lib_free,
};
