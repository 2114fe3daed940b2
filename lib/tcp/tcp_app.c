/* SPDX-License-Identifier: BSD-3-Clause */
/* Application helpers: the cwnd trace buffer (sources and sinks: lib/net). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

int
tcp_trace_buf_init(struct tcp_trace_buf *b, uint32_t cap, uint64_t min_gap_ns)
{
	memset(b, 0, sizeof(*b));
	b->pts = calloc(cap ? cap : 1, sizeof(*b->pts));
	if (b->pts == NULL)
		return -ENOMEM;
	b->cap = cap ? cap : 1;
	b->min_gap_ns = min_gap_ns;
	return 0;
}

void
tcp_trace_buf_free(struct tcp_trace_buf *b)
{
	free(b->pts);
	b->pts = NULL;
	b->cap = b->n = 0;
}

void
tcp_trace_buf_add(void *ctx, const struct tcp_trace_pt *pt)
{
	struct tcp_trace_buf *b = ctx;

	/* loss events are always kept; ordinary growth at most once per gap */
	if (b->n && pt->ev == TCP_TR_ACK && b->min_gap_ns &&
			pt->now - b->pts[b->n - 1].now < b->min_gap_ns)
		return;
	if (b->n == b->cap) {
		b->dropped++;
		return;
	}
	b->pts[b->n++] = *pt;
}

int
tcp_trace_buf_write(const struct tcp_trace_buf *b, const char *path, uint32_t mss,
		uint64_t t0)
{
	static const char *const ev[] = { "ack", "dupack", "recovery", "partial",
		"exit", "timeout", "cap" };
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -errno;
	if (mss == 0)
		mss = 1;
	fprintf(f, "# time_s cwnd_seg ssthresh_seg srtt_ms event\n");
	for (uint32_t i = 0; i < b->n; i++) {
		const struct tcp_trace_pt *p = &b->pts[i];

		fprintf(f, "%.6f %.3f %.3f %.3f %s\n", (double)(p->now - t0) / 1e9,
			(double)p->cwnd / mss,
			p->ssthresh >= 0x7fffffff ? 0.0 : (double)p->ssthresh / mss,
			(double)p->srtt_ns / 1e6, p->ev < 7 ? ev[p->ev] : "?");
	}
	if (fclose(f) != 0)
		return -errno;
	return 0;
}
