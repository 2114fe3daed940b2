/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * AVX-512 tiers (F + BW; the second also GFNI): 64-byte vectors with
 * masked tails. The kernels are the ones measured on the AVX-512 machine
 * (doc/raptorq.md, rounds 2-5); without GFNI the dense products are
 * ISA-L's (ec_encode_data, which runs its AVX-512 code on such a CPU).
 */
#include <immintrin.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_kern.h"

/*
 * nv (1..8) vectors of 64 bytes per pass over the sources, the last one
 * masked by m: one walk of the source list covers up to 512 bytes, so a
 * column stripe of a plan replay (<= 512 bytes) reads each source pointer
 * once.
 */
#ifndef RQ_XOR_PF
#define RQ_XOR_PF 4
#endif

__attribute__((target("avx512f,avx512bw"), always_inline))
static inline void
xor_avx512_n(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, const unsigned int nv, __mmask64 m)
{
	__m512i a[8];
	unsigned int i, v;
	const uint8_t *s = tab[idx[0]] + off;

	for (v = 0; v + 1 < nv; v++)
		a[v] = _mm512_loadu_si512(s + 64 * v);
	a[nv - 1] = _mm512_maskz_loadu_epi8(m, s + 64 * (nv - 1));
	for (i = 1; i < n; i++) {
		s = tab[idx[i]] + off;
		if (i + RQ_XOR_PF < n) {
			const char *q = (const char *)tab[idx[i + RQ_XOR_PF]] + off;

			for (v = 0; v < nv; v++)
				_mm_prefetch(q + 64 * v, _MM_HINT_T0);
		}
		for (v = 0; v + 1 < nv; v++)
			a[v] = _mm512_xor_si512(a[v], _mm512_loadu_si512(s + 64 * v));
		a[nv - 1] = _mm512_xor_si512(a[nv - 1],
			_mm512_maskz_loadu_epi8(m, s + 64 * (nv - 1)));
	}
	for (v = 0; v + 1 < nv; v++)
		_mm512_storeu_si512(dst + 64 * v, a[v]);
	_mm512_mask_storeu_epi8(dst + 64 * (nv - 1), m, a[nv - 1]);
}

__attribute__((target("avx512f,avx512bw")))
static void
xor_avx512(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		size_t len)
{
	size_t o = 0;

	for (; o + 512 <= len; o += 512)
		xor_avx512_n(dst + o, tab, idx, n, off + o, 8, (__mmask64)-1);
	if (o < len) {
		size_t r = len - o;
		unsigned int nv = (unsigned int)((r + 63) / 64);
		__mmask64 m = (__mmask64)-1 >> (64 * nv - r);

		switch (nv) {
		case 1: xor_avx512_n(dst + o, tab, idx, n, off + o, 1, m); break;
		case 2: xor_avx512_n(dst + o, tab, idx, n, off + o, 2, m); break;
		case 3: xor_avx512_n(dst + o, tab, idx, n, off + o, 3, m); break;
		case 4: xor_avx512_n(dst + o, tab, idx, n, off + o, 4, m); break;
		case 5: xor_avx512_n(dst + o, tab, idx, n, off + o, 5, m); break;
		case 6: xor_avx512_n(dst + o, tab, idx, n, off + o, 6, m); break;
		case 7: xor_avx512_n(dst + o, tab, idx, n, off + o, 7, m); break;
		default: xor_avx512_n(dst + o, tab, idx, n, off + o, 8, m); break;
		}
	}
}

/*
 * AVX-512: NC column chunks of 64 bytes at once. The recurrence
 * y = alpha * y + x is a latency chain per chunk; NC independent chains
 * keep the vector units busy (one chain ran at ~17 cycles per column). The
 * H x NC accumulators live in an L1-resident array (indexed by MT rows).
 */
