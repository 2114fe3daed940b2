/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Object level: OTI and FEC Payload ID encodings, §4.3 derivation and
 * §4.4.1 partitioning, and whole-object round trips (1 byte .. 16 MiB,
 * several source blocks and sub-blocks) through the dfcp-rq file format with
 * packets lost, shuffled and duplicated; bad files get clear errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rqfile.h"
#include "rq_test.h"

static struct test_rng rng = { 0x0b1ec7ull };

static void
test_oti(void)
{
	struct rq_oti o = { .F = 0x0102030405ull, .T = 0x0a0b, .Z = 0xfe, .N = 0x0102, .Al = 1 };
	static const uint8_t want[12] = { 1, 2, 3, 4, 5, 0, 0x0a, 0x0b, 0xfe, 1, 2, 1 };
	uint8_t b[12], p[4], sbn;
	struct rq_oti q;
	uint32_t esi;

	rq_oti_write(&o, b);
	CHECKF(memcmp(b, want, 12) == 0, "OTI layout");
	CHECKF(rq_oti_parse(b, &q) == 0 && q.F == o.F && q.T == o.T && q.Z == o.Z &&
		q.N == o.N && q.Al == o.Al, "OTI parse");
	rq_payload_id_write(0xab, 0x123456, p);
	CHECKF(p[0] == 0xab && p[1] == 0x12 && p[2] == 0x34 && p[3] == 0x56, "payload id layout");
	rq_payload_id_parse(p, &sbn, &esi);
	CHECKF(sbn == 0xab && esi == 0x123456, "payload id parse");
	/* impossible values */
	b[6] = 0, b[7] = 0;	/* T = 0 */
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "T=0");
	o.T = 10, o.Al = 4;	/* T not a multiple of Al */
	rq_oti_write(&o, b);
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "T %% Al");
	o.T = 16, o.Al = 4, o.N = 5;	/* N > T/Al */
	rq_oti_write(&o, b);
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "N > T/Al");
	o.N = 1, o.F = 0;
	rq_oti_write(&o, b);
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "F=0");
	o.F = 16ull * RQ_MAX_K * 2 + 1, o.Z = 2;	/* blocks too large */
	rq_oti_write(&o, b);
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "K > K'max");
	o.F = 16, o.Z = 2;	/* more blocks than symbols */
	rq_oti_write(&o, b);
	CHECKF(rq_oti_parse(b, &q) == -EINVAL, "Z > Kt");
}

static void
test_partition(void)
{
	struct rq_part pt;
	struct rq_oti o;
	uint64_t F;

	rq_part_get(10, 3, &pt);
	CHECKF(pt.IL == 4 && pt.IS == 3 && pt.JL == 1 && pt.JS == 2, "Partition[10,3]");
	for (F = 1; F < (1ull << 34); F = F * 7 + 3) {
		uint64_t sum = 0, Kt;
		uint32_t s, K;

		CHECKF(rq_oti_derive(F, 1420, 4, 0, &o) == 0, "derive F=%llu", (unsigned long long)F);
		Kt = (F + 1419) / 1420;
		for (s = 0; s < o.Z; s++) {
			uint64_t off;
			size_t len;

			CHECKF(rq_block_info(&o, s, &K, &off, &len) == 0 && K <= RQ_MAX_K, "block");
			CHECKF(off == sum * 1420, "offset");
			sum += K;
		}
		CHECKF(sum == Kt, "blocks cover Kt F=%llu", (unsigned long long)F);
		CHECKF(o.N >= 1 && o.N <= 1420 / 4, "N");
	}
	CHECKF(rq_oti_derive(1ull << 39, 1420, 4, 0, &o) == -EFBIG, "too big for Z <= 255");
}

struct pkt {
	const uint8_t *p;
};

/* Encode, keep all but `drop` random packets per block (drop <= repair),
 * shuffle, duplicate some, decode, compare. */
