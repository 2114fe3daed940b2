/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Symbol kernels. XOR of many sources into one destination, with run-time
 * dispatch (AVX-512, AVX2, SSE2). ISA-L's xor_gen wants 32-byte aligned
 * buffers and lengths; symbols in packet buffers are neither, so the XOR is
 * ours. GF(256) products go through ISA-L (ec_encode_data).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <immintrin.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_sym.h"

void *
rq_sym_alloc(size_t bytes)
{
	const size_t huge = (size_t)2 << 20;
	void *p;

	if (bytes < huge / 2)
		return aligned_alloc(64, (bytes + 63) / 64 * 64);
	bytes = (bytes + huge - 1) / huge * huge;
	p = aligned_alloc(huge, bytes);
#ifdef MADV_HUGEPAGE
	if (p != NULL)
		(void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
	return p;
}

static void
xor_tail(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t o, size_t len)
{
	unsigned int i;

	for (; o + 8 <= len; o += 8) {
		uint64_t a, b;

		memcpy(&a, tab[idx[0]] + off + o, 8);
		for (i = 1; i < n; i++) {
			memcpy(&b, tab[idx[i]] + off + o, 8);
			a ^= b;
		}
		memcpy(dst + o, &a, 8);
	}
	for (; o < len; o++) {
		uint8_t a = tab[idx[0]][off + o];

		for (i = 1; i < n; i++)
			a ^= tab[idx[i]][off + o];
		dst[o] = a;
	}
}

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

__attribute__((target("avx2")))
static void
xor_avx2(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		size_t len)
{
	size_t o = 0;
	unsigned int i;

	for (; o + 128 <= len; o += 128) {
		const uint8_t *s = tab[idx[0]] + off + o;
		__m256i a0 = _mm256_loadu_si256((const __m256i *)s);
		__m256i a1 = _mm256_loadu_si256((const __m256i *)(s + 32));
		__m256i a2 = _mm256_loadu_si256((const __m256i *)(s + 64));
		__m256i a3 = _mm256_loadu_si256((const __m256i *)(s + 96));

		for (i = 1; i < n; i++) {
			s = tab[idx[i]] + off + o;
			a0 = _mm256_xor_si256(a0, _mm256_loadu_si256((const __m256i *)s));
			a1 = _mm256_xor_si256(a1, _mm256_loadu_si256((const __m256i *)(s + 32)));
			a2 = _mm256_xor_si256(a2, _mm256_loadu_si256((const __m256i *)(s + 64)));
			a3 = _mm256_xor_si256(a3, _mm256_loadu_si256((const __m256i *)(s + 96)));
		}
		_mm256_storeu_si256((__m256i *)(dst + o), a0);
		_mm256_storeu_si256((__m256i *)(dst + o + 32), a1);
		_mm256_storeu_si256((__m256i *)(dst + o + 64), a2);
		_mm256_storeu_si256((__m256i *)(dst + o + 96), a3);
	}
	for (; o + 32 <= len; o += 32) {
		__m256i a = _mm256_loadu_si256((const __m256i *)(tab[idx[0]] + off + o));

		for (i = 1; i < n; i++)
			a = _mm256_xor_si256(a, _mm256_loadu_si256((const __m256i *)(tab[idx[i]] + off + o)));
		_mm256_storeu_si256((__m256i *)(dst + o), a);
	}
	xor_tail(dst, tab, idx, n, off, o, len);
}

static void
xor_sse2(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t off,
		size_t len)
{
	size_t o = 0;
	unsigned int i;

	for (; o + 64 <= len; o += 64) {
		const uint8_t *s = tab[idx[0]] + off + o;
		__m128i a0 = _mm_loadu_si128((const __m128i *)s);
		__m128i a1 = _mm_loadu_si128((const __m128i *)(s + 16));
		__m128i a2 = _mm_loadu_si128((const __m128i *)(s + 32));
		__m128i a3 = _mm_loadu_si128((const __m128i *)(s + 48));

		for (i = 1; i < n; i++) {
			s = tab[idx[i]] + off + o;
			a0 = _mm_xor_si128(a0, _mm_loadu_si128((const __m128i *)s));
			a1 = _mm_xor_si128(a1, _mm_loadu_si128((const __m128i *)(s + 16)));
			a2 = _mm_xor_si128(a2, _mm_loadu_si128((const __m128i *)(s + 32)));
			a3 = _mm_xor_si128(a3, _mm_loadu_si128((const __m128i *)(s + 48)));
		}
		_mm_storeu_si128((__m128i *)(dst + o), a0);
		_mm_storeu_si128((__m128i *)(dst + o + 16), a1);
		_mm_storeu_si128((__m128i *)(dst + o + 32), a2);
		_mm_storeu_si128((__m128i *)(dst + o + 48), a3);
	}
	xor_tail(dst, tab, idx, n, off, o, len);
}

typedef void (*xor_fn)(uint8_t *, uint8_t *const *, const uint32_t *, unsigned int, size_t,
		size_t);
static xor_fn xor_impl = xor_sse2;

__attribute__((constructor))
static void
rq_sym_init(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512bw"))
		xor_impl = xor_avx512;
	else if (__builtin_cpu_supports("avx2"))
		xor_impl = xor_avx2;
}

void
rq_xor_idx(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n, size_t len)
{
	rq_xor_idx_at(dst, tab, idx, n, 0, len);
}

void
rq_xor_idx_at(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t len)
{
	if (n == 0)
		memset(dst, 0, len);
	else if (n == 1)
		memmove(dst, tab[idx[0]] + off, len);
	else
		xor_impl(dst, tab, idx, n, off, len);
}

void
rq_xor_idx_ref(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len)
{
	size_t o;
	unsigned int i;

	for (o = 0; o < len; o++) {
		uint8_t a = 0;

		for (i = 0; i < n; i++)
			a ^= tab[idx[i]][o];
		dst[o] = a;
	}
}

void
rq_dot_ref(size_t len, unsigned int k, unsigned int rows, const uint8_t *coef,
		uint8_t *const *in, uint8_t *const *out)
{
	unsigned int r, j;
	size_t o;

	for (r = 0; r < rows; r++)
		for (o = 0; o < len; o++) {
			uint8_t a = 0;

			for (j = 0; j < k; j++)
				a ^= rq_gf_mul(coef[(size_t)r * k + j], in[j][o]);
			out[r][o] = a;
		}
}

/*
 * HDPC rows through the structure G_HDPC = MT * GAMMA (RFC 6330 §5.3.3.3):
 * y_m = alpha * y_{m-1} + x_m, out[h] = XOR of y_m over the two MT rows of
 * column m (m < KS-1), plus alpha^h * y_{KS-1}. One pass, y in a register.
 */
static inline uint64_t
mul2_u64(uint64_t w)
{
	uint64_t hi = w & 0x8080808080808080ull;

	return ((w & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

static void
hdpc_generic(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t len)
{
	uint64_t acc[16], y, x, z;
	uint32_t m, h;
	size_t n;

	for (; o < len; o += n) {
		uint8_t buf[8] = { 0 };

		n = len - o < 8 ? len - o : 8;
		y = 0;
		memset(acc, 0, sizeof(acc));
		for (m = 0; m < KS; m++) {
			y = mul2_u64(y);
			if (xin[m] != zero) {
				memcpy(buf, tab[xin[m]] + o, n);
				memcpy(&x, buf, 8);
				y ^= x;
			}
			if (m + 1 < KS) {
				acc[mt[2 * m]] ^= y;
				acc[mt[2 * m + 1]] ^= y;
			}
		}
		z = y;
		for (h = 0; h < H; h++) {
			acc[h] ^= z;
			z = mul2_u64(z);
			memcpy(buf, &acc[h], 8);
			memcpy(out[h] + o, buf, n);
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

static int have_avx512;

__attribute__((constructor))
static void
rq_sym_init2(void)
{
	__builtin_cpu_init();
	have_avx512 = __builtin_cpu_supports("avx512bw");
}

void
rq_hdpc_apply(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t len)
{
	rq_hdpc_apply_at(tab, xin, zero, mt, KS, H, out, 0, len);
}

void
rq_hdpc_apply_at(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t off, size_t len)
{
	if (have_avx512)
		hdpc_avx512(tab, xin, zero, mt, KS, H, out, off, off + len);
	else
		hdpc_generic(tab, xin, zero, mt, KS, H, out, off, off + len);
}

void
rq_hdpc_apply_generic(uint8_t *const *tab, const uint32_t *xin, uint32_t zero,
		const uint8_t *mt, uint32_t KS, uint32_t H, uint8_t *const *out, size_t len)
{
	hdpc_generic(tab, xin, zero, mt, KS, H, out, 0, len);
}

/* --- GF(256) row kernels (matrix work of the solver) --- */
uint8_t rq_gf_nib[256][32];

__attribute__((constructor))
static void
rq_gf_nib_init(void)
{
	unsigned int c, i;

	for (c = 0; c < 256; c++)
		for (i = 0; i < 16; i++) {
			rq_gf_nib[c][i] = rq_gf_mul((uint8_t)c, (uint8_t)i);
			rq_gf_nib[c][16 + i] = rq_gf_mul((uint8_t)c, (uint8_t)(i << 4));
		}
}

void
rq_gf_row_mad_ref(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] ^= rq_gf_mul(c, src[i]);
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

__attribute__((target("avx2")))
static void
row_mad_avx2(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)rq_gf_nib[c]));
	const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(rq_gf_nib[c] + 16)));
	const __m256i m4 = _mm256_set1_epi8(0x0f);
	size_t o = 0;

	for (; o + 32 <= len; o += 32) {
		__m256i s = _mm256_loadu_si256((const __m256i *)(src + o));
		__m256i p = _mm256_xor_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(s, m4)),
			_mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi64(s, 4), m4)));

		_mm256_storeu_si256((__m256i *)(dst + o),
			_mm256_xor_si256(p, _mm256_loadu_si256((const __m256i *)(dst + o))));
	}
	for (; o < len; o++)
		dst[o] ^= rq_gf_nib[c][src[o] & 15] ^ rq_gf_nib[c][16 + (src[o] >> 4)];
}

