/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly: generate UDP/IPv4 test packets (pkt.h) at full speed or at a
 * configured rate, optionally a fixed count. The rate is a lib/pace virtual
 * schedule on the engine clock: credit is kept across a stall of the lcore up
 * to [engine] pace_catchup (what is beyond is counted, obs/pace_view.h);
 * bucket = BYTES lets that many bytes leave back-to-back after idling.
 * pkt_size = 64,594,1518 (pkt_weights = 7,4,1): an IMIX, the sizes in the
 * evenly spread sequence of imix.h, a header template per size.
 * The console (core/ctl.h) stops and starts it and changes its rate and
 * frame size: the main lcore posts the wanted state to the task's mailbox,
 * the task's own lcore applies it at the top of a poll.
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
#include <rte_ring.h>
#include <rte_udp.h>

#include "config/config.h"
#include "core/ctl.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/tx.h"
#include "kinds/gen/gen.h"
#include "kinds/gen/imix.h"
#include "kinds/gen/pkt.h"
#include "kinds/gen/txonly_priv.h"
#include "kinds/gen/txflows.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "obs/pace_view.h"
#include "pace.h"


/* pkt_size: one size, or a list with optional pkt_weights (an IMIX). */
static int
txonly_parse_size(struct txonly_conf *c, struct eng_sec *sec)
{
	const char *sz = eng_sec_get(sec, "pkt_size"), *w = eng_sec_get(sec, "pkt_weights");
	char err[128];
	uint64_t v = c->pkt_size;
	int rc;

	if ((sz == NULL || strchr(sz, ',') == NULL) && w == NULL) {
		rc = eng_sec_size(sec, "pkt_size", ENG_PKT_MIN_FRAME, ENG_PKT_MAX_FRAME, &v);
		c->pkt_size = (uint32_t)v;
		return rc;
	}
	if (sz == NULL)
		return eng_sec_error(sec, "pkt_weights", "needs a pkt_size list");
	rc = eng_imix_parse(&c->imix, sz, w, ENG_PKT_MIN_FRAME, ENG_PKT_MAX_FRAME, err,
			sizeof(err));
	if (rc < 0)
		return eng_sec_error(sec, w != NULL && strstr(err, "weight") != NULL ?
				"pkt_weights" : "pkt_size", "%s", err);
	c->pkt_size = eng_imix_max(&c->imix);
	return 0;
}

static int
txonly_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct txonly_conf *c;
	int rc;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	c->pkt_size = ENG_PKT_MIN_FRAME;
	c->src_ip = 0xc6120001u; /* 198.18.0.1 (RFC 2544 range) */
	c->dst_ip = 0xc6120002u; /* 198.18.0.2 */
	c->src_port = (uint16_t)(1024 + cfg->nb_tasks);
	c->dst_port = 9;

	rc = eng_task_parse_port(t, sec, cfg, "port", NULL, "txq", 1);
	if (rc == 0)
		rc = txonly_parse_size(c, sec);
	if (rc == 0)
		rc = eng_sec_rate_profile(sec, "rate", PACE_RATE_MIN, PACE_RATE_MAX, 0, &c->prof);
	if (rc == 0 && c->prof.n != 0)
		c->rate = c->prof.rate[0];
	else if (rc == 0)
		rc = eng_sec_rate_any(sec, "rate", 0, PACE_RATE_MAX, &c->rate);
	if (rc == 0)
		rc = eng_sec_size(sec, "bucket", 0, UINT32_MAX, &c->bucket);
	if (rc == 0)
		rc = eng_sec_u64(sec, "count", 0, UINT64_MAX, &c->count);
	c->warmup_ns = UINT64_MAX;
	if (rc == 0)
		rc = eng_sec_time(sec, "warmup", 1000000000ull, 0, 3600 * 1000000000ull,
				&c->warmup_ns);
	if (rc == 0)
		rc = eng_sec_ipv4(sec, "src_ip", &c->src_ip);
	if (rc == 0)
		rc = eng_sec_ipv4(sec, "dst_ip", &c->dst_ip);
	if (rc == 0)
		rc = eng_sec_u16(sec, "src_port", 0, 65535, &c->src_port);
	if (rc == 0)
		rc = eng_sec_u16(sec, "dst_port", 0, 65535, &c->dst_port);
	if (rc == 0 && eng_sec_get(sec, "dst_mac") != NULL) {
		c->has_dst_mac = 1;
		rc = eng_sec_mac(sec, "dst_mac", &c->dst_mac);
	}
	c->weight = 1;
	if (rc == 0)
		rc = eng_sec_name(sec, "egress", c->egress, sizeof(c->egress));
	if (rc == 0)
		rc = eng_sec_u32(sec, "weight", 1, 1u << 20, &c->weight);
	if (rc == 0)
		rc = eng_txflows_parse(&c->mf, sec);
	if (rc == 0 && c->imix.nb_sizes != 0 && c->mf.n > 1)
		rc = eng_sec_error(sec, "pkt_size", "a size list (IMIX) needs flows = 1");
	if (rc == 0 && c->egress[0] != '\0')
		t->ports[0].txq = UINT16_MAX; /* the sched task transmits */
	return rc;
}

