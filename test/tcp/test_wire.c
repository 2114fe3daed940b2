/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire format: build / parse round trips with every option, checksums
 * (checked against a plain RFC 1071 reference), and every validation error
 * (truncation, lengths, offsets, fragments, flags, options), ARP through
 * the endpoint.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tnet.h"

/* plain reference: big-endian 16-bit words, end-around carry */
static uint16_t
ref_csum(const uint8_t *p, size_t n, uint32_t sum)
{
	for (size_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void
base_seg(struct tcp_seg *s)
{
	static const uint8_t payload[1400] = { 1, 2, 3 };

	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, "\x02\x00\x00\x00\x00\x01", 6);
	memcpy(s->dst_mac, "\x02\x00\x00\x00\x00\x02", 6);
	s->src_ip = 0x0a000001;
	s->dst_ip = 0x0a000002;
	s->src_port = 40000;
	s->dst_port = 5001;
	s->seq = 0xfffffff0;
	s->ack = 12345;
	s->flags = TCP_FL_ACK | TCP_FL_PSH;
	s->wnd = 4321;
	s->payload = payload;
	s->len = 1001;
}

static void
test_roundtrip(void)
{
	struct tcp_seg s, p;
	uint8_t f[2048];
	int n;

	/* SYN options */
	base_seg(&s);
	s.flags = TCP_FL_SYN;
	s.len = 0;
	s.opts = TCP_O_MSS | TCP_O_WS | TCP_O_SACKOK | TCP_O_TS;
	s.mss = 1460;
	s.wscale = 7;
	s.tsval = 0xdeadbeef;
	s.tsecr = 0;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(n == 74 && (unsigned int)n == tcp_hdr_len(&s));
	CHECK(tcp_parse(f, (size_t)n, 0, &p) == 0);
	CHECK(p.opts == s.opts && p.mss == 1460 && p.wscale == 7 && p.tsval == 0xdeadbeef);
	CHECK(p.flags == TCP_FL_SYN && p.seq == s.seq && p.len == 0);
	/* the IPv4 and TCP checksums agree with the reference */
	CHECK(ref_csum(f + 14, 20, 0) == 0);
	{
		uint32_t ph = (0x0a00 + 0x0001 + 0x0a00 + 0x0002) + 6 + (uint32_t)(n - 34);

		CHECK(ref_csum(f + 34, (size_t)n - 34, ph) == 0);
	}
	/* data with TS and 3 SACK blocks; SACK only */
	base_seg(&s);
	s.opts = TCP_O_TS | TCP_O_SACK;
	s.nsack = 3;
	for (int i = 0; i < 3; i++) {
		s.sack[i].start = 100000u * (uint32_t)i;
		s.sack[i].end = 100000u * (uint32_t)i + 500;
	}
	s.rsv = TCP_RSV_PAIR;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(n == 54 + 40 + 1001);
	CHECK(tcp_parse(f, (size_t)n, 0, &p) == 0);
	CHECK(p.nsack == 3 && p.sack[2].start == 200000 && p.sack[2].end == 200500);
	CHECK(p.rsv == TCP_RSV_PAIR && p.len == 1001 && p.payload[1] == 2);
	CHECK(p.frame_len == (uint32_t)n);
	s.nsack = 4;	/* 4 blocks do not fit with timestamps */
	CHECK(tcp_build(f, sizeof(f), &s) == -EINVAL);
	s.opts = TCP_O_SACK;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(n > 0 && tcp_parse(f, (size_t)n, 0, &p) == 0 && p.nsack == 4);
	CHECK(tcp_build(f, 100, &s) == -EMSGSIZE);
	/* short frames are padded to 60, parse uses the IP length */
	base_seg(&s);
	s.len = 0;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(n == 60 && tcp_parse(f, 60, 0, &p) == 0 && p.len == 0);
	/* odd payload lengths, all sizes */
	for (uint32_t len = 0; len < 300; len++) {
		base_seg(&s);
		s.len = len;
		n = tcp_build(f, sizeof(f), &s);
		CHECK(tcp_parse(f, (size_t)n, 0, &p) == 0 && p.len == len);
	}
}

static int
parse_mod(uint8_t *f, size_t n, size_t off, uint8_t val, int fix_ip)
{
	struct tcp_seg p;

	f[off] = val;
	if (fix_ip) {
		uint16_t cs;

		f[24] = f[25] = 0;
		cs = net_csum16(f + 14, 20, 0);
		memcpy(f + 24, &cs, 2);
	}
	return tcp_parse(f, n, 0, &p);
}

static void
test_errors(void)
{
	struct tcp_seg s, p;
	uint8_t f[2048], g[2048];
	int n;

	base_seg(&s);
	s.opts = TCP_O_TS;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_parse(f, 10, 0, &p) == -TCP_E_TRUNC_ETH);
	CHECK(tcp_parse(f, 30, 0, &p) == -TCP_E_TRUNC_IP);
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 12, 0x86, 0) == -TCP_E_ETHERTYPE);
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 14, 0x65, 1) == -TCP_E_IP_HDR);	/* version 6 */
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 14, 0x44, 1) == -TCP_E_IP_HDR);	/* IHL 4 */
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 16, 0xff, 1) == -TCP_E_IP_LEN);	/* > frame */
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 17, 0x01, 0) == -TCP_E_IP_CSUM);
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 20, 0x20, 1) == -TCP_E_IP_FRAG);	/* MF */
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 23, 17, 1) == -TCP_E_IP_PROTO);
	memcpy(g, f, (size_t)n);
	g[16] = 0;
	CHECK(parse_mod(g, (size_t)n, 17, 30, 1) == -TCP_E_TRUNC_TCP);	/* IP len 30 */
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 46, 0x40, 0) == -TCP_E_TCP_OFF);	/* offset 4 */
	memcpy(g, f, (size_t)n);
	g[16] = 0;
	g[17] = 20 + 20 + 8;	/* TCP length 28 < offset 32 */
	CHECK(parse_mod(g, (size_t)n, 46, 0x80, 1) == -TCP_E_TCP_OFF);
	memcpy(g, f, (size_t)n);
	CHECK(parse_mod(g, (size_t)n, 60, g[60] ^ 0x55, 0) == -TCP_E_TCP_CSUM);
	/* checksum verified by the NIC: the flag skips the check */
	CHECK(tcp_parse(g, (size_t)n, TCP_RX_L4_CSUM_OK, &p) == 0);
	/* flags */
	base_seg(&s);
	s.flags = TCP_FL_SYN | TCP_FL_FIN;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_parse(f, (size_t)n, 0, &p) == -TCP_E_FLAGS);
	s.flags = TCP_FL_SYN | TCP_FL_RST;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_parse(f, (size_t)n, 0, &p) == -TCP_E_FLAGS);
	s.flags = TCP_FL_ACK;
	s.src_port = 0;
	n = tcp_build(f, sizeof(f), &s);
	CHECK(tcp_parse(f, (size_t)n, 0, &p) == -TCP_E_FLAGS);
	/* malformed options: rewrite the option bytes, fix the checksum */
	{
		static const uint8_t bad[][8] = {
			{ 2, 3, 0, 0, 1, 1, 1, 1 },	/* MSS length 3 */
			{ 3, 2, 1, 1, 1, 1, 1, 1 },	/* WS length 2 */
			{ 4, 3, 0, 1, 1, 1, 1, 1 },	/* SACKOK length 3 */
			{ 5, 6, 0, 0, 0, 0, 1, 1 },	/* SACK length 6 */
			{ 8, 8, 0, 0, 0, 0, 0, 0 },	/* TS length 8 */
			{ 1, 1, 1, 1, 1, 1, 99, 0 },	/* length 0 */
			{ 1, 1, 1, 1, 1, 1, 1, 99 },	/* kind without length */
			{ 1, 1, 1, 1, 30, 9, 0, 0 },	/* past the end */
		};

		for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			uint16_t cs;

			base_seg(&s);
			s.opts = TCP_O_MSS | TCP_O_WS;	/* 8 bytes of options */
			s.len = 10;
			n = tcp_build(f, sizeof(f), &s);
			memcpy(f + 54, bad[i], 8);
			f[50] = f[51] = 0;
			{
				uint32_t ph = 0x0a00 + 0x0001 + 0x0a00 + 0x0002 + 6 + (uint32_t)(n - 34);

				cs = ref_csum(f + 34, (size_t)n - 34, ph);
			}
			f[50] = (uint8_t)(cs >> 8);
			f[51] = (uint8_t)cs;
			CHECK(tcp_parse(f, (size_t)n, 0, &p) == -TCP_E_OPT);
		}
	}
	CHECK(strcmp(tcp_err_str(-TCP_E_TCP_CSUM), "tcp-checksum") == 0);
	CHECK(strcmp(tcp_err_str(TCP_E_MAX + 3), "?") == 0);
	for (int e = 0; e < TCP_E_MAX; e++)
		CHECK(tcp_err_str(e) != NULL && strcmp(tcp_err_str(e), "?") != 0);
	CHECK(strcmp(tcp_state_str(TCP_ESTABLISHED), "ESTABLISHED") == 0);
}

