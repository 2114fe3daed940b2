/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Decoding failure statistics against RFC 6330's promise (§5.4.1 / Annex):
 * with K' received symbols <= 1/100, K'+1 <= 1/10^4, K'+2 <= 1/10^6.
 * One decoder per K is reused (reset) for every trial, each with a random
 * set of distinct ESIs (source and repair mixed, random order).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rq_test.h"

size_t rq_dec_ws_cap(const struct rq_dec *dec);
int rq_dec_set_res(struct rq_dec *dec, int on);

static struct test_rng rng = { 0xfa11fa11beefull };

/*
 * Returns the number of trials that needed more than K+extra symbols. lost:
 * 0 draws the K+extra symbols from all of the pool (most source symbols
 * lost); else exactly `lost` source symbols are lost and the rest are
 * repair symbols in random order. res: the decoder's residual path on/off.
 */
static uint32_t
trials_x(uint32_t K, uint16_t T, uint32_t extra, uint32_t n, uint32_t lost, int res)
{
	uint32_t pool = 3 * K + 8, i, t, fails = 0, *esi = malloc(pool * sizeof(*esi));
	uint8_t *sym = malloc((size_t)pool * T), *src = malloc((size_t)K * T);
	uint8_t *out = malloc((size_t)K * T);
	struct rq_enc *enc = rq_enc_create(K, T);
	struct rq_dec *dec = rq_dec_create(K, T, pool);

	size_t ws0;

	CHECKF(esi && sym && src && out && enc && dec, "alloc");
	rq_dec_set_res(dec, res);
	ws0 = rq_dec_ws_cap(dec);
	rqt_fill(src, (size_t)K * T, &rng);
	rq_enc_block(enc, src, (size_t)K * T);
	for (i = 0; i < pool; i++)
		rq_enc_symbol(enc, i, sym + (size_t)i * T);
	for (t = 0; t < n; t++) {
		uint32_t have, e;
		int rc;

		for (i = 0; i < pool; i++)
			esi[i] = i;
		rqt_shuffle(esi, pool, &rng);
		if (lost) {	/* K - lost source symbols first, then repair only */
			for (i = 0; i < pool; i++)
				esi[i] = i;
			rqt_shuffle(esi, K, &rng);
			memmove(esi + K - lost, esi + K, (pool - K) * sizeof(*esi));
			rqt_shuffle(esi + K - lost, pool - K, &rng);
		}
		rq_dec_reset(dec);
		for (have = 0; have < K + extra && have < pool - lost; have++)
			rq_dec_add(dec, esi[have], sym + (size_t)esi[have] * T);
		rc = rq_dec_decode(dec, out, (size_t)K * T);
		if (rc == -EDOM) {
			fails++;
			/* more symbols must eventually decode */
			while (rc == -EDOM && have < pool - lost) {
				e = esi[have++];
				rq_dec_add(dec, e, sym + (size_t)e * T);
				rc = rq_dec_decode(dec, out, (size_t)K * T);
			}
		}
		CHECKF(rc == 0, "K=%u trial %u rc=%d", K, t, rc);
		CHECKF(rc != 0 || memcmp(out, src, (size_t)K * T) == 0, "K=%u trial %u wrong data", K, t);
	}
	/* the plan workspace sized at creation was enough: no allocation */
	CHECKF(rq_dec_ws_cap(dec) == ws0, "K=%u decoder workspace grew %zu -> %zu", K, ws0,
		rq_dec_ws_cap(dec));
	free(esi);
	free(sym);
	free(src);
	free(out);
	rq_enc_free(enc);
	rq_dec_free(dec);
	return fails;
}

static uint32_t
trials(uint32_t K, uint16_t T, uint32_t extra, uint32_t n)
{
	return trials_x(K, T, extra, n, 0, 1);
}

int
main(void)
{
	uint32_t n = RQT_SCALE(10000), f0, f1, f2;

	f2 = trials(47, 8, 2, n);
	f1 = trials(47, 8, 1, n);
	f0 = trials(47, 8, 0, n);
	printf("K=47, %u trials each: failures with K+2: %u, K+1: %u, K: %u\n", n, f2, f1, f0);
	/* K+2: bound 1e-6 -> expect none; K+1: 1e-4 -> a handful at most; K: 1e-2 */
	CHECKF(f2 == 0, "K+2 failures %u", f2);
	CHECKF(f1 <= 1 + n / 2000, "K+1 failures %u of %u", f1, n);
	CHECKF(f0 <= n / 100 + n / 200 + 3, "K failures %u of %u (bound 1%% + margin)", f0, n);
	/* a larger block, fewer trials */
	f2 = trials(1000, 4, 2, RQT_SCALE(200));
	f0 = trials(1000, 4, 0, RQT_SCALE(200));
	printf("K=1000, %u trials each: failures with K+2: %u, K: %u\n", RQT_SCALE(200), f2, f0);
	CHECKF(f2 == 0, "K=1000 K+2 failures %u", f2);
	CHECKF(f0 <= 2 + RQT_SCALE(200) / 100 * 2, "K=1000 K failures %u", f0);
	/*
	 * 10 % loss made up by repair symbols: the residual decoder (encoding
	 * plan replay + dense system on the lost columns) and the plan decoder
	 * see the same symbol sets (same seed) and must fail on the same ones.
	 */
	{
		struct test_rng s0 = rng;
		uint32_t fr, fp, nt = RQT_SCALE(300);

		fr = trials_x(1000, 4, 0, nt, 100, 1);
		rng = s0;
		fp = trials_x(1000, 4, 0, nt, 100, 0);
		printf("K=1000, 100 lost, %u trials at K: failures residual %u, plan %u\n", nt, fr,
			fp);
		CHECKF(fr == fp, "K=1000 residual failures %u != plan failures %u", fr, fp);
		CHECKF(fr <= 3 + nt / 50, "K=1000 residual failures %u of %u", fr, nt);
	}
	return test_report("rq_stats");
}
