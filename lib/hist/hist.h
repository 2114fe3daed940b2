/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * hist: HDR-style latency histogram with log-linear buckets.
 *
 * Values are unsigned 64-bit integers (nanoseconds, cycles, bytes: the
 * caller's unit). With s significant bits, values below 2^(s+1) have a
 * bucket each; above, every power-of-two range [2^e, 2^(e+1)) is split
 * into 2^s equal buckets of width 2^(e-s). A reported percentile is the
 * middle of its bucket, so its relative error is at most 2^-(s+1)
 * (s = 7: 0.4 %). The whole u64 range is covered: (65 - s) * 2^s buckets
 * of 8 bytes (s = 7: 7424 buckets, 58 KiB).
 *
 * Recording is O(1), integer only, no allocation, no lock: one
 * count-leading-zeros, one shift, one add. Count, min, max and the exact
 * sum (128-bit) are kept beside the buckets.
 *
 * Thread model: one writer per histogram (the lcore that owns the flow or
 * pipe). Every field is written with relaxed atomic stores, which are plain
 * moves on x86-64 and arm64, so a reader on another thread may call
 * hist_snapshot() at any time: it copies each field with relaxed atomic
 * loads (each counter is consistent, the set is not taken at one instant)
 * and recomputes the total from the copied buckets, so percentiles of a
 * snapshot are self-consistent. Every other call (queries, merge, reset,
 * JSON) must be made by the writer or on a snapshot. hist_reset() is a
 * writer call; a reader that wants per-period figures snapshots and
 * subtracts, or asks the writer to reset.
 *
 * No DPDK calls. Memory comes from hist_create() (malloc) or from the
 * caller (hist_init() over hist_size() bytes, e.g. rte_zmalloc_socket()).
 * Functions return 0 or a negative errno; constructors a pointer or NULL.
 */
#ifndef HIST_H
#define HIST_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HIST_MIN_SIG_BITS	1
#define HIST_MAX_SIG_BITS	14
#define HIST_DEFAULT_SIG_BITS	7	/* <= 0.4 % relative error */

struct hist;

/* Bytes needed for a histogram of sig_bits (0 if sig_bits is out of range). */
size_t hist_size(unsigned int sig_bits);
/* Lay a histogram over mem (len >= hist_size(), 8-byte aligned); NULL if not. */
struct hist *hist_init(void *mem, size_t len, unsigned int sig_bits);
/* malloc + hist_init; NULL on a bad sig_bits or no memory. */
struct hist *hist_create(unsigned int sig_bits);
/* Only for histograms from hist_create(). NULL is accepted. */
void hist_free(struct hist *h);

unsigned int hist_sig_bits(const struct hist *h);

/* Writer: record one value / n times the same value. */
void hist_record(struct hist *h, uint64_t v);
void hist_record_n(struct hist *h, uint64_t v, uint64_t n);
/* Writer: forget everything. */
void hist_reset(struct hist *h);

/*
 * dst += src. Same sig_bits: bucket by bucket (exact). Otherwise every src
 * bucket is recorded at its middle value (precision of the coarser one);
 * count, min, max and sum stay exact either way.
 * 0, or -EINVAL on NULL.
 */
int hist_merge(struct hist *dst, const struct hist *src);
/*
 * Copy src into dst (any thread, see the thread model above). Both must
 * have the same sig_bits: 0 or -EINVAL.
 */
int hist_snapshot(struct hist *dst, const struct hist *src);

/* Queries. On an empty histogram every value is 0. */
uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h);
uint64_t hist_max(const struct hist *h);
double hist_mean(const struct hist *h);
/*
 * Value at percentile pct (0..100): the sample of rank ceil(pct/100 * count)
 * (at least 1) in sorted order, reported as the middle of its bucket and
 * clamped to [min, max]; pct <= 0 gives min, pct >= 100 gives max.
 */
uint64_t hist_percentile(const struct hist *h, double pct);

struct hist_summary {
	uint64_t count;
	uint64_t min, max;
	double mean;
	uint64_t p50, p90, p99, p999;
};
void hist_summarize(const struct hist *h, struct hist_summary *s);

/*
 * JSON object of the summary:
 * {"count":N,"min":N,"mean":X,"p50":N,"p90":N,"p99":N,"p99.9":N,"max":N}
 * Returns the length written (without the NUL), or -ENOSPC if cap is too small
 * (buf then holds a truncated, NUL-terminated string when cap > 0).
 */
int hist_json(const struct hist *h, char *buf, size_t cap);

/* Buckets, for exporters and tests: index i covers [lo, lo + width). */
uint32_t hist_nbuckets(const struct hist *h);
uint32_t hist_bucket_index(const struct hist *h, uint64_t v);
/* 0, or -ERANGE when i >= hist_nbuckets(). Any output pointer may be NULL. */
int hist_bucket(const struct hist *h, uint32_t i, uint64_t *lo, uint64_t *width,
		uint64_t *count);

#ifdef __cplusplus
}
#endif

#endif /* HIST_H */
