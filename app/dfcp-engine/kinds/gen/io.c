/* SPDX-License-Identifier: BSD-3-Clause */
/* io: forward every packet from rx_port to tx_port unchanged (testpmd "io"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_ethdev.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include "core/egress.h"
#include "core/runtime.h"
#include "core/task.h"

struct io_priv {
	uint16_t rx_port, rxq, tx_port, txq;
	uint64_t rx_packets, rx_bytes, tx_packets, tx_bytes, tx_dropped;
} __rte_cache_aligned;

static int
io_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg)
{
	int rc;

	rc = eng_task_parse_port(t, sec, cfg, "rx_port", "rxq", NULL, 1);
	if (rc == 0)
		rc = eng_task_parse_port(t, sec, cfg, "tx_port", NULL, "txq", 1);
	return rc;
}

static int
io_setup(struct eng_task *t, struct eng_runtime *rt, int socket)
{
	struct io_priv *p;

	p = rte_zmalloc_socket("io", sizeof(*p), RTE_CACHE_LINE_SIZE, socket);
	if (p == NULL)
		return -ENOMEM;
	p->rx_port = rt->ports[t->ports[0].port_idx].port_id;
	p->rxq = t->ports[0].rxq;
	p->tx_port = rt->ports[t->ports[1].port_idx].port_id;
	p->txq = t->ports[1].txq;
	t->priv = p;
	return 0;
}

static uint16_t
io_poll(struct eng_task *t, uint64_t now)
{
	struct io_priv *p = t->priv;
	struct rte_mbuf *pkts[512];
	uint16_t n, sent, i;
	uint64_t bytes = 0;

	RTE_SET_USED(now);
	n = rte_eth_rx_burst(p->rx_port, p->rxq, pkts, t->burst);
	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		bytes += pkts[i]->pkt_len;
	p->rx_packets += n;
	p->rx_bytes += bytes;
	sent = eng_port_tx(p->tx_port, p->txq, pkts, n);
	for (i = sent; i < n; i++)
		bytes -= pkts[i]->pkt_len;
	if (sent < n) {
		rte_pktmbuf_free_bulk(&pkts[sent], n - sent);
		p->tx_dropped += n - sent;
	}
	p->tx_packets += sent;
	p->tx_bytes += bytes;
	return n;
}

static void
io_stats(const struct eng_task *t, struct eng_task_stats *out)
{
	const struct io_priv *p = t->priv;

	memset(out, 0, sizeof(*out));
	if (p == NULL)
		return;
	out->rx_packets = p->rx_packets;
	out->rx_bytes = p->rx_bytes;
	out->tx_packets = p->tx_packets;
	out->tx_bytes = p->tx_bytes;
	out->tx_dropped = p->tx_dropped;
}

static void
io_teardown(struct eng_task *t)
{
	rte_free(t->priv);
	t->priv = NULL;
}

const struct eng_task_ops eng_task_io = {
	.name = "io",
	.help = "forward packets from rx_port to tx_port unchanged",
	.parse = io_parse,
	.setup = io_setup,
	.poll = io_poll,
	.stats = io_stats,
	.teardown = io_teardown,
};
