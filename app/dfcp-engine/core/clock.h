/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The engine's one clock: TSC -> nanoseconds since the runtime started,
 * without a division on the hot path (ns = (tsc - base) * mult >> 32, mult
 * a 32.32 fixed-point ns-per-cycle fixed at start-up). Every task, the
 * stats and the capture timestamps use eng_runtime.clock (runtime.h).
 */
#ifndef ENG_CLOCK_H
#define ENG_CLOCK_H

#include <stdint.h>

struct eng_clock {
	uint64_t base_tsc;	/* TSC at ns 0 */
	uint64_t mult;		/* ns per cycle << 32 */
	uint64_t hz;		/* TSC cycles per second */
};

static inline void
eng_clock_init(struct eng_clock *c, uint64_t hz, uint64_t base_tsc)
{
	c->base_tsc = base_tsc;
	c->hz = hz;
	c->mult = (uint64_t)(((unsigned __int128)1000000000u << 32) / hz);
}

/* ns since base_tsc (tsc >= base_tsc). */
static inline uint64_t
eng_clock_ns(const struct eng_clock *c, uint64_t tsc)
{
	return (uint64_t)(((unsigned __int128)(tsc - c->base_tsc) * c->mult) >> 32);
}

/* A duration in TSC cycles as ns. */
static inline uint64_t
eng_clock_cycles_ns(const struct eng_clock *c, uint64_t cycles)
{
	return (uint64_t)(((unsigned __int128)cycles * c->mult) >> 32);
}

/* A duration in ns as TSC cycles (set-up and housekeeping: one division). */
static inline uint64_t
eng_clock_ns_cycles(const struct eng_clock *c, uint64_t ns)
{
	return (uint64_t)((unsigned __int128)ns * c->hz / 1000000000u);
}

/* bytes over an interval of cycles at hz TSC cycles/s, as Mbit/s; 0 for an empty
 * interval (stats, cold path). */
static inline double
eng_clock_mbps(uint64_t bytes, uint64_t cycles, uint64_t hz)
{
	return cycles == 0 ? 0.0 : (double)bytes * 8.0 * (double)hz / (double)cycles / 1e6;
}

#endif /* ENG_CLOCK_H */
