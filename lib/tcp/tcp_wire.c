/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP wire format: Ethernet / IPv4 / TCP build and parse with options
 * (MSS, window scale, SACK-permitted, SACK, timestamps); the Ethernet /
 * IPv4 layer and ARP are lib/net's.
 */
#include <errno.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

/* TCP's own codes; the Ethernet / IPv4 ones are named by lib/net */
static const char *const err_names[TCP_E_MAX] = {
	[TCP_E_TRUNC_TCP] = "truncated-tcp",
	[TCP_E_TCP_OFF] = "tcp-offset",
	[TCP_E_TCP_CSUM] = "tcp-checksum",
	[TCP_E_OPT] = "tcp-option",
	[TCP_E_FLAGS] = "tcp-flags",
	[TCP_E_ADDR] = "address",
	[TCP_E_NO_CONN] = "no-conn",
	[TCP_E_STATE] = "state",
	[TCP_E_WINDOW] = "out-of-window",
	[TCP_E_ACK] = "bad-ack",
	[TCP_E_RST] = "rst-ignored",
	[TCP_E_SYN] = "syn-challenged",
	[TCP_E_FULL] = "table-full",
	[TCP_E_PAWS] = "paws",
};

const char *
tcp_err_str(int err)
{
	return net_err_str(err, err_names, TCP_E_MAX);
}

static const char *const state_names[TCP_STATE_MAX] = {
	[TCP_CLOSED] = "CLOSED",
	[TCP_LISTEN] = "LISTEN",
	[TCP_SYN_SENT] = "SYN_SENT",
	[TCP_SYN_RECV] = "SYN_RECV",
	[TCP_ESTABLISHED] = "ESTABLISHED",
	[TCP_FIN_WAIT1] = "FIN_WAIT1",
	[TCP_FIN_WAIT2] = "FIN_WAIT2",
	[TCP_CLOSE_WAIT] = "CLOSE_WAIT",
	[TCP_CLOSING] = "CLOSING",
	[TCP_LAST_ACK] = "LAST_ACK",
	[TCP_TIME_WAIT] = "TIME_WAIT",
};

const char *
tcp_state_str(enum tcp_state s)
{
	if ((unsigned int)s >= TCP_STATE_MAX)
		return "?";
	return state_names[s];
}

static inline uint32_t
pseudo_sum(const uint8_t *ip, uint16_t tcp_len)
{
	return net_pseudo_sum(ip, NET_PROTO_TCP, tcp_len);
}

static int
parse_opts(const uint8_t *o, unsigned int olen, struct tcp_seg *s)
{
	unsigned int i = 0;

	while (i < olen) {
		uint8_t kind = o[i], len;

		if (kind == 0)
			break;
		if (kind == 1) {
			i++;
			continue;
		}
		if (i + 1 >= olen)
			return -TCP_E_OPT;
		len = o[i + 1];
		if (len < 2 || i + len > olen)
			return -TCP_E_OPT;
		switch (kind) {
		case 2:
			if (len != 4)
				return -TCP_E_OPT;
			s->opts |= TCP_O_MSS;
			s->mss = net_rd16(o + i + 2);
			break;
		case 3:
			if (len != 3)
				return -TCP_E_OPT;
			s->opts |= TCP_O_WS;
			s->wscale = o[i + 2] > TCP_MAX_WSCALE ? TCP_MAX_WSCALE : o[i + 2];
			break;
		case 4:
			if (len != 2)
				return -TCP_E_OPT;
			s->opts |= TCP_O_SACKOK;
			break;
		case 5: {
			unsigned int n = (len - 2u) / 8u;

			if (len < 10 || (len - 2u) % 8u || n > TCP_MAX_SACK)
				return -TCP_E_OPT;
			s->opts |= TCP_O_SACK;
			s->nsack = n;
			for (unsigned int k = 0; k < n; k++) {
				s->sack[k].start = net_rd32(o + i + 2 + 8 * k);
				s->sack[k].end = net_rd32(o + i + 6 + 8 * k);
			}
			break;
		}
		case 8:
			if (len != 10)
				return -TCP_E_OPT;
			s->opts |= TCP_O_TS;
			s->tsval = net_rd32(o + i + 2);
			s->tsecr = net_rd32(o + i + 6);
			break;
		default:
			break;	/* unknown options are skipped */
		}
		i += len;
	}
	return 0;
}

int
tcp_parse(const void *frame, size_t len, unsigned int rx_flags, struct tcp_seg *s)
{
	const uint8_t *f = frame, *ip, *th;
	unsigned int off;
	uint32_t tlen;
	int l4;
	uint8_t fl;

	memset(s, 0, sizeof(*s));
	l4 = net_l3_parse(f, len, NET_PROTO_TCP, 0, NET_L3_OPTS |
			((rx_flags & TCP_RX_IP_CSUM_OK) ? NET_L3_CSUM_OK : 0), &tlen);
	if (l4 < 0)
		return l4;
	if (tlen < TCP_HDR_LEN)
		return -TCP_E_TRUNC_TCP;
	ip = f + TCP_ETH_LEN;
	th = f + l4;
	off = (th[12] >> 4) * 4u;
	if (off < TCP_HDR_LEN || off > tlen)
		return -TCP_E_TCP_OFF;
	if (!(rx_flags & TCP_RX_L4_CSUM_OK) &&
			net_csum16(th, tlen, pseudo_sum(ip, (uint16_t)tlen)) != 0)
		return -TCP_E_TCP_CSUM;
	memcpy(s->dst_mac, f, 6);
	memcpy(s->src_mac, f + 6, 6);
	s->src_ip = net_rd32(ip + 12);
	s->dst_ip = net_rd32(ip + 16);
	s->src_port = net_rd16(th);
	s->dst_port = net_rd16(th + 2);
	s->seq = net_rd32(th + 4);
	s->ack = net_rd32(th + 8);
	s->rsv = th[12] & 0x0f;
	fl = th[13];
	s->flags = fl;
	s->wnd = net_rd16(th + 14);
	s->payload = th + off;
	s->len = tlen - off;
	s->frame_len = (uint32_t)l4 + tlen;
	if ((fl & TCP_FL_SYN) && (fl & (TCP_FL_FIN | TCP_FL_RST)))
		return -TCP_E_FLAGS;
	if (s->src_port == 0 || s->dst_port == 0)
		return -TCP_E_FLAGS;
	return parse_opts(th + TCP_HDR_LEN, off - TCP_HDR_LEN, s);
}