__attribute__((target("avx512f,avx512bw"), always_inline))
static inline void
hdpc_avx512_n(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, const unsigned int nc,
		__mmask64 lm)
{
	const __m512i poly = _mm512_set1_epi8(0x1d);
	__m512i acc[16][4], y[4], z;
	uint32_t m, h;
	unsigned int c;

	for (h = 0; h < H; h++)
		for (c = 0; c < nc; c++)
			acc[h][c] = _mm512_setzero_si512();
	for (c = 0; c < nc; c++)
		y[c] = _mm512_setzero_si512();
	for (m = 0; m < KS; m++) {
		const uint8_t *x = xin[m] != zero ? tab[xin[m]] + o : NULL;

		for (c = 0; c < nc; c++) {
			__mmask64 hb = _mm512_movepi8_mask(y[c]);

			y[c] = _mm512_xor_si512(_mm512_add_epi8(y[c], y[c]),
				_mm512_maskz_mov_epi8(hb, poly));
			if (x != NULL)
				y[c] = _mm512_xor_si512(y[c], c + 1 < nc ?
					_mm512_loadu_si512(x + 64 * c) :
					_mm512_maskz_loadu_epi8(lm, x + 64 * c));
		}
		if (m + 1 < KS) {
			__m512i *a1 = acc[mt[2 * m]], *a2 = acc[mt[2 * m + 1]];

			for (c = 0; c < nc; c++) {
				a1[c] = _mm512_xor_si512(a1[c], y[c]);
				a2[c] = _mm512_xor_si512(a2[c], y[c]);
			}
		}
	}
	for (c = 0; c < nc; c++) {
		z = y[c];
		for (h = 0; h < H; h++) {
			__mmask64 hb = _mm512_movepi8_mask(z);

			if (c + 1 < nc)
				_mm512_storeu_si512(out[h] + o + 64 * c, _mm512_xor_si512(acc[h][c], z));
			else
				_mm512_mask_storeu_epi8(out[h] + o + 64 * c, lm,
					_mm512_xor_si512(acc[h][c], z));
			z = _mm512_xor_si512(_mm512_add_epi8(z, z), _mm512_maskz_mov_epi8(hb, poly));
		}
	}
}

__attribute__((target("avx512f,avx512bw")))
static void
hdpc_avx512(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t len)
{
	while (o < len) {
		size_t r = len - o;
		unsigned int nc = r >= 256 ? 4 : (unsigned int)((r + 63) / 64);
		__mmask64 lm = (__mmask64)-1 >> (64 * nc - (r < 256 ? r : 256));

		switch (nc) {
		case 4: hdpc_avx512_n(tab, xin, zero, mt, KS, H, out, o, 4, lm); break;
		case 3: hdpc_avx512_n(tab, xin, zero, mt, KS, H, out, o, 3, lm); break;
		case 2: hdpc_avx512_n(tab, xin, zero, mt, KS, H, out, o, 2, lm); break;
		default: hdpc_avx512_n(tab, xin, zero, mt, KS, H, out, o, 1, lm); break;
		}
		o += 64 * nc;
	}
}

__attribute__((target("avx512f,avx512bw")))
static void
row_mad_avx512(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	const __m512i lo = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)rq_gf_nib[c]));
	const __m512i hi = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(rq_gf_nib[c] + 16)));
	const __m512i m4 = _mm512_set1_epi8(0x0f);
	size_t o = 0;

	for (; o < len; o += 64) {
		__mmask64 m = len - o >= 64 ? (__mmask64)-1 : (__mmask64)-1 >> (64 - (len - o));
		__m512i s = _mm512_maskz_loadu_epi8(m, src + o);
		__m512i p = _mm512_xor_si512(_mm512_shuffle_epi8(lo, _mm512_and_si512(s, m4)),
			_mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi64(s, 4), m4)));

		_mm512_mask_storeu_epi8(dst + o, m,
			_mm512_xor_si512(p, _mm512_maskz_loadu_epi8(m, dst + o)));
	}
}

