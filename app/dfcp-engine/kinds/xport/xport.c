/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport skeleton (xport.h; the receive side in xport_rx.c):
 * per-endpoint transmit with pending frames and back-pressure, ticks,
 * snapshots, goals, quiesce and teardown of a dfcp or tcp task.
 */
#include <errno.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/tx.h"
#include "core/wire_ts.h"
#include "kinds/xport/xport.h"
#include "kinds/xport/xport_demux.h"
#include "net.h"

#define TICK_PERIOD_NS		1000000ull	/* housekeeping every 1 ms */
#define SNAP_PERIOD_NS		10000000ull	/* publish counters every 10 ms */
/* Both periods grow with the task's flows past this many: housekeeping walks
 * every flow (connect, close, reap; the snapshot), so at 4096 flows a 1 ms
 * tick took more than the lcore had. Protocol timers are not ticked (each
 * endpoint's own deadline); what waits longer is a connect's start, a close's
 * bookkeeping and the live view's figures (8 ms and 80 ms at 4096 flows). */
#define HOUSEKEEP_FLOWS		512u
/* Frames an endpoint builds at once: the task's burst, less when the task has
 * many endpoints, so that what they hold pending (a full port or scheduler
 * ring) stays within this many mbufs (4096 endpoints x 32 would empty the pool:
 * no_mbuf for every task of the port) */
#define EP_PENDING_MBUFS	16384u
#define EP_BURST_MIN		4u
#define ARP_RETRY_NS		200000000ull
#define SNAP_SLICES		16u	/* a snapshot period publishes the flows in this many parts */

/* ------------------------------------------------------------------ */
/* set-up and the end                                                   */
/* ------------------------------------------------------------------ */

struct eng_xep *
eng_xport_ep_add(struct eng_xtask *x, void *ep, uint32_t ip, uint16_t port)
{
	struct eng_xep *e;

	if (x->nb_eps == x->nb_flows)
		return NULL;
	e = &x->eps[x->nb_eps];
	e->x = x;
	e->ep = ep;
	e->local_ip = ip;
	e->local_port = port;
	if (eng_xport_port_add(x, e) < 0)
		return NULL;
	eng_due_wake(&x->due, x->nb_eps);	/* runs in the first poll */
	x->nb_eps++;
	return e;
}

int
eng_xport_ep_attach(struct eng_xtask *x, struct eng_xep *e, const char *egress, const char *name,
		uint32_t weight)
{
	if (egress[0] == '\0')
		return 0;
	e->ring = eng_egress_attach(x->rt, x->t, egress, name, weight, &e->sched_id);
	if (e->ring == NULL) {
		ENG_LOG(ERR, task, "task %s: %s: cannot attach to sched task %s", x->t->name, name,
				egress);
		return -EINVAL;
	}
	return 0;
}

/* Stashed and pending mbufs back to the pool (lcores stopped). */
/* A task's frames per endpoint and burst (EP_PENDING_MBUFS). */
static uint16_t
ep_burst(const struct eng_task *t)
{
	uint32_t b = RTE_MIN(t->burst, (uint16_t)ENG_XPORT_MAX_BURST);

	if (t->nb_flows != 0)
		b = RTE_MIN(b, RTE_MAX(EP_BURST_MIN, EP_PENDING_MBUFS / t->nb_flows));
	return (uint16_t)b;
}

uint64_t
eng_xport_pool_need(const struct eng_task *t, const struct eng_config *cfg)
{
	(void)cfg;
	/* two bursts of rx, the stash, what the endpoints hold pending */
	return 3ull * t->burst + (uint64_t)RTE_MAX(1u, t->nb_flows) * ep_burst(t);
}

