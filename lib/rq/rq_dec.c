/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Decoder: store received symbols; when all source symbols are there, copy.
 * Small blocks (K' up to the tier's gen_dec_max_kp <= RQ_GEN_MAX_KP): the e
 * lost source symbols solve an e x e GF(256) system built from the
 * generator rows of the received repair symbols (see gen_decode). Larger
 * blocks with few lost source symbols (the tier's bound): replay the cached
 * encoding plan and solve a small dense system on the lost columns
 * (res_decode). Otherwise build a plan for this loss pattern (inactivation
 * solve, matrix only), replay it, and regenerate the missing source symbols.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rq_priv.h"
#include "rq_kern.h"
#include "rq_sym.h"

#define NONE UINT32_MAX

enum { RES_OFF, RES_AUTO, RES_FORCED };

struct rq_dec {
	uint32_t K;
	uint16_t T;
	size_t stride;		/* between two symbols of store (rq_sym_stride) */
	uint32_t cap, count, nsrc;
	int decoded;
	int refs;		/* some tab[i < count] point at caller memory */
	const struct rq_kp *kp;
	uint8_t *store;		/* cap symbols | zero | C (L) | scratch (H+L) */
	uint8_t **tab;
	uint32_t *esi;		/* per stored slot */
	uint32_t *srcslot;	/* source ESI -> slot */
	uint32_t *hash;		/* open addressing on ESI: slot or NONE */
	uint32_t hmask;
	uint32_t *isi, *dslot;	/* plan-build arguments */
	struct rq_ws ws;	/* plan-build workspace, sized at creation */
	/* generator path (kp->gm != NULL), all sized at creation */
	int gen;
	uint8_t *grow;		/* K rows of K': generator rows of the chosen repairs */
	uint8_t *bas, *aug;	/* K x K: reduced rows on the lost columns, combinations */
	uint8_t *z;		/* K x K: product coefficients */
	uint8_t *tbls;		/* 32 * K * RQ_GEN_CHUNK */
	uint8_t **inp, **outp;	/* K each */
	uint32_t *lost, *recv, *pc, *chosen;	/* K each */
	/* residual path (no generator path, e <= eauto lost), sized at creation */
	int res;		/* RES_OFF, RES_AUTO (e <= eauto), RES_FORCED (e <= emax) */
	uint32_t emax, escr;	/* most lost symbols; the encoding plan's scratch */
	uint32_t eauto;		/* the tier's default bound on e, <= emax */
	uint8_t **etab;		/* encoding-plan slots over the stored symbols */
	uint8_t **utab;		/* the same over the unit replay (umem) */
	uint8_t *umem;		/* e x e identity | zero | C and scratch, e bytes each */
	uint8_t *rbas, *raug;	/* emax x emax */
	uint8_t *rtbls;		/* 32 * emax * RQ_GEN_CHUNK */
	uint8_t **rin, **rout;	/* emax each */
	uint32_t *rlost, *rpc, *rchosen;	/* emax each */
};

static int ws_presize(struct rq_dec *dec);
static int res_create(struct rq_dec *dec);

struct rq_dec *
rq_dec_create(uint32_t K, uint16_t T, uint32_t max_symbols)
{
	const struct rq_kp *kp;
	struct rq_dec *dec;
	uint32_t nsym, i, L, hs;

	if (K == 0 || K > RQ_MAX_K || T == 0)
		return NULL;
	if (max_symbols == 0)
		max_symbols = K + (K / 4 > 64 ? K / 4 : 64);
	if (max_symbols < K || max_symbols > (1u << 24))
		return NULL;
	kp = rq_kp_get(K);
	if (kp == NULL)
		return NULL;
	dec = calloc(1, sizeof(*dec));
	if (dec == NULL)
		return NULL;
	dec->K = K;
	dec->T = T;
	dec->kp = kp;
	dec->cap = max_symbols;
	L = kp->p.L;
	nsym = max_symbols + L + kp->p.H + L + 1;
	for (hs = 16; hs < 2 * max_symbols; hs *= 2)
		;
	dec->hmask = hs - 1;
	dec->stride = rq_sym_stride(T);
	dec->store = rq_sym_alloc((size_t)nsym * dec->stride);
	dec->tab = calloc((size_t)nsym + 6 * L, sizeof(uint8_t *));
	dec->esi = malloc(max_symbols * sizeof(uint32_t));
	dec->srcslot = malloc(K * sizeof(uint32_t));
	dec->hash = malloc(hs * sizeof(uint32_t));
	dec->isi = malloc((max_symbols + kp->p.Kp) * sizeof(uint32_t));
	dec->dslot = malloc((max_symbols + kp->p.Kp) * sizeof(uint32_t));
	if (!dec->store || !dec->tab || !dec->esi || !dec->srcslot || !dec->hash ||
			!dec->isi || !dec->dslot) {
		rq_dec_free(dec);
		return NULL;
	}
	if (kp->gm != NULL) {
		size_t kk = (size_t)K * K;

		/* the tier says up to which K' the generator path is the default */
		dec->gen = kp->p.Kp <= rq_kern_cur->gen_dec_max_kp;
		dec->grow = malloc((size_t)K * kp->p.Kp);
		dec->bas = malloc(kk);
		dec->aug = malloc(kk);
		dec->z = malloc(kk);
		dec->tbls = aligned_alloc(64, (size_t)32 * K * RQ_GEN_CHUNK);
		dec->inp = malloc(K * sizeof(*dec->inp));
		dec->outp = malloc(K * sizeof(*dec->outp));
		dec->lost = malloc(K * sizeof(uint32_t));
		dec->recv = malloc(K * sizeof(uint32_t));
		dec->pc = malloc(K * sizeof(uint32_t));
		dec->chosen = malloc(K * sizeof(uint32_t));
		if (!dec->grow || !dec->bas || !dec->aug || !dec->z || !dec->tbls ||
				!dec->inp || !dec->outp || !dec->lost || !dec->recv ||
				!dec->pc || !dec->chosen) {
			rq_dec_free(dec);
			return NULL;
		}
	}
	memset(dec->store, 0, (size_t)nsym * dec->stride);
	for (i = 0; i < nsym; i++)
		dec->tab[i] = dec->store + (size_t)i * dec->stride;
	if (!dec->gen && res_create(dec)) {
		rq_dec_free(dec);
		return NULL;
	}
	if (ws_presize(dec)) {
		rq_dec_free(dec);
		return NULL;
	}
	rq_dec_reset(dec);
	return dec;
}

/*
 * Size the plan workspace once: build the plan of the systematic rows
 * (the shape of a decode with nothing lost) to learn its size, then add
 * room for the extra received rows and for more inactivations than that
 * pattern needed, so that per-block builds never allocate.
 */
static int
ws_presize(struct rq_dec *dec)
{
	const struct rq_params *p = &dec->kp->p;
	struct rq_plan_stats st;
	struct rq_plan *pl;
	uint32_t i, u, extra;
	int err;
	size_t need;

	for (i = 0; i < p->Kp; i++) {
		dec->isi[i] = i;
		dec->dslot[i] = i < dec->K ? i : RQ_ROW_ZERO;
	}
	pl = rq_plan_build_ws(dec->kp, dec->isi, dec->dslot, p->Kp, dec->cap, &dec->ws, &err);
	if (pl == NULL)
		return -ENOMEM;
	rq_plan_get_stats(pl, &st);
	u = st.inactive + st.inactive / 2 + 16;
	extra = dec->cap - dec->K + 8;
	need = dec->ws.used + dec->ws.used / 2 +
		(size_t)extra * (2 * RQ_MAX_LT_COLS * 8 + 64 + 4 * (size_t)u) +
		(size_t)u * u * 40 + (size_t)u * (u + p->H) * 2;
	return rq_ws_reserve(&dec->ws, need);
}

void
rq_dec_free(struct rq_dec *dec)
{
	if (dec == NULL)
		return;
	free(dec->store);
	free(dec->tab);
	free(dec->esi);
	free(dec->srcslot);
	free(dec->hash);
	free(dec->isi);
	free(dec->dslot);
	free(dec->grow);
	free(dec->bas);
	free(dec->aug);
	free(dec->z);
	free(dec->tbls);
	free(dec->inp);
	free(dec->outp);
	free(dec->lost);
	free(dec->recv);
	free(dec->pc);
	free(dec->chosen);
	free(dec->etab);
	free(dec->utab);
	free(dec->umem);
	free(dec->rbas);
	free(dec->raug);
	free(dec->rtbls);
	free(dec->rin);
	free(dec->rout);
	free(dec->rlost);
	free(dec->rpc);
	free(dec->rchosen);
	rq_ws_free(&dec->ws);
	free(dec);
}

void
rq_dec_reset(struct rq_dec *dec)
{
	if (dec == NULL)
		return;
	if (dec->refs) {
		uint32_t i;

		for (i = 0; i < dec->count; i++)
			dec->tab[i] = dec->store + (size_t)i * dec->stride;
		dec->refs = 0;
	}
	dec->count = 0;
	dec->nsrc = 0;
	dec->decoded = 0;
	memset(dec->srcslot, 0xff, dec->K * sizeof(uint32_t));
	memset(dec->hash, 0xff, (dec->hmask + 1) * sizeof(uint32_t));
}

/* Store one symbol: copied into the slot, or (ref) the slot points at sym. */
static int
dec_add(struct rq_dec *dec, uint32_t esi, const void *sym, int ref)
{
	uint32_t h;

	if (dec == NULL || sym == NULL)
		return -EINVAL;
	if (esi > RQ_MAX_ESI)
		return -ERANGE;
	h = (esi * 2654435761u) & dec->hmask;
	while (dec->hash[h] != NONE) {
		if (dec->esi[dec->hash[h]] == esi)
			return 0;
		h = (h + 1) & dec->hmask;
	}
	if (dec->count == dec->cap)
		return -ENOSPC;
	dec->hash[h] = dec->count;
	dec->esi[dec->count] = esi;
	if (ref) {
		dec->tab[dec->count] = (uint8_t *)(uintptr_t)sym;
		dec->refs = 1;
	} else {
		memcpy(dec->tab[dec->count], sym, dec->T);
	}
	if (esi < dec->K) {
		dec->srcslot[esi] = dec->count;
		dec->nsrc++;
	}
	dec->count++;
	return 1;
}

int
rq_dec_add(struct rq_dec *dec, uint32_t esi, const void *sym)
{
	return dec_add(dec, esi, sym, 0);
}

int
rq_dec_add_ref(struct rq_dec *dec, uint32_t esi, const void *sym)
{
	return dec_add(dec, esi, sym, 1);
}

uint32_t
rq_dec_count(const struct rq_dec *dec)
{
	return dec ? dec->count : 0;
}

int
rq_dec_ready(const struct rq_dec *dec)
{
	return dec != NULL && (dec->decoded || dec->count >= dec->K);
}

static void
put_symbol(const struct rq_dec *dec, uint32_t i, uint8_t *out, size_t len)
{
	size_t off = (size_t)i * dec->T, n;
	uint8_t tmp[65536];
	uint8_t *dst;

	if (off >= len)
		return;
	n = len - off < dec->T ? len - off : dec->T;
	dst = n == dec->T ? out + off : tmp;
	if (dec->srcslot[i] != NONE) {
		const uint8_t *s = dec->tab[dec->srcslot[i]];

		if (s != out + off)	/* in place (rq_dec_add_ref): nothing to do */
			memcpy(out + off, s, n);
		return;
	} else {
		const struct rq_params *p = &dec->kp->p;
		uint32_t cols[RQ_MAX_LT_COLS];
		unsigned int m = rq_lt_cols(p, i, cols);

		rq_xor_idx(dst, dec->tab + dec->cap + 1, cols, m, dec->T);
	}
	if (dst == tmp)
		memcpy(out + off, tmp, n);
}

static void
row_scale(uint8_t *r, uint8_t c, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		r[i] = rq_gf_mul(r[i], c);
}

/*
 * Incremental Gauss-Jordan on e columns: row nb of bas (already filled with
 * the new row v) is reduced by the nb basis rows, normalised on its first
 * nonzero column pc[nb] and eliminated from the others; aug (e x e) records
 * each basis row as a combination of the rows chosen (row nb: unit nb).
 * Returns the pivot column, or -1 if v depends on the basis (bas/aug row nb
 * are then scratch).
 */
static int
basis_add(uint8_t *bas, uint8_t *aug, uint32_t *pc, uint32_t nb, uint32_t e)
{
	uint8_t *v = bas + (size_t)nb * e, *w = aug + (size_t)nb * e, inv;
	uint32_t j, k;

	memset(w, 0, e);
	w[nb] = 1;
	for (k = 0; k < nb; k++) {
		uint8_t f = v[pc[k]];

		if (f) {
			rq_gf_row_mad(v, bas + (size_t)k * e, f, e);
			rq_gf_row_mad(w, aug + (size_t)k * e, f, nb + 1);
		}
	}
	for (j = 0; j < e && v[j] == 0; j++)
		;
	if (j == e)
		return -1;
	inv = rq_gf_div(1, v[j]);
	row_scale(v, inv, e);
	row_scale(w, inv, nb + 1);
	for (k = 0; k < nb; k++) {
		uint8_t *b = bas + (size_t)k * e, f = b[j];

		if (f) {
			rq_gf_row_mad(b, v, f, e);
			rq_gf_row_mad(aug + (size_t)k * e, w, f, nb + 1);
		}
	}
	pc[nb] = j;
	return (int)j;
}

/*
 * Generator path. The systematic rows and the LDPC/HDPC constraints fix C
 * as M * D (D: the K' systematic symbols, padding zero), so a received
 * symbol of ISI X says g_X * D = sym. With the K - e received source
 * symbols known, the lost ones satisfy, for every received repair j,
 *   g_j[lost] * D[lost] = y_j := sym_j + g_j[recv] * D[recv].
 * The received set determines the block iff these rows have rank e: the
 * same condition as for the full constraint matrix, so the decoder fails
 * exactly when the plan-based one would (-EDOM).
 *
 * Repair rows are taken in arrival order and reduced incrementally
 * (Gauss-Jordan on the lost columns; aug tracks each basis row as a
 * combination of the chosen rows); dependent ones are skipped. Once e are
 * chosen, D[lost[pc_k]] = sum_m aug[k][m] y_m, i.e. one product with
 * coefficients z = aug * [g[recv] | I] over the K inputs (received sources,
 * then the chosen repairs).
 */
static int
gen_decode(struct rq_dec *dec)
{
	const struct rq_kp *kp = dec->kp;
	uint32_t K = dec->K, Kp = kp->p.Kp, e = 0, nr = 0, nb = 0, s, i, k, m;

	for (i = 0; i < K; i++) {
		if (dec->srcslot[i] == NONE)
			dec->lost[e++] = i;
		else
			dec->recv[nr++] = i;
	}
	for (s = 0; s < dec->count && nb < e; s++) {
		uint32_t esi = dec->esi[s], j;
		uint8_t *g = dec->grow + (size_t)nb * Kp;
		uint8_t *v = dec->bas + (size_t)nb * e;

		if (esi < K)
			continue;
		rq_gen_row(kp, esi + Kp - K, g);
		for (j = 0; j < e; j++)
			v[j] = g[dec->lost[j]];
		if (basis_add(dec->bas, dec->aug, dec->pc, nb, e) < 0)
			continue;	/* dependent on the rows chosen so far */
		dec->chosen[nb++] = s;
	}
	if (nb < e)
		return -EDOM;
	/* z[k] = sum_m aug[k][m] * g_m[recv] | aug[k] */
	for (m = 0; m < e; m++) {	/* gather g_m[recv] into bas (free now) */
		const uint8_t *g = dec->grow + (size_t)m * Kp;
		uint8_t *b = dec->bas + (size_t)m * K;

		for (i = 0; i < nr; i++)
			b[i] = g[dec->recv[i]];
	}
	for (k = 0; k < e; k++) {
		uint8_t *zr = dec->z + (size_t)k * K, *a = dec->aug + (size_t)k * e;

		memset(zr, 0, nr);
		for (m = 0; m < e; m++)
			rq_gf_row_mad(zr, dec->bas + (size_t)m * K, a[m], nr);
		memcpy(zr + nr, a, e);
	}
	for (i = 0; i < nr; i++)
		dec->inp[i] = dec->tab[dec->srcslot[dec->recv[i]]];
	for (m = 0; m < e; m++)
		dec->inp[nr + m] = dec->tab[dec->chosen[m]];
	/* outputs: the slots after the zero slot (the C area, unused here) */
	for (k = 0; k < e; k++)
		dec->outp[k] = dec->tab[dec->cap + 1 + k];
	for (k = 0; k < e; k += RQ_GEN_CHUNK) {
		uint32_t n = e - k < RQ_GEN_CHUNK ? e - k : RQ_GEN_CHUNK;

		rq_gf_dot_tables(K, n, dec->z + (size_t)k * K, dec->tbls);
		rq_gf_dot(dec->T, K, n, dec->tbls, dec->inp, dec->outp + k);
	}
	for (k = 0; k < e; k++)
		dec->srcslot[dec->lost[dec->pc[k]]] = dec->cap + 1 + k;
	return 0;
}

/*
 * Residual path (no generator path, at most eauto source symbols lost): no
 * plan build. C = M * D is linear in D, so
 *   - the cached encoding plan replayed with the lost source symbols set to
 *     zero gives C0 = M * D0; for a received repair symbol j (LT row l_j)
 *     y_j := sym_j + l_j * C0 = g_j[lost] * D[lost];
 *   - the same plan replayed on e-byte "symbols" with D[lost[k]] = unit
 *     vector k gives M[:, lost], hence g_j[lost] = l_j * M[:, lost];
 *   - the repair rows are reduced in arrival order as in gen_decode until e
 *     are independent, and D[lost] = aug * y is one e x e GF(256) product.
 * Rank e on the lost columns is the same condition as for the full
 * constraint system (see gen_decode), so -EDOM comes for exactly the same
 * symbol sets as with the plan path. Symbol work: one encoding replay,
 * ~deg XORs per chosen repair, e*e multiply-adds per byte.
 */
#ifndef RQ_RES_MAX_E
#define RQ_RES_MAX_E 256
#endif

static int
res_create(struct rq_dec *dec)
{
	const struct rq_params *p = &dec->kp->p;
	uint32_t L = p->L, Kp = p->Kp, nt, e, l;

	dec->res = RES_AUTO;
	dec->escr = rq_plan_scratch(dec->kp->enc_plan);
	e = (L + p->H - dec->escr) / 2;	/* y and output buffers in the scratch area */
	if (e > RQ_RES_MAX_E)
		e = RQ_RES_MAX_E;
	if (e > dec->K)
		e = dec->K;
	dec->emax = e;
	/* the default bound: dense products cost more without GFNI (rq_kern.h) */
	dec->eauto = e;
	if (rq_kern_cur->res_e_sqrt_k > 0 && rq_kern_cur->res_e_sqrt_k * sqrt(dec->K) < e)
		dec->eauto = (uint32_t)(rq_kern_cur->res_e_sqrt_k * sqrt(dec->K));
	nt = Kp + 1 + 2 * L + p->H + 6 * L;
	dec->etab = calloc(nt, sizeof(uint8_t *));
	dec->utab = calloc(nt, sizeof(uint8_t *));
	dec->umem = aligned_alloc(64, (((size_t)e + 1 + L + dec->escr) * e + 63) / 64 * 64 + 64);
	dec->rbas = malloc((size_t)e * e + 1);
	dec->raug = malloc((size_t)e * e + 1);
	dec->rtbls = aligned_alloc(64, (size_t)32 * e * RQ_GEN_CHUNK + 64);
	dec->rin = malloc((e + 1) * sizeof(uint8_t *));
	dec->rout = malloc((e + 1) * sizeof(uint8_t *));
	dec->rlost = malloc((e + 1) * sizeof(uint32_t));
	dec->rpc = malloc((e + 1) * sizeof(uint32_t));
	dec->rchosen = malloc((e + 1) * sizeof(uint32_t));
	if (!dec->etab || !dec->utab || !dec->umem || !dec->rbas || !dec->raug || !dec->rtbls ||
			!dec->rin || !dec->rout || !dec->rlost || !dec->rpc || !dec->rchosen)
		return -ENOMEM;
	/* C and scratch of the encoding plan: the decoder's C and scratch slots */
	for (l = 0; l < L + dec->escr; l++)
		dec->etab[Kp + 1 + l] = dec->tab[dec->cap + 1 + l];
	dec->etab[Kp] = dec->tab[dec->cap];
	return 0;
}

static int
res_decode(struct rq_dec *dec, uint32_t e)
{
	const struct rq_kp *kp = dec->kp;
	const struct rq_params *p = &kp->p;
	uint32_t K = dec->K, Kp = p->Kp, L = p->L, T = dec->T, nb = 0, s, i, k, l;
	uint32_t cols[RQ_MAX_LT_COLS], idx[RQ_MAX_LT_COLS + 1], t;
	uint8_t *zero = dec->tab[dec->cap], *uzero, *ub;
	uint32_t ybase = dec->cap + 1 + L + dec->escr;	/* y, then outputs */

	/* unit replay: M[:, lost] as e-byte rows of the C area */
	ub = dec->umem;
	memset(ub, 0, (size_t)(e + 1) * e);
	uzero = ub + (size_t)e * e;
	for (i = 0, k = 0; i < Kp; i++) {
		if (i < K && dec->srcslot[i] == NONE) {
			dec->rlost[k] = i;
			ub[(size_t)k * e + k] = 1;
			dec->utab[i] = ub + (size_t)k * e;
			dec->etab[i] = zero;
			k++;
		} else {
			dec->utab[i] = uzero;
			dec->etab[i] = i < K ? dec->tab[dec->srcslot[i]] : zero;
		}
	}
	dec->utab[Kp] = uzero;
	for (l = 0; l < L + dec->escr; l++)
		dec->utab[Kp + 1 + l] = uzero + (size_t)(l + 1) * e;
	rq_plan_run(kp->enc_plan, e, dec->utab);
	/* choose e independent repair rows (Gauss-Jordan on the lost columns) */
	for (s = 0; s < dec->count && nb < e; s++) {
		uint32_t esi = dec->esi[s], m;
		uint8_t *v = dec->rbas + (size_t)nb * e;

		if (esi < K)
			continue;
		m = rq_lt_cols(p, esi + Kp - K, cols);
		rq_xor_idx(v, dec->utab + Kp + 1, cols, m, e);
		if (basis_add(dec->rbas, dec->raug, dec->rpc, nb, e) < 0)
			continue;	/* dependent on the rows chosen so far */
		dec->rchosen[nb++] = s;
	}
	if (nb < e)
		return -EDOM;
	/* C0, then y_m = sym_m + l_m * C0 for the chosen repairs */
	rq_plan_run(kp->enc_plan, T, dec->etab);
	for (k = 0; k < e; k++) {
		uint32_t sl = dec->rchosen[k], m;

		m = rq_lt_cols(p, dec->esi[sl] + Kp - K, cols);
		/* sources: the stored symbol, then the m C0 symbols */
		idx[0] = sl;
		for (t = 0; t < m; t++)
			idx[t + 1] = dec->cap + 1 + cols[t];
		dec->rin[k] = dec->tab[ybase + k];
		rq_xor_idx(dec->rin[k], dec->tab, idx, m + 1, T);
		dec->rout[k] = dec->tab[ybase + e + k];
	}
	for (k = 0; k < e; k += RQ_GEN_CHUNK) {
		uint32_t n = e - k < RQ_GEN_CHUNK ? e - k : RQ_GEN_CHUNK;

		rq_gf_dot_tables(e, n, dec->raug + (size_t)k * e, dec->rtbls);
		rq_gf_dot(T, e, n, dec->rtbls, dec->rin, dec->rout + k);
	}
	for (k = 0; k < e; k++)
		dec->srcslot[dec->rlost[dec->rpc[k]]] = ybase + e + k;
	return 0;
}

/* Test hook: 0 forces the plan path instead of the residual one. */
int
rq_dec_set_res(struct rq_dec *dec, int on)
{
	dec->res = on && dec->etab != NULL ? RES_FORCED : RES_OFF;
	return dec->res != RES_OFF;
}

/* Test hook: 0 forces the plan path, 1 the generator path (when K' allows). */
int
rq_dec_set_gen(struct rq_dec *dec, int on)
{
	dec->gen = on && dec->grow != NULL;
	return dec->gen;
}

int
rq_dec_decode(struct rq_dec *dec, void *out, size_t len)
{
	const struct rq_params *p;
	struct rq_plan *plan;
	uint32_t i, n = 0;
	int err;

	if (dec == NULL || (out == NULL && len > 0))
		return -EINVAL;
	if (len > (size_t)dec->K * dec->T)
		return -EMSGSIZE;
	p = &dec->kp->p;
	if (!dec->decoded && dec->nsrc < dec->K) {
		if (dec->count < dec->K)
			return -EAGAIN;
		if (dec->gen) {
			err = gen_decode(dec);
			if (err)
				return err;
			goto done;
		}
		if (dec->res != RES_OFF && dec->K - dec->nsrc <=
				(dec->res == RES_FORCED ? dec->emax : dec->eauto)) {
			err = res_decode(dec, dec->K - dec->nsrc);
			if (err)
				return err;
			goto done;
		}
		for (i = 0; i < dec->count; i++) {
			uint32_t e = dec->esi[i];

			dec->isi[n] = e < dec->K ? e : e + (p->Kp - dec->K);
			dec->dslot[n++] = i;
		}
		for (i = dec->K; i < p->Kp; i++) {
			dec->isi[n] = i;
			dec->dslot[n++] = RQ_ROW_ZERO;
		}
		plan = rq_plan_build_ws(dec->kp, dec->isi, dec->dslot, n, dec->cap, &dec->ws,
			&err);
		if (plan == NULL)
			return err == -EAGAIN ? -EDOM : err;
		rq_plan_run(plan, dec->T, dec->tab);
	}
done:
	dec->decoded = 1;
	for (i = 0; i < dec->K; i++)
		put_symbol(dec, i, out, len);
	return 0;
}

/* Plan workspace capacity, for tests (constant once presized). */
size_t
rq_dec_ws_cap(const struct rq_dec *dec)
{
	return dec->ws.cap;
}