/* The headers of a frame of data_len bytes (no FCS) into tmpl. */
void
eng_txonly_template(struct txonly_priv *p, const struct txonly_conf *c, const struct eng_port *port,
		const struct eng_port_conf *pc, uint16_t data_len, uint8_t *tmpl)
{
	struct rte_ether_hdr *eth = (struct rte_ether_hdr *)tmpl;
	struct rte_ipv4_hdr *ip = (struct rte_ipv4_hdr *)(eth + 1);
	struct rte_udp_hdr *udp = (struct rte_udp_hdr *)(ip + 1);
	uint16_t l3 = (uint16_t)(data_len - sizeof(*eth));
	static const struct rte_ether_addr def_dst = {{0x02, 0, 0, 0, 0, 0x02}};

	rte_ether_addr_copy(c->has_dst_mac ? &c->dst_mac : pc->has_peer_mac ? &pc->peer_mac : &def_dst,
			&eth->dst_addr);
	rte_ether_addr_copy(&port->mac, &eth->src_addr);
	eth->ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	memset(ip, 0, sizeof(*ip));
	ip->version_ihl = RTE_IPV4_VHL_DEF;
	ip->time_to_live = 64;
	ip->next_proto_id = IPPROTO_UDP;
	ip->total_length = rte_cpu_to_be_16(l3);
	ip->src_addr = rte_cpu_to_be_32(c->src_ip);
	ip->dst_addr = rte_cpu_to_be_32(c->dst_ip);
	if (!(port->tx_offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM))
		ip->hdr_checksum = rte_ipv4_cksum(ip);
	else
		p->ol_flags = RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM;
	udp->src_port = rte_cpu_to_be_16(c->src_port);
	udp->dst_port = rte_cpu_to_be_16(c->dst_port);
	udp->dgram_len = rte_cpu_to_be_16((uint16_t)(l3 - sizeof(*ip)));
	udp->dgram_cksum = 0; /* optional in IPv4 */
}

/* An IMIX: the sequence of size indexes and a template per size; the pacer
 * reckons with the mean size (the bytes sent are counted exactly). */
static int
txonly_mix_setup(struct eng_task *t, struct txonly_priv *p, const struct txonly_conf *c,
		const struct eng_port *port, const struct eng_port_conf *pc, int socket)
{
	struct eng_imix m = c->imix;
	unsigned int i, k;

	m.seq = NULL;
	if (eng_imix_build(&m) < 0)
		return -ENOMEM;
	p->mix = rte_zmalloc_socket("txonly_mix", m.seq_len, RTE_CACHE_LINE_SIZE, socket);
	if (p->mix == NULL) {
		eng_imix_free(&m);
		return -ENOMEM;
	}
	for (i = 0; i < m.nb_sizes; i++) {
		p->mix_len_of[i] = (uint16_t)(m.size[i] - ENG_PKT_FCS_LEN);
		eng_txonly_template(p, c, port, pc, p->mix_len_of[i], p->mix_tmpl[i]);
	}
	for (k = 0; k < m.seq_len; k++) {
		for (i = 0; i + 1 < m.nb_sizes && m.seq[k] != m.size[i]; i++)
			;
		p->mix[k] = (uint8_t)i;
	}
	p->mix_len = m.seq_len;
	p->data_len = (uint16_t)(eng_imix_mean(&m) - ENG_PKT_FCS_LEN + 0.5);
	ENG_LOG(INFO, task, "task %s: IMIX of %u sizes, %u frames a cycle, mean %.1f B", t->name,
			m.nb_sizes, m.seq_len, eng_imix_mean(&m));
	eng_imix_free(&m);
	return 0;
}

