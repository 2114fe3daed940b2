/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp wire format: build/parse round trips, checksums, every malformation. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "vnet.h"

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

static void
fill_params(struct dfcp_params *p)
{
	p->block_size = 47 * 1420;
	p->T = 1420;
	p->K = 47;
	p->window = 400;
	p->redundancy = 49;
	p->flags = DFCP_F_ACKS | DFCP_F_ENC | DFCP_F_DEC;
	p->max_window = 400;
	p->max_K = 47;
	p->max_T = 1420;
}

static int
build(uint8_t *f, size_t cap, struct dfcp_pkt *pkt, enum dfcp_csum cs)
{
	return dfcp_build(f, cap, &A, &B, pkt, cs);
}

static void
test_roundtrip(void)
{
	uint8_t f[2048], sym[1420];
	struct dfcp_pkt in, out;
	enum dfcp_csum modes[] = { DFCP_CSUM_FULL, DFCP_CSUM_UDP_ZERO };

	for (unsigned int i = 0; i < sizeof(sym); i++)
		sym[i] = (uint8_t)(i * 7);
	for (unsigned int m = 0; m < 2; m++) {
		for (int t = DFCP_T_SYN; t < DFCP_T_MAX; t++) {
			int len, rc;

			memset(&in, 0, sizeof(in));
			in.type = (uint8_t)t;
			in.dst_cid = t == DFCP_T_SYN ? 0 : 0x10002;
			in.src_cid = 0x30004;
			switch (t) {
			case DFCP_T_SYN:
			case DFCP_T_SYNACK:
				fill_params(&in.u.params);
				in.flags = in.u.params.flags;
				break;
			case DFCP_T_ACK:
				in.u.ack.acked = DFCP_T_SYNACK;
				break;
			case DFCP_T_DATA:
				in.flags = DFCP_F_LAST;
				in.u.data.block = 0x12345678;
				in.u.data.esi = 0xabcdef;
				in.u.data.block_len = 60000;
				in.u.data.sym = sym;
				in.u.data.sym_len = sizeof(sym);
				break;
			case DFCP_T_BLOCK_ACK:
				in.u.back.block = 77;
				in.u.back.cum = 70;
				in.u.back.status = DFCP_BA_SHORT;
				in.u.back.missing = 3;
				in.u.back.rcvd = 44;
				in.u.back.esi_span = 49;
				in.u.back.bitmap = 0x8000000000000005ull;
				break;
			case DFCP_T_FIN:
				in.u.fin.nblocks = 1000;
				in.u.fin.nbytes = 0x123456789aull;
				break;
			case DFCP_T_RST:
				in.u.rst.reason = DFCP_RST_UNKNOWN;
				break;
			}
			len = build(f, sizeof(f), &in, modes[m]);
			CHECK(len >= DFCP_MIN_FRAME);
			rc = dfcp_parse(f, (size_t)len, 0, &out);
			if (rc != 0)
				fprintf(stderr, "type %d: %s\n", t, dfcp_err_str(rc));
			CHECK(rc == 0);
			CHECK(out.type == t && out.version == DFCP_VERSION);
			CHECK(out.dst_cid == in.dst_cid && out.src_cid == in.src_cid);
			CHECK(out.src_ip == A.ip && out.dst_ip == B.ip);
			CHECK(out.src_port == A.port && out.dst_port == B.port);
			CHECK(memcmp(out.dst_mac, B.mac, 6) == 0 && memcmp(out.src_mac, A.mac, 6) == 0);
			switch (t) {
			case DFCP_T_SYN:
			case DFCP_T_SYNACK:
				CHECK(memcmp(&out.u.params, &in.u.params, sizeof(in.u.params)) == 0);
				break;
			case DFCP_T_DATA:
				CHECK(out.flags == DFCP_F_LAST);
				CHECK(out.u.data.block == in.u.data.block);
				CHECK(out.u.data.esi == in.u.data.esi);
				CHECK(out.u.data.block_len == 60000);
				CHECK(out.u.data.sym_len == sizeof(sym));
				CHECK(memcmp(out.u.data.sym, sym, sizeof(sym)) == 0);
				CHECK(len == DFCP_DATA_OFF_V1 + 1420);
				break;
			case DFCP_T_BLOCK_ACK:
				CHECK(out.u.back.block == 77 && out.u.back.cum == 70);
				CHECK(out.u.back.status == DFCP_BA_SHORT && out.u.back.missing == 3);
				CHECK(out.u.back.rcvd == 44 && out.u.back.esi_span == 49);
				CHECK(out.u.back.bitmap == 0x8000000000000005ull);
				break;
			case DFCP_T_FIN:
				CHECK(out.u.fin.nblocks == 1000 && out.u.fin.nbytes == 0x123456789aull);
				break;
			case DFCP_T_ACK:
				CHECK(out.u.ack.acked == DFCP_T_SYNACK);
				break;
			case DFCP_T_RST:
				CHECK(out.u.rst.reason == DFCP_RST_UNKNOWN);
				break;
			}
		}
	}
	/* offload mode: IP checksum left 0, accepted when the NIC says so */
	memset(&in, 0, sizeof(in));
	in.type = DFCP_T_FINACK;
	in.dst_cid = 5;
	in.src_cid = 6;
	int len = build(f, sizeof(f), &in, DFCP_CSUM_OFFLOAD);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_IP_CSUM);
	CHECK(dfcp_parse(f, (size_t)len, DFCP_RX_IP_CSUM_OK | DFCP_RX_UDP_CSUM_OK, &out) == 0);
	/* too small a buffer */
	CHECK(build(f, 40, &in, DFCP_CSUM_FULL) == -EMSGSIZE);
	in.type = 0;
	CHECK(build(f, sizeof(f), &in, DFCP_CSUM_FULL) == -EINVAL);
}

