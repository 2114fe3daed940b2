/* SPDX-License-Identifier: BSD-3-Clause */
/* Port and task statistics: periodic blocks, final summary, JSON summary. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "kinds/dfcp/flow.h"
#include "kinds/route/route.h"
#include "kinds/tcp/tcp_task.h"
#include "obs/obs.h"
#include "obs/stats.h"

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

static void
port_block(struct eng_runtime *rt, unsigned int i, const struct eng_port_stats *s,
		const struct eng_port_stats *prev, uint64_t cycles, const char *title)
{
	uint64_t rxp = s->rx_packets - prev->rx_packets, txp = s->tx_packets - prev->tx_packets;
	uint64_t rxb = s->rx_bytes - prev->rx_bytes, txb = s->tx_bytes - prev->tx_bytes;

	printf("  ---- %s port %s (ethdev %u) ----\n", title, rt->cfg->ports[i].name,
			rt->ports[i].port_id);
	printf("  RX-packets: %-12" PRIu64 " RX-pps: %-10.0f RX-Mbit/s: %-9.1f RX-missed: %-8" PRIu64
	       " RX-errors: %-6" PRIu64 " RX-nombuf: %" PRIu64 "\n",
			s->rx_packets, per_s(rxp, cycles, rt->clock.hz),
			per_s(rxb, cycles, rt->clock.hz) * 8 / 1e6, s->rx_missed, s->rx_errors,
			s->rx_nombuf);
	printf("  TX-packets: %-12" PRIu64 " TX-pps: %-10.0f TX-Mbit/s: %-9.1f TX-errors: %" PRIu64
	       "\n",
			s->tx_packets, per_s(txp, cycles, rt->clock.hz),
			per_s(txb, cycles, rt->clock.hz) * 8 / 1e6, s->tx_errors);
}

void
eng_stats_period(struct eng_runtime *rt)
{
	uint64_t now = rte_rdtsc();
	unsigned int i;

	printf("== stats at %.1f s ==\n", (double)(now - rt->start_tsc) / (double)rt->clock.hz);
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port *p = &rt->ports[i];
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		port_block(rt, i, &s, &p->last, now - p->last_tsc, "");
		p->last = s;
		p->last_tsc = now;
	}
	eng_live_period(rt, 1); /* flows: totals + top N by goodput (stats_live.c) */
	eng_route_stats_period(rt);
	eng_tcp_stats_period(rt);
	eng_lcore_stats_period(rt);
	fflush(stdout);
}

static uint64_t
run_cycles(const struct eng_runtime *rt)
{
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc();

	return end > rt->start_tsc ? end - rt->start_tsc : 0;
}

void
eng_stats_summary(struct eng_runtime *rt)
{
	static const struct eng_port_stats zero;
	uint64_t cyc = run_cycles(rt);
	unsigned int i;

	printf("== summary: %.3f s ==\n", (double)cyc / (double)rt->clock.hz);
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		port_block(rt, i, &s, &zero, cyc, "total");
	}
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_task_stats ts;

		t->ops->stats(t, &ts);
		printf("  task %s (%s): tx %" PRIu64 " dropped %" PRIu64 " | rx %" PRIu64
		       " valid %" PRIu64 " bad %" PRIu64 " other %" PRIu64 " lost %" PRIu64
		       " reordered %" PRIu64 " | no-mbuf %" PRIu64,
				t->name, t->ops->name, ts.tx_packets, ts.tx_dropped, ts.rx_packets,
				ts.rx_valid, ts.rx_bad, ts.rx_other, ts.seq_lost, ts.seq_reordered,
				ts.no_mbuf);
		if (ts.lat_samples)
			printf(" | latency min/avg/max %" PRIu64 "/%" PRIu64 "/%" PRIu64 " ns",
					ts.lat_min_ns, ts.lat_avg_ns, ts.lat_max_ns);
		printf("\n");
	}
	eng_lcore_stats_summary(rt);
	eng_route_stats_summary(rt);
	eng_flow_stats_summary(rt); /* last: ends with goodputs and Jain's index */
	eng_tcp_stats_summary(rt);
	fflush(stdout);
}

