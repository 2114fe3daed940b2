/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A frame's IPv4 5-tuple as lib/pipe's rules see it (struct pipe_flow): the
 * router's queue classification and the capture filters read frames with
 * this one parser. Hot path: inline, no allocation.
 */
#ifndef ENG_PKT_FLOW_H
#define ENG_PKT_FLOW_H

#include <netinet/in.h>
#include <stdint.h>

#include <rte_byteorder.h>
#include <rte_ether.h>
#include <rte_ip.h>
#include <rte_mbuf.h>

#include "pipe.h"

/* Ethernet [802.1Q] IPv4 [TCP/UDP/SCTP/UDP-Lite ports] -> f; 0 if not IPv4. */
static inline int
eng_pkt_flow(const struct rte_mbuf *m, struct pipe_flow *f)
{
	const uint8_t *d = rte_pktmbuf_mtod(m, const uint8_t *);
	const struct rte_ipv4_hdr *ip;
	uint32_t len = m->data_len, off = sizeof(struct rte_ether_hdr), ihl;
	uint16_t et;

	if (len < off + sizeof(*ip))
		return 0;
	et = ((const struct rte_ether_hdr *)d)->ether_type;
	if (et == rte_cpu_to_be_16(RTE_ETHER_TYPE_VLAN)) {
		off += sizeof(struct rte_vlan_hdr);
		if (len < off + sizeof(*ip))
			return 0;
		et = ((const struct rte_vlan_hdr *)(d + sizeof(struct rte_ether_hdr)))->eth_proto;
	}
	if (et != rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4))
		return 0;
	ip = (const struct rte_ipv4_hdr *)(d + off);
	ihl = (uint32_t)(ip->version_ihl & 0x0f) * 4;
	if ((ip->version_ihl >> 4) != 4 || ihl < sizeof(*ip))
		return 0;
	f->src = rte_be_to_cpu_32(ip->src_addr);
	f->dst = rte_be_to_cpu_32(ip->dst_addr);
	f->proto = ip->next_proto_id;
	f->sport = 0;
	f->dport = 0;
	if ((f->proto == IPPROTO_UDP || f->proto == IPPROTO_TCP || f->proto == IPPROTO_SCTP ||
			    f->proto == 136) &&
			!(ip->fragment_offset & rte_cpu_to_be_16(RTE_IPV4_HDR_OFFSET_MASK)) &&
			len >= off + ihl + 4) {
		const uint16_t *ports = (const uint16_t *)((const uint8_t *)ip + ihl);

		f->sport = rte_be_to_cpu_16(ports[0]);
		f->dport = rte_be_to_cpu_16(ports[1]);
	}
	return 1;
}

#endif /* ENG_PKT_FLOW_H */
