/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Reference solver: the whole constraint matrix of RFC 6330 §5.3.3.4 as a
 * dense GF(256) matrix, plain Gaussian elimination, bytewise symbol
 * arithmetic. Cubic in L: for tests only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rq_priv.h"
#include "rq_sym.h"

static void
sym_mad(uint8_t *dst, const uint8_t *src, uint8_t c, size_t T)
{
	size_t i;

	for (i = 0; i < T; i++)
		dst[i] ^= rq_gf_mul(c, src[i]);
}

int
rq_ref_solve(uint32_t K, size_t T, const uint32_t *isi, const uint8_t *const *sym,
		uint32_t n, uint8_t *c)
{
	struct rq_params p;
	uint32_t L, M, KS, r, j, col, k, cols[RQ_MAX_LT_COLS], *off, *lc;
	uint8_t *A, *D, *g;
	int rc = -ENOMEM;

	if (rq_params_get(K, &p))
		return -EINVAL;
	L = p.L;
	KS = p.Kp + p.S;
	M = p.S + p.H + n;
	if (M < L)
		return -EAGAIN;
	A = calloc((size_t)M * L, 1);
	D = calloc((size_t)M * T, 1);
	g = malloc((size_t)p.H * KS);
	off = malloc((p.S + 1) * sizeof(*off));
	lc = malloc((3 * (size_t)p.B + 3 * p.S) * sizeof(*lc));
	if (!A || !D || !g || !off || !lc)
		goto out;
	/* LDPC */
	rq_ldpc_rows(&p, off, lc);
	for (r = 0; r < p.S; r++)
		for (j = off[r]; j < off[r + 1]; j++)
			A[(size_t)r * L + lc[j]] = 1;
	/* HDPC */
	rq_hdpc_matrix(&p, g);
	for (r = 0; r < p.H; r++) {
		memcpy(A + (size_t)(p.S + r) * L, g + (size_t)r * KS, KS);
		A[(size_t)(p.S + r) * L + KS + r] = 1;
	}
	/* LT */
	for (k = 0; k < n; k++) {
		unsigned int m = rq_lt_cols(&p, isi[k], cols);

		for (j = 0; j < m; j++)
			A[(size_t)(p.S + p.H + k) * L + cols[j]] ^= 1;
		if (sym[k])
			memcpy(D + (size_t)(p.S + p.H + k) * T, sym[k], T);
	}
	/* Gaussian elimination with row swaps */
	for (col = 0; col < L; col++) {
		uint32_t piv = M;
		uint8_t inv;

		for (r = col; r < M; r++)
			if (A[(size_t)r * L + col]) {
				piv = r;
				break;
			}
		if (piv == M) {
			rc = -EDOM;
			goto out;
		}
		if (piv != col) {
			for (j = 0; j < L; j++) {
				uint8_t t = A[(size_t)piv * L + j];

				A[(size_t)piv * L + j] = A[(size_t)col * L + j];
				A[(size_t)col * L + j] = t;
			}
			for (j = 0; j < T; j++) {
				uint8_t t = D[(size_t)piv * T + j];

				D[(size_t)piv * T + j] = D[(size_t)col * T + j];
				D[(size_t)col * T + j] = t;
			}
		}
		inv = rq_gf_div(1, A[(size_t)col * L + col]);
		for (j = 0; j < L; j++)
			A[(size_t)col * L + j] = rq_gf_mul(A[(size_t)col * L + j], inv);
		for (j = 0; j < T; j++)
			D[(size_t)col * T + j] = rq_gf_mul(D[(size_t)col * T + j], inv);
		for (r = 0; r < M; r++) {
			uint8_t f = A[(size_t)r * L + col];

			if (r == col || f == 0)
				continue;
			for (j = 0; j < L; j++)
				A[(size_t)r * L + j] ^= rq_gf_mul(f, A[(size_t)col * L + j]);
			sym_mad(D + (size_t)r * T, D + (size_t)col * T, f, T);
		}
	}
	memcpy(c, D, (size_t)L * T);
	rc = 0;
out:
	free(A);
	free(D);
	free(g);
	free(off);
	free(lc);
	return rc;
}

void
rq_ref_lt_symbol(const struct rq_params *p, size_t T, const uint8_t *c, uint32_t X,
		uint8_t *out)
{
	uint32_t cols[RQ_MAX_LT_COLS];
	unsigned int m = rq_lt_cols(p, X, cols), j;
	size_t i;

	memset(out, 0, T);
	for (j = 0; j < m; j++)
		for (i = 0; i < T; i++)
			out[i] ^= c[(size_t)cols[j] * T + i];
}

/* --- bytewise references of the symbol kernels (rq_sym.h) --- */
void
rq_xor_idx_ref(uint8_t *dst, uint8_t *const *tab, const uint32_t *idx, unsigned int n,
		size_t len)
{
	size_t o;
	unsigned int i;

	for (o = 0; o < len; o++) {
		uint8_t a = 0;

		for (i = 0; i < n; i++)
			a ^= tab[idx[i]][o];
		dst[o] = a;
	}
}

void
rq_dot_ref(size_t len, unsigned int k, unsigned int rows, const uint8_t *coef,
		uint8_t *const *in, uint8_t *const *out)
{
	unsigned int r, j;
	size_t o;

	for (r = 0; r < rows; r++)
		for (o = 0; o < len; o++) {
			uint8_t a = 0;

			for (j = 0; j < k; j++)
				a ^= rq_gf_mul(coef[(size_t)r * k + j], in[j][o]);
			out[r][o] = a;
		}
}

void
rq_gf_row_mad_ref(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] ^= rq_gf_mul(c, src[i]);
}
