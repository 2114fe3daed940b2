/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP encryption (doc/protocol.md, "Encryption"). SYN and SYNACK carry an
 * ephemeral X25519 public key each, tagged with the pre-shared key, so a
 * man in the middle without the key cannot substitute its own. Both ends
 * derive, with HKDF-SHA256 keyed by the pre-shared key, a key set per
 * direction: an AEAD key and IV for DATA and a SipHash key for the other
 * messages. The private keys are erased once the keys are derived, so a
 * key learnt later opens no recorded traffic.
 *
 * A DATA frame's symbol is sealed in place; the AEAD's associated data is
 * the pseudo-header (addresses and ports) and the DFCP header, so no
 * header field can be changed either. No symbol is ever sent twice, so
 * (block, ESI) is a unique nonce within a direction's key: nonce = IV xor
 * (0^4 || block || ESI), big-endian.
 */
#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "dfcp.h"
#include "dfcp_crypt.h"
#include "net.h"

/* The suites: one line each; names in messages and docs come from here. */
static const struct {
	const char *name;
	uint32_t key_len;
	const EVP_CIPHER *(*cipher)(void);
} suites[DFCP_CRYPTO_MAX] = {
	[DFCP_CRYPTO_OFF] = { "off", 0, NULL },
	[DFCP_CRYPTO_AES128GCM] = { "aes-128-gcm", 16, EVP_aes_128_gcm },
	[DFCP_CRYPTO_CHACHA20] = { "chacha20-poly1305", 32, EVP_chacha20_poly1305 },
};

const char *
dfcp_crypto_name(unsigned int suite)
{
	return suite < DFCP_CRYPTO_MAX ? suites[suite].name : "?";
}

int
dfcp_crypto_parse(const char *name)
{
	for (unsigned int i = 0; i < DFCP_CRYPTO_MAX; i++)
		if (strcmp(name, suites[i].name) == 0)
			return (int)i;
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* X25519 and HKDF (OpenSSL 3)                                          */
/* ------------------------------------------------------------------ */

int
dfcp_kx_public(const uint8_t priv[DFCP_KX_KEY], uint8_t pub[DFCP_KX_KEY])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, DFCP_KX_KEY);
	size_t n = DFCP_KX_KEY;
	int rc;

	if (k == NULL)
		return -EINVAL;
	rc = EVP_PKEY_get_raw_public_key(k, pub, &n) == 1 && n == DFCP_KX_KEY ? 0 : -EINVAL;
	EVP_PKEY_free(k);
	return rc;
}

int
dfcp_kx_keypair(uint8_t priv[DFCP_KX_KEY], uint8_t pub[DFCP_KX_KEY])
{
	if (RAND_priv_bytes(priv, DFCP_KX_KEY) != 1)
		return -EIO;
	return dfcp_kx_public(priv, pub);
}

int
dfcp_kx_shared(const uint8_t priv[DFCP_KX_KEY], const uint8_t peer[DFCP_KX_KEY],
		uint8_t out[DFCP_KX_KEY])
{
	static const uint8_t zero[DFCP_KX_KEY];
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL, priv, DFCP_KX_KEY);
	EVP_PKEY *p = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer, DFCP_KX_KEY);
	EVP_PKEY_CTX *ctx = k != NULL ? EVP_PKEY_CTX_new(k, NULL) : NULL;
	size_t n = DFCP_KX_KEY;
	int rc = -EINVAL;

	if (ctx != NULL && p != NULL && EVP_PKEY_derive_init(ctx) == 1 &&
			EVP_PKEY_derive_set_peer(ctx, p) == 1 &&
			EVP_PKEY_derive(ctx, out, &n) == 1 && n == DFCP_KX_KEY)
		rc = 0;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(p);
	EVP_PKEY_free(k);
	/* a low-order peer key gives the all-zero secret (RFC 7748 §6.1): refused */
	if (rc == 0 && CRYPTO_memcmp(out, zero, DFCP_KX_KEY) == 0)
		rc = -EINVAL;
	return rc;
}

