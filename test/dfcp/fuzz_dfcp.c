/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness: the DFCP parser and the receive path of an endpoint
 * holding an established receiver connection (and a sender connection).
 * Input: a sequence of records [mode u8][len u8][len bytes]:
 *   mode & 3 == 0: a raw frame to dfcp_ep_rx on the receiver endpoint
 *   mode & 3 == 1: a DFCP message (after UDP) wrapped in valid L2-L4
 *                  headers, dst cid forced to the live receiver connection
 *   mode & 3 == 2: the same towards the sender connection
 *   mode & 3 == 3: advance the clock by len ms and pull tx bursts
 * Built by scripts/fuzz.sh; test_bad.c runs the same function on random
 * inputs in the unit suite (DFCP_FUZZ_NO_MAIN).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"

static const struct dfcp_addr fz_a = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr fz_b = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

static struct dfcp_ep *
fz_ep(const struct dfcp_addr *addr, int listen)
{
	struct dfcp_ep_conf ec;

	dfcp_ep_conf_default(&ec);
	ec.local = *addr;
	ec.listen = listen;
	ec.max_conns = 8;
	ec.max_half_open = 2;
	ec.limits.max_window = 4;
	ec.limits.max_K = 8;
	ec.limits.max_T = 64;
	ec.rx_flags = DFCP_RX_IP_CSUM_OK | DFCP_RX_UDP_CSUM_OK;
	ec.accept_conf.hs_rto_ns = 1000000;
	ec.accept_conf.time_wait_ns = 1000000;
	return dfcp_ep_create(&ec);
}

static unsigned int
fz_pump(struct dfcp_ep *from, struct dfcp_ep *to, uint64_t now)
{
	static uint8_t fb[8][2048];
	void *bufs[8];
	uint16_t lens[8];
	unsigned int k, total = 0;

	for (int i = 0; i < 8; i++)
		bufs[i] = fb[i];
	do {
		k = dfcp_ep_tx_burst(from, now, bufs, lens, sizeof(fb[0]), 8);
		for (unsigned int i = 0; i < k && to != NULL; i++)
			dfcp_ep_rx(to, fb[i], lens[i], now);
		total += k;
	} while (k == 8 && total < 256);
	return total;
}

static size_t
fz_src(void *ctx, uint64_t now, void *buf, size_t len)
{
	(void)ctx;
	(void)now;
	memset(buf, 0xab, len);
	return len;
}

static int
dfcp_fuzz_one(const uint8_t *data, size_t size)
{
	struct dfcp_ep *ea = fz_ep(&fz_a, 0), *eb = fz_ep(&fz_b, 1);
	struct dfcp_conn_conf cc;
	struct dfcp_conn *a, *b;
	struct dfcp_pkt pkt;
	uint64_t now = 0;
	uint32_t pos = 0;
	uint8_t frame[600];

	if (ea == NULL || eb == NULL)
		goto out;
	/* the parser alone on the whole input */
	(void)dfcp_parse(data, size, 0, &pkt);
	(void)net_arp_parse(data, size, (struct net_arp *)frame);

	dfcp_conn_conf_default(&cc);
	cc.remote = fz_b;
	cc.T = 16;
	cc.K = 4;
	cc.window = 4;
	cc.redundancy = 5;
	cc.hs_rto_ns = 1000000;
	cc.time_wait_ns = 1000000;
	cc.source = fz_src;
	a = dfcp_ep_connect(ea, &cc, 0);
	if (a == NULL)
		goto out;
	fz_pump(ea, eb, 0);	/* SYN */
	fz_pump(eb, ea, 0);	/* SYNACK */
	fz_pump(ea, eb, 0);	/* ACK + data */
	b = dfcp_ep_next_conn(eb, &pos);
	if (b == NULL)
		goto out;

	while (size >= 2) {
		uint8_t mode = data[0], len = data[1];

		data += 2;
		size -= 2;
		if (len > size)
			len = (uint8_t)size;
		switch (mode & 3) {
		case 0:
			dfcp_ep_rx(eb, data, len, now);
			break;
		case 1:
		case 2: {
			struct dfcp_pkt h;
			int l;

			/* an empty FINACK gives valid L2-L4 headers to patch */
			memset(&h, 0, sizeof(h));
			h.type = DFCP_T_FINACK;
			h.dst_cid = 1;
			h.src_cid = 1;
			l = dfcp_build(frame, sizeof(frame),
					(mode & 3) == 1 ? &fz_a : &fz_b,
					(mode & 3) == 1 ? &fz_b : &fz_a, &h, DFCP_CSUM_UDP_ZERO);
			if (l < 0)
				break;
			memcpy(frame + 42, data, len);
			if (len >= 12 && (mode & 4)) {
				struct dfcp_conn *c = (mode & 3) == 1 ? b : a;
				uint32_t lc = dfcp_conn_local_cid(c), rc = dfcp_conn_remote_cid(c);

				frame[46] = lc >> 24; frame[47] = lc >> 16; frame[48] = lc >> 8; frame[49] = lc;
				frame[50] = rc >> 24; frame[51] = rc >> 16; frame[52] = rc >> 8; frame[53] = rc;
			}
			/* fix IPv4/UDP lengths to the message */
			uint16_t ul = (uint16_t)(8 + len), tl = (uint16_t)(28 + len);

			frame[16] = tl >> 8; frame[17] = tl & 0xff;
			frame[38] = ul >> 8; frame[39] = ul & 0xff;
			dfcp_ep_rx((mode & 3) == 1 ? eb : ea, frame, 42 + (size_t)len, now);
			break;
		}
		case 3:
			now += (uint64_t)len * 1000000;
			fz_pump(ea, eb, now);
			fz_pump(eb, ea, now);
			break;
		}
		data += len;
		size -= len;
	}
	fz_pump(ea, eb, now);
	fz_pump(eb, ea, now);
	dfcp_ep_reap(ea);
	dfcp_ep_reap(eb);
out:
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
	return 0;
}

#ifndef DFCP_FUZZ_NO_MAIN
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return dfcp_fuzz_one(data, size);
}
#endif