static void
release_mbufs(struct eng_xtask *x)
{
	unsigned int i;

	if (x->nstash != 0)
		rte_pktmbuf_free_bulk(x->stash, x->nstash);
	x->nstash = 0;
	for (i = 0; i < x->nb_eps; i++) {
		struct eng_xep *e = &x->eps[i];

		if (e->npend != 0) {
			rte_pktmbuf_free_bulk(&e->pend[e->pend_off], e->npend);
			x->cnt.tx_dropped += e->npend;
			e->tx_dropped += e->npend;
		}
		e->npend = 0;
		e->pend_off = 0;
	}
	if (x->inbox != NULL) {
		struct rte_mbuf *m;

		while (rte_ring_sc_dequeue(x->inbox, (void **)&m) == 0)
			rte_pktmbuf_free(m);
	}
}

void
eng_xport_teardown(struct eng_task *t)
{
	struct eng_xtask *x = t->priv;

	if (x == NULL)
		return;
	release_mbufs(x);
	eng_xport_pace_free(x);
	x->ops->teardown(x);
	eng_xport_port_leave(x);
	eng_due_free(&x->due);
	rte_free(x);
	t->priv = NULL;
}

int
eng_xport_setup(struct eng_task *t, struct eng_runtime *rt, int socket,
		const struct eng_xport_ops *ops, void *priv)
{
	const struct eng_task_port *tp = &t->ports[0];
	struct eng_port *port = &rt->ports[tp->port_idx];
	const struct eng_port_conf *pc = &rt->cfg->ports[tp->port_idx];
	size_t fl = t->nb_flows * sizeof(struct eng_xflow), ep = t->nb_flows * sizeof(struct eng_xep);
	size_t run = t->nb_flows * sizeof(uint32_t);
	unsigned int i, slices;
	struct eng_xtask *x;
	int rc;

	rc = eng_wire_ts_register();
	if (rc < 0) {
		rte_free(priv);
		return rc;
	}
	x = rte_zmalloc_socket("xport", sizeof(*x) + fl + ep + run, RTE_CACHE_LINE_SIZE, socket);
	if (x == NULL) {
		rte_free(priv);
		return -ENOMEM;
	}
	t->priv = x;
	x->ops = ops;
	x->priv = priv;
	x->rt = rt;
	x->t = t;
	x->flows = (struct eng_xflow *)(x + 1);
	x->eps = (struct eng_xep *)((char *)x->flows + fl);
	x->run = (uint32_t *)((char *)x->eps + ep);
	x->active_ns = 1;	/* stuck_ns 0 is "none" */
	x->nb_flows = t->nb_flows;
	/* each flow ticked once a period, ENG_XPORT_TICK_FLOWS at a time */
	slices = RTE_MAX(1u, (t->nb_flows + ENG_XPORT_TICK_FLOWS - 1) / ENG_XPORT_TICK_FLOWS);
	x->tick_ns = TICK_PERIOD_NS * RTE_MAX(1u, t->nb_flows / HOUSEKEEP_FLOWS) / slices;
	/* a snapshot period publishes every flow, a slice at a time (no poll
	 * copies 4096 flows' counters at once) */
	slices = RTE_MAX(1u, RTE_MIN(t->nb_flows, SNAP_SLICES));
	x->snap_ns = SNAP_PERIOD_NS * RTE_MAX(1u, t->nb_flows / HOUSEKEEP_FLOWS) / slices;
	x->snap_chunk = (t->nb_flows + slices - 1) / slices;
	x->pool = port->pool;
	x->port_id = port->port_id;
	x->rxq = tp->rxq;
	x->txq = tp->txq;
	x->burst = RTE_MIN(t->burst, (uint16_t)ENG_XPORT_MAX_BURST);
	x->ep_burst = ep_burst(t);
	x->clk = rt->clock;
	x->mac = port->mac;
	x->peer_mac_set = pc->has_peer_mac;
	x->peer_mac = pc->peer_mac;
	x->cap = (uint16_t)RTE_MIN(rte_pktmbuf_data_room_size(x->pool) - RTE_PKTMBUF_HEADROOM,
			UINT16_MAX);
	for (i = 0; i < x->nb_flows; i++) {
		struct eng_xflow *f = &x->flows[i];

		f->x = x;
		f->idx = t->flow_idx[i];
		f->fc = &rt->cfg->flows[f->idx];
		f->resolved = f->fc->role != ENG_FLOW_SENDER || f->fc->has_remote_mac ||
				x->peer_mac_set;
		net_arp_entry_init(&f->arp, f->fc->remote_ip, f->fc->has_remote_mac ?
				f->fc->remote_mac.addr_bytes : x->peer_mac_set ?
				x->peer_mac.addr_bytes : NULL);
		f->warm_ns = f->fc->warmup_ns != UINT64_MAX ? f->fc->warmup_ns :
				rt->cfg->warmup_ns;
		f->want_run = 1;
		f->want_bps = f->rate_bps = f->fc->role == ENG_FLOW_SENDER ? f->fc->rate_bps : 0;
	}
	rc = eng_due_init(&x->due, t->nb_flows);
	if (rc == 0)
		rc = eng_xport_port_join(x, socket);
	if (rc == 0)
		rc = ops->setup(x);
	if (rc == 0)
		rc = eng_xport_pace_setup(x);
	if (rc < 0)
		eng_xport_teardown(t);
	return rc;
}

