/* SPDX-License-Identifier: BSD-3-Clause */
/* sched: the generic layer (queues, packet pool, limits, counters). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pktsched.h"
#include "sched_priv.h"

/*
 * The scheduler table: adding one is its file (sched_<name>.c defining a
 * struct sched_ops), its line here and its name in meson.build. The first is
 * the default; every list of names (messages, docs) is read from here.
 */
extern const struct sched_ops sched_wf2qp_ops, sched_drr_ops, sched_fifo_ops;
static const struct sched_ops *const sched_algos[] = {
	&sched_wf2qp_ops,
	&sched_drr_ops,
	&sched_fifo_ops,
};
#define NB_ALGOS (sizeof(sched_algos) / sizeof(sched_algos[0]))

const char *
sched_algo_name(unsigned int i)
{
	return i < NB_ALGOS ? sched_algos[i]->name : NULL;
}

int
sched_algo_list(char *buf, size_t len, const char *last_sep)
{
	size_t off = 0;
	unsigned int i;
	int n;

	if (len == 0)
		return -ENOSPC;
	buf[0] = '\0';
	for (i = 0; i < NB_ALGOS; i++) {
		n = snprintf(buf + off, len - off, "%s%s",
				i == 0 ? "" : i + 1 == NB_ALGOS && last_sep ? last_sep : ", ",
				sched_algos[i]->name);
		if (n < 0 || (size_t)n >= len - off)
			return -ENOSPC;
		off += (size_t)n;
	}
	return 0;
}

static const struct sched_ops *
algo_find(const char *name)
{
	unsigned int i;

	if (name == NULL)
		return sched_algos[0];
	for (i = 0; i < NB_ALGOS; i++)
		if (strcmp(sched_algos[i]->name, name) == 0)
			return sched_algos[i];
	/* ipfw spells it "wf2q+"; accept "wf2qp" and "wf2q" too. */
	if (strcmp(name, "wf2qp") == 0 || strcmp(name, "wf2q") == 0)
		return &sched_wf2qp_ops;
	return NULL;
}

int
sched_algo_check(const char *name)
{
	return algo_find(name) != NULL ? 0 : -ENOENT;
}

/* Frees what sched_create allocated (a part not made yet is NULL). */
static void
sched_release(struct sched *s)
{
	free(s->q);
	free(s->cold);
	free(s->node);
	free(s->priv);
	free(s);
}

struct sched *
sched_create(const struct sched_conf *conf)
{
	const struct sched_ops *ops;
	struct sched *s;
	uint32_t i;
	size_t psz;

	if (conf == NULL || conf->nb_queues == 0 ||
	    conf->nb_queues > SCHED_MAX_QUEUES)
		return NULL;
	ops = algo_find(conf->algo);
	if (ops == NULL)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->ops = ops;
	s->conf = *conf;
	s->conf.algo = ops->name;
	if (s->conf.quantum == 0)
		s->conf.quantum = SCHED_DEFAULT_QUANTUM;
	if (s->conf.pool_pkts == 0) {
		uint64_t p = (uint64_t)conf->nb_queues * 64;

		s->conf.pool_pkts = p > UINT32_MAX - 1 ? UINT32_MAX - 1 : (uint32_t)p;
	}
	if (s->conf.pool_pkts == SCHED_NIL)
		s->conf.pool_pkts--;
	s->nb_queues = conf->nb_queues;
	s->pool_pkts = s->conf.pool_pkts;
	s->q = aligned_alloc(64, sizeof(*s->q) * s->nb_queues);
	s->cold = calloc(s->nb_queues, sizeof(*s->cold));
	s->node = malloc(sizeof(*s->node) * s->pool_pkts);
	psz = ops->priv_size(&s->conf);
	s->priv = psz ? aligned_alloc(64, (psz + 63) & ~(size_t)63) : NULL;
	if (s->q == NULL || s->cold == NULL || s->node == NULL ||
	    (psz && s->priv == NULL)) {
		sched_release(s);
		return NULL;
	}
	if (psz)
		memset(s->priv, 0, psz);
	memset(s->q, 0, sizeof(*s->q) * s->nb_queues);
	for (i = 0; i < s->nb_queues; i++) {
		s->q[i].head = s->q[i].tail = SCHED_NIL;
		s->q[i].lim_pkts = sched_lim_pkts(conf->limit_pkts);
		s->q[i].lim_bytes = sched_lim_bytes(conf->limit_bytes);
		s->cold[i].weight = 1;
	}
	for (i = 0; i < s->pool_pkts; i++)
		s->node[i].next = i + 1 < s->pool_pkts ? i + 1 : SCHED_NIL;
	s->free_head = 0;
	if (ops->init(s) != 0) {
		sched_release(s);
		return NULL;
	}
	return s;
}

void
sched_free(struct sched *s)
{
	if (s == NULL)
		return;
	if (s->ops->fini)
		s->ops->fini(s);
	sched_release(s);
}

const char *
sched_algo(const struct sched *s)
{
	return s->ops->name;
}

