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

int
dfcp_aead_init(struct dfcp_aead *a, unsigned int suite, const uint8_t *key,
		const uint8_t iv[DFCP_AEAD_IV], int enc)
{
	memset(a, 0, sizeof(*a));
	if (suite == DFCP_CRYPTO_OFF || suite >= DFCP_CRYPTO_MAX)
		return -EINVAL;
	a->ctx = EVP_CIPHER_CTX_new();
	if (a->ctx == NULL)
		return -ENOMEM;
	a->enc = enc;
	memcpy(a->iv, iv, DFCP_AEAD_IV);
	if (EVP_CipherInit_ex(a->ctx, suites[suite].cipher(), NULL, NULL, NULL, enc) != 1 ||
			EVP_CIPHER_CTX_ctrl(a->ctx, EVP_CTRL_AEAD_SET_IVLEN, DFCP_AEAD_IV, NULL) != 1 ||
			EVP_CipherInit_ex(a->ctx, NULL, NULL, key, NULL, enc) != 1) {
		dfcp_aead_fini(a);
		return -EINVAL;
	}
	return 0;
}

void
dfcp_aead_fini(struct dfcp_aead *a)
{
	EVP_CIPHER_CTX_free(a->ctx);
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

/* One message: len bytes at buf in place, tag out (seal) or in (open). */
static int
aead_run(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len, uint8_t *buf,
		size_t len, uint8_t *tag)
{
	uint8_t n[DFCP_AEAD_IV];
	int outl, ok;

	if (a->ctx == NULL || len > INT32_MAX || aad_len > INT32_MAX)
		return -EINVAL;
	nonce_of(a, ctr, n);
	ok = EVP_CipherInit_ex(a->ctx, NULL, NULL, NULL, n, a->enc) == 1 &&
		(aad_len == 0 || EVP_CipherUpdate(a->ctx, NULL, &outl, aad, (int)aad_len) == 1) &&
		EVP_CipherUpdate(a->ctx, buf, &outl, buf, (int)len) == 1;
	if (ok && !a->enc)
		ok = EVP_CIPHER_CTX_ctrl(a->ctx, EVP_CTRL_AEAD_SET_TAG, DFCP_AEAD_TAG_LEN, tag) == 1;
	ok = ok && EVP_CipherFinal_ex(a->ctx, buf + len, &outl) == 1;
	if (ok && a->enc)
		ok = EVP_CIPHER_CTX_ctrl(a->ctx, EVP_CTRL_AEAD_GET_TAG, DFCP_AEAD_TAG_LEN, tag) == 1;
	return ok ? 0 : -DFCP_E_AUTH;
}

int
dfcp_aead_seal(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, uint8_t *tag)
{
	return a->enc ? aead_run(a, ctr, aad, aad_len, buf, len, tag) : -EINVAL;
}

int
dfcp_aead_open(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, const uint8_t *tag)
{
	uint8_t t[DFCP_AEAD_TAG_LEN];

	if (a->enc)
		return -EINVAL;
	memcpy(t, tag, sizeof(t));
	return aead_run(a, ctr, aad, aad_len, buf, len, t);
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

int
dfcp_data_open(const struct dfcp_aead *a, const struct dfcp_pkt *pkt)
{
	uint8_t aad[12 + DFCP_DATA_OFF];
	uint32_t hdr;
	size_t n;

	if (pkt->type != DFCP_T_DATA || !(pkt->flags & DFCP_F_CRYPT) || pkt->atag == NULL)
		return -DFCP_E_AUTH;
	hdr = (uint32_t)(pkt->u.data.sym - pkt->msg);
	if (hdr > DFCP_DATA_OFF - DFCP_L2L4_LEN)
		return -DFCP_E_AUTH;
	n = data_aad(aad, pkt->src_ip, pkt->dst_ip, pkt->src_port, pkt->dst_port, pkt->msg, hdr);
	/* the frame is the caller's, writable: the symbol is opened in place */
	return dfcp_aead_open(a, data_ctr(pkt->u.data.block, pkt->u.data.esi), aad, n,
			(uint8_t *)(uintptr_t)pkt->u.data.sym, pkt->u.data.sym_len, pkt->atag);
}
