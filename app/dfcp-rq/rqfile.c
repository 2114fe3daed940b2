/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp-rq: object <-> packet file, on top of lib/rq. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rqfile.h"

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
	rq_oti_write(&oti, hdr);
	if (fwrite(hdr, 1, sizeof(hdr), f) != sizeof(hdr))
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

int
rqf_decode(const uint8_t *in, size_t len, uint8_t **objp, uint64_t *Fp, char *err,
		size_t errlen)
{
	struct rq_oti oti;
	size_t plen, npkt, i;
	uint32_t *cnt = NULL, *start = NULL, *list = NULL, sbn, bad = 0;
	uint8_t *obj = NULL, *out = NULL, *blk = NULL;
	int rc = -1;

	err[0] = 0;
	*objp = NULL;
	*Fp = 0;
	if (len < RQ_OTI_LEN) {
		msg(err, errlen, "truncated OTI: the file has %zu bytes, the header needs %u",
			len, RQ_OTI_LEN);
		return -1;
	}
	if (rq_oti_parse(in, &oti)) {
		msg(err, errlen, "impossible OTI: F=%llu T=%u Z=%u N=%u Al=%u",
			(unsigned long long)((uint64_t)in[0] << 32 | (uint64_t)in[1] << 24 |
			(uint64_t)in[2] << 16 | (uint64_t)in[3] << 8 | in[4]),
			in[6] << 8 | in[7], in[8], in[9] << 8 | in[10], in[11]);
		return -1;
	}
	plen = RQ_PAYLOAD_ID_LEN + (size_t)oti.T;
	if ((len - RQ_OTI_LEN) % plen) {
		msg(err, errlen, "packets of the wrong size: %zu bytes after the OTI are not a "
			"multiple of 4 + T = %zu (%zu bytes left over)", len - RQ_OTI_LEN, plen,
			(len - RQ_OTI_LEN) % plen);
		return -1;
	}
	npkt = (len - RQ_OTI_LEN) / plen;
	cnt = calloc(oti.Z, sizeof(*cnt));
	start = calloc(oti.Z + 1u, sizeof(*start));
	list = malloc((npkt ? npkt : 1) * sizeof(*list));
	if (!cnt || !start || !list) {
		msg(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < npkt; i++) {
		uint8_t s;
		uint32_t esi;

		rq_payload_id_parse(in + RQ_OTI_LEN + i * plen, &s, &esi);
		if (s >= oti.Z) {
			msg(err, errlen, "packet %zu: source block number %u, but the object has "
				"%u blocks", i, s, oti.Z);
			goto out;
		}
		cnt[s]++;
	}
	for (sbn = 0; sbn < oti.Z; sbn++)
		start[sbn + 1] = start[sbn] + cnt[sbn];
	memset(cnt, 0, oti.Z * sizeof(*cnt));
	for (i = 0; i < npkt; i++) {
		uint8_t s = in[RQ_OTI_LEN + i * plen];

		list[start[s] + cnt[s]++] = (uint32_t)i;
	}
	/* symbols alone can not cover the object: report before allocating it */
	for (sbn = 0; sbn < oti.Z; sbn++) {
		uint32_t K;

		rq_block_info(&oti, sbn, &K, NULL, NULL);
		if (cnt[sbn] < K) {
			msg(err, errlen, "%sblock %u: %u of %u symbols received, lacks %u",
				bad ? "\n" : "", sbn, cnt[sbn], K, K - cnt[sbn]);
			bad++;
		}
	}
	if (bad)
		goto out;
	obj = malloc(oti.F);
	if (obj == NULL) {
		msg(err, errlen, "out of memory for a %llu-byte object",
			(unsigned long long)oti.F);
		goto out;
	}
	for (sbn = 0; sbn < oti.Z; sbn++) {
		struct rq_dec *dec;
		uint32_t K, k;
		uint64_t off;
		size_t blen;
		int r;

		rq_block_info(&oti, sbn, &K, &off, &blen);
		dec = rq_dec_create(K, oti.T, cnt[sbn]);
		free(out);
		free(blk);
		out = malloc((size_t)K * oti.T);
		blk = malloc((size_t)K * oti.T);
		if (!dec || !out || !blk) {
			rq_dec_free(dec);
			msg(err, errlen, "out of memory");
			goto out;
		}
		for (k = 0; k < cnt[sbn]; k++) {
			const uint8_t *p = in + RQ_OTI_LEN + (size_t)list[start[sbn] + k] * plen;
			uint8_t s;
			uint32_t esi;

			rq_payload_id_parse(p, &s, &esi);
			rq_dec_add(dec, esi, p + RQ_PAYLOAD_ID_LEN);
		}
		r = rq_dec_decode(dec, out, (size_t)K * oti.T);
		if (r == -EAGAIN) {
			msg(err, errlen, "%sblock %u: %u distinct of %u symbols received, lacks %u",
				bad ? "\n" : "", sbn, rq_dec_count(dec), K, K - rq_dec_count(dec));
			bad++;
		} else if (r == -EDOM) {
			msg(err, errlen, "%sblock %u: %u distinct symbols do not determine the "
				"block, lacks at least 1 more", bad ? "\n" : "", sbn,
				rq_dec_count(dec));
			bad++;
		} else if (r) {
			msg(err, errlen, "%sblock %u: decoder error %d", bad ? "\n" : "", sbn, r);
			bad++;
		} else {
			rq_symbols_to_block(&oti, K, out, blk);
			memcpy(obj + off, blk, blen);
		}
		rq_dec_free(dec);
	}
	if (bad)
		goto out;
	*objp = obj;
	*Fp = oti.F;
	obj = NULL;
	rc = 0;
out:
	free(cnt);
	free(start);
	free(list);
	free(obj);
	free(out);
	free(blk);
	return rc;
}
