/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Inactivation solver (RFC 6330 §5.4, reorganised) that records a plan of
 * symbol operations instead of touching symbols.
 *
 * Phase 1 (rq_peel.c) peels the binary rows (LDPC + LT): repeatedly take a
 * row with the fewest active columns, inactivate all but one of them and
 * make the last one its pivot. Pivot rows then hold their pivot column,
 * earlier pivot columns and inactive (U) columns only, so
 *   - the reduced symbol of pivot k is D[row] ^ XOR of the reduced symbols
 *     of the earlier pivots its original row contains (forward XOR list);
 *   - the HDPC rows reduce with the ORIGINAL G_HDPC coefficients of the
 *     pivot columns: one pass of the G_HDPC = MT * GAMMA recurrence;
 *   - once the U symbols are known, C[pivot col k] = D[row] ^ XOR of the
 *     other columns of its original (sparse) row (back substitution).
 * Phase 2 solves the small dense system on the U columns over GF(256) (matrix
 * only) and emits its inverse as one dense GF(256) product (rq_gf_dot_any).
 * The matrix work is done once per K' for encoding (cached plan) and once per
 * block for decoding; symbol work is only multi-source XORs, the HDPC pass
 * and one dense GF(256) product.
 */
#include <errno.h>
#include <string.h>

#include "rq_plan.h"
#include "rq_kern.h"
#include "rq_sym.h"

static inline void
src_push(struct bld *b, uint32_t s)
{
	b->src[b->nsrc++] = s;
}

/*
 * Close the source list begun at off: no source is the zero slot, one is
 * aliased (no operation), more become one XOR into dst. Returns the slot
 * that holds the result.
 */
static uint32_t
xop_close(struct bld *b, uint32_t off, uint32_t dst)
{
	uint32_t s;

	if (b->nsrc == off)
		return b->zero_slot;
	if (b->nsrc - off == 1) {
		s = b->src[off];
		b->nsrc = off;
		return s;
	}
	b->x[b->nx].dst = dst;
	b->x[b->nx].off = off;
	b->x[b->nx].n = b->nsrc - off;
	b->nx++;
	return dst;
}

/* U bits of the pivot row of (pivot) column c after the forward pass. */
static inline const uint64_t *
piv_bits(const struct bld *b, uint32_t c)
{
	return b->ubits + (size_t)b->piv_row[b->colpiv[c]] * b->nwords;
}

/* Slot of the reduced symbol of (pivot) column c's row. */
static inline uint32_t
piv_dprime(const struct bld *b, uint32_t c)
{
	return b->dprime[b->piv_row[b->colpiv[c]]];
}

static inline void
bit_flip(uint64_t *bits, uint32_t i)
{
	bits[i / 64] ^= 1ull << (i % 64);
}

/*
 * Slots: inputs [0, nin), zero at nin, C [nin+1, nin+1+L), scratch after:
 * H HDPC rows, then at most u selected binary rows. -EDOM when the rows
 * left after peeling cannot determine the u inactive columns.
 */
static int
plan_layout(struct bld *b, struct rq_plan *pl, uint32_t nin)
{
	const struct rq_params *p = b->p;
	uint32_t r;

	pl->st.pivots = b->npiv;
	pl->st.inactive = b->u;
	b->nnp = 0;
	for (r = 0; r < b->nb; r++)
		b->nnp += !b->rdone[r];
	b->m2 = b->nnp + p->H;
	if (b->m2 < b->u)
		return -EDOM;
	pl->nscratch = p->H + b->u;
	b->zero_slot = nin;
	b->c_base = nin + 1;
	b->scratch_base = nin + 1 + p->L;
	pl->zero = b->zero_slot;
	pl->nslots = b->scratch_base + pl->nscratch;
	b->nwords = (b->u + 63) / 64;
	b->sys_w = b->u + b->m2;
	return 0;
}

