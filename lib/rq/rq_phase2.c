/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Phase 2 of the plan build: the u inactive (U) columns, from the rows
 * peeling left (matrix work only; the symbol work is recorded).
 *
 * The nnp non-pivot binary rows have 0/1 U parts, the H HDPC rows dense
 * GF(256) ones. Gauss-Jordan over GF(2) on the binary rows first gives
 * nbp binary pivots: U column bp_col[i] = (XOR of the D' of the binary rows
 * in bp_t[i]) ^ (XOR of C over the P2 columns in bp_u[i]), P2 being the
 * p2 = u - nbp columns left. The HDPC rows, reduced by those pivots, form
 * the Schur complement on P2 (H x p2, GF(256)); its Gauss-Jordan expresses
 * C[P2] as one dense product over the binary rows' D' and the HDPC pass's
 * outputs. So the dense GF(256) product has p2 (~H) rows instead of u,
 * and the binary pivot columns are XORs (x2, before the back substitution):
 * at K' = 1002 (u = 67, H = 10) 670 products per byte instead of 4,489.
 * The rank condition is the same as for the whole system (the binary rows'
 * span has the same rank over GF(2) and GF(256)), so -EDOM comes for
 * exactly the same symbol sets.
 */
#include <errno.h>
#include <string.h>

#include "rq_plan.h"
#include "rq_kern.h"
#include "rq_sym.h"

int
rq_phase2_alloc(struct bld *b, struct rq_plan *pl)
{
	struct rq_ws *ws = b->ws;
	uint32_t H = b->p->H, u = b->u, nnp = b->nnp, nw = b->nwords, nin = nnp + H;

	b->twords = (nnp + 63) / 64;
	b->np_row = rq_ws_alloc(ws, (nnp + 1) * sizeof(uint32_t));
	b->np_bits = rq_ws_alloc(ws, ((size_t)nnp * nw + 1) * sizeof(uint64_t));
	b->np_slot = rq_ws_alloc(ws, (nnp + 1) * sizeof(uint32_t));
	b->tmpbits = rq_ws_alloc(ws, (nw + b->twords + 2) * sizeof(uint64_t));
	b->bp_u = rq_ws_alloc(ws, ((size_t)u * nw + 1) * sizeof(uint64_t));
	b->bp_t = rq_ws_alloc(ws, ((size_t)u * b->twords + 1) * sizeof(uint64_t));
	b->bp_col = rq_ws_alloc(ws, (u + 1) * sizeof(uint32_t));
	b->bp_from = rq_ws_alloc(ws, (u + 1) * sizeof(uint32_t));
	b->p2_col = rq_ws_alloc(ws, (u + 1) * sizeof(uint32_t));
	b->is_bp = rq_ws_alloc(ws, u + 1);
	b->hdu = rq_ws_alloc(ws, (size_t)H * u + 1);
	b->hdacc = rq_ws_alloc(ws, ((size_t)H + 1) * ((u + 7) / 8) * sizeof(uint64_t) + 64);
	b->dense = rq_ws_alloc(ws, (size_t)H * (u + nin) + 1);
	b->drow = rq_ws_alloc(ws, (H + 1) * sizeof(*b->drow));
	b->coef = rq_ws_alloc(ws, (size_t)H * nin + 1);
	pl->u_in = rq_ws_alloc(ws, (nin + 1) * sizeof(uint32_t));
	pl->u_out = rq_ws_alloc(ws, (H + 1) * sizeof(uint32_t));
	pl->u_tbl = rq_ws_alloc(ws, (size_t)32 * H * nin + 1);
	pl->u_aff = rq_gf_have_aff() ? rq_ws_alloc(ws, (size_t)8 * H * nin + 8) : NULL;
	return ws->used > ws->cap ? -ENOBUFS : 0;
}

static inline void
xor_words(uint64_t *d, const uint64_t *s, uint32_t n)
{
	uint32_t w;

	for (w = 0; w < n; w++)
		d[w] ^= s[w];
}

