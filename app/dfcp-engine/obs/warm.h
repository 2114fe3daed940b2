/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A flow's rates after its warmup (obs/warm.c, no EAL): the first seconds
 * of a transfer left out of its goodput and throughput, like the thesis
 * tool's "-x" (skip the start of the transfer). The owning lcore samples
 * the flow's byte counters once, in its housekeeping, when `warmup` has
 * passed since the transfer started (its first ESTABLISHED): integers only.
 * The reporting thread divides what moved after the sample by the time from
 * the sample to the end of the transfer. doc/config.md ([flow] warmup).
 */
#ifndef ENG_WARM_H
#define ENG_WARM_H

#include <stdint.h>

/* The sample at the end of the warmup (written once by the owning lcore). */
struct eng_warm {
	uint64_t goodput_bytes;		/* acked (sender) / delivered (receiver) then */
	uint64_t frame_bytes;		/* sent (sender) / received (receiver) then */
	uint64_t at_ns;			/* when it was taken; 0: not yet (written last) */
};

/*
 * The owning lcore, at each snapshot (now, the counters just published):
 * take the sample once warm_ns has passed since start_ns (0: not started).
 * 1 when it was taken now, else 0 (no warmup, too early, already taken).
 */
int eng_warm_sample(struct eng_warm *w, uint64_t warm_ns, uint64_t start_ns, uint64_t now,
		uint64_t goodput_bytes, uint64_t frame_bytes);

/*
 * Any thread: Mbit/s of a counter the sample holds (frames 0: goodput_bytes,
 * 1: frame_bytes), whose value now is `bytes`, from the end of the warmup to
 * end_ns (the end of the transfer, or now). Without a warmup (warm_ns 0) the
 * whole transfer's, start_ns to end_ns (0 when it has not started); -1 when
 * the transfer was shorter than the warmup (no sample, or no time after it).
 */
double eng_warm_mbps(uint64_t warm_ns, const struct eng_warm *w, int frames, uint64_t bytes,
		uint64_t start_ns, uint64_t end_ns);

#endif /* ENG_WARM_H */
