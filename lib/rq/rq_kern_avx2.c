/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX2 tier: 32-byte vectors. A length that is not a multiple of 32
 * (T = 1420 leaves 12 bytes) ends with one vector that overlaps the one
 * before: every kernel whose outputs are none of its inputs may compute
 * those bytes twice, so no byte is left to a scalar loop. row_mad
 * (dst ^= ...) cannot and ends with 16 bytes and scalar ones.
 */
#include <immintrin.h>

#include "rq_priv.h"
#include "rq_kern.h"

/*
 * XOR: up to XOR_NV vectors (256 bytes) per walk of the source list, so
 * a column stripe of the replay reads each source pointer once per 256
 * bytes; the source RQ_XOR_PF ahead is prefetched (sources of one
 * operation are scattered over the block).
 */
#define XOR_NV 8
#ifndef RQ_XOR_PF
#define RQ_XOR_PF 4
#endif

__attribute__((target("avx2"), always_inline))
static inline void
xor_avx2_n(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		const unsigned int nv)
{
	__m256i a[XOR_NV];
	const uint8_t *s = tab[idx[0]] + off;
	unsigned int i, v;

	for (v = 0; v < nv; v++)
		a[v] = _mm256_loadu_si256((const __m256i *)(s + 32 * v));
	for (i = 1; i < n; i++) {
		s = tab[idx[i]] + off;
		if (RQ_XOR_PF && i + RQ_XOR_PF < n) {
			const char *q = (const char *)tab[idx[i + RQ_XOR_PF]] + off;

			for (v = 0; v < nv; v += 2)
				_mm_prefetch(q + 32 * v, _MM_HINT_T0);
		}
		for (v = 0; v < nv; v++)
			a[v] = _mm256_xor_si256(a[v], _mm256_loadu_si256((const __m256i *)(s + 32 * v)));
	}
	for (v = 0; v < nv; v++)
		_mm256_storeu_si256((__m256i *)(dst + 32 * v), a[v]);
}

__attribute__((target("avx2")))
static void
xor_avx2_group(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, unsigned int nv)
{
	switch (nv) {
	case 1: xor_avx2_n(dst, tab, idx, n, off, 1); break;
	case 2: xor_avx2_n(dst, tab, idx, n, off, 2); break;
	case 3: xor_avx2_n(dst, tab, idx, n, off, 3); break;
	case 4: xor_avx2_n(dst, tab, idx, n, off, 4); break;
	case 5: xor_avx2_n(dst, tab, idx, n, off, 5); break;
	case 6: xor_avx2_n(dst, tab, idx, n, off, 6); break;
	case 7: xor_avx2_n(dst, tab, idx, n, off, 7); break;
	default: xor_avx2_n(dst, tab, idx, n, off, 8); break;
	}
}

__attribute__((target("avx2")))
static void
xor_avx2(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		size_t len)
{
	size_t o = 0, r;
	unsigned int nv;

	if (len < 32) {
		rq_kern_xor_generic(dst, tab, idx, n, off, len);
		return;
	}
	for (; o + 32 * XOR_NV <= len; o += 32 * XOR_NV)
		xor_avx2_n(dst + o, tab, idx, n, off + o, XOR_NV);
	r = len - o;
	if (r == 0)
		return;
	nv = (unsigned int)((r + 31) / 32);
	if (32 * (size_t)nv <= len) {	/* the last group ends at len */
		o = len - 32 * (size_t)nv;
		xor_avx2_group(dst + o, tab, idx, n, off + o, nv);
	} else {			/* len < 256, not a multiple of 32 */
		xor_avx2_group(dst, tab, idx, n, off, nv - 1);
		xor_avx2_n(dst + len - 32, tab, idx, n, off + len - 32, 1);
	}
}

/*
 * HDPC pass: HDPC_NC chunks of 32 bytes carried at once, because the
 * recurrence y = alpha * y + x is a latency chain per chunk; the H x NC
 * accumulators live in an L1-resident array indexed by the MT rows.
 */
#define HDPC_NC 4

__attribute__((target("avx2"), always_inline))
static inline __m256i
mul2_avx2(__m256i y, __m256i poly)
{
	__m256i hb = _mm256_cmpgt_epi8(_mm256_setzero_si256(), y);

	return _mm256_xor_si256(_mm256_add_epi8(y, y), _mm256_and_si256(hb, poly));
}

