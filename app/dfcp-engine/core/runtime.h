/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The runtime (EAL initialised): the config, ports, pools, run phase and
 * clock origin; subsystems hang their state off it. See
 * doc/architecture.md ("Start-up order").
 */
#ifndef ENG_RUNTIME_H
#define ENG_RUNTIME_H

#include <stdint.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "core/clock.h"
#include "core/defs.h"
#include "core/lcore_rt.h"
#include "core/port.h"

struct eng_capture_rt;
struct eng_config;
struct eng_console_rt;
struct eng_intervals_rt;
struct eng_lat_rt;
struct eng_live_rt;
struct eng_streams_rt;
struct eng_xport_port;
struct rte_mempool;

enum eng_phase {
	ENG_PHASE_INIT = 0,
	ENG_PHASE_RUN,    /* generators send */
	ENG_PHASE_DRAIN,  /* generators stop; receivers and forwarders keep polling */
	ENG_PHASE_STOP,   /* lcores return */
};

struct eng_runtime {
	struct eng_config *cfg;
	struct eng_port ports[ENG_MAX_PORTS];
	struct rte_mempool *pools[RTE_MAX_NUMA_NODES];
	volatile int phase;
	struct eng_clock clock;     /* the one TSC -> ns clock (clock.h) */
	uint64_t start_tsc, stop_tsc;
	int stop_signal;	/* the signal that ended the run phase, 0 for its planned end */
	int lcore_failed;
	struct eng_lcore_rt lcores;	/* busy/idle cycles, the main lcore's tasks */
	/* observability (obs/obs.h), allocated by each subsystem */
	struct eng_lat_rt *lat;
	struct eng_capture_rt *capture;
	struct eng_live_rt *live;
	struct eng_intervals_rt *intervals;	/* --intervals-json */
	struct eng_streams_rt *streams;	/* txonly / rxonly streams by period */
	struct eng_console_rt *console;	/* -i and /dfcp/cmd (obs/console.h) */
	/* run-time state of a kind shared by its tasks, by kind index (kinds.c),
	 * e.g. the router's pipes; owned and freed by the kind */
	void *kind_rt[ENG_MAX_KINDS];
	/* the transport tasks of each port: demux table and inboxes (kinds/xport) */
	struct eng_xport_port *xport[ENG_MAX_PORTS];
};

/* TSC cycles the run has lasted: to its stop once stopped, else to now (cold path). */
static inline uint64_t
eng_run_cycles(const struct eng_runtime *rt)
{
	uint64_t end = rt->stop_tsc ? rt->stop_tsc : rte_rdtsc();

	return end > rt->start_tsc ? end - rt->start_tsc : 0;
}

/* pool.c: one mbuf pool per NUMA socket that has ports */
int eng_pools_create(struct eng_runtime *rt);
void eng_pools_free(struct eng_runtime *rt);

#endif /* ENG_RUNTIME_H */
