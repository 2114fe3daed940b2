/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics of the tcp tasks (task_tcp.c): one line per connection in the
 * periodic block, the final summary, and the "tcp" / "tcp_tasks" arrays of
 * the summary JSON (doc/tcp.md, "In the engine"). Main thread only; reads
 * the snapshots the lcores publish every 10 ms.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "kinds/dfcp/flow.h"
#include "kinds/tcp/tcp_task.h"

static const char *const cap_modes[] = {"off", "old", "coordinated"};
static const char *const close_reasons[] = {"none", "done", "syn-timeout", "timeout",
	"reset", "abort"};

/* Interval goodput of the periodic block: previous byte count and time. */
static uint64_t last_bytes[ENG_MAX_TASKS][ENG_TCP_MAX_FLOWS];
static uint64_t last_ns[ENG_MAX_TASKS][ENG_TCP_MAX_FLOWS];

static int
is_tcp(const struct eng_task *t)
{
	return t->ops == &eng_task_tcp && t->priv != NULL;
}

static uint64_t
flow_bytes(const struct eng_tcp_conf *tc, const struct eng_tcp_snap *s)
{
	return tc->role == ENG_TCP_SENDER ? s->st.bytes_acked : s->st.bytes_delivered;
}

/* Average goodput from ESTABLISHED to the end of the transfer (or now). */
static double
flow_goodput_mbps(const struct eng_tcp_conf *tc, const struct eng_tcp_snap *s)
{
	uint64_t end = s->done_ns ? s->done_ns : s->snap_ns;

	if (s->st.established_ns == 0 || end <= s->st.established_ns)
		return 0.0;
	return (double)flow_bytes(tc, s) * 8e3 / (double)(end - s->st.established_ns);
}

static double
segs(uint32_t bytes, uint32_t mss)
{
	if (bytes >= 0x7fffffff)
		return 0.0;
	return mss ? (double)bytes / mss : 0.0;
}

void
eng_tcp_stats_period(struct eng_runtime *rt)
{
	unsigned int i, j;

	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		const struct eng_tcp_conf *tc = t->conf;
		unsigned int n;

		if (!is_tcp(t))
			continue;
		n = RTE_MIN(eng_tcp_task_flows(t), (unsigned int)ENG_TCP_MAX_FLOWS);
		for (j = 0; j < n; j++) {
			struct eng_tcp_snap s;
			uint64_t b, dt;
			double mbps = 0.0;

			if (eng_tcp_flow_snap(t, j, &s) < 0 || !s.used)
				continue;
			b = flow_bytes(tc, &s);
			dt = s.snap_ns - last_ns[i][j];
			if (last_ns[i][j] != 0 && s.snap_ns > last_ns[i][j])
				mbps = (double)(b - last_bytes[i][j]) * 8e3 / (double)dt;
			last_bytes[i][j] = b;
			last_ns[i][j] = s.snap_ns;
			printf("  tcp %s.%u %-11s %s", t->name, j, tcp_state_str(s.state),
					tc->role == ENG_TCP_SENDER ? eng_tcp_conn_conf(tc, j)->cc :
					"receiver");
			if (tc->role == ENG_TCP_SENDER)
				printf(" cwnd %.1f ssthresh %.1f seg", segs(s.st.cwnd, s.st.mss),
						segs(s.st.ssthresh, s.st.mss));
			printf(" srtt %.2f ms rtt min/avg %.2f/%.2f ms retrans %" PRIu64
			       " timeouts %" PRIu64 " goodput %.2f Mbit/s (%" PRIu64 " B)\n",
					(double)s.st.srtt_ns / 1e6, (double)s.st.rtt_min_ns / 1e6,
					(double)s.st.rtt_avg_ns / 1e6, s.st.retrans_pkts, s.st.timeouts,
					mbps, b);
		}
	}
}

void
eng_tcp_stats_summary(struct eng_runtime *rt)
{
	unsigned int i, j;

	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		const struct eng_tcp_conf *tc = t->conf;
		struct tcp_cap_stats cs;
		unsigned int n;

		if (!is_tcp(t))
			continue;
		n = eng_tcp_task_flows(t);
		for (j = 0; j < n; j++) {
			struct eng_tcp_snap s;

			if (eng_tcp_flow_snap(t, j, &s) < 0 || !s.used)
				continue;
			printf("  tcp flow %s.%u (%s%s): %s%s, %" PRIu64 " B, goodput %.2f Mbit/s,"
			       " cwnd %.1f ssthresh %.1f seg, rtt min/avg %.2f/%.2f ms, retrans %" PRIu64
			       " (%" PRIu64 " recoveries, %" PRIu64 " timeouts)",
					t->name, j, tc->role == ENG_TCP_SENDER ? "sender, " : "receiver",
					tc->role == ENG_TCP_SENDER ? eng_tcp_conn_conf(tc, j)->cc : "",
					tcp_state_str(s.state),
					s.done ? " done" : "",
					flow_bytes(tc, &s), flow_goodput_mbps(tc, &s),
					segs(s.st.cwnd, s.st.mss), segs(s.st.ssthresh, s.st.mss),
					(double)s.st.rtt_min_ns / 1e6, (double)s.st.rtt_avg_ns / 1e6,
					s.st.retrans_pkts, s.st.fast_retrans, s.st.timeouts);
			if (tc->role == ENG_TCP_RECEIVER && tc->verify)
				printf(", verify bad %" PRIu64 " order %" PRIu64, s.bad_bytes,
						s.order_errors);
			printf("\n");
		}
		if (eng_tcp_cap_snap(t, &cs) == 0)
			printf("  tcp task %s cap policy %s: %" PRIu64 " evaluations, %" PRIu64
			       " triggers, %u capped, last cap %u seg\n", t->name,
					cap_modes[tc->cap.mode], cs.evaluations, cs.triggers, cs.capped,
					cs.last_cap_segs);
	}
}

