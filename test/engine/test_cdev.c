/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The AEAD backends of DFCP's DATA (crypto_backend = ipsec-mb, cryptodev:
 * kinds/dfcp/dfcp_imb.c, dfcp_cdev.c) against the library's OpenSSL EVP,
 * the reference (RFC vectors: test dfcp-crypt): the same ciphertext and tag
 * on the same inputs, in place and out of place, bursts longer than the PMD
 * burst and of two AAD lengths, opens of each other's output, every flipped
 * byte class refused, an out-of-place open that leaves its source alone.
 * EAL without hugepages; the PMDs made by the backend itself
 * (rte_vdev_init). Skipped (77) where neither backend is there.
 * `test_cdev --bench [LEN]`: ns per LEN-byte (1420) seal in bursts of 32,
 * open alone and in bursts, out of place, every backend (doc/security.md).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_cryptodev.h>
#include <rte_eal.h>

#include "core/eal_clean.h"
#include "kinds/dfcp/dfcp_task.h"
#include "test_harness.h"

#define NMSG	45	/* more than one PMD burst (32) */
#define MAXLEN	9000

struct msgs {
	uint8_t nonce[NMSG][12], aad[NMSG][64], buf[NMSG][MAXLEN], tag[NMSG][16];
	struct dfcp_aead_msg m[NMSG];
	int st[NMSG];
};

static void
msgs_fill(struct msgs *s, struct test_rng *r)
{
	static const uint32_t lens[] = { 1, 15, 16, 17, 64, 1024, 1408, 1500, 8192, MAXLEN };

	for (int i = 0; i < NMSG; i++) {
		for (int j = 0; j < 12; j++)
			s->nonce[i][j] = (uint8_t)test_rng_next(r);
		for (int j = 0; j < 64; j++)
			s->aad[i][j] = (uint8_t)test_rng_next(r);
		s->m[i].len = lens[test_rng_below(r, sizeof(lens) / sizeof(lens[0]))];
		for (uint32_t j = 0; j < s->m[i].len; j++)
			s->buf[i][j] = (uint8_t)test_rng_next(r);
		/* two AAD lengths in runs: the session is remade for the second */
		s->m[i].aad_len = i < 20 ? 40 : 28;
		s->m[i].nonce = s->nonce[i];
		s->m[i].aad = s->aad[i];
		s->m[i].buf = s->buf[i];
		s->m[i].tag = s->tag[i];
	}
}

static void
msgs_repoint(struct msgs *s)
{
	for (int i = 0; i < NMSG; i++) {
		s->m[i].nonce = s->nonce[i];
		s->m[i].aad = s->aad[i];
		s->m[i].buf = s->buf[i];
		s->m[i].tag = s->tag[i];
	}
}

/* More contexts than the backend has sessions: the last ones seal through OpenSSL, alike. */
static void
test_many(unsigned int suite, const struct dfcp_aead_ops *cd, struct msgs *s)
{
	enum { NCTX = 4200 };
	uint32_t key_len = suite == DFCP_CRYPTO_AES128GCM ? 16 : 32;
	uint8_t key[32] = { 7 }, want[64 + 16], *b = s->buf[0];
	void **c = calloc(NCTX, sizeof(*c)), *ref;
	int bad = 0, st;

	REQUIRE(c != NULL);
	s->m[0].len = 64;
	s->m[0].aad_len = 40;
	memset(b, 0x5a, 64);
	ref = dfcp_aead_evp_ops.create(NULL, suite, key, key_len, 1);
	REQUIRE(ref != NULL);
	dfcp_aead_evp_ops.seal_burst(ref, &s->m[0], 1, &st);
	dfcp_aead_evp_ops.destroy(ref);
	memcpy(want, b, 64);
	memcpy(want + 64, s->tag[0], 16);
	for (int i = 0; i < NCTX; i++) {
		c[i] = cd->create(cd->arg, suite, key, key_len, 1);
		if (c[i] == NULL) {
			bad++;
			continue;
		}
		memset(b, 0x5a, 64);
		cd->seal_burst(c[i], &s->m[0], 1, &st);
		bad += st != 0 || memcmp(b, want, 64) != 0 || memcmp(s->tag[0], want + 64, 16) != 0;
	}
	CHECKF(bad == 0, "%s: %d of %d contexts sealed otherwise", dfcp_crypto_name(suite), bad,
			NCTX);
	for (int i = 0; i < NCTX; i++)
		if (c[i] != NULL)
			cd->destroy(c[i]);
	free(c);
}

