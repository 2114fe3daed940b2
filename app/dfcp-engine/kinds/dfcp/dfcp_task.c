/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp: run DFCP flows ([flow NAME] sections) on one port queue pair.
 *
 * Per poll: rte_eth_rx_burst -> each frame to the endpoint of the flow whose
 * local address:port it names (dfcp_ep_rx; ARP answered, drops counted by
 * reason) -> per flow, when the endpoint has something due
 * (dfcp_ep_next_deadline), frames are built by dfcp_ep_tx_burst straight
 * into the data area of mbufs taken from a per-task stash -> transmitted
 * with rte_eth_tx_burst, or enqueued on the flow's ring of the egress sched
 * task (eng_sched_attach) which transmits in WF2Q+ order. A full tx queue
 * or ring holds the frames back (no new frames are built until they leave),
 * so the port or the scheduler paces the sender; a flow may also be paced by
 * its own token bucket ("rate"). Time: the runtime clock (core/clock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "core/log.h"
#include "core/tx.h"
#include "dfcp.h"
#include "kinds/dfcp/flow.h"
#include "net.h"
#include "obs/obs.h"

/* Engine-internal API of the sched task (task_sched.c); weak until it links in. */
struct rte_ring *eng_sched_attach(struct eng_runtime *rt, const char *sched_task,
		const char *flow_name, uint32_t weight, uint32_t *flow_id) __attribute__((weak));

#define DFCP_TASK_MAX_BURST	512
#define SNAP_PERIOD_NS		10000000ull	/* publish flow counters every 10 ms */
#define TICK_PERIOD_NS		1000000ull	/* flow housekeeping every 1 ms */
#define ARP_RETRY_NS		200000000ull
#define PACE_MAX_DT_NS		10000000ull
#define L1_OVERHEAD		24u		/* FCS + preamble + inter-frame gap */
#define RX_PREFETCH		4u		/* frames ahead */

struct flow_rt {
	const struct eng_flow_conf *fc;
	unsigned int idx;		/* in cfg->flows */
	struct dfcp_ep *ep;
	struct dfcp_conn *conn;		/* the current connection */
	struct dfcp_conn_conf cc;	/* sender: connect conf */
	struct dfcp_src_pattern src;
	struct dfcp_sink_count sink;
	volatile int stop_src;		/* DRAIN: the source reports end of data */
	int started;			/* sender: connect issued */
	int resolved;			/* remote MAC known */
	uint64_t arp_next_ns;
	uint64_t start_at_ns;
	/* egress */
	struct rte_ring *ring;		/* sched ring, or NULL: the port */
	uint32_t sched_id;
	struct rte_mbuf *pend[DFCP_TASK_MAX_BURST];
	uint16_t npend, pend_off;
	/* pacing (token bucket in bit x 1e9 units) */
	uint64_t rate_bps;
	uint64_t tokens, tok_max, tok_cost;
	uint64_t tok_last_ns;
	/* accounting */
	struct dfcp_stats acc;		/* closed connections, summed */
	uint32_t conns_closed;
	uint64_t start_ns, last_ns, last_goodput;
	uint64_t tx_dropped;
	uint64_t rx_bytes;		/* frames handed to the endpoint */
	uint64_t tick_next_ns, snap_next_ns;
	uint64_t due_ns;		/* cached dfcp_ep_next_deadline, 0: recompute */
	struct eng_flow_snap snap;	/* published to other threads */
};

struct eng_dfcp_priv {
	struct eng_runtime *rt;
	struct rte_mempool *pool;
	uint16_t port_id, rxq, txq;
	struct eng_clock clk;		/* the runtime clock (core/clock.h) */
	uint64_t run_start_ns;
	uint64_t ol_flags;		/* tx checksum offload flags for IPv4 frames */
	enum dfcp_csum csum;
	unsigned int rx_flags;
	uint16_t cap;			/* frame capacity of an mbuf */
	uint16_t burst;
	struct rte_ether_addr mac;
	int peer_mac_set;
	struct rte_ether_addr peer_mac;
	/* counters */
	struct eng_task_stats cnt;	/* the task's counters, as ops->stats reports them */
	uint64_t drops[DFCP_E_MAX];	/* frames no flow accepted, by reason */
	uint64_t drop_segmented;
	/* mbuf stash: allocated in bulk, handed to the endpoints as frame buffers */
	unsigned int nstash;
	struct rte_mbuf *stash[DFCP_TASK_MAX_BURST];
	unsigned int nb_flows;
	struct flow_rt flows[];
} __rte_cache_aligned;

static inline uint64_t
tsc_ns(const struct eng_dfcp_priv *p, uint64_t tsc)
{
	return eng_clock_ns(&p->clk, tsc);
}

static int
eng_dfcp_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	static const char *const modes[] = {"auto", "full", "zero", "offload"};
	struct eng_dfcp_conf *c;
	const char *v;
	int rc, i;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	c->max_conns = 4;
	rc = eng_task_parse_egress_port(t, sec, cfg, c->egress, sizeof(c->egress));
	if (rc < 0)
		return rc;
	if (eng_sec_get(sec, "flows") == NULL)
		return eng_sec_missing(sec, "flows", "a comma-separated list of flow names");
	rc = eng_sec_str(sec, "flows", c->flow_list, sizeof(c->flow_list));
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_conns", 1, 1024, &c->max_conns);
	v = eng_sec_get(sec, "checksum");
	if (rc == 0 && v != NULL) {
		for (i = 0; i < 4; i++)
			if (strcmp(v, modes[i]) == 0)
				break;
		if (i == 4)
			return eng_sec_error(sec, "checksum",
					"unknown mode \"%s\" (expected auto, full, zero or offload)", v);
		c->csum = i;
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* application callbacks                                                */
/* ------------------------------------------------------------------ */

static size_t
flow_source(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct flow_rt *f = ctx;

	if (f->stop_src)
		return 0;
	return dfcp_src_pattern_read(&f->src, now, buf, len);
}

static void
flow_sink(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct flow_rt *f = ctx;

	dfcp_sink_count_write(&f->sink, off, data, len);
}

static void
flow_accept(void *ctx, struct dfcp_conn *c)
{
	struct flow_rt *f = ctx;

	if (f->conn == NULL || dfcp_conn_state(f->conn) == DFCP_CLOSED) {
		f->conn = c;
		/* a new transfer starts at stream offset 0 */
		f->sink.next_off = 0;
	}
}

/* ------------------------------------------------------------------ */
/* set-up                                                               */
/* ------------------------------------------------------------------ */

static int
flow_setup(struct eng_dfcp_priv *p, struct eng_task *t, struct flow_rt *f,
		const struct eng_flow_conf *fc, unsigned int idx)
{
	const struct eng_dfcp_conf *dc = t->conf;
	struct dfcp_ep_conf ec;

	f->fc = fc;
	f->idx = idx;
	f->src.fd = -1;
	f->sink.fd = -1;
	dfcp_ep_conf_default(&ec);
	memcpy(ec.local.mac, p->mac.addr_bytes, 6);
	ec.local.ip = fc->local_ip;
	ec.local.port = fc->local_port;
	ec.csum = p->csum;
	ec.rx_flags = p->rx_flags;
	ec.listen = fc->role == ENG_FLOW_RECEIVER;
	ec.max_conns = fc->role == ENG_FLOW_RECEIVER ? dc->max_conns : 2;
	ec.max_half_open = ec.max_conns;
	ec.limits.max_window = fc->window;
	ec.limits.max_K = DFCP_MAX_K;
	ec.limits.max_T = DFCP_MAX_T;
	ec.accept_conf.csum = p->csum;
	ec.accept_conf.hs_rto_ns = fc->hs_rto_ns;
	ec.accept_conf.min_rto_ns = fc->min_rto_ns;
	ec.accept_conf.time_wait_ns = fc->time_wait_ns;
	ec.accept_conf.sink = flow_sink;
	ec.accept_conf.sink_ctx = f;
	ec.on_accept = flow_accept;
	ec.accept_ctx = f;
	f->ep = dfcp_ep_create(&ec);
	if (f->ep == NULL) {
		ENG_LOG(ERR, task, "task %s: flow %s: cannot create the endpoint", t->name,
				fc->name);
		return -ENOMEM;
	}
	dfcp_src_pattern_init(&f->src, fc->seed, fc->bytes, fc->duration_ns);
	dfcp_sink_count_init(&f->sink, fc->seed, fc->verify);
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
	if (fc->role == ENG_FLOW_SENDER) {
		struct dfcp_conn_conf *cc = &f->cc;

		dfcp_conn_conf_default(cc);
		cc->remote.ip = fc->remote_ip;
		cc->remote.port = fc->remote_port;
		if (fc->has_remote_mac) {
			memcpy(cc->remote.mac, fc->remote_mac.addr_bytes, 6);
			f->resolved = 1;
		} else if (p->peer_mac_set) {
			memcpy(cc->remote.mac, p->peer_mac.addr_bytes, 6);
			f->resolved = 1;
		}
		cc->T = fc->T;
		cc->K = fc->K;
		cc->window = fc->window;
		cc->redundancy = fc->redundancy;
		cc->acks = fc->acks;
		cc->encode = fc->encode;
		cc->decode = fc->decode;
		cc->csum = p->csum;
		cc->hs_rto_ns = fc->hs_rto_ns;
		cc->min_rto_ns = fc->min_rto_ns;
		cc->time_wait_ns = fc->time_wait_ns;
		cc->source = flow_source;
		cc->source_ctx = f;
		/* block latency histogram (obs.h): one hist_record per acked block */
		cc->block_latency = eng_lat_flow_hist(p->rt, idx,
				(int)rte_lcore_to_socket_id(t->lcore_id));
	}
	if (dc->egress[0] != '\0') {
		if (eng_sched_attach == NULL) {
			ENG_LOG(ERR, task, "task %s: egress %s: this build has no sched task",
					t->name, dc->egress);
			return -ENOTSUP;
		}
		f->ring = eng_sched_attach(p->rt, dc->egress, fc->name, fc->weight, &f->sched_id);
		if (f->ring == NULL) {
			ENG_LOG(ERR, task, "task %s: flow %s: cannot attach to sched task %s",
					t->name, fc->name, dc->egress);
			return -EINVAL;
		}
	}
	f->rate_bps = fc->rate_bps;
	if (f->rate_bps != 0) {
		f->tok_cost = ((uint64_t)fc->T + DFCP_DATA_OFF + L1_OVERHEAD) * 8u * 1000000000ull;
		f->tok_max = f->tok_cost * RTE_MAX(p->burst, 16u);
	}
	f->snap.state = DFCP_CLOSED;
	return 0;
}

static void eng_dfcp_teardown(struct eng_task *t);

static int
eng_dfcp_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_dfcp_conf *dc = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct eng_port *port = &rt->ports[tp->port_idx];
	const struct eng_port_conf *pc = &rt->cfg->ports[tp->port_idx];
	uint64_t txo = RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM;
	uint64_t rxo = RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM;
	struct eng_dfcp_priv *p;
	unsigned int i;
	int rc;

	p = rte_zmalloc_socket("dfcp", sizeof(*p) + dc->nb_flows * sizeof(p->flows[0]),
			RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	t->priv = p;
	p->rt = rt;
	p->pool = port->pool;
	p->port_id = port->port_id;
	p->rxq = tp->rxq;
	p->txq = tp->txq;
	p->burst = t->burst;
	p->clk = rt->clock;
	p->mac = port->mac;
	p->peer_mac_set = pc->has_peer_mac;
	p->peer_mac = pc->peer_mac;
	p->cap = (uint16_t)RTE_MIN(rte_pktmbuf_data_room_size(p->pool) - RTE_PKTMBUF_HEADROOM,
			UINT16_MAX);
	switch (dc->csum) {
	case ENG_CSUM_FULL:
		p->csum = DFCP_CSUM_FULL;
		break;
	case ENG_CSUM_ZERO:
		p->csum = DFCP_CSUM_UDP_ZERO;
		break;
	case ENG_CSUM_OFFLOAD:
		if ((port->tx_offloads & txo) != txo) {
			ENG_LOG(ERR, task, "task %s: checksum = offload but port %s has no IPv4/UDP tx "
					"checksum offload (set tx_checksum = on, or use auto/full/zero)",
					t->name, pc->name);
			return -ENOTSUP;
		}
		p->csum = DFCP_CSUM_OFFLOAD;
		break;
	default:
		p->csum = (port->tx_offloads & txo) == txo ? DFCP_CSUM_OFFLOAD : DFCP_CSUM_FULL;
		break;
	}
	if (p->csum == DFCP_CSUM_OFFLOAD)
		p->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM | RTE_MBUF_F_TX_UDP_CKSUM;
	if ((port->rx_offloads & rxo) == rxo)
		p->rx_flags = DFCP_RX_IP_CSUM_OK | DFCP_RX_UDP_CSUM_OK;
	p->nb_flows = dc->nb_flows;
	for (i = 0; i < dc->nb_flows; i++) {
		const struct eng_flow_conf *fc = &rt->cfg->flows[dc->flow_idx[i]];

		if ((uint32_t)fc->T + DFCP_DATA_OFF > p->cap ||
				(pc->mtu != 0 && (uint32_t)fc->T + DFCP_DATA_OFF - DFCP_ETH_LEN > pc->mtu)) {
			ENG_LOG(ERR, task, "task %s: flow %s: symbol_size %u makes %u-byte frames: "
					"larger than the mbuf data room (%u) or the MTU of port %s",
					t->name, fc->name, fc->T, fc->T + DFCP_DATA_OFF, p->cap, pc->name);
			rc = -EINVAL;
			goto fail;
		}
		rc = flow_setup(p, t, &p->flows[i], fc, dc->flow_idx[i]);
		if (rc < 0)
			goto fail;
	}
	ENG_LOG(INFO, task, "task %s: %u flows on port %s, checksum %s", t->name, p->nb_flows,
			pc->name, p->csum == DFCP_CSUM_OFFLOAD ? "offload" :
			p->csum == DFCP_CSUM_UDP_ZERO ? "udp-zero" : "software");
	return 0;
fail:
	eng_dfcp_teardown(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

static void
rx_arp(struct eng_dfcp_priv *p, const uint8_t *d, uint16_t len, uint64_t now)
{
	struct dfcp_arp arp;
	unsigned int i;
	int rc = dfcp_arp_parse(d, len, &arp), hit = 0;

	if (rc < 0) {
		p->drops[-rc]++;
		p->cnt.rx_bad++;
		return;
	}
	for (i = 0; i < p->nb_flows; i++) {
		struct flow_rt *f = &p->flows[i];

		if (arp.op == DFCP_ARP_REPLY && f->fc->role == ENG_FLOW_SENDER && !f->resolved &&
				arp.spa == f->fc->remote_ip) {
			memcpy(f->cc.remote.mac, arp.sha, 6);
			f->resolved = 1;
			hit = 1;
		}
		if (arp.op == DFCP_ARP_REQUEST && arp.tpa == f->fc->local_ip && !hit) {
			dfcp_ep_rx(f->ep, d, len, now);	/* the endpoint answers */
			f->due_ns = 0;
			hit = 1;
		}
	}
	if (hit)
		p->cnt.rx_valid++;
	else
		p->cnt.rx_other++;
}

static void
rx_frame(struct eng_dfcp_priv *p, struct rte_mbuf *m, uint64_t now)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t len = m->data_len;
	struct dfcp_pkt pkt;
	unsigned int i;
	uint32_t ip;
	uint16_t port;
	int rc;

	if (m->nb_segs != 1) {
		p->drop_segmented++;
		p->cnt.rx_bad++;
		return;
	}
	if (len >= DFCP_ETH_LEN && net_rd16(d + 12) == DFCP_ETHERTYPE_ARP) {
		rx_arp(p, d, len, now);
		return;
	}
	if (len >= DFCP_L2L4_LEN && net_rd16(d + 12) == DFCP_ETHERTYPE_IPV4 && d[14] == 0x45) {
		if (p->rx_flags != 0 && (m->ol_flags & (RTE_MBUF_F_RX_IP_CKSUM_MASK |
				RTE_MBUF_F_RX_L4_CKSUM_MASK)) != 0) {
			uint64_t ipf = m->ol_flags & RTE_MBUF_F_RX_IP_CKSUM_MASK;
			uint64_t l4f = m->ol_flags & RTE_MBUF_F_RX_L4_CKSUM_MASK;

			if (ipf == RTE_MBUF_F_RX_IP_CKSUM_BAD || l4f == RTE_MBUF_F_RX_L4_CKSUM_BAD) {
				p->drops[ipf == RTE_MBUF_F_RX_IP_CKSUM_BAD ? DFCP_E_IP_CSUM :
						DFCP_E_UDP_CSUM]++;
				p->cnt.rx_bad++;
				return;
			}
		}
		ip = net_rd32(d + 30);
		port = net_rd16(d + 36);
		for (i = 0; i < p->nb_flows; i++) {
			struct flow_rt *f = &p->flows[i];

			if (f->fc->local_ip != ip || f->fc->local_port != port)
				continue;
			f->rx_bytes += len;
			rc = dfcp_ep_rx(f->ep, d, len, now);
			f->due_ns = 0;
			if (rc < 0)
				p->cnt.rx_bad++;
			else
				p->cnt.rx_valid++;
			return;
		}
	}
	/* for no flow: count why (a malformed frame, or simply not ours) */
	rc = dfcp_parse(d, len, p->rx_flags, &pkt);
	if (rc < 0) {
		p->drops[-rc]++;
		p->cnt.rx_bad++;
	} else {
		p->drops[DFCP_E_ADDR]++;
		p->cnt.rx_other++;
	}
}

/* Transmit what is pending; returns 1 when nothing is left pending. */
static int
flow_flush(struct eng_dfcp_priv *p, struct flow_rt *f)
{
	return eng_tx_pending(f->ring, p->port_id, p->txq, f->pend, &f->npend, &f->pend_off,
			&p->cnt.tx_packets, &p->cnt.tx_bytes);
}

static unsigned int
pace_allow(struct flow_rt *f, uint64_t now, unsigned int n)
{
	uint64_t dt, allowed;

	if (f->rate_bps == 0)
		return n;
	if (f->tok_last_ns == 0)
		f->tok_last_ns = now, f->tokens = f->tok_max;
	dt = now - f->tok_last_ns;
	if (dt > PACE_MAX_DT_NS)
		dt = PACE_MAX_DT_NS;
	f->tok_last_ns = now;
	f->tokens += dt * f->rate_bps;
	if (f->tokens > f->tok_max)
		f->tokens = f->tok_max;
	allowed = f->tokens / f->tok_cost;
	return allowed < n ? (unsigned int)allowed : n;
}

static void
pace_charge(struct flow_rt *f, const uint16_t *lens, unsigned int k)
{
	uint64_t c = 0;

	if (f->rate_bps == 0)
		return;
	for (unsigned int i = 0; i < k; i++)
		c += ((uint64_t)lens[i] + L1_OVERHEAD) * 8u * 1000000000ull;
	f->tokens = f->tokens > c ? f->tokens - c : 0;
}

static void
flow_tx(struct eng_dfcp_priv *p, struct flow_rt *f, uint64_t now)
{
	void *bufs[DFCP_TASK_MAX_BURST];
	uint16_t lens[DFCP_TASK_MAX_BURST];
	unsigned int n, k, i;

	if (!flow_flush(p, f))
		return;		/* the port or the scheduler is full: back-pressure */
	/*
	 * The endpoint's next deadline only moves when it receives, sends or is
	 * ticked (each clears the cache) or when time reaches it: no scan of the
	 * connections on idle polls.
	 */
	if (f->due_ns == 0 || f->due_ns <= now)
		f->due_ns = dfcp_ep_next_deadline(f->ep, now);
	if (f->due_ns > now)
		return;
	f->due_ns = 0;
	n = pace_allow(f, now, p->burst);
	if (n == 0)
		return;
	/* the top n of the stash become this burst's frames */
	n = eng_stash_take(p->pool, p->stash, &p->nstash,
			RTE_MIN((unsigned int)DFCP_TASK_MAX_BURST - p->nstash,
				RTE_MAX(n, (unsigned int)p->burst)), n, bufs, &p->cnt.no_mbuf);
	if (n == 0)
		return;
	k = dfcp_ep_tx_burst(f->ep, now, bufs, lens, p->cap, n);
	if (k == 0)
		return;
	pace_charge(f, lens, k);
	eng_stash_commit(p->stash, &p->nstash, n, k, lens, f->pend);
	if (p->ol_flags != 0)
		for (i = 0; i < k; i++) {
			struct rte_mbuf *m = f->pend[i];

			if (net_rd16((const uint8_t *)bufs[i] + 12) == DFCP_ETHERTYPE_IPV4) {
				m->ol_flags = p->ol_flags;
				m->l2_len = DFCP_ETH_LEN;
				m->l3_len = DFCP_IP_LEN;
			}
		}
	f->npend = (uint16_t)k;
	f->pend_off = 0;
	flow_flush(p, f);
}

static void
stats_add(struct dfcp_stats *a, const struct dfcp_stats *b)
{
	unsigned int i;

	a->tx_pkts += b->tx_pkts;
	a->tx_bytes += b->tx_bytes;
	a->rx_pkts += b->rx_pkts;
	a->rx_bytes += b->rx_bytes;
	a->tx_data_pkts += b->tx_data_pkts;
	a->rx_data_pkts += b->rx_data_pkts;
	a->goodput_bytes += b->goodput_bytes;
	a->blocks_sent += b->blocks_sent;
	a->blocks_acked += b->blocks_acked;
	a->blocks_decoded += b->blocks_decoded;
	a->blocks_first_pass += b->blocks_first_pass;
	a->blocks_lost += b->blocks_lost;
	a->decode_failures += b->decode_failures;
	a->topups += b->topups;
	a->topup_syms += b->topup_syms;
	a->timeouts += b->timeouts;
	a->short_reports += b->short_reports;
	a->retransmits += b->retransmits;
	a->loss_ppm = b->loss_ppm;
	a->redundancy = b->redundancy;
	a->window_used = b->window_used;
	a->window = b->window;
	a->srtt_ns = b->srtt_ns;
	for (i = 0; i < DFCP_E_MAX; i++)
		a->drops[i] += b->drops[i];
}

static void
flow_publish(struct flow_rt *f, uint64_t now)
{
	struct eng_flow_snap s;
	struct dfcp_ep_stats es;
	unsigned int i;

	memset(&s, 0, sizeof(s));
	s.st = f->acc;
	if (f->conn != NULL) {
		struct dfcp_stats cs;

		dfcp_conn_stats(f->conn, &cs);
		stats_add(&s.st, &cs);
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
	s.tx_dropped = f->tx_dropped;
	s.conns = f->conns_closed + (f->conn != NULL);
	if (f->fc->role == ENG_FLOW_SENDER)
		s.done = f->started && (f->conn == NULL || s.state == DFCP_TIME_WAIT);
	else
		s.done = f->conns_closed > 0 && f->conn == NULL;
	f->snap = s;
}

static void
flow_tick(struct eng_dfcp_priv *p, struct flow_rt *f, uint64_t now)
{
	const struct eng_flow_conf *fc = f->fc;
	int phase = p->rt->phase;

	if (phase != ENG_PHASE_RUN)
		f->stop_src = 1;
	if (fc->role == ENG_FLOW_SENDER && !f->started && phase == ENG_PHASE_RUN &&
			now >= p->run_start_ns + fc->start_ns) {
		if (!f->resolved) {
			if (now >= f->arp_next_ns && f->npend == 0) {
				struct rte_mbuf *m;
				int rc;

				f->arp_next_ns = now + ARP_RETRY_NS;
				rc = eng_arp_request(p->pool, p->cap, &p->mac, fc->local_ip,
						fc->remote_ip, &m);
				if (rc < 0) {
					if (rc == -ENOMEM)
						p->cnt.no_mbuf++;
					return;
				}
				f->pend[0] = m;
				f->npend = 1;
				f->pend_off = 0;
			}
		} else {
			f->conn = dfcp_ep_connect(f->ep, &f->cc, now);
			f->started = 1;
			if (f->conn == NULL)
				ENG_LOG(ERR, task, "flow %s: cannot open the connection", fc->name);
		}
	}
	if (f->conn != NULL && f->start_ns == 0 && dfcp_conn_state(f->conn) == DFCP_ESTABLISHED)
		f->start_ns = now;
	if (f->conn != NULL && dfcp_conn_state(f->conn) == DFCP_CLOSED) {
		struct dfcp_stats cs;

		dfcp_conn_stats(f->conn, &cs);
		stats_add(&f->acc, &cs);
		f->snap.close_reason = dfcp_conn_close_reason(f->conn);
		if (dfcp_conn_close_reason(f->conn) != DFCP_CR_DONE)
			ENG_LOG(WARNING, task, "flow %s: connection closed: reason %d", fc->name,
					dfcp_conn_close_reason(f->conn));
		f->conns_closed++;
		f->conn = NULL;
		flow_publish(f, now);
	}
	dfcp_ep_reap(f->ep);
	if (now >= f->snap_next_ns) {
		f->snap_next_ns = now + SNAP_PERIOD_NS;
		flow_publish(f, now);
	}
}

static uint16_t
eng_dfcp_poll(struct eng_task *t, uint64_t now_tsc)
{
	struct eng_dfcp_priv *p = t->priv;
	struct rte_mbuf *pkts[DFCP_TASK_MAX_BURST];
	uint64_t now = tsc_ns(p, now_tsc), tx0 = p->cnt.tx_packets;
	uint16_t n, i;

	if (p->run_start_ns == 0)
		p->run_start_ns = tsc_ns(p, p->rt->start_tsc);
	n = rte_eth_rx_burst(p->port_id, p->rxq, pkts, p->burst);
	/* mbuf headers RX_PREFETCH frames ahead, frame headers half as far */
	for (i = 0; i < n && i < RX_PREFETCH; i++)
		rte_prefetch0(pkts[i]);
	for (i = 0; i < n; i++) {
		if (i + RX_PREFETCH < n)
			rte_prefetch0(pkts[i + RX_PREFETCH]);
		if (i + RX_PREFETCH / 2 < n) {
			const uint8_t *d = rte_pktmbuf_mtod(pkts[i + RX_PREFETCH / 2], const uint8_t *);

			rte_prefetch0(d);
			rte_prefetch0(d + RTE_CACHE_LINE_SIZE);
		}
		p->cnt.rx_bytes += pkts[i]->pkt_len;
		rx_frame(p, pkts[i], now);
	}
	if (n != 0) {
		p->cnt.rx_packets += n;
		rte_pktmbuf_free_bulk(pkts, n);
	}
	for (i = 0; i < p->nb_flows; i++) {
		struct flow_rt *f = &p->flows[i];

		if (now >= f->tick_next_ns) {
			f->tick_next_ns = now + TICK_PERIOD_NS;
			flow_tick(p, f, now);
			f->due_ns = 0;
		}
		flow_tx(p, f, now);
	}
	/* packets handled = received + sent (lcore busy/idle accounting, obs.h) */
	return (uint16_t)RTE_MIN(n + (p->cnt.tx_packets - tx0), (uint64_t)UINT16_MAX);
}

/* ------------------------------------------------------------------ */
/* stats, teardown, engine hooks                                        */
/* ------------------------------------------------------------------ */

static void
eng_dfcp_stats_cb(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct eng_dfcp_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	*out = p->cnt;
}

static void
release_mbufs(struct eng_dfcp_priv *p)
{
	unsigned int i;

	if (p->nstash != 0)
		rte_pktmbuf_free_bulk(p->stash, p->nstash);
	p->nstash = 0;
	for (i = 0; i < p->nb_flows; i++) {
		struct flow_rt *f = &p->flows[i];

		if (f->npend != 0) {
			rte_pktmbuf_free_bulk(&f->pend[f->pend_off], f->npend);
			p->cnt.tx_dropped += f->npend;
			f->tx_dropped += f->npend;
		}
		f->npend = 0;
		f->pend_off = 0;
	}
}

static void
eng_dfcp_teardown(struct eng_task *t)
{
	struct eng_dfcp_priv *p = t->priv;
	unsigned int i;

	if (p == NULL)
		return;
	release_mbufs(p);
	for (i = 0; i < p->nb_flows; i++) {
		struct flow_rt *f = &p->flows[i];

		if (f->fc == NULL)
			continue;
		dfcp_ep_free(f->ep);
		if (f->src.fd >= 0)
			close(f->src.fd);
		if (f->sink.fd >= 0)
			close(f->sink.fd);
	}
	rte_free(p);
	t->priv = NULL;
}

int
eng_dfcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_snap *out)
{
	const struct eng_flow_conf *fc;
	const struct eng_dfcp_priv *p;

	if (flow >= rt->cfg->nb_flows)
		return -ENOENT;
	fc = &rt->cfg->flows[flow];
	if (fc->task_idx < 0 || (p = rt->cfg->tasks[fc->task_idx].priv) == NULL ||
			fc->task_pos >= p->nb_flows || p->flows[fc->task_pos].fc != fc)
		return -ENOENT;
	*out = p->flows[fc->task_pos].snap;
	return 0;
}

/* After the lcores stopped: stashed and pending mbufs back, final flow counters. */
static void
eng_dfcp_quiesce(struct eng_task *t)
{
	struct eng_dfcp_priv *p = t->priv;
	unsigned int j;

	release_mbufs(p);
	for (j = 0; j < p->nb_flows; j++)
		flow_publish(&p->flows[j], tsc_ns(p, rte_rdtsc()));
}

/* The goal: every flow of the task has finished. */
static enum eng_goal
eng_dfcp_goal(const struct eng_task *t)
{
	const struct eng_dfcp_priv *p = t->priv;
	unsigned int i;

	for (i = 0; i < p->nb_flows; i++)
		if (!p->flows[i].snap.done)
			return ENG_GOAL_PENDING;
	return ENG_GOAL_REACHED;
}

void
eng_dfcp_task_drops(const struct eng_task *t, uint64_t drops[DFCP_E_MAX], uint64_t *seg)
{
	const struct eng_dfcp_priv *p = t->priv;

	memset(drops, 0, sizeof(uint64_t) * DFCP_E_MAX);
	*seg = 0;
	if (p == NULL)
		return;
	memcpy(drops, p->drops, sizeof(p->drops));
	*seg = p->drop_segmented;
}

static const struct eng_section_kind *const dfcp_sections[] = {
	&eng_section_flow,
	NULL,
};

const struct eng_task_ops eng_task_dfcp = {
	.name = "dfcp",
	.help = "run DFCP flows (senders and receivers) on one port queue pair",
	.sections = dfcp_sections,
	.parse = eng_dfcp_parse,
	.check = eng_dfcp_check,
	.setup = eng_dfcp_setup,
	.poll = eng_dfcp_poll,
	.done = eng_dfcp_goal,
	.quiesce = eng_dfcp_quiesce,
	.stats = eng_dfcp_stats_cb,
	.teardown = eng_dfcp_teardown,
	.report = eng_dfcp_report,
	.tel = eng_dfcp_tel,
	.tables = eng_dfcp_tables,
};
