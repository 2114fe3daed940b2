/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One engine per kernel interface and per busy-polled CPU: an flock(2) per
 * af_packet/af_xdp interface (by network namespace) and per CPU of an lcore
 * with tasks, on files of the lock folder holding the holder's PID
 * (doc/config.md, "One engine per interface and CPU").
 */
#ifndef ENG_LOCK_H
#define ENG_LOCK_H

#include "config/config.h"

/*
 * Takes the locks of cfg's interfaces and, unless shared_cpu_ok (or
 * $DFCP_ALLOW_SHARED_CPU is set and not "0"), of its lcores' CPUs; after
 * rte_eal_init() (the lcores' CPUs), before the ports open. 0, or -EBUSY
 * after logging which process holds what. The kernel drops the locks when
 * the process ends, however it ends; a lock folder that cannot be made only
 * warns.
 */
int eng_locks_take(const struct eng_config *cfg, int shared_cpu_ok);

/* The kernel interface of a port (iface= of its devargs or device), "" for none. */
void eng_port_iface(const struct eng_port_conf *pc, char *out, size_t len);

#endif /* ENG_LOCK_H */
