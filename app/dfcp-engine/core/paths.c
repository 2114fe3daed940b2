/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where the drivers-config presets are: $DFCP_DRIVERS_DIR; else, for an
 * installed engine, <bindir>/../<datadir>/dfcp-engine/drivers-config next to
 * the program (ENG_DRIVERS_REL, relative to the bindir); else the source
 * tree's drivers-config (ENG_DRIVERS_DIR, for the program in build/).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/paths.h"

void
eng_drivers_dir_default(char *buf, size_t len)
{
	const char *env = getenv("DFCP_DRIVERS_DIR");
	char exe[PATH_MAX], cand[PATH_MAX + 64];
	ssize_t n;
	char *slash;

	buf[0] = '\0';
	if (env != NULL && env[0] != '\0') {
		snprintf(buf, len, "%s", env);
		return;
	}
#ifdef ENG_DRIVERS_REL
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash != NULL) {
			*slash = '\0';
			snprintf(cand, sizeof(cand), "%s/%s", exe, ENG_DRIVERS_REL);
			if (access(cand, R_OK | X_OK) == 0) {
				snprintf(buf, len, "%s", cand);
				return;
			}
		}
	}
#else
	(void)exe, (void)cand, (void)n, (void)slash;
#endif
#ifdef ENG_DRIVERS_DIR
	snprintf(buf, len, "%s", ENG_DRIVERS_DIR);
#endif
}
