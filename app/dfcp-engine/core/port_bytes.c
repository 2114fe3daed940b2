/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Byte counters of ring:WIRE ports. net_ring (DPDK 22.11) counts packets but
 * no bytes, so the engine counts them itself: an rx callback per rx queue adds
 * the bytes of what each rx burst returned (exactly what was received, one
 * writer per queue). A wire's tx queues feed its peer's rx queues, so a ring
 * port's tx bytes are the bytes its peer (itself when alone on the wire) has
 * received: frames still in the ring are not counted until they are read.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_ethdev.h>
#include <rte_malloc.h>

#include "config/config.h"
#include "core/log.h"
#include "core/runtime.h"

static uint16_t
bytes_rx_cb(uint16_t port_id, uint16_t queue, struct rte_mbuf **pkts, uint16_t n,
		uint16_t max, void *arg)
{
	struct eng_port_qbytes *qb = arg;
	uint64_t b = 0;
	uint16_t i;

	RTE_SET_USED(port_id);
	RTE_SET_USED(queue);
	RTE_SET_USED(max);
	for (i = 0; i < n; i++)
		b += pkts[i]->pkt_len;
	__atomic_store_n(&qb->bytes, qb->bytes + b, __ATOMIC_RELAXED);
	return n;
}

int
eng_port_bytes_setup(struct eng_runtime *rt, unsigned int idx)
{
	const struct eng_config *cfg = rt->cfg;
	const struct eng_port_conf *pc = &cfg->ports[idx];
	struct eng_port *port = &rt->ports[idx];
	unsigned int i, q;

	port->bytes_peer = -1;
	if (port->created != 1) /* not a ring:WIRE port: the device counts bytes */
		return 0;
	for (q = 0; q < pc->rx_queues && q < ENG_PORT_MAX_QUEUES; q++) {
		port->qbytes[q].bytes = 0;
		port->bytes_cb[q] = (void *)(uintptr_t)rte_eth_add_rx_callback(port->port_id, (uint16_t)q,
				bytes_rx_cb, &port->qbytes[q]);
		if (port->bytes_cb[q] == NULL) {
			ENG_LOG(ERR, port, "port %s: rx byte counter on queue %u: %s", pc->name, q,
					rte_strerror(rte_errno));
			return -ENOTSUP;
		}
		port->nb_bytes_cb = q + 1;
	}
	port->bytes_peer = (int)idx;
	for (i = 0; i < cfg->nb_ports; i++)
		if (i != idx && strcmp(cfg->ports[i].device, pc->device) == 0)
			port->bytes_peer = (int)i;
	return 0;
}

static uint64_t
rx_bytes_of(const struct eng_port *port)
{
	uint64_t b = 0;
	unsigned int q;

	for (q = 0; q < port->nb_bytes_cb; q++)
		b += __atomic_load_n(&port->qbytes[q].bytes, __ATOMIC_RELAXED);
	return b;
}

void
eng_port_bytes_read(struct eng_runtime *rt, unsigned int idx, uint64_t *rx, uint64_t *tx)
{
	const struct eng_port *port = &rt->ports[idx];

	if (port->bytes_peer < 0)
		return;
	*rx = rx_bytes_of(port);
	*tx = rx_bytes_of(&rt->ports[port->bytes_peer]);
}

void
eng_port_bytes_close(struct eng_runtime *rt, unsigned int idx)
{
	struct eng_port *port = &rt->ports[idx];
	unsigned int q;

	/* the lcores have stopped: no callback is running */
	for (q = 0; q < port->nb_bytes_cb; q++)
		if (rte_eth_remove_rx_callback(port->port_id, (uint16_t)q, port->bytes_cb[q]) == 0)
			rte_free(port->bytes_cb[q]);
	port->nb_bytes_cb = 0;
}
