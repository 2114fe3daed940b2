/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net: Internet checksum, Ethernet / IPv4 / UDP / TCP header build, ARP
 * (frames, and the neighbour entry learned only from our own requests),
 * the names of the Ethernet / IPv4 error codes. Everything on the wire is
 * big-endian.
 */
#include <errno.h>
#include <string.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "net.h"

static const char *const net_err_names[NET_E_MAX] = {
	[NET_E_OK] = "ok",
	[NET_E_TRUNC_ETH] = "truncated-eth",
	[NET_E_ETHERTYPE] = "ethertype",
	[NET_E_TRUNC_IP] = "truncated-ip",
	[NET_E_IP_HDR] = "ip-header",
	[NET_E_IP_LEN] = "ip-length",
	[NET_E_IP_CSUM] = "ip-checksum",
	[NET_E_IP_FRAG] = "ip-fragment",
	[NET_E_IP_PROTO] = "ip-proto",
	[NET_E_ARP] = "arp",
};

const char *
net_err_str(int err, const char *const *names, unsigned int max)
{
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (e < NET_E_MAX)
		return net_err_names[e];
	if (names == NULL || e >= max || names[e] == NULL)
		return "?";
	return names[e];
}

/* The 16-bit words after 8-byte steps; folds the sum to 16 bits. */
static uint32_t
csum_tail(const uint8_t *p, size_t len, uint64_t sum)
{
	/* two 32-bit words per step; the 64-bit accumulator cannot overflow */
	while (len >= 8) {
		uint32_t a, b;

		memcpy(&a, p, 4);
		memcpy(&b, p + 4, 4);
		sum += a;
		sum += b;
		p += 8;
		len -= 8;
	}
	while (len >= 2) {
		uint16_t a;

		memcpy(&a, p, 2);
		sum += a;
		p += 2;
		len -= 2;
	}
	if (len) {
		uint16_t a = 0;

		memcpy(&a, p, 1);
		sum += a;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)sum;
}

uint32_t
net_csum_add_generic(const void *buf, size_t len, uint64_t sum)
{
	return csum_tail(buf, len, sum);
}

#ifdef __x86_64__
/*
 * 64 bytes a step: the 32-bit words zero-extended into four 64-bit lanes of
 * two accumulators (one's complement sums may be taken in any word size and
 * folded at the end; 2^34 bytes before a lane could overflow). About twice
 * the speed of the 8-byte loop for a 1.4 KiB frame on Zen 3.
 */
__attribute__((target("avx2")))
static uint32_t
csum_add_avx2(const uint8_t *p, size_t len, uint64_t sum)
{
	__m256i z = _mm256_setzero_si256(), a0 = z, a1 = z;
	__m128i s;

	while (len >= 64) {
		__m256i v = _mm256_loadu_si256((const __m256i *)p);
		__m256i w = _mm256_loadu_si256((const __m256i *)(p + 32));

		a0 = _mm256_add_epi64(a0, _mm256_unpacklo_epi32(v, z));
		a1 = _mm256_add_epi64(a1, _mm256_unpackhi_epi32(v, z));
		a0 = _mm256_add_epi64(a0, _mm256_unpacklo_epi32(w, z));
		a1 = _mm256_add_epi64(a1, _mm256_unpackhi_epi32(w, z));
		p += 64;
		len -= 64;
	}
	a0 = _mm256_add_epi64(a0, a1);
	s = _mm_add_epi64(_mm256_castsi256_si128(a0), _mm256_extracti128_si256(a0, 1));
	sum += (uint64_t)_mm_cvtsi128_si64(s) + (uint64_t)_mm_extract_epi64(s, 1);
	return csum_tail(p, len, sum);
}
#endif

uint32_t
net_csum_add(const void *buf, size_t len, uint64_t sum)
{
#ifdef __x86_64__
	if (len >= 128 && __builtin_cpu_supports("avx2"))
		return csum_add_avx2(buf, len, sum);
#endif
	return csum_tail(buf, len, sum);
}

uint16_t
net_csum16(const void *buf, size_t len, uint32_t seed)
{
	return (uint16_t)~net_csum_add(buf, len, seed);
}

