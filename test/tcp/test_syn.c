/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The listener under spoofed SYNs (issue #36): (a) 10,000 spoofed SYNs from
 * random addresses, then a real client, and a flood that evicts the
 * client's own entry between its SYN and its ACK: it connects within a few
 * RTTs and its transfer verifies; (b) spoofed SYNs from the client's exact
 * address and port and from another address before the client, and one
 * after its SYN: the receiver (bound at ESTABLISHED, as the engine's
 * receiver flow) is the real client's, its data verified; (c) SYN cookies:
 * options recovered, forged / old / misaddressed cookies refused and
 * counted, the half-open table's FIFO eviction, SYN-ACK resends and expiry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"
#include "tnet.h"

#define MS		1000000ull
#define SEC		1000000000ull
#define BYTES		300000u

static const struct tcp_addr addr_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr addr_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

static struct test_rng rng = { 0x9e3779b97f4a7c15ull };

/* The receiver "flow": the first connection accepted takes it (the engine's rule). */
struct rflow {
	struct tcp_conn *conn;
	unsigned int accepted;
	struct net_sink_count sink;
};

static void
on_accept(void *ctx, struct tcp_conn *c)
{
	struct rflow *f = ctx;

	f->accepted++;
	if (f->conn != NULL)
		return;
	f->conn = c;
	tcp_conn_set_sink(c, net_sink_count_write, &f->sink);
}

struct run {
	struct tcp_ep *a, *b;
	struct tcp_conn *snd;
	struct net_src_pattern src;
	struct rflow rf;
	struct tnet v;
	/* spoofed SYNs towards b with each frame a sends while it is below */
	uint32_t flood_per_frame;
	uint32_t flood_frames;
	uint64_t spoofed;
	uint32_t spoof_after_syn;	/* one SYN from a's address before a's ACK */
};

static void
spoof_syn(struct tcp_ep *b, uint32_t ip, uint16_t port, uint32_t seq, uint64_t now)
{
	struct tcp_addr from = { { 2, 0, 0, 9, 9, 9 }, ip, port };
	struct tcp_seg s;
	uint8_t f[128];
	int n;

	tn_seg_init(&s, &from, &addr_b, seq, 0, TCP_FL_SYN);
	s.opts = TCP_O_MSS | TCP_O_SACKOK;
	s.mss = 1460;
	n = tcp_build(f, sizeof(f), &s);
	REQUIRE(n > 0);
	tcp_ep_rx(b, f, (size_t)n, now);
}

static void
flood(struct run *r, uint32_t n, uint64_t now)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ip = (uint32_t)test_rng_next(&rng);

		spoof_syn(r->b, ip == addr_a.ip ? ip + 1 : ip, (uint16_t)(1024 + i % 60000),
				(uint32_t)test_rng_next(&rng), now);
	}
	r->spoofed += n;
}

static int
filter(void *ctx, int dir, const uint8_t *f, uint16_t len, uint64_t now)
{
	struct run *r = ctx;
	struct tcp_seg s;

	if (dir != 0 || tcp_parse(f, len, 0, &s) < 0)
		return 0;
	if (r->flood_frames) {
		r->flood_frames--;
		flood(r, r->flood_per_frame, now);
	}
	if (r->spoof_after_syn && !(s.flags & TCP_FL_SYN)) {
		r->spoof_after_syn = 0;
		spoof_syn(r->b, addr_a.ip, addr_a.port, s.seq - 1 + 0x80000000u, now);
	}
	return 0;
}

static int
done(void *ctx)
{
	struct run *r = ctx;

	return r->rf.conn != NULL && tcp_conn_state(r->rf.conn) == TCP_CLOSED &&
		tcp_conn_send_done(r->snd);
}

