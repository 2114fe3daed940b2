/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tcp configuration (no EAL): the task keys of doc/config.md "kind = tcp"
 * (egress, weight, flows, cwnd traces, the seed-002 cap policy and its
 * RTT -> cap table) and the TCP keys of a [flow NAME] with proto = tcp
 * (struct tcp_conf: congestion control, MSS, windows, ACKs, options,
 * timers). A connection is always a [flow]: a tcp task given a connection
 * key is refused, naming the key. The data path is in tcp_task.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "kinds/tcp/tcp_task.h"
#include "net.h"
#include "tcp.h"

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

/* A [flow]'s connection keys (struct eng_tcp_conn_conf). */
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

/* One connection key's value into k; 0 or -1 with the reason in e. */
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
		snprintf(e, elen, "not a connection key");
		return -1;
	}
}

static const char *const pairs[] = {"auto", "off", "on"};
static const uint64_t ms = 1000000ull, sec_ns = 1000000000ull;

/* lib/tcp's defaults (struct tcp_conf). */
static void
conn_defaults(struct eng_tcp_conn_conf *k, struct eng_tcp_proto *p)
{
	struct tcp_conf d;

	tcp_conf_default(&d);
	snprintf(k->cc, sizeof(k->cc), "%s", d.cc);
	k->recovery = -1;
	k->mss = d.mss;
	k->init_cwnd = d.init_cwnd;
	k->dupthresh = d.dupthresh;
	k->rto_init_ns = d.rto_init_ns;
	k->rto_min_ns = d.rto_min_ns;
	k->tick_ns = d.tick_ns;
	p->sndbuf = d.sndbuf;
	p->rcvbuf = d.rcvbuf;
	p->delack_count = d.delack_count;
	p->delack_ns = d.delack_ns;
	p->pair_acks = -1;
	p->rack = d.rack;
	p->limited_transmit = d.limited_transmit;
	p->sack = d.sack;
	p->timestamps = d.timestamps;
	p->wscale = d.wscale;
	p->rto_max_ns = d.rto_max_ns;
	p->time_wait_ns = d.time_wait_ns;
	p->max_retries = d.max_retries;
	p->syn_retries = d.syn_retries;
}

void
eng_tcp_conf_fill(struct tcp_conf *d, const struct eng_tcp_flow_conf *c)
{
	tcp_conf_default(d);
	d->cc = c->k.cc;
	d->recovery = c->k.recovery;
	d->mss = (uint16_t)c->k.mss;
	d->init_cwnd = c->k.init_cwnd;
	d->dupthresh = c->k.dupthresh;
	d->rto_init_ns = c->k.rto_init_ns;
	d->rto_min_ns = c->k.rto_min_ns;
	d->tick_ns = c->k.tick_ns;
	d->sndbuf = c->p.sndbuf;
	d->rcvbuf = c->p.rcvbuf;
	d->wscale = c->p.wscale;
	d->sack = c->p.sack;
	d->timestamps = c->p.timestamps;
	d->delack_count = c->p.delack_count;
	d->delack_ns = c->p.delack_ns;
	d->pair_acks = c->p.pair_acks;
	d->rack = c->p.rack;
	d->limited_transmit = c->p.limited_transmit;
	d->rto_max_ns = c->p.rto_max_ns;
	d->max_retries = c->p.max_retries;
	d->syn_retries = c->p.syn_retries;
	d->time_wait_ns = c->p.time_wait_ns;
}

/* "auto, off or on" into -1, 0, 1 (absent: auto). */
static int
sec_tristate(struct eng_sec *sec, const char *key, int *out)
{
	int v = 0, rc = eng_sec_choice(sec, key, pairs, 3, &v, NULL, 0);

	*out = v == 0 ? -1 : v - 1;
	return rc;
}

