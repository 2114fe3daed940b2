/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP sender: the queued symbols of DATA frames (headers already written)
 * generated straight into their frames, one rq_enc_symbols call per run of
 * frames of the same encoder, so that the repair symbols of a block come
 * from one generator pass. Should the codec refuse a symbol (it cannot:
 * encoders are loaded, ESIs in range), its frame gets DFCP version 0: the
 * peer drops it like a lost packet. Sealed flows seal a source symbol
 * straight from its encoder into its frame (no copy of it first); with a
 * key the frames are signed once their symbol is in, and with `checksum =
 * full` their UDP checksum is taken last (over the tag too).
 */
#include <stdint.h>

#include "rq.h"

#include "dfcp.h"
#include "dfcp_priv.h"

/*
 * Frames [i, j) of one encoder: all generated, or (src not NULL) those
 * without a source in src[].
 */
static void
gen_run(struct dfcp_conn *c, uint32_t i, uint32_t j, const void *const *src, uint32_t ver)
{
	const struct rq_enc *enc = c->gen_enc[i];
	uint32_t sel_esi[GEN_MAX], m = 0, *esi = &c->gen_esi[i];
	void *sel_out[GEN_MAX], **out = &c->gen_out[i];

	if (src == NULL) {
		m = j - i;
	} else {
		for (uint32_t q = i; q < j; q++) {
			if (src[q] != NULL)
				continue;
			sel_esi[m] = c->gen_esi[q];
			sel_out[m++] = c->gen_out[q];
		}
		esi = sel_esi;
		out = sel_out;
	}
	if (m == 0 || rq_enc_symbols(enc, esi, out, m) >= 0)
		return;
	for (uint32_t q = 0; q < m; q++)
		if (rq_enc_symbol(enc, esi[q], out[q]) < 0)
			((uint8_t *)out[q])[-(int)ver] = 0;
}

void
dfcp_gen_flush(struct dfcp_conn *c)
{
	uint32_t i = 0, n = c->n_gen, ver = dfcp_data_off(c) - DFCP_L2L4_LEN;
	const void *srcs[GEN_MAX], *const *src = NULL;

	c->n_gen = 0;
	/* sealed by an AEAD that can: the source symbols straight from their encoders */
	if (c->sess && !c->tx_aead.ops->in_place) {
		for (uint32_t q = 0; q < n; q++)
			srcs[q] = rq_enc_source(c->gen_enc[q], c->gen_esi[q]);
		src = srcs;
	}
	while (i < n) {
		uint32_t j = i + 1;

		while (j < n && c->gen_enc[j] == c->gen_enc[i])
			j++;
		gen_run(c, i, j, src, ver);
		i = j;
	}
	if (c->sess)
		dfcp_sess_seal(c, c->gen_out, src, n, ver);
	for (i = 0; c->has_auth && !c->sess && i < n; i++)
		dfcp_auth_sign(&c->auth, (uint8_t *)c->gen_out[i] - dfcp_data_off(c),
				ver + c->p.T);
	for (i = 0; c->conf.csum == DFCP_CSUM_FULL && i < n; i++)
		dfcp_udp_csum((uint8_t *)c->gen_out[i] - dfcp_data_off(c));
}
