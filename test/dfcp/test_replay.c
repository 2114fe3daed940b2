/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp against replayed and forged DATA (issue #36), on a virtual clock.
 * With a key: genuine DATA frames replayed long after (their seqs more
 * than the anti-replay window behind) and duplicated mid-transfer are
 * dropped as `replay` and counted nowhere else; the sender refuses no
 * report. Without a key: a forged DATA with a wrong CRC or block length as
 * the first packet of 40 blocks (the slot takes the header most of the
 * block's packets carry), a DATA whose seq is moved 2^30 ahead or behind
 * (not counted until a second packet confirms the jump), and two forged
 * packets that do confirm one (the reports no longer fit, the acks still
 * count). Each time the transfer completes, byte-exact.
 */
#include "sechelp.h"
#include "dfcp_priv.h"

#define OLD_N	64	/* the first DATA frames, replayed later */
#define RING	256	/* the latest ones, for duplicates */

struct replay {
	uint8_t old[OLD_N][VN_FRAME];
	uint16_t old_len[OLD_N];
	uint8_t ring[RING][VN_FRAME];
	uint16_t ring_len[RING];
	uint64_t ndata;			/* DATA frames a -> b */
	uint32_t injected, replay_rc, other_rc;
};

static struct replay g_rp;

static void
replay_one(struct sec_run *r, const uint8_t *f, uint16_t len)
{
	int rc = dfcp_ep_rx(r->eb, f, len, r->v.now);

	g_rp.injected++;
	if (rc == -DFCP_E_REPLAY)
		g_rp.replay_rc++;
	else
		g_rp.other_rc++;
}

/*
 * Every DATA frame kept; from the 1500th on (seq 0..63 then 1400 behind),
 * every 400th: the 64 first frames again, and 8 frames sent 200 to 207
 * frames before (delivered, within the window), each twice.
 */
static int
attack_replay(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	uint64_t n;

	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA)
		return 0;
	n = g_rp.ndata++;
	if (n < OLD_N) {
		memcpy(g_rp.old[n], f, len);
		g_rp.old_len[n] = len;
	}
	memcpy(g_rp.ring[n % RING], f, len);
	g_rp.ring_len[n % RING] = len;
	if (n < 1500 || n % 400 != 0)
		return 0;
	for (int i = 0; i < OLD_N; i++)
		replay_one(r, g_rp.old[i], g_rp.old_len[i]);
	for (uint64_t k = n - 207; k <= n - 200; k++) {
		replay_one(r, g_rp.ring[k % RING], g_rp.ring_len[k % RING]);
		replay_one(r, g_rp.ring[k % RING], g_rp.ring_len[k % RING]);
	}
	return 0;
}

static void
test_replay_keyed(void)
{
	struct dfcp_stats ss, bs;
	struct dfcp_conn *b;
	struct sec_run r;

	memset(&g_rp, 0, sizeof(g_rp));
	sec_init(&r, 300 * 16 * 64 + 9);
	memcpy(r.cc.auth_key, sec_key, 32);
	r.cc.auth_key_len = 32;
	memcpy(r.ec.auth_key, sec_key, 32);
	r.ec.auth_key_len = 32;
	r.attack = attack_replay;
	sec_start(&r, 21);
	sec_run_until(&r, 60000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(r.a, &ss);
	dfcp_conn_stats(b, &bs);
	CHECKF(sec_verified(&r), "keyed replay: %llu of %llu bytes, sender %s",
			(unsigned long long)r.sink.bytes, (unsigned long long)r.bytes,
			dfcp_close_reason_str(ss.close_reason));
	CHECKF(g_rp.injected >= 2 * (OLD_N + 16), "%u frames replayed", g_rp.injected);
	CHECKF(g_rp.replay_rc == g_rp.injected && g_rp.other_rc == 0,
			"%u of %u replays dropped as replay", g_rp.replay_rc, g_rp.injected);
	CHECK(bs.drops[DFCP_E_REPLAY] == g_rp.injected);
	/* nothing of them reached the counters: every report fits what was sent */
	CHECKF(ss.drops[DFCP_E_REPORT] == 0 && ss.reports > 0, "%llu of %llu reports refused",
			(unsigned long long)ss.drops[DFCP_E_REPORT], (unsigned long long)ss.reports);
	CHECK(bs.loss_ppm == 0 && ss.loss_ppm == 0);
	printf("keyed replay: %u genuine DATA frames replayed (old and duplicated), all dropped "
		"as replay; %llu reports accepted, none refused; %llu bytes exact\n",
		g_rp.injected, (unsigned long long)ss.reports, (unsigned long long)r.sink.bytes);
	sec_fini(&r);
}

/* ---- without a key: forged first packets, forged seqs ---- */

struct forge {
	uint8_t seen[64];	/* blocks whose first DATA went by (bitmap) */
	uint32_t every;		/* the first packet of every n-th block ... */
	uint32_t blocks;	/* ... forged, this many */
	uint32_t forged, first_ok;
	int64_t seq_add[4];	/* seq jumps, one forged frame each, at a third */
	int nseq;
};

static struct forge g_fg;

static void
edit_first(struct dfcp_pkt *p, struct dfcp_addr *src, struct dfcp_addr *dst, void *ctx)
{
	uint32_t i = *(uint32_t *)ctx;

	(void)src;
	(void)dst;
	for (uint32_t k = 0; k < p->u.data.sym_len; k++)
		((uint8_t *)p->u.data.sym)[k] ^= (uint8_t)(0x3c + k);
	p->u.data.crc ^= 0x5a5a5a5au;
	if (i % 2)
		p->u.data.block_len -= 64;	/* and another length */
}

static void
edit_seq(struct dfcp_pkt *p, struct dfcp_addr *src, struct dfcp_addr *dst, void *ctx)
{
	(void)src;
	(void)dst;
	p->u.data.seq += (uint32_t)*(int64_t *)ctx;
}

/* Before each n-th block's first packet arrives, a forged one of it. */
static int
attack_forge(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	struct dfcp_pkt p;
	uint32_t b;

	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA)
		return 0;
	REQUIRE(dfcp_parse(f, len, 0, &p) == 0);
	b = p.u.data.block;
	if (r->step == 0 && g_fg.nseq > 0 && r->sink.bytes >= r->bytes / 3) {
		r->step = 1;
		for (int i = 0; i < g_fg.nseq; i++)
			r->rc[r->nrc++] = sec_forge(r, r->eb, f, len, edit_seq, &g_fg.seq_add[i],
					NULL);
	}
	if (g_fg.every == 0 || b >= 64 * 8 || (g_fg.seen[b / 8] & (1u << (b % 8))))
		return 0;
	g_fg.seen[b / 8] |= (uint8_t)(1u << (b % 8));
	if (b % g_fg.every != 0 || g_fg.forged == g_fg.blocks)
		return 0;
	if (sec_forge(r, r->eb, f, len, edit_first, &g_fg.forged, NULL) == 0)
		g_fg.first_ok++;
	g_fg.forged++;
	return 0;
}

static void
test_forged_first(void)
{
	struct dfcp_stats bs;
	struct dfcp_conn *b;
	struct sec_run r;

	memset(&g_fg, 0, sizeof(g_fg));
	g_fg.every = 5;
	g_fg.blocks = 40;
	sec_init(&r, 200 * 16 * 64 + 33);
	r.attack = attack_forge;
	sec_start(&r, 22);
	sec_run_until(&r, 60000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	CHECKF(sec_verified(&r), "forged first packets: %llu of %llu bytes",
			(unsigned long long)r.sink.bytes, (unsigned long long)r.bytes);
	/* each forged one came first, and its block took the genuine header after it */
	CHECKF(g_fg.forged == 40 && g_fg.first_ok == 40, "%u forged, %u taken first",
			g_fg.forged, g_fg.first_ok);
	CHECKF(bs.hdr_switches == 40, "%llu blocks restarted", (unsigned long long)bs.hdr_switches);
	CHECKF(bs.drops[DFCP_E_CRC] + bs.drops[DFCP_E_ESI] == 40,
			"genuine DATA dropped: crc %llu, esi %llu",
			(unsigned long long)bs.drops[DFCP_E_CRC], (unsigned long long)bs.drops[DFCP_E_ESI]);
	CHECK(bs.crc_failures == 0);
	printf("forged first packets: 40 blocks began with a forged DATA (wrong CRC, 20 a wrong "
		"length too); each took the genuine header at its second genuine packet (%llu "
		"genuine dropped), %llu bytes exact\n",
		(unsigned long long)(bs.drops[DFCP_E_CRC] + bs.drops[DFCP_E_ESI]),
		(unsigned long long)r.sink.bytes);
	sec_fini(&r);
}

/*
 * A copied DATA with its seq moved: 2^30 ahead, 2^31 - 1 ahead, 2^30
 * behind (one each: none counted), or twice 2^30 ahead in a row (a
 * confirmed jump: the reports no longer fit what was sent, are refused,
 * and their acknowledgements still count).
 */
static void
test_forged_seq(int confirmed)
{
	struct dfcp_stats ss, bs;
	struct dfcp_conn *b;
	struct sec_run r;

	memset(&g_fg, 0, sizeof(g_fg));
	if (confirmed) {
		g_fg.seq_add[0] = 1 << 30;
		g_fg.seq_add[1] = (1 << 30) + 1;
		g_fg.nseq = 2;
	} else {
		g_fg.seq_add[0] = 1 << 30;
		g_fg.seq_add[1] = INT32_MAX;
		g_fg.seq_add[2] = -(1 << 30);
		g_fg.nseq = 3;
	}
	sec_init(&r, 200 * 16 * 64 + 1);
	r.attack = attack_forge;
	sec_start(&r, 23);
	sec_run_until(&r, 60000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(r.a, &ss);
	dfcp_conn_stats(b, &bs);
	REQUIRE(r.nrc == g_fg.nseq);
	CHECKF(sec_verified(&r), "seq %s: %llu of %llu bytes",
			confirmed ? "jump confirmed" : "forged", (unsigned long long)r.sink.bytes,
			(unsigned long long)r.bytes);
	if (!confirmed)
		CHECKF(ss.drops[DFCP_E_REPORT] == 0 && bs.loss_ppm == 0,
				"%llu reports refused, receiver loss %u ppm",
				(unsigned long long)ss.drops[DFCP_E_REPORT], bs.loss_ppm);
	else
		CHECK(ss.drops[DFCP_E_REPORT] > 0);
	printf("forged seq (%s): %llu reports accepted, %llu refused, %llu bytes exact\n",
		confirmed ? "two, a confirmed jump" : "+2^30, +2^31-1, -2^30",
		(unsigned long long)ss.reports, (unsigned long long)ss.drops[DFCP_E_REPORT],
		(unsigned long long)r.sink.bytes);
	sec_fini(&r);
}

/* ---- a genuine jump: 1200 DATA frames in a row lost ---- */

static int
attack_burst(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	(void)r;
	if (dir != 0 || sec_type(f, len) != DFCP_T_DATA)
		return 0;
	g_rp.ndata++;
	return g_rp.ndata > 100 && g_rp.ndata <= 1300;
}

/*
 * The window moves a long way forward: at once with a key, at the second
 * packet after the gap without one (that one and the first both counted).
 */
static void
test_burst(int keyed)
{
	struct dfcp_stats ss;
	struct dfcp_conn *b;
	struct sec_run r;
	uint32_t lost;

	memset(&g_rp, 0, sizeof(g_rp));
	sec_init(&r, 400 * 16 * 64);
	r.cc.window = 128;
	r.ec.limits.max_window = 128;
	if (keyed) {
		memcpy(r.cc.auth_key, sec_key, 16);
		r.cc.auth_key_len = 16;
		memcpy(r.ec.auth_key, sec_key, 16);
		r.ec.auth_key_len = 16;
	}
	r.attack = attack_burst;
	sec_start(&r, 24);
	sec_run_until(&r, 60000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(r.a, &ss);
	CHECKF(dfcp_conn_params(r.a)->window == 128, "window %u", dfcp_conn_params(r.a)->window);
	CHECK(sec_verified(&r));
	lost = b->seq_next - b->rx_pkts;
	CHECKF(lost == 1200 && b->seq_next == ss.tx_data_pkts, "%s: %u of %u lost, %llu sent",
			keyed ? "keyed" : "no key", lost, b->seq_next,
			(unsigned long long)ss.tx_data_pkts);
	CHECK(ss.drops[DFCP_E_REPORT] == 0);
	printf("1200 DATA frames lost in a row (%s): the receiver counts exactly those lost of "
		"%u, no report refused\n", keyed ? "keyed" : "no key", b->seq_next);
	sec_fini(&r);
}

int
main(void)
{
	test_replay_keyed();
	test_forged_first();
	test_forged_seq(0);
	test_forged_seq(1);
	test_burst(0);
	test_burst(1);
	return test_report("dfcp-replay");
}