__attribute__((target("avx2"), always_inline))
static inline void
hdpc_avx2_n(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, const unsigned int nc)
{
	const __m256i poly = _mm256_set1_epi8(0x1d);
	__m256i acc[16][HDPC_NC], y[HDPC_NC], z;
	uint32_t m, h;
	unsigned int c;

	for (h = 0; h < H; h++)
		for (c = 0; c < nc; c++)
			acc[h][c] = _mm256_setzero_si256();
	for (c = 0; c < nc; c++)
		y[c] = _mm256_setzero_si256();
	for (m = 0; m < KS; m++) {
		const uint8_t *x = xin[m] != zero ? tab[xin[m]] + o : NULL;

		for (c = 0; c < nc; c++) {
			y[c] = mul2_avx2(y[c], poly);
			if (x != NULL)
				y[c] = _mm256_xor_si256(y[c],
					_mm256_loadu_si256((const __m256i *)(x + 32 * c)));
		}
		if (m + 1 < KS) {
			__m256i *a1 = acc[mt[2 * m]], *a2 = acc[mt[2 * m + 1]];

			for (c = 0; c < nc; c++) {
				a1[c] = _mm256_xor_si256(a1[c], y[c]);
				a2[c] = _mm256_xor_si256(a2[c], y[c]);
			}
		}
	}
	for (c = 0; c < nc; c++) {
		z = y[c];
		for (h = 0; h < H; h++) {
			_mm256_storeu_si256((__m256i *)(out[h] + o + 32 * c),
				_mm256_xor_si256(acc[h][c], z));
			z = mul2_avx2(z, poly);
		}
	}
}

__attribute__((target("avx2")))
static void
hdpc_avx2_group(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, unsigned int nc)
{
	switch (nc) {
	case 1: hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, o, 1); break;
	case 2: hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, o, 2); break;
	case 3: hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, o, 3); break;
	default: hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, o, 4); break;
	}
}

__attribute__((target("avx2")))
static void
hdpc_avx2(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t end)
{
	size_t start = o, r;
	unsigned int nc;

	if (end - o < 32) {
		rq_kern_hdpc_generic(tab, xin, zero, mt, KS, H, out, o, end);
		return;
	}
	for (; o + 32 * HDPC_NC <= end; o += 32 * HDPC_NC)
		hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, o, HDPC_NC);
	r = end - o;
	if (r == 0)
		return;
	nc = (unsigned int)((r + 31) / 32);
	if (end - start >= 32 * (size_t)nc) {
		hdpc_avx2_group(tab, xin, zero, mt, KS, H, out, end - 32 * (size_t)nc, nc);
	} else {
		hdpc_avx2_group(tab, xin, zero, mt, KS, H, out, o, nc - 1);
		hdpc_avx2_n(tab, xin, zero, mt, KS, H, out, end - 32, 1);
	}
}

/* --- GF(256) by nibble tables: c * x = lo[x & 15] ^ hi[x >> 4] --- */

__attribute__((target("avx2")))
static void
row_mad_avx2(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	const __m128i lo1 = _mm_loadu_si128((const __m128i *)rq_gf_nib[c]);
	const __m128i hi1 = _mm_loadu_si128((const __m128i *)(rq_gf_nib[c] + 16));
	const __m256i lo = _mm256_broadcastsi128_si256(lo1), hi = _mm256_broadcastsi128_si256(hi1);
	const __m256i m4 = _mm256_set1_epi8(0x0f);
	size_t o = 0;

	for (; o + 32 <= len; o += 32) {
		__m256i s = _mm256_loadu_si256((const __m256i *)(src + o));
		__m256i p = _mm256_xor_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(s, m4)),
			_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi64(s, 4), m4)));

		_mm256_storeu_si256((__m256i *)(dst + o),
			_mm256_xor_si256(p, _mm256_loadu_si256((const __m256i *)(dst + o))));
	}
	if (o + 16 <= len) {
		__m128i s = _mm_loadu_si128((const __m128i *)(src + o));
		__m128i p = _mm_xor_si128(_mm_shuffle_epi8(lo1, _mm_and_si128(s, _mm256_castsi256_si128(m4))),
			_mm_shuffle_epi8(hi1, _mm_and_si128(_mm_srli_epi64(s, 4),
				_mm256_castsi256_si128(m4))));

		_mm_storeu_si128((__m128i *)(dst + o),
			_mm_xor_si128(p, _mm_loadu_si128((const __m128i *)(dst + o))));
		o += 16;
	}
	if (o < len)
		rq_kern_row_mad_generic(dst + o, src + o, c, len - o);
}

