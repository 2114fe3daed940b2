/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net: Ethernet / IPv4 / UDP / TCP / ARP header helpers, the Ethernet / IPv4
 * validation and its error codes, and the application side (verifiable
 * pattern, pattern source, counting sink) shared by the protocol libraries
 * (lib/dfcp, lib/tcp) and the engine. No DPDK calls: frames are byte arrays,
 * multi-byte fields big-endian on the wire and host order in the API.
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

/*
 * Why a frame was refused at the Ethernet / IPv4 layer or as ARP (returned
 * negated). They are the first codes of every protocol library's own list
 * (enum dfcp_err, enum tcp_err go on from NET_E_MAX), so a protocol parser
 * returns a net code as it is.
 */
enum net_err {
	NET_E_OK = 0,
	NET_E_TRUNC_ETH,	/* shorter than an Ethernet header */
	NET_E_ETHERTYPE,	/* not IPv4 (not ARP for the ARP parser) */
	NET_E_TRUNC_IP,		/* shorter than an IPv4 header */
	NET_E_IP_HDR,		/* version != 4, IHL < 5 (or != 5), header past the end */
	NET_E_IP_LEN,		/* total length inconsistent with the frame */
	NET_E_IP_CSUM,		/* bad IPv4 header checksum */
	NET_E_IP_FRAG,		/* fragment */
	NET_E_IP_PROTO,		/* not the protocol asked for */
	NET_E_ARP,		/* not an Ethernet/IPv4 ARP request or reply */
	NET_E_MAX
};
/*
 * Name of err (or -err): a net code's from lib/net, any other from names
 * (the caller's table of max entries indexed by code); "?" when unknown.
 */
const char *net_err_str(int err, const char *const *names, unsigned int max);

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
/* Ethernet / IPv4 validation (inline: it runs once per received frame)  */
/* ------------------------------------------------------------------ */

#define NET_L3_CSUM_OK		0x1	/* the NIC verified the IPv4 header checksum */
#define NET_L3_OPTS		0x2	/* IPv4 options allowed (else IHL 5 only) */

/*
 * Validate the Ethernet and IPv4 headers of an IPv4 frame carrying protocol
 * proto and at least min_l4 bytes of it: not a fragment, lengths within the
 * frame (which may be padded past the IPv4 total length), the header
 * checksum unless flags has NET_L3_CSUM_OK. Returns the offset of the L4
 * header (Ethernet + IHL) and sets *l4_len (total length - IHL), or -NET_E_*.
 */
static inline int
net_l3_parse(const void *frame, size_t len, uint8_t proto, unsigned int min_l4,
		unsigned int flags, uint32_t *l4_len)
{
	const uint8_t *f = frame, *ip = f + NET_ETH_LEN;
	unsigned int ihl, tot;

	if (len < NET_ETH_LEN)
		return -NET_E_TRUNC_ETH;
	if (net_rd16(f + 12) != NET_ETHERTYPE_IPV4)
		return -NET_E_ETHERTYPE;
	if (len < NET_ETH_LEN + NET_IP_LEN)
		return -NET_E_TRUNC_IP;
	ihl = (ip[0] & 0x0fu) * 4u;
	if ((ip[0] >> 4) != 4 || ihl < NET_IP_LEN || ihl > len - NET_ETH_LEN ||
			(ihl != NET_IP_LEN && !(flags & NET_L3_OPTS)))
		return -NET_E_IP_HDR;
	tot = net_rd16(ip + 2);
	if (tot < ihl + min_l4 || tot > len - NET_ETH_LEN)
		return -NET_E_IP_LEN;
	if (!(flags & NET_L3_CSUM_OK) && net_csum16(ip, ihl, 0) != 0)
		return -NET_E_IP_CSUM;
	if (net_rd16(ip + 6) & 0x3fff)
		return -NET_E_IP_FRAG;
	if (ip[9] != proto)
		return -NET_E_IP_PROTO;
	*l4_len = tot - ihl;
	return (int)(NET_ETH_LEN + ihl);
}

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

struct net_arp {
	uint16_t op;
	uint8_t sha[6];
	uint32_t spa;		/* host order */
	uint8_t tha[6];
	uint32_t tpa;		/* host order */
};

/* 0, -NET_E_TRUNC_ETH, -NET_E_ETHERTYPE or -NET_E_ARP. */
int net_arp_parse(const void *frame, size_t len, struct net_arp *arp);
/*
 * Build a request (broadcast, tha zero) or a reply (to tha), padded to
 * NET_MIN_FRAME; returns NET_MIN_FRAME or -EMSGSIZE.
 */
int net_arp_build(void *frame, size_t cap, const struct net_arp *arp);
/*
 * If frame is an ARP request for my_ip, write the reply to out and return
 * its length; 0 if it is not a request for us; net_arp_parse's -NET_E_* if
 * malformed.
 */
int net_arp_answer(const void *frame, size_t len, const uint8_t my_mac[6],
		uint32_t my_ip, void *out, size_t cap);

