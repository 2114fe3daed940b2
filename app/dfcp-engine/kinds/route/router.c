/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * router: forward between port_a and port_b through emulated links (the
 * Dummynet node of the thesis). Each direction has a chain of pipes (a_to_b,
 * b_to_a; a pipe's next = ... continues the chain) or "pass". Per poll and
 * direction: move what left each pipe of the chain into the next one (at its
 * departure time) or to the tx buffer; receive one burst, parse
 * Ethernet/[VLAN]/IPv4/UDP|TCP into a pipe_flow and offer it to the first
 * pipe at the TSC time in ns; transmit. Non-IPv4 frames (ARP) and traffic a
 * pipe passes (unmatched = pass) go on untouched. Packets dropped by a pipe
 * (loss, queue overflow) or refused by the tx queue are freed and counted.
 * Queueing delay per pipe (obs.h): the enqueue time goes into an mbuf dynamic
 * field; at departure, start of serialization (departure - delay - the
 * packet's serialization time) - enqueue time is recorded in the pipe's
 * histogram.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>

#include "core/egress.h"
#include "core/pkt_flow.h"
#include "core/wire_ts.h"
#include "kinds/route/hold.h"
#include "kinds/route/route.h"
#include "obs/obs.h"

#define RT_TXBUF 256
#define RT_DEQ 64
#define RT_RX_MAX 512		/* frames received at once at most */
#define RT_LOOKAHEAD_MAX_NS 1000000000ull	/* lookahead: 1 s at most */
#define RT_DEQ_ROUNDS 16 /* at most RT_DEQ * RT_DEQ_ROUNDS packets per pipe per poll */

struct router_dir {
	uint16_t rx_port, rxq, tx_port, txq;
	unsigned int nb_stages;
	int stage_idx[ENG_PIPE_CHAIN_MAX];
	struct pipe *stage[ENG_PIPE_CHAIN_MAX];
	/* queueing delay: histogram (NULL: off), delay, 2^-32 ns per byte, overhead */
	struct hist *qd[ENG_PIPE_CHAIN_MAX];
	uint64_t qd_delay[ENG_PIPE_CHAIN_MAX], qd_npb[ENG_PIPE_CHAIN_MAX];
	uint32_t qd_ovh[ENG_PIPE_CHAIN_MAX];
	int ts_off;			/* mbuf dynfield of the enqueue time */
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes, tx_dropped, l2_pass;
	uint64_t pipe_dropped;
	uint64_t t_adv;			/* the first pipe's departures run up to this time (ns) */
	uint64_t lookahead;		/* ... at most now - lookahead (ns) */
	struct route_hold *hold;	/* frames waiting for that clock (lookahead only) */
	uint64_t held_max, hold_full;	/* most frames held; frames let in early: hold full */
	uint16_t tx_n;
	struct rte_mbuf *txbuf[RT_TXBUF];
} __rte_cache_aligned;

struct router_priv {
	struct eng_clock clk;	/* the runtime clock */
	int ts_off;		/* mbuf dynfield of the pipe enqueue time (obs/obs.h) */
	struct router_dir dir[2];
};

static int
router_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_router_conf *c;
	int rc, d;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	for (d = 0; d < 2; d++) {
		snprintf(c->pipe_name[d], sizeof(c->pipe_name[d]), "pass");
		c->pipe_idx[d] = ENG_ROUTE_PASS;
	}
	rc = eng_task_parse_port(t, sec, cfg, "port_a", "rxq_a", "txq_a", 1);
	if (rc == 0)
		rc = eng_task_parse_port(t, sec, cfg, "port_b", "rxq_b", "txq_b", 1);
	if (rc == 0)
		rc = eng_sec_name(sec, "a_to_b", c->pipe_name[0], sizeof(c->pipe_name[0]));
	if (rc == 0)
		rc = eng_sec_name(sec, "b_to_a", c->pipe_name[1], sizeof(c->pipe_name[1]));
	if (rc == 0)
		rc = eng_sec_time(sec, "lookahead", 0, 0, RT_LOOKAHEAD_MAX_NS, &c->lookahead_ns);
	/* pipe names are resolved by [pipe]'s check, after all sections */
	return rc;
}

static void
router_free_pipes(struct eng_task *t)
{
	struct router_priv *p = t->priv;
	struct eng_route_rt *rr = eng_route_rt(t->rt);
	struct pipe_pkt out[RT_DEQ];
	unsigned int d, s, k, i, left = 0;

	for (d = 0; d < 2; d++) {
		struct router_dir *rd = &p->dir[d];

		for (s = 0; s < rd->nb_stages; s++) {
			while ((k = pipe_flush(rd->stage[s], out, RT_DEQ)) > 0)
				for (i = 0; i < k; i++)
					rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)out[i].pkt);
			if (rr != NULL) {
				struct eng_route_pipe_rt *pr = &rr->pipes[rd->stage_idx[s]];

				pipe_free(pr->p);
				pr->p = NULL;
				free(pr->last_deq_bytes);
				pr->last_deq_bytes = NULL;
			}
		}
		if (rd->hold != NULL && rd->hold_full != 0)
			ENG_LOG(WARNING, task, "router %s: lookahead hold full: %" PRIu64 " frames let "
					"in early (at most %u held)", t->name, rd->hold_full,
					ENG_ROUTE_HOLD_CAP);
		else if (rd->hold != NULL)
			ENG_LOG(INFO, task, "router %s: lookahead hold: at most %" PRIu64 " of %u frames "
					"held", t->name, rd->held_max, ENG_ROUTE_HOLD_CAP);
		while (rd->hold != NULL && rd->hold->n != 0) {
			uint64_t tt, h;

			route_hold_take(rd->hold, &tt, &h);
			rte_pktmbuf_free((struct rte_mbuf *)(uintptr_t)h);
		}
		rte_free(rd->hold);
		rd->hold = NULL;
		rd->nb_stages = 0;
		if (rd->tx_n)
			rte_pktmbuf_free_bulk(rd->txbuf, rd->tx_n);
		rd->tx_n = 0;
	}
	if (rr == NULL)
		return;
	for (i = 0; i < ENG_MAX_PIPES; i++)
		left += rr->pipes[i].p != NULL;
	if (left == 0)
		eng_route_free(t->rt);
}

