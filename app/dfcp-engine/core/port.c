/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Ports: find or create the device, configure queues and offloads within the
 * device's capabilities, start, read stats, close.
 *
 * device = ring:WIRE creates a net_ring port in code (rte_eth_from_rings):
 * two ports naming the same WIRE are joined back to back (the tx queue q of
 * one feeds the rx queue q of the other); a port alone on its WIRE loops back
 * to itself. Anything else is an ethdev name ("net_ring0", a PCI address)
 * probed by EAL, or devargs ("net_af_packet0,iface=veth0") hot-plugged with
 * rte_dev_probe() when no port of that name exists yet. Before EAL starts,
 * the config loader has every net_* name checked against the vdev drivers
 * DPDK has (eng_ports_check_devices(), no EAL calls).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eth_ring.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_ring.h>

#include "net_rss.h"

#include "config/config.h"
#include "core/devargs.h"
#include "core/eal_clean.h"
#include "core/log.h"
#include "core/runtime.h"

static int
ring_port_create(struct eng_runtime *rt, unsigned int idx)
{
	const struct eng_config *cfg = rt->cfg;
	const struct eng_port_conf *pc = &cfg->ports[idx];
	struct eng_port *port = &rt->ports[idx];
	struct rte_ring *rx[16], *tx[16];
	unsigned int peer = idx, first = idx, i, q, size;
	char name[RTE_RING_NAMESIZE], dev[RTE_ETH_NAME_MAX_LEN];
	int pid;

	for (i = 0; i < cfg->nb_ports; i++)
		if (i != idx && strcmp(cfg->ports[i].device, pc->device) == 0)
			peer = i;
	first = RTE_MIN(idx, peer);
	size = rte_align32pow2(RTE_MAX(RTE_MAX(pc->rx_desc, pc->tx_desc),
			RTE_MAX(cfg->ports[peer].rx_desc, cfg->ports[peer].tx_desc)));
	/* Rings are named after the wire's first port: "ew<first>_<dir>_<q>"; dir a is
	 * first -> other, b is other -> first; a lone port uses "l" for both. */
	for (q = 0; q < RTE_MAX(pc->rx_queues, pc->tx_queues); q++) {
		struct rte_ring *r[2];
		int d;

		for (d = 0; d < 2; d++) {
			char dir = peer == idx ? 'l' : (d == 0) ? 'a' : 'b';

			snprintf(name, sizeof(name), "ew%u_%c_%u", first, dir, q);
			r[d] = rte_ring_lookup(name);
			if (r[d] == NULL) {
				r[d] = rte_ring_create(name, size, port->socket,
						RING_F_SP_ENQ | RING_F_SC_DEQ);
				if (r[d] == NULL) {
					ENG_LOG(ERR, port, "port %s: cannot create ring %s: %s",
							pc->name, name, rte_strerror(rte_errno));
					return -ENOMEM;
				}
				port->rings[port->nb_rings++] = r[d];
			}
		}
		/* r[0] = a (first -> other), r[1] = b (other -> first) */
		if (idx == first) {
			tx[q] = r[0];
			rx[q] = r[1];
		} else {
			tx[q] = r[1];
			rx[q] = r[0];
		}
		if (peer == idx)
			rx[q] = tx[q];
	}
	snprintf(dev, sizeof(dev), "net_ring_%s", pc->name);
	pid = rte_eth_from_rings(dev, rx, pc->rx_queues, tx, pc->tx_queues,
			(unsigned int)port->socket);
	if (pid < 0) {
		ENG_LOG(ERR, port, "port %s: rte_eth_from_rings failed: %s", pc->name,
				rte_strerror(rte_errno));
		return -EINVAL;
	}
	port->port_id = (uint16_t)pid;
	port->created = 1;
	return 0;
}

static int
is_sys_fs_bpf(const char *dir, void *arg)
{
	(void)arg;
	return strcmp(dir, "/sys/fs/bpf") == 0;
}

