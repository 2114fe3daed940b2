/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Codec round trips over sampled K' rows of Table 2 (the first 40, every
 * 10th, the last), symbol sizes 4..1500, random loss of source symbols made
 * up by repair symbols. For small blocks the plan-based encoder's
 * intermediate symbols and the decoder's output are checked against the
 * plain dense Gaussian-elimination reference (rq_ref_solve).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rq_bench.h"
#include "rq_priv.h"
#include "rq_test.h"

static struct test_rng rng = { 0x5eed1234abcdull };
static uint32_t gen_rows, gen_decodes, gen_edom;

/* Encoder against the reference solver: same intermediate symbols. */
static void
check_against_ref(uint32_t K, uint16_t T)
{
	struct rq_params p;
	struct rq_enc *enc = rq_enc_create(K, T);
	uint8_t *src, *cref, *sym;
	const uint8_t **sp;
	uint32_t *isi, i;

	rq_params_get(K, &p);
	src = malloc((size_t)K * T);
	cref = malloc((size_t)p.L * T);
	sym = malloc(T);
	sp = calloc(p.Kp, sizeof(*sp));
	isi = malloc(p.Kp * sizeof(*isi));
	CHECKF(enc && src && cref && sp && isi && sym, "alloc");
	rqt_fill(src, (size_t)K * T, &rng);
	CHECKF(rq_enc_block(enc, src, (size_t)K * T) == 0, "enc_block");
	for (i = 0; i < p.Kp; i++) {
		isi[i] = i;
		sp[i] = i < K ? src + (size_t)i * T : NULL;
	}
	CHECKF(rq_ref_solve(K, T, isi, sp, p.Kp, cref) == 0, "ref solve K=%u", K);
	for (i = 0; i < p.L; i++)
		CHECKF(memcmp(cref + (size_t)i * T, rq_enc_intermediate(enc, i), T) == 0,
			"intermediate symbol %u differs from reference, K=%u T=%u", i, K, T);
	/* every source ESI reproduces the source; repair == reference LT */
	for (i = 0; i < K + 20; i++) {
		uint8_t ref[1500];

		CHECKF(rq_enc_symbol(enc, i, sym) == 0, "symbol");
		CHECKF((rq_enc_source(enc, i) != NULL) == (i < K), "rq_enc_source of ESI %u", i);
		if (i < K) {
			CHECKF(memcmp(sym, src + (size_t)i * T, T) == 0, "source ESI %u K=%u", i, K);
			CHECKF(memcmp(rq_enc_source(enc, i), sym, T) == 0, "rq_enc_source %u K=%u", i, K);
		} else {
			rq_ref_lt_symbol(&p, T, cref, i + p.Kp - K, ref);
			CHECKF(memcmp(sym, ref, T) == 0, "repair ESI %u K=%u", i, K);
		}
	}
	/* ESIs near the top of the range, and random ones */
	for (i = 0; i < 12; i++) {
		uint8_t ref[1500];
		uint32_t esi = i < 6 ? RQ_MAX_ESI - i : K + (uint32_t)(test_rng_next(&rng) % (RQ_MAX_ESI - K));

		CHECKF(rq_enc_symbol(enc, esi, sym) == 0, "symbol");
		rq_ref_lt_symbol(&p, T, cref, esi + p.Kp - K, ref);
		CHECKF(memcmp(sym, ref, T) == 0, "repair ESI %u K=%u", esi, K);
	}
	/* the reference LT rows of the source ISIs reproduce the source */
	for (i = 0; i < K; i++) {
		uint8_t ref[1500];

		rq_ref_lt_symbol(&p, T, cref, i, ref);
		CHECKF(memcmp(ref, src + (size_t)i * T, T) == 0, "systematic K=%u i=%u", K, i);
	}
	free(src);
	free(cref);
	free(sym);
	free(sp);
	free(isi);
	rq_enc_free(enc);
}

/*
 * Generator-matrix fast path (K' <= RQ_GEN_MAX_KP) against the plan path:
 * byte-identical symbols (single and burst calls, ESIs up to 2^24-1), and
 * decoders that agree (same return code, same data) on random symbol sets
 * of K, K+1, K+2 symbols, all-repair sets, duplicates.
 */
