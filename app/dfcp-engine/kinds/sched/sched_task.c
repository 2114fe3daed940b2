/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched: the scheduler lcore of a host. Worker tasks attach flows with
 * eng_egress_attach() during set-up; each producer task gets one
 * single-producer/single-consumer rte_ring for all its flows and tags every
 * mbuf with its flow id (core/egress.h). This task classifies what the rings
 * bring into a scheduler backend (sched_be.h: lib/sched's WF2Q+, DRR or
 * FIFO, or DPDK's rte_sched; one queue per flow, weight per flow) and
 * transmits in scheduling order on its port, shaped by lib/pace at a
 * configured rate or the port's line rate. The cost per packet does not
 * depend on the number of flows (doc/scheduler.md, "Hand-off").
 *
 * Back-pressure instead of loss: a flow may have at most its limit of
 * packets in its ring and the scheduler together (the backlog budget shared
 * by the flows in flight, within 4 .. flow_queue: sched_priv.h); the
 * producer refuses (and counts) what would exceed it. Packets the tx queue
 * refuses wait in a pending buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "config/config.h"
#include "core/egress.h"
#include "core/log.h"
#include "core/runtime.h"
#include "kinds/sched/sched.h"
#include "kinds/sched/sched_be.h"
#include "kinds/sched/sched_priv.h"
#include "pace.h"
#include "pktsched.h"

/* bursts per producer ring per poll: one, so that with thousands of flows
 * every producer's ring is visited often and none waits behind the others */
#define SCH_DRAIN 1
#define SCH_POOL_BACKLOG 16384u  /* backlog_budget = auto: mbufs the pool reserves for it */
#define SCH_FLOW_QUEUE 64u       /* flow_queue = auto: the most a lone flow may hold */
#define SCH_FLOW_MIN 4u          /* a flow's limit however many flows are backlogged */

/* The backends, first match of `sched` wins (sched_be.h): a backend is its
 * file, its line here and meson; the names in messages come from them. */
static const struct eng_sched_be *const eng_sched_backends[] = {
	&eng_sched_be_lib,
	&eng_sched_be_rte,
};

struct eng_sched_conf {
	char algo[16];
	int rate_line;           /* rate = line (default) */
	uint64_t rate_bps;       /* 0 with !rate_line: unshaped */
	uint32_t quantum;
	uint32_t max_flows;
	uint32_t flow_queue;     /* packets per flow in its ring and the scheduler, at most */
	uint32_t backlog_budget; /* packets in the scheduler, all flows, at most */
	uint32_t ring_size;      /* per producer task */
	uint32_t overhead;       /* bytes per packet on the wire */
};

static const struct eng_sched_be *
eng_sched_backend(const char *algo)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(eng_sched_backends); i++)
		if (eng_sched_backends[i]->check(algo) == 0)
			return eng_sched_backends[i];
	return NULL;
}

/* "wf2q+, drr, fifo or rte_sched": every backend's algorithms. */
static void
eng_sched_names(char *buf, size_t len)
{
	char one[128];
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < RTE_DIM(eng_sched_backends) && off < len; i++) {
		eng_sched_backends[i]->names(one, sizeof(one));
		off += (size_t)snprintf(buf + off, len - off, "%s%s",
				i == 0 ? "" : i + 1 == RTE_DIM(eng_sched_backends) ? " or " : ", ", one);
	}
}

