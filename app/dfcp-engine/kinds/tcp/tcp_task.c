/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tcp: run TCP flows ([flow NAME], proto = tcp; the TCP baselines of issue
 * #7) on one port queue pair: the TCP adapter of the transport skeleton
 * (kinds/xport/xport.h). One lib/tcp endpoint per local address of the
 * task: its senders' connections and, when receivers listen there, the
 * listener whose accepted connections take the receiver flows of that
 * address in order (one connection each; more are served, counted by the
 * endpoint only).
 *
 * The skeleton receives, demultiplexes by address, resolves ARP and
 * transmits; here: frames go to tcp_ep_rx, tcp_ep_tx_burst builds frames
 * straight into the skeleton's mbufs. Every 1 ms: senders connect (once
 * resolved, at their start time), the seed-002 cap policy runs
 * (tcp_cap_poll), transfers are tracked to completion and the RTT samples
 * of the millisecond go into the flow's histogram; every 10 ms and at each
 * close the flow's counters are published for tcp_stats.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "core/log.h"
#include "kinds/tcp/tcp_priv.h"
#include "kinds/tcp/tcp_task.h"
#include "kinds/xport/xport.h"
#include "net.h"
#include "obs/obs.h"
#include "tcp.h"

#define EP_SNAP_TICKS	10		/* endpoint and cap counters every 10 ms */

/* ------------------------------------------------------------------ */
/* application callbacks                                                */
/* ------------------------------------------------------------------ */

static size_t
flow_source(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct tcp_flow *f = ctx;
	size_t n;

	if (f->g->d->stop_src)
		return 0;
	n = net_src_pattern_read(&f->src, now, buf, len);
	if (n == 0)
		f->src_end = 1;
	return n;
}

/*
 * A connection accepted on a listener (its handshake complete: a SYN alone
 * takes nothing): the next receiver flow of its address whose remote, when
 * set, is the connection's peer.
 */
static void
group_accept(void *ctx, struct tcp_conn *c)
{
	struct tcp_group *g = ctx;
	struct eng_xtask *x = g->d->x;
	const struct tcp_addr *ra = tcp_conn_remote(c);
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++) {
		struct tcp_flow *f = &g->d->flows[i];
		const struct eng_flow_conf *fc = x->flows[i].fc;

		if (f->g != g || fc->role != ENG_FLOW_RECEIVER || f->used ||
				(fc->remote_ip != 0 && fc->remote_ip != ra->ip) ||
				(fc->remote_port != 0 && fc->remote_port != ra->port))
			continue;
		f->used = 1;
		f->conn = c;
		net_sink_count_init(&f->sink, fc->seed, fc->verify);
		tcp_conn_set_sink(c, net_sink_count_write, &f->sink);
		return;
	}
	/* served, its data counted by the connection only */
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

/* The group of flow i's local address (made on first use). */
static struct tcp_group *
group_of(struct tcp_task *d, const struct eng_flow_conf *fc)
{
	struct tcp_group *g;
	unsigned int i;

	for (i = 0; i < d->nb_groups; i++)
		if (d->groups[i].ip == fc->local_ip)
			break;
	g = &d->groups[i];
	if (i == d->nb_groups) {
		d->nb_groups++;
		g->ip = fc->local_ip;
		g->d = d;
	}
	if (fc->role == ENG_FLOW_RECEIVER) {
		g->receivers++;
		g->listen_port = fc->local_port;
	} else {
		g->senders++;
	}
	return g;
}

/* The endpoint of group g; its listener takes the first receiver's settings. */
static int
group_setup(struct eng_xtask *x, struct tcp_group *g)
{
	const struct eng_tcp_conf *tc = x->t->conf;
	struct tcp_ep_conf ec;
	unsigned int i;

	tcp_ep_conf_default(&ec);
	memcpy(ec.local.mac, x->mac.addr_bytes, 6);
	ec.local.ip = g->ip;
	ec.local.port = g->listen_port;
	ec.max_conns = g->senders;
	if (g->receivers != 0) {
		ec.listen = 1;
		ec.max_conns += 2 * g->receivers + 8;	/* TIME_WAIT, others served */
		/* as DFCP's auto: 65536 / receivers, 64..4096 (doc/tcp.md) */
		ec.max_half_open = RTE_MAX(64u, RTE_MIN(4096u, 65536u / g->receivers));
		ec.on_accept = group_accept;
		ec.accept_ctx = g;
		for (i = 0; i < x->nb_flows; i++)
			if (g->d->flows[i].g == g && x->flows[i].fc->role == ENG_FLOW_RECEIVER) {
				eng_tcp_conf_fill(&ec.accept_conf, eng_tcp_fc(x->flows[i].fc));
				break;
			}
	}
	g->ep = tcp_ep_create(&ec);
	g->xep = g->ep != NULL ? eng_xport_ep_add(x, g->ep, g->ip, 0) : NULL;
	if (g->xep == NULL) {
		ENG_LOG(ERR, task, "task %s: cannot create the TCP endpoint", x->t->name);
		return -ENOMEM;
	}
	g->xep->priv = g;
	return eng_xport_ep_attach(x, g->xep, tc->egress, x->t->name, tc->weight);
}

