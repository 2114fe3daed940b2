/* SPDX-License-Identifier: BSD-3-Clause */
/* net_hash: CRC-32C (ISA-L) and SipHash-2-4. See net_hash.h. */
#include <limits.h>
#include <string.h>

#include <isa-l/crc.h>

#include "net_hash.h"

uint32_t
net_crc32c(const void *p, size_t n, uint32_t crc)
{
	const unsigned char *b = p;

	crc = ~crc;
	while (n > 0) {
		int k = n > (size_t)INT_MAX ? INT_MAX : (int)n;

		crc = crc32_iscsi((unsigned char *)(uintptr_t)b, k, crc);
		b += k;
		n -= (size_t)k;
	}
	return ~crc;
}

uint32_t
net_crc32c_ref(const void *p, size_t n, uint32_t crc)
{
	const uint8_t *b = p;

	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= b[i];
		for (int j = 0; j < 8; j++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static inline uint64_t
rd64le(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void
net_sipkey_set(struct net_sipkey *k, const uint8_t key[NET_SIPKEY_LEN])
{
	k->k0 = rd64le(key);
	k->k1 = rd64le(key + 8);
}

#define ROTL(x, b)	(((x) << (b)) | ((x) >> (64 - (b))))

static inline void
sip_round(uint64_t *v0, uint64_t *v1, uint64_t *v2, uint64_t *v3)
{
	*v0 += *v1;
	*v1 = ROTL(*v1, 13);
	*v1 ^= *v0;
	*v0 = ROTL(*v0, 32);
	*v2 += *v3;
	*v3 = ROTL(*v3, 16);
	*v3 ^= *v2;
	*v0 += *v3;
	*v3 = ROTL(*v3, 21);
	*v3 ^= *v0;
	*v2 += *v1;
	*v1 = ROTL(*v1, 17);
	*v1 ^= *v2;
	*v2 = ROTL(*v2, 32);
}

void
net_siphash_init(struct net_siphash *s, const struct net_sipkey *k)
{
	s->v0 = k->k0 ^ 0x736f6d6570736575ull;
	s->v1 = k->k1 ^ 0x646f72616e646f6dull;
	s->v2 = k->k0 ^ 0x6c7967656e657261ull;
	s->v3 = k->k1 ^ 0x7465646279746573ull;
	s->tail = 0;
	s->len = 0;
}

/* Two compression rounds per 8-byte word m. */
static inline void
sip_word(uint64_t *v0, uint64_t *v1, uint64_t *v2, uint64_t *v3, uint64_t m)
{
	*v3 ^= m;
	sip_round(v0, v1, v2, v3);
	sip_round(v0, v1, v2, v3);
	*v0 ^= m;
}

void
net_siphash_update(struct net_siphash *s, const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t v0 = s->v0, v1 = s->v1, v2 = s->v2, v3 = s->v3;
	unsigned int have = (unsigned int)(s->len & 7);

	s->len += n;
	/* complete the pending word first */
	while (have != 0 && n > 0) {
		s->tail |= (uint64_t)*b++ << (8 * have);
		n--;
		if (++have == 8) {
			sip_word(&v0, &v1, &v2, &v3, s->tail);
			s->tail = 0;
			have = 0;
		}
	}
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t m;

		memcpy(&m, b, 8);	/* little-endian host (x86-64, arm64) */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
		m = __builtin_bswap64(m);
#endif
		sip_word(&v0, &v1, &v2, &v3, m);
	}
	for (unsigned int i = 0; i < n; i++)
		s->tail |= (uint64_t)b[i] << (8 * i);
	s->v0 = v0;
	s->v1 = v1;
	s->v2 = v2;
	s->v3 = v3;
}

uint64_t
net_siphash_final(const struct net_siphash *s)
{
	uint64_t v0 = s->v0, v1 = s->v1, v2 = s->v2, v3 = s->v3;
	uint64_t m = s->tail | s->len << 56;

	sip_word(&v0, &v1, &v2, &v3, m);
	v2 ^= 0xff;
	for (int i = 0; i < 4; i++)
		sip_round(&v0, &v1, &v2, &v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

uint64_t
net_siphash24(const struct net_sipkey *k, const void *p, size_t n)
{
	struct net_siphash s;

	net_siphash_init(&s, k);
	net_siphash_update(&s, p, n);
	return net_siphash_final(&s);
}