/* 1 when a bpf file system is mounted at /sys/fs/bpf. */
static int
bpffs_mounted(void)
{
	return eng_mounts_each("/proc/mounts", "bpf", is_sys_fs_bpf, NULL);
}

/*
 * What net_af_xdp needs from the host, said once at start: hugepages (without
 * them its sockets received nothing here: every frame was counted as
 * rx_missed) and bpffs for libxdp's multi-program dispatcher.
 */
static void
af_xdp_check(const char *port)
{
	if (!rte_eal_has_hugepages())
		ENG_LOG(WARNING, port, "port %s: net_af_xdp under --no-huge: its umem may receive "
				"nothing (frames counted as rx_missed); run with hugepages "
				"(doc/config.md, \"Running on a real host\")",
				port);
	if (!bpffs_mounted())
		ENG_LOG(WARNING, port, "port %s: /sys/fs/bpf is not a bpf file system: libxdp loads "
				"its program without the dispatcher (one XDP program per interface); "
				"mount -t bpf bpf /sys/fs/bpf (inside the namespace under ip netns exec)",
				port);
}

/* Queue-count device arguments of kernel-interface vdevs: one socket a queue pair. */
static const struct {
	const char *driver; /* prefix of the vdev name */
	const char *key;
} devargs_queues[] = {
	{"net_af_packet", "qpairs"},
	{"net_af_xdp", "queue_count"},
};

/*
 * The string to hot-plug: the device as written, with the preset's and the
 * section's devargs for keys it does not set itself, and the queue count of a
 * kernel-interface vdev when it has several queues and none is given.
 */
static int
device_probe_args(const struct eng_port_conf *pc, const char *name, size_t n, char *out,
		size_t len)
{
	char args[CFG_VALUE_LEN], q[32];
	const char *own = pc->device[n] == ',' ? pc->device + n + 1 : "";
	unsigned int i, nq = RTE_MAX(pc->rx_queues, pc->tx_queues);

	snprintf(args, sizeof(args), "%s", pc->devargs);
	for (i = 0; i < RTE_DIM(devargs_queues); i++)
		if (nq > 1 && strncmp(name, devargs_queues[i].driver,
				strlen(devargs_queues[i].driver)) == 0 &&
				!eng_devargs_has(args, devargs_queues[i].key) &&
				!eng_devargs_has(own, devargs_queues[i].key)) {
			snprintf(q, sizeof(q), "%s=%u", devargs_queues[i].key, nq);
			if (eng_devargs_merge(args, sizeof(args), q) < 0)
				return -ENOSPC;
		}
	if (eng_devargs_merge(args, sizeof(args), own) < 0)
		return -ENOSPC;
	if ((size_t)snprintf(out, len, "%s%s%s", name, args[0] != '\0' ? "," : "", args) >= len)
		return -ENOSPC;
	return 0;
}

