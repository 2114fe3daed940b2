/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The plan: what a solve records (rq_solve.c) and how it is replayed on
 * symbols, column stripe by column stripe; the workspace arena the builds
 * allocate from; the compact copy of a plan kept in the per-K' cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <emmintrin.h>

#include "rq_plan.h"
#include "rq_kern.h"
#include "rq_sym.h"

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
 * in L2 (or at least L3) for large blocks. The L2 target is a share of the
 * L2 read at start-up (RQ_STRIPE_L2_NUM / 8: 1.25 MiB of the AVX-512
 * machine's 2 MiB, where it was tuned), the L3 target an eighth of the
 * L3 (it is shared). RQ_STRIPE_WS (compile time) or rq_stripe_ws_set
 * override the L2 target.
 */
#ifndef RQ_STRIPE_L2_NUM
#define RQ_STRIPE_L2_NUM 5
#endif
#ifdef RQ_STRIPE_WS
static size_t stripe_ws = RQ_STRIPE_WS;
#else
static size_t stripe_ws;
#endif
static size_t stripe_ws_set_by;

size_t
rq_stripe_ws(void)
{
	if (stripe_ws_set_by != 0)
		return stripe_ws_set_by;
	if (stripe_ws == 0)
		stripe_ws = rq_cache_l2() / 8 * RQ_STRIPE_L2_NUM;
	return stripe_ws;
}

size_t
rq_stripe_ws_set(size_t ws)
{
	stripe_ws_set_by = ws;
	return rq_stripe_ws();
}

/* Equal stripes of about s bytes (a multiple of 64): no short last one. */
static size_t
even_stripes(size_t T, size_t s)
{
	size_t n = (T + s - 1) / s;

	s = (T + n - 1) / n;
	return (s + 63) / 64 * 64;
}

size_t
rq_plan_stripe(const struct rq_plan *pl, size_t T)
{
	size_t ws = (size_t)pl->nslots * T, l2 = rq_stripe_ws(), l3 = rq_cache_l3() / 8;
	size_t smin = rq_kern_cur->stripe_min, s;

	if (ws <= l2 || T <= smin)
		return T;
	s = l2 / pl->nslots / 64 * 64;
	if (s >= smin)
		return even_stripes(T, s);
	if (rq_kern_cur->stripe_clamp)
		return even_stripes(T, smin);
	/* no stripe of at least smin fits the L2: stripe for the L3, if needed */
	if (ws <= l3)
		return T;
	s = l3 / pl->nslots / 64 * 64;
	return even_stripes(T, s < smin ? smin : s);
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
	size_t o, len, sl = rq_plan_stripe(pl, T);
	uint32_t i;

	for (o = 0; o < T; o += len) {
		/* a short rest (T = 1420 in 128-byte stripes leaves 12) joins the last stripe */
		len = T - o < sl + sl / 2 ? T - o : sl;
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
			rq_gf_dot_any(len, pl->nsel, pl->u, pl->u_tbl, pl->u_aff, ws,
				ws + pl->nsel);
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
void *
rq_ws_alloc(struct rq_ws *ws, size_t n)
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

/* Copy a plan out of a workspace into one compact malloc'd block. */
static struct rq_plan *
plan_clone(const struct rq_plan *q)
{
	size_t nx = q->nx1 + q->nx2, nsrc = q->bytes, sz, o;
	size_t tbl = (size_t)32 * q->u * q->nsel, aff = q->u_aff ? (size_t)8 * q->u * q->nsel : 0;
	struct rq_plan *pl;
	uint8_t *m;

	sz = sizeof(*pl) + nx * sizeof(struct xop) + nsrc * sizeof(uint32_t) +
		(q->KS + q->H + q->nsel + q->u) * sizeof(uint32_t) + 64 + tbl + 64 + aff;
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
	if (q->u_aff != NULL) {
		pl->u_aff = (uint64_t *)(((uintptr_t)(pl->u_tbl + tbl) + 63) & ~(uintptr_t)63);
		memcpy(pl->u_aff, q->u_aff, aff);
	}
	pl->bytes = sz;
	pl->owned = 1;
	return pl;
}

struct rq_plan *
rq_plan_build_ws(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, struct rq_ws *ws, int *err)
{
	struct rq_plan *pl = NULL;
	int rc;

	for (;;) {
		rc = rq_plan_build_once(kp, isi, dslot, n, nin, ws, &pl);
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

struct rq_plan *
rq_plan_build(const struct rq_kp *kp, const uint32_t *isi, const uint32_t *dslot,
		uint32_t n, uint32_t nin, int *err)
{
	struct rq_ws ws = { NULL, 0, 0, 1 };
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
