/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net application side, shared by lib/dfcp, lib/tcp and the engine: the
 * verifiable pattern (with its plain reference), the pattern source, the
 * counting / verifying sink.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "net.h"

/*
 * The pattern: byte o of the stream is byte (o & 7) of the little-endian
 * word o >> 3; the 8 words of 64-byte line l are h(l) ^ lane[0..7], h a
 * splitmix64 of the line index and the seed. One 64-bit hash per line, not
 * per word: AVX2 has no 64-bit multiply, and a per-word hash made the fill
 * and the verifying check cost as much as the UDP checksum. Every word
 * still depends on its position (the lanes are distinct, the lines hashed)
 * and on the seed, so a misplaced, stale or foreign symbol is found.
 */

/* four words: one AVX2 register, two SSE ones in the plain build */
typedef uint64_t pat_v4 __attribute__((vector_size(32)));

/* lane j of a line: j times the golden-ratio constant */
static const pat_v4 pat_lane_v[2] = {
	{ 0x0000000000000000ull, 0x9e3779b97f4a7c15ull, 0x3c6ef372fe94f82aull,
		0xdaa66d2c7ddf743full },
	{ 0x78dde6e5fd29f054ull, 0x1715609f7c746c69ull, 0xb54cda58fbbee87eull,
		0x538454127b096493ull },
};