/* The other tcp_conf keys of a flow (struct eng_tcp_proto). */
static int
tcp_parse_proto(struct eng_sec *sec, struct eng_tcp_proto *p)
{
	uint64_t b;
	int rc = 0;

	b = p->sndbuf;
	rc = eng_sec_size(sec, "sndbuf", 4096, 1u << 30, &b);
	p->sndbuf = (uint32_t)b;
	b = p->rcvbuf;
	if (rc == 0)
		rc = eng_sec_size(sec, "rcvbuf", 4096, 1u << 30, &b);
	p->rcvbuf = (uint32_t)b;
	if (rc == 0)
		rc = eng_sec_u32(sec, "delack_count", 1, 64, &p->delack_count);
	if (rc == 0)
		rc = eng_sec_time(sec, "delack_timeout", ms, 0, 10 * sec_ns, &p->delack_ns);
	if (rc == 0)
		rc = sec_tristate(sec, "pair_acks", &p->pair_acks);
	if (rc == 0)
		rc = sec_tristate(sec, "rack", &p->rack);
	if (rc == 0)
		rc = sec_tristate(sec, "limited_transmit", &p->limited_transmit);
	if (rc == 0)
		rc = eng_sec_bool(sec, "sack", &p->sack);
	if (rc == 0)
		rc = eng_sec_bool(sec, "timestamps", &p->timestamps);
	if (rc == 0)
		rc = eng_sec_bool(sec, "wscale", &p->wscale);
	if (rc == 0)
		rc = eng_sec_time(sec, "rto_max", ms, ms, 3600 * sec_ns, &p->rto_max_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "time_wait", sec_ns, 0, 600 * sec_ns, &p->time_wait_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "max_retries", 1, 64, &p->max_retries);
	if (rc == 0)
		rc = eng_sec_u32(sec, "syn_retries", 0, 64, &p->syn_retries);
	return rc;
}

/* ------------------------------------------------------------------ */
/* [flow NAME] proto = tcp                                              */
/* ------------------------------------------------------------------ */

int
eng_tcp_flow_parse(struct eng_flow_conf *f, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_tcp_flow_conf *c;
	char e[CFG_ERR_LEN];
	unsigned int i;
	int rc = 0;

	RTE_SET_USED(cfg);
	if (f->source == ENG_SRC_FILE || f->sink == ENG_SINK_FILE)
		return eng_sec_error(sec, f->source == ENG_SRC_FILE ? "source" : "sink",
				"file is not supported with proto = tcp (pattern only)");
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	f->pconf = c;
	conn_defaults(&c->k, &c->p);
	for (i = 0; rc == 0 && i < CK_MAX; i++) {
		const char *v = eng_sec_get(sec, conn_keys[i]);

		if (v != NULL && conn_value((enum conn_key)i, v, &c->k, e, sizeof(e)) < 0)
			rc = eng_sec_error(sec, conn_keys[i], "%s", e);
	}
	if (rc == 0)
		rc = tcp_parse_proto(sec, &c->p);
	if (rc == 0 && c->k.rto_min_ns > c->p.rto_max_ns)
		rc = eng_sec_error(sec, "rto_min", "larger than rto_max");
	return rc;
}

/* ------------------------------------------------------------------ */
/* [task NAME] kind = tcp                                               */
/* ------------------------------------------------------------------ */

/* A connection's keys (a [flow]'s with proto = tcp): never a tcp task's. */
static const char *const flow_only_keys[] = {
	"role", "local", "remote", "remote_mac", "bytes", "duration", "start", "seed", "verify",
	"cc", "recovery", "mss", "init_cwnd", "dupthresh", "rto_init", "rto_min", "tick",
	"sndbuf", "rcvbuf", "delack_count", "delack_timeout", "pair_acks", "rack",
	"limited_transmit", "sack", "timestamps", "wscale", "rto_max", "time_wait",
	"max_retries", "syn_retries",
};

/* The first connection key of the section (in file order), with what to write instead. */
static int
tcp_reject_flow_keys(struct eng_sec *sec)
{
	unsigned int k;
	int i;

	for (i = 0; i < sec->nb_entries; i++)
		for (k = 0; k < RTE_DIM(flow_only_keys); k++)
			if (strcmp(sec->entries[i].name, flow_only_keys[k]) == 0)
				return eng_sec_error(sec, flow_only_keys[k], "not a tcp task key; "
						"connections are [flow NAME] sections with proto = tcp, "
						"named in the task's flows (doc/config.md, [flow])");
	return 0;
}

