/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp-rq: object <-> packet file, on top of lib/rq. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <isa-l/crc.h>

#include "rq.h"
#include "rqfile.h"

/* CRC-32C (iSCSI) of a block, the standard value (lib/net's net_crc32c). */
static uint32_t
crc32c(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	while (n > 0) {
		int k = n > (1u << 30) ? 1 << 30 : (int)n;

		c = crc32_iscsi((unsigned char *)(uintptr_t)p, k, c);
		p += k;
		n -= (size_t)k;
	}
	return ~c;
}

static uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
msg(char *err, size_t errlen, const char *fmt, ...)
{
	size_t n = strlen(err);
	va_list ap;

	if (n >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
}

/* The checked format's header: magic, version, OTI, a CRC-32C per block. */
static int
write_header(const struct rq_oti *oti, const uint8_t *obj, FILE *f)
{
	uint8_t h[RQF_HDR_LEN + RQ_OTI_LEN] = RQF_MAGIC, c[4];

	h[4] = RQF_VERSION;
	rq_oti_write(oti, h + RQF_HDR_LEN);
	if (fwrite(h, 1, sizeof(h), f) != sizeof(h))
		return -1;
	for (uint32_t sbn = 0; sbn < oti->Z; sbn++) {
		uint32_t K;
		uint64_t off;
		size_t blen;

		rq_block_info(oti, sbn, &K, &off, &blen);
		wr32(c, crc32c(obj + off, blen));
		if (fwrite(c, 1, 4, f) != 4)
			return -1;
	}
	return 0;
}

int
rqf_encode(const uint8_t *obj, size_t len, const struct rqf_enc_opts *o, FILE *f, char *err,
		size_t errlen)
{
	struct rq_oti oti;
	uint8_t hdr[RQ_OTI_LEN], pid[RQ_PAYLOAD_ID_LEN];
	uint8_t *blk = NULL, *sym = NULL, *sbuf = NULL;
	uint32_t sbn;
	int rc = -1;

	err[0] = 0;
	if (len == 0) {
		msg(err, errlen, "empty input: a RaptorQ object has at least one byte");
		return -1;
	}
	if (o->T == 0) {
		msg(err, errlen, "symbol size must be 1..65535");
		return -1;
	}
	memset(&oti, 0, sizeof(oti));
	oti.F = len;
	oti.T = o->T;
	oti.Al = o->Al ? o->Al : (o->T % 4 == 0 ? 4 : 1);
	if (o->Z == 0 && o->N == 0) {
		int r = rq_oti_derive(len, o->T, oti.Al, o->WS, &oti);

		if (r) {
			msg(err, errlen, "cannot partition %zu bytes with T=%u Al=%u: %s", len,
				o->T, oti.Al, r == -EFBIG ? "more than 255 source blocks needed"
				: "invalid parameters");
			return -1;
		}
	} else {
		uint64_t Kt = (len + o->T - 1) / o->T;

		oti.N = (uint16_t)(o->N ? o->N : 1);
		oti.Z = (uint8_t)(o->Z ? o->Z : (Kt + RQ_MAX_K - 1) / RQ_MAX_K);
		if (o->Z > 255 || o->N > 65535 || (o->Z == 0 && Kt > 255ull * RQ_MAX_K)) {
			msg(err, errlen, "Z must be 1..255 and N 1..65535");
			return -1;
		}
	}
	if (rq_oti_check(&oti)) {
		msg(err, errlen, "impossible parameters: F=%llu T=%u Z=%u N=%u Al=%u (T must be a "
			"multiple of Al, N <= T/Al, each block 1..%u symbols)",
			(unsigned long long)oti.F, oti.T, oti.Z, oti.N, oti.Al, RQ_MAX_K);
		return -1;
	}
	if (o->checksum && write_header(&oti, obj, f) < 0)
		goto io;
	rq_oti_write(&oti, hdr);
	if (!o->checksum && fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr))
		goto io;
	sym = malloc(oti.T);
	for (sbn = 0; sbn < oti.Z; sbn++) {
		struct rq_enc *enc;
		uint32_t K, esi, R;
		uint64_t off;
		size_t blen;

		rq_block_info(&oti, sbn, &K, &off, &blen);
		free(blk);
		free(sbuf);
		blk = calloc(K, oti.T);
		sbuf = malloc((size_t)K * oti.T);
		if (!blk || !sbuf || !sym) {
			msg(err, errlen, "out of memory");
			goto out;
		}
		memcpy(blk, obj + off, blen);
		rq_block_to_symbols(&oti, K, blk, sbuf);
		enc = rq_enc_create(K, oti.T);
		if (enc == NULL || rq_enc_block(enc, sbuf, (size_t)K * oti.T)) {
			rq_enc_free(enc);
			msg(err, errlen, "block %u: encoder failed", sbn);
			goto out;
		}
		R = o->repair >= 0 ? (uint32_t)o->repair :
			(uint32_t)((double)K * o->overhead_pct / 100.0 + 0.999999);
		if ((uint64_t)K + R > RQ_MAX_ESI + 1ull)
			R = RQ_MAX_ESI + 1 - K;
		for (esi = 0; esi < K + R; esi++) {
			rq_enc_symbol(enc, esi, sym);
			rq_payload_id_write((uint8_t)sbn, esi, pid);
			if (fwrite(pid, 1, sizeof(pid), f) != sizeof(pid) ||
					fwrite(sym, 1, oti.T, f) != oti.T) {
				rq_enc_free(enc);
				goto io;
			}
		}
		rq_enc_free(enc);
	}
	rc = 0;
	goto out;
io:
	msg(err, errlen, "write error: %s", strerror(errno));
out:
	free(blk);
	free(sym);
	free(sbuf);
	return rc;
}

