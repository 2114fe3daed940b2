/* SPDX-License-Identifier: BSD-3-Clause */
/* Application helpers: bulk source, counting / verifying sink, cwnd trace buffer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

/* byte at offset o: a function of (seed, o / 8) and o % 8 */
static uint64_t
pat_word(uint32_t seed, uint64_t w)
{
	uint64_t x = (w + 1) * 0x9e3779b97f4a7c15ull ^ ((uint64_t)seed << 32 | seed);

	x ^= x >> 31;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 29;
	return x;
}

void
tcp_pattern_fill(uint32_t seed, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len;) {
		uint64_t o = off + i, w = pat_word(seed, o / 8);
		unsigned int b = (unsigned int)(o % 8);

		for (; b < 8 && i < len; b++, i++)
			p[i] = (uint8_t)(w >> (8 * b));
	}
}

size_t
tcp_pattern_check(uint32_t seed, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	for (size_t i = 0; i < len;) {
		uint64_t o = off + i, w = pat_word(seed, o / 8);
		unsigned int b = (unsigned int)(o % 8);

		for (; b < 8 && i < len; b++, i++)
			if (p[i] != (uint8_t)(w >> (8 * b)))
				return i;
	}
	return len;
}

void
tcp_src_bulk_init(struct tcp_src_bulk *s, uint32_t seed, uint64_t total,
		uint64_t duration_ns)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->total = total;
	s->duration_ns = duration_ns;
}

size_t
tcp_src_bulk_read(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct tcp_src_bulk *s = ctx;

	if (!s->started) {
		s->started = 1;
		s->start_ns = now;
	}
	if (s->duration_ns && now - s->start_ns >= s->duration_ns)
		return 0;
	if (s->total) {
		if (s->off >= s->total)
			return 0;
		if (len > s->total - s->off)
			len = (size_t)(s->total - s->off);
	}
	tcp_pattern_fill(s->seed, s->off, buf, len);
	s->off += len;
	return len;
}

void
tcp_sink_count_init(struct tcp_sink_count *s, uint32_t seed, int verify)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->verify = verify;
}

void
tcp_sink_count_write(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct tcp_sink_count *s = ctx;

	if (off != s->next_off)
		s->order_errors++;
	s->next_off = off + len;
	s->bytes += len;
	if (s->verify && data != NULL && tcp_pattern_check(s->seed, off, data, len) != len)
		s->bad_bytes += len;
}

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
