/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inactivation solver (RFC 6330 §5.4, reorganised) that records a plan of
 * symbol operations instead of touching symbols.
 *
 * Phase 1 peels the binary rows (LDPC + LT): repeatedly take a row with the
 * fewest active columns, inactivate all but one of them and make the last
 * one its pivot. Pivot rows then hold their pivot column, earlier pivot
 * columns and inactive (U) columns only, so
 *   - the reduced symbol of pivot k is D[row] ^ XOR of the reduced symbols
 *     of the earlier pivots its original row contains (forward XOR list);
 *   - the HDPC rows reduce with the ORIGINAL G_HDPC coefficients of the
 *     pivot columns: one GF(256) matrix product (ISA-L ec_encode_data);
 *   - once the U symbols are known, C[pivot col k] = D[row] ^ XOR of the
 *     other columns of its original (sparse) row (back substitution).
 * Phase 2 solves the small dense system on the U columns over GF(256) (matrix
 * only) and emits its inverse as one more ec_encode_data product.
 * The matrix work is done once per K' for encoding (cached plan) and once per
 * block for decoding; symbol work is only multi-source XORs and two dense
 * GF(256) products.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_sym.h"

struct xop {
	uint32_t dst, n, off;
};

struct rq_plan {
	uint32_t L, nin, nscratch, zero, nslots;
	uint32_t nx1, nx2;
	struct xop *x1, *x2;
	uint32_t *src;
	uint32_t KS, H;
	uint32_t *hd_in;	/* KS slots */
	uint32_t *hd_out;	/* H slots */
	const uint8_t *hd_mt;
	uint32_t u, nsel;
	uint32_t *u_in, *u_out;
	uint8_t *u_tbl;
	struct rq_plan_stats st;
};

void
rq_plan_free(struct rq_plan *pl)
{
	if (pl == NULL)
		return;
	free(pl->x1);
	free(pl->x2);
	free(pl->src);
	free(pl->hd_in);
	free(pl->hd_out);
	free(pl->u_in);
	free(pl->u_out);
	free(pl->u_tbl);
	free(pl);
}

uint32_t
rq_plan_scratch(const struct rq_plan *pl)
{
	return pl->nscratch;
}

void
rq_plan_get_stats(const struct rq_plan *pl, struct rq_plan_stats *st)
{
	*st = pl->st;
}

void
rq_plan_run(const struct rq_plan *pl, size_t T, uint8_t *const *tab)
{
	/* pointer workspace after the largest slot table (nin + 1 + 2L + H) */
	uint8_t **ws = (uint8_t **)tab + pl->nin + 1 + 2 * pl->L + pl->H;
	uint32_t i;

	for (i = 0; i < pl->nx1; i++) {
		const struct xop *x = &pl->x1[i];

		rq_xor_idx(tab[x->dst], tab, pl->src + x->off, x->n, T);
	}
	if (pl->hd_mt != NULL) {
		for (i = 0; i < pl->H; i++)
			ws[i] = tab[pl->hd_out[i]];
		rq_hdpc_apply(tab, pl->hd_in, pl->zero, pl->hd_mt, pl->KS, pl->H, ws, T);
	}
	for (i = 0; i < pl->nsel; i++)
		ws[i] = tab[pl->u_in[i]];
	for (i = 0; i < pl->u; i++)
		ws[pl->nsel + i] = tab[pl->u_out[i]];
	ec_encode_data((int)T, (int)pl->nsel, (int)pl->u, pl->u_tbl, ws, ws + pl->nsel);
	for (i = 0; i < pl->nx2; i++) {
		const struct xop *x = &pl->x2[i];

		rq_xor_idx(tab[x->dst], tab, pl->src + x->off, x->n, T);
	}
}

/* --- build --- */

struct bld {
	const struct rq_kp *kp;
	const struct rq_params *p;
	uint32_t nb;		/* binary rows: S LDPC + n LT */
	uint32_t *roff, *rcol;	/* row -> columns */
	uint32_t *rslot;	/* row -> input slot or RQ_ROW_ZERO */
	uint32_t *coff, *crow;	/* column -> rows */
	uint8_t *cstate;	/* 0 active, 1 pivot, 2 inactive */
	uint32_t *colpiv;	/* column -> pivot index */
	uint32_t *rdeg;		/* active columns per row */
	uint32_t *cdeg;		/* undone rows per column */
	uint32_t *bnext, *bprev, *bhead;
	uint8_t *rdone;
	uint32_t maxw;
	uint32_t npiv, *piv_row, *piv_col;
	uint32_t u, *ucol, *uidx;
	/* output lists */
	struct xop *x;
	uint32_t nx, capx;
	uint32_t *src;
	uint32_t nsrc, capsrc;
};

