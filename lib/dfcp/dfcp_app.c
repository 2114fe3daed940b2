/* SPDX-License-Identifier: BSD-3-Clause */
/* DFCP application side: verifiable pattern source, counting sink. */
#include <string.h>
#include <unistd.h>

#include "dfcp.h"

static inline uint64_t
pat_word(uint32_t seed, uint64_t idx)
{
	uint64_t z = idx * 0x9e3779b97f4a7c15ull + ((uint64_t)seed << 32 | seed);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void
dfcp_pattern_fill(uint32_t seed, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t w = pat_word(seed, off >> 3);
		unsigned int sh = off & 7, take = 8 - sh;

		if (take > len)
			take = (unsigned int)len;
		if (sh == 0 && take == 8) {
			memcpy(p, &w, 8);	/* little-endian word layout */
		} else {
			uint8_t tmp[8];

			memcpy(tmp, &w, 8);
			memcpy(p, tmp + sh, take);
		}
		p += take;
		off += take;
		len -= take;
	}
}

size_t
dfcp_pattern_check(uint32_t seed, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t done = 0;

	while (done < len) {
		uint8_t tmp[8];
		uint64_t w = pat_word(seed, (off + done) >> 3);
		unsigned int sh = (off + done) & 7, take = 8 - sh;

		if (take > len - done)
			take = (unsigned int)(len - done);
		memcpy(tmp, &w, 8);
		if (memcmp(p + done, tmp + sh, take) != 0) {
			for (unsigned int i = 0; i < take; i++)
				if (p[done + i] != tmp[sh + i])
					return done + i;
		}
		done += take;
	}
	return len;
}

void
dfcp_src_pattern_init(struct dfcp_src_pattern *s, uint32_t seed, uint64_t total,
		uint64_t duration_ns)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->total = total;
	s->duration_ns = duration_ns;
	s->fd = -1;
}

size_t
dfcp_src_pattern_read(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct dfcp_src_pattern *s = ctx;

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
	if (s->fd >= 0) {
		ssize_t r = read(s->fd, buf, len);

		if (r <= 0)
			return 0;
		len = (size_t)r;
	} else {
		dfcp_pattern_fill(s->seed, s->off, buf, len);
	}
	s->off += len;
	return len;
}

void
dfcp_sink_count_init(struct dfcp_sink_count *s, uint32_t seed, int verify)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->verify = verify;
	s->fd = -1;
}

void
dfcp_sink_count_write(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct dfcp_sink_count *s = ctx;

	if (off != s->next_off)
		s->order_errors++;
	s->next_off = off + len;
	s->bytes += len;
	if (data == NULL)
		return;
	if (s->verify && dfcp_pattern_check(s->seed, off, data, len) != len)
		s->bad_bytes += len;
	if (s->fd >= 0) {
		const uint8_t *p = data;

		while (len) {
			ssize_t w = write(s->fd, p, len);

			if (w <= 0)
				break;
			p += w;
			len -= (size_t)w;
		}
	}
}