int
dfcp_hkdf_sha256(const uint8_t *salt, size_t salt_len, const uint8_t *ikm, size_t ikm_len,
		const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM prm[5], *q = prm;
	int rc = -EINVAL;

	*q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
	*q = OSSL_PARAM_construct_end();
	if (ctx != NULL && EVP_KDF_derive(ctx, out, out_len, prm) == 1)
		rc = 0;
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
	return rc;
}

int
dfcp_pin_psk(const uint8_t priv[DFCP_KX_KEY], const uint8_t peer_pub[DFCP_KX_KEY],
		uint8_t psk[DFCP_KX_KEY])
{
	static const uint8_t salt[] = "dfcp1 pinned keys";
	uint8_t pub[DFCP_KX_KEY], shared[DFCP_KX_KEY], info[2 * DFCP_KX_KEY];
	int lo, rc = dfcp_kx_public(priv, pub);

	if (rc == 0)
		rc = dfcp_kx_shared(priv, peer_pub, shared);
	if (rc == 0) {
		/* the lower public key first: both ends bind the same pair */
		lo = memcmp(pub, peer_pub, DFCP_KX_KEY) < 0;
		memcpy(info, lo ? pub : peer_pub, DFCP_KX_KEY);
		memcpy(info + DFCP_KX_KEY, lo ? peer_pub : pub, DFCP_KX_KEY);
		rc = dfcp_hkdf_sha256(salt, sizeof(salt) - 1, shared, DFCP_KX_KEY, info,
				sizeof(info), psk, DFCP_KX_KEY);
	}
	OPENSSL_cleanse(shared, sizeof(shared));
	return rc;
}

/*
 * The key sets of both directions from the exchange: info binds them to
 * the suite, both connection ids and both public keys (the transcript),
 * the pre-shared key is the salt. k->dir[0]: initiator to responder.
 */
int
dfcp_kx_derive(unsigned int suite, const uint8_t *psk, size_t psk_len,
		const uint8_t shared[DFCP_KX_KEY], const uint8_t ipub[DFCP_KX_KEY],
		const uint8_t rpub[DFCP_KX_KEY], uint32_t icid, uint32_t rcid,
		struct dfcp_keyset *k)
{
	uint8_t info[8 + 1 + 8 + 2 * DFCP_KX_KEY], okm[2 * DFCP_DIR_KEYS];
	int rc;

	if (suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX)
		return -EINVAL;
	memcpy(info, "dfcp1 kx", 8);
	info[8] = (uint8_t)suite;
	net_wr32(info + 9, icid);
	net_wr32(info + 13, rcid);
	memcpy(info + 17, ipub, DFCP_KX_KEY);
	memcpy(info + 17 + DFCP_KX_KEY, rpub, DFCP_KX_KEY);
	rc = dfcp_hkdf_sha256(psk, psk_len, shared, DFCP_KX_KEY, info, sizeof(info),
			okm, sizeof(okm));
	if (rc == 0) {
		k->suite = (uint8_t)suite;
		for (int d = 0; d < 2; d++) {
			const uint8_t *o = okm + d * DFCP_DIR_KEYS;

			memcpy(k->dir[d].key, o, 32);
			memcpy(k->dir[d].iv, o + 32, 12);
			memcpy(k->dir[d].mac, o + 44, 16);
		}
	}
	OPENSSL_cleanse(okm, sizeof(okm));
	return rc;
}

/* ------------------------------------------------------------------ */
/* AEAD                                                                 */
/* ------------------------------------------------------------------ */

/* The built-in AEAD: an EVP context a direction, the key schedule made once. */
static void *
evp_create(void *arg, unsigned int suite, const uint8_t *key, uint32_t key_len, int enc)
{
	EVP_CIPHER_CTX *ctx;

	(void)arg;
	if (suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX || key_len != suites[suite].key_len)
		return NULL;
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL)
		return NULL;
	if (EVP_CipherInit_ex(ctx, suites[suite].cipher(), NULL, NULL, NULL, enc) != 1 ||
			EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, DFCP_AEAD_IV, NULL) != 1 ||
			EVP_CipherInit_ex(ctx, NULL, NULL, key, NULL, enc) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/* One message (in place or from src), the tag out (seal) or in (open). */