static int
device_port_find(struct eng_runtime *rt, unsigned int idx)
{
	const struct eng_port_conf *pc = &rt->cfg->ports[idx];
	char name[RTE_ETH_NAME_MAX_LEN];
	const char *comma = strchr(pc->device, ',');
	size_t n = comma ? (size_t)(comma - pc->device) : strlen(pc->device);
	uint16_t pid;
	int rc;

	/* "01:00.0" -> "0000:01:00.0", the ethdev name of a PCI device */
	if (n == 7 && pc->device[2] == ':' && pc->device[5] == '.')
		snprintf(name, sizeof(name), "0000:%.*s", (int)n, pc->device);
	else
		snprintf(name, sizeof(name), "%.*s", (int)n, pc->device);
	if (rte_eth_dev_get_port_by_name(name, &pid) != 0) {
		char probe[CFG_VALUE_LEN * 2];

		rc = device_probe_args(pc, name, n, probe, sizeof(probe));
		if (rc < 0) {
			ENG_LOG(ERR, port, "port %s: device and devargs together are too long",
					pc->name);
			return rc;
		}
		rc = rte_dev_probe(probe);
		if (rc < 0 || rte_eth_dev_get_port_by_name(name, &pid) != 0) {
			ENG_LOG(ERR, port, "port %s: no device \"%s\" (probe: %s); expected ring:WIRE, "
					"a vdev such as net_af_packet0,iface=eth0, or a PCI address "
					"allowed by EAL",
					pc->name, probe, rte_strerror(-rc));
			return -ENODEV;
		}
		if (strcmp(probe, pc->device) != 0)
			ENG_LOG(INFO, port, "port %s: created %s", pc->name, probe);
		if (strncmp(name, "net_af_xdp", 10) == 0)
			af_xdp_check(pc->name);
		rt->ports[idx].created = 2;
	} else if (pc->devargs[0] != '\0') {
		ENG_LOG(WARNING, port, "port %s: device %s exists already (an EAL --vdev or PCI "
				"probe): its devargs \"%s\" (preset %s) are not applied; write the vdev "
				"in device = instead of --vdev to have them",
				pc->name, name, pc->devargs, pc->preset[0] ? pc->preset : "none");
	}
	rt->ports[idx].port_id = pid;
	return 0;
}

int
eng_ports_probe(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	unsigned int i, j;
	int rc;

	for (i = 0; i < cfg->nb_ports; i++) {
		struct eng_port *port = &rt->ports[i];

		port->socket = (int)rte_socket_id();
		if (port->socket < 0 || port->socket >= RTE_MAX_NUMA_NODES)
			port->socket = 0;
		if (strncmp(cfg->ports[i].device, "ring:", 5) == 0)
			rc = ring_port_create(rt, i);
		else
			rc = device_port_find(rt, i);
		if (rc < 0)
			return rc;
		for (j = 0; j < i; j++)
			if (rt->ports[j].port_id == port->port_id) {
				ENG_LOG(ERR, port, "ports %s and %s are the same device",
						cfg->ports[j].name, cfg->ports[i].name);
				return -EEXIST;
			}
		rc = rte_eth_dev_socket_id(port->port_id);
		if (rc >= 0 && rc < RTE_MAX_NUMA_NODES)
			port->socket = rc;
		ENG_LOG(INFO, port, "port %s: ethdev %u, device %s, socket %d", cfg->ports[i].name,
				port->port_id, cfg->ports[i].device, port->socket);
	}
	return 0;
}

/* Keep only the offloads the device reports; one log line for the rest. */
static uint64_t
offload_mask(const char *port, const char *dir, uint64_t want, uint64_t capa,
		const char *(*name)(uint64_t))
{
	uint64_t missing = want & ~capa, bit;
	char list[256];
	size_t off = 0;

	if (missing == 0)
		return want;
	list[0] = '\0';
	for (bit = 1; bit != 0; bit <<= 1)
		if ((missing & bit) && off < sizeof(list))
			off += (size_t)snprintf(list + off, sizeof(list) - off, "%s%s",
					off ? " " : "", name(bit));
	ENG_LOG(INFO, port, "port %s: %s offloads not supported by the device, turned off: %s",
			port, dir, list);
	return want & capa;
}

/* RETA entries programmed at most (ice's table; others are smaller). */
#define PORT_RETA_MAX	2048

/*
 * A port doing RSS over several rx queues gets the engine's key and RETA
 * (lib/net/net_rss.h), so the queue the device picks for a flow is the one
 * the placement of a task over several lcores named (config/sec_flow.c).
 * Key bytes past the 40 of the default are 0: an IPv4 4-tuple reads the
 * first 16. A device that takes neither keeps its own: frames then reach
 * their tasks through the software dispatch (kinds/xport/xport_port.c).
 */
