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
 * Time: TSC -> ns with a Q32 multiplier, as the other tasks.
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

#include "eng.h"
#include "net.h"
#include "task_common.h"
#include "task_tcp.h"
#include "tcp.h"

#define TCP_TASK_MAX_BURST	512
#define SNAP_PERIOD_NS		10000000ull	/* publish counters every 10 ms */
#define TICK_PERIOD_NS		1000000ull	/* housekeeping every 1 ms */
#define ARP_RETRY_NS		200000000ull

struct tcp_flow_rt {
	struct tcp_task_priv *p;
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
};

struct tcp_task_priv {
	struct eng_runtime *rt;
	const struct eng_task *t;
	const struct eng_tcp_conf *tc;
	struct rte_mempool *pool;
	uint16_t port_id, rxq, txq;
	uint16_t burst;
	uint16_t cap;			/* frame capacity of an mbuf */
	uint64_t ns_mult;		/* ns = tsc * ns_mult >> 32 */
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
	struct tcp_flow_rt flows[];
};

static inline uint64_t
tsc_ns(const struct tcp_task_priv *p, uint64_t tsc)
{
	return eng_tsc_ns(p->ns_mult, tsc);
}

/* ------------------------------------------------------------------ */
/* configuration (no EAL)                                               */
/* ------------------------------------------------------------------ */

