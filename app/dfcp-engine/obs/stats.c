/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics: the periodic blocks, the final summary and the summary JSON.
 * The core writes the ports, the tasks' generic counters, the pools, the
 * lcores and the captures; every kind writes its own part (ops->report, in
 * kind-table order). Everything goes through the output writer (out.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mempool.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/fold.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "obs/stats.h"

/* A port's counters and its rates over an interval. */
struct port_view {
	const char *name, *device;
	uint32_t port_id;
	int socket;
	struct eng_port_stats s;
	double rx_pps, tx_pps, rx_mbps, tx_mbps;
	double rx_l1_mbps, tx_l1_mbps;
};

#define PV(field) offsetof(struct port_view, field)
#define PS(field) (offsetof(struct port_view, s) + offsetof(struct eng_port_stats, field))

static const struct eng_ctr port_ctrs[] = {
	{"name", "", PV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [port NAME]"},
	{"device", "", PV(device), ENG_CT_STR, 0, ENG_V_JSON, "its device key"},
	{"port_id", "", PV(port_id), ENG_CT_U32, 0, ENG_V_DATA, "ethdev port id"},
	{"socket", "", PV(socket), ENG_CT_INT, 0, ENG_V_JSON, "NUMA socket of the device"},
	{"rx_packets", "pkts", PS(rx_packets), ENG_CT_U64, 0, 0, "frames received"},
	{"tx_packets", "pkts", PS(tx_packets), ENG_CT_U64, 0, 0, "frames transmitted"},
	{"rx_bytes", "B", PS(rx_bytes), ENG_CT_U64, 0, ENG_V_DATA,
		"bytes received (ring ports: counted by the engine, net_ring counts none)"},
	{"tx_bytes", "B", PS(tx_bytes), ENG_CT_U64, 0, ENG_V_DATA,
		"bytes transmitted (ring ports: the bytes the wire's other end received)"},
	{"rx_missed", "pkts", PS(rx_missed), ENG_CT_U64, 0, 0, "dropped by the device: rx queue full"},
	{"rx_errors", "pkts", PS(rx_errors), ENG_CT_U64, 0, 0, "erroneous frames received"},
	{"tx_errors", "pkts", PS(tx_errors), ENG_CT_U64, 0, 0, "failed transmissions"},
	{"rx_nombuf", "pkts", PS(rx_nombuf), ENG_CT_U64, 0, 0, "rx mbuf allocation failures"},
	{"kernel_rx_dropped", "pkts", PS(kernel_rx_dropped), ENG_CT_U64, 0, 0,
		"dropped by the kernel on the port's interface (iface=): its rx_dropped (a veth: "
		"the peer's backlog full) and the driver's packet sockets' drops (rx ring full)"},
	{"kernel_tx_dropped", "pkts", PS(kernel_tx_dropped), ENG_CT_U64, 0, 0,
		"dropped by the kernel on the port's interface (iface=): its tx_dropped"},
	{"rx_pps", "pkt/s", PV(rx_pps), ENG_CT_DBL, 1, ENG_V_TEXT | ENG_V_JSON,
		"received frames per second over the interval"},
	{"tx_pps", "pkt/s", PV(tx_pps), ENG_CT_DBL, 1, ENG_V_TEXT | ENG_V_JSON,
		"transmitted frames per second over the interval"},
	{"rx_mbps", "Mbit/s", PV(rx_mbps), ENG_CT_DBL, 3, ENG_V_TEXT | ENG_V_JSON,
		"L2: received bytes x 8 per second over the interval (frames without FCS)"},
	{"tx_mbps", "Mbit/s", PV(tx_mbps), ENG_CT_DBL, 3, ENG_V_TEXT | ENG_V_JSON,
		"L2: transmitted bytes x 8 per second over the interval (frames without FCS)"},
	{"rx_l1_mbps", "Mbit/s", PV(rx_l1_mbps), ENG_CT_DBL, 3, ENG_V_TEXT | ENG_V_JSON,
		"L1: rx_mbps with the 24 B each frame adds on the wire (FCS, preamble, IFG)"},
	{"tx_l1_mbps", "Mbit/s", PV(tx_l1_mbps), ENG_CT_DBL, 3, ENG_V_TEXT | ENG_V_JSON,
		"L1: tx_mbps with the 24 B each frame adds on the wire (FCS, preamble, IFG): "
		"what txonly's rate and the pace records count"},
};

#define TS(field) offsetof(struct eng_task_stats, field)

/* The generic counters of every task (ops->stats). The receive-verification ones
 * (from rx_valid on) are filled by the kinds that accept packets themselves
 * (rxonly with verify, dfcp, tcp); the text summary leaves them out of a task
 * that filled none of them (a router, io, sched: no "rx_valid 0"), and the
 * sequence and latency ones out of a task without test packets (dfcp, tcp:
 * no "lat_avg_ns 0"). */
#define TASK_CTRS_VERIFY 7	/* task_ctrs[7]: rx_valid, the first verification counter */
#define TASK_CTRS_SEQ 9		/* task_ctrs[9]: seq_lost, the first test-packet counter */
static const struct eng_ctr task_ctrs[] = {
	{"tx_packets", "pkts", TS(tx_packets), ENG_CT_U64, 0, 0, "frames handed to the tx queue"},
	{"tx_bytes", "B", TS(tx_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"tx_dropped", "pkts", TS(tx_dropped), ENG_CT_U64, 0, 0,
		"frames refused by the tx queue or ring and freed"},
	{"rx_packets", "pkts", TS(rx_packets), ENG_CT_U64, 0, 0, "frames received"},
	{"rx_bytes", "B", TS(rx_bytes), ENG_CT_U64, 0, ENG_V_DATA, "their bytes"},
	{"rx_other", "pkts", TS(rx_other), ENG_CT_U64, 0, 0, "frames not for the task (ARP, IPv6...)"},
	{"no_mbuf", "", TS(no_mbuf), ENG_CT_U64, 0, 0, "mbuf allocation failures"},
	{"rx_valid", "pkts", TS(rx_valid), ENG_CT_U64, 0, 0,
		"frames the task accepted (rxonly with verify, dfcp, tcp; dfcp: stale symbols "
		"included; text: not shown for kinds that forward, JSON: 0 there)"},
	{"rx_bad", "pkts", TS(rx_bad), ENG_CT_U64, 0, 0,
		"rxonly: frames that failed verification; dfcp/tcp: frames the endpoint refused "
		"(malformed, unknown connection, bad checksum ...; reasons in the flows' drops and "
		"dfcp_drops); a DFCP symbol it no longer needed (drops: stale) is valid"},
	{"seq_lost", "pkts", TS(seq_lost), ENG_CT_U64, 0, 0,
		"gaps in test-packet sequence numbers (text: only with test packets)"},
	{"seq_reordered", "pkts", TS(seq_reordered), ENG_CT_U64, 0, 0,
		"duplicate or late test packets"},
	{"lat_samples", "", TS(lat_samples), ENG_CT_U64, 0, ENG_V_DATA,
		"test packets with a one-way latency sample"},
	{"lat_min_ns", "ns", TS(lat_min_ns), ENG_CT_U64, 0, ENG_V_DATA, "smallest one-way latency"},
	{"lat_avg_ns", "ns", TS(lat_avg_ns), ENG_CT_U64, 0, 0, "mean one-way latency"},
	{"lat_max_ns", "ns", TS(lat_max_ns), ENG_CT_U64, 0, ENG_V_DATA, "largest one-way latency"},
};

struct pool_view {
	const char *name;
	uint32_t socket, size, avail, in_use;
};

#define PO(field) offsetof(struct pool_view, field)

static const struct eng_ctr pool_ctrs[] = {
	{"name", "", PO(name), ENG_CT_STR, 0, 0, "mempool name"},
	{"socket", "", PO(socket), ENG_CT_U32, 0, 0, "NUMA socket"},
	{"size", "mbufs", PO(size), ENG_CT_U32, 0, 0, "mbufs in the pool"},
	{"avail", "mbufs", PO(avail), ENG_CT_U32, 0, 0, "free at the end"},
	{"in_use", "mbufs", PO(in_use), ENG_CT_U32, 0, 0,
		"not returned at the end (0 after a clean run)"},
};

const struct eng_ctr_table eng_core_tables[] = {
	{"port", port_ctrs, RTE_DIM(port_ctrs)},
	{"task", task_ctrs, RTE_DIM(task_ctrs)},
	{"pool", pool_ctrs, RTE_DIM(pool_ctrs)},
	{NULL, NULL, 0},
};

static double
per_s(uint64_t v, uint64_t cycles, uint64_t hz)
{
	return cycles == 0 ? 0.0 : (double)v * (double)hz / (double)cycles;
}

void
eng_stats_start(struct eng_runtime *rt)
{
	unsigned int i;
	uint64_t now = rte_rdtsc();

	for (i = 0; i < rt->cfg->nb_ports; i++) {
		memset(&rt->ports[i].last, 0, sizeof(rt->ports[i].last));
		rt->ports[i].last_tsc = now;
	}
}

void
eng_stats_port_write(struct eng_runtime *rt, struct eng_out *o, unsigned int i,
		const struct eng_port_stats *s, const struct eng_port_stats *prev, uint64_t cycles)
{
	struct port_view v = {
		.name = rt->cfg->ports[i].name,
		.device = rt->cfg->ports[i].device,
		.port_id = rt->ports[i].port_id,
		.socket = rt->ports[i].socket,
		.s = *s,
		.rx_pps = per_s(s->rx_packets - prev->rx_packets, cycles, rt->clock.hz),
		.tx_pps = per_s(s->tx_packets - prev->tx_packets, cycles, rt->clock.hz),
		.rx_mbps = per_s(s->rx_bytes - prev->rx_bytes, cycles, rt->clock.hz) * 8 / 1e6,
		.tx_mbps = per_s(s->tx_bytes - prev->tx_bytes, cycles, rt->clock.hz) * 8 / 1e6,
		.rx_l1_mbps = per_s(s->rx_bytes - prev->rx_bytes + (s->rx_packets - prev->rx_packets) *
				ENG_L1_OVERHEAD, cycles, rt->clock.hz) * 8 / 1e6,
		.tx_l1_mbps = per_s(s->tx_bytes - prev->tx_bytes + (s->tx_packets - prev->tx_packets) *
				ENG_L1_OVERHEAD, cycles, rt->clock.hz) * 8 / 1e6,
	};

	eng_out_item(o, "port", v.name);
	eng_out_counters(o, port_ctrs, RTE_DIM(port_ctrs), &v);
	eng_out_end(o);
}

/* Every port: period = 1 over the last period (and move it on), else since the start. */
static void
ports_write(struct eng_runtime *rt, struct eng_out *o, int period)
{
	static const struct eng_port_stats zero;
	uint64_t now = rte_rdtsc(), cyc = eng_run_cycles(rt);
	unsigned int i;

	eng_out_arr(o, "ports");
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port *p = &rt->ports[i];
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		if (period) {
			eng_stats_port_write(rt, o, i, &s, &p->last, now - p->last_tsc);
			p->last = s;
			p->last_tsc = now;
		} else {
			eng_stats_port_write(rt, o, i, &s, &zero, cyc);
		}
	}
	eng_out_end(o);
}

void
eng_stats_task_write(struct eng_out *o, const struct eng_task *t, const struct eng_task_stats *ts)
{
	eng_out_item(o, "task", t->name);
	if (o->kind != ENG_OUT_TEXT) /* text: the label says it */
		eng_out_str(o, "name", t->name);
	eng_out_str(o, "kind", t->ops->name);
	eng_out_u64(o, "lcore", t->lcore_id);
	eng_out_counters(o, task_ctrs, TASK_CTRS_VERIFY, ts);
	if (o->kind != ENG_OUT_TEXT || ts->rx_valid != 0 || ts->rx_bad != 0 ||
			ts->lat_samples != 0 || ts->seq_lost != 0)
		eng_out_counters(o, task_ctrs + TASK_CTRS_VERIFY,
				TASK_CTRS_SEQ - TASK_CTRS_VERIFY, ts);
	if (o->kind != ENG_OUT_TEXT || ts->lat_samples != 0 || ts->seq_lost != 0 ||
			ts->seq_reordered != 0)
		eng_out_counters(o, task_ctrs + TASK_CTRS_SEQ,
				RTE_DIM(task_ctrs) - TASK_CTRS_SEQ, ts);
	eng_out_end(o);
}

static void
tasks_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i;

	eng_out_arr(o, "tasks");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_task_stats ts;

		memset(&ts, 0, sizeof(ts));
		t->ops->stats(t, &ts);
		eng_stats_task_write(o, t, &ts);
	}
	eng_out_end(o);
}

