/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Key reader: one config section being parsed (keys.c). Section parsers read
 * keys through the eng_sec_*() getters; every key read is marked used, and
 * the loader reports any key left unused as unknown, listing the keys that
 * were asked for. Getters leave *out untouched when the key is absent (so it
 * keeps its default) and return 0; on a bad value they write the error
 * "FILE:LINE: [SECTION] KEY: reason" and return a negative errno. No EAL.
 */
#ifndef ENG_KEYS_H
#define ENG_KEYS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_cfgfile.h>	/* CFG_NAME_LEN, CFG_VALUE_LEN */
#include <rte_common.h>
#include <rte_ether.h>

#include "cfg.h"
#include "core/defs.h"

/* One "key = value" of a section (strings owned by the loader or the preset reader). */
struct eng_sec_entry {
	const char *name;
	const char *value;
};

struct eng_sec {
	const char *file;
	char name[CFG_NAME_LEN];   /* whole name: "port p0" */
	char kind[CFG_NAME_LEN];   /* "port" */
	char id[CFG_NAME_LEN];     /* "p0", or "" for unnamed sections */
	int line;                  /* line of the [header] */
	int nb_entries;
	struct eng_sec_entry entries[ENG_MAX_KEYS];
	int entry_line[ENG_MAX_KEYS];
	uint8_t used[ENG_MAX_KEYS];
	const char *asked[ENG_MAX_KEYS]; /* keys the parser asked for (for "unknown key") */
	int nb_asked;
	/* the first key read with eng_sec_get() whose value is CFG_VALUE_LEN or
	 * longer: the loader refuses it (only eng_sec_get_long() keys may be) */
	const char *long_key;
	char *err;
	size_t errlen;
};

/* The line of key in sec (the [header]'s when the key is absent or NULL). */
int eng_sec_line(const struct eng_sec *sec, const char *key);
int eng_sec_error(struct eng_sec *sec, const char *key, const char *fmt, ...)
	__rte_format_printf(3, 4);
const char *eng_sec_get(struct eng_sec *sec, const char *key);
/* The same for a key whose value may be of any length (lists of names such
 * as a task's "flows"); eng_sec_get() values are shorter than CFG_VALUE_LEN. */
const char *eng_sec_get_long(struct eng_sec *sec, const char *key);
int eng_sec_missing(struct eng_sec *sec, const char *key, const char *expected);
int eng_sec_str(struct eng_sec *sec, const char *key, char *buf, size_t len);
int eng_sec_name(struct eng_sec *sec, const char *key, char *buf, size_t len);
int eng_sec_u64(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int eng_sec_u32(struct eng_sec *sec, const char *key, uint32_t min, uint32_t max, uint32_t *out);
int eng_sec_u16(struct eng_sec *sec, const char *key, uint16_t min, uint16_t max, uint16_t *out);
int eng_sec_bool(struct eng_sec *sec, const char *key, int *out);
int eng_sec_rate(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
/* A rate in any unit (cfg_parse_rate_any()): bit/s checked against [min_bps,
 * max_bps] here; a packet rate or a share of the line rate is the caller's to
 * resolve at set-up (cfg_rate_resolve()) and to check there. eng_sec_rate()
 * takes bit/s only and refuses the others with the reason. */
int eng_sec_rate_any(struct eng_sec *sec, const char *key, uint64_t min_bps, uint64_t max_bps,
		struct cfg_rate *out);
/* A timed rate profile (cfg_parse_rate_profile()) when the value is written
 * as one; out->n 0 (nothing read) for a single rate or no key. Bit/s points
 * checked against [min_bps, max_bps]; bits_only: packet rates and shares of
 * the line rate refused (a [flow]'s rate). */
int eng_sec_rate_profile(struct eng_sec *sec, const char *key, uint64_t min_bps,
		uint64_t max_bps, int bits_only, struct cfg_rate_profile *out);
int eng_sec_time(struct eng_sec *sec, const char *key, uint64_t bare_unit_ns, uint64_t min,
		uint64_t max, uint64_t *out);
int eng_sec_size(struct eng_sec *sec, const char *key, uint64_t min, uint64_t max, uint64_t *out);
int eng_sec_ipv4(struct eng_sec *sec, const char *key, uint32_t *out);
int eng_sec_mac(struct eng_sec *sec, const char *key, struct rte_ether_addr *out);
int eng_sec_port_range(struct eng_sec *sec, const char *key, uint16_t *lo, uint16_t *hi);
/* "A.B.C.D:PORT" ("A.B.C.D" alone, port left as it is, when !need_port). */
int eng_sec_addr(struct eng_sec *sec, const char *key, uint32_t *ip, uint16_t *port,
		int need_port);
/* Entry j of sec is no key of its section: the error "unknown key", with the
 * closest known key ("did you mean") and every key the parser asked for. */
int eng_sec_unknown_key(struct eng_sec *sec, int j);
/* One of names[0..n) as *out; with arg, the words after it (a value such as
 * "file PATH") into arg, else nothing may follow. The error lists the names. */
int eng_sec_choice(struct eng_sec *sec, const char *key, const char *const *names, int n,
		int *out, char *arg, size_t arglen);

#endif /* ENG_KEYS_H */
