/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Interoperability with liblcrq (librecast), an independent RFC 6330
 * implementation: byte-identical encoding symbols for the same source block
 * and ESIs, lcrq's symbols decode with ours, ours decode with lcrq.
 *
 * lcrq 0.0.1 works on whole objects (rq_init(F, T)); with F = K*T and a
 * multiple of its alignment (Al = 4) in T it makes one source block of K
 * symbols and no sub-blocks, which is what we compare. Its rq_decode()
 * takes the received symbols packed with their ESIs.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lcrq.h>

#include "rq.h"
#include "rq_bench.h"
#include "rq_test.h"

static struct test_rng rng = { 0x1c2d3e4f5a6b7c8dull };

static void
one(uint32_t K, uint16_t T, unsigned int nloss)
{
	uint64_t F = (uint64_t)K * T;
	rq_t *lq = rq_init(F, T);
	struct rq_enc *enc = rq_enc_create(K, T);
	struct rq_dec *dec = rq_dec_create(K, T, 0);
	uint8_t *src = malloc(F), *ours = malloc(T), *out = malloc(F), *packed, *lsym;
	uint32_t *esi, i, n = 0, *perm;
	unsigned int same = 0, checked = 0;
	int rc;

	CHECKF(lq && enc && dec && src && ours && out, "setup K=%u", K);
	if (!lq || !enc || !dec)
		return;
	CHECKF(rq_Z(lq) == 1 && rq_N(lq) == 1 && rq_K(lq) == K, "lcrq partition Z=%u N=%u K=%u",
		rq_Z(lq), rq_N(lq), rq_K(lq));
	rqt_fill(src, F, &rng);
	CHECKF(rq_encode(lq, src, F) == 0, "lcrq encode");
	CHECKF(rq_enc_block(enc, src, F) == 0, "our encode");
	lsym = malloc(T);
	packed = malloc((size_t)(K + 8) * T);
	esi = malloc((K + 8) * sizeof(*esi));
	perm = malloc(K * sizeof(*perm));
	/* byte-identical symbols: all source ESIs, the first repair ESIs, random ones */
	for (i = 0; i < K + 40; i++) {
		uint32_t e = i < K + 20 ? i : K + (uint32_t)(test_rng_next(&rng) % (RQ_ESI_MAX - K));
		rq_pid_t pid = rq_pidsetesi(0, e);
		uint8_t *p = rq_symbol(lq, &pid, lsym, 0);

		CHECKF(rq_enc_symbol(enc, e, ours) == 0, "our symbol");
		checked++;
		if (memcmp(p, ours, T) == 0)
			same++;
		else
			CHECKF(0, "K=%u T=%u ESI %u: symbols differ", K, T, e);
	}
	/* lose nloss source symbols; repair from lcrq decodes with ours */
	for (i = 0; i < K; i++)
		perm[i] = i;
	rqt_shuffle(perm, K, &rng);
	for (i = nloss; i < K; i++)
		esi[n++] = perm[i];
	for (i = 0; i < nloss + 2; i++)
		esi[n++] = K + 1000 + i;
	for (i = 0; i < n; i++) {
		rq_pid_t pid = rq_pidsetesi(0, esi[i]);
		uint8_t *p = rq_symbol(lq, &pid, lsym, 0);

		memcpy(packed + (size_t)i * T, p, T);
		CHECKF(rq_dec_add(dec, esi[i], p) == 1, "add");
	}
	rc = rq_dec_decode(dec, out, F);
	CHECKF(rc == 0 && memcmp(out, src, F) == 0, "lcrq -> ours K=%u rc=%d", K, rc);
	/* our symbols (same ESIs) decode with lcrq */
	for (i = 0; i < n; i++)
		rq_enc_symbol(enc, esi[i], packed + (size_t)i * T);
	memset(out, 0, F);
	rc = rq_decode(lq, out, packed, esi, n);
	CHECKF(rc == 0 && memcmp(out, src, F) == 0, "ours -> lcrq K=%u rc=%d", K, rc);
	printf("%s: K=%u T=%u: %u/%u symbols byte-identical; cross decode with %u lost source "
		"symbols %s\n", rq_isa_name(), K, T, same, checked, nloss,
		test_failures ? "FAILED" : "ok");
	free(src);
	free(ours);
	free(out);
	free(packed);
	free(lsym);
	free(esi);
	free(perm);
	rq_free(lq);
	rq_enc_free(enc);
	rq_dec_free(dec);
}

/* Every kernel tier this CPU runs; the others are reported as not run. */
int
main(void)
{
	char lacks[64];
	int isa, best;

	REQUIRE(rq_isa_init() == 0);
	best = (int)rq_isa_current();
	for (isa = 0; isa < RQ_ISA_COUNT; isa++) {
		if (rq_isa_set(isa) != 0) {
			rq_isa_lacks(isa, lacks, sizeof(lacks));
			printf("tier %s not run: this CPU lacks %s\n", rq_isa_tier_name(isa), lacks);
			continue;
		}
		one(10, 1420, 3);
		one(47, 1420, 5);
		one(100, 64, 10);
		one(101, 4, 10);
		one(1000, 16, 100);
		one(1000, 1420, 100);	/* striped plan replay, residual decoder */
		one(1000, 64, 300);	/* plan decoder */
	}
	REQUIRE(rq_isa_set(best) == 0);
	return test_report("rq_lcrq");
}
