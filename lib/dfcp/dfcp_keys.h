/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The state an encrypted connection holds (a connection record embeds it):
 * its key sets and AEAD contexts. The functions are in dfcp_crypt.h.
 */
#ifndef DFCP_KEYS_H
#define DFCP_KEYS_H

#include <stdint.h>

struct dfcp_aead_ops;

#define DFCP_KX_KEY	32	/* X25519 private and public key bytes */
#define DFCP_AEAD_IV	12
#define DFCP_DIR_KEYS	60	/* HKDF bytes a direction takes: key 32, IV 12, MAC key 16 */

/* What the exchange gives a connection: dir[0] initiator -> responder. */
struct dfcp_keyset {
	struct {
		uint8_t key[32];	/* AEAD key (AES-128: the first 16 bytes) */
		uint8_t iv[DFCP_AEAD_IV];
		uint8_t mac[16];	/* SipHash key of the other messages */
	} dir[2];
	uint8_t suite;
};

/* One direction's AEAD state: the key schedule made once, a nonce a message. */
struct dfcp_aead {
	const struct dfcp_aead_ops *ops;
	void *ctx;		/* ops->create's */
	uint8_t iv[DFCP_AEAD_IV];
	int enc;
};

#endif
