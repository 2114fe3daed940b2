/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP wire format: Ethernet / IPv4 / UDP / DFCP build and parse (the
 * Ethernet / IPv4 layer and ARP: lib/net).
 * Everything on the wire is big-endian; see doc/protocol.md.
 */
#include <errno.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

/* DFCP's own codes; the Ethernet / IPv4 ones are named by lib/net */
static const char *const err_names[DFCP_E_MAX] = {
	[DFCP_E_UDP_LEN] = "udp-length",
	[DFCP_E_UDP_CSUM] = "udp-checksum",
	[DFCP_E_TRUNC_DFCP] = "truncated-dfcp",
	[DFCP_E_VERSION] = "version",
	[DFCP_E_TYPE] = "type",
	[DFCP_E_LEN] = "length",
	[DFCP_E_PARAMS] = "params",
	[DFCP_E_ESI] = "esi",
	[DFCP_E_SYMLEN] = "symbol-length",
	[DFCP_E_CONN] = "unknown-conn",
	[DFCP_E_STATE] = "state",
	[DFCP_E_NOBUF] = "no-buffer",
	[DFCP_E_STALE] = "stale",
	[DFCP_E_BACKLOG] = "backlog",
	[DFCP_E_ADDR] = "address",
	[DFCP_E_ROUND] = "round",
	[DFCP_E_REPORT] = "report",
	[DFCP_E_PEER] = "peer",
	[DFCP_E_AUTH] = "auth",
	[DFCP_E_CRC] = "crc",
	[DFCP_E_VALUE] = "value",
	[DFCP_E_MEMORY] = "memory",
	[DFCP_E_CRYPTO] = "crypto",
};

const char *
dfcp_err_str(int err)
{
	return net_err_str(err, err_names, DFCP_E_MAX);
}

/* DFCP payload length (after the common header) of each control type. */
static const uint16_t body_len[DFCP_T_MAX] = {
	[DFCP_T_SYN] = DFCP_SYN_BODY,
	[DFCP_T_SYNACK] = DFCP_SYN_BODY,
	[DFCP_T_ACK] = DFCP_ACK_BODY,
	[DFCP_T_DATA] = DFCP_DATA_BODY,	/* plus the symbol */
	[DFCP_T_BLOCK_ACK] = DFCP_BACK_BODY,
	[DFCP_T_FIN] = DFCP_FIN_BODY,
	[DFCP_T_FINACK] = 0,
	[DFCP_T_RST] = DFCP_RST_BODY,
};

static inline uint32_t
pseudo_sum(const uint8_t *ip, uint16_t udp_len)
{
	return net_pseudo_sum(ip, NET_PROTO_UDP, udp_len);
}

int
dfcp_params_check(const struct dfcp_params *p, const struct dfcp_params *lim)
{
	uint32_t max_window = DFCP_MAX_WINDOW, max_K = DFCP_MAX_K, max_T = DFCP_MAX_T;

	if (lim != NULL) {
		if (lim->max_window && lim->max_window < max_window)
			max_window = lim->max_window;
		if (lim->max_K && lim->max_K < max_K)
			max_K = lim->max_K;
		if (lim->max_T && lim->max_T < max_T)
			max_T = lim->max_T;
	}
	if (p->T < DFCP_MIN_T || p->T > max_T)
		return -DFCP_E_PARAMS;
	if (p->K == 0 || p->K > max_K)
		return -DFCP_E_PARAMS;
	if (p->window == 0 || p->window > max_window)
		return -DFCP_E_PARAMS;
	if (p->block_size == 0 || p->block_size > (uint32_t)p->K * p->T)
		return -DFCP_E_PARAMS;
	if (p->redundancy != DFCP_REDUNDANCY_AUTO && p->redundancy < p->K)
		return -DFCP_E_PARAMS;
	if (p->max_window == 0 || p->max_K == 0 || p->max_T == 0)
		return -DFCP_E_PARAMS;
	return 0;
}

/* ------------------------------------------------------------------ */
/* authentication                                                       */
/* ------------------------------------------------------------------ */