/* Re-finish checksums after tampering so the intended check is hit. */
static void refix(uint8_t *f, size_t len);

/* The extensions: DATA round header (RND), BLOCK-ACK loss report (RPT). */
static void
test_extensions(void)
{
	uint8_t f[2048], sym[1420];
	struct dfcp_pkt in, out;
	int len;

	memset(sym, 0x5a, sizeof(sym));
	memset(&in, 0, sizeof(in));
	in.type = DFCP_T_DATA;
	in.flags = DFCP_F_RND;
	in.dst_cid = 0x10002;
	in.src_cid = 0x30004;
	in.u.data.block = 0x01020304;
	in.u.data.esi = 60;
	in.u.data.block_len = 66740;
	in.u.data.seq = 0xfffffff0u;
	in.u.data.rlen = 57;
	in.u.data.rpos = 13;
	in.u.data.sym = sym;
	in.u.data.sym_len = sizeof(sym);
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(len == DFCP_DATA_OFF_XR + 1420);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0);
	CHECK(out.flags == DFCP_F_RND && out.u.data.seq == 0xfffffff0u);
	CHECK(out.u.data.rlen == 57 && out.u.data.rpos == 13 && out.u.data.esi == 60);
	CHECK(out.u.data.sym_len == 1420 && memcmp(out.u.data.sym, sym, 1420) == 0);
	CHECK(out.u.data.sym == f + DFCP_DATA_OFF_XR);
	/* with the block CRC: the default layout */
	in.flags = DFCP_F_RND | DFCP_F_CRC;
	in.u.data.crc = 0xdeadbeefu;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(len == DFCP_DATA_OFF + 1420 && len == (int)dfcp_data_frame_len(1420, 0));
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0 && out.u.data.crc == 0xdeadbeefu);
	CHECK(out.u.data.sym == f + DFCP_DATA_OFF && out.u.data.sym_len == 1420);
	/* a round whose first ESI would be below 0, or past 2^24 */
	in.u.data.esi = 12;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_ROUND);
	in.u.data.esi = (1u << 24) - 40;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_ROUND);
	in.u.data.esi = 60;
	in.flags = DFCP_F_RND;
	/* the round's last packet, and only it, carries LAST */
	in.u.data.rpos = 56;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_ROUND);
	in.flags |= DFCP_F_LAST;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0 && out.u.data.rpos == 56);
	in.u.data.rpos = 57;		/* past the round */
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_ROUND);
	in.u.data.rlen = 0;
	in.u.data.rpos = 0;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_ROUND);
	/* a round header with no symbol after it */
	in.u.data.rlen = 1;
	in.u.data.sym_len = 0;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_LEN);

	memset(&in, 0, sizeof(in));
	in.type = DFCP_T_BLOCK_ACK;
	in.flags = DFCP_F_RPT;
	in.dst_cid = 7;
	in.src_cid = 8;
	in.u.back.block = 9;
	in.u.back.status = DFCP_BA_DECODED;
	in.u.back.rx_pkts = 1000;
	in.u.back.seq_next = 1100;
	in.u.back.rnd_seq = 1040;
	in.u.back.rnd_len = 55;
	in.u.back.rnd_rcvd = 50;
	in.u.back.rnd_end = DFCP_END_NEXT;
	in.u.back.rate = 81234;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(len == DFCP_L2L4_LEN + 64);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0);
	CHECK(out.flags == DFCP_F_RPT && out.u.back.block == 9);
	CHECK(out.u.back.rx_pkts == 1000 && out.u.back.seq_next == 1100);
	CHECK(out.u.back.rnd_seq == 1040 && out.u.back.rnd_len == 55);
	CHECK(out.u.back.rnd_rcvd == 50 && out.u.back.rnd_end == DFCP_END_NEXT);
	CHECK(out.u.back.rate == 81234);
	in.u.back.rnd_rcvd = 56;	/* more than the round had */
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_REPORT);
	in.u.back.rnd_rcvd = 50;
	in.u.back.rnd_end = 4;		/* unknown way to end */
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_REPORT);
	in.u.back.rnd_end = DFCP_END_NONE;	/* a round, but no end */
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_REPORT);
	in.u.back.rnd_len = 0;
	in.u.back.rnd_rcvd = 0;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0 && out.u.back.rnd_len == 0);
	/* the flag and the length must agree */
	f[DFCP_L2L4_LEN + 3] &= (uint8_t)~DFCP_F_RPT;
	refix(f, (size_t)len);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_LEN);
	in.flags = 0;
	len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
	CHECK(len == DFCP_L2L4_LEN + 40);
	f[DFCP_L2L4_LEN + 3] |= DFCP_F_RPT;
	refix(f, (size_t)len);
	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_LEN);
}

