/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * libFuzzer harness over the whole config loader (eng_config_load: the
 * pre-scan, rte_cfgfile, every section kind and key, the cross-reference
 * checks, every kind's check). The input is the file's bytes, handed to the
 * loader through a memfd path; a loaded config is freed again. Whatever the
 * bytes, the loader must return (0 or an error with its text), never crash,
 * hang or leak. Built and run by scripts/fuzz.sh (suite 'fuzz'), corpus: the
 * shipped configs/.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_log.h>

#include "config/config.h"

#define FUZZ_MAX_INPUT (256 * 1024)

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The loader's notes and log lines go nowhere (sanitizer reports still use fd 2). */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *null = fopen("/dev/null", "w");

	(void)argc;
	(void)argv;
	if (null != NULL) {
		stderr = null;
		rte_openlog_stream(null);
	}
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct eng_config cfg;	/* large: not on the stack */
	char err[ENG_ERR_LEN], path[64];
	int fd;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	fd = memfd_create("fuzz.ini", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		err[0] = '\0';
		if (eng_config_load(&cfg, path, err, sizeof(err)) == 0)
			eng_config_free(&cfg);
		else if (err[0] == '\0')
			__builtin_trap();	/* every refusal says why */
	}
	close(fd);
	return 0;
}
