/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics of pipes, queues and sched tasks: periodic blocks, summary,
 * JSON ("pipes", "sched") and the /dfcp/pipes and /dfcp/sched telemetry
 * commands. Counters are read while the owning lcores run (plain 64-bit
 * loads, as for ports and tasks).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_telemetry.h>

#include "kinds/route/route.h"
#include "kinds/sched/sched.h"
#include "obs/obs.h"
#include "pktsched.h"

static double
mbps(uint64_t bytes, uint64_t cycles, uint64_t hz)
{
	return cycles == 0 ? 0.0 : (double)bytes * 8.0 * (double)hz / (double)cycles / 1e6;
}

static uint64_t
run_cycles(const struct eng_runtime *rt)
{
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc();

	return end > rt->start_tsc ? end - rt->start_tsc : 0;
}

static struct pipe *
pipe_rt(const struct eng_runtime *rt, unsigned int i)
{
	if (eng_route_rt(rt) == NULL || eng_route_conf(rt->cfg) == NULL || i >= eng_route_conf(rt->cfg)->nb_pipes)
		return NULL;
	return eng_route_rt(rt)->pipes[i].p;
}

/* Name of queue q of pipe i: "default" or the [queue NAME]. */
static const char *
queue_name(const struct eng_config *cfg, unsigned int pipe, uint32_t q, uint32_t *weight)
{
	unsigned int j;

	if (q != 0)
		for (j = 0; j < eng_route_conf(cfg)->nb_queues; j++) {
			const struct eng_queue_conf *qc = &eng_route_conf(cfg)->queues[j];

			if (qc->pipe_idx == (int)pipe && qc->pipe_q == q) {
				if (weight)
					*weight = qc->weight;
				return qc->name;
			}
		}
	if (weight)
		*weight = 1;
	return "default";
}

static void
pipe_block(struct eng_runtime *rt, unsigned int i, uint64_t cycles, int period)
{
	const struct eng_pipe_conf *pc = &eng_route_conf(rt->cfg)->pipes[i];
	struct eng_route_pipe_rt *pr = &eng_route_rt(rt)->pipes[i];
	static const struct pipe_stats zero;
	const struct pipe_stats *b = period ? &pr->last : &zero;
	struct pipe_stats s;
	uint32_t q;

	pipe_stats_get(pr->p, &s);
	if (pc->bw_bps != 0)
		printf("  ---- %s pipe %s (%.1f Mbit/s, %.3f ms, %s) ----\n", period ? "" : "total",
				pc->name, (double)pc->bw_bps / 1e6, (double)pc->delay_ns / 1e6,
				pc->sched);
	else
		printf("  ---- %s pipe %s (unlimited, %.3f ms, %s) ----\n", period ? "" : "total",
				pc->name, (double)pc->delay_ns / 1e6, pc->sched);
	printf("  in: %-10" PRIu64 " out: %-10" PRIu64 " out-Mbit/s: %-8.1f wire-Mbit/s: %-8.1f"
	       " lost: %-8" PRIu64 " dropped: %-8" PRIu64 " passed: %" PRIu64 "\n",
			s.in_pkts, s.out_pkts, mbps(s.out_bytes - b->out_bytes, cycles, rt->clock.hz),
			mbps(s.out_bytes - b->out_bytes +
					(s.out_pkts - b->out_pkts) * (uint64_t)pc->overhead,
					cycles, rt->clock.hz),
			s.loss_pkts, s.drop_pkts, s.pass_pkts);
	printf("  queued: %u pkts / %" PRIu64 " B  on-link: %u pkts  jain: %.6f\n", s.sched_pkts,
			s.sched_bytes, s.line_pkts,
			pipe_jain(pr->p, period ? pr->last_deq_bytes : NULL));
	{ /* queueing delay since the start (obs.h) */
		struct hist_summary h;
		char lat[160];

		if (eng_lat_pipe_summary(i, &h) == 0 && h.count != 0) {
			eng_lat_fmt(lat, sizeof(lat), &h);
			printf("  queue delay: %s\n", lat);
		}
	}
	for (q = 0; q < pr->nb_q; q++) {
		struct sched_qstats qs;
		uint64_t base = period ? pr->last_deq_bytes[q] : 0;

		if (pipe_queue_stats(pr->p, q, &qs) < 0)
			continue;
		if (q == 0 && qs.enq_pkts == 0 && qs.drop_pkts == 0)
			continue; /* the unused default queue */
		printf("    queue %-12s w %-4u out: %-10" PRIu64 " Mbit/s: %-8.1f dropped: %-8" PRIu64
		       " qlen: %u\n",
				queue_name(rt->cfg, i, q, NULL), qs.weight, qs.deq_pkts,
				mbps(qs.deq_bytes - base, cycles, rt->clock.hz), qs.drop_pkts, qs.qlen_pkts);
		if (period)
			pr->last_deq_bytes[q] = qs.deq_bytes;
	}
	if (period)
		pr->last = s;
}