static int
flow_setup(struct eng_xtask *x, struct eng_xflow *xf, struct tcp_flow *f)
{
	const struct eng_tcp_conf *tc = x->t->conf;
	const struct eng_flow_conf *fc = xf->fc;
	const struct eng_tcp_flow_conf *k = eng_tcp_fc(fc);
	const struct eng_port_conf *pc = &x->rt->cfg->ports[x->t->ports[0].port_idx];

	f->xf = xf;
	xf->priv = f;
	xf->ep = f->g->xep;
	f->snap.state = TCP_CLOSED;
	if (k->k.mss + TCP_HDR_MAX > x->cap ||
			(pc->mtu != 0 && k->k.mss + TCP_IP_LEN + TCP_HDR_LEN + TCP_OPT_MAX > pc->mtu)) {
		ENG_LOG(ERR, task, "task %s: flow %s: mss %u makes frames larger than the mbuf data "
				"room (%u) or the MTU of port %s", x->t->name, fc->name, k->k.mss,
				x->cap, pc->name);
		return -EINVAL;
	}
	/* the endpoint's pacer counts in its largest frames */
	xf->ep->frame_len = RTE_MAX(xf->ep->frame_len, (uint32_t)k->k.mss + TCP_HDR_MAX);
	f->rtt = eng_lat_flow_hist(x->rt, xf->idx, (int)rte_lcore_to_socket_id(x->t->lcore_id));
	if (fc->role != ENG_FLOW_SENDER)
		return 0;
	net_src_pattern_init(&f->src, fc->seed, fc->bytes, fc->duration_ns);
	if (tc->cwnd_trace[0] != '\0' &&
			tcp_trace_buf_init(&f->trace, tc->trace_points, tc->trace_gap_ns) < 0)
		return -ENOMEM;
	eng_tcp_conf_fill(&f->conf, k);
	memcpy(f->conf.local.mac, x->mac.addr_bytes, 6);
	f->conf.local.ip = fc->local_ip;
	f->conf.local.port = fc->local_port;
	f->conf.remote.ip = fc->remote_ip;
	f->conf.remote.port = fc->remote_port;
	if (fc->has_remote_mac)
		memcpy(f->conf.remote.mac, fc->remote_mac.addr_bytes, 6);
	else if (x->peer_mac_set)
		memcpy(f->conf.remote.mac, x->peer_mac.addr_bytes, 6);
	f->conf.source = flow_source;
	f->conf.source_ctx = f;
	if (tc->cwnd_trace[0] != '\0') {
		f->conf.trace = tcp_trace_buf_add;
		f->conf.trace_ctx = &f->trace;
	}
	return 0;
}