/*
 * Dense product: DOT_ROWS output rows and 64 bytes per step; for each
 * source the nibbles are split once and each row's table pair is
 * broadcast from the (L1-resident) tables of those rows.
 */
#define DOT_ROWS 4

__attribute__((target("avx2"), always_inline))
static inline void
dot_avx2_blk(size_t o, unsigned int k, const unsigned int nr, const unsigned int nv,
		const uint8_t *tbl, uint8_t *const *in, uint8_t *const *out)
{
	const __m256i m4 = _mm256_set1_epi8(0x0f);
	__m256i acc[DOT_ROWS][2], lo[2], hi[2];
	unsigned int j, r, v;

	for (r = 0; r < nr; r++)
		for (v = 0; v < nv; v++)
			acc[r][v] = _mm256_setzero_si256();
	for (j = 0; j < k; j++) {
		const uint8_t *s = in[j] + o;

		for (v = 0; v < nv; v++) {
			__m256i x = _mm256_loadu_si256((const __m256i *)(s + 32 * v));

			lo[v] = _mm256_and_si256(x, m4);
			hi[v] = _mm256_and_si256(_mm256_srli_epi64(x, 4), m4);
		}
		for (r = 0; r < nr; r++) {
			const uint8_t *t = tbl + 32 * ((size_t)r * k + j);
			__m256i tl = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t));
			__m256i th = _mm256_broadcastsi128_si256(
				_mm_loadu_si128((const __m128i *)(t + 16)));

			for (v = 0; v < nv; v++)
				acc[r][v] = _mm256_xor_si256(acc[r][v], _mm256_xor_si256(
					_mm256_shuffle_epi8(tl, lo[v]), _mm256_shuffle_epi8(th, hi[v])));
		}
	}
	for (r = 0; r < nr; r++)
		for (v = 0; v < nv; v++)
			_mm256_storeu_si256((__m256i *)(out[r] + o + 32 * v), acc[r][v]);
}

__attribute__((target("avx2"), always_inline))
static inline void
dot_avx2_rows(size_t len, unsigned int k, const unsigned int nr, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	size_t o = 0;

	for (; o + 64 <= len; o += 64)
		dot_avx2_blk(o, k, nr, 2, tbl, in, out);
	if (o + 32 <= len) {
		dot_avx2_blk(o, k, nr, 1, tbl, in, out);
		o += 32;
	}
	if (o < len)	/* len >= 32: the last vector overlaps */
		dot_avx2_blk(len - 32, k, nr, 1, tbl, in, out);
}

__attribute__((target("avx2")))
static void
dot_avx2(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	if (len < 32) {
		rq_kern_dot_generic(len, k, rows, tbl, in, out);
		return;
	}
	while (rows > 0) {
		unsigned int nr = rows >= DOT_ROWS ? DOT_ROWS : rows;

		switch (nr) {
		case 1: dot_avx2_rows(len, k, 1, tbl, in, out); break;
		case 2: dot_avx2_rows(len, k, 2, tbl, in, out); break;
		case 3: dot_avx2_rows(len, k, 3, tbl, in, out); break;
		default: dot_avx2_rows(len, k, 4, tbl, in, out); break;
		}
		tbl += 32 * (size_t)nr * k;
		out += nr;
		rows -= nr;
	}
}

const struct rq_kern rq_kern_avx2 = {
	.isa = RQ_ISA_AVX2,
	.xor_at = xor_avx2,
	.hdpc = hdpc_avx2,
	.row_mad = row_mad_avx2,
	.dot = dot_avx2,
	.dot_aff = NULL,
	.stripe_min = 256,
	.stripe_clamp = 0,
	.gen_dec_max_kp = 256,
	.res_e_sqrt_k = 2.7,
	.gen_enc_max_kp = RQ_GEN_ENC_MAX_KP,
};