/* ARP through the endpoint (lib/net's net_arp_answer): a reply for our address only. */
static void
test_ep_arp(void)
{
	static const uint8_t peer_mac[6] = { 2, 0, 0, 0, 0, 1 };
	struct tcp_ep_conf ec;
	struct tcp_ep_stats st;
	struct tcp_ep *ep;
	struct net_arp a, b;
	uint8_t f[64], r[128];
	void *bufs[1] = { r };
	uint16_t lens[1];
	int n;

	tcp_ep_conf_default(&ec);
	memcpy(ec.local.mac, "\x02\x00\x00\x00\x00\x02", 6);
	ec.local.ip = 0x0a000002;
	ec.local.port = 80;
	ep = tcp_ep_create(&ec);
	REQUIRE(ep != NULL);
	memset(&a, 0, sizeof(a));
	a.op = NET_ARP_REQUEST;
	memcpy(a.sha, peer_mac, 6);
	a.spa = 0x0a000001;
	a.tpa = 0x0a000003;		/* not ours: no reply */
	n = net_arp_build(f, sizeof(f), &a);
	CHECK(n == NET_MIN_FRAME);
	CHECK(tcp_ep_rx(ep, f, (size_t)n, 0) == 0);
	CHECK(tcp_ep_tx_burst(ep, 0, bufs, lens, sizeof(r), 1) == 0);
	a.tpa = ec.local.ip;
	n = net_arp_build(f, sizeof(f), &a);
	CHECK(tcp_ep_rx(ep, f, (size_t)n, 0) == 0);
	CHECK(tcp_ep_tx_burst(ep, 0, bufs, lens, sizeof(r), 1) == 1);
	CHECK(net_arp_parse(r, lens[0], &b) == 0 && b.op == NET_ARP_REPLY &&
			b.spa == ec.local.ip && b.tpa == a.spa && memcmp(r, peer_mac, 6) == 0);
	/* malformed: counted under the net code, which is TCP's */
	CHECK(tcp_ep_rx(ep, f, 30, 0) == -TCP_E_ARP);
	tcp_ep_stats(ep, &st);
	CHECK(st.arp_replies == 1 && st.drops[TCP_E_ARP] == 1);
	CHECK(strcmp(tcp_err_str(-TCP_E_ARP), "arp") == 0);
	tcp_ep_free(ep);
}

int
main(void)
{
	test_roundtrip();
	test_errors();
	test_ep_arp();
	return test_report("tcp-wire");
}
