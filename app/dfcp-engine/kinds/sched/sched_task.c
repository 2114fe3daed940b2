/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * sched: the scheduler lcore of a host. Worker tasks attach flows with
 * eng_sched_attach() during set-up and hand their packets over through one
 * single-producer/single-consumer rte_ring per flow; this task moves them
 * into a lib/sched instance (WF2Q+, DRR or FIFO; one queue per flow, weight
 * per flow) and transmits in scheduling order on its port, paced on the TSC
 * at a configured rate or the port's line rate.
 *
 * Back-pressure instead of loss: a flow's packets are taken from its ring
 * only while it has fewer than flow_queue packets in the scheduler, so a
 * flow that offers more than its share fills its ring and the producer's
 * rte_ring_enqueue_burst() refuses packets (the producer decides: drop,
 * count, retry). Packets the tx queue refuses wait in a pending buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "kinds/route/route.h"
#include "kinds/sched/sched.h"
#include "obs/capture_tx.h"
#include "pktsched.h"

#define SCH_FP 16            /* fixed-point bits of the pacing clock */
#define SCH_MAX_BURST 512

struct eng_sched_conf {
	char algo[16];
	int rate_line;           /* rate = line (default) */
	uint64_t rate_bps;       /* 0 with !rate_line: unshaped */
	uint32_t quantum;
	uint32_t max_flows;
	uint32_t flow_queue;     /* packets per flow in the scheduler */
	uint32_t ring_size;
	uint32_t overhead;       /* bytes per packet on the wire */
};

struct eng_sched_flow {
	struct rte_ring *ring;
	uint32_t inq;            /* in the scheduler */
	uint32_t weight;
	uint64_t enq_pkts, enq_bytes, tx_pkts, tx_bytes, drop_pkts;
	uint64_t run_tx_pkts, run_tx_bytes; /* at the end of the run phase */
	char name[ENG_NAME_LEN];
} __rte_cache_aligned;

struct eng_sched_priv {
	struct sched *s;
	struct eng_clock clk;	/* the runtime clock */
	uint64_t shape_base_tsc;  /* origin of the shaping clock */
	uint16_t port_id, txq;
	uint32_t nb_flows, max_flows, flow_queue, overhead;
	uint64_t rate_bps;
	uint64_t cpb_fp;         /* TSC cycles per wire byte << SCH_FP; 0: unshaped */
	uint64_t t_free_fp;      /* when the shaped link is free, (tsc - base) << SCH_FP */
	uint64_t cap_fp;         /* credit kept after a stall */
	uint64_t tx_pkts, tx_bytes, tx_retries;
	int run_over;            /* run-phase counters taken */
	uint16_t pend_n, pend_off;
	struct rte_mbuf *pend[SCH_MAX_BURST];
	struct eng_sched_flow flows[];
};

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
	snprintf(c->algo, sizeof(c->algo), "wf2q+");
	c->rate_line = 1;
	c->max_flows = 64;
	c->flow_queue = 64;
	c->ring_size = 1024;
	c->overhead = 24;
	rc = eng_task_parse_port(t, sec, cfg, "port", NULL, "txq", 1);
	if (rc == 0)
		rc = eng_sec_str(sec, "sched", c->algo, sizeof(c->algo));
	if (rc == 0 && sched_algo_check(c->algo) != 0)
		return eng_sec_error(sec, "sched",
				"unknown scheduler \"%s\" (expected wf2q+, drr or fifo)", c->algo);
	v = eng_sec_get(sec, "rate");
	if (rc == 0 && v != NULL) {
		if (strcasecmp(v, "line") == 0) {
			c->rate_line = 1;
		} else if (strcasecmp(v, "off") == 0 || strcasecmp(v, "unlimited") == 0) {
			c->rate_line = 0;
		} else {
			c->rate_line = 0;
			rc = eng_sec_rate(sec, "rate", 1000, 400000000000ull, &c->rate_bps);
		}
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "quantum", 64, 1u << 24, &c->quantum);
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_flows", 1, 65536, &c->max_flows);
	if (rc == 0)
		rc = eng_sec_u32(sec, "flow_queue", 1, 65536, &c->flow_queue);
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
		for (j = 0; j < cfg->nb_tasks; j++)
			if (strcmp(cfg->tasks[j].name, t->egress) == 0)
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

