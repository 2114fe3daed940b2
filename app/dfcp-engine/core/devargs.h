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

#endif /* ENG_DEVARGS_H */