/* A frame on the wire (FCS, preamble, gap) of pkt_size bytes; an IMIX: the
 * mean, as the pacer reckons. */
static uint64_t
txonly_frame_l1(const struct txonly_conf *c, uint32_t pkt_size)
{
	uint64_t frame = pkt_size - ENG_PKT_FCS_LEN;

	if (c->imix.nb_sizes != 0)
		frame = (uint64_t)(eng_imix_mean(&c->imix) - ENG_PKT_FCS_LEN + 0.5);
	return frame + ENG_L1_OVERHEAD;
}

/*
 * Rate r in L1 bit/s for frames of pkt_size bytes: a packet rate times the
 * frames' size on the wire, a share of the line rate times the port's link
 * speed (read now: the ports are started; at set-up waiting for the link as
 * DPDK does, at run time not). 0, or -errno with the reason in err.
 */
int
eng_txonly_rate_bps(const struct txonly_conf *c, const struct cfg_rate *r, uint32_t pkt_size,
		const struct eng_port *port, const struct eng_port_conf *pc, int wait_link,
		uint64_t *bps, char *err, size_t len)
{
	uint64_t line = 0;
	struct rte_eth_link link;
	char e[CFG_ERR_LEN], what[48];

	if (r->unit == CFG_RATE_LINE && (wait_link ? rte_eth_link_get(port->port_id, &link) :
			rte_eth_link_get_nowait(port->port_id, &link)) == 0 &&
			link.link_speed != RTE_ETH_SPEED_NUM_NONE &&
			link.link_speed != RTE_ETH_SPEED_NUM_UNKNOWN)
		line = (uint64_t)link.link_speed * 1000000ull;
	if (cfg_rate_resolve(r, txonly_frame_l1(c, pkt_size), line, bps, e, sizeof(e)) < 0) {
		if (r->unit == CFG_RATE_LINE && line == 0)
			snprintf(err, len, "%s: port %s reports no link speed (link down, or a "
					"device that has none)", e, pc->name);
		else
			snprintf(err, len, "%s", e);
		return -EINVAL;
	}
	cfg_rate_str(r, what, sizeof(what));
	if (*bps > PACE_RATE_MAX) {
		snprintf(err, len, "%s is %" PRIu64 " bit/s L1, over the pacer's %llu", what, *bps,
				PACE_RATE_MAX);
		return -ERANGE;
	}
	return 0;
}

