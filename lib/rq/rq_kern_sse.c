/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * SSE tier: 16-byte vectors, SSE2 and SSSE3's pshufb for GF(256). The
 * same shapes as the AVX2 tier (rq_kern_avx2.c): one overlapping last
 * vector where outputs are no inputs, 16 output bytes and 4 rows per step
 * of the dense product.
 */
#include <immintrin.h>

#include "rq_priv.h"
#include "rq_kern.h"

#define XOR_NV 8	/* 128 bytes per walk of the source list */
#define XOR_PF 4	/* the source this far ahead is prefetched, as on AVX2 */

__attribute__((target("ssse3"), always_inline))
static inline void
xor_sse_n(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		const unsigned int nv)
{
	__m128i a[XOR_NV];
	const uint8_t *s = tab[idx[0]] + off;
	unsigned int i, v;

	for (v = 0; v < nv; v++)
		a[v] = _mm_loadu_si128((const __m128i *)(s + 16 * v));
	for (i = 1; i < n; i++) {
		s = tab[idx[i]] + off;
		if (i + XOR_PF < n) {
			const char *q = (const char *)tab[idx[i + XOR_PF]] + off;

			for (v = 0; v < nv; v += 4)
				_mm_prefetch(q + 16 * v, _MM_HINT_T0);
		}
		for (v = 0; v < nv; v++)
			a[v] = _mm_xor_si128(a[v], _mm_loadu_si128((const __m128i *)(s + 16 * v)));
	}
	for (v = 0; v < nv; v++)
		_mm_storeu_si128((__m128i *)(dst + 16 * v), a[v]);
}

__attribute__((target("ssse3")))
static void
xor_sse_group(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, unsigned int nv)
{
	switch (nv) {
	case 1: xor_sse_n(dst, tab, idx, n, off, 1); break;
	case 2: xor_sse_n(dst, tab, idx, n, off, 2); break;
	case 3: xor_sse_n(dst, tab, idx, n, off, 3); break;
	case 4: xor_sse_n(dst, tab, idx, n, off, 4); break;
	case 5: xor_sse_n(dst, tab, idx, n, off, 5); break;
	case 6: xor_sse_n(dst, tab, idx, n, off, 6); break;
	case 7: xor_sse_n(dst, tab, idx, n, off, 7); break;
	default: xor_sse_n(dst, tab, idx, n, off, 8); break;
	}
}

__attribute__((target("ssse3")))
static void
xor_sse(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		size_t len)
{
	size_t o = 0, r;
	unsigned int nv;

	if (len < 16) {
		rq_kern_xor_generic(dst, tab, idx, n, off, len);
		return;
	}
	for (; o + 16 * XOR_NV <= len; o += 16 * XOR_NV)
		xor_sse_n(dst + o, tab, idx, n, off + o, XOR_NV);
	r = len - o;
	if (r == 0)
		return;
	nv = (unsigned int)((r + 15) / 16);
	if (16 * (size_t)nv <= len) {
		o = len - 16 * (size_t)nv;
		xor_sse_group(dst + o, tab, idx, n, off + o, nv);
	} else {
		xor_sse_group(dst, tab, idx, n, off, nv - 1);
		xor_sse_n(dst + len - 16, tab, idx, n, off + len - 16, 1);
	}
}

#define HDPC_NC 4	/* 16-byte chains carried at once */

__attribute__((target("ssse3"), always_inline))
static inline __m128i
mul2_sse(__m128i y, __m128i poly)
{
	__m128i hb = _mm_cmpgt_epi8(_mm_setzero_si128(), y);

	return _mm_xor_si128(_mm_add_epi8(y, y), _mm_and_si128(hb, poly));
}

__attribute__((target("ssse3"), always_inline))
static inline void
hdpc_sse_n(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, const unsigned int nc)
{
	const __m128i poly = _mm_set1_epi8(0x1d);
	__m128i acc[16][HDPC_NC], y[HDPC_NC], z;
	uint32_t m, h;
	unsigned int c;

	for (h = 0; h < H; h++)
		for (c = 0; c < nc; c++)
			acc[h][c] = _mm_setzero_si128();
	for (c = 0; c < nc; c++)
		y[c] = _mm_setzero_si128();
	for (m = 0; m < KS; m++) {
		const uint8_t *x = xin[m] != zero ? tab[xin[m]] + o : NULL;

		for (c = 0; c < nc; c++) {
			y[c] = mul2_sse(y[c], poly);
			if (x != NULL)
				y[c] = _mm_xor_si128(y[c], _mm_loadu_si128((const __m128i *)(x + 16 * c)));
		}
		if (m + 1 < KS) {
			__m128i *a1 = acc[mt[2 * m]], *a2 = acc[mt[2 * m + 1]];

			for (c = 0; c < nc; c++) {
				a1[c] = _mm_xor_si128(a1[c], y[c]);
				a2[c] = _mm_xor_si128(a2[c], y[c]);
			}
		}
	}
	for (c = 0; c < nc; c++) {
		z = y[c];
		for (h = 0; h < H; h++) {
			_mm_storeu_si128((__m128i *)(out[h] + o + 16 * c), _mm_xor_si128(acc[h][c], z));
			z = mul2_sse(z, poly);
		}
	}
}

__attribute__((target("ssse3")))
static void
hdpc_sse_group(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, unsigned int nc)
{
	switch (nc) {
	case 1: hdpc_sse_n(tab, xin, zero, mt, KS, H, out, o, 1); break;
	case 2: hdpc_sse_n(tab, xin, zero, mt, KS, H, out, o, 2); break;
	case 3: hdpc_sse_n(tab, xin, zero, mt, KS, H, out, o, 3); break;
	default: hdpc_sse_n(tab, xin, zero, mt, KS, H, out, o, 4); break;
	}
}