static inline uint64_t
pat_line(uint32_t seed, uint64_t line)
{
	uint64_t z = line * 0x9e3779b97f4a7c15ull + ((uint64_t)seed << 32 | seed);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint64_t
pat_word(uint32_t seed, uint64_t idx)
{
	return pat_line(seed, idx >> 3) ^ pat_lane_v[(idx >> 2) & 1][idx & 3];
}

/*
 * Word kernels: words up to a line boundary one by one, then whole lines
 * (one hash, 8 stores or compares the compiler vectorizes); an AVX-512 and
 * an AVX2 build of each are picked at run time (the plain build is
 * -march=x86-64-v2). Checked against net_pattern_fill_ref by
 * test/net/test_net.c.
 */
#define PAT_CHUNK	64u	/* words per compare chunk */

typedef uint64_t u64_una __attribute__((aligned(1), may_alias));

static inline __attribute__((always_inline)) void
pat_fill_body(uint32_t seed, uint64_t idx, uint8_t *p, size_t n)
{
	u64_una *q = (u64_una *)p;
	size_t i = 0;

	for (; i < n && ((idx + i) & 7) != 0; i++)
		q[i] = pat_word(seed, idx + i);
	for (; n - i >= 8; i += 8) {
		uint64_t h = pat_line(seed, (idx + i) >> 3);
		pat_v4 v = { h, h, h, h };
		pat_v4 lo = v ^ pat_lane_v[0], hi = v ^ pat_lane_v[1];

		memcpy(&q[i], &lo, sizeof(lo));
		memcpy(&q[i + 4], &hi, sizeof(hi));
	}
	for (; i < n; i++)
		q[i] = pat_word(seed, idx + i);
}

static inline __attribute__((always_inline)) uint64_t
pat_diff_body(uint32_t seed, uint64_t idx, const uint8_t *p, size_t n)
{
	const u64_una *q = (const u64_una *)p;
	pat_v4 dv = { 0, 0, 0, 0 };
	uint64_t d = 0;
	size_t i = 0;

	for (; i < n && ((idx + i) & 7) != 0; i++)
		d |= q[i] ^ pat_word(seed, idx + i);
	for (; n - i >= 8; i += 8) {
		uint64_t h = pat_line(seed, (idx + i) >> 3);
		pat_v4 v = { h, h, h, h }, lo, hi;

		memcpy(&lo, &q[i], sizeof(lo));
		memcpy(&hi, &q[i + 4], sizeof(hi));
		dv |= (lo ^ pat_lane_v[0] ^ v) | (hi ^ pat_lane_v[1] ^ v);
	}
	for (; i < n; i++)
		d |= q[i] ^ pat_word(seed, idx + i);
	return d | dv[0] | dv[1] | dv[2] | dv[3];
}

#if defined(__x86_64__) && defined(__GNUC__)
#define PAT_MULTIARCH 1
#ifdef __clang__
#define PAT_AVX512 "avx512f,avx512dq,avx512vl"
#else
#define PAT_AVX512 "avx512f,avx512dq,avx512vl,prefer-vector-width=512"
#endif
static __attribute__((target(PAT_AVX512))) void
pat_fill_avx512(uint32_t seed, uint64_t idx, uint8_t *p, size_t n)
{
	pat_fill_body(seed, idx, p, n);
}

static __attribute__((target(PAT_AVX512))) uint64_t
pat_diff_avx512(uint32_t seed, uint64_t idx, const uint8_t *p, size_t n)
{
	return pat_diff_body(seed, idx, p, n);
}

static __attribute__((target("avx2"))) void
pat_fill_avx2(uint32_t seed, uint64_t idx, uint8_t *p, size_t n)
{
	pat_fill_body(seed, idx, p, n);
}

static __attribute__((target("avx2"))) uint64_t
pat_diff_avx2(uint32_t seed, uint64_t idx, const uint8_t *p, size_t n)
{
	return pat_diff_body(seed, idx, p, n);
}
#endif

static void
pat_fill_words(uint32_t seed, uint64_t idx, uint8_t *p, size_t n)
{
#ifdef PAT_MULTIARCH
	if (__builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
		return pat_fill_avx512(seed, idx, p, n);
	if (__builtin_cpu_supports("avx2"))
		return pat_fill_avx2(seed, idx, p, n);
#endif
	pat_fill_body(seed, idx, p, n);
}

static uint64_t
pat_diff_words(uint32_t seed, uint64_t idx, const uint8_t *p, size_t n)
{
#ifdef PAT_MULTIARCH
	if (__builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
		return pat_diff_avx512(seed, idx, p, n);
	if (__builtin_cpu_supports("avx2"))
		return pat_diff_avx2(seed, idx, p, n);
#endif
	return pat_diff_body(seed, idx, p, n);
}

static void pattern_fill_bytes(uint32_t seed, uint64_t off, uint8_t *p, size_t len);
static size_t pattern_check_bytes(uint32_t seed, uint64_t off, const uint8_t *p,
		size_t len);

void
net_pattern_fill(uint32_t seed, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	/* head bytes up to a word boundary, then whole words (fast path) */
	if (off & 7) {
		size_t head = 8 - (off & 7);

		if (head > len)
			head = len;
		pattern_fill_bytes(seed, off, p, head);
		p += head;
		off += head;
		len -= head;
	}
	if (len >= 8) {
		size_t n = len >> 3;

		pat_fill_words(seed, off >> 3, p, n);
		p += n << 3;
		off += n << 3;
		len -= n << 3;
	}
	pattern_fill_bytes(seed, off, p, len);
}

static void
pattern_fill_bytes(uint32_t seed, uint64_t off, uint8_t *p, size_t len)
{
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
net_pattern_check(uint32_t seed, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t done = 0;

	/* fast path: from the first word boundary, whole words compared as integers */
	done = (8 - (off & 7)) & 7;
	if (done > len)
		done = len;
	if (pattern_check_bytes(seed, off, p, done) != done)
		return pattern_check_bytes(seed, off, p, done);
	/* all whole words at once; only a buffer with a difference is searched */
	if (len - done >= 8 && pat_diff_words(seed, (off + done) >> 3, p + done,
			(len - done) >> 3) == 0) {
		size_t n = (len - done) >> 3 << 3;

		return done + n + pattern_check_bytes(seed, off + done + n, p + done + n,
				len - done - n);
	}
	/* chunks of words compared at once; a chunk with a difference goes to the byte loop */
	for (uint64_t idx = (off + done) >> 3; len - done >= PAT_CHUNK * 8;
			done += PAT_CHUNK * 8, idx += PAT_CHUNK) {
		if (pat_diff_words(seed, idx, p + done, PAT_CHUNK) != 0)
			return done + pattern_check_bytes(seed, off + done, p + done,
					len - done);
	}
	if (len - done >= 8) {
		size_t n = (len - done) >> 3;

		if (pat_diff_words(seed, (off + done) >> 3, p + done, n) == 0)
			done += n << 3;
	}
	return done + pattern_check_bytes(seed, off + done, p + done, len - done);
}

static size_t
pattern_check_bytes(uint32_t seed, uint64_t off, const uint8_t *p, size_t len)
{
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

/*
 * The plain reference: every byte from the definition at the top, one at a
 * time (no lane table, no word kernels), for the tests of the kernels.
 */
void
net_pattern_fill_ref(uint32_t seed, uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++) {
		uint64_t o = off + i, w = o >> 3;
		uint64_t z = (w >> 3) * 0x9e3779b97f4a7c15ull + ((uint64_t)seed << 32 | seed);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		z ^= (w & 7) * 0x9e3779b97f4a7c15ull;
		p[i] = (uint8_t)(z >> (8 * (o & 7)));
	}
}

void
net_src_pattern_init(struct net_src_pattern *s, uint32_t seed, uint64_t total,
		uint64_t duration_ns)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->total = total;
	s->duration_ns = duration_ns;
	s->fd = -1;
}

size_t
net_src_pattern_read(void *ctx, uint64_t now, void *buf, size_t len)
{
	struct net_src_pattern *s = ctx;

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
		net_pattern_fill(s->seed, s->off, buf, len);
	}
	s->off += len;
	return len;
}

void
net_sink_count_init(struct net_sink_count *s, uint32_t seed, int verify)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	s->verify = verify;
	s->fd = -1;
}

void
net_sink_count_write(void *ctx, uint64_t off, const void *data, size_t len)
{
	struct net_sink_count *s = ctx;

	if (off != s->next_off)
		s->order_errors++;
	s->next_off = off + len;
	s->bytes += len;
	if (data == NULL)
		return;
	if (s->verify && net_pattern_check(s->seed, off, data, len) != len)
		s->bad_bytes += len;
	if (s->fd >= 0 && s->err == 0) {
		const uint8_t *p = data;

		while (len) {
			ssize_t w = write(s->fd, p, len);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				/* 0 for a non-empty write: no progress will come */
				s->err = w < 0 ? -errno : -EIO;
				break;
			}
			p += w;
			len -= (size_t)w;
			s->file_bytes += (uint64_t)w;
		}
	}
}

int
net_sink_count_sync(struct net_sink_count *s)
{
	if (s->fd < 0 || s->err != 0)
		return s->err;
	while (fsync(s->fd) < 0) {
		if (errno == EINTR)
			continue;
		if (errno != EINVAL && errno != EROFS)	/* a device or pipe: nothing to sync */
			s->err = -errno;
		break;
	}
	return s->err;
}
