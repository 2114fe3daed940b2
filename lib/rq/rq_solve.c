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
 *     pivot columns: one pass of the G_HDPC = MT * GAMMA recurrence;
 *   - once the U symbols are known, C[pivot col k] = D[row] ^ XOR of the
 *     other columns of its original (sparse) row (back substitution).
 * Phase 2 solves the small dense system on the U columns over GF(256) (matrix
 * only) and emits its inverse as one dense GF(256) product (rq_gf_dot_m:
 * GFNI + AVX-512, else ISA-L ec_encode_data).
 * The matrix work is done once per K' for encoding (cached plan) and once per
 * block for decoding; symbol work is only multi-source XORs and two dense
 * GF(256) products.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>

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
	int u_gfni;		/* u_tbl format: rq_gf_dot_m's gfni */
	struct rq_plan_stats st;
	size_t bytes;		/* of the whole block (header + arrays) */
	int owned;		/* malloc'd block: rq_plan_free frees it */
};

void
rq_plan_free(struct rq_plan *pl)
{
	if (pl != NULL && pl->owned)
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

/*
 * Bytes of one column stripe: the whole plan runs on bytes [o, o+stripe)
 * of every symbol before moving on, so that the symbols' working set stays
 * in L1/L2 for large blocks. RQ_STRIPE_WS is the target working set.
 */
#ifndef RQ_STRIPE_WS
#define RQ_STRIPE_WS	(1280u << 10)
#endif
#ifndef RQ_STRIPE_MIN
#define RQ_STRIPE_MIN	256u
#endif

static size_t
stripe_len(const struct rq_plan *pl, size_t T)
{
	size_t ws = (size_t)pl->nslots * T, s;

	if (ws <= RQ_STRIPE_WS || T <= RQ_STRIPE_MIN)
		return T;
	s = RQ_STRIPE_WS / pl->nslots / 64 * 64;
	if (s < RQ_STRIPE_MIN)
		s = RQ_STRIPE_MIN;
	/* even stripes: no short last one */
	s = (T + (T + s - 1) / s - 1) / ((T + s - 1) / s);
	return (s + 63) / 64 * 64;
}

/*
 * Input symbols are read once per pass (x1, x2) in pivot order, i.e. in no
 * order the hardware prefetchers follow: prefetch the input stripe of the
 * xop RQ_IN_PF ahead (K = 10000 decode +5-8 %; NTA was slower than T0/T2).
 */
#ifndef RQ_IN_PF
#define RQ_IN_PF 4
#endif
#ifndef RQ_IN_HINT
#define RQ_IN_HINT _MM_HINT_T0
#endif

static void
run_xops(const struct rq_plan *pl, const struct xop *xs, uint32_t n, uint8_t *const *tab,
		size_t o, size_t len)
{
	uint32_t i;
	size_t v;

	for (i = 0; i < n; i++) {
		const struct xop *x = &xs[i];

		if (RQ_IN_PF && i + RQ_IN_PF < n) {
			uint32_t s0 = pl->src[xs[i + RQ_IN_PF].off];

			if (s0 < pl->nin)
				for (v = 0; v < len; v += 64)
					_mm_prefetch((const char *)tab[s0] + o + v, RQ_IN_HINT);
		}
		rq_xor_idx_at(tab[x->dst] + o, tab, pl->src + x->off, x->n, o, len);
	}
}

void
rq_plan_run(const struct rq_plan *pl, size_t T, uint8_t *const *tab)
{
	/* pointer workspace after the largest slot table (nin + 1 + 2L + H) */
	uint8_t **ws = (uint8_t **)tab + pl->nin + 1 + 2 * pl->L + pl->H;
	size_t o, len, sl = stripe_len(pl, T);
	uint32_t i;

	for (o = 0; o < T; o += len) {
		len = T - o < sl ? T - o : sl;
		run_xops(pl, pl->x1, pl->nx1, tab, o, len);
		if (pl->hd_mt != NULL) {
			for (i = 0; i < pl->H; i++)
				ws[i] = tab[pl->hd_out[i]];
			rq_hdpc_apply_at(tab, pl->hd_in, pl->zero, pl->hd_mt, pl->KS, pl->H, ws,
				o, len);
		}
		if (pl->u > 0) {
			for (i = 0; i < pl->nsel; i++)
				ws[i] = tab[pl->u_in[i]] + o;
			for (i = 0; i < pl->u; i++)
				ws[pl->nsel + i] = tab[pl->u_out[i]] + o;
			rq_gf_dot_m(len, pl->nsel, pl->u, pl->u_tbl, ws, ws + pl->nsel,
				pl->u_gfni);
		}
		run_xops(pl, pl->x2, pl->nx2, tab, o, len);
	}
}

/* --- workspace arena --- */

/*
 * Bump allocation from ws. Past the end it keeps counting (returns NULL),
 * so that a stage can allocate everything first and then learn, from
 * ws->used > ws->cap, how much a retry needs.
 */
static void *
aalloc(struct rq_ws *ws, size_t n)
{
	void *p = NULL;

	n = (n + 63) & ~(size_t)63;
	if (ws->used + n <= ws->cap)
		p = ws->base + ws->used;
	ws->used += n;
	return p;
}

void
rq_ws_free(struct rq_ws *ws)
{
	free(ws->base);
	ws->base = NULL;
	ws->cap = ws->used = 0;
}

int
rq_ws_reserve(struct rq_ws *ws, size_t n)
{
	uint8_t *b;

	if (n <= ws->cap)
		return 0;
	n = (n + 4095) & ~(size_t)4095;
	b = aligned_alloc(64, n);
	if (b == NULL)
		return -ENOMEM;
	free(ws->base);
	ws->base = b;
	ws->cap = n;
	return 0;
}

/* --- build --- */

struct bld {
	const struct rq_kp *kp;
	const struct rq_params *p;
	struct rq_ws *ws;
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
	uint32_t *uf, *ufsz, *ufstamp, epoch;	/* union-find for the r = 2 choice */
	uint32_t *ufbest;	/* root -> its column held by the most rows */
	uint64_t *rsum, *rsq;	/* sum of the active columns (and of their squares) */
	/* output lists (sized by bounds) */
	struct xop *x;
	uint32_t nx;
	uint32_t *src;
	uint32_t nsrc;
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
		b->rsum[r] -= c;
		b->rsq[r] -= (uint64_t)c * c;
		bucket_add(b, r);
	}
}

