/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports at run time (port.c): create or find, configure, start, stats, close. */
#ifndef ENG_PORT_H
#define ENG_PORT_H

#include <stdint.h>

#include <rte_ether.h>

struct eng_runtime;
struct rte_mempool;
struct rte_ring;

struct eng_port_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_missed, rx_errors, tx_errors, rx_nombuf;
};

struct eng_port {
	uint16_t port_id;
	int socket;
	int started;
	int created;              /* created by the engine (ring ports): free on exit */
	struct rte_mempool *pool;
	struct rte_ether_addr mac;
	uint64_t rx_offloads, tx_offloads; /* as enabled after the capability check */
	struct rte_ring *rings[2 * 16];
	unsigned int nb_rings;
	struct eng_port_stats base;   /* at start (stats reset may be unsupported) */
	struct eng_port_stats last;   /* at the previous periodic print */
	uint64_t last_tsc;
};

int eng_ports_probe(struct eng_runtime *rt);
int eng_ports_start(struct eng_runtime *rt);
void eng_ports_close(struct eng_runtime *rt);
void eng_port_stats_read(struct eng_runtime *rt, unsigned int idx, struct eng_port_stats *out);

#endif /* ENG_PORT_H */
