/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tcp: run lib/tcp connections (the TCP baselines of issue #7) on one port
 * queue pair. Everything is configured by task keys (doc/config.md,
 * "kind = tcp"): a sender task opens `flows` connections from local ports
 * PORT, PORT+1, ... to one remote address; a receiver task listens on its
 * local address and serves up to `flows` connections with a counting or
 * pattern-verifying sink.
 *
 * Per poll: rte_eth_rx_burst -> every frame to tcp_ep_rx (TCP demux, ARP
 * requests answered by the endpoint; ARP replies also resolve the remote
 * MAC of a sender) -> when the endpoint has something due
 * (tcp_ep_next_deadline), frames are built by tcp_ep_tx_burst straight into
 * mbuf data areas -> rte_eth_tx_burst, or the task's ring of an egress sched
 * task (eng_sched_attach). A full tx queue or ring holds the frames back and
 * no new frames are built until they leave. Every 1 ms: connection start,
 * ARP retries, the seed-002 cap policy (tcp_cap_poll), completion; every
 * 10 ms the counters are published for stats_tcp.c.
 * Time: the runtime clock (core/clock.h), as the other tasks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/log.h"
#include "core/tx.h"
#include "kinds/sched/sched.h"
#include "kinds/tcp/tcp_task.h"
#include "net.h"
#include "tcp.h"

#define TCP_TASK_MAX_BURST	512
#define SNAP_PERIOD_NS		10000000ull	/* publish counters every 10 ms */
#define TICK_PERIOD_NS		1000000ull	/* housekeeping every 1 ms */
#define ARP_RETRY_NS		200000000ull

struct eng_tcp_conn_rt {
	struct eng_tcp_priv *p;
	unsigned int idx;
	struct tcp_conn *conn;		/* NULL before start / after close (receiver) */
	struct tcp_src_bulk src;
	struct tcp_sink_count sink;
	struct tcp_trace_buf trace;
	int used;
	int done;
	uint64_t done_ns;
	struct eng_tcp_snap snap;	/* published to other threads */
	struct tcp_stats last;		/* the connection's counters when it closed */
	int closed;
	struct eng_tcp_rep rep;		/* main thread: the periodic block's previous values */
};

struct eng_tcp_priv {
	struct eng_runtime *rt;
	const struct eng_task *t;
	const struct eng_tcp_conf *tc;
	struct rte_mempool *pool;
	uint16_t port_id, rxq, txq;
	uint16_t burst;
	uint16_t cap;			/* frame capacity of an mbuf */
	struct eng_clock clk;		/* the runtime clock (core/clock.h) */
	uint64_t run_start_ns;
	struct rte_ether_addr mac;
	struct tcp_ep *ep;
	struct tcp_cap *capp;
	struct tcp_conf conf;		/* sender: connect template */
	volatile int stop_src;
	int started, resolved;
	uint64_t arp_next_ns, tick_next_ns, snap_next_ns;
	volatile int done;
	uint32_t extra_conns;		/* receiver: accepted beyond `flows` */
	/* egress */
	struct rte_ring *ring;
	uint32_t sched_id;
	struct rte_mbuf *pend[TCP_TASK_MAX_BURST];
	uint16_t npend, pend_off;
	unsigned int nstash;
	struct rte_mbuf *stash[TCP_TASK_MAX_BURST];
	/* counters */
	struct eng_task_stats cnt;	/* the task's counters, as ops->stats reports them */
	uint64_t rx_segmented;
	struct tcp_ep_stats ep_snap;
	struct tcp_cap_stats cap_snap;
	int traces_written;
	unsigned int nb_flows;
	struct eng_tcp_conn_rt flows[];
};

static inline uint64_t
tsc_ns(const struct eng_tcp_priv *p, uint64_t tsc)
{
	return eng_clock_ns(&p->clk, tsc);
}

/* ------------------------------------------------------------------ */
/* application callbacks                                                */
/* ------------------------------------------------------------------ */

static size_t
flow_source(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct eng_tcp_conn_rt *f = ctx;

	if (f->p->stop_src)
		return 0;
	return tcp_src_bulk_read(&f->src, now, buf, len);
}

static void
flow_accept(void *ctx, struct tcp_conn *c)
{
	struct eng_tcp_priv *p = ctx;
	unsigned int i;

	for (i = 0; i < p->nb_flows; i++) {
		struct eng_tcp_conn_rt *f = &p->flows[i];

		if (f->used)
			continue;
		f->used = 1;
		f->conn = c;
		tcp_sink_count_init(&f->sink, p->tc->seed, p->tc->verify);
		tcp_conn_set_sink(c, tcp_sink_count_write, &f->sink);
		return;
	}
	p->extra_conns++;	/* served, data counted by the connection only */
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

/* Connection i's settings (a receiver's listener: i = 0). */
static void
conf_fill(struct tcp_conf *d, const struct eng_tcp_conf *c, unsigned int i)
{
	const struct eng_tcp_conn_conf *k = eng_tcp_conn_conf(c, i);

	tcp_conf_default(d);
	d->cc = k->cc;
	d->recovery = k->recovery;
	d->mss = (uint16_t)k->mss;
	d->sndbuf = c->sndbuf;
	d->rcvbuf = c->rcvbuf;
	d->wscale = c->wscale;
	d->sack = c->sack;
	d->timestamps = c->timestamps;
	d->init_cwnd = k->init_cwnd;
	d->dupthresh = k->dupthresh;
	d->delack_count = c->delack_count;
	d->delack_ns = c->delack_ns;
	d->pair_acks = c->pair_acks;
	d->rack = c->rack;
	d->limited_transmit = c->limited_transmit;
	d->rto_init_ns = k->rto_init_ns;
	d->rto_min_ns = k->rto_min_ns;
	d->rto_max_ns = c->rto_max_ns;
	d->tick_ns = k->tick_ns;
	d->max_retries = c->max_retries;
	d->syn_retries = c->syn_retries;
	d->time_wait_ns = c->time_wait_ns;
}

static void eng_tcp_teardown(struct eng_task *t);

static int
eng_tcp_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_tcp_conf *tc = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct eng_port *port = &rt->ports[tp->port_idx];
	const struct eng_port_conf *pc = &rt->cfg->ports[tp->port_idx];
	unsigned int nflows = tc->flows ? tc->flows : ENG_TCP_MAX_FLOWS, i;
	struct tcp_ep_conf ec;
	struct eng_tcp_priv *p;
	uint32_t mss = 0;
	int rc;

	p = rte_zmalloc_socket("tcp", sizeof(*p) + nflows * sizeof(p->flows[0]),
			RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	t->priv = p;
	p->rt = rt;
	p->t = t;
	p->tc = tc;
	p->pool = port->pool;
	p->port_id = port->port_id;
	p->rxq = tp->rxq;
	p->txq = tp->txq;
	p->burst = RTE_MIN(t->burst, (uint16_t)TCP_TASK_MAX_BURST);
	p->clk = rt->clock;
	p->mac = port->mac;
	p->nb_flows = nflows;
	p->cap = (uint16_t)RTE_MIN(rte_pktmbuf_data_room_size(p->pool) - RTE_PKTMBUF_HEADROOM,
			UINT16_MAX);
	for (i = 0; i < (tc->role == ENG_TCP_SENDER ? nflows : 1); i++)
		mss = RTE_MAX(mss, tc->conn[i].mss);
	if (mss + TCP_HDR_MAX > p->cap ||
			(pc->mtu != 0 && mss + TCP_IP_LEN + TCP_HDR_LEN + TCP_OPT_MAX > pc->mtu)) {
		ENG_LOG(ERR, task, "task %s: mss %u makes frames larger than the mbuf data room "
				"(%u) or the MTU of port %s", t->name, mss, p->cap, pc->name);
		rc = -EINVAL;
		goto fail;
	}
	conf_fill(&p->conf, tc, 0);
	memcpy(p->conf.local.mac, p->mac.addr_bytes, 6);
	p->conf.local.ip = tc->local_ip;
	p->conf.local.port = tc->local_port;
	p->conf.remote.ip = tc->remote_ip;
	p->conf.remote.port = tc->remote_port;
	if (tc->has_remote_mac) {
		memcpy(p->conf.remote.mac, tc->remote_mac.addr_bytes, 6);
		p->resolved = 1;
	} else if (pc->has_peer_mac) {
		memcpy(p->conf.remote.mac, pc->peer_mac.addr_bytes, 6);
		p->resolved = 1;
	}

	tcp_ep_conf_default(&ec);
	memcpy(ec.local.mac, p->mac.addr_bytes, 6);
	ec.local.ip = tc->local_ip;
	ec.local.port = tc->local_port;
	if (tc->role == ENG_TCP_RECEIVER) {
		ec.listen = 1;
		ec.max_conns = 2 * nflows + 8;	/* TIME_WAIT / retried SYNs */
		ec.max_half_open = nflows + 4;
		conf_fill(&ec.accept_conf, tc, 0);
		ec.on_accept = flow_accept;
		ec.accept_ctx = p;
	} else {
		ec.max_conns = nflows;
	}
	p->ep = tcp_ep_create(&ec);
	if (p->ep == NULL) {
		ENG_LOG(ERR, task, "task %s: cannot create the TCP endpoint", t->name);
		rc = -ENOMEM;
		goto fail;
	}
	for (i = 0; i < nflows; i++) {
		struct eng_tcp_conn_rt *f = &p->flows[i];

		f->p = p;
		f->idx = i;
		f->snap.state = TCP_CLOSED;
		if (tc->role == ENG_TCP_SENDER) {
			tcp_src_bulk_init(&f->src, tc->seed, tc->bytes, tc->duration_ns);
			if (tc->cwnd_trace[0] != '\0' &&
					tcp_trace_buf_init(&f->trace, tc->trace_points, tc->trace_gap_ns) < 0) {
				rc = -ENOMEM;
				goto fail;
			}
		}
	}
	if (tc->cap.mode != TCP_CAP_OFF) {
		p->capp = tcp_cap_create(&tc->cap);
		if (p->capp == NULL) {
			ENG_LOG(ERR, task, "task %s: bad cap policy settings", t->name);
			rc = -EINVAL;
			goto fail;
		}
	}
	if (tc->egress[0] != '\0') {
		char name[ENG_NAME_LEN];

		snprintf(name, sizeof(name), "%.*s", ENG_NAME_LEN - 1, t->name);
		p->ring = eng_sched_attach(rt, tc->egress, name, tc->weight, &p->sched_id);
		if (p->ring == NULL) {
			ENG_LOG(ERR, task, "task %s: cannot attach to sched task %s", t->name,
					tc->egress);
			rc = -EINVAL;
			goto fail;
		}
	}
	ENG_LOG(INFO, task, "task %s: TCP %s, %u connection(s), cc %s, mss %u%s on port %s%s%s",
			t->name, tc->role == ENG_TCP_SENDER ? "sender" : "receiver", nflows,
			tc->conn[0].cc, tc->conn[0].mss, tc->nb_conn_values > 1 ?
			" (connection 0; settings per connection)" : "",
			pc->name, p->resolved || tc->role != ENG_TCP_SENDER ? "" :
			", remote MAC by ARP", tc->cap.mode == TCP_CAP_OFF ? "" :
			tc->cap.mode == TCP_CAP_OLD ? ", cap policy old" : ", cap policy coordinated");
	return 0;
fail:
	eng_tcp_teardown(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

static void
rx_frame(struct eng_tcp_priv *p, struct rte_mbuf *m, uint64_t now)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t len = m->data_len;
	int rc;

	if (m->nb_segs != 1) {
		p->rx_segmented++;
		p->cnt.rx_bad++;
		return;
	}
	if (len >= TCP_ETH_LEN && net_rd16(d + 12) == TCP_ETHERTYPE_ARP) {
		struct tcp_arp a;

		if (tcp_arp_parse(d, len, &a) == 0 && a.op == TCP_ARP_REPLY && !p->resolved &&
				p->tc->role == ENG_TCP_SENDER && a.spa == p->tc->remote_ip) {
			memcpy(p->conf.remote.mac, a.sha, 6);
			p->resolved = 1;
			p->cnt.rx_valid++;
			return;
		}
	} else if (len < TCP_ETH_LEN || net_rd16(d + 12) != TCP_ETHERTYPE_IPV4) {
		p->cnt.rx_other++;	/* IPv6, LLDP, ...: not for a TCP/IPv4 endpoint */
		return;
	}
	rc = tcp_ep_rx(p->ep, d, len, now);
	if (rc < 0)
		p->cnt.rx_bad++;
	else
		p->cnt.rx_valid++;
}

/* Transmit what is pending; returns 1 when nothing is left pending. */
static int
tx_flush(struct eng_tcp_priv *p)
{
	return eng_tx_pending(p->ring, p->port_id, p->txq, p->pend, &p->npend, &p->pend_off,
			&p->cnt.tx_packets, &p->cnt.tx_bytes);
}

static void
task_tx(struct eng_tcp_priv *p, uint64_t now)
{
	void *bufs[TCP_TASK_MAX_BURST];
	uint16_t lens[TCP_TASK_MAX_BURST];
	unsigned int n = p->burst, k;

	if (!tx_flush(p))
		return;		/* the port or the scheduler is full: back-pressure */
	if (tcp_ep_next_deadline(p->ep, now) > now)
		return;
	n = eng_stash_take(p->pool, p->stash, &p->nstash, n - RTE_MIN(n, p->nstash), n, bufs,
			&p->cnt.no_mbuf);
	if (n == 0)
		return;
	k = tcp_ep_tx_burst(p->ep, now, bufs, lens, p->cap, n);
	if (k == 0)
		return;
	eng_stash_commit(p->stash, &p->nstash, n, k, lens, p->pend);
	p->npend = (uint16_t)k;
	p->pend_off = 0;
	tx_flush(p);
}

static void
send_arp(struct eng_tcp_priv *p)
{
	struct rte_mbuf *m;
	int rc;

	if (p->npend != 0)
		return;
	rc = eng_arp_request(p->pool, p->cap, &p->mac, p->tc->local_ip, p->tc->remote_ip, &m);
	if (rc < 0) {
		if (rc == -ENOMEM)
			p->cnt.no_mbuf++;
		return;
	}
	p->pend[0] = m;
	p->npend = 1;
	p->pend_off = 0;
}

static void
flow_publish(struct eng_tcp_conn_rt *f, uint64_t now)
{
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
	s.trace_points = f->trace.n;
	s.trace_dropped = f->trace.dropped;
	s.snap_ns = now;
	s.done_ns = f->done_ns;
	f->snap = s;
}

static void
task_tick(struct eng_tcp_priv *p, uint64_t now)
{
	const struct eng_tcp_conf *tc = p->tc;
	unsigned int i, ndone = 0;

	if (p->rt->phase != ENG_PHASE_RUN)
		p->stop_src = 1;
	if (tc->role == ENG_TCP_SENDER && !p->started && p->rt->phase == ENG_PHASE_RUN &&
			now >= p->run_start_ns + tc->start_ns) {
		if (!p->resolved) {
			if (now >= p->arp_next_ns) {
				p->arp_next_ns = now + ARP_RETRY_NS;
				send_arp(p);
			}
		} else {
			for (i = 0; i < p->nb_flows; i++) {
				struct eng_tcp_conn_rt *f = &p->flows[i];
				struct tcp_conf c = p->conf;

				conf_fill(&c, tc, i);	/* its own cc, tick, ... */
				c.local = p->conf.local;
				c.remote = p->conf.remote;
				c.local.port = (uint16_t)(tc->local_port + i);
				c.source = flow_source;
				c.source_ctx = f;
				if (tc->cwnd_trace[0] != '\0') {
					c.trace = tcp_trace_buf_add;
					c.trace_ctx = &f->trace;
				}
				f->conn = tcp_ep_connect(p->ep, &c, now);
				f->used = 1;
				if (f->conn == NULL) {
					ENG_LOG(ERR, task, "task %s: cannot open connection %u",
							p->t->name, i);
					f->done = 1;
					continue;
				}
				if (p->capp != NULL && tcp_cap_add(p->capp, f->conn) < 0)
					ENG_LOG(WARNING, task, "task %s: connection %u not under the "
							"cap policy", p->t->name, i);
			}
			p->started = 1;
		}
	}
	for (i = 0; i < p->nb_flows; i++) {
		struct eng_tcp_conn_rt *f = &p->flows[i];
		struct tcp_conn *c = f->conn;

		if (c != NULL) {
			int st = tcp_conn_state(c);

			if (tc->role == ENG_TCP_SENDER)
				f->done = f->done || tcp_conn_send_done(c) || st == TCP_CLOSED;
			else
				f->done = f->done || tcp_conn_recv_done(c) || st == TCP_CLOSED;
			if (f->done && f->done_ns == 0)
				f->done_ns = now;
			/* receivers: keep the last counters and let the endpoint reap it */
			if (st == TCP_CLOSED && tc->role == ENG_TCP_RECEIVER) {
				flow_publish(f, now);
				tcp_conn_stats(c, &f->last);
				f->conn = NULL;
				f->closed = 1;
				if (tcp_conn_close_reason(c) != TCP_CR_DONE)
					ENG_LOG(WARNING, task, "task %s: connection %u closed: reason %d",
							p->t->name, i, f->snap.close_reason);
			}
		}
		ndone += f->done;
	}
	if (tc->role == ENG_TCP_RECEIVER)
		tcp_ep_reap(p->ep);	/* senders keep theirs: the cap policy holds them */
	if (p->capp != NULL && p->started)
		tcp_cap_poll(p->capp, now);
	p->done = tc->flows != 0 && ndone == p->nb_flows;
	if (now >= p->snap_next_ns) {
		p->snap_next_ns = now + SNAP_PERIOD_NS;
		for (i = 0; i < p->nb_flows; i++)
			flow_publish(&p->flows[i], now);
		tcp_ep_stats(p->ep, &p->ep_snap);
		if (p->capp != NULL)
			tcp_cap_stats(p->capp, &p->cap_snap);
	}
}

static uint16_t
eng_tcp_poll(struct eng_task *t, uint64_t now_tsc)
{
	struct eng_tcp_priv *p = t->priv;
	struct rte_mbuf *pkts[TCP_TASK_MAX_BURST];
	uint64_t now = tsc_ns(p, now_tsc);
	uint16_t n, i;

	if (p->run_start_ns == 0)
		p->run_start_ns = tsc_ns(p, p->rt->start_tsc);
	n = rte_eth_rx_burst(p->port_id, p->rxq, pkts, p->burst);
	for (i = 0; i < n; i++) {
		p->cnt.rx_bytes += pkts[i]->pkt_len;
		rx_frame(p, pkts[i], now);
	}
	if (n != 0) {
		p->cnt.rx_packets += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	if (now >= p->tick_next_ns) {
		p->tick_next_ns = now + TICK_PERIOD_NS;
		task_tick(p, now);
	}
	task_tx(p, now);
	return n;
}

/* ------------------------------------------------------------------ */
/* stats, teardown, engine hooks                                        */
/* ------------------------------------------------------------------ */

static void
eng_tcp_stats_cb(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct eng_tcp_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	*out = p->cnt;
}

static void
release_mbufs(struct eng_tcp_priv *p)
{
	if (p->nstash != 0)
		rte_pktmbuf_free_bulk(p->stash, p->nstash);
	p->nstash = 0;
	if (p->npend != 0) {
		rte_pktmbuf_free_bulk(&p->pend[p->pend_off], p->npend);
		p->cnt.tx_dropped += p->npend;
	}
	p->npend = 0;
	p->pend_off = 0;
}

static const char *const trace_ev[] = {
	"ack", "dupack", "recovery", "partial", "exit", "timeout", "cap",
};

/* One file for the task: a gnuplot data block per connection (index i). */
static int
write_traces(struct eng_tcp_priv *p)
{
	const struct eng_tcp_conf *tc = p->tc;
	unsigned int i;
	FILE *fp;

	fp = fopen(tc->cwnd_trace, "w");
	if (fp == NULL) {
		ENG_LOG(ERR, task, "task %s: cwnd_trace %s: %s", p->t->name, tc->cwnd_trace,
				strerror(errno));
		return -errno;
	}
	fprintf(fp, "# dfcp-engine cwnd trace, task %s, cc %s, %u connection(s)\n"
			"# one data block per connection (gnuplot: index N)\n", p->t->name,
			tc->nb_conn_values > 1 ? "per connection" : tc->conn[0].cc, p->nb_flows);
	for (i = 0; i < p->nb_flows; i++) {
		const struct eng_tcp_conn_rt *f = &p->flows[i];
		const struct eng_tcp_conn_conf *k = &tc->conn[i];
		uint32_t mss = f->snap.st.mss ? f->snap.st.mss : k->mss;

		fprintf(fp, "%s# flow %s.%u local port %u mss %u points %u dropped %" PRIu64
				" cc %s tick_ms %.3f\n# time_s cwnd_seg ssthresh_seg srtt_ms event\n",
				i ? "\n\n" : "", p->t->name, i, tc->local_port + i, mss, f->trace.n,
				f->trace.dropped, k->cc, (double)k->tick_ns / 1e6);
		for (uint32_t j = 0; j < f->trace.n; j++) {
			const struct tcp_trace_pt *pt = &f->trace.pts[j];
			double t = pt->now >= p->run_start_ns ?
					(double)(pt->now - p->run_start_ns) / 1e9 : 0.0;

			fprintf(fp, "%.6f %.3f %.3f %.3f %s\n", t, (double)pt->cwnd / mss,
					pt->ssthresh >= 0x7fffffff ? 0.0 : (double)pt->ssthresh / mss,
					(double)pt->srtt_ns / 1e6, pt->ev < RTE_DIM(trace_ev) ?
					trace_ev[pt->ev] : "?");
		}
	}
	if (fclose(fp) != 0)
		return -errno;
	ENG_LOG(INFO, task, "task %s: cwnd trace written to %s", p->t->name, tc->cwnd_trace);
	return 0;
}

static void
eng_tcp_teardown(struct eng_task *t)
{
	struct eng_tcp_priv *p = t->priv;
	unsigned int i;

	if (p == NULL)
		return;
	release_mbufs(p);
	if (p->tc->cwnd_trace[0] != '\0' && !p->traces_written && p->started) {
		write_traces(p);
		p->traces_written = 1;
	}
	tcp_cap_free(p->capp);
	tcp_ep_free(p->ep);
	for (i = 0; i < p->nb_flows; i++)
		tcp_trace_buf_free(&p->flows[i].trace);
	rte_free(p);
	t->priv = NULL;
}

/* After the lcores stopped: last snapshots, mbufs back to the pools, traces written. */
static void
eng_tcp_quiesce(struct eng_task *t)
{
	struct eng_tcp_priv *p = t->priv;
	uint64_t now = tsc_ns(p, rte_rdtsc());
	unsigned int j;

	release_mbufs(p);
	for (j = 0; j < p->nb_flows; j++)
		flow_publish(&p->flows[j], now);
	tcp_ep_stats(p->ep, &p->ep_snap);
	if (p->capp != NULL)
		tcp_cap_stats(p->capp, &p->cap_snap);
	if (p->tc->cwnd_trace[0] != '\0' && !p->traces_written && p->started) {
		write_traces(p);
		p->traces_written = 1;
	}
}

/* The goal: every connection done. A receiver serving any number of
 * connections (flows = 0) never reaches it: it holds the run open until the
 * duration ends (an interop peer may still be exchanging its results). */
static enum eng_goal
eng_tcp_goal(const struct eng_task *t)
{
	const struct eng_tcp_priv *p = t->priv;

	return p->done ? ENG_GOAL_REACHED : ENG_GOAL_PENDING;
}

struct eng_tcp_rep *
eng_tcp_flow_rep(struct eng_task *t, unsigned int i)
{
	struct eng_tcp_priv *p = t->priv;

	return p == NULL || i >= p->nb_flows ? NULL : &p->flows[i].rep;
}

unsigned int
eng_tcp_task_flows(const struct eng_task *t)
{
	const struct eng_tcp_priv *p = t->priv;

	return p == NULL ? 0 : p->nb_flows;
}

int
eng_tcp_flow_snap(const struct eng_task *t, unsigned int i, struct eng_tcp_snap *out)
{
	const struct eng_tcp_priv *p = t->priv;

	if (p == NULL || i >= p->nb_flows)
		return -ENOENT;
	*out = p->flows[i].snap;
	return 0;
}

int
eng_tcp_cap_snap(const struct eng_task *t, struct tcp_cap_stats *out)
{
	const struct eng_tcp_priv *p = t->priv;

	if (p == NULL || p->capp == NULL)
		return -ENOENT;
	*out = p->cap_snap;
	return 0;
}

void
eng_tcp_ep_stats(const struct eng_task *t, struct tcp_ep_stats *out)
{
	const struct eng_tcp_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p != NULL)
		*out = p->ep_snap;
}

uint64_t
eng_tcp_run_start_ns(const struct eng_task *t)
{
	const struct eng_tcp_priv *p = t->priv;

	return p == NULL ? 0 : p->run_start_ns;
}

int
eng_tcp_task_done(const struct eng_task *t)
{
	const struct eng_tcp_priv *p = t->priv;

	return p != NULL && p->done;
}

const struct eng_task_ops eng_task_tcp = {
	.name = "tcp",
	.help = "run TCP connections (lib/tcp senders or a receiver) on one port queue pair",
	.parse = eng_tcp_parse_task,
	.setup = eng_tcp_setup,
	.poll = eng_tcp_poll,
	.done = eng_tcp_goal,
	.quiesce = eng_tcp_quiesce,
	.stats = eng_tcp_stats_cb,
	.teardown = eng_tcp_teardown,
	.report = eng_tcp_report,
	.tables = eng_tcp_tables,
};