#define NONE UINT32_MAX

static void
bucket_del(struct bld *b, uint32_t r)
{
	uint32_t d = b->rdeg[r];

	if (b->bprev[r] != NONE)
		b->bnext[b->bprev[r]] = b->bnext[r];
	else
		b->bhead[d] = b->bnext[r];
	if (b->bnext[r] != NONE)
		b->bprev[b->bnext[r]] = b->bprev[r];
}

static void
bucket_add(struct bld *b, uint32_t r)
{
	uint32_t d = b->rdeg[r];

	b->bprev[r] = NONE;
	b->bnext[r] = b->bhead[d];
	if (b->bhead[d] != NONE)
		b->bprev[b->bhead[d]] = r;
	b->bhead[d] = r;
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
		bucket_del(b, r);
		b->rdeg[r]--;
		bucket_add(b, r);
	}
}

static int
grow(void **p, uint32_t *cap, uint32_t need, size_t sz)
{
	uint32_t nc;
	void *q;

	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	q = realloc(*p, (size_t)nc * sz);
	if (q == NULL)
		return -ENOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

static int
src_push(struct bld *b, uint32_t s)
{
	if (grow((void **)&b->src, &b->capsrc, b->nsrc + 1, sizeof(*b->src)))
		return -ENOMEM;
	b->src[b->nsrc++] = s;
	return 0;
}

static int
xop_push(struct bld *b, uint32_t dst, uint32_t off)
{
	if (grow((void **)&b->x, &b->capx, b->nx + 1, sizeof(*b->x)))
		return -ENOMEM;
	b->x[b->nx].dst = dst;
	b->x[b->nx].off = off;
	b->x[b->nx].n = b->nsrc - off;
	b->nx++;
	return 0;
}

static int
build_rows(struct bld *b, const uint32_t *isi, const uint32_t *dslot, uint32_t n)
{
	const struct rq_params *p = b->p;
	const struct rq_kp *kp = b->kp;
	uint32_t S = p->S, r, k, total, cols[RQ_MAX_LT_COLS];

	b->nb = S + n;
	b->roff = malloc((b->nb + 1) * sizeof(uint32_t));
	b->rslot = malloc(b->nb * sizeof(uint32_t));
	total = kp->ldpc_off[S] + n * RQ_MAX_LT_COLS;
	b->rcol = malloc((size_t)total * sizeof(uint32_t));
	if (!b->roff || !b->rslot || !b->rcol)
		return -ENOMEM;
	memcpy(b->rcol, kp->ldpc_cols, kp->ldpc_off[S] * sizeof(uint32_t));
	memcpy(b->roff, kp->ldpc_off, (S + 1) * sizeof(uint32_t));
	for (r = 0; r < S; r++)
		b->rslot[r] = RQ_ROW_ZERO;
	total = kp->ldpc_off[S];
	for (k = 0; k < n; k++) {
		unsigned int m = rq_lt_cols(p, isi[k], cols), j;

		memcpy(b->rcol + total, cols, m * sizeof(uint32_t));
		total += m;
		b->roff[S + k + 1] = total;
		b->rslot[S + k] = dslot[k];
		(void)j;
	}
	return 0;
}

static int
build_cols(struct bld *b)
{
	uint32_t L = b->p->L, r, k;
	uint32_t *fill;

	b->coff = calloc(L + 1, sizeof(uint32_t));
	b->crow = malloc(b->roff[b->nb] * sizeof(uint32_t));
	fill = calloc(L, sizeof(uint32_t));
	if (!b->coff || !b->crow || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (k = 0; k < b->roff[b->nb]; k++)
		b->coff[b->rcol[k] + 1]++;
	for (k = 0; k < L; k++)
		b->coff[k + 1] += b->coff[k];
	for (r = 0; r < b->nb; r++)
		for (k = b->roff[r]; k < b->roff[r + 1]; k++) {
			uint32_t c = b->rcol[k];

			b->crow[b->coff[c] + fill[c]++] = r;
		}
	free(fill);
	return 0;
}

static void
inactivate(struct bld *b, uint32_t c)
{
	b->cstate[c] = 2;
	b->uidx[c] = b->u;
	b->ucol[b->u++] = c;
}

static int
phase1(struct bld *b)
{
	const struct rq_params *p = b->p;
	uint32_t L = p->L, r, c, k, d;

	b->cstate = calloc(L, 1);
	b->colpiv = malloc(L * sizeof(uint32_t));
	b->uidx = malloc(L * sizeof(uint32_t));
	b->ucol = malloc(L * sizeof(uint32_t));
	b->piv_row = malloc(L * sizeof(uint32_t));
	b->piv_col = malloc(L * sizeof(uint32_t));
	b->rdeg = calloc(b->nb, sizeof(uint32_t));
	b->cdeg = malloc(L * sizeof(uint32_t));
	b->bnext = malloc(b->nb * sizeof(uint32_t));
	b->bprev = malloc(b->nb * sizeof(uint32_t));
	b->rdone = calloc(b->nb, 1);
	b->maxw = 0;
	for (r = 0; r < b->nb; r++)
		if (b->roff[r + 1] - b->roff[r] > b->maxw)
			b->maxw = b->roff[r + 1] - b->roff[r];
	b->bhead = malloc((b->maxw + 1) * sizeof(uint32_t));
	if (!b->cstate || !b->colpiv || !b->uidx || !b->ucol || !b->piv_row ||
			!b->piv_col || !b->rdeg || !b->cdeg || !b->bnext || !b->bprev || !b->rdone ||
			!b->bhead)
		return -ENOMEM;
	for (d = 0; d <= b->maxw; d++)
		b->bhead[d] = NONE;
	for (c = 0; c < L; c++) {
		b->colpiv[c] = NONE;
		b->cdeg[c] = b->coff[c + 1] - b->coff[c];
	}
	for (c = p->W; c < L; c++)
		inactivate(b, c);
	for (r = 0; r < b->nb; r++) {
		for (k = b->roff[r]; k < b->roff[r + 1]; k++)
			if (b->cstate[b->rcol[k]] == 0)
				b->rdeg[r]++;
		bucket_add(b, r);
	}
	for (;;) {
		uint32_t keep = NONE;

		if (b->bhead[1] == NONE) {
			/*
			 * No row with one active column: inactivate the active
			 * column held by the most undone rows (it lowers the
			 * most degrees), then peel again.
			 */
			uint32_t best = NONE, bd = 0;

			for (c = 0; c < p->W; c++)
				if (b->cstate[c] == 0 && b->cdeg[c] > bd) {
					bd = b->cdeg[c];
					best = c;
				}
			if (best == NONE)
				break;
			inactivate(b, best);
			col_leave(b, best);
			continue;
		}
		r = b->bhead[1];
		bucket_del(b, r);
		b->rdone[r] = 1;
		for (k = b->roff[r]; k < b->roff[r + 1]; k++) {
			c = b->rcol[k];
			b->cdeg[c]--;
			if (b->cstate[c] == 0)
				keep = c;
		}
		b->cstate[keep] = 1;
		b->colpiv[keep] = b->npiv;
		b->piv_row[b->npiv] = r;
		b->piv_col[b->npiv] = keep;
		b->npiv++;
		col_leave(b, keep);
	}
	for (c = 0; c < L; c++)
		if (b->cstate[c] == 0)
			inactivate(b, c);
	return 0;
}

static void
bld_free(struct bld *b)
{
	free(b->roff);
	free(b->rcol);
	free(b->rslot);
	free(b->coff);
	free(b->crow);
	free(b->cstate);
	free(b->colpiv);
	free(b->rdeg);
	free(b->cdeg);
	free(b->bnext);
	free(b->bprev);
	free(b->bhead);
	free(b->rdone);
	free(b->piv_row);
	free(b->piv_col);
	free(b->ucol);
	free(b->uidx);
	free(b->x);
	free(b->src);
}

/* dst ^= coef * src over GF(256), len bytes. */
static void
row_mad(uint8_t *dst, const uint8_t *src, uint8_t coef, uint32_t len)
{
	uint32_t i;

	if (coef == 1) {
		for (i = 0; i < len; i++)
			dst[i] ^= src[i];
		return;
	}
	{
		uint32_t lc = rq_gf_log[coef];

		for (i = 0; i < len; i++)
			if (src[i])
				dst[i] ^= rq_gf_exp[lc + rq_gf_log[src[i]]];
	}
}

static void
row_scale(uint8_t *row, uint8_t coef, uint32_t len)
{
	uint32_t i, lc = rq_gf_log[coef];

	for (i = 0; i < len; i++)
		if (row[i])
			row[i] = rq_gf_exp[lc + rq_gf_log[row[i]]];
}

struct rq_plan *
rq_plan_build(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, int *err)
{
	const struct rq_params *p = &kp->p;
	struct bld b;
	struct rq_plan *pl = NULL;
	uint32_t L = p->L, H = p->H, KS = p->Kp + p->S;
	uint32_t nw, k, j, t, c, r, m2 = 0, nnp = 0, ZERO, CB, SB;
	uint64_t *ub = NULL, *acc = NULL, *tmpb = NULL;
	uint8_t *A2 = NULL, **A2r = NULL, *coef = NULL;
	uint32_t *np_row = NULL, *dprime = NULL, *rowid = NULL;
	int rc = -ENOMEM;

	memset(&b, 0, sizeof(b));
	b.kp = kp;
	b.p = p;
	if (n + p->S + H < L) {
		rc = -EAGAIN;
		goto out;
	}
	pl = calloc(1, sizeof(*pl));
	if (pl == NULL)
		goto out;
	pl->L = L;
	pl->nin = nin;
	pl->KS = KS;
	pl->H = H;
	if (build_rows(&b, isi, dslot, n) || build_cols(&b) || phase1(&b))
		goto out;
	pl->st.pivots = b.npiv;
	pl->st.inactive = b.u;
	/*
	 * Slots: inputs [0,nin), C [nin, nin+L), scratch after, zero last.
	 * Scratch: H HDPC rows, then at most u selected binary rows.
	 */
	pl->nscratch = H + b.u;
	ZERO = nin;
	CB = nin + 1;
	SB = nin + 1 + L;
	pl->zero = ZERO;
	pl->nslots = SB + pl->nscratch;
	dprime = malloc(b.nb * sizeof(uint32_t));	/* row -> slot of D' */
	nw = (b.u + 63) / 64;
	ub = calloc((size_t)b.nb * nw, sizeof(uint64_t));	/* U bits of every row */
	tmpb = calloc(nw, sizeof(uint64_t));
	if (!dprime || !ub || !tmpb)
		goto out;
	/* forward: reduced symbols and U parts of the pivot rows */
	for (k = 0; k < b.npiv; k++) {
		uint32_t off = b.nsrc;
		uint64_t *bits;

		r = b.piv_row[k];
		bits = ub + (size_t)r * nw;
		if (b.rslot[r] != RQ_ROW_ZERO && src_push(&b, b.rslot[r]))
			goto out;
		for (j = b.roff[r]; j < b.roff[r + 1]; j++) {
			c = b.rcol[j];
			if (c == b.piv_col[k])
				continue;
			if (b.cstate[c] == 2) {
				bits[b.uidx[c] / 64] ^= 1ull << (b.uidx[c] % 64);
			} else {
				uint32_t pr = b.piv_row[b.colpiv[c]];
				uint64_t *o = ub + (size_t)pr * nw;
				uint32_t w;

				for (w = 0; w < nw; w++)
					bits[w] ^= o[w];
				if (dprime[pr] != ZERO && src_push(&b, dprime[pr]))
					goto out;
			}
		}
		if (b.nsrc - off == 0) {
			dprime[r] = ZERO;
		} else if (b.nsrc - off == 1) {
			dprime[r] = b.src[off];
			b.nsrc = off;
		} else {
			dprime[r] = CB + b.piv_col[k];
			if (xop_push(&b, dprime[r], off))
				goto out;
		}
	}
	/* the non-pivot binary rows and the HDPC rows form the phase-2 system */
	for (r = 0; r < b.nb; r++)
		if (!b.rdone[r])
			nnp++;
	m2 = nnp + H;
	if (m2 < b.u) {
		rc = -EDOM;
		goto out;
	}
	A2 = calloc((size_t)m2 * (b.u + m2), 1);
	A2r = malloc(m2 * sizeof(*A2r));
	np_row = malloc(m2 * sizeof(uint32_t));
	rowid = malloc(m2 * sizeof(uint32_t));
	acc = calloc((size_t)8 * nw, sizeof(uint64_t));
	if (!A2 || !A2r || !np_row || !rowid || !acc)
		goto out;
	for (t = 0; t < m2; t++) {
		A2r[t] = A2 + (size_t)t * (b.u + m2);
		A2r[t][b.u + t] = 1;	/* identity: tracks the combination */
		rowid[t] = t;
	}
	t = 0;
	for (r = 0; r < b.nb; r++) {
		uint32_t w;

		if (b.rdone[r])
			continue;
		memset(tmpb, 0, nw * sizeof(uint64_t));
		for (j = b.roff[r]; j < b.roff[r + 1]; j++) {
			c = b.rcol[j];
			if (b.cstate[c] == 2) {
				tmpb[b.uidx[c] / 64] ^= 1ull << (b.uidx[c] % 64);
			} else {
				uint64_t *o = ub + (size_t)b.piv_row[b.colpiv[c]] * nw;

				for (w = 0; w < nw; w++)
					tmpb[w] ^= o[w];
			}
		}
		for (j = 0; j < b.u; j++)
			A2r[t][j] = (tmpb[j / 64] >> (j % 64)) & 1;
		np_row[t++] = r;
	}
	for (k = 0; k < H; k++) {
		const uint8_t *g = kp->hdpc + (size_t)k * KS;
		uint8_t *row = A2r[nnp + k];
		uint32_t w, bit;

		memset(acc, 0, 8 * nw * sizeof(uint64_t));
		for (c = 0; c < KS; c++) {
			uint8_t cf = g[c];
			const uint64_t *o;

			if (cf == 0)
				continue;
			if (b.cstate[c] == 2) {
				row[b.uidx[c]] ^= cf;
				continue;
			}
			o = ub + (size_t)b.piv_row[b.colpiv[c]] * nw;
			for (bit = 0; bit < 8; bit++)
				if (cf >> bit & 1)
					for (w = 0; w < nw; w++)
						acc[bit * nw + w] ^= o[w];
		}
		for (j = 0; j < b.u; j++) {
			uint8_t v = 0;

			for (bit = 0; bit < 8; bit++)
				v |= ((acc[bit * nw + j / 64] >> (j % 64)) & 1) << bit;
			row[j] ^= v;
		}
		row[b.uidx[KS + k]] ^= 1;	/* I_H */
		np_row[nnp + k] = NONE;
	}
	/* phase 2: Gauss-Jordan on the u columns */
	for (t = 0; t < b.u; t++) {
		uint32_t piv = NONE;
		uint8_t *tp;

		for (r = t; r < m2; r++)
			if (A2r[r][t]) {
				piv = r;
				break;
			}
		if (piv == NONE) {
			rc = -EDOM;
			goto out;
		}
		if (piv != t) {
			uint8_t *tmp = A2r[piv];
			uint32_t ti = rowid[piv];

			A2r[piv] = A2r[t];
			A2r[t] = tmp;
			rowid[piv] = rowid[t];
			rowid[t] = ti;
		}
		tp = A2r[t];
		if (tp[t] != 1)
			row_scale(tp + t, rq_gf_div(1, tp[t]), b.u + m2 - t);
		for (r = 0; r < m2; r++) {
			uint8_t cf;

			if (r == t || (cf = A2r[r][t]) == 0)
				continue;
			row_mad(A2r[r] + t, tp + t, cf, b.u + m2 - t);
		}
	}
	/* the inverse's support: which phase-2 rows feed the U symbols */
	coef = calloc((size_t)b.u * m2, 1);
	pl->u_in = malloc(m2 * sizeof(uint32_t));
	pl->u_out = malloc(b.u * sizeof(uint32_t));
	pl->hd_out = malloc(H * sizeof(uint32_t));
	if (!coef || !pl->u_in || !pl->u_out || !pl->hd_out)
		goto out;
	{
		uint32_t *sel = malloc(m2 * sizeof(uint32_t)), nsel = 0, s = H;
		int need_hd = 0;

		if (sel == NULL)
			goto out;
		for (j = 0; j < m2; j++) {
			int used = 0;

			for (t = 0; t < b.u && !used; t++)
				used = A2r[t][b.u + j] != 0;
			sel[j] = NONE;
			if (!used)
				continue;
			sel[j] = nsel;
			for (t = 0; t < b.u; t++)
				coef[(size_t)t * m2 + nsel] = A2r[t][b.u + j];
			/* D' of this row */
			if (j >= nnp) {
				need_hd = 1;
				pl->u_in[nsel] = SB + (j - nnp);
			} else {
				uint32_t off = b.nsrc, w;

				r = np_row[j];
				if (b.rslot[r] != RQ_ROW_ZERO && src_push(&b, b.rslot[r])) {
					free(sel);
					goto out;
				}
				for (w = b.roff[r]; w < b.roff[r + 1]; w++) {
					c = b.rcol[w];
					if (b.cstate[c] == 1 &&
						dprime[b.piv_row[b.colpiv[c]]] != ZERO &&
						src_push(&b, dprime[b.piv_row[b.colpiv[c]]])) {
						free(sel);
						goto out;
					}
				}
				if (b.nsrc - off == 0) {
					pl->u_in[nsel] = ZERO;
				} else if (b.nsrc - off == 1) {
					pl->u_in[nsel] = b.src[off];
					b.nsrc = off;
				} else {
					pl->u_in[nsel] = SB + s++;
					if (xop_push(&b, pl->u_in[nsel], off)) {
						free(sel);
						goto out;
					}
				}
			}
			nsel++;
		}
		free(sel);
		/* compact coef to u x nsel */
		for (t = 0; t < b.u; t++)
			memmove(coef + (size_t)t * nsel, coef + (size_t)t * m2, nsel);
		pl->nsel = nsel;
		pl->u = b.u;
		pl->u_tbl = malloc((size_t)32 * b.u * nsel);
		if (pl->u_tbl == NULL)
			goto out;
		ec_init_tables((int)nsel, (int)b.u, coef, pl->u_tbl);
		for (t = 0; t < b.u; t++)
			pl->u_out[t] = CB + b.ucol[t];
		if (need_hd) {
			pl->hd_in = malloc(KS * sizeof(uint32_t));
			if (pl->hd_in == NULL)
				goto out;
			for (c = 0; c < KS; c++)
				pl->hd_in[c] = b.cstate[c] == 1 ?
					dprime[b.piv_row[b.colpiv[c]]] : ZERO;
			for (k = 0; k < H; k++)
				pl->hd_out[k] = SB + k;
			pl->hd_mt = kp->hdpc_mt;
			pl->st.hdpc_srcs = KS;
		}
		pl->st.u_srcs = nsel;
	}
	/* x1 done: keep it, start x2 (back substitution) */
	pl->nx1 = b.nx;
	pl->x1 = b.x;
	b.x = NULL;
	b.nx = b.capx = 0;
	for (k = 0; k < b.npiv; k++) {
		uint32_t off = b.nsrc;

		r = b.piv_row[k];
		if (b.rslot[r] != RQ_ROW_ZERO && src_push(&b, b.rslot[r]))
			goto out;
		for (j = b.roff[r]; j < b.roff[r + 1]; j++) {
			c = b.rcol[j];
			if (c != b.piv_col[k] && src_push(&b, CB + c))
				goto out;
		}
		if (xop_push(&b, CB + b.piv_col[k], off))
			goto out;
	}
	pl->nx2 = b.nx;
	pl->x2 = b.x;
	b.x = NULL;
	pl->src = b.src;
	b.src = NULL;
	for (k = 0; k < pl->nx1; k++)
		pl->st.xor_srcs += pl->x1[k].n;
	for (k = 0; k < pl->nx2; k++)
		pl->st.xor_srcs += pl->x2[k].n;
	pl->st.xor_ops = pl->nx1 + pl->nx2;
	rc = 0;
out:
	free(ub);
	free(acc);
	free(tmpb);
	free(A2);
	free(A2r);
	free(coef);
	free(np_row);
	free(dprime);
	free(rowid);
	bld_free(&b);
	if (rc) {
		rq_plan_free(pl);
		pl = NULL;
	}
	if (err)
		*err = rc;
	return pl;
}
