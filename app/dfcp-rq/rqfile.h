/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-rq file format: the 12-byte OTI (RFC 6330 §3.3), then packets of a
 * 4-byte FEC Payload ID (SBN 8 bits, ESI 24 bits, big-endian) + T bytes.
 */
#ifndef RQFILE_H
#define RQFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rqf_enc_opts {
	uint16_t T;
	uint8_t Al;		/* 0: 4 if T % 4 == 0, else 1 */
	uint32_t Z, N;		/* 0: derive by RFC 6330 §4.3 */
	uint64_t WS;		/* working memory for the derivation (0: default) */
	int64_t repair;		/* repair symbols per block; < 0: use overhead_pct */
	double overhead_pct;
};

/* Encode obj[0..len-1] to f. 0, or -1 with a message in err. */
int rqf_encode(const uint8_t *obj, size_t len, const struct rqf_enc_opts *o, FILE *f,
		char *err, size_t errlen);
/*
 * Decode a file image. On success *obj (malloc'd) holds *F bytes. On
 * failure -1 and a message in err (one line per failing block).
 */
int rqf_decode(const uint8_t *in, size_t len, uint8_t **obj, uint64_t *F, char *err,
		size_t errlen);

#endif /* RQFILE_H */
