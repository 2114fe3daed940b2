/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport skeleton shared by the dfcp and tcp kinds (xport.c): a task
 * that runs [flow]s of a protocol library on one port queue pair. The
 * skeleton does what both need the same way:
 *
 *   rx      one burst; ARP replies to a sender's own request resolve it
 *           (lib/net's neighbour entry: unsolicited ones and conflicts are
 *           counted and ignored, a conflict re-checked), ARP requests and
 *           IPv4 frames go to the endpoint that owns the destination
 *           (address, port), the rest to the adapter's stray();
 *   ARP     requests for unresolved senders, retried every 200 ms;
 *   tx      only the endpoints that have something to do (xport_due.h):
 *           those that received, hold pending frames, were ticked, or
 *           whose deadline came (the protocol's next timer or the pacer's
 *           next departure, kept in a min-heap); at most ep_burst frames
 *           built by the adapter straight into mbufs from a per-task
 *           stash, sent to the port or the endpoint's sched ring; what the
 *           queue refuses stays pending and nothing new is built until it
 *           left (back-pressure instead of loss); pending frames are
 *           dropped and counted (so that the protocol's timers run again)
 *           only when nothing of the task's left for 0.5 s (link down) or
 *           the endpoint's own made no progress for 5 s;
 *   time    ticks every 1 ms (the adapter's housekeeping), snapshots every
 *           10 ms, a slice of the flows at a time (published by the owning
 *           lcore, read by stats and the live view; both periods × flows /
 *           512 past 512 flows), the counters at the end of a flow's warmup
 *           (at its first snapshot after it, obs/warm.h), goals, quiesce,
 *           teardown.
 *
 * An adapter (struct eng_xport_ops) wraps a library endpoint: the dfcp kind
 * one dfcp_ep per flow, the tcp kind one tcp_ep per local address. Flows and
 * endpoints live in arrays sized at set-up (no per-task flow limit).
 *
 * Demultiplexing (xport_port.c): the transport tasks of one port share one
 * hash table (xport_demux.h) of all their endpoints, (local address, port)
 * -> endpoint, made at set-up: O(1) per frame. When several tasks read one
 * port (each its own rx queue, but a peer or router that answers on one
 * queue, or a port without RSS), a frame that reaches a task other than its
 * endpoint's is handed over to the owner through the owner's inbox (an
 * MP/SC rte_ring), which the owner polls after its own rx burst; ARP
 * replies go to every task of the port. Only a frame whose address no task
 * of the port owns is the adapter's stray (counted as "address").
 */
#ifndef ENG_XPORT_H
#define ENG_XPORT_H

#include <stdint.h>

#include <rte_ether.h>

#include "config/flow.h"
#include "core/clock.h"
#include "core/ctl.h"
#include "core/task.h"
#include "kinds/xport/xport_due.h"
#include "obs/pace_view.h"
#include "obs/warm.h"
#include "net.h"
#include "pace.h"

#define ENG_XPORT_MAX_BURST	512

struct eng_config;
struct eng_out;
struct eng_runtime;
struct eng_pace_view;
struct eng_xtask;
struct eng_xep;
struct eng_xflow;
struct rte_mbuf;
struct rte_mempool;
struct eng_egress_flow;
struct eng_demux;
struct rte_ring;

/* What every flow publishes (10 ms and at each close); main thread reads. */
struct eng_xsnap {
	uint64_t goodput_bytes;		/* acked by the peer (sender) / delivered (receiver) */
	uint64_t frame_bytes;		/* sent (sender) / received (receiver) */
	uint64_t start_ns, last_ns;	/* established, last goodput progress; 0: not yet */
	uint32_t window;		/* dfcp: blocks in flight; tcp: cwnd in segments */
	uint32_t window_max;		/* dfcp: the window; tcp: 0 */
	uint32_t redundancy;		/* dfcp: packets per block; tcp: 0 */
	uint32_t loss_ppm;		/* dfcp: symbol loss; tcp: retransmitted data segments */
	uint64_t sums[3];		/* summed in the live view's totals (adapter's names) */
	const char *state;		/* of the current connection */
	int used;			/* has (had) a connection */
	int established;
	int done;			/* its goal is reached */
	/* the outcome (eng_xport_judge): the goal reached; why not, "" if nothing failed */
	int completed;
	char fail[ENG_FAIL_LEN];
	/* goodput_bytes and frame_bytes at the end of the warmup (taken by the
	 * skeleton after a publish, obs/warm.h) */
	struct eng_warm warm;
};

/* What an adapter knows of a flow's outcome (eng_xport_judge). */
struct eng_xfacts {
	int completed;			/* the protocol says the goal was reached */
	const char *closed;		/* an abnormal close before completing ("reset"), or NULL */
	int connected;			/* had a connection */
	int src_end;			/* sender: the source ended by itself (bytes or duration) */
	uint64_t goodput;		/* bytes acknowledged (sender) / delivered (receiver) */
	uint64_t bad_bytes, order_errors;	/* a verifying sink's findings */
	int sink_err;			/* the sink's file failed: -errno (0: no) */
	uint64_t sink_file_bytes;	/* ... after this many bytes written */
};

/* A flow of a transport task. */
struct eng_xflow {
	const struct eng_flow_conf *fc;
	unsigned int idx;		/* in cfg->flows */
	struct eng_xtask *x;
	struct eng_xep *ep;		/* the endpoint it uses */
	int resolved;			/* sender: the remote MAC is known */
	struct net_arp_entry arp;	/* sender: its next hop (lib/net; pinned by remote_mac
					 * or [port] peer_mac) */
	int arp_recheck;		/* a conflicting reply: request again (not counted in
					 * arp_sent) */
	uint64_t arp_next_ns;
	unsigned int arp_sent;		/* requests so far */
	int arp_failed;			/* no answer after [port] arp_tries: the flow gave up */
	uint64_t warm_ns;		/* its warmup ([flow] warmup, else [engine]'s); 0: none */
	struct eng_xsnap snap;		/* published by the owning lcore */
	void *priv;			/* the adapter's */
	/* the console's (xport_ctl.c): wanted by the main lcore (64-bit
	 * atomics), in effect on the owning lcore */
	uint64_t want_run, want_bps;
	uint64_t rate_bps;		/* sender: its share of its endpoint's pacer; 0: none */
	int held;			/* sender: stopped by the console */
	/* sender: its timed rate profile ([flow] rate = 0s:1G,...; xport_pace.c),
	 * followed by the owner (prof_on) until the console's set rate; NULL: none */
	struct pace_prof *prof;
	int prof_on;
	uint64_t want_rates, rates_seen;	/* set rate requests: posted, applied */
	int hold_on;			/* its connection holds its source now (the adapter's) */
};

/* An endpoint of a transport task: a library endpoint and its egress. */
struct eng_xep {
	struct eng_xtask *x;
	void *ep;			/* the adapter's (dfcp_ep, tcp_ep) */
	void *priv;			/* the adapter's */
	uint32_t local_ip;		/* host order */
	uint16_t local_port;		/* 0: every port of local_ip */
	uint32_t frame_len;		/* the largest frame it builds (the adapter's) */
	struct pace *pace;		/* its senders' rate (xport_pace.c); NULL: none */
	struct pace *pace_mem;		/* its pacer, made at set-up for every endpoint with a
					 * sender (pace is it or NULL: the console's set rate) */
	uint64_t pace_bucket;		/* pace_mem's bucket (bytes) */
	struct eng_pace_mark pace_mark;	/* the reporting thread's */
	struct eng_egress_flow *ring;	/* sched hand-off, or NULL: the port's tx queue */
	uint32_t sched_id;
	uint64_t tx_dropped;		/* pending frames freed: at the end, or stuck */
	uint64_t stuck_ns;		/* pending frames made no progress since (x->active_ns), 0: none */
	uint64_t backoff_ns;		/* its flow's queue refused it: tried again this much later */
	uint64_t retry_at;		/* ... at this time (0: none) */
	int idle;			/* its latest run found nothing to send */
	uint16_t npend, pend_off;
	struct rte_mbuf *pend[ENG_XPORT_MAX_BURST];
};

/* Flows a tick handles at once: a tick of 4096 flows at once held the lcore
 * for 1-2 ms, and a sched task on the same lcore lost its shaper's credit
 * meanwhile. */
#define ENG_XPORT_TICK_FLOWS	64u

/* The protocol adapter of a transport kind. Called on the task's lcore but
 * setup, teardown and quiesce (main lcore, lcores stopped). */
struct eng_xport_ops {
	/* After the skeleton made the flows: endpoints (eng_xport_ep_add) and
	 * per-flow state; 0 or a negative errno (teardown cleans up). */
	int (*setup)(struct eng_xtask *x);
	void (*teardown)(struct eng_xtask *x);
	/* A frame for endpoint e (IPv4 to its address, or an ARP request for it). */
	int (*rx)(struct eng_xep *e, struct rte_mbuf *m, uint64_t now);	/* < 0: bad */
	/* After a burst's frames went to rx, before they are freed (optional):
	 * what rx held is handled; returns how many of those were bad. */
	unsigned int (*rx_flush)(struct eng_xtask *x, uint64_t now);
	/* A frame no endpoint owns: count why; 1 when malformed, 0 when not ours. */
	int (*stray)(struct eng_xtask *x, const struct rte_mbuf *m);
	uint64_t (*next_deadline)(struct eng_xep *e, uint64_t now);
	unsigned int (*tx_burst)(struct eng_xep *e, uint64_t now, void *const *bufs,
			uint16_t *lens, uint16_t cap, unsigned int n);
	/* An ARP reply gave sender f its next hop's MAC. */
	void (*resolved)(struct eng_xflow *f, const uint8_t mac[6]);
	/* Every 1 ms (longer past 512 flows): connections, timers, closes,
	 * goals, for the flows [first, first + n), a slice of at most
	 * ENG_XPORT_TICK_FLOWS at a time; the task's own housekeeping when
	 * first is 0 (once a round of slices). */
	void (*tick)(struct eng_xtask *x, uint64_t now, unsigned int first, unsigned int n);
	/* 1: tick wakes (eng_xport_ep_wake) the endpoints it changed; 0: the
	 * skeleton wakes every endpoint after each tick */
	int tick_wakes;
	/* Every 10 ms and on demand: f->snap (and the adapter's own snapshot). */
	void (*publish)(struct eng_xflow *f, uint64_t now);
	/* The task's goal (NULL: every flow's snap.done). */
	enum eng_goal (*goal)(const struct eng_xtask *x);
	/* After the lcores stopped, once the skeleton released its mbufs (optional). */
	void (*quiesce)(struct eng_xtask *x);
	/* Any thread: f's group, counter names, histogram name and line detail
	 * for the live view (the generic fields are filled from f->snap). */
	void (*view)(const struct eng_xflow *f, struct eng_flow_view *v);
	/* Any thread: f's counters inside an open item (/dfcp/flows). */
	void (*write)(const struct eng_xflow *f, struct eng_out *o);
	/* Sender f's connection holds its source or not (eng_xport_hold_now);
	 * called when the console changed f->held, and by the adapter's tick
	 * while f->held (a new connection, the source's or the run's end). */
	void (*hold)(struct eng_xflow *f, uint64_t now);
};

/* The transport tasks of one port (xport_port.c; rt->xport[port index]). */
struct eng_xport_port {
	struct eng_demux *dmx;		/* (local ip, port) -> struct eng_xep *, every task's */
	unsigned int nb_tasks;		/* transport tasks on the port (the config's) */
	unsigned int nb_reg;		/* set up so far: tasks[0 .. nb_reg) */
	unsigned int refs;
	struct eng_xtask *tasks[];	/* [nb_tasks], by pp_idx */
};

/* Frames handed to other tasks of the port (per task, one writer). */
struct eng_xdisp {
	uint64_t out;			/* received here, handed to their owner's inbox */
	uint64_t in;			/* taken from this task's inbox */
	uint64_t full;			/* dropped: the owner's inbox was full */
};

/* A transport task's state: t->priv of a dfcp or tcp task. */
struct eng_xtask {
	const struct eng_xport_ops *ops;
	struct eng_runtime *rt;
	const struct eng_task *t;
	struct rte_mempool *pool;
	uint16_t port_id, rxq, txq;
	uint16_t burst;
	uint16_t cap;			/* frame capacity of an mbuf */
	struct eng_clock clk;		/* the runtime clock */
	struct rte_ether_addr mac;	/* the port's */
	int peer_mac_set;
	struct rte_ether_addr peer_mac;	/* [port] peer_mac: senders need no ARP */
	uint64_t ol_flags;		/* tx offload flags set on IPv4 frames (0: none) */
	uint8_t l2_len, l3_len;
	uint64_t run_start_ns;
	uint64_t tick_next_ns, snap_next_ns;
	uint64_t tick_ns, snap_ns;	/* their periods (xport.c: longer for many flows) */
	unsigned int snap_pos, snap_chunk;	/* the next flow to publish, flows at a time */
	unsigned int tick_pos;		/* the next flow to tick */
	struct eng_due due;		/* the endpoints' deadlines and the ready list */
	uint32_t *run;			/* [nb_flows] this poll's endpoints (due.ready) */
	unsigned int tx_rot;		/* where the next poll's transmit starts (ep_run) */
	uint64_t active_ns, last_poll_ns;	/* the task's running time (xport_due.h) */
	uint64_t egress_moved_ns;	/* some endpoint's frames were last accepted (active_ns) */
	int egress_full;		/* this poll: the tx queue or sched ring refused frames */
	uint16_t ep_burst;		/* frames an endpoint builds at once (xport.c) */
	struct eng_task_stats cnt;	/* ops->stats */
	uint64_t rx_segmented;		/* multi-segment frames dropped */
	unsigned int nstash;
	struct rte_mbuf *stash[ENG_XPORT_MAX_BURST];
	unsigned int nb_flows, nb_eps;
	struct eng_xflow *flows;	/* [nb_flows], the task's list order */
	struct eng_xep *eps;		/* [nb_eps], up to one per flow */
	void *priv;			/* the adapter's */
	/* demultiplexing and dispatch (xport_port.c) */
	struct eng_xport_port *pp;	/* its port's tasks and their table */
	unsigned int pp_idx;		/* in pp->tasks */
	struct rte_ring *inbox;		/* frames for its endpoints that others received;
					 * NULL when it is the port's only transport task */
	struct eng_xdisp disp;
	unsigned int nhand;		/* frames of this burst for other tasks */
	uint16_t hand_to[ENG_XPORT_MAX_BURST];	/* their pp_idx */
	struct rte_mbuf *hand[ENG_XPORT_MAX_BURST];
	struct eng_ctl_box box;		/* the console's requests (xport_ctl.c) */
	uint64_t ctl_applied;		/* the last gen applied (owner) */
	uint64_t prof_next_ns;		/* a flow's rate profile changes next; UINT64_MAX: none */
};

/* The kind ops of a transport task. setup: with its adapter and the
 * adapter's task state priv (rte_malloc'd; ops->teardown frees it, or this
 * function when it cannot allocate its own). */
int eng_xport_setup(struct eng_task *t, struct eng_runtime *rt, int socket,
		const struct eng_xport_ops *ops, void *priv);
uint16_t eng_xport_poll(struct eng_task *t, uint64_t now_tsc);
/* Its receive half (xport_rx.c): one rx burst and the inbox, dispatched;
 * the frames received. */
uint16_t eng_xport_rx(struct eng_xtask *x, uint64_t now);
/* The mbufs a transport task may hold at once (its task ops' pool_need). */
uint64_t eng_xport_pool_need(const struct eng_task *t, const struct eng_config *cfg);
enum eng_goal eng_xport_done(const struct eng_task *t);
void eng_xport_quiesce(struct eng_task *t);
void eng_xport_teardown(struct eng_task *t);
void eng_xport_stats(const struct eng_task *t, struct eng_task_stats *out);

/* For the adapter's setup: a new endpoint (NULL when every slot is taken). */
struct eng_xep *eng_xport_ep_add(struct eng_xtask *x, void *ep, uint32_t ip, uint16_t port);
/* e has something to do (runs in the next poll; the adapter's tick). */
static inline void
eng_xport_ep_wake(struct eng_xep *e)
{
	eng_due_wake(&e->x->due, (uint32_t)(e - e->x->eps));
}
/* Its egress through sched task `egress` ("" = the port): 0 or -errno. */
int eng_xport_ep_attach(struct eng_xtask *x, struct eng_xep *e, const char *egress,
		const char *name, uint32_t weight);
/* xport_port.c: join / leave the port's tasks (setup, teardown); register
 * an endpoint in the port's table (0, -EEXIST, -ENOSPC) */
int eng_xport_port_join(struct eng_xtask *x, int socket);
void eng_xport_port_leave(struct eng_xtask *x);
int eng_xport_port_add(struct eng_xtask *x, struct eng_xep *e);
/* Any thread: a task's dispatch counters (zeros when not a running transport task). */
void eng_xport_dispatch(const struct eng_task *t, struct eng_xdisp *out);
/* Any thread: the task shares its port with other transport tasks (has an inbox). */
int eng_xport_shared(const struct eng_task *t);
/* Any thread: the flow of a running task (cfg->flows index); NULL if none. */
const struct eng_xflow *eng_xport_flow(const struct eng_runtime *rt, unsigned int flow);
/*
 * xport_ctl.c: the console's start FLOW, stop FLOW and set rate FLOW for
 * sender flows (ops->control of the transport kinds; core/ctl.h). stop
 * holds the flow's source: its connection takes no new block (dfcp) or
 * byte (tcp) from it, what was taken is still sent, retransmitted and
 * acknowledged, nothing closes; start takes from it again. A hold ends by
 * itself when the run stops or the source's duration is over (the
 * connection then ends as usual). set rate changes the flow's share of its
 * endpoint's pacer (the sum of its flows' shares; 0: unpaced).
 */
int eng_xport_control(struct eng_task *t, const struct eng_ctl_req *req, char *err, size_t len);
/* Owner, at the top of a poll: the console's requests of gen g. */
void eng_xport_ctl_apply(struct eng_xtask *x, uint64_t g, uint64_t now);
/* Owner, when now reached x->prof_next_ns: each followed rate profile's rate
 * at now (from the run's start) to its flow's share, x->prof_next_ns moved on.
 * A console's set rate FLOW ends that flow's profile. */
void eng_xport_prof_step(struct eng_xtask *x, uint64_t now);
/* Adapter's ops->hold: whether sender f's connection holds its source now
 * (f->held, unless the run stops (stop) or the source s's duration is over);
 * wakes its endpoint when that changed. */
int eng_xport_hold_now(struct eng_xflow *f, const struct net_src_pattern *s, int stop,
		uint64_t now);

/* xport_view.c: a flow's outcome from its adapter's facts (xf->snap.completed, .fail) */
void eng_xport_judge(struct eng_xflow *xf, const struct eng_xfacts *in);
/* xport_view.c: ops->flow_view of the transport kinds; /dfcp/flows over all flows */
int eng_xport_flow_view(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_view *v);
extern const struct eng_tel_cmd eng_xport_tel[];

/*
 * xport_pace.c: a sender's `rate` ([flow] key of every transport kind) on
 * lib/pace, one pacer per endpoint: a virtual schedule on the engine clock
 * (ns), credit kept across a stall of the lcore up to [engine] pace_catchup
 * (the rest is counted), `bucket` bytes back-to-back after idling (unset: one
 * burst, max(burst, 16) of the endpoint's largest frames). The endpoint is
 * idle, not late, whenever it has nothing to send (its next deadline lies
 * ahead, or a burst used less than it was allowed) and while the port or its
 * sched ring refuses it, so a window-limited or back-pressured sender never
 * banks credit beyond the bucket: a burst after it would only overflow the
 * bottleneck. Credit is kept for what a stall of the lcore itself delayed.
 *
 * A DFCP flow has its own endpoint; the tcp flows of one local address share
 * one, paced at the sum of their rates (all of its sender flows paced, or
 * none: checked at set-up). A timed rate profile (lib/pace pace_prof) starts
 * at its first point's rate; each point is checked against the endpoint's
 * bucket here, and the owner follows it (eng_xport_prof_step).
 */

/* After the adapter's setup: a pacer for each endpoint with a sender flow,
 * in effect (e->pace) when its flows have a rate, else idle until the
 * console's set rate (e->pace_mem); 0 or a negative errno (logged). */
int eng_xport_pace_setup(struct eng_xtask *x);
void eng_xport_pace_free(struct eng_xtask *x);
/* Any thread: flow's endpoint's pacer (period: since the last periodic
 * call); 0, or -ENOENT when the flow is not running or not paced. */
int eng_xport_flow_pace_view(const struct eng_runtime *rt, unsigned int flow,
		struct eng_pace_view *v, int period);

/* Frames (at most n) the rate allows at now (ns). */
static inline unsigned int
eng_xport_pace_allow(const struct eng_xep *e, uint64_t now, unsigned int n)
{
	return e->pace != NULL ? pace_burst(e->pace, now, e->frame_len, n) : n;
}

/* k frames of lens[] bytes were built. */
static inline void
eng_xport_pace_charge(const struct eng_xep *e, const uint16_t *lens, unsigned int k)
{
	uint64_t b = 0;
	unsigned int i;

	if (e->pace == NULL || k == 0)
		return;
	for (i = 0; i < k; i++)
		b += lens[i];
	pace_sent(e->pace, k, b);
}

/* Nothing (more) to send at now: no credit banked while idle. */
static inline void
eng_xport_pace_idle(const struct eng_xep *e, uint64_t now)
{
	if (e->pace != NULL)
		pace_idle(e->pace, now);
}

/* When the pacer allows a frame again (ns); 0: not paced. */
static inline uint64_t
eng_xport_pace_next(const struct eng_xep *e)
{
	return e->pace != NULL ? pace_next(e->pace) : 0;
}

static inline uint64_t
eng_xport_now(const struct eng_xtask *x, uint64_t tsc)
{
	return eng_clock_ns(&x->clk, tsc);
}

#endif /* ENG_XPORT_H */