/* Everything after phase 1, from the workspace; -ENOBUFS when it is short. */
static int
phase2_alloc(struct bld *b, struct rq_plan *pl)
{
	struct rq_ws *ws = b->ws;
	uint32_t H = b->p->H, KS = b->p->Kp + b->p->S, u = b->u, m2 = b->m2;
	size_t nsrc_max = 2 * ((size_t)b->roff[b->nb] + b->nb) + 16;

	b->dprime = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->ubits = rq_ws_alloc(ws, (size_t)b->nb * b->nwords * sizeof(uint64_t));
	b->tmpbits = rq_ws_alloc(ws, (b->nwords + 1) * sizeof(uint64_t));
	b->hdacc = rq_ws_alloc(ws, ((size_t)H + 1) * ((u + 7) / 8) * sizeof(uint64_t) + 64);
	b->sys = rq_ws_alloc(ws, (size_t)m2 * b->sys_w);
	b->sys_row = rq_ws_alloc(ws, m2 * sizeof(*b->sys_row));
	b->np_row = rq_ws_alloc(ws, m2 * sizeof(uint32_t));
	b->coef = rq_ws_alloc(ws, (size_t)u * u + 1);
	b->x = rq_ws_alloc(ws, (2 * (size_t)b->npiv + m2) * sizeof(*b->x));
	b->src = rq_ws_alloc(ws, nsrc_max * sizeof(uint32_t));
	pl->u_in = rq_ws_alloc(ws, m2 * sizeof(uint32_t));
	pl->u_out = rq_ws_alloc(ws, (u + 1) * sizeof(uint32_t));
	pl->hd_out = rq_ws_alloc(ws, H * sizeof(uint32_t));
	pl->hd_in = rq_ws_alloc(ws, KS * sizeof(uint32_t));
	pl->u_tbl = rq_ws_alloc(ws, (size_t)32 * u * u + 1);
	pl->u_aff = rq_gf_have_aff() ? rq_ws_alloc(ws, (size_t)8 * u * u + 8) : NULL;
	if (ws->used > ws->cap)
		return -ENOBUFS;
	memset(b->ubits, 0, (size_t)b->nb * b->nwords * sizeof(uint64_t));
	memset(b->sys, 0, (size_t)m2 * b->sys_w);
	return 0;
}

/*
 * Forward pass in pivot order: the reduced symbol D' of each pivot row (an
 * x1 XOR of its input and the D' of the earlier pivots of its row) and its
 * U part (the XOR of theirs and its own inactive columns).
 */
static void
forward_pass(struct bld *b)
{
	uint32_t k, j, w;

	for (k = 0; k < b->npiv; k++) {
		uint32_t r = b->piv_row[k], off = b->nsrc;
		uint64_t *bits = b->ubits + (size_t)r * b->nwords;

		if (b->rslot[r] != RQ_ROW_ZERO)
			src_push(b, b->rslot[r]);
		for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
			uint32_t c = b->rcol[j];

			if (c == b->piv_col[k])
				continue;
			if (b->cstate[c] == COL_INACTIVE) {
				bit_flip(bits, b->uidx[c]);
			} else {
				const uint64_t *o = piv_bits(b, c);

				for (w = 0; w < b->nwords; w++)
					bits[w] ^= o[w];
				if (piv_dprime(b, c) != b->zero_slot)
					src_push(b, piv_dprime(b, c));
			}
		}
		b->dprime[r] = xop_close(b, off, b->c_base + b->piv_col[k]);
	}
}

/*
 * Phase-2 rows: first the non-pivot binary rows, reduced to their U part
 * (0/1 bytes); each row also carries an identity part that tracks which
 * original phase-2 rows it combines.
 */
static void
sys_binary_rows(struct bld *b)
{
	uint64_t *bits = b->tmpbits;
	uint32_t r, t, j, w;

	for (t = 0; t < b->m2; t++) {
		b->sys_row[t] = b->sys + (size_t)t * b->sys_w;
		b->sys_row[t][b->u + t] = 1;
	}
	t = 0;
	for (r = 0; r < b->nb; r++) {
		if (b->rdone[r])
			continue;
		memset(bits, 0, b->nwords * sizeof(uint64_t));
		for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
			uint32_t c = b->rcol[j];

			if (b->cstate[c] == COL_INACTIVE) {
				bit_flip(bits, b->uidx[c]);
			} else {
				const uint64_t *o = piv_bits(b, c);

				for (w = 0; w < b->nwords; w++)
					bits[w] ^= o[w];
			}
		}
		for (w = 0; w < b->nwords; w++) {
			uint64_t v = bits[w];

			while (v) {
				b->sys_row[t][w * 64 + (uint32_t)__builtin_ctzll(v)] = 1;
				v &= v - 1;
			}
		}
		b->np_row[t++] = r;
	}
}

