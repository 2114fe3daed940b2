/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Hostile input: (1) the fuzz harness on random inputs; (2) a transfer
 * where every frame may be followed by a corrupted copy (bad checksums,
 * truncation) or by a crafted segment with valid checksums (RST with a
 * wrong sequence number, SYN, ACKs of unsent data, bogus SACK blocks, old
 * duplicates) and still completes with exact delivery; (3) an RST storm
 * during a transfer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tnet.h"

#define TCP_FUZZ_NO_MAIN
#include "fuzz_tcp.c"

static const struct tcp_addr addr_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr addr_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

static struct test_rng rng = { 88172645463325252ull };

static uint32_t
rnd(void)
{
	return (uint32_t)test_rng_next(&rng);
}

static void
test_fuzz_random(void)
{
	static uint8_t in[4096];

	for (int it = 0; it < 300; it++) {
		size_t n = rnd() % sizeof(in);

		for (size_t i = 0; i < n; i++)
			in[i] = (uint8_t)rnd();
		/* make records mostly well-formed and varied */
		for (size_t i = 0; i + 1 < n; i += 2u + in[i + 1])
			in[i + 1] %= 80;
		tcp_fuzz_one(in, n);
	}
}

struct hostile {
	struct tnet *v;
	uint32_t rate_ppm;
	uint64_t crafted, corrupted;
	int rst_storm;
};

static void
inject(struct hostile *h, int d, const uint8_t *f, uint16_t len)
{
	struct tcp_seg s;
	uint8_t g[2048];
	int n, kind = (int)(rnd() % 8);

	if (kind == 0) {
		/* corrupted copy: one byte flipped (checksums catch it) */
		memcpy(g, f, len);
		g[14 + rnd() % (uint32_t)(len - 14)] ^= (uint8_t)(1 + rnd() % 255);
		tcp_ep_rx(h->v->ep[!d], g, len, h->v->now);
		h->corrupted++;
		return;
	}
	if (kind == 1) {
		/* truncated copy */
		tcp_ep_rx(h->v->ep[!d], f, rnd() % len, h->v->now);
		h->corrupted++;
		return;
	}
	if (tcp_parse(f, len, 0, &s) < 0)
		return;
	s.payload = NULL;
	s.len = 0;
	switch (kind) {
	case 2:	/* RST, sequence number off by a nonzero amount */
		s.flags = TCP_FL_RST | (rnd() & 1 ? TCP_FL_ACK : 0);
		s.seq += 1 + rnd() % 100000;
		s.opts = 0;
		break;
	case 3:	/* SYN in the window */
		s.flags = TCP_FL_SYN;
		s.opts = TCP_O_MSS;
		s.mss = 100;
		break;
	case 4:	/* ACK of data never sent */
		s.ack += 1000000 + rnd() % 100000;
		s.opts &= ~TCP_O_SACK;
		s.nsack = 0;
		break;
	case 5:	/* bogus SACK blocks (beyond anything sent / inverted) */
		s.opts |= TCP_O_SACK;
		s.nsack = 2;
		s.sack[0].start = s.ack + 5000000;
		s.sack[0].end = s.ack + 5001000;
		s.sack[1].start = s.ack + 3000;
		s.sack[1].end = s.ack + 1000;
		break;
	case 6:	/* old duplicate ACK with a stale window */
		s.ack -= 100000;
		s.seq -= 50000;
		break;
	default:	/* exact duplicate of the frame */
		tcp_ep_rx(h->v->ep[!d], f, len, h->v->now);
		h->crafted++;
		return;
	}
	n = tcp_build(g, sizeof(g), &s);
	if (n > 0)
		tcp_ep_rx(h->v->ep[!d], g, (size_t)n, h->v->now);
	h->crafted++;
}

static int
hostile_filter(void *ctx, int d, const uint8_t *f, uint16_t len, uint64_t now)
{
	struct hostile *h = ctx;

	(void)now;
	if (len > 14 && rnd() % 1000000u < h->rate_ppm)
		inject(h, d, f, len);
	if (h->rst_storm && d == 0) {
		/* a burst of RSTs at random sequence numbers towards A */
		for (int i = 0; i < 20; i++) {
			struct tcp_seg s;
			uint8_t g[128];
			int n;

			tn_seg_init(&s, &addr_b, &addr_a, rnd(), 0, TCP_FL_RST);
			n = tcp_build(g, sizeof(g), &s);
			tcp_ep_rx(h->v->ep[0], g, (size_t)n, h->v->now);
		}
	}
	return 0;
}

struct run {
	struct tcp_conn *snd, *rcv;
	struct net_sink_count sink;
};

