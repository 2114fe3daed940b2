/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP encryption, the public part (dfcp.h includes it): the suites and the
 * bulk AEAD a connection's DATA goes through. The key exchange and the
 * per-connection keys are the library's (dfcp_crypt.h).
 */
#ifndef DFCP_AEAD_H
#define DFCP_AEAD_H

#include <stdint.h>

/* Encryption suites (conf.crypto; names: dfcp_crypto_name). */
enum dfcp_crypto {
	DFCP_CRYPTO_OFF = 0,
	DFCP_CRYPTO_AES128GCM,
	DFCP_CRYPTO_CHACHA20,
	DFCP_CRYPTO_MAX
};
const char *dfcp_crypto_name(unsigned int suite);
/* The suite named, or -EINVAL. */
int dfcp_crypto_parse(const char *name);

/*
 * Pinned keys: the pre-shared key both ends derive from their static X25519
 * keys (ours private, the peer's public, 32 bytes each): HKDF-SHA256 of the
 * static-static shared secret, bound to both public keys in either order.
 * Only the holders of the two private keys can make it. 0, or -EINVAL for a
 * bad key (a low-order peer key included).
 */
int dfcp_pin_psk(const uint8_t priv[32], const uint8_t peer_pub[32], uint8_t psk[32]);

/* Tag bytes ending a DATA frame: with encryption the AEAD's, else a key's. */
static inline uint32_t
dfcp_data_tag_len(int auth, unsigned int crypto)
{
	return crypto != DFCP_CRYPTO_OFF ? DFCP_AEAD_TAG_LEN : auth ? DFCP_TAG_LEN : 0;
}

/*
 * A bulk AEAD for the DATA of encrypted connections (conf.aead_ops; NULL:
 * the library's OpenSSL EVP, dfcp_aead_evp_ops). A message: a 12-byte
 * nonce, aad_len bytes of associated data, len bytes sealed or opened
 * from src into buf (src NULL: in place in buf; else the two do not
 * overlap), DFCP_AEAD_TAG_LEN bytes of tag. Out of place saves a copy of
 * the symbol each way (the sender seals straight from the block into the
 * frame, the receiver opens from the frame into the block).
 */
struct dfcp_aead_msg {
	const uint8_t *nonce, *aad;
	uint8_t *buf, *tag;
	uint32_t aad_len, len;
	const uint8_t *src;
};
struct dfcp_aead_ops {
	/* one direction's context (enc 1: seal, 0: open), or NULL */
	void *(*create)(void *arg, unsigned int suite, const uint8_t *key, uint32_t key_len,
			int enc);
	/* n messages sealed (by an opening context: opened), st[i] 0 or -errno each */
	void (*seal_burst)(void *ctx, const struct dfcp_aead_msg *m, uint32_t n, int *st);
	/* 0, or -DFCP_E_AUTH when the tag is wrong */
	int (*open)(void *ctx, const struct dfcp_aead_msg *m);
	void (*destroy)(void *ctx);	/* and erases the key */
	void *arg;
	/* 1: messages only where they lie (a device that reaches DPDK memory
	 * only): the library gives no src, opens in the frame */
	int in_place;
};
extern const struct dfcp_aead_ops dfcp_aead_evp_ops;

#endif /* DFCP_AEAD_H */