static void
json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

int
eng_stats_json(struct eng_runtime *rt, const char *path)
{
	uint64_t cyc = run_cycles(rt);
	unsigned int i;
	FILE *f;

	f = fopen(path, "w");
	if (f == NULL) {
		ENG_LOG(ERR, stats, "cannot write %s: %s", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "{\n  \"config\": ");
	json_str(f, rt->cfg->file);
	fprintf(f, ",\n  \"duration_s\": %.6f,\n  \"ports\": [", (double)cyc / (double)rt->clock.hz);
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port_stats s;

		eng_port_stats_read(rt, i, &s);
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, rt->cfg->ports[i].name);
		fprintf(f, ", \"device\": ");
		json_str(f, rt->cfg->ports[i].device);
		fprintf(f,
				", \"port_id\": %u, \"socket\": %d,"
				" \"rx_packets\": %" PRIu64 ", \"tx_packets\": %" PRIu64
				", \"rx_bytes\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
				", \"rx_missed\": %" PRIu64 ", \"rx_errors\": %" PRIu64
				", \"tx_errors\": %" PRIu64 ", \"rx_nombuf\": %" PRIu64
				", \"rx_pps\": %.1f, \"tx_pps\": %.1f"
				", \"rx_mbps\": %.3f, \"tx_mbps\": %.3f}",
				rt->ports[i].port_id, rt->ports[i].socket, s.rx_packets, s.tx_packets,
				s.rx_bytes, s.tx_bytes, s.rx_missed, s.rx_errors, s.tx_errors,
				s.rx_nombuf, per_s(s.rx_packets, cyc, rt->clock.hz),
				per_s(s.tx_packets, cyc, rt->clock.hz),
				per_s(s.rx_bytes, cyc, rt->clock.hz) * 8 / 1e6,
				per_s(s.tx_bytes, cyc, rt->clock.hz) * 8 / 1e6);
	}
	fprintf(f, "\n  ],\n  \"tasks\": [");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		struct eng_task_stats ts;

		t->ops->stats(t, &ts);
		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		json_str(f, t->name);
		fprintf(f, ", \"kind\": ");
		json_str(f, t->ops->name);
		fprintf(f,
				", \"lcore\": %u, \"tx_packets\": %" PRIu64 ", \"tx_bytes\": %" PRIu64
				", \"tx_dropped\": %" PRIu64 ", \"rx_packets\": %" PRIu64
				", \"rx_bytes\": %" PRIu64 ", \"rx_valid\": %" PRIu64
				", \"rx_bad\": %" PRIu64 ", \"rx_other\": %" PRIu64
				", \"seq_lost\": %" PRIu64 ", \"seq_reordered\": %" PRIu64
				", \"no_mbuf\": %" PRIu64 ", \"lat_samples\": %" PRIu64
				", \"lat_min_ns\": %" PRIu64 ", \"lat_avg_ns\": %" PRIu64
				", \"lat_max_ns\": %" PRIu64 "}",
				t->lcore_id, ts.tx_packets, ts.tx_bytes, ts.tx_dropped, ts.rx_packets,
				ts.rx_bytes, ts.rx_valid, ts.rx_bad, ts.rx_other, ts.seq_lost,
				ts.seq_reordered, ts.no_mbuf, ts.lat_samples, ts.lat_min_ns,
				ts.lat_avg_ns, ts.lat_max_ns);
	}
	fprintf(f, "\n  ]");
	eng_flow_stats_json(rt, f); /* flows, jain, dfcp_drops, pools */
	eng_route_stats_json(rt, f); /* pipes, sched */
	eng_tcp_stats_json(rt, f); /* tcp, tcp_tasks */
	eng_lcore_stats_json(rt, f); /* lcores (obs.h) */
	eng_capture_json(rt, f); /* captures */
	fprintf(f, "\n}\n");
	if (fclose(f) != 0)
		return -errno;
	return 0;
}