static int
mk_data(uint8_t *f)
{
	static uint8_t sym[100];
	struct dfcp_pkt in;

	memset(&in, 0, sizeof(in));
	in.type = DFCP_T_DATA;
	in.dst_cid = 1;
	in.src_cid = 2;
	in.u.data.block = 3;
	in.u.data.esi = 4;
	in.u.data.block_len = 1000;
	in.u.data.sym = sym;
	in.u.data.sym_len = sizeof(sym);
	return build(f, 2048, &in, DFCP_CSUM_FULL);
}

static void
refix(uint8_t *f, size_t len)
{
	uint16_t c;
	uint8_t *ip = f + 14, *udp = f + 34;

	(void)len;
	ip[10] = ip[11] = 0;
	c = net_csum16(ip, 20, 0);
	memcpy(ip + 10, &c, 2);
	udp[6] = udp[7] = 0;	/* UDP checksum 0: not checked */
}

static void
test_malformed(void)
{
	uint8_t f[2048], g[2048];
	struct dfcp_pkt out;
	int len = mk_data(f);

	CHECK(dfcp_parse(f, (size_t)len, 0, &out) == 0);
	/* truncations at every length are rejected, never read past the end */
	for (int l = 0; l < len; l++) {
		uint8_t *t = malloc((size_t)l + 1);

		memcpy(t, f, (size_t)l);
		CHECK(dfcp_parse(t, (size_t)l, 0, &out) < 0);
		free(t);
	}
	CHECK(dfcp_parse(f, 10, 0, &out) == -DFCP_E_TRUNC_ETH);
	CHECK(dfcp_parse(f, 20, 0, &out) == -DFCP_E_TRUNC_IP);
	CHECK(dfcp_parse(f, 60, 0, &out) == -DFCP_E_IP_LEN);

	memcpy(g, f, len); g[12] = 0x86; g[13] = 0xdd;
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_ETHERTYPE);
	memcpy(g, f, len); g[14] = 0x46;
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_IP_HDR);
	memcpy(g, f, len); g[14 + 8] ^= 1;	/* TTL changed, checksum stale */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_IP_CSUM);
	memcpy(g, f, len); g[14 + 6] = 0x20; refix(g, len);	/* MF */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_IP_FRAG);
	memcpy(g, f, len); g[14 + 9] = 6; refix(g, len);
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_IP_PROTO);
	memcpy(g, f, len); g[34 + 5] ^= 4; refix(g, len);
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_UDP_LEN);
	memcpy(g, f, len); g[len - 1] ^= 0x55;	/* payload flipped: UDP csum */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_UDP_CSUM);
	CHECK(dfcp_parse(g, (size_t)len, DFCP_RX_UDP_CSUM_OK, &out) == 0);
	memcpy(g, f, len); g[42] = 2; refix(g, len);
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_VERSION);
	memcpy(g, f, len); g[43] = 0; refix(g, len);
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_TYPE);
	memcpy(g, f, len); g[43] = 99; refix(g, len);
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_TYPE);
	memcpy(g, f, len); g[43] = DFCP_T_FIN; refix(g, len);	/* wrong length for FIN */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_LEN);
	memcpy(g, f, len); memset(g + 50, 0, 4); refix(g, len);	/* src cid 0 */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_CONN);
	memcpy(g, f, len); memset(g + 46, 0, 4); refix(g, len);	/* dst cid 0 on DATA */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_CONN);
	memcpy(g, f, len); g[58] ^= 1; refix(g, len);	/* SBN != block */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_ESI);
	memcpy(g, f, len); memset(g + 62, 0, 4); refix(g, len);	/* block_len 0 */
	CHECK(dfcp_parse(g, (size_t)len, 0, &out) == -DFCP_E_ESI);
	for (int e = 0; e < DFCP_E_MAX; e++)
		CHECK(strcmp(dfcp_err_str(-e), "?") != 0);
}