static void
roundtrip(size_t F, uint16_t T, uint32_t Z, uint32_t N, uint8_t Al, int64_t repair,
		uint32_t drop)
{
	struct rqf_enc_opts o = { .T = T, .Z = Z, .N = N, .Al = Al, .repair = repair,
		.overhead_pct = 5 };
	uint8_t *obj = malloc(F), *file = NULL, *img, *dec = NULL;
	size_t flen = 0, plen = 4 + (size_t)T, np, i, n = 0;
	uint32_t *keep;
	char err[4096];
	uint64_t DF;
	FILE *f = open_memstream((char **)&file, &flen);
	int rc;

	rqt_fill(obj, F, &rng);
	rc = rqf_encode(obj, F, &o, f, err, sizeof(err));
	fclose(f);
	CHECKF(rc == 0, "encode F=%zu T=%u: %s", F, T, err);
	if (rc)
		goto out;
	np = (flen - 12) / plen;
	keep = malloc(2 * np * sizeof(*keep));
	/* drop the first `drop` packets of every block that are source packets */
	{
		uint32_t cur = 256, cnt = 0;

		for (i = 0; i < np; i++) {
			const uint8_t *p = file + 12 + i * plen;

			if (p[0] != cur) {
				cur = p[0];
				cnt = 0;
			}
			if (cnt++ < drop && (test_rng_next(&rng) & 1))
				continue;
			keep[n++] = (uint32_t)i;
			if (test_rng_next(&rng) % 10 == 0)
				keep[n++] = (uint32_t)i;	/* duplicate */
		}
	}
	rqt_shuffle(keep, (uint32_t)n, &rng);
	img = malloc(12 + n * plen);
	memcpy(img, file, 12);
	for (i = 0; i < n; i++)
		memcpy(img + 12 + i * plen, file + 12 + (size_t)keep[i] * plen, plen);
	rc = rqf_decode(img, 12 + n * plen, &dec, &DF, err, sizeof(err));
	CHECKF(rc == 0, "decode F=%zu T=%u Z=%u N=%u: %s", F, T, Z, N, err);
	CHECKF(rc != 0 || (DF == F && memcmp(dec, obj, F) == 0), "object differs F=%zu", F);
	/* now drop every packet of the last block but one: clear error */
	if (rc == 0) {
		struct rq_oti oti;
		size_t m = 0, kept = 0;
		uint32_t lastK;

		rq_oti_parse(file, &oti);
		rq_block_info(&oti, oti.Z - 1u, &lastK, NULL, NULL);
		for (i = 0; i < n; i++) {
			const uint8_t *p = img + 12 + i * plen;

			if (p[0] == oti.Z - 1 && kept++ > 0)
				continue;
			memmove(img + 12 + m * plen, p, plen);
			m++;
		}
		free(dec);
		dec = NULL;
		rc = rqf_decode(img, 12 + m * plen, &dec, &DF, err, sizeof(err));
		if (lastK > 1)
			CHECKF(rc != 0 && strstr(err, "lacks") != NULL, "missing block not reported: %s",
				err);
		rc = 0;
	}
	free(img);
	free(keep);
out:
	free(dec);
	free(file);
	free(obj);
}

static void
test_bad_files(void)
{
	uint8_t buf[64] = { 0 }, *obj;
	struct rq_oti o = { .F = 10, .T = 8, .Z = 1, .N = 1, .Al = 4 };
	char err[512];
	uint64_t F;

	CHECKF(rqf_decode(buf, 5, &obj, &F, err, sizeof(err)) < 0 && strstr(err, "truncated OTI"),
		"truncated: %s", err);
	CHECKF(rqf_decode(buf, 12, &obj, &F, err, sizeof(err)) < 0 && strstr(err, "impossible OTI"),
		"zero OTI: %s", err);
	rq_oti_write(&o, buf);
	CHECKF(rqf_decode(buf, 12 + 13, &obj, &F, err, sizeof(err)) < 0 &&
		strstr(err, "wrong size"), "packet size: %s", err);
	buf[12] = 3;	/* SBN 3 >= Z */
	CHECKF(rqf_decode(buf, 12 + 12, &obj, &F, err, sizeof(err)) < 0 &&
		strstr(err, "source block number"), "SBN: %s", err);
	buf[12] = 0;
	CHECKF(rqf_decode(buf, 12 + 12, &obj, &F, err, sizeof(err)) < 0 &&
		strstr(err, "block 0: 1 of 2 symbols received, lacks 1"), "lacks: %s", err);
}

int
main(void)
{
	test_oti();
	test_partition();
	test_bad_files();
	roundtrip(1, 16, 0, 0, 0, 2, 1);
	roundtrip(2, 1, 0, 0, 1, 3, 2);
	roundtrip(1419, 1420, 0, 0, 0, 1, 1);
	roundtrip(1421, 1420, 0, 0, 0, 2, 1);
	roundtrip(100000, 1024, 3, 2, 4, 8, 6);
	roundtrip(100001, 64, 5, 4, 4, 40, 30);
	roundtrip(777777, 1000, 0, 0, 0, -1, 10);
	roundtrip(1u << 20, 1420, 2, 5, 4, 20, 15);
	roundtrip(RQT_SCALE(16u << 20), 8192, 4, 2, 8, 20, 15);
	printf("objects: %d failures\n", test_failures);
	return test_report("rq_obj");
}
