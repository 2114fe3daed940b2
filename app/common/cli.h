/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Command-line value parsers shared by dfcp-rq and dfcp-bench: a bad value
 * ends the program with exit code 2 and a line that names the option, the
 * value and what was expected ("dfcp-bench codec: --k: 'abc' is not an
 * integer in 1..56403").
 */
#ifndef DFCP_APP_CLI_H
#define DFCP_APP_CLI_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define CLI_EXIT_USAGE 2

static inline unsigned long long
cli_uint(const char *prog, const char *opt, const char *s, unsigned long long lo,
		unsigned long long hi)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || *s == '-' || v < lo || v > hi) {
		fprintf(stderr, "%s: %s: '%s' is not an integer in %llu..%llu\n", prog, opt, s,
				lo, hi);
		exit(CLI_EXIT_USAGE);
	}
	return v;
}

static inline double
cli_double(const char *prog, const char *opt, const char *s, double lo, double hi)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi)) {
		fprintf(stderr, "%s: %s: '%s' is not a number in %g..%g\n", prog, opt, s, lo, hi);
		exit(CLI_EXIT_USAGE);
	}
	return v;
}

#endif /* DFCP_APP_CLI_H */