static void
pools_write(struct eng_runtime *rt, struct eng_out *o)
{
	unsigned int i;

	eng_out_arr(o, "pools");
	for (i = 0; i < RTE_MAX_NUMA_NODES; i++) {
		const struct rte_mempool *mp = rt->pools[i];
		struct pool_view v;

		if (mp == NULL)
			continue;
		v.name = mp->name;
		v.socket = i;
		v.size = mp->size;
		v.avail = rte_mempool_avail_count(mp);
		v.in_use = v.size - v.avail;
		eng_out_item(o, "pool", v.name);
		eng_out_counters(o, pool_ctrs, RTE_DIM(pool_ctrs), &v);
		eng_out_end(o);
	}
	eng_out_end(o);
}

/* The pace records, then every kind's part, in kind-table order. */
static void
kinds_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int k;

	eng_pace_report(rt, o, what);
	for (k = 0; k < eng_kinds_count(); k++)
		if (eng_kind(k)->report != NULL)
			eng_kind(k)->report(rt, o, what);
}

void
eng_stats_period(struct eng_runtime *rt)
{
	uint64_t now = rte_rdtsc();
	struct eng_out o;

	if (rt->cfg->live == ENG_LIVE_OFF) {
		eng_live_period(rt, 0); /* --timeseries only */
		return;
	}
	if (eng_screen_period(rt) == 0) /* the refreshing screen (screen.c) */
		return;
	printf("== stats at %.1f s ==\n", (double)(now - rt->start_tsc) / (double)rt->clock.hz);
	eng_out_text(&o, stdout, 2);
	ports_write(rt, &o, 1);
	eng_out_finish(&o);
	eng_live_period(rt, 1); /* flows: totals + top N by goodput (live.c) */
	eng_out_text(&o, stdout, 2);
	kinds_report(rt, &o, ENG_REPORT_PERIOD);
	eng_lcore_write(rt, &o, ENG_REPORT_PERIOD);
	eng_out_finish(&o);
	fflush(stdout);
}