static void
row_mad_scalar(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	size_t o;

	for (o = 0; o < len; o++)
		dst[o] ^= rq_gf_nib[c][src[o] & 15] ^ rq_gf_nib[c][16 + (src[o] >> 4)];
}

typedef void (*row_mad_fn)(uint8_t *, const uint8_t *, uint8_t, size_t);
static row_mad_fn row_mad_impl = row_mad_scalar;

__attribute__((constructor))
static void
rq_sym_init3(void)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512bw"))
		row_mad_impl = row_mad_avx512;
	else if (__builtin_cpu_supports("avx2"))
		row_mad_impl = row_mad_avx2;
}

void
rq_gf_row_mad(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c == 0)
		return;
	row_mad_impl(dst, src, c, len);
}

void
rq_gf_init_tables(unsigned int k, unsigned int rows, const uint8_t *a, uint8_t *tbl)
{
	size_t i, n = (size_t)k * rows;

	for (i = 0; i < n; i++)
		memcpy(tbl + 32 * i, rq_gf_nib[a[i]], 32);
}

/*
 * --- GF(256) dot products: out[r] = sum_j coef[r*k+j] * in[j] ---
 * With GFNI + AVX-512 a multiplication by c is one gf2p8affineqb with the
 * 8x8 bit matrix of x -> c*x (any field polynomial, here 0x11d), so one
 * output row costs an affine and an XOR per 64 source bytes, against two
 * shuffles and two XORs (plus the nibble split) for ISA-L 2.30's AVX-512
 * tables. Without GFNI the tables are ISA-L's and ec_encode_data runs.
 */
