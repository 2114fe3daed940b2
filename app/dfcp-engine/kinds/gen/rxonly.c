/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxonly: receive, count and (optionally) verify test packets (pkt.h):
 * headers, lengths, per-stream sequence numbers and one-way latency from the
 * embedded TSC (meaningful when sender and receiver share the TSC: one host).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>
#include <rte_udp.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"
#include "kinds/gen/pkt.h"

#define RX_STREAMS 65536u	/* streams tracked (txonly flows = N: up to 65536) */
#define RX_PROBES 64u		/* open addressing: slots tried per stream */

struct rxonly_conf {
	int verify;
};

/* A stream: source address and UDP source port (txonly's flows). */
struct rx_stream {
	uint32_t src_ip;
	uint16_t src_port;
	uint16_t used;
	uint64_t next_seq;
};

struct rxonly_priv {
	uint16_t port_id, queue;
	int verify;
	struct eng_clock clk;	/* the runtime clock */
	uint64_t rx_packets, rx_bytes, rx_valid, rx_bad, rx_other;
	uint64_t seq_lost, seq_reordered;
	uint64_t lat_samples, lat_sum, lat_min, lat_max; /* TSC cycles */
	uint64_t untracked;	/* valid packets of streams beyond the table */
	struct rx_stream streams[RX_STREAMS];
} __rte_cache_aligned;

static int
rxonly_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct rxonly_conf *c;
	int rc;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	c->verify = 1;
	rc = eng_task_parse_port(t, sec, cfg, "port", "rxq", NULL, 1);
	if (rc == 0)
		rc = eng_sec_bool(sec, "verify", &c->verify);
	return rc;
}

static int
rxonly_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct rxonly_conf *c = t->conf;
	struct rxonly_priv *p;

	p = rte_zmalloc_socket("rxonly", sizeof(*p), RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	p->port_id = rt->ports[t->ports[0].port_idx].port_id;
	p->queue = t->ports[0].rxq;
	p->verify = c->verify;
	p->clk = rt->clock;
	p->lat_min = UINT64_MAX;
	t->priv = p;
	return 0;
}

static inline void
rx_verify(struct rxonly_priv *p, const struct rte_mbuf *m, uint64_t now)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ether_hdr *eth = (const struct rte_ether_hdr *)d;
	const struct rte_ipv4_hdr *ip = (const struct rte_ipv4_hdr *)(eth + 1);
	const struct rte_udp_hdr *udp = (const struct rte_udp_hdr *)(ip + 1);
	const struct eng_pkt_payload *pl = (const struct eng_pkt_payload *)(udp + 1);
	struct rx_stream *s = NULL;
	uint32_t sip, h;
	uint16_t sp;
	unsigned int i;

	if (m->data_len < ENG_PKT_MIN_FRAME - ENG_PKT_FCS_LEN ||
			eth->ether_type != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4) ||
			ip->version_ihl != RTE_IPV4_VHL_DEF || ip->next_proto_id != IPPROTO_UDP ||
			pl->magic != ENG_PKT_MAGIC) {
		p->rx_other++;
		return;
	}
	if (rte_be_to_cpu_16(ip->total_length) + 14u > m->pkt_len ||
			rte_be_to_cpu_16(udp->dgram_len) + 20u != rte_be_to_cpu_16(ip->total_length)) {
		p->rx_bad++;
		return;
	}
	p->rx_valid++;
	sp = udp->src_port;
	sip = ip->src_addr;
	h = rte_be_to_cpu_16(sp) ^ (rte_be_to_cpu_32(sip) * 2654435761u >> 16);
	for (i = 0; i < RX_PROBES; i++) {
		s = &p->streams[(h + i) % RX_STREAMS];
		if (!s->used || (s->src_port == sp && s->src_ip == sip))
			break;
	}
	if (i == RX_PROBES) {
		p->untracked++; /* table full around h: counted, not tracked */
		return;
	}
	if (!s->used) {
		s->used = 1;
		s->src_port = sp;
		s->src_ip = sip;
		s->next_seq = 0;
	}
	if (pl->seq > s->next_seq)
		p->seq_lost += pl->seq - s->next_seq;
	if (pl->seq < s->next_seq)
		p->seq_reordered++;
	else
		s->next_seq = pl->seq + 1;
	if (pl->tsc <= now) {
		uint64_t lat = now - pl->tsc;

		p->lat_samples++;
		p->lat_sum += lat;
		if (lat < p->lat_min)
			p->lat_min = lat;
		if (lat > p->lat_max)
			p->lat_max = lat;
	}
}

static uint16_t
rxonly_poll(struct eng_task *t, uint64_t now)
{
	struct rxonly_priv *p = t->priv;
	struct rte_mbuf *pkts[512];
	uint16_t n, i;

	RTE_SET_USED(now);
	n = rte_eth_rx_burst(p->port_id, p->queue, pkts, t->burst);
	if (n == 0)
		return 0;
	/* the loop's timestamp predates this burst's arrival: read the TSC again */
	now = rte_rdtsc();
	p->rx_packets += n;
	for (i = 0; i < n; i++) {
		p->rx_bytes += pkts[i]->pkt_len;
		if (p->verify)
			rx_verify(p, pkts[i], now);
	}
	rte_pktmbuf_free_bulk(pkts, n);
	return n;
}

static void
rxonly_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct rxonly_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	out->rx_packets = p->rx_packets;
	out->rx_bytes = p->rx_bytes;
	out->rx_valid = p->rx_valid;
	out->rx_bad = p->rx_bad;
	out->rx_other = p->rx_other;
	out->seq_lost = p->seq_lost;
	out->seq_reordered = p->seq_reordered;
	out->lat_samples = p->lat_samples;
	if (p->lat_samples != 0) {
		out->lat_min_ns = eng_clock_cycles_ns(&p->clk, p->lat_min);
		out->lat_max_ns = eng_clock_cycles_ns(&p->clk, p->lat_max);
		out->lat_avg_ns = eng_clock_cycles_ns(&p->clk, p->lat_sum / p->lat_samples);
	}
}

static void
rxonly_teardown(struct eng_task *t)
{
	const struct rxonly_priv *p = t->priv;

	if (p != NULL && p->untracked != 0)
		ENG_LOG(WARNING, task, "task %s: %" PRIu64 " packets of streams beyond the %u "
				"tracked: sequence not checked", t->name, p->untracked, RX_STREAMS);
	rte_free(t->priv);
	t->priv = NULL;
}

const struct eng_task_ops eng_task_rxonly = {
	.name = "rxonly",
	.help = "receive, count and verify test packets",
	.parse = rxonly_parse,
	.setup = rxonly_setup,
	.poll = rxonly_poll,
	.stats = rxonly_stats,
	.teardown = rxonly_teardown,
};