/* alpha * x on eight bytes at once */
static inline uint64_t
mul2_u64(uint64_t w)
{
	uint64_t hi = w & 0x8080808080808080ull;

	return ((w & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

/*
 * Then the HDPC rows: U part of G_HDPC * (U parts of the columns), through
 * G_HDPC = MT * GAMMA as in rq_hdpc_apply but on byte vectors of length u:
 * y_m = alpha * y_{m-1} + x_m, acc[the two MT rows of m] ^= y_m, then
 * acc[h] ^= alpha^h * y_{KS-1}; x_m is the 0/1 U part of column m.
 */
static void
sys_hdpc_rows(struct bld *b)
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
			const uint64_t *o = piv_bits(b, c);

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

			for (w = 0; w < nw8; w++) {
				a1[w] ^= y[w];
				a2[w] ^= y[w];
			}
		}
	}
	for (h = 0; h < H; h++) {
		uint64_t *a = hacc + (size_t)h * nw8;
		uint8_t *row = b->sys_row[b->nnp + h];

		for (w = 0; w < nw8; w++) {
			a[w] ^= y[w];
			y[w] = mul2_u64(y[w]);
		}
		memcpy(row, a, b->u);
		row[b->uidx[KS + h]] ^= 1;	/* I_H */
		b->np_row[b->nnp + h] = RQ_NONE;
	}
}

static void
row_scale(uint8_t *row, uint8_t coef, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		row[i] = rq_gf_nib_mul(coef, row[i]);
}

/*
 * Gauss-Jordan on the u columns (matrix only). Binary rows are preferred
 * as pivots: their entries stay 0/1 longer, so more of the row operations
 * are plain XORs. -EDOM when a column has no pivot (rank deficient).
 */
static int
sys_solve(struct bld *b)
{
	uint32_t t, r;

	for (t = 0; t < b->u; t++) {
		uint32_t piv = RQ_NONE;
		uint8_t *tp;

		for (r = t; r < b->m2; r++)
			if (b->sys_row[r][t]) {
				piv = r;
				break;
			}
		if (piv == RQ_NONE)
			return -EDOM;
		if (piv != t) {
			uint8_t *tmp = b->sys_row[piv];

			b->sys_row[piv] = b->sys_row[t];
			b->sys_row[t] = tmp;
		}
		tp = b->sys_row[t];
		if (tp[t] != 1)
			row_scale(tp + t, rq_gf_div(1, tp[t]), b->sys_w - t);
		for (r = 0; r < b->m2; r++) {
			uint8_t cf;

			if (r == t || (cf = b->sys_row[r][t]) == 0)
				continue;
			rq_gf_row_mad(b->sys_row[r] + t, tp + t, cf, b->sys_w - t);
		}
	}
	return 0;
}

/* x1 XOR for D' of a non-pivot binary row: its input and its pivots' D'. */
static uint32_t
np_dprime(struct bld *b, uint32_t r, uint32_t dst)
{
	uint32_t off = b->nsrc, j;

	if (b->rslot[r] != RQ_ROW_ZERO)
		src_push(b, b->rslot[r]);
	for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
		uint32_t c = b->rcol[j];

		if (b->cstate[c] == COL_PIVOT && piv_dprime(b, c) != b->zero_slot)
			src_push(b, piv_dprime(b, c));
	}
	return xop_close(b, off, dst);
}

/*
 * The inverse's support: the phase-2 rows that feed the U symbols become
 * the nsel inputs of the u x nsel product C[U] = coef * D'[selected]
 * (binary rows: their D' by an x1 XOR; HDPC rows: the HDPC pass's output).
 * Returns whether the HDPC pass is needed, or -EDOM.
 */