static int
tcp_xsetup(struct eng_xtask *x)
{
	struct tcp_task *d = x->priv;
	const struct eng_tcp_conf *tc = x->t->conf;
	unsigned int i;
	int rc = 0;

	d->x = x;
	d->groups = (struct tcp_group *)&d->flows[x->nb_flows];
	for (i = 0; i < x->nb_flows; i++)
		d->flows[i].g = group_of(d, x->flows[i].fc);
	for (i = 0; rc == 0 && i < d->nb_groups; i++)
		rc = group_setup(x, &d->groups[i]);
	for (i = 0; rc == 0 && i < x->nb_flows; i++)
		rc = flow_setup(x, &x->flows[i], &d->flows[i]);
	if (rc == 0 && tc->cap.mode != TCP_CAP_OFF && (d->capp = tcp_cap_create(&tc->cap)) == NULL) {
		ENG_LOG(ERR, task, "task %s: bad cap policy settings", x->t->name);
		rc = -EINVAL;
	}
	if (rc < 0)
		return rc;
	ENG_LOG(INFO, task, "task %s: %u TCP flow(s) on %u local address(es) of port %s%s",
			x->t->name, x->nb_flows, d->nb_groups,
			x->rt->cfg->ports[x->t->ports[0].port_idx].name,
			tc->cap.mode == TCP_CAP_OFF ? "" : tc->cap.mode == TCP_CAP_OLD ?
			", cap policy old" : ", cap policy coordinated");
	return 0;
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

static int
tcp_xrx(struct eng_xep *e, struct rte_mbuf *m, uint64_t now)
{
	return tcp_ep_rx(e->ep, rte_pktmbuf_mtod(m, const void *), m->data_len, now);
}

/* Not for an address of the task: IPv6, LLDP ... (other), or IPv4 (bad). */
static int
tcp_xstray(struct eng_xtask *x, const struct rte_mbuf *m)
{
	struct tcp_task *d = x->priv;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);

	if (m->data_len < TCP_ETH_LEN || net_rd16(p + 12) != TCP_ETHERTYPE_IPV4)
		return 0;
	d->stray[TCP_E_ADDR]++;
	return 1;
}

static uint64_t
tcp_xdeadline(struct eng_xep *e, uint64_t now)
{
	return tcp_ep_next_deadline(e->ep, now);
}

static unsigned int
tcp_xtx(struct eng_xep *e, uint64_t now, void *const *bufs, uint16_t *lens, uint16_t cap,
		unsigned int n)
{
	return tcp_ep_tx_burst(e->ep, now, bufs, lens, cap, n);
}

static void
tcp_xresolved(struct eng_xflow *xf, const uint8_t mac[6])
{
	struct tcp_flow *f = xf->priv;

	memcpy(f->conf.remote.mac, mac, 6);
}

/* ------------------------------------------------------------------ */
/* snapshots, housekeeping                                              */
/* ------------------------------------------------------------------ */

static void
publish_generic(struct eng_xflow *xf, const struct eng_tcp_snap *s)
{
	struct eng_xsnap *g = &xf->snap;
	int sender = xf->fc->role == ENG_FLOW_SENDER;
	uint64_t goodput = sender ? s->st.bytes_acked : s->st.bytes_delivered;

	if (goodput != g->goodput_bytes)	/* the last goodput progress */
		g->last_ns = s->done_ns ? s->done_ns : s->snap_ns;
	g->goodput_bytes = goodput;
	g->frame_bytes = sender ? s->st.tx_bytes : s->st.rx_bytes;
	g->start_ns = s->st.established_ns;
	g->window = s->st.mss ? s->st.cwnd / s->st.mss : 0;
	g->window_max = 0;
	g->redundancy = 0;
	g->loss_ppm = s->st.tx_data_pkts ?
			(uint32_t)(s->st.retrans_pkts * 1000000ull / s->st.tx_data_pkts) : 0;
	g->sums[0] = s->st.retrans_pkts;
	g->sums[1] = s->st.fast_retrans;
	g->sums[2] = s->st.timeouts;
	g->state = tcp_state_str(s->state);
	g->used = s->used;
	g->established = s->state == TCP_ESTABLISHED;
	g->done = s->done;
}

/* The flow's outcome (kinds/xport/xport_view.c) into xf->snap and s. */
static void
flow_judge(struct eng_xflow *xf, const struct tcp_flow *f, struct eng_tcp_snap *s)
{
	static const char *const reasons[] = {"none", "done", "syn-timeout", "timeout", "reset",
		"abort"};
	struct eng_xfacts in;
	int sender = xf->fc->role == ENG_FLOW_SENDER;

	memset(&in, 0, sizeof(in));
	in.goodput = sender ? s->st.bytes_acked : s->st.bytes_delivered;
	in.completed = f->completed;
	if (sender && xf->fc->bytes != 0)
		in.completed = in.goodput >= xf->fc->bytes;
	if (!in.completed && s->close_reason > TCP_CR_DONE)
		in.closed = s->close_reason < (int)RTE_DIM(reasons) ? reasons[s->close_reason] : "?";
	in.connected = s->used && (s->st.established_ns != 0 || in.closed != NULL);
	in.src_end = f->src_end;
	in.bad_bytes = s->bad_bytes;
	in.order_errors = s->order_errors;
	in.sink_err = f->sink.err;	/* a file sink's (none for tcp yet) */
	eng_xport_judge(xf, &in);
	s->completed = xf->snap.completed;
	memcpy(s->fail, xf->snap.fail, sizeof(s->fail));
}

