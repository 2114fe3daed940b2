/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Every kernel tier this CPU runs (rq_isa_set) against the plain bytewise
 * references: the multi-source XOR (every length 1..300 and some large
 * ones, unaligned buffers, 0..40 sources, offsets), the GF(256) row kernel,
 * the dense products (nibble and, with GFNI, affine tables; 1..17 rows,
 * lengths around every vector size), and the structured HDPC pass (in
 * stripes of several sizes) against the dense G_HDPC matrix. Tiers the CPU
 * lacks are reported as not run. ISA-L's ec_encode_data (the AVX-512 tier's
 * products) is checked against the same reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_sym.h"
#include "rq_test.h"

static struct test_rng rng = { 42 };
static const char *tier;

static void
test_xor(void)
{
	enum { NS = 40, MAXL = 4200 };
	uint8_t *buf = malloc((NS + 2) * (MAXL + 64)), *tab[NS], *d1, *d2;
	uint32_t idx[NS], len, n, i;

	rqt_fill(buf, (NS + 2) * (MAXL + 64), &rng);
	for (i = 0; i < NS; i++)
		tab[i] = buf + i * (MAXL + 64) + (i % 7);	/* misaligned */
	d1 = buf + NS * (MAXL + 64) + 3;
	d2 = buf + (NS + 1) * (MAXL + 64) + 5;
	for (len = 1; len <= MAXL; len += (len < 300 ? 1 : 397)) {
		for (n = 0; n <= NS; n += (n < 8 ? 1 : 9)) {
			for (i = 0; i < n; i++)
				idx[i] = test_rng_below(&rng, NS);
			memset(d1, 0x5a, len + 1);
			rq_xor_idx(d1, tab, idx, n, len);
			rq_xor_idx_ref(d2, tab, idx, n, len);
			CHECKF(memcmp(d1, d2, len) == 0, "%s: xor len=%u n=%u", tier, len, n);
			CHECKF(d1[len] == 0x5a, "%s: xor len=%u n=%u wrote past the end", tier, len, n);
		}
	}
	free(buf);
}

/* ISA-L's ec_encode_data (tier-independent) against rq_dot_ref. */
static void
test_isal_dot(void)
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
					rqt_fill(in[i], 1500, &rng);
				rqt_fill(coef, sizeof(coef), &rng);
				ec_init_tables((int)k, (int)rows, coef, tbl);
				ec_encode_data(lens[li], (int)k, (int)rows, tbl, in, o1);
				rq_dot_ref((size_t)lens[li], k, rows, coef, in, o2);
				for (i = 0; i < rows; i++)
					CHECKF(memcmp(o1[i], o2[i], lens[li]) == 0,
						"ISA-L dot len=%d k=%u rows=%u", lens[li], k, rows);
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
 * rq_gf_dot (the tier's table format) and rq_gf_dot_any (both formats, as
 * plans keep them) against rq_dot_ref: every row count 1..17, lengths with
 * partial vectors of every tier, unaligned buffers, all coefficients
 * (zero included), outputs not written past len.
 */