/* Out of place against in place (EVP's): the same bytes, and the source left alone. */
static void
test_oop(unsigned int suite, const struct dfcp_aead_ops *cd, struct msgs *ref, struct msgs *got,
		struct msgs *plain)
{
	uint32_t key_len = suite == DFCP_CRYPTO_AES128GCM ? 16 : 32;
	const char *name = dfcp_crypto_name(suite);
	uint8_t key[32] = { 3, 1, 4, 1, 5 }, save[MAXLEN];
	void *es = dfcp_aead_evp_ops.create(NULL, suite, key, key_len, 1);
	void *cs = cd->create(cd->arg, suite, key, key_len, 1);
	void *co = cd->create(cd->arg, suite, key, key_len, 0);
	int bad = 0, refused = 0;
	struct test_rng r;

	REQUIRE(es != NULL && cs != NULL && co != NULL);
	test_rng_seed(&r, 0x00f + suite);
	msgs_fill(plain, &r);
	*ref = *plain;
	*got = *plain;
	msgs_repoint(ref);
	msgs_repoint(got);
	dfcp_aead_evp_ops.seal_burst(es, ref->m, NMSG, ref->st);
	for (int i = 0; i < NMSG; i++) {
		memset(got->buf[i], 0, MAXLEN);
		got->m[i].src = plain->buf[i];	/* plaintext elsewhere, sealed into got */
	}
	cd->seal_burst(cs, got->m, NMSG, got->st);
	for (int i = 0; i < NMSG; i++) {
		uint32_t len = got->m[i].len;

		bad += got->st[i] != 0 || memcmp(got->buf[i], ref->buf[i], len) != 0 ||
			memcmp(got->tag[i], ref->tag[i], 16) != 0;
		/* opened from ref's ciphertext into got: the plaintext, ref's untouched */
		memcpy(save, ref->buf[i], len);
		memset(got->buf[i], 0, len);
		got->m[i].src = ref->buf[i];
		memcpy(got->tag[i], ref->tag[i], 16);
		bad += cd->open(co, &got->m[i]) != 0 || memcmp(got->buf[i], plain->buf[i], len) ||
			memcmp(ref->buf[i], save, len) != 0;
		got->tag[i][i % 16] ^= 1;
		refused += cd->open(co, &got->m[i]) == -DFCP_E_AUTH;
		got->m[i].src = NULL;
	}
	CHECKF(bad == 0, "%s: %d of %d out-of-place messages differ from in place", name, bad,
			NMSG);
	CHECKF(refused == NMSG, "%s: %d of %d out-of-place opens with a flipped tag refused", name,
			refused, NMSG);
	dfcp_aead_evp_ops.destroy(es);
	cd->destroy(cs);
	cd->destroy(co);
}

static void
test_suite(unsigned int suite, const struct dfcp_aead_ops *cd, struct msgs *ref,
		struct msgs *got, struct msgs *plain)
{
	const struct dfcp_aead_ops *evp = &dfcp_aead_evp_ops;
	uint32_t key_len = suite == DFCP_CRYPTO_AES128GCM ? 16 : 32;
	const char *name = dfcp_crypto_name(suite);
	struct test_rng r;
	uint8_t key[32];
	void *es, *cs, *eo, *co;
	int i, bad = 0;

