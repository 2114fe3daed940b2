/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Phase 1 of the plan build (RFC 6330 §5.4.2.2, reorganised): peeling of
 * the binary rows (LDPC + LT) with inactivation. The P PI columns start
 * inactive; a row with one active column pivots on it; when none is left,
 * a column is inactivated (choose_inactive). Rows of one and of two active
 * columns are listed as their degree falls, and every row keeps the sum
 * and the sum of squares of its active columns, so the one or two active
 * columns of a row are known without scanning it.
 */
#include <errno.h>
#include <string.h>

#include <emmintrin.h>

#include "rq_plan.h"

/*
 * Rows by active degree, lazily: a row is pushed when its degree drops to
 * 1 (deg1) or 2 (deg2, or starts there) and checked when taken (degrees
 * only fall, so each row enters each list at most once). Sequential arrays
 * instead of linked buckets: the r = 2 scan reads deg2 in order.
 */
static inline void
deg_changed(struct bld *b, uint32_t r)
{
	if (b->rdeg[r] == 1)
		b->deg1[b->n1++] = r;
	else if (b->rdeg[r] == 2)
		b->deg2[b->n2++] = r;
}

/* A column leaves the active set: every undone row holding it loses one. */
static void
col_leave(struct bld *b, uint32_t c)
{
	uint32_t k;

	for (k = b->coff[c]; k < b->coff[c + 1]; k++) {
		uint32_t r = b->crow[k];

		if (b->rdone[r])
			continue;
		b->rdeg[r]--;
		b->rsum[r] -= c;
		b->rsq[r] -= (uint64_t)c * c;
		deg_changed(b, r);
	}
}

/* The sparse binary rows, their transpose, the peeling state. */
int
rq_peel_setup(struct bld *b, const uint32_t *isi, const uint32_t *dslot, uint32_t n)
{
	const struct rq_params *p = b->p;
	const struct rq_kp *kp = b->kp;
	struct rq_ws *ws = b->ws;
	uint32_t S = p->S, L = p->L, r, k, c, total;
	size_t nnz = kp->ldpc_off[S] + (size_t)n * RQ_MAX_LT_COLS;

	b->nb = S + n;
	b->roff = rq_ws_alloc(ws, (b->nb + 1) * sizeof(uint32_t));
	b->rslot = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->rcol = rq_ws_alloc(ws, nnz * sizeof(uint32_t));
	b->crow = rq_ws_alloc(ws, nnz * sizeof(uint32_t));
	b->coff = rq_ws_alloc(ws, (L + 1) * sizeof(uint32_t));
	b->cstate = rq_ws_alloc(ws, L);
	b->colpiv = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->uidx = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->ucol = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->piv_row = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->piv_col = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->cdeg = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->uf = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->ufsz = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->ufstamp = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->ufbest = rq_ws_alloc(ws, L * sizeof(uint32_t));
	b->rdeg = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->deg1 = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->deg2 = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->rdone = rq_ws_alloc(ws, b->nb);
	b->rsum = rq_ws_alloc(ws, b->nb * sizeof(uint64_t));
	b->rsq = rq_ws_alloc(ws, b->nb * sizeof(uint64_t));
	if (ws->used > ws->cap)
		return -ENOBUFS;
	/* rows */
	memcpy(b->rcol, kp->ldpc_cols, kp->ldpc_off[S] * sizeof(uint32_t));
	memcpy(b->roff, kp->ldpc_off, (S + 1) * sizeof(uint32_t));
	for (r = 0; r < S; r++)
		b->rslot[r] = RQ_ROW_ZERO;
	total = kp->ldpc_off[S];
	for (k = 0; k < n; k++) {
		unsigned int m = rq_lt_cols(p, isi[k], b->rcol + total);

		total += m;
		b->roff[S + k + 1] = total;
		b->rslot[S + k] = dslot[k];
	}
	/* columns: counting sort into crow, cdeg used as fill counter */
	memset(b->coff, 0, (L + 1) * sizeof(uint32_t));
	for (k = 0; k < total; k++)
		b->coff[b->rcol[k] + 1]++;
	for (c = 0; c < L; c++) {
		b->coff[c + 1] += b->coff[c];
		b->cdeg[c] = 0;
	}
	for (r = 0; r < b->nb; r++)
		for (k = b->roff[r]; k < b->roff[r + 1]; k++) {
			c = b->rcol[k];
			b->crow[b->coff[c] + b->cdeg[c]++] = r;
		}
	memset(b->cstate, COL_ACTIVE, L);
	memset(b->rdeg, 0, b->nb * sizeof(uint32_t));
	memset(b->rdone, 0, b->nb);
	memset(b->ufstamp, 0, L * sizeof(uint32_t));
	b->epoch = 0;
	return 0;
}

static void
inactivate(struct bld *b, uint32_t c)
{
	b->cstate[c] = COL_INACTIVE;
	b->uidx[c] = b->u;
	b->ucol[b->u++] = c;
}

static uint32_t
uf_find(struct bld *b, uint32_t c)
{
	if (b->ufstamp[c] != b->epoch) {
		b->ufstamp[c] = b->epoch;
		b->uf[c] = c;
		b->ufsz[c] = 1;
		b->ufbest[c] = c;
		return c;
	}
	while (b->uf[c] != c) {
		b->uf[c] = b->uf[b->uf[c]];
		c = b->uf[c];
	}
	return c;
}

