/* SPDX-License-Identifier: BSD-3-Clause */
#ifndef RQ_SYM_H
#define RQ_SYM_H

#include <stddef.h>
#include <stdint.h>

/* dst = XOR of tab[idx[0..n-1]] (n == 0: zero). dst may not alias a source
 * unless n == 1. */
void rq_xor_idx(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len);
/* The same on bytes [off, off+len) of the sources, written to dst[0..len). */
void rq_xor_idx_at(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t len);
/* Bytewise reference of rq_xor_idx. */
void rq_xor_idx_ref(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len);
/* out[r] = sum_j coef[r*k+j] * in[j] over GF(256), bytewise reference of
 * ISA-L's ec_encode_data. */
void rq_dot_ref(size_t len, unsigned int k, unsigned int rows, const uint8_t *coef,
		uint8_t *const *in, uint8_t *const *out);

/*
 * Symbol memory of an encoder / decoder (freed with free()): 64-byte
 * aligned; from 1 MiB on 2 MiB aligned and advised for transparent huge
 * pages, because the plan replay touches every symbol of a block per column
 * stripe and with 4 KiB pages misses the TLB on nearly every source.
 */
void *rq_sym_alloc(size_t bytes);
/*
 * Distance between two symbols in that memory: T rounded up to 64 bytes,
 * so that every column stripe of every symbol starts on a cache line (a
 * T = 1420 stride made most 64-byte loads of the replay split loads).
 */
static inline size_t
rq_sym_stride(size_t T)
{
	return (T + 63) & ~(size_t)63;
}

#endif /* RQ_SYM_H */

/*
 * out[h] = sum_m G_HDPC[h][m] * x_m for h < H (H <= 16), x_m = tab[xin[m]]
 * (xin[m] == zero: a zero symbol), using G_HDPC = MT * GAMMA; mt holds the
 * two MT rows of each column m < KS-1. Dispatches to AVX-512 when present.
 */
void rq_hdpc_apply(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t len);
/* The same on bytes [off, off+len) of the sources and outputs. */
void rq_hdpc_apply_at(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t off, size_t len);
/* Portable 64-bit-word version (also the non-AVX-512 path). */
void rq_hdpc_apply_generic(uint8_t *const *tab, const uint32_t *xin, uint32_t zero,
		const uint8_t *mt, uint32_t KS, uint32_t H, uint8_t *const *out, size_t len);

/*
 * GF(256) row kernels for the solver's matrix work (short rows, any length,
 * any alignment): dst ^= c * src. rq_gf_nib[c] holds ISA-L's 32-byte
 * multiplication table of c (products of the low nibbles, then of the high
 * nibbles), so ec_init_tables' output can be copied from it.
 */
extern uint8_t rq_gf_nib[256][32];
void rq_gf_row_mad(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* Bytewise reference. */
void rq_gf_row_mad_ref(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* ec_init_tables(k, rows, a, tbl) from rq_gf_nib (same output). */
void rq_gf_init_tables(unsigned int k, unsigned int rows, const uint8_t *a, uint8_t *tbl);

/*
 * Dense GF(256) products for the small-block paths: out[r] = sum_j
 * coef[r*k+j] * in[j], r < rows, len bytes. rq_gf_dot_tables fills tbl
 * (32*k*rows bytes, 64-byte aligned) from coef; rq_gf_dot runs our GFNI +
 * AVX-512 kernel when the CPU has it, else ISA-L ec_encode_data.
 */
void rq_gf_dot_tables(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl);
void rq_gf_dot(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out);
/*
 * The same with the table format fixed by the caller (gfni: what
 * rq_gf_dot_mode() returned when the tables were built), so that tables
 * kept across rq_gf_dot_set_gfni calls (plans) stay valid.
 */
int rq_gf_dot_mode(void);
void rq_gf_dot_tables_m(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl,
		int gfni);
void rq_gf_dot_m(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out, int gfni);
/* Tests: use the GFNI kernel (if the CPU has it) or not; returns whether it is used. */
int rq_gf_dot_set_gfni(int on);