/* "A.B.C.D:PORT" */
static int
sec_addr(struct eng_sec *sec, const char *key, uint32_t *ip, uint16_t *port)
{
	const char *v = eng_sec_get(sec, key);
	char buf[CFG_VALUE_LEN], e[CFG_ERR_LEN], *colon;
	uint64_t n;

	if (v == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	colon = strchr(buf, ':');
	if (colon == NULL)
		return eng_sec_error(sec, key, "missing \":PORT\" (expected A.B.C.D:PORT)");
	*colon = '\0';
	if (cfg_parse_ipv4(buf, ip, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "%s (expected A.B.C.D:PORT)", e);
	if (cfg_parse_u64(colon + 1, 1, 65535, &n, e, sizeof(e)) < 0)
		return eng_sec_error(sec, key, "TCP port: %s", e);
	*port = (uint16_t)n;
	return 0;
}

static int
sec_word(struct eng_sec *sec, const char *key, const char *const *names, int n, int *out,
		const char *expected)
{
	const char *v = eng_sec_get(sec, key);
	int i;

	if (v == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return 0;
		}
	return eng_sec_error(sec, key, "unknown value \"%s\" (expected %s)", v, expected);
}

/* "RISE:SEGS, RISE:SEGS, ..." with ascending RISE (time, bare = ms). */
static int
sec_cap_table(struct eng_sec *sec, struct tcp_cap_conf *cc)
{
	const char *v = eng_sec_get(sec, "cap_table");
	char buf[CFG_VALUE_LEN], e[CFG_ERR_LEN], *tok, *save = NULL;
	uint32_t n = 0;

	if (v == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	for (tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		char *colon;
		uint64_t rise;
		uint32_t segs;

		while (*tok == ' ' || *tok == '\t')
			tok++;
		colon = strchr(tok, ':');
		if (colon == NULL)
			return eng_sec_error(sec, "cap_table", "\"%s\": expected RISE:SEGMENTS", tok);
		*colon = '\0';
		if (cfg_parse_time(tok, 1000000ull, 0, 60000000000ull, &rise, e, sizeof(e)) < 0)
			return eng_sec_error(sec, "cap_table", "RTT rise: %s", e);
		if (cfg_parse_u32(colon + 1, 1, 1u << 20, &segs, e, sizeof(e)) < 0)
			return eng_sec_error(sec, "cap_table", "cap: %s", e);
		if (n == TCP_CAP_TABLE_MAX)
			return eng_sec_error(sec, "cap_table", "at most %d entries", TCP_CAP_TABLE_MAX);
		if (n > 0 && rise <= cc->table[n - 1].rtt_rise_ns)
			return eng_sec_error(sec, "cap_table", "RTT rises must ascend");
		cc->table[n].rtt_rise_ns = rise;
		cc->table[n].cap_segs = segs;
		n++;
	}
	if (n == 0)
		return eng_sec_error(sec, "cap_table", "empty table");
	cc->ntable = n;
	return 0;
}

/* Keys a sender may give per connection (struct eng_tcp_conn_conf). */
enum conn_key {
	CK_CC,
	CK_RECOVERY,
	CK_MSS,
	CK_INIT_CWND,
	CK_DUPTHRESH,
	CK_RTO_INIT,
	CK_RTO_MIN,
	CK_TICK,
	CK_MAX,
};

static const char *const conn_keys[CK_MAX] = {
	"cc", "recovery", "mss", "init_cwnd", "dupthresh", "rto_init", "rto_min", "tick",
};

/* One element of a per-connection key into k; 0 or -1 with the reason in e. */
static int
conn_value(enum conn_key key, const char *v, struct eng_tcp_conn_conf *k, char *e, size_t elen)
{
	static const char *const recs[] = {"auto", "none", "reno", "newreno", "sack"};
	const uint64_t ms = 1000000ull, s = 1000000000ull;
	size_t off = 0;
	unsigned int i;

	switch (key) {
	case CK_CC:
		if (tcp_cc_find(v) != NULL && strlen(v) < sizeof(k->cc)) {
			snprintf(k->cc, sizeof(k->cc), "%s", v);
			return 0;
		}
		off = (size_t)snprintf(e, elen, "unknown congestion control \"%s\" (expected one "
				"of: ", v);
		for (i = 0; tcp_cc_get(i) != NULL && off < elen; i++)
			off += (size_t)snprintf(e + off, elen - off, "%s%s", i ? ", " : "",
					tcp_cc_get(i)->name);
		if (off < elen)
			snprintf(e + off, elen - off, ")");
		return -1;
	case CK_RECOVERY:
		for (i = 0; i < RTE_DIM(recs); i++)
			if (strcmp(v, recs[i]) == 0) {
				k->recovery = (int)i - 1;
				return 0;
			}
		snprintf(e, elen, "unknown value \"%s\" (expected auto, none, reno, newreno or sack)",
				v);
		return -1;
	case CK_MSS:
		return cfg_parse_u32(v, 64, 9000, &k->mss, e, elen);
	case CK_INIT_CWND:
		return cfg_parse_u32(v, 1, 1024, &k->init_cwnd, e, elen);
	case CK_DUPTHRESH:
		return cfg_parse_u32(v, 1, 1024, &k->dupthresh, e, elen);
	case CK_RTO_INIT:
		return cfg_parse_time(v, ms, ms, 600 * s, &k->rto_init_ns, e, elen);
	case CK_RTO_MIN:
		return cfg_parse_time(v, ms, 0, 600 * s, &k->rto_min_ns, e, elen);
	case CK_TICK:
		return cfg_parse_time(v, ms, 0, 10 * s, &k->tick_ns, e, elen);
	default:
		snprintf(e, elen, "not a per-connection key");
		return -1;
	}
}

static char *
trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/*
 * A per-connection key: one value (every connection) or a comma list, element
 * i for connection i and the last one for the rest. Lists: senders only, at
 * most `flows` elements.
 */
static int
sec_conn_key(struct eng_sec *sec, struct eng_tcp_conf *c, enum conn_key key)
{
	const char *name = conn_keys[key];
	const char *v = eng_sec_get(sec, name);
	char buf[CFG_VALUE_LEN], e[CFG_ERR_LEN], *tok, *next, *last = NULL;
	unsigned int n = 0, i;
	int list;

	if (v == NULL)
		return 0;
	snprintf(buf, sizeof(buf), "%s", v);
	list = strchr(buf, ',') != NULL;
	for (tok = buf; tok != NULL; tok = next) {
		next = strchr(tok, ',');
		if (next != NULL)
			*next++ = '\0';
		tok = trim(tok);
		if (*tok == '\0')
			return eng_sec_error(sec, name, "empty element %u in the list", n + 1);
		if (n == ENG_TCP_MAX_FLOWS)
			return eng_sec_error(sec, name, "more than %d values", ENG_TCP_MAX_FLOWS);
		if (conn_value(key, tok, &c->conn[n], e, sizeof(e)) < 0)
			return list ? eng_sec_error(sec, name, "connection %u: %s", n, e) :
					eng_sec_error(sec, name, "%s", e);
		last = tok;
		n++;
	}
	if (n > 1 && c->role != ENG_TCP_SENDER)
		return eng_sec_error(sec, name, "one value per connection applies to sender tasks "
				"only (a receiver's connections share the listener's settings)");
	if (n > 1 && n > c->flows)
		return eng_sec_error(sec, name, "%u values for %u connection(s) (flows = %u): "
				"connection i takes value i, the last value repeats", n, c->flows,
				c->flows);
	for (i = n; i < ENG_TCP_MAX_FLOWS; i++)
		conn_value(key, last, &c->conn[i], e, sizeof(e));	/* checked above */
	if (n > c->nb_conn_values)
		c->nb_conn_values = n;
	return 0;
}

static int
tcp_parse_task(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	static const char *const roles[] = {"sender", "receiver"};
	static const char *const pairs[] = {"auto", "off", "on"};
	static const char *const caps[] = {"off", "old", "coordinated"};
	const uint64_t ms = 1000000ull, s = 1000000000ull;
	struct eng_tcp_conf *c;
	struct tcp_conf d;
	unsigned int i;
	int rc, v;

	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	tcp_conf_default(&d);
	c->flows = 1;
	for (i = 0; i < ENG_TCP_MAX_FLOWS; i++) {
		struct eng_tcp_conn_conf *k = &c->conn[i];

		snprintf(k->cc, sizeof(k->cc), "%s", d.cc);
		k->recovery = -1;
		k->mss = d.mss;
		k->init_cwnd = d.init_cwnd;
		k->dupthresh = d.dupthresh;
		k->rto_init_ns = d.rto_init_ns;
		k->rto_min_ns = d.rto_min_ns;
		k->tick_ns = d.tick_ns;
	}
	c->nb_conn_values = 1;
	c->sndbuf = d.sndbuf;
	c->rcvbuf = d.rcvbuf;
	c->delack_count = d.delack_count;
	c->delack_ns = d.delack_ns;
	c->pair_acks = -1;
	c->rack = d.rack;
	c->limited_transmit = d.limited_transmit;
	c->sack = d.sack;
	c->timestamps = d.timestamps;
	c->wscale = d.wscale;
	c->rto_max_ns = d.rto_max_ns;
	c->time_wait_ns = d.time_wait_ns;
	c->max_retries = d.max_retries;
	c->syn_retries = d.syn_retries;
	c->seed = 1;
	c->weight = 1;
	c->trace_points = 100000;
	tcp_cap_conf_default(&c->cap);

	rc = eng_sec_name(sec, "egress", c->egress, sizeof(c->egress));
	if (rc == 0)
		rc = eng_task_parse_port(t, sec, cfg, "port", "rxq",
				c->egress[0] != '\0' ? NULL : "txq", 1);
	if (rc < 0)
		return rc;
	if (eng_sec_get(sec, "role") == NULL)
		return eng_sec_missing(sec, "role", "sender or receiver");
	rc = sec_word(sec, "role", roles, 2, &c->role, "sender or receiver");
	if (rc == 0 && eng_sec_get(sec, "local") == NULL)
		rc = eng_sec_missing(sec, "local", "A.B.C.D:PORT");
	if (rc == 0)
		rc = sec_addr(sec, "local", &c->local_ip, &c->local_port);
	if (rc == 0 && c->role == ENG_TCP_SENDER && eng_sec_get(sec, "remote") == NULL)
		rc = eng_sec_missing(sec, "remote", "A.B.C.D:PORT of the receiver");
	if (rc == 0)
		rc = sec_addr(sec, "remote", &c->remote_ip, &c->remote_port);
	if (rc == 0 && eng_sec_get(sec, "remote_mac") != NULL) {
		rc = eng_sec_mac(sec, "remote_mac", &c->remote_mac);
		c->has_remote_mac = 1;
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "flows", c->role == ENG_TCP_SENDER ? 1 : 0, ENG_TCP_MAX_FLOWS,
				&c->flows);
	if (rc == 0 && c->role == ENG_TCP_SENDER && (uint32_t)c->local_port + c->flows > 65536)
		rc = eng_sec_error(sec, "flows", "local ports %u..%u past 65535", c->local_port,
				c->local_port + c->flows - 1);
	for (i = 0; rc == 0 && i < CK_MAX; i++)
		rc = sec_conn_key(sec, c, (enum conn_key)i);
	if (rc == 0) {
		uint64_t b = c->sndbuf;

		rc = eng_sec_size(sec, "sndbuf", 4096, 1u << 30, &b);
		c->sndbuf = (uint32_t)b;
	}
	if (rc == 0) {
		uint64_t b = c->rcvbuf;

		rc = eng_sec_size(sec, "rcvbuf", 4096, 1u << 30, &b);
		c->rcvbuf = (uint32_t)b;
	}
	if (rc == 0)
		rc = eng_sec_u32(sec, "delack_count", 1, 64, &c->delack_count);
	if (rc == 0)
		rc = eng_sec_time(sec, "delack_timeout", ms, 0, 10 * s, &c->delack_ns);
	if (rc == 0) {
		v = 0;
		rc = sec_word(sec, "pair_acks", pairs, 3, &v, "auto, off or on");
		c->pair_acks = v == 0 ? -1 : v - 1;
	}
	if (rc == 0) {
		v = 0;
		rc = sec_word(sec, "rack", pairs, 3, &v, "auto, off or on");
		c->rack = v == 0 ? -1 : v - 1;
	}
	if (rc == 0) {
		v = 0;
		rc = sec_word(sec, "limited_transmit", pairs, 3, &v, "auto, off or on");
		c->limited_transmit = v == 0 ? -1 : v - 1;
	}
	if (rc == 0)
		rc = eng_sec_bool(sec, "sack", &c->sack);
	if (rc == 0)
		rc = eng_sec_bool(sec, "timestamps", &c->timestamps);
	if (rc == 0)
		rc = eng_sec_bool(sec, "wscale", &c->wscale);
	if (rc == 0)
		rc = eng_sec_time(sec, "rto_max", ms, ms, 3600 * s, &c->rto_max_ns);
	for (i = 0; rc == 0 && i < c->nb_conn_values; i++)
		if (c->conn[i].rto_min_ns > c->rto_max_ns)
			rc = c->nb_conn_values > 1 ? eng_sec_error(sec, "rto_min", "connection %u: "
					"larger than rto_max", i) : eng_sec_error(sec, "rto_min",
					"larger than rto_max");
	if (rc == 0)
		rc = eng_sec_time(sec, "time_wait", s, 0, 600 * s, &c->time_wait_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_retries", 1, 64, &c->max_retries);
	if (rc == 0)
		rc = eng_sec_u32(sec, "syn_retries", 0, 64, &c->syn_retries);
	if (rc == 0)
		rc = eng_sec_size(sec, "bytes", 0, UINT64_MAX, &c->bytes);
	if (rc == 0)
		rc = eng_sec_time(sec, "duration", s, 0, UINT64_MAX, &c->duration_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "start", s, 0, 3600 * s, &c->start_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "seed", 0, UINT32_MAX, &c->seed);
	if (rc == 0)
		rc = eng_sec_bool(sec, "verify", &c->verify);
	if (rc == 0)
		rc = eng_sec_u32(sec, "weight", 1, 1048576, &c->weight);
	if (rc == 0)
		rc = eng_sec_str(sec, "cwnd_trace", c->cwnd_trace, sizeof(c->cwnd_trace));
	if (rc == 0)
		rc = eng_sec_u32(sec, "trace_points", 16, 1u << 24, &c->trace_points);
	if (rc == 0)
		rc = eng_sec_time(sec, "trace_gap", ms, 0, 10 * s, &c->trace_gap_ns);
	/* seed-002 cap policy */
	if (rc == 0) {
		v = 0;
		rc = sec_word(sec, "cap_policy", caps, 3, &v, "off, old or coordinated");
		c->cap.mode = (enum tcp_cap_mode)v;
	}
	if (rc == 0)
		rc = eng_sec_time(sec, "cap_interval", ms, ms, 60 * s, &c->cap.interval_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_rise_pct", 1, 10000, &c->cap.rise_pct);
	if (rc == 0)
		rc = eng_sec_time(sec, "cap_rise_min", ms, 0, 60 * s, &c->cap.rise_min_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_budget", 0, 1u << 24, &c->cap.budget_segs);
	if (rc == 0)
		rc = eng_sec_rate(sec, "cap_bw", 0, UINT64_MAX, &c->cap.bw_bps);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_queue", 0, 1u << 24, &c->cap.queue_segs);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_min", 1, 1u << 20, &c->cap.min_segs);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_release_pct", 0, 10000, &c->cap.release_pct);
	if (rc == 0)
		rc = sec_cap_table(sec, &c->cap);
	if (rc == 0 && c->cap.mode != TCP_CAP_OFF && c->role != ENG_TCP_SENDER)
		rc = eng_sec_error(sec, "cap_policy", "applies to sender tasks only");
	return rc;
}

/* ------------------------------------------------------------------ */
/* application callbacks                                                */
/* ------------------------------------------------------------------ */

static size_t
flow_source(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct tcp_flow_rt *f = ctx;

	if (f->p->stop_src)
		return 0;
	return tcp_src_bulk_read(&f->src, now, buf, len);
}

static void
flow_accept(void *ctx, struct tcp_conn *c)
{
	struct tcp_task_priv *p = ctx;
	unsigned int i;

	for (i = 0; i < p->nb_flows; i++) {
		struct tcp_flow_rt *f = &p->flows[i];

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

static void tcp_teardown(struct eng_task *t);

static int
tcp_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	const struct eng_tcp_conf *tc = t->conf;
	const struct eng_task_port *tp = &t->ports[0];
	struct eng_port *port = &rt->ports[tp->port_idx];
	const struct eng_port_conf *pc = &rt->cfg->ports[tp->port_idx];
	unsigned int nflows = tc->flows ? tc->flows : ENG_TCP_MAX_FLOWS, i;
	struct tcp_ep_conf ec;
	struct tcp_task_priv *p;
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
	p->ns_mult = eng_ns_mult(rt->hz);
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
		struct tcp_flow_rt *f = &p->flows[i];

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
	tcp_teardown(t);
	return rc;
}

/* ------------------------------------------------------------------ */
/* hot path                                                             */
/* ------------------------------------------------------------------ */

static void
rx_frame(struct tcp_task_priv *p, struct rte_mbuf *m, uint64_t now)
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
tx_flush(struct tcp_task_priv *p)
{
	return eng_tx_pending(p->ring, p->port_id, p->txq, p->pend, &p->npend, &p->pend_off,
			&p->cnt.tx_packets, &p->cnt.tx_bytes);
}

static void
task_tx(struct tcp_task_priv *p, uint64_t now)
{
	void *bufs[TCP_TASK_MAX_BURST];
	uint16_t lens[TCP_TASK_MAX_BURST];
	unsigned int n = p->burst, k, i;

	if (!tx_flush(p))
		return;		/* the port or the scheduler is full: back-pressure */
	if (tcp_ep_next_deadline(p->ep, now) > now)
		return;
	if (p->nstash < n) {
		unsigned int want = n - p->nstash;

		if (rte_pktmbuf_alloc_bulk(p->pool, &p->stash[p->nstash], want) == 0)
			p->nstash += want;
		else
			p->cnt.no_mbuf++;
		if (p->nstash < n)
			n = p->nstash;
		if (n == 0)
			return;
	}
	for (i = 0; i < n; i++)
		bufs[i] = rte_pktmbuf_mtod(p->stash[p->nstash - n + i], void *);
	k = tcp_ep_tx_burst(p->ep, now, bufs, lens, p->cap, n);
	if (k == 0)
		return;
	for (i = 0; i < k; i++) {
		struct rte_mbuf *m = p->stash[p->nstash - n + i];

		m->data_len = lens[i];
		m->pkt_len = lens[i];
		p->pend[i] = m;
	}
	for (i = k; i < n; i++)
		p->stash[p->nstash - n + (i - k)] = p->stash[p->nstash - n + i];
	p->nstash -= k;
	p->npend = (uint16_t)k;
	p->pend_off = 0;
	tx_flush(p);
}

static void
send_arp(struct tcp_task_priv *p)
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
flow_publish(struct tcp_flow_rt *f, uint64_t now)
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
task_tick(struct tcp_task_priv *p, uint64_t now)
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
				struct tcp_flow_rt *f = &p->flows[i];
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
		struct tcp_flow_rt *f = &p->flows[i];
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
tcp_poll(struct eng_task *t, uint64_t now_tsc)
{
	struct tcp_task_priv *p = t->priv;
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
tcp_stats_cb(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct tcp_task_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	*out = p->cnt;
}

static void
release_mbufs(struct tcp_task_priv *p)
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
write_traces(struct tcp_task_priv *p)
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
		const struct tcp_flow_rt *f = &p->flows[i];
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
tcp_teardown(struct eng_task *t)
{
	struct tcp_task_priv *p = t->priv;
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

void
eng_tcp_release(struct eng_runtime *rt)
{
	unsigned int i, j;

	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		struct eng_task *t = &rt->cfg->tasks[i];
		struct tcp_task_priv *p = t->priv;
		uint64_t now;

		if (t->ops != &eng_task_tcp || p == NULL)
			continue;
		now = tsc_ns(p, rte_rdtsc());
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
}

unsigned int
eng_tcp_task_flows(const struct eng_task *t)
{
	const struct tcp_task_priv *p = t->priv;

	return p == NULL ? 0 : p->nb_flows;
}

int
eng_tcp_flow_snap(const struct eng_task *t, unsigned int i, struct eng_tcp_snap *out)
{
	const struct tcp_task_priv *p = t->priv;

	if (p == NULL || i >= p->nb_flows)
		return -ENOENT;
	*out = p->flows[i].snap;
	return 0;
}

int
eng_tcp_cap_snap(const struct eng_task *t, struct tcp_cap_stats *out)
{
	const struct tcp_task_priv *p = t->priv;

	if (p == NULL || p->capp == NULL)
		return -ENOENT;
	*out = p->cap_snap;
	return 0;
}

void
eng_tcp_ep_stats(const struct eng_task *t, struct tcp_ep_stats *out)
{
	const struct tcp_task_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p != NULL)
		*out = p->ep_snap;
}

uint64_t
eng_tcp_run_start_ns(const struct eng_task *t)
{
	const struct tcp_task_priv *p = t->priv;

	return p == NULL ? 0 : p->run_start_ns;
}

int
eng_tcp_task_done(const struct eng_task *t)
{
	const struct tcp_task_priv *p = t->priv;

	return p != NULL && p->done;
}

const struct eng_task_ops eng_task_tcp = {
	.name = "tcp",
	.help = "run TCP connections (lib/tcp senders or a receiver) on one port queue pair",
	.parse = tcp_parse_task,
	.setup = tcp_setup,
	.poll = tcp_poll,
	.stats = tcp_stats_cb,
	.teardown = tcp_teardown,
};
