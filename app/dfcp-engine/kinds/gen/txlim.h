/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One txonly stream held to its own rate (txflows.c, "set rate TASK/N"):
 * integer only, time as a parameter (test/engine/test_txlim.c drives it on a
 * virtual clock). Times are TSC cycles x 2^ENG_TXLIM_FP since a base; a frame
 * moves the stream's due time on by its gap; a stream behind by more than
 * the catch-up bound is pulled up to it (no burst after a stall).
 */
#ifndef ENG_TXLIM_H
#define ENG_TXLIM_H

#include <stdint.h>

#define ENG_TXLIM_FP 8			/* fraction bits of a due time and a gap */
#define ENG_TXLIM_STOP UINT64_MAX	/* gap of a stopped stream */

struct eng_txlim {
	uint64_t gap;	/* cycles x 2^FP a frame; 0: free, ENG_TXLIM_STOP: stopped */
	uint64_t due;	/* when it may send next */
};

/* The gap of frames of frame_bits on the wire at bps (0: free). */
static inline uint64_t
eng_txlim_gap(uint64_t frame_bits, uint64_t hz, uint64_t bps)
{
	if (bps == 0)
		return 0;
	return (uint64_t)(((unsigned __int128)frame_bits * hz << ENG_TXLIM_FP) / bps);
}

/* TSC now as a due time (runs of up to 2^56 cycles since base). */
static inline uint64_t
eng_txlim_now(uint64_t base, uint64_t now)
{
	return now > base ? (now - base) << ENG_TXLIM_FP : 0;
}

/* A new gap from due time t on. */
static inline void
eng_txlim_set(struct eng_txlim *l, uint64_t gap, uint64_t t)
{
	if (gap != l->gap) {
		l->gap = gap;
		l->due = t;
	}
}

/* The stream may send a frame at t. */
static inline int
eng_txlim_ready(const struct eng_txlim *l, uint64_t t)
{
	return l->gap == 0 || (l->gap != ENG_TXLIM_STOP && l->due <= t);
}

/* ... and does: its due time moves on, from at most catchup before t. */
static inline void
eng_txlim_take(struct eng_txlim *l, uint64_t t, uint64_t catchup)
{
	uint64_t floor = t > catchup ? t - catchup : 0;

	if (l->gap != 0)
		l->due = (l->due > floor ? l->due : floor) + l->gap;
}

/* ... or a frame taken was not sent after all. */
static inline void
eng_txlim_untake(struct eng_txlim *l)
{
	if (l->gap != 0 && l->gap != ENG_TXLIM_STOP)
		l->due -= l->gap;
}

#endif /* ENG_TXLIM_H */