static void
tcp_xpublish(struct eng_xflow *xf, uint64_t now)
{
	struct tcp_flow *f = xf->priv;
	struct eng_tcp_snap s;

	memset(&s, 0, sizeof(s));
	s.used = f->used;
	s.done = f->done;
	if (f->conn != NULL) {
		const struct tcp_addr *ra = tcp_conn_remote(f->conn);

		tcp_conn_stats(f->conn, &s.st);
		s.state = tcp_conn_state(f->conn);
		s.close_reason = tcp_conn_close_reason(f->conn);
		s.local_port = tcp_conn_local_port(f->conn);
		s.remote_port = ra->port;
		s.remote_ip = ra->ip;
	} else {
		s.st = f->last;
		s.state = TCP_CLOSED;
		s.close_reason = f->snap.close_reason;
		s.local_port = f->snap.local_port;
		s.remote_port = f->snap.remote_port;
		s.remote_ip = f->snap.remote_ip;
	}
	s.sink_bytes = f->sink.bytes;
	s.bad_bytes = f->sink.bad_bytes;
	s.order_errors = f->sink.order_errors;
	s.arp_unsolicited = xf->arp.unsolicited;
	s.arp_conflicts = xf->arp.conflicts;
	s.trace_points = f->trace.n;
	s.trace_dropped = f->trace.dropped;
	s.snap_ns = now;
	s.done_ns = f->done_ns;
	publish_generic(xf, &s);
	flow_judge(xf, f, &s);
	f->snap = s;
}

/* Senders connect once resolved, at their start time. */
static void
start_senders(struct eng_xtask *x, struct tcp_task *d, uint64_t now)
{
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++) {
		struct eng_xflow *xf = &x->flows[i];
		struct tcp_flow *f = &d->flows[i];

		if (xf->arp_failed && !f->done) {
			f->done = 1;	/* gave up: no next hop */
			f->done_ns = now;
		}
		if (xf->fc->role != ENG_FLOW_SENDER || f->started || !xf->resolved ||
				now < x->run_start_ns + xf->fc->start_ns)
			continue;
		f->started = 1;
		f->used = 1;
		d->started = 1;
		f->conn = tcp_ep_connect(f->g->ep, &f->conf, now);
		if (f->conn == NULL) {
			ENG_LOG(ERR, task, "task %s: flow %s: cannot open the connection", x->t->name,
					xf->fc->name);
			f->done = 1;
			continue;
		}
		if (d->capp != NULL && tcp_cap_add(d->capp, f->conn) < 0)
			ENG_LOG(WARNING, task, "task %s: flow %s not under the cap policy", x->t->name,
					xf->fc->name);
	}
}

/* The RTT samples of the last millisecond: their mean, as many times. */
static void
rtt_record(struct tcp_flow *f, const struct tcp_stats *st)
{
	uint64_t sum = st->rtt_avg_ns * st->rtt_samples;

	if (f->rtt != NULL && st->rtt_samples > f->rtt_n && sum >= f->rtt_sum)
		hist_record_n(f->rtt, (sum - f->rtt_sum) / (st->rtt_samples - f->rtt_n),
				st->rtt_samples - f->rtt_n);
	f->rtt_n = st->rtt_samples;
	f->rtt_sum = sum;
}

/* Completion, RTT samples, closes of one flow's connection. */
static void
flow_tick(struct eng_xtask *x, struct eng_xflow *xf, struct tcp_flow *f, uint64_t now)
{
	struct tcp_conn *c = f->conn;
	struct tcp_stats st;
	int st_now;

	if (c == NULL)
		return;
	st_now = tcp_conn_state(c);
	if (xf->fc->role == ENG_FLOW_SENDER) {
		f->completed = f->completed || (tcp_conn_send_done(c) && f->src_end);
		f->done = f->done || tcp_conn_send_done(c) || st_now == TCP_CLOSED;
	} else {
		f->completed = f->completed || tcp_conn_recv_done(c);
		f->done = f->done || tcp_conn_recv_done(c) || st_now == TCP_CLOSED;
	}
	if (f->done && f->done_ns == 0)
		f->done_ns = now;
	tcp_conn_stats(c, &st);
	rtt_record(f, &st);
	/* receivers: keep the last counters and let the endpoint reap it */
	if (st_now == TCP_CLOSED && xf->fc->role == ENG_FLOW_RECEIVER) {
		tcp_xpublish(xf, now);
		f->last = st;
		f->conn = NULL;
		f->closed = 1;
		if (tcp_conn_close_reason(c) != TCP_CR_DONE)
			ENG_LOG(WARNING, task, "task %s: flow %s: connection closed: reason %d",
					x->t->name, xf->fc->name, f->snap.close_reason);
	}
}

