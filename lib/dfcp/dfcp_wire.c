/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP wire format: Ethernet / IPv4 / UDP / DFCP build and parse, ARP.
 * Everything on the wire is big-endian; see doc/protocol.md.
 */
#include <errno.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

static const char *const err_names[DFCP_E_MAX] = {
	[DFCP_E_OK] = "ok",
	[DFCP_E_TRUNC_ETH] = "truncated-eth",
	[DFCP_E_ETHERTYPE] = "ethertype",
	[DFCP_E_TRUNC_IP] = "truncated-ip",
	[DFCP_E_IP_HDR] = "ip-header",
	[DFCP_E_IP_LEN] = "ip-length",
	[DFCP_E_IP_CSUM] = "ip-checksum",
	[DFCP_E_IP_FRAG] = "ip-fragment",
	[DFCP_E_IP_PROTO] = "ip-proto",
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
	[DFCP_E_ARP] = "arp",
	[DFCP_E_ADDR] = "address",
};

const char *
dfcp_err_str(int err)
{
	if (err < 0)
		err = -err;
	if (err >= DFCP_E_MAX)
		return "?";
	return err_names[err];
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

uint16_t
dfcp_csum16(const void *buf, size_t len, uint32_t seed)
{
	const uint8_t *p = buf;
	uint64_t sum = seed;

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
	/* native-order one's-complement sum, folded */
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Partial sum (not complemented) helper: returns folded sum in native order. */
static uint32_t
csum_partial(const void *buf, size_t len, uint32_t seed)
{
	return (uint16_t)~dfcp_csum16(buf, len, seed);
}

static uint32_t
pseudo_sum(const uint8_t *ip, uint16_t udp_len)
{
	uint8_t ph[12];

	memcpy(ph, ip + 12, 8);	/* src, dst */
	ph[8] = 0;
	ph[9] = 17;
	wr16(ph + 10, udp_len);
	return csum_partial(ph, sizeof(ph), 0);
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

int
dfcp_parse(const void *frame, size_t len, unsigned int rx_flags,
		struct dfcp_pkt *pkt)
{
	const uint8_t *f = frame;
	const uint8_t *ip, *udp, *d;
	uint16_t tot, ulen, dlen, ucs;
	uint8_t type;

	if (len < DFCP_ETH_LEN)
		return -DFCP_E_TRUNC_ETH;
	if (rd16(f + 12) != DFCP_ETHERTYPE_IPV4)
		return -DFCP_E_ETHERTYPE;
	if (len < DFCP_ETH_LEN + DFCP_IP_LEN)
		return -DFCP_E_TRUNC_IP;
	ip = f + DFCP_ETH_LEN;
	if (ip[0] != 0x45)
		return -DFCP_E_IP_HDR;
	tot = rd16(ip + 2);
	if (tot < DFCP_IP_LEN + DFCP_UDP_LEN || tot > len - DFCP_ETH_LEN)
		return -DFCP_E_IP_LEN;
	if (!(rx_flags & DFCP_RX_IP_CSUM_OK) && dfcp_csum16(ip, DFCP_IP_LEN, 0) != 0)
		return -DFCP_E_IP_CSUM;
	if (rd16(ip + 6) & 0x3fff)
		return -DFCP_E_IP_FRAG;
	if (ip[9] != 17)
		return -DFCP_E_IP_PROTO;
	udp = ip + DFCP_IP_LEN;
	ulen = rd16(udp + 4);
	if (ulen != tot - DFCP_IP_LEN)
		return -DFCP_E_UDP_LEN;
	ucs = rd16(udp + 6);
	if (ucs != 0 && !(rx_flags & DFCP_RX_UDP_CSUM_OK)) {
		if (dfcp_csum16(udp, ulen, pseudo_sum(ip, ulen)) != 0)
			return -DFCP_E_UDP_CSUM;
	}
	d = udp + DFCP_UDP_LEN;
	dlen = ulen - DFCP_UDP_LEN;
	if (dlen < DFCP_COMMON_LEN)
		return -DFCP_E_TRUNC_DFCP;

	memcpy(pkt->dst_mac, f, 6);
	memcpy(pkt->src_mac, f + 6, 6);
	pkt->src_ip = rd32(ip + 12);
	pkt->dst_ip = rd32(ip + 16);
	pkt->src_port = rd16(udp);
	pkt->dst_port = rd16(udp + 2);
	pkt->version = d[0];
	type = d[1];
	pkt->type = type;
	pkt->flags = rd16(d + 2);
	pkt->dst_cid = rd32(d + 4);
	pkt->src_cid = rd32(d + 8);
	if (pkt->version != DFCP_VERSION)
		return -DFCP_E_VERSION;
	if (type == 0 || type >= DFCP_T_MAX)
		return -DFCP_E_TYPE;
	dlen -= DFCP_COMMON_LEN;
	d += DFCP_COMMON_LEN;
	if (type == DFCP_T_DATA) {
		if (dlen <= DFCP_DATA_BODY)
			return -DFCP_E_LEN;
	} else if (dlen != body_len[type]) {
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

		p->block_size = rd32(d);
		p->T = rd16(d + 4);
		p->K = rd16(d + 6);
		p->window = rd32(d + 8);
		p->redundancy = rd16(d + 12);
		p->flags = pkt->flags & DFCP_F_OPTS;
		p->max_window = rd32(d + 16);
		p->max_K = rd16(d + 20);
		p->max_T = rd16(d + 22);
		if (dfcp_params_check(p, NULL) != 0)
			return -DFCP_E_PARAMS;
		break;
	}
	case DFCP_T_ACK:
		pkt->u.ack.acked = d[0];
		break;
	case DFCP_T_DATA: {
		uint32_t pid = rd32(d + 4);

		pkt->u.data.block = rd32(d);
		pkt->u.data.esi = pid & 0xffffff;
		pkt->u.data.block_len = rd32(d + 8);
		if ((pid >> 24) != (pkt->u.data.block & 0xff))
			return -DFCP_E_ESI;
		if (pkt->u.data.block_len == 0 ||
				pkt->u.data.block_len > (uint32_t)DFCP_MAX_K * DFCP_MAX_T)
			return -DFCP_E_ESI;
		pkt->u.data.sym = d + DFCP_DATA_BODY;
		pkt->u.data.sym_len = dlen - DFCP_DATA_BODY;
		break;
	}
	case DFCP_T_BLOCK_ACK:
		pkt->u.back.block = rd32(d);
		pkt->u.back.cum = rd32(d + 4);
		pkt->u.back.status = rd16(d + 8);
		pkt->u.back.missing = rd16(d + 10);
		pkt->u.back.rcvd = rd32(d + 12);
		pkt->u.back.esi_span = rd32(d + 16);
		pkt->u.back.bitmap = rd64(d + 20);
		if (pkt->u.back.status != DFCP_BA_DECODED &&
				pkt->u.back.status != DFCP_BA_SHORT)
			return -DFCP_E_LEN;
		break;
	case DFCP_T_FIN:
		pkt->u.fin.nblocks = rd32(d);
		pkt->u.fin.nbytes = rd64(d + 4);
		break;
	case DFCP_T_RST:
		pkt->u.rst.reason = rd16(d);
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

	memcpy(f, dst->mac, 6);
	memcpy(f + 6, src->mac, 6);
	wr16(f + 12, DFCP_ETHERTYPE_IPV4);
	ip[0] = 0x45;
	ip[1] = 0;
	wr16(ip + 2, DFCP_IP_LEN + ulen);
	wr16(ip + 4, 0);
	wr16(ip + 6, 0x4000);	/* DF */
	ip[8] = 64;
	ip[9] = 17;
	wr16(ip + 10, 0);
	wr32(ip + 12, src->ip);
	wr32(ip + 16, dst->ip);
	wr16(udp, src->port);
	wr16(udp + 2, dst->port);
	wr16(udp + 4, ulen);
	wr16(udp + 6, 0);
}

void
dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum)
{
	uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint16_t ulen = rd16(udp + 4), c;

	switch (csum) {
	case DFCP_CSUM_FULL:
		c = dfcp_csum16(ip, DFCP_IP_LEN, 0);
		memcpy(ip + 10, &c, 2);
		c = dfcp_csum16(udp, ulen, pseudo_sum(ip, ulen));
		if (c == 0)
			c = 0xffff;
		memcpy(udp + 6, &c, 2);
		break;
	case DFCP_CSUM_UDP_ZERO:
		c = dfcp_csum16(ip, DFCP_IP_LEN, 0);
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
	uint8_t *f = frame, *d;
	uint32_t dlen, flen;

	if (pkt->type == 0 || pkt->type >= DFCP_T_MAX)
		return -EINVAL;
	dlen = DFCP_COMMON_LEN + body_len[pkt->type];
	if (pkt->type == DFCP_T_DATA)
		dlen += pkt->u.data.sym_len;
	flen = DFCP_L2L4_LEN + dlen;
	if (dlen > 65535 - DFCP_IP_LEN - DFCP_UDP_LEN)
		return -EMSGSIZE;
	if (cap < flen || cap < DFCP_MIN_FRAME)
		return -EMSGSIZE;
	build_l2l4(f, src, dst, (uint16_t)dlen);
	d = f + DFCP_L2L4_LEN;
	d[0] = DFCP_VERSION;
	d[1] = pkt->type;
	wr16(d + 2, pkt->flags);
	wr32(d + 4, pkt->dst_cid);
	wr32(d + 8, pkt->src_cid);
	d += DFCP_COMMON_LEN;
	switch (pkt->type) {
	case DFCP_T_SYN:
	case DFCP_T_SYNACK: {
		const struct dfcp_params *p = &pkt->u.params;

		wr32(d, p->block_size);
		wr16(d + 4, p->T);
		wr16(d + 6, p->K);
		wr32(d + 8, p->window);
		wr16(d + 12, p->redundancy);
		wr16(d + 14, 0);
		wr32(d + 16, p->max_window);
		wr16(d + 20, p->max_K);
		wr16(d + 22, p->max_T);
		break;
	}
	case DFCP_T_ACK:
		d[0] = pkt->u.ack.acked;
		d[1] = d[2] = d[3] = 0;
		break;
	case DFCP_T_DATA:
		wr32(d, pkt->u.data.block);
		wr32(d + 4, ((pkt->u.data.block & 0xff) << 24) |
				(pkt->u.data.esi & 0xffffff));
		wr32(d + 8, pkt->u.data.block_len);
		if (pkt->u.data.sym != NULL)
			memmove(d + DFCP_DATA_BODY, pkt->u.data.sym, pkt->u.data.sym_len);
		break;
	case DFCP_T_BLOCK_ACK:
		wr32(d, pkt->u.back.block);
		wr32(d + 4, pkt->u.back.cum);
		wr16(d + 8, pkt->u.back.status);
		wr16(d + 10, pkt->u.back.missing);
		wr32(d + 12, pkt->u.back.rcvd);
		wr32(d + 16, pkt->u.back.esi_span);
		wr64(d + 20, pkt->u.back.bitmap);
		break;
	case DFCP_T_FIN:
		wr32(d, pkt->u.fin.nblocks);
		wr64(d + 4, pkt->u.fin.nbytes);
		break;
	case DFCP_T_RST:
		wr16(d, pkt->u.rst.reason);
		wr16(d + 2, 0);
		break;
	default:
		break;
	}
	dfcp_finish_csum(f, csum);
	if (flen < DFCP_MIN_FRAME) {
		memset(f + flen, 0, DFCP_MIN_FRAME - flen);
		flen = DFCP_MIN_FRAME;
	}
	return (int)flen;
}

/* ------------------------------------------------------------------ */
/* ARP                                                                  */
/* ------------------------------------------------------------------ */

int
dfcp_arp_parse(const void *frame, size_t len, struct dfcp_arp *arp)
{
	const uint8_t *f = frame, *a;

	if (len < DFCP_ETH_LEN)
		return -DFCP_E_TRUNC_ETH;
	if (rd16(f + 12) != DFCP_ETHERTYPE_ARP)
		return -DFCP_E_ETHERTYPE;
	if (len < DFCP_ARP_LEN)
		return -DFCP_E_ARP;
	a = f + DFCP_ETH_LEN;
	if (rd16(a) != 1 || rd16(a + 2) != DFCP_ETHERTYPE_IPV4 || a[4] != 6 || a[5] != 4)
		return -DFCP_E_ARP;
	arp->op = rd16(a + 6);
	if (arp->op != DFCP_ARP_REQUEST && arp->op != DFCP_ARP_REPLY)
		return -DFCP_E_ARP;
	memcpy(arp->sha, a + 8, 6);
	arp->spa = rd32(a + 14);
	memcpy(arp->tha, a + 18, 6);
	arp->tpa = rd32(a + 24);
	return 0;
}

int
dfcp_arp_build(void *frame, size_t cap, const struct dfcp_arp *arp)
{
	static const uint8_t bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	uint8_t *f = frame, *a = f + DFCP_ETH_LEN;
	int req = arp->op == DFCP_ARP_REQUEST;

	if (cap < DFCP_MIN_FRAME)
		return -EMSGSIZE;
	memcpy(f, req ? bcast : arp->tha, 6);
	memcpy(f + 6, arp->sha, 6);
	wr16(f + 12, DFCP_ETHERTYPE_ARP);
	wr16(a, 1);
	wr16(a + 2, DFCP_ETHERTYPE_IPV4);
	a[4] = 6;
	a[5] = 4;
	wr16(a + 6, arp->op);
	memcpy(a + 8, arp->sha, 6);
	wr32(a + 14, arp->spa);
	if (req)
		memset(a + 18, 0, 6);
	else
		memcpy(a + 18, arp->tha, 6);
	wr32(a + 24, arp->tpa);
	memset(f + DFCP_ARP_LEN, 0, DFCP_MIN_FRAME - DFCP_ARP_LEN);
	return DFCP_MIN_FRAME;
}

int
dfcp_arp_answer(const void *frame, size_t len, const uint8_t my_mac[6],
		uint32_t my_ip, void *out, size_t cap)
{
	struct dfcp_arp in, rep;
	int rc = dfcp_arp_parse(frame, len, &in);

	if (rc < 0)
		return rc;
	if (in.op != DFCP_ARP_REQUEST || in.tpa != my_ip)
		return 0;
	rep.op = DFCP_ARP_REPLY;
	memcpy(rep.sha, my_mac, 6);
	rep.spa = my_ip;
	memcpy(rep.tha, in.sha, 6);
	rep.tpa = in.spa;
	return dfcp_arp_build(out, cap, &rep);
}