static int
evp_run(EVP_CIPHER_CTX *ctx, const struct dfcp_aead_msg *m)
{
	int enc = EVP_CIPHER_CTX_is_encrypting(ctx), outl, ok;

	if (m->len > INT32_MAX || m->aad_len > INT32_MAX)
		return -EINVAL;
	ok = EVP_CipherInit_ex(ctx, NULL, NULL, NULL, m->nonce, enc) == 1 &&
		(m->aad_len == 0 || EVP_CipherUpdate(ctx, NULL, &outl, m->aad, (int)m->aad_len) == 1) &&
		EVP_CipherUpdate(ctx, m->buf, &outl, m->src != NULL ? m->src : m->buf,
				(int)m->len) == 1;
	if (ok && !enc)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, DFCP_AEAD_TAG_LEN, m->tag) == 1;
	ok = ok && EVP_CipherFinal_ex(ctx, m->buf + m->len, &outl) == 1;
	if (ok && enc)
		ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, DFCP_AEAD_TAG_LEN, m->tag) == 1;
	return ok ? 0 : -DFCP_E_AUTH;
}

static void
evp_seal_burst(void *ctx, const struct dfcp_aead_msg *m, uint32_t n, int *st)
{
	for (uint32_t i = 0; i < n; i++)
		st[i] = evp_run(ctx, &m[i]);
}

static int
evp_open(void *ctx, const struct dfcp_aead_msg *m)
{
	return evp_run(ctx, m);
}

static void
evp_destroy(void *ctx)
{
	EVP_CIPHER_CTX_free(ctx);
}

const struct dfcp_aead_ops dfcp_aead_evp_ops = {
	.create = evp_create,
	.seal_burst = evp_seal_burst,
	.open = evp_open,
	.destroy = evp_destroy,
};

int
dfcp_aead_init_ops(struct dfcp_aead *a, const struct dfcp_aead_ops *ops, unsigned int suite,
		const uint8_t *key, const uint8_t iv[DFCP_AEAD_IV], int enc)
{
	memset(a, 0, sizeof(*a));
	if (suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX)
		return -EINVAL;
	a->ops = ops != NULL ? ops : &dfcp_aead_evp_ops;
	a->ctx = a->ops->create(a->ops->arg, suite, key, suites[suite].key_len, enc);
	if (a->ctx == NULL)
		return -ENOMEM;
	a->enc = enc;
	memcpy(a->iv, iv, DFCP_AEAD_IV);
	return 0;
}

int
dfcp_aead_init(struct dfcp_aead *a, unsigned int suite, const uint8_t *key,
		const uint8_t iv[DFCP_AEAD_IV], int enc)
{
	return dfcp_aead_init_ops(a, NULL, suite, key, iv, enc);
}

void
dfcp_aead_fini(struct dfcp_aead *a)
{
	if (a->ctx != NULL)
		a->ops->destroy(a->ctx);
	a->ctx = NULL;
	OPENSSL_cleanse(a->iv, sizeof(a->iv));
}

static void
nonce_of(const struct dfcp_aead *a, uint64_t ctr, uint8_t n[DFCP_AEAD_IV])
{
	memcpy(n, a->iv, DFCP_AEAD_IV);
	for (int i = 0; i < 8; i++)
		n[4 + i] ^= (uint8_t)(ctr >> (56 - 8 * i));
}

int
dfcp_aead_seal(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, uint8_t *tag)
{
	uint8_t n[DFCP_AEAD_IV];
	struct dfcp_aead_msg m = { n, aad, buf, tag, (uint32_t)aad_len, (uint32_t)len, NULL };
	int st;

	if (!a->enc || a->ctx == NULL || len > INT32_MAX || aad_len > INT32_MAX)
		return -EINVAL;
	nonce_of(a, ctr, n);
	a->ops->seal_burst(a->ctx, &m, 1, &st);
	return st;
}