static void
check_gen(uint32_t K, uint16_t T, unsigned int ntrials)
{
	struct rq_enc *eg = rq_enc_create(K, T), *ep = rq_enc_create(K, T);
	uint32_t pool = 2 * K + 24, nesi = pool + 40, i, t;
	struct rq_dec *dg = rq_dec_create(K, T, nesi), *dp = rq_dec_create(K, T, nesi);
	uint8_t *src = malloc((size_t)K * T), *a = malloc(T), *b = malloc(T);
	uint8_t *burst = malloc((size_t)nesi * T), *og = malloc((size_t)K * T);
	uint8_t *op = malloc((size_t)K * T), *syms = malloc((size_t)nesi * T);
	uint32_t *esi = malloc(nesi * sizeof(*esi)), *perm = malloc(nesi * sizeof(*perm));
	void **outs = malloc(nesi * sizeof(*outs));
	size_t len = (size_t)K * T - (K % 3);

	CHECKF(eg && ep && dg && dp && src && a && b && burst && og && op && syms && esi &&
		perm && outs, "alloc");
	CHECKF(rq_enc_set_gen(eg, 1) == 1, "K=%u has no generator path", K);
	CHECKF(rq_enc_set_gen(ep, 0) == 0 && rq_dec_set_gen(dp, 0) == 0, "set_gen");
	CHECKF(rq_dec_set_gen(dg, 1) == 1, "K=%u: no generator decoder", K);
	rqt_fill(src, len, &rng);
	CHECKF(rq_enc_block(eg, src, len) == 0 && rq_enc_block(ep, src, len) == 0, "enc");
	/* ESIs: 0..pool-1, then random and near 2^24-1 */
	for (i = 0; i < nesi; i++)
		esi[i] = i < pool ? i : i < pool + 20 ? RQ_MAX_ESI - (i - pool) :
			(uint32_t)(test_rng_next(&rng) % (RQ_MAX_ESI + 1));
	for (i = 0; i < nesi; i++) {
		CHECKF(rq_enc_symbol(eg, esi[i], a) == 0 && rq_enc_symbol(ep, esi[i], b) == 0,
			"symbol");
		CHECKF(memcmp(a, b, T) == 0, "gen != plan: K=%u T=%u ESI %u", K, T, esi[i]);
		memcpy(syms + (size_t)i * T, b, T);
		outs[i] = burst + (size_t)i * T;
	}
	/* burst form, shuffled (source and repair mixed, several chunks) */
	for (i = 0; i < nesi; i++)
		perm[i] = esi[i];
	rqt_shuffle(perm, nesi, &rng);
	CHECKF(rq_enc_symbols(eg, perm, outs, nesi) == (int)nesi, "burst");
	for (i = 0; i < nesi; i++) {
		CHECKF(rq_enc_symbol(ep, perm[i], b) == 0, "symbol");
		CHECKF(memcmp(burst + (size_t)i * T, b, T) == 0, "burst K=%u ESI %u", K, perm[i]);
	}
	/* decoders agree */
	for (t = 0; t < ntrials; t++) {
		uint32_t n, extra = t % 3, kind = t % 5;
		int rg, rp;

		for (i = 0; i < nesi; i++)
			perm[i] = i;
		if (kind == 4) {	/* repair symbols only (incl. the high ESIs) */
			rqt_shuffle(perm + K, nesi - K, &rng);
			memmove(perm, perm + K, (nesi - K) * sizeof(*perm));
			n = K + extra;
		} else {
			rqt_shuffle(perm, kind == 3 ? nesi : pool, &rng);
			n = K + extra;
		}
		rq_dec_reset(dg);
		rq_dec_reset(dp);
		for (i = 0; i < n; i++) {
			const uint8_t *sy = syms + (size_t)perm[i] * T;

			CHECKF(rq_dec_add(dg, esi[perm[i]], sy) == 1, "add");
			CHECKF(rq_dec_add(dp, esi[perm[i]], sy) == 1, "add");
			if (i % 5 == 0)
				CHECKF(rq_dec_add(dg, esi[perm[i]], sy) == 0, "dup");
		}
		memset(og, 0x11, len);
		memset(op, 0x22, len);
		rg = rq_dec_decode(dg, og, len);
		rp = rq_dec_decode(dp, op, len);
		CHECKF(rg == rp, "K=%u trial %u: gen rc %d, plan rc %d", K, t, rg, rp);
		gen_decodes++;
		gen_edom += rg == -EDOM;
		if (rg == 0 && rp == 0) {
			CHECKF(memcmp(og, src, len) == 0, "K=%u trial %u gen data", K, t);
			CHECKF(memcmp(op, src, len) == 0, "K=%u trial %u plan data", K, t);
			memset(og, 0, len);
			CHECKF(rq_dec_decode(dg, og, len) == 0 && memcmp(og, src, len) == 0,
				"redecode");
		}
	}
	free(src);
	free(a);
	free(b);
	free(burst);
	free(og);
	free(op);
	free(syms);
	free(esi);
	free(perm);
	free(outs);
	gen_rows++;
	rq_enc_free(eg);
	rq_enc_free(ep);
	rq_dec_free(dg);
	rq_dec_free(dp);
}