static uint64_t gf_aff[256];
static int gf_dot_gfni, gf_has_gfni;

__attribute__((constructor))
static void
rq_gf_aff_init(void)
{
	unsigned int c, i, j;

	for (c = 0; c < 256; c++) {
		uint64_t a = 0;

		for (i = 0; i < 8; i++) {	/* output bit i: byte 7-i */
			uint64_t row = 0;

			for (j = 0; j < 8; j++)
				if ((rq_gf_mul((uint8_t)c, (uint8_t)(1u << j)) >> i) & 1)
					row |= 1u << j;
			a |= row << (8 * (7 - i));
		}
		gf_aff[c] = a;
	}
	__builtin_cpu_init();
	gf_has_gfni = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("gfni");
	gf_dot_gfni = gf_has_gfni;
}

int
rq_gf_dot_set_gfni(int on)
{
	gf_dot_gfni = on && gf_has_gfni;
	return gf_dot_gfni;
}

int
rq_gf_dot_mode(void)
{
	return gf_dot_gfni;
}

void
rq_gf_dot_tables(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl)
{
	rq_gf_dot_tables_m(k, rows, coef, tbl, gf_dot_gfni);
}

void
rq_gf_dot_tables_m(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl,
		int gfni)
{
	size_t i, n = (size_t)k * rows;

	if (gfni && gf_has_gfni) {
		uint64_t *a = (uint64_t *)(void *)tbl;

		for (i = 0; i < n; i++)
			a[i] = gf_aff[coef[i]];
	} else {
		rq_gf_init_tables(k, rows, coef, tbl);
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

void
rq_gf_dot(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	rq_gf_dot_m(len, k, rows, tbl, in, out, gf_dot_gfni);
}

void
rq_gf_dot_m(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out, int gfni)
{
	if (len == 0 || rows == 0)
		return;
	if (gfni && gf_has_gfni)
		dot_gfni(len, k, rows, (const uint64_t *)(const void *)tbl, in, out);
	else
		ec_encode_data((int)len, (int)k, (int)rows, (uint8_t *)tbl, (uint8_t **)in,
			(uint8_t **)out);
}
