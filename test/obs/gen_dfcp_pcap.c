/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gen-dfcp-pcap OUTDIR: captures for the Wireshark dissector test, made
 * without the engine.
 *
 * OUTDIR/dfcp.pcap: a short real DFCP transfer (lib/dfcp endpoint pair over
 * the virtual-clock link of test/dfcp/vnet.h, 5 % loss each way), tapped
 * at the senders (lost frames are in the capture), with virtual nanosecond
 * timestamps; then a DATA for an unknown connection and the RST it draws;
 * plus two UDP frames that are not DFCP. OUTDIR/dfcp.expect: one line per
 * frame, "N<TAB>dfcp<TAB>field=value..." with every DFCP field as lib/dfcp's
 * own parser read it, or "N<TAB>-" for a frame that is not DFCP.
 *
 * OUTDIR/dfcp_bad.pcap: deliberately malformed DFCP frames (UDP 5000 ->
 * 6000). OUTDIR/dfcp_bad.expect: "N<TAB>EXPERT<TAB>PARSER-ERROR": the
 * dissector's expert field that must flag it ("-": none), and the error
 * lib/dfcp's parser gives (checked here). The last two frames parse: a
 * valid SYN and a DATA whose symbol is not T bytes long (a receiver state
 * check; the dissector knows T from the SYN).
 *
 * Pcap: classic format, nanosecond variant (magic 0xa1b23c4d), host byte
 * order, link type 1 (Ethernet).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "vnet.h"

#define MS		1000000ull
#define TS_BASE_S	1700000000ull	/* virtual time 0 in the capture */

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

/* ------------------------------------------------------------------ */
/* pcap                                                                 */
/* ------------------------------------------------------------------ */

struct cap {
	FILE *pcap, *expect;
	uint32_t frames;
	uint32_t per_type[DFCP_T_MAX];
	struct vnet *v;
};