/*
 * Residual decoder (K' > RQ_GEN_MAX_KP, few source symbols lost) against the
 * plan decoder: random loss counts 1..maxe, K, K+1, K+2 symbols, repair
 * ESIs from the first ones or random ones up to 2^24, duplicates; equal
 * return codes, equal data, and the data is the source block.
 */
static uint32_t res_decodes, res_edom;

static void
check_res(uint32_t K, uint16_t T, uint32_t maxe, unsigned int ntrials)
{
	uint32_t cap = K + maxe + 40, i, t;
	struct rq_enc *enc = rq_enc_create(K, T);
	struct rq_dec *dr = rq_dec_create(K, T, cap), *dp = rq_dec_create(K, T, cap);
	uint8_t *src = malloc((size_t)K * T), *orr = malloc((size_t)K * T + 1);
	uint8_t *op = malloc((size_t)K * T + 1), *sym = malloc(T);
	uint32_t *esi = malloc(cap * sizeof(*esi)), *perm = malloc(K * sizeof(*perm));
	size_t len = (size_t)K * T - (K % 5);

	CHECKF(enc && dr && dp && src && orr && op && sym && esi && perm, "alloc");
	CHECKF(rq_dec_set_res(dr, 1) == 1 && rq_dec_set_res(dp, 0) == 0, "K=%u set_res", K);
	rqt_fill(src, len, &rng);
	CHECKF(rq_enc_block(enc, src, len) == 0, "enc");
	for (t = 0; t < ntrials; t++) {
		uint32_t e = t % 4 == 0 ? 1 + t % 3 : 1 + (uint32_t)(test_rng_next(&rng) % maxe);
		uint32_t n = 0, extra = t % 3, base = K;
		int rr, rp;

		if (t & 1)
			base = K + (uint32_t)(test_rng_next(&rng) % (RQ_MAX_ESI - K - maxe - 8));
		for (i = 0; i < K; i++)
			perm[i] = i;
		rqt_shuffle(perm, K, &rng);
		for (i = e; i < K; i++)
			esi[n++] = perm[i];
		for (i = 0; i < e + extra; i++)
			esi[n++] = base + i;
		rqt_shuffle(esi, n, &rng);
		rq_dec_reset(dr);
		rq_dec_reset(dp);
		for (i = 0; i < n; i++) {
			CHECKF(rq_enc_symbol(enc, esi[i], sym) == 0, "sym");
			CHECKF(rq_dec_add(dr, esi[i], sym) == 1 && rq_dec_add(dp, esi[i], sym) == 1,
				"add");
			if (i % 9 == 0)
				CHECKF(rq_dec_add(dr, esi[i], sym) == 0, "dup");
		}
		memset(orr, 0x33, len + 1);
		memset(op, 0x44, len + 1);
		rr = rq_dec_decode(dr, orr, len);
		rp = rq_dec_decode(dp, op, len);
		CHECKF(rr == rp, "K=%u trial %u (e=%u): residual rc %d, plan rc %d", K, t, e, rr, rp);
		res_decodes++;
		res_edom += rr == -EDOM;
		if (rr == 0 && rp == 0) {
			CHECKF(memcmp(orr, src, len) == 0 && orr[len] == 0x33,
				"K=%u trial %u residual data", K, t);
			CHECKF(memcmp(op, src, len) == 0, "K=%u trial %u plan data", K, t);
			memset(orr, 0, len);
			CHECKF(rq_dec_decode(dr, orr, len) == 0 && memcmp(orr, src, len) == 0,
				"redecode");
		}
	}
	free(src);
	free(orr);
	free(op);
	free(sym);
	free(esi);
	free(perm);
	rq_enc_free(enc);
	rq_dec_free(dr);
	rq_dec_free(dp);
}

