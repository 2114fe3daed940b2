/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Packet capture: [capture NAME] sections write pcapng files of a port's
 * received and/or transmitted frames, optionally only those matching ipfw-like
 * rules (the grammar of [queue] match, lib/pipe), bounded by a packet
 * count, a byte count (captured bytes) and/or a duration, with a snap length.
 *
 * Ethdev rx/tx callbacks (installed only for ports that have a capture, so a
 * port without one pays nothing) copy each matching frame with
 * rte_pcapng_copy() into a capture-private mempool and enqueue the copy on a
 * multi-producer ring; the housekeeping loop on the main lcore drains the ring
 * into the file with rte_pcapng_write_packets(). A full ring or an empty pool
 * drops the copy (counted), never the packet. Transmitted frames are copied by
 * eng_port_tx() (capture_tx.c) around rte_eth_tx_burst: a frame is written
 * once, when the queue took it; a refused frame is not written.
 *
 * [engine] pdump = on calls rte_pdump_init() so that dpdk-dumpcap / dpdk-pdump
 * (secondary processes) can attach to the running engine.
 * See doc/observability.md.
 */
#define ALLOW_EXPERIMENTAL_API 1
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_ip.h>
#include <rte_mbuf.h>
#include <rte_mempool.h>
#include <rte_pcapng.h>
#include <rte_pdump.h>
#include <rte_ring.h>

#include "config/config.h"
#include "core/log.h"
#include "core/pkt_flow.h"
#include "core/runtime.h"
#include "obs/capture_tx.h"
#include "obs/obs.h"
#include "obs/out.h"

#define CAP_MAX_RULES 8
#define CAP_MAX_QUEUES 16
#define CAP_DRAIN 256

enum { CAP_RX = 1, CAP_TX = 2 };

/* One [capture NAME] section. */
struct eng_capture_conf {
	char name[ENG_NAME_LEN];
	int line;
	char port_name[ENG_NAME_LEN];
	int port_idx;
	int dir;			/* CAP_RX | CAP_TX */
	char file[PATH_MAX];
	uint32_t snaplen;		/* 0: whole frames (up to the mbuf data room) */
	uint64_t max_packets, max_bytes, duration_ns; /* 0: no limit */
	uint32_t ring_size;
	unsigned int nb_rules;
	struct pipe_rule rules[CAP_MAX_RULES];
	uint32_t smask[CAP_MAX_RULES], dmask[CAP_MAX_RULES];
};

struct cap_rt {
	const struct eng_capture_conf *cc;
	uint16_t port_id;
	uint32_t snaplen;
	uint64_t end_tsc;		/* 0: none */
	const struct eng_clock *clk;	/* the runtime clock */
	uint64_t wall_ns;		/* wall clock at the clock's ns 0 */
	volatile int stopped;		/* a limit was reached */
	struct rte_ring *ring;
	struct rte_mempool *mp;
	rte_pcapng_t *pcap;
	/* updated by the callbacks (several lcores): atomics */
	uint64_t pkts, bytes, dropped;
	/* main lcore */
	uint64_t written_pkts, written_bytes;
	uint16_t nrx;
	const struct rte_eth_rxtx_callback *rx_cb[CAP_MAX_QUEUES];
	uint16_t rxq[CAP_MAX_QUEUES];
};

/* The captures, in eng_runtime.capture. */
struct eng_capture_rt {
	struct cap_rt *caps;
	unsigned int nb;
	int pdump_on;
};

/* ------------------------------------------------------------------ */
/* config                                                               */
/* ------------------------------------------------------------------ */

static const char *const cap_match_keys[CAP_MAX_RULES] = {
	"match", "match1", "match2", "match3", "match4", "match5", "match6", "match7",
};