static void
run_setup(struct run *r, uint32_t max_half_open)
{
	struct tcp_ep_conf ea, eb;
	struct tcp_conf c;
	struct tn_link l;

	memset(r, 0, sizeof(*r));
	net_sink_count_init(&r->rf.sink, 5, 1);
	tcp_ep_conf_default(&ea);
	ea.local = addr_a;
	tcp_ep_conf_default(&eb);
	eb.local = addr_b;
	eb.listen = 1;
	eb.max_conns = 8;
	if (max_half_open)
		eb.max_half_open = max_half_open;
	eb.on_accept = on_accept;
	eb.accept_ctx = &r->rf;
	r->a = tcp_ep_create(&ea);
	r->b = tcp_ep_create(&eb);
	REQUIRE(r->a != NULL && r->b != NULL);
	tn_link_default(&l);
	l.bw_bps = 1000000000ull;
	l.delay_ns = 10 * MS;
	l.queue_pkts = 1000;
	tn_init(&r->v, r->a, r->b, &l, &l, 11);
	r->v.filter = filter;
	r->v.filter_ctx = r;
	tcp_conf_default(&c);
	c.local = addr_a;
	c.remote = addr_b;
	net_src_pattern_init(&r->src, 5, BYTES, 0);
	c.source = net_src_pattern_read;
	c.source_ctx = &r->src;
	r->snd = tcp_ep_connect(r->a, &c, r->v.now);
	REQUIRE(r->snd != NULL);
}

/* The client's transfer ran to the end, into the receiver flow, verified. */
static void
run_check(struct run *r, const char *what, uint64_t max_est_ns)
{
	int ok = tn_run(&r->v, 30 * SEC, done, r);
	const struct tcp_addr *ra = r->rf.conn != NULL ? tcp_conn_remote(r->rf.conn) : NULL;
	struct tcp_stats cs;

	tcp_conn_stats(r->snd, &cs);

	printf("%-34s spoofed %6llu: established at %6.1f ms, accepted %u, flow's sink %llu B"
		" (bad %llu)\n", what, (unsigned long long)r->spoofed, (double)cs.established_ns / 1e6,
		r->rf.accepted, (unsigned long long)r->rf.sink.bytes,
		(unsigned long long)r->rf.sink.bad_bytes);
	CHECKF(ok, "%s: not done at %.1f s: client %s", what, (double)r->v.now / 1e9,
			tcp_state_str(tcp_conn_state(r->snd)));
	CHECKF(cs.established_ns != 0 && cs.established_ns <= max_est_ns,
			"%s: established at %.1f ms", what, (double)cs.established_ns / 1e6);
	CHECK(ra != NULL && ra->ip == addr_a.ip && ra->port == addr_a.port);
	CHECK(r->rf.accepted == 1);
	CHECK(r->rf.sink.bytes == BYTES && r->rf.sink.bad_bytes == 0 &&
		r->rf.sink.order_errors == 0);
}

static void
run_free(struct run *r)
{
	tn_fini(&r->v);
	tcp_ep_free(r->a);
	tcp_ep_free(r->b);
}

/* (a) a flood before the client, and one that evicts its entry mid-handshake. */
static void
test_flood(void)
{
	struct tcp_ep_stats es;
	struct run r;

	run_setup(&r, 0);
	flood(&r, 10000, 0);
	run_check(&r, "(a) 10,000 spoofed SYNs, then", 3 * 20 * MS);
	tcp_ep_stats(r.b, &es);
	CHECK(es.half_open_evicted >= 10000 - 4096 && es.syn_cookies_sent > 0);
	CHECK(es.syn_accepted == 1 && es.syn_rx == 10001);
	run_free(&r);

	/* 5,000 SYNs with each of the client's frames: its entry is gone
	 * before its ACK arrives, the cookie lets it in */
	run_setup(&r, 0);
	r.flood_per_frame = 5000;
	r.flood_frames = 4;
	run_check(&r, "(a) 5,000 spoofed SYNs per frame", 3 * 20 * MS);
	tcp_ep_stats(r.b, &es);
	CHECK(es.syn_cookies_ok == 1 && es.syn_cookies_bad == 0);
	printf("    evicted %llu, cookies sent %llu ok %llu\n",
		(unsigned long long)es.half_open_evicted, (unsigned long long)es.syn_cookies_sent,
		(unsigned long long)es.syn_cookies_ok);
	run_free(&r);
}

/* (b) the receiver flow goes to the connection that completes. */
static void
test_spoofed_first(void)
{
	struct tcp_ep_stats es;
	struct run r;

	run_setup(&r, 0);
	/* from another address, and from the client's own address and port
	 * (a sequence number far from the one it will use) */
	spoof_syn(r.b, 0x0a000063, 40000, 12345, 0);
	spoof_syn(r.b, addr_a.ip, addr_a.port, 0x5a5a5a5a, 0);
	run_check(&r, "(b) spoofed SYNs before the client", 3 * 20 * MS);
	run_free(&r);

	/* one from the client's address and port after its SYN, before its ACK */
	run_setup(&r, 0);
	r.spoof_after_syn = 1;
	run_check(&r, "(b) spoofed SYN after the client's", 3 * 20 * MS);
	tcp_ep_stats(r.b, &es);
	CHECK(es.syn_cookies_ok == 1);
	run_free(&r);
}