	test_rng_seed(&r, 0x5eed + suite);
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)test_rng_next(&r);
	msgs_fill(plain, &r);
	*ref = *plain;
	*got = *plain;
	msgs_repoint(ref);
	msgs_repoint(got);
	es = evp->create(NULL, suite, key, key_len, 1);
	eo = evp->create(NULL, suite, key, key_len, 0);
	cs = cd->create(cd->arg, suite, key, key_len, 1);
	co = cd->create(cd->arg, suite, key, key_len, 0);
	REQUIRE(es != NULL && eo != NULL && cs != NULL && co != NULL);
	CHECK(cd->create(cd->arg, suite, key, 64, 1) == NULL);
	evp->seal_burst(es, ref->m, NMSG, ref->st);
	cd->seal_burst(cs, got->m, NMSG, got->st);
	for (i = 0; i < NMSG; i++) {
		CHECKF(ref->st[i] == 0 && got->st[i] == 0, "%s: %d sealed: %d %d", name, i,
				ref->st[i], got->st[i]);
		bad += memcmp(ref->buf[i], got->buf[i], got->m[i].len) != 0 ||
			memcmp(ref->tag[i], got->tag[i], 16) != 0;
		bad += memcmp(plain->buf[i], got->buf[i], got->m[i].len) == 0;
	}
	CHECKF(bad == 0, "%s: %d of %d sealed messages differ from OpenSSL's (or are plain)",
			name, bad, NMSG);
	/* each opens the other's output; a flipped byte anywhere is refused */
	for (i = 0; i < NMSG; i++) {
		struct dfcp_aead_msg *m = &got->m[i];
		uint8_t *flip[] = { ref->nonce[i], ref->aad[i] + m->aad_len - 1,
			ref->buf[i] + m->len / 2, ref->tag[i] + 15 };
		uint8_t save[MAXLEN];

		CHECKF(cd->open(co, &ref->m[i]) == 0 && evp->open(eo, m) == 0, "%s: %d opens",
				name, i);
		CHECKF(memcmp(ref->buf[i], plain->buf[i], m->len) == 0 &&
				memcmp(got->buf[i], plain->buf[i], m->len) == 0,
				"%s: %d opened to the plaintext", name, i);
		/* sealed again with the reference, then one byte of a class flipped */
		evp->seal_burst(es, &ref->m[i], 1, ref->st);
		memcpy(save, ref->buf[i], m->len);
		for (unsigned int f = 0; f < sizeof(flip) / sizeof(flip[0]); f++) {
			memcpy(ref->buf[i], save, m->len);
			*flip[f] ^= 0x20;
			CHECKF(cd->open(co, &ref->m[i]) == -DFCP_E_AUTH, "%s: %d flip %u opened",
					name, i, f);
			*flip[f] ^= 0x20;
		}
		memcpy(ref->buf[i], save, m->len);
		CHECKF(cd->open(co, &ref->m[i]) == 0, "%s: %d opens after the flips", name, i);
	}
	evp->destroy(es);
	evp->destroy(eo);
	cd->destroy(cs);
	cd->destroy(co);
}


/*
 * ns per len-byte message (AAD 36 bytes), best of 5 rounds of 20000 x 32:
 * seals in bursts of 32, opens one at a time (ops->open) and in bursts of
 * 32 (seal_burst of an opening context). An open's status is not looked at
 * (the messages are opened again and again): its cost is the same.
 */
static double
bench_one(const struct dfcp_aead_ops *ops, void *c, struct msgs *s, int single)
{
	double best = 1e9;

	for (int r = 0; r < 5; r++) {
		struct timespec a, b;
		double ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int n = 0; n < 20000; n++) {
			s->nonce[0][0] = (uint8_t)n;
			if (!single)
				ops->seal_burst(c, s->m, 32, s->st);
			else
				for (int i = 0; i < 32; i++)
					s->st[i] = ops->open(c, &s->m[i]);
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
			(20000.0 * 32);
		best = ns < best ? ns : best;
	}
	return best;
}

static void
bench(unsigned int suite, const struct dfcp_aead_ops *ops, const char *name, struct msgs *s,
		uint32_t len)
{
	uint8_t key[32] = { 1 };
	uint32_t klen = suite == DFCP_CRYPTO_AES128GCM ? 16 : 32;
	void *c = ops->create(ops->arg, suite, key, klen, 1);
	void *o = ops->create(ops->arg, suite, key, klen, 0);
	double seal, open1, open32, oseal, oopen;

	if (c == NULL || o == NULL) {
		if (c != NULL)
			ops->destroy(c);
		if (o != NULL)
			ops->destroy(o);
		return;
	}
	for (int i = 0; i < 32; i++) {
		s->m[i].len = len;
		s->m[i].aad_len = 36;
	}
	seal = bench_one(ops, c, s, 0);
	open1 = bench_one(ops, o, s, 1);
	open32 = bench_one(ops, o, s, 0);
	/* out of place, as the engine seals and opens: from another message's buffer */
	for (int i = 0; i < 32; i++)
		s->m[i].src = s->buf[(i + 1) % 32];
	oseal = bench_one(ops, c, s, 0);
	oopen = bench_one(ops, o, s, 0);
	for (int i = 0; i < 32; i++)
		s->m[i].src = NULL;
	printf("%s %s: %.0f ns a %u-byte seal (%.1f Gbit/s of one core), open %.0f ns alone, "
			"%.0f in bursts of 32; out of place: seal %.0f, open %.0f\n",
			dfcp_crypto_name(suite), name, seal, len, len * 8 / seal, open1, open32,
			oseal, oopen);
	ops->destroy(c);
	ops->destroy(o);
}

