/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Encoder. Small blocks (K' up to the tier's gen_enc_max_kp, at most
 * RQ_GEN_ENC_MAX_KP): the block is copied and each repair symbol is one
 * GF(256) dot product of the K source symbols with its generator row
 * (rq_gf_dot, the tier's dense product; bursts share one product). Larger
 * blocks: replay the cached per-K' plan to get the intermediate symbols C,
 * then one multi-source XOR of C per repair symbol.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq_priv.h"
#include "rq_kern.h"
#include "rq_sym.h"

struct rq_enc {
	uint32_t K;
	uint16_t T;
	size_t stride;		/* between two symbols of mem (rq_sym_stride) */
	int loaded;
	int filling;		/* rq_enc_src handed out a symbol since the last load */
	int ref;		/* tab[0..K) point at the caller's block */
	int gen;		/* generator-matrix path */
	int cvalid;		/* C computed for the loaded block */
	int planmem;		/* mem holds the plan's slots, not just the K sources */
	const struct rq_kp *kp;
	const struct rq_plan *plan;
	uint8_t *mem;		/* D (K' symbols) | zero | C (L) | scratch; gen: K */
	uint8_t **tab;		/* plan slots + workspace; gen: the K sources */
	uint8_t **ctab;		/* tab + K' + 1: C[i] == ctab[i] (planmem) */
	uint8_t *scr;		/* gen scratch of its own (K' > RQ_GEN_ENC_MAX_KP), or NULL */
};

/*
 * Generator path scratch, used only inside one rq_enc_symbol(s) call: the
 * ISA-L tables (32 * K * RQ_GEN_CHUNK bytes) and the RQ_GEN_CHUNK x K
 * coefficients. One per thread for the blocks that take the generator path
 * by default (K' <= RQ_GEN_ENC_MAX_KP: 132 KiB of TLS), so an encoder keeps
 * only its K source symbols between calls (K = 47, T = 1420: 69 KiB, not
 * the 285 KiB of its own plan slots and tables: the DFCP sender pool holds
 * one per flow). Encoders forced onto the generator path above that
 * (rq_enc_set_gen) get scratch of their own.
 */
#define GEN_TBL_BYTES(K) ((size_t)32 * (K) * RQ_GEN_CHUNK)
#define GEN_SCR_BYTES(K) (GEN_TBL_BYTES(K) + (size_t)RQ_GEN_CHUNK * (K))
static _Thread_local _Alignas(64) uint8_t gen_tls[GEN_SCR_BYTES(RQ_GEN_ENC_MAX_KP)];

/*
 * Symbol memory: the plan's slots (plan != 0) or only the K source symbols
 * (generator path). A loaded copied block is kept.
 */
static int
enc_mem(struct rq_enc *enc, int plan)
{
	const struct rq_kp *kp = enc->kp;
	uint32_t L = kp->p.L, nsym, i;
	size_t ntab;
	uint8_t *mem, **tab;

	nsym = plan ? kp->p.Kp + L + rq_plan_scratch(enc->plan) + 1 : enc->K;
	ntab = plan ? (size_t)nsym + 6 * L : nsym;
	mem = rq_sym_alloc((size_t)nsym * enc->stride);
	tab = calloc(ntab, sizeof(*tab));
	if (mem == NULL || tab == NULL) {
		free(mem);
		free(tab);
		return -ENOMEM;
	}
	memset(mem, 0, (size_t)nsym * enc->stride);
	for (i = 0; i < nsym; i++)
		tab[i] = mem + (size_t)i * enc->stride;
	if (enc->mem != NULL && enc->loaded && !enc->ref)
		memcpy(mem, enc->mem, (size_t)enc->K * enc->stride);
	if (enc->ref)
		memcpy(tab, enc->tab, (size_t)enc->K * sizeof(*tab));
	free(enc->mem);
	free(enc->tab);
	enc->mem = mem;
	enc->tab = tab;
	enc->planmem = plan;
	enc->ctab = plan ? tab + kp->p.Kp + 1 : NULL;
	return 0;
}

struct rq_enc *
rq_enc_create(uint32_t K, uint16_t T)
{
	const struct rq_kp *kp;
	struct rq_enc *enc;

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
	enc->stride = rq_sym_stride(T);
	enc->gen = kp->gm != NULL && kp->p.Kp <= rq_kern_cur->gen_enc_max_kp;
	if (enc_mem(enc, !enc->gen) < 0) {
		rq_enc_free(enc);
		return NULL;
	}
	return enc;
}

void
rq_enc_free(struct rq_enc *enc)
{
	if (enc == NULL)
		return;
	free(enc->mem);
	free(enc->tab);
	free(enc->scr);
	free(enc);
}

/*
 * Test hook: 0 forces the plan path, 1 the generator path (when K' allows).
 * Allocates what the new path needs (plan slots, scratch above
 * RQ_GEN_ENC_MAX_KP): -ENOMEM if that fails, the path unchanged.
 */
int
rq_enc_set_gen(struct rq_enc *enc, int on)
{
	on = on && enc->kp->gm != NULL;
	if (!on && !enc->planmem && enc_mem(enc, 1) < 0)
		return -ENOMEM;
	if (on && enc->kp->p.Kp > RQ_GEN_ENC_MAX_KP && enc->scr == NULL) {
		enc->scr = aligned_alloc(64, (GEN_SCR_BYTES(enc->kp->p.Kp) + 63) / 64 * 64);
		if (enc->scr == NULL)
			return -ENOMEM;
	}
	enc->gen = on;
	enc->loaded = 0;
	return enc->gen;
}

/* The block's symbols are in place: intermediate symbols (plan path). */
static int
enc_load(struct rq_enc *enc)
{
	enc->cvalid = 0;
	enc->filling = 0;
	if (!enc->gen) {
		rq_plan_run(enc->plan, enc->T, enc->tab);
		enc->cvalid = 1;
	}
	enc->loaded = 1;
	return 0;
}

/*
 * The next block goes into the encoder's own symbol memory: source symbol i
 * is written at rq_enc_src(enc, i), then rq_enc_load zero-pads past len.
 * rq_enc_block is the copying form of the same.
 */
void *
rq_enc_src(struct rq_enc *enc, uint32_t i)
{
	if (enc == NULL || i >= enc->K)
		return NULL;
	if (enc->ref) {
		for (uint32_t k = 0; k < enc->K; k++)
			enc->tab[k] = enc->mem + k * enc->stride;
		enc->ref = 0;
	}
	enc->loaded = 0;
	enc->filling = 1;
	return enc->tab[i];
}

int
rq_enc_load(struct rq_enc *enc, size_t len)
{
	size_t T, i, n;

	if (enc == NULL || !enc->filling)
		return -EINVAL;
	T = enc->T;
	if (len > (size_t)enc->K * T)
		return -EMSGSIZE;
	for (i = len / T; i < enc->K; i++) {
		n = len > i * T ? len - i * T : 0;
		memset(enc->tab[i] + n, 0, T - n);
	}
	return enc_load(enc);
}

int
rq_enc_block(struct rq_enc *enc, const void *src, size_t len)
{
	const uint8_t *s = src;
	size_t T, i;

	if (enc == NULL || (src == NULL && len > 0))
		return -EINVAL;
	T = enc->T;
	if (len > (size_t)enc->K * T)
		return -EMSGSIZE;
	for (i = 0; i < enc->K; i++) {
		uint8_t *d = rq_enc_src(enc, (uint32_t)i);

		if (len > i * T)
			memcpy(d, s + i * T, len - i * T < T ? len - i * T : T);
	}
	return rq_enc_load(enc, len);
}

int
rq_enc_block_ref(struct rq_enc *enc, const void *src, size_t len)
{
	const uint8_t *s = src;
	uint32_t i;

	/*
	 * Short blocks are copied; so are small ones (generator path): its
	 * dot products read every source symbol once per repair burst, and
	 * from a 64-byte-aligned copy they run faster than the copy costs
	 * (K = 47, T = 1420: 26.8 vs 20.4 Gbit/s encode). So are blocks
	 * whose replay runs in column stripes (too large for the cache): at
	 * a stride that is not a multiple of 64 each stripe of a symbol
	 * spans one cache line more (256-byte stripes: 5 lines, not 4), and
	 * the replay reads each source several times (K = 10000 on Zen 3:
	 * 12-15 % slower than copy and replay).
	 */
	if (enc == NULL || src == NULL || len != (size_t)enc->K * enc->T || enc->gen ||
			(((uintptr_t)src | enc->T) % 64 != 0 &&
			rq_plan_stripe(enc->plan, enc->T) < enc->T))
		return rq_enc_block(enc, src, len);
	for (i = 0; i < enc->K; i++)
		enc->tab[i] = (uint8_t *)(uintptr_t)(s + (size_t)i * enc->T);
	enc->ref = 1;
	return enc_load(enc);
}

/* Generator path: out[i] = repair symbol of ESI esi[i] (all >= K), n <= chunk. */
static void
gen_repair(const struct rq_enc *enc, const uint32_t *esi, void *const *out, unsigned int n)
{
	const struct rq_kp *kp = enc->kp;
	uint32_t Kp = kp->p.Kp, K = enc->K;
	uint8_t *tbls = enc->scr != NULL ? enc->scr : gen_tls;
	uint8_t *coef = tbls + GEN_TBL_BYTES(K);
	uint8_t *outp[RQ_GEN_CHUNK];
	uint8_t g[RQ_GEN_MAX_KP];
	unsigned int i;

	for (i = 0; i < n; i++) {
		rq_gen_row(kp, esi[i] + Kp - K, g);
		memcpy(coef + (size_t)i * K, g, K);
		outp[i] = out[i];
	}
	rq_gf_dot_tables(K, n, coef, tbls);
	rq_gf_dot(enc->T, K, n, tbls, enc->tab, outp);
}

const void *
rq_enc_source(const struct rq_enc *enc, uint32_t esi)
{
	if (enc == NULL || !enc->loaded || esi >= enc->K)
		return NULL;
	return enc->tab[esi];
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
		memcpy(out, enc->tab[esi], enc->T);
		return 0;
	}
	if (enc->gen) {
		gen_repair(enc, &esi, &out, 1);
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
	uint32_t besi[RQ_GEN_CHUNK];
	void *bout[RQ_GEN_CHUNK];
	unsigned int i, nb = 0;
	int rc;

	if (esi == NULL || out == NULL)
		return -EINVAL;
	if (n > 0 && (enc == NULL || !enc->loaded))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (out[i] == NULL)
			return -EINVAL;
		if (esi[i] > RQ_MAX_ESI)
			return -ERANGE;
	}
	for (i = 0; i < n; i++) {
		if (!enc->gen || esi[i] < enc->K) {
			rc = rq_enc_symbol(enc, esi[i], out[i]);
			if (rc < 0)
				return rc;
			continue;
		}
		besi[nb] = esi[i];
		bout[nb++] = out[i];
		if (nb == RQ_GEN_CHUNK) {
			gen_repair(enc, besi, bout, nb);
			nb = 0;
		}
	}
	if (nb)
		gen_repair(enc, besi, bout, nb);
	return (int)n;
}

/* Intermediate symbol i of the loaded block, for tests (computed on demand). */
const uint8_t *
rq_enc_intermediate(struct rq_enc *enc, uint32_t i)
{
	if (!enc->loaded || i >= enc->kp->p.L)
		return NULL;
	if (!enc->planmem && enc_mem(enc, 1) < 0)
		return NULL;
	if (!enc->cvalid) {
		rq_plan_run(enc->plan, enc->T, enc->tab);
		enc->cvalid = 1;
	}
	return enc->ctab[i];
}