static int
eng_sched_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_sched_conf *c;
	const char *v;
	int rc;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	snprintf(c->algo, sizeof(c->algo), "%s", sched_algo_name(0));
	c->rate_line = 1;
	c->max_flows = 64;
	c->ring_size = 1024;
	c->overhead = ENG_L1_OVERHEAD;
	rc = eng_task_parse_port(t, sec, cfg, "port", NULL, "txq", 1);
	if (rc == 0)
		rc = eng_sec_str(sec, "sched", c->algo, sizeof(c->algo));
	if (rc == 0 && eng_sched_backend(c->algo) == NULL) {
		char names[256];

		eng_sched_names(names, sizeof(names));
		return eng_sec_error(sec, "sched", "unknown scheduler \"%s\" (expected %s)",
				c->algo, names);
	}
	v = eng_sec_get(sec, "rate");
	if (rc == 0 && v != NULL) {
		if (strcasecmp(v, "line") == 0) {
			c->rate_line = 1;
		} else if (strcasecmp(v, "off") == 0 || strcasecmp(v, "unlimited") == 0) {
			c->rate_line = 0;
		} else {
			c->rate_line = 0;
			rc = eng_sec_rate(sec, "rate", 1000, PACE_RATE_MAX, &c->rate_bps);
		}
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "quantum", 64, 1u << 24, &c->quantum);
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_flows", 1, 65536, &c->max_flows);
	/* flow_queue caps a flow's limit, backlog_budget is what the flows share
	 * (eng_sched_limit): a lone flow gets flow_queue whatever max_flows is,
	 * 4096 backlogged flows 4 each */
	c->flow_queue = SCH_FLOW_QUEUE;
	if (rc == 0 && eng_sec_get(sec, "flow_queue") != NULL &&
			strcasecmp(eng_sec_get(sec, "flow_queue"), "auto") != 0)
		rc = eng_sec_u32(sec, "flow_queue", 1, 65536, &c->flow_queue);
	c->backlog_budget = SCH_POOL_BACKLOG;
	if (rc == 0 && eng_sec_get(sec, "backlog_budget") != NULL &&
			strcasecmp(eng_sec_get(sec, "backlog_budget"), "auto") != 0)
		rc = eng_sec_u32(sec, "backlog_budget", 1, 1u << 22, &c->backlog_budget);
	if (rc == 0)
		rc = eng_sec_u32(sec, "ring_size", 32, 1u << 20, &c->ring_size);
	if (rc == 0)
		rc = eng_sec_u32(sec, "overhead", 0, 1024, &c->overhead);
	return rc;
}

/* Every task's "egress" names a sched task (config time, FILE:LINE errors). */
static int
eng_sched_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j;

	for (i = 0; i < cfg->nb_tasks; i++) {
		const struct eng_task *t = &cfg->tasks[i];

		if (t->egress[0] == '\0')
			continue;
		/* a task, or the first shard of a spread one (core/egress.c) */
		for (j = 0; j < cfg->nb_tasks; j++)
			if (strcmp(cfg->tasks[j].name, t->egress) == 0 ||
					(cfg->tasks[j].spread_n != 0 &&
					 strcmp(cfg->tasks[j].spread, t->egress) == 0))
				break;
		if (j == cfg->nb_tasks || cfg->tasks[j].ops != &eng_task_sched || j == i) {
			snprintf(err, errlen, "%s:%d: [task %s] egress: %s \"%s\" (expected the name "
					"of a [task NAME] with kind = sched)", cfg->file, t->egress_line,
					t->name, j == cfg->nb_tasks ? "no task named" : "not a sched task:",
					t->egress);
			return -EINVAL;
		}
	}
	return 0;
}

/* The packets the scheduler may hold: the budget, or all flows at their cap if less. */
static uint32_t
eng_sched_budget(const struct eng_sched_conf *c, uint32_t flow_queue)
{
	return (uint32_t)RTE_MIN((uint64_t)c->max_flows * flow_queue, c->backlog_budget);
}

/* The producers' rings, the flows' packets in the scheduler (at most the
 * budget, 16384 by default: a pool sized for max_flows x flow_queue would be
 * cycled through by the mempool's FIFO ring, cold), the pending buffer. */
static uint64_t
eng_sched_pool_need(const struct eng_task *t, const struct eng_config *cfg)
{
	const struct eng_sched_conf *c = t->conf;

	return 2ull * t->burst + (uint64_t)cfg->nb_tasks * c->ring_size +
			eng_sched_budget(c, c->flow_queue) + SCH_MAX_BURST;
}

static void
eng_sched_priv_free(struct eng_sched_priv *p)
{
	if (p == NULL)
		return;
	if (p->bs != NULL)
		p->be->free(p->bs);
	rte_free(p->pace);
	rte_free(p->ins);
	rte_free(p->txh);
	rte_free(p->drops);
	rte_free(p->done);
	rte_free(p->names);
	rte_free(p);
}