static inline void
src_push(struct bld *b, uint32_t s)
{
	b->src[b->nsrc++] = s;
}

static inline void
xop_push(struct bld *b, uint32_t dst, uint32_t off)
{
	b->x[b->nx].dst = dst;
	b->x[b->nx].off = off;
	b->x[b->nx].n = b->nsrc - off;
	b->nx++;
}

/* Stage A: the sparse binary rows, their transpose, the peeling state. */
static int
stage_a(struct bld *b, const uint32_t *isi, const uint32_t *dslot, uint32_t n)
{
	const struct rq_params *p = b->p;
	const struct rq_kp *kp = b->kp;
	struct rq_ws *ws = b->ws;
	uint32_t S = p->S, L = p->L, r, k, c, total, maxw = RQ_MAX_LT_COLS;
	size_t nnz = kp->ldpc_off[S] + (size_t)n * RQ_MAX_LT_COLS;

	for (r = 0; r < S; r++)
		if (kp->ldpc_off[r + 1] - kp->ldpc_off[r] > maxw)
			maxw = kp->ldpc_off[r + 1] - kp->ldpc_off[r];

	b->nb = S + n;
	b->roff = aalloc(ws, (b->nb + 1) * sizeof(uint32_t));
	b->rslot = aalloc(ws, b->nb * sizeof(uint32_t));
	b->rcol = aalloc(ws, nnz * sizeof(uint32_t));
	b->crow = aalloc(ws, nnz * sizeof(uint32_t));
	b->coff = aalloc(ws, (L + 1) * sizeof(uint32_t));
	b->cstate = aalloc(ws, L);
	b->colpiv = aalloc(ws, L * sizeof(uint32_t));
	b->uidx = aalloc(ws, L * sizeof(uint32_t));
	b->ucol = aalloc(ws, L * sizeof(uint32_t));
	b->piv_row = aalloc(ws, L * sizeof(uint32_t));
	b->piv_col = aalloc(ws, L * sizeof(uint32_t));
	b->cdeg = aalloc(ws, L * sizeof(uint32_t));
	b->uf = aalloc(ws, L * sizeof(uint32_t));
	b->ufsz = aalloc(ws, L * sizeof(uint32_t));
	b->ufstamp = aalloc(ws, L * sizeof(uint32_t));
	b->ufbest = aalloc(ws, L * sizeof(uint32_t));
	b->rdeg = aalloc(ws, b->nb * sizeof(uint32_t));
	b->bnext = aalloc(ws, b->nb * sizeof(uint32_t));
	b->bprev = aalloc(ws, b->nb * sizeof(uint32_t));
	b->rdone = aalloc(ws, b->nb);
	b->rsum = aalloc(ws, b->nb * sizeof(uint64_t));
	b->rsq = aalloc(ws, b->nb * sizeof(uint64_t));
	b->bhead = aalloc(ws, (maxw + 1) * sizeof(uint32_t));
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
	memset(b->cstate, 0, L);
	memset(b->rdeg, 0, b->nb * sizeof(uint32_t));
	memset(b->rdone, 0, b->nb);
	memset(b->ufstamp, 0, L * sizeof(uint32_t));
	b->epoch = 0;
	return 0;
}