/* The U parts of the non-pivot binary rows (bitsets). */
static void
np_rows(struct bld *b)
{
	uint32_t nw = b->nwords, r, t = 0, j;

	for (r = 0; r < b->nb; r++) {
		uint64_t *bits = b->np_bits + (size_t)t * nw;

		if (b->rdone[r])
			continue;
		memset(bits, 0, nw * sizeof(uint64_t));
		for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
			uint32_t c = b->rcol[j];

			if (b->cstate[c] == COL_INACTIVE)
				rq_bit_flip(bits, b->uidx[c]);
			else
				xor_words(bits, rq_bld_piv_bits(b, c), nw);
		}
		b->np_row[t] = r;
		b->np_slot[t] = RQ_NONE;
		t++;
	}
}

/*
 * Gauss-Jordan over GF(2) on the binary rows, in order; a row that depends
 * on the pivots so far is skipped. The pivot rows stay reduced (zero at the
 * other pivot columns), so bp_u[i] holds its column and P2 bits only.
 */
static void
bin_eliminate(struct bld *b)
{
	uint32_t nw = b->nwords, tw = b->twords, t, i, w, c;
	uint64_t *v = b->tmpbits, *tr = b->tmpbits + nw;

	b->nbp = 0;
	for (t = 0; t < b->nnp && b->nbp < b->u; t++) {
		memcpy(v, b->np_bits + (size_t)t * nw, nw * sizeof(uint64_t));
		memset(tr, 0, tw * sizeof(uint64_t));
		rq_bit_flip(tr, t);
		for (i = 0; i < b->nbp; i++)
			if (rq_bit_get(v, b->bp_col[i])) {
				xor_words(v, b->bp_u + (size_t)i * nw, nw);
				xor_words(tr, b->bp_t + (size_t)i * tw, tw);
			}
		for (w = 0; w < nw && v[w] == 0; w++)
			;
		if (w == nw)
			continue;
		c = w * 64 + (uint32_t)__builtin_ctzll(v[w]);
		for (i = 0; i < b->nbp; i++)
			if (rq_bit_get(b->bp_u + (size_t)i * nw, c)) {
				xor_words(b->bp_u + (size_t)i * nw, v, nw);
				xor_words(b->bp_t + (size_t)i * tw, tr, tw);
			}
		memcpy(b->bp_u + (size_t)b->nbp * nw, v, nw * sizeof(uint64_t));
		memcpy(b->bp_t + (size_t)b->nbp * tw, tr, tw * sizeof(uint64_t));
		b->bp_col[b->nbp] = c;
		b->bp_from[b->nbp] = t;
		b->nbp++;
	}
	memset(b->is_bp, 0, b->u);
	for (i = 0; i < b->nbp; i++)
		b->is_bp[b->bp_col[i]] = 1;
	b->p2 = 0;
	for (c = 0; c < b->u; c++)
		if (!b->is_bp[c])
			b->p2_col[b->p2++] = c;
}