static int
capture_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	struct eng_capture_conf *c;
	char dir[16] = "both";
	uint64_t v;
	unsigned int i;
	int rc;

	if (cfg->captures == NULL) {
		cfg->captures = calloc(ENG_MAX_CAPTURES, sizeof(*cfg->captures));
		if (cfg->captures == NULL)
			return -ENOMEM;
	}
	if (cfg->nb_captures == ENG_MAX_CAPTURES)
		return eng_sec_error(sec, NULL, "too many captures (at most %d)", ENG_MAX_CAPTURES);
	c = &cfg->captures[cfg->nb_captures];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%.*s", (int)sizeof(c->name) - 1, sec->id);
	c->line = sec->line;
	c->port_idx = -1;
	c->ring_size = 8192;
	if (eng_sec_get(sec, "port") == NULL)
		return eng_sec_missing(sec, "port", "the name of a [port NAME] section");
	rc = eng_sec_name(sec, "port", c->port_name, sizeof(c->port_name));
	if (rc == 0 && eng_sec_get(sec, "file") == NULL)
		return eng_sec_missing(sec, "file", "the pcapng file to write");
	if (rc == 0)
		rc = eng_sec_str(sec, "file", c->file, sizeof(c->file));
	if (rc == 0)
		rc = eng_sec_str(sec, "direction", dir, sizeof(dir));
	if (rc < 0)
		return rc;
	if (strcmp(dir, "rx") == 0)
		c->dir = CAP_RX;
	else if (strcmp(dir, "tx") == 0)
		c->dir = CAP_TX;
	else if (strcmp(dir, "both") == 0)
		c->dir = CAP_RX | CAP_TX;
	else
		return eng_sec_error(sec, "direction", "\"%s\": expected rx, tx or both", dir);
	v = 0;
	rc = eng_sec_size(sec, "snaplen", 0, 65535, &v);
	c->snaplen = (uint32_t)v;
	if (rc == 0)
		rc = eng_sec_u64(sec, "max_packets", 0, UINT64_MAX, &c->max_packets);
	if (rc == 0)
		rc = eng_sec_size(sec, "max_bytes", 0, UINT64_MAX, &c->max_bytes);
	if (rc == 0)
		rc = eng_sec_time(sec, "duration", 1000000000ull, 0, 365ull * 86400 * 1000000000ull,
				&c->duration_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "ring", 64, 1u << 20, &c->ring_size);
	for (i = 0; rc == 0 && i < CAP_MAX_RULES; i++) {
		const char *s = eng_sec_get(sec, cap_match_keys[i]);
		char e[CFG_ERR_LEN];
		struct pipe_rule *r;

		if (s == NULL)
			continue;
		r = &c->rules[c->nb_rules];
		if (pipe_rule_parse(s, r, e, sizeof(e)) < 0)
			return eng_sec_error(sec, cap_match_keys[i], "%s", e);
		c->smask[c->nb_rules] = pipe_prefix_mask(r->src_len);
		c->dmask[c->nb_rules] = pipe_prefix_mask(r->dst_len);
		r->src &= c->smask[c->nb_rules];
		r->dst &= c->dmask[c->nb_rules];
		c->nb_rules++;
	}
	if (rc == 0)
		cfg->nb_captures++;
	return rc;
}

static int
capture_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int i, j;

	for (i = 0; i < cfg->nb_captures; i++) {
		struct eng_capture_conf *c = &cfg->captures[i];

		c->port_idx = eng_config_port_index(cfg, c->port_name);
		if (c->port_idx < 0) {
			snprintf(err, errlen, "%s:%d: [capture %s] port: no [port %s] section",
					cfg->file, c->line, c->name, c->port_name);
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (strcmp(cfg->captures[j].file, c->file) == 0) {
				snprintf(err, errlen, "%s:%d: [capture %s] file: %s is also the file "
						"of [capture %s]",
						cfg->file, c->line, c->name, c->file,
						cfg->captures[j].name);
				return -EINVAL;
			}
	}
	return 0;
}

static void
captures_free(struct eng_config *cfg)
{
	free(cfg->captures);
	cfg->captures = NULL;
	cfg->nb_captures = 0;
}

const struct eng_section_kind eng_section_capture = {
	.prefix = "capture",
	.named = 1,
	.help = "write a port's frames (rx/tx, match rules, limits) to a pcapng file",
	.parse = capture_parse,
	.check = capture_check,
	.free = captures_free,
};

/* ------------------------------------------------------------------ */
/* callbacks (hot path, only on captured ports)                         */
/* ------------------------------------------------------------------ */

static int
cap_match(const struct eng_capture_conf *cc, const struct rte_mbuf *m)
{
	struct pipe_flow f;
	unsigned int i;

	if (cc->nb_rules == 0)
		return 1;
	if (!eng_pkt_flow(m, &f))
		return 0;
	for (i = 0; i < cc->nb_rules; i++)
		if (pipe_rule_match(&cc->rules[i], cc->smask[i], cc->dmask[i], &f))
			return 1;
	return 0;
}