int
dfcp_auth_init(struct dfcp_auth *a, const void *key, size_t len)
{
	const uint8_t *k = key;
	struct net_sipkey sk;
	uint8_t in[17];

	if (len != 16 && len != 32)
		return -EINVAL;
	net_sipkey_set(&sk, k);
	if (len == 16) {
		a->k0 = sk.k0;
		a->k1 = sk.k1;
		return 0;
	}
	/* 32 bytes: SipHash keyed by the first half, as a PRF of the second */
	memcpy(in, k + 16, 16);
	in[16] = 1;
	a->k0 = net_siphash24(&sk, in, sizeof(in));
	in[16] = 2;
	a->k1 = net_siphash24(&sk, in, sizeof(in));
	return 0;
}

/* Tag of a message: SipHash-2-4 of the pseudo-header (source and destination
 * IPv4 address and UDP port, big-endian: 12 bytes) and the message. */
static uint64_t
auth_tag(const struct dfcp_auth *a, uint32_t sip, uint32_t dip, uint16_t sport,
		uint16_t dport, const uint8_t *msg, uint32_t len)
{
	const struct net_sipkey k = { a->k0, a->k1 };
	struct net_siphash h;
	uint8_t ph[12];

	net_wr32(ph, sip);
	net_wr32(ph + 4, dip);
	net_wr16(ph + 8, sport);
	net_wr16(ph + 10, dport);
	net_siphash_init(&h, &k);
	net_siphash_update(&h, ph, sizeof(ph));
	net_siphash_update(&h, msg, len);
	return net_siphash_final(&h);
}

int
dfcp_auth_check(const struct dfcp_auth *a, const struct dfcp_pkt *pkt)
{
	if (!(pkt->flags & DFCP_F_AUTH) || pkt->msg == NULL)
		return -DFCP_E_AUTH;
	if (auth_tag(a, pkt->src_ip, pkt->dst_ip, pkt->src_port, pkt->dst_port, pkt->msg,
			pkt->msg_len) != pkt->tag)
		return -DFCP_E_AUTH;
	return 0;
}

void
dfcp_auth_sign(const struct dfcp_auth *a, uint8_t *f, uint32_t msg_len)
{
	const uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint8_t *msg = f + DFCP_L2L4_LEN;

	net_wr64(msg + msg_len, auth_tag(a, net_rd32(ip + 12), net_rd32(ip + 16),
			net_rd16(udp), net_rd16(udp + 2), msg, msg_len));
}

/* ------------------------------------------------------------------ */
/* parse                                                                */
/* ------------------------------------------------------------------ */

static int
parse_data(const uint8_t *d, uint32_t dlen, struct dfcp_pkt *pkt)
{
	uint32_t pid = net_rd32(d + 4), hdr = DFCP_DATA_BODY;

	pkt->u.data.block = net_rd32(d);
	pkt->u.data.esi = pid & 0xffffff;
	pkt->u.data.block_len = net_rd32(d + 8);
	if ((pid >> 24) != (pkt->u.data.block & 0xff))
		return -DFCP_E_ESI;
	if (pkt->u.data.block_len == 0 ||
			pkt->u.data.block_len > (uint32_t)DFCP_MAX_K * DFCP_MAX_T)
		return -DFCP_E_ESI;
	pkt->u.data.seq = 0;
	pkt->u.data.rlen = 0;
	pkt->u.data.rpos = 0;
	if (pkt->flags & DFCP_F_RND) {
		pkt->u.data.seq = net_rd32(d + 12);
		pkt->u.data.rlen = net_rd16(d + 16);
		pkt->u.data.rpos = net_rd16(d + 18);
		hdr += DFCP_RND_LEN;
		/* the last packet of a round is the one flagged LAST; its ESIs
		 * are consecutive: from esi - rpos, all below 2^24 */
		if (pkt->u.data.rpos >= pkt->u.data.rlen ||
				((pkt->u.data.rpos + 1u == pkt->u.data.rlen) !=
				 !!(pkt->flags & DFCP_F_LAST)) ||
				pkt->u.data.rpos > pkt->u.data.esi ||
				pkt->u.data.esi - pkt->u.data.rpos + pkt->u.data.rlen > (1u << 24))
			return -DFCP_E_ROUND;
	}
	pkt->u.data.crc = 0;
	if (pkt->flags & DFCP_F_CRC) {
		pkt->u.data.crc = net_rd32(d + hdr);
		hdr += DFCP_CRC_LEN;
	}
	pkt->u.data.sym = d + hdr;
	pkt->u.data.sym_len = dlen - hdr;
	return 0;
}