static int
u_product(struct bld *b, struct rq_plan *pl)
{
	uint32_t u = b->u, nsel = 0, next = b->p->H, j, t;
	int need_hd = 0;

	for (j = 0; j < b->m2; j++) {
		int used = 0;

		for (t = 0; t < u && !used; t++)
			used = b->sys_row[t][u + j] != 0;
		if (!used)
			continue;
		/* only the u pivot rows are ever added to others: nsel <= u */
		if (nsel == u)
			return -EDOM;	/* cannot happen */
		for (t = 0; t < u; t++)
			b->coef[(size_t)t * u + nsel] = b->sys_row[t][u + j];
		if (j >= b->nnp) {
			need_hd = 1;
			pl->u_in[nsel] = b->scratch_base + (j - b->nnp);
		} else {
			pl->u_in[nsel] = np_dprime(b, b->np_row[j], b->scratch_base + next);
			next += pl->u_in[nsel] == b->scratch_base + next;
		}
		nsel++;
	}
	/* compact coef to u x nsel */
	for (t = 0; t < u; t++)
		memmove(b->coef + (size_t)t * nsel, b->coef + (size_t)t * u, nsel);
	pl->nsel = nsel;
	pl->u = u;
	rq_gf_dot_tables_any(nsel, u, b->coef, pl->u_tbl, pl->u_aff);
	for (t = 0; t < u; t++)
		pl->u_out[t] = b->c_base + b->ucol[t];
	pl->st.u_srcs = nsel;
	return need_hd;
}

/* Inputs of the HDPC pass: the D' of the pivot columns (zero elsewhere). */
static void
hdpc_inputs(struct bld *b, struct rq_plan *pl)
{
	uint32_t KS = b->p->Kp + b->p->S, c, h;

	for (c = 0; c < KS; c++)
		pl->hd_in[c] = b->cstate[c] == COL_PIVOT ? piv_dprime(b, c) : b->zero_slot;
	for (h = 0; h < b->p->H; h++)
		pl->hd_out[h] = b->scratch_base + h;
	pl->hd_mt = b->kp->hdpc_mt;
	pl->st.hdpc_srcs = KS;
}

/* x2: C[pivot col] = D[row] ^ XOR of C over the other columns of its row. */
static void
back_substitution(struct bld *b)
{
	uint32_t k, j;

	for (k = 0; k < b->npiv; k++) {
		uint32_t r = b->piv_row[k], off = b->nsrc;

		if (b->rslot[r] != RQ_ROW_ZERO)
			src_push(b, b->rslot[r]);
		for (j = b->roff[r]; j < b->roff[r + 1]; j++)
			if (b->rcol[j] != b->piv_col[k])
				src_push(b, b->c_base + b->rcol[j]);
		b->x[b->nx].dst = b->c_base + b->piv_col[k];
		b->x[b->nx].off = off;
		b->x[b->nx].n = b->nsrc - off;
		b->nx++;
	}
}

int
rq_plan_build_once(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, struct rq_ws *ws, struct rq_plan **out)
{
	const struct rq_params *p = &kp->p;
	struct bld b;
	struct rq_plan *pl;
	uint32_t k;
	int rc;

	memset(&b, 0, sizeof(b));
	b.kp = kp;
	b.p = p;
	b.ws = ws;
	ws->used = 0;
	if (n + p->S + p->H < p->L)
		return -EAGAIN;
	pl = rq_ws_alloc(ws, sizeof(*pl));
	rc = rq_peel_setup(&b, isi, dslot, n);
	if (rc || pl == NULL)
		return rc ? rc : -ENOBUFS;
	memset(pl, 0, sizeof(*pl));
	pl->L = p->L;
	pl->nin = nin;
	pl->KS = p->Kp + p->S;
	pl->H = p->H;
	rq_peel(&b);
	rc = plan_layout(&b, pl, nin);
	if (rc == 0)
		rc = phase2_alloc(&b, pl);
	if (rc)
		return rc;
	forward_pass(&b);
	sys_binary_rows(&b);
	sys_hdpc_rows(&b);
	rc = sys_solve(&b);
	if (rc == 0)
		rc = u_product(&b, pl);
	if (rc < 0)
		return rc;
	if (rc > 0)
		hdpc_inputs(&b, pl);
	/* x1 done; x2 (back substitution) follows in the same array */
	pl->nx1 = b.nx;
	back_substitution(&b);
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