static void
port_rss_program(const struct eng_port_conf *pc, uint16_t pid, const struct rte_eth_dev_info *info,
		uint64_t hf)
{
	struct rte_eth_rss_reta_entry64 reta[PORT_RETA_MAX / RTE_ETH_RETA_GROUP_SIZE];
	uint8_t key[UINT8_MAX];
	struct rte_eth_rss_conf rss;
	unsigned int j, n = info->reta_size;
	int rc;

	memset(key, 0, sizeof(key));
	memcpy(key, net_rss_key_default, NET_RSS_KEY_LEN);
	memset(&rss, 0, sizeof(rss));
	rss.rss_key = key;
	rss.rss_key_len = RTE_MAX(info->hash_key_size, (uint8_t)NET_RSS_KEY_LEN);
	rss.rss_hf = hf;
	rc = rte_eth_dev_rss_hash_update(pid, &rss);
	if (rc != 0)
		ENG_LOG(WARNING, port, "port %s: RSS key not set (%s): flows land where the "
				"device's own key puts them, the software dispatch hands them over",
				pc->name, rte_strerror(-rc));
	if (n == 0 || n > PORT_RETA_MAX) {
		ENG_LOG(WARNING, port, "port %s: RETA of %u entries not programmed: the software "
				"dispatch hands frames to their tasks", pc->name, n);
		return;
	}
	memset(reta, 0, sizeof(reta));
	for (j = 0; j < n; j++) {
		reta[j / RTE_ETH_RETA_GROUP_SIZE].mask |= 1ull << (j % RTE_ETH_RETA_GROUP_SIZE);
		reta[j / RTE_ETH_RETA_GROUP_SIZE].reta[j % RTE_ETH_RETA_GROUP_SIZE] =
				(uint16_t)((j % NET_RSS_RETA_SIZE) % pc->rx_queues);
	}
	rc = rte_eth_dev_rss_reta_update(pid, reta, (uint16_t)n);
	if (rc != 0)
		ENG_LOG(WARNING, port, "port %s: RETA not set (%s): the software dispatch hands "
				"frames to their tasks", pc->name, rte_strerror(-rc));
	else if (n % NET_RSS_RETA_SIZE != 0)
		ENG_LOG(WARNING, port, "port %s: a RETA of %u entries, not a multiple of %u: some "
				"flows land off their task's queue, the software dispatch hands them over",
				pc->name, n, NET_RSS_RETA_SIZE);
	else
		ENG_LOG(INFO, port, "port %s: RSS key and RETA (%u entries over %u queues) set",
				pc->name, n, pc->rx_queues);
}

