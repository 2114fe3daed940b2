/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Optimized symbol kernels against their plain bytewise references: the
 * multi-source XOR (every length 1..300 and some large ones, unaligned
 * buffers, 0..40 sources), ISA-L's ec_encode_data against rq_dot_ref, and
 * the structured HDPC product (AVX-512 and 64-bit-word paths) against the
 * dense G_HDPC matrix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_sym.h"
#include "rq_test.h"

static uint64_t seed = 42;

static void
test_xor(void)
{
	enum { NS = 40, MAXL = 4200 };
	uint8_t *buf = malloc((NS + 2) * (MAXL + 64)), *tab[NS], *d1, *d2;
	uint32_t idx[NS], len, n, i;

	rqt_fill(buf, (NS + 2) * (MAXL + 64), &seed);
	for (i = 0; i < NS; i++)
		tab[i] = buf + i * (MAXL + 64) + (i % 7);	/* misaligned */
	d1 = buf + NS * (MAXL + 64) + 3;
	d2 = buf + (NS + 1) * (MAXL + 64) + 5;
	for (len = 1; len <= MAXL; len += (len < 300 ? 1 : 397)) {
		for (n = 0; n <= NS; n += (n < 8 ? 1 : 9)) {
			for (i = 0; i < n; i++)
				idx[i] = (uint32_t)(rqt_rand(&seed) % NS);
			rq_xor_idx(d1, tab, idx, n, len);
			rq_xor_idx_ref(d2, tab, idx, n, len);
			CHECK(memcmp(d1, d2, len) == 0, "xor len=%u n=%u", len, n);
		}
	}
	free(buf);
}

static void
test_dot(void)
{
	static const int lens[] = { 4, 16, 31, 32, 33, 64, 100, 1420, 1500 };
	uint8_t coef[12 * 20], *tbl = malloc(32 * 12 * 20), *in[20], *o1[12], *o2[12];
	unsigned int li, i, k, rows;

	for (i = 0; i < 20; i++)
		in[i] = malloc(1500);
	for (i = 0; i < 12; i++) {
		o1[i] = malloc(1500);
		o2[i] = malloc(1500);
	}
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
		for (k = 1; k <= 20; k += 6)
			for (rows = 1; rows <= 12; rows += 5) {
				for (i = 0; i < 20; i++)
					rqt_fill(in[i], 1500, &seed);
				rqt_fill(coef, sizeof(coef), &seed);
				ec_init_tables((int)k, (int)rows, coef, tbl);
				ec_encode_data(lens[li], (int)k, (int)rows, tbl, in, o1);
				rq_dot_ref((size_t)lens[li], k, rows, coef, in, o2);
				for (i = 0; i < rows; i++)
					CHECK(memcmp(o1[i], o2[i], lens[li]) == 0, "dot len=%d k=%u rows=%u",
						lens[li], k, rows);
			}
	for (i = 0; i < 20; i++)
		free(in[i]);
	for (i = 0; i < 12; i++) {
		free(o1[i]);
		free(o2[i]);
	}
	free(tbl);
}

static void
test_hdpc(uint32_t K, size_t T)
{
	const struct rq_kp *kp = rq_kp_get(K);
	uint32_t KS = kp->p.Kp + kp->p.S, H = kp->p.H, m, h;
	uint8_t *x = malloc((size_t)(KS + 1) * T), **tab = malloc((KS + 1) * sizeof(*tab));
	uint8_t *o1 = malloc(H * T), *o2 = malloc(H * T), *o3 = malloc(H * T);
	uint8_t *out1[16], *out2[16], *out3[16];
	uint32_t *xin = malloc(KS * sizeof(*xin));

	rqt_fill(x, (size_t)KS * T, &seed);
	memset(x + (size_t)KS * T, 0, T);
	for (m = 0; m <= KS; m++)
		tab[m] = x + (size_t)m * T;
	for (m = 0; m < KS; m++)	/* some columns absent (zero) */
		xin[m] = (rqt_rand(&seed) % 5 == 0) ? KS : m;
	for (h = 0; h < H; h++) {
		out1[h] = o1 + h * T;
		out2[h] = o2 + h * T;
		out3[h] = o3 + h * T;
	}
	rq_hdpc_apply(tab, xin, KS, kp->hdpc_mt, KS, H, out1, T);
	rq_hdpc_apply_generic(tab, xin, KS, kp->hdpc_mt, KS, H, out2, T);
	{
		uint8_t **in = malloc(KS * sizeof(*in));

		for (m = 0; m < KS; m++)
			in[m] = tab[xin[m]];
		rq_dot_ref(T, KS, H, kp->hdpc, in, out3);
		free(in);
	}
	CHECK(memcmp(o1, o3, H * T) == 0, "hdpc (dispatched) K=%u T=%zu", K, T);
	CHECK(memcmp(o2, o3, H * T) == 0, "hdpc (generic) K=%u T=%zu", K, T);
	free(x);
	free(tab);
	free(o1);
	free(o2);
	free(o3);
	free(xin);
}

int
main(void)
{
	test_xor();
	test_dot();
	test_hdpc(10, 1);
	test_hdpc(47, 1420);
	test_hdpc(47, 63);
	test_hdpc(1000, 100);
	test_hdpc(RQ_MAX_K, 9);
	printf("kernels: %d failures\n", rqt_failures);
	return rqt_failures ? 1 : 0;
}
