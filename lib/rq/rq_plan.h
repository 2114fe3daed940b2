/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plan and the state of its build, shared by rq_plan.c (the plan
 * object, its replay, the workspace arena), rq_peel.c (phase 1: peeling
 * with inactivation) and rq_solve.c (the rest of the build). Private.
 */
#ifndef RQ_PLAN_H
#define RQ_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "rq_priv.h"

#define RQ_NONE UINT32_MAX

/* One multi-source XOR: slot dst = XOR of the n slots src[off .. off+n). */
struct xop {
	uint32_t dst, n, off;
};

struct rq_plan {
	uint32_t L, nin, nscratch, zero, nslots;
	uint32_t nx1, nx2;
	struct xop *x1, *x2;	/* before and after the HDPC pass and u-product */
	uint32_t *src;
	uint32_t KS, H;
	uint32_t *hd_in;	/* KS slots */
	uint32_t *hd_out;	/* H slots */
	const uint8_t *hd_mt;	/* NULL: no HDPC pass */
	uint32_t u, nsel;	/* the u x nsel product C[U] = X * D'[selected] */
	uint32_t *u_in, *u_out;
	uint8_t *u_tbl;		/* nibble tables, 32 bytes per coefficient */
	uint64_t *u_aff;	/* affine tables (NULL unless the CPU has GFNI) */
	struct rq_plan_stats st;
	size_t bytes;		/* of the whole block (header + arrays) */
	int owned;		/* malloc'd block: rq_plan_free frees it */
};

/* Bump allocation from the workspace (NULL past its end, but counts on). */
void *rq_ws_alloc(struct rq_ws *ws, size_t n);

/* Build state. Phase 1 (rq_peel.c) fills the first part. */
struct bld {
	const struct rq_kp *kp;
	const struct rq_params *p;
	struct rq_ws *ws;
	/* the binary rows (S LDPC + n LT) and their transpose */
	uint32_t nb;
	uint32_t *roff, *rcol;	/* row -> columns */
	uint32_t *rslot;	/* row -> input slot or RQ_ROW_ZERO */
	uint32_t *coff, *crow;	/* column -> rows */
	/* peeling */
	uint8_t *cstate;	/* COL_ACTIVE, COL_PIVOT, COL_INACTIVE */
	uint32_t *colpiv;	/* column -> pivot index */
	uint32_t *rdeg;		/* active columns per row */
	uint32_t *cdeg;		/* undone rows per column */
	uint32_t *deg1, n1;	/* rows whose degree fell to 1 (lazy stack) */
	uint32_t *deg2, n2;	/* rows whose degree is or fell to 2 (lazy list) */
	uint8_t *rdone;
	uint32_t npiv, *piv_row, *piv_col;
	uint32_t u, *ucol, *uidx;	/* inactive columns; column -> index in ucol */
	uint32_t *uf, *ufsz, *ufstamp, epoch;	/* union-find for the r = 2 choice */
	uint32_t *ufbest;	/* root -> its column held by the most rows */
	uint64_t *rsum, *rsq;	/* sum of the active columns (and of their squares) */
	/* slots of the plan (rq_priv.h: inputs, zero, C, scratch) */
	uint32_t zero_slot, c_base, scratch_base;
	/* the forward pass (rq_solve.c) */
	uint32_t nwords;	/* 64-bit words of a U bitset (u bits) */
	uint64_t *ubits;	/* row -> U part of a pivot row after the forward pass */
	uint32_t *dprime;	/* row -> slot of its reduced symbol D' */
	/* phase 2 (rq_phase2.c): the nnp non-pivot binary rows, then the H HDPC rows */
	uint32_t nnp;
	uint32_t *np_row;	/* non-pivot index -> binary row */
	uint64_t *np_bits;	/* nnp x nwords: their U parts */
	uint32_t twords;	/* words of a tracking bitset (nnp bits) */
	uint64_t *tmpbits;	/* nwords + twords scratch */
	uint32_t nbp;		/* binary pivots (GF(2) Gauss-Jordan on np_bits) */
	uint64_t *bp_u;		/* nbp x nwords: pivot row, 1 at its column, else P2 bits */
	uint64_t *bp_t;		/* nbp x twords: the non-pivot rows it combines */
	uint32_t *bp_col;	/* binary pivot -> U index of its column */
	uint32_t *bp_from;	/* binary pivot -> the non-pivot row that made it */
	uint32_t p2;		/* U columns left for the HDPC rows (u - nbp) */
	uint32_t *p2_col;	/* -> U index */
	uint8_t *is_bp;		/* U index -> 1 if a binary pivot column */
	uint8_t *hdu;		/* H x u: the HDPC rows' U parts */
	uint64_t *hdacc;	/* (H + 1) x u bytes: accumulators for hdu */
	uint32_t dw;		/* bytes of a dense row: p2 coefficients, nnp + H tracking */
	uint8_t *dense, **drow;	/* H dense rows */
	uint32_t *np_slot;	/* non-pivot index -> slot of its D' (RQ_NONE: none yet) */
	uint8_t *coef;		/* p2 x nsel coefficients of the u-product */
	/* output lists */
	struct xop *x;
	uint32_t nx;
	uint32_t *src;
	uint32_t nsrc;
};