/* ------------------------------------------------------------------ */
/* (c) cookies and the table                                            */
/* ------------------------------------------------------------------ */

static void
syn_of(struct tcp_seg *s, uint32_t seq, uint16_t mss, int ws, int sack, int ts)
{
	tn_seg_init(s, &addr_a, &addr_b, seq, 0, TCP_FL_SYN);
	if (mss) {
		s->opts |= TCP_O_MSS;
		s->mss = mss;
	}
	if (ws >= 0) {
		s->opts |= TCP_O_WS;
		s->wscale = (uint8_t)ws;
	}
	if (sack)
		s->opts |= TCP_O_SACKOK;
	if (ts) {
		s->opts |= TCP_O_TS;
		s->tsval = 4242;
	}
}

/* The final ACK for cookie isn (TS echoed when ts). */
static void
ack_of(struct tcp_seg *a, const struct tcp_seg *syn, uint32_t isn)
{
	tn_seg_init(a, &addr_a, &addr_b, syn->seq + 1, isn + 1, TCP_FL_ACK);
	a->src_port = syn->src_port;
	if (syn->opts & TCP_O_TS) {
		a->opts = TCP_O_TS;
		a->tsval = 4300;
		a->tsecr = 1;
	}
}

static void
test_cookie_fn(void)
{
	static const struct {
		uint16_t mss, want;
		int ws, sack, ts;
	} cases[] = {
		{1460, 1460, 7, 1, 1}, {1000, 536, 0, 0, 1}, {9000, 8960, 14, 1, 0},
		{0, 536, -1, 0, 0}, {1448, 1440, 3, 1, 0}, {100, 64, -1, 1, 1},
	};
	struct net_sipkey k = { 0x0123456789abcdefull, 0xfedcba9876543210ull };
	struct net_sipkey k2 = { 1, 2 };
	struct tcp_seg syn, ack, got;
	uint64_t t0 = 5 * SEC;
	uint32_t isn, forged = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		syn_of(&syn, 1000u + (uint32_t)i * 7919u, cases[i].mss, cases[i].ws, cases[i].sack,
				cases[i].ts);
		isn = tcp_cookie_make(&k, &syn, t0);
		ack_of(&ack, &syn, isn);
		CHECK(tcp_cookie_check(&k, &ack, t0 + 10 * MS, &got) == 0);
		CHECKF(got.mss == cases[i].want, "case %zu: mss %u", i, got.mss);
		CHECK(!!(got.opts & TCP_O_WS) == (cases[i].ws >= 0));
		CHECK(cases[i].ws < 0 || got.wscale == cases[i].ws);
		CHECK(!!(got.opts & TCP_O_SACKOK) == cases[i].sack);
		CHECK(!!(got.opts & TCP_O_TS) == cases[i].ts);
		CHECK(!cases[i].ts || got.tsval == 4300);
		CHECK(got.seq == syn.seq && got.src_ip == addr_a.ip && got.src_port == addr_a.port);
		/* the next period still, two later no more */
		CHECK(tcp_cookie_check(&k, &ack, t0 + (1ull << TCP_COOKIE_PERIOD_SHIFT), &got) == 0);
		CHECK(tcp_cookie_check(&k, &ack, t0 + (2ull << TCP_COOKIE_PERIOD_SHIFT), &got) < 0);
		/* another key, another peer ISN, another port: refused */
		CHECK(tcp_cookie_check(&k2, &ack, t0, &got) < 0);
		ack.seq++;
		CHECK(tcp_cookie_check(&k, &ack, t0, &got) < 0);
		ack.seq--;
		ack.src_port++;
		CHECK(tcp_cookie_check(&k, &ack, t0, &got) < 0);
		ack.src_port--;
		/* every one-bit change of the cookie */
		for (int b = 0; b < 32; b++) {
			ack.ack = (isn ^ (1u << b)) + 1;
			CHECK(tcp_cookie_check(&k, &ack, t0, &got) < 0);
		}
	}
	/* 200,000 random cookies: a 23-bit MAC, two periods: ~0.05 expected */
	syn_of(&syn, 77, 1460, 7, 1, 1);
	for (int i = 0; i < 200000; i++) {
		ack_of(&ack, &syn, (uint32_t)test_rng_next(&rng));
		forged += tcp_cookie_check(&k, &ack, t0, &got) == 0;
	}
	CHECKF(forged <= 2, "%u random cookies accepted", forged);
}

