/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP flow statistics (the dfcp kind's ops->report and /dfcp/flows): one
 * line per flow in the summary, the closing lines (each flow's goodput and,
 * with a warmup, its goodput after it; Jain's fairness index over the flows
 * sharing a bottleneck), the "flows", "flow_sets" and "jain" members of the
 * summary JSON (the drop and dispatch members: dfcp_drops.c) and a DFCP
 * flow's fields of /dfcp/flows (kinds/xport/xport_view.c). Counters come
 * from the snapshots the dfcp tasks publish (dfcp_task.c; the warmup sample:
 * kinds/xport, obs/warm.h); one table (flow_ctrs) gives every output its
 * fields. The periodic flow lines are the live view (obs/live.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>

#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "obs/fold.h"
#include "obs/obs.h"
#include "obs/out.h"

/* A flow's snapshot and what is derived from it. */
struct flow_view {
	const char *name, *role, *task, *state, *bottleneck, *close_reason, *fail;
	int completed, done;
	uint32_t weight;
	double active_s, goodput_mbps, throughput_mbps, loss, established_s;
	double syms_per_block, efficiency;	/* sender: the code's overhead */
	double warmup_s, warm_goodput, warm_throughput;	/* after the warmup; -1: shorter */
	uint64_t goodput_kbps, warm_bytes;
	struct eng_flow_snap s;
};

#define FV(field) offsetof(struct flow_view, field)
#define FS(field) (offsetof(struct flow_view, s) + offsetof(struct eng_flow_snap, field))
#define FT(field) (FS(st) + offsetof(struct dfcp_stats, field))
#define V_TJ (ENG_V_TEXT | ENG_V_JSON)

static const struct eng_ctr flow_ctrs[] = {
	{"name", "", FV(name), ENG_CT_STR, 0, ENG_V_JSON, "the [flow NAME]"},
	{"role", "", FV(role), ENG_CT_STR, 0, 0, "sender or receiver"},
	{"task", "", FV(task), ENG_CT_STR, 0, V_TJ, "the dfcp task running it"},
	{"state", "", FV(state), ENG_CT_STR, 0, 0, "state of its current connection"},
	{"completed", "", FV(completed), ENG_CT_BOOL, 0, ENG_V_JSON,
		"its goal reached (doc/config.md, \"Exit status\")"},
	{"close_reason", "", FV(close_reason), ENG_CT_STR, 0, ENG_V_JSON,
		"why its last connection closed: none (open), normal, syn-timeout, fin-timeout, "
		"reset, abort, peer-timeout, refused, sink-error (its sink file failed: aborted)"},
	{"failed", "", FV(fail), ENG_CT_STR, 0, ENG_V_JSON, "why the flow failed, \"\" if it did not"},
	{"done", "", FV(done), ENG_CT_BOOL, 0, ENG_V_JSON,
		"the flow has finished (closed or gave up; kept for compatibility)"},
	{"weight", "", FV(weight), ENG_CT_U32, 0, ENG_V_JSON, "its WF2Q+ weight"},
	{"bottleneck", "", FV(bottleneck), ENG_CT_STR, 0, ENG_V_JSON,
		"label of the flows Jain's index is computed over"},
	{"established_s", "s", FV(established_s), ENG_CT_DBL, 6, ENG_V_JSON,
		"its first connection ESTABLISHED, since the run started (0: never)"},
	{"active_s", "s", FV(active_s), ENG_CT_DBL, 6, V_TJ,
		"first ESTABLISHED to the last goodput progress"},
	{"goodput_mbps", "Mbit/s", FV(goodput_mbps), ENG_CT_DBL, 3, V_TJ,
		"goodput_bytes x 8 / active_s"},
	{"throughput_mbps", "Mbit/s", FV(throughput_mbps), ENG_CT_DBL, 3, V_TJ,
		"frame bytes (sent by a sender, received by a receiver) x 8 / active_s"},
	{"warmup_s", "s", FV(warmup_s), ENG_CT_DBL, 3, ENG_V_DATA,
		"first seconds of its transfer left out of the *_after_warmup figures (warmup key)"},
	{"goodput_mbps_after_warmup", "Mbit/s", FV(warm_goodput), ENG_CT_DBL, 3, 0,
		"goodput_mbps from the end of the warmup to the last goodput progress (-1: the "
		"transfer was shorter)"},
	{"throughput_mbps_after_warmup", "Mbit/s", FV(warm_throughput), ENG_CT_DBL, 3, ENG_V_DATA,
		"throughput_mbps from the end of the warmup (-1: the transfer was shorter)"},
	{"goodput_bytes_at_warmup", "B", FV(warm_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"goodput_bytes at the end of the warmup (0: not reached)"},
	{"goodput_bytes", "B", FT(goodput_bytes), ENG_CT_U64, 0, 0,
		"bytes acknowledged (sender) or delivered to the sink (receiver)"},
	{"goodput_kbps", "kbit/s", FV(goodput_kbps), ENG_CT_U64, 0, ENG_V_TEL, "goodput, integer"},
	{"sink_bytes", "B", FS(sink_bytes), ENG_CT_U64, 0, ENG_V_JSON, "bytes the sink took"},
	{"bad_bytes", "B", FS(bad_bytes), ENG_CT_U64, 0, ENG_V_DATA,
		"bytes a verifying sink found wrong"},
	{"order_errors", "", FS(order_errors), ENG_CT_U64, 0, ENG_V_JSON,
		"out-of-order deliveries a verifying sink saw"},
	{"sink_file_bytes", "B", FS(sink_file_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"bytes written to its sink file"},
	{"sink_errors", "", FS(sink_errors), ENG_CT_U64, 0, ENG_V_JSON,
		"connections whose sink file failed a write or fsync (the flow fails)"},
	{"arp_unsolicited", "", FS(arp_unsolicited), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: ARP replies from its peer's address no request of ours asked for (ignored)"},
	{"arp_conflicts", "", FS(arp_conflicts), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: ARP replies naming another MAC than the resolved or pinned one (ignored)"},
	{"tx_packets", "pkts", FT(tx_pkts), ENG_CT_U64, 0, ENG_V_DATA, "frames sent"},
	{"tx_bytes", "B", FT(tx_bytes), ENG_CT_U64, 0, ENG_V_JSON, "frame bytes sent"},
	{"rx_packets", "pkts", FT(rx_pkts), ENG_CT_U64, 0, ENG_V_DATA, "frames received"},
	{"rx_bytes", "B", FT(rx_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"frame bytes handed to the endpoint"},
	{"tx_data_packets", "pkts", FT(tx_data_pkts), ENG_CT_U64, 0, ENG_V_JSON, "symbols sent"},
	{"rx_data_packets", "pkts", FT(rx_data_pkts), ENG_CT_U64, 0, ENG_V_JSON, "symbols received"},
	{"blocks_sent", "", FT(blocks_sent), ENG_CT_U64, 0, 0, "blocks whose first round went out"},
	{"blocks_acked", "", FT(blocks_acked), ENG_CT_U64, 0, 0, "blocks acknowledged"},
	{"blocks_decoded", "", FT(blocks_decoded), ENG_CT_U64, 0, 0, "blocks decoded"},
	{"blocks_first_pass", "", FT(blocks_first_pass), ENG_CT_U64, 0, V_TJ,
		"blocks acknowledged without a top-up"},
	{"blocks_lost", "", FT(blocks_lost), ENG_CT_U64, 0, ENG_V_JSON,
		"acks off: blocks never decoded"},
	{"decode_retries", "", FT(decode_failures), ENG_CT_U64, 0, 0,
		"decode attempts that needed more symbols (tried again on the next; not lost data)"},
	{"topups", "", FT(topups), ENG_CT_U64, 0, 0, "fresh-repair rounds sent"},
	{"topup_symbols", "", FT(topup_syms), ENG_CT_U64, 0, V_TJ, "fresh repair symbols in top-ups"},
	{"timeouts", "", FT(timeouts), ENG_CT_U64, 0, V_TJ, "block timer expiries"},
	{"symbols_per_block", "", FV(syms_per_block), ENG_CT_DBL, 2, ENG_V_DATA,
		"sender: symbols sent per block acknowledged (K at best, K / (1 - loss) on a lossy "
		"path)"},
	{"efficiency_pct", "%", FV(efficiency), ENG_CT_DBL, 2, V_TJ,
		"sender: goodput over (1 - loss_est) x the symbol bytes sent: the share of what "
		"the lossy path delivered that was data (100: no symbol past the K-th a block "
		"needed)"},
	{"stale_symbols", "", FT(stale_syms), ENG_CT_U64, 0, ENG_V_DATA,
		"receiver: symbols that arrived after their block had decoded (the code's waste)"},
	{"short_reports", "", FT(short_reports), ENG_CT_U64, 0, ENG_V_JSON,
		"BLOCK-ACK SHORT sent or received"},
	{"crc_failures", "", FT(crc_failures), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: decoded blocks whose block CRC failed (re-requested, not delivered)"},
	{"hdr_switches", "", FT(hdr_switches), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver, no key: blocks restarted with the header most of their packets carry "
		"(a forged or corrupted first packet had fixed another)"},
	{"rx_mem_bytes", "B", FT(rx_mem_bytes), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: block memory its connection is guaranteed in the task's pool (mem_budget)"},
	{"retransmits", "", FT(retransmits), ENG_CT_U64, 0, ENG_V_JSON,
		"handshake and teardown packets resent"},
	{"rounds_last", "", FT(rounds_last), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: rounds ended by their last packet"},
	{"rounds_next", "", FT(rounds_next), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: rounds ended by a later packet (their tail was lost)"},
	{"rounds_idle", "", FT(rounds_idle), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: rounds ended by the round idle time"},
	{"rounds_late", "", FT(rounds_late), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: idle ends noticed late (the lcore stalled): the idle time again"},
	{"rounds_resumed", "", FT(rounds_resumed), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: rounds ended idle whose rest came after all (a stall upstream: "
		"the idle time then outlasts such pauses)"},
	{"keepalives", "", FT(keepalives), ENG_CT_U64, 0, ENG_V_JSON,
		"receiver: keepalives sent (it heard its peer but sent nothing for 1/4 of a peer "
		"timeout: a long round); sender: received"},
	{"reports", "", FT(reports), ENG_CT_U64, 0, ENG_V_JSON, "sender: loss reports accepted"},
	{"implicit_topups", "", FT(implicit_topups), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: top-ups for rounds a later report showed short"},
	{"early_shorts", "", FT(early_shorts), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: SHORT reports made before their round's tail could arrive (no top-up)"},
	{"dispersion_pct", "%", FT(dispersion_pct), ENG_CT_U32, 0, ENG_V_JSON,
		"sender: first-round arrival variance over the binomial's"},
	{"rate_hint_pps", "pkts/s", FT(rate_hint_pps), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: rate cap from the receiver's hint (0 none); receiver: last hint sent"},
	{"rate_capped", "", FT(rate_capped), ENG_CT_U64, 0, ENG_V_JSON,
		"sender: bursts shortened by the rate hint"},
	{"stalls", "", FT(stalls), ENG_CT_U64, 0, V_TJ,
		"episodes of no progress for its stall time (4 x its usual time between two acked / delivered blocks, 1..60 s) while the peer was alive"},
	{"loss_est", "%", FV(loss), ENG_CT_DBL, 2, ENG_V_TEXT,
		"end-to-end DATA loss over the connection (sender: from its receiver's last "
		"report, or the per-block EWMA without reports; receiver: its sequence gaps); "
		"not a bottleneck's drops (pipe drop_pct) nor what sizes auto rounds"},
	{"loss_ppm", "ppm", FT(loss_ppm), ENG_CT_U32, 0, ENG_V_DATA,
		"loss_est in parts per million"},
	{"redundancy", "pkts", FT(redundancy), ENG_CT_U32, 0, 0, "packets per block in use"},
	{"window", "blocks", FT(window), ENG_CT_U32, 0, 0, "negotiated window"},
	{"window_used", "blocks", FT(window_used), ENG_CT_U32, 0, ENG_V_DATA, "blocks in flight"},
	{"srtt_ns", "ns", FT(srtt_ns), ENG_CT_U64, 0, ENG_V_JSON, "smoothed round-trip time"},
	{"tx_dropped", "pkts", FS(tx_dropped), ENG_CT_U64, 0, ENG_V_JSON,
		"frames refused by the port or sched ring at the end"},
	{"connections", "", FS(conns), ENG_CT_U32, 0, ENG_V_JSON, "connections handled"},
};

const struct eng_ctr_table eng_dfcp_tables[] = {
	{"flow", flow_ctrs, RTE_DIM(flow_ctrs)},
	{"dfcp_memory", eng_dfcp_mem_ctrs, ENG_DFCP_MEM_NCTRS},
	{NULL, NULL, 0},
};

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

/* Active time of a flow: established -> last goodput progress. */
static uint64_t
active_ns(const struct eng_flow_snap *s)
{
	return s->last_ns > s->start_ns && s->start_ns != 0 ? s->last_ns - s->start_ns : 0;
}

/* The view of flow i; -ENOENT when it is not running. */
static int
flow_view(const struct eng_runtime *rt, unsigned int i, struct flow_view *v)
{
	const struct eng_config *cfg = rt->cfg;
	const struct eng_flow_conf *fc = &cfg->flows[i];
	const struct eng_xflow *xf = eng_xport_flow(rt, i);

	memset(v, 0, sizeof(*v));
	if (xf == NULL || eng_dfcp_flow_snap(rt, i, &v->s) < 0)
		return -ENOENT;
	v->name = fc->name;
	v->role = role_str(fc);
	v->task = cfg->tasks[fc->task_idx].name;
	v->state = dfcp_state_str(v->s.state);
	v->bottleneck = fc->bottleneck;
	v->close_reason = v->s.sink_err != 0 && v->s.close_reason != DFCP_CR_NONE ?
			"sink-error" : dfcp_close_reason_str(v->s.close_reason);
	v->completed = v->s.completed;
	v->fail = v->s.fail;
	v->done = v->s.done;
	v->weight = fc->weight;
	v->active_s = active_ns(&v->s) / 1e9;
	if (v->s.start_ns > xf->x->run_start_ns && xf->x->run_start_ns != 0)
		v->established_s = (v->s.start_ns - xf->x->run_start_ns) / 1e9;
	v->goodput_mbps = mbps(v->s.st.goodput_bytes, active_ns(&v->s));
	v->throughput_mbps = mbps(flow_bytes(fc, &v->s), active_ns(&v->s));
	v->goodput_kbps = (uint64_t)(v->goodput_mbps * 1000);
	v->warmup_s = xf->warm_ns / 1e9;
	if (__atomic_load_n(&xf->snap.warm.at_ns, __ATOMIC_ACQUIRE) != 0)
		v->warm_bytes = xf->snap.warm.goodput_bytes;
	v->warm_goodput = eng_warm_mbps(xf->warm_ns, &xf->snap.warm, 0, v->s.st.goodput_bytes,
			v->s.start_ns, v->s.last_ns);
	v->warm_throughput = eng_warm_mbps(xf->warm_ns, &xf->snap.warm, 1, flow_bytes(fc, &v->s),
			v->s.start_ns, v->s.last_ns);
	v->loss = v->s.st.loss_ppm / 1e4;
	if (fc->role == ENG_FLOW_SENDER && v->s.st.blocks_acked != 0)
		v->syms_per_block = (double)v->s.st.tx_data_pkts / (double)v->s.st.blocks_acked;
	/* over every connection of the flow (lib/dfcp gives each its own) */
	if (fc->role == ENG_FLOW_SENDER && v->s.st.tx_data_pkts != 0 && v->loss < 100.0)
		v->efficiency = 100.0 * (double)v->s.st.goodput_bytes /
			((1.0 - v->loss / 100.0) * (double)v->s.st.tx_data_pkts *
			((const struct eng_dfcp_flow_conf *)fc->pconf)->T);
	return 0;
}

/* Flow i's fields inside an open item. */
static void
flow_fields(const struct eng_runtime *rt, struct eng_out *o, unsigned int i,
		const struct flow_view *v)
{
	const struct eng_flow_conf *fc = &rt->cfg->flows[i];
	struct hist_summary h;

	eng_out_counters(o, flow_ctrs, RTE_DIM(flow_ctrs), v);
	if (o->kind == ENG_OUT_TEXT && fc->role == ENG_FLOW_RECEIVER && fc->verify)
		eng_out_str(o, "verify", v->s.bad_bytes || v->s.order_errors ? "FAILED" : "ok");
	if (o->kind != ENG_OUT_TEL)
		eng_dfcp_drops_write(o, "drops", v->s.st.drops);
	if (eng_lat_flow_summary(rt, i, &h) == 0 && (o->kind != ENG_OUT_TEXT || h.count != 0))
		eng_out_hist(o, "block_latency_ns", &h); /* senders */
}

static void
flow_write(struct eng_runtime *rt, struct eng_out *o, unsigned int i, const struct flow_view *v)
{
	eng_out_item(o, "flow", v->name);
	flow_fields(rt, o, i, v);
	eng_out_end(o);
}

void
eng_dfcp_flow_write(const struct eng_xflow *xf, struct eng_out *o)
{
	struct flow_view v;

	if (flow_view(xf->x->rt, xf->idx, &v) == 0)
		flow_fields(xf->x->rt, o, xf->idx, &v);
}

/*
 * The summary's sets of DFCP flows: each flow group, and each task's other
 * senders and receivers. A set of more than [engine] summary_flows flows is
 * folded into one group summary in the text (obs/fold.h).
 */
struct flow_set {
	char label[ENG_NAME_LEN * 2 + 16];
	unsigned int n, *idx;		/* cfg->flows indexes, config order */
};

struct flow_sets {
	unsigned int n, any_folded;
	struct flow_set *s;
	unsigned int *idx;		/* every set's idx, one block */
};

static unsigned int
set_id(const struct eng_config *cfg, const struct eng_flow_conf *fc)
{
	return fc->group >= 0 ? (unsigned int)fc->group :
		cfg->nb_flow_groups + 2 * (unsigned int)fc->task_idx + (fc->role != ENG_FLOW_SENDER);
}

static void
set_label(const struct eng_config *cfg, const struct eng_flow_conf *fc, char *buf, size_t len)
{
	const char *role = fc->role == ENG_FLOW_SENDER ? "senders" : "receivers";

	if (fc->group >= 0)
		snprintf(buf, len, "%s (%s)", cfg->flow_groups[fc->group].name, role);
	else
		snprintf(buf, len, "task %s %s", cfg->tasks[fc->task_idx].name, role);
}

static void
sets_free(struct flow_sets *fs)
{
	free(fs->s);
	free(fs->idx);
	memset(fs, 0, sizeof(*fs));
}

/* O(flows): count per set id, then fill; sets ordered by their first flow. */
static int
sets_build(const struct eng_config *cfg, struct flow_sets *fs)
{
	unsigned int nid = cfg->nb_flow_groups + 2 * cfg->nb_tasks, i, off = 0, *cnt, *pos;

	memset(fs, 0, sizeof(*fs));
	cnt = calloc((size_t)nid + 1, sizeof(*cnt));
	pos = malloc(((size_t)nid + 1) * sizeof(*pos));
	fs->s = calloc((size_t)nid + 1, sizeof(*fs->s));
	fs->idx = malloc(((size_t)cfg->nb_flows + 1) * sizeof(*fs->idx));
	if (cnt == NULL || pos == NULL || fs->s == NULL || fs->idx == NULL) {
		free(cnt);
		free(pos);
		sets_free(fs);
		return -ENOMEM;
	}
	for (i = 0; i < nid; i++)
		pos[i] = UINT32_MAX;
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		unsigned int id;

		if (fc->proto != &eng_task_dfcp || fc->task_idx < 0)
			continue;
		id = set_id(cfg, fc);
		if (pos[id] == UINT32_MAX) {
			pos[id] = fs->n++;
			set_label(cfg, fc, fs->s[pos[id]].label, sizeof(fs->s[pos[id]].label));
		}
		cnt[id]++;
	}
	for (i = 0; i < nid; i++)
		if (pos[i] != UINT32_MAX)
			fs->s[pos[i]].n = cnt[i];	/* the room each set needs */
	for (i = 0; i < fs->n; i++) {
		fs->s[i].idx = fs->idx + off;
		off += fs->s[i].n;
		fs->any_folded |= fs->s[i].n > cfg->summary_flows;
		fs->s[i].n = 0;
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];
		struct flow_set *st;

		if (fc->proto != &eng_task_dfcp || fc->task_idx < 0)
			continue;
		st = &fs->s[pos[set_id(cfg, fc)]];
		st->idx[st->n++] = i;
	}
	free(cnt);
	free(pos);
	return 0;
}

/* A set's flows as the fold sees them (the fail strings copied out of the
 * snapshots): the goodput after each flow's warmup (the whole transfer's
 * without one; 0 when it was shorter than its warmup). */
struct set_views {
	struct eng_fold_flow *v;
	char (*fail)[ENG_FAIL_LEN];
	const char *what;		/* the goodput folded, for the header */
};

static int
set_views_fill(struct eng_runtime *rt, const struct flow_set *st, struct set_views *sv,
		struct eng_fold *fd)
{
	unsigned int i, warm = 0;

	sv->v = calloc((size_t)st->n + 1, sizeof(*sv->v));
	sv->fail = calloc((size_t)st->n + 1, sizeof(*sv->fail));
	if (sv->v == NULL || sv->fail == NULL) {
		free(sv->v);
		free(sv->fail);
		return -ENOMEM;
	}
	for (i = 0; i < st->n; i++) {
		const struct eng_flow_conf *fc = &rt->cfg->flows[st->idx[i]];
		struct flow_view fv;

		sv->v[i].name = fc->name;
		sv->v[i].weight = fc->weight;
		snprintf(sv->fail[i], ENG_FAIL_LEN, "did not run");
		if (flow_view(rt, st->idx[i], &fv) == 0) {
			sv->v[i].mbps = fv.warm_goodput > 0 ? fv.warm_goodput : 0;
			warm += fv.warmup_s != 0;
			sv->v[i].completed = fv.completed;
			snprintf(sv->fail[i], ENG_FAIL_LEN, "%s", fv.s.fail);
		}
		sv->v[i].fail = sv->fail[i];
	}
	sv->what = warm == 0 ? "whole transfer" : "after warmup";
	if (eng_fold_compute(sv->v, st->n, fd) < 0) {
		free(sv->v);
		free(sv->fail);
		return -ENOMEM;
	}
	return 0;
}

static void
set_views_free(struct set_views *sv)
{
	free(sv->v);
	free(sv->fail);
}

/* One set as a group summary item ("group NAME (senders)" / "task T senders"). */
static void
set_write(struct eng_runtime *rt, struct eng_out *o, const struct flow_set *st)
{
	struct set_views sv;
	struct eng_fold fd;

	if (set_views_fill(rt, st, &sv, &fd) < 0)
		return;
	eng_out_item(o, "flows", st->label);
	if (o->kind == ENG_OUT_JSON)
		eng_out_str(o, "set", st->label);
	eng_out_str(o, "goodput", sv.what);
	eng_fold_write(o, sv.v, &fd);
	eng_out_end(o);
	set_views_free(&sv);
}

static void
flows_write(struct eng_runtime *rt, struct eng_out *o)
{
	struct flow_sets fs = {0};
	unsigned int i, j;
	int have_sets = sets_build(rt->cfg, &fs) == 0;

	eng_out_arr(o, "flows");
	for (i = 0; o->kind == ENG_OUT_TEXT && have_sets && fs.any_folded && i < fs.n; i++) {
		const struct flow_set *st = &fs.s[i];

		if (st->n > rt->cfg->summary_flows) {
			set_write(rt, o, st);
			continue;
		}
		for (j = 0; j < st->n; j++) {
			struct flow_view v;

			if (flow_view(rt, st->idx[j], &v) == 0)
				flow_write(rt, o, st->idx[j], &v);
		}
	}
	for (i = 0; (o->kind != ENG_OUT_TEXT || !have_sets || !fs.any_folded) &&
			i < rt->cfg->nb_flows; i++) {
		struct flow_view v;

		if (flow_view(rt, i, &v) == 0)
			flow_write(rt, o, i, &v);
	}
	eng_out_end(o);
	if (o->kind == ENG_OUT_JSON && have_sets) {
		eng_out_arr(o, "flow_sets");
		for (i = 0; i < fs.n; i++)
			set_write(rt, o, &fs.s[i]);
		eng_out_end(o);
	}
	if (have_sets)
		sets_free(&fs);
}

/* Jain's index of the flows labelled `bn`: x = goodput / weight. */
static double
jain(struct eng_runtime *rt, const char *bn, unsigned int *n_out)
{
	const struct eng_config *cfg = rt->cfg;
	double sum = 0, sq = 0;
	unsigned int i, n = 0;

	for (i = 0; i < cfg->nb_flows; i++) {
		struct flow_view v;
		double x;

		if (strcmp(cfg->flows[i].bottleneck, bn) != 0 || flow_view(rt, i, &v) < 0)
			continue;
		x = v.goodput_mbps / cfg->flows[i].weight;
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

static void
jain_write(struct eng_runtime *rt, struct eng_out *o)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j, n;

	eng_out_arr(o, "jain");
	for (i = 0; i < cfg->nb_flows; i++) {
		if (!bottleneck_first(cfg, i))
			continue;
		eng_out_item(o, "bottleneck", cfg->flows[i].bottleneck);
		eng_out_str(o, "bottleneck", cfg->flows[i].bottleneck);
		eng_out_dbl(o, "index", jain(rt, cfg->flows[i].bottleneck, &n), 6);
		eng_out_arr(o, "flows");
		for (j = 0; j < cfg->nb_flows; j++)
			if (strcmp(cfg->flows[j].bottleneck, cfg->flows[i].bottleneck) == 0)
				eng_out_str(o, NULL, cfg->flows[j].name);
		eng_out_end(o);
		eng_out_end(o);
	}
	eng_out_end(o);
}

/* A flow's closing line: one goodput per transfer, the receiver's (README); a
 * sender's acked rate is its estimate. With a warmup, the rate after it beside. */
static void
flow_line(const struct eng_config *cfg, unsigned int i, const struct flow_view *v, FILE *f)
{
	char warm[64] = "";

	if (v->warmup_s != 0 && v->warm_goodput < 0)
		snprintf(warm, sizeof(warm), ", after warmup %.3g s: - (shorter)", v->warmup_s);
	else if (v->warmup_s != 0)
		snprintf(warm, sizeof(warm), ", after warmup %.3g s: %.1f Mbit/s", v->warmup_s,
				v->warm_goodput);
	if (cfg->flows[i].role == ENG_FLOW_SENDER)
		fprintf(f, "flow %s acked: %.1f Mbit/s%s (sender's estimate; the transfer's "
				"goodput is its receiver's)\n", v->name, v->goodput_mbps, warm);
	else
		fprintf(f, "flow %s goodput: %.1f Mbit/s%s (delivered to the sink)\n", v->name,
				v->goodput_mbps, warm);
}

/* A set's closing lines: each flow's goodput, or (folded) the group's figures. */
static void
set_result(struct eng_runtime *rt, const struct flow_set *st, FILE *f)
{
	struct set_views sv;
	struct eng_fold fd;
	char fails[512];
	unsigned int i;

	if (st->n <= rt->cfg->summary_flows) {
		for (i = 0; i < st->n; i++) {
			struct flow_view v;

			if (flow_view(rt, st->idx[i], &v) == 0)
				flow_line(rt->cfg, st->idx[i], &v, f);
		}
		return;
	}
	if (set_views_fill(rt, st, &sv, &fd) < 0)
		return;
	fprintf(f, "flows %s: %u flows, %u completed, %u failed; goodput (%s) total %.1f Mbit/s, "
			"per flow min %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f Mbit/s; "
			"Jain's index (weighted) %.4f\n", st->label, fd.n, fd.completed, fd.failed,
			sv.what, fd.total_mbps, fd.min, fd.p50, fd.p90, fd.p99, fd.max, fd.jain);
	fprintf(f, "flows %s: slowest", st->label);
	for (i = 0; i < fd.nb_slow; i++) {
		const struct eng_fold_flow *w = &sv.v[fd.slow[i]];

		fprintf(f, "%s %s %.1f", i ? "," : "", w->name, w->mbps);
		if (w->weight > 1)
			fprintf(f, " (weight %u)", w->weight);
	}
	fprintf(f, " Mbit/s (lowest goodput / weight first)\n");
	if (fd.failed != 0) {
		eng_fold_failures_str(&fd, fails, sizeof(fails));
		fprintf(f, "flows %s: %s\n", st->label, fails);
	}
	set_views_free(&sv);
}

/* The closing lines: each receiver's goodput and each sender's acked rate
 * (folded for big sets), then Jain's index per bottleneck. */
static void
results_print(struct eng_runtime *rt, FILE *f)
{
	const struct eng_config *cfg = rt->cfg;
	struct flow_sets fs;
	unsigned int i, n;

	if (sets_build(cfg, &fs) == 0 && fs.any_folded) {
		for (i = 0; i < fs.n; i++)
			set_result(rt, &fs.s[i], f);
	} else {
		for (i = 0; i < cfg->nb_flows; i++) {
			struct flow_view v;

			if (flow_view(rt, i, &v) == 0)
				flow_line(cfg, i, &v, f);
		}
	}
	sets_free(&fs);
	for (i = 0; i < cfg->nb_flows; i++) {
		double J;

		if (!bottleneck_first(cfg, i))
			continue;
		J = jain(rt, cfg->flows[i].bottleneck, &n);
		fprintf(f, "Jain's fairness index (bottleneck %s, %u flows): %.4f\n",
				cfg->flows[i].bottleneck, n, J);
	}
}

void
eng_dfcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what)
{
	switch (what) {
	case ENG_REPORT_SUMMARY:
		flows_write(rt, o);
		eng_dfcp_task_drops_write(rt, o);
		eng_dfcp_dispatch_write(rt, o);
		eng_dfcp_mem_write(rt, o);
		break;
	case ENG_REPORT_RESULT:
		results_print(rt, o->f);
		break;
	case ENG_REPORT_JSON:
		flows_write(rt, o);
		jain_write(rt, o);
		eng_dfcp_task_drops_write(rt, o);
		eng_dfcp_dispatch_write(rt, o);
		eng_dfcp_mem_write(rt, o);
		break;
	default:
		break;	/* periodic flow lines: the live view (obs/live.c) */
	}
}