static int
txonly_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct txonly_conf *c = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct eng_port *port = &rt->ports[tp->port_idx];
	const struct eng_port_conf *pc = &rt->cfg->ports[tp->port_idx];
	struct txonly_priv *p;
	uint64_t rate_bps = 0;
	char e[CFG_ERR_LEN], what[48];

	if (c->rate.value != 0) {
		if (eng_txonly_rate_bps(c, &c->rate, c->pkt_size, port, pc, 1, &rate_bps, e,
					sizeof(e)) < 0) {
			ENG_LOG(ERR, task, "task %s: rate: %s", t->name, e);
			return -EINVAL;
		}
		cfg_rate_str(&c->rate, what, sizeof(what));
		if (c->rate.unit != CFG_RATE_BPS)
			ENG_LOG(INFO, task, "task %s: rate %s = %.3f Mbit/s L1 (%" PRIu64 " B frames "
					"on the wire%s)", t->name, what, (double)rate_bps / 1e6,
					txonly_frame_l1(c, c->pkt_size),
					c->rate.unit == CFG_RATE_LINE ? ", of the link speed" : "");
	}
	if (pc->mtu != 0 && c->pkt_size - ENG_PKT_FCS_LEN - 14 > pc->mtu) {
		ENG_LOG(ERR, task, "task %s: pkt_size %u exceeds the MTU %u of port %s", t->name,
				c->pkt_size, pc->mtu, pc->name);
		return -EINVAL;
	}
	p = rte_zmalloc_socket("txonly", sizeof(*p), RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	p->pool = port->pool;
	p->port_id = port->port_id;
	p->queue = tp->txq;
	p->data_len = (uint16_t)(c->pkt_size - ENG_PKT_FCS_LEN);
	p->count = c->count;
	p->warm_cycles = eng_clock_ns_cycles(&rt->clock, c->warmup_ns != UINT64_MAX ?
			c->warmup_ns : rt->cfg->warmup_ns);
	t->priv = p;
	p->want_run = 1;
	p->want_bps = rate_bps;
	p->want_size = c->pkt_size;
	p->ctl_rate = c->rate;
	p->ctl_size = c->pkt_size;
	p->prof_next_tsc = UINT64_MAX;
	if (c->prof.n != 0 && eng_txonly_prof_setup(t, p) < 0)
		return -EINVAL;
	{
		/* unpaced: a pacer of the highest rate, used once a rate is set */
		struct pace_conf pcf = {.rate_bps = rate_bps ? rate_bps : PACE_RATE_MAX,
				.overhead = ENG_L1_OVERHEAD,
				.catchup_ns = rt->cfg->pace_catchup_ns, .bucket = c->bucket};
		void *mem = rte_zmalloc_socket("txonly_pace", pace_size(), RTE_CACHE_LINE_SIZE,
				socket);

		p->pace_mem = mem != NULL ? pace_init(mem, pace_size(), &pcf) : NULL;
		if (p->pace_mem == NULL) {
			rte_free(mem);
			ENG_LOG(ERR, task, "task %s: cannot pace rate %" PRIu64 " bit/s with bucket "
					"%" PRIu64 " B (pace_catchup + bucket time over %llu s?)",
					t->name, rate_bps, c->bucket, PACE_LAG_MAX_NS / 1000000000ull);
			return -EINVAL;
		}
		p->pace = rate_bps != 0 ? p->pace_mem : NULL;
	}
	eng_txonly_template(p, c, port, pc, p->data_len, p->tmpl);
	if (c->imix.nb_sizes != 0 && txonly_mix_setup(t, p, c, port, pc, socket) < 0)
		return -ENOMEM;
	if (c->mf.n > 1 || c->mf.nb_weights != 0 || c->mf.start_ns != 0) {
		struct eng_txflows_base b = {
			.pool = p->pool, .port_id = p->port_id, .txq = p->queue,
			.data_len = p->data_len, .ol_flags = p->ol_flags,
			.ip_cksum = !(port->tx_offloads & RTE_ETH_TX_OFFLOAD_IPV4_CKSUM),
			.tmpl = p->tmpl, .src_ip = c->src_ip, .src_port = c->src_port,
			.egress = c->egress, .weight = c->weight,
		};

		p->mf = eng_txflows_create(&c->mf, &b, rt, t, socket);
		return p->mf == NULL ? -EINVAL : 0;
	}
	if (c->egress[0] != '\0') {
		uint32_t id;

		p->ring = eng_egress_attach(rt, t, c->egress, t->name, c->weight, &id);
		if (p->ring == NULL)
			return -EINVAL;
	}
	return 0;
}

/* Packets (at most n) the rate allows at TSC now; n when not paced. */
static inline uint16_t
txonly_pace_allow(struct eng_task *t, struct txonly_priv *p, uint64_t now, uint16_t n)
{
	if (p->pace == NULL)
		return n;
	return (uint16_t)pace_burst(p->pace, eng_clock_ns(&t->rt->clock, now), p->data_len, n);
}

/* sent packets (bytes) left; refused ones keep their credit (counted if it runs out). */
static inline void
txonly_pace_sent(struct txonly_priv *p, uint16_t sent, uint64_t bytes)
{
	if (p->pace != NULL && sent != 0)
		pace_sent(p->pace, sent, bytes);
}

