/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The rte_sched backend of the sched task (sched_be.h, `sched = rte_sched`):
 * DPDK's librte_sched hierarchical scheduler with one pipe per flow, so that
 * users who know DPDK's HQoS can pick it and the engine's benchmark has its
 * peer in the same task. The mapping (doc/scheduler.md, "rte_sched"):
 *
 *   port     the sched task's link: rate = `rate` (unshaped: 100 Gbit/s),
 *            frame_overhead = `overhead`, mtu = the largest engine frame
 *   subport  0, the whole port
 *   pipe     flow id (n_pipes = max_flows rounded up to a power of two)
 *   TC       the best-effort class (RTE_SCHED_TRAFFIC_CLASS_BE), queue 0,
 *            green; queue size flow_queue rounded up to a power of two,
 *            halved while the queue arrays would pass BE_RTE_QMEM
 *            (be_rte_qsize; the task's per-flow cap follows it)
 *   weight   a pipe profile per distinct weight w: token bucket and BE
 *            rate = port rate x w / (sum of the weights of all flows), TC
 *            period at least the time of BE_RTE_TC_FRAMES largest frames
 *            at that rate (be_rte_profile)
 *
 * rte_sched serves backlogged pipes round-robin; weights act through the
 * pipes' rate limits, i.e. they bind only when the port is shaped (or the
 * flows fill it): unshaped, rte_sched is round-robin. Pipes are configured
 * at the first poll, when every flow has attached.
 */
#define ALLOW_EXPERIMENTAL_API /* rte_sched.h pulls in experimental rte_pie inlines */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_sched.h>

#include "core/defs.h"
#include "core/egress.h"
#include "kinds/sched/sched_be.h"

#define BE_RTE_UNSHAPED_BPS 100000000000ull	/* "off": far above any software rate */
#define BE_RTE_TB_SIZE 1000000ull		/* bytes of token bucket (about a ms at 10G) */
#define BE_RTE_TC_PERIOD_MS 10
#define BE_RTE_MAX_PROFILES 256u
#define BE_RTE_TC_FRAMES 4			/* largest frames per TC period, at least */
#define BE_RTE_QMEM (64ull << 20)		/* bytes of queue arrays, where flow_queue asks more */
#define BE_RTE_QMIN 4u				/* queue size kept whatever the memory */

struct be_rte {
	struct rte_sched_port *port;
	uint64_t rate;			/* bytes per second */
	uint32_t n_pipes, max_flows, nb_flows;
	uint32_t overhead;		/* wire bytes beyond pkt_len */
	uint32_t frame;			/* the largest wire frame: mtu + overhead */
	char name[32];
	uint32_t weights[];		/* [max_flows] */
};

static void
be_rte_names(char *buf, size_t len)
{
	snprintf(buf, len, "rte_sched");
}

static int
be_rte_check(const char *algo)
{
	return strcmp(algo, "rte_sched") == 0 ? 0 : -ENOENT;
}

/*
 * A pipe profile at `rate` bytes/s. rte_sched resets a pipe's TC credits to
 * rate x tc_period every period (they do not accumulate), so a period in
 * which rate x tc_period is below the largest frame never sends: at 4096
 * flows of a 500 Mbit/s port a weight-1 pipe gets 6.1 kB/s, 61 bytes per 10
 * ms, and was never served. The period is therefore at least the time of
 * BE_RTE_TC_FRAMES largest frames at the pipe's rate (what a period's reset
 * throws away is then at most a quarter of one such frame's share), and the
 * token bucket, which does accumulate, paces the pipe within the period:
 * one largest frame or 10 ms of the rate, whichever is larger (at most
 * BE_RTE_TB_SIZE).
 */
static void
be_rte_profile(struct rte_sched_pipe_params *pp, uint64_t rate, uint32_t frame)
{
	uint64_t period_ms;

	memset(pp, 0, sizeof(*pp));
	pp->tb_rate = rate ? rate : 1;
	pp->tb_size = RTE_MAX((uint64_t)frame, RTE_MIN(BE_RTE_TB_SIZE,
			pp->tb_rate * BE_RTE_TC_PERIOD_MS / 1000));
	pp->tc_rate[RTE_SCHED_TRAFFIC_CLASS_BE] = pp->tb_rate;
	period_ms = ((uint64_t)frame * BE_RTE_TC_FRAMES * 1000 + pp->tb_rate - 1) / pp->tb_rate;
	pp->tc_period = RTE_MAX((uint64_t)BE_RTE_TC_PERIOD_MS, period_ms);
	pp->tc_ov_weight = 1;
	pp->wrr_weights[0] = pp->wrr_weights[1] = pp->wrr_weights[2] = pp->wrr_weights[3] = 1;
}

