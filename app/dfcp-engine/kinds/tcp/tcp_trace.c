/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The cwnd trace of a tcp task (cwnd_trace = FILE): after the run, one
 * gnuplot data block per sender connection ("time_s cwnd_seg ssthresh_seg
 * srtt_ms event"), from the trace buffers lib/tcp filled.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "kinds/tcp/tcp_priv.h"

static const char *const trace_ev[] = {
	"ack", "dupack", "recovery", "partial", "exit", "timeout", "cap",
};

/* One trace block per sender flow (gnuplot: index N). */
static void
trace_block(FILE *fp, const struct tcp_task *d, unsigned int i, unsigned int n)
{
	const struct eng_xtask *x = d->x;
	const struct tcp_flow *f = &d->flows[i];
	const struct eng_flow_conf *fc = x->flows[i].fc;
	const struct eng_tcp_conn_conf *k = &eng_tcp_fc(fc)->k;
	uint32_t mss = f->snap.st.mss ? f->snap.st.mss : k->mss;

	fprintf(fp, "%s# flow %s local port %u mss %u points %u dropped %" PRIu64
			" cc %s tick_ms %.3f\n# time_s cwnd_seg ssthresh_seg srtt_ms event\n",
			n ? "\n\n" : "", fc->name, fc->local_port, mss, f->trace.n, f->trace.dropped,
			k->cc, (double)k->tick_ns / 1e6);
	for (uint32_t j = 0; j < f->trace.n; j++) {
		const struct tcp_trace_pt *pt = &f->trace.pts[j];
		double t = pt->now >= x->run_start_ns ?
				(double)(pt->now - x->run_start_ns) / 1e9 : 0.0;

		fprintf(fp, "%.6f %.3f %.3f %.3f %s\n", t, (double)pt->cwnd / mss,
				pt->ssthresh >= 0x7fffffff ? 0.0 : (double)pt->ssthresh / mss,
				(double)pt->srtt_ns / 1e6, pt->ev < RTE_DIM(trace_ev) ?
				trace_ev[pt->ev] : "?");
	}
}

/* One file for the task: a gnuplot data block per sender connection. */
int
eng_tcp_write_traces(struct tcp_task *d)
{
	const struct eng_xtask *x = d->x;
	const struct eng_tcp_conf *tc = x->t->conf;
	const char *cc = NULL;
	unsigned int i, n = 0;
	FILE *fp;

	for (i = 0; i < x->nb_flows; i++)
		if (x->flows[i].fc->role == ENG_FLOW_SENDER) {
			const char *k = eng_tcp_fc(x->flows[i].fc)->k.cc;

			cc = cc == NULL || strcmp(cc, k) == 0 ? k : "per connection";
			n++;
		}
	fp = fopen(tc->cwnd_trace, "w");
	if (fp == NULL) {
		ENG_LOG(ERR, task, "task %s: cwnd_trace %s: %s", x->t->name, tc->cwnd_trace,
				strerror(errno));
		return -errno;
	}
	fprintf(fp, "# dfcp-engine cwnd trace, task %s, cc %s, %u connection(s)\n"
			"# one data block per connection (gnuplot: index N)\n", x->t->name,
			cc != NULL ? cc : "-", n);
	for (i = 0, n = 0; i < x->nb_flows; i++)
		if (x->flows[i].fc->role == ENG_FLOW_SENDER)
			trace_block(fp, d, i, n++);
	if (fclose(fp) != 0)
		return -errno;
	ENG_LOG(INFO, task, "task %s: cwnd trace written to %s", x->t->name, tc->cwnd_trace);
	return 0;
}