static void
on_accept(void *ctx, struct tcp_conn *c)
{
	struct run *r = ctx;

	r->rcv = c;
	tcp_conn_set_sink(c, net_sink_count_write, &r->sink);
}

static int
done(void *ctx)
{
	struct run *r = ctx;

	return r->rcv != NULL && tcp_conn_state(r->rcv) == TCP_CLOSED &&
		tcp_conn_send_done(r->snd);
}

static void
hostile_run(const char *cc, uint32_t rate_ppm, int rst_storm, uint64_t seed)
{
	struct tcp_ep_conf ea, eb;
	struct tcp_ep *a, *b;
	struct net_src_pattern src;
	struct tcp_conf c;
	struct tn_link l;
	struct tcp_stats ss, rs;
	struct tcp_ep_stats es;
	struct hostile h;
	struct run r;
	struct tnet v;
	const uint64_t bytes = 500000;
	int ok;

	memset(&r, 0, sizeof(r));
	net_sink_count_init(&r.sink, 9, 1);
	tcp_ep_conf_default(&ea);
	ea.local = addr_a;
	tcp_ep_conf_default(&eb);
	eb.local = addr_b;
	eb.listen = 1;
	eb.on_accept = on_accept;
	eb.accept_ctx = &r;
	a = tcp_ep_create(&ea);
	b = tcp_ep_create(&eb);
	tcp_conf_default(&c);
	c.cc = cc;
	c.local = addr_a;
	c.remote = addr_b;
	net_src_pattern_init(&src, 9, bytes, 0);
	c.source = net_src_pattern_read;
	c.source_ctx = &src;
	r.snd = tcp_ep_connect(a, &c, 0);
	tn_link_default(&l);
	l.plr = 0.01;
	tn_init(&v, a, b, &l, &l, seed);
	memset(&h, 0, sizeof(h));
	h.v = &v;
	h.rate_ppm = rate_ppm;
	h.rst_storm = rst_storm;
	v.filter = hostile_filter;
	v.filter_ctx = &h;
	ok = tn_run(&v, 300000000000ull, done, &r);
	if (!ok)
		fprintf(stderr, "%s hostile: not done: snd %s rcv %s\n", cc,
			tcp_state_str(tcp_conn_state(r.snd)),
			r.rcv ? tcp_state_str(tcp_conn_state(r.rcv)) : "-");
	REQUIRE(ok);
	tcp_conn_stats(r.snd, &ss);
	tcp_conn_stats(r.rcv, &rs);
	tcp_ep_stats(a, &es);
	printf("%-8s hostile %u ppm%s: crafted %llu corrupted %llu; t=%.2fs rst_rx %llu "
		"challenges %llu drops(csum %llu, trunc %llu) conn drops(ack %llu rst %llu "
		"syn %llu win %llu)\n", cc, rate_ppm, rst_storm ? " + RST storm" : "",
		(unsigned long long)h.crafted, (unsigned long long)h.corrupted,
		(double)v.now / 1e9, (unsigned long long)ss.rst_rx,
		(unsigned long long)ss.challenge_acks,
		(unsigned long long)(es.drops[TCP_E_TCP_CSUM] + es.drops[TCP_E_IP_CSUM]),
		(unsigned long long)(es.drops[TCP_E_TRUNC_TCP] + es.drops[TCP_E_IP_LEN] +
			es.drops[TCP_E_TRUNC_IP]),
		(unsigned long long)es.conn_drops[TCP_E_ACK],
		(unsigned long long)es.conn_drops[TCP_E_RST],
		(unsigned long long)es.conn_drops[TCP_E_SYN],
		(unsigned long long)es.conn_drops[TCP_E_WINDOW]);
	CHECK(rs.bytes_delivered == bytes && r.sink.bytes == bytes);
	CHECK(r.sink.bad_bytes == 0 && r.sink.order_errors == 0);
	CHECK(tcp_conn_close_reason(r.rcv) == TCP_CR_DONE);
	if (rst_storm)
		CHECK(ss.rst_rx > 1000 && ss.challenge_acks < ss.rst_rx / 10);
	tn_fini(&v);
	tcp_ep_free(a);
	tcp_ep_free(b);
}

int
main(void)
{
	test_fuzz_random();
	hostile_run("newreno", 300000, 0, 1);
	hostile_run("sack", 300000, 0, 2);
	hostile_run("cubic", 300000, 0, 3);
	hostile_run("tcpw-c", 300000, 0, 4);
	hostile_run("sack", 0, 1, 5);
	return test_report("tcp-bad");
}
