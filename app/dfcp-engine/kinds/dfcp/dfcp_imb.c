/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DATA AEAD of encrypted DFCP flows straight through the Intel
 * Multi-Buffer Crypto for IPsec library (libIPSec_MB: the code DPDK's
 * crypto_ipsec_mb PMDs wrap; VAES/AVX-512 where the CPU has them). Out of
 * place: the sender seals a source symbol from its block into its frame and
 * the receiver opens a symbol from its frame into its block, so neither
 * copies it first, which cryptodev's CPU-crypto path (in place only in
 * DPDK 22.11) cannot do. AES-GCM in one call a message (AAD, cipher and tag
 * in one pass); ChaCha20-Poly1305 by init, update, finalize. The library's
 * functions for this CPU are taken once from a manager made at the first
 * context; a context holds the expanded key only, so any lcore may use it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <intel-ipsec-mb.h>
#include <openssl/crypto.h>

#include "core/log.h"
#include "kinds/dfcp/dfcp_task.h"

static struct {
	int tried;
	IMB_ARCH arch;
	aes_gcm_pre_t gcm_pre;
	aes_gcm_enc_dec_t gcm_enc, gcm_dec;
	chacha_poly_init_t cp_init;
	chacha_poly_enc_dec_update_t cp_enc, cp_dec;
	chacha_poly_finalize_t cp_fin;
} imb;

struct imb_ctx {
	struct gcm_key_data gk;		/* AES-GCM: the round keys and hash-key powers */
	uint8_t key[32];		/* ChaCha20-Poly1305 */
	unsigned int suite;
	int enc;
};

static const char *const arch_name[IMB_ARCH_NUM] = {
	[IMB_ARCH_NONE] = "none", [IMB_ARCH_NOAESNI] = "no AES-NI", [IMB_ARCH_SSE] = "SSE",
	[IMB_ARCH_AVX] = "AVX", [IMB_ARCH_AVX2] = "AVX2", [IMB_ARCH_AVX512] = "AVX-512",
};

/* The functions for this CPU, once; -ENOTSUP without any. */
static int
imb_load(void)
{
	IMB_MGR *m;

	if (imb.tried)
		return imb.gcm_enc != NULL ? 0 : -ENOTSUP;
	imb.tried = 1;
	m = alloc_mb_mgr(0);
	if (m == NULL)
		return -ENOMEM;
	init_mb_mgr_auto(m, &imb.arch);
	if (imb_get_errno(m) == 0 && imb.arch > IMB_ARCH_NONE && imb.arch < IMB_ARCH_NUM) {
		imb.gcm_pre = m->gcm128_pre;
		imb.gcm_enc = m->gcm128_enc;
		imb.gcm_dec = m->gcm128_dec;
		imb.cp_init = m->chacha20_poly1305_init;
		imb.cp_enc = m->chacha20_poly1305_enc_update;
		imb.cp_dec = m->chacha20_poly1305_dec_update;
		imb.cp_fin = m->chacha20_poly1305_finalize;
	}
	free_mb_mgr(m);
	return imb.gcm_enc != NULL && imb.cp_init != NULL ? 0 : -ENOTSUP;
}

static void *
imb_create(void *arg, unsigned int suite, const uint8_t *key, uint32_t key_len, int enc)
{
	struct imb_ctx *c;

	(void)arg;
	if (imb_load() < 0 || (suite == DFCP_CRYPTO_AES128GCM ? key_len != 16 :
			suite != DFCP_CRYPTO_CHACHA20 || key_len != 32))
		return NULL;
	c = aligned_alloc(64, (sizeof(*c) + 63) & ~(size_t)63);
	if (c == NULL)
		return NULL;
	memset(c, 0, sizeof(*c));
	c->suite = suite;
	c->enc = enc;
	if (suite == DFCP_CRYPTO_AES128GCM)
		imb.gcm_pre(key, &c->gk);
	else
		memcpy(c->key, key, key_len);
	return c;
}

/* One message: from src (or in place) into buf; 0, or -DFCP_E_AUTH for a wrong tag. */
static int
imb_run(const struct imb_ctx *c, const struct dfcp_aead_msg *m)
{
	const uint8_t *in = m->src != NULL ? m->src : m->buf;
	uint8_t tag[DFCP_AEAD_TAG_LEN];

	if (c->suite == DFCP_CRYPTO_AES128GCM) {
		struct gcm_context_data g;

		(c->enc ? imb.gcm_enc : imb.gcm_dec)(&c->gk, &g, m->buf, in, m->len, m->nonce,
				m->aad, m->aad_len, c->enc ? m->tag : tag, DFCP_AEAD_TAG_LEN);
	} else {
		struct chacha20_poly1305_context_data p;

		imb.cp_init(c->key, &p, m->nonce, m->aad, m->aad_len);
		(c->enc ? imb.cp_enc : imb.cp_dec)(c->key, &p, m->buf, in, m->len);
		imb.cp_fin(&p, c->enc ? m->tag : tag, DFCP_AEAD_TAG_LEN);
	}
	if (c->enc)
		return 0;
	return CRYPTO_memcmp(tag, m->tag, DFCP_AEAD_TAG_LEN) == 0 ? 0 : -DFCP_E_AUTH;
}

static void
imb_seal_burst(void *ctx, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	for (uint32_t i = 0; i < n; i++)
		st[i] = imb_run(ctx, &m[i]);
}

static int
imb_open(void *ctx, const struct dfcp_aead_msg *m)
{
	return imb_run(ctx, m);
}

static void
imb_destroy(void *ctx)
{
	OPENSSL_cleanse(ctx, sizeof(struct imb_ctx));
	free(ctx);
}

static const struct dfcp_aead_ops imb_ops = {
	.create = imb_create,
	.seal_burst = imb_seal_burst,
	.open = imb_open,
	.destroy = imb_destroy,
};

int
eng_dfcp_imb_get(unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
		char *what, size_t len)
{
	int rc = imb_load();

	if (rc < 0) {
		snprintf(what, len, "libIPSec_MB %s has no functions for this CPU",
				imb_get_version_str());
		return rc;
	}
	(void)suite;
	(void)dev;
	*ops = &imb_ops;
	snprintf(what, len, "libIPSec_MB %s, %s", imb_get_version_str(), arch_name[imb.arch]);
	return 0;
}