/* Frames from ep parsed into out[] (at most 64); how many. */
static unsigned int
pull(struct tcp_ep *ep, uint64_t now, struct tcp_seg *out, uint8_t (*fb)[256])
{
	void *bufs[64];
	uint16_t lens[64];
	unsigned int k;

	for (int i = 0; i < 64; i++)
		bufs[i] = fb[i];
	k = tcp_ep_tx_burst(ep, now, bufs, lens, 256, 64);
	for (unsigned int i = 0; i < k; i++)
		REQUIRE(tcp_parse(fb[i], lens[i], 0, &out[i]) == 0);
	return k;
}

static int
send_seg(struct tcp_ep *ep, const struct tcp_seg *s, uint64_t now)
{
	uint8_t f[256];
	int n = tcp_build(f, sizeof(f), s);

	REQUIRE(n > 0);
	return tcp_ep_rx(ep, f, (size_t)n, now);
}

/* A listener with a 4-entry table: the evicted client completes by its cookie. */
static void
test_cookie_ep(void)
{
	static uint8_t fb[64][256];
	static struct tcp_seg out[64];
	struct tcp_ep_conf ec;
	struct tcp_ep_stats es;
	struct tcp_seg syn, ack;
	struct tcp_conn *c;
	struct tcp_ep *ep;
	uint32_t pos = 0, isn;
	uint64_t now = SEC;

	tcp_ep_conf_default(&ec);
	ec.local = addr_b;
	ec.listen = 1;
	ec.max_half_open = 4;
	ec.secret_seed = 99;
	ep = tcp_ep_create(&ec);
	REQUIRE(ep != NULL);
	/* an ACK with no entry before the table was ever full: no cookie looked at */
	syn_of(&syn, 5000, 1460, 7, 1, 1);
	ack_of(&ack, &syn, 123456);
	CHECK(send_seg(ep, &ack, now) == -TCP_E_NO_CONN);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_cookies_bad == 0 && es.rst_sent == 1);
	pull(ep, now, out, fb);
	/* the client's SYN, then four others: its entry is evicted */
	CHECK(send_seg(ep, &syn, now) == 0);
	CHECK(pull(ep, now, out, fb) == 1 && out[0].flags == (TCP_FL_SYN | TCP_FL_ACK));
	isn = out[0].seq;
	CHECK(out[0].ack == 5001 && (out[0].opts & TCP_O_WS) && (out[0].opts & TCP_O_TS));
	for (int i = 0; i < 4; i++)
		spoof_syn(ep, 0x0b000000u + (uint32_t)i, 2000, 9, now);
	tcp_ep_stats(ep, &es);
	CHECK(es.half_open_evicted == 1 && es.half_open == 4);
	CHECK(pull(ep, now, out, fb) == 4);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_cookies_sent == 4);
	CHECK(tcp_ep_next_conn(ep, &pos) == NULL);
	/* a forged ACK from the client's address: refused, counted, RST */
	ack_of(&ack, &syn, isn ^ 0x1000);
	CHECK(send_seg(ep, &ack, now) == -TCP_E_NO_CONN);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_cookies_bad == 1 && es.syn_accepted == 0);
	CHECK(pull(ep, now, out, fb) == 1 && (out[0].flags & TCP_FL_RST));
	/* the genuine one: a connection with the SYN's options */
	ack_of(&ack, &syn, isn);
	CHECK(send_seg(ep, &ack, now + 20 * MS) == 0);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_cookies_ok == 1 && es.syn_accepted == 1 && es.conns == 1);
	pos = 0;
	c = tcp_ep_next_conn(ep, &pos);
	REQUIRE(c != NULL);
	CHECK(tcp_conn_state(c) == TCP_ESTABLISHED);
	CHECK(c->peer_mss == 1460 && c->ws_ok && c->snd_wscale == 7 && c->sack_ok && c->ts_ok);
	CHECK(c->irs == 5000 && c->iss == isn && c->snd_una == isn + 1);
	/* an old cookie (the table full again when it comes back) is refused */
	syn.src_port = 40001;
	CHECK(send_seg(ep, &syn, now) == 0);
	CHECK(pull(ep, now, out, fb) == 1);
	isn = out[0].seq;
	now += 2ull << TCP_COOKIE_PERIOD_SHIFT;
	for (int i = 0; i < 5; i++)
		spoof_syn(ep, 0x0c000000u + (uint32_t)i, 2000, 9, now);
	pull(ep, now, out, fb);
	ack_of(&ack, &syn, isn);
	CHECK(send_seg(ep, &ack, now) == -TCP_E_NO_CONN);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_cookies_bad == 2 && es.syn_accepted == 1);
	tcp_ep_free(ep);
}

