/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What every paced task or flow shows (txonly, a [flow] with rate =): the
 * configured rate, the rate it achieved while it had something to send, and
 * what it lost (lib/pace counters: stall time beyond the catch-up bound),
 * with the tx-queue and mbuf failures beside them. One counter table
 * (eng_pace_ctrs) for the periodic text, the summary JSON and telemetry;
 * eng_pace_warn() is the summary's one warning line when the run fell short.
 */
#ifndef ENG_PACE_VIEW_H
#define ENG_PACE_VIEW_H

#include <stdint.h>
#include <stdio.h>

#include "obs/out.h"

struct pace;

/* Below this share of the configured rate (ppm) the summary warns. */
#define ENG_PACE_WARN_PPM 990000u

struct eng_pace_view {
	const char *task;		/* the task */
	const char *name;		/* the flow, or the task for txonly */
	double rate_mbps;		/* configured, L1 (frame + FCS + preamble + IFG) */
	double achieved_mbps;		/* L1, over the run, while it had something to send */
	double achieved_pct;		/* of rate_mbps */
	double period_mbps;		/* L1, over the last period (periodic text) */
	double lost_ms;			/* schedule dropped beyond the catch-up bound */
	double max_lag_ms;		/* longest lag seen (stall length) */
	double busy_s;			/* time it had something to send */
	uint64_t pkts, wire_bytes;
	uint64_t stalls;		/* times the bound dropped credit */
	uint64_t lost_bytes;
	uint64_t tx_full;		/* frames refused by the tx queue / ring */
	uint64_t no_mbuf;		/* mbuf allocation failures */
	uint32_t achieved_ppm;
};

/* A pacer's counters at the previous period (kept by the reporting thread). */
struct eng_pace_mark {
	uint64_t wire_bytes, busy_ns;
};

#define ENG_PACE_NCTRS 18
extern const struct eng_ctr eng_pace_ctrs[ENG_PACE_NCTRS];

/* v from pacer p (task, name, tx_full, no_mbuf set by the caller); with
 * mark, period_mbps since the mark, which moves on. 0, or -EINVAL. */
int eng_pace_view_fill(struct eng_pace_view *v, const struct pace *p, struct eng_pace_mark *mark);
/* An item "pace NAME" with the table's fields. */
void eng_pace_write(struct eng_out *o, const struct eng_pace_view *v);
/* One warning line on f when v achieved < ENG_PACE_WARN_PPM of its rate,
 * naming the likely cause; 1 if it warned. */
int eng_pace_warn(FILE *f, const struct eng_pace_view *v);

#endif /* ENG_PACE_VIEW_H */