static void
test_params(void)
{
	struct dfcp_params p, lim;
	struct dfcp_pkt in, out;
	uint8_t f[256];

	fill_params(&p);
	memset(&lim, 0, sizeof(lim));
	CHECK(dfcp_params_check(&p, NULL) == 0);
	lim.max_window = 100;
	CHECK(dfcp_params_check(&p, &lim) == -DFCP_E_PARAMS);
	lim.max_window = 0;
	lim.max_K = 10;
	CHECK(dfcp_params_check(&p, &lim) == -DFCP_E_PARAMS);
	struct { int field; uint32_t v; } bad[] = {
		{ 0, 0 }, { 0, 47 * 1420 + 1 }, { 1, 0 }, { 1, 15 }, { 1, 9001 },
		{ 2, 0 }, { 2, 8193 }, { 3, 0 }, { 3, 65537 }, { 3, 0xffffffffu },
		{ 4, 46 }, { 4, 1 },
	};
	for (unsigned int i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fill_params(&p);
		switch (bad[i].field) {
		case 0: p.block_size = bad[i].v; break;
		case 1: p.T = (uint16_t)bad[i].v; p.block_size = 47u * (p.T ? p.T : 1); if (!p.T) p.block_size = 1; break;
		case 2: p.K = (uint16_t)bad[i].v; p.block_size = 1; break;
		case 3: p.window = bad[i].v; break;
		case 4: p.redundancy = (uint16_t)bad[i].v; break;
		}
		CHECK(dfcp_params_check(&p, NULL) == -DFCP_E_PARAMS);
		/* and on the wire */
		memset(&in, 0, sizeof(in));
		in.type = DFCP_T_SYN;
		in.src_cid = 9;
		in.u.params = p;
		int len = build(f, sizeof(f), &in, DFCP_CSUM_FULL);
		CHECK(len > 0);
		CHECK(dfcp_parse(f, (size_t)len, 0, &out) == -DFCP_E_PARAMS);
	}
	fill_params(&p);
	p.redundancy = DFCP_REDUNDANCY_AUTO;
	CHECK(dfcp_params_check(&p, NULL) == 0);
}

int
main(void)
{
	test_roundtrip();
	test_extensions();
	test_malformed();
	test_params();
	return test_report("dfcp-wire");
}
