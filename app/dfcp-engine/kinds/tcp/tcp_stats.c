/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Statistics of the tcp tasks (the tcp kind's ops->report): one line per
 * connection in the periodic block and the summary, a line per task, and
 * the "tcp" / "tcp_tasks" members of the summary JSON (doc/tcp.md, "In the
 * engine"). Main thread only; reads the snapshots the lcores publish every
 * 10 ms.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include "kinds/tcp/tcp_task.h"
#include "kinds/xport/xport.h"
#include "obs/obs.h"
#include "obs/out.h"

static const char *const cap_modes[] = {"off", "old", "coordinated"};
static const char *const close_reasons[] = {"none", "done", "syn-timeout", "timeout",
	"reset", "abort"};

/* A connection's snapshot, its settings and what is derived from them. */
struct conn_view {
	char name[ENG_NAME_LEN + 12];
	char remote_ip[16];
	const char *task, *role, *cc, *state, *close_reason, *fail;
	int done, completed, rack;
	double tick_us, rto_min_us, goodput_mbps;
	double warmup_s, warm_goodput;	/* after the warmup; -1: the transfer was shorter */
	double cwnd_seg, ssthresh_seg, srtt_us, rttvar_us, rto_us, rtt_min_us, rtt_avg_us;
	uint32_t init_cwnd, local_port, remote_port;
	uint64_t goodput_bytes, established_ns, done_ns;
	struct eng_tcp_snap s;
};

#define CV(field) offsetof(struct conn_view, field)
#define CS(field) (offsetof(struct conn_view, s) + offsetof(struct eng_tcp_snap, field))
#define CT(field) (CS(st) + offsetof(struct tcp_stats, field))
#define V_TJ (ENG_V_TEXT | ENG_V_JSON)
#define J ENG_V_JSON

static const struct eng_ctr conn_ctrs[] = {
	{"name", "", CV(name), ENG_CT_CHARS, 0, J, "the flow"},
	{"task", "", CV(task), ENG_CT_STR, 0, J, "the tcp task"},
	{"role", "", CV(role), ENG_CT_STR, 0, J | ENG_V_TEL, "sender or receiver"},
	{"cc", "", CV(cc), ENG_CT_STR, 0, 0, "congestion-control module"},
	{"tick_us", "us", CV(tick_us), ENG_CT_DBL, 3, J, "timer granularity"},
	{"rto_min_us", "us", CV(rto_min_us), ENG_CT_DBL, 3, J, "minimum RTO"},
	{"init_cwnd", "segs", CV(init_cwnd), ENG_CT_U32, 0, J, "initial window"},
	{"local_port", "", CV(local_port), ENG_CT_U32, 0, J, "local TCP port"},
	{"remote_ip", "", CV(remote_ip), ENG_CT_CHARS, 0, J, "peer address"},
	{"remote_port", "", CV(remote_port), ENG_CT_U32, 0, J, "peer TCP port"},
	{"state", "", CV(state), ENG_CT_STR, 0, 0, "TCP state"},
	{"close_reason", "", CV(close_reason), ENG_CT_STR, 0, J, "why it closed"},
	{"done", "", CV(done), ENG_CT_BOOL, 0, 0,
		"the transfer finished or gave up (kept for compatibility)"},
	{"completed", "", CV(completed), ENG_CT_BOOL, 0, J,
		"its goal reached (doc/config.md, \"Exit status\")"},
	{"failed", "", CV(fail), ENG_CT_STR, 0, J, "why the flow failed, \"\" if it did not"},
	{"goodput_bytes", "B", CV(goodput_bytes), ENG_CT_U64, 0, 0,
		"bytes acked (sender) or delivered (receiver)"},
	{"goodput_mbps", "Mbit/s", CV(goodput_mbps), ENG_CT_DBL, 6, V_TJ,
		"ESTABLISHED to the end of the transfer (periodic block: the last period)"},
	{"warmup_s", "s", CV(warmup_s), ENG_CT_DBL, 3, ENG_V_DATA,
		"first seconds of its transfer left out of goodput_mbps_after_warmup (warmup key)"},
	{"goodput_mbps_after_warmup", "Mbit/s", CV(warm_goodput), ENG_CT_DBL, 3, ENG_V_DATA,
		"goodput_mbps from the end of the warmup (-1: the transfer was shorter)"},
	{"established_ns", "ns", CV(established_ns), ENG_CT_U64, 0, J, "since the run started"},
	{"done_ns", "ns", CV(done_ns), ENG_CT_U64, 0, J, "since the run started, 0 = not done"},
	{"bytes_acked", "B", CT(bytes_acked), ENG_CT_U64, 0, J, "sender goodput"},
	{"bytes_delivered", "B", CT(bytes_delivered), ENG_CT_U64, 0, J, "receiver goodput"},
	{"sink_bytes", "B", CS(sink_bytes), ENG_CT_U64, 0, J, "bytes the sink took"},
	{"bad_bytes", "B", CS(bad_bytes), ENG_CT_U64, 0, J, "bytes a verifying sink found wrong"},
	{"order_errors", "", CS(order_errors), ENG_CT_U64, 0, J, "out-of-order deliveries"},
	{"arp_unsolicited", "", CS(arp_unsolicited), ENG_CT_U64, 0, J,
		"sender: ARP replies from its peer's address no request of ours asked for (ignored)"},
	{"arp_conflicts", "", CS(arp_conflicts), ENG_CT_U64, 0, J,
		"sender: ARP replies naming another MAC than the resolved or pinned one (ignored)"},
	{"mss", "B", CT(mss), ENG_CT_U32, 0, J, "negotiated MSS"},
	{"cwnd", "B", CT(cwnd), ENG_CT_U32, 0, J | ENG_V_TEL, "congestion window"},
	{"ssthresh", "B", CT(ssthresh), ENG_CT_U32, 0, J, "slow-start threshold"},
	{"cwnd_seg", "segs", CV(cwnd_seg), ENG_CT_DBL, 3, V_TJ, "cwnd / mss"},
	{"ssthresh_seg", "segs", CV(ssthresh_seg), ENG_CT_DBL, 3, V_TJ,
		"ssthresh / mss (0: infinite)"},
	{"flight", "B", CT(flight), ENG_CT_U32, 0, J, "bytes outstanding"},
	{"snd_wnd", "B", CT(snd_wnd), ENG_CT_U32, 0, J, "peer's window"},
	{"rcv_wnd", "B", CT(rcv_wnd), ENG_CT_U32, 0, J, "our window"},
	{"srtt_us", "us", CV(srtt_us), ENG_CT_DBL, 3, 0, "smoothed RTT"},
	{"rttvar_us", "us", CV(rttvar_us), ENG_CT_DBL, 3, J, "RTT variation"},
	{"rto_us", "us", CV(rto_us), ENG_CT_DBL, 3, J, "retransmission timeout"},
	{"rtt_min_us", "us", CV(rtt_min_us), ENG_CT_DBL, 3, V_TJ, "smallest RTT sample"},
	{"rtt_avg_us", "us", CV(rtt_avg_us), ENG_CT_DBL, 3, V_TJ, "mean RTT sample"},
	{"rtt_samples", "", CT(rtt_samples), ENG_CT_U64, 0, J, "RTT samples"},
	{"tx_pkts", "pkts", CT(tx_pkts), ENG_CT_U64, 0, J, "segments sent"},
	{"tx_bytes", "B", CT(tx_bytes), ENG_CT_U64, 0, J, "frame bytes sent"},
	{"rx_pkts", "pkts", CT(rx_pkts), ENG_CT_U64, 0, J, "segments received"},
	{"rx_bytes", "B", CT(rx_bytes), ENG_CT_U64, 0, J, "frame bytes received"},
	{"tx_data_pkts", "pkts", CT(tx_data_pkts), ENG_CT_U64, 0, J, "data segments sent"},
	{"rx_data_pkts", "pkts", CT(rx_data_pkts), ENG_CT_U64, 0, J, "data segments received"},
	{"retrans_pkts", "pkts", CT(retrans_pkts), ENG_CT_U64, 0, 0, "retransmitted segments"},
	{"retrans_bytes", "B", CT(retrans_bytes), ENG_CT_U64, 0, J, "their bytes"},
	{"fast_retrans", "", CT(fast_retrans), ENG_CT_U64, 0, V_TJ, "recovery episodes"},
	{"timeouts", "", CT(timeouts), ENG_CT_U64, 0, 0, "RTO expiries"},
	{"dupacks_rx", "", CT(dupacks_rx), ENG_CT_U64, 0, J, "duplicate ACKs received"},
	{"acks_tx", "", CT(acks_tx), ENG_CT_U64, 0, J, "ACKs sent"},
	{"pair_acks_tx", "", CT(pair_acks_tx), ENG_CT_U64, 0, J, "TCPW-C assistant ACKs sent"},
	{"pair_acks_rx", "", CT(pair_acks_rx), ENG_CT_U64, 0, J, "TCPW-C assistant ACKs received"},
	{"sack_blocks_rx", "", CT(sack_blocks_rx), ENG_CT_U64, 0, J, "SACK blocks received"},
	{"sack_blocks_tx", "", CT(sack_blocks_tx), ENG_CT_U64, 0, J, "SACK blocks sent"},
	{"ooo_pkts", "pkts", CT(ooo_pkts), ENG_CT_U64, 0, J, "received out of order"},
	{"dup_data_pkts", "pkts", CT(dup_data_pkts), ENG_CT_U64, 0, J, "received twice"},
	{"rst_rx", "", CT(rst_rx), ENG_CT_U64, 0, J, "RSTs received"},
	{"rst_tx", "", CT(rst_tx), ENG_CT_U64, 0, J, "RSTs sent"},
	{"challenge_acks", "", CT(challenge_acks), ENG_CT_U64, 0, J, "RFC 5961 challenge ACKs"},
	{"zero_window_probes", "", CT(zero_window_probes), ENG_CT_U64, 0, J, "window probes"},
	{"bw_est_bps", "bit/s", CT(bw_est_bps), ENG_CT_U64, 0, J, "Westwood / TCPW-C estimate"},
	{"rack", "", CV(rack), ENG_CT_BOOL, 0, J, "RACK-TLP in use"},
	{"rack_marked", "pkts", CT(rack_marked), ENG_CT_U64, 0, J, "segments RACK deemed lost"},
	{"tlp_probes", "", CT(tlp_probes), ENG_CT_U64, 0, J, "tail loss probes sent"},
	{"tlp_recoveries", "", CT(tlp_recoveries), ENG_CT_U64, 0, J, "losses the probes repaired"},
	{"dsack_rx", "", CT(dsack_rx), ENG_CT_U64, 0, J, "D-SACK blocks received (RFC 2883)"},
	{"dsack_tx", "", CT(dsack_tx), ENG_CT_U64, 0, J, "D-SACK blocks sent"},
	{"undos", "", CT(undos), ENG_CT_U64, 0, J, "spurious cwnd reductions undone"},
	{"trace_points", "", CS(trace_points), ENG_CT_U64, 0, J, "cwnd trace points kept"},
	{"trace_dropped", "", CS(trace_dropped), ENG_CT_U64, 0, J, "cwnd trace points dropped"},
};

/* A tcp task. */
struct task_view {
	const char *name, *role, *cap_policy;
	char cc[160];
	int done;
	double jain;
	struct tcp_ep_stats es;
};

#define TV(field) offsetof(struct task_view, field)
#define TE(field) (TV(es) + offsetof(struct tcp_ep_stats, field))

static const struct eng_ctr task_ctrs[] = {
	{"name", "", TV(name), ENG_CT_STR, 0, J, "the tcp task"},
	{"role", "", TV(role), ENG_CT_STR, 0, V_TJ, "sender or receiver"},
	{"cc", "", TV(cc), ENG_CT_CHARS, 0, V_TJ, "congestion control per connection"},
	{"done", "", TV(done), ENG_CT_BOOL, 0, V_TJ, "every connection finished"},
	{"jain", "", TV(jain), ENG_CT_DBL, 6, V_TJ, "Jain's index of its connections' goodputs"},
	{"cap_policy", "", TV(cap_policy), ENG_CT_STR, 0, V_TJ, "seed-002 cap policy"},
	{"rst_sent", "", TE(rst_sent), ENG_CT_U64, 0, V_TJ, "RSTs for unknown segments"},
	{"syn_accepted", "", TE(syn_accepted), ENG_CT_U64, 0, V_TJ,
		"connections accepted (handshakes completed)"},
	{"syn_rx", "", TE(syn_rx), ENG_CT_U64, 0, J, "SYNs answered with a SYN-ACK"},
	{"half_open", "", TE(half_open), ENG_CT_U64, 0, J, "half-open entries now"},
	{"half_open_evicted", "", TE(half_open_evicted), ENG_CT_U64, 0, J,
		"half-open entries evicted, the oldest first, for a SYN (table full)"},
	{"half_open_expired", "", TE(half_open_expired), ENG_CT_U64, 0, J,
		"half-open entries whose SYN-ACKs went unanswered"},
	{"syn_cookies_sent", "", TE(syn_cookies_sent), ENG_CT_U64, 0, J,
		"SYN-ACKs sent while the half-open table was full"},
	{"syn_cookies_ok", "", TE(syn_cookies_ok), ENG_CT_U64, 0, J,
		"handshakes completed by their SYN cookie (entry gone)"},
	{"syn_cookies_bad", "", TE(syn_cookies_bad), ENG_CT_U64, 0, J,
		"final ACKs with no entry and a forged or old cookie"},
	{"arp_replies", "", TE(arp_replies), ENG_CT_U64, 0, V_TJ, "ARP requests answered"},
};

const struct eng_ctr_table eng_tcp_tables[] = {
	{"tcp_conn", conn_ctrs, RTE_DIM(conn_ctrs)},
	{"tcp_task", task_ctrs, RTE_DIM(task_ctrs)},
	{NULL, NULL, 0},
};

static int
is_tcp(const struct eng_task *t)
{
	return t->ops == &eng_task_tcp && t->priv != NULL;
}

static uint64_t
flow_bytes(int sender, const struct eng_tcp_snap *s)
{
	return sender ? s->st.bytes_acked : s->st.bytes_delivered;
}

/* Average goodput from ESTABLISHED (or the end of warmup warm_ns, obs/warm.h)
 * to the end of the transfer (or now). */
static double
flow_goodput_mbps(int sender, const struct eng_tcp_snap *s, uint64_t warm_ns,
		const struct eng_warm *w)
{
	return eng_warm_mbps(warm_ns, w, 0, flow_bytes(sender, s), s->st.established_ns,
			s->done_ns ? s->done_ns : s->snap_ns);
}

static double
segs(uint32_t bytes, uint32_t mss)
{
	if (bytes >= 0x7fffffff)
		return 0.0;
	return mss ? (double)bytes / mss : 0.0;
}

/* The view of flow idx (of task t); -ENOENT when it has had no connection. */
static int
conn_view(const struct eng_runtime *rt, const struct eng_task *t, unsigned int idx,
		struct conn_view *v)
{
	const struct eng_flow_conf *fc = &rt->cfg->flows[idx];
	const struct eng_tcp_conn_conf *k = &eng_tcp_fc(fc)->k;
	const struct tcp_stats *st = &v->s.st;
	const struct eng_xflow *xf = eng_xport_flow(rt, idx);
	uint64_t t0 = eng_tcp_run_start_ns(t);
	int sender = fc->role == ENG_FLOW_SENDER;
	uint32_t ip;
	int cr;

	memset(v, 0, sizeof(*v));
	if (xf == NULL || eng_tcp_flow_snap(rt, idx, &v->s) < 0 || !v->s.used)
		return -ENOENT;
	ip = v->s.remote_ip;
	cr = v->s.close_reason;
	snprintf(v->name, sizeof(v->name), "%s", fc->name);
	snprintf(v->remote_ip, sizeof(v->remote_ip), "%u.%u.%u.%u", ip >> 24, (ip >> 16) & 0xff,
			(ip >> 8) & 0xff, ip & 0xff);
	v->task = t->name;
	v->role = sender ? "sender" : "receiver";
	v->cc = k->cc;
	v->state = tcp_state_str(v->s.state);
	v->close_reason = cr >= 0 && cr < (int)RTE_DIM(close_reasons) ? close_reasons[cr] : "?";
	v->done = v->s.done;
	v->completed = v->s.completed;
	v->fail = v->s.fail;
	v->rack = st->rack;
	v->tick_us = (double)k->tick_ns / 1e3;
	v->rto_min_us = (double)k->rto_min_ns / 1e3;
	v->init_cwnd = k->init_cwnd;
	v->local_port = v->s.local_port;
	v->remote_port = v->s.remote_port;
	v->goodput_bytes = flow_bytes(sender, &v->s);
	v->goodput_mbps = flow_goodput_mbps(sender, &v->s, 0, NULL);
	v->warmup_s = xf->warm_ns / 1e9;
	v->warm_goodput = flow_goodput_mbps(sender, &v->s, xf->warm_ns, &xf->snap.warm);
	v->established_ns = st->established_ns ? st->established_ns - t0 : 0;
	v->done_ns = v->s.done_ns ? v->s.done_ns - t0 : 0;
	v->cwnd_seg = segs(st->cwnd, st->mss);
	v->ssthresh_seg = segs(st->ssthresh, st->mss);
	v->srtt_us = (double)st->srtt_ns / 1e3;
	v->rttvar_us = (double)st->rttvar_ns / 1e3;
	v->rto_us = (double)st->rto_ns / 1e3;
	v->rtt_min_us = (double)st->rtt_min_ns / 1e3;
	v->rtt_avg_us = (double)st->rtt_avg_ns / 1e3;
	return 0;
}

/* Goodput over the last period (moves the period on). */
static double
period_mbps(struct eng_runtime *rt, unsigned int idx, const struct conn_view *v)
{
	struct eng_tcp_rep *r = eng_tcp_flow_rep(rt, idx);
	double mbps = 0.0;

	if (r == NULL)
		return 0.0;
	if (r->ns != 0 && v->s.snap_ns > r->ns)
		mbps = (double)(v->goodput_bytes - r->bytes) * 8e3 / (double)(v->s.snap_ns - r->ns);
	r->bytes = v->goodput_bytes;
	r->ns = v->s.snap_ns;
	return mbps;
}

static void
conns_write(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i, j;

	eng_out_arr(o, "tcp");
	for (i = 0; i < rt->cfg->nb_tasks; i++) {
		struct eng_task *t = &rt->cfg->tasks[i];

		if (!is_tcp(t))
			continue;
		for (j = 0; j < t->nb_flows; j++) {
			struct hist_summary h;
			struct conn_view v;

			if (conn_view(rt, t, t->flow_idx[j], &v) < 0)
				continue;
			if (what == ENG_REPORT_PERIOD)
				v.goodput_mbps = period_mbps(rt, t->flow_idx[j], &v);
			eng_out_item(o, what == ENG_REPORT_PERIOD ? "tcp" : "tcp flow", v.name);
			eng_out_counters(o, conn_ctrs, RTE_DIM(conn_ctrs), &v);
			/* 1 ms means of its RTT samples (tcp_task.c) */
			if (what != ENG_REPORT_PERIOD && eng_lat_flow_summary(rt, t->flow_idx[j], &h) == 0 &&
					(o->kind != ENG_OUT_TEXT || h.count != 0))
				eng_out_hist(o, "rtt_ns", &h);
			eng_out_end(o);
		}
	}
	eng_out_end(o);
}

void
eng_tcp_flow_write(const struct eng_xflow *xf, struct eng_out *o)
{
	struct eng_runtime *rt = xf->x->rt;
	struct hist_summary h;
	struct conn_view v;

	if (conn_view(rt, xf->x->t, xf->idx, &v) < 0)
		return;
	eng_out_counters(o, conn_ctrs, RTE_DIM(conn_ctrs), &v);
	if (eng_lat_flow_summary(rt, xf->idx, &h) == 0)
		eng_out_hist(o, "rtt_ns", &h);
}

/* Jain's fairness index over the goodputs of a task's connections. */
static double
task_jain(const struct eng_runtime *rt, const struct eng_task *t)
{
	double sum = 0.0, sq = 0.0;
	unsigned int j, n = 0;

	for (j = 0; j < t->nb_flows; j++) {
		struct conn_view v;

		if (conn_view(rt, t, t->flow_idx[j], &v) < 0)
			continue;
		sum += v.goodput_mbps;
		sq += v.goodput_mbps * v.goodput_mbps;
		n++;
	}
	return n == 0 || sq == 0.0 ? 0.0 : sum * sum / (n * sq);
}

/* The task's cc list: its flows', each distinct neighbour once; its role: its
 * flows' (or "mixed"). */
static void
task_cc_role(const struct eng_runtime *rt, const struct eng_task *t, struct task_view *v)
{
	const char *prev = NULL;
	size_t off = 0, len = sizeof(v->cc);
	unsigned int e, senders = 0;

	v->cc[0] = '\0';
	for (e = 0; e < t->nb_flows && off < len; e++) {
		const struct eng_flow_conf *fc = eng_task_flow(rt->cfg, t, e);
		const char *cc = eng_tcp_fc(fc)->k.cc;

		senders += fc->role == ENG_FLOW_SENDER;
		if (prev == NULL || strcmp(prev, cc) != 0)
			off += (size_t)snprintf(v->cc + off, len - off, "%s%s", prev ? ", " : "", cc);
		prev = cc;
	}
	v->role = senders == t->nb_flows ? "sender" : senders == 0 ? "receiver" : "mixed";
}

static void
task_write(const struct eng_runtime *rt, struct eng_out *o, const struct eng_task *t)
{
	const struct eng_tcp_conf *tc = t->conf;
	struct task_view v = {.name = t->name, .cap_policy = cap_modes[tc->cap.mode]};
	struct tcp_cap_stats cs;
	unsigned int e;

	task_cc_role(rt, t, &v);
	v.done = eng_tcp_task_done(t);
	v.jain = task_jain(rt, t);
	eng_tcp_ep_stats(t, &v.es);
	eng_out_item(o, "tcp task", t->name);
	eng_out_counters(o, task_ctrs, RTE_DIM(task_ctrs), &v);
	if (eng_tcp_cap_snap(t, &cs) == 0) {
		eng_out_obj(o, "cap");
		eng_out_u64(o, "evaluations", cs.evaluations);
		eng_out_u64(o, "triggers", cs.triggers);
		eng_out_u64(o, "active", cs.active);
		eng_out_u64(o, "capped", cs.capped);
		eng_out_u64(o, "last_cap_segs", cs.last_cap_segs);
		eng_out_end(o);
	}
	if (tc->cwnd_trace[0] != '\0')
		eng_out_str(o, "cwnd_trace", tc->cwnd_trace);
	if (eng_xport_shared(t)) {
		struct eng_xdisp dv;

		eng_xport_dispatch(t, &dv);	/* frames handed between the tasks of its port */
		eng_out_obj(o, "dispatch");
		eng_out_u64(o, "out", dv.out);
		eng_out_u64(o, "in", dv.in);
		eng_out_u64(o, "full", dv.full);
		eng_out_end(o);
	}
	eng_out_obj(o, "drops");
	for (e = 1; e < TCP_E_MAX; e++)
		if (v.es.drops[e] + v.es.conn_drops[e] != 0)
			eng_out_u64(o, tcp_err_str((int)e), v.es.drops[e] + v.es.conn_drops[e]);
	eng_out_end(o);
	eng_out_end(o);
}

void
eng_tcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	unsigned int i;

	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (is_tcp(&rt->cfg->tasks[i]))
			break;
	if (i == rt->cfg->nb_tasks || what == ENG_REPORT_RESULT)
		return;		/* no "tcp" members without tcp tasks */
	conns_write(rt, o, what);
	if (what == ENG_REPORT_PERIOD)
		return;
	eng_out_arr(o, "tcp_tasks");
	for (i = 0; i < rt->cfg->nb_tasks; i++)
		if (is_tcp(&rt->cfg->tasks[i]))
			task_write(rt, o, &rt->cfg->tasks[i]);
	eng_out_end(o);
}
