/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_hash: integrity and authentication helpers of the wire protocols.
 *   CRC-32C (Castagnoli, iSCSI; RFC 3720 B.4): Intel ISA-L crc32_iscsi
 *   (SIMD, dispatched at run time), with a bitwise reference beside it.
 *   SipHash-2-4 (Aumasson, Bernstein 2012): a keyed 64-bit PRF / MAC,
 *   one-shot or incremental (a message in several pieces, e.g. a
 *   pseudo-header and a payload, without copying them together).
 * No DPDK calls.
 */
#ifndef NET_HASH_H
#define NET_HASH_H

#include <stddef.h>
#include <stdint.h>

/*
 * CRC-32C of p[0..n) continuing from crc (0 to start): the standard value
 * (initial ~0, final complement), so that
 * net_crc32c(b, nb, net_crc32c(a, na, 0)) is the CRC of a then b.
 * CRC-32C("123456789") = 0xe3069283.
 */
uint32_t net_crc32c(const void *p, size_t n, uint32_t crc);
/* The same, one bit at a time (the reference the tests compare with). */
uint32_t net_crc32c_ref(const void *p, size_t n, uint32_t crc);

/* SipHash key: 16 bytes, read as two little-endian words. */
#define NET_SIPKEY_LEN	16
struct net_sipkey {
	uint64_t k0, k1;
};
void net_sipkey_set(struct net_sipkey *k, const uint8_t key[NET_SIPKEY_LEN]);

/* Incremental SipHash-2-4. */
struct net_siphash {
	uint64_t v0, v1, v2, v3;
	uint64_t tail;		/* pending bytes, little-endian */
	uint64_t len;		/* bytes absorbed */
};
void net_siphash_init(struct net_siphash *s, const struct net_sipkey *k);
void net_siphash_update(struct net_siphash *s, const void *p, size_t n);
uint64_t net_siphash_final(const struct net_siphash *s);
/* One-shot SipHash-2-4 of p[0..n). */
uint64_t net_siphash24(const struct net_sipkey *k, const void *p, size_t n);

#endif /* NET_HASH_H */