/* A pcapng copy of m taken at now, or NULL (no match, a limit, no room: counted). */
struct rte_mbuf *
eng_cap_copy1(struct cap_rt *c, uint16_t port, uint16_t queue, const struct rte_mbuf *m,
		uint64_t now, int out_dir)
{
	const struct eng_capture_conf *cc = c->cc;
	uint32_t caplen = RTE_MIN(m->pkt_len, c->snaplen);
	uint64_t ns;
	struct rte_mbuf *cp;

	if (c->stopped)
		return NULL;
	if (c->end_tsc != 0 && now >= c->end_tsc) {
		c->stopped = 1;
		return NULL;
	}
	if (!cap_match(cc, m))
		return NULL;
	if (__atomic_fetch_add(&c->pkts, 1, __ATOMIC_RELAXED) >= cc->max_packets &&
			cc->max_packets != 0) {
		c->stopped = 1;
		return NULL;
	}
	if (cc->max_bytes != 0 &&
			__atomic_fetch_add(&c->bytes, caplen, __ATOMIC_RELAXED) + caplen > cc->max_bytes) {
		c->stopped = 1;
		return NULL;
	}
	cp = rte_pcapng_copy(port, queue, m, c->mp, c->snaplen, now,
			out_dir ? RTE_PCAPNG_DIRECTION_OUT : RTE_PCAPNG_DIRECTION_IN);
	if (cp == NULL) {
		__atomic_fetch_add(&c->dropped, 1, __ATOMIC_RELAXED);
		return NULL;
	}
	/* EPB: type, length, interface, timestamp high, timestamp low */
	ns = c->wall_ns + eng_clock_ns(c->clk, now);
	rte_pktmbuf_mtod(cp, uint32_t *)[3] = (uint32_t)(ns >> 32);
	rte_pktmbuf_mtod(cp, uint32_t *)[4] = (uint32_t)ns;
	return cp;
}

/* A copy that will not be written (its frame never left): give back what it counted. */
void
eng_cap_discard(struct cap_rt *c, struct rte_mbuf *cp)
{
	__atomic_fetch_sub(&c->pkts, 1, __ATOMIC_RELAXED);
	if (c->cc->max_bytes != 0)
		__atomic_fetch_sub(&c->bytes, RTE_MIN(cp->pkt_len, c->snaplen), __ATOMIC_RELAXED);
	rte_pktmbuf_free(cp);
}

/* Hand k copies to the writer (the main lcore); a full ring drops them (counted). */
void
eng_cap_enqueue(struct cap_rt *c, struct rte_mbuf **out, unsigned int k)
{
	unsigned int e;

	if (k == 0)
		return;
	e = rte_ring_enqueue_burst(c->ring, (void **)out, k, NULL);
	if (e < k) {
		rte_pktmbuf_free_bulk(&out[e], k - e);
		__atomic_fetch_add(&c->dropped, k - e, __ATOMIC_RELAXED);
	}
}

static uint16_t
cap_rx_cb(uint16_t port, uint16_t queue, struct rte_mbuf *pkts[], uint16_t nb_pkts,
		uint16_t max_pkts, void *arg)
{
	struct rte_mbuf *out[512], *m;
	uint64_t now = rte_rdtsc();
	unsigned int i, k = 0;

	RTE_SET_USED(max_pkts);
	for (i = 0; i < nb_pkts && k < RTE_DIM(out); i++) {
		m = eng_cap_copy1(arg, port, queue, pkts[i], now, 0);
		if (m != NULL)
			out[k++] = m;
	}
	eng_cap_enqueue(arg, out, k);
	return nb_pkts;
}

/* ------------------------------------------------------------------ */
/* set-up, housekeeping, close                                          */
/* ------------------------------------------------------------------ */