/*
 * Lose nloss random source symbols, send repair symbols from a random ESI
 * range until the decoder succeeds; shuffle, duplicate. Returns the number
 * of extra symbols beyond K that were needed.
 */
static int
roundtrip(uint32_t K, uint16_t T, uint32_t nloss, size_t len)
{
	struct rq_enc *enc = rq_enc_create(K, T);
	struct rq_dec *dec = rq_dec_create(K, T, K + nloss + 64);
	uint8_t *src = malloc((size_t)K * T), *out = malloc((size_t)K * T + 1);
	uint8_t *sym = malloc(T);
	uint32_t *esi = malloc((K + nloss + 64) * sizeof(*esi)), *perm = malloc(K * sizeof(*perm));
	uint32_t i, n = 0, base, extra = 0;
	int rc;

	CHECKF(enc && dec && src && out && sym && esi && perm, "alloc K=%u", K);
	rqt_fill(src, len, &rng);
	memset(out, 0xa5, (size_t)K * T + 1);
	CHECKF(rq_enc_block(enc, src, len) == 0, "enc");
	for (i = 0; i < K; i++)
		perm[i] = i;
	rqt_shuffle(perm, K, &rng);
	for (i = nloss; i < K; i++)
		esi[n++] = perm[i];
	base = K + (uint32_t)(test_rng_next(&rng) % (RQ_MAX_ESI - K - nloss - 64 + 1));
	if (test_rng_next(&rng) & 1)
		base = K;	/* half the time the first repair ESIs */
	for (i = 0; i < nloss; i++)
		esi[n++] = base + i;
	rqt_shuffle(esi, n, &rng);
	for (i = 0; i < n; i++) {
		CHECKF(rq_enc_symbol(enc, esi[i], sym) == 0, "enc sym");
		CHECKF(rq_dec_add(dec, esi[i], sym) == 1, "add");
		if (i % 7 == 0)
			CHECKF(rq_dec_add(dec, esi[i], sym) == 0, "duplicate not ignored");
	}
	for (;;) {
		rc = rq_dec_decode(dec, out, len);
		if (rc != -EDOM)
			break;
		CHECKF(rq_enc_symbol(enc, base + nloss + extra, sym) == 0, "enc sym");
		CHECKF(rq_dec_add(dec, base + nloss + extra, sym) == 1, "add extra");
		extra++;
		if (extra > 20)
			break;
	}
	CHECKF(rc == 0, "decode K=%u T=%u loss=%u rc=%d", K, T, nloss, rc);
	CHECKF(memcmp(out, src, len) == 0, "decoded data differs K=%u T=%u loss=%u", K, T, nloss);
	CHECKF(out[len] == 0xa5, "decode wrote past len");
	/* a second call copies again */
	memset(out, 0, len);
	CHECKF(rq_dec_decode(dec, out, len) == 0 && memcmp(out, src, len) == 0, "redecode");
	free(src);
	free(out);
	free(sym);
	free(esi);
	free(perm);
	rq_enc_free(enc);
	rq_dec_free(dec);
	return (int)extra;
}

/*
 * The zero-copy encoder (rq_enc_block_ref) against the copying one: equal
 * source and repair symbols with the block at an aligned and an unaligned
 * address, the replay unstriped and (a small L2 target) in column stripes,
 * where an unaligned block is copied; switching between the two APIs.
 */