static int
parse_back(const uint8_t *d, struct dfcp_pkt *pkt)
{
	pkt->u.back.block = net_rd32(d);
	pkt->u.back.cum = net_rd32(d + 4);
	pkt->u.back.status = net_rd16(d + 8);
	pkt->u.back.missing = net_rd16(d + 10);
	pkt->u.back.rcvd = net_rd32(d + 12);
	pkt->u.back.esi_span = net_rd32(d + 16);
	pkt->u.back.bitmap = net_rd64(d + 20);
	if (pkt->u.back.status != DFCP_BA_DECODED && pkt->u.back.status != DFCP_BA_SHORT)
		return -DFCP_E_LEN;
	pkt->u.back.rx_pkts = pkt->u.back.seq_next = pkt->u.back.rnd_seq = 0;
	pkt->u.back.rnd_len = pkt->u.back.rnd_rcvd = 0;
	pkt->u.back.rnd_end = DFCP_END_NONE;
	pkt->u.back.rate = 0;
	if (!(pkt->flags & DFCP_F_RPT))
		return 0;
	d += DFCP_BACK_BODY;
	pkt->u.back.rx_pkts = net_rd32(d);
	pkt->u.back.seq_next = net_rd32(d + 4);
	pkt->u.back.rnd_seq = net_rd32(d + 8);
	pkt->u.back.rnd_len = net_rd16(d + 12);
	pkt->u.back.rnd_rcvd = net_rd16(d + 14);
	pkt->u.back.rnd_end = d[16];
	pkt->u.back.rate = net_rd32(d + 20);
	/* what needs no state: a round's arrivals fit in it, a known way it ended */
	if (pkt->u.back.rnd_rcvd > pkt->u.back.rnd_len || pkt->u.back.rnd_end > DFCP_END_IDLE ||
			(pkt->u.back.rnd_end == DFCP_END_NONE) != (pkt->u.back.rnd_len == 0))
		return -DFCP_E_REPORT;
	return 0;
}

int
dfcp_parse(const void *frame, size_t len, unsigned int rx_flags,
		struct dfcp_pkt *pkt)
{
	const uint8_t *f = frame;
	const uint8_t *ip, *udp, *d;
	uint16_t ulen, dlen, ucs;
	uint32_t l4_len;
	uint8_t type;
	int l4;

	/* IHL 5 only: the UDP header at DFCP_ETH_LEN + DFCP_IP_LEN */
	l4 = net_l3_parse(f, len, NET_PROTO_UDP, DFCP_UDP_LEN,
			(rx_flags & DFCP_RX_IP_CSUM_OK) ? NET_L3_CSUM_OK : 0, &l4_len);
	if (l4 < 0)
		return l4;
	ip = f + DFCP_ETH_LEN;
	udp = f + l4;
	ulen = net_rd16(udp + 4);
	if (ulen != l4_len)
		return -DFCP_E_UDP_LEN;
	ucs = net_rd16(udp + 6);
	if (ucs != 0 && !(rx_flags & DFCP_RX_UDP_CSUM_OK)) {
		if (net_csum16(udp, ulen, pseudo_sum(ip, ulen)) != 0)
			return -DFCP_E_UDP_CSUM;
	}
	d = udp + DFCP_UDP_LEN;
	dlen = ulen - DFCP_UDP_LEN;
	if (dlen < DFCP_COMMON_LEN)
		return -DFCP_E_TRUNC_DFCP;

