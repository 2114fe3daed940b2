/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The paced-rate view (pace_view.h): configured vs achieved rate and the
 * reasons it fell short, through one counter table.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "obs/out.h"
#include "obs/pace_view.h"
#include "pace.h"

#define PV(field) offsetof(struct eng_pace_view, field)
#define V_TJ (ENG_V_TEXT | ENG_V_JSON)

const struct eng_ctr eng_pace_ctrs[ENG_PACE_NCTRS] = {
	{"task", "", PV(task), ENG_CT_STR, 0, ENG_V_DATA, "the paced task"},
	{"name", "", PV(name), ENG_CT_STR, 0, ENG_V_JSON, "the flow (txonly: the task)"},
	{"rate_l1_mbps", "Mbit/s", PV(rate_mbps), ENG_CT_DBL, 3, 0,
		"L1: rate on the wire in effect now: configured, a rate profile's current one or "
		"the console's (frame + FCS + preamble + IFG; a port's tx_l1_mbps, not its tx_mbps)"},
	{"rate_mbps", "Mbit/s", PV(rate_mbps), ENG_CT_DBL, 3, ENG_V_DATA,
		"L1: the same as rate_l1_mbps (the key scripts read)"},
	{"achieved_l1_mbps", "Mbit/s", PV(achieved_mbps), ENG_CT_DBL, 3, 0,
		"L1: wire rate over the run while it had something to send"},
	{"achieved_mbps", "Mbit/s", PV(achieved_mbps), ENG_CT_DBL, 3, ENG_V_DATA,
		"L1: the same as achieved_l1_mbps (the key scripts read)"},
	{"achieved_pct", "%", PV(achieved_pct), ENG_CT_DBL, 2, 0, "achieved / configured"},
	{"achieved_ppm", "ppm", PV(achieved_ppm), ENG_CT_U32, 0, ENG_V_DATA,
		"achieved / configured, parts per million"},
	{"period_l1_mbps", "Mbit/s", PV(period_mbps), ENG_CT_DBL, 3, ENG_V_TEXT,
		"L1: wire rate over the last period"},
	{"busy_s", "s", PV(busy_s), ENG_CT_DBL, 3, ENG_V_DATA, "time it had something to send"},
	{"pkts", "pkts", PV(pkts), ENG_CT_U64, 0, ENG_V_DATA, "frames the pacer let out"},
	{"wire_bytes", "B", PV(wire_bytes), ENG_CT_U64, 0, ENG_V_DATA,
		"their bytes on the wire (with FCS, preamble, IFG)"},
	{"stalls", "", PV(stalls), ENG_CT_U64, 0, 0,
		"times a stall outlasted the catch-up bound ([engine] pace_catchup)"},
	{"lost_ms", "ms", PV(lost_ms), ENG_CT_DBL, 3, 0, "schedule time those stalls dropped"},
	{"lost_bytes", "B", PV(lost_bytes), ENG_CT_U64, 0, ENG_V_DATA, "the same in wire bytes"},
	{"max_lag_ms", "ms", PV(max_lag_ms), ENG_CT_DBL, 3, V_TJ | ENG_V_TEL,
		"longest lag behind the schedule (the longest stall)"},
	{"tx_full", "pkts", PV(tx_full), ENG_CT_U64, 0, 0, "frames refused by the tx queue or ring"},
	{"no_mbuf", "", PV(no_mbuf), ENG_CT_U64, 0, 0, "mbuf allocation failures"},
};

int
eng_pace_view_fill(struct eng_pace_view *v, const struct pace *p, struct eng_pace_mark *mark)
{
	struct pace_stats st;

	if (v == NULL || p == NULL || pace_stats(p, &st) < 0)
		return -EINVAL;
	v->rate_mbps = (double)st.rate_bps / 1e6;
	v->pkts = st.pkts;
	v->wire_bytes = st.wire_bytes;
	v->busy_s = (double)st.busy_ns / 1e9;
	v->stalls = st.stalls;
	v->lost_ms = (double)st.lost_ns / 1e6;
	v->lost_bytes = st.lost_bytes;
	v->max_lag_ms = (double)st.max_lag_ns / 1e6;
	v->achieved_ppm = (uint32_t)(st.achieved_ppm > UINT32_MAX ? UINT32_MAX : st.achieved_ppm);
	v->achieved_pct = (double)st.achieved_ppm / 1e4;
	v->achieved_mbps = v->rate_mbps * (double)st.achieved_ppm / 1e6;
	if (mark != NULL) {
		uint64_t db = st.wire_bytes - mark->wire_bytes, dt = st.busy_ns - mark->busy_ns;

		v->period_mbps = dt ? (double)db * 8e3 / (double)dt : 0.0;
		mark->wire_bytes = st.wire_bytes;
		mark->busy_ns = st.busy_ns;
	}
	return 0;
}

void
eng_pace_write(struct eng_out *o, const struct eng_pace_view *v)
{
	eng_out_item(o, "pace", v->name);
	eng_out_counters(o, eng_pace_ctrs, ENG_PACE_NCTRS, v);
	eng_out_end(o);
}

int
eng_pace_warn(FILE *f, const struct eng_pace_view *v)
{
	char cause[160];

	if (v->pkts == 0 || v->achieved_ppm >= ENG_PACE_WARN_PPM)
		return 0;
	if (v->lost_ms > 0)
		snprintf(cause, sizeof(cause), "stall time lost: %.1f ms in %" PRIu64
				" stalls longer than the catch-up bound (longest %.1f ms; "
				"CPU shared or descheduled)", v->lost_ms, v->stalls, v->max_lag_ms);
	else if (v->tx_full != 0)
		snprintf(cause, sizeof(cause), "tx queue full: %" PRIu64 " frames refused",
				v->tx_full);
	else if (v->no_mbuf != 0)
		snprintf(cause, sizeof(cause), "mbufs exhausted: %" PRIu64 " allocation failures",
				v->no_mbuf);
	else
		snprintf(cause, sizeof(cause), "CPU busy: the lcore could not keep up");
	if (strcmp(v->task, v->name) == 0)
		fprintf(f, "warning: task %s achieved %.2f %% of its rate (%.3f of %.3f Mbit/s L1): "
				"%s\n",
				v->task, v->achieved_pct, v->achieved_mbps, v->rate_mbps, cause);
	else
		fprintf(f, "warning: task %s flow %s achieved %.2f %% of its rate (%.3f of %.3f "
				"Mbit/s L1): %s\n", v->task, v->name, v->achieved_pct, v->achieved_mbps,
				v->rate_mbps, cause);
	return 1;
}