/* The table: FIFO eviction, SYN-ACK resends with backoff, expiry. */
static void
test_table(void)
{
	static uint8_t fb[64][256];
	static struct tcp_seg out[64];
	struct tcp_ep_conf ec;
	struct tcp_ep_stats es;
	struct tcp_seg syn, ack;
	struct tcp_ep *ep;
	uint64_t now = 0, dl, last = 0;
	uint32_t isn, isn2[3] = {0, 0, 0}, resends = 0;

	tcp_ep_conf_default(&ec);
	ec.local = addr_b;
	ec.listen = 1;
	ec.max_half_open = 3;
	ep = tcp_ep_create(&ec);
	REQUIRE(ep != NULL);
	/* five SYNs into three entries: the first two go, the last three stay */
	for (uint16_t i = 0; i < 5; i++) {
		syn_of(&syn, 100u * i, 1460, -1, 0, 0);
		syn.src_port = (uint16_t)(30000 + i);
		CHECK(send_seg(ep, &syn, now) == 0);
	}
	/* the evicted ones' SYN-ACKs are not sent (their SYNs come again) */
	CHECK(pull(ep, now, out, fb) == 3);
	for (int i = 0; i < 3; i++) {
		CHECK(out[i].dst_port >= 30002 && out[i].dst_port <= 30004);
		isn2[out[i].dst_port - 30002] = out[i].seq;
	}
	tcp_ep_stats(ep, &es);
	CHECK(es.half_open_evicted == 2 && es.half_open == 3 && es.syn_cookies_sent == 3);
	/* the third's ACK finds its entry (no cookie needed) */
	ack_of(&ack, &syn, 0);
	ack.src_port = 30002;
	ack.seq = 201;
	ack.ack = isn2[0] + 1;
	CHECK(send_seg(ep, &ack, now) == 0);
	tcp_ep_stats(ep, &es);
	CHECK(es.syn_accepted == 1 && es.syn_cookies_ok == 0 && es.half_open == 2);
	/* the fourth is reset by its initiator (exactly at its sequence), the
	 * fifth never answers: its SYN-ACK again after 1, 2, 4, 8, 16 s */
	tn_seg_init(&ack, &addr_a, &addr_b, 301, 0, TCP_FL_RST);
	ack.src_port = 30003;
	CHECK(send_seg(ep, &ack, now) == 0);
	tcp_ep_stats(ep, &es);
	CHECK(es.half_open == 1);
	isn = isn2[2];
	while ((dl = tcp_ep_next_deadline(ep, now)) != UINT64_MAX && now < 200 * SEC) {
		now = dl;
		if (pull(ep, now, out, fb) == 1) {
			CHECK(out[0].seq == isn && out[0].dst_port == 30004);
			CHECKF(now - last >= (1000u << resends) * MS &&
					now - last <= (1000u << resends) * MS + 200 * MS,
					"resend %u after %llu ms", resends,
					(unsigned long long)((now - last) / MS));
			last = now;
			resends++;
		}
	}
	tcp_ep_stats(ep, &es);
	CHECK(resends == 5 && es.half_open == 0 && es.half_open_expired == 1);
	CHECK(now >= 63 * SEC && now < 64 * SEC);
	tcp_ep_free(ep);
}

int
main(void)
{
	test_flood();
	test_spoofed_first();
	test_cookie_fn();
	test_cookie_ep();
	test_table();
	return test_report("tcp-syn");
}