	memcpy(pkt->dst_mac, f, 6);
	memcpy(pkt->src_mac, f + 6, 6);
	pkt->src_ip = net_rd32(ip + 12);
	pkt->dst_ip = net_rd32(ip + 16);
	pkt->src_port = net_rd16(udp);
	pkt->dst_port = net_rd16(udp + 2);
	pkt->version = d[0];
	type = d[1];
	pkt->type = type;
	pkt->flags = net_rd16(d + 2);
	pkt->dst_cid = net_rd32(d + 4);
	pkt->src_cid = net_rd32(d + 8);
	pkt->msg = d;
	pkt->tag = 0;
	pkt->atag = NULL;
	pkt->opened = 0;
	if (pkt->version != DFCP_VERSION)
		return -DFCP_E_VERSION;
	if (type == 0 || type >= DFCP_T_MAX)
		return -DFCP_E_TYPE;
	if (pkt->flags & DFCP_F_AUTH) {
		if (dlen < DFCP_COMMON_LEN + DFCP_TAG_LEN)
			return -DFCP_E_LEN;
		dlen -= DFCP_TAG_LEN;
		pkt->tag = net_rd64(d + dlen);
	}
	/* sealed: DATA only, never also tagged; a key exchange: SYN and SYNACK only */
	if ((pkt->flags & DFCP_F_CRYPT) && type != DFCP_T_SYN && type != DFCP_T_SYNACK) {
		if (type != DFCP_T_DATA || (pkt->flags & DFCP_F_AUTH))
			return -DFCP_E_AUTH;
		if (dlen < DFCP_COMMON_LEN + DFCP_AEAD_TAG_LEN)
			return -DFCP_E_LEN;
		dlen -= DFCP_AEAD_TAG_LEN;
		pkt->atag = d + dlen;
	}
	pkt->msg_len = dlen;
	dlen -= DFCP_COMMON_LEN;
	d += DFCP_COMMON_LEN;
	if ((type == DFCP_T_SYN || type == DFCP_T_SYNACK) && (pkt->flags & DFCP_F_CRYPT)) {
		if (dlen != DFCP_SYN_BODY + DFCP_KX_LEN)
			return -DFCP_E_LEN;
	} else if (type == DFCP_T_DATA) {
		if (dlen <= DFCP_DATA_BODY + ((pkt->flags & DFCP_F_RND) ? DFCP_RND_LEN : 0) +
				((pkt->flags & DFCP_F_CRC) ? DFCP_CRC_LEN : 0))
			return -DFCP_E_LEN;
	} else if (dlen != body_len[type] + ((type == DFCP_T_BLOCK_ACK &&
			(pkt->flags & DFCP_F_RPT)) ? DFCP_RPT_LEN : 0)) {
		return -DFCP_E_LEN;
	}
	/* connection ids: only a SYN (and an RST answering one) may carry dst 0 */
	if (pkt->src_cid == 0)
		return -DFCP_E_CONN;
	if (pkt->dst_cid == 0 && type != DFCP_T_SYN && type != DFCP_T_RST)
		return -DFCP_E_CONN;

	switch (type) {
	case DFCP_T_SYN:
	case DFCP_T_SYNACK: {
		struct dfcp_params *p = &pkt->u.params;

		memset(p, 0, sizeof(*p));	/* padding too: a parsed SYN is all defined */
		p->block_size = net_rd32(d);
		p->T = net_rd16(d + 4);
		p->K = net_rd16(d + 6);
		p->window = net_rd32(d + 8);
		p->redundancy = net_rd16(d + 12);
		p->flags = pkt->flags & DFCP_F_OPTS;
		p->max_window = net_rd32(d + 16);
		p->max_K = net_rd16(d + 20);
		p->max_T = net_rd16(d + 22);
		if (pkt->flags & DFCP_F_CRYPT) {
			p->suite = d[DFCP_SYN_BODY];
			memcpy(p->kx_pub, d + DFCP_SYN_BODY + 4, sizeof(p->kx_pub));
			if (p->suite == DFCP_CRYPTO_OFF || p->suite >= DFCP_CRYPTO_MAX)
				return -DFCP_E_PARAMS;
		}
		if (dfcp_params_check(p, NULL) != 0)
			return -DFCP_E_PARAMS;
		break;
	}
	case DFCP_T_ACK:
		pkt->u.ack.acked = d[0];
		break;
	case DFCP_T_DATA:
		return parse_data(d, dlen, pkt);
	case DFCP_T_BLOCK_ACK:
		return parse_back(d, pkt);
	case DFCP_T_FIN:
		pkt->u.fin.nblocks = net_rd32(d);
		pkt->u.fin.nbytes = net_rd64(d + 4);
		break;
	case DFCP_T_RST:
		pkt->u.rst.reason = net_rd16(d);
		break;
	default:
		break;
	}
	return 0;
}

