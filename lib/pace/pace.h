/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pace: one pacer for every paced component (a generator's rate, a sender's
 * token bucket, a scheduler's shaped link, an emulated link's serializer).
 *
 * The model: a virtual schedule. t is the departure (start) time of the next
 * packet, in ns with 32 fractional bits. A packet may leave when t <= now;
 * sending it moves t by its wire time:
 *
 *	t += (len + overhead) * ns_per_byte        ns_per_byte = 8e9 / rate
 *
 * ns_per_byte is rounded once, at set-up, to 2^-32 ns; from then on every
 * step is exact integer arithmetic, so n packets always move t by exactly
 * n times the same amount (no drift; the only error is that one rounding,
 * below 2^-33 ns per byte: < 3e-9 of the rate at 100 Gbit/s).
 *
 * Credit is the lag now - t. It is kept across a stall of the caller (the
 * thread descheduled, the tx queue full): when the caller comes back, the
 * packets it owes leave back-to-back until t catches up with now, so the
 * bytes over the whole run are the configured ones. The lag is bounded by
 *
 *	L = catchup + bucket * ns_per_byte
 *
 * At every "may I send" call (pace_ready, pace_burst, pace_budget) a lag
 * above L is dropped (t = now - L): that much of the schedule is lost, and
 * counted (stalls, lost_ns, lost_bytes), unless the caller had said it was
 * idle before the gap. pace_idle(now) says "nothing to send now": an idle
 * caller keeps only the bucket (t >= now - bucket * ns_per_byte), silently.
 * The first call starts the schedule with a full bucket (t = now - bucket).
 *
 * What follows: over any interval [a, b] of the caller's send instants the
 * wire bytes sent are at most rate * (b - a + L) / 8e9 plus one packet (the
 * burst after a stall never exceeds the bound), and a caller that is never
 * late by more than L and always sends what it is allowed to gets exactly
 * rate * time (minus at most one packet of rounding at the end).
 *
 * A token bucket of depth `bucket` bytes (the thesis tool's max tokens) is
 * this schedule with the bucket term: after idling, bucket bytes plus the
 * packet in progress may leave back-to-back. bucket = 0 is a strict pacer.
 * catchup is the credit kept for a caller that was late while it had
 * something to send; PACE_CATCHUP_DEFAULT_NS makes up a 10 ms deschedule
 * with room to spare (doc/performance.md, "Pacing").
 *
 * No DPDK; times are ns given by the caller and must not go backwards (an
 * earlier time is taken as the latest seen). Integer only, no allocation
 * after set-up (one 64-bit division in pace_burst and pace_budget; 128-bit
 * adds and multiplies). One thread writes a pacer; counters are plain
 * 64-bit fields another thread may read through pace_stats (each counter
 * consistent, not the set).
 *
 * Constructors return a pointer or NULL (errno EINVAL: bad configuration,
 * ERANGE: catchup + bucket longer than PACE_LAG_MAX_NS, ENOMEM).
 */
#ifndef PACE_H
#define PACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PACE_CATCHUP_DEFAULT_NS	20000000ull	/* 20 ms */
#define PACE_RATE_MIN		2ull		/* bit/s (ns_per_byte fits 64 bits) */
#define PACE_RATE_MAX		400000000000ull	/* 400 Gbit/s */
#define PACE_LAG_MAX_NS		4000000000ull	/* catchup + bucket time: 4 s */

struct pace;

struct pace_conf {
	uint64_t rate_bps;	/* bits per second on the wire, PACE_RATE_MIN..MAX */
	uint32_t overhead;	/* bytes added to each packet on the wire
				 * (24 = preamble + IFG + FCS for frames without FCS) */
	uint64_t catchup_ns;	/* credit kept across a stall; 0: the default */
	uint64_t bucket;	/* token-bucket depth in bytes; 0: strict pacer */
};

struct pace_stats {
	uint64_t rate_bps;	/* configured */
	uint64_t pkts;		/* sent (pace_sent) */
	uint64_t bytes;		/* sent, as passed to pace_sent */
	uint64_t wire_bytes;	/* bytes + pkts * overhead */
	uint64_t busy_ns;	/* time the caller had something to send */
	uint64_t stalls;	/* calls that dropped credit above the bound */
	uint64_t lost_ns;	/* schedule time dropped (never sent) */
	uint64_t lost_bytes;	/* the same in wire bytes at the rate */
	uint64_t max_lag_ns;	/* longest lag seen by a busy call (before the bound) */
	uint64_t achieved_ppm;	/* wire rate while busy / configured rate, ppm
				 * (since the last pace_set_rate) */
};

/* Q32 ns per wire byte for a rate (round to nearest); 0 if out of range. */
uint64_t pace_npb(uint64_t rate_bps);

/* Bytes for a pacer, and a pacer laid over caller memory (e.g.
 * rte_zmalloc_socket; 16-byte aligned, len >= pace_size()). */
size_t pace_size(void);
struct pace *pace_init(void *mem, size_t len, const struct pace_conf *conf);
/* malloc + pace_init. */
struct pace *pace_create(const struct pace_conf *conf);
/* Only for pacers from pace_create(); NULL is accepted. */
void pace_free(struct pace *p);

/* Restart the schedule at now with a full bucket; counters are kept. */
void pace_reset(struct pace *p, uint64_t now);
/*
 * A new rate from now on (PACE_RATE_MIN..MAX): the schedule restarts at now
 * with a full bucket of the same bytes (credit and debt at the old rate are
 * dropped, not counted as lost), the catch-up bound is kept. The counters go
 * on; achieved_ppm is reckoned from this call, lost_bytes at the new rate.
 * 0, -EINVAL (rate out of range) or -ERANGE (catchup + bucket time over
 * PACE_LAG_MAX_NS at that rate); the pacer is unchanged on error.
 */
int pace_set_rate(struct pace *p, uint64_t rate_bps, uint64_t now);

/*
 * The same for a rate that follows a profile (pace_prof): the schedule goes
 * on, the wire bytes owed (or the credit, within the bound) re-timed at the
 * new rate, so that steps of a ramp add no packet and drop none. A caller
 * that was idle gets pace_set_rate().
 */
int pace_change_rate(struct pace *p, uint64_t rate_bps, uint64_t now);

/* May a packet leave now? 1 or 0. */
int pace_ready(struct pace *p, uint64_t now);
/* How many packets of len bytes (+ overhead) may leave now, at most max. */
uint32_t pace_burst(struct pace *p, uint64_t now, uint32_t len, uint32_t max);
/* How many wire bytes may leave now: send packets while the wire bytes
 * already sent in this burst (overhead included) are below the budget;
 * 0: nothing may leave. */
uint64_t pace_budget(struct pace *p, uint64_t now);
/* The caller sent pkts packets of bytes in all (overhead added per packet). */
void pace_sent(struct pace *p, uint32_t pkts, uint64_t bytes);
/* Nothing to send at now: credit above the bucket is dropped (not counted). */
void pace_idle(struct pace *p, uint64_t now);
/* Move the schedule ns later (the caller lost that much link time, e.g. an
 * emulated link that could not deliver during a stall); counted as lost. */
void pace_defer(struct pace *p, uint64_t ns);

/* Departure time of the next packet in ns (rounded up), for sleeping;
 * 0 before the first call. */
uint64_t pace_next(const struct pace *p);
/* The bound L in ns, and ns_per_byte in Q32. */
uint64_t pace_bound_ns(const struct pace *p);
uint64_t pace_npb_of(const struct pace *p);

int pace_stats(const struct pace *p, struct pace_stats *st);

/*
 * A timed rate profile: bps[i] from t_ns[i] on (ns from the profile's 0,
 * the run's start). Steps: each rate holds until the next point; a ramp:
 * linear from one point to the next in steps of 1/PACE_PROF_STEPS of the
 * segment (none shorter than PACE_PROF_STEP_MIN_NS), each step at the line's
 * value at its start, so that the rate is bps[i] at t_ns[i] exactly. After
 * the last point its rate holds. The caller (the task's own lcore) asks
 * again at *next only: integer arithmetic, one 128-bit multiply and two
 * divisions per change, a scan of at most PACE_PROF_MAX points.
 */
#define PACE_PROF_MAX		32
#define PACE_PROF_STEPS		100
#define PACE_PROF_STEP_MIN_NS	1000000ull	/* 1 ms */

struct pace_prof {
	uint32_t n;			/* points, 1..PACE_PROF_MAX (a ramp: 2 at least) */
	int ramp;			/* 1: linear between points; 0: steps */
	uint64_t t_ns[PACE_PROF_MAX];	/* t_ns[0] = 0, then increasing */
	uint64_t bps[PACE_PROF_MAX];	/* PACE_RATE_MIN..MAX */
};

/* 0, or -EINVAL when pf breaks a rule above. */
int pace_prof_check(const struct pace_prof *pf);
/* The rate of a checked profile at t ns, and in *next when it changes next
 * (UINT64_MAX: never). */
uint64_t pace_prof_rate(const struct pace_prof *pf, uint64_t t, uint64_t *next);

#ifdef __cplusplus
}
#endif

#endif /* PACE_H */