static void
inactivate(struct bld *b, uint32_t c)
{
	b->cstate[c] = 2;
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
 * take a column of that component (the one held by the most rows). For
 * r > 2, inactivate the active column held by the most undone rows.
 */
static uint32_t
choose_inactive(struct bld *b)
{
	const struct rq_params *p = b->p;
	uint32_t r, c, c0, c1, best = NONE, bd = 0;

	if (b->bhead[2] != NONE) {
		uint32_t root = NONE, rs = 0;

		/*
		 * One pass: union the two columns of every degree-2 row; each
		 * root keeps the largest component's best column (ties: the
		 * first found), so no second pass over the rows is needed.
		 */
		b->epoch++;
		for (r = b->bhead[2]; r != NONE; r = b->bnext[r]) {
			uint32_t a, z;

			row_two(b, r, &c0, &c1);
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
		if (b->cstate[c] == 0 && b->cdeg[c] > bd) {
			bd = b->cdeg[c];
			best = c;
		}
	return best;
}

static void
phase1(struct bld *b)
{
	const struct rq_params *p = b->p;
	uint32_t L = p->L, r, c, k, d;

	b->maxw = 0;
	for (r = 0; r < b->nb; r++)
		if (b->roff[r + 1] - b->roff[r] > b->maxw)
			b->maxw = b->roff[r + 1] - b->roff[r];
	for (d = 0; d <= b->maxw; d++)
		b->bhead[d] = NONE;
	for (c = 0; c < L; c++) {
		b->colpiv[c] = NONE;
		b->cdeg[c] = b->coff[c + 1] - b->coff[c];
	}
	for (c = p->W; c < L; c++)
		inactivate(b, c);
	for (r = 0; r < b->nb; r++) {
		b->rsum[r] = 0;
		b->rsq[r] = 0;
		for (k = b->roff[r]; k < b->roff[r + 1]; k++) {
			c = b->rcol[k];
			if (b->cstate[c] == 0) {
				b->rdeg[r]++;
				b->rsum[r] += c;
				b->rsq[r] += (uint64_t)c * c;
			}
		}
		bucket_add(b, r);
	}
	for (;;) {
		uint32_t keep = NONE;

		if (b->bhead[1] == NONE) {
			uint32_t best = choose_inactive(b);

			if (best == NONE)
				break;
			inactivate(b, best);
			col_leave(b, best);
			continue;
		}
		r = b->bhead[1];
		bucket_del(b, r);
		b->rdone[r] = 1;
		for (k = b->roff[r]; k < b->roff[r + 1]; k++)
			b->cdeg[b->rcol[k]]--;
		keep = (uint32_t)b->rsum[r];	/* its one active column */
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
}

/* bit_bytes[v]: byte i is bit i of v (little endian) */
static uint64_t bit_bytes[256];

__attribute__((constructor))
static void
bit_bytes_init(void)
{
	unsigned int v, i;

	for (v = 0; v < 256; v++)
		for (i = 0; i < 8; i++)
			bit_bytes[v] |= (uint64_t)((v >> i) & 1) << (8 * i);
}

static inline uint64_t
mul2_u64(uint64_t w)
{
	uint64_t hi = w & 0x8080808080808080ull;

	return ((w & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

static void
row_scale(uint8_t *row, uint8_t coef, uint32_t len)
{
	const uint8_t *t = rq_gf_nib[coef];
	uint32_t i;

	for (i = 0; i < len; i++)
		row[i] = t[row[i] & 15] ^ t[16 + (row[i] >> 4)];
}

/* One build in ws; -ENOBUFS when ws is too small (ws->used says how much). */
static int
build(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot, uint32_t n,
		uint32_t nin, struct rq_ws *ws, struct rq_plan **out)
{
	const struct rq_params *p = &kp->p;
	struct bld b;
	struct rq_plan *pl;
	uint32_t L = p->L, H = p->H, KS = p->Kp + p->S;
	uint32_t nw, k, j, t, c, r, m2 = 0, nnp = 0, ZERO, CB, SB, A2w, nsel, s;
	uint64_t *ub, *acc, *tmpb;
	uint8_t *A2, **A2r, *coef;
	uint32_t *np_row, *dprime, *rowid, *sel;
	size_t nsrc_max, nnz;
	int need_hd = 0, rc;

	memset(&b, 0, sizeof(b));
	b.kp = kp;
	b.p = p;
	b.ws = ws;
	ws->used = 0;
	if (n + p->S + H < L)
		return -EAGAIN;
	pl = aalloc(ws, sizeof(*pl));
	rc = stage_a(&b, isi, dslot, n);
	if (rc || pl == NULL)
		return rc ? rc : -ENOBUFS;
	memset(pl, 0, sizeof(*pl));
	pl->L = L;
	pl->nin = nin;
	pl->KS = KS;
	pl->H = H;
	phase1(&b);
	pl->st.pivots = b.npiv;
	pl->st.inactive = b.u;
	for (r = 0; r < b.nb; r++)
		if (!b.rdone[r])
			nnp++;
	m2 = nnp + H;
	if (m2 < b.u)
		return -EDOM;
	/*
	 * Slots: inputs [0,nin), zero at nin, C [nin+1, nin+1+L), scratch
	 * after: H HDPC rows, then at most u selected binary rows.
	 */
	pl->nscratch = H + b.u;
	ZERO = nin;
	CB = nin + 1;
	SB = nin + 1 + L;
	pl->zero = ZERO;
	pl->nslots = SB + pl->nscratch;
	/* stage B: everything else */
	nw = (b.u + 63) / 64;
	A2w = b.u + m2;
	nnz = b.roff[b.nb];
	nsrc_max = 2 * (nnz + b.nb) + 16;
	dprime = aalloc(ws, b.nb * sizeof(uint32_t));	/* row -> slot of D' */
	ub = aalloc(ws, (size_t)b.nb * nw * sizeof(uint64_t));	/* U bits of each row */
	tmpb = aalloc(ws, (nw + 1) * sizeof(uint64_t));
	acc = aalloc(ws, ((size_t)H + 1) * ((b.u + 7) / 8) * sizeof(uint64_t) + 64);
	A2 = aalloc(ws, (size_t)m2 * A2w);
	A2r = aalloc(ws, m2 * sizeof(*A2r));
	np_row = aalloc(ws, m2 * sizeof(uint32_t));
	rowid = aalloc(ws, m2 * sizeof(uint32_t));
	sel = aalloc(ws, m2 * sizeof(uint32_t));
	coef = aalloc(ws, (size_t)b.u * b.u + 1);
	b.x = aalloc(ws, (2 * (size_t)b.npiv + m2) * sizeof(*b.x));
	b.src = aalloc(ws, nsrc_max * sizeof(uint32_t));
	pl->u_in = aalloc(ws, m2 * sizeof(uint32_t));
	pl->u_out = aalloc(ws, (b.u + 1) * sizeof(uint32_t));
	pl->hd_out = aalloc(ws, H * sizeof(uint32_t));
	pl->hd_in = aalloc(ws, KS * sizeof(uint32_t));
	pl->u_tbl = aalloc(ws, (size_t)32 * b.u * b.u + 1);
	if (ws->used > ws->cap)
		return -ENOBUFS;
	memset(ub, 0, (size_t)b.nb * nw * sizeof(uint64_t));
	memset(A2, 0, (size_t)m2 * A2w);
	/* forward: reduced symbols and U parts of the pivot rows */
	for (k = 0; k < b.npiv; k++) {
		uint32_t off = b.nsrc;
		uint64_t *bits;

		r = b.piv_row[k];
		bits = ub + (size_t)r * nw;
		if (b.rslot[r] != RQ_ROW_ZERO)
			src_push(&b, b.rslot[r]);
		for (j = b.roff[r]; j < b.roff[r + 1]; j++) {
			c = b.rcol[j];
			if (c == b.piv_col[k])
				continue;
			if (b.cstate[c] == 2) {
				bits[b.uidx[c] / 64] ^= 1ull << (b.uidx[c] % 64);
			} else {
				uint32_t pr = b.piv_row[b.colpiv[c]];
				const uint64_t *o = ub + (size_t)pr * nw;
				uint32_t w;

				for (w = 0; w < nw; w++)
					bits[w] ^= o[w];
				if (dprime[pr] != ZERO)
					src_push(&b, dprime[pr]);
			}
		}
		if (b.nsrc - off == 0) {
			dprime[r] = ZERO;
		} else if (b.nsrc - off == 1) {
			dprime[r] = b.src[off];
			b.nsrc = off;
		} else {
			dprime[r] = CB + b.piv_col[k];
			xop_push(&b, dprime[r], off);
		}
	}
	/* the non-pivot binary rows and the HDPC rows form the phase-2 system */
	for (t = 0; t < m2; t++) {
		A2r[t] = A2 + (size_t)t * A2w;
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
				const uint64_t *o = ub + (size_t)b.piv_row[b.colpiv[c]] * nw;

				for (w = 0; w < nw; w++)
					tmpb[w] ^= o[w];
			}
		}
		for (w = 0; w < nw; w++) {
			uint64_t v = tmpb[w];

			while (v) {
				A2r[t][w * 64 + (uint32_t)__builtin_ctzll(v)] = 1;
				v &= v - 1;
			}
		}
		np_row[t++] = r;
	}
	/*
	 * HDPC rows: U part of G_HDPC * (U parts of the columns), through
	 * G_HDPC = MT * GAMMA as in rq_hdpc_apply but on byte vectors of
	 * length u: y_m = alpha * y_{m-1} + x_m, acc[the two MT rows of m] ^= y_m,
	 * then acc[h] ^= alpha^h * y_{KS-1}; x_m is the 0/1 U part of column m.
	 */
	{
		uint32_t nw8 = (b.u + 7) / 8, w, h;
		uint64_t *y = acc, *hacc = acc + nw8;

		memset(acc, 0, (size_t)(H + 1) * nw8 * sizeof(uint64_t));
		for (c = 0; c < KS; c++) {
			uint8_t *yb = (uint8_t *)y;

			for (w = 0; w < nw8; w++)
				y[w] = mul2_u64(y[w]);
			if (b.cstate[c] == 2) {
				yb[b.uidx[c]] ^= 1;
			} else {
				const uint64_t *o = ub + (size_t)b.piv_row[b.colpiv[c]] * nw;
				uint32_t j;

				/* bits -> 0/1 bytes, 8 at a time (bits >= u are zero) */
				for (w = 0; w < nw; w++) {
					uint64_t v = o[w];

					for (j = 0; v; j++, v >>= 8)
						if (v & 0xff)
							y[w * 8 + j] ^= bit_bytes[v & 0xff];
				}
			}
			if (c + 1 < KS) {
				uint64_t *a1 = hacc + (size_t)kp->hdpc_mt[2 * c] * nw8;
				uint64_t *a2 = hacc + (size_t)kp->hdpc_mt[2 * c + 1] * nw8;

				for (w = 0; w < nw8; w++) {
					a1[w] ^= y[w];
					a2[w] ^= y[w];
				}
			}
		}
		for (h = 0; h < H; h++) {
			uint64_t *a = hacc + (size_t)h * nw8;

			for (w = 0; w < nw8; w++) {
				a[w] ^= y[w];
				y[w] = mul2_u64(y[w]);
			}
			memcpy(A2r[nnp + h], a, b.u);
			A2r[nnp + h][b.uidx[KS + h]] ^= 1;	/* I_H */
			np_row[nnp + h] = NONE;
		}
	}
	/*
	 * Phase 2: Gauss-Jordan on the u columns (matrix only). Binary rows
	 * are preferred as pivots: their entries stay 0/1 longer, so more of
	 * the row operations are plain XORs.
	 */
	for (t = 0; t < b.u; t++) {
		uint32_t piv = NONE;
		uint8_t *tp;

		for (r = t; r < m2; r++)
			if (A2r[r][t]) {
				piv = r;
				break;
			}
		if (piv == NONE)
			return -EDOM;
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
			row_scale(tp + t, rq_gf_div(1, tp[t]), A2w - t);
		for (r = 0; r < m2; r++) {
			uint8_t cf;

			if (r == t || (cf = A2r[r][t]) == 0)
				continue;
			rq_gf_row_mad(A2r[r] + t, tp + t, cf, A2w - t);
		}
	}
	/* the inverse's support: which phase-2 rows feed the U symbols */
	nsel = 0;
	s = H;
	for (j = 0; j < m2; j++) {
		int used = 0;

		for (t = 0; t < b.u && !used; t++)
			used = A2r[t][b.u + j] != 0;
		sel[j] = NONE;
		if (!used)
			continue;
		/* only the u pivot rows are ever added to others: nsel <= u */
		if (nsel == b.u)
			return -EDOM;	/* cannot happen */
		sel[j] = nsel;
		for (t = 0; t < b.u; t++)
			coef[(size_t)t * b.u + nsel] = A2r[t][b.u + j];
		/* D' of this row */
		if (j >= nnp) {
			need_hd = 1;
			pl->u_in[nsel] = SB + (j - nnp);
		} else {
			uint32_t off = b.nsrc, w;

			r = np_row[j];
			if (b.rslot[r] != RQ_ROW_ZERO)
				src_push(&b, b.rslot[r]);
			for (w = b.roff[r]; w < b.roff[r + 1]; w++) {
				c = b.rcol[w];
				if (b.cstate[c] == 1 && dprime[b.piv_row[b.colpiv[c]]] != ZERO)
					src_push(&b, dprime[b.piv_row[b.colpiv[c]]]);
			}
			if (b.nsrc - off == 0) {
				pl->u_in[nsel] = ZERO;
			} else if (b.nsrc - off == 1) {
				pl->u_in[nsel] = b.src[off];
				b.nsrc = off;
			} else {
				pl->u_in[nsel] = SB + s++;
				xop_push(&b, pl->u_in[nsel], off);
			}
		}
		nsel++;
	}
	/* compact coef to u x nsel */
	for (t = 0; t < b.u; t++)
		memmove(coef + (size_t)t * nsel, coef + (size_t)t * b.u, nsel);
	pl->nsel = nsel;
	pl->u = b.u;
	pl->u_gfni = rq_gf_dot_mode();
	rq_gf_dot_tables_m(nsel, b.u, coef, pl->u_tbl, pl->u_gfni);
	for (t = 0; t < b.u; t++)
		pl->u_out[t] = CB + b.ucol[t];
	if (need_hd) {
		for (c = 0; c < KS; c++)
			pl->hd_in[c] = b.cstate[c] == 1 ? dprime[b.piv_row[b.colpiv[c]]] : ZERO;
		for (k = 0; k < H; k++)
			pl->hd_out[k] = SB + k;
		pl->hd_mt = kp->hdpc_mt;
		pl->st.hdpc_srcs = KS;
	}
	pl->st.u_srcs = nsel;
	/* x1 done; x2 (back substitution) follows in the same array */
	pl->nx1 = b.nx;
	for (k = 0; k < b.npiv; k++) {
		uint32_t off = b.nsrc;

		r = b.piv_row[k];
		if (b.rslot[r] != RQ_ROW_ZERO)
			src_push(&b, b.rslot[r]);
		for (j = b.roff[r]; j < b.roff[r + 1]; j++) {
			c = b.rcol[j];
			if (c != b.piv_col[k])
				src_push(&b, CB + c);
		}
		xop_push(&b, CB + b.piv_col[k], off);
	}
	pl->x1 = b.x;
	pl->nx2 = b.nx - pl->nx1;
	pl->x2 = b.x + pl->nx1;
	pl->src = b.src;
	for (k = 0; k < b.nx; k++)
		pl->st.xor_srcs += b.x[k].n;
	pl->st.xor_ops = b.nx;
	pl->bytes = b.nsrc;	/* sources used; the compact copy sizes from it */
	*out = pl;
	return 0;
}

struct rq_plan *
rq_plan_build_ws(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, struct rq_ws *ws, int *err)
{
	struct rq_plan *pl = NULL;
	int rc;

	for (;;) {
		rc = build(kp, isi, dslot, n, nin, ws, &pl);
		if (rc != -ENOBUFS)
			break;
		/* a new high-water mark: grow once, with slack, and redo */
		if (rq_ws_reserve(ws, ws->used + ws->used / 4 + 4096)) {
			rc = -ENOMEM;
			break;
		}
	}
	if (err)
		*err = rc;
	return rc ? NULL : pl;
}

/* Copy a plan out of a workspace into one compact malloc'd block. */
static struct rq_plan *
plan_clone(const struct rq_plan *q)
{
	size_t nx = q->nx1 + q->nx2, nsrc = q->bytes, sz, o;
	size_t tbl = (size_t)32 * q->u * q->nsel;
	struct rq_plan *pl;
	uint8_t *m;

	sz = sizeof(*pl) + nx * sizeof(struct xop) + nsrc * sizeof(uint32_t) +
		(q->KS + q->H + q->nsel + q->u) * sizeof(uint32_t) + tbl + 64;
	m = malloc(sz);
	if (m == NULL)
		return NULL;
	pl = (struct rq_plan *)m;
	*pl = *q;
	o = sizeof(*pl);
	pl->x1 = (struct xop *)(m + o);
	memcpy(pl->x1, q->x1, nx * sizeof(struct xop));
	pl->x2 = pl->x1 + q->nx1;
	o += nx * sizeof(struct xop);
	pl->src = (uint32_t *)(m + o);
	memcpy(pl->src, q->src, nsrc * sizeof(uint32_t));
	o += nsrc * sizeof(uint32_t);
	pl->hd_in = (uint32_t *)(m + o);
	if (q->hd_mt != NULL)
		memcpy(pl->hd_in, q->hd_in, q->KS * sizeof(uint32_t));
	o += q->KS * sizeof(uint32_t);
	pl->hd_out = (uint32_t *)(m + o);
	if (q->hd_mt != NULL)
		memcpy(pl->hd_out, q->hd_out, q->H * sizeof(uint32_t));
	o += q->H * sizeof(uint32_t);
	pl->u_in = (uint32_t *)(m + o);
	memcpy(pl->u_in, q->u_in, q->nsel * sizeof(uint32_t));
	o += q->nsel * sizeof(uint32_t);
	pl->u_out = (uint32_t *)(m + o);
	memcpy(pl->u_out, q->u_out, q->u * sizeof(uint32_t));
	o += q->u * sizeof(uint32_t);
	pl->u_tbl = (uint8_t *)(((uintptr_t)(m + o) + 63) & ~(uintptr_t)63);
	memcpy(pl->u_tbl, q->u_tbl, tbl);
	pl->bytes = sz;
	pl->owned = 1;
	return pl;
}

struct rq_plan *
rq_plan_build(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, int *err)
{
	struct rq_ws ws = { NULL, 0, 0 };
	struct rq_plan *q, *pl = NULL;
	int rc;

	q = rq_plan_build_ws(kp, isi, dslot, n, nin, &ws, &rc);
	if (q != NULL) {
		pl = plan_clone(q);
		if (pl == NULL)
			rc = -ENOMEM;
	}
	rq_ws_free(&ws);
	if (err)
		*err = rc;
	return pl;
}