/* Write Ethernet + IPv4 + UDP headers for a DFCP payload of dlen bytes. */
static void
build_l2l4(uint8_t *f, const struct dfcp_addr *src, const struct dfcp_addr *dst,
		uint16_t dlen)
{
	uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint16_t ulen = DFCP_UDP_LEN + dlen;

	net_eth_build(f, dst->mac, src->mac, DFCP_ETHERTYPE_IPV4);
	net_ipv4_build(ip, DFCP_IP_LEN + ulen, 64, NET_PROTO_UDP, src->ip, dst->ip);
	net_udp_build(udp, src->port, dst->port, ulen);
}

void
dfcp_udp_csum(uint8_t *f)
{
	uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint16_t ulen = net_rd16(udp + 4), c;

	memset(udp + 6, 0, 2);
	c = net_csum16(udp, ulen, pseudo_sum(ip, ulen));
	if (c == 0)
		c = 0xffff;
	memcpy(udp + 6, &c, 2);
}

void
dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum)
{
	uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint16_t ulen = net_rd16(udp + 4), c;

	switch (csum) {
	case DFCP_CSUM_FULL:
		c = net_csum16(ip, DFCP_IP_LEN, 0);
		memcpy(ip + 10, &c, 2);
		dfcp_udp_csum(f);
		break;
	case DFCP_CSUM_UDP_ZERO:
		c = net_csum16(ip, DFCP_IP_LEN, 0);
		memcpy(ip + 10, &c, 2);
		break;
	case DFCP_CSUM_OFFLOAD: {
		uint16_t ps = (uint16_t)pseudo_sum(ip, ulen);

		memcpy(udp + 6, &ps, 2);
		break;
	}
	}
}

int
dfcp_build(void *frame, size_t cap, const struct dfcp_addr *src,
		const struct dfcp_addr *dst, const struct dfcp_pkt *pkt,
		enum dfcp_csum csum)
{
	return dfcp_build_auth(frame, cap, src, dst, pkt, csum, NULL);
}

/* DATA body after the common header; returns the bytes written before the symbol. */
static uint32_t
build_data(uint8_t *d, const struct dfcp_pkt *pkt, uint16_t flags)
{
	uint32_t hdr = DFCP_DATA_BODY;

	net_wr32(d, pkt->u.data.block);
	net_wr32(d + 4, ((pkt->u.data.block & 0xff) << 24) | (pkt->u.data.esi & 0xffffff));
	net_wr32(d + 8, pkt->u.data.block_len);
	if (flags & DFCP_F_RND) {
		net_wr32(d + 12, pkt->u.data.seq);
		net_wr16(d + 16, pkt->u.data.rlen);
		net_wr16(d + 18, pkt->u.data.rpos);
		hdr += DFCP_RND_LEN;
	}
	if (flags & DFCP_F_CRC) {
		net_wr32(d + hdr, pkt->u.data.crc);
		hdr += DFCP_CRC_LEN;
	}
	if (pkt->u.data.sym != NULL)
		memmove(d + hdr, pkt->u.data.sym, pkt->u.data.sym_len);
	return hdr;
}

int
dfcp_build_auth(void *frame, size_t cap, const struct dfcp_addr *src,
		const struct dfcp_addr *dst, const struct dfcp_pkt *pkt,
		enum dfcp_csum csum, const struct dfcp_auth *auth)
{
	uint16_t flags = (uint16_t)((pkt->flags & ~DFCP_F_AUTH) | (auth ? DFCP_F_AUTH : 0));
	uint8_t *f = frame, *d;
	uint32_t dlen, flen;