uint32_t
sched_nb_queues(const struct sched *s)
{
	return s->nb_queues;
}

int
sched_queue_set(struct sched *s, uint32_t q, uint32_t weight,
		uint32_t limit_pkts, uint64_t limit_bytes)
{
	if (s == NULL || q >= s->nb_queues || weight == 0 ||
	    weight > SCHED_WEIGHT_MAX)
		return -EINVAL;
	if (weight != s->cold[q].weight) {
		if (s->ops->set_weight)
			s->ops->set_weight(s, q, weight);
		s->cold[q].weight = weight;
	}
	s->q[q].lim_pkts = sched_lim_pkts(limit_pkts);
	s->q[q].lim_bytes = sched_lim_bytes(limit_bytes);
	return 0;
}

int
sched_set_rate(struct sched *s, uint64_t rate_bps, uint32_t overhead)
{
	if (s == NULL || overhead > SCHED_LEN_MAX)
		return -EINVAL;
	if (s->ops->set_rate == NULL)
		return 0;
	return s->ops->set_rate(s, rate_bps, overhead);
}

int
sched_enqueue(struct sched *s, uint32_t q, uint64_t pkt, uint32_t len,
		uint64_t now)
{
	struct sched_queue *sq;
	struct sched_node *nd;
	uint32_t i;
	int was_empty;

	if (q >= s->nb_queues || len - 1 >= SCHED_LEN_MAX)
		return -EINVAL;
	sq = &s->q[q];
	/* nbytes + len cannot wrap: nbytes <= pool_pkts * SCHED_LEN_MAX. */
	if (sq->npkts >= sq->lim_pkts || sq->nbytes + len > sq->lim_bytes ||
	    s->free_head == SCHED_NIL) {
		s->cold[q].drop_pkts++;
		s->cold[q].drop_bytes += len;
		return -ENOBUFS;
	}
	i = s->free_head;
	nd = &s->node[i];
	s->free_head = nd->next;
	nd->pkt = pkt;
	nd->len = len;
	nd->next = SCHED_NIL;
	was_empty = sq->npkts == 0;
	if (was_empty)
		sq->head = i;
	else
		s->node[sq->tail].next = i;
	sq->tail = i;
	sq->npkts++;
	sq->nbytes += len;
	s->backlog_pkts++;
	s->backlog_bytes += len;
	return s->ops->arrive(s, q, len, was_empty, now);
}

/*
 * sched_enqueue of each packet, in order; the queue state of the packet
 * SCHED_ENQ_PF ahead is prefetched. The refused ones move to the front.
 */
#define SCHED_ENQ_PF 4

unsigned int
sched_enqueue_burst(struct sched *s, struct sched_pkt *pkts, unsigned int n,
		uint64_t now)
{
	unsigned int i, r = 0;

	for (i = 0; i < n; i++) {
		struct sched_pkt p = pkts[i];

		if (i + SCHED_ENQ_PF < n &&
		    pkts[i + SCHED_ENQ_PF].queue < s->nb_queues)
			__builtin_prefetch(&s->q[pkts[i + SCHED_ENQ_PF].queue], 1);
		if (sched_enqueue(s, p.queue, p.pkt, p.len, now) != 0)
			pkts[r++] = p;
	}
	return n - r;
}

unsigned int
sched_dequeue_burst(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t now)
{
	if (n == 0)
		return 0;
	/* Called empty too: tells the scheduler the link went idle. */
	return s->ops->dequeue(s, out, n, UINT64_MAX, now);
}

unsigned int
sched_dequeue_bytes(struct sched *s, struct sched_pkt *out, unsigned int n,
		uint64_t max_bytes, uint64_t now)
{
	if (n == 0 || max_bytes == 0)
		return 0;
	return s->ops->dequeue(s, out, n, max_bytes, now);
}

uint32_t
sched_backlog_pkts(const struct sched *s)
{
	return s->backlog_pkts;
}

uint64_t
sched_backlog_bytes(const struct sched *s)
{
	return s->backlog_bytes;
}

int
sched_queue_stats(const struct sched *s, uint32_t q, struct sched_qstats *st)
{
	const struct sched_queue *sq;

	if (s == NULL || st == NULL || q >= s->nb_queues)
		return -EINVAL;
	sq = &s->q[q];
	st->enq_pkts = sq->deq_pkts + sq->npkts;
	st->enq_bytes = sq->deq_bytes + sq->nbytes;
	st->deq_pkts = sq->deq_pkts;
	st->deq_bytes = sq->deq_bytes;
	st->drop_pkts = s->cold[q].drop_pkts;
	st->drop_bytes = s->cold[q].drop_bytes;
	st->qlen_pkts = sq->npkts;
	st->qlen_bytes = sq->nbytes;
	st->weight = s->cold[q].weight;
	return 0;
}

double
sched_jain(const double *x, unsigned int n)
{
	double sum = 0, sq = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		sum += x[i];
		sq += x[i] * x[i];
	}
	if (n == 0 || sq == 0)
		return 1.0;
	return sum * sum / (n * sq);
}
