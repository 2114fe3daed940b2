/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP encryption primitives (dfcp_crypt.c): the X25519 exchange, HKDF,
 * the per-direction key sets and the AEAD of DATA frames. Private to
 * lib/dfcp and its tests.
 */
#ifndef DFCP_CRYPT_H
#define DFCP_CRYPT_H

#include <stddef.h>
#include <stdint.h>

#include "dfcp_keys.h"

struct dfcp_pkt;

int dfcp_kx_public(const uint8_t priv[DFCP_KX_KEY], uint8_t pub[DFCP_KX_KEY]);
int dfcp_kx_keypair(uint8_t priv[DFCP_KX_KEY], uint8_t pub[DFCP_KX_KEY]);
/* 0, or -EINVAL (bad key, or the all-zero secret of a low-order point) */
int dfcp_kx_shared(const uint8_t priv[DFCP_KX_KEY], const uint8_t peer[DFCP_KX_KEY],
		uint8_t out[DFCP_KX_KEY]);
int dfcp_hkdf_sha256(const uint8_t *salt, size_t salt_len, const uint8_t *ikm, size_t ikm_len,
		const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len);
int dfcp_kx_derive(unsigned int suite, const uint8_t *psk, size_t psk_len,
		const uint8_t shared[DFCP_KX_KEY], const uint8_t ipub[DFCP_KX_KEY],
		const uint8_t rpub[DFCP_KX_KEY], uint32_t icid, uint32_t rcid,
		struct dfcp_keyset *k);

/* enc 1: seal, 0: open; ops NULL: dfcp_aead_evp_ops. 0 or -errno. */
int dfcp_aead_init_ops(struct dfcp_aead *a, const struct dfcp_aead_ops *ops, unsigned int suite,
		const uint8_t *key, const uint8_t iv[DFCP_AEAD_IV], int enc);
int dfcp_aead_init(struct dfcp_aead *a, unsigned int suite, const uint8_t *key,
		const uint8_t iv[DFCP_AEAD_IV], int enc);
void dfcp_aead_fini(struct dfcp_aead *a);
/* nonce = iv xor (0^4 || ctr big-endian); len bytes at buf in place; 0 or -DFCP_E_AUTH */
int dfcp_aead_seal(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, uint8_t *tag);
int dfcp_aead_open(const struct dfcp_aead *a, uint64_t ctr, const uint8_t *aad, size_t aad_len,
		uint8_t *buf, size_t len, const uint8_t *tag);
/* A DATA frame: hdr bytes of DFCP header, then T symbol bytes, then the tag. */
int dfcp_data_seal(const struct dfcp_aead *a, uint8_t *frame, uint32_t hdr, uint32_t T,
		uint32_t block, uint32_t esi);
/*
 * n frames at once (frame[i] as above), each symbol sealed in place or, where
 * src (may be NULL) has src[i], from there into the frame; one the AEAD
 * refuses: its version byte zeroed.
 */
void dfcp_data_seal_burst(const struct dfcp_aead *a, uint8_t *const *frame,
		const void *const *src, uint32_t n, uint32_t hdr, uint32_t T);
/* The parsed DATA's symbol opened in place (its frame must be writable). */
int dfcp_data_open(const struct dfcp_aead *a, const struct dfcp_pkt *pkt);
/*
 * n parsed DATA at once: each pkt[i]->opened DFCP_OPEN_OK or _REFUSED. Where
 * dst (may be NULL) has dst[i] (T bytes, not in the frame), the symbol is
 * opened into it and, once its tag holds, pkt[i]->u.data.sym points there;
 * a refused one may leave dst[i] overwritten.
 */
void dfcp_data_open_burst(const struct dfcp_aead *a, struct dfcp_pkt *const *pkt,
		uint8_t *const *dst, uint32_t n);

#endif