uint16_t
net_csum16_ref(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	uint64_t sum = seed;
	size_t i;

	/* 16-bit words in memory order, read as native integers */
	for (i = 0; i + 1 < len; i += 2) {
		uint16_t w;

		memcpy(&w, p + i, 2);
		sum += w;
	}
	if (i < len) {
		uint16_t w = 0;

		memcpy(&w, p + i, 1);
		sum += w;
	}
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

uint32_t
net_pseudo_sum(const uint8_t *ip, uint8_t proto, uint16_t l4_len)
{
	uint8_t ph[12];

	memcpy(ph, ip + 12, 8);	/* src, dst */
	ph[8] = 0;
	ph[9] = proto;
	net_wr16(ph + 10, l4_len);
	return net_csum_add(ph, sizeof(ph), 0);
}

int
net_arp_parse(const void *frame, size_t len, struct net_arp *arp)
{
	const uint8_t *f = frame, *a;

	if (len < NET_ETH_LEN)
		return -NET_E_TRUNC_ETH;
	if (net_rd16(f + 12) != NET_ETHERTYPE_ARP)
		return -NET_E_ETHERTYPE;
	if (len < NET_ARP_LEN)
		return -NET_E_ARP;
	a = f + NET_ETH_LEN;
	if (net_rd16(a) != 1 || net_rd16(a + 2) != NET_ETHERTYPE_IPV4 || a[4] != 6 || a[5] != 4)
		return -NET_E_ARP;
	arp->op = net_rd16(a + 6);
	if (arp->op != NET_ARP_REQUEST && arp->op != NET_ARP_REPLY)
		return -NET_E_ARP;
	memcpy(arp->sha, a + 8, 6);
	arp->spa = net_rd32(a + 14);
	memcpy(arp->tha, a + 18, 6);
	arp->tpa = net_rd32(a + 24);
	return 0;
}

int
net_arp_build(void *frame, size_t cap, const struct net_arp *arp)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t *f = frame, *a = f + NET_ETH_LEN;
	int req = arp->op == NET_ARP_REQUEST;

	if (cap < NET_MIN_FRAME)
		return -EMSGSIZE;
	net_eth_build(f, req ? bcast : arp->tha, arp->sha, NET_ETHERTYPE_ARP);
	net_wr16(a, 1);
	net_wr16(a + 2, NET_ETHERTYPE_IPV4);
	a[4] = 6;
	a[5] = 4;
	net_wr16(a + 6, arp->op);
	memcpy(a + 8, arp->sha, 6);
	net_wr32(a + 14, arp->spa);
	if (req)
		memset(a + 18, 0, 6);
	else
		memcpy(a + 18, arp->tha, 6);
	net_wr32(a + 24, arp->tpa);
	memset(f + NET_ARP_LEN, 0, NET_MIN_FRAME - NET_ARP_LEN);
	return NET_MIN_FRAME;
}

int
net_arp_answer(const void *frame, size_t len, const uint8_t my_mac[6],
		uint32_t my_ip, void *out, size_t cap)
{
	struct net_arp in, rep;
	int rc = net_arp_parse(frame, len, &in);

	if (rc < 0)
		return rc;
	if (in.op != NET_ARP_REQUEST || in.tpa != my_ip)
		return 0;
	rep.op = NET_ARP_REPLY;
	memcpy(rep.sha, my_mac, 6);
	rep.spa = my_ip;
	memcpy(rep.tha, in.sha, 6);
	rep.tpa = in.spa;
	return net_arp_build(out, cap, &rep);
}

void
net_arp_entry_init(struct net_arp_entry *e, uint32_t ip, const uint8_t *mac)
{
	memset(e, 0, sizeof(*e));
	e->ip = ip;
	if (mac != NULL) {
		memcpy(e->mac, mac, 6);
		e->state = NET_ARP_PINNED;
	}
}

void
net_arp_entry_requested(struct net_arp_entry *e, uint64_t now, uint64_t life_ns)
{
	e->req_until = now + life_ns;
}

enum net_arp_verdict
net_arp_entry_reply(struct net_arp_entry *e, const struct net_arp *a, uint32_t my_ip,
		const uint8_t my_mac[6], uint64_t now)
{
	/* an answer to our request: while it is outstanding, to our address and MAC */
	int asked = now < e->req_until && a->tpa == my_ip && memcmp(a->tha, my_mac, 6) == 0;

	if (a->op != NET_ARP_REPLY || a->spa != e->ip)
		return NET_ARP_V_OTHER;
	if (e->state != NET_ARP_NONE && memcmp(a->sha, e->mac, 6) != 0) {
		e->conflicts++;
		if (e->state == NET_ARP_PINNED || now < e->req_until)
			return NET_ARP_V_CONFLICT;	/* pinned, or a check under way */
		return NET_ARP_V_RECHECK;
	}
	if (!asked) {
		e->unsolicited++;
		return NET_ARP_V_IGNORED;
	}
	if (e->state != NET_ARP_NONE)
		return NET_ARP_V_SAME;
	memcpy(e->mac, a->sha, 6);
	e->state = NET_ARP_RESOLVED;
	return NET_ARP_V_LEARNED;
}
