/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rxonly: receive, count and (optionally) verify test packets (pkt.h):
 * headers, lengths, per-stream sequence numbers and one-way latency from the
 * embedded TSC (meaningful when sender and receiver share the TSC: one host):
 * its percentiles (a lib/hist histogram, ns) and the interarrival jitter of
 * RFC 3550 6.4.1 (J += (|D| - J) / 16, D the change in one-way delay between
 * consecutive packets of a stream), and the receive rate over the whole run and
 * after warmup (the first seconds skipped) in the summary and its JSON.
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
#include "kinds/gen/gen.h"
#include "kinds/gen/pkt.h"
#include "obs/obs.h"
#include "obs/out.h"

#define RX_STREAMS 65536u	/* streams tracked (txonly flows = N: up to 65536) */
#define RX_PROBES 64u		/* open addressing: slots tried per stream */

struct rxonly_conf {
	int verify;
	uint64_t warmup_ns;	/* UINT64_MAX: [engine] warmup */
};

/* A stream: source address and UDP source port (txonly's flows), its counters. */
struct rx_stream {
	uint32_t src_ip;
	uint16_t src_port;
	uint16_t used;
	uint64_t next_seq;
	uint64_t last_lat;	/* the previous packet's one-way delay, TSC cycles (0: none) */
	uint64_t packets, bytes, lost, reordered;
} __rte_cache_aligned;