static void
json_flow(FILE *f, const struct eng_task *t, unsigned int j, const struct eng_tcp_snap *s)
{
	const struct eng_tcp_conf *tc = t->conf;
	const struct eng_tcp_conn_conf *k = eng_tcp_conn_conf(tc, j);
	const struct tcp_stats *st = &s->st;
	int cr = s->close_reason;

	fprintf(f, "\n    {\"name\": \"%s.%u\", \"task\": \"%s\", \"role\": \"%s\", \"cc\": \"%s\","
			" \"tick_us\": %.3f, \"rto_min_us\": %.3f, \"init_cwnd\": %u,"
			" \"local_port\": %u, \"remote_ip\": \"%u.%u.%u.%u\", \"remote_port\": %u,"
			" \"state\": \"%s\", \"close_reason\": \"%s\", \"done\": %s,",
			t->name, j, t->name, tc->role == ENG_TCP_SENDER ? "sender" : "receiver", k->cc,
			(double)k->tick_ns / 1e3, (double)k->rto_min_ns / 1e3, k->init_cwnd,
			s->local_port, s->remote_ip >> 24, (s->remote_ip >> 16) & 0xff,
			(s->remote_ip >> 8) & 0xff, s->remote_ip & 0xff, s->remote_port,
			tcp_state_str(s->state),
			cr >= 0 && cr < (int)RTE_DIM(close_reasons) ? close_reasons[cr] : "?",
			s->done ? "true" : "false");
	fprintf(f, " \"goodput_bytes\": %" PRIu64 ", \"goodput_mbps\": %.6f,"
			" \"established_ns\": %" PRIu64 ", \"done_ns\": %" PRIu64 ","
			" \"bytes_acked\": %" PRIu64 ", \"bytes_delivered\": %" PRIu64 ","
			" \"sink_bytes\": %" PRIu64 ", \"bad_bytes\": %" PRIu64 ", \"order_errors\": %" PRIu64
			",",
			flow_bytes(tc, s), flow_goodput_mbps(tc, s),
			st->established_ns ? st->established_ns - eng_tcp_run_start_ns(t) : 0,
			s->done_ns ? s->done_ns - eng_tcp_run_start_ns(t) : 0,
			st->bytes_acked, st->bytes_delivered, s->sink_bytes, s->bad_bytes,
			s->order_errors);
	fprintf(f, " \"mss\": %u, \"cwnd\": %u, \"ssthresh\": %u, \"cwnd_seg\": %.3f,"
			" \"ssthresh_seg\": %.3f, \"flight\": %u, \"snd_wnd\": %u, \"rcv_wnd\": %u,"
			" \"srtt_us\": %.3f, \"rttvar_us\": %.3f, \"rto_us\": %.3f,"
			" \"rtt_min_us\": %.3f, \"rtt_avg_us\": %.3f, \"rtt_samples\": %" PRIu64 ",",
			st->mss, st->cwnd, st->ssthresh, segs(st->cwnd, st->mss),
			segs(st->ssthresh, st->mss), st->flight, st->snd_wnd, st->rcv_wnd,
			(double)st->srtt_ns / 1e3, (double)st->rttvar_ns / 1e3, (double)st->rto_ns / 1e3,
			(double)st->rtt_min_ns / 1e3, (double)st->rtt_avg_ns / 1e3, st->rtt_samples);
	fprintf(f, " \"tx_pkts\": %" PRIu64 ", \"tx_bytes\": %" PRIu64 ", \"rx_pkts\": %" PRIu64
			", \"rx_bytes\": %" PRIu64 ", \"tx_data_pkts\": %" PRIu64
			", \"rx_data_pkts\": %" PRIu64 ", \"retrans_pkts\": %" PRIu64
			", \"retrans_bytes\": %" PRIu64 ", \"fast_retrans\": %" PRIu64
			", \"timeouts\": %" PRIu64 ", \"dupacks_rx\": %" PRIu64 ", \"acks_tx\": %" PRIu64
			", \"pair_acks_tx\": %" PRIu64 ", \"pair_acks_rx\": %" PRIu64
			", \"sack_blocks_rx\": %" PRIu64 ", \"sack_blocks_tx\": %" PRIu64
			", \"ooo_pkts\": %" PRIu64 ", \"dup_data_pkts\": %" PRIu64
			", \"rst_rx\": %" PRIu64 ", \"rst_tx\": %" PRIu64
			", \"challenge_acks\": %" PRIu64 ", \"zero_window_probes\": %" PRIu64
			", \"bw_est_bps\": %" PRIu64 ", \"rack\": %s, \"rack_marked\": %" PRIu64
			", \"tlp_probes\": %" PRIu64 ", \"tlp_recoveries\": %" PRIu64
			", \"trace_points\": %" PRIu64 ", \"trace_dropped\": %" PRIu64 "}",
			st->tx_pkts, st->tx_bytes, st->rx_pkts, st->rx_bytes, st->tx_data_pkts,
			st->rx_data_pkts, st->retrans_pkts, st->retrans_bytes, st->fast_retrans,
			st->timeouts, st->dupacks_rx, st->acks_tx, st->pair_acks_tx, st->pair_acks_rx,
			st->sack_blocks_rx, st->sack_blocks_tx, st->ooo_pkts, st->dup_data_pkts,
			st->rst_rx, st->rst_tx, st->challenge_acks, st->zero_window_probes,
			st->bw_est_bps, st->rack ? "true" : "false", st->rack_marked, st->tlp_probes,
			st->tlp_recoveries, s->trace_points, s->trace_dropped);
}