#ifndef RQ_DOT_ROWS
#define RQ_DOT_ROWS 16	/* most output rows per pass over the sources */
#endif

__attribute__((target("avx512f,avx512bw,gfni"), always_inline))
static inline void
dot_gfni_rows(size_t len, unsigned int k, const unsigned int nr, const uint64_t *a,
		uint8_t *const *in, uint8_t *const *out)
{
	size_t o;
	unsigned int j, r;

	for (o = 0; o < len; o += 64) {
		__mmask64 m = len - o >= 64 ? (__mmask64)-1 : (__mmask64)-1 >> (64 - (len - o));
		__m512i acc[16];

		for (r = 0; r < nr; r++)
			acc[r] = _mm512_setzero_si512();
		for (j = 0; j < k; j++) {
			__m512i x = _mm512_maskz_loadu_epi8(m, in[j] + o);

			for (r = 0; r < nr; r++)
				acc[r] = _mm512_xor_si512(acc[r], _mm512_gf2p8affine_epi64_epi8(x,
					_mm512_set1_epi64((long long)a[(size_t)r * k + j]), 0));
		}
		for (r = 0; r < nr; r++)
			_mm512_mask_storeu_epi8(out[r] + o, m, acc[r]);
	}
}

__attribute__((target("avx512f,avx512bw,gfni")))
static void
dot_gfni(size_t len, unsigned int k, unsigned int rows, const uint64_t *a,
		uint8_t *const *in, uint8_t *const *out)
{
	while (rows > 0) {
		unsigned int nr = rows >= 16 && RQ_DOT_ROWS >= 16 ? 16 :
			rows >= 12 && RQ_DOT_ROWS >= 12 ? 12 : rows > 8 ? 8 : rows == 7 ? 4 : rows;

		switch (nr) {
		case 16: dot_gfni_rows(len, k, 16, a, in, out); break;
		case 12: dot_gfni_rows(len, k, 12, a, in, out); break;
		case 8: dot_gfni_rows(len, k, 8, a, in, out); break;
		case 6: dot_gfni_rows(len, k, 6, a, in, out); break;
		case 5: dot_gfni_rows(len, k, 5, a, in, out); break;
		case 4: dot_gfni_rows(len, k, 4, a, in, out); break;
		case 3: dot_gfni_rows(len, k, 3, a, in, out); break;
		case 2: dot_gfni_rows(len, k, 2, a, in, out); break;
		default: dot_gfni_rows(len, k, 1, a, in, out); break;
		}
		a += (size_t)nr * k;
		out += nr;
		rows -= nr;
	}
}

static void
dot_isal(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	ec_encode_data((int)len, (int)k, (int)rows, (uint8_t *)tbl, (uint8_t **)in,
		(uint8_t **)out);
}

const struct rq_kern rq_kern_avx512 = {
	.isa = RQ_ISA_AVX512,
	.xor_at = xor_avx512,
	.hdpc = hdpc_avx512,
	.row_mad = row_mad_avx512,
	.dot = dot_isal,
	.dot_aff = NULL,
	.stripe_min = 256,
	.stripe_clamp = 1,
	.gen_dec_max_kp = RQ_GEN_MAX_KP,
	.res_e_sqrt_k = 0,
	.gen_enc_max_kp = RQ_GEN_ENC_MAX_KP,
};

const struct rq_kern rq_kern_avx512_gfni = {
	.isa = RQ_ISA_AVX512_GFNI,
	.xor_at = xor_avx512,
	.hdpc = hdpc_avx512,
	.row_mad = row_mad_avx512,
	.dot = dot_isal,
	.dot_aff = dot_gfni,
	.stripe_min = 256,
	.stripe_clamp = 1,
	.gen_dec_max_kp = RQ_GEN_MAX_KP,
	.res_e_sqrt_k = 0,
	.gen_enc_max_kp = RQ_GEN_ENC_MAX_KP,
};