static void
cap_open(struct cap *c, const char *dir, const char *name)
{
	char path[4096];
	struct {
		uint32_t magic;
		uint16_t major, minor;
		int32_t thiszone;
		uint32_t sigfigs, snaplen, linktype;
	} hdr = { 0xa1b23c4d, 2, 4, 0, 0, 65535, 1 };

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/%s.pcap", dir, name);
	c->pcap = fopen(path, "wb");
	snprintf(path, sizeof(path), "%s/%s.expect", dir, name);
	c->expect = fopen(path, "w");
	if (c->pcap == NULL || c->expect == NULL) {
		fprintf(stderr, "gen-dfcp-pcap: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	CHECK(fwrite(&hdr, sizeof(hdr), 1, c->pcap) == 1);
}

static void
cap_write(struct cap *c, uint64_t t_ns, const uint8_t *f, uint32_t len)
{
	uint32_t rec[4];

	rec[0] = (uint32_t)(TS_BASE_S + t_ns / 1000000000u);
	rec[1] = (uint32_t)(t_ns % 1000000000u);
	rec[2] = len;	/* captured */
	rec[3] = len;	/* on the wire */
	CHECK(fwrite(rec, sizeof(rec), 1, c->pcap) == 1);
	CHECK(fwrite(f, len, 1, c->pcap) == 1);
	c->frames++;
}

static void
cap_close(struct cap *c)
{
	CHECK(fclose(c->pcap) == 0);
	CHECK(fclose(c->expect) == 0);
}

/* Capture a DFCP frame with its expectation line (parsed by lib/dfcp). */
static void
cap_dfcp(struct cap *c, uint64_t t_ns, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;
	FILE *e = c->expect;
	int rc = dfcp_parse(f, len, 0, &p);

	if (rc != 0) {
		fprintf(stderr, "gen-dfcp-pcap: engine frame %u does not parse: %s\n",
			c->frames + 1, dfcp_err_str(rc));
		exit(1);
	}
	cap_write(c, t_ns, f, len);
	c->per_type[p.type]++;
	fprintf(e, "%u\tdfcp\tdfcp.version=%u\tdfcp.type=%u\tdfcp.flags=%u"
		"\tdfcp.dst_cid=%u\tdfcp.src_cid=%u", c->frames, p.version, p.type,
		p.flags, p.dst_cid, p.src_cid);
	switch (p.type) {
	case DFCP_T_SYN:
	case DFCP_T_SYNACK:
		fprintf(e, "\tdfcp.block_size=%u\tdfcp.symbol_size=%u\tdfcp.k=%u"
			"\tdfcp.window=%u\tdfcp.redundancy=%u\tdfcp.max_window=%u"
			"\tdfcp.max_k=%u\tdfcp.max_t=%u",
			p.u.params.block_size, p.u.params.T, p.u.params.K,
			p.u.params.window, p.u.params.redundancy,
			p.u.params.max_window, p.u.params.max_K, p.u.params.max_T);
		break;
	case DFCP_T_ACK:
		fprintf(e, "\tdfcp.acked=%u", p.u.ack.acked);
		break;
	case DFCP_T_DATA:
		fprintf(e, "\tdfcp.block=%u\tdfcp.sbn=%u\tdfcp.esi=%u"
			"\tdfcp.block_len=%u\tdfcp.symbol_len=%u",
			p.u.data.block, p.u.data.block & 0xff, p.u.data.esi,
			p.u.data.block_len, p.u.data.sym_len);
		if (p.flags & DFCP_F_RND)
			fprintf(e, "\tdfcp.seq=%u\tdfcp.rlen=%u\tdfcp.rpos=%u", p.u.data.seq,
				p.u.data.rlen, p.u.data.rpos);
		if (p.flags & DFCP_F_CRC)
			fprintf(e, "\tdfcp.crc=%u", p.u.data.crc);
		break;
	case DFCP_T_BLOCK_ACK:
		fprintf(e, "\tdfcp.block=%u\tdfcp.cum=%u\tdfcp.status=%u"
			"\tdfcp.missing=%u\tdfcp.rcvd=%u\tdfcp.esi_span=%u"
			"\tdfcp.bitmap=%llu",
			p.u.back.block, p.u.back.cum, p.u.back.status,
			p.u.back.missing, p.u.back.rcvd, p.u.back.esi_span,
			(unsigned long long)p.u.back.bitmap);
		if (p.flags & DFCP_F_RPT)
			fprintf(e, "\tdfcp.rx_pkts=%u\tdfcp.seq_next=%u\tdfcp.rnd_seq=%u"
				"\tdfcp.rnd_len=%u\tdfcp.rnd_rcvd=%u\tdfcp.rnd_end=%u"
				"\tdfcp.rate=%u", p.u.back.rx_pkts, p.u.back.seq_next,
				p.u.back.rnd_seq, p.u.back.rnd_len, p.u.back.rnd_rcvd,
				p.u.back.rnd_end, p.u.back.rate);
		break;
	case DFCP_T_FIN:
		fprintf(e, "\tdfcp.nblocks=%u\tdfcp.nbytes=%llu", p.u.fin.nblocks,
			(unsigned long long)p.u.fin.nbytes);
		break;
	case DFCP_T_RST:
		fprintf(e, "\tdfcp.rst_reason=%u", p.u.rst.reason);
		break;
	default:
		break;
	}
	if (p.flags & DFCP_F_AUTH)
		fprintf(e, "\tdfcp.tag=%llu", (unsigned long long)p.tag);
	fputc('\n', e);
}

/* Tap on every frame handed to the link (before its loss). */
static int
tap(void *ctx, int dir, const uint8_t *f, uint16_t len)
{
	struct cap *c = ctx;

	(void)dir;
	if (len >= DFCP_ETH_LEN + 2 && f[12] == 0x08 && f[13] == 0x06)
		return 0;	/* no ARP in this run; keep the capture DFCP-only */
	cap_dfcp(c, c->v->now, f, len);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Hand-made frames                                                     */
/* ------------------------------------------------------------------ */

static void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static void
wr32(uint8_t *p, uint32_t v)
{
	wr16(p, v >> 16);
	wr16(p + 2, v & 0xffff);
}

/* Ethernet/IPv4/UDP around payload (UDP checksum 0), padded to 60 bytes. */
static uint16_t
wrap(uint8_t *f, uint16_t sport, uint16_t dport, const uint8_t *pl, uint16_t plen)
{
	uint8_t *ip = f + DFCP_ETH_LEN, *udp = ip + DFCP_IP_LEN;
	uint16_t len = DFCP_L2L4_LEN + plen, csum;

	memset(f, 0, DFCP_MIN_FRAME);
	memcpy(f, B.mac, 6);
	memcpy(f + 6, A.mac, 6);
	wr16(f + 12, DFCP_ETHERTYPE_IPV4);
	ip[0] = 0x45;
	wr16(ip + 2, DFCP_IP_LEN + DFCP_UDP_LEN + plen);
	wr16(ip + 6, 0x4000);	/* DF */
	ip[8] = 64;
	ip[9] = 17;
	wr32(ip + 12, A.ip);
	wr32(ip + 16, B.ip);
	csum = net_csum16(ip, DFCP_IP_LEN, 0);	/* host order, as summed */
	memcpy(ip + 10, &csum, 2);
	wr16(udp, sport);
	wr16(udp + 2, dport);
	wr16(udp + 4, DFCP_UDP_LEN + plen);
	memcpy(udp + DFCP_UDP_LEN, pl, plen);
	return len < DFCP_MIN_FRAME ? DFCP_MIN_FRAME : len;
}

/* DFCP common header. */
static void
common(uint8_t *d, uint8_t ver, uint8_t type, uint16_t flags, uint32_t dst, uint32_t src)
{
	d[0] = ver;
	d[1] = type;
	wr16(d + 2, flags);
	wr32(d + 4, dst);
	wr32(d + 8, src);
}

static void
syn_body(uint8_t *d, uint32_t bs, uint16_t T, uint16_t K, uint32_t win, uint16_t red)
{
	wr32(d, bs);
	wr16(d + 4, T);
	wr16(d + 6, K);
	wr32(d + 8, win);
	wr16(d + 12, red);
	wr16(d + 14, 0);
	wr32(d + 16, 4096);
	wr16(d + 20, 8192);
	wr16(d + 22, 9000);
}

static void
gen_bad(const char *dir)
{
	struct cap c;
	uint8_t d[2048], f[2048];
	uint32_t n = 0;
	const uint32_t dc = 0x00010003, sc = 0x00020001;
	const struct {
		const char *expert;
		int err;
		uint8_t ver, type;
		uint32_t dst, src;
		int body;		/* body bytes after the common header */
		int what;		/* special contents, see below */
	} cases[] = {
		{ "dfcp.bad_version", DFCP_E_VERSION, 2, DFCP_T_BLOCK_ACK, dc, sc, 28, 0 },
		{ "dfcp.bad_version", DFCP_E_VERSION, 0, DFCP_T_DATA, dc, sc, 40, 1 },
		{ "dfcp.bad_type", DFCP_E_TYPE, 1, 0, dc, sc, 4, 0 },
		{ "dfcp.bad_type", DFCP_E_TYPE, 1, 9, dc, sc, 4, 0 },
		{ "dfcp.bad_type", DFCP_E_TYPE, 1, 200, dc, sc, 0, 0 },
		{ "dfcp.short", DFCP_E_TRUNC_DFCP, 1, DFCP_T_ACK, dc, sc, -4, 0 },
		{ "dfcp.short", DFCP_E_TRUNC_DFCP, 1, DFCP_T_DATA, dc, sc, -11, 0 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_SYN, 0, sc, 20, 2 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_ACK, dc, sc, 8, 0 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_DATA, dc, sc, 12, 1 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_BLOCK_ACK, dc, sc, 27, 0 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_FINACK, dc, sc, 4, 0 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_RST, dc, sc, 0, 0 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_FIN, dc, sc, 16, 0 },
		{ "dfcp.bad_cid", DFCP_E_CONN, 1, DFCP_T_FIN, dc, 0, 12, 0 },
		{ "dfcp.bad_cid", DFCP_E_CONN, 1, DFCP_T_DATA, 0, sc, 40, 1 },
		{ "dfcp.bad_payload_id", DFCP_E_ESI, 1, DFCP_T_DATA, dc, sc, 40, 3 },
		{ "dfcp.bad_block_len", DFCP_E_ESI, 1, DFCP_T_DATA, dc, sc, 40, 4 },
		{ "dfcp.bad_params", DFCP_E_PARAMS, 1, DFCP_T_SYN, 0, sc, 24, 5 },
		{ "dfcp.bad_params", DFCP_E_PARAMS, 1, DFCP_T_SYNACK, dc, sc, 24, 6 },
		{ "dfcp.bad_params", DFCP_E_PARAMS, 1, DFCP_T_SYN, 0, sc, 24, 7 },
		{ "dfcp.bad_params", DFCP_E_PARAMS, 1, DFCP_T_SYN, 0, sc, 24, 8 },
		{ "dfcp.bad_status", DFCP_E_LEN, 1, DFCP_T_BLOCK_ACK, dc, sc, 28, 9 },
		/* extensions: RND / RPT flags, layouts and their checks */
		{ "dfcp.bad_round", DFCP_E_ROUND, 1, DFCP_T_DATA, dc, sc, 48, 10 },
		{ "dfcp.bad_round", DFCP_E_ROUND, 1, DFCP_T_DATA, dc, sc, 48, 11 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_DATA, dc, sc, 20, 10 },
		{ "dfcp.bad_report", DFCP_E_REPORT, 1, DFCP_T_BLOCK_ACK, dc, sc, 52, 12 },
		{ "dfcp.bad_report", DFCP_E_REPORT, 1, DFCP_T_BLOCK_ACK, dc, sc, 52, 13 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_BLOCK_ACK, dc, sc, 28, 12 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_BLOCK_ACK, dc, sc, 52, 0 },
		/* a round starting below ESI 0; a CRC and no symbol; a tag too short */
		{ "dfcp.bad_round", DFCP_E_ROUND, 1, DFCP_T_DATA, dc, sc, 48, 14 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_DATA, dc, sc, 16, 15 },
		{ "dfcp.bad_length", DFCP_E_LEN, 1, DFCP_T_ACK, dc, sc, 4, 16 },
		/* valid for the parser: a SYN (T = 100), then its DATA with a
		 * 28-byte symbol (the receiver's state check, symbol-length) */
		{ "-", 0, 1, DFCP_T_SYN, 0, 0x00030001, 24, 2 },
		{ "dfcp.bad_symbol_len", 0, 1, DFCP_T_DATA, dc, 0x00030001, 40, 1 },
	};

	cap_open(&c, dir, "dfcp_bad");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint16_t plen, len;
		struct dfcp_pkt p;
		int rc;

		memset(d, 0, sizeof(d));
		common(d, cases[i].ver, cases[i].type, 0, cases[i].dst, cases[i].src);
		plen = (uint16_t)(DFCP_COMMON_LEN + cases[i].body);
		switch (cases[i].what) {
		case 1:		/* DATA body: block 7, SBN 7, ESI 3, block_len 100 */
		case 3:		/* ... SBN 8 */
		case 4:		/* ... block_len 0 */
			wr32(d + 12, 7);
			wr32(d + 16, (cases[i].what == 3 ? 8u : 7u) << 24 | 3);
			wr32(d + 20, cases[i].what == 4 ? 0 : 100);
			break;
		case 2:		/* SYN parameters (cut to 20 bytes in one case) */
			syn_body(d + 12, 1000, 100, 10, 16, 0);
			break;
		case 5:		/* K = 0 */
			syn_body(d + 12, 1000, 100, 0, 16, 0);
			break;
		case 6:		/* block_size > K * T */
			syn_body(d + 12, 1001, 100, 10, 16, 0);
			break;
		case 7:		/* redundancy below K */
			syn_body(d + 12, 1000, 100, 10, 16, 5);
			break;
		case 8:		/* T below 16 */
			syn_body(d + 12, 100, 10, 10, 16, 0);
			break;
		case 9:		/* BLOCK-ACK status 3 */
			wr16(d + 20, 3);
			break;
		case 10:	/* DATA, round header: position 5 of a 5-packet round */
		case 11:	/* ... position 4 of 5 without LAST */
			common(d, 1, DFCP_T_DATA, DFCP_F_RND, cases[i].dst, cases[i].src);
			wr32(d + 12, 7);
			wr32(d + 16, 7u << 24 | 3);
			wr32(d + 20, 100);
			wr32(d + 24, 1000);
			wr16(d + 28, 5);
			wr16(d + 30, cases[i].what == 10 ? 5 : 4);
			break;
		case 14:	/* DATA, round header: ESI 3 at position 4 of 5 (LAST) */
			common(d, 1, DFCP_T_DATA, DFCP_F_RND | DFCP_F_LAST, cases[i].dst,
					cases[i].src);
			wr32(d + 12, 7);
			wr32(d + 16, 7u << 24 | 3);
			wr32(d + 20, 100);
			wr32(d + 24, 1000);
			wr16(d + 28, 5);
			wr16(d + 30, 4);
			break;
		case 15:	/* DATA with a block CRC and no symbol after it */
			common(d, 1, DFCP_T_DATA, DFCP_F_CRC, cases[i].dst, cases[i].src);
			wr32(d + 12, 7);
			wr32(d + 16, 7u << 24 | 3);
			wr32(d + 20, 100);
			break;
		case 16:	/* ACK flagged AUTH: its 4 bytes cannot hold a tag */
			common(d, 1, DFCP_T_ACK, DFCP_F_AUTH, cases[i].dst, cases[i].src);
			d[12] = DFCP_T_SYNACK;
			break;
		case 12:	/* BLOCK-ACK, report: 10 of a 9-packet round */
		case 13:	/* ... a round, but "no round ended" */
			common(d, 1, DFCP_T_BLOCK_ACK, DFCP_F_RPT, cases[i].dst, cases[i].src);
			wr16(d + 20, DFCP_BA_DECODED);
			wr32(d + 40, 90);
			wr32(d + 44, 100);
			wr32(d + 48, 80);
			wr16(d + 52, 9);
			wr16(d + 54, cases[i].what == 12 ? 10 : 9);
			d[56] = cases[i].what == 12 ? DFCP_END_LAST : DFCP_END_NONE;
			break;
		default:
			if (cases[i].type == DFCP_T_BLOCK_ACK)
				wr16(d + 20, DFCP_BA_DECODED);
			break;
		}
		len = wrap(f, A.port, B.port, d, plen);
		rc = dfcp_parse(f, len, 0, &p);
		if (rc != -cases[i].err) {
			fprintf(stderr, "gen-dfcp-pcap: bad case %zu: parser says %s, want %s\n",
				i, dfcp_err_str(rc), dfcp_err_str(cases[i].err));
			exit(1);
		}
		cap_write(&c, (uint64_t)i * MS, f, len);
		fprintf(c.expect, "%u\t%s\t%s\n", ++n, cases[i].expert,
			cases[i].err ? dfcp_err_str(cases[i].err) :
			cases[i].type == DFCP_T_DATA ? "(symbol-length, needs state)" : "ok");
	}
	cap_close(&c);
	printf("dfcp_bad.pcap: %u frames (the last two parse)\n", n);
}

/* ------------------------------------------------------------------ */
/* A real transfer                                                      */
/* ------------------------------------------------------------------ */

static struct dfcp_conn *g_a;

static int
done(void *ctx)
{
	(void)ctx;
	return dfcp_conn_state(g_a) == DFCP_CLOSED;
}

/*
 * A transfer over 5 % loss each way, captured at the senders; xr: the
 * format (and rate hints asked for), with the block CRC; key: signed. The
 * endpoints stay in v (the caller frees them).
 */
static void
transfer(struct cap *c, struct vnet *v, int xr, uint64_t bytes, uint32_t seed, int key)
{
	static struct net_sink_count sink;	/* outlives the call: the endpoints do */
	static struct net_src_pattern src;
	struct dfcp_ep_conf ec;
	struct dfcp_conn_conf cc;
	struct dfcp_ep *ea, *eb;

	net_src_pattern_init(&src, seed, bytes, 0);
	net_sink_count_init(&sink, seed, 1);
	dfcp_ep_conf_default(&ec);
	ec.local = A;
	ec.listen = 0;
	ec.max_conns = 4;
	ec.max_half_open = 1;
	ea = dfcp_ep_create(&ec);
	ec.local = B;
	ec.listen = 1;
	ec.accept_conf.sink = net_sink_count_write;
	ec.accept_conf.sink_ctx = &sink;
	ec.accept_conf.hs_rto_ns = 20 * MS;
	ec.accept_conf.time_wait_ns = 20 * MS;
	ec.auth_key_len = key ? 16 : 0;
	memcpy(ec.auth_key, "capture-test-key", 16);
	eb = dfcp_ep_create(&ec);
	REQUIRE(ea != NULL && eb != NULL);

	dfcp_conn_conf_default(&cc);
	cc.remote = B;
	cc.window = 4;
	cc.redundancy = DFCP_REDUNDANCY_AUTO;
	cc.hs_rto_ns = 20 * MS;
	cc.time_wait_ns = 20 * MS;
	cc.source = net_src_pattern_read;
	cc.source_ctx = &src;
	cc.xr = xr;
	cc.rate_hint = xr;
	cc.auth_key_len = key ? 16 : 0;
	memcpy(cc.auth_key, "capture-test-key", 16);

	vn_init(v, ea, eb, seed);
	v->filter = tap;
	v->filter_ctx = c;
	for (int d = 0; d < 2; d++)
		v->dir[d].loss_ppm = 50000;
	g_a = dfcp_ep_connect(ea, &cc, 0);
	REQUIRE(g_a != NULL);
	vn_run(v, 60000 * MS, done, NULL);
	CHECK(dfcp_conn_state(g_a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(g_a) == DFCP_CR_DONE);
	CHECK(sink.bytes == bytes && sink.bad_bytes == 0);
}

static void
gen_transfer(const char *dir)
{
	static const char *names[DFCP_T_MAX] = {
		"?", "SYN", "SYNACK", "ACK", "DATA", "BLOCK-ACK", "FIN", "FINACK", "RST"
	};
	struct dfcp_ep *ea, *eb;
	struct vnet v;
	struct cap c;
	uint8_t f[VN_FRAME], sym[64];
	struct dfcp_pkt p;
	uint16_t len;
	int n;

	cap_open(&c, dir, "dfcp");
	c.v = &v;
	/* the version-1 format, then the extended reports: 8 blocks, the last one short */
	transfer(&c, &v, 0, 2 * 47 * 1420 + 500, 9, 0);
	dfcp_ep_free(v.ep[0]);
	dfcp_ep_free(v.ep[1]);
	vn_fini(&v);
	/* signed (a key on both ends) */
	transfer(&c, &v, 1, 2 * 47 * 1420, 10, 1);
	dfcp_ep_free(v.ep[0]);
	dfcp_ep_free(v.ep[1]);
	vn_fini(&v);
	transfer(&c, &v, 1, 7 * 47 * 1420 + 1000, 8, 0);
	ea = v.ep[0];
	eb = v.ep[1];

	/* a DATA for a connection B does not know: B answers RST (unknown) */
	for (int d = 0; d < 2; d++)
		v.dir[d].loss_ppm = 0;
	memset(&p, 0, sizeof(p));
	memset(sym, 0xab, sizeof(sym));
	p.type = DFCP_T_DATA;
	p.flags = DFCP_F_LAST;
	p.dst_cid = 0x00070007;
	p.src_cid = 0x00050001;
	p.u.data.block = 0x1234;
	p.u.data.esi = 0x10203;
	p.u.data.block_len = 64;
	p.u.data.sym = sym;
	p.u.data.sym_len = sizeof(sym);
	n = dfcp_build(f, sizeof(f), &A, &B, &p, DFCP_CSUM_FULL);
	CHECK(n > 0);
	cap_dfcp(&c, v.now, f, (uint16_t)n);
	CHECK(dfcp_ep_rx(eb, f, (size_t)n, v.now) == -DFCP_E_CONN);
	vn_run(&v, v.now + 10 * MS, NULL, NULL);
	CHECK(c.per_type[DFCP_T_RST] == 1);

	/* two UDP frames that are not DFCP (the heuristic must leave them) */
	for (int i = 0; i < 16; i++)
		sym[i] = (uint8_t)(i * 37 + 11);
	len = wrap(f, 7777, 7779, sym, 16);	/* some other UDP payload */
	cap_write(&c, v.now + MS, f, len);
	fprintf(c.expect, "%u\t-\n", c.frames);
	memset(sym, 0, sizeof(sym));
	common(sym, 1, DFCP_T_DATA, 0, 1, 1);	/* DFCP-like, too short for DATA */
	len = wrap(f, 7777, 7778, sym, 20);
	cap_write(&c, v.now + 2 * MS, f, len);
	fprintf(c.expect, "%u\t-\n", c.frames);

	cap_close(&c);
	printf("dfcp.pcap: %u frames:", c.frames);
	for (int t = 1; t < DFCP_T_MAX; t++)
		printf(" %s %u", names[t], c.per_type[t]);
	printf(", 2 not DFCP\n");
	vn_fini(&v);
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
}

int
main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen-dfcp-pcap OUTDIR\n");
		return 2;
	}
	gen_transfer(argv[1]);
	gen_bad(argv[1]);
	return test_report("gen-dfcp-pcap");
}
