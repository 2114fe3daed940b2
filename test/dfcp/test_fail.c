/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp under failure (issue #15), on a virtual clock. Dead peers: the
 * receiver stops (nothing of it arrives any more) and the sender closes
 * with PEER_TIMEOUT after its peer timeout, not completed; the same seen
 * from the receiver; a configured timeout. Integrity: DATA symbols
 * corrupted in flight with valid headers (no UDP checksum, no key) never
 * reach the sink: the block CRC fails, the block is asked for again and the
 * delivered bytes are exact; without the CRC the same corruption reaches
 * the sink (the check is what catches it). A held source (dfcp_conn_hold):
 * no new block for 10 s (three peer timeouts), the keepalives keep both
 * ends up, the release completes the transfer exact.
 */
#include "sechelp.h"

struct kill {
	uint64_t at;		/* when the receiver died (0: not yet) */
	int both;		/* nothing gets through either way */
};

static struct kill g_kill;

static int
attack_kill(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	(void)f;
	(void)len;
	if (g_kill.at == 0 && r->sink.bytes >= r->bytes / 4)
		g_kill.at = r->v.now;
	if (g_kill.at == 0)
		return 0;
	return dir == 1 || g_kill.both;
}

static void
test_dead_receiver(uint64_t timeout_ns, uint64_t want_ns)
{
	struct dfcp_stats ss, bs;
	struct dfcp_conn *b;
	struct sec_run r;
	uint64_t took;

	memset(&g_kill, 0, sizeof(g_kill));
	g_kill.both = 1;
	sec_init(&r, 400 * 16 * 64);
	r.cc.peer_timeout_ns = timeout_ns;
	r.ec.accept_conf.peer_timeout_ns = timeout_ns;
	r.attack = attack_kill;
	sec_start(&r, 11);
	sec_run_until(&r, 60000 * MS);
	REQUIRE(g_kill.at != 0);
	dfcp_conn_stats(r.a, &ss);
	took = r.v.now - g_kill.at;
	CHECKF(dfcp_conn_state(r.a) == DFCP_CLOSED && ss.close_reason == DFCP_CR_PEER_TIMEOUT,
			"%s", dfcp_close_reason_str(ss.close_reason));
	CHECK(!ss.completed);
	/* the last packet heard came just before the kill (an RTT of 0.2 ms) */
	CHECKF(took >= want_ns - MS && took <= want_ns + MS, "closed %.3f s after the kill",
			(double)took / 1e9);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	vn_run(&r.v, r.v.now + want_ns + 10 * MS, NULL, NULL);
	dfcp_conn_stats(b, &bs);
	CHECKF(bs.close_reason == DFCP_CR_PEER_TIMEOUT && !bs.completed, "receiver: %s",
			dfcp_close_reason_str(bs.close_reason));
	printf("dead peer: sender closed %s %.3f s after the receiver died (timeout %.1f s), "
		"%llu block timeouts, completed %u\n", dfcp_close_reason_str(ss.close_reason),
		(double)took / 1e9, (double)want_ns / 1e9, (unsigned long long)ss.timeouts,
		ss.completed);
	sec_fini(&r);
}

/* Only the receiver's frames are lost: the receiver times out too (no DATA). */
static void
test_dead_sender(void)
{
	struct dfcp_stats bs;
	struct dfcp_conn *b;
	struct sec_run r;

	memset(&g_kill, 0, sizeof(g_kill));
	sec_init(&r, 400 * 16 * 64);
	r.attack = attack_kill;
	sec_start(&r, 12);
	/* the sender's packets stop too: drop all once killed, from the receiver's view */
	g_kill.both = 1;
	sec_run_until(&r, 20000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	CHECK(bs.close_reason == DFCP_CR_PEER_TIMEOUT && !bs.completed);
	CHECK(r.sink.bytes < r.bytes && r.sink.bad_bytes == 0);
	sec_fini(&r);
}

struct corrupt {
	uint32_t every, n, done;
};

static struct corrupt g_cor;

/* One symbol byte of every n-th DATA frame changed in flight, the header intact. */
static int
attack_corrupt(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	(void)r;
	if (dir == 0 && sec_type(f, len) == DFCP_T_DATA && ++g_cor.n % g_cor.every == 0) {
		((uint8_t *)f)[len - 9] ^= 0x10;
		g_cor.done++;
	}
	return 0;
}

static void
test_integrity(int integrity)
{
	struct dfcp_stats bs;
	struct dfcp_conn *b;
	struct sec_run r;

	memset(&g_cor, 0, sizeof(g_cor));
	g_cor.every = 37;
	sec_init(&r, 300 * 16 * 64 + 5);
	r.cc.integrity = integrity;
	r.ec.accept_conf.integrity = integrity;
	r.attack = attack_corrupt;
	sec_start(&r, 13);
	sec_run_until(&r, 60000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	dfcp_conn_stats(b, &bs);
	if (integrity) {
		CHECK(dfcp_conn_params(r.a)->flags & DFCP_F_CRC);
		CHECK(sec_verified(&r));
		CHECK(bs.crc_failures > 0 && bs.completed);
		printf("integrity: %u symbols corrupted, %llu decoded blocks failed their CRC and "
			"were fetched again, %llu bytes delivered exact\n", g_cor.done,
			(unsigned long long)bs.crc_failures, (unsigned long long)r.sink.bytes);
	} else {
		CHECK(!(dfcp_conn_params(r.a)->flags & DFCP_F_CRC));
		CHECK(r.sink.bad_bytes > 0);
		printf("without the block CRC: %llu bad bytes reached the sink\n",
			(unsigned long long)r.sink.bad_bytes);
	}
	sec_fini(&r);
}

/* Held once a quarter is delivered (the attack hook sees every frame). */
static int
attack_hold(struct sec_run *r, int dir, const uint8_t *f, uint16_t len)
{
	(void)dir;
	(void)f;
	(void)len;
	if (r->step == 0 && r->sink.bytes >= r->bytes / 4) {
		dfcp_conn_hold(r->a, 1);
		r->step = 1;
	}
	return 0;
}

static void
test_hold(void)
{
	struct dfcp_stats ss, bs;
	struct dfcp_conn *b;
	struct sec_run r;
	uint64_t got;

	sec_init(&r, 400 * 16 * 64);
	r.attack = attack_hold;
	sec_start(&r, 14);
	sec_run_until(&r, 1000 * MS);
	REQUIRE(r.step == 1);
	got = r.sink.bytes;
	sec_run_until(&r, r.v.now + 10000 * MS);
	b = sec_b(&r);
	REQUIRE(b != NULL);
	CHECKF(dfcp_conn_state(r.a) == DFCP_ESTABLISHED && dfcp_conn_state(b) == DFCP_ESTABLISHED,
			"held 10 s: sender %d, receiver %d", dfcp_conn_state(r.a), dfcp_conn_state(b));
	CHECKF(r.sink.bytes == got && got < r.bytes, "held: %llu bytes, %llu before",
			(unsigned long long)r.sink.bytes, (unsigned long long)got);
	dfcp_conn_hold(r.a, 0);
	sec_run_until(&r, r.v.now + 60000 * MS);
	dfcp_conn_stats(r.a, &ss);
	dfcp_conn_stats(b, &bs);
	CHECK(sec_verified(&r));
	CHECK(ss.keepalives > 0 && bs.keepalives > 0);
	printf("hold: 10 s with %llu bytes delivered, %llu keepalives answered, then completed\n",
		(unsigned long long)got, (unsigned long long)bs.keepalives);
	sec_fini(&r);
}

int
main(void)
{
	test_dead_receiver(0, 3000 * MS);
	test_dead_receiver(500 * MS, 500 * MS);
	test_dead_sender();
	test_integrity(1);
	test_integrity(0);
	test_hold();
	return test_report("dfcp-fail");
}
