/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Symbol arithmetic entry points: symbol memory, and the kernels of the
 * tier chosen by rq_isa_init (rq_kern_cur), with the cases every tier
 * shares (no source, one source, zero coefficient) handled here once.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rq_priv.h"
#include "rq_kern.h"
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
		rq_kern_cur->xor_at(dst, tab, idx, n, off, len);
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
	if (len > 0)
		rq_kern_cur->hdpc(tab, xin, zero, mt, KS, H, out, off, off + len);
}

void
rq_gf_row_mad(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	if (c != 0 && len > 0)
		rq_kern_cur->row_mad(dst, src, c, len);
}

uint8_t
rq_gf_nib_mul(uint8_t c, uint8_t x)
{
	return rq_gf_nib[c][x & 15] ^ rq_gf_nib[c][16 + (x >> 4)];
}

void
rq_gf_init_tables(unsigned int k, unsigned int rows, const uint8_t *a, uint8_t *tbl)
{
	size_t i, n = (size_t)k * rows;

	for (i = 0; i < n; i++)
		memcpy(tbl + 32 * i, rq_gf_nib[a[i]], 32);
}

size_t
rq_gf_dot_tbl_size(unsigned int k, unsigned int rows)
{
	return (size_t)32 * k * rows;
}

static void
aff_tables(unsigned int k, unsigned int rows, const uint8_t *coef, uint64_t *aff)
{
	size_t i, n = (size_t)k * rows;

	for (i = 0; i < n; i++)
		aff[i] = rq_gf_aff[coef[i]];
}

void
rq_gf_dot_tables(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl)
{
	if (rq_kern_cur->dot_aff != NULL)
		aff_tables(k, rows, coef, (uint64_t *)(void *)tbl);
	else
		rq_gf_init_tables(k, rows, coef, tbl);
}

void
rq_gf_dot(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out)
{
	if (len == 0 || rows == 0)
		return;
	if (rq_kern_cur->dot_aff != NULL)
		rq_kern_cur->dot_aff(len, k, rows, (const uint64_t *)(const void *)tbl, in, out);
	else
		rq_kern_cur->dot(len, k, rows, tbl, in, out);
}

int
rq_gf_have_aff(void)
{
	return rq_isa_supported(RQ_ISA_AVX512_GFNI);
}

void
rq_gf_dot_tables_any(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *nib,
		uint64_t *aff)
{
	rq_gf_init_tables(k, rows, coef, nib);
	if (aff != NULL)
		aff_tables(k, rows, coef, aff);
}

void
rq_gf_dot_any(size_t len, unsigned int k, unsigned int rows, const uint8_t *nib,
		const uint64_t *aff, uint8_t *const *in, uint8_t *const *out)
{
	if (len == 0 || rows == 0)
		return;
	if (rq_kern_cur->dot_aff != NULL && aff != NULL)
		rq_kern_cur->dot_aff(len, k, rows, aff, in, out);
	else
		rq_kern_cur->dot(len, k, rows, nib, in, out);
}

/* --- the kernels' GF(256) tables (filled by rq_isa_init, once) --- */
uint8_t rq_gf_nib[256][32];
uint64_t rq_gf_aff[256];
uint64_t rq_bit_bytes[256];
uint8_t rq_gf_mul_full[256][256];

void
rq_kern_tables_init(void)
{
	unsigned int c, i, j;

	for (c = 0; c < 256; c++) {
		uint64_t a = 0;

		for (i = 0; i < 16; i++) {
			rq_gf_nib[c][i] = rq_gf_mul((uint8_t)c, (uint8_t)i);
			rq_gf_nib[c][16 + i] = rq_gf_mul((uint8_t)c, (uint8_t)(i << 4));
		}
		/* affine matrix of x -> c * x: output bit i is byte 7 - i */
		for (i = 0; i < 8; i++) {
			uint64_t row = 0;

			for (j = 0; j < 8; j++)
				if ((rq_gf_mul((uint8_t)c, (uint8_t)(1u << j)) >> i) & 1)
					row |= 1u << j;
			a |= row << (8 * (7 - i));
		}
		rq_gf_aff[c] = a;
		for (i = 0; i < 256; i++)
			rq_gf_mul_full[c][i] = rq_gf_mul((uint8_t)c, (uint8_t)i);
		rq_bit_bytes[c] = 0;
		for (i = 0; i < 8; i++)
			rq_bit_bytes[c] |= (uint64_t)((c >> i) & 1) << (8 * i);
	}
}