static int
sched_get(const struct eng_task *t, struct eng_sched_stats *st,
		struct eng_sched_flow_stats **flows)
{
	*flows = NULL;
	if (eng_sched_task_stats(t, st, NULL, 0) < 0)
		return -EINVAL;
	*flows = calloc(st->nb_flows + 1, sizeof(**flows));
	if (*flows == NULL)
		return -ENOMEM;
	return eng_sched_task_stats(t, st, *flows, st->nb_flows);
}

static double
flows_jain(const struct eng_sched_flow_stats *fl, uint32_t n)
{
	double *x = calloc(n + 1, sizeof(double));
	uint32_t i, k = 0;
	double j;

	if (x == NULL)
		return 0;
	for (i = 0; i < n; i++)
		if (fl[i].run_tx_bytes != 0)
			x[k++] = (double)fl[i].run_tx_bytes / fl[i].weight;
	j = sched_jain(x, k);
	free(x);
	return j;
}

static void
sched_block(struct eng_runtime *rt, const struct eng_task *t, uint64_t cycles)
{
	struct eng_sched_flow_stats *fl;
	struct eng_sched_stats st;
	uint32_t f;

	if (sched_get(t, &st, &fl) < 0) {
		free(fl);
		return;
	}
	printf("  ---- sched %s (%s, %.1f Mbit/s%s) ----\n", t->name, st.algo,
			(double)st.rate_bps / 1e6, st.rate_bps ? "" : " unshaped");
	printf("  tx: %-10" PRIu64 " Mbit/s: %-8.1f tx-retries: %-8" PRIu64 " flows: %u  jain: "
	       "%.6f\n",
			st.tx_pkts, mbps(st.tx_bytes, cycles, rt->clock.hz), st.tx_retries, st.nb_flows,
			flows_jain(fl, st.nb_flows));
	for (f = 0; f < st.nb_flows; f++)
		printf("    flow %-12s w %-4u in: %-10" PRIu64 " tx: %-10" PRIu64
		       " Mbit/s: %-8.1f dropped: %-6" PRIu64 " backlog: %u ring: %u\n",
				fl[f].name, fl[f].weight, fl[f].enq_pkts, fl[f].tx_pkts,
				mbps(fl[f].run_tx_bytes, cycles, rt->clock.hz), fl[f].drop_pkts, fl[f].backlog,
				fl[f].ring_count);
	free(fl);
}

void
eng_route_stats_period(struct eng_runtime *rt)
{
	uint64_t now = rte_rdtsc();
	unsigned int i;

	for (i = 0; i < ENG_MAX_PIPES; i++) {
		struct eng_route_pipe_rt *pr;

		if (pipe_rt(rt, i) == NULL)
			continue;
		pr = &eng_route_rt(rt)->pipes[i];
		if (pr->last_tsc == 0)
			pr->last_tsc = rt->start_tsc;
		pipe_block(rt, i, now - pr->last_tsc, 1);
		pr->last_tsc = now;
	}
}

void
eng_route_stats_summary(struct eng_runtime *rt)
{
	uint64_t cyc = run_cycles(rt);
	unsigned int i;

	for (i = 0; i < ENG_MAX_PIPES; i++)
		if (pipe_rt(rt, i) != NULL)
			pipe_block(rt, i, cyc, 0);
	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (rt->cfg->tasks[i].ops == &eng_task_sched)
			sched_block(rt, &rt->cfg->tasks[i], cyc);
}

static void
json_name(FILE *f, const char *s)
{
	/* names are [A-Za-z0-9_.-] (cfg_check_name): no escaping needed */
	fprintf(f, "\"%s\"", s);
}