void
eng_xport_quiesce(struct eng_task *t)
{
	struct eng_xtask *x = t->priv;
	uint64_t now = eng_xport_now(x, rte_rdtsc());
	unsigned int i;

	release_mbufs(x);
	for (i = 0; i < x->nb_flows; i++)
		x->ops->publish(&x->flows[i], now);
	if (x->ops->quiesce != NULL)
		x->ops->quiesce(x);
}

enum eng_goal
eng_xport_done(const struct eng_task *t)
{
	const struct eng_xtask *x = t->priv;
	unsigned int i;

	if (x->ops->goal != NULL)
		return x->ops->goal(x);
	for (i = 0; i < x->nb_flows; i++)
		if (!x->flows[i].snap.done)
			return ENG_GOAL_PENDING;
	return ENG_GOAL_REACHED;
}

void
eng_xport_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct eng_xtask *x = t->priv;

	memset(out, 0, sizeof(*out));
	if (x != NULL)
		*out = x->cnt;
}

const struct eng_xflow *
eng_xport_flow(const struct eng_runtime *rt, unsigned int flow)
{
	const struct eng_flow_conf *fc;
	const struct eng_xtask *x;

	if (flow >= rt->cfg->nb_flows)
		return NULL;
	fc = &rt->cfg->flows[flow];
	if (fc->task_idx < 0 || (x = rt->cfg->tasks[fc->task_idx].priv) == NULL ||
			fc->task_pos >= x->nb_flows || x->flows[fc->task_pos].fc != fc)
		return NULL;
	return &x->flows[fc->task_pos];
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

/* Transmit what is pending; 1 when nothing is left pending. */
static inline int
ep_flush(struct eng_xtask *x, struct eng_xep *e)
{
	return eng_tx_pending(e->ring, x->port_id, x->txq, e->pend, &e->npend, &e->pend_off,
			&x->cnt.tx_packets, &x->cnt.tx_bytes);
}

/* The endpoint wants to run again: 0 in the next poll, else at this time
 * (UINT64_MAX: only when it receives or is ticked). */
#define EP_NEXT_POLL	0ull

/*
 * Pending frames the queue refused again: back-pressure (kept, tried each
 * poll) or a dead link (dropped, eng_xport_stuck). 1: they were dropped.
 */
static int
ep_refused(struct eng_xtask *x, struct eng_xep *e, unsigned int left, uint64_t now)
{
	/* the path, not the lcore, holds the sender back: no credit banked
	 * for a burst */
	eng_xport_pace_idle(e, now);
	if (e->stuck_ns == 0 || e->npend != left) {
		e->stuck_ns = x->active_ns;
		return 0;
	}
	if (!eng_xport_stuck(e->stuck_ns, x->egress_moved_ns, x->active_ns))
		return 0;
	rte_pktmbuf_free_bulk(&e->pend[e->pend_off], e->npend);
	x->cnt.tx_dropped += e->npend;
	e->tx_dropped += e->npend;
	e->npend = 0;
	e->pend_off = 0;
	return 1;
}

/*
 * Wire times of a burst of k frames (core/wire_ts.h): a paced flow's frames
 * their slots in its schedule, from slot (the schedule before the burst) to
 * where the burst moved it, evenly (its frames are of one size but the
 * last), never later than now; an unpaced one's, now.
 */
static void
ep_wire_ts(struct eng_xep *e, unsigned int k, uint64_t slot, uint64_t now)
{
	uint64_t end = eng_xport_pace_next(e), step;
	unsigned int i;

	if (slot == 0 || slot > now || end < slot) {
		for (i = 0; i < k; i++)
			eng_wire_ts_set(e->pend[i], now);
		return;
	}
	step = (end - slot) / k;	/* one division a burst */
	for (i = 0; i < k; i++) {
		uint64_t t = slot + step * i;

		eng_wire_ts_set(e->pend[i], t < now ? t : now);
	}
}

/*
 * Pending frames refused and kept (ep_refused). A full tx queue or sched
 * ring refuses every endpoint of the task: the walk stops there
 * (x->egress_full) and this one goes first in the next poll. A flow over
 * its own flow_queue at the scheduler waits its backoff (xport_due.h)
 * rather than retrying every poll: with thousands of slow flows the
 * refused tries would take the lcore from the sched task that shares it.
 */
static uint64_t
ep_held(struct eng_xtask *x, struct eng_xep *e, uint64_t now)
{
	if (e->ring == NULL || eng_egress_ring_full(e->ring)) {
		x->egress_full = 1;
		return EP_NEXT_POLL;
	}
	return eng_xport_backoff(&e->backoff_ns, &e->retry_at, now);
}

/* Some of the endpoint's frames left. */
static inline void
ep_moved(struct eng_xtask *x, struct eng_xep *e)
{
	x->egress_moved_ns = x->active_ns;
	eng_xport_backoff_moved(&e->backoff_ns, &e->retry_at);
}

/* The endpoint's turn: flush, then build and send what is due. Returns when
 * it wants to run again (EP_NEXT_POLL or a time). */
static uint64_t
ep_tx(struct eng_xtask *x, struct eng_xep *e, uint64_t now)
{
	void *bufs[ENG_XPORT_MAX_BURST];
	uint16_t lens[ENG_XPORT_MAX_BURST];
	unsigned int n, k, i, left = e->npend;	/* pending: pend[pend_off .. pend_off + npend) */
	uint64_t due, slot;

	if (left != 0) {
		int all = ep_flush(x, e);

		if (e->npend != left)
			ep_moved(x, e);
		if (!all && !ep_refused(x, e, left, now))
			return ep_held(x, e, now);
	}
	e->stuck_ns = 0;
	/* The endpoint's next deadline only moves when it receives, sends or
	 * is ticked (each wakes it) or when time reaches it (the heap). */
	due = x->ops->next_deadline(e, now);
	if (due > now) {
		if (!e->idle)
			eng_xport_pace_idle(e, now);	/* nothing to send: no credit banked */
		e->idle = 1;
		return due;
	}
	if (e->idle)
		eng_xport_pace_idle(e, now);	/* it was idle until now */
	e->idle = 0;
	n = eng_xport_pace_allow(e, now, x->ep_burst);
	if (n == 0) {
		due = eng_xport_pace_next(e);
		return due > now ? due : EP_NEXT_POLL;
	}
	/* the top n of the stash become this burst's frames */
	n = eng_stash_take(x->pool, x->stash, &x->nstash,
			RTE_MIN((unsigned int)ENG_XPORT_MAX_BURST - x->nstash,
				RTE_MAX(n, (unsigned int)x->burst)), n, bufs, &x->cnt.no_mbuf);
	if (n == 0)
		return EP_NEXT_POLL;
	slot = eng_xport_pace_next(e);
	k = x->ops->tx_burst(e, now, bufs, lens, x->cap, n);
	if (k < n)
		eng_xport_pace_idle(e, now);	/* it sent all it had */
	if (k == 0)
		return EP_NEXT_POLL;
	eng_xport_pace_charge(e, lens, k);
	eng_stash_commit(x->stash, &x->nstash, n, k, lens, e->pend);
	if (x->ol_flags != 0)
		for (i = 0; i < k; i++) {
			struct rte_mbuf *m = e->pend[i];

			if (net_rd16((const uint8_t *)bufs[i] + 12) == NET_ETHERTYPE_IPV4) {
				m->ol_flags = x->ol_flags;
				m->l2_len = x->l2_len;
				m->l3_len = x->l3_len;
			}
		}
	ep_wire_ts(e, k, slot, now);
	e->npend = (uint16_t)k;
	e->pend_off = 0;
	if (ep_flush(x, e) || e->npend != k)
		ep_moved(x, e);
	return EP_NEXT_POLL;
}

/* Senders without their next hop's MAC: an ARP request every 200 ms, at most
 * the port's arp_tries; then the flow gives up (arp_failed). Only a reply
 * within 200 ms of a request resolves (lib/net's entry); a resolved sender
 * that saw a conflicting reply asks once more (arp_recheck), keeping its MAC. */
static void
arp_tick(struct eng_xtask *x, uint64_t now, unsigned int first, unsigned int cnt)
{
	unsigned int i, tries = x->rt->cfg->ports[x->t->ports[0].port_idx].arp_tries;

	if (x->rt->phase != ENG_PHASE_RUN)
		return;
	for (i = first; i < first + cnt; i++) {
		struct eng_xflow *f = &x->flows[i];
		struct eng_xep *e = f->ep;
		struct rte_mbuf *m;
		int rc;

		if ((f->resolved && !f->arp_recheck) || f->arp_failed || e == NULL ||
				now < x->run_start_ns + f->fc->start_ns || now < f->arp_next_ns ||
				e->npend != 0)
			continue;
		f->arp_next_ns = now + ARP_RETRY_NS;
		if (!f->resolved && f->arp_sent >= tries) {
			f->arp_failed = 1;	/* the adapter's tick sees it: the flow is done */
			ENG_LOG(ERR, task, "task %s: flow %s: no ARP answer after %u requests: "
					"giving up", x->t->name, f->fc->name, f->arp_sent);
			continue;
		}
		if (!f->resolved)
			f->arp_sent++;
		rc = eng_arp_request(x->pool, x->cap, &x->mac, f->fc->local_ip, f->fc->remote_ip, &m);
		if (rc < 0) {
			if (rc == -ENOMEM)
				x->cnt.no_mbuf++;
			continue;
		}
		f->arp_recheck = 0;
		net_arp_entry_requested(&f->arp, now, ARP_RETRY_NS);
		e->pend[0] = m;
		e->npend = 1;
		e->pend_off = 0;
		eng_due_wake(&x->due, (uint32_t)(e - x->eps));
	}
}

/*
 * Transmit: the endpoints woken (received, ticked, pending frames) or due,
 * each once; each goes back to the ready list (next poll) or the heap (a
 * time). From a different place in the list each poll: when the port or the
 * scheduler's ring is full, the first endpoints would otherwise take all
 * the room and the last ones never send (4096 flows: a quarter never got a
 * SYN out).
 */
static void
ep_run(struct eng_xtask *x, uint64_t now)
{
	unsigned int n, i, j, again = 0, after = UINT32_MAX;

	eng_due_wake_due(&x->due, now);
	n = eng_due_take(&x->due, x->run);
	if (n == 0)
		return;
	/*
	 * Round robin past a full egress: the endpoints to run again head the
	 * next poll's list in this poll's order, and the next poll starts
	 * after the last of them that got frames out, so the ones a full ring
	 * or scheduler turned away go first. (A start moved by one a poll
	 * left the order to chance: with 4096 senders on one scheduler ring,
	 * a few frames taken a poll, some waited over the 3 s peer timeout.)
	 */
	j = x->tx_rot % n;
	x->egress_full = 0;
	for (i = 0; i < n; i++) {
		uint32_t id = x->run[j];
		uint64_t tx0 = x->cnt.tx_packets, next = ep_tx(x, &x->eps[id], now);

		if (next == EP_NEXT_POLL) {
			eng_due_wake(&x->due, id);
			again++;
		} else if (next != UINT64_MAX) {
			eng_due_set(&x->due, id, next);
		}
		if (x->cnt.tx_packets != tx0)
			after = again;
		if (++j == n)
			j = 0;
		if (x->egress_full)
			break;
	}
	if (x->egress_full) {
		/* the egress refuses all: this one and those not run yet go
		 * first next poll, in this order */
		x->tx_rot = again - 1;
		for (i++; i < n; i++) {
			eng_due_wake(&x->due, x->run[j]);
			if (++j == n)
				j = 0;
		}
		return;
	}
	x->tx_rot = after != UINT32_MAX ? after : x->tx_rot + 1;
}

static void
housekeeping(struct eng_xtask *x, uint64_t now)
{
	unsigned int i;

	if (now >= x->tick_next_ns) {
		unsigned int first = x->tick_pos;
		unsigned int cnt = RTE_MIN(ENG_XPORT_TICK_FLOWS, x->nb_flows - first);

		x->tick_next_ns = now + x->tick_ns;
		x->tick_pos = first + cnt < x->nb_flows ? first + cnt : 0;
		arp_tick(x, now, first, cnt);
		x->ops->tick(x, now, first, cnt);
		/* a tick may have changed any endpoint (connects, closes) */
		for (i = 0; !x->ops->tick_wakes && i < x->nb_eps; i++)
			eng_due_wake(&x->due, i);
	}
	if (now >= x->snap_next_ns && x->nb_flows != 0) {
		x->snap_next_ns = now + x->snap_ns;
		for (i = 0; i < x->snap_chunk; i++) {
			struct eng_xflow *f = &x->flows[x->snap_pos];

			x->ops->publish(f, now);
			eng_warm_sample(&f->snap.warm, f->warm_ns, f->snap.start_ns, now,
					f->snap.goodput_bytes, f->snap.frame_bytes);
			if (++x->snap_pos == x->nb_flows)
				x->snap_pos = 0;
		}
	}
}

uint16_t
eng_xport_poll(struct eng_task *t, uint64_t now_tsc)
{
	struct eng_xtask *x = t->priv;
	uint64_t now = eng_xport_now(x, now_tsc), tx0 = x->cnt.tx_packets;
	uint64_t g = eng_ctl_take(&x->box, x->ctl_applied);
	uint16_t n;

	if (x->run_start_ns == 0)
		x->run_start_ns = eng_xport_now(x, x->rt->start_tsc);
	if (g != 0)
		eng_xport_ctl_apply(x, g, now);	/* the console's (xport_ctl.c) */
	if (unlikely(now >= x->prof_next_ns))
		eng_xport_prof_step(x, now);	/* rate profiles (xport_ctl.c) */
	eng_xport_active(&x->active_ns, &x->last_poll_ns, now);
	n = eng_xport_rx(x, now);
	housekeeping(x, now);
	ep_run(x, now);
	/* packets handled = received + sent (lcore busy/idle accounting, obs/obs.h) */
	return (uint16_t)RTE_MIN(n + (x->cnt.tx_packets - tx0), (uint64_t)UINT16_MAX);
}