/*
 * The two active columns a < b of a row of degree 2, from s1 = a + b and
 * s2 = a^2 + b^2: (b - a)^2 = 2 s2 - s1^2.
 */
static void
row_two(const struct bld *b, uint32_t r, uint32_t *c0, uint32_t *c1)
{
	uint64_t s1 = b->rsum[r], d2 = 2 * b->rsq[r] - s1 * s1, d;

	/* d2 < 2^40: the double square root is within one of the integer one */
	d = (uint64_t)_mm_cvtsd_f64(_mm_sqrt_sd(_mm_setzero_pd(), _mm_set_sd((double)d2)));
	while (d * d > d2)
		d--;
	while ((d + 1) * (d + 1) <= d2)
		d++;
	*c0 = (uint32_t)((s1 - d) / 2);
	*c1 = (uint32_t)((s1 + d) / 2);
}

/*
 * No row has one active column: choose the column to inactivate
 * (RFC 6330 §5.4.2.2). When the fewest active columns of a row is r = 2,
 * the rows of degree 2 form a graph on the active columns; inactivating
 * one column of its largest component lets the whole component peel, so
 * take a column of that component (the one held by the most rows); quick
 * builds (ws->thorough == 0) take the busier column of one degree-2 row.
 * For r > 2, inactivate the active column held by the most undone rows.
 */
static uint32_t
choose_inactive(struct bld *b)
{
	const struct rq_params *p = b->p;
	uint32_t i, n, c, c0, c1, best = RQ_NONE, bd = 0;

	/* the rows of degree 2 left (compacting deg2) */
	for (i = 0, n = 0; i < b->n2; i++) {
		uint32_t r = b->deg2[i];

		if (!b->rdone[r] && b->rdeg[r] == 2)
			b->deg2[n++] = r;
	}
	b->n2 = n;
	if (n > 0 && !b->ws->thorough) {
		row_two(b, b->deg2[n - 1], &c0, &c1);
		return b->cdeg[c0] >= b->cdeg[c1] ? c0 : c1;
	}
	if (n > 0) {
		uint32_t root = RQ_NONE, rs = 0;

		/*
		 * One pass: union the two columns of every degree-2 row; each
		 * root keeps the largest component's best column (ties: the
		 * first found), so no second pass over the rows is needed.
		 */
		b->epoch++;
		for (i = 0; i < n; i++) {
			uint32_t a, z;

			row_two(b, b->deg2[i], &c0, &c1);
			a = uf_find(b, c0);
			z = uf_find(b, c1);
			if (a != z) {
				if (b->ufsz[a] < b->ufsz[z]) {
					uint32_t t = a;

					a = z;
					z = t;
				}
				b->uf[z] = a;
				b->ufsz[a] += b->ufsz[z];
				if (b->cdeg[b->ufbest[z]] > b->cdeg[b->ufbest[a]])
					b->ufbest[a] = b->ufbest[z];
			}
			if (b->ufsz[a] > rs) {
				rs = b->ufsz[a];
				root = a;
			}
		}
		return b->ufbest[root];
	}
	for (c = 0; c < p->W; c++)
		if (b->cstate[c] == COL_ACTIVE && b->cdeg[c] > bd) {
			bd = b->cdeg[c];
			best = c;
		}
	return best;
}

/* A row of degree 1 left, or RQ_NONE. */
static uint32_t
take_deg1(struct bld *b)
{
	while (b->n1 > 0) {
		uint32_t r = b->deg1[--b->n1];

		if (!b->rdone[r] && b->rdeg[r] == 1)
			return r;
	}
	return RQ_NONE;
}

void
rq_peel(struct bld *b)
{
	const struct rq_params *p = b->p;
	uint32_t L = p->L, r, c, k;

	b->n1 = b->n2 = 0;
	for (c = 0; c < L; c++) {
		b->colpiv[c] = RQ_NONE;
		b->cdeg[c] = b->coff[c + 1] - b->coff[c];
	}
	for (c = p->W; c < L; c++)
		inactivate(b, c);
	for (r = 0; r < b->nb; r++) {
		b->rsum[r] = 0;
		b->rsq[r] = 0;
		for (k = b->roff[r]; k < b->roff[r + 1]; k++) {
			c = b->rcol[k];
			if (b->cstate[c] == COL_ACTIVE) {
				b->rdeg[r]++;
				b->rsum[r] += c;
				b->rsq[r] += (uint64_t)c * c;
			}
		}
		deg_changed(b, r);
	}
	for (;;) {
		uint32_t keep = RQ_NONE;

		r = take_deg1(b);
		if (r == RQ_NONE) {
			uint32_t best = choose_inactive(b);

			if (best == RQ_NONE)
				break;
			inactivate(b, best);
			col_leave(b, best);
			continue;
		}
		b->rdone[r] = 1;
		for (k = b->roff[r]; k < b->roff[r + 1]; k++)
			b->cdeg[b->rcol[k]]--;
		keep = (uint32_t)b->rsum[r];	/* its one active column */
		b->cstate[keep] = COL_PIVOT;
		b->colpiv[keep] = b->npiv;
		b->piv_row[b->npiv] = r;
		b->piv_col[b->npiv] = keep;
		b->npiv++;
		col_leave(b, keep);
	}
	for (c = 0; c < L; c++)
		if (b->cstate[c] == COL_ACTIVE)
			inactivate(b, c);
}