/* ------------------------------------------------------------------ */
/* decode                                                               */
/* ------------------------------------------------------------------ */

struct rqf_in {
	FILE *f;
	uint64_t got;		/* bytes read */
};

/* Exactly n bytes, or fewer at the end of the input. */
static size_t
rd(struct rqf_in *in, void *buf, size_t n)
{
	size_t r = fread(buf, 1, n, in->f);

	in->got += r;
	return r;
}

/* What the decoders of an object take at most (lib/rq keeps K + max(K/4, 64) symbols). */
static uint64_t
dec_bytes(uint32_t K, uint16_t T)
{
	uint64_t keep = K + (K / 4 > 64 ? K / 4 : 64);

	return (keep + 2ull * K + 64) * T + 32ull * K * 64;
}

/* Header: magic (or not), OTI, the checksums. 0, or -1 with the message. */
static int
read_header(struct rqf_in *in, enum rqf_mode mode, struct rq_oti *oti, uint32_t **crc,
		char *err, size_t errlen)
{
	uint8_t h[RQF_HDR_LEN + RQ_OTI_LEN], *o = h;
	size_t n = rd(in, h, 4), need = RQ_OTI_LEN;
	int checked = n == 4 && memcmp(h, RQF_MAGIC, 4) == 0 && mode != RQF_RAW;

	*crc = NULL;
	if (n == 0) {
		msg(err, errlen, "the file is empty: nothing to decode");
		return -1;
	}
	if (!checked && mode == RQF_CHECKED) {
		msg(err, errlen, "not a dfcp-rq file (no %s header%s): raw RFC 6330 packets carry no "
			"checksum; decode them with --raw", RQF_MAGIC, n < 4 ? ", the file is shorter" : "");
		return -1;
	}
	if (checked) {
		n = rd(in, h + 4, sizeof(h) - 4);
		if (n < sizeof(h) - 4) {
			msg(err, errlen, "truncated header: the file has %llu bytes, the header needs %u",
				(unsigned long long)in->got, RQF_HDR_LEN + RQ_OTI_LEN);
			return -1;
		}
		if (h[4] != RQF_VERSION) {
			msg(err, errlen, "unknown dfcp-rq format version %u (this tool reads %u)", h[4],
				RQF_VERSION);
			return -1;
		}
		o = h + RQF_HDR_LEN;
	} else {
		n += rd(in, h + n, need - n);
		if (n < need) {
			msg(err, errlen, "truncated OTI: the file has %zu bytes, the header needs %u",
				n, RQ_OTI_LEN);
			return -1;
		}
	}
	if (rq_oti_parse(o, oti)) {
		msg(err, errlen, "impossible OTI: F=%llu T=%u Z=%u N=%u Al=%u",
			(unsigned long long)((uint64_t)o[0] << 32 | (uint64_t)o[1] << 24 |
			(uint64_t)o[2] << 16 | (uint64_t)o[3] << 8 | o[4]),
			o[6] << 8 | o[7], o[8], o[9] << 8 | o[10], o[11]);
		return -1;
	}
	if (!checked)
		return 0;
	*crc = malloc(oti->Z * sizeof(**crc));
	if (*crc == NULL) {
		msg(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t b = 0; b < oti->Z; b++) {
		uint8_t c[4];

		if (rd(in, c, 4) < 4) {
			msg(err, errlen, "truncated header: the file ends in the checksum of block %u",
				b);
			return -1;
		}
		(*crc)[b] = rd32(c);
	}
	return 0;
}

/* Every packet into its block's decoder (made on its first packet). */
static int
read_packets(struct rqf_in *in, const struct rq_oti *oti, struct rq_dec **dec, uint64_t hdr,
		char *err, size_t errlen)
{
	size_t plen = RQ_PAYLOAD_ID_LEN + (size_t)oti->T, n;
	uint8_t *p = malloc(plen);
	uint64_t i;

	if (p == NULL) {
		msg(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; (n = rd(in, p, plen)) == plen; i++) {
		uint8_t s;
		uint32_t esi, K;

		rq_payload_id_parse(p, &s, &esi);
		if (s >= oti->Z) {
			msg(err, errlen, "packet %llu: source block number %u, but the object has "
				"%u blocks", (unsigned long long)i, s, oti->Z);
			break;
		}
		if (dec[s] == NULL) {
			rq_block_info(oti, s, &K, NULL, NULL);
			dec[s] = rq_dec_create(K, oti->T, 0);
			if (dec[s] == NULL) {
				msg(err, errlen, "out of memory");
				break;
			}
		}
		/* a full decoder has plenty: the block's later packets are not needed */
		(void)rq_dec_add(dec[s], esi, p + RQ_PAYLOAD_ID_LEN);
	}
	free(p);
	if (n == plen)
		return -1;
	if (ferror(in->f)) {
		msg(err, errlen, "read error: %s", strerror(errno));
		return -1;
	}
	if (n != 0) {
		msg(err, errlen, "packets of the wrong size: %llu bytes after the header are not a "
			"multiple of 4 + T = %zu (%zu bytes left over)",
			(unsigned long long)(in->got - hdr), plen, n);
		return -1;
	}
	return 0;
}

/* Decode block sbn into obj and check it against its CRC; 0 or -1 (message added). */
static int
decode_block(const struct rq_oti *oti, uint32_t sbn, struct rq_dec *d, const uint32_t *crc,
		uint8_t *obj, uint8_t *out, uint8_t *blk, int first, char *err, size_t errlen)
{
	const char *nl = first ? "" : "\n";
	uint32_t K, n = d != NULL ? rq_dec_count(d) : 0;
	uint64_t off;
	size_t blen;
	int r;

	rq_block_info(oti, sbn, &K, &off, &blen);
	if (n < K) {
		msg(err, errlen, "%sblock %u: %u of %u symbols received, lacks %u", nl, sbn, n, K,
			K - n);
		return -1;
	}
	r = rq_dec_decode(d, out, (size_t)K * oti->T);
	if (r == -EDOM) {
		msg(err, errlen, "%sblock %u: %u distinct symbols do not determine the block, lacks "
			"at least 1 more", nl, sbn, n);
		return -1;
	}
	if (r) {
		msg(err, errlen, "%sblock %u: decoder error %d", nl, sbn, r);
		return -1;
	}
	rq_symbols_to_block(oti, K, out, blk);
	memcpy(obj + off, blk, blen);
	if (crc != NULL && crc32c(obj + off, blen) != crc[sbn]) {
		msg(err, errlen, "%sblock %u: the decoded data does not match its checksum (CRC-32C "
			"%08x, the file says %08x): a packet is corrupt", nl, sbn,
			crc32c(obj + off, blen), crc[sbn]);
		return -1;
	}
	return 0;
}

int
rqf_decode_file(FILE *f, enum rqf_mode mode, uint64_t max_memory, uint8_t **objp,
		uint64_t *Fp, char *err, size_t errlen)
{
	struct rqf_in in = { f, 0 };
	struct rq_dec **dec = NULL;
	uint8_t *obj = NULL, *out = NULL, *blk = NULL;
	uint32_t *crc = NULL, sbn, bad = 0, K0;
	struct rq_oti oti;
	uint64_t need, hdr;
	int rc = -1;

	err[0] = 0;
	*objp = NULL;
	*Fp = 0;
	if (max_memory == 0)
		max_memory = RQF_MAX_MEMORY_DEFAULT;
	if (read_header(&in, mode, &oti, &crc, err, errlen) < 0)
		goto out;
	hdr = in.got;
	/* the first block is the largest (RFC 6330 4.4.1.2) */
	rq_block_info(&oti, 0, &K0, NULL, NULL);
	need = oti.F + (uint64_t)oti.Z * dec_bytes(K0, oti.T);
	if (need > max_memory) {
		msg(err, errlen, "the object needs about %llu bytes of memory to decode (F = %llu, "
			"%u blocks of up to %u symbols of %u bytes), over the limit of %llu "
			"(--max-memory)", (unsigned long long)need, (unsigned long long)oti.F, oti.Z,
			K0, oti.T, (unsigned long long)max_memory);
		goto out;
	}
	dec = calloc(oti.Z, sizeof(*dec));
	out = malloc((size_t)K0 * oti.T);
	blk = malloc((size_t)K0 * oti.T);
	obj = malloc(oti.F);
	if (dec == NULL || out == NULL || blk == NULL || obj == NULL) {
		msg(err, errlen, "out of memory for a %llu-byte object", (unsigned long long)oti.F);
		goto out;
	}
	if (read_packets(&in, &oti, dec, hdr, err, errlen) < 0)
		goto out;
	for (sbn = 0; sbn < oti.Z; sbn++) {
		if (decode_block(&oti, sbn, dec[sbn], crc, obj, out, blk, bad == 0, err,
				errlen) < 0)
			bad++;
		rq_dec_free(dec[sbn]);
		dec[sbn] = NULL;
	}
	if (bad)
		goto out;
	*objp = obj;
	*Fp = oti.F;
	obj = NULL;
	rc = 0;
out:
	for (sbn = 0; dec != NULL && sbn < oti.Z; sbn++)
		rq_dec_free(dec[sbn]);
	free(dec);
	free(crc);
	free(obj);
	free(out);
	free(blk);
	return rc;
}

int
rqf_decode(const uint8_t *in, size_t len, uint8_t **objp, uint64_t *Fp, char *err,
		size_t errlen)
{
	static const uint8_t none;
	FILE *f = fmemopen((void *)(uintptr_t)(len ? in : &none), len ? len : 1, "rb");
	int rc;

	if (f == NULL) {
		msg(err, errlen, "cannot read the image: %s", strerror(errno));
		return -1;
	}
	if (len == 0)
		(void)fgetc(f);		/* an empty image: at its end at once */
	rc = rqf_decode_file(f, RQF_AUTO, 0, objp, Fp, err, errlen);
	fclose(f);
	return rc;
}
