/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Decoder: store received symbols; when all source symbols are there, copy;
 * otherwise build a plan for this loss pattern (inactivation solve, matrix
 * only), replay it, and regenerate the missing source symbols.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq_priv.h"
#include "rq_sym.h"

#define NONE UINT32_MAX

struct rq_dec {
	uint32_t K;
	uint16_t T;
	uint32_t cap, count, nsrc;
	int decoded;
	const struct rq_kp *kp;
	uint8_t *store;		/* cap symbols | zero | C (L) | scratch (H+L) */
	uint8_t **tab;
	uint32_t *esi;		/* per stored slot */
	uint32_t *srcslot;	/* source ESI -> slot */
	uint32_t *hash;		/* open addressing on ESI: slot or NONE */
	uint32_t hmask;
	uint32_t *isi, *dslot;	/* plan-build arguments */
	struct rq_ws ws;	/* plan-build workspace, sized at creation */
};

static int ws_presize(struct rq_dec *dec);

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
	dec->store = aligned_alloc(64, ((size_t)nsym * T + 63) / 64 * 64);
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
	memset(dec->store, 0, (size_t)nsym * T);
	for (i = 0; i < nsym; i++)
		dec->tab[i] = dec->store + (size_t)i * T;
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
	rq_ws_free(&dec->ws);
	free(dec);
}

void
rq_dec_reset(struct rq_dec *dec)
{
	if (dec == NULL)
		return;
	dec->count = 0;
	dec->nsrc = 0;
	dec->decoded = 0;
	memset(dec->srcslot, 0xff, dec->K * sizeof(uint32_t));
	memset(dec->hash, 0xff, (dec->hmask + 1) * sizeof(uint32_t));
}

int
rq_dec_add(struct rq_dec *dec, uint32_t esi, const void *sym)
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
	memcpy(dec->tab[dec->count], sym, dec->T);
	if (esi < dec->K) {
		dec->srcslot[esi] = dec->count;
		dec->nsrc++;
	}
	dec->count++;
	return 1;
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
		memcpy(out + off, dec->tab[dec->srcslot[i]], n);
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