/*
 * The best-effort queue size: flow_queue rounded up to a power of two (at
 * most 32768, rte_sched's qsize is 16 bits). rte_sched allocates every
 * pipe's queue arrays up front (4 best-effort queues of qsize mbuf pointers
 * each, whether a flow uses them or not), so the size is halved while
 * n_pipes x 4 x qsize x 8 bytes would pass BE_RTE_QMEM: 64 packets a flow
 * up to 32768 flows, 32 at 65536.
 */
static uint32_t
be_rte_qsize(const struct eng_sched_be_conf *c)
{
	uint64_t per_q = (uint64_t)rte_align32pow2(c->max_flows) * RTE_SCHED_BE_QUEUES_PER_PIPE *
			sizeof(struct rte_mbuf *);
	uint32_t q = RTE_MIN(rte_align32pow2(c->flow_queue), 32768u);

	while (q > BE_RTE_QMIN && per_q * q > BE_RTE_QMEM)
		q >>= 1;
	return q;
}

static uint32_t
be_rte_queue_cap(const struct eng_sched_be_conf *c)
{
	return RTE_MIN(be_rte_qsize(c), c->flow_queue);
}

static void *
be_rte_create(const struct eng_sched_be_conf *c)
{
	struct rte_sched_subport_profile_params sp;
	struct rte_sched_subport_params sub;
	struct rte_sched_pipe_params pp;
	struct rte_sched_port_params pt;
	struct be_rte *b;

	b = rte_zmalloc_socket("sched_be_rte", sizeof(*b) + c->max_flows * sizeof(b->weights[0]),
			0, c->socket);
	if (b == NULL)
		return NULL;
	b->rate = (c->rate_bps ? c->rate_bps : BE_RTE_UNSHAPED_BPS) / 8;
	b->max_flows = c->max_flows;
	b->n_pipes = rte_align32pow2(c->max_flows);
	b->overhead = c->overhead;
	b->frame = ENG_MAX_FRAME + c->overhead;
	snprintf(b->name, sizeof(b->name), "sched_%.24s", c->task);
	memset(&sp, 0, sizeof(sp));
	sp.tb_rate = b->rate;
	sp.tb_size = BE_RTE_TB_SIZE;
	sp.tc_rate[RTE_SCHED_TRAFFIC_CLASS_BE] = b->rate;
	for (int i = 0; i < RTE_SCHED_TRAFFIC_CLASS_BE; i++)
		sp.tc_rate[i] = b->rate;
	sp.tc_period = BE_RTE_TC_PERIOD_MS;
	memset(&pt, 0, sizeof(pt));
	pt.name = b->name;
	pt.socket = c->socket;
	pt.rate = b->rate;
	pt.mtu = ENG_MAX_FRAME;
	pt.frame_overhead = c->overhead;
	pt.n_subports_per_port = 1;
	pt.subport_profiles = &sp;
	pt.n_subport_profiles = 1;
	pt.n_max_subport_profiles = 1;
	pt.n_pipes_per_subport = b->n_pipes;
	b->port = rte_sched_port_config(&pt);
	if (b->port == NULL) {
		rte_free(b);
		return NULL;
	}
	be_rte_profile(&pp, b->rate, b->frame);
	memset(&sub, 0, sizeof(sub));
	sub.n_pipes_per_subport_enabled = b->n_pipes;
	sub.qsize[RTE_SCHED_TRAFFIC_CLASS_BE] = (uint16_t)be_rte_qsize(c);
	sub.pipe_profiles = &pp;
	sub.n_pipe_profiles = 1;
	sub.n_max_pipe_profiles = RTE_MIN(c->max_flows + 1, BE_RTE_MAX_PROFILES);
	if (rte_sched_subport_config(b->port, 0, &sub, 0) != 0) {
		rte_sched_port_free(b->port);
		rte_free(b);
		return NULL;
	}
	return b;
}

static int
be_rte_flow(void *s, uint32_t id, uint32_t weight)
{
	struct be_rte *b = s;

	if (id >= b->max_flows)
		return -EINVAL;
	b->weights[id] = weight;
	if (id + 1 > b->nb_flows)
		b->nb_flows = id + 1;
	return 0;
}

/* A pipe profile per distinct weight (profile 0: the whole port), then
 * every flow's pipe. */