	if (pkt->type == 0 || pkt->type >= DFCP_T_MAX)
		return -EINVAL;
	if (pkt->type == DFCP_T_SYN || pkt->type == DFCP_T_SYNACK)
		flags = (uint16_t)((flags & ~DFCP_F_CRYPT) |
				(pkt->u.params.suite != DFCP_CRYPTO_OFF ? DFCP_F_CRYPT : 0));
	else if (pkt->type != DFCP_T_DATA)
		flags &= (uint16_t)~DFCP_F_CRYPT;
	if ((flags & DFCP_F_CRYPT) && pkt->type == DFCP_T_DATA) {
		flags &= (uint16_t)~DFCP_F_AUTH;	/* sealed, not tagged */
		auth = NULL;
	}
	dlen = DFCP_COMMON_LEN + body_len[pkt->type];
	if (pkt->type == DFCP_T_DATA)
		dlen += pkt->u.data.sym_len + ((flags & DFCP_F_RND) ? DFCP_RND_LEN : 0) +
			((flags & DFCP_F_CRC) ? DFCP_CRC_LEN : 0) +
			((flags & DFCP_F_CRYPT) ? DFCP_AEAD_TAG_LEN : 0);
	if ((flags & DFCP_F_CRYPT) && pkt->type != DFCP_T_DATA)
		dlen += DFCP_KX_LEN;
	if (pkt->type == DFCP_T_BLOCK_ACK && (flags & DFCP_F_RPT))
		dlen += DFCP_RPT_LEN;
	dlen += auth ? DFCP_TAG_LEN : 0;
	flen = DFCP_L2L4_LEN + dlen;
	if (dlen > 65535 - DFCP_IP_LEN - DFCP_UDP_LEN)
		return -EMSGSIZE;
	if (cap < flen || cap < DFCP_MIN_FRAME)
		return -EMSGSIZE;
	build_l2l4(f, src, dst, (uint16_t)dlen);
	d = f + DFCP_L2L4_LEN;
	d[0] = DFCP_VERSION;
	d[1] = pkt->type;
	net_wr16(d + 2, flags);
	net_wr32(d + 4, pkt->dst_cid);
	net_wr32(d + 8, pkt->src_cid);
	d += DFCP_COMMON_LEN;
	switch (pkt->type) {
	case DFCP_T_SYN:
	case DFCP_T_SYNACK: {
		const struct dfcp_params *p = &pkt->u.params;

		net_wr32(d, p->block_size);
		net_wr16(d + 4, p->T);
		net_wr16(d + 6, p->K);
		net_wr32(d + 8, p->window);
		net_wr16(d + 12, p->redundancy);
		net_wr16(d + 14, 0);
		net_wr32(d + 16, p->max_window);
		net_wr16(d + 20, p->max_K);
		net_wr16(d + 22, p->max_T);
		if (flags & DFCP_F_CRYPT) {
			d[DFCP_SYN_BODY] = p->suite;
			d[DFCP_SYN_BODY + 1] = d[DFCP_SYN_BODY + 2] = d[DFCP_SYN_BODY + 3] = 0;
			memcpy(d + DFCP_SYN_BODY + 4, p->kx_pub, sizeof(p->kx_pub));
		}
		break;
	}
	case DFCP_T_ACK:
		d[0] = pkt->u.ack.acked;
		d[1] = d[2] = d[3] = 0;
		break;
	case DFCP_T_DATA:
		build_data(d, pkt, flags);
		break;
	case DFCP_T_BLOCK_ACK:
		net_wr32(d, pkt->u.back.block);
		net_wr32(d + 4, pkt->u.back.cum);
		net_wr16(d + 8, pkt->u.back.status);
		net_wr16(d + 10, pkt->u.back.missing);
		net_wr32(d + 12, pkt->u.back.rcvd);
		net_wr32(d + 16, pkt->u.back.esi_span);
		net_wr64(d + 20, pkt->u.back.bitmap);
		if (flags & DFCP_F_RPT) {
			uint8_t *r = d + DFCP_BACK_BODY;

			net_wr32(r, pkt->u.back.rx_pkts);
			net_wr32(r + 4, pkt->u.back.seq_next);
			net_wr32(r + 8, pkt->u.back.rnd_seq);
			net_wr16(r + 12, pkt->u.back.rnd_len);
			net_wr16(r + 14, pkt->u.back.rnd_rcvd);
			r[16] = pkt->u.back.rnd_end;
			r[17] = r[18] = r[19] = 0;
			net_wr32(r + 20, pkt->u.back.rate);
		}
		break;
	case DFCP_T_FIN:
		net_wr32(d, pkt->u.fin.nblocks);
		net_wr64(d + 4, pkt->u.fin.nbytes);
		break;
	case DFCP_T_RST:
		net_wr16(d, pkt->u.rst.reason);
		net_wr16(d + 2, 0);
		break;
	default:
		break;
	}
	if (auth != NULL)
		dfcp_auth_sign(auth, f, dlen - DFCP_TAG_LEN);
	dfcp_finish_csum(f, csum);
	if (flen < DFCP_MIN_FRAME) {
		memset(f + flen, 0, DFCP_MIN_FRAME - flen);
		flen = DFCP_MIN_FRAME;
	}
	return (int)flen;
}
