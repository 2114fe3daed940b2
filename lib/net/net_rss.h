/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * net_rss: the Toeplitz hash of Receive Side Scaling (Microsoft RSS) and the
 * queue a NIC's redirection table (RETA) gives a hash. The engine places a
 * flow on the task whose rx queue a NIC doing RSS delivers the flow's frames
 * to, and programs the same key and table into ports that do RSS, so a
 * flow's packets meet one task. No DPDK calls (test/net checks the hash
 * against DPDK's rte_softrss() and the published verification vectors).
 */
#ifndef NET_RSS_H
#define NET_RSS_H

#include <stddef.h>
#include <stdint.h>

/* The RSS key the engine uses: the 40-byte default of Microsoft's RSS
 * specification (Intel's NICs and DPDK's testpmd use it as well). */
#define NET_RSS_KEY_LEN		40
extern const uint8_t net_rss_key_default[NET_RSS_KEY_LEN];

/*
 * The RETA the engine programs and places by: entry j is queue j % nb_queues.
 * 128 entries divide the tables of the common NICs (igb, ixgbe 128; i40e,
 * mlx5 512; ice 2048), so the same rule holds on each of them.
 */
#define NET_RSS_RETA_SIZE	128

/*
 * Toeplitz hash of data[0..n) under key[0..klen): for every set bit of the
 * input, most significant first, the 32 key bits starting at that bit
 * position are XORed into the result. Key bits past klen count as 0 (a key
 * covers an input of klen - 4 bytes).
 */
uint32_t net_toeplitz(const uint8_t *key, size_t klen, const void *data, size_t n);

/*
 * The RSS hash of an IPv4 frame with ports (TCP or UDP): the input is source
 * address, destination address, source port, destination port, in network
 * order (12 bytes). Addresses and ports in host order.
 */
uint32_t net_rss_ipv4_l4(const uint8_t *key, uint32_t src_ip, uint32_t dst_ip,
		uint16_t src_port, uint16_t dst_port);

/* The rx queue of hash h: entry h % NET_RSS_RETA_SIZE of the engine's RETA
 * over nb_queues queues (nb_queues > 0). */
static inline unsigned int
net_rss_queue(uint32_t h, unsigned int nb_queues)
{
	return (h % NET_RSS_RETA_SIZE) % nb_queues;
}

#endif /* NET_RSS_H */