static int
be_rte_start(void *s)
{
	struct be_rte *b = s;
	uint32_t prof_w[BE_RTE_MAX_PROFILES], prof_id[BE_RTE_MAX_PROFILES], nprof = 0, i, j;
	struct rte_sched_pipe_params pp;
	uint64_t sum = 0;
	int rc;

	for (i = 0; i < b->nb_flows; i++)
		sum += b->weights[i];
	for (i = 0; i < b->nb_flows; i++) {
		for (j = 0; j < nprof && prof_w[j] != b->weights[i]; j++)
			;
		if (j == nprof) {
			uint64_t rate = (uint64_t)((unsigned __int128)b->rate * b->weights[i] / sum);

			if (nprof + 1 == BE_RTE_MAX_PROFILES)
				return -ENOSPC;
			prof_id[j] = 0; /* the whole port: profile 0 (rte_sched refuses a copy) */
			be_rte_profile(&pp, rate, b->frame);
			if (rate != b->rate) {
				rc = rte_sched_subport_pipe_profile_add(b->port, 0, &pp, &prof_id[j]);
				if (rc != 0)
					return rc;
			}
			prof_w[nprof++] = b->weights[i];
		}
		rc = rte_sched_pipe_config(b->port, 0, i, (int32_t)prof_id[j]);
		if (rc != 0)
			return rc;
	}
	return 0;
}

static uint32_t
be_rte_enqueue(void *s, struct rte_mbuf **pkts, const uint32_t *ids, uint32_t n, uint64_t now,
		uint64_t *drop)
{
	struct be_rte *b = s;
	uint32_t i;

	RTE_SET_USED(now);
	RTE_SET_USED(drop); /* rte_sched frees what it drops; counted by the task */
	for (i = 0; i < n; i++)
		rte_sched_port_pkt_write(b->port, pkts[i], 0, ids[i], RTE_SCHED_TRAFFIC_CLASS_BE, 0,
				RTE_COLOR_GREEN);
	return (uint32_t)rte_sched_port_enqueue(b->port, pkts, n);
}

/* Unshaped: one burst; shaped: packet by packet within the byte budget. */
static uint32_t
be_rte_dequeue(void *s, struct rte_mbuf **pkts, uint32_t *ids, uint32_t *lens, uint32_t n,
		uint64_t max_bytes, uint64_t now)
{
	struct be_rte *b = s;
	uint64_t wire = 0;
	uint32_t k = 0, i;

	RTE_SET_USED(now);
	if (max_bytes == UINT64_MAX)
		k = (uint32_t)rte_sched_port_dequeue(b->port, pkts, n);
	else
		while (k < n && wire < max_bytes && rte_sched_port_dequeue(b->port, &pkts[k], 1) == 1)
			wire += pkts[k++]->pkt_len + b->overhead;
	for (i = 0; i < k; i++) { /* the flow tag gave way to the tree path: pipe = flow */
		uint32_t subport, pipe, tc, queue;

		rte_sched_port_pkt_read_tree_path(b->port, pkts[i], &subport, &pipe, &tc, &queue);
		ids[i] = pipe;
		lens[i] = pkts[i]->pkt_len;
	}
	return k;
}

static const char *
be_rte_name(const void *s)
{
	RTE_SET_USED(s);
	return "rte_sched";
}

static uint32_t
be_rte_backlog(const void *s, uint32_t id)
{
	const struct be_rte *b = s;
	struct rte_sched_queue_stats st;
	uint16_t qlen = 0;

	/* queue index: pipe x 16 + the first best-effort queue (subport 0) */
	if (rte_sched_queue_read_stats(b->port, id * RTE_SCHED_QUEUES_PER_PIPE +
			RTE_SCHED_TRAFFIC_CLASS_BE, &st, &qlen) != 0)
		return 0;
	return qlen;
}

static void
be_rte_free(void *s)
{
	struct be_rte *b = s;
	struct rte_mbuf *pkts[64];
	int k;

	if (b == NULL)
		return;
	while ((k = rte_sched_port_dequeue(b->port, pkts, 64)) > 0)
		rte_pktmbuf_free_bulk(pkts, (unsigned int)k);
	rte_sched_port_free(b->port);
	rte_free(b);
}

const struct eng_sched_be eng_sched_be_rte = {
	.check = be_rte_check,
	.names = be_rte_names,
	.queue_cap = be_rte_queue_cap,
	.create = be_rte_create,
	.flow = be_rte_flow,
	.start = be_rte_start,
	.enqueue = be_rte_enqueue,
	.dequeue = be_rte_dequeue,
	.name = be_rte_name,
	.backlog = be_rte_backlog,
	.free = be_rte_free,
};
