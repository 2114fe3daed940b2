/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness: the TCP segment parser and the receive paths of an
 * established sender (endpoint A) and receiver (endpoint B).
 * Input: records [mode u8][len u8][len bytes]:
 *   mode & 3 == 0: a raw frame to endpoint B (parser, demultiplexer)
 *   mode & 3 == 1: a segment with valid checksums towards B's connection,
 *                  fields from the bytes (seq/ack relative to live values,
 *                  flags, window, options, SACK blocks, payload)
 *   mode & 3 == 2: the same towards A's connection
 *   mode & 3 == 3: advance the clock by len ms and exchange frames
 * Built by scripts/fuzz.sh; test_bad.c runs tcp_fuzz_one() on random
 * inputs in the unit suite (TCP_FUZZ_NO_MAIN).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"

static const struct tcp_addr fz_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 40000 };
static const struct tcp_addr fz_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 5001 };

struct fz {
	struct tcp_ep *ep[2];
	struct tcp_seg last[2];	/* last segment each side sent (parsed) */
	uint8_t fb[16][2048];
	uint64_t now;
	struct net_src_pattern src;
	struct net_sink_count sink;
};

static void
fz_pump(struct fz *z, int rounds)
{
	void *bufs[16];
	uint16_t lens[16];

	for (int i = 0; i < 16; i++)
		bufs[i] = z->fb[i];
	for (int r = 0; r < rounds; r++) {
		for (int d = 0; d < 2; d++) {
			unsigned int k = tcp_ep_tx_burst(z->ep[d], z->now, bufs, lens,
					sizeof(z->fb[0]), 16);

			for (unsigned int i = 0; i < k; i++) {
				struct tcp_seg s;

				if (tcp_parse(z->fb[i], lens[i], 0, &s) == 0)
					z->last[d] = s;
				tcp_ep_rx(z->ep[!d], z->fb[i], lens[i], z->now);
			}
		}
		z->now += 1000000;
	}
}

static int
fz_init(struct fz *z)
{
	struct tcp_ep_conf ea, eb;
	struct tcp_conf c;

	memset(z, 0, sizeof(*z));
	tcp_ep_conf_default(&ea);
	ea.local = fz_a;
	ea.max_conns = 4;
	tcp_ep_conf_default(&eb);
	eb.local = fz_b;
	eb.listen = 1;
	eb.max_conns = 4;
	eb.max_half_open = 2;
	eb.accept_conf.rcvbuf = 65536;
	eb.accept_conf.time_wait_ns = 1000000;
	net_sink_count_init(&z->sink, 3, 1);
	eb.accept_conf.sink = net_sink_count_write;
	eb.accept_conf.sink_ctx = &z->sink;
	z->ep[0] = tcp_ep_create(&ea);
	z->ep[1] = tcp_ep_create(&eb);
	if (z->ep[0] == NULL || z->ep[1] == NULL)
		return -1;
	tcp_conf_default(&c);
	c.local = fz_a;
	c.remote = fz_b;
	c.cc = "sack";
	c.sndbuf = 65536;
	c.time_wait_ns = 1000000;
	net_src_pattern_init(&z->src, 3, 30000, 0);
	c.source = net_src_pattern_read;
	c.source_ctx = &z->src;
	if (tcp_ep_connect(z->ep[0], &c, 0) == NULL)
		return -1;
	fz_pump(z, 3);
	return 0;
}

static void
fz_seg(struct fz *z, int to, const uint8_t *d, size_t n)
{
	uint8_t b[64] = { 0 }, f[2048];
	const struct tcp_seg *ref = &z->last[!to];	/* what the peer side sent */
	const struct tcp_addr *src = to ? &fz_a : &fz_b, *dst = to ? &fz_b : &fz_a;
	struct tcp_seg s;
	uint32_t v32;
	int len;

	memcpy(b, d, n < sizeof(b) ? n : sizeof(b));
	memset(&s, 0, sizeof(s));
	memcpy(s.src_mac, src->mac, 6);
	memcpy(s.dst_mac, dst->mac, 6);
	s.src_ip = src->ip;
	s.dst_ip = dst->ip;
	s.src_port = src->port;
	s.dst_port = dst->port;
	memcpy(&v32, b, 4);
	s.seq = ref->seq + (int32_t)((int16_t)v32 * (b[8] & 0x80 ? 1 : 64));
	memcpy(&v32, b + 4, 4);
	s.ack = ref->ack + (int32_t)((int16_t)v32 * (b[8] & 0x40 ? 1 : 64));
	s.flags = b[9];
	s.rsv = b[10] & 0x0f;
	s.wnd = (uint16_t)(b[11] << 8 | b[12]);
	s.opts = b[13] & 0x1f;
	s.mss = (uint16_t)(b[14] << 8 | b[15]);
	s.wscale = b[16];
	s.tsval = ref->tsval + b[17];
	s.tsecr = ref->tsecr + b[18];
	s.nsack = b[19] % (s.opts & TCP_O_TS ? 4 : 5);
	for (unsigned int i = 0; i < s.nsack; i++) {
		s.sack[i].start = s.ack + (uint32_t)b[20 + 4 * i] * 100;
		s.sack[i].end = s.sack[i].start + (uint32_t)b[21 + 4 * i] * 50 - 3000;
	}
	if (n > 40) {
		s.payload = d + 40;
		s.len = (uint32_t)(n - 40);
	}
	len = tcp_build(f, sizeof(f), &s);
	if (len > 0)
		tcp_ep_rx(z->ep[to], f, (size_t)len, z->now);
}

int tcp_fuzz_one(const uint8_t *data, size_t size);

int
tcp_fuzz_one(const uint8_t *data, size_t size)
{
	static struct fz z;
	size_t i = 0;

	if (fz_init(&z) < 0)
		abort();
	while (i + 2 <= size) {
		uint8_t mode = data[i], len = data[i + 1];
		const uint8_t *p = data + i + 2;

		if (i + 2 + len > size)
			len = (uint8_t)(size - i - 2);
		switch (mode & 3) {
		case 0:
			tcp_ep_rx(z.ep[1], p, len, z.now);
			break;
		case 1:
			fz_seg(&z, 1, p, len);
			break;
		case 2:
			fz_seg(&z, 0, p, len);
			break;
		default:
			z.now += (uint64_t)len * 1000000;
			fz_pump(&z, 2);
			break;
		}
		i += 2u + len;
	}
	/* the connections still work: run on and reap what closed */
	for (int r = 0; r < 8; r++) {
		z.now += 100000000;
		fz_pump(&z, 4);
	}
	/* data delivered, if any, was the pattern, in order */
	if (z.sink.order_errors)
		abort();
	tcp_ep_reap(z.ep[0]);
	tcp_ep_reap(z.ep[1]);
	tcp_ep_free(z.ep[0]);
	tcp_ep_free(z.ep[1]);
	return 0;
}

#ifndef TCP_FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return tcp_fuzz_one(data, size);
}
#endif