/*
 * lookahead: the first pipe of the chain runs that far behind now, and
 * frames wait in the hold until its clock reaches their wire time, so that
 * frames a sender's stall made late (wire times up to that old) still meet
 * it in the order and at the times they were sent. Exact for frames that
 * then wait at least that long in a pure delay line (a pipe without bw);
 * the others leave up to lookahead late.
 */
static int
router_lookahead(const struct eng_task *t, const struct eng_runtime *rt, struct router_dir *rd,
		uint64_t ns, int socket)
{
	const struct eng_route_conf *rc = eng_route_conf(rt->cfg);
	uint64_t dmin = UINT64_MAX;
	unsigned int s;

	rd->lookahead = rd->nb_stages != 0 ? ns : 0;
	if (rd->lookahead == 0)
		return 0;
	rd->hold = rte_zmalloc_socket("router_hold", route_hold_size(ENG_ROUTE_HOLD_CAP),
			RTE_CACHE_LINE_SIZE, socket);
	if (rd->hold == NULL)
		return -ENOMEM;
	route_hold_init(rd->hold, ENG_ROUTE_HOLD_CAP);
	for (s = 1; s < rd->nb_stages; s++) {
		const struct eng_pipe_conf *pc = &rc->pipes[rd->stage_idx[s]];

		if (pc->bw_bps == 0 && pc->delay_ns != 0 && pc->delay_ns < dmin)
			dmin = pc->delay_ns;
	}
	if (dmin < ns || dmin == UINT64_MAX)
		ENG_LOG(WARNING, task, "router %s: lookahead %.3f ms behind pipe %s: frames that do "
				"not then wait as long in a delay pipe (%s) leave up to that much late",
				t->name, (double)ns / 1e6, pipe_name(rd->stage[0]),
				dmin == UINT64_MAX ? "there is none after it" : "the shortest is shorter");
	return 0;
}