/* Created by the first of eng_egress_attach() and setup(). */
static struct eng_sched_priv *
eng_sched_priv_get(struct eng_task *t, struct eng_runtime *rt)
{
	const struct eng_sched_conf *c = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	int socket = (int)rte_lcore_to_socket_id(t->lcore_id);
	struct eng_sched_be_conf bc;
	struct eng_sched_priv *p;
	uint32_t nf = c->max_flows;

	if (t->priv != NULL)
		return t->priv;
	t->rt = rt;
	p = rte_zmalloc_socket("sched_task", sizeof(*p) + nf * sizeof(p->flows[0]),
			RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return NULL;
	p->max_ins = rt->cfg->nb_tasks;
	p->ins = rte_zmalloc_socket("sched_ins", p->max_ins * sizeof(p->ins[0]), 0, socket);
	p->txh = rte_zmalloc_socket("sched_txh", nf * sizeof(p->txh[0]), RTE_CACHE_LINE_SIZE,
			socket);
	p->drops = rte_zmalloc_socket("sched_drops", nf * sizeof(p->drops[0]), 0, socket);
	p->done = rte_zmalloc_socket("sched_done", nf * sizeof(p->done[0]), RTE_CACHE_LINE_SIZE,
			socket);
	p->names = rte_zmalloc_socket("sched_names", nf * sizeof(p->names[0]), 0, socket);
	p->be = eng_sched_backend(c->algo);
	if (p->ins == NULL || p->txh == NULL || p->drops == NULL || p->done == NULL ||
			p->names == NULL || p->be == NULL) {
		eng_sched_priv_free(p);
		return NULL;
	}
	memset(&bc, 0, sizeof(bc));
	bc.algo = c->algo;
	bc.task = t->name;
	bc.max_flows = nf;
	bc.flow_queue = c->flow_queue;
	bc.quantum = c->quantum;
	bc.overhead = c->overhead;
	bc.rate_bps = c->rate_bps;
	bc.socket = socket;
	if (p->be->queue_cap != NULL)
		bc.flow_queue = p->be->queue_cap(&bc);
	bc.backlog = eng_sched_budget(c, bc.flow_queue);
	p->bs = p->be->create(&bc);
	if (p->bs == NULL) {
		ENG_LOG(ERR, task, "sched %s: cannot create the %s scheduler", t->name, c->algo);
		eng_sched_priv_free(p);
		return NULL;
	}
	p->port_id = rt->ports[tp->port_idx].port_id;
	p->txq = tp->txq;
	p->max_flows = nf;
	p->flow_queue = bc.flow_queue;
	p->budget = bc.backlog;
	p->flow_min = RTE_MIN(SCH_FLOW_MIN, p->flow_queue);
	p->flows_seen = nf; /* the limit of the flows' first packets: all in flight */
	p->flow_limit = eng_sched_limit(p, nf);
	if (bc.flow_queue < c->flow_queue)
		ENG_LOG(INFO, task, "sched %s: flow_queue %u (%s)", t->name, bc.flow_queue, c->algo);
	p->overhead = c->overhead;
	p->ring_size = c->ring_size;
	p->clk = rt->clock;
	t->priv = p;
	return p;
}

/* The producer task's ring, created at its first flow. */
static struct rte_ring *
eng_sched_in_get(struct eng_task *t, struct eng_sched_priv *p, const struct eng_task *prod)
{
	char rname[RTE_RING_NAMESIZE];
	struct eng_sched_in *in;
	unsigned int i;

	for (i = 0; i < p->nb_ins; i++)
		if (p->ins[i].prod == prod)
			return p->ins[i].ring;
	if (p->nb_ins == p->max_ins)
		return NULL;
	in = &p->ins[p->nb_ins];
	snprintf(rname, sizeof(rname), "sch%u_%u", (unsigned int)(t - t->rt->cfg->tasks),
			p->nb_ins);
	in->ring = rte_ring_create(rname, p->ring_size, (int)rte_lcore_to_socket_id(t->lcore_id),
			RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (in->ring == NULL) {
		ENG_LOG(ERR, task, "sched %s: cannot create ring %s: %s", t->name, rname,
				rte_strerror(rte_errno));
		return NULL;
	}
	in->prod = prod;
	p->nb_ins++;
	return in->ring;
}

/* What the egress path cannot check: the phase and the weight's range. */
static int
eng_sched_attach_ok(const struct eng_runtime *rt, const char *sched_task, const char *flow_name,
		uint32_t weight)
{
	if (rt->phase != ENG_PHASE_INIT) {
		ENG_LOG(ERR, task, "flow %s: flows attach to %s during set-up only", flow_name,
				sched_task);
		return 0;
	}
	if (weight < 1 || weight > SCHED_WEIGHT_MAX) {
		ENG_LOG(ERR, task, "flow %s: weight %u out of range 1..%u", flow_name, weight,
				SCHED_WEIGHT_MAX);
		return 0;
	}
	return 1;
}

/* egress_attach (core/egress.h): a producer's flow joins this sched task. */
static struct eng_egress_flow *
eng_sched_attach(struct eng_runtime *rt, struct eng_task *t, const struct eng_task *producer,
		const char *flow_name, uint32_t weight, uint32_t *flow_id)
{
	const char *sched_task = t->name;
	struct eng_sched_priv *p;
	struct eng_egress_flow *h;
	struct rte_ring *ring;
	uint32_t id;

	if (!eng_sched_attach_ok(rt, sched_task, flow_name, weight))
		return NULL;
	p = eng_sched_priv_get(t, rt);
	if (p == NULL) {
		ENG_LOG(ERR, task, "flow %s: sched task %s: out of memory", flow_name, sched_task);
		return NULL;
	}
	if (p->nb_flows == p->max_flows) {
		ENG_LOG(ERR, task, "flow %s: sched task %s already has max_flows = %u flows",
				flow_name, sched_task, p->max_flows);
		return NULL;
	}
	ring = eng_sched_in_get(t, p, producer);
	id = p->nb_flows;
	if (ring == NULL || p->be->flow(p->bs, id, weight) < 0) {
		ENG_LOG(ERR, task, "flow %s: sched task %s: cannot add the flow", flow_name,
				sched_task);
		return NULL;
	}
	h = &p->txh[id];
	h->ring = ring;
	h->done = &p->done[id];
	h->id = id;
	h->limit = p->flow_queue;
	p->flows[id].weight = weight;
	eng_sched_publish(p, &p->flows[id], id, 0);
	h->done_seen = p->done[id]; /* the first limit holds from the first packet */
	snprintf(p->names[id], sizeof(p->names[id]), "%s", flow_name);
	*flow_id = id;
	p->nb_flows++;
	ENG_LOG(DEBUG, task, "sched %s: flow %s attached (id %u, weight %u)", sched_task,
			flow_name, id, weight);
	return h;
}

static int
eng_sched_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_sched_conf *c = t->conf;
	struct eng_sched_priv *p;
	uint64_t rate = c->rate_bps;
	struct pace_conf pc;

	p = eng_sched_priv_get(t, rt);
	if (p == NULL)
		return -ENOMEM;
	if (c->rate_line) {
		struct rte_eth_link link;

		memset(&link, 0, sizeof(link));
		if (rte_eth_link_get_nowait(p->port_id, &link) == 0 && link.link_speed != 0 &&
				link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
			rate = (uint64_t)link.link_speed * 1000000ull;
		else
			ENG_LOG(WARNING, task,
					"sched %s: port speed unknown: not shaped (set rate = ...)",
					t->name);
	}
	p->rate_bps = rate;
	if (rate != 0) {
		memset(&pc, 0, sizeof(pc));
		pc.rate_bps = rate;
		pc.overhead = p->overhead;
		pc.catchup_ns = rt->cfg->pace_catchup_ns;
		p->pace = rte_zmalloc_socket("sched_pace", pace_size(), 16, socket);
		if (p->pace == NULL || pace_init(p->pace, pace_size(), &pc) == NULL) {
			ENG_LOG(ERR, task, "sched %s: cannot shape at %" PRIu64 " bit/s", t->name,
					rate);
			return -EINVAL;
		}
	}
	if (rate != 0)
		ENG_LOG(INFO, task, "sched %s: %s, shaped at %.3f Mbit/s, %u flow(s) attached",
				t->name, p->be->name(p->bs), (double)rate / 1e6, p->nb_flows);
	else
		ENG_LOG(INFO, task, "sched %s: %s, unshaped (as fast as the port takes), %u flow(s) "
				"attached", t->name, p->be->name(p->bs), p->nb_flows);
	return 0;
}

/* Transmit n packets of lens[] bytes; what the tx queue refuses waits. */
static inline void
eng_sched_tx(struct eng_sched_priv *p, struct rte_mbuf **pkts, const uint32_t *lens, uint16_t n)
{
	uint16_t sent = eng_port_tx(p->port_id, p->txq, pkts, n), i;

	for (i = 0; i < sent; i++)
		p->tx_bytes += lens[i];
	p->tx_pkts += sent;
	if (sent < n) {
		p->tx_retries++;
		for (i = sent; i < n; i++)
			p->pend[p->pend_off + p->pend_n++] = pkts[i];
	}
}

/*
 * The shaping point: lib/pace's virtual schedule (rate, overhead, the
 * engine's pace_catchup bound on the credit kept after a stall). One
 * backend dequeue of up to a burst, stopped at the packet that reaches the
 * pacer's budget; a backend that ran empty is an idle link (no credit kept
 * beyond the packet in progress), told to the backend by one more call
 * that finds nothing (the end of its busy period). Unshaped: one burst.
 */
static inline uint32_t
eng_sched_shaped_dequeue(struct eng_sched_priv *p, struct rte_mbuf **pkts, uint32_t *ids,
		uint32_t *lens, uint32_t burst, uint64_t now)
{
	uint64_t budget, bytes = 0;
	uint32_t n, i;

	if (p->pace == NULL)
		return p->be->dequeue(p->bs, pkts, ids, lens, burst, UINT64_MAX, now);
	budget = pace_budget(p->pace, now);
	if (budget == 0)
		return 0;
	n = p->be->dequeue(p->bs, pkts, ids, lens, burst, budget, now);
	for (i = 0; i < n; i++)
		bytes += lens[i];
	if (n < burst && bytes + (uint64_t)n * p->overhead < budget) {
		/* ran empty (nothing arrives in between: this call finds nothing) */
		if (p->be->dequeue(p->bs, &pkts[n], &ids[n], &lens[n], 1, UINT64_MAX, now) == 0)
			pace_idle(p->pace, now);
		else
			bytes += lens[n++];
	}
	if (n != 0)
		pace_sent(p->pace, n, bytes);
	return n;
}

/*
 * The backend refused some of a burst (counted per flow in drops[]): those
 * packets left their flows' limits and the backlog too, so done[] says so at
 * once (else the producer would count them in flight for ever and, at its
 * limit of them, refuse the flow's every packet). rte_sched's drops have no
 * flow: they stay in their flow's qlen.
 */
static void
eng_sched_drops_done(struct eng_sched_priv *p, const uint32_t *ids, uint32_t n, uint32_t dropped)
{
	uint32_t i;

	p->be_drops += dropped;
	p->backlog -= dropped;
	for (i = 0; i < n; i++) {
		struct eng_sched_flow *fl = &p->flows[ids[i]];

		if (p->drops[ids[i]] == fl->drops_seen)
			continue;
		fl->qlen -= (uint32_t)(p->drops[ids[i]] - fl->drops_seen);
		if (fl->qlen == 0)
			p->active--;
		fl->drops_seen = p->drops[ids[i]];
		eng_sched_publish(p, fl, ids[i], fl->tx_pkts + fl->drops_seen);
	}
}

/* classify: mbufs prefetched ahead, both lines: the tag and pkt_len (line 1), and
 * line 2 for the port's free at the end of the poll (nothing writes it on the
 * way: without this prefetch it is a cold miss there) */
#define SCH_PF_AHEAD 8

/* Producer rings -> the backend. The producers admitted every packet
 * against its flow's limit; an unknown flow id is counted and freed. The
 * flow id is read once, here; qlen and active count what the backend holds. */
static inline void
eng_sched_classify(struct eng_sched_priv *p, struct rte_mbuf **pkts, uint32_t k, uint64_t now)
{
	uint32_t ids[SCH_MAX_BURST];
	struct eng_sched_flow *fl;
	uint32_t i, j = 0;

	for (i = 0; i < k && i < SCH_PF_AHEAD; i++) {
		rte_prefetch0(pkts[i]);
		rte_prefetch0((char *)pkts[i] + RTE_CACHE_LINE_SIZE);
	}
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = pkts[i];
		uint32_t id = eng_egress_flow_id(m);

		if (i + SCH_PF_AHEAD < k) {
			rte_prefetch0(pkts[i + SCH_PF_AHEAD]);
			rte_prefetch0((char *)pkts[i + SCH_PF_AHEAD] + RTE_CACHE_LINE_SIZE);
		}
		if (unlikely(id >= p->nb_flows)) {
			p->bad_flow++;
			rte_pktmbuf_free(m);
			continue;
		}
		fl = &p->flows[id];
		fl->enq_pkts++;
		fl->enq_bytes += m->pkt_len;
		if (fl->qlen++ == 0)
			p->active++;
		if (fl->qlen > fl->qlen_peak)
			fl->qlen_peak = fl->qlen;
		ids[j] = id;
		pkts[j++] = m;
	}
	if (j != 0) {
		uint32_t q;

		p->backlog += j;
		if (p->backlog > p->backlog_peak)
			p->backlog_peak = p->backlog;
		q = p->be->enqueue(p->bs, pkts, ids, j, now, p->drops);

		if (unlikely(q < j))
			eng_sched_drops_done(p, ids, j, j - q);
	}
}

/* Once, at the first poll: all flows are attached (any task order). */
static int
eng_sched_start(struct eng_task *t, struct eng_sched_priv *p)
{
	int rc = p->be->start(p->bs);

	p->win_cur = p->nb_flows; /* the first window: every flow attached in flight */
	p->started = rc == 0 ? 1 : -1;
	if (rc != 0)
		ENG_LOG(ERR, task, "sched %s: cannot start the %s scheduler: %s", t->name,
				p->be->name(p->bs), strerror(-rc));
	return rc;
}

static uint16_t
eng_sched_poll(struct eng_task *t, uint64_t tsc)
{
	struct eng_sched_priv *p = t->priv;
	struct rte_mbuf *pkts[SCH_MAX_BURST];
	uint32_t ids[SCH_MAX_BURST], lens[SCH_MAX_BURST];
	uint64_t now = eng_clock_ns(&p->clk, tsc); /* the lcore loop's, read after the last poll */
	uint32_t f, i, k, room, n = 0, burst = t->burst;

	if (unlikely(p->started <= 0) && (p->started < 0 || eng_sched_start(t, p) != 0))
		return 0;
	if (unlikely(t->rt->phase != ENG_PHASE_RUN && !p->run_over)) {
		/* shares during the run, before the rings drain */
		for (f = 0; f < p->nb_flows; f++) {
			p->flows[f].run_tx_pkts = p->flows[f].tx_pkts;
			p->flows[f].run_tx_bytes = p->flows[f].tx_bytes;
		}
		p->run_over = 1;
	}
	/* 1. producer rings -> scheduler: one ring per producer, not per flow;
	 * up to SCH_DRAIN bursts each while the scheduler holds less than the
	 * budget (the rest waits: the backend never runs out of room, whatever
	 * limits the producers saw), from a ring that turns each poll; what
	 * stays in the rings counts for the limit (eng_sched_limit_update) */
	room = p->budget - p->backlog;
	p->ring_pkts = 0;
	for (f = 0, i = p->in_first; f < p->nb_ins; f++, i = i + 1 == p->nb_ins ? 0 : i + 1) {
		uint32_t d = 0, left;

		if (room == 0) {
			p->ring_pkts += rte_ring_count(p->ins[i].ring);
			continue;
		}
		do {
			k = rte_ring_sc_dequeue_burst(p->ins[i].ring, (void **)pkts,
					RTE_MIN(burst, room), &left);
			if (k != 0)
				eng_sched_classify(p, pkts, k, now);
			room -= k;
		} while (k == burst && ++d < SCH_DRAIN && room != 0);
		p->ring_pkts += left;
	}
	if (p->nb_ins > 1)
		p->in_first = p->in_first + 1 == p->nb_ins ? 0 : p->in_first + 1;
	/* 2. what the tx queue refused last time goes first */
	if (p->pend_n != 0) {
		uint16_t sent = eng_port_tx(p->port_id, p->txq, &p->pend[p->pend_off], p->pend_n);

		for (i = 0; i < sent; i++)
			p->tx_bytes += p->pend[p->pend_off + i]->pkt_len;
		p->tx_pkts += sent;
		p->pend_off += sent;
		p->pend_n -= sent;
		if (p->pend_n != 0)
			return sent;
	}
	p->pend_off = 0;
	/* 3. scheduling order, shaped; each packet out gives its flow room,
	 * published with the limit for the flows in flight now */
	eng_sched_limit_update(p, now);
	n = eng_sched_shaped_dequeue(p, pkts, ids, lens, burst, now);
	for (i = 0; i < n; i++) {
		struct eng_sched_flow *fl = &p->flows[ids[i]];
		uint64_t out;

		fl->tx_bytes += lens[i];
		out = ++fl->tx_pkts + fl->drops_seen;
		if (--fl->qlen == 0)
			p->active--;
		if (out - fl->done_pub >= fl->pub_step) /* no read of done[] */
			eng_sched_publish(p, fl, ids[i], out);
	}
	p->backlog -= n;
	if (n != 0)
		eng_sched_tx(p, pkts, lens, (uint16_t)n);
	return (uint16_t)n;
}

static void
eng_sched_stats_cb(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct eng_sched_priv *p = t->priv;
	uint32_t f;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	out->tx_packets = p->tx_pkts;
	out->tx_bytes = p->tx_bytes;
	out->rx_bad = p->bad_flow;
	out->tx_dropped = p->be_drops;
	for (f = 0; f < p->nb_flows; f++) {
		out->rx_packets += p->flows[f].enq_pkts;
		out->rx_bytes += p->flows[f].enq_bytes;
	}
}

static void
eng_sched_teardown(struct eng_task *t)
{
	struct eng_sched_priv *p = t->priv;
	void *objs[64];
	unsigned int k, i;

	if (p == NULL)
		return;
	if (p->pend_n)
		rte_pktmbuf_free_bulk(&p->pend[p->pend_off], p->pend_n);
	for (i = 0; i < p->nb_ins; i++) {
		while ((k = rte_ring_sc_dequeue_burst(p->ins[i].ring, objs, 64, NULL)) > 0)
			rte_pktmbuf_free_bulk((struct rte_mbuf **)objs, k);
		rte_ring_free(p->ins[i].ring);
	}
	eng_sched_priv_free(p);
	t->priv = NULL;
}

const struct eng_task_ops eng_task_sched = {
	.name = "sched",
	.help = "scheduler lcore: one ring per producer, WF2Q+/DRR/FIFO or rte_sched, paced transmit",
	.parse = eng_sched_parse,
	.check = eng_sched_check,
	.pool_need = eng_sched_pool_need,
	.setup = eng_sched_setup,
	.egress_attach = eng_sched_attach,
	.poll = eng_sched_poll,
	.stats = eng_sched_stats_cb,
	.teardown = eng_sched_teardown,
	.report = eng_sched_report,
	.losses = eng_sched_losses,
	.tel = eng_sched_tel,
	.tables = eng_sched_tables,
};
