/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp under spoofing (issue #15), on a virtual clock: forged RST, FIN,
 * BLOCK-ACK and DATA from another address, the same from the right address
 * with a guessed connection id, and (an on-path attacker who copies the
 * ids) numbers that do not fit what was sent: a FIN that does not match
 * what was delivered, a cum beyond the blocks sent, a SHORT asking for
 * 65535 symbols. Then with a key: forged DATA with the right 4-tuple and
 * ids, a copied frame with one symbol byte changed, unsigned control
 * frames, keys that do not match. Each time the transfer completes,
 * byte-exact, and every forged frame is a counted drop with its reason.
 */
#include "sechelp.h"

static const struct dfcp_addr EVIL = { { 2, 0, 0, 0, 0, 0x66 }, 0x0a000066, 6666 };

struct edit_ctx {
	int from_evil;		/* source address: another host */
	uint32_t guess_cid;	/* != 0: this destination id (an off-path guess) */
	uint8_t type;		/* != 0: turn the packet into this type */
	uint32_t cum_add, block;
	uint16_t missing;
	uint64_t bitmap;
	uint32_t fin_blocks;
};

static void
edit(struct dfcp_pkt *p, struct dfcp_addr *src, struct dfcp_addr *dst, void *vctx)
{
	struct edit_ctx *e = vctx;

	(void)dst;
	if (e->from_evil)
		*src = EVIL;
	if (e->guess_cid)
		p->dst_cid = e->guess_cid;
	if (e->type != 0 && e->type != p->type) {
		p->flags = 0;
		p->type = e->type;
		memset(&p->u, 0, sizeof(p->u));
	}
	switch (p->type) {
	case DFCP_T_RST:
		p->u.rst.reason = DFCP_RST_ABORT;
		break;
	case DFCP_T_FIN:
		p->u.fin.nblocks = e->fin_blocks;
		p->u.fin.nbytes = (uint64_t)e->fin_blocks * 16 * 64;
		break;
	case DFCP_T_BLOCK_ACK:
		p->u.back.cum += e->cum_add;
		p->u.back.bitmap |= e->bitmap;
		if (e->missing) {
			p->u.back.status = DFCP_BA_SHORT;
			p->u.back.block = e->block;
			p->u.back.missing = e->missing;
			p->u.back.rcvd = 0;
			p->u.back.esi_span = 0;
		}
		break;
	case DFCP_T_DATA:
		for (uint32_t i = 0; i < p->u.data.sym_len; i++)
			((uint8_t *)p->u.data.sym)[i] ^= 0xa5;
		break;
	default:
		break;
	}
}

static uint8_t back_tpl[VN_FRAME];
static uint16_t back_len;
static uint32_t guess = 0x5eed1234u;

static int
forge(struct sec_run *r, struct dfcp_ep *to, const uint8_t *f, uint16_t len, struct edit_ctx e)
{
	int rc = sec_forge(r, to, f, len, edit, &e, NULL);

	r->rc[r->nrc++] = rc;
	return rc;
}

/*
 * Against the sender (from a BLOCK-ACK seen going to it) once a tenth is
 * delivered, against the receiver (from a DATA frame) at a third.
 */
static int
attack_spoof(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	uint8_t t = sec_type(f, len);
	struct dfcp_pkt p;

	if (dir == 1 && t == DFCP_T_BLOCK_ACK) {
		memcpy(back_tpl, f, len);
		back_len = len;
	}
	if (r->step == 0 && dir == 1 && t == DFCP_T_BLOCK_ACK && r->sink.bytes >= r->bytes / 10) {
		r->step = 1;
		forge(r, r->ea, f, len, (struct edit_ctx){ .from_evil = 1, .type = DFCP_T_RST });
		forge(r, r->ea, f, len, (struct edit_ctx){ .from_evil = 1, .cum_add = 1000 });
		forge(r, r->ea, f, len, (struct edit_ctx){ .guess_cid = guess, .type = DFCP_T_RST });
		forge(r, r->ea, f, len, (struct edit_ctx){ .guess_cid = guess + 1, .cum_add = 1000 });
		/* the right address and ids: numbers that cannot be true */
		forge(r, r->ea, f, len, (struct edit_ctx){ .cum_add = 1000 });
		forge(r, r->ea, f, len, (struct edit_ctx){ .bitmap = ~0ull });
	}
	if (r->step == 1 && dir == 0 && t == DFCP_T_DATA && back_len != 0) {
		REQUIRE(dfcp_parse(f, len, 0, &p) == 0);
		r->step = 2;
		/* a SHORT for the block going out now, asking for 65535 symbols */
		forge(r, r->ea, back_tpl, back_len,
				(struct edit_ctx){ .missing = 65535, .block = p.u.data.block });
	}
	if (r->step == 2 && dir == 0 && t == DFCP_T_DATA && r->sink.bytes >= r->bytes / 3) {
		r->step = 3;
		forge(r, r->eb, f, len, (struct edit_ctx){ .from_evil = 1, .type = DFCP_T_FIN,
				.fin_blocks = 3 });
		forge(r, r->eb, f, len, (struct edit_ctx){ .from_evil = 1 });	/* DATA */
		forge(r, r->eb, f, len, (struct edit_ctx){ .from_evil = 1, .type = DFCP_T_RST });
		forge(r, r->eb, f, len, (struct edit_ctx){ .guess_cid = guess + 2,
				.type = DFCP_T_FIN, .fin_blocks = 3 });
		forge(r, r->eb, f, len, (struct edit_ctx){ .guess_cid = guess + 3 });
		forge(r, r->eb, f, len, (struct edit_ctx){ .guess_cid = guess + 4,
				.type = DFCP_T_RST });
		forge(r, r->eb, f, len, (struct edit_ctx){ .type = DFCP_T_FIN, .fin_blocks = 3 });
	}
	return 0;
}

static void
test_spoof(void)
{
	static const int want[] = {
		-DFCP_E_PEER, -DFCP_E_PEER, -DFCP_E_CONN, -DFCP_E_CONN, -DFCP_E_VALUE,
		-DFCP_E_VALUE, -DFCP_E_REPORT, -DFCP_E_PEER, -DFCP_E_PEER, -DFCP_E_PEER,
		-DFCP_E_CONN, -DFCP_E_CONN, -DFCP_E_CONN, -DFCP_E_VALUE,
	};
	struct dfcp_ep_stats sa, sb;
	struct sec_run r;

	sec_init(&r, 200 * 16 * 64 + 17);
	r.attack = attack_spoof;
	sec_start(&r, 5);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	CHECKF(r.nrc == (int)(sizeof(want) / sizeof(want[0])), "%d forged frames", r.nrc);
	for (int i = 0; i < r.nrc && i < (int)(sizeof(want) / sizeof(want[0])); i++)
		CHECKF(r.rc[i] == want[i], "forged frame %d: %s, want %s", i,
				dfcp_err_str(r.rc[i]), dfcp_err_str(want[i]));
	dfcp_ep_stats(r.ea, &sa);
	dfcp_ep_stats(r.eb, &sb);
	CHECK(sa.drops[DFCP_E_PEER] == 2 && sb.drops[DFCP_E_PEER] == 3);
	CHECK(sa.drops[DFCP_E_VALUE] == 2 && sb.drops[DFCP_E_VALUE] == 1);
	CHECK(sa.drops[DFCP_E_REPORT] >= 1);
	printf("spoofing: %d forged frames dropped; sender drops peer %llu value %llu report %llu, "
		"receiver peer %llu value %llu unknown-conn %llu\n", r.nrc,
		(unsigned long long)sa.drops[DFCP_E_PEER], (unsigned long long)sa.drops[DFCP_E_VALUE],
		(unsigned long long)sa.drops[DFCP_E_REPORT], (unsigned long long)sb.drops[DFCP_E_PEER],
		(unsigned long long)sb.drops[DFCP_E_VALUE], (unsigned long long)sb.drops[DFCP_E_CONN]);
	sec_fini(&r);
}

/* ---- with a key ---- */

static struct dfcp_auth wrong_key;

static int
attack_auth(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	uint8_t t = sec_type(f, len), g[VN_FRAME];
	struct edit_ctx e = { 0 };

	if (r->step != 0 || dir != 0 || t != DFCP_T_DATA || r->sink.bytes < r->bytes / 3)
		return 0;
	r->step = 1;
	/* rebuilt with the right 4-tuple and ids: no tag, a tag of another key */
	r->rc[r->nrc++] = sec_forge(r, r->eb, f, len, edit, &e, NULL);
	r->rc[r->nrc++] = sec_forge(r, r->eb, f, len, edit, &e, &wrong_key);
	/* the frame itself, one symbol byte changed, its tag kept */
	memcpy(g, f, len);
	g[DFCP_DATA_OFF + 3] ^= 1;
	r->rc[r->nrc++] = dfcp_ep_rx(r->eb, g, len, r->v.now);
	/* unsigned control frames with the right ids */
	e.type = DFCP_T_RST;
	r->rc[r->nrc++] = sec_forge(r, r->eb, f, len, edit, &e, NULL);
	e.type = DFCP_T_FIN;
	r->rc[r->nrc++] = sec_forge(r, r->eb, f, len, edit, &e, NULL);
	return 0;
}

/* DATA frames a -> b: how many, how many with UDP checksum 0 (not taken) */
static uint64_t csum_data, csum_zero;

static int
count_csum(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	(void)r;
	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA || len < 42)
		return 0;
	csum_data++;
	if (f[40] == 0 && f[41] == 0)
		csum_zero++;
	return 0;
}