static int
router_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_router_conf *c = t->conf;
	struct router_priv *p;
	int d;

	p = rte_zmalloc_socket("router", sizeof(*p), RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	t->priv = p;
	p->clk = rt->clock;
	p->ts_off = eng_lat_ts_register();
	if (eng_wire_ts_register() < 0) {
		ENG_LOG(ERR, task, "router %s: cannot register the wire time mbuf field", t->name);
		return -ENOSPC;
	}
	for (d = 0; d < 2; d++) {
		struct router_dir *rd = &p->dir[d];
		const struct eng_task_port *in = &t->ports[d], *out = &t->ports[1 - d];
		int idx = c->pipe_idx[d];

		rd->ts_off = p->ts_off;
		rd->rx_port = rt->ports[in->port_idx].port_id;
		rd->rxq = in->rxq;
		rd->tx_port = rt->ports[out->port_idx].port_id;
		rd->txq = out->txq;
		while (idx >= 0 && rd->nb_stages < ENG_PIPE_CHAIN_MAX) {
			struct pipe *pp = eng_route_pipe_create(rt, idx);

			if (pp == NULL)
				return -ENOMEM;
			rd->stage_idx[rd->nb_stages] = idx;
			if (p->ts_off >= 0) {
				const struct eng_pipe_conf *pc = &eng_route_conf(rt->cfg)->pipes[idx];

				rd->qd[rd->nb_stages] = eng_lat_pipe_hist(rt, (unsigned int)idx, socket);
				rd->qd_delay[rd->nb_stages] = pc->delay_ns;
				rd->qd_npb[rd->nb_stages] = pc->bw_bps ?
						(uint64_t)llround(ldexp(8e9 / (double)pc->bw_bps, 32)) : 0;
				rd->qd_ovh[rd->nb_stages] = pc->overhead;
			}
			rd->stage[rd->nb_stages++] = pp;
			idx = eng_route_conf(rt->cfg)->pipes[idx].next_idx;
		}
		if (router_lookahead(t, rt, rd, c->lookahead_ns, socket) < 0)
			return -ENOMEM;
		ENG_LOG(INFO, task, "router %s: %s -> %s through %u pipe(s)%s%s", t->name,
				rt->cfg->ports[in->port_idx].name, rt->cfg->ports[out->port_idx].name,
				rd->nb_stages, rd->nb_stages ? ", first " : "",
				rd->nb_stages ? pipe_name(rd->stage[0]) : "");
	}
	return 0;
}

static void
router_flush(struct router_dir *rd)
{
	uint16_t sent, i;
	uint64_t bytes = 0;

	if (rd->tx_n == 0)
		return;
	sent = eng_port_tx(rd->tx_port, rd->txq, rd->txbuf, rd->tx_n);
	for (i = 0; i < sent; i++)
		bytes += rd->txbuf[i]->pkt_len;
	if (sent < rd->tx_n) {
		rte_pktmbuf_free_bulk(&rd->txbuf[sent], rd->tx_n - sent);
		rd->tx_dropped += rd->tx_n - sent;
	}
	rd->tx_packets += sent;
	rd->tx_bytes += bytes;
	rd->tx_n = 0;
}

static inline void
router_tx(struct router_dir *rd, struct rte_mbuf *m)
{
	if (rd->tx_n == RT_TXBUF)
		router_flush(rd);
	rd->txbuf[rd->tx_n++] = m;
}

/* Offer m to pipe stage s and on (passed packets go on), at time t (ns). */
static inline void
router_offer(struct router_dir *rd, unsigned int s, struct rte_mbuf *m, uint64_t t)
{
	struct pipe_flow f;

	if (s < rd->nb_stages && !eng_pkt_flow(m, &f)) {
		rd->l2_pass++;
		router_tx(rd, m); /* not IPv4: untouched */
		return;
	}
	for (; s < rd->nb_stages; s++) {
		int rc = pipe_enqueue(rd->stage[s], (uintptr_t)m, m->pkt_len, &f, t);

		if (rc == 0) {
			if (rd->qd[s] != NULL)
				*eng_lat_ts(m, rd->ts_off) = t;
			return;
		}
		if (rc < 0) {
			rte_pktmbuf_free(m);
			rd->pipe_dropped++;
			return;
		}
		/* PIPE_PASS: unmatched here, on to the next pipe */
	}
	eng_wire_ts_set(m, t);
	router_tx(rd, m);
}

