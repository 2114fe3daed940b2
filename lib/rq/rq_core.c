/* SPDX-License-Identifier: BSD-3-Clause */
/* RFC 6330 §5.3: parameters, Rand/Deg/Tuple, the constraint rows, K' cache. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/erasure_code.h>

#include "rq_priv.h"
#include "rq_sym.h"

static const uint32_t deg_f[31] = {
	0, 5243, 529531, 704294, 791675, 844104, 879057, 904023, 922747, 937311,
	948962, 958494, 966438, 973160, 978921, 983914, 988283, 992138, 995565,
	998631, 1001391, 1003887, 1006157, 1008229, 1010129, 1011876, 1013490,
	1014983, 1016370, 1017662, 1048576,
};

static int
table2_index(uint32_t K)
{
	int lo = 0, hi = RQ_TABLE2_ROWS - 1;

	if (K == 0 || K > RQ_MAX_K)
		return -1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (rq_table2[mid].Kp >= K)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int
is_prime(uint32_t n)
{
	uint32_t d;

	if (n < 2)
		return 0;
	for (d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

int
rq_params_get(uint32_t K, struct rq_params *p)
{
	const struct rq_table2_row *r;
	int i = table2_index(K);

	if (i < 0 || p == NULL)
		return -EINVAL;
	r = &rq_table2[i];
	p->K = K;
	p->Kp = r->Kp;
	p->J = r->J;
	p->S = r->S;
	p->H = r->H;
	p->W = r->W;
	p->L = r->Kp + r->S + r->H;
	p->P = p->L - r->W;
	p->P1 = p->P;
	while (!is_prime(p->P1))
		p->P1++;
	p->B = r->W - r->S;
	return 0;
}

uint32_t
rq_degree(uint32_t v, uint32_t W)
{
	uint32_t d = 1;

	while (v >= deg_f[d])
		d++;
	return d < W - 2 ? d : W - 2;
}

void
rq_tuple_get(const struct rq_params *p, uint32_t X, struct rq_tuple *t)
{
	uint32_t A = 53591 + p->J * 997;
	uint32_t B, y, v;

	if (A % 2 == 0)
		A++;
	B = 10267 * (p->J + 1);
	y = B + X * A;		/* mod 2^32 */
	v = rq_rand(y, 0, 1u << 20);
	t->d = rq_degree(v, p->W);
	t->a = 1 + rq_rand(y, 1, p->W - 1);
	t->b = rq_rand(y, 2, p->W);
	t->d1 = t->d < 4 ? 2 + rq_rand(X, 3, 2) : 2;
	t->a1 = 1 + rq_rand(X, 4, p->P1 - 1);
	t->b1 = rq_rand(X, 5, p->P1);
}

unsigned int
rq_lt_cols(const struct rq_params *p, uint32_t X, uint32_t *cols)
{
	struct rq_tuple t;
	unsigned int n = 0, j;
	uint32_t b, b1;

	rq_tuple_get(p, X, &t);
	b = t.b;
	cols[n++] = b;
	for (j = 1; j < t.d; j++) {
		b = (b + t.a) % p->W;
		cols[n++] = b;
	}
	b1 = t.b1;
	while (b1 >= p->P)
		b1 = (b1 + t.a1) % p->P1;
	cols[n++] = p->W + b1;
	for (j = 1; j < t.d1; j++) {
		b1 = (b1 + t.a1) % p->P1;
		while (b1 >= p->P)
			b1 = (b1 + t.a1) % p->P1;
		cols[n++] = p->W + b1;
	}
	return n;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * LDPC rows (RFC 6330 §5.3.3.3) as sorted, duplicate-free column lists:
 * off has S+1 entries; cols has room for 3B + 3S entries.
 */
void
rq_ldpc_rows(const struct rq_params *p, uint32_t *off, uint32_t *cols)
{
	uint32_t S = p->S, i, r, *fill;

	fill = calloc(S, sizeof(*fill));
	memset(off, 0, (S + 1) * sizeof(*off));
	/* every row gets: 3B/S-ish circulant entries, one identity, two PI */
	for (i = 0; i < p->B; i++) {
		uint32_t a = 1 + i / S, b = i % S;

		off[b + 1]++;
		b = (b + a) % S;
		off[b + 1]++;
		b = (b + a) % S;
		off[b + 1]++;
	}
	for (r = 0; r < S; r++)
		off[r + 1] += 3;
	for (r = 0; r < S; r++)
		off[r + 1] += off[r];
#define PUT(row, col) do { \
		uint32_t _r = (row); \
		if (fill) \
			cols[off[_r] + fill[_r]++] = (col); \
	} while (0)
	for (i = 0; i < p->B; i++) {
		uint32_t a = 1 + i / S, b = i % S;

		PUT(b, i);
		b = (b + a) % S;
		PUT(b, i);
		b = (b + a) % S;
		PUT(b, i);
	}
	for (i = 0; i < S; i++) {
		PUT(i, p->B + i);
		PUT(i, p->W + i % p->P);
		PUT(i, p->W + (i + 1) % p->P);
	}
#undef PUT
	/* set semantics: sort, drop duplicates, compact */
	{
		uint32_t w = 0, start = 0;

		for (r = 0; r < S; r++) {
			uint32_t end = off[r + 1], k, n0 = w;

			qsort(cols + start, end - start, sizeof(*cols), cmp_u32);
			for (k = start; k < end; k++)
				if (w == n0 || cols[w - 1] != cols[k])
					cols[w++] = cols[k];
			off[r] = n0;
			start = end;
		}
		off[S] = w;
	}
	free(fill);
}

