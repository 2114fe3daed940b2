/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rq internal interface for the benchmark program (app/dfcp-bench) and the
 * unit tests: NOT part of the public API (rq.h), no stability promised.
 * Kernel tiers, path overrides, the replay's stripe size, symbol memory and
 * the multi-source XOR kernel. None of the setters may run while another
 * thread uses the codec.
 */
#ifndef RQ_BENCH_H
#define RQ_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "rq.h"

/* --- kernel tiers (rq_isa.c); rq.h has rq_isa_init / rq_isa_name --- */
enum rq_isa {
	RQ_ISA_GENERIC,		/* plain C, 64-bit words */
	RQ_ISA_SSE,		/* SSE2 + SSSE3 (pshufb) */
	RQ_ISA_AVX2,
	RQ_ISA_AVX512,		/* AVX-512 F + BW */
	RQ_ISA_AVX512_GFNI,	/* the same, GF(256) products by gf2p8affineqb */
	RQ_ISA_COUNT
};

/* RQ_ISA's spelling of a tier ("avx512-gfni"); NULL when out of range. */
const char *rq_isa_tier_name(int isa);
/* 1 when this CPU runs the tier, else 0. */
int rq_isa_supported(int isa);
/* The tier in use. */
enum rq_isa rq_isa_current(void);
/*
 * Switch tiers (tests, benchmark): 0, -ENOTSUP when the CPU lacks it (buf
 * says what it lacks), -EINVAL out of range. Cached plans stay valid: they
 * keep their GF(256) tables in every format this CPU can run.
 */
int rq_isa_set(int isa);
/* "avx512f avx512bw": the features of the tier this CPU lacks ("" if none). */
void rq_isa_lacks(int isa, char *buf, size_t len);

/* --- path overrides (the encoder must be loaded again afterwards) --- */
/* The generator-matrix path exists for K' <= RQ_GEN_MAX_KP. */
#define RQ_GEN_MAX_KP 512
/* 0 forces the plan path, 1 the generator path (when K' allows); returns the path in use. */
int rq_enc_set_gen(struct rq_enc *enc, int on);
int rq_dec_set_gen(struct rq_dec *dec, int on);
/* The residual decoder (K' > RQ_GEN_MAX_KP, few lost) on or off; returns the state. */
int rq_dec_set_res(struct rq_dec *dec, int on);

/*
 * --- the plan replay's column stripe ---
 * The replay runs the whole plan on bytes [o, o + stripe) of every symbol
 * before the next stripe, so that a stripe of all the block's symbols stays
 * within about `ws` bytes (default: derived from the L2 size at start-up).
 * rq_stripe_ws_set(0) restores the default; returns the value in use.
 */
size_t rq_stripe_ws_set(size_t ws);
size_t rq_stripe_ws(void);
/* L2 (per core) and L3 as read at start-up (bytes; defaults when unknown). */
size_t rq_cache_l2(void);
size_t rq_cache_l3(void);

/* --- symbol memory and the multi-source XOR (dfcp-bench xor) --- */
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
/*
 * dst[0..len) = XOR of tab[idx[i]][off .. off+len) for i < n (n == 0:
 * zero). dst may not overlap a source unless n == 1.
 */
void rq_xor_idx_at(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t off, size_t len);

#endif /* RQ_BENCH_H */
