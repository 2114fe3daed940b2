/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rq private interface: RFC 6330 tables and generators, the constraint
 * matrix, the inactivation solver that records a symbol-operation plan, the
 * plan replay, and a plain reference solver kept for the tests.
 */
#ifndef RQ_PRIV_H
#define RQ_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "rq.h"
#include "rq_bench.h"

#define RQ_TABLE2_ROWS 477

struct rq_table2_row {
	uint32_t Kp, J, S, H, W;
};

extern const uint32_t rq_v0[256], rq_v1[256], rq_v2[256], rq_v3[256];
extern const struct rq_table2_row rq_table2[RQ_TABLE2_ROWS];
extern const uint8_t rq_gf_exp[510];
extern const uint8_t rq_gf_log[256];

/* --- GF(256), polynomial 0x11d (RFC 6330 §5.7) --- */
static inline uint8_t
rq_gf_mul(uint8_t a, uint8_t b)
{
	if (a == 0 || b == 0)
		return 0;
	return rq_gf_exp[rq_gf_log[a] + rq_gf_log[b]];
}

static inline uint8_t
rq_gf_div(uint8_t a, uint8_t b)	/* b != 0 */
{
	if (a == 0)
		return 0;
	return rq_gf_exp[rq_gf_log[a] + 255 - rq_gf_log[b]];
}

/* --- RFC 6330 §5.3.5 generators --- */
static inline uint32_t
rq_rand(uint32_t y, uint32_t i, uint32_t m)
{
	return (rq_v0[(y + i) & 0xff] ^ rq_v1[((y >> 8) + i) & 0xff] ^
		rq_v2[((y >> 16) + i) & 0xff] ^ rq_v3[((y >> 24) + i) & 0xff]) % m;
}

uint32_t rq_degree(uint32_t v, uint32_t W);

struct rq_tuple {
	uint32_t d, a, b, d1, a1, b1;
};

void rq_tuple_get(const struct rq_params *p, uint32_t X, struct rq_tuple *t);
/*
 * Columns (intermediate-symbol indices) of the LT row of ISI X, in RFC
 * order. cols must hold RQ_MAX_LT_COLS entries. Returns the count.
 */
#define RQ_MAX_LT_COLS 34
unsigned int rq_lt_cols(const struct rq_params *p, uint32_t X, uint32_t *cols);

/* Columns of LDPC row r (0 <= r < S); returns count. cols sized by caller. */
unsigned int rq_ldpc_row_len(const struct rq_params *p, uint32_t r);
void rq_ldpc_rows(const struct rq_params *p, uint32_t *off, uint32_t *cols);
/* G_HDPC: H x (K'+S) bytes, row-major (RFC 6330 §5.3.3.3). */
void rq_hdpc_matrix(const struct rq_params *p, uint8_t *g);


/* --- per-K' shared data: immutable once published --- */
struct rq_plan;

struct rq_kp {
	struct rq_params p;		/* with K == K' */
	uint8_t *hdpc;			/* H x (K'+S) coefficients */
	uint8_t *hdpc_mt;		/* the two ones of MT column m: 2*(K'+S) */
	uint32_t *ldpc_off;		/* S+1 offsets into ldpc_cols */
	uint32_t *ldpc_cols;
	struct rq_plan *enc_plan;	/* solve of the K' systematic rows */
	/*
	 * Generator matrix (K' <= RQ_GEN_MAX_KP, else NULL): C = M * D for the
	 * K' systematic symbols D; row l of M (K' bytes) is gm_tab[l]. The
	 * encoding symbol of ISI X is g_X * D with g_X = XOR of the rows of
	 * M at the columns of X's LT row (rq_gen_row).
	 */
	uint8_t *gm;
	uint8_t **gm_tab;
};

/*
 * RQ_GEN_MAX_KP (rq_bench.h, 512): largest K' with a generator matrix, the
 * decoder's fast path (measured crossover with the plan-based decoder near
 * K = 600 at T = 1420). The encoder uses it by default only up to
 * RQ_GEN_ENC_MAX_KP: one dot product of all K source symbols per repair
 * symbol loses to the plan replay plus XORs above K ~ 140 (doc/raptorq.md).
 */
#define RQ_GEN_ENC_MAX_KP 128
/* Output rows per dense product in the fast paths (table memory: 32*K*this). */
#define RQ_GEN_CHUNK 32