static void
check_ref_api(uint32_t K, uint16_t T)
{
	static const size_t ws_try[] = { 0, 600 * 1024 };
	struct rq_enc *a = rq_enc_create(K, T), *b = rq_enc_create(K, T);
	size_t blk = (size_t)K * T, w, off;
	uint8_t *buf = aligned_alloc(64, (blk + 127) / 64 * 64), *sa = malloc(T), *sb = malloc(T);
	uint32_t esi, i;

	REQUIRE(a && b && buf && sa && sb);
	for (w = 0; w < sizeof(ws_try) / sizeof(ws_try[0]); w++) {
		rq_stripe_ws_set(ws_try[w]);
		if (ws_try[w] != 0)
			CHECKF(rq_plan_stripe(rq_kp_get(K)->enc_plan, T) < T,
				"K=%u T=%u: a %zu-byte L2 target stripes the replay", K, T, ws_try[w]);
		for (off = 0; off <= 4; off += 4) {
			rqt_fill(buf + off, blk, &rng);
			CHECKF(rq_enc_block(a, buf + off, blk) == 0, "enc copy");
			CHECKF(rq_enc_block_ref(b, buf + off, blk) == 0, "enc ref");
			for (i = 0; i < K + 60; i++) {
				esi = i < K + 40 ? i : K + (uint32_t)test_rng_below(&rng, RQ_MAX_ESI - K);
				CHECK(rq_enc_symbol(a, esi, sa) == 0 && rq_enc_symbol(b, esi, sb) == 0);
				CHECKF(memcmp(sa, sb, T) == 0,
					"K=%u T=%u ws=%zu offset %zu: ESI %u differs, ref vs copy",
					K, T, ws_try[w], off, esi);
			}
			/* the copying API after the zero-copy one reads its own copy */
			CHECKF(rq_enc_block(b, buf + off, blk) == 0, "enc copy after ref");
			memset(buf + off, 0, blk);
			CHECK(rq_enc_symbol(a, K + 1, sa) == 0 && rq_enc_symbol(b, K + 1, sb) == 0);
			CHECKF(memcmp(sa, sb, T) == 0, "copy after ref: K=%u offset %zu", K, off);
		}
	}
	rq_stripe_ws_set(0);
	free(buf);
	free(sa);
	free(sb);
	rq_enc_free(a);
	rq_enc_free(b);
}

/*
 * The in-place loader (rq_enc_src + rq_enc_load) against rq_enc_block: equal
 * symbols for a full and a short block (a partial last symbol, whole
 * symbols left unwritten after garbage in them), after a zero-copy block,
 * and its errors.
 */
static void
check_src_api(uint32_t K, uint16_t T)
{
	struct rq_enc *a = rq_enc_create(K, T), *b = rq_enc_create(K, T);
	size_t blk = (size_t)K * T, lens[3] = { blk, blk - T - T / 2, T / 3 + 1 };
	uint8_t *buf = aligned_alloc(64, (blk + 63) / 64 * 64), *sa = malloc(T), *sb = malloc(T);
	uint32_t esi, i, l;

	REQUIRE(a && b && buf && sa && sb);
	CHECK(rq_enc_load(b, blk) == -EINVAL);		/* nothing written yet */
	CHECK(rq_enc_src(b, K) == NULL && rq_enc_src(NULL, 0) == NULL);
	for (l = 0; l < 3; l++) {
		rqt_fill(buf, blk, &rng);
		if (l == 2)	/* the encoder held a zero-copy block before */
			CHECK(rq_enc_block_ref(b, buf, blk) == 0);
		CHECKF(rq_enc_block(a, buf, lens[l]) == 0, "enc copy");
		for (i = 0; i < K; i++) {
			uint8_t *d = rq_enc_src(b, i);

			REQUIRE(d != NULL);
			memset(d, 0xa5, T);	/* what is past len must not matter */
			if ((size_t)i * T < lens[l])
				memcpy(d, buf + (size_t)i * T, lens[l] - (size_t)i * T < T ?
					lens[l] - (size_t)i * T : T);
		}
		CHECK(rq_enc_load(b, blk + 1) == -EMSGSIZE);
		CHECKF(rq_enc_load(b, lens[l]) == 0, "enc load");
		CHECK(rq_enc_load(b, lens[l]) == -EINVAL);	/* once per fill */
		for (i = 0; i < K + 40; i++) {
			esi = i < K + 30 ? i : K + (uint32_t)test_rng_below(&rng, RQ_MAX_ESI - K);
			CHECK(rq_enc_symbol(a, esi, sa) == 0 && rq_enc_symbol(b, esi, sb) == 0);
			CHECKF(memcmp(sa, sb, T) == 0, "K=%u T=%u len %zu: ESI %u differs, "
				"in place vs copy", K, T, lens[l], esi);
		}
	}
	free(buf);
	free(sa);
	free(sb);
	rq_enc_free(a);
	rq_enc_free(b);
}

/*
 * The sampled K' rows, every symbol size on a DFCP-sized block, and the
 * residual decoder. quick: fewer rows and trials (the other kernel tiers).
 */
