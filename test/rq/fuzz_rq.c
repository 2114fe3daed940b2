/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness: arbitrary bytes into the dfcp-rq file parser + object
 * decoder (first byte even) or straight into a block decoder (first byte
 * odd: K, T, then (3-byte ESI, T-byte symbol) records). Anything may fail
 * cleanly; nothing may crash or trip a sanitizer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rq.h"
#include "rqfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	if ((data[0] & 1) == 0) {
		uint8_t *obj = NULL;
		uint64_t F;
		char err[2048];

		if (rqf_decode(data + 1, size - 1, &obj, &F, err, sizeof(err)) == 0)
			free(obj);
		return 0;
	}
	if (size >= 4) {
		uint32_t K = 1 + (data[1] | (data[2] & 1) << 8) % 300;
		uint16_t T = (uint16_t)(1 + data[3] % 40);
		struct rq_dec *dec = rq_dec_create(K, T, K + 16);
		size_t o = 4;
		uint8_t *out = malloc((size_t)K * T);

		while (dec && out && o + 3 + T <= size) {
			uint32_t esi = (uint32_t)data[o] << 16 | data[o + 1] << 8 | data[o + 2];

			if (data[o] == 0xff)
				esi |= 1u << 24;	/* out of range on purpose */
			/* the input lives until the end: reference every other one */
			if (data[o + 2] & 1)
				rq_dec_add_ref(dec, esi, data + o + 3);
			else
				rq_dec_add(dec, esi, data + o + 3);
			o += 3 + T;
			if (rq_dec_ready(dec))
				rq_dec_decode(dec, out, (size_t)K * T - (data[1] % T));
		}
		if (dec && out)
			rq_dec_decode(dec, out, (size_t)K * T);
		free(out);
		rq_dec_free(dec);
	}
	return 0;
}