enum { COL_ACTIVE, COL_PIVOT, COL_INACTIVE };

static inline void
rq_bld_src(struct bld *b, uint32_t s)
{
	b->src[b->nsrc++] = s;
}

/* Slot of the reduced symbol D' of (pivot) column c's row. */
static inline uint32_t
rq_bld_piv_dprime(const struct bld *b, uint32_t c)
{
	return b->dprime[b->piv_row[b->colpiv[c]]];
}

/* U bits of the pivot row of (pivot) column c after the forward pass. */
static inline const uint64_t *
rq_bld_piv_bits(const struct bld *b, uint32_t c)
{
	return b->ubits + (size_t)b->piv_row[b->colpiv[c]] * b->nwords;
}

static inline void
rq_bit_flip(uint64_t *bits, uint32_t i)
{
	bits[i / 64] ^= 1ull << (i % 64);
}

static inline int
rq_bit_get(const uint64_t *bits, uint32_t i)
{
	return (int)((bits[i / 64] >> (i % 64)) & 1);
}

/*
 * Phase 1 (rq_peel.c). rq_peel_setup carves the binary rows and the
 * peeling state from ws (-ENOBUFS when it does not fit); rq_peel runs the
 * peeling: pivots in piv_row/piv_col, inactive columns in ucol.
 */
int rq_peel_setup(struct bld *b, const uint32_t *isi, const uint32_t *dslot, uint32_t n);
void rq_peel(struct bld *b);

/*
 * Phase 2 (rq_phase2.c) on the U columns, after the forward pass: the
 * arrays (rq_phase2_alloc, -ENOBUFS when ws is short), then the solve:
 * x1 XORs for the D' of the binary rows it uses, the u-product on the
 * columns left to the HDPC rows, and (after pl->nx1 is set by the caller)
 * rq_phase2_emit_x2's XORs for the binary pivot columns. rq_phase2_solve
 * returns whether the HDPC pass is needed, or -EDOM.
 */
int rq_phase2_alloc(struct bld *b, struct rq_plan *pl);
int rq_phase2_solve(struct bld *b, struct rq_plan *pl);
void rq_phase2_emit_x2(struct bld *b);
uint32_t rq_bld_xop(struct bld *b, uint32_t off, uint32_t dst);

/* One build in ws (rq_solve.c); -ENOBUFS when ws is too small (ws->used says how much). */
int rq_plan_build_once(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, struct rq_ws *ws, struct rq_plan **out);

#endif /* RQ_PLAN_H */
