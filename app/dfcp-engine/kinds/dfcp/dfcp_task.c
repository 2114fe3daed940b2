/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp: run DFCP flows ([flow NAME], proto = dfcp) on one port queue pair:
 * the DFCP adapter of the transport skeleton (kinds/xport/xport.h), one
 * lib/dfcp endpoint per flow on the flow's local address:port.
 *
 * The skeleton receives, demultiplexes, resolves ARP and transmits; here:
 * each frame for a flow goes to dfcp_ep_rx (checksum offload flags
 * honoured), frames for no flow are parsed once more only to count why; per
 * flow, when the endpoint has something due, dfcp_ep_tx_burst writes frames
 * straight into the skeleton's mbufs; the skeleton paces a flow with a
 * rate. Every 1 ms a sender connects (once resolved, at its start
 * time), closed connections are reaped and summed; every 10 ms and at each
 * close the flow's counters are published.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "core/log.h"
#include "dfcp.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "net.h"
#include "obs/obs.h"

/* The task (eng_xtask.priv). */
struct dfcp_task {
	enum dfcp_csum csum;
	unsigned int rx_flags;
	uint64_t drops[DFCP_E_MAX];	/* frames no flow accepted, by reason */
	struct eng_dfcp_mem mem;	/* the flows' block memory (dfcp_mem.c) */
	struct dfcp_flow **held;	/* [x->nb_flows]: receivers holding sealed DATA */
	uint32_t n_held;
	struct dfcp_flow flows[];	/* [x->nb_flows], then held's */
};

/* ------------------------------------------------------------------ */
/* application callbacks                                                */
/* ------------------------------------------------------------------ */

static size_t
flow_source(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct dfcp_flow *f = ctx;
	size_t n;

	if (f->stop_src)
		return 0;
	n = net_src_pattern_read(&f->src, now, buf, len);
	if (n == 0)
		f->src_end = 1;
	return n;
}

