/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rq symbol kernels by instruction-set tier (private to lib/rq). Each tier
 * fills one table (rq_kern_generic.c, rq_kern_sse.c, rq_kern_avx2.c,
 * rq_kern_avx512.c); rq_isa.c chooses the table once, from the CPU's
 * features or the RQ_ISA override, and everything else calls through
 * rq_kern_cur (the wrappers in rq_sym.c). The bytewise references the
 * tests compare every tier against are in rq_ref.c.
 */
#ifndef RQ_KERN_H
#define RQ_KERN_H

#include <stddef.h>
#include <stdint.h>

#include "rq_bench.h"

struct rq_kern {
	enum rq_isa isa;
	/*
	 * dst[0..len) = XOR of tab[idx[i]][off .. off+len), i < n, n >= 2;
	 * dst is none of the sources.
	 */
	void (*xor_at)(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
			size_t off, size_t len);
	/*
	 * The HDPC pass on bytes [o, end) (rq_hdpc_apply_at): y_m = alpha *
	 * y_{m-1} + x_m over the KS columns, out[h] = XOR of y_m over the two
	 * MT rows of m, plus alpha^h * y_{KS-1}. The outputs are no inputs.
	 */
	void (*hdpc)(uint8_t *const *tab, const uint32_t *xin, uint32_t zero, const uint8_t *mt,
			uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t end);
	/* dst[0..len) ^= c * src[0..len) over GF(256), c != 0, any length and alignment */
	void (*row_mad)(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
	/*
	 * out[r] = sum_j coef(r, j) * in[j], r < rows, j < k, len bytes, with
	 * tbl in the nibble format (rq_gf_init_tables: 32 bytes per
	 * coefficient, row-major, ISA-L's layout). Outputs are no inputs.
	 */
	void (*dot)(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
			uint8_t *const *in, uint8_t *const *out);
	/* The same with the affine format (8 bytes per coefficient); NULL without GFNI. */
	void (*dot_aff)(size_t len, unsigned int k, unsigned int rows, const uint64_t *aff,
			uint8_t *const *in, uint8_t *const *out);
	/*
	 * Plan replay: the column stripe never shrinks below stripe_min bytes
	 * (a shorter one pays the walk of the source list once more per
	 * vector group than it saves in cache misses). When no such stripe
	 * keeps a block within the L2 target, stripe_clamp = 1 takes
	 * stripe_min anyway (best on the AVX-512 Xeon); 0 stripes for the L3
	 * target instead, or not at all when the block fits it (best on the
	 * Zen 3 VM: doc/raptorq.md).
	 */
	size_t stripe_min;
	int stripe_clamp;
	/*
	 * Decoder paths (rq_dec.c): the generator-matrix path by default for K'
	 * up to gen_dec_max_kp, the residual path for at most min(256,
	 * res_e_sqrt_k * sqrt(K)) lost source symbols (0: no K-dependent
	 * bound). Both pay dense GF(256) products (K x e and e x e per byte),
	 * cheap with GFNI: without it the plan decoder wins from K' ~ 280 and
	 * from e ~ 2.7 sqrt(K) (Zen 3); on the generic tier (bytewise
	 * products) the generator paths win only below K ~ 40.
	 */
	uint32_t gen_dec_max_kp;
	double res_e_sqrt_k;
	/* The encoder's generator path by default up to this K' (<= RQ_GEN_ENC_MAX_KP). */
	uint32_t gen_enc_max_kp;
};

extern const struct rq_kern rq_kern_generic, rq_kern_sse, rq_kern_avx2, rq_kern_avx512,
	rq_kern_avx512_gfni;
/* The tier in use: set by rq_isa_init / rq_isa_set only. */
extern const struct rq_kern *rq_kern_cur;

/*
 * Shared by the tiers: the generic kernels also finish what a vector
 * kernel leaves (lengths below one vector).
 */
void rq_kern_xor_generic(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t len);
void rq_kern_hdpc_generic(uint8_t *const *tab, const uint32_t *xin, uint32_t zero,
		const uint8_t *mt, uint32_t KS, uint32_t H, uint8_t *const *out, size_t o, size_t end);
void rq_kern_row_mad_generic(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);
void rq_kern_dot_generic(size_t len, unsigned int k, unsigned int rows, const uint8_t *tbl,
		uint8_t *const *in, uint8_t *const *out);

/* GF(256) tables of the kernels, filled once by rq_isa_init. */
extern uint8_t rq_gf_nib[256][32];	/* c * (0..15), c * (0..15) << 4 */
extern uint64_t rq_gf_aff[256];		/* gf2p8affineqb matrix of x -> c * x */
extern uint64_t rq_bit_bytes[256];	/* byte i = bit i of the index */
extern uint8_t rq_gf_mul_full[256][256];	/* c * x: the generic tier's products */
void rq_kern_tables_init(void);

#endif /* RQ_KERN_H */