static void
run_suite(int quick)
{
	static const uint16_t Ts[] = { 4, 8, 13, 16, 64, 100, 255, 1024, 1420, 1500 };
	uint32_t row, tested = 0, extra = 0;

	gen_rows = gen_decodes = gen_edom = res_decodes = res_edom = 0;
	for (row = 0; row < RQ_TABLE2_ROWS; row++) {
		uint32_t Kp = rq_table2[row].Kp, K;
		uint16_t T;
		uint32_t loss;

		if (!(row < 40 || row % 10 == 0 || row == RQ_TABLE2_ROWS - 1))
			continue;
		if (quick && row >= 40 && row % 40 != 0 && row != RQ_TABLE2_ROWS - 1)
			continue;
		/* K itself: K' or something that maps to this K' */
		K = (row > 0 && (row & 1)) ? rq_table2[row - 1].Kp + 1 : Kp;
		/* symbol size: large blocks get small symbols to bound run time */
		T = Kp <= 2000 ? Ts[row % 10] : Kp <= 12000 ? 16 : 4;
		if (Kp <= 200 && (!quick || row % 8 == 0))
			check_against_ref(K, T);
		if (Kp <= RQ_GEN_MAX_KP)
			check_gen(K, T > 64 ? 64 : T, quick ? 10 : RQT_SCALE(60));
		loss = K / 10 + 1;
		extra += (uint32_t)roundtrip(K, T, loss, (size_t)K * T - (row % 3));
		tested++;
	}
	/* every symbol size on a DFCP-sized block, all-source fast path, loss up to 50% */
	{
		static const uint16_t more[] = { 4, 5, 31, 63, 64, 65, 127, 200, 512, 1419, 1420, 1500 };
		unsigned int i;

		for (i = 0; i < sizeof(more) / sizeof(more[0]); i++) {
			roundtrip(47, more[i], 5, (size_t)47 * more[i]);
			roundtrip(47, more[i], 0, (size_t)47 * more[i] - 1);
			roundtrip(10, more[i], 10, (size_t)10 * more[i]);
			roundtrip(1000, more[i] > 64 ? 64 : more[i], 500, 1000u * (more[i] > 64 ? 64 : more[i]));
		}
	}
	/* every K' row up to 256, padding (K < K') on every other; the sampled
	 * rows above ran check_gen up to RQ_GEN_MAX_KP */
	for (row = 0; row < RQ_TABLE2_ROWS && rq_table2[row].Kp <= 256; row++)
		if (!(row < 40 || row % 10 == 0) && !quick)
			check_gen(row & 1 ? rq_table2[row - 1].Kp + 1 : rq_table2[row].Kp, 8,
				RQT_SCALE(20));
	/* residual decoder vs plan decoder above RQ_GEN_MAX_KP (padding on odd K) */
	check_res(526, 16, 60, quick ? 6 : RQT_SCALE(40));
	check_res(1000, 32, 250, quick ? 6 : RQT_SCALE(40));
	check_res(1001, 8, 120, quick ? 6 : RQT_SCALE(30));
	check_res(3001, 4, 256, quick ? 4 : RQT_SCALE(16));
	check_res(1000, 1420, 110, quick ? 3 : RQT_SCALE(6));	/* striped, T = 1420 */
	check_ref_api(500, 1420);
	check_src_api(47, 1420);	/* generator path */
	check_src_api(500, 64);		/* plan path */
	printf("%s: residual decoder: %u decodes compared with the plan decoder (%u -EDOM in both)\n",
		rq_isa_name(), res_decodes, res_edom);
	printf("%s: generator path: %u K' rows vs the plan path, %u decodes compared "
		"(%u -EDOM in both)\n", rq_isa_name(), gen_rows, gen_decodes, gen_edom);
	printf("%s: %u K' rows round-tripped, %u extra symbols needed in total, %u failures\n",
		rq_isa_name(), tested, extra, test_failures);
}

/*
 * The tier in use gets the whole suite, every other tier this CPU runs the
 * quick one (plans cached under the first tier are reused by the others).
 */
int
main(int argc, char **argv)
{
	int quick = argc > 1 && strcmp(argv[1], "--quick") == 0, best, isa;

	REQUIRE(rq_isa_init() == 0);
	best = (int)rq_isa_current();
	run_suite(quick);
	for (isa = 0; isa < RQ_ISA_COUNT; isa++) {
		if (isa == best || rq_isa_set(isa) != 0)
			continue;
		run_suite(1);
	}
	REQUIRE(rq_isa_set(best) == 0);
	return test_report("rq_codec");
}
