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

/*
 * rq_gf_dot (GFNI kernel when the CPU has it, and the ISA-L fallback)
 * against rq_dot_ref: every row count 1..17 (the kernel's 8/6/5/4/3/2/1
 * groups), lengths with masked tails, unaligned buffers, all coefficients.
 */
static void
test_gf_dot(void)
{
	static const size_t lens[] = { 1, 5, 63, 64, 65, 200, 1420 };
	uint8_t coef[17 * 40], *tbl = aligned_alloc(64, 32 * 17 * 40), *in[40], *o1[17], *o2[17];
	unsigned int li, i, k, rows, pass, nc = 0;
	int had = rq_gf_dot_set_gfni(1);

	for (i = 0; i < 40; i++)
		in[i] = (uint8_t *)malloc(1421) + (i & 1);
	for (i = 0; i < 17; i++) {
		o1[i] = (uint8_t *)malloc(1422) + (i % 3);
		o2[i] = malloc(1420);
	}
	for (pass = 0; pass < 2; pass++) {
		rq_gf_dot_set_gfni(pass == 0 ? had : 0);
		for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
			for (k = 1; k <= 40; k += 13)
				for (rows = 1; rows <= 17; rows++) {
					for (i = 0; i < k; i++)
						rqt_fill(in[i], lens[li], &seed);
					for (i = 0; i < k * rows; i++)
						coef[i] = (uint8_t)(nc++);
					rq_gf_dot_tables(k, rows, coef, tbl);
					rq_gf_dot(lens[li], k, rows, tbl, in, o1);
					rq_dot_ref(lens[li], k, rows, coef, in, o2);
					for (i = 0; i < rows; i++)
						CHECK(memcmp(o1[i], o2[i], lens[li]) == 0,
							"gf_dot gfni=%d len=%zu k=%u rows=%u", pass == 0 && had,
							lens[li], k, rows);
				}
	}
	rq_gf_dot_set_gfni(had);
	for (i = 0; i < 40; i++)
		free(in[i] - (i & 1));
	for (i = 0; i < 17; i++) {
		free(o1[i] - (i % 3));
		free(o2[i]);
	}
	free(tbl);
	printf("gf_dot: GFNI kernel %s\n", had ? "tested" : "not available, ISA-L only");
}

/* GF(256) row kernel and the ISA-L table copy against their references. */
static void
test_row_mad(void)
{
	enum { MAXL = 700 };
	uint8_t *buf = malloc(4 * (MAXL + 64)), *src, *d1, *d2, a[12 * 7];
	uint8_t *t1 = malloc(32 * sizeof(a)), *t2 = malloc(32 * sizeof(a));
	unsigned int len, c, i;

	rqt_fill(buf, 4 * (MAXL + 64), &seed);
	src = buf + 1;
	d1 = buf + (MAXL + 64) + 3;
	d2 = buf + 2 * (MAXL + 64) + 7;
	for (len = 0; len <= MAXL; len += (len < 200 ? 1 : 53))
		for (c = 0; c < 256; c += (len < 70 ? 1 : 17)) {
			rqt_fill(d1, len, &seed);
			memcpy(d2, d1, len);
			rq_gf_row_mad(d1, src, (uint8_t)c, len);
			rq_gf_row_mad_ref(d2, src, (uint8_t)c, len);
			CHECK(memcmp(d1, d2, len) == 0, "row_mad len=%u c=%u", len, c);
		}
	for (c = 0; c < 256; c++)
		for (i = 0; i < 256; i++)
			CHECK((rq_gf_nib[c][i & 15] ^ rq_gf_nib[c][16 + (i >> 4)]) ==
				rq_gf_mul((uint8_t)c, (uint8_t)i), "nib c=%u i=%u", c, i);
	rqt_fill(a, sizeof(a), &seed);
	a[0] = 0;
	a[1] = 1;
	ec_init_tables(7, 12, a, t1);
	rq_gf_init_tables(7, 12, a, t2);
	CHECK(memcmp(t1, t2, 32 * sizeof(a)) == 0, "rq_gf_init_tables != ec_init_tables");
	free(buf);
	free(t1);
	free(t2);
}

/* The offset forms (used by the striped plan replay) on sub-ranges. */
static void
test_at(void)
{
	enum { NS = 9, T = 1500 };
	uint8_t *buf = malloc(NS * T), *tab[NS], d1[T], d2[T];
	uint32_t idx[NS], n, i;
	size_t off, len;

	rqt_fill(buf, NS * T, &seed);
	for (i = 0; i < NS; i++) {
		tab[i] = buf + i * T;
		idx[i] = (i * 5) % NS;
	}
	for (n = 0; n <= NS; n++)
		for (off = 0; off < T; off += 311)
			for (len = 1; off + len <= T; len += 257) {
				rq_xor_idx(d1, tab, idx, n, T);
				rq_xor_idx_at(d2, tab, idx, n, off, len);
				CHECK(memcmp(d1 + off, d2, len) == 0, "xor_at n=%u off=%zu len=%zu",
					n, off, len);
			}
	free(buf);
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
	/* in stripes of 64 and of 100 bytes */
	memset(o1, 0, H * T);
	for (m = 0; m < T; m += 64)
		rq_hdpc_apply_at(tab, xin, KS, kp->hdpc_mt, KS, H, out1, m, T - m < 64 ? T - m : 64);
	CHECK(memcmp(o1, o3, H * T) == 0, "hdpc_at/64 K=%u T=%zu", K, T);
	memset(o1, 0, H * T);
	for (m = 0; m < T; m += 100)
		rq_hdpc_apply_at(tab, xin, KS, kp->hdpc_mt, KS, H, out1, m,
			T - m < 100 ? T - m : 100);
	CHECK(memcmp(o1, o3, H * T) == 0, "hdpc_at/100 K=%u T=%zu", K, T);
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
	test_gf_dot();
	test_row_mad();
	test_at();
	test_hdpc(10, 1);
	test_hdpc(47, 1420);
	test_hdpc(47, 63);
	test_hdpc(1000, 100);
	test_hdpc(RQ_MAX_K, 9);
	printf("kernels: %d failures\n", rqt_failures);
	return rqt_failures ? 1 : 0;
}