void
rq_hdpc_matrix(const struct rq_params *p, uint8_t *g)
{
	uint32_t KS = p->Kp + p->S, H = p->H, h, j;

	memset(g, 0, (size_t)H * KS);
	for (h = 0; h < H; h++)
		g[(size_t)h * KS + KS - 1] = rq_gf_exp[h];
	for (j = KS - 1; j-- > 0;) {
		uint32_t r1 = rq_rand(j + 1, 6, H);
		uint32_t r2 = (r1 + rq_rand(j + 1, 7, H - 1) + 1) % H;

		for (h = 0; h < H; h++) {
			uint8_t *row = g + (size_t)h * KS;

			row[j] = rq_gf_mul(row[j + 1], 2);
		}
		g[(size_t)r1 * KS + j] ^= 1;
		g[(size_t)r2 * KS + j] ^= 1;
	}
}

/* --- the per-K' cache --- */
static struct rq_kp *kp_cache[RQ_TABLE2_ROWS];
static pthread_mutex_t kp_lock = PTHREAD_MUTEX_INITIALIZER;

static void
kp_free(struct rq_kp *kp)
{
	if (kp == NULL)
		return;
	free(kp->hdpc);
	free(kp->hdpc_mt);
	free(kp->ldpc_off);
	free(kp->ldpc_cols);
	rq_plan_free(kp->enc_plan);
	free(kp->gm);
	free(kp->gm_tab);
	free(kp);
}

/*
 * Generator matrix: the encoding plan is linear and works bytewise, so
 * replaying it on symbols of K' bytes with D[i] = the i-th unit vector
 * leaves M[l][i] in byte i of C[l].
 */
static int
kp_gen_build(struct rq_kp *kp)
{
	uint32_t Kp = kp->p.Kp, L = kp->p.L, nsym, i;
	uint8_t *mem, **tab;
	int rc = -ENOMEM;

	nsym = Kp + 1 + L + rq_plan_scratch(kp->enc_plan);
	mem = calloc(nsym, Kp);
	tab = calloc((size_t)nsym + 6 * L, sizeof(*tab));
	kp->gm = malloc((size_t)L * Kp);
	kp->gm_tab = malloc(L * sizeof(*kp->gm_tab));
	if (mem == NULL || tab == NULL || kp->gm == NULL || kp->gm_tab == NULL)
		goto out;
	for (i = 0; i < nsym; i++)
		tab[i] = mem + (size_t)i * Kp;
	for (i = 0; i < Kp; i++)
		tab[i][i] = 1;
	rq_plan_run(kp->enc_plan, Kp, tab);
	for (i = 0; i < L; i++) {
		kp->gm_tab[i] = kp->gm + (size_t)i * Kp;
		memcpy(kp->gm_tab[i], tab[Kp + 1 + i], Kp);
	}
	rc = 0;
out:
	free(mem);
	free(tab);
	return rc;
}

void
rq_gen_row(const struct rq_kp *kp, uint32_t X, uint8_t *g)
{
	uint32_t cols[RQ_MAX_LT_COLS];
	unsigned int m = rq_lt_cols(&kp->p, X, cols);

	rq_xor_idx(g, kp->gm_tab, cols, m, kp->p.Kp);
}

static struct rq_kp *
kp_build(uint32_t Kp)
{
	struct rq_kp *kp = calloc(1, sizeof(*kp));
	uint32_t *isi = NULL, i, KS;
	int err;

	if (kp == NULL)
		return NULL;
	rq_params_get(Kp, &kp->p);
	KS = kp->p.Kp + kp->p.S;
	kp->hdpc = malloc((size_t)kp->p.H * KS);
	kp->hdpc_mt = malloc((size_t)2 * KS);
	kp->ldpc_off = malloc((kp->p.S + 1) * sizeof(uint32_t));
	kp->ldpc_cols = malloc((3 * (size_t)kp->p.B + 3 * kp->p.S) * sizeof(uint32_t));
	isi = malloc(Kp * sizeof(*isi));
	if (!kp->hdpc || !kp->hdpc_mt || !kp->ldpc_off || !kp->ldpc_cols || !isi)
		goto fail;
	rq_hdpc_matrix(&kp->p, kp->hdpc);
	for (i = 0; i + 1 < KS; i++) {
		uint32_t r1 = rq_rand(i + 1, 6, kp->p.H);

		kp->hdpc_mt[2 * i] = (uint8_t)r1;
		kp->hdpc_mt[2 * i + 1] = (uint8_t)((r1 + rq_rand(i + 1, 7, kp->p.H - 1) + 1) % kp->p.H);
	}
	rq_ldpc_rows(&kp->p, kp->ldpc_off, kp->ldpc_cols);
	for (i = 0; i < Kp; i++)
		isi[i] = i;
	kp->enc_plan = rq_plan_build(kp, isi, isi, Kp, Kp, &err);
	if (kp->enc_plan == NULL)
		goto fail;
	if (Kp <= RQ_GEN_MAX_KP && kp_gen_build(kp) != 0)
		goto fail;
	free(isi);
	return kp;
fail:
	free(isi);
	kp_free(kp);
	return NULL;
}

const struct rq_kp *
rq_kp_get(uint32_t K)
{
	int i = table2_index(K);
	struct rq_kp *kp;

	if (i < 0 || rq_isa_init() != 0)
		return NULL;
	kp = __atomic_load_n(&kp_cache[i], __ATOMIC_ACQUIRE);
	if (kp != NULL)
		return kp;
	pthread_mutex_lock(&kp_lock);
	kp = kp_cache[i];
	if (kp == NULL) {
		kp = kp_build(rq_table2[i].Kp);
		if (kp != NULL)
			__atomic_store_n(&kp_cache[i], kp, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&kp_lock);
	return kp;
}
