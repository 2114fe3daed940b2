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
	uint32_t *bnext, *bprev, *bhead;	/* rows bucketed by rdeg */
	uint8_t *rdone;
	uint32_t maxw;
	uint32_t npiv, *piv_row, *piv_col;
	uint32_t u, *ucol, *uidx;	/* inactive columns; column -> index in ucol */
	uint32_t *uf, *ufsz, *ufstamp, epoch;	/* union-find for the r = 2 choice */
	uint32_t *ufbest;	/* root -> its column held by the most rows */
	uint64_t *rsum, *rsq;	/* sum of the active columns (and of their squares) */
	/* slots of the plan (rq_priv.h: inputs, zero, C, scratch) */
	uint32_t zero_slot, c_base, scratch_base;
	/* phase 2 */
	uint32_t nwords;	/* 64-bit words of a U bitset */
	uint64_t *ubits;	/* row -> U part of a pivot row after the forward pass */
	uint64_t *tmpbits;	/* one U bitset */
	uint64_t *hdacc;	/* (H + 1) x u bytes: the HDPC rows' U parts */
	uint32_t *dprime;	/* row -> slot of its reduced symbol D' */
	uint32_t nnp;		/* non-pivot binary rows */
	uint32_t m2;		/* phase-2 rows: nnp binary, then H HDPC */
	uint32_t sys_w;		/* bytes of a phase-2 row: u coefficients, m2 tracking */
	uint8_t *sys, **sys_row;
	uint32_t *np_row;	/* phase-2 row -> binary row (RQ_NONE: HDPC row) */
	uint8_t *coef;		/* u x nsel coefficients of the u-product */
	/* output lists */
	struct xop *x;
	uint32_t nx;
	uint32_t *src;
	uint32_t nsrc;
};

enum { COL_ACTIVE, COL_PIVOT, COL_INACTIVE };

/*
 * Phase 1 (rq_peel.c). rq_peel_setup carves the binary rows and the
 * peeling state from ws (-ENOBUFS when it does not fit); rq_peel runs the
 * peeling: pivots in piv_row/piv_col, inactive columns in ucol.
 */
int rq_peel_setup(struct bld *b, const uint32_t *isi, const uint32_t *dslot, uint32_t n);
void rq_peel(struct bld *b);

/* One build in ws (rq_solve.c); -ENOBUFS when ws is too small (ws->used says how much). */
int rq_plan_build_once(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, struct rq_ws *ws, struct rq_plan **out);

#endif /* RQ_PLAN_H */