/* The outcome of flow i (its kind's flow_view); 0, or -ENOENT when it did not run. */
static int
flow_outcome(struct eng_runtime *rt, unsigned int i, struct eng_flow_view *v)
{
	const struct eng_task_ops *k = rt->cfg->flows[i].proto;
	int rc;

	memset(v, 0, sizeof(*v));
	rc = k != NULL && k->flow_view != NULL ? k->flow_view(rt, i, v) : -ENOENT;
	if (rc == -ENOENT)
		snprintf(v->fail, sizeof(v->fail), "did not run");
	return rc == -EAGAIN ? 0 : rc;
}

unsigned int
eng_stats_failed(struct eng_runtime *rt)
{
	struct eng_flow_view v;
	unsigned int i, n = 0;

	for (i = 0; i < rt->cfg->nb_flows; i++) {
		flow_outcome(rt, i, &v);
		n += v.fail[0] != '\0';
	}
	return n;
}

/* Failures by class over every flow ("48 of 64 flows failed: 48 never
 * connected (syn-timeout)"), into buf; "" when none failed or no memory. */
static void
failures_by_class(struct eng_runtime *rt, char *buf, size_t len)
{
	unsigned int i, n = rt->cfg->nb_flows;
	struct eng_fold_flow *v = calloc((size_t)n + 1, sizeof(*v));
	char (*fail)[ENG_FAIL_LEN] = calloc((size_t)n + 1, sizeof(*fail));
	struct eng_flow_view fv;
	struct eng_fold fd;

	buf[0] = '\0';
	if (v != NULL && fail != NULL) {
		for (i = 0; i < n; i++) {
			flow_outcome(rt, i, &fv);
			memcpy(fail[i], fv.fail, ENG_FAIL_LEN);
			v[i].name = rt->cfg->flows[i].name;
			v[i].weight = 1;
			v[i].fail = fail[i];
		}
		if (eng_fold_compute(v, n, &fd) == 0 && fd.failed != 0)
			eng_fold_failures_str(&fd, buf, len);
	}
	free(v);
	free(fail);
}