/*
 * A neighbour: the MAC of one IPv4 address, learned only from a reply to
 * our own outstanding request (its target our address and MAC, within the
 * request's lifetime), or pinned from the start (remote_mac). A reply no
 * request of ours asked for (unsolicited, gratuitous) is counted and
 * ignored; a resolved MAC is never replaced: a reply naming another MAC is
 * a conflict, counted and re-checked by a new request (at most one per
 * lifetime). Time in ns, a parameter (no clock here).
 */
enum net_arp_state {
	NET_ARP_NONE = 0,	/* not resolved */
	NET_ARP_RESOLVED,	/* learned from a reply to our request */
	NET_ARP_PINNED,		/* fixed by configuration */
};

/* What a reply did to an entry (net_arp_entry_reply). */
enum net_arp_verdict {
	NET_ARP_V_OTHER = 0,	/* not a reply from the entry's address */
	NET_ARP_V_LEARNED,	/* resolved now (mac) */
	NET_ARP_V_SAME,		/* a solicited reply confirming mac */
	NET_ARP_V_IGNORED,	/* unsolicited: counted (unsolicited), ignored */
	NET_ARP_V_CONFLICT,	/* another MAC: counted (conflicts), ignored */
	NET_ARP_V_RECHECK,	/* as CONFLICT, and the caller sends a request now */
};

struct net_arp_entry {
	uint32_t ip;		/* the address (host order) */
	uint8_t mac[6];		/* valid unless state is NET_ARP_NONE */
	uint8_t state;		/* enum net_arp_state */
	uint64_t req_until;	/* replies to our latest request taken until (ns); 0: none */
	uint64_t unsolicited;	/* replies from ip that no request of ours asked for */
	uint64_t conflicts;	/* replies from ip naming another MAC than the resolved one */
};

/* An entry for ip, pinned to mac (resolved for good) unless mac is NULL. */
void net_arp_entry_init(struct net_arp_entry *e, uint32_t ip, const uint8_t *mac);
/* Our request for e->ip left at now: its replies are taken until now + life_ns. */
void net_arp_entry_requested(struct net_arp_entry *e, uint64_t now, uint64_t life_ns);
/* A parsed ARP frame received at now by my_ip / my_mac (the requester). */
enum net_arp_verdict net_arp_entry_reply(struct net_arp_entry *e, const struct net_arp *a,
		uint32_t my_ip, const uint8_t my_mac[6], uint64_t now);

/* ------------------------------------------------------------------ */
/* Application side                                                     */
/* ------------------------------------------------------------------ */

/*
 * Source: fill buf with up to len bytes; return bytes written, 0 at end of
 * data. Called by a sender whenever it has room for more of the stream.
 */
typedef size_t (*net_source_fn)(void *ctx, uint64_t now, void *buf, size_t len);
/*
 * Sink: in-order delivery of stream bytes at offset off. data is NULL when
 * only the length is known (a DFCP receiver that does not decode).
 */
typedef void (*net_sink_fn)(void *ctx, uint64_t off, const void *data, size_t len);

/* Verifiable pattern: byte at stream offset o is a function of (seed, o). */
void net_pattern_fill(uint32_t seed, uint64_t off, void *buf, size_t len);
/* Returns the offset of the first mismatch relative to buf, or len if all match. */
size_t net_pattern_check(uint32_t seed, uint64_t off, const void *buf, size_t len);
/* Plain reference of net_pattern_fill (one byte at a time) for the tests. */
void net_pattern_fill_ref(uint32_t seed, uint64_t off, void *buf, size_t len);

/* Pattern source (a net_source_fn): total bytes (0 = unlimited) and/or duration (0 = none). */
struct net_src_pattern {
	uint32_t seed;
	uint64_t total;		/* bytes; 0: no byte limit */
	uint64_t duration_ns;	/* 0: no time limit */
	uint64_t start_ns;	/* set on first call */
	uint64_t off;		/* bytes produced */
	int started;
	int fd;			/* >= 0: read this file instead of the pattern */
};
void net_src_pattern_init(struct net_src_pattern *s, uint32_t seed, uint64_t total,
		uint64_t duration_ns);
size_t net_src_pattern_read(void *ctx, uint64_t now, void *buf, size_t len);

/* Counting / verifying sink (a net_sink_fn). */
struct net_sink_count {
	uint32_t seed;
	int verify;		/* check the pattern */
	int fd;			/* >= 0: also write the data to this file */
	uint64_t bytes;		/* goodput bytes */
	uint64_t next_off;	/* expected next offset */
	uint64_t bad_bytes;	/* pattern mismatches (bytes in bad chunks) */
	uint64_t order_errors;	/* deliveries out of order */
	uint64_t file_bytes;	/* bytes written to fd */
	int err;		/* 0, or the -errno of the first failed write or sync of fd
				 * (nothing more is written to it after) */
};
void net_sink_count_init(struct net_sink_count *s, uint32_t seed, int verify);
/* Counts and verifies len bytes and writes them to fd (interrupted and short
 * writes are retried; a write that fails records err). */
void net_sink_count_write(void *ctx, uint64_t off, const void *data, size_t len);
/*
 * fsync the file (a device or pipe that cannot sync counts as synced): 0, or
 * err (the first write error, else the fsync's, recorded).
 */
int net_sink_count_sync(struct net_sink_count *s);

#endif /* NET_H */