/* The flows' rings and scheduler queues plus the pending buffer. */
static uint64_t
eng_sched_pool_need(const struct eng_task *t, const struct eng_config *cfg)
{
	const struct eng_sched_conf *c = t->conf;
	uint64_t flows = cfg->nb_tasks < c->max_flows ? cfg->nb_tasks : c->max_flows;

	return 2ull * t->burst + flows * ((uint64_t)c->ring_size + c->flow_queue) + SCH_MAX_BURST;
}

/* Created by the first of eng_sched_attach() and setup(). */
static struct eng_sched_priv *
eng_sched_priv_get(struct eng_task *t, struct eng_runtime *rt)
{
	const struct eng_sched_conf *c = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	int socket = (int)rte_lcore_to_socket_id(t->lcore_id);
	struct eng_sched_priv *p;
	struct sched_conf sc;

	if (t->priv != NULL)
		return t->priv;
	t->rt = rt;
	p = rte_zmalloc_socket("sched_task", sizeof(*p) + c->max_flows * sizeof(p->flows[0]),
			RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return NULL;
	memset(&sc, 0, sizeof(sc));
	sc.algo = c->algo;
	sc.nb_queues = c->max_flows;
	sc.limit_pkts = c->flow_queue;
	sc.pool_pkts = c->max_flows * c->flow_queue;
	sc.quantum = c->quantum;
	p->s = sched_create(&sc);
	if (p->s == NULL) {
		rte_free(p);
		return NULL;
	}
	p->port_id = rt->ports[tp->port_idx].port_id;
	p->txq = tp->txq;
	p->max_flows = c->max_flows;
	p->flow_queue = c->flow_queue;
	p->overhead = c->overhead;
	p->clk = rt->clock;
	p->shape_base_tsc = rte_rdtsc();
	t->priv = p;
	return p;
}

struct rte_ring *
eng_sched_attach(struct eng_runtime *rt, const char *sched_task, const char *flow_name,
		uint32_t weight, uint32_t *flow_id)
{
	const struct eng_sched_conf *c;
	struct eng_sched_priv *p;
	struct eng_sched_flow *f;
	char rname[RTE_RING_NAMESIZE];
	struct eng_task *t = NULL;
	unsigned int i;
	int socket;

	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (strcmp(rt->cfg->tasks[i].name, sched_task) == 0)
			t = &rt->cfg->tasks[i];
	if (t == NULL) {
		ENG_LOG(ERR, task, "flow %s: no task named \"%s\" to attach to", flow_name,
				sched_task);
		return NULL;
	}
	if (t->ops != &eng_task_sched) {
		ENG_LOG(ERR, task, "flow %s: task %s is a %s task, not a sched task", flow_name,
				sched_task, t->ops->name);
		return NULL;
	}
	if (rt->phase != ENG_PHASE_INIT) {
		ENG_LOG(ERR, task, "flow %s: flows attach to %s during set-up only", flow_name,
				sched_task);
		return NULL;
	}
	if (weight < 1 || weight > SCHED_WEIGHT_MAX) {
		ENG_LOG(ERR, task, "flow %s: weight %u out of range 1..%u", flow_name, weight,
				SCHED_WEIGHT_MAX);
		return NULL;
	}
	c = t->conf;
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
	f = &p->flows[p->nb_flows];
	socket = (int)rte_lcore_to_socket_id(t->lcore_id);
	snprintf(rname, sizeof(rname), "sch%u_%u", (unsigned int)(t - rt->cfg->tasks), p->nb_flows);
	f->ring = rte_ring_create(rname, c->ring_size, socket,
			RING_F_SP_ENQ | RING_F_SC_DEQ | RING_F_EXACT_SZ);
	if (f->ring == NULL) {
		ENG_LOG(ERR, task, "flow %s: sched task %s: cannot create ring %s: %s", flow_name,
				sched_task, rname, rte_strerror(rte_errno));
		return NULL;
	}
	if (sched_queue_set(p->s, p->nb_flows, weight, p->flow_queue, 0) < 0) {
		rte_ring_free(f->ring);
		f->ring = NULL;
		return NULL;
	}
	f->weight = weight;
	snprintf(f->name, sizeof(f->name), "%s", flow_name);
	*flow_id = p->nb_flows++;
	ENG_LOG(INFO, task, "sched %s: flow %s attached (id %u, weight %u)", sched_task, flow_name,
			*flow_id, weight);
	return f->ring;
}

static int
eng_sched_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_sched_conf *c = t->conf;
	struct eng_sched_priv *p;
	uint64_t rate = c->rate_bps;

	RTE_SET_USED(socket);
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
		p->cpb_fp = (uint64_t)(((unsigned __int128)rt->clock.hz * 8u << SCH_FP) / rate);
		if (p->cpb_fp == 0)
			p->cpb_fp = 1;
		p->cap_fp = (rt->clock.hz / 50) << SCH_FP; /* catch up at most 20 ms after a stall */
	}
	ENG_LOG(INFO, task, "sched %s: %s, %s%.3f Mbit/s, %u flow(s) attached", t->name,
			sched_algo(p->s), rate ? "" : "unshaped ", (double)rate / 1e6, p->nb_flows);
	return 0;
}