/* The name of a stop signal ("SIGINT"), "" for none: the run ended as planned. */
static const char *
stop_signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" :
		sig != 0 ? "a signal" : "";
}

/*
 * "flow NAME FAILED: why" for each failed flow on stdout (o NULL; at most
 * [engine] summary_flows of them, then the failures by class), or "outcome"
 * in the JSON (every failure).
 */
static void
outcome_write(struct eng_runtime *rt, struct eng_out *o)
{
	const struct eng_config *cfg = rt->cfg;
	struct eng_flow_view v;
	unsigned int i, done = 0, shown = 0, failed = eng_stats_failed(rt);
	char classes[512];

	if (o != NULL) {
		eng_out_obj(o, "outcome");
		eng_out_u64(o, "flows", cfg->nb_flows);
		eng_out_u64(o, "failed", failed);
		eng_out_arr(o, "failures");
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		flow_outcome(rt, i, &v);
		done += v.completed != 0;
		if (v.fail[0] == '\0')
			continue;
		if (o != NULL) {
			eng_out_item(o, "flow", cfg->flows[i].name);
			eng_out_str(o, "name", cfg->flows[i].name);
			eng_out_str(o, "reason", v.fail);
			eng_out_end(o);
		} else if (shown++ < cfg->summary_flows || failed <= cfg->summary_flows) {
			printf("flow %s FAILED: %s\n", cfg->flows[i].name, v.fail);
		}
	}
	failures_by_class(rt, classes, sizeof(classes));
	if (o != NULL) {
		eng_out_end(o);
		eng_out_u64(o, "completed", done);
		eng_out_str(o, "failures_by_class", classes);
		eng_out_str(o, "stopped_by", stop_signal_name(rt->stop_signal));
		eng_out_end(o);
		return;
	}
	if (failed > cfg->summary_flows)
		printf("... and %u more failed flows (the JSON summary lists every one)\n",
				failed - cfg->summary_flows);
	if (cfg->nb_flows != 0)
		printf("outcome: %u of %u flows failed, %u reached their goal\n", failed,
				cfg->nb_flows, done);
	if (classes[0] != '\0')
		printf("outcome: %s\n", classes);
	/* a signal before the planned end: say so, and what it cut short (the exit status) */
	if (rt->stop_signal != 0) {
		printf("outcome: stopped by %s at %.1f s of ", stop_signal_name(rt->stop_signal),
				(double)eng_run_cycles(rt) / (double)rt->clock.hz);
		if (cfg->duration_ns != 0)
			printf("%.1f s", (double)cfg->duration_ns / 1e9);
		else
			printf("no set duration");
		if (failed != 0)
			printf(": %u flow%s did not reach %s goal\n", failed, failed == 1 ? "" : "s",
					failed == 1 ? "its" : "their");
		else
			printf("%s\n", cfg->nb_flows != 0 ? ": every flow reached its goal" : "");
	}
}