static unsigned int
opt_len(const struct tcp_seg *s)
{
	unsigned int n = 0;

	if (s->opts & TCP_O_MSS)
		n += 4;
	if (s->opts & TCP_O_TS)
		n += 12;
	if ((s->opts & TCP_O_SACKOK) && !(s->opts & TCP_O_TS))
		n += 4;
	if (s->opts & TCP_O_WS)
		n += 4;
	if ((s->opts & TCP_O_SACK) && s->nsack)
		n += 4 + 8u * s->nsack;
	return n;
}

unsigned int
tcp_hdr_len(const struct tcp_seg *s)
{
	return TCP_L2L4_LEN + opt_len(s);
}

static unsigned int
write_opts(uint8_t *o, const struct tcp_seg *s)
{
	unsigned int i = 0;

	if (s->opts & TCP_O_MSS) {
		o[i++] = 2;
		o[i++] = 4;
		net_wr16(o + i, s->mss);
		i += 2;
	}
	if (s->opts & TCP_O_TS) {
		if (s->opts & TCP_O_SACKOK) {
			o[i++] = 4;
			o[i++] = 2;
		} else {
			o[i++] = 1;
			o[i++] = 1;
		}
		o[i++] = 8;
		o[i++] = 10;
		net_wr32(o + i, s->tsval);
		net_wr32(o + i + 4, s->tsecr);
		i += 8;
	} else if (s->opts & TCP_O_SACKOK) {
		o[i++] = 1;
		o[i++] = 1;
		o[i++] = 4;
		o[i++] = 2;
	}
	if (s->opts & TCP_O_WS) {
		o[i++] = 1;
		o[i++] = 3;
		o[i++] = 3;
		o[i++] = s->wscale;
	}
	if ((s->opts & TCP_O_SACK) && s->nsack) {
		o[i++] = 1;
		o[i++] = 1;
		o[i++] = 5;
		o[i++] = (uint8_t)(2 + 8 * s->nsack);
		for (unsigned int k = 0; k < s->nsack; k++) {
			net_wr32(o + i, s->sack[k].start);
			net_wr32(o + i + 4, s->sack[k].end);
			i += 8;
		}
	}
	return i;
}

int
tcp_wire_build(uint8_t *f, size_t cap, const struct tcp_seg *s, uint8_t ttl)
{
	unsigned int olen, hl, tlen, flen;
	uint8_t *ip, *th;
	uint16_t cs;

	if (s->nsack > TCP_MAX_SACK || ((s->opts & TCP_O_TS) && s->nsack > 3))
		return -EINVAL;
	olen = opt_len(s);
	if (olen > TCP_OPT_MAX)
		return -EINVAL;
	hl = TCP_L2L4_LEN + olen;
	if ((size_t)hl + s->len > cap || (size_t)TCP_MIN_FRAME > cap)
		return -EMSGSIZE;
	if (TCP_IP_LEN + TCP_HDR_LEN + olen + s->len > 65535)
		return -EMSGSIZE;
	net_eth_build(f, s->dst_mac, s->src_mac, TCP_ETHERTYPE_IPV4);
	ip = f + TCP_ETH_LEN;
	tlen = TCP_HDR_LEN + olen + s->len;
	net_ipv4_build(ip, (uint16_t)(TCP_IP_LEN + tlen), ttl ? ttl : 64, NET_PROTO_TCP,
			s->src_ip, s->dst_ip);
	cs = net_csum16(ip, TCP_IP_LEN, 0);
	memcpy(ip + 10, &cs, 2);
	th = ip + TCP_IP_LEN;
	net_tcp_build(th, s->src_port, s->dst_port, s->seq, s->ack, TCP_HDR_LEN + olen, s->rsv,
			s->flags, s->wnd);
	write_opts(th + TCP_HDR_LEN, s);
	if (s->len && s->payload != NULL)
		memmove(f + hl, s->payload, s->len);
	cs = net_csum16(th, tlen, pseudo_sum(ip, (uint16_t)tlen));
	memcpy(th + 16, &cs, 2);
	flen = hl + s->len;
	if (flen < TCP_MIN_FRAME) {
		memset(f + flen, 0, TCP_MIN_FRAME - flen);
		flen = TCP_MIN_FRAME;
	}
	return (int)flen;
}

int
tcp_build(void *frame, size_t cap, const struct tcp_seg *s)
{
	return tcp_wire_build(frame, cap, s, 64);
}
