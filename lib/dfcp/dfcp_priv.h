/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp private definitions. */
#ifndef DFCP_PRIV_H
#define DFCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "dfcp.h"
#include "net.h"

/* Body lengths after the 12-byte common header. */
#define DFCP_SYN_BODY	24
#define DFCP_ACK_BODY	4
#define DFCP_DATA_BODY	12
#define DFCP_BACK_BODY	28
#define DFCP_FIN_BODY	12
#define DFCP_RST_BODY	4

void dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum);

/* Connection internals used by the endpoint. */
struct dfcp_conn *dfcp_conn_accept(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, uint64_t now);
int dfcp_conn_matches_syn(const struct dfcp_conn *c, const struct dfcp_pkt *syn);
/* Allocates the receiver buffers once established; returns 0 or -ENOMEM. */
int dfcp_conn_is_half_open(const struct dfcp_conn *c);

/* Auto redundancy, first round: smallest N with mean - 1 sd of arrivals >= need at loss p. */
uint32_t dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap);

#endif /* DFCP_PRIV_H */