int
main(int argc, char **argv_in)
{
	char prefix[32];
	/* its own prefix: the EAL makes a runtime directory even with --no-shconf; removed at exit */
	char *argv[] = { "test-cdev", "--no-huge", "-m", "512", "--no-pci", "--no-shconf",
		"-l", "0", "--log-level=*:warning", "--file-prefix", prefix, NULL };
	char rundir[PATH_MAX];
	struct msgs *a = calloc(3, sizeof(*a));
	/* the backends: cryptodev's default devices (CPU crypto), then one without it */
	static const struct {
		int b;
		const char *dev;
	} be[] = { { ENG_CRYPTO_IMB, NULL }, { ENG_CRYPTO_CDEV, NULL },
		{ ENG_CRYPTO_CDEV, "crypto_openssl0" } };
	const struct dfcp_aead_ops *ops;
	long bench_len = 0;
	int ran = 0;

	REQUIRE(a != NULL);
	if (argc > 1 && strcmp(argv_in[1], "--bench") == 0) {
		bench_len = argc > 2 ? strtol(argv_in[2], NULL, 10) : 1420;
		if (bench_len < 1 || bench_len > MAXLEN) {
			fprintf(stderr, "test-cdev: --bench LEN: 1..%u bytes\n", MAXLEN);
			return 2;
		}
	}
	snprintf(prefix, sizeof(prefix), "test-cdev-%ld", (long)getpid());
	if (rte_eal_init(11, argv) < 0) {
		printf("test-cdev: no EAL (skipped)\n");
		return 77;
	}
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	for (unsigned int s = DFCP_CRYPTO_AES128GCM; s < DFCP_CRYPTO_MAX; s++) {
		CHECK(eng_dfcp_aead_ops(s, ENG_CRYPTO_OPENSSL, NULL, &ops) == 0 && ops == NULL);
		CHECK(eng_dfcp_aead_ops(s, ENG_CRYPTO_AUTO, NULL, &ops) == 0);
		CHECK(eng_dfcp_aead_ops(s, ENG_CRYPTO_CDEV, "crypto_nosuch0", &ops) < 0);
		if (bench_len > 0) {
			msgs_fill(&a[0], &(struct test_rng){ 0 });
			msgs_repoint(&a[0]);
			bench(s, &dfcp_aead_evp_ops, "openssl", &a[0], (uint32_t)bench_len);
		}
		for (unsigned int k = 0; k < sizeof(be) / sizeof(be[0]); k++) {
			int b = be[k].b;
			const char *bn = be[k].dev != NULL ? be[k].dev : eng_dfcp_backend_name(b);

			if (eng_dfcp_aead_ops(s, b, be[k].dev, &ops) < 0 || ops == NULL) {
				printf("test-cdev: %s: no %s (not tested)\n", dfcp_crypto_name(s), bn);
				continue;
			}
			ran++;
			if (bench_len > 0) {
				bench(s, ops, bn, &a[0], (uint32_t)bench_len);
				continue;
			}
			printf("test-cdev: %s through %s\n", dfcp_crypto_name(s), bn);
			test_suite(s, ops, &a[0], &a[1], &a[2]);
			test_oop(s, ops, &a[0], &a[1], &a[2]);
			if (b == ENG_CRYPTO_CDEV && be[k].dev == NULL)
				test_many(s, ops, &a[0]);	/* its sessions run out */
		}
	}
	free(a);
	for (uint8_t d = 0; d < rte_cryptodev_count(); d++)
		rte_cryptodev_stop(d);
	rte_eal_cleanup();
	eng_eal_rundir_remove(rundir);
	if (ran == 0)
		return 77;
	return test_report("cdev-aead");
}