__attribute__((target("ssse3")))
static void
hdpc_sse(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t end)
{
	size_t start = o, r;
	unsigned int nc;

	if (end - o < 16) {
		rq_kern_hdpc_generic(tab, xin, zero, mt, KS, H, out, o, end);
		return;
	}
	for (; o + 16 * HDPC_NC <= end; o += 16 * HDPC_NC)
		hdpc_sse_n(tab, xin, zero, mt, KS, H, out, o, HDPC_NC);
	r = end - o;
	if (r == 0)
		return;
	nc = (unsigned int)((r + 15) / 16);
	if (end - start >= 16 * (size_t)nc) {
		hdpc_sse_group(tab, xin, zero, mt, KS, H, out, end - 16 * (size_t)nc, nc);
	} else {
		hdpc_sse_group(tab, xin, zero, mt, KS, H, out, o, nc - 1);
		hdpc_sse_n(tab, xin, zero, mt, KS, H, out, end - 16, 1);
	}
}

__attribute__((target("ssse3")))
static void
row_mad_sse(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	const __m128i lo = _mm_loadu_si128((const __m128i *)rq_gf_nib[c]);
	const __m128i hi = _mm_loadu_si128((const __m128i *)(rq_gf_nib[c] + 16));
	const __m128i m4 = _mm_set1_epi8(0x0f);
	size_t o = 0;

	for (; o + 16 <= len; o += 16) {
		__m128i s = _mm_loadu_si128((const __m128i *)(src + o));
		__m128i p = _mm_xor_si128(_mm_shuffle_epi8(lo, _mm_and_si128(s, m4)),
			_mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi64(s, 4), m4)));

		_mm_storeu_si128((__m128i *)(dst + o),
			_mm_xor_si128(p, _mm_loadu_si128((const __m128i *)(dst + o))));
	}
	if (o < len)
		rq_kern_row_mad_generic(dst + o, src + o, c, len - o);
}

#define DOT_ROWS 4

__attribute__((target("ssse3"), always_inline))
static inline void
dot_sse_blk(size_t o, unsigned int k, const unsigned int nr, const unsigned int nv,
		const uint8_t *tbl, uint8_t *const *in, uint8_t *const *out)
{
	const __m128i m4 = _mm_set1_epi8(0x0f);
	__m128i acc[DOT_ROWS][2], lo[2], hi[2];
	unsigned int j, r, v;

	for (r = 0; r < nr; r++)
		for (v = 0; v < nv; v++)
			acc[r][v] = _mm_setzero_si128();
	for (j = 0; j < k; j++) {
		const uint8_t *s = in[j] + o;

		for (v = 0; v < nv; v++) {
			__m128i x = _mm_loadu_si128((const __m128i *)(s + 16 * v));

			lo[v] = _mm_and_si128(x, m4);
			hi[v] = _mm_and_si128(_mm_srli_epi64(x, 4), m4);
		}
		for (r = 0; r < nr; r++) {
			const uint8_t *t = tbl + 32 * ((size_t)r * k + j);
			__m128i tl = _mm_loadu_si128((const __m128i *)t);
			__m128i th = _mm_loadu_si128((const __m128i *)(t + 16));

			for (v = 0; v < nv; v++)
				acc[r][v] = _mm_xor_si128(acc[r][v], _mm_xor_si128(
					_mm_shuffle_epi8(tl, lo[v]), _mm_shuffle_epi8(th, hi[v])));
		}
	}
	for (r = 0; r < nr; r++)
		for (v = 0; v < nv; v++)
			_mm_storeu_si128((__m128i *)(out[r] + o + 16 * v), acc[r][v]);
}

__attribute__((target("ssse3"), always_inline))
static inline void
dot_sse_rows(size_t len, unsigned int k, const unsigned int nr, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	size_t o = 0;

	for (; o + 32 <= len; o += 32)
		dot_sse_blk(o, k, nr, 2, tbl, in, out);
	if (o + 16 <= len) {
		dot_sse_blk(o, k, nr, 1, tbl, in, out);
		o += 16;
	}
	if (o < len)
		dot_sse_blk(len - 16, k, nr, 1, tbl, in, out);
}

__attribute__((target("ssse3")))
static void
dot_sse(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	if (len < 16) {
		rq_kern_dot_generic(len, k, rows, tbl, in, out);
		return;
	}
	while (rows > 0) {
		unsigned int nr = rows >= DOT_ROWS ? DOT_ROWS : rows;

		switch (nr) {
		case 1: dot_sse_rows(len, k, 1, tbl, in, out); break;
		case 2: dot_sse_rows(len, k, 2, tbl, in, out); break;
		case 3: dot_sse_rows(len, k, 3, tbl, in, out); break;
		default: dot_sse_rows(len, k, 4, tbl, in, out); break;
		}
		tbl += 32 * (size_t)nr * k;
		out += nr;
		rows -= nr;
	}
}

const struct rq_kern rq_kern_sse = {
	.isa = RQ_ISA_SSE,
	.xor_at = xor_sse,
	.hdpc = hdpc_sse,
	.row_mad = row_mad_sse,
	.dot = dot_sse,
	.dot_aff = NULL,
	.stripe_min = 128,
	.stripe_clamp = 0,
	.gen_dec_max_kp = 256,
	.res_e_sqrt_k = 2.7,
	.gen_enc_max_kp = RQ_GEN_ENC_MAX_KP,
};