struct rxonly_priv {
	uint16_t port_id, queue;
	int verify;
	struct eng_clock clk;	/* the runtime clock */
	uint64_t rx_packets, rx_bytes, rx_valid, rx_bad, rx_other;
	uint64_t seq_lost, seq_reordered;
	uint64_t lat_samples, lat_sum, lat_min, lat_max; /* TSC cycles */
	uint64_t untracked;	/* valid packets of streams beyond the table */
	struct hist *lat_hist;	/* one-way latency, ns (NULL: out of memory) */
	uint64_t jitter16;	/* RFC 3550 jitter x 16, TSC cycles */
	uint64_t warm_cycles;	/* warmup as TSC cycles (0: none) */
	const uint64_t *start_tsc; /* the run's start (rt->start_tsc) */
	uint64_t warm_tsc, warm_packets, warm_bytes; /* at the end of the warmup */
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
	c->warmup_ns = UINT64_MAX;
	rc = eng_task_parse_port(t, sec, cfg, "port", "rxq", NULL, 1);
	if (rc == 0)
		rc = eng_sec_bool(sec, "verify", &c->verify);
	if (rc == 0)
		rc = eng_sec_time(sec, "warmup", 1000000000ull, 0, 3600 * 1000000000ull,
				&c->warmup_ns);
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
	p->warm_cycles = eng_clock_ns_cycles(&rt->clock, c->warmup_ns != UINT64_MAX ?
			c->warmup_ns : rt->cfg->warmup_ns);
	p->start_tsc = &rt->start_tsc;
	t->priv = p;
	if (p->verify) {
		size_t sz = hist_size(ENG_HIST_SIG_BITS);
		void *mem = rte_zmalloc_socket("rxonly_lat", sz, RTE_CACHE_LINE_SIZE, socket);

		p->lat_hist = mem != NULL ? hist_init(mem, sz, ENG_HIST_SIG_BITS) : NULL;
		if (p->lat_hist == NULL) {
			rte_free(mem);
			ENG_LOG(WARNING, task, "task %s: no memory for the latency histogram",
					t->name);
		}
	}
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
	s->packets++;
	s->bytes += m->pkt_len;
	if (pl->seq > s->next_seq) {
		p->seq_lost += pl->seq - s->next_seq;
		s->lost += pl->seq - s->next_seq;
	}
	if (pl->seq < s->next_seq) {
		p->seq_reordered++;
		s->reordered++;
	} else {
		s->next_seq = pl->seq + 1;
	}
	if (pl->tsc <= now) {
		uint64_t lat = now - pl->tsc;

		if (s->last_lat != 0) { /* RFC 3550 6.4.1, in sixteenths */
			uint64_t d = lat > s->last_lat ? lat - s->last_lat : s->last_lat - lat;

			p->jitter16 += d - ((p->jitter16 + 8) >> 4);
		}
		s->last_lat = lat != 0 ? lat : 1;
		if (p->lat_hist != NULL)
			hist_record(p->lat_hist, eng_clock_cycles_ns(&p->clk, lat));
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
	if (p->warm_tsc == 0 && p->warm_cycles != 0 && now - *p->start_tsc >= p->warm_cycles) {
		p->warm_tsc = now; /* the warmup ends before this burst */
		p->warm_packets = p->rx_packets;
		p->warm_bytes = p->rx_bytes;
	}
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

/* With verify: the slots of the stream table (most unused). */
static unsigned int
rxonly_stream_slots(const struct eng_task *t)
{
	const struct rxonly_priv *p = t->priv;

	return p != NULL && p->verify ? RX_STREAMS : 0;
}

static int
rxonly_stream_view(const struct eng_task *t, unsigned int i, struct eng_stream_view *v)
{
	const struct rxonly_priv *p = t->priv;
	const struct rx_stream *s;
	uint32_t ip;

	if (i >= rxonly_stream_slots(t) || !p->streams[i].used)
		return -ENOENT;
	s = &p->streams[i];
	ip = rte_be_to_cpu_32(s->src_ip);
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s/%u.%u.%u.%u:%u", t->name, ip >> 24,
			(ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff,
			rte_be_to_cpu_16(s->src_port));
	v->key = (uint64_t)ip << 16 | rte_be_to_cpu_16(s->src_port);
	v->rx = 1;
	v->packets = s->packets;
	v->bytes = s->bytes;
	v->lost = s->lost;
	v->reordered = s->reordered;
	return 0;
}

static void
rxonly_teardown(struct eng_task *t)
{
	const struct rxonly_priv *p = t->priv;

	if (p != NULL && p->untracked != 0)
		ENG_LOG(WARNING, task, "task %s: %" PRIu64 " packets of streams beyond the %u "
				"tracked: sequence not checked", t->name, p->untracked, RX_STREAMS);
	if (p != NULL)
		rte_free(p->lat_hist);
	rte_free(t->priv);
	t->priv = NULL;
}

/* The summary record of an rxonly task (text, JSON). */
struct rx_view {
	const char *name;
	double rx_mbps, rx_pps;		/* the whole run */
	double warmup_s;
	double warm_mbps, warm_pps;	/* after the warmup; -1: the run was shorter */
	uint64_t jitter_ns;
};

#define RV(field) offsetof(struct rx_view, field)

static const struct eng_ctr rx_ctrs[] = {
	{"name", "", RV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [task NAME]"},
	{"rx_mbps", "Mbit/s", RV(rx_mbps), ENG_CT_DBL, 3, 0,
		"bytes received x 8 over the whole run (no FCS)"},
	{"rx_pps", "pkt/s", RV(rx_pps), ENG_CT_DBL, 1, 0, "frames received per second, whole run"},
	{"warmup_s", "s", RV(warmup_s), ENG_CT_DBL, 3, 0,
		"first seconds left out of the *_after_warmup figures (warmup key)"},
	{"rx_mbps_after_warmup", "Mbit/s", RV(warm_mbps), ENG_CT_DBL, 3, 0,
		"rx_mbps from the end of the warmup to the stop (-1: the run was shorter)"},
	{"rx_pps_after_warmup", "pkt/s", RV(warm_pps), ENG_CT_DBL, 1, 0,
		"rx_pps from the end of the warmup to the stop (-1: the run was shorter)"},
	{"jitter_ns", "ns", RV(jitter_ns), ENG_CT_U64, 0, 0,
		"RFC 3550 interarrival jitter of the one-way latency (smoothed |change| between "
		"consecutive packets of a stream)"},
};

static const struct eng_ctr_table rx_tables[] = {
	{"rxonly", rx_ctrs, RTE_DIM(rx_ctrs)},
	{NULL, NULL, 0},
};

static void
rx_view_fill(struct eng_runtime *rt, const struct eng_task *t, struct rx_view *v)
{
	const struct rxonly_priv *p = t->priv;
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc(), hz = rt->clock.hz;

	memset(v, 0, sizeof(*v));
	v->name = t->name;
	v->rx_mbps = eng_clock_mbps(p->rx_bytes, eng_run_cycles(rt), hz);
	v->rx_pps = eng_run_cycles(rt) ? (double)p->rx_packets * hz / eng_run_cycles(rt) : 0;
	v->warmup_s = (double)p->warm_cycles / hz;
	v->warm_mbps = v->warm_pps = v->warmup_s != 0 ? -1 : v->rx_mbps;
	if (v->warmup_s == 0)
		v->warm_pps = v->rx_pps;
	else if (p->warm_tsc != 0 && end > p->warm_tsc) {
		v->warm_mbps = eng_clock_mbps(p->rx_bytes - p->warm_bytes, end - p->warm_tsc, hz);
		v->warm_pps = (double)(p->rx_packets - p->warm_packets) * hz / (end - p->warm_tsc);
	}
	v->jitter_ns = eng_clock_cycles_ns(&p->clk, p->jitter16 >> 4);
}

/* "rxonly": per task its rates and latency percentiles (summary and JSON). */
static void
rxonly_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i, n = 0;

	if (what != ENG_REPORT_SUMMARY && what != ENG_REPORT_JSON)
		return;
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		const struct rxonly_priv *p = t->priv;
		struct rx_view v;

		if (t->ops != &eng_task_rxonly || p == NULL)
			continue;
		if (n++ == 0)
			eng_out_arr(o, "rxonly");
		rx_view_fill(rt, t, &v);
		eng_out_item(o, "rxonly", t->name);
		eng_out_counters(o, rx_ctrs, RTE_DIM(rx_ctrs), &v);
		if (p->lat_hist != NULL && hist_count(p->lat_hist) != 0) {
			struct hist_summary h;

			hist_summarize(p->lat_hist, &h);
			eng_out_hist(o, "latency_ns", &h);
		}
		if (what == ENG_REPORT_JSON)
			eng_streams_write(o, t);
		eng_out_end(o);
	}
	if (n != 0)
		eng_out_end(o);
}

const struct eng_task_ops eng_task_rxonly = {
	.name = "rxonly",
	.help = "receive, count and verify test packets",
	.parse = rxonly_parse,
	.setup = rxonly_setup,
	.poll = rxonly_poll,
	.stats = rxonly_stats,
	.teardown = rxonly_teardown,
	.report = rxonly_report,
	.tables = rx_tables,
	.stream_slots = rxonly_stream_slots,
	.stream_view = rxonly_stream_view,
};
