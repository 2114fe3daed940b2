/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * lib/cfg: parsers for configuration values, with full checking and units.
 *
 * No DPDK, no allocation, no global state. Every parser has the same shape:
 *
 *	int cfg_parse_X(const char *s, <limits>, <out>, char *err, size_t errlen);
 *
 * It returns 0 and writes *out on success, or a negative errno (-EINVAL for a
 * malformed value, -ERANGE for a value outside the allowed range) and writes a
 * one-line, human-readable reason into err (when err is not NULL). The reason
 * says what was expected and quotes what was found, e.g.
 *
 *	expected a rate such as 10G, 500Mbit, 1Mpps or 50%; unknown unit "Gbt" in "1Gbt"
 *
 * Callers (the engine's config loader) prefix it with file, section and key.
 * Leading and trailing blanks are ignored; anything else that is not part of
 * the value is an error (no bare atoi/strtol behaviour).
 *
 * Decimal values ("1.5s", "2.5Gbit", "0.1%") are computed exactly in integer
 * arithmetic; a value that would need a fraction of the base unit (e.g.
 * "1.5ns", "0.5B") is rejected rather than rounded.
 */
#ifndef CFG_H
#define CFG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Recommended size of an error buffer. */
#define CFG_ERR_LEN 256

/** Fixed-point base of cfg_parse_ratio(): 1e9 means 100 % (parts per billion). */
#define CFG_RATIO_ONE 1000000000u

/**
 * Unsigned integer in [min, max]. Decimal, or hexadecimal with 0x prefix.
 * No sign, no unit, "_" not accepted.
 */
int cfg_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		char *err, size_t errlen);

/** Signed decimal integer in [min, max]; optional leading '-' or '+'. */
int cfg_parse_i64(const char *s, int64_t min, int64_t max, int64_t *out,
		char *err, size_t errlen);

/** Convenience: unsigned integer in [min, max] that fits in 32 bits. */
int cfg_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out,
		char *err, size_t errlen);

/**
 * Boolean: on/off, yes/no, true/false, 1/0, enable(d)/disable(d);
 * case-insensitive. *out is 1 or 0.
 */
int cfg_parse_bool(const char *s, int *out, char *err, size_t errlen);

/** What a parsed rate counts (struct cfg_rate). */
enum cfg_rate_unit {
	CFG_RATE_BPS = 0,	/* bits per second */
	CFG_RATE_PPS,		/* packets per second: bit/s once the frame size is known */
	CFG_RATE_LINE,		/* share of the port's line rate, CFG_RATIO_ONE = 100 % */
};

/**
 * A rate as written, before it becomes bit/s: packet rates need the frame
 * size and shares of the line rate the port's link speed, both known only at
 * set-up (cfg_rate_resolve()).
 */
struct cfg_rate {
	uint64_t value;			/* bit/s, packets/s or parts per billion */
	enum cfg_rate_unit unit;
};

/**
 * Rate in any unit: a number (decimal fractions allowed) with an optional
 * prefix and a unit.
 *   prefixes: k/K = 1e3, M = 1e6, G = 1e9, T = 1e12 (SI, case-insensitive);
 *             Ki, Mi, Gi, Ti = 2^10 .. 2^40 (IEC; bits and bytes only)
 *   bit/s:    "bit", "bit/s", "bps", "b/s", or the SI prefix alone
 *             (10G = 10Gbit = 10Gbps; 1Gibit = 2^30 bit/s); a bare number
 *   bytes/s:  "B/s", "Bps", "Byte/s", "byte/s" (x 8; 125MB/s = 1Gbit)
 *   packets:  "pps", "pkt/s" with an SI prefix (1Mpps, 14.88Mpps), at least 1
 *   line:     "%" of the port's line rate, above 0 and at most 100 (50%)
 * Units are case-sensitive in b/B only ("Mbps" is bits, "MBps" bytes).
 * Bit/s and packet rates must be whole numbers after the prefix; a share
 * has a resolution of 1e-7 % (parts per billion).
 */
int cfg_parse_rate_any(const char *s, struct cfg_rate *out, char *err, size_t errlen);

/**
 * r as bit/s: a packet rate times frame_l1_bytes x 8 (the frame with its
 * FCS, preamble and inter-frame gap: pkt_size + 20), a share of the line rate
 * times line_bps. -EINVAL with the reason when the size or the speed it needs
 * is 0 (unknown), -ERANGE when the result is 0 or over 2^64 - 1 bit/s.
 */
int cfg_rate_resolve(const struct cfg_rate *r, uint64_t frame_l1_bytes, uint64_t line_bps,
		uint64_t *out_bps, char *err, size_t errlen);

/** r as written for messages: "1000000 pkt/s", "50%", "10000000000 bit/s". */
void cfg_rate_str(const struct cfg_rate *r, char *buf, size_t len);

/** Most points of a rate profile; its times in ns, at most this. */
#define CFG_PROFILE_MAX 32
#define CFG_PROFILE_TIME_MAX_NS (366ull * 86400 * 1000000000)

/**
 * A timed rate profile as written: rate[i] from t_ns[i] on. Steps: each
 * rate holds until the next point's time; a ramp: linear from one point to
 * the next. After the last point its rate holds.
 */
struct cfg_rate_profile {
	unsigned int n;				/* points, 1..CFG_PROFILE_MAX */
	int ramp;				/* 1: linear between points; 0: steps */
	uint64_t t_ns[CFG_PROFILE_MAX];		/* t_ns[0] = 0, then increasing */
	struct cfg_rate rate[CFG_PROFILE_MAX];	/* each above 0, any unit */
};

