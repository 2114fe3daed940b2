/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The files a run will write, checked before it starts (before EAL): the
 * summary JSON, the time series, the intervals JSON, flows' sink files and
 * captures. A path
 * that exists must be a writable regular file (or a character device such
 * as /dev/null); otherwise its folder must exist and be writable. Nothing
 * is created here.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/config.h"
#include "config/flow.h"
#include "obs/obs.h"

int
eng_output_check(const char *what, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];
	struct stat sb;

	if (path[0] == '\0')
		return 0;
	if (stat(path, &sb) == 0) {
		if (!S_ISREG(sb.st_mode) && !S_ISCHR(sb.st_mode)) {
			snprintf(err, errlen, "%s %s: not a regular file", what, path);
			return -EISDIR;
		}
		if (access(path, W_OK) != 0) {
			snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
			return -errno;
		}
		return 0;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		return -errno;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK | X_OK) != 0) {
		int e = errno;

		snprintf(dir, sizeof(dir), "%s", path);
		snprintf(err, errlen, "%s %s: folder %s: %s", what, path, dirname(dir), strerror(e));
		return -e;
	}
	return 0;
}

int
eng_config_outputs_check(const struct eng_config *cfg, char *err, size_t errlen)
{
	char what[ENG_NAME_LEN + 32];
	unsigned int i;
	int rc;

	rc = eng_output_check("--summary-json", cfg->summary_json, err, errlen);
	if (rc == 0)
		rc = eng_output_check("--timeseries", cfg->timeseries, err, errlen);
	if (rc == 0)
		rc = eng_output_check("--intervals-json", cfg->intervals_json, err, errlen);
	for (i = 0; rc == 0 && i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *f = &cfg->flows[i];

		if (f->role != ENG_FLOW_RECEIVER || f->sink != ENG_SINK_FILE)
			continue;
		snprintf(what, sizeof(what), "[flow %s] sink file", f->name);
		rc = eng_output_check(what, f->path, err, errlen);
	}
	if (rc == 0)
		rc = eng_capture_outputs_check(cfg, err, errlen);
	return rc;
}
