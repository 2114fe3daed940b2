/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Zero-copy API (rq_enc_block_ref, rq_dec_add_ref) against the copying one
 * on every decoder path: generator matrix (K' <= 512), residual (few lost
 * above it) and plan (many lost). Same symbols, same return codes, same
 * data; in-place decoding leaves the received symbols where they are and
 * writes only the lost ones; the caller's buffers are never written; a reset
 * (or a copying load) after a zero-copy block no longer reads the caller's
 * memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rq_test.h"

static struct test_rng rng = { 0x7ef0c0deull };
static uint32_t decodes, edoms;

static void
check_enc(uint32_t K, uint16_t T)
{
	struct rq_enc *ec = rq_enc_create(K, T), *er = rq_enc_create(K, T);
	size_t blk = (size_t)K * T;
	uint8_t *src = malloc(blk), *keep = malloc(blk), *src2 = malloc(blk);
	uint8_t *a = malloc(T), *b = malloc(T);
	uint32_t i, esi;

	CHECKF(ec && er && src && keep && src2 && a && b, "alloc");
	rqt_fill(src, blk, &rng);
	rqt_fill(src2, blk, &rng);
	memcpy(keep, src, blk);
	CHECKF(rq_enc_block(ec, src, blk) == 0 && rq_enc_block_ref(er, src, blk) == 0, "load");
	for (i = 0; i < K + 60; i++) {
		esi = i < K + 40 ? i : (uint32_t)(test_rng_next(&rng) % (RQ_MAX_ESI + 1));
		CHECKF(rq_enc_symbol(ec, esi, a) == 0 && rq_enc_symbol(er, esi, b) == 0, "sym");
		CHECKF(memcmp(a, b, T) == 0, "K=%u T=%u: ref and copy differ at ESI %u", K, T, esi);
	}
	CHECKF(memcmp(src, keep, blk) == 0, "K=%u: the encoder wrote into the caller's block", K);
	/* a copying load after a zero-copy one must not read src any more */
	CHECKF(rq_enc_block(er, src2, blk) == 0 && rq_enc_block(ec, src2, blk) == 0, "load 2");
	memset(src, 0x5a, blk);
	memset(src2, 0xa5, blk);
	for (i = 0; i < K + 20; i++) {
		CHECKF(rq_enc_symbol(ec, i, a) == 0 && rq_enc_symbol(er, i, b) == 0, "sym 2");
		CHECKF(memcmp(a, b, T) == 0, "K=%u: copy after ref differs at ESI %u", K, i);
	}
	/* a short block through the zero-copy call is copied */
	rqt_fill(src, blk, &rng);
	CHECKF(rq_enc_block_ref(er, src, blk - 1) == 0 && rq_enc_block(ec, src, blk - 1) == 0,
		"short");
	memset(src, 0, blk);
	for (i = K - 2; i < K + 5; i++) {
		CHECKF(rq_enc_symbol(ec, i, a) == 0 && rq_enc_symbol(er, i, b) == 0, "sym 3");
		CHECKF(memcmp(a, b, T) == 0, "K=%u: short ref block differs at ESI %u", K, i);
	}
	CHECKF(rq_enc_block_ref(NULL, src, blk) == -EINVAL, "NULL encoder");
	CHECKF(rq_enc_block_ref(er, src, blk + 1) == -EMSGSIZE, "oversized block");
	free(src);
	free(keep);
	free(src2);
	free(a);
	free(b);
	rq_enc_free(ec);
	rq_enc_free(er);
}

/*
 * One decoder of each API, ntrials blocks with `lost` source symbols lost
 * (0: random 1..K/2) and K + extra symbols in all.
 */