/* The places frames were lost: the biggest, and the frames by class. */
struct loss_point {
	uint64_t n;
	char what[160];
	uint64_t ports, tasks, pipes, sched;
};

static void
loss_max(struct loss_point *max, uint64_t n, const char *what)
{
	if (n > max->n) {
		max->n = n;
		snprintf(max->what, sizeof(max->what), "%s", what);
	}
}

static void
loss_note(struct loss_point *max, uint64_t n, const char *kind, const char *name,
		const char *ctr)
{
	char what[160];

	snprintf(what, sizeof(what), "%s %s %s", kind, name, ctr);
	loss_max(max, n, what);
}

/* A kind's place (ops->losses). */
static void
loss_kind(void *ctx, uint64_t n, const char *cls, const char *where)
{
	struct loss_point *max = ctx;

	if (cls != NULL && strcmp(cls, "pipes") == 0)
		max->pipes += n;
	else if (cls != NULL)
		max->sched += n;
	loss_max(max, n, where);
}

/*
 * "loss: ..." when any place lost frames: the biggest of the kinds' places
 * (a pipe's emulated loss and queue drops, a sched task's drops and the
 * refusals at its producers), the port counters that count lost frames and
 * the tasks' transmit refusals and mbuf shortages, with the frames by class.
 * The kinds go first: a refusal their producer counted too is named where
 * it happened.
 */
static void
loss_write(struct eng_runtime *rt)
{
	struct loss_point max = {0};
	unsigned int i;

	for (i = 0; i < eng_kinds_count(); i++)
		if (eng_kind(i)->losses != NULL)
			eng_kind(i)->losses(rt, loss_kind, &max);
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		const char *name = rt->cfg->ports[i].name;
		char krx[64], ktx[64];
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		snprintf(krx, sizeof(krx), "kernel_rx_dropped (in the kernel, on %s)",
				rt->ports[i].iface);
		snprintf(ktx, sizeof(ktx), "kernel_tx_dropped (in the kernel, on %s)",
				rt->ports[i].iface);
		loss_note(&max, s.rx_missed, "port", name, "rx_missed");
		loss_note(&max, s.rx_nombuf, "port", name, "rx_nombuf");
		loss_note(&max, s.tx_errors, "port", name, "tx_errors");
		loss_note(&max, s.kernel_rx_dropped, "port", name, krx);
		loss_note(&max, s.kernel_tx_dropped, "port", name, ktx);
		max.ports += s.rx_missed + s.rx_nombuf + s.tx_errors + s.kernel_rx_dropped +
			s.kernel_tx_dropped;
	}
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_task_stats ts;

		memset(&ts, 0, sizeof(ts));
		t->ops->stats(t, &ts);
		loss_note(&max, ts.tx_dropped, "task", t->name, "tx_dropped");
		loss_note(&max, ts.no_mbuf, "task", t->name, "no_mbuf");
		max.tasks += ts.tx_dropped + ts.no_mbuf;
	}
	if (max.n != 0)
		printf("loss: %" PRIu64 " frames lost (ports %" PRIu64 ", tasks %" PRIu64 ", pipes %"
				PRIu64 ", sched %" PRIu64 "); the most at %s: %" PRIu64 "\n",
				max.ports + max.tasks + max.pipes + max.sched, max.ports, max.tasks,
				max.pipes, max.sched, max.what, max.n);
}

