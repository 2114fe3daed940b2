/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport skeleton's receive side: one rx burst of the task's queue
 * and its inbox, each frame to its endpoint (the port's demux table), handed
 * to the task of the port that owns it, or to the adapter's stray (ARP).
 */
#include <rte_ethdev.h>
#include <rte_mbuf.h>
#include <rte_prefetch.h>
#include <rte_ring.h>

#include "core/log.h"
#include "kinds/xport/xport.h"
#include "kinds/xport/xport_demux.h"
#include "net.h"

#define RX_PREFETCH		4u		/* frames ahead */

/*
 * A frame for endpoint e of another task of the port: into this burst's
 * hand-over list (flushed to the owners' inboxes after the burst); 0 when
 * the list is full (the frame is dropped as full).
 */
static inline int
hand_over(struct eng_xtask *x, const struct eng_xtask *owner, struct rte_mbuf *m)
{
	if (x->nhand == ENG_XPORT_MAX_BURST) {
		x->disp.full++;
		return 0;
	}
	x->hand[x->nhand] = m;
	x->hand_to[x->nhand++] = (uint16_t)owner->pp_idx;
	return 1;
}

/* This burst's hand-overs into their owners' inboxes, one burst per owner. */
static void
hand_flush(struct eng_xtask *x)
{
	const struct eng_xport_port *pp = x->pp;
	struct rte_mbuf *b[ENG_XPORT_MAX_BURST];
	unsigned int d, i, k, n;

	for (d = 0; d < pp->nb_reg && x->nhand != 0; d++) {
		for (i = 0, k = 0; i < x->nhand; i++)
			if (x->hand_to[i] == d)
				b[k++] = x->hand[i];
		if (k == 0)
			continue;
		n = pp->tasks[d] != NULL ? rte_ring_enqueue_burst(pp->tasks[d]->inbox,
				(void *const *)b, k, NULL) : 0;
		x->disp.out += n;
		if (n < k) {
			x->disp.full += k - n;
			rte_pktmbuf_free_bulk(b + n, k - n);
		}
	}
	x->nhand = 0;
}

/* An ARP reply reached this task: every other task of the port sees it too
 * (one reference each: their senders may wait for the same answer). */
static void
arp_share(struct eng_xtask *x, struct rte_mbuf *m)
{
	const struct eng_xport_port *pp = x->pp;
	unsigned int d;

	for (d = 0; d < pp->nb_reg; d++) {
		if (d == x->pp_idx || pp->tasks[d] == NULL)
			continue;
		rte_mbuf_refcnt_update(m, 1);
		if (!hand_over(x, pp->tasks[d], m))
			rte_mbuf_refcnt_update(m, -1);
	}
}

/* A reply from sender f's peer address: learned only when it answers our
 * request (lib/net's entry); a conflict is logged once per flow. 1: taken. */
static int
arp_reply(struct eng_xtask *x, struct eng_xflow *f, const struct net_arp *a, uint64_t now)
{
	uint64_t seen = f->arp.conflicts;
	const uint8_t *m = a->sha, *k = f->arp.mac;

	switch (net_arp_entry_reply(&f->arp, a, f->fc->local_ip, x->mac.addr_bytes, now)) {
	case NET_ARP_V_LEARNED:
		f->resolved = 1;
		x->ops->resolved(f, a->sha);
		return 1;
	case NET_ARP_V_SAME:
		return 1;
	case NET_ARP_V_RECHECK:
		f->arp_recheck = 1;
		/* fall through */
	case NET_ARP_V_CONFLICT:
		if (seen == 0)
			ENG_LOG(WARNING, task, "task %s: flow %s: ARP reply for %u.%u.%u.%u names "
					"%02x:%02x:%02x:%02x:%02x:%02x, not its %s "
					"%02x:%02x:%02x:%02x:%02x:%02x: ignored%s (counted as "
					"arp_conflicts, logged once)", x->t->name, f->fc->name,
					a->spa >> 24, (a->spa >> 16) & 255, (a->spa >> 8) & 255,
					a->spa & 255, m[0], m[1], m[2], m[3], m[4], m[5],
					f->arp.state == NET_ARP_PINNED ? "pinned" : "resolved",
					k[0], k[1], k[2], k[3], k[4], k[5],
					f->arp.state == NET_ARP_PINNED ? "" : ", asked again");
		return 0;
	default:
		return 0;
	}
}

/* handed: it came from the inbox (no second hand-over); 1: handed to its owner */
static int
rx_arp(struct eng_xtask *x, struct rte_mbuf *m, const uint8_t *d, uint16_t len, uint64_t now,
		int handed)
{
	struct net_arp arp;
	struct eng_xep *e;
	unsigned int i;
	int hit = 0;

	if (net_arp_parse(d, len, &arp) < 0) {
		x->ops->stray(x, m);
		x->cnt.rx_bad++;
		return 0;
	}
	if (arp.op == NET_ARP_REPLY && x->inbox != NULL && !handed)
		arp_share(x, m);
	if (arp.op == NET_ARP_REPLY)
		for (i = 0; i < x->nb_flows; i++) {
			struct eng_xflow *f = &x->flows[i];

			if (f->fc->role == ENG_FLOW_SENDER && arp.spa == f->fc->remote_ip)
				hit |= arp_reply(x, f, &arp, now);
		}
	if (arp.op == NET_ARP_REQUEST && !hit &&
			(e = eng_demux_find_ip(x->pp->dmx, arp.tpa)) != NULL) {
		if (e->x != x)
			return !handed && hand_over(x, e->x, m);
		x->ops->rx(e, m, now);	/* the endpoint answers */
		eng_due_wake(&x->due, (uint32_t)(e - x->eps));
		hit = 1;
	}
	if (hit)
		x->cnt.rx_valid++;
	else
		x->cnt.rx_other++;
	return 0;
}

/*
 * One received frame: to its endpoint (the port's table), handed to the
 * task that owns it, or the adapter's stray. 1: handed over (not to be
 * freed here). handed: it came from the inbox.
 */
static int
rx_frame(struct eng_xtask *x, struct rte_mbuf *m, uint64_t now, int handed)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	uint16_t len = m->data_len;
	struct eng_xep *e;
	uint32_t l3;

	if (m->nb_segs != 1) {
		x->rx_segmented++;
		x->cnt.rx_bad++;
		return 0;
	}
	if (len >= NET_ETH_LEN && net_rd16(d + 12) == NET_ETHERTYPE_ARP)
		return rx_arp(x, m, d, len, now, handed);
	l3 = len >= NET_ETH_LEN + 20 ? (uint32_t)(d[14] & 0x0f) * 4u : 0;
	if (l3 >= 20 && net_rd16(d + 12) == NET_ETHERTYPE_IPV4 && (d[14] >> 4) == 4 &&
			len >= NET_ETH_LEN + l3 + 4 &&
			(e = eng_demux_find(x->pp->dmx, net_rd32(d + 30),
					net_rd16(d + NET_ETH_LEN + l3 + 2))) != NULL) {
		if (e->x != x) {
			if (!handed)
				return hand_over(x, e->x, m);
			x->cnt.rx_other++;	/* cannot happen: the owner handed it back */
			return 0;
		}
		if (x->ops->rx(e, m, now) < 0)
			x->cnt.rx_bad++;
		else
			x->cnt.rx_valid++;
		eng_due_wake(&x->due, (uint32_t)(e - x->eps));
		return 0;
	}
	if (x->ops->stray(x, m))
		x->cnt.rx_bad++;
	else
		x->cnt.rx_other++;
	return 0;
}