void
eng_route_stats_json(struct eng_runtime *rt, FILE *f)
{
	uint64_t cyc = run_cycles(rt);
	unsigned int i, n = 0;
	uint32_t q;

	fprintf(f, ",\n  \"pipes\": [");
	for (i = 0; i < ENG_MAX_PIPES; i++) {
		const struct eng_pipe_conf *pc;
		struct pipe *p = pipe_rt(rt, i);
		struct pipe_stats s;

		if (p == NULL)
			continue;
		pc = &eng_route_conf(rt->cfg)->pipes[i];
		pipe_stats_get(p, &s);
		fprintf(f, "%s\n    {\"name\": ", n++ ? "," : "");
		json_name(f, pc->name);
		fprintf(f,
				", \"bw_bps\": %" PRIu64 ", \"delay_ns\": %" PRIu64
				", \"overhead\": %u, \"sched\": \"%s\""
				", \"in_packets\": %" PRIu64 ", \"in_bytes\": %" PRIu64
				", \"out_packets\": %" PRIu64 ", \"out_bytes\": %" PRIu64
				", \"lost_packets\": %" PRIu64 ", \"lost_bytes\": %" PRIu64
				", \"dropped_packets\": %" PRIu64 ", \"dropped_bytes\": %" PRIu64
				", \"passed_packets\": %" PRIu64 ", \"queued_packets\": %u"
				", \"queued_bytes\": %" PRIu64 ", \"line_packets\": %u"
				", \"line_stalls\": %u, \"out_mbps\": %.3f, \"jain\": %.6f,"
				" \"queues\": [",
				pc->bw_bps, pc->delay_ns, pc->overhead, pc->sched, s.in_pkts,
				s.in_bytes, s.out_pkts, s.out_bytes, s.loss_pkts, s.loss_bytes,
				s.drop_pkts, s.drop_bytes, s.pass_pkts, s.sched_pkts, s.sched_bytes,
				s.line_pkts, s.line_stalls, mbps(s.out_bytes, cyc, rt->clock.hz),
				pipe_jain(p, NULL));
		for (q = 0; q < eng_route_rt(rt)->pipes[i].nb_q; q++) {
			struct sched_qstats qs;

			if (pipe_queue_stats(p, q, &qs) < 0)
				continue;
			fprintf(f, "%s\n      {\"name\": ", q ? "," : "");
			json_name(f, queue_name(rt->cfg, i, q, NULL));
			fprintf(f,
					", \"index\": %u, \"weight\": %u, \"enq_packets\": %" PRIu64
					", \"enq_bytes\": %" PRIu64 ", \"out_packets\": %" PRIu64
					", \"out_bytes\": %" PRIu64 ", \"dropped_packets\": %" PRIu64
					", \"dropped_bytes\": %" PRIu64 ", \"qlen_packets\": %u"
					", \"qlen_bytes\": %" PRIu64 ", \"out_mbps\": %.3f}",
					q, qs.weight, qs.enq_pkts, qs.enq_bytes, qs.deq_pkts,
					qs.deq_bytes, qs.drop_pkts, qs.drop_bytes, qs.qlen_pkts,
					qs.qlen_bytes, mbps(qs.deq_bytes, cyc, rt->clock.hz));
		}
		fprintf(f, "]");
		eng_lat_pipe_json(f, i); /* , "queue_delay_ns": {...} */
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n  \"sched\": [");
	n = 0;
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_sched_flow_stats *fl;
		struct eng_sched_stats st;
		uint32_t k;

		if (t->ops != &eng_task_sched)
			continue;
		if (sched_get(t, &st, &fl) < 0) {
			free(fl);
			continue;
		}
		fprintf(f, "%s\n    {\"task\": ", n++ ? "," : "");
		json_name(f, t->name);
		fprintf(f,
				", \"algo\": \"%s\", \"rate_bps\": %" PRIu64 ", \"tx_packets\": %" PRIu64
				", \"tx_bytes\": %" PRIu64 ", \"tx_retries\": %" PRIu64
				", \"tx_mbps\": %.3f, \"jain\": %.6f, \"flows\": [",
				st.algo, st.rate_bps, st.tx_pkts, st.tx_bytes, st.tx_retries,
				mbps(st.tx_bytes, cyc, rt->clock.hz), flows_jain(fl, st.nb_flows));
		for (k = 0; k < st.nb_flows; k++) {
			fprintf(f, "%s\n      {\"name\": ", k ? "," : "");
			json_name(f, fl[k].name);
			fprintf(f,
					", \"id\": %u, \"weight\": %u, \"enq_packets\": %" PRIu64
					", \"enq_bytes\": %" PRIu64 ", \"tx_packets\": %" PRIu64
					", \"tx_bytes\": %" PRIu64 ", \"run_tx_packets\": %" PRIu64
					", \"run_tx_bytes\": %" PRIu64 ", \"dropped_packets\": %" PRIu64
					", \"backlog\": %u, \"ring\": %u, \"tx_mbps\": %.3f}",
					k, fl[k].weight, fl[k].enq_pkts, fl[k].enq_bytes, fl[k].tx_pkts,
					fl[k].tx_bytes, fl[k].run_tx_pkts, fl[k].run_tx_bytes,
					fl[k].drop_pkts, fl[k].backlog, fl[k].ring_count,
					mbps(fl[k].run_tx_bytes, cyc, rt->clock.hz));
		}
		fprintf(f, "]}");
		free(fl);
	}
	fprintf(f, "\n  ]");
}