int
dfcp_aead_open(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, const uint8_t *tag)
{
	uint8_t n[DFCP_AEAD_IV], t[DFCP_AEAD_TAG_LEN];
	struct dfcp_aead_msg m = { n, aad, buf, t, (uint32_t)aad_len, (uint32_t)len, NULL };

	if (a->enc || a->ctx == NULL || len > INT32_MAX || aad_len > INT32_MAX)
		return -EINVAL;
	nonce_of(a, ctr, n);
	memcpy(t, tag, sizeof(t));
	return a->ops->open(a->ctx, &m) == 0 ? 0 : -DFCP_E_AUTH;
}

/* ------------------------------------------------------------------ */
/* DATA frames                                                          */
/* ------------------------------------------------------------------ */

/* associated data: the pseudo-header, then the DFCP header up to the symbol */
static size_t
data_aad(uint8_t *aad, uint32_t sip, uint32_t dip, uint16_t sport, uint16_t dport,
		const uint8_t *msg, uint32_t hdr)
{
	net_wr32(aad, sip);
	net_wr32(aad + 4, dip);
	net_wr16(aad + 8, sport);
	net_wr16(aad + 10, dport);
	memcpy(aad + 12, msg, hdr);
	return 12 + hdr;
}

static uint64_t
data_ctr(uint32_t block, uint32_t esi)
{
	return ((uint64_t)block << 32) | esi;
}

int
dfcp_data_seal(const struct dfcp_aead *a, uint8_t *frame, uint32_t hdr, uint32_t T,
		uint32_t block, uint32_t esi)
{
	const uint8_t *ip = frame + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint8_t *msg = frame + DFCP_L2L4_LEN, aad[12 + DFCP_DATA_OFF];
	size_t n;

	if (hdr > DFCP_DATA_OFF - DFCP_L2L4_LEN)
		return -EINVAL;
	n = data_aad(aad, net_rd32(ip + 12), net_rd32(ip + 16), net_rd16(udp), net_rd16(udp + 2),
			msg, hdr);
	return dfcp_aead_seal(a, data_ctr(block, esi), aad, n, msg + hdr, T, msg + hdr + T);
}

#define SEAL_BURST 32

void
dfcp_data_seal_burst(const struct dfcp_aead *a, uint8_t *const *frame,
		const void *const *src, uint32_t n, uint32_t hdr, uint32_t T)
{
	uint8_t aad[SEAL_BURST][12 + DFCP_DATA_OFF], nc[SEAL_BURST][DFCP_AEAD_IV];
	struct dfcp_aead_msg m[SEAL_BURST];
	int st[SEAL_BURST];

	if (!a->enc || a->ctx == NULL || hdr > DFCP_DATA_OFF - DFCP_L2L4_LEN) {
		for (uint32_t i = 0; i < n; i++)
			frame[i][DFCP_L2L4_LEN] = 0;
		return;
	}
	for (uint32_t i = 0; i < n; i += SEAL_BURST) {
		uint32_t b = n - i < SEAL_BURST ? n - i : SEAL_BURST;

		for (uint32_t j = 0; j < b; j++) {
			uint8_t *f = frame[i + j], *msg = f + DFCP_L2L4_LEN;
			const uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
			const uint8_t *d = msg + DFCP_COMMON_LEN;

			nonce_of(a, data_ctr(net_rd32(d), net_rd32(d + 4) & 0xffffff), nc[j]);
			m[j].nonce = nc[j];
			m[j].aad = aad[j];
			m[j].aad_len = (uint32_t)data_aad(aad[j], net_rd32(ip + 12), net_rd32(ip + 16),
					net_rd16(udp), net_rd16(udp + 2), msg, hdr);
			m[j].buf = msg + hdr;
			m[j].len = T;
			m[j].tag = msg + hdr + T;
			m[j].src = src != NULL ? src[i + j] : NULL;
		}
		a->ops->seal_burst(a->ctx, m, b, st);
		/* a frame the sealer refuses is sent unreadable: the peer counts it as lost */
		for (uint32_t j = 0; j < b; j++)
			if (st[j] != 0)
				frame[i + j][DFCP_L2L4_LEN] = 0;
	}
}