/*
 * The rest of a frame's bytes (past the two header lines) while the frame
 * before it is handled: its checksum is the first to read them, from the
 * cache of the lcore that wrote them.
 */
static inline void
prefetch_payload(const struct rte_mbuf *m)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);

	for (uint32_t o = 2 * RTE_CACHE_LINE_SIZE; o < m->data_len; o += RTE_CACHE_LINE_SIZE)
		rte_prefetch0(d + o);
}

/* What the adapter's rx held of the frames: handled before they are freed. */
static inline void
rx_flush(struct eng_xtask *x, uint64_t now)
{
	unsigned int bad;

	if (x->ops->rx_flush == NULL)
		return;
	bad = x->ops->rx_flush(x, now);
	x->cnt.rx_valid -= bad;
	x->cnt.rx_bad += bad;
}

/* The rx burst and the inbox: the frames received. */
uint16_t
eng_xport_rx(struct eng_xtask *x, uint64_t now)
{
	struct rte_mbuf *pkts[ENG_XPORT_MAX_BURST];
	uint16_t n, i;

	n = rte_eth_rx_burst(x->port_id, x->rxq, pkts, x->burst);
	/* mbuf headers RX_PREFETCH frames ahead, frame headers half as far */
	for (i = 0; i < n && i < RX_PREFETCH; i++)
		rte_prefetch0(pkts[i]);
	for (i = 0; i < n; i++) {
		if (i + RX_PREFETCH < n)
			rte_prefetch0(pkts[i + RX_PREFETCH]);
		if (i + RX_PREFETCH / 2 < n) {
			const uint8_t *d = rte_pktmbuf_mtod(pkts[i + RX_PREFETCH / 2], const uint8_t *);

			rte_prefetch0(d);
			rte_prefetch0(d + RTE_CACHE_LINE_SIZE);
		}
		if (i + 1 < n)
			prefetch_payload(pkts[i + 1]);
		x->cnt.rx_bytes += pkts[i]->pkt_len;
		if (rx_frame(x, pkts[i], now, 0))
			pkts[i] = NULL;	/* handed to its owner */
	}
	if (n != 0) {
		x->cnt.rx_packets += n;
		rx_flush(x, now);
		rte_pktmbuf_free_bulk(pkts, n);
	}
	if (x->inbox != NULL) {
		uint16_t k;

		if (x->nhand != 0)
			hand_flush(x);
		/* what the other tasks of the port received for this one */
		k = (uint16_t)rte_ring_sc_dequeue_burst(x->inbox, (void **)pkts, x->burst, NULL);
		for (i = 0; i < k; i++)
			rx_frame(x, pkts[i], now, 1);
		if (k != 0) {
			x->disp.in += k;
			rx_flush(x, now);
			rte_pktmbuf_free_bulk(pkts, k);
		}
		n += k;
	}
	return n;
}