/*
 * Departures, stage by stage, so that each pipe sees times in order: the
 * first pipe's up to t0, the others' up to t1 (t0 = t1 without lookahead).
 */
static void
router_depart(struct router_dir *rd, uint64_t t0, uint64_t t1)
{
	struct pipe_pkt out[RT_DEQ];
	unsigned int s, k, i, r;

	for (s = 0; s < rd->nb_stages; s++) {
		for (r = 0; r < RT_DEQ_ROUNDS; r++) {
			k = pipe_dequeue_burst(rd->stage[s], s == 0 ? t0 : t1, out, RT_DEQ);
			for (i = 0; i < k; i++) {
				struct rte_mbuf *m = (struct rte_mbuf *)(uintptr_t)out[i].pkt;

				if (rd->qd[s] != NULL) {
					uint64_t start = out[i].t_depart - rd->qd_delay[s] -
							(uint64_t)(((unsigned __int128)(out[i].len +
								rd->qd_ovh[s]) * rd->qd_npb[s]) >> 32);
					int64_t w = (int64_t)(start - *eng_lat_ts(m, rd->ts_off));

					hist_record(rd->qd[s], w > 0 ? (uint64_t)w : 0);
				}
				if (s + 1 < rd->nb_stages) {
					router_offer(rd, s + 1, m, out[i].t_depart);
				} else {
					eng_wire_ts_set(m, out[i].t_depart);
					router_tx(rd, m);
				}
			}
			if (k < RT_DEQ)
				break;
		}
	}
	if (t0 > rd->t_adv)
		rd->t_adv = t0;
}

/*
 * A frame's arrival: its wire time (core/wire_ts.h: set by a sender or
 * router of this engine on an in-process wire), else now, the time after
 * the receive burst (a frame that came in while this thread was descheduled
 * gets the time it was seen, never an earlier one, so the emulated delay
 * stays a lower bound). router_feed keeps it from going back before the
 * departures already run.
 */
static inline uint64_t
router_arrival(const struct rte_mbuf *m, uint64_t now)
{
	uint64_t a;

	return eng_wire_ts_get(m, &a) && a <= now ? a : now;
}

/*
 * Frames by arrival, stably (insertion sort): the senders that share a wire
 * hand it bursts one after the other, each burst's frames spread over the
 * time its schedule covered, so a backlog is a few sorted runs interleaved.
 */
static void
router_sort(struct rte_mbuf **pkts, uint64_t *at, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint64_t a = at[i];
		unsigned int j = i;

		for (; j > 0 && at[j - 1] > a; j--) {
			at[j] = at[j - 1];
			pkts[j] = pkts[j - 1];
		}
		at[j] = a;
		pkts[j] = m;
	}
}

/*
 * A frame to the first pipe at a (never before t_adv: each pipe sees its
 * times in order), after the departures due by then; the later pipes'
 * departures run up to t1 (a, or now with lookahead).
 */
static inline void
router_feed(struct router_dir *rd, struct rte_mbuf *m, uint64_t a, uint64_t t1)
{
	if (a < rd->t_adv)
		a = rd->t_adv;
	if (a > rd->t_adv)
		router_depart(rd, a, t1 > a ? t1 : a);
	router_offer(rd, 0, m, a);
}

/*
 * With lookahead: the burst into the hold (when it is full, its earliest
 * frame goes first, counted), then every held frame whose time the first
 * pipe's clock (now - lookahead; while a backlog is being read, the
 * burst's earliest time) has reached, in order, and the departures due by that
 * clock. A frame without a wire time waits the whole lookahead.
 */
