/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers shared by the engine config loader tests (test/cfg/test_config.c,
 * test/engine/test_route_config.c): write a config text to a temporary file,
 * load it with eng_config_load(), expect success or an error naming given
 * strings, and edit a good base config. No EAL.
 *
 * Define TEST_CONFIG_PATH (a mkstemp() template) before including; the file
 * path and the loaded config live here, one set per test; failures are counted
 * by test_harness.h.
 */
#ifndef TEST_CONFIG_UTIL_H
#define TEST_CONFIG_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/config.h"
#include "test_harness.h"

#ifndef TEST_CONFIG_PATH
#error "define TEST_CONFIG_PATH (a mkstemp template) before including test_config_util.h"
#endif

static char path[] = TEST_CONFIG_PATH;
static struct eng_config cfg;

/* Create the temporary config file: 0, or -1 after printing why. */
static inline int
config_file_create(void)
{
	int fd = mkstemp(path);

	if (fd < 0) {
		perror("mkstemp");
		return -1;
	}
	close(fd);
	return 0;
}

/* Remove the config file, report the failures: the test's exit status. */
static inline int
config_file_finish(const char *test)
{
	unlink(path);
	return test_report(test);
}

/* Write text to the config file and load it into cfg. */
static inline int
load(const char *text, char *err, size_t len)
{
	FILE *f = fopen(path, "w");

	if (f == NULL) {
		perror(path);
		exit(1);
	}
	fputs(text, f);
	fclose(f);
	err[0] = '\0';
	return eng_config_load(&cfg, path, err, len);
}

static inline void
expect_ok(const char *name, const char *text)
{
	char err[ENG_ERR_LEN];

	if (load(text, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL %s: expected success, got: %s\n", name, err);
		test_failures++;
		return;
	}
	eng_config_free(&cfg);
}

/* Expect text to fail to load with an error naming the file, n1 and (unless NULL) n2. */
static inline void
expect_err(const char *name, const char *text, const char *n1, const char *n2)
{
	char err[ENG_ERR_LEN];

	if (load(text, err, sizeof(err)) == 0) {
		fprintf(stderr, "FAIL %s: loaded, expected an error with \"%s\"\n", name, n1);
		eng_config_free(&cfg);
		test_failures++;
		return;
	}
	if (strstr(err, path) == NULL || strstr(err, n1) == NULL ||
			(n2 != NULL && strstr(err, n2) == NULL)) {
		fprintf(stderr, "FAIL %s: message \"%s\" lacks \"%s\"/\"%s\"\n", name, err, n1,
				n2 ? n2 : "");
		test_failures++;
		return;
	}
	printf("ok %s: %s\n", name, err);
}

/* base with its first occurrence of from replaced by to (a static buffer). */
static inline char *
config_edit(const char *base, const char *from, const char *to)
{
	static char buf[8192];
	const char *p = strstr(base, from);

	if (p == NULL) {
		fprintf(stderr, "test bug: \"%s\" not in base\n", from);
		exit(1);
	}
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(p - base), base, to, p + strlen(from));
	return buf;
}

#endif /* TEST_CONFIG_UTIL_H */