static inline void
eng_sched_tx(struct eng_sched_priv *p, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t sent = eng_port_tx(p->port_id, p->txq, pkts, n), i;

	for (i = 0; i < sent; i++)
		p->tx_bytes += pkts[i]->pkt_len;
	p->tx_pkts += sent;
	if (sent < n) {
		p->tx_retries++;
		for (i = sent; i < n; i++)
			p->pend[p->pend_off + p->pend_n++] = pkts[i];
	}
}

/*
 * The shaper: dequeue in scheduling order while the shaped link is free (a
 * fixed-point TSC clock advanced by each packet's wire bytes x cycles per
 * byte; idle time gives no credit, a stall at most cap_fp of catch-up).
 * Unshaped: one burst.
 */
static inline uint32_t
eng_sched_shaped_dequeue(struct eng_sched_priv *p, struct sched_pkt *sp, uint32_t burst, uint64_t now_tsc,
		uint64_t now)
{
	uint64_t now_fp = (now_tsc - p->shape_base_tsc) << SCH_FP;
	uint32_t n = 0;

	if (p->cpb_fp == 0)
		return sched_dequeue_burst(p->s, sp, burst, now);
	if (p->t_free_fp > now_fp)
		return 0;
	if (now_fp - p->t_free_fp > p->cap_fp)
		p->t_free_fp = now_fp - p->cap_fp;
	while (n < burst && p->t_free_fp <= now_fp) {
		if (sched_dequeue_burst(p->s, &sp[n], 1, now) == 0) {
			p->t_free_fp = now_fp; /* idle: no credit */
			break;
		}
		p->t_free_fp += (uint64_t)sp[n].len * p->cpb_fp;
		n++;
	}
	return n;
}

static uint16_t
eng_sched_poll(struct eng_task *t, uint64_t tsc)
{
	struct eng_sched_priv *p = t->priv;
	struct rte_mbuf *pkts[SCH_MAX_BURST];
	struct sched_pkt sp[SCH_MAX_BURST];
	uint64_t now_tsc = rte_rdtsc(), now = eng_clock_ns(&p->clk, now_tsc);
	uint32_t f, i, k, n = 0, burst = t->burst;

	RTE_SET_USED(tsc);
	if (unlikely(t->rt->phase != ENG_PHASE_RUN && !p->run_over)) {
		/* shares during the run, before the rings drain */
		for (f = 0; f < p->nb_flows; f++) {
			p->flows[f].run_tx_pkts = p->flows[f].tx_pkts;
			p->flows[f].run_tx_bytes = p->flows[f].tx_bytes;
		}
		p->run_over = 1;
	}
	/* 1. ring -> scheduler, while the flow has room there */
	for (f = 0; f < p->nb_flows; f++) {
		struct eng_sched_flow *fl = &p->flows[f];
		uint32_t room = p->flow_queue - fl->inq;

		if (room == 0)
			continue;
		if (room > burst)
			room = burst;
		k = rte_ring_sc_dequeue_burst(fl->ring, (void **)pkts, room, NULL);
		for (i = 0; i < k; i++) {
			struct rte_mbuf *m = pkts[i];

			if (sched_enqueue(p->s, f, (uintptr_t)m, m->pkt_len + p->overhead, now) < 0) {
				fl->drop_pkts++;
				rte_pktmbuf_free(m);
				continue;
			}
			fl->inq++;
			fl->enq_pkts++;
			fl->enq_bytes += m->pkt_len;
		}
	}
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
	/* 3. scheduling order, paced */
	n = eng_sched_shaped_dequeue(p, sp, burst, now_tsc, now);
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = (struct rte_mbuf *)(uintptr_t)sp[i].pkt;
		struct eng_sched_flow *fl = &p->flows[sp[i].queue];

		fl->inq--;
		fl->tx_pkts++;
		fl->tx_bytes += m->pkt_len;
		pkts[i] = m;
	}
	if (n != 0)
		eng_sched_tx(p, pkts, (uint16_t)n);
	return (uint16_t)n;
}

