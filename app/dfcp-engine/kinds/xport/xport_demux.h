/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The demultiplexing table of a port's transport endpoints (xport_demux.c):
 * (local IPv4 address, local UDP/TCP port) -> owner, an open-addressing hash
 * table made at set-up (at most half full, linear probing), so that a
 * lookup costs O(1) whatever the number of flows. No DPDK: unit-tested
 * against the plain scan it replaced (test/engine/test_xport_demux.c).
 *
 * An owner added with port 0 owns every port of its address that no
 * owner names exactly (the tcp kind's one endpoint per address); ARP
 * requests go to the first owner added for an address.
 */
#ifndef ENG_XPORT_DEMUX_H
#define ENG_XPORT_DEMUX_H

#include <stdint.h>

struct eng_demux;

/* A table for up to max_owners owners (calloc; NULL when out of memory). */
struct eng_demux *eng_demux_create(unsigned int max_owners);
void eng_demux_free(struct eng_demux *d);
/* 0, -EEXIST (ip:port already has an owner: *prev is it), -ENOSPC (full). */
int eng_demux_add(struct eng_demux *d, uint32_t ip, uint16_t port, void *owner, void **prev);
/* The owner of ip:port (exact, else ip's port-0 owner), or NULL. */
void *eng_demux_find(const struct eng_demux *d, uint32_t ip, uint16_t port);
/* The first owner added for ip (ARP), or NULL. */
void *eng_demux_find_ip(const struct eng_demux *d, uint32_t ip);
/* Probes the longest lookup takes (entries of the longest cluster; tests). */
unsigned int eng_demux_max_probe(const struct eng_demux *d);

#endif /* ENG_XPORT_DEMUX_H */