/* Telemetry (22.11 nests containers one level deep: per-queue and
 * per-flow counters are flattened to "NAME/counter" keys; telemetry refuses "." in keys). */
int
eng_route_tel_pipes(struct eng_runtime *rt, struct rte_tel_data *d)
{
	unsigned int i;
	uint32_t q;

	rte_tel_data_start_dict(d);
	for (i = 0; i < ENG_MAX_PIPES; i++) {
		struct pipe *p = pipe_rt(rt, i);
		struct rte_tel_data *c;
		struct pipe_stats s;
		char key[RTE_TEL_MAX_STRING_LEN];

		if (p == NULL)
			continue;
		c = rte_tel_data_alloc();
		if (c == NULL)
			return -ENOMEM;
		pipe_stats_get(p, &s);
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "bw_bps", eng_route_conf(rt->cfg)->pipes[i].bw_bps);
		rte_tel_data_add_dict_u64(c, "delay_ns", eng_route_conf(rt->cfg)->pipes[i].delay_ns);
		rte_tel_data_add_dict_u64(c, "in_packets", s.in_pkts);
		rte_tel_data_add_dict_u64(c, "out_packets", s.out_pkts);
		rte_tel_data_add_dict_u64(c, "out_bytes", s.out_bytes);
		rte_tel_data_add_dict_u64(c, "lost_packets", s.loss_pkts);
		rte_tel_data_add_dict_u64(c, "dropped_packets", s.drop_pkts);
		rte_tel_data_add_dict_u64(c, "passed_packets", s.pass_pkts);
		rte_tel_data_add_dict_u64(c, "queued_packets", s.sched_pkts);
		rte_tel_data_add_dict_u64(c, "line_packets", s.line_pkts);
		eng_lat_pipe_tel(c, i); /* queue_delay_ns_p50 ... */
		rte_tel_data_add_dict_u64(c, "jain_ppm",
				(uint64_t)(pipe_jain(p, NULL) * 1e6 + 0.5));
		for (q = 0; q < eng_route_rt(rt)->pipes[i].nb_q && q < 60; q++) {
			struct sched_qstats qs;
			const char *qn = queue_name(rt->cfg, i, q, NULL);

			if (pipe_queue_stats(p, q, &qs) < 0)
				continue;
			snprintf(key, sizeof(key), "%s/out_bytes", qn);
			rte_tel_data_add_dict_u64(c, key, qs.deq_bytes);
			snprintf(key, sizeof(key), "%s/dropped_packets", qn);
			rte_tel_data_add_dict_u64(c, key, qs.drop_pkts);
			snprintf(key, sizeof(key), "%s/qlen_packets", qn);
			rte_tel_data_add_dict_u64(c, key, qs.qlen_pkts);
			snprintf(key, sizeof(key), "%s/weight", qn);
			rte_tel_data_add_dict_u64(c, key, qs.weight);
		}
		rte_tel_data_add_dict_container(d, eng_route_conf(rt->cfg)->pipes[i].name, c, 0);
	}
	return 0;
}

int
eng_route_tel_sched(struct eng_runtime *rt, struct rte_tel_data *d)
{
	unsigned int i;

	rte_tel_data_start_dict(d);
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_sched_flow_stats *fl;
		struct eng_sched_stats st;
		struct rte_tel_data *c;
		char key[RTE_TEL_MAX_STRING_LEN];
		uint32_t k;

		if (t->ops != &eng_task_sched)
			continue;
		if (sched_get(t, &st, &fl) < 0) {
			free(fl);
			continue;
		}
		c = rte_tel_data_alloc();
		if (c == NULL) {
			free(fl);
			return -ENOMEM;
		}
		rte_tel_data_start_dict(c);
		rte_tel_data_add_dict_u64(c, "rate_bps", st.rate_bps);
		rte_tel_data_add_dict_u64(c, "tx_packets", st.tx_pkts);
		rte_tel_data_add_dict_u64(c, "tx_bytes", st.tx_bytes);
		rte_tel_data_add_dict_u64(c, "tx_retries", st.tx_retries);
		for (k = 0; k < st.nb_flows && k < 80; k++) {
			snprintf(key, sizeof(key), "%s/tx_bytes", fl[k].name);
			rte_tel_data_add_dict_u64(c, key, fl[k].tx_bytes);
			snprintf(key, sizeof(key), "%s/backlog", fl[k].name);
			rte_tel_data_add_dict_u64(c, key, fl[k].backlog);
			snprintf(key, sizeof(key), "%s/weight", fl[k].name);
			rte_tel_data_add_dict_u64(c, key, fl[k].weight);
		}
		rte_tel_data_add_dict_container(d, t->name, c, 0);
		free(fl);
	}
	return 0;
}