static int
port_start(struct eng_runtime *rt, unsigned int idx)
{
	const struct eng_port_conf *pc = &rt->cfg->ports[idx];
	struct eng_port *port = &rt->ports[idx];
	struct rte_eth_conf conf;
	struct rte_eth_dev_info info;
	uint16_t nrx = pc->rx_desc, ntx = pc->tx_desc, q, pid = port->port_id;
	int rc;

	rc = rte_eth_dev_info_get(pid, &info);
	if (rc != 0) {
		ENG_LOG(ERR, port, "port %s: dev_info: %s", pc->name, rte_strerror(-rc));
		return rc;
	}
	if (pc->rx_queues > info.max_rx_queues || pc->tx_queues > info.max_tx_queues) {
		ENG_LOG(ERR, port, "port %s: %u rx / %u tx queues requested, device (%s) has at "
				"most %u / %u",
				pc->name, pc->rx_queues, pc->tx_queues, info.driver_name,
				info.max_rx_queues, info.max_tx_queues);
		return -EINVAL;
	}
	memset(&conf, 0, sizeof(conf));
	if (pc->rss && pc->rx_queues > 1) {
		uint64_t hf = info.flow_type_rss_offloads &
				(RTE_ETH_RSS_IP | RTE_ETH_RSS_UDP | RTE_ETH_RSS_TCP);

		if (hf == 0) {
			ENG_LOG(INFO, port, "port %s: RSS not supported by the device, turned off",
					pc->name);
		} else {
			conf.rxmode.mq_mode = RTE_ETH_MQ_RX_RSS;
			conf.rx_adv_conf.rss_conf.rss_hf = hf;
		}
	}
	if (pc->rx_checksum)
		conf.rxmode.offloads = offload_mask(pc->name, "rx",
				RTE_ETH_RX_OFFLOAD_IPV4_CKSUM | RTE_ETH_RX_OFFLOAD_UDP_CKSUM,
				info.rx_offload_capa, rte_eth_dev_rx_offload_name);
	if (pc->tx_checksum)
		conf.txmode.offloads = offload_mask(pc->name, "tx",
				RTE_ETH_TX_OFFLOAD_IPV4_CKSUM | RTE_ETH_TX_OFFLOAD_UDP_CKSUM,
				info.tx_offload_capa, rte_eth_dev_tx_offload_name);
	port->rx_offloads = conf.rxmode.offloads;
	port->tx_offloads = conf.txmode.offloads;
	if (pc->mtu != 0)
		conf.rxmode.mtu = pc->mtu;
	rc = rte_eth_dev_configure(pid, pc->rx_queues, pc->tx_queues, &conf);
	if (rc != 0) {
		ENG_LOG(ERR, port, "port %s: configure: %s", pc->name, rte_strerror(-rc));
		return rc;
	}
	rc = rte_eth_dev_adjust_nb_rx_tx_desc(pid, &nrx, &ntx);
	if (rc == 0 && (nrx != pc->rx_desc || ntx != pc->tx_desc))
		ENG_LOG(INFO, port, "port %s: descriptors adjusted by the device to rx %u tx %u",
				pc->name, nrx, ntx);
	for (q = 0; q < pc->rx_queues; q++) {
		rc = rte_eth_rx_queue_setup(pid, q, nrx, (unsigned int)port->socket, NULL,
				port->pool);
		if (rc != 0) {
			ENG_LOG(ERR, port, "port %s: rx queue %u: %s", pc->name, q,
					rte_strerror(-rc));
			return rc;
		}
	}
	for (q = 0; q < pc->tx_queues; q++) {
		rc = rte_eth_tx_queue_setup(pid, q, ntx, (unsigned int)port->socket, NULL);
		if (rc != 0) {
			ENG_LOG(ERR, port, "port %s: tx queue %u: %s", pc->name, q,
					rte_strerror(-rc));
			return rc;
		}
	}
	if (pc->has_mac) {
		rc = rte_eth_dev_default_mac_addr_set(pid, (struct rte_ether_addr *)&pc->mac);
		if (rc != 0)
			ENG_LOG(WARNING, port, "port %s: cannot set MAC: %s", pc->name,
					rte_strerror(-rc));
	}
	rc = rte_eth_dev_start(pid);
	if (rc != 0) {
		ENG_LOG(ERR, port, "port %s: start: %s", pc->name, rte_strerror(-rc));
		return rc;
	}
	port->started = 1;
	if (conf.rxmode.mq_mode == RTE_ETH_MQ_RX_RSS)
		port_rss_program(pc, pid, &info, conf.rx_adv_conf.rss_conf.rss_hf);
	if (pc->promisc) {
		rc = rte_eth_promiscuous_enable(pid);
		if (rc != 0)
			ENG_LOG(INFO, port, "port %s: promiscuous mode not available: %s", pc->name,
					rte_strerror(-rc));
	}
	rte_eth_macaddr_get(pid, &port->mac);
	rc = eng_port_bytes_setup(rt, idx);
	if (rc != 0)
		return rc;
	rte_eth_stats_reset(pid);
	eng_port_kernel_setup(rt, idx);
	eng_port_stats_read(rt, idx, &port->base);
	return 0;
}

/*
 * A port of several rx queues some of which no task polls: what the device
 * hashes there (RSS, an af_packet fanout, an af_xdp queue) is never read, and
 * shows only as rx_missed once that queue is full. Said once at start.
 */
