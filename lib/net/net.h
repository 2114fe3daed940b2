/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net: Ethernet / IPv4 / UDP / TCP / ARP header helpers shared by the
 * protocol libraries (lib/dfcp, lib/tcp) and the engine. No DPDK calls:
 * frames are byte arrays, multi-byte fields big-endian on the wire and host
 * order in the API.
 */
#ifndef NET_H
#define NET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NET_ETH_LEN		14
#define NET_IP_LEN		20	/* IPv4 header without options */
#define NET_UDP_LEN		8
#define NET_TCP_LEN		20	/* TCP header without options */
#define NET_ARP_LEN		42	/* Ethernet + ARP, before padding */
#define NET_MIN_FRAME		60	/* frames are padded to this */

#define NET_ETHERTYPE_IPV4	0x0800
#define NET_ETHERTYPE_ARP	0x0806
#define NET_PROTO_TCP		6
#define NET_PROTO_UDP		17

/* ------------------------------------------------------------------ */
/* Big-endian load / store                                              */
/* ------------------------------------------------------------------ */

static inline uint16_t
net_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
net_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
net_rd64(const uint8_t *p)
{
	return (uint64_t)net_rd32(p) << 32 | net_rd32(p + 4);
}

static inline void
net_wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void
net_wr32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static inline void
net_wr64(uint8_t *p, uint64_t v)
{
	net_wr32(p, (uint32_t)(v >> 32));
	net_wr32(p + 4, (uint32_t)v);
}

/* ------------------------------------------------------------------ */
/* Internet checksum (RFC 1071)                                         */
/* ------------------------------------------------------------------ */

/*
 * One's-complement sum of buf added to sum, in native byte order, folded to
 * 16 bits but not complemented (a partial sum to feed to the next call).
 */
uint32_t net_csum_add(const void *buf, size_t len, uint64_t sum);
/* net_csum_add without its AVX2 path (the one other CPUs take), for the tests. */
uint32_t net_csum_add_generic(const void *buf, size_t len, uint64_t sum);
/* Checksum of buf with a partial-sum seed: folded and complemented. */
uint16_t net_csum16(const void *buf, size_t len, uint32_t seed);
/* Plain reference of net_csum16 (byte pairs, one at a time) for the tests. */
uint16_t net_csum16_ref(const void *buf, size_t len, uint32_t seed);
/*
 * Partial sum of the IPv4 pseudo header (addresses of the header at ip,
 * protocol proto, L4 length l4_len) in native order, for net_csum16's seed.
 */
uint32_t net_pseudo_sum(const uint8_t *ip, uint8_t proto, uint16_t l4_len);

/* ------------------------------------------------------------------ */
/* Header build (inline: they run once per frame)                      */
/* ------------------------------------------------------------------ */

/* Ethernet header: destination, source, EtherType. */
static inline void
net_eth_build(uint8_t *f, const uint8_t dst[6], const uint8_t src[6], uint16_t type)
{
	memcpy(f, dst, 6);
	memcpy(f + 6, src, 6);
	net_wr16(f + 12, type);
}

/*
 * IPv4 header without options at ip: total length tot_len, id 0, DF, the
 * TTL and protocol given, addresses in host order, checksum field 0.
 */
static inline void
net_ipv4_build(uint8_t *ip, uint16_t tot_len, uint8_t ttl, uint8_t proto,
		uint32_t src, uint32_t dst)
{
	ip[0] = 0x45;
	ip[1] = 0;
	net_wr16(ip + 2, tot_len);
	net_wr16(ip + 4, 0);
	net_wr16(ip + 6, 0x4000);	/* DF */
	ip[8] = ttl;
	ip[9] = proto;
	net_wr16(ip + 10, 0);
	net_wr32(ip + 12, src);
	net_wr32(ip + 16, dst);
}

/* UDP header at udp: ports, length len (header included), checksum 0. */
static inline void
net_udp_build(uint8_t *udp, uint16_t sport, uint16_t dport, uint16_t len)
{
	net_wr16(udp, sport);
	net_wr16(udp + 2, dport);
	net_wr16(udp + 4, len);
	net_wr16(udp + 6, 0);
}

/*
 * TCP header without its options at th: ports, sequence and ack numbers,
 * data offset hdr_len (bytes, options included) with the 4 reserved bits
 * rsv, flags, window; checksum and urgent pointer 0.
 */
static inline void
net_tcp_build(uint8_t *th, uint16_t sport, uint16_t dport, uint32_t seq, uint32_t ack,
		unsigned int hdr_len, uint8_t rsv, uint8_t flags, uint16_t wnd)
{
	net_wr16(th, sport);
	net_wr16(th + 2, dport);
	net_wr32(th + 4, seq);
	net_wr32(th + 8, ack);
	th[12] = (uint8_t)((hdr_len / 4) << 4 | (rsv & 0x0f));
	th[13] = flags;
	net_wr16(th + 14, wnd);
	net_wr16(th + 16, 0);
	net_wr16(th + 18, 0);
}

/* ------------------------------------------------------------------ */
/* ARP (Ethernet / IPv4)                                                */
/* ------------------------------------------------------------------ */

#define NET_ARP_REQUEST		1
#define NET_ARP_REPLY		2

/* Why net_arp_parse refused a frame (returned negated). */
enum net_arp_err {
	NET_ARP_OK = 0,
	NET_ARP_E_TRUNC_ETH,	/* shorter than an Ethernet header */
	NET_ARP_E_ETHERTYPE,	/* not ARP */
	NET_ARP_E_ARP,		/* not an Ethernet/IPv4 request or reply */
};

struct net_arp {
	uint16_t op;
	uint8_t sha[6];
	uint32_t spa;		/* host order */
	uint8_t tha[6];
	uint32_t tpa;		/* host order */
};

/* 0 or -NET_ARP_E_*. */
int net_arp_parse(const void *frame, size_t len, struct net_arp *arp);
/*
 * Build a request (broadcast, tha zero) or a reply (to tha), padded to
 * NET_MIN_FRAME; returns NET_MIN_FRAME or -EMSGSIZE.
 */
int net_arp_build(void *frame, size_t cap, const struct net_arp *arp);
/*
 * If frame is an ARP request for my_ip, write the reply to out and return
 * its length; 0 if it is not a request for us; -NET_ARP_E_* if malformed.
 */
int net_arp_answer(const void *frame, size_t len, const uint8_t my_mac[6],
		uint32_t my_ip, void *out, size_t cap);

#endif /* NET_H */
