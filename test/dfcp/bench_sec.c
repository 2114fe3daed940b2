/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-sec-bench: what the security checks cost per packet, one thread.
 *   tag:   dfcp_auth_sign of a 1502-byte DATA frame (the 1494-byte default
 *          frame's message and pseudo-header, SipHash-2-4), ns per frame;
 *   check: dfcp_parse + dfcp_auth_check of it;
 *   crc:   CRC-32C (ISA-L) of a 64 KiB block (47 x 1420 bytes), ns per block
 *          and per packet of it (/ 47), and the bitwise reference for scale.
 * Medians of 7 runs. Not a test: the figures go into doc/performance.md.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "net_hash.h"

#define RUNS	7

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v)
{
	qsort(v, RUNS, sizeof(*v), cmp_d);
	return v[RUNS / 2];
}

int
main(void)
{
	static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
	static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };
	static uint8_t f[2048], sym[1420], blk[47 * 1420];
	double tag[RUNS], chk[RUNS], crc[RUNS], ref[RUNS];
	volatile uint64_t sink = 0;
	struct dfcp_auth a;
	struct dfcp_pkt p;
	int len, n = 200000;

	for (size_t i = 0; i < sizeof(sym); i++)
		sym[i] = (uint8_t)(i * 7);
	for (size_t i = 0; i < sizeof(blk); i++)
		blk[i] = (uint8_t)(i * 13);
	dfcp_auth_init(&a, "0123456789abcdef", 16);
	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_DATA;
	p.flags = DFCP_F_RND | DFCP_F_CRC;
	p.dst_cid = 0x12345678;
	p.src_cid = 0x9abcdef0;
	p.u.data.block = 5;
	p.u.data.esi = 3;
	p.u.data.block_len = 47 * 1420;
	p.u.data.rlen = 50;
	p.u.data.rpos = 3;
	p.u.data.sym = sym;
	p.u.data.sym_len = sizeof(sym);
	len = dfcp_build_auth(f, sizeof(f), &A, &B, &p, DFCP_CSUM_UDP_ZERO, &a);
	if (len != (int)dfcp_data_frame_len(1420, DFCP_TAG_LEN) || dfcp_parse(f, (size_t)len, 0, &p) != 0 ||
			dfcp_auth_check(&a, &p) != 0) {
		fprintf(stderr, "dfcp-sec-bench: the frame does not check\n");
		return 1;
	}
	for (int r = 0; r < RUNS; r++) {
		uint64_t t0 = now_ns();

		for (int i = 0; i < n; i++) {
			f[100] = (uint8_t)i;
			dfcp_auth_sign(&a, f, (uint32_t)len - DFCP_L2L4_LEN - DFCP_TAG_LEN);
		}
		tag[r] = (double)(now_ns() - t0) / n;
		t0 = now_ns();
		for (int i = 0; i < n; i++) {
			dfcp_parse(f, (size_t)len, 0, &p);
			sink += (uint64_t)dfcp_auth_check(&a, &p);
		}
		chk[r] = (double)(now_ns() - t0) / n;
		t0 = now_ns();
		for (int i = 0; i < n / 50; i++) {
			blk[0] = (uint8_t)i;
			sink += net_crc32c(blk, sizeof(blk), 0);
		}
		crc[r] = (double)(now_ns() - t0) / (n / 50);
		t0 = now_ns();
		for (int i = 0; i < 20; i++)
			sink += net_crc32c_ref(blk, sizeof(blk), 0);
		ref[r] = (double)(now_ns() - t0) / 20;
	}
	printf("SipHash-2-4 tag of a %d-byte DATA frame: %.0f ns; parse + check: %.0f ns\n", len,
		median(tag), median(chk));
	printf("CRC-32C of a %zu-byte block (ISA-L): %.0f ns (%.1f GB/s, %.0f ns per packet of "
		"47); bitwise reference %.0f ns\n", sizeof(blk), median(crc),
		(double)sizeof(blk) / median(crc), median(crc) / 47, median(ref));
	return (int)(sink & 0);
}