/* The task's own keys: its sched weight, cwnd traces, the seed-002 cap policy. */
static int
tcp_parse_trace_cap(struct eng_sec *sec, struct eng_tcp_conf *c)
{
	static const char *const caps[] = {"off", "old", "coordinated"};
	int rc, v = 0;

	rc = eng_sec_u32(sec, "weight", 1, 1048576, &c->weight);
	if (rc == 0)
		rc = eng_sec_str(sec, "cwnd_trace", c->cwnd_trace, sizeof(c->cwnd_trace));
	if (rc == 0)
		rc = eng_sec_u32(sec, "trace_points", 16, 1u << 24, &c->trace_points);
	if (rc == 0)
		rc = eng_sec_time(sec, "trace_gap", ms, 0, 10 * sec_ns, &c->trace_gap_ns);
	if (rc == 0) {
		rc = eng_sec_choice(sec, "cap_policy", caps, 3, &v, NULL, 0);
		c->cap.mode = (enum tcp_cap_mode)v;
	}
	if (rc == 0)
		rc = eng_sec_time(sec, "cap_interval", ms, ms, 60 * sec_ns, &c->cap.interval_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "cap_rise_pct", 1, 10000, &c->cap.rise_pct);
	if (rc == 0)
		rc = eng_sec_time(sec, "cap_rise_min", ms, 0, 60 * sec_ns, &c->cap.rise_min_ns);
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
	return rc;
}

int
eng_tcp_parse_task(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_tcp_conf *c;
	int rc;

	rc = tcp_reject_flow_keys(sec);
	if (rc < 0)
		return rc;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return -ENOMEM;
	t->conf = c;
	c->weight = 1;
	c->trace_points = 100000;
	tcp_cap_conf_default(&c->cap);
	rc = eng_task_parse_egress_port(t, sec, cfg, c->egress, sizeof(c->egress));
	if (rc == 0)
		rc = eng_task_parse_flows(t, sec);
	if (rc == 0)
		rc = tcp_parse_trace_cap(sec, c);
	return rc;
}

/*
 * The kind's check: the receivers of a task on one local address listen on
 * one port (one lib/tcp endpoint per address); senders have distinct local
 * address:ports; a cap policy needs senders.
 */
int
eng_tcp_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int ti, i, j, senders;

	for (ti = 0; ti < cfg->nb_tasks; ti++) {
		const struct eng_task *t = &cfg->tasks[ti];
		const struct eng_tcp_conf *c = t->conf;

		if (t->ops != &eng_task_tcp)
			continue;
		for (i = 0, senders = 0; i < t->nb_flows; i++) {
			const struct eng_flow_conf *f = eng_task_flow(cfg, t, i);

			senders += f->role == ENG_FLOW_SENDER;
			for (j = 0; j < i; j++) {
				const struct eng_flow_conf *g = eng_task_flow(cfg, t, j);

				if (f->local_ip != g->local_ip)
					continue;
				if ((f->role == ENG_FLOW_RECEIVER && g->role == ENG_FLOW_RECEIVER &&
						f->local_port != g->local_port) ||
						((f->role == ENG_FLOW_SENDER || g->role == ENG_FLOW_SENDER) &&
						f->local_port == g->local_port)) {
					snprintf(err, errlen, "%s:%d: [flow %s] local: flow %s of task %s "
							"has the same address: receivers share one "
							"listening port per address, senders need "
							"their own ports", cfg->file, f->line, f->name,
							g->name, t->name);
					return -EINVAL;
				}
			}
		}
		if (c->cap.mode != TCP_CAP_OFF && senders == 0) {
			snprintf(err, errlen, "%s:%d: [task %s] cap_policy: applies to tasks with "
					"sender flows only", cfg->file, t->line, t->name);
			return -EINVAL;
		}
	}
	return 0;
}