static uint16_t
txonly_poll(struct eng_task *t, uint64_t now)
{
	struct txonly_priv *p = t->priv;
	struct rte_mbuf *pkts[512];
	uint16_t n = t->burst, sent, i, lens[512];
	uint64_t bytes = 0, g;

	if (t->rt->phase != ENG_PHASE_RUN)
		return 0;
	g = eng_ctl_take(&p->box, p->ctl_applied);
	if (unlikely(g != 0))
		eng_txonly_ctl_apply(t, p, g, now);
	if (unlikely(now >= p->prof_next_tsc))
		eng_txonly_prof_step(t, p, now);	/* rate = a profile (txctl.c) */
	if (unlikely(p->stopped)) {
		if (p->pace != NULL) /* no credit for the stopped time */
			pace_idle(p->pace, eng_clock_ns(&t->rt->clock, now));
		return 0;
	}
	if (p->count != 0) {
		if (p->seq >= p->count)
			return 0;
		if (p->count - p->seq < n)
			n = (uint16_t)(p->count - p->seq);
	}
	if (p->warm_tsc == 0 && p->warm_cycles != 0 && now - t->rt->start_tsc >= p->warm_cycles) {
		p->warm_tsc = now; /* the warmup ends before this burst */
		p->warm_packets = p->tx_packets;
		p->warm_bytes = p->tx_bytes;
	}
	n = txonly_pace_allow(t, p, now, n);
	if (n == 0)
		return 0;
	if (p->mf != NULL) { /* flows = N: txflows.c builds and sends */
		sent = eng_txflows_send(p->mf, n, now, &p->tx_dropped, &p->no_mbuf);
		p->seq += sent;
		p->tx_packets += sent;
		p->tx_bytes += (uint64_t)sent * p->data_len;
		txonly_pace_sent(p, sent, (uint64_t)sent * p->data_len);
		return sent;
	}
	if (rte_pktmbuf_alloc_bulk(p->pool, pkts, n) != 0) {
		p->no_mbuf++;
		return 0;
	}
	for (i = 0; i < n; i++) {
		struct rte_mbuf *m = pkts[i];
		uint8_t *d = rte_pktmbuf_mtod(m, uint8_t *);
		struct eng_pkt_payload *pl = (struct eng_pkt_payload *)(d + ENG_PKT_HDR_LEN);

		uint16_t len = p->data_len;

		if (p->mix != NULL) { /* an IMIX: the next size of the sequence */
			uint8_t k = p->mix[p->mix_pos];

			p->mix_pos = p->mix_pos + 1 == p->mix_len ? 0 : p->mix_pos + 1;
			len = p->mix_len_of[k];
			rte_memcpy(d, p->mix_tmpl[k], ENG_PKT_HDR_LEN);
		} else {
			rte_memcpy(d, p->tmpl, ENG_PKT_HDR_LEN);
		}
		pl->seq = p->seq + i;
		pl->tsc = now;
		pl->magic = ENG_PKT_MAGIC;
		m->data_len = len;
		m->pkt_len = len;
		lens[i] = len;
		m->ol_flags |= p->ol_flags;
		m->l2_len = 14;
		m->l3_len = 20;
	}
	sent = eng_tx_burst(p->ring, p->port_id, p->queue, pkts, n);
	for (i = 0; i < sent; i++)
		bytes += lens[i]; /* the sent mbufs are the driver's now */
	if (sent < n) {
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		p->tx_dropped += n - sent;
		if (p->mix != NULL) /* unsent sizes go again, like their numbers */
			p->mix_pos = (p->mix_pos + p->mix_len - (n - sent) % p->mix_len) % p->mix_len;
	}
	p->seq += sent; /* unsent packets reuse their numbers: gaps mean real loss */
	p->tx_packets += sent;
	p->tx_bytes += bytes;
	txonly_pace_sent(p, sent, bytes);
	return sent;
}

static void
txonly_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct txonly_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	out->tx_packets = p->tx_packets;
	out->tx_bytes = p->tx_bytes;
	out->tx_dropped = p->tx_dropped;
	out->no_mbuf = p->no_mbuf;
}

int
eng_txonly_pace_view(const struct eng_task *t, struct eng_pace_view *v, int period)
{
	struct txonly_priv *p = t->priv;

	if (t->ops != &eng_task_txonly || p == NULL || p->pace == NULL)
		return -ENOENT;
	v->task = t->name;
	v->name = t->name;
	v->tx_full = p->tx_dropped;
	v->no_mbuf = p->no_mbuf;
	return eng_pace_view_fill(v, p->pace, period ? &p->mark : NULL);
}

/* flows = N: N streams; else one, the task. */
static unsigned int
txonly_stream_slots(const struct eng_task *t)
{
	const struct txonly_priv *p = t->priv;

	return p == NULL ? 0 : p->mf != NULL ? eng_txflows_count(p->mf) : 1;
}

static int
txonly_stream_view(const struct eng_task *t, unsigned int i, struct eng_stream_view *v)
{
	const struct txonly_priv *p = t->priv;
	uint64_t w = 0;

	if (i >= txonly_stream_slots(t))
		return -ENOENT;
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s/%u", t->name, i);
	v->key = i;
	if (p->mf != NULL) {
		v->packets = eng_txflows_sent(p->mf, i);
		v->bytes = v->packets * p->data_len; /* one size with streams */
		w = eng_txflows_wanted(p->mf, i);
	} else {
		v->packets = p->tx_packets;
		v->bytes = p->tx_bytes;
	}
	v->stopped = (w & ENG_TXF_STOP) != 0 ||
			__atomic_load_n(&p->want_run, __ATOMIC_RELAXED) == 0;
	v->rate_bps = w & ~ENG_TXF_STOP;
	return 0;
}

