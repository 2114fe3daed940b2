/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rq symbol arithmetic (private to lib/rq and its tests): the entry points
 * of the kernels of the tier in use (rq_kern.h, chosen by rq_isa_init) and
 * their bytewise references (rq_ref.c). rq_isa_init() must have run
 * (every encoder / decoder creation runs it).
 */
#ifndef RQ_SYM_H
#define RQ_SYM_H

#include <stddef.h>
#include <stdint.h>

#include "rq_bench.h"

/* dst = XOR of tab[idx[0..n-1]] (n == 0: zero). dst may not alias a source
 * unless n == 1. The offset form rq_xor_idx_at is in rq_bench.h. */
void rq_xor_idx(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len);
/* Bytewise reference of rq_xor_idx. */
void rq_xor_idx_ref(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len);
/* out[r] = sum_j coef[r*k+j] * in[j] over GF(256), bytewise reference of
 * the dense products (and of ISA-L's ec_encode_data). */
void rq_dot_ref(size_t len, unsigned int k, unsigned int rows, const uint8_t *coef,
		uint8_t *const *in, uint8_t *const *out);

/*
 * out[h] = sum_m G_HDPC[h][m] * x_m for h < H (H <= 16), x_m = tab[xin[m]]
 * (xin[m] == zero: a zero symbol), using G_HDPC = MT * GAMMA; mt holds the
 * two MT rows of each column m < KS-1. The outputs are none of the inputs.
 */
void rq_hdpc_apply(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t len);
/* The same on bytes [off, off+len) of the sources and outputs. */
void rq_hdpc_apply_at(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
		uint32_t KS, uint32_t H, uint8_t *const *out, size_t off, size_t len);

/*
 * GF(256) row kernel for the solver's matrix work (short rows, any length,
 * any alignment): dst ^= c * src.
 */
void rq_gf_row_mad(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* Bytewise reference. */
void rq_gf_row_mad_ref(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
/* c * x through the nibble tables of the kernels (one byte). */
uint8_t rq_gf_nib_mul(uint8_t c, uint8_t x);
/* ISA-L's ec_init_tables(k, rows, a, tbl): 32 bytes per coefficient. */
void rq_gf_init_tables(unsigned int k, unsigned int rows, const uint8_t *a, uint8_t *tbl);

/*
 * Dense GF(256) products: out[r] = sum_j coef[r*k+j] * in[j], r < rows,
 * len bytes; the outputs are none of the inputs. rq_gf_dot_tables fills
 * tbl (rq_gf_dot_tbl_size bytes, 64-byte aligned) in the format of the
 * tier in use, rq_gf_dot runs that tier's kernel on it: tables must not be
 * kept across rq_isa_set (plans keep both formats, below).
 */
size_t rq_gf_dot_tbl_size(unsigned int k, unsigned int rows);
void rq_gf_dot_tables(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *tbl);
void rq_gf_dot(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out);
/*
 * Tables for any tier of this CPU: nib (32 * k * rows bytes, always) and
 * aff (8 * k * rows, only when the CPU has GFNI, else NULL); rq_gf_dot_any
 * runs the tier in use on the format it reads.
 */
int rq_gf_have_aff(void);
void rq_gf_dot_tables_any(unsigned int k, unsigned int rows, const uint8_t *coef, uint8_t *nib,
		uint64_t *aff);
void rq_gf_dot_any(size_t len, unsigned int k, unsigned int rows, const uint8_t *nib,
		const uint64_t *aff, uint8_t *const *in, uint8_t *const *out);

#endif /* RQ_SYM_H */