/* alpha * x on eight bytes at once */
static inline uint64_t
mul2_u64(uint64_t w)
{
	uint64_t hi = w & 0x8080808080808080ull;

	return ((w & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

/*
 * The HDPC rows' U parts: G_HDPC * (U parts of the columns), through
 * G_HDPC = MT * GAMMA as in rq_hdpc_apply but on byte vectors of length u:
 * y_m = alpha * y_{m-1} + x_m, acc[the two MT rows of m] ^= y_m, then
 * acc[h] ^= alpha^h * y_{KS-1}; x_m is the 0/1 U part of column m.
 */
static void
hdpc_u_parts(struct bld *b)
{
	const struct rq_kp *kp = b->kp;
	uint32_t H = b->p->H, KS = b->p->Kp + b->p->S, nw8 = (b->u + 7) / 8, c, w, h, j;
	uint64_t *y = b->hdacc, *hacc = y + nw8;

	memset(y, 0, (size_t)(H + 1) * nw8 * sizeof(uint64_t));
	for (c = 0; c < KS; c++) {
		uint8_t *yb = (uint8_t *)y;

		for (w = 0; w < nw8; w++)
			y[w] = mul2_u64(y[w]);
		if (b->cstate[c] == COL_INACTIVE) {
			yb[b->uidx[c]] ^= 1;
		} else {
			const uint64_t *o = rq_bld_piv_bits(b, c);

			/* bits -> 0/1 bytes, 8 at a time (bits >= u are zero) */
			for (w = 0; w < b->nwords; w++) {
				uint64_t v = o[w];

				for (j = 0; v; j++, v >>= 8)
					if (v & 0xff)
						y[w * 8 + j] ^= rq_bit_bytes[v & 0xff];
			}
		}
		if (c + 1 < KS) {
			uint64_t *a1 = hacc + (size_t)kp->hdpc_mt[2 * c] * nw8;
			uint64_t *a2 = hacc + (size_t)kp->hdpc_mt[2 * c + 1] * nw8;

			xor_words(a1, y, nw8);
			xor_words(a2, y, nw8);
		}
	}
	for (h = 0; h < H; h++) {
		uint64_t *a = hacc + (size_t)h * nw8;
		uint8_t *row = b->hdu + (size_t)h * b->u;

		for (w = 0; w < nw8; w++) {
			a[w] ^= y[w];
			y[w] = mul2_u64(y[w]);
		}
		memcpy(row, a, b->u);
		row[b->uidx[KS + h]] ^= 1;	/* I_H */
	}
}

/*
 * The HDPC rows reduced by the binary pivots: dense rows of p2 coefficients
 * (the Schur complement) and nnp + H tracking bytes (the combination of
 * binary rows and HDPC rows each one now is).
 */
static void
dense_rows(struct bld *b)
{
	uint32_t H = b->p->H, u = b->u, p2 = b->p2, nw = b->nwords, tw = b->twords, h, i, j, w;

	b->dw = p2 + b->nnp + H;
	for (h = 0; h < H; h++) {
		uint8_t *g = b->hdu + (size_t)h * u, *d = b->dense + (size_t)h * b->dw;

		b->drow[h] = d;
		memset(d, 0, b->dw);
		d[p2 + b->nnp + h] = 1;
		for (i = 0; i < b->nbp; i++) {
			const uint64_t *bu = b->bp_u + (size_t)i * nw, *bt = b->bp_t + (size_t)i * tw;
			uint8_t c = g[b->bp_col[i]];

			if (c == 0)
				continue;
			/* bu has the pivot bit too: g there becomes c ^ c = 0 */
			for (w = 0; w < nw; w++) {
				uint64_t v = bu[w];

				for (; v; v &= v - 1)
					g[w * 64 + (uint32_t)__builtin_ctzll(v)] ^= c;
			}
			for (w = 0; w < tw; w++) {
				uint64_t v = bt[w];

				for (; v; v &= v - 1)
					d[p2 + w * 64 + (uint32_t)__builtin_ctzll(v)] ^= c;
			}
		}
		for (j = 0; j < p2; j++)
			d[j] = g[b->p2_col[j]];
	}
}

static void
row_scale(uint8_t *row, uint8_t coef, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		row[i] = rq_gf_nib_mul(coef, row[i]);
}

/* Gauss-Jordan over GF(256) on the p2 columns of the dense rows. */
static int
dense_solve(struct bld *b)
{
	uint32_t H = b->p->H, j, r;

	for (j = 0; j < b->p2; j++) {
		uint32_t piv = RQ_NONE;
		uint8_t *tp;

		for (r = j; r < H; r++)
			if (b->drow[r][j]) {
				piv = r;
				break;
			}
		if (piv == RQ_NONE)
			return -EDOM;
		tp = b->drow[piv];
		b->drow[piv] = b->drow[j];
		b->drow[j] = tp;
		if (tp[j] != 1)
			row_scale(tp + j, rq_gf_div(1, tp[j]), b->dw - j);
		for (r = 0; r < H; r++) {
			uint8_t cf;

			if (r == j || (cf = b->drow[r][j]) == 0)
				continue;
			rq_gf_row_mad(b->drow[r] + j, tp + j, cf, b->dw - j);
		}
	}
	return 0;
}

/* x1 XOR for the D' of non-pivot row t: its input and its pivots' D' (once). */
static uint32_t
np_dprime(struct bld *b, uint32_t t, uint32_t *next)
{
	uint32_t r = b->np_row[t], off = b->nsrc, dst, j;

	if (b->np_slot[t] != RQ_NONE)
		return b->np_slot[t];
	if (b->rslot[r] != RQ_ROW_ZERO)
		rq_bld_src(b, b->rslot[r]);
	for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
		uint32_t c = b->rcol[j];

		if (b->cstate[c] == COL_PIVOT && rq_bld_piv_dprime(b, c) != b->zero_slot)
			rq_bld_src(b, rq_bld_piv_dprime(b, c));
	}
	dst = b->scratch_base + *next;
	b->np_slot[t] = rq_bld_xop(b, off, dst);
	*next += b->np_slot[t] == dst;
	return b->np_slot[t];
}

/*
 * C[P2] = coef * (the inputs used): D' of binary rows (nonzero ones) and
 * HDPC pass outputs. Returns whether the HDPC pass is needed.
 */
static int
u_product(struct bld *b, struct rq_plan *pl)
{
	uint32_t p2 = b->p2, nin = b->nnp + b->p->H, nsel = 0, x, j;
	int need_hd = 0;

	for (x = 0; x < nin; x++) {
		uint32_t slot;
		int used = 0;

		for (j = 0; j < p2 && !used; j++)
			used = b->drow[j][p2 + x] != 0;
		if (!used)
			continue;
		if (x < b->nnp) {
			slot = b->np_slot[x];	/* a binary pivot's row: computed */
			if (slot == b->zero_slot)
				continue;
		} else {
			slot = b->scratch_base + (x - b->nnp);
			need_hd = 1;
		}
		for (j = 0; j < p2; j++)
			b->coef[(size_t)j * nin + nsel] = b->drow[j][p2 + x];
		pl->u_in[nsel++] = slot;
	}
	if (nsel == 0 && p2 > 0) {	/* every input zero: C[P2] = 0 */
		for (j = 0; j < p2; j++)
			b->coef[(size_t)j * nin] = 0;
		pl->u_in[nsel++] = b->zero_slot;
	}
	for (j = 0; j < p2; j++) {
		memmove(b->coef + (size_t)j * nsel, b->coef + (size_t)j * nin, nsel);
		pl->u_out[j] = b->c_base + b->ucol[b->p2_col[j]];
	}
	pl->nsel = nsel;
	pl->u = p2;
	if (p2 > 0)
		rq_gf_dot_tables_any(nsel, p2, b->coef, pl->u_tbl, pl->u_aff);
	pl->st.u_srcs = nsel;
	return need_hd;
}

int
rq_phase2_solve(struct bld *b, struct rq_plan *pl)
{
	uint32_t next = b->p->H, i;
	int rc;

	np_rows(b);
	bin_eliminate(b);
	if (b->p2 > b->p->H)
		return -EDOM;
	if (b->p2 > 0) {
		hdpc_u_parts(b);
		dense_rows(b);
		rc = dense_solve(b);
		if (rc)
			return rc;
	}
	for (i = 0; i < b->nbp; i++)
		np_dprime(b, b->bp_from[i], &next);
	return u_product(b, pl);
}

/* x2, first: C of each binary pivot column from D' of its rows and C[P2]. */
void
rq_phase2_emit_x2(struct bld *b)
{
	uint32_t nw = b->nwords, tw = b->twords, i, w;

	for (i = 0; i < b->nbp; i++) {
		const uint64_t *bu = b->bp_u + (size_t)i * nw, *bt = b->bp_t + (size_t)i * tw;
		uint32_t off = b->nsrc;

		for (w = 0; w < tw; w++) {
			uint64_t v = bt[w];

			for (; v; v &= v - 1) {
				uint32_t s = b->np_slot[w * 64 + (uint32_t)__builtin_ctzll(v)];

				if (s != b->zero_slot)
					rq_bld_src(b, s);
			}
		}
		for (w = 0; w < nw; w++) {
			uint64_t v = bu[w];

			for (; v; v &= v - 1) {
				uint32_t q = w * 64 + (uint32_t)__builtin_ctzll(v);

				if (q != b->bp_col[i])
					rq_bld_src(b, b->c_base + b->ucol[q]);
			}
		}
		b->x[b->nx].dst = b->c_base + b->ucol[b->bp_col[i]];
		b->x[b->nx].off = off;
		b->x[b->nx].n = b->nsrc - off;
		b->nx++;
	}
}
