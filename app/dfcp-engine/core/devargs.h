/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device arguments ("KEY=VALUE,KEY=VALUE", DPDK's kvargs form) of a vdev the
 * engine creates: a preset's devargs, the port's own and those written in its
 * device string merged key by key. Plain string work, no EAL.
 */
#ifndef ENG_DEVARGS_H
#define ENG_DEVARGS_H

#include <stddef.h>

/*
 * Merge the items of ADD into DST (a NUL-terminated list of LEN bytes at
 * most): an item of ADD replaces DST's item of the same key, others are
 * appended in ADD's order. Returns 0, or -ENOSPC (DST unchanged) when the
 * result does not fit.
 */
int eng_devargs_merge(char *dst, size_t len, const char *add);

/* 1 when LIST has an item whose key is KEY. */
int eng_devargs_has(const char *list, const char *key);

/*
 * The ethdev vdev drivers a device name may start with (DPDK matches a vdev
 * to the driver whose name begins it: net_ring0 is net_ring's). Known before
 * EAL starts: DPDK 22.11's own net_* vdev drivers, and, when asked, those
 * found in driver plugins (the PMD_INFO_STRING records DPDK builds into each
 * driver, as dpdk-pmdinfo.py reads them). Plain file reading, no EAL.
 */
#define ENG_VDEV_MAX 256
#define ENG_VDEV_STORE 8192

struct eng_vdev_names {
	unsigned int n;
	const char *name[ENG_VDEV_MAX];
	size_t used;
	char store[ENG_VDEV_STORE];
};

/* v holds DPDK 22.11's own net_* vdev drivers. */
void eng_vdev_names_init(struct eng_vdev_names *v);

/*
 * Add the net_* drivers of the plugin at path: a file (an EAL -d FILE), or
 * every "*.so" file of a directory (-d DIR, RTE_EAL_PMD_PATH). Returns the
 * number of names added (an unreadable path adds none).
 */
int eng_vdev_names_scan(struct eng_vdev_names *v, const char *path);

/*
 * The driver of device name (up to its first ','): the known name it starts
 * with, or NULL. Names that are no net_* vdev (ring:WIRE, PCI addresses,
 * other buses' devices) are not this check's: name itself is returned.
 */
const char *eng_vdev_driver_of(const struct eng_vdev_names *v, const char *device);

#endif /* ENG_DEVARGS_H */
