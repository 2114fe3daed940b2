/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the packet-generating tasks (dfcp, tcp, txonly):
 * the egress (core/egress.h: the port or an egress task's ring), the
 * pending-frame flush, ARP requests (tx.c).
 */
#ifndef ENG_TX_H
#define ENG_TX_H

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_mbuf.h>
#include <rte_ring.h>

#include "core/egress.h"

/*
 * A per-task stash of free mbufs for building frames in place. take: make n
 * mbufs available on top of stash[0..*nstash) (one bulk refill of `want`
 * when short; a failed refill counts in *no_mbuf) and put their data areas
 * in bufs; returns how many are available (<= n). commit: the first k of
 * those n became frames of lens[]: they leave the stash into out[], the
 * unused ones stay on top.
 */
static inline unsigned int
eng_stash_take(struct rte_mempool *pool, struct rte_mbuf **stash, unsigned int *nstash,
		unsigned int want, unsigned int n, void **bufs, uint64_t *no_mbuf)
{
	unsigned int i;

	if (*nstash < n) {
		if (rte_pktmbuf_alloc_bulk(pool, &stash[*nstash], want) == 0)
			*nstash += want;
		else
			(*no_mbuf)++;
		if (*nstash < n)
			n = *nstash;
	}
	for (i = 0; i < n; i++)
		bufs[i] = rte_pktmbuf_mtod(stash[*nstash - n + i], void *);
	return n;
}

static inline void
eng_stash_commit(struct rte_mbuf **stash, unsigned int *nstash, unsigned int n, unsigned int k,
		const uint16_t *lens, struct rte_mbuf **out)
{
	struct rte_mbuf **top = &stash[*nstash - n];
	unsigned int i;

	for (i = 0; i < k; i++) {
		out[i] = top[i];
		out[i]->data_len = lens[i];
		out[i]->pkt_len = lens[i];
	}
	for (i = k; i < n; i++)
		top[i - k] = top[i];
	*nstash -= k;
}

/* Hand n frames to the egress sched task (the flow's handle), or (sch NULL)
 * to the port tx queue. */
static inline uint16_t
eng_tx_burst(struct eng_egress_flow *sch, uint16_t port_id, uint16_t txq, struct rte_mbuf **pkts,
		uint16_t n)
{
	if (sch != NULL)
		return eng_egress_tx_burst(sch, pkts, n);
	return eng_port_tx(port_id, txq, pkts, n);
}

/*
 * Transmit the *npend frames pending at pend[*pend_off] (eng_tx_burst); what
 * leaves is added to *tx_packets / *tx_bytes, the rest stays pending.
 * Returns 1 when nothing is left pending.
 */
static inline int
eng_tx_pending(struct eng_egress_flow *sch, uint16_t port_id, uint16_t txq, struct rte_mbuf **pend,
		uint16_t *npend, uint16_t *pend_off, uint64_t *tx_packets, uint64_t *tx_bytes)
{
	struct rte_mbuf **pk = &pend[*pend_off];
	uint16_t n = *npend, sent;

	if (n == 0)
		return 1;
	sent = eng_tx_burst(sch, port_id, txq, pk, n);
	for (uint16_t i = 0; i < sent; i++)
		*tx_bytes += pk[i]->pkt_len;
	*tx_packets += sent;
	*npend = (uint16_t)(n - sent);
	*pend_off = *npend ? (uint16_t)(*pend_off + sent) : 0;
	return *npend == 0;
}

/*
 * An mbuf from pool holding a broadcast ARP request from mac / spa for tpa
 * (host order), at most cap bytes. Returns 0, -ENOMEM (no mbuf) or -EMSGSIZE.
 */
int eng_arp_request(struct rte_mempool *pool, uint16_t cap, const struct rte_ether_addr *mac,
		uint32_t spa, uint32_t tpa, struct rte_mbuf **out);

#endif /* ENG_TX_H */