/* Jain's fairness index over the goodputs of a task's connections. */
static double
task_jain(const struct eng_task *t)
{
	const struct eng_tcp_conf *tc = t->conf;
	double sum = 0.0, sq = 0.0;
	unsigned int j, n = 0;

	for (j = 0; j < eng_tcp_task_flows(t); j++) {
		struct eng_tcp_snap s;
		double x;

		if (eng_tcp_flow_snap(t, j, &s) < 0 || !s.used)
			continue;
		x = flow_goodput_mbps(tc, &s);
		sum += x;
		sq += x * x;
		n++;
	}
	return n == 0 || sq == 0.0 ? 0.0 : sum * sum / (n * sq);
}

void
eng_tcp_stats_json(struct eng_runtime *rt, FILE *f)
{
	unsigned int i, j, k = 0;

	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (is_tcp(&rt->cfg->tasks[i]))
			break;
	if (i == rt->cfg->nb_tasks)
		return;
	fprintf(f, ",\n  \"tcp\": [");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];

		if (!is_tcp(t))
			continue;
		for (j = 0; j < eng_tcp_task_flows(t); j++) {
			struct eng_tcp_snap s;

			if (eng_tcp_flow_snap(t, j, &s) < 0 || !s.used)
				continue;
			if (k++)
				fputc(',', f);
			json_flow(f, t, j, &s);
		}
	}
	fprintf(f, "\n  ],\n  \"tcp_tasks\": [");
	k = 0;
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &rt->cfg->tasks[i];
		const struct eng_tcp_conf *tc = t->conf;
		struct tcp_ep_stats es;
		struct tcp_cap_stats cs;
		unsigned int e, m = 0;

		if (!is_tcp(t))
			continue;
		eng_tcp_ep_stats(t, &es);
		fprintf(f, "%s\n    {\"name\": \"%s\", \"role\": \"%s\", \"cc\": \"", k++ ? "," : "",
				t->name, tc->role == ENG_TCP_SENDER ? "sender" : "receiver");
		for (e = 0; e < tc->nb_conn_values; e++)	/* per connection, repeats once */
			if (e == 0 || strcmp(tc->conn[e].cc, tc->conn[e - 1].cc) != 0)
				fprintf(f, "%s%s", e ? ", " : "", tc->conn[e].cc);
		fprintf(f, "\", \"done\": %s, \"jain\": %.6f, \"cap_policy\": \"%s\"",
				eng_tcp_task_done(t) ? "true" : "false", task_jain(t),
				cap_modes[tc->cap.mode]);
		if (eng_tcp_cap_snap(t, &cs) == 0)
			fprintf(f, ", \"cap\": {\"evaluations\": %" PRIu64 ", \"triggers\": %" PRIu64
					", \"active\": %u, \"capped\": %u, \"last_cap_segs\": %u}",
					cs.evaluations, cs.triggers, cs.active, cs.capped, cs.last_cap_segs);
		if (tc->cwnd_trace[0] != '\0')
			fprintf(f, ", \"cwnd_trace\": \"%s\"", tc->cwnd_trace);
		fprintf(f, ", \"rst_sent\": %" PRIu64 ", \"syn_accepted\": %" PRIu64
				", \"arp_replies\": %" PRIu64 ", \"drops\": {", es.rst_sent,
				es.syn_accepted, es.arp_replies);
		for (e = 1; e < TCP_E_MAX; e++)
			if (es.drops[e] + es.conn_drops[e] != 0)
				fprintf(f, "%s\"%s\": %" PRIu64, m++ ? ", " : "", tcp_err_str((int)e),
						es.drops[e] + es.conn_drops[e]);
		fprintf(f, "}}");
	}
	fprintf(f, "\n  ]");
}