static void
port_rxq_check(const struct eng_config *cfg, unsigned int idx)
{
	const struct eng_port_conf *pc = &cfg->ports[idx];
	uint32_t polled = 0;
	unsigned int t, a, q;

	if (pc->rx_queues < 2)
		return;
	for (t = 0; t < cfg->nb_tasks; t++)
		for (a = 0; a < cfg->tasks[t].nb_ports; a++)
			if (cfg->tasks[t].ports[a].port_idx == idx &&
					cfg->tasks[t].ports[a].rxq < 32)
				polled |= 1u << cfg->tasks[t].ports[a].rxq;
	if (polled == 0)
		return;
	for (q = 0; q < pc->rx_queues; q++)
		if (!(polled & (1u << q)))
			ENG_LOG(WARNING, port, "port %s: rx queue %u of %u is polled by no task: "
					"frames the device puts there are not read (rx_missed)",
					pc->name, q, pc->rx_queues);
}

int
eng_ports_start(struct eng_runtime *rt)
{
	unsigned int i;
	int rc;

	for (i = 0; i < rt->cfg->nb_ports; i++) {
		rc = port_start(rt, i);
		if (rc != 0)
			return rc;
		port_rxq_check(rt->cfg, i);
	}
	return 0;
}

void
eng_port_stats_read(struct eng_runtime *rt, unsigned int idx, struct eng_port_stats *out)
{
	struct rte_eth_stats st;
	const struct eng_port_stats *b = &rt->ports[idx].base;

	memset(out, 0, sizeof(*out));
	if (rte_eth_stats_get(rt->ports[idx].port_id, &st) != 0)
		return;
	out->rx_packets = st.ipackets - b->rx_packets;
	out->tx_packets = st.opackets - b->tx_packets;
	out->rx_bytes = st.ibytes - b->rx_bytes;
	out->tx_bytes = st.obytes - b->tx_bytes;
	if (rt->ports[idx].bytes_peer >= 0) /* ring port: net_ring counts no bytes */
		eng_port_bytes_read(rt, idx, &out->rx_bytes, &out->tx_bytes);
	out->rx_missed = st.imissed - b->rx_missed;
	out->rx_errors = st.ierrors - b->rx_errors;
	out->tx_errors = st.oerrors - b->tx_errors;
	out->rx_nombuf = st.rx_nombuf - b->rx_nombuf;
	eng_port_kernel_read(rt, idx, &out->kernel_rx_dropped, &out->kernel_tx_dropped);
	out->kernel_rx_dropped -= RTE_MIN(out->kernel_rx_dropped, b->kernel_rx_dropped);
	out->kernel_tx_dropped -= RTE_MIN(out->kernel_tx_dropped, b->kernel_tx_dropped);
}

void
eng_ports_close(struct eng_runtime *rt)
{
	unsigned int i, r;

	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port *port = &rt->ports[i];

		if (port->created == 0 && !port->started)
			continue;
		eng_port_bytes_close(rt, i);
		if (port->started)
			rte_eth_dev_stop(port->port_id);
		port->started = 0;
		rte_eth_dev_close(port->port_id);
	}
	/* rings are shared by the two ports of a wire: free them after both closed */
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		for (r = 0; r < rt->ports[i].nb_rings; r++)
			rte_ring_free(rt->ports[i].rings[r]);
		rt->ports[i].nb_rings = 0;
	}
}

/* The vdev drivers a message offers (the engine's presets and tests use them). */
#define VDEV_COMMON "net_ring, net_null, net_tap, net_af_packet, net_af_xdp, net_memif, " \
		"net_pcap, net_vhost, net_virtio_user, net_bonding"

/*
 * device (a port's, or an [eal] --vdev) against the vdev drivers DPDK has,
 * before EAL starts (core/devargs.h). Drivers in plugins are read once, when
 * a name is no driver of DPDK's own: RTE_EAL_PMD_PATH and [eal] args' -d
 * paths (a -d given only on the command line is not seen here).
 */
