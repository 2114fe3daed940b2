/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Building one test frame (pkt.h) of a txonly multi-flow sender (txflows.c)
 * in an mbuf. Two forms, the same result (test/engine/test_txbuild.c checks
 * it field by field):
 *
 * - eng_txf_build_ref(): the plain one, on an mbuf from
 *   rte_pktmbuf_alloc_bulk() (rte_pktmbuf_reset() first, as that does).
 * - eng_txf_build(): on a raw mbuf from rte_mempool_get_bulk(). A pool's
 *   free mbufs have refcnt 1, nb_segs 1 and next NULL (every free path
 *   restores them, rte_mbuf_raw_alloc() relies on it), so only the fields
 *   of the first cache line that the reset would change are written, and
 *   the second line (next, tx_offload) only when an offload needs
 *   l2_len / l3_len. Through a sched task that line then stays clean: the
 *   sched lcore reads it (the free) without taking it over from this lcore
 *   once per packet (doc/scheduler.md, "Per-packet cycle budget").
 */
#ifndef ENG_TXBUILD_H
#define ENG_TXBUILD_H

#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_mbuf.h>
#include <rte_memcpy.h>

#include "kinds/gen/pkt.h"

#define ENG_TXF_IP_OFF (14 + 12)	/* IPv4 source address */
#define ENG_TXF_CKSUM_OFF (14 + 10)	/* IPv4 header checksum */
#define ENG_TXF_PORT_OFF (14 + 20)	/* UDP source port */

/* A stream: what differs from the template, and its next sequence number. */
struct eng_txflow {
	uint64_t seq;
	rte_be32_t ip;
	rte_be16_t port;
	rte_be16_t cksum;
};

/* What every frame of the sender shares. */
struct eng_txf_frame {
	uint16_t data_len;	/* frame without FCS */
	uint64_t ol_flags;	/* tx offloads (0: none) */
	uint8_t tmpl[ENG_PKT_HDR_LEN]; /* flow 0's headers */
};

/* The stream's fields into the headers copied from the template, the payload. */
static inline void
eng_txf_write(const struct eng_txf_frame *fr, struct eng_txflow *fl, uint8_t *d, uint64_t now)
{
	struct eng_pkt_payload *pl = (struct eng_pkt_payload *)(d + ENG_PKT_HDR_LEN);

	rte_memcpy(d, fr->tmpl, ENG_PKT_HDR_LEN);
	memcpy(d + ENG_TXF_IP_OFF, &fl->ip, sizeof(fl->ip));
	memcpy(d + ENG_TXF_CKSUM_OFF, &fl->cksum, sizeof(fl->cksum));
	memcpy(d + ENG_TXF_PORT_OFF, &fl->port, sizeof(fl->port));
	pl->seq = fl->seq++;
	pl->tsc = now;
	pl->magic = ENG_PKT_MAGIC;
}

/* Reference: an mbuf as rte_pktmbuf_alloc() returns it (reset here). */
static inline void
eng_txf_build_ref(const struct eng_txf_frame *fr, struct eng_txflow *fl, struct rte_mbuf *m,
		uint64_t now)
{
	rte_pktmbuf_reset(m);
	eng_txf_write(fr, fl, rte_pktmbuf_mtod(m, uint8_t *), now);
	m->data_len = fr->data_len;
	m->pkt_len = fr->data_len;
	m->ol_flags |= fr->ol_flags;
	m->l2_len = 14;
	m->l3_len = 20;
}

/* The lines eng_txf_build() writes: the first one and the data's. */
static inline void
eng_txf_prefetch(struct rte_mbuf *m, uint32_t data_off)
{
	__builtin_prefetch(m, 1, 3); /* rte_prefetch0_write, experimental in DPDK 22.11 */
	__builtin_prefetch((char *)m + data_off, 1, 3);
}

/* Offset of a raw mbuf's data from the mbuf, for eng_txf_prefetch(). */
static inline uint32_t
eng_txf_data_off(const struct rte_mempool *pool)
{
	return (uint32_t)(sizeof(struct rte_mbuf) + rte_pktmbuf_priv_size((struct rte_mempool *)pool) +
			RTE_PKTMBUF_HEADROOM);
}

/* A raw mbuf from the pool (refcnt 1, nb_segs 1, next NULL): the same
 * mbuf as eng_txf_build_ref() makes, except tx_offload, which is left as it
 * was when no offload flag is set (no driver reads it then). */
static inline void
eng_txf_build(const struct eng_txf_frame *fr, struct eng_txflow *fl, struct rte_mbuf *m,
		uint64_t now)
{
	m->data_off = (uint16_t)RTE_MIN((uint16_t)RTE_PKTMBUF_HEADROOM, m->buf_len);
	m->port = RTE_MBUF_PORT_INVALID;
	m->ol_flags = (m->ol_flags & RTE_MBUF_F_EXTERNAL) | fr->ol_flags;
	m->packet_type = 0;
	m->pkt_len = fr->data_len;
	m->data_len = fr->data_len;
	m->vlan_tci = 0;
	m->vlan_tci_outer = 0;
	eng_txf_write(fr, fl, rte_pktmbuf_mtod(m, uint8_t *), now);
	if (fr->ol_flags != 0) {
		m->tx_offload = 0;
		m->l2_len = 14;
		m->l3_len = 20;
	}
}

#endif /* ENG_TXBUILD_H */