static void
flow_sink(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct dfcp_flow *f = ctx;
	int err = f->sink.err;

	net_sink_count_write(&f->sink, off, data, len);
	if (unlikely(f->sink.err != err))
		f->sink_errors++;
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

/* The flow's endpoint: its local address, a listener for a receiver. */
static struct dfcp_ep *
flow_ep_create(const struct eng_xtask *x, const struct dfcp_task *d, struct dfcp_flow *f)
{
	struct dfcp_ep_conf ec;

	const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(f->xf->fc);

	eng_dfcp_ep_conf(x, d->csum, d->rx_flags, f->xf->fc, &ec);
	if (f->xf->fc->role == ENG_FLOW_RECEIVER && df->decode)
		ec.pool = eng_dfcp_mem_pool(&d->mem, df->K, df->T);
	ec.accept_conf.aead_ops = f->aead_ops;
	ec.accept_conf.sink = flow_sink;
	ec.accept_conf.sink_ctx = f;
	ec.on_accept = eng_dfcp_flow_accept;
	ec.accept_ctx = f;
	return dfcp_ep_create(&ec);
}

/* A sender's connection: the five parameters, coding, timers, latency. */
static void
flow_sender_conf(struct eng_xtask *x, const struct dfcp_task *d, struct dfcp_flow *f)
{
	const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(f->xf->fc);

	eng_dfcp_conn_conf(x, d->csum, f->xf->fc, &f->cc);
	if (df->encode)
		f->cc.pool = eng_dfcp_mem_pool(&d->mem, df->K, df->T);
	f->cc.aead_ops = f->aead_ops;
	f->cc.source = flow_source;
	f->cc.source_ctx = f;
}

/* Source or sink file. */
static int
flow_files(struct dfcp_flow *f)
{
	const struct eng_flow_conf *fc = f->xf->fc;

	if (fc->role == ENG_FLOW_SENDER && fc->source == ENG_SRC_FILE) {
		f->src.fd = open(fc->path, O_RDONLY);
		if (f->src.fd < 0) {
			ENG_LOG(ERR, task, "flow %s: source file %s: %s", fc->name, fc->path,
					strerror(errno));
			return -errno;
		}
	}
	if (fc->role == ENG_FLOW_RECEIVER && fc->sink == ENG_SINK_FILE) {
		f->sink.fd = open(fc->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (f->sink.fd < 0) {
			ENG_LOG(ERR, task, "flow %s: sink file %s: %s", fc->name, fc->path,
					strerror(errno));
			return -errno;
		}
	}
	return 0;
}

static int
flow_setup(struct eng_xtask *x, struct dfcp_task *d, struct eng_xflow *xf, struct dfcp_flow *f)
{
	const struct eng_dfcp_conf *dc = x->t->conf;
	const struct eng_flow_conf *fc = xf->fc;
	const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(fc);
	const struct eng_port_conf *pc = &x->rt->cfg->ports[x->t->ports[0].port_idx];
	uint32_t flen;
	int rc;

	f->xf = xf;
	xf->priv = f;
	f->src.fd = -1;
	f->sink.fd = -1;
	f->snap.state = DFCP_CLOSED;
	flen = dfcp_data_frame_len(df->T, dfcp_data_tag_len(df->auth_key_len != 0, df->crypto));
	if (flen > x->cap || (pc->mtu != 0 && flen - DFCP_ETH_LEN > pc->mtu)) {
		ENG_LOG(ERR, task, "task %s: flow %s: symbol_size %u makes %u-byte frames: larger "
				"than the mbuf data room (%u) or the MTU of port %s", x->t->name,
				fc->name, df->T, flen, x->cap, pc->name);
		return -EINVAL;
	}
	rc = eng_dfcp_aead_ops(df->crypto, df->crypto_backend, df->crypto_dev, &f->aead_ops);
	if (rc < 0)
		return rc;
	f->ep = flow_ep_create(x, d, f);
	xf->ep = eng_xport_ep_add(x, f->ep, fc->local_ip, fc->local_port);
	if (f->ep == NULL || xf->ep == NULL) {
		ENG_LOG(ERR, task, "task %s: flow %s: cannot create the endpoint", x->t->name,
				fc->name);
		return -ENOMEM;
	}
	xf->ep->priv = f;
	xf->ep->frame_len = flen;
	net_src_pattern_init(&f->src, fc->seed, fc->bytes, fc->duration_ns);
	net_sink_count_init(&f->sink, fc->seed, fc->verify);
	if (fc->role == ENG_FLOW_RECEIVER) {
		f->nrconn = dc->max_conns;
		f->rconn = rte_zmalloc("dfcp_rconn", f->nrconn * sizeof(*f->rconn),
				RTE_CACHE_LINE_SIZE);
		if (f->rconn == NULL)
			return -ENOMEM;
	}
	rc = flow_files(f);
	if (rc < 0)
		return rc;
	if (fc->role == ENG_FLOW_SENDER)
		flow_sender_conf(x, d, f);
	rc = eng_xport_ep_attach(x, xf->ep, dc->egress, fc->name, fc->weight);
	return rc;
}

/* The checksum mode from the task's key and the port's offloads. */
static int
task_csum(struct eng_xtask *x, struct dfcp_task *d)
{
	const struct eng_dfcp_conf *dc = x->t->conf;
	const struct eng_port *port = &x->rt->ports[x->t->ports[0].port_idx];
	uint64_t txo = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	uint64_t rxo = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM;

	switch (dc->csum) {
	case ENG_CSUM_FULL:
		d->csum = DFCP_CSUM_FULL;
		break;
	case ENG_CSUM_ZERO:
		d->csum = DFCP_CSUM_UDP_ZERO;
		break;
	case ENG_CSUM_OFFLOAD:
		if ((port->tx_offloads & txo) != txo) {
			ENG_LOG(ERR, task, "task %s: checksum = offload but port %s has no IPv4/UDP tx "
					"checksum offload (set tx_checksum = on, or use auto/full/zero)",
					x->t->name, x->rt->cfg->ports[x->t->ports[0].port_idx].name);
			return -ENOTSUP;
		}
		d->csum = DFCP_CSUM_OFFLOAD;
		break;
	default:
		d->csum = (port->tx_offloads & txo) == txo ? DFCP_CSUM_OFFLOAD : DFCP_CSUM_FULL;
		break;
	}
	if (d->csum == DFCP_CSUM_OFFLOAD) {
		x->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
		x->l2_len = DFCP_ETH_LEN;
		x->l3_len = DFCP_IP_LEN;
	}
	if ((port->rx_offloads & rxo) == rxo)
		d->rx_flags = DFCP_RX_IP_CSUM_OK | DFCP_RX_UDP_CSUM_OK;
	return 0;
}

static int
dfcp_xsetup(struct eng_xtask *x)
{
	const struct eng_dfcp_conf *dc = x->t->conf;
	struct dfcp_task *d = x->priv;
	unsigned int i, sealed = 0;
	int rc = task_csum(x, d);

	if (rc == 0)
		rc = eng_dfcp_mem_setup(x, &d->mem);
	if (rc == 0)
		eng_dfcp_mem_publish(&d->mem);
	for (i = 0; rc == 0 && i < x->nb_flows; i++)
		rc = flow_setup(x, d, &x->flows[i], &d->flows[i]);
	if (rc < 0)
		return rc;
	for (i = 0; i < x->nb_flows; i++) {
		struct dfcp_ep_stats es;

		if (d->flows[i].ep == NULL)
			continue;
		dfcp_ep_stats(d->flows[i].ep, &es);
		d->mem.made_records += es.slab_bytes;
		sealed += eng_dfcp_fc(x->flows[i].fc)->crypto != DFCP_CRYPTO_OFF;
	}
	if (d->mem.made_records != d->mem.plan.records)
		ENG_LOG(WARNING, task, "task %s: connection records: %" PRIu64 " bytes made, %"
				PRIu64 " planned", x->t->name, d->mem.made_records,
				d->mem.plan.records);
	ENG_LOG(INFO, task, "task %s: %u flows on port %s, checksum %s%s", x->t->name, x->nb_flows,
			x->rt->cfg->ports[x->t->ports[0].port_idx].name,
			d->csum == DFCP_CSUM_OFFLOAD ? "offload" :
			d->csum == DFCP_CSUM_UDP_ZERO ? "udp-zero" : "software",
			sealed && d->csum == DFCP_CSUM_FULL && dc->csum == ENG_CSUM_AUTO ?
			" (udp-zero for its flows with crypto)" : "");
	return 0;
}

static void
dfcp_xteardown(struct eng_xtask *x)
{
	struct dfcp_task *d = x->priv;
	unsigned int i;

	for (i = 0; d != NULL && i < x->nb_flows; i++) {
		struct dfcp_flow *f = &d->flows[i];

		rte_free(f->rconn);
		f->rconn = NULL;
		if (f->xf == NULL)
			continue;
		dfcp_ep_free(f->ep);
		if (f->src.fd >= 0)
			close(f->src.fd);
		if (f->sink.fd >= 0)
			close(f->sink.fd);
	}
	if (d != NULL)
		eng_dfcp_mem_free(&d->mem);
	rte_free(d);
	x->priv = NULL;
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

static int
dfcp_xrx(struct eng_xep *e, struct rte_mbuf *m, uint64_t now)
{
	struct dfcp_task *d = e->x->priv;
	struct dfcp_flow *f = e->priv;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	int rc;

	if (d->rx_flags != 0 && (m->ol_flags & (RTE_MBUF_F_RX_IP_CKSUM_MASK |
			RTE_MBUF_F_RX_L4_CKSUM_MASK)) != 0) {
		uint64_t ipf = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
		uint64_t l4f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

		if (ipf == RTE_MBUF_F_RX_IP_CKSUM_BAD || l4f == RTE_MBUF_F_RX_L4_CKSUM_BAD) {
			d->drops[ipf == RTE_MBUF_F_RX_IP_CKSUM_BAD ? DFCP_E_IP_CSUM :
					DFCP_E_UDP_CSUM]++;
			return -1;
		}
	}
	if (net_rd16(p + 12) == NET_ETHERTYPE_IPV4)
		f->rx_bytes += m->data_len;
	rc = dfcp_ep_rx(f->ep, p, m->data_len, now);
	if (!f->held && dfcp_ep_rx_held(f->ep) != 0) {
		f->held = 1;
		d->held[d->n_held++] = f;
	}
	/* a stale symbol (its block done, a duplicate) is a good frame it did not need:
	 * the task's rx_valid, the flow's drops "stale"; rx_bad is for frames at fault */
	return rc == -DFCP_E_STALE ? 0 : rc;
}

/* The sealed DATA the receivers held in the burst: opened in bursts and handled. */
static unsigned int
dfcp_xrx_flush(struct eng_xtask *x, uint64_t now)
{
	struct dfcp_task *d = x->priv;
	unsigned int bad = 0;

	for (uint32_t i = 0; i < d->n_held; i++) {
		bad += dfcp_ep_rx_flush(d->held[i]->ep, now);
		d->held[i]->held = 0;
	}
	d->n_held = 0;
	return bad;
}

/* A frame for no flow: count why (a malformed frame, or simply not ours). */
static int
dfcp_xstray(struct eng_xtask *x, const struct rte_mbuf *m)
{
	struct dfcp_task *d = x->priv;
	const uint8_t *p = rte_pktmbuf_mtod(m, const uint8_t *);
	struct net_arp arp;
	struct dfcp_pkt pkt;
	int rc;

	if (m->data_len >= DFCP_ETH_LEN && net_rd16(p + 12) == NET_ETHERTYPE_ARP)
		rc = net_arp_parse(p, m->data_len, &arp);	/* -NET_E_*: -DFCP_E_* */
	else
		rc = dfcp_parse(p, m->data_len, d->rx_flags, &pkt);
	if (rc < 0) {
		d->drops[-rc]++;
		return 1;
	}
	d->drops[DFCP_E_ADDR]++;
	return 0;
}

static uint64_t
dfcp_xdeadline(struct eng_xep *e, uint64_t now)
{
	return dfcp_ep_next_deadline(e->ep, now);
}

static unsigned int
dfcp_xtx(struct eng_xep *e, uint64_t now, void *const *bufs, uint16_t *lens, uint16_t cap,
		unsigned int n)
{
	return dfcp_ep_tx_burst(e->ep, now, bufs, lens, cap, n);
}

static void
dfcp_xresolved(struct eng_xflow *xf, const uint8_t mac[6])
{
	struct dfcp_flow *f = xf->priv;

	memcpy(f->cc.remote.mac, mac, 6);
}

/* ------------------------------------------------------------------ */
/* snapshots, housekeeping                                              */
/* ------------------------------------------------------------------ */

/* The generic part of the snapshot (the live view, time series, goals). */
static void
publish_generic(struct eng_xflow *xf, const struct eng_flow_snap *s)
{
	struct eng_xsnap *g = &xf->snap;
	int sender = xf->fc->role == ENG_FLOW_SENDER;

	g->goodput_bytes = s->st.goodput_bytes;
	g->frame_bytes = sender ? s->st.tx_bytes : s->st.rx_bytes;
	g->start_ns = s->start_ns;
	g->last_ns = s->last_ns;
	g->window = s->st.window_used;
	g->window_max = s->st.window;
	g->redundancy = s->st.redundancy;
	g->loss_ppm = s->st.loss_ppm;
	g->sums[0] = sender ? s->st.blocks_acked : s->st.blocks_decoded;
	g->sums[1] = s->st.decode_failures;
	g->sums[2] = s->st.topups;
	g->state = dfcp_state_str(s->state);
	g->used = 1;	/* every DFCP flow is shown, from the start */
	g->established = s->state == DFCP_ESTABLISHED;
	g->done = s->done;
}

/* The flow's outcome (kinds/xport/xport_view.c) into xf->snap and s. */
static void
flow_judge(struct eng_xflow *xf, const struct dfcp_flow *f, struct eng_flow_snap *s)
{
	struct eng_xfacts in;

	memset(&in, 0, sizeof(in));
	in.completed = f->completed;
	in.closed = f->closed;
	if (f->conn != NULL) {
		struct dfcp_stats cs;

		dfcp_conn_stats(f->conn, &cs);
		in.completed |= cs.completed != 0;
	}
	in.connected = s->conns != 0 && (xf->fc->role == ENG_FLOW_RECEIVER || s->start_ns != 0);
	in.src_end = f->src_end;
	in.goodput = s->st.goodput_bytes;
	in.bad_bytes = s->bad_bytes;
	in.order_errors = s->order_errors;
	in.sink_err = s->sink_err;
	in.sink_file_bytes = s->sink_file_bytes;
	eng_xport_judge(xf, &in);
	s->completed = xf->snap.completed;
	memcpy(s->fail, xf->snap.fail, sizeof(s->fail));
}

static void
dfcp_xpublish(struct eng_xflow *xf, uint64_t now)
{
	struct dfcp_flow *f = xf->priv;
	struct eng_flow_snap s;
	struct dfcp_ep_stats es;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	s.st = f->acc;
	for (i = 0; i < f->nrconn; i++) {
		struct dfcp_stats cs;

		if (f->rconn[i].c == NULL || f->rconn[i].c == f->conn)
			continue;
		dfcp_conn_stats(f->rconn[i].c, &cs);	/* the receiver's other connections */
		eng_dfcp_stats_add(&s.st, &cs);
	}
	if (f->conn != NULL) {
		struct dfcp_stats cs;

		dfcp_conn_stats(f->conn, &cs);
		eng_dfcp_stats_add(&s.st, &cs);
		s.state = dfcp_conn_state(f->conn);
		s.close_reason = dfcp_conn_close_reason(f->conn);
	} else {
		s.state = DFCP_CLOSED;
		s.close_reason = f->snap.close_reason;
	}
	/* drops: the endpoint counts every frame it refused (conn drops included) */
	dfcp_ep_stats(f->ep, &es);
	for (i = 0; i < DFCP_E_MAX; i++)
		s.st.drops[i] = es.drops[i];
	if (s.st.goodput_bytes != f->last_goodput) {
		f->last_goodput = s.st.goodput_bytes;
		f->last_ns = now;
	}
	s.st.rx_bytes = f->rx_bytes;
	s.start_ns = f->start_ns;
	s.last_ns = f->last_ns;
	s.bad_bytes = f->sink.bad_bytes;
	s.order_errors = f->sink.order_errors;
	s.sink_bytes = f->sink.bytes;
	s.sink_file_bytes = f->sink.file_bytes;
	s.sink_errors = f->sink_errors;
	s.sink_err = f->sink.err;
	s.arp_unsolicited = xf->arp.unsolicited;
	s.arp_conflicts = xf->arp.conflicts;
	s.tx_dropped = xf->ep->tx_dropped;
	if (xf->fc->role == ENG_FLOW_SENDER) {
		s.conns = f->conns_closed + (f->conn != NULL);
		s.done = (f->started && (f->conn == NULL || s.state == DFCP_TIME_WAIT)) ||
				xf->arp_failed;
	} else {
		s.conns = f->conns_closed + f->live;
		s.done = f->conns_closed > 0 && f->live == 0;
	}
	if (s.st.stalls > f->stalls_logged) {
		char why[160];

		f->stalls_logged = s.st.stalls;
		ENG_LOG(WARNING, task, "flow %s: no progress for %u.%u s while the peer is alive: %s%s",
				xf->fc->name, s.st.stall_ms / 1000, s.st.stall_ms % 1000 / 100,
				s.st.stall != 0 ? dfcp_stall_str(s.st.stall, why, sizeof(why)) :
				"progressing again by now",
				xf->ep->stuck_ns != 0 ? "; frames held back by the egress "
				"(tx queue or scheduler full)" : "");
	}
	publish_generic(xf, &s);
	flow_judge(xf, f, &s);
	f->snap = s;
}

/* The console's stop (xport_ctl.c): the connection takes no new block. */
static void
dfcp_xhold(struct eng_xflow *xf, uint64_t now)
{
	struct dfcp_flow *f = xf->priv;
	int h = eng_xport_hold_now(xf, &f->src, f->stop_src, now);

	if (f->conn != NULL)
		dfcp_conn_hold(f->conn, h);
}

static void
flow_tick(struct eng_xtask *x, struct eng_xflow *xf, uint64_t now)
{
	struct dfcp_flow *f = xf->priv;
	const struct eng_flow_conf *fc = xf->fc;
	int phase = x->rt->phase, closed = f->conns_closed, stop = f->stop_src;
	const struct dfcp_conn *c0 = f->conn;

	if (phase != ENG_PHASE_RUN)
		f->stop_src = 1;
	if (fc->role == ENG_FLOW_SENDER && !f->started && xf->resolved && phase == ENG_PHASE_RUN &&
			now >= x->run_start_ns + fc->start_ns) {
		f->conn = dfcp_ep_connect(f->ep, &f->cc, now);
		f->started = 1;
		if (f->conn == NULL)
			ENG_LOG(ERR, task, "flow %s: cannot open the connection", fc->name);
	}
	if (f->conn != NULL && f->start_ns == 0 && dfcp_conn_state(f->conn) == DFCP_ESTABLISHED)
		f->start_ns = now;
	if (f->live != 0) {
		eng_dfcp_rconn_tick(xf, f, now);
	} else if (f->conn != NULL && dfcp_conn_state(f->conn) == DFCP_CLOSED) {
		eng_dfcp_conn_closed(xf, f, f->conn);
		f->conn = NULL;
	}
	if (f->start_ns == 0 && f->conn != NULL && dfcp_conn_state(f->conn) == DFCP_ESTABLISHED)
		f->start_ns = now;
	if ((int)f->conns_closed != closed)
		dfcp_xpublish(xf, now);
	if (xf->held)
		dfcp_xhold(xf, now);	/* a new connection, the run's or source's end */
	/* the endpoint's next deadline may have moved: it runs in the next poll
	 * (the others' deadlines stand: xport_due.h) */
	if (dfcp_ep_reap(f->ep) != 0 || (int)f->conns_closed != closed || f->conn != c0 ||
			f->stop_src != stop)
		eng_xport_ep_wake(xf->ep);
}

static void
dfcp_xtick(struct eng_xtask *x, uint64_t now, unsigned int first, unsigned int n)
{
	unsigned int i;

	for (i = first; i < first + n; i++)
		flow_tick(x, &x->flows[i], now);
	if (first == 0)
		eng_dfcp_mem_publish(&((struct dfcp_task *)x->priv)->mem);
}

/* The live view's group, counters and line of a DFCP flow. */
static void
dfcp_xview(const struct eng_xflow *xf, struct eng_flow_view *v)
{
	static const char *const snd[3] = {"blocks acked", "dec-retry", "top-ups"};
	static const char *const rcv[3] = {"blocks decoded", "dec-retry", "top-ups"};
	const struct dfcp_flow *f = xf->priv;
	const struct dfcp_stats *st = &f->snap.st;
	int sender = xf->fc->role == ENG_FLOW_SENDER;

	v->group = sender ? "senders" : "receivers";
	v->has_redundancy = 1;
	memcpy(v->sum_names, sender ? snd : rcv, sizeof(v->sum_names));
	v->lat_name = sender ? "block latency" : NULL;
	snprintf(v->detail, sizeof(v->detail), "blocks sent %" PRIu64 " acked %" PRIu64
			" decoded %" PRIu64 " | dec-retry %" PRIu64 " top-ups %" PRIu64
			" | loss-est %.2f%% red %u win %u/%u", st->blocks_sent, st->blocks_acked,
			st->blocks_decoded, st->decode_failures, st->topups, st->loss_ppm / 1e4,
			st->redundancy, st->window_used, st->window);
}

static const struct eng_xport_ops dfcp_xport = {
	.setup = dfcp_xsetup,
	.teardown = dfcp_xteardown,
	.rx = dfcp_xrx,
	.rx_flush = dfcp_xrx_flush,
	.stray = dfcp_xstray,
	.next_deadline = dfcp_xdeadline,
	.tx_burst = dfcp_xtx,
	.resolved = dfcp_xresolved,
	.tick = dfcp_xtick,
	.tick_wakes = 1,
	.publish = dfcp_xpublish,
	.view = dfcp_xview,
	.write = eng_dfcp_flow_write,
	.hold = dfcp_xhold,
};

/* ------------------------------------------------------------------ */
/* engine hooks                                                         */
/* ------------------------------------------------------------------ */

static int
eng_dfcp_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	struct dfcp_task *d;

	d = rte_zmalloc_socket("dfcp", sizeof(*d) + t->nb_flows * (sizeof(d->flows[0]) +
			sizeof(d->held[0])), RTE_CACHE_LINE_SIZE, socket);
	if (d == NULL)
		return -ENOMEM;
	d->held = (struct dfcp_flow **)(void *)&d->flows[t->nb_flows];
	return eng_xport_setup(t, rt, socket, &dfcp_xport, d);
}

int
eng_dfcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_snap *out)
{
	const struct eng_xflow *xf = eng_xport_flow(rt, flow);

	if (xf == NULL || xf->fc->proto != &eng_task_dfcp || xf->priv == NULL)
		return -ENOENT;
	*out = ((const struct dfcp_flow *)xf->priv)->snap;
	return 0;
}

void
eng_dfcp_task_drops(const struct eng_task *t, uint64_t drops[DFCP_E_MAX], uint64_t *seg)
{
	const struct eng_xtask *x = t->priv;
	const struct dfcp_task *d = x != NULL ? x->priv : NULL;

	memset(drops, 0, sizeof(uint64_t) * DFCP_E_MAX);
	*seg = 0;
	if (d == NULL)
		return;
	memcpy(drops, d->drops, sizeof(d->drops));
	*seg = x->rx_segmented;
}

int
eng_dfcp_mem_snap(const struct eng_task *t, struct eng_dfcp_mem_snap *out)
{
	const struct eng_xtask *x = t->priv;
	const struct dfcp_task *d = x != NULL ? x->priv : NULL;

	if (d == NULL)
		return -ENOENT;
	*out = d->mem.snap;
	return 0;
}

const struct eng_task_ops eng_task_dfcp = {
	.name = "dfcp",
	.help = "run DFCP flows (senders and receivers) on one port queue pair",
	.parse = eng_dfcp_parse,
	.flow_parse = eng_dfcp_flow_parse,
	.flow_view = eng_xport_flow_view,
	.flow_pace_view = eng_xport_flow_pace_view,
	.check = eng_dfcp_check,
	.setup = eng_dfcp_setup,
	.poll = eng_xport_poll,
	.pool_need = eng_xport_pool_need,
	.done = eng_xport_done,
	.quiesce = eng_xport_quiesce,
	.stats = eng_xport_stats,
	.teardown = eng_xport_teardown,
	.report = eng_dfcp_report,
	.tel = eng_dfcp_tel,
	.tables = eng_dfcp_tables,
	.control = eng_xport_control,
};