int
eng_sched_task_stats(const struct eng_task *t, struct eng_sched_stats *st,
		struct eng_sched_flow_stats *flows, uint32_t max)
{
	const struct eng_sched_priv *p = t->priv;
	uint32_t f;

	if (t->ops != &eng_task_sched || p == NULL)
		return -EINVAL;
	memset(st, 0, sizeof(*st));
	st->algo = sched_algo(p->s);
	st->rate_bps = p->rate_bps;
	st->nb_flows = p->nb_flows;
	st->tx_pkts = p->tx_pkts;
	st->tx_bytes = p->tx_bytes;
	st->tx_retries = p->tx_retries;
	for (f = 0; f < p->nb_flows && f < max; f++) {
		const struct eng_sched_flow *fl = &p->flows[f];
		struct eng_sched_flow_stats *o = &flows[f];

		memset(o, 0, sizeof(*o));
		snprintf(o->name, sizeof(o->name), "%s", fl->name);
		o->weight = fl->weight;
		o->enq_pkts = fl->enq_pkts;
		o->enq_bytes = fl->enq_bytes;
		o->tx_pkts = fl->tx_pkts;
		o->tx_bytes = fl->tx_bytes;
		o->run_tx_pkts = p->run_over ? fl->run_tx_pkts : fl->tx_pkts;
		o->run_tx_bytes = p->run_over ? fl->run_tx_bytes : fl->tx_bytes;
		o->drop_pkts = fl->drop_pkts;
		o->backlog = fl->inq;
		o->ring_count = rte_ring_count(fl->ring);
	}
	return 0;
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
	for (f = 0; f < p->nb_flows; f++) {
		out->rx_packets += p->flows[f].enq_pkts;
		out->rx_bytes += p->flows[f].enq_bytes;
		out->tx_dropped += p->flows[f].drop_pkts;
	}
}

static void
eng_sched_teardown(struct eng_task *t)
{
	struct eng_sched_priv *p = t->priv;
	struct sched_pkt sp[64];
	void *objs[64];
	unsigned int k, i, f;

	if (p->pend_n)
		rte_pktmbuf_free_bulk(&p->pend[p->pend_off], p->pend_n);
	while ((k = sched_dequeue_burst(p->s, sp, 64, 0)) > 0)
		for (i = 0; i < k; i++)
			rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)sp[i].pkt);
	for (f = 0; f < p->nb_flows; f++) {
		while ((k = rte_ring_sc_dequeue_burst(p->flows[f].ring, objs, 64, NULL)) > 0)
			rte_pktmbuf_free_bulk((struct rte_mbuf **)objs, k);
		rte_ring_free(p->flows[f].ring);
	}
	sched_free(p->s);
	rte_free(p);
	t->priv = NULL;
}

const struct eng_task_ops eng_task_sched = {
	.name = "sched",
	.help = "scheduler lcore: per-flow SPSC rings, WF2Q+/DRR/FIFO, paced transmit",
	.parse = eng_sched_parse,
	.check = eng_sched_check,
	.pool_need = eng_sched_pool_need,
	.setup = eng_sched_setup,
	.poll = eng_sched_poll,
	.stats = eng_sched_stats_cb,
	.teardown = eng_sched_teardown,
	.report = eng_sched_report,
	.tel = eng_sched_tel,
	.tables = eng_sched_tables,
};