static int
cap_open(struct eng_runtime *rt, struct cap_rt *c, unsigned int idx)
{
	const struct eng_capture_conf *cc = c->cc;
	const struct eng_port_conf *pc = &rt->cfg->ports[cc->port_idx];
	const struct eng_port *port = &rt->ports[cc->port_idx];
	uint32_t room = rte_pktmbuf_data_room_size(port->pool) - RTE_PKTMBUF_HEADROOM;
	char name[RTE_MEMPOOL_NAMESIZE], comment[256];
	unsigned int q;
	int fd;

	c->port_id = port->port_id;
	c->snaplen = cc->snaplen != 0 ? cc->snaplen : room;
	snprintf(name, sizeof(name), "cap%u_ring", idx);
	c->ring = rte_ring_create(name, rte_align32pow2(cc->ring_size), port->socket,
			RING_F_SC_DEQ);
	snprintf(name, sizeof(name), "cap%u_pool", idx);
	c->mp = rte_pktmbuf_pool_create(name, rte_align32pow2(cc->ring_size) * 2 - 1, 64, 0,
			(uint16_t)RTE_MIN(rte_pcapng_mbuf_size(c->snaplen), (uint32_t)UINT16_MAX),
			port->socket);
	if (c->ring == NULL || c->mp == NULL) {
		ENG_LOG(ERR, stats, "capture %s: no memory for its ring / pool: %s", cc->name,
				rte_strerror(rte_errno));
		return -ENOMEM;
	}
	fd = open(cc->file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		int e = errno;

		ENG_LOG(ERR, stats, "capture %s: cannot write %s: %s", cc->name, cc->file,
				strerror(e));
		return -e;
	}
	snprintf(comment, sizeof(comment), "dfcp-engine capture %s: port %s, %s%s%s", cc->name,
			pc->name, cc->dir == (CAP_RX | CAP_TX) ? "rx+tx" : cc->dir == CAP_RX ? "rx" : "tx",
			cc->nb_rules ? ", filtered" : "", "");
	c->pcap = rte_pcapng_fdopen(fd, NULL, NULL, "dfcp-engine", comment);
	if (c->pcap == NULL) {
		ENG_LOG(ERR, stats, "capture %s: %s: %s", cc->name, cc->file,
				rte_strerror(rte_errno));
		close(fd);
		return -EIO;
	}
	{
		/* Timestamps: DPDK 22.11's own TSC -> wall-clock conversion in
		 * rte_pcapng_copy() gives dates centuries off here, so the callbacks
		 * rewrite the EPB timestamp from this reference. */
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		c->clk = &rt->clock;
		c->wall_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec -
				eng_clock_ns(c->clk, rte_rdtsc());
	}
	if (cc->duration_ns != 0)
		c->end_tsc = rte_rdtsc() + eng_clock_ns_cycles(&rt->clock, cc->duration_ns);
	if (cc->dir & CAP_RX)
		for (q = 0; q < pc->rx_queues && q < CAP_MAX_QUEUES; q++) {
			c->rx_cb[c->nrx] = rte_eth_add_rx_callback(c->port_id, q, cap_rx_cb, c);
			if (c->rx_cb[c->nrx] == NULL) {
				ENG_LOG(ERR, stats, "capture %s: rx callback on port %s queue %u: %s",
						cc->name, pc->name, q, rte_strerror(rte_errno));
				return -ENOTSUP;
			}
			c->rxq[c->nrx++] = (uint16_t)q;
		}
	if ((cc->dir & CAP_TX) && eng_cap_tx_attach(c, c->port_id) < 0) {
		ENG_LOG(ERR, stats, "capture %s: port %s: too many tx captures", cc->name,
				pc->name);
		return -ENOSPC;
	}
	ENG_LOG(INFO, stats, "capture %s: port %s %s -> %s (snaplen %u%s)", cc->name, pc->name,
			cc->dir == (CAP_RX | CAP_TX) ? "rx+tx" : cc->dir == CAP_RX ? "rx" : "tx",
			cc->file, c->snaplen, cc->nb_rules ? ", match rules" : "");
	return 0;
}