/**
 * 1 when s is written as a rate profile (it has a ':' or starts with a
 * word and a blank, as "ramp 0s:1G,..."), 0 for a single rate.
 */
int cfg_rate_is_profile(const char *s);

/**
 * Rate profile: "[steps|ramp] TIME:RATE, TIME:RATE, ..." (steps when no
 * form is given; "0s:1G, 5s:5G, 10s:10G", "ramp 0s:1G, 10s:10G"). TIME as
 * cfg_parse_time() with seconds for a bare number; RATE as
 * cfg_parse_rate_any(), above 0. The first point is at 0, times increase,
 * at most CFG_PROFILE_MAX points, a ramp has two at least. The reason names
 * the point (point 2 "5x:5G": ...).
 */
int cfg_parse_rate_profile(const char *s, struct cfg_rate_profile *out, char *err,
		size_t errlen);

/**
 * Rate in bits per second, in [min, max]: the bit/s forms of
 * cfg_parse_rate_any(). A packet rate or a share of the line rate is refused
 * ("a packet rate needs a frame size; give bit/s"): where a frame size or a
 * link speed is known, read the key with cfg_parse_rate_any().
 */
int cfg_parse_rate(const char *s, uint64_t min, uint64_t max, uint64_t *out_bps,
		char *err, size_t errlen);

/**
 * Duration in nanoseconds, in [min_ns, max_ns].
 * Number (decimal fractions allowed) followed by a unit: ns, us (or µs),
 * ms, s, min, h. A bare number is accepted only when default_unit_ns is not 0
 * (it is then multiplied by it, e.g. 1000000000 for seconds).
 */
int cfg_parse_time(const char *s, uint64_t default_unit_ns, uint64_t min_ns,
		uint64_t max_ns, uint64_t *out_ns, char *err, size_t errlen);

/**
 * Size in bytes, in [min, max].
 * Number followed by an optional unit: B; kB/KB (1e3), MB, GB, TB (SI);
 * KiB, MiB, GiB, TiB (1024-based). A bare number is bytes. Decimal
 * fractions allowed when the result is a whole number of bytes ("1.5KiB").
 */
int cfg_parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		char *err, size_t errlen);

/**
 * Ratio in parts per billion (CFG_RATIO_ONE = 1e9 = 100 %), e.g. for packet
 * loss rates. "1.5%" -> 15000000; a bare number is a fraction in [0, 1]
 * ("0.015" is the same value). Must lie in [min_ppb, max_ppb] (<= 1e9).
 * Resolution: 1e-9 (finer input is rejected, not rounded).
 */
int cfg_parse_ratio(const char *s, uint32_t min_ppb, uint32_t max_ppb,
		uint32_t *out_ppb, char *err, size_t errlen);

/** Convert a ratio from cfg_parse_ratio() to a double in [0, 1] (set-up only). */
static inline double
cfg_ratio_to_double(uint32_t ppb)
{
	return (double)ppb / (double)CFG_RATIO_ONE;
}

/**
 * IPv4 address in dotted-quad form ("10.0.0.1"), no leading zeros in an
 * octet (avoids the octal ambiguity). *out is in host byte order.
 */
int cfg_parse_ipv4(const char *s, uint32_t *out, char *err, size_t errlen);

/**
 * IPv4 prefix "A.B.C.D/LEN" (LEN 0..32). A bare address means /32.
 * When strict is non-zero, host bits below the prefix must be zero.
 * *addr in host byte order.
 */
int cfg_parse_ipv4_prefix(const char *s, int strict, uint32_t *addr, uint8_t *len,
		char *err, size_t errlen);

/** MAC address "02:00:00:00:00:01" (':' or '-' separators, hex, case-insensitive). */
int cfg_parse_mac(const char *s, uint8_t mac[6], char *err, size_t errlen);

/**
 * L4 port or port range: "80" or "1000-2000" (inclusive, lo <= hi,
 * 0..65535).
 */
int cfg_parse_port_range(const char *s, uint16_t *lo, uint16_t *hi, char *err,
		size_t errlen);

/**
 * Object name: 1..maxlen-1 characters of [A-Za-z0-9_.-], starting with a
 * letter or digit. Used for section names such as [port p0].
 */
int cfg_check_name(const char *s, size_t maxlen, char *err, size_t errlen);

/**
 * Iterate over a comma-separated list ("a, b ,c"): copies the next item,
 * trimmed, into buf and advances *cursor. Returns 1 when an item was
 * produced, 0 at the end, -EINVAL for an empty item ("a,,b") or
 * -ENAMETOOLONG when an item does not fit in buf (message in err).
 */
int cfg_list_next(const char **cursor, char *buf, size_t buflen, char *err,
		size_t errlen);

/**
 * Edit distance between a and b (optimal string alignment: insertions,
 * deletions, substitutions and swaps of two neighbours cost 1; letters
 * compared without case). Strings over 63 characters count as far apart.
 */
unsigned int cfg_edit_distance(const char *a, const char *b);

/**
 * The name of names[0..n) closest to word for a "did you mean" hint: at most
 * max_dist edits away and fewer edits than word has characters; the first
 * one of the smallest distance; NULL when none is that close.
 */
const char *cfg_closest(const char *word, const char *const *names, unsigned int n,
		unsigned int max_dist);

/**
 * Split a whitespace-separated string (e.g. EAL arguments) in place into
 * argv[]; at most max_args entries. Returns the count or -E2BIG.
 * No quoting is supported.
 */
int cfg_split_words(char *s, char **argv, int max_args);

#ifdef __cplusplus
}
#endif

#endif /* CFG_H */