/* A DATA's associated data, nonce and message for open; 0, or -1 when it cannot be one. */
static int
open_msg(const struct dfcp_aead *a, const struct dfcp_pkt *pkt, uint8_t *aad, uint8_t *nonce,
		struct dfcp_aead_msg *m)
{
	uint32_t hdr;

	if (pkt->type != DFCP_T_DATA || !(pkt->flags & DFCP_F_CRYPT) || pkt->atag == NULL)
		return -1;
	hdr = (uint32_t)(pkt->u.data.sym - pkt->msg);
	if (hdr > DFCP_DATA_OFF - DFCP_L2L4_LEN || pkt->u.data.sym_len > INT32_MAX)
		return -1;
	nonce_of(a, data_ctr(pkt->u.data.block, pkt->u.data.esi), nonce);
	m->nonce = nonce;
	m->aad = aad;
	m->aad_len = (uint32_t)data_aad(aad, pkt->src_ip, pkt->dst_ip, pkt->src_port,
			pkt->dst_port, pkt->msg, hdr);
	/* the frame is the caller's, writable: the symbol is opened in place */
	m->buf = (uint8_t *)(uintptr_t)pkt->u.data.sym;
	m->len = pkt->u.data.sym_len;
	m->tag = (uint8_t *)(uintptr_t)pkt->atag;
	m->src = NULL;
	return 0;
}

/* The ops' seal_burst of an opening context opens: up to SEAL_BURST at a time. */
void
dfcp_data_open_burst(const struct dfcp_aead *a, struct dfcp_pkt *const *pkt,
		uint8_t *const *dst, uint32_t n)
{
	uint8_t aad[SEAL_BURST][12 + DFCP_DATA_OFF], nc[SEAL_BURST][DFCP_AEAD_IV];
	struct dfcp_aead_msg m[SEAL_BURST];
	struct dfcp_pkt *in[SEAL_BURST];
	int st[SEAL_BURST];

	for (uint32_t i = 0; i < n; i += SEAL_BURST) {
		uint32_t b = n - i < SEAL_BURST ? n - i : SEAL_BURST, k = 0;

		for (uint32_t j = 0; j < b; j++) {
			struct dfcp_pkt *p = pkt[i + j];

			p->opened = DFCP_OPEN_REFUSED;
			if (a->enc || a->ctx == NULL || open_msg(a, p, aad[k], nc[k], &m[k]) < 0)
				continue;
			if (dst != NULL && dst[i + j] != NULL) {
				m[k].src = m[k].buf;
				m[k].buf = dst[i + j];
			}
			in[k++] = p;
		}
		if (k != 0)
			a->ops->seal_burst(a->ctx, m, k, st);
		for (uint32_t j = 0; j < k; j++) {
			in[j]->opened = st[j] == 0 ? DFCP_OPEN_OK : DFCP_OPEN_REFUSED;
			if (st[j] == 0 && m[j].src != NULL)
				in[j]->u.data.sym = m[j].buf;
		}
	}
}

int
dfcp_data_open(const struct dfcp_aead *a, const struct dfcp_pkt *pkt)
{
	uint8_t aad[12 + DFCP_DATA_OFF], n[DFCP_AEAD_IV];
	struct dfcp_aead_msg m;

	if (a->enc || a->ctx == NULL || open_msg(a, pkt, aad, n, &m) < 0)
		return -DFCP_E_AUTH;
	return a->ops->open(a->ctx, &m) == 0 ? 0 : -DFCP_E_AUTH;
}
