/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers shared by the packet-generating tasks (tx.h). */
#include <errno.h>
#include <string.h>

#include <rte_mbuf.h>

#include "core/tx.h"
#include "net.h"

int
eng_arp_request(struct rte_mempool *pool, uint16_t cap, const struct rte_ether_addr *mac,
		uint32_t spa, uint32_t tpa, struct rte_mbuf **out)
{
	struct net_arp req;
	struct rte_mbuf *m;
	int len;

	m = rte_pktmbuf_alloc(pool);
	if (m == NULL)
		return -ENOMEM;
	memset(&req, 0, sizeof(req));
	req.op = NET_ARP_REQUEST;
	memcpy(req.sha, mac->addr_bytes, 6);
	req.spa = spa;
	req.tpa = tpa;
	len = net_arp_build(rte_pktmbuf_mtod(m, void *), cap, &req);
	if (len <= 0) {
		rte_pktmbuf_free(m);
		return len < 0 ? len : -EMSGSIZE;
	}
	m->data_len = m->pkt_len = (uint16_t)len;
	*out = m;
	return 0;
}
