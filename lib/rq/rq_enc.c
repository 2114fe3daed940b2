/* SPDX-License-Identifier: BSD-3-Clause */
/* Encoder: replay the cached per-K' plan on each block. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq_priv.h"
#include "rq_sym.h"

struct rq_enc {
	uint32_t K;
	uint16_t T;
	int loaded;
	const struct rq_kp *kp;
	const struct rq_plan *plan;
	uint8_t *mem;		/* D (K' symbols) | zero | C (L) | scratch */
	uint8_t **tab;		/* plan slots + workspace */
	uint8_t **ctab;		/* tab + K' + 1: C[i] == ctab[i] */
};

struct rq_enc *
rq_enc_create(uint32_t K, uint16_t T)
{
	const struct rq_kp *kp;
	struct rq_enc *enc;
	uint32_t nsym, i, L;

	if (K == 0 || K > RQ_MAX_K || T == 0)
		return NULL;
	kp = rq_kp_get(K);
	if (kp == NULL)
		return NULL;
	enc = calloc(1, sizeof(*enc));
	if (enc == NULL)
		return NULL;
	enc->K = K;
	enc->T = T;
	enc->kp = kp;
	enc->plan = kp->enc_plan;
	L = kp->p.L;
	nsym = kp->p.Kp + L + rq_plan_scratch(enc->plan) + 1;
	enc->mem = aligned_alloc(64, ((size_t)nsym * T + 63) / 64 * 64);
	enc->tab = calloc((size_t)nsym + 6 * L, sizeof(uint8_t *));
	if (enc->mem == NULL || enc->tab == NULL) {
		rq_enc_free(enc);
		return NULL;
	}
	memset(enc->mem, 0, (size_t)nsym * T);
	for (i = 0; i < nsym; i++)
		enc->tab[i] = enc->mem + (size_t)i * T;
	enc->ctab = enc->tab + kp->p.Kp + 1;
	return enc;
}

void
rq_enc_free(struct rq_enc *enc)
{
	if (enc == NULL)
		return;
	free(enc->mem);
	free(enc->tab);
	free(enc);
}

int
rq_enc_block(struct rq_enc *enc, const void *src, size_t len)
{
	size_t blk;

	if (enc == NULL || (src == NULL && len > 0))
		return -EINVAL;
	blk = (size_t)enc->K * enc->T;
	if (len > blk)
		return -EMSGSIZE;
	if (len)
		memcpy(enc->mem, src, len);
	if (len < blk)
		memset(enc->mem + len, 0, blk - len);
	rq_plan_run(enc->plan, enc->T, enc->tab);
	enc->loaded = 1;
	return 0;
}

int
rq_enc_symbol(const struct rq_enc *enc, uint32_t esi, void *out)
{
	uint32_t cols[RQ_MAX_LT_COLS];
	unsigned int m;

	if (enc == NULL || out == NULL || !enc->loaded)
		return -EINVAL;
	if (esi > RQ_MAX_ESI)
		return -ERANGE;
	if (esi < enc->K) {
		memcpy(out, enc->mem + (size_t)esi * enc->T, enc->T);
		return 0;
	}
	m = rq_lt_cols(&enc->kp->p, esi + enc->kp->p.Kp - enc->K, cols);
	rq_xor_idx(out, enc->ctab, cols, m, enc->T);
	return 0;
}

int
rq_enc_symbols(const struct rq_enc *enc, const uint32_t *esi, void *const *out,
		unsigned int n)
{
	unsigned int i;
	int rc;

	if (esi == NULL || out == NULL)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		rc = rq_enc_symbol(enc, esi[i], out[i]);
		if (rc < 0)
			return rc;
	}
	return (int)n;
}

/* Intermediate symbols of the loaded block, for tests. */
const uint8_t *
rq_enc_intermediate(const struct rq_enc *enc)
{
	return enc->loaded ? enc->ctab[0] : NULL;
}