static void
keyed(struct sec_run *r, int sender_len, int listener_len, int wrong)
{
	sec_init(r, 100 * 16 * 64);
	memcpy(r->cc.auth_key, sec_key, 32);
	r->cc.auth_key_len = (uint8_t)sender_len;
	memcpy(r->ec.auth_key, sec_key, 32);
	if (wrong)
		r->ec.auth_key[5] ^= 1;
	r->ec.auth_key_len = (uint8_t)listener_len;
}

static void
test_auth(void)
{
	struct dfcp_conn *b;
	struct dfcp_stats bs;
	struct dfcp_ep_stats sb;
	struct sec_run r;

	dfcp_auth_init(&wrong_key, "fedcba9876543210", 16);
	CHECK(dfcp_auth_init(&wrong_key, sec_key, 20) == -EINVAL);
	keyed(&r, 32, 32, 0);
	r.attack = attack_auth;
	sec_start(&r, 6);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	CHECK(dfcp_conn_params(r.a)->flags & DFCP_F_CRC);
	REQUIRE(r.nrc == 5);
	for (int i = 0; i < r.nrc; i++)
		CHECKF(r.rc[i] == -DFCP_E_AUTH, "forged frame %d: %s", i, dfcp_err_str(r.rc[i]));
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	dfcp_ep_stats(r.eb, &sb);
	CHECK(bs.drops[DFCP_E_AUTH] == 5 && sb.drops[DFCP_E_AUTH] == 5);
	CHECK(bs.completed && bs.close_reason == DFCP_CR_DONE);
	sec_fini(&r);

	/* a 16-byte key works the same; with software UDP checksums (taken after the tag) */
	keyed(&r, 16, 16, 0);
	r.cc.csum = DFCP_CSUM_FULL;
	r.attack = count_csum;
	sec_start(&r, 7);
	sec_run_until(&r, 60000 * MS);
	CHECK(sec_verified(&r));
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	dfcp_ep_stats(r.eb, &sb);
	CHECKF(bs.drops[DFCP_E_UDP_CSUM] == 0 && sb.drops[DFCP_E_UDP_CSUM] == 0 &&
			bs.rx_data_pkts > 100, "udp-checksum drops %llu / %llu of %llu",
			(unsigned long long)bs.drops[DFCP_E_UDP_CSUM],
			(unsigned long long)sb.drops[DFCP_E_UDP_CSUM],
			(unsigned long long)bs.rx_data_pkts);
	CHECKF(csum_data > 100 && csum_zero == 0, "%llu of %llu DATA frames without a checksum",
			(unsigned long long)csum_zero, (unsigned long long)csum_data);
	sec_fini(&r);

	/* the listener has no key / another key / the sender none: nothing connects */
	for (int k = 0; k < 3; k++) {
		struct dfcp_stats ss;

		keyed(&r, k == 2 ? 0 : 16, k == 0 ? 0 : 16, k == 1);
		sec_start(&r, 8);
		sec_run_until(&r, 10000 * MS);
		dfcp_conn_stats(r.a, &ss);
		dfcp_ep_stats(r.eb, &sb);
		CHECKF(ss.close_reason == DFCP_CR_SYN_TIMEOUT && !ss.completed, "case %d: %s", k,
				dfcp_close_reason_str(ss.close_reason));
		CHECKF(sb.drops[DFCP_E_AUTH] == 1 + DFCP_HS_RETRIES && sb.conns == 0 &&
				r.sink.bytes == 0, "case %d: auth drops %llu", k,
				(unsigned long long)sb.drops[DFCP_E_AUTH]);
		sec_fini(&r);
	}
}

int
main(void)
{
	test_spoof();
	test_auth();
	return test_report("dfcp-spoof");
}