static int
device_check(struct eng_vdev_names *v, int *scanned, const struct eng_config *cfg,
		const char *device, const char *where, char *err, size_t errlen)
{
	char words[CFG_VALUE_LEN], hint[CFG_VALUE_LEN + 32], base[CFG_VALUE_LEN], *w[64];
	size_t n = strcspn(device, ","), digits;
	const char *near;
	int i, nw;

	if (eng_vdev_driver_of(v, device) != NULL)
		return 0;
	if (!*scanned) {
		*scanned = 1;
#ifdef RTE_EAL_PMD_PATH
		eng_vdev_names_scan(v, RTE_EAL_PMD_PATH);
#endif
		snprintf(words, sizeof(words), "%s", cfg->has_eal ? cfg->eal_args : "");
		nw = cfg_split_words(words, w, (int)RTE_DIM(w));
		for (i = 0; i < nw; i++) {
			if (strcmp(w[i], "-d") == 0 && i + 1 < nw)
				eng_vdev_names_scan(v, w[++i]);
			else if (strncmp(w[i], "-d", 2) == 0 && w[i][2] != '\0')
				eng_vdev_names_scan(v, w[i] + 2);
		}
		if (eng_vdev_driver_of(v, device) != NULL)
			return 0;
	}
	/* "net_rign0": the driver part without the instance number, then put it back */
	for (digits = n; digits > 0 && device[digits - 1] >= '0' && device[digits - 1] <= '9';)
		digits--;
	snprintf(base, sizeof(base), "%.*s", (int)digits, device);
	near = cfg_closest(base, v->name, v->n, 2);
	hint[0] = '\0';
	if (near != NULL)
		snprintf(hint, sizeof(hint), "; did you mean \"%s%.*s\"?", near, (int)(n - digits),
				device + digits);
	snprintf(err, errlen, "%s: no DPDK driver for \"%.*s\"%s (a vdev's name starts with its "
			"driver's: " VDEV_COMMON "; ring:WIRE joins two ports inside the engine; a PCI "
			"address names a NIC)", where, (int)n, device, hint);
	return -ENODEV;
}

int
eng_ports_check_devices(const struct eng_config *cfg, const int *dev_line, char *err,
		size_t errlen)
{
	char where[PATH_MAX + 2 * CFG_NAME_LEN], words[CFG_VALUE_LEN], *w[64];
	struct eng_vdev_names *v = malloc(sizeof(*v));
	unsigned int i;
	int rc = 0, scanned = 0, nw, k;

	if (v == NULL) {
		snprintf(err, errlen, "%s: out of memory", cfg->file);
		return -ENOMEM;
	}
	eng_vdev_names_init(v);
	for (i = 0; rc == 0 && i < cfg->nb_ports; i++) {
		const struct eng_port_conf *pc = &cfg->ports[i];

		if (strncmp(pc->device, "ring:", 5) == 0)
			continue;
		snprintf(where, sizeof(where), "%s:%d: [port %s] device", cfg->file, dev_line[i],
				pc->name);
		rc = device_check(v, &scanned, cfg, pc->device, where, err, errlen);
	}
	snprintf(words, sizeof(words), "%s", cfg->has_eal ? cfg->eal_args : "");
	nw = cfg_split_words(words, w, (int)RTE_DIM(w));
	for (k = 0; rc == 0 && k < nw; k++) {
		const char *dev = NULL;

		if (strcmp(w[k], "--vdev") == 0 && k + 1 < nw)
			dev = w[++k];
		else if (strncmp(w[k], "--vdev=", 7) == 0)
			dev = w[k] + 7;
		if (dev == NULL)
			continue;
		snprintf(where, sizeof(where), "%s: [eal] args: --vdev", cfg->file);
		rc = device_check(v, &scanned, cfg, dev, where, err, errlen);
	}
	free(v);
	return rc;
}