static void
router_hold_feed(struct router_dir *rd, struct rte_mbuf **pkts, const uint64_t *at,
		unsigned int n, int more, uint64_t now)
{
	uint64_t t0 = now > rd->lookahead ? now - rd->lookahead : 0, t, h;
	unsigned int i;

	/* more in the receive queue (a backlog): its frames are later than
	 * this burst's earliest (at[] is sorted), not than now - lookahead */
	if (more && n != 0 && at[0] < t0)
		t0 = at[0];

	for (i = 0; i < n; i++) {
		if (route_hold_put(rd->hold, at[i], (uintptr_t)pkts[i]) < 0) {
			route_hold_take(rd->hold, &t, &h);
			rd->hold_full++;
			router_feed(rd, (struct rte_mbuf *)(uintptr_t)h, t, now);
			route_hold_put(rd->hold, at[i], (uintptr_t)pkts[i]);
		}
	}
	if (rd->hold->n > rd->held_max)
		rd->held_max = rd->hold->n;
	while (route_hold_next(rd->hold) <= t0) {
		route_hold_take(rd->hold, &t, &h);
		router_feed(rd, (struct rte_mbuf *)(uintptr_t)h, t, now);
	}
	router_depart(rd, t0, now);
}

/*
 * One pass: one burst of frames, in order of arrival, each after the
 * departures due by its arrival, so that the backlog a descheduled thread
 * finds is fed to the pipes as it arrived, interleaved with what left
 * meanwhile (drop-tail then drops what a bottleneck that never paused would
 * have dropped, not the stall's second half whole); then, if the burst was
 * not full (nothing left behind it), the departures due by now.
 */
static uint16_t
router_dir_poll(struct router_priv *p, struct router_dir *rd, uint16_t burst)
{
	struct rte_mbuf *pkts[RT_RX_MAX];
	uint64_t at[RT_RX_MAX];
	uint64_t now, bytes = 0;
	unsigned int i, n, k;

	n = k = rte_eth_rx_burst(rd->rx_port, rd->rxq, pkts, RTE_MIN(burst, RT_RX_MAX));
	now = eng_clock_ns(&p->clk, rte_rdtsc());
	if (rd->nb_stages == 0) {
		for (i = 0; i < n; i++) {
			bytes += pkts[i]->pkt_len;
			router_tx(rd, pkts[i]);
		}
	} else {
		for (i = 0; i < n; i++) {
			/* the headers router_feed classifies, from the sender's lcore */
			rte_prefetch0(rte_pktmbuf_mtod(pkts[i], const void *));
			bytes += pkts[i]->pkt_len;
			at[i] = router_arrival(pkts[i], now);
		}
		router_sort(pkts, at, n);
		if (rd->hold != NULL) {
			router_hold_feed(rd, pkts, at, n, k == burst, now);
		} else {
			for (i = 0; i < n; i++)
				router_feed(rd, pkts[i], at[i], at[i]);
			if (k < burst)
				router_depart(rd, now, now);
		}
	}
	rd->rx_packets += n;
	rd->rx_bytes += bytes;
	router_flush(rd);
	return (uint16_t)n;
}

static uint16_t
router_poll(struct eng_task *t, uint64_t now)
{
	struct router_priv *p = t->priv;

	RTE_SET_USED(now);
	return router_dir_poll(p, &p->dir[0], t->burst) + router_dir_poll(p, &p->dir[1], t->burst);
}

static void
router_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct router_priv *p = t->priv;
	unsigned int d;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	for (d = 0; d < 2; d++) {
		const struct router_dir *rd = &p->dir[d];

		out->rx_packets += rd->rx_packets;
		out->rx_bytes += rd->rx_bytes;
		out->tx_packets += rd->tx_packets;
		out->tx_bytes += rd->tx_bytes;
		out->tx_dropped += rd->tx_dropped;
		out->rx_other += rd->l2_pass;
	}
}

static void
router_teardown(struct eng_task *t)
{
	router_free_pipes(t);
	rte_free(t->priv);
	t->priv = NULL;
}

static const struct eng_section_kind *const router_sections[] = {
	&eng_section_pipe,
	&eng_section_queue,
	NULL,
};

const struct eng_task_ops eng_task_router = {
	.name = "router",
	.help = "forward between port_a and port_b through emulated pipes (Dummynet node)",
	.sections = router_sections,
	.parse = router_parse,
	.check = eng_route_check_routers,
	.pool_need = eng_route_pool_need,
	.setup = router_setup,
	.poll = router_poll,
	.stats = router_stats,
	.teardown = router_teardown,
	.report = eng_route_report,
	.losses = eng_route_losses,
	.tel = eng_route_tel,
	.tables = eng_route_tables,
};