void
eng_stats_summary(struct eng_runtime *rt)
{
	struct eng_out o;

	printf("== summary: %.3f s ==\n", (double)eng_run_cycles(rt) / (double)rt->clock.hz);
	eng_out_text(&o, stdout, 2);
	ports_write(rt, &o, 0);
	tasks_write(rt, &o);
	eng_out_finish(&o);
	printf("  lcores (busy = share of polling cycles spent in polls that handled packets):\n");
	eng_out_text(&o, stdout, 2);
	eng_lcore_write(rt, &o, ENG_REPORT_SUMMARY);
	kinds_report(rt, &o, ENG_REPORT_SUMMARY);
	eng_out_finish(&o);
	eng_out_text(&o, stdout, 0);
	kinds_report(rt, &o, ENG_REPORT_RESULT); /* each flow's goodput, Jain's index */
	eng_out_finish(&o);
	loss_write(rt);
	outcome_write(rt, NULL);
	fflush(stdout);
}

int
eng_stats_json(struct eng_runtime *rt, const char *path)
{
	struct eng_out o;
	FILE *f;
	int rc;

	f = fopen(path, "w");
	if (f == NULL) {
		rc = -errno;
		ENG_LOG(ERR, stats, "cannot write %s: %s", path, strerror(errno));
		return rc;
	}
	eng_out_json(&o, f);
	eng_out_str(&o, "config", rt->cfg->file);
	eng_out_dbl(&o, "duration_s", (double)eng_run_cycles(rt) / (double)rt->clock.hz, 6);
	ports_write(rt, &o, 0);
	tasks_write(rt, &o);
	kinds_report(rt, &o, ENG_REPORT_JSON);
	pools_write(rt, &o);
	eng_lcore_write(rt, &o, ENG_REPORT_JSON);
	eng_capture_write(rt, &o);
	outcome_write(rt, &o);
	rc = eng_out_finish(&o);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc < 0)
		ENG_LOG(ERR, stats, "%s: %s", path, strerror(-rc));
	return rc;
}

int
eng_stats_tel_ports(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	RTE_SET_USED(params);
	ports_write(rt, o, 0);
	return 0;
}

static void
tables_print(FILE *f, const char *owner, const struct eng_ctr_table *t)
{
	unsigned int i;

	for (; t != NULL && t->record != NULL; t++)
		for (i = 0; i < t->n; i++) {
			const struct eng_ctr *c = &t->ctr[i];
			unsigned int v = c->views ? c->views : ENG_V_ALL;

			fprintf(f, "%-8s %-15s %-20s %-7s %s%s%s %s\n", owner, t->record, c->name,
					c->unit[0] ? c->unit : "-", v & ENG_V_TEXT ? "T" : "-",
					v & ENG_V_JSON ? "J" : "-", v & ENG_V_TEL ? "M" : "-", c->help);
		}
}

void
eng_counters_print(FILE *f)
{
	unsigned int k;

	fprintf(f, "%-8s %-15s %-20s %-7s %s %s\n", "owner", "record", "name", "unit", "out",
			"meaning (out: T text, J summary JSON, M telemetry)");
	tables_print(f, "core", eng_core_tables);
	tables_print(f, "core", eng_lcore_tables);
	tables_print(f, "core", eng_capture_tables);
	tables_print(f, "core", eng_intervals_tables);
	for (k = 0; k < eng_kinds_count(); k++)
		tables_print(f, eng_kind(k)->name, eng_kind(k)->tables);
}