/* g (K' bytes) = coefficients of ISI X over the K' systematic symbols. */
void rq_gen_row(const struct rq_kp *kp, uint32_t X, uint8_t *g);

/* Tests: intermediate symbol i of the loaded block; decoder workspace size. */
const uint8_t *rq_enc_intermediate(struct rq_enc *enc, uint32_t i);
size_t rq_dec_ws_cap(const struct rq_dec *dec);

/*
 * Cached, thread-safe; NULL on allocation failure, a bad K or a refused
 * RQ_ISA (it runs rq_isa_init).
 */
const struct rq_kp *rq_kp_get(uint32_t K);

/* --- the solver --- */
#define RQ_ROW_ZERO UINT32_MAX	/* a row whose symbol is known to be zero */

/*
 * Solve for the L intermediate symbols from M >= L constraint rows: the S
 * LDPC rows, the H HDPC rows and one LT row per entry of isi[0..n-1] (LDPC
 * and HDPC symbols are zero). LT row i reads its symbol from input slot
 * dslot[i] < nin (RQ_ROW_ZERO: a padding symbol, known zero). Returns a plan
 * or NULL with *err set (-EDOM rank deficient, -ENOMEM).
 *
 * Slots of a plan: [0, nin) inputs, nin an all-zero symbol, [nin+1,
 * nin+1+L) the intermediate symbols C[0..L-1], then rq_plan_scratch()
 * (<= H + L) scratch symbols. The slot table passed to rq_plan_run has
 * nin + 1 + 2L + H entries plus 6L entries of workspace after the slots.
 */
struct rq_plan *rq_plan_build(const struct rq_kp *kp, const uint32_t *isi,
		const uint32_t *dslot, uint32_t n, uint32_t nin, int *err);
void rq_plan_free(struct rq_plan *plan);

/*
 * Workspace for plan builds without allocation: every array of a build
 * (and the plan itself) is carved from ws. When a build needs more than ws
 * holds it grows ws once (realloc to the new high-water mark) and redoes
 * the build; presize it with rq_ws_reserve so that never happens in
 * steady state. A plan from rq_plan_build_ws lives in ws until the next
 * build; rq_plan_free on it is a no-op.
 */
struct rq_ws {
	uint8_t *base;
	size_t cap, used;
	/*
	 * Phase 1's choice at r = 2: 1 the largest-component rule (fewer
	 * inactivations; cached plans), 0 a column of the last degree-2 row
	 * listed (per-block decoder builds: K = 10000 builds 12 % faster for
	 * ~7 % more inactive columns, decode +5 %, Zen 3).
	 */
	int thorough;
};
struct rq_plan *rq_plan_build_ws(const struct rq_kp *kp, const uint32_t *isi,
		const uint32_t *dslot, uint32_t n, uint32_t nin, struct rq_ws *ws, int *err);
int rq_ws_reserve(struct rq_ws *ws, size_t bytes);
void rq_ws_free(struct rq_ws *ws);
uint32_t rq_plan_scratch(const struct rq_plan *plan);
/* Replay on the symbols tab[0..nslots-1] (T bytes each); no allocation. */
void rq_plan_run(const struct rq_plan *plan, size_t T, uint8_t *const *tab);
/* Bytes of one column stripe of that replay (T: unstriped). */
size_t rq_plan_stripe(const struct rq_plan *plan, size_t T);

/* Plan statistics for tests and the design notes. */
struct rq_plan_stats {
	uint32_t pivots, inactive, xor_ops, xor_srcs, hdpc_srcs, u_srcs;
};
void rq_plan_get_stats(const struct rq_plan *plan, struct rq_plan_stats *st);

/*
 * Reference: dense Gaussian elimination over GF(256) on the full constraint
 * matrix with bytewise symbol operations. c receives L*T bytes. Returns 0 or
 * -EDOM / -ENOMEM. For tests (cubic in L).
 */
int rq_ref_solve(uint32_t K, size_t T, const uint32_t *isi, const uint8_t *const *sym,
		uint32_t n, uint8_t *c);

/* The encoding symbol of ISI X from intermediate symbols c (bytewise ref). */
void rq_ref_lt_symbol(const struct rq_params *p, size_t T, const uint8_t *c, uint32_t X,
		uint8_t *out);

#endif /* RQ_PRIV_H */
