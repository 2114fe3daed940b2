/* SPDX-License-Identifier: BSD-3-Clause */
/* dfcp private definitions. */
#ifndef DFCP_PRIV_H
#define DFCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "dfcp.h"

/* Body lengths after the 12-byte common header. */
#define DFCP_SYN_BODY	24
#define DFCP_ACK_BODY	4
#define DFCP_DATA_BODY	12
#define DFCP_BACK_BODY	28
#define DFCP_FIN_BODY	12
#define DFCP_RST_BODY	4

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) << 32 | rd32(p + 4);
}

static inline void
wr16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v & 0xff;
}

static inline void
wr32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = (v >> 16) & 0xff;
	p[2] = (v >> 8) & 0xff;
	p[3] = v & 0xff;
}

static inline void
wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)(v >> 32));
	wr32(p + 4, (uint32_t)v);
}

void dfcp_finish_csum(uint8_t *f, enum dfcp_csum csum);

/* Connection internals used by the endpoint. */
struct dfcp_conn *dfcp_conn_accept(const struct dfcp_conn_conf *conf,
		uint32_t local_cid, const struct dfcp_pkt *syn,
		const struct dfcp_params *limits, uint64_t now);
int dfcp_conn_matches_syn(const struct dfcp_conn *c, const struct dfcp_pkt *syn);
/* Allocates the receiver buffers once established; returns 0 or -ENOMEM. */
int dfcp_conn_is_half_open(const struct dfcp_conn *c);

/* Auto redundancy: symbols to send so that >= need arrive w.h.p. at loss p. */
uint32_t dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap);

#endif /* DFCP_PRIV_H */