static void
txonly_teardown(struct eng_task *t)
{
	struct txonly_priv *p = t->priv;

	if (p != NULL) {
		rte_free(p->pace_mem);
		rte_free(p->mix);
		eng_txflows_free(p->mf);
	}
	rte_free(t->priv);
	t->priv = NULL;
}

/* The summary record of a txonly task (text, JSON): its send rate, whole run
 * and after the warmup. */
struct tx_view {
	const char *name;
	double tx_mbps, tx_pps, warmup_s, warm_mbps, warm_pps;
};

#define XV(field) offsetof(struct tx_view, field)

static const struct eng_ctr tx_ctrs[] = {
	{"name", "", XV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [task NAME]"},
	{"tx_mbps", "Mbit/s", XV(tx_mbps), ENG_CT_DBL, 3, 0,
		"bytes sent x 8 over the whole run (no FCS)"},
	{"tx_pps", "pkt/s", XV(tx_pps), ENG_CT_DBL, 1, 0, "frames sent per second, whole run"},
	{"warmup_s", "s", XV(warmup_s), ENG_CT_DBL, 3, 0,
		"first seconds left out of the *_after_warmup figures (warmup key)"},
	{"tx_mbps_after_warmup", "Mbit/s", XV(warm_mbps), ENG_CT_DBL, 3, 0,
		"tx_mbps from the end of the warmup to the stop (-1: the run was shorter)"},
	{"tx_pps_after_warmup", "pkt/s", XV(warm_pps), ENG_CT_DBL, 1, 0,
		"tx_pps from the end of the warmup to the stop (-1: the run was shorter)"},
};

static const struct eng_ctr_table tx_tables[] = {
	{"pace", eng_pace_ctrs, ENG_PACE_NCTRS},
	{"txonly", tx_ctrs, RTE_DIM(tx_ctrs)},
	{NULL, NULL, 0},
};

static void
tx_view_fill(struct eng_runtime *rt, const struct eng_task *t, struct tx_view *v)
{
	const struct txonly_priv *p = t->priv;
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc(), hz = rt->clock.hz;
	uint64_t run = eng_run_cycles(rt);

	memset(v, 0, sizeof(*v));
	v->name = t->name;
	v->tx_mbps = eng_clock_mbps(p->tx_bytes, run, hz);
	v->tx_pps = run ? (double)p->tx_packets * hz / run : 0;
	v->warmup_s = (double)p->warm_cycles / hz;
	v->warm_mbps = v->warm_pps = -1;
	if (p->warm_cycles == 0) {
		v->warm_mbps = v->tx_mbps;
		v->warm_pps = v->tx_pps;
	} else if (p->warm_tsc != 0 && end > p->warm_tsc) {
		v->warm_mbps = eng_clock_mbps(p->tx_bytes - p->warm_bytes, end - p->warm_tsc, hz);
		v->warm_pps = (double)(p->tx_packets - p->warm_packets) * hz / (end - p->warm_tsc);
	}
}

/* "txonly" (summary and JSON); the pace records are obs/'s (pace_view op). */
static void
txonly_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i, n = 0;

	if (what != ENG_REPORT_SUMMARY && what != ENG_REPORT_JSON)
		return;
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct tx_view v;

		if (t->ops != &eng_task_txonly || t->priv == NULL)
			continue;
		if (n++ == 0)
			eng_out_arr(o, "txonly");
		tx_view_fill(rt, t, &v);
		eng_out_item(o, "txonly", t->name);
		eng_out_counters(o, tx_ctrs, RTE_DIM(tx_ctrs), &v);
		if (what == ENG_REPORT_JSON)
			eng_streams_write(o, t);
		eng_out_end(o);
	}
	if (n != 0)
		eng_out_end(o);
}

const struct eng_task_ops eng_task_txonly = {
	.name = "txonly",
	.help = "generate UDP/IPv4 test packets at full speed or a set rate",
	.parse = txonly_parse,
	.setup = txonly_setup,
	.poll = txonly_poll,
	.stats = txonly_stats,
	.teardown = txonly_teardown,
	.report = txonly_report,
	.pace_view = eng_txonly_pace_view,
	.stream_slots = txonly_stream_slots,
	.stream_view = txonly_stream_view,
	.tables = tx_tables,
	.control = eng_txonly_control,
};
