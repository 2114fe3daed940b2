/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-rq file formats.
 *   checked (the tool's default): "DFRQ", version 1, 3 reserved bytes, the
 *     12-byte OTI (RFC 6330 3.3.2), one CRC-32C per source block (of the
 *     block's bytes in the object, big-endian), then packets;
 *   raw: the OTI, then packets.
 * A packet is a 4-byte FEC Payload ID (SBN 8 bits, ESI 24 bits, big-endian)
 * and T bytes. RFC 6330 itself has no integrity check: a wrong symbol
 * decodes to a wrong block without any error, which the checked format's
 * CRCs catch.
 */
#ifndef RQFILE_H
#define RQFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RQF_MAGIC		"DFRQ"
#define RQF_VERSION		1
#define RQF_HDR_LEN		8	/* magic, version, reserved */
#define RQF_MAX_MEMORY_DEFAULT	(4ull << 30)

struct rqf_enc_opts {
	uint16_t T;
	uint8_t Al;		/* 0: 4 if T % 4 == 0, else 1 */
	uint32_t Z, N;		/* 0: derive by RFC 6330 §4.3 */
	uint64_t WS;		/* working memory for the derivation (0: default) */
	int64_t repair;		/* repair symbols per block; < 0: use overhead_pct */
	double overhead_pct;
	int checksum;		/* 1: the checked format; 0: raw */
};

/* Encode obj[0..len-1] to f. 0, or -1 with a message in err. */
int rqf_encode(const uint8_t *obj, size_t len, const struct rqf_enc_opts *o, FILE *f,
		char *err, size_t errlen);

enum rqf_mode {
	RQF_AUTO = 0,		/* checked if it starts with the magic, else raw */
	RQF_CHECKED,		/* the magic is required */
	RQF_RAW,		/* the OTI first, no checksums */
};
/*
 * Decode a file read from in, packet by packet: memory is bounded by what
 * the OTI implies (the object and a decoder per block, at most
 * max_memory bytes, 0: RQF_MAX_MEMORY_DEFAULT), whatever the input's size;
 * a block's packets beyond what its decoder keeps are skipped. On success
 * *obj (malloc'd) holds *F bytes. On failure -1 and a message in err (one
 * line per failing block).
 */
int rqf_decode_file(FILE *in, enum rqf_mode mode, uint64_t max_memory, uint8_t **obj,
		uint64_t *F, char *err, size_t errlen);
/* The same from a file image in memory (RQF_AUTO). */
int rqf_decode(const uint8_t *in, size_t len, uint8_t **obj, uint64_t *F, char *err,
		size_t errlen);

#endif /* RQFILE_H */
