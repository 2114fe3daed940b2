/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The library's compiled-in RFC 6330 tables (V0-V3, Table 2) against the
 * data files in ../shared/rfc6330 (skipped, exit 77, when absent), plus
 * RFC constants that do not come from the files: the GF(256) field, K'
 * selection, P1 primality, and the derived parameters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rq_priv.h"
#include "rq_test.h"

static int
is_prime(uint32_t n)
{
	uint32_t d;

	for (d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return n >= 2;
}

int
main(int argc, char **argv)
{
	const uint32_t *v[4] = { rq_v0, rq_v1, rq_v2, rq_v3 };
	const char *dir = argc > 1 ? argv[1] : "../shared/rfc6330";
	char path[4096], line[256];
	unsigned int i, j;
	FILE *f;

	snprintf(path, sizeof(path), "%s/systematic_indices.tsv", dir);
	f = fopen(path, "r");
	if (f == NULL) {
		printf("SKIP: %s not found\n", path);
		return 77;
	}
	CHECKF(fgets(line, sizeof(line), f) && strncmp(line, "K_prime\tJ\tS\tH\tW", 15) == 0,
		"header");
	for (i = 0; i < RQ_TABLE2_ROWS; i++) {
		unsigned int kp, jj, s, h, w;

		if (fscanf(f, "%u\t%u\t%u\t%u\t%u", &kp, &jj, &s, &h, &w) != 5) {
			CHECKF(0, "row %u unreadable", i);
			break;
		}
		CHECKF(rq_table2[i].Kp == kp && rq_table2[i].J == jj && rq_table2[i].S == s &&
			rq_table2[i].H == h && rq_table2[i].W == w, "Table 2 row %u", i);
	}
	CHECKF(fscanf(f, "%u", &j) != 1, "more than %d rows in the file", RQ_TABLE2_ROWS);
	fclose(f);
	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/V%u.txt", dir, i);
		f = fopen(path, "r");
		CHECKF(f != NULL, "%s", path);
		if (f == NULL)
			continue;
		for (j = 0; j < 256; j++) {
			unsigned long x;

			CHECKF(fscanf(f, "%lu", &x) == 1 && x == v[i][j], "V%u[%u]", i, j);
		}
		fclose(f);
	}
	/* GF(256): exp/log consistent, polynomial 0x11d, alpha = 2 generator */
	for (i = 0; i < 255; i++) {
		unsigned int nx = rq_gf_exp[i] << 1;

		if (nx & 0x100)
			nx ^= 0x11d;
		CHECKF(rq_gf_exp[i + 1] == nx, "exp[%u]", i + 1);
		CHECKF(rq_gf_log[rq_gf_exp[i]] == i, "log(exp[%u])", i);
	}
	/* K' selection, derived parameters */
	for (i = 1; i <= RQ_MAX_K; i += (i < 2000 ? 1 : 97)) {
		struct rq_params p;

		CHECKF(rq_params_get(i, &p) == 0, "params %u", i);
		CHECKF(p.Kp >= i && p.L == p.Kp + p.S + p.H && p.P == p.L - p.W &&
			p.P1 >= p.P && is_prime(p.P1) && p.B == p.W - p.S, "params K=%u", i);
		for (j = p.P; j < p.P1; j++)
			CHECKF(!is_prime(j), "P1 not the smallest prime >= P (K=%u)", i);
	}
	{
		struct rq_params p;

		CHECKF(rq_params_get(0, &p) < 0 && rq_params_get(RQ_MAX_K + 1, &p) < 0, "bad K");
		rq_params_get(RQ_MAX_K, &p);
		CHECKF(p.Kp == 56403 && p.S == 907 && p.H == 16 && p.W == 56951, "last row");
		rq_params_get(47, &p);
		CHECKF(p.Kp == 48 && p.J == 589 && p.L == 71 && p.P1 == 11, "K=47");
	}
	printf("tables: %s\n", test_failures ? "MISMATCH" : "match");
	return test_report("rq_tables");
}