static void
check_dec(uint32_t K, uint16_t T, uint32_t lost, unsigned int ntrials)
{
	uint32_t nrep = K / 2 + 8, i, t;
	size_t blk = (size_t)K * T;
	struct rq_enc *enc = rq_enc_create(K, T);
	struct rq_dec *dc = rq_dec_create(K, T, K + nrep), *dr = rq_dec_create(K, T, K + nrep);
	uint8_t *src = malloc(blk), *rep = malloc((size_t)nrep * T), *rkeep = malloc((size_t)nrep * T);
	uint8_t *place = malloc(blk), *oc = malloc(blk), *tmp = malloc(T);
	uint32_t *perm = malloc(K * sizeof(*perm));

	CHECKF(enc && dc && dr && src && rep && rkeep && place && oc && tmp && perm, "alloc");
	for (t = 0; t < ntrials; t++) {
		uint32_t e = lost ? lost : 1 + (uint32_t)(test_rng_next(&rng) % (K / 2));
		uint32_t extra = t % 3, nr = e + extra;
		int rc, rr;

		rqt_fill(src, blk, &rng);
		CHECKF(rq_enc_block(enc, src, blk) == 0, "enc");
		for (i = 0; i < nrep; i++)
			CHECKF(rq_enc_symbol(enc, K + i, rep + (size_t)i * T) == 0, "rep");
		memcpy(rkeep, rep, (size_t)nrep * T);
		for (i = 0; i < K; i++)
			perm[i] = i;
		rqt_shuffle(perm, K, &rng);
		/* in place: received source symbols at their place, lost ones spoiled */
		memcpy(place, src, blk);
		for (i = 0; i < e; i++)
			memset(place + (size_t)perm[i] * T, 0xee, T);
		rq_dec_reset(dc);
		rq_dec_reset(dr);
		for (i = e; i < K; i++) {
			CHECKF(rq_dec_add(dc, perm[i], src + (size_t)perm[i] * T) == 1, "add");
			/* every 7th through the copying call: both kinds in one block */
			CHECKF((i % 7 ? rq_dec_add_ref(dr, perm[i], place + (size_t)perm[i] * T) :
				rq_dec_add(dr, perm[i], place + (size_t)perm[i] * T)) == 1, "add ref");
		}
		CHECKF(rq_dec_add_ref(dr, perm[K - 1], place) == 0, "duplicate ref");
		for (i = 0; i < nr; i++) {
			CHECKF(rq_dec_add(dc, K + i, rep + (size_t)i * T) == 1, "add rep");
			CHECKF(rq_dec_add_ref(dr, K + i, rep + (size_t)i * T) == 1, "add rep ref");
		}
		memset(oc, 0x33, blk);
		rc = rq_dec_decode(dc, oc, blk);
		rr = rq_dec_decode(dr, place, blk);
		CHECKF(rc == rr, "K=%u e=%u trial %u: copy rc %d, ref rc %d", K, e, t, rc, rr);
		decodes++;
		edoms += rc == -EDOM;
		CHECKF(memcmp(rep, rkeep, (size_t)nrep * T) == 0,
			"K=%u: the decoder wrote into a referenced repair symbol", K);
		if (rc == 0) {
			CHECKF(memcmp(oc, src, blk) == 0, "K=%u trial %u: copy data", K, t);
			CHECKF(memcmp(place, src, blk) == 0, "K=%u trial %u: in-place data", K, t);
		} else {
			/* a failed decode writes nothing: the spoiled symbols stay */
			for (i = e; i < K; i++)
				CHECKF(memcmp(place + (size_t)perm[i] * T, src + (size_t)perm[i] * T,
					T) == 0, "K=%u: a failed decode changed a received symbol", K);
		}
	}
	/* after a reset, copies again: the old references are not read */
	rq_dec_reset(dr);
	for (i = 1; i < K; i++) {
		memcpy(tmp, src + (size_t)i * T, T);
		CHECKF(rq_dec_add(dr, i, tmp) == 1, "add after reset");
		memset(tmp, 0, T);
	}
	memcpy(tmp, rkeep, T);
	CHECKF(rq_dec_add(dr, K, tmp) == 1, "rep after reset");
	memset(tmp, 0, T);
	memset(place, 0x77, blk);
	memset(rep, 0x77, (size_t)nrep * T);
	{
		int rc = rq_dec_decode(dr, oc, blk);

		CHECKF(rc == 0 || rc == -EDOM, "decode after reset: %d", rc);
		if (rc == 0)
			CHECKF(memcmp(oc, src, blk) == 0, "K=%u: decode after reset", K);
	}
	CHECKF(rq_dec_add_ref(dr, 0, NULL) == -EINVAL, "NULL symbol");
	CHECKF(rq_dec_add_ref(NULL, 0, tmp) == -EINVAL, "NULL decoder");
	CHECKF(rq_dec_add_ref(dr, RQ_MAX_ESI + 1, tmp) == -ERANGE, "ESI range");
	free(src);
	free(rep);
	free(rkeep);
	free(place);
	free(oc);
	free(tmp);
	free(perm);
	rq_enc_free(enc);
	rq_dec_free(dc);
	rq_dec_free(dr);
}

int
main(void)
{
	check_enc(10, 16);
	check_enc(47, 1420);	/* generator path */
	check_enc(300, 64);	/* plan path */
	check_enc(1001, 32);	/* padding, striped plan */
	check_dec(10, 16, 0, RQT_SCALE(60));
	check_dec(47, 1420, 0, RQT_SCALE(30));	/* generator decoder */
	check_dec(700, 64, 30, RQT_SCALE(12));	/* residual decoder */
	check_dec(1001, 32, 0, RQT_SCALE(8));	/* plan decoder (many lost), padding */
	printf("zero-copy API: %u decodes compared with the copying API (%u -EDOM in both), "
		"%d failures\n", decodes, edoms, test_failures);
	return test_report("rq_ref");
}
