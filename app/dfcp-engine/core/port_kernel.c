/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What the kernel drops on a port's interface (af_packet, af_xdp: iface=),
 * which DPDK's af_packet driver does not count: the interface's own
 * rx_dropped and tx_dropped (/sys/class/net/IFACE/statistics; a veth counts
 * the frames its peer's backlog refused) and, added to rx, the drops of the
 * driver's packet sockets on that interface (PACKET_STATISTICS: rx ring
 * full). The socket counters reset on each read, so every read adds what it
 * took to the port's total atomically: the main lcore and the telemetry
 * thread both read, and each drop is counted once.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <linux/if_packet.h>
#include <sys/socket.h>

#include "config/config.h"
#include "core/lock.h"
#include "core/port.h"
#include "core/runtime.h"

/* A counter of /sys/class/net/IFACE/statistics, 0 when unreadable. */
static uint64_t
sysfs_counter(const char *iface, const char *name)
{
	char path[128];
	uint64_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", iface, name);
	f = fopen(path, "r");
	if (f == NULL)
		return 0;
	if (fscanf(f, "%" SCNu64, &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

/* The packet sockets of this process bound to ifindex: the driver's, one per queue. */
static void
sockets_find(struct eng_port *port, unsigned int ifindex)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");

	port->nb_ksock = 0;
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL && port->nb_ksock < RTE_DIM(port->ksock)) {
		struct sockaddr_ll sll;
		socklen_t len = sizeof(sll);
		int fd = atoi(de->d_name), dom = 0;
		socklen_t dlen = sizeof(dom);

		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
				getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &dlen) < 0 ||
				dom != AF_PACKET ||
				getsockname(fd, (struct sockaddr *)&sll, &len) < 0 ||
				(unsigned int)sll.sll_ifindex != ifindex)
			continue;
		port->ksock[port->nb_ksock++] = fd;
	}
	closedir(d);
}

void
eng_port_kernel_setup(struct eng_runtime *rt, unsigned int idx)
{
	struct eng_port *port = &rt->ports[idx];
	unsigned int ifindex;
	uint64_t rx, tx;

	eng_port_iface(&rt->cfg->ports[idx], port->iface, sizeof(port->iface));
	ifindex = port->iface[0] != '\0' ? if_nametoindex(port->iface) : 0;
	if (ifindex == 0) {
		port->iface[0] = '\0';
		return;
	}
	sockets_find(port, ifindex);
	port->ksock_drops = 0;
	eng_port_kernel_read(rt, idx, &rx, &tx);	/* what the sockets dropped before start */
	port->ksock_drops = 0;
}

void
eng_port_kernel_read(struct eng_runtime *rt, unsigned int idx, uint64_t *rx_dropped,
		uint64_t *tx_dropped)
{
	struct eng_port *port = &rt->ports[idx];
	unsigned int i;

	*rx_dropped = 0;
	*tx_dropped = 0;
	if (port->iface[0] == '\0')
		return;
	for (i = 0; i < port->nb_ksock; i++) {
		struct tpacket_stats st;
		socklen_t len = sizeof(st);

		if (getsockopt(port->ksock[i], SOL_PACKET, PACKET_STATISTICS, &st, &len) == 0)
			__atomic_fetch_add(&port->ksock_drops, st.tp_drops, __ATOMIC_RELAXED);
	}
	*rx_dropped = sysfs_counter(port->iface, "rx_dropped") +
		__atomic_load_n(&port->ksock_drops, __ATOMIC_RELAXED);
	*tx_dropped = sysfs_counter(port->iface, "tx_dropped");
}