static void
test_gf_dot(void)
{
	static const size_t lens[] = { 1, 5, 15, 16, 17, 31, 32, 33, 63, 64, 65, 96, 97, 200, 1420 };
	uint8_t coef[17 * 40], *tbl = aligned_alloc(64, 32 * 17 * 40), *in[40], *o1[17], *o2[17];
	uint64_t *aff = rq_gf_have_aff() ? aligned_alloc(64, 8 * 17 * 40) : NULL;
	unsigned int li, i, k, rows, nc = 0, any;

	for (i = 0; i < 40; i++)
		in[i] = (uint8_t *)malloc(1421) + (i & 1);
	for (i = 0; i < 17; i++) {
		o1[i] = (uint8_t *)malloc(1423) + (i % 3);
		o2[i] = malloc(1420);
	}
	for (li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
		for (k = 1; k <= 40; k += 13)
			for (rows = 1; rows <= 17; rows++)
				for (any = 0; any < 2; any++) {
					for (i = 0; i < k; i++)
						rqt_fill(in[i], lens[li], &rng);
					for (i = 0; i < k * rows; i++)
						coef[i] = (uint8_t)(nc++);
					for (i = 0; i < rows; i++)
						o1[i][lens[li]] = 0x77;
					if (any) {
						rq_gf_dot_tables_any(k, rows, coef, tbl, aff);
						rq_gf_dot_any(lens[li], k, rows, tbl, aff, in, o1);
					} else {
						rq_gf_dot_tables(k, rows, coef, tbl);
						rq_gf_dot(lens[li], k, rows, tbl, in, o1);
					}
					rq_dot_ref(lens[li], k, rows, coef, in, o2);
					for (i = 0; i < rows; i++) {
						CHECKF(memcmp(o1[i], o2[i], lens[li]) == 0,
							"%s: gf_dot%s len=%zu k=%u rows=%u", tier,
							any ? "_any" : "", lens[li], k, rows);
						CHECKF(o1[i][lens[li]] == 0x77,
							"%s: gf_dot len=%zu wrote past the end", tier, lens[li]);
					}
				}
	for (i = 0; i < 40; i++)
		free(in[i] - (i & 1));
	for (i = 0; i < 17; i++) {
		free(o1[i] - (i % 3));
		free(o2[i]);
	}
	free(tbl);
	free(aff);
}

/* GF(256) row kernel and the nibble / ISA-L tables against their references. */
static void
test_row_mad(void)
{
	enum { MAXL = 700 };
	uint8_t *buf = malloc(4 * (MAXL + 64)), *src, *d1, *d2, a[12 * 7];
	uint8_t *t1 = malloc(32 * sizeof(a)), *t2 = malloc(32 * sizeof(a));
	unsigned int len, c, i;

	rqt_fill(buf, 4 * (MAXL + 64), &rng);
	src = buf + 1;
	d1 = buf + (MAXL + 64) + 3;
	d2 = buf + 2 * (MAXL + 64) + 7;
	for (len = 0; len <= MAXL; len += (len < 200 ? 1 : 53))
		for (c = 0; c < 256; c += (len < 70 ? 1 : 17)) {
			rqt_fill(d1, len + 1, &rng);
			memcpy(d2, d1, len + 1);
			rq_gf_row_mad(d1, src, (uint8_t)c, len);
			rq_gf_row_mad_ref(d2, src, (uint8_t)c, len);
			CHECKF(memcmp(d1, d2, len + 1) == 0, "%s: row_mad len=%u c=%u", tier, len, c);
		}
	for (c = 0; c < 256; c++)
		for (i = 0; i < 256; i++)
			CHECKF(rq_gf_nib_mul((uint8_t)c, (uint8_t)i) == rq_gf_mul((uint8_t)c, (uint8_t)i),
				"nib c=%u i=%u", c, i);
	rqt_fill(a, sizeof(a), &rng);
	a[0] = 0;
	a[1] = 1;
	ec_init_tables(7, 12, a, t1);
	rq_gf_init_tables(7, 12, a, t2);
	CHECKF(memcmp(t1, t2, 32 * sizeof(a)) == 0, "rq_gf_init_tables != ec_init_tables");
	free(buf);
	free(t1);
	free(t2);
}

/* The offset form (used by the striped plan replay) on sub-ranges. */
static void
test_at(void)
{
	enum { NS = 9, T = 1500 };
	uint8_t *buf = malloc(NS * T), *tab[NS], d1[T], d2[T];
	uint32_t idx[NS], n, i;
	size_t off, len;

	rqt_fill(buf, NS * T, &rng);
	for (i = 0; i < NS; i++) {
		tab[i] = buf + i * T;
		idx[i] = (i * 5) % NS;
	}
	for (n = 0; n <= NS; n++)
		for (off = 0; off < T; off += 311)
			for (len = 1; off + len <= T; len += 257) {
				rq_xor_idx(d1, tab, idx, n, T);
				rq_xor_idx_at(d2, tab, idx, n, off, len);
				CHECKF(memcmp(d1 + off, d2, len) == 0, "%s: xor_at n=%u off=%zu len=%zu",
					tier, n, off, len);
			}
	free(buf);
}

/* The HDPC pass, whole and in stripes, against the dense G_HDPC product. */
static void
test_hdpc(uint32_t K, size_t T)
{
	static const size_t stripes[] = { 64, 100, 33, 396, 512 };
	const struct rq_kp *kp = rq_kp_get(K);
	uint32_t KS = kp->p.Kp + kp->p.S, H = kp->p.H, m, h, si;
	uint8_t *x = malloc((size_t)(KS + 1) * T), **tab = malloc((KS + 1) * sizeof(*tab));
	uint8_t *o1 = malloc(H * T + 1), *o3 = malloc(H * T);
	uint8_t *out1[16], *out3[16], **in = malloc(KS * sizeof(*in));
	uint32_t *xin = malloc(KS * sizeof(*xin));

	rqt_fill(x, (size_t)KS * T, &rng);
	memset(x + (size_t)KS * T, 0, T);
	for (m = 0; m <= KS; m++)
		tab[m] = x + (size_t)m * T;
	for (m = 0; m < KS; m++)	/* some columns absent (zero) */
		xin[m] = test_rng_below(&rng, 5) == 0 ? KS : m;
	for (h = 0; h < H; h++) {
		out1[h] = o1 + h * T;
		out3[h] = o3 + h * T;
	}
	for (m = 0; m < KS; m++)
		in[m] = tab[xin[m]];
	rq_dot_ref(T, KS, H, kp->hdpc, in, out3);
	o1[H * T] = 0x3c;
	rq_hdpc_apply(tab, xin, KS, kp->hdpc_mt, KS, H, out1, T);
	CHECKF(memcmp(o1, o3, H * T) == 0, "%s: hdpc K=%u T=%zu", tier, K, T);
	for (si = 0; si < sizeof(stripes) / sizeof(stripes[0]); si++) {
		size_t s = stripes[si];

		memset(o1, 0, H * T);
		for (m = 0; m < T; m += (uint32_t)s)
			rq_hdpc_apply_at(tab, xin, KS, kp->hdpc_mt, KS, H, out1, m,
				T - m < s ? T - m : s);
		CHECKF(memcmp(o1, o3, H * T) == 0, "%s: hdpc_at/%zu K=%u T=%zu", tier, s, K, T);
	}
	CHECKF(o1[H * T] == 0x3c, "%s: hdpc wrote past the end", tier);
	free(x);
	free(tab);
	free(o1);
	free(o3);
	free(in);
	free(xin);
}

int
main(void)
{
	char lacks[64];
	int isa, best, ran = 0;

	REQUIRE(rq_isa_init() == 0);
	best = (int)rq_isa_current();
	test_isal_dot();
	for (isa = 0; isa < RQ_ISA_COUNT; isa++) {
		tier = rq_isa_tier_name(isa);
		if (rq_isa_set(isa) != 0) {
			rq_isa_lacks(isa, lacks, sizeof(lacks));
			CHECKF(!rq_isa_supported(isa), "%s: refused but supported", tier);
			printf("tier %-12s not run: this CPU lacks %s\n", tier, lacks);
			continue;
		}
		CHECKF(strcmp(rq_isa_name(), tier) == 0, "rq_isa_name %s, set %s", rq_isa_name(), tier);
		test_xor();
		test_gf_dot();
		test_row_mad();
		test_at();
		test_hdpc(10, 1);
		test_hdpc(47, 1420);
		test_hdpc(47, 63);
		test_hdpc(1000, 100);
		test_hdpc(1000, 1420);
		test_hdpc(RQ_MAX_K, 9);
		printf("tier %-12s tested against the bytewise references\n", tier);
		ran++;
	}
	CHECKF(ran >= 1 && rq_isa_supported(RQ_ISA_GENERIC), "the generic tier always runs");
	CHECKF(rq_isa_set(RQ_ISA_COUNT) != 0 && rq_isa_set(-1) != 0, "out-of-range tiers refused");
	REQUIRE(rq_isa_set(best) == 0);
	printf("kernels: %d tiers tested, %u failures; default tier %s\n", ran, test_failures,
		rq_isa_name());
	return test_report("rq_kernels");
}
