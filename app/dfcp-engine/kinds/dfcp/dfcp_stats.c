/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP flow statistics: one line per flow in every periodic block, the
 * per-flow summary with Jain's fairness index over flows sharing a
 * bottleneck, the "flows", "jain", "dfcp_drops" and "pools" parts of the
 * summary JSON, and the /dfcp/flows telemetry command. Counters come from the
 * snapshots the dfcp tasks publish (task_dfcp.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_mempool.h>
#include <rte_telemetry.h>

#include "kinds/dfcp/flow.h"
#include "obs/obs.h"

static struct eng_runtime *flow_tel_rt;

/* previous period's values, per flow */
static struct {
	uint64_t ns;
	uint64_t bytes, goodput;
} flow_prev[ENG_MAX_FLOWS];

static const char *
role_str(const struct eng_flow_conf *fc)
{
	return fc->role == ENG_FLOW_SENDER ? "sender" : "receiver";
}

/* Frame bytes a flow moves: sent by a sender, received by a receiver. */
static uint64_t
flow_bytes(const struct eng_flow_conf *fc, const struct eng_flow_snap *s)
{
	return fc->role == ENG_FLOW_SENDER ? s->st.tx_bytes : s->st.rx_bytes;
}

static double
mbps(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes * 8.0 * 1e3 / (double)ns;
}

static uint64_t
now_ns(const struct eng_runtime *rt)
{
	return eng_clock_ns(&rt->clock, rte_rdtsc());
}

/* Active time of a flow: established -> last goodput progress. */
static uint64_t
active_ns(const struct eng_flow_snap *s)
{
	return s->last_ns > s->start_ns && s->start_ns != 0 ? s->last_ns - s->start_ns : 0;
}

void
eng_flow_stats_period(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	uint64_t now = now_ns(rt);
	unsigned int i;

	flow_tel_rt = rt;
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		struct eng_flow_snap s;
		uint64_t b, g, dt;

		if (eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		b = flow_bytes(fc, &s);
		g = s.st.goodput_bytes;
		dt = flow_prev[i].ns ? now - flow_prev[i].ns : 0;
		printf("  flow %-8s %-8s %-11s thr %8.1f goodput %8.1f Mbit/s | blocks sent %" PRIu64
		       " acked %" PRIu64 " decoded %" PRIu64 " | dec-fail %" PRIu64
		       " top-ups %" PRIu64 " | loss %.2f%% red %u win %u/%u\n",
				fc->name, role_str(fc), dfcp_state_str(s.state),
				mbps(b - flow_prev[i].bytes, dt), mbps(g - flow_prev[i].goodput, dt),
				s.st.blocks_sent, s.st.blocks_acked, s.st.blocks_decoded,
				s.st.decode_failures, s.st.topups, s.st.loss_ppm / 1e4,
				s.st.redundancy, s.st.window_used, s.st.window);
		flow_prev[i].ns = now;
		flow_prev[i].bytes = b;
		flow_prev[i].goodput = g;
	}
	fflush(stdout);
}

/* Jain's index of the flows labelled `bn`: x = goodput / weight. */
static double
jain(struct eng_runtime *rt, const char *bn, unsigned int *n_out)
{
	const struct eng_config *cfg = rt->cfg;
	double sum = 0, sq = 0;
	unsigned int i, n = 0;

	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		struct eng_flow_snap s;
		double x;

		if (strcmp(fc->bottleneck, bn) != 0 || eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		x = mbps(s.st.goodput_bytes, active_ns(&s)) / fc->weight;
		sum += x;
		sq += x * x;
		n++;
	}
	*n_out = n;
	return n == 0 || sq == 0 ? 0.0 : sum * sum / (n * sq);
}

/* First flow index of each distinct non-empty bottleneck label. */
static int
bottleneck_first(const struct eng_config *cfg, unsigned int i)
{
	unsigned int j;

	if (cfg->flows[i].bottleneck[0] == '\0')
		return 0;
	for (j = 0; j < i; j++)
		if (strcmp(cfg->flows[j].bottleneck, cfg->flows[i].bottleneck) == 0)
			return 0;
	return 1;
}

void
eng_flow_stats_summary(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j;

	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		struct eng_flow_snap s;

		if (eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		printf("  flow %s (%s, task %s): %s | goodput %" PRIu64 " bytes in %.3f s = %.1f "
		       "Mbit/s, throughput %.1f Mbit/s | blocks sent %" PRIu64 " acked %" PRIu64
		       " decoded %" PRIu64 " first-pass %" PRIu64 " | dec-fail %" PRIu64
		       " top-ups %" PRIu64 " (%" PRIu64 " symbols) timeouts %" PRIu64
		       " | loss %.2f%% redundancy %u window %u",
				fc->name, role_str(fc), cfg->tasks[fc->task_idx].name,
				dfcp_state_str(s.state), s.st.goodput_bytes, active_ns(&s) / 1e9,
				mbps(s.st.goodput_bytes, active_ns(&s)),
				mbps(flow_bytes(fc, &s), active_ns(&s)), s.st.blocks_sent,
				s.st.blocks_acked, s.st.blocks_decoded, s.st.blocks_first_pass,
				s.st.decode_failures, s.st.topups, s.st.topup_syms, s.st.timeouts,
				s.st.loss_ppm / 1e4, s.st.redundancy, s.st.window);
		if (fc->role == ENG_FLOW_RECEIVER && fc->verify)
			printf(" | verify: %s (%" PRIu64 " bad bytes, %" PRIu64 " order errors)",
					s.bad_bytes || s.order_errors ? "FAILED" : "ok", s.bad_bytes,
					s.order_errors);
		printf("\n");
		for (j = 1; j < DFCP_E_MAX; j++)
			if (s.st.drops[j] != 0)
				printf("    dropped %s: %" PRIu64 "\n", dfcp_err_str((int)j),
						s.st.drops[j]);
	}
	for (i = 0; i < cfg->nb_tasks; i++) {
		uint64_t drops[DFCP_E_MAX], seg;

		if (cfg->tasks[i].ops != &eng_task_dfcp)
			continue;
		eng_dfcp_task_drops(&cfg->tasks[i], drops, &seg);
		for (j = 1; j < DFCP_E_MAX; j++)
			if (drops[j] != 0)
				printf("  task %s: frames for no flow, %s: %" PRIu64 "\n",
						cfg->tasks[i].name, dfcp_err_str((int)j), drops[j]);
		if (seg != 0)
			printf("  task %s: multi-segment frames dropped: %" PRIu64 "\n",
					cfg->tasks[i].name, seg);
	}
	/* the closing lines: each flow's goodput, Jain's index per bottleneck */
	for (i = 0; i < cfg->nb_flows; i++) {
		struct eng_flow_snap s;

		if (eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		printf("flow %s goodput: %.1f Mbit/s\n", cfg->flows[i].name,
				mbps(s.st.goodput_bytes, active_ns(&s)));
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		unsigned int n;
		double J;

		if (!bottleneck_first(cfg, i))
			continue;
		J = jain(rt, cfg->flows[i].bottleneck, &n);
		printf("Jain's fairness index (bottleneck %s, %u flows): %.4f\n",
				cfg->flows[i].bottleneck, n, J);
	}
	fflush(stdout);
}

static void
json_drops(FILE *f, const uint64_t *drops)
{
	unsigned int j, k = 0;

	fprintf(f, "{");
	for (j = 1; j < DFCP_E_MAX; j++)
		if (drops[j] != 0)
			fprintf(f, "%s\"%s\": %" PRIu64, k++ ? ", " : "", dfcp_err_str((int)j),
					drops[j]);
	fprintf(f, "}");
}

void
eng_flow_stats_json(struct eng_runtime *rt, FILE *f)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, k;

	fprintf(f, ",\n  \"flows\": [");
	for (i = 0, k = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		struct eng_flow_snap s;
		const struct dfcp_stats *st = &s.st;

		if (eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		fprintf(f, "%s\n    {\"name\": \"%s\", \"role\": \"%s\", \"task\": \"%s\", "
			   "\"state\": \"%s\", \"close_reason\": %d, \"done\": %s, \"weight\": %u, "
			   "\"bottleneck\": \"%s\", \"active_s\": %.6f, \"goodput_mbps\": %.3f, "
			   "\"throughput_mbps\": %.3f, \"goodput_bytes\": %" PRIu64
			   ", \"sink_bytes\": %" PRIu64 ", \"bad_bytes\": %" PRIu64
			   ", \"order_errors\": %" PRIu64 ", \"tx_packets\": %" PRIu64
			   ", \"tx_bytes\": %" PRIu64 ", \"rx_packets\": %" PRIu64
			   ", \"rx_bytes\": %" PRIu64 ", \"tx_data_packets\": %" PRIu64
			   ", \"rx_data_packets\": %" PRIu64 ", \"blocks_sent\": %" PRIu64
			   ", \"blocks_acked\": %" PRIu64 ", \"blocks_decoded\": %" PRIu64
			   ", \"blocks_first_pass\": %" PRIu64 ", \"blocks_lost\": %" PRIu64
			   ", \"decode_failures\": %" PRIu64 ", \"topups\": %" PRIu64
			   ", \"topup_symbols\": %" PRIu64 ", \"timeouts\": %" PRIu64
			   ", \"short_reports\": %" PRIu64 ", \"retransmits\": %" PRIu64
			   ", \"loss_ppm\": %u, \"redundancy\": %u, \"window\": %u"
			   ", \"window_used\": %u, \"srtt_ns\": %" PRIu64 ", \"tx_dropped\": %" PRIu64
			   ", \"connections\": %u, \"drops\": ",
				k++ ? "," : "", fc->name, role_str(fc), cfg->tasks[fc->task_idx].name,
				dfcp_state_str(s.state), s.close_reason, s.done ? "true" : "false",
				fc->weight, fc->bottleneck, active_ns(&s) / 1e9,
				mbps(st->goodput_bytes, active_ns(&s)),
				mbps(flow_bytes(fc, &s), active_ns(&s)), st->goodput_bytes, s.sink_bytes,
				s.bad_bytes, s.order_errors, st->tx_pkts, st->tx_bytes, st->rx_pkts,
				st->rx_bytes, st->tx_data_pkts, st->rx_data_pkts, st->blocks_sent,
				st->blocks_acked, st->blocks_decoded, st->blocks_first_pass,
				st->blocks_lost, st->decode_failures, st->topups, st->topup_syms,
				st->timeouts, st->short_reports, st->retransmits, st->loss_ppm,
				st->redundancy, st->window, st->window_used, st->srtt_ns, s.tx_dropped,
				s.conns);
		json_drops(f, st->drops);
		eng_lat_flow_json(f, i); /* , "block_latency_ns": {...} (senders) */
		fprintf(f, "}");
	}
	fprintf(f, "\n  ],\n  \"jain\": [");
	for (i = 0, k = 0; i < cfg->nb_flows; i++) {
		unsigned int n, j, m = 0;
		double J;

		if (!bottleneck_first(cfg, i))
			continue;
		J = jain(rt, cfg->flows[i].bottleneck, &n);
		fprintf(f, "%s\n    {\"bottleneck\": \"%s\", \"index\": %.6f, \"flows\": [",
				k++ ? "," : "", cfg->flows[i].bottleneck, J);
		for (j = 0; j < cfg->nb_flows; j++)
			if (strcmp(cfg->flows[j].bottleneck, cfg->flows[i].bottleneck) == 0)
				fprintf(f, "%s\"%s\"", m++ ? ", " : "", cfg->flows[j].name);
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ],\n  \"dfcp_drops\": {");
	for (i = 0, k = 0; i < cfg->nb_tasks; i++) {
		uint64_t drops[DFCP_E_MAX], seg;

		if (cfg->tasks[i].ops != &eng_task_dfcp)
			continue;
		eng_dfcp_task_drops(&cfg->tasks[i], drops, &seg);
		drops[0] = 0;
		fprintf(f, "%s\"%s\": ", k++ ? ", " : "", cfg->tasks[i].name);
		json_drops(f, drops);
	}
	fprintf(f, "},\n  \"pools\": [");
	for (i = 0, k = 0; i < RTE_MAX_NUMA_NODES; i++) {
		const struct rte_mempool *mp = rt->pools[i];
		unsigned int avail;

		if (mp == NULL)
			continue;
		avail = rte_mempool_avail_count(mp);
		fprintf(f, "%s\n    {\"name\": \"%s\", \"socket\": %u, \"size\": %u, \"avail\": %u, "
			   "\"in_use\": %u}",
				k++ ? "," : "", mp->name, i, mp->size, avail, mp->size - avail);
	}
	fprintf(f, "\n  ]");
}

int
eng_flow_telemetry(const char *cmd, const char *params, struct rte_tel_data *d)
{
	struct eng_runtime *rt = flow_tel_rt;
	unsigned int i;

	RTE_SET_USED(cmd);
	if (rt == NULL)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	for (i = 0; i < rt->cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &rt->cfg->flows[i];
		struct rte_tel_data *x;
		struct eng_flow_snap s;

		if (eng_dfcp_flow_snap(rt, i, &s) < 0)
			continue;
		/* "/dfcp/flows,NAME": that flow only (obs.h; all flows may not fit in 16 KiB) */
		if (params != NULL && params[0] != '\0' && strcmp(params, fc->name) != 0)
			continue;
		x = rte_tel_data_alloc();
		if (x == NULL)
			return -ENOMEM;
		rte_tel_data_start_dict(x);
		rte_tel_data_add_dict_string(x, "role", role_str(fc));
		rte_tel_data_add_dict_string(x, "state", dfcp_state_str(s.state));
		rte_tel_data_add_dict_u64(x, "goodput_bytes", s.st.goodput_bytes);
		rte_tel_data_add_dict_u64(x, "goodput_kbps",
				(uint64_t)(mbps(s.st.goodput_bytes, active_ns(&s)) * 1000));
		rte_tel_data_add_dict_u64(x, "tx_packets", s.st.tx_pkts);
		rte_tel_data_add_dict_u64(x, "rx_packets", s.st.rx_pkts);
		rte_tel_data_add_dict_u64(x, "blocks_sent", s.st.blocks_sent);
		rte_tel_data_add_dict_u64(x, "blocks_acked", s.st.blocks_acked);
		rte_tel_data_add_dict_u64(x, "blocks_decoded", s.st.blocks_decoded);
		rte_tel_data_add_dict_u64(x, "decode_failures", s.st.decode_failures);
		rte_tel_data_add_dict_u64(x, "topups", s.st.topups);
		rte_tel_data_add_dict_u64(x, "loss_ppm", s.st.loss_ppm);
		rte_tel_data_add_dict_u64(x, "redundancy", s.st.redundancy);
		rte_tel_data_add_dict_u64(x, "window", s.st.window);
		rte_tel_data_add_dict_u64(x, "window_used", s.st.window_used);
		rte_tel_data_add_dict_u64(x, "bad_bytes", s.bad_bytes);
		eng_lat_flow_tel(x, i); /* block_latency_ns_p50 ... (senders) */
		rte_tel_data_add_dict_container(d, fc->name, x, 0);
	}
	return 0;
}

void
eng_flow_telemetry_set(struct eng_runtime *rt)
{
	flow_tel_rt = rt;
}
