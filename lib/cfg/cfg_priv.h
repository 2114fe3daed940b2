/* SPDX-License-Identifier: BSD-3-Clause */
/* lib/cfg internals shared by its parsers (cfg.c, cfg_rate.c). */
#ifndef CFG_PRIV_H
#define CFG_PRIV_H

#include <stddef.h>

/* Exact decimal arithmetic: a mantissa of up to 2^64 x 1e9 times a unit. */
typedef unsigned __int128 cfg_u128;

/* Longest value a parser reads (after trimming). */
#define CFG_MAX_INPUT 200

/* The reason into err (when not NULL); returns rc. */
int cfg_fail(int rc, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Copy s without leading/trailing blanks into buf; -EINVAL when empty or too long. */
int cfg_trim(const char *s, char *buf, size_t buflen, const char *what, char *err,
		size_t errlen);

/*
 * Parse "DIGITS[.DIGITS]" at the start of s. Returns the number of characters
 * consumed (0 when s does not start with a digit), the mantissa (all digits,
 * the point removed) and the count of fraction digits; *overflow is set when
 * the mantissa would pass 2^64 x 1e9 or has more than 18 fraction digits.
 */
size_t cfg_decimal(const char *s, cfg_u128 *mant, unsigned int *frac_digits, int *overflow);

/* 10^n */
cfg_u128 cfg_pow10(unsigned int n);

#endif /* CFG_PRIV_H */
