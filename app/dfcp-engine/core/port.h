/* SPDX-License-Identifier: BSD-3-Clause */
/* Ports at run time (port.c): create or find, configure, start, stats, close. */
#ifndef ENG_PORT_H
#define ENG_PORT_H

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

struct eng_config;
struct eng_runtime;
struct rte_mempool;
struct rte_ring;

struct eng_port_stats {
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_missed, rx_errors, tx_errors, rx_nombuf;
	uint64_t kernel_rx_dropped, kernel_tx_dropped;	/* port_kernel.c */
};

#define ENG_PORT_MAX_QUEUES 16

/* Bytes received on one rx queue of a ring port (port_bytes.c), one writer. */
struct eng_port_qbytes {
	uint64_t bytes;
} __rte_cache_aligned;

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
	/* ring:WIRE ports: bytes counted by the engine (port_bytes.c) */
	int bytes_peer;               /* its tx bytes are this port's rx bytes; -1: device counts */
	unsigned int nb_bytes_cb;
	void *bytes_cb[ENG_PORT_MAX_QUEUES];
	struct eng_port_qbytes qbytes[ENG_PORT_MAX_QUEUES];
	/* a kernel interface's drops (port_kernel.c): "" when the port has none */
	char iface[32];
	unsigned int nb_ksock;
	int ksock[ENG_PORT_MAX_QUEUES];	/* the driver's packet sockets on it */
	uint64_t ksock_drops;		/* their PACKET_STATISTICS drops, summed */
};

/*
 * Before EAL starts: every port's device (dev_line[i]: the line of port i's
 * device key) and every [eal] args --vdev that names a net_* vdev must start
 * with the name of a vdev driver DPDK has (core/devargs.h); else -ENODEV and
 * "FILE:LINE: [port NAME] device: no DPDK driver for ..." in err, with the
 * closest driver as a hint. No EAL calls.
 */
int eng_ports_check_devices(const struct eng_config *cfg, const int *dev_line, char *err,
		size_t errlen);
int eng_ports_probe(struct eng_runtime *rt);
int eng_ports_start(struct eng_runtime *rt);
void eng_ports_close(struct eng_runtime *rt);
void eng_port_stats_read(struct eng_runtime *rt, unsigned int idx, struct eng_port_stats *out);
/* Engine byte counters of ring ports: set up after start, read (rx, tx), remove. */
int eng_port_bytes_setup(struct eng_runtime *rt, unsigned int idx);
void eng_port_bytes_read(struct eng_runtime *rt, unsigned int idx, uint64_t *rx, uint64_t *tx);
void eng_port_bytes_close(struct eng_runtime *rt, unsigned int idx);
/* What the kernel dropped on the port's interface (port_kernel.c): found after start, read. */
void eng_port_kernel_setup(struct eng_runtime *rt, unsigned int idx);
void eng_port_kernel_read(struct eng_runtime *rt, unsigned int idx, uint64_t *rx_dropped,
		uint64_t *tx_dropped);

#endif /* ENG_PORT_H */
