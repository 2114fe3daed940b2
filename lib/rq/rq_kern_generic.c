/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Generic tier: plain C on 64-bit words (any CPU). The vector tiers call
 * these for what is shorter than one of their vectors.
 */
#include <string.h>

#include "rq_priv.h"
#include "rq_kern.h"

static inline uint64_t
load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline void
store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

void
rq_kern_xor_generic(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t len)
{
	size_t o = 0;
	unsigned int i;

	for (; o + 32 <= len; o += 32) {
		const uint8_t *s = tab[idx[0]] + off + o;
		uint64_t a0 = load64(s), a1 = load64(s + 8), a2 = load64(s + 16), a3 = load64(s + 24);

		for (i = 1; i < n; i++) {
			s = tab[idx[i]] + off + o;
			a0 ^= load64(s);
			a1 ^= load64(s + 8);
			a2 ^= load64(s + 16);
			a3 ^= load64(s + 24);
		}
		store64(dst + o, a0);
		store64(dst + o + 8, a1);
		store64(dst + o + 16, a2);
		store64(dst + o + 24, a3);
	}
	for (; o + 8 <= len; o += 8) {
		uint64_t a = load64(tab[idx[0]] + off + o);

		for (i = 1; i < n; i++)
			a ^= load64(tab[idx[i]] + off + o);
		store64(dst + o, a);
	}
	for (; o < len; o++) {
		uint8_t a = tab[idx[0]][off + o];

		for (i = 1; i < n; i++)
			a ^= tab[idx[i]][off + o];
		dst[o] = a;
	}
}

/* alpha * x on eight bytes at once (alpha = 2, polynomial 0x11d) */
static inline uint64_t
mul2_u64(uint64_t w)
{
	uint64_t hi = w & 0x8080808080808080ull;

	return ((w & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

/* The HDPC pass on the 8-byte word at o (n <= 8 bytes of it are real). */
static void
hdpc_word(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t n)
{
	uint64_t acc[16] = { 0 }, y = 0, z;
	uint8_t buf[8];
	uint32_t m, h;

	for (m = 0; m < KS; m++) {
		y = mul2_u64(y);
		if (xin[m] != zero) {
			if (n == 8) {
				y ^= load64(tab[xin[m]] + o);
			} else {
				memset(buf, 0, sizeof(buf));
				memcpy(buf, tab[xin[m]] + o, n);
				y ^= load64(buf);
			}
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
		if (n == 8) {
			store64(out[h] + o, acc[h]);
		} else {
			store64(buf, acc[h]);
			memcpy(out[h] + o, buf, n);
		}
	}
}

void
rq_kern_hdpc_generic(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t end)
{
	for (; o + 8 <= end; o += 8)
		hdpc_word(tab, xin, zero, mt, KS, H, out, o, 8);
	if (o < end)
		hdpc_word(tab, xin, zero, mt, KS, H, out, o, end - o);
}

void
rq_kern_row_mad_generic(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	const uint8_t *t = rq_gf_mul_full[c];
	size_t o;

	for (o = 0; o < len; o++)
		dst[o] ^= t[src[o]];
}

/*
 * One row at a time, one source after the other, through the full
 * multiplication table of the coefficient (one lookup per byte); the
 * coefficient is byte 1 of its nibble table (c * 1).
 */
void
rq_kern_dot_generic(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	unsigned int r, j;
	size_t o;

	for (r = 0; r < rows; r++) {
		uint8_t *d = out[r];

		memset(d, 0, len);
		for (j = 0; j < k; j++) {
			uint8_t c = tbl[32 * ((size_t)r * k + j) + 1];
			const uint8_t *t = rq_gf_mul_full[c], *s = in[j];

			if (c == 0)
				continue;
			for (o = 0; o < len; o++)
				d[o] ^= t[s[o]];
		}
	}
}

const struct rq_kern rq_kern_generic = {
	.isa = RQ_ISA_GENERIC,
	.xor_at = rq_kern_xor_generic,
	.hdpc = rq_kern_hdpc_generic,
	.row_mad = rq_kern_row_mad_generic,
	.dot = rq_kern_dot_generic,
	.dot_aff = NULL,
	.stripe_min = 64,
	.stripe_clamp = 0,
	.gen_dec_max_kp = 32,
	.res_e_sqrt_k = 2.7,
	.gen_enc_max_kp = 32,
};