/* The console's stop (xport_ctl.c): the connection takes no new byte. */
static void
tcp_xhold(struct eng_xflow *xf, uint64_t now)
{
	struct tcp_flow *f = xf->priv;
	int h = eng_xport_hold_now(xf, &f->src, f->g->d->stop_src, now);

	if (f->conn != NULL)
		tcp_conn_hold(f->conn, h);
}

/* Endpoint and cap counters (summed over the task's endpoints). */
static void
ep_snapshot(struct tcp_task *d)
{
	struct tcp_ep_stats sum, es;
	unsigned int i, e;

	memset(&sum, 0, sizeof(sum));
	for (i = 0; i < d->nb_groups; i++) {
		tcp_ep_stats(d->groups[i].ep, &es);
		tcp_ep_stats_add(&sum, &es);
	}
	for (e = 0; e < TCP_E_MAX; e++)
		sum.drops[e] += d->stray[e];
	d->ep_snap = sum;
	if (d->capp != NULL)
		tcp_cap_stats(d->capp, &d->cap_snap);
}

static void
tcp_xtick(struct eng_xtask *x, uint64_t now, unsigned int first, unsigned int n)
{
	struct tcp_task *d = x->priv;
	unsigned int i;

	/* the task's own once a round of slices, at its first */
	if (first == 0 && x->rt->phase != ENG_PHASE_RUN)
		d->stop_src = 1;
	else if (first == 0)
		start_senders(x, d, now);
	for (i = first; i < first + n; i++) {
		if (x->flows[i].held)	/* a new connection, the run's or source's end */
			tcp_xhold(&x->flows[i], now);
		flow_tick(x, &x->flows[i], &d->flows[i], now);
	}
	if (first != 0)
		return;
	for (i = 0; i < d->nb_groups; i++)
		if (d->groups[i].senders == 0)
			tcp_ep_reap(d->groups[i].ep);	/* senders' are kept: the cap policy holds them */
	if (d->capp != NULL && d->started)
		tcp_cap_poll(d->capp, now);
	if (++d->ticks % EP_SNAP_TICKS == 0)
		ep_snapshot(d);
}

/* Every flow done. */
static enum eng_goal
tcp_xgoal(const struct eng_xtask *x)
{
	unsigned int i;

	for (i = 0; i < x->nb_flows; i++)
		if (!x->flows[i].snap.done)
			return ENG_GOAL_PENDING;
	return ENG_GOAL_REACHED;
}

/* ------------------------------------------------------------------ */
/* the end                                                              */
/* ------------------------------------------------------------------ */

static void
tcp_xquiesce(struct eng_xtask *x)
{
	struct tcp_task *d = x->priv;
	const struct eng_tcp_conf *tc = x->t->conf;

	ep_snapshot(d);
	if (tc->cwnd_trace[0] != '\0' && !d->traces_written && d->started) {
		eng_tcp_write_traces(d);
		d->traces_written = 1;
	}
}

static void
tcp_xteardown(struct eng_xtask *x)
{
	struct tcp_task *d = x->priv;
	unsigned int i;

	if (d == NULL)
		return;
	if (((const struct eng_tcp_conf *)x->t->conf)->cwnd_trace[0] != '\0' &&
			!d->traces_written && d->started)
		eng_tcp_write_traces(d);
	tcp_cap_free(d->capp);
	for (i = 0; i < d->nb_groups; i++)
		tcp_ep_free(d->groups[i].ep);
	for (i = 0; i < x->nb_flows; i++)
		tcp_trace_buf_free(&d->flows[i].trace);
	rte_free(d);
	x->priv = NULL;
}

