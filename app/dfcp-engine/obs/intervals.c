/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --intervals-json FILE: one JSON object per stats period on one line (JSON
 * Lines, flushed at once, so a reader can follow the run), with what moved
 * in that period:
 *   time_s, interval_s  end of the period from the start of the run phase,
 *                       its length
 *   ports               every port's record (the summary's port counters,
 *                       rates over the period: pkt/s, Mbit/s L2 and L1)
 *   tasks               every task's frames and rates in the period (its
 *                       generic counters, ops->stats), L2 and L1
 *   flows               every running flow's goodput and throughput in the
 *                       period (live.c's rows), when the run has flows
 *   streams             every txonly / rxonly stream's frames, bytes, rates
 *                       (L2, L1) and losses in the period (streams.c), when
 *                       a task has streams
 *   pace                every paced task's and flow's pace record
 *   console             the console lines run in the period (obs/console.c)
 * The format is doc/observability.md's. Written by the main lcore from the
 * period hook of live.c (eng_live_period) and at the end, for the last
 * partial period.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "obs/stats.h"

#define IV_NOTES 16		/* console lines kept per period */
#define IV_NOTE_LEN 128

struct eng_intervals_rt {
	FILE *f;
	uint64_t last_tsc;		/* end of the previous period */
	struct eng_port_stats *port_prev;	/* [nb_ports] at last_tsc */
	struct eng_task_stats *task_prev;	/* [nb_tasks] at last_tsc */
	char notes[IV_NOTES][IV_NOTE_LEN];
	unsigned int nb_notes, notes_dropped;
};

/* A task in one period. */
struct iv_task {
	const char *name, *kind;
	uint64_t tx_packets, rx_packets, tx_bytes, rx_bytes;
	double tx_pps, rx_pps, tx_mbps, rx_mbps, tx_l1_mbps, rx_l1_mbps;
};

/* A flow in one period. */
struct iv_flow {
	const char *name, *role;
	double goodput_mbps, throughput_mbps;
};

#define IT(field) offsetof(struct iv_task, field)
#define IF(field) offsetof(struct iv_flow, field)

static const struct eng_ctr iv_task_ctrs[] = {
	{"name", "", IT(name), ENG_CT_STR, 0, ENG_V_JSON, "the [task NAME]"},
	{"kind", "", IT(kind), ENG_CT_STR, 0, ENG_V_JSON, "its kind"},
	{"tx_packets", "pkts", IT(tx_packets), ENG_CT_U64, 0, ENG_V_JSON,
		"frames it handed to the tx queue in the period"},
	{"rx_packets", "pkts", IT(rx_packets), ENG_CT_U64, 0, ENG_V_JSON,
		"frames it received in the period"},
	{"tx_bytes", "B", IT(tx_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"bytes of those frames (no FCS)"},
	{"rx_bytes", "B", IT(rx_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"bytes of those frames (no FCS)"},
	{"tx_pps", "pkt/s", IT(tx_pps), ENG_CT_DBL, 1, ENG_V_JSON, "tx_packets per second"},
	{"rx_pps", "pkt/s", IT(rx_pps), ENG_CT_DBL, 1, ENG_V_JSON, "rx_packets per second"},
	{"tx_mbps", "Mbit/s", IT(tx_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"L2: tx_bytes x 8 per second"},
	{"tx_l1_mbps", "Mbit/s", IT(tx_l1_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"L1: tx_mbps with the 24 B each frame adds on the wire (txonly's rate counts it)"},
	{"rx_mbps", "Mbit/s", IT(rx_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"L2: rx_bytes x 8 per second"},
	{"rx_l1_mbps", "Mbit/s", IT(rx_l1_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"L1: rx_mbps with the 24 B each frame adds on the wire"},
};

static const struct eng_ctr iv_flow_ctrs[] = {
	{"name", "", IF(name), ENG_CT_STR, 0, ENG_V_JSON, "the [flow NAME]"},
	{"role", "", IF(role), ENG_CT_STR, 0, ENG_V_JSON, "sender or receiver"},
	{"goodput_mbps", "Mbit/s", IF(goodput_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"application bytes delivered (receiver) or acknowledged (sender) in the period"},
	{"throughput_mbps", "Mbit/s", IF(throughput_mbps), ENG_CT_DBL, 3, ENG_V_JSON,
		"frame bytes sent (sender) or received (receiver) in the period"},
};

const struct eng_ctr_table eng_intervals_tables[] = {
	{"interval_task", iv_task_ctrs, RTE_DIM(iv_task_ctrs)},
	{"interval_flow", iv_flow_ctrs, RTE_DIM(iv_flow_ctrs)},
	{"stream", eng_stream_ctrs, ENG_STREAM_NCTRS},	/* streams.c's, listed here */
	{NULL, NULL, 0},
};

int
eng_intervals_open(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	struct eng_intervals_rt *iv;
	unsigned int i;

	if (cfg->intervals_json[0] == '\0' || rt->intervals != NULL)
		return 0;
	iv = calloc(1, sizeof(*iv));
	if (iv == NULL)
		return -ENOMEM;
	iv->port_prev = calloc(cfg->nb_ports + 1, sizeof(*iv->port_prev));
	iv->task_prev = calloc(cfg->nb_tasks + 1, sizeof(*iv->task_prev));
	iv->f = fopen(cfg->intervals_json, "w");
	if (iv->port_prev == NULL || iv->task_prev == NULL || iv->f == NULL) {
		int e = iv->f == NULL ? errno : ENOMEM;

		ENG_LOG(ERR, stats, "intervals: cannot write %s: %s", cfg->intervals_json,
				strerror(e));
		if (iv->f != NULL)
			fclose(iv->f);
		free(iv->port_prev);
		free(iv->task_prev);
		free(iv);
		return -e;
	}
	/* the counters are 0 at the start (eng_stats_start); tasks: whatever set-up counted */
	for (i = 0; i < cfg->nb_tasks; i++)
		cfg->tasks[i].ops->stats(&cfg->tasks[i], &iv->task_prev[i]);
	rt->intervals = iv;
	return 0;
}

void
eng_intervals_note(struct eng_runtime *rt, const char *line)
{
	struct eng_intervals_rt *iv = rt->intervals;

	if (iv == NULL)
		return;
	if (iv->nb_notes == IV_NOTES) {
		iv->notes_dropped++;
		return;
	}
	snprintf(iv->notes[iv->nb_notes++], IV_NOTE_LEN, "%s", line);
}

static void
tasks_write(struct eng_runtime *rt, struct eng_out *o, uint64_t cycles)
{
	struct eng_intervals_rt *iv = rt->intervals;
	double per_s = cycles ? (double)rt->clock.hz / (double)cycles : 0.0;
	unsigned int i;

	eng_out_arr(o, "tasks");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		const struct eng_task_stats *b = &iv->task_prev[i];
		struct eng_task_stats s;
		struct iv_task v;

		memset(&s, 0, sizeof(s));
		t->ops->stats(t, &s);
		v.name = t->name;
		v.kind = t->ops->name;
		v.tx_packets = s.tx_packets - b->tx_packets;
		v.rx_packets = s.rx_packets - b->rx_packets;
		v.tx_bytes = s.tx_bytes - b->tx_bytes;
		v.rx_bytes = s.rx_bytes - b->rx_bytes;
		v.tx_pps = (double)v.tx_packets * per_s;
		v.rx_pps = (double)v.rx_packets * per_s;
		v.tx_mbps = (double)v.tx_bytes * per_s * 8e-6;
		v.rx_mbps = (double)v.rx_bytes * per_s * 8e-6;
		v.tx_l1_mbps = (double)(v.tx_bytes + v.tx_packets * ENG_L1_OVERHEAD) * per_s * 8e-6;
		v.rx_l1_mbps = (double)(v.rx_bytes + v.rx_packets * ENG_L1_OVERHEAD) * per_s * 8e-6;
		eng_out_item(o, "task", t->name);
		eng_out_counters(o, iv_task_ctrs, RTE_DIM(iv_task_ctrs), &v);
		eng_out_end(o);
		iv->task_prev[i] = s;
	}
	eng_out_end(o);
}

/* live.c's rows of the period (eng_live_period computed them just before). */
static void
flows_write(struct eng_runtime *rt, struct eng_out *o)
{
	const struct eng_flow_view *fv;
	unsigned int i, n = 0;
	struct iv_flow v;

	for (i = 0; i < rt->cfg->nb_flows; i++) {
		if (eng_live_row(rt, i, &v.goodput_mbps, &v.throughput_mbps, &fv) < 0)
			continue;
		if (n++ == 0)
			eng_out_arr(o, "flows");
		v.name = rt->cfg->flows[i].name;
		v.role = rt->cfg->flows[i].role == ENG_FLOW_SENDER ? "sender" : "receiver";
		eng_out_item(o, "flow", v.name);
		eng_out_counters(o, iv_flow_ctrs, RTE_DIM(iv_flow_ctrs), &v);
		eng_out_end(o);
	}
	if (n != 0)
		eng_out_end(o);
}

/* streams.c's rows of the period (eng_live_period computed them just before). */
static void
streams_write(struct eng_runtime *rt, struct eng_out *o)
{
	const struct eng_stream_row *const *r;
	unsigned int n = eng_streams_rows(rt, &r), i;

	if (n == 0)
		return;
	eng_out_arr(o, "streams");
	for (i = 0; i < n; i++)
		eng_streams_row_write(o, r[i]);
	eng_out_end(o);
}

void
eng_intervals_period(struct eng_runtime *rt, uint64_t now)
{
	struct eng_intervals_rt *iv = rt->intervals;
	uint64_t last, cycles;
	struct eng_out o;
	unsigned int i;

	if (iv == NULL || iv->f == NULL)
		return;
	last = iv->last_tsc ? iv->last_tsc : rt->start_tsc;
	cycles = now > last ? now - last : 0;
	eng_out_json_line(&o, iv->f);
	eng_out_dbl(&o, "time_s", (double)(now - rt->start_tsc) / (double)rt->clock.hz, 3);
	eng_out_dbl(&o, "interval_s", (double)cycles / (double)rt->clock.hz, 3);
	eng_out_arr(&o, "ports");
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		eng_stats_port_write(rt, &o, i, &s, &iv->port_prev[i], cycles);
		iv->port_prev[i] = s;
	}
	eng_out_end(&o);
	tasks_write(rt, &o, cycles);
	flows_write(rt, &o);
	streams_write(rt, &o);
	eng_pace_report(rt, &o, ENG_REPORT_JSON);
	eng_out_arr(&o, "console");
	for (i = 0; i < iv->nb_notes; i++)
		eng_out_str(&o, NULL, iv->notes[i]);
	eng_out_end(&o);
	if (iv->notes_dropped != 0)
		eng_out_u64(&o, "console_dropped", iv->notes_dropped);
	iv->nb_notes = iv->notes_dropped = 0;
	if (eng_out_finish(&o) < 0 || fflush(iv->f) != 0) {
		ENG_LOG(ERR, stats, "intervals: writing %s failed: the file is closed",
				rt->cfg->intervals_json);
		fclose(iv->f);
		iv->f = NULL;
	}
	iv->last_tsc = now;
}

void
eng_intervals_close(struct eng_runtime *rt)
{
	struct eng_intervals_rt *iv = rt->intervals;
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc();

	if (iv == NULL)
		return;
	/* the last, partial period (at least 1 ms long) */
	if (iv->f != NULL && end > (iv->last_tsc ? iv->last_tsc : rt->start_tsc) +
			rt->clock.hz / 1000)
		eng_intervals_period(rt, end);
	if (iv->f != NULL) {
		fclose(iv->f);
		ENG_LOG(INFO, stats, "intervals written to %s", rt->cfg->intervals_json);
	}
	free(iv->port_prev);
	free(iv->task_prev);
	free(iv);
	rt->intervals = NULL;
}
