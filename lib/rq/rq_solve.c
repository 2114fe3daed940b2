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
 * Phase 2 (rq_phase2.c) solves for the U columns (matrix only): XORs for
 * the columns the binary rows determine, one small dense GF(256) product
 * (rq_gf_dot_any) for the rest, from the HDPC rows.
 * The matrix work is done once per K' for encoding (cached plan) and once per
 * block for decoding; symbol work is only multi-source XORs, the HDPC pass
 * and one dense GF(256) product.
 */
#include <errno.h>
#include <string.h>

#include "rq_plan.h"
#include "rq_kern.h"
#include "rq_sym.h"

/*
 * Close the source list begun at off: no source is the zero slot, one is
 * aliased (no operation), more become one XOR into dst. Returns the slot
 * that holds the result.
 */
uint32_t
rq_bld_xop(struct bld *b, uint32_t off, uint32_t dst)
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
	if (b->nnp + p->H < b->u)
		return -EDOM;
	pl->nscratch = p->H + b->u;
	b->zero_slot = nin;
	b->c_base = nin + 1;
	b->scratch_base = nin + 1 + p->L;
	pl->zero = b->zero_slot;
	pl->nslots = b->scratch_base + pl->nscratch;
	b->nwords = (b->u + 63) / 64;
	return 0;
}

/* Everything after phase 1, from the workspace; -ENOBUFS when it is short. */
static int
build_alloc(struct bld *b, struct rq_plan *pl)
{
	struct rq_ws *ws = b->ws;
	uint32_t H = b->p->H, KS = b->p->Kp + b->p->S, u = b->u;
	/* x1 and x2 each read at most every row's entries and input once; the
	 * binary pivot columns' XORs at most nnp + u sources each */
	size_t nsrc_max = 2 * ((size_t)b->roff[b->nb] + b->nb) + (size_t)u * (b->nnp + u) + 16;

	b->dprime = rq_ws_alloc(ws, b->nb * sizeof(uint32_t));
	b->ubits = rq_ws_alloc(ws, ((size_t)b->nb * b->nwords + 1) * sizeof(uint64_t));
	b->x = rq_ws_alloc(ws, (2 * (size_t)b->npiv + 2 * (size_t)u + 1) * sizeof(*b->x));
	b->src = rq_ws_alloc(ws, nsrc_max * sizeof(uint32_t));
	pl->hd_out = rq_ws_alloc(ws, H * sizeof(uint32_t));
	pl->hd_in = rq_ws_alloc(ws, KS * sizeof(uint32_t));
	if (rq_phase2_alloc(b, pl) != 0 || ws->used > ws->cap)
		return -ENOBUFS;
	memset(b->ubits, 0, (size_t)b->nb * b->nwords * sizeof(uint64_t));
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
			rq_bld_src(b, b->rslot[r]);
		for (j = b->roff[r]; j < b->roff[r + 1]; j++) {
			uint32_t c = b->rcol[j];

			if (c == b->piv_col[k])
				continue;
			if (b->cstate[c] == COL_INACTIVE) {
				rq_bit_flip(bits, b->uidx[c]);
			} else {
				const uint64_t *o = rq_bld_piv_bits(b, c);

				for (w = 0; w < b->nwords; w++)
					bits[w] ^= o[w];
				if (rq_bld_piv_dprime(b, c) != b->zero_slot)
					rq_bld_src(b, rq_bld_piv_dprime(b, c));
			}
		}
		b->dprime[r] = rq_bld_xop(b, off, b->c_base + b->piv_col[k]);
	}
}

/* Inputs of the HDPC pass: the D' of the pivot columns (zero elsewhere). */
static void
hdpc_inputs(struct bld *b, struct rq_plan *pl)
{
	uint32_t KS = b->p->Kp + b->p->S, c, h;

	for (c = 0; c < KS; c++)
		pl->hd_in[c] = b->cstate[c] == COL_PIVOT ? rq_bld_piv_dprime(b, c) : b->zero_slot;
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
			rq_bld_src(b, b->rslot[r]);
		for (j = b->roff[r]; j < b->roff[r + 1]; j++)
			if (b->rcol[j] != b->piv_col[k])
				rq_bld_src(b, b->c_base + b->rcol[j]);
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
		rc = build_alloc(&b, pl);
	if (rc)
		return rc;
	forward_pass(&b);
	rc = rq_phase2_solve(&b, pl);
	if (rc < 0)
		return rc;
	if (rc > 0)
		hdpc_inputs(&b, pl);
	/* x1 done; x2 (binary pivot columns, back substitution) follows */
	pl->nx1 = b.nx;
	rq_phase2_emit_x2(&b);
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