/* The live view's group, counters and line of a TCP flow. */
static void
tcp_xview(const struct eng_xflow *xf, struct eng_flow_view *v)
{
	static const char *const names[3] = {"retrans", "recoveries", "timeouts"};
	const struct tcp_flow *f = xf->priv;
	const struct tcp_stats *st = &f->snap.st;

	v->group = xf->fc->role == ENG_FLOW_SENDER ? "tcp senders" : "tcp receivers";
	memcpy(v->sum_names, names, sizeof(v->sum_names));
	v->lat_name = "rtt";
	snprintf(v->detail, sizeof(v->detail), "cwnd %u seg srtt %.2f ms rtt min %.2f ms | "
			"retrans %" PRIu64 " recoveries %" PRIu64 " timeouts %" PRIu64,
			st->mss ? st->cwnd / st->mss : 0, (double)st->srtt_ns / 1e6,
			(double)st->rtt_min_ns / 1e6, st->retrans_pkts, st->fast_retrans,
			st->timeouts);
}

static const struct eng_xport_ops tcp_xport = {
	.setup = tcp_xsetup,
	.teardown = tcp_xteardown,
	.rx = tcp_xrx,
	.stray = tcp_xstray,
	.next_deadline = tcp_xdeadline,
	.tx_burst = tcp_xtx,
	.resolved = tcp_xresolved,
	.tick = tcp_xtick,
	.publish = tcp_xpublish,
	.goal = tcp_xgoal,
	.quiesce = tcp_xquiesce,
	.view = tcp_xview,
	.write = eng_tcp_flow_write,
	.hold = tcp_xhold,
};

/* ------------------------------------------------------------------ */
/* engine hooks                                                         */
/* ------------------------------------------------------------------ */

static int
eng_tcp_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	struct tcp_task *d;

	d = rte_zmalloc_socket("tcp", sizeof(*d) + t->nb_flows *
			(sizeof(d->flows[0]) + sizeof(struct tcp_group)), RTE_CACHE_LINE_SIZE, socket);
	if (d == NULL)
		return -ENOMEM;
	return eng_xport_setup(t, rt, socket, &tcp_xport, d);
}

static const struct tcp_flow *
tcp_flow_of(const struct eng_runtime *rt, unsigned int flow)
{
	const struct eng_xflow *xf = eng_xport_flow(rt, flow);

	if (xf == NULL || xf->fc->proto != &eng_task_tcp)
		return NULL;
	return xf->priv;
}

int
eng_tcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_tcp_snap *out)
{
	const struct tcp_flow *f = tcp_flow_of(rt, flow);

	if (f == NULL)
		return -ENOENT;
	*out = f->snap;
	return 0;
}

struct eng_tcp_rep *
eng_tcp_flow_rep(struct eng_runtime *rt, unsigned int flow)
{
	const struct tcp_flow *f = tcp_flow_of(rt, flow);

	return f == NULL ? NULL : (struct eng_tcp_rep *)&f->rep;
}

static const struct tcp_task *
tcp_task_of(const struct eng_task *t)
{
	const struct eng_xtask *x = t->priv;

	return x == NULL ? NULL : x->priv;
}

int
eng_tcp_cap_snap(const struct eng_task *t, struct tcp_cap_stats *out)
{
	const struct tcp_task *d = tcp_task_of(t);

	if (d == NULL || d->capp == NULL)
		return -ENOENT;
	*out = d->cap_snap;
	return 0;
}

void
eng_tcp_ep_stats(const struct eng_task *t, struct tcp_ep_stats *out)
{
	const struct tcp_task *d = tcp_task_of(t);

	memset(out, 0, sizeof(*out));
	if (d != NULL)
		*out = d->ep_snap;
}

uint64_t
eng_tcp_run_start_ns(const struct eng_task *t)
{
	const struct eng_xtask *x = t->priv;

	return x == NULL ? 0 : x->run_start_ns;
}

int
eng_tcp_task_done(const struct eng_task *t)
{
	return t->priv != NULL && eng_xport_done(t) == ENG_GOAL_REACHED;
}

const struct eng_task_ops eng_task_tcp = {
	.name = "tcp",
	.help = "run TCP flows (lib/tcp senders and receivers) on one port queue pair",
	.parse = eng_tcp_parse_task,
	.flow_parse = eng_tcp_flow_parse,
	.flow_view = eng_xport_flow_view,
	.flow_pace_view = eng_xport_flow_pace_view,
	.check = eng_tcp_check,
	.setup = eng_tcp_setup,
	.poll = eng_xport_poll,
	.pool_need = eng_xport_pool_need,
	.done = eng_xport_done,
	.quiesce = eng_xport_quiesce,
	.stats = eng_xport_stats,
	.teardown = eng_xport_teardown,
	.report = eng_tcp_report,
	.tel = eng_xport_tel,
	.tables = eng_tcp_tables,
	.control = eng_xport_control,
};