int
eng_capture_setup(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	struct eng_capture_rt *cr;
	unsigned int i;
	int rc;

	cr = calloc(1, sizeof(*cr));
	if (cr == NULL)
		return -ENOMEM;
	rt->capture = cr;
	if (cfg->pdump) {
		rc = rte_pdump_init();
		if (rc < 0)
			ENG_LOG(WARNING, stats, "rte_pdump_init failed: %s (dpdk-dumpcap / dpdk-pdump "
					"cannot attach)", rte_strerror(rte_errno));
		else {
			cr->pdump_on = 1;
			ENG_LOG(INFO, stats, "pdump: dpdk-dumpcap / dpdk-pdump may attach "
					"(file prefix of this process)");
		}
	}
	if (cfg->nb_captures == 0)
		return 0;
	cr->caps = calloc(cfg->nb_captures, sizeof(*cr->caps));
	if (cr->caps == NULL)
		return -ENOMEM;
	cr->nb = cfg->nb_captures;
	for (i = 0; i < cr->nb; i++) {
		cr->caps[i].cc = &cfg->captures[i];
		rc = cap_open(rt, &cr->caps[i], i);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void
cap_drain(struct cap_rt *c)
{
	struct rte_mbuf *m[CAP_DRAIN];
	unsigned int n, i;

	if (c->ring == NULL)
		return;
	while ((n = rte_ring_dequeue_burst(c->ring, (void **)m, CAP_DRAIN, NULL)) != 0) {
		uint64_t b = 0;

		for (i = 0; i < n; i++)
			b += rte_pktmbuf_pkt_len(m[i]);
		/* DPDK 22.11's writer leaves the mbufs to the caller (despite its doc) */
		if (c->pcap == NULL || rte_pcapng_write_packets(c->pcap, m, (uint16_t)n) < 0) {
			rte_pktmbuf_free_bulk(m, n);
			__atomic_fetch_add(&c->dropped, n, __ATOMIC_RELAXED);
			continue;
		}
		rte_pktmbuf_free_bulk(m, n);
		c->written_pkts += n;
		c->written_bytes += b;
	}
}

void
eng_capture_poll(struct eng_runtime *rt)
{
	unsigned int i;

	for (i = 0; rt->capture != NULL && i < rt->capture->nb; i++)
		cap_drain(&rt->capture->caps[i]);
}

void
eng_capture_close(struct eng_runtime *rt)
{
	struct eng_capture_rt *cr = rt->capture;
	unsigned int i, q;

	if (cr == NULL)
		return;
	for (i = 0; i < cr->nb; i++) {
		struct cap_rt *c = &cr->caps[i];

		/* the lcores have stopped: no callback is running */
		for (q = 0; q < c->nrx; q++)
			rte_eth_remove_rx_callback(c->port_id, c->rxq[q], c->rx_cb[q]);
		eng_cap_tx_detach(c, c->port_id); /* held copies freed */
		c->nrx = 0;
		cap_drain(c);
		if (c->pcap != NULL) {
			rte_pcapng_write_stats(c->pcap, c->port_id, "dfcp-engine capture", 0, 0,
					c->written_pkts, c->dropped);
			rte_pcapng_close(c->pcap);
			c->pcap = NULL;
			printf("  capture %s: %" PRIu64 " packets (%" PRIu64 " bytes) written "
			       "to %s, %" PRIu64 " copies dropped%s\n",
					c->cc->name, c->written_pkts, c->written_bytes, c->cc->file,
					c->dropped, c->stopped ? ", stopped at its limit" : "");
		}
		rte_ring_free(c->ring);
		c->ring = NULL;
		if (c->mp != NULL && rte_mempool_in_use_count(c->mp) != 0)
			ENG_LOG(WARNING, stats, "capture %s: %u copies not returned to the pool",
					c->cc->name, rte_mempool_in_use_count(c->mp));
		rte_mempool_free(c->mp);
		c->mp = NULL;
	}
	if (cr->pdump_on) {
		rte_pdump_uninit();
		cr->pdump_on = 0;
	}
	fflush(stdout);
}

void
eng_capture_free(struct eng_runtime *rt)
{
	if (rt->capture == NULL)
		return;
	free(rt->capture->caps);
	free(rt->capture);
	rt->capture = NULL;
}

/* One capture's outcome. */
struct cap_view {
	const char *name, *file;
	uint64_t packets, bytes, dropped;
	int stopped;
};

#define CV(field) offsetof(struct cap_view, field)

static const struct eng_ctr cap_ctrs[] = {
	{"name", "", CV(name), ENG_CT_STR, 0, 0, "the [capture NAME]"},
	{"file", "", CV(file), ENG_CT_STR, 0, 0, "its pcapng file"},
	{"packets", "pkts", CV(packets), ENG_CT_U64, 0, 0, "packets written"},
	{"bytes", "B", CV(bytes), ENG_CT_U64, 0, 0, "captured bytes written"},
	{"dropped", "pkts", CV(dropped), ENG_CT_U64, 0, 0,
		"copies dropped (ring full, no mbuf, write error)"},
	{"stopped", "", CV(stopped), ENG_CT_BOOL, 0, 0, "stopped at one of its limits"},
};

const struct eng_ctr_table eng_capture_tables[] = {
	{"capture", cap_ctrs, RTE_DIM(cap_ctrs)},
	{NULL, NULL, 0},
};

void
eng_capture_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i;

	eng_out_arr(o, "captures");
	for (i = 0; rt->capture != NULL && i < rt->capture->nb; i++) {
		const struct cap_rt *c = &rt->capture->caps[i];
		struct cap_view v = {
			.name = c->cc->name, .file = c->cc->file, .packets = c->written_pkts,
			.bytes = c->written_bytes, .dropped = c->dropped, .stopped = c->stopped,
		};

		eng_out_item(o, "capture", v.name);
		eng_out_counters(o, cap_ctrs, RTE_DIM(cap_ctrs), &v);
		eng_out_end(o);
	}
	eng_out_end(o);
}

int
eng_capture_outputs_check(const struct eng_config *cfg, char *err, size_t errlen)
{
	char what[ENG_NAME_LEN + 16];
	unsigned int i;
	int rc = 0;

	for (i = 0; rc == 0 && i < cfg->nb_captures; i++) {
		snprintf(what, sizeof(what), "[capture %s] file", cfg->captures[i].name);
		rc = eng_output_check(what, cfg->captures[i].file, err, errlen);
	}
	return rc;
}
