/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL arguments of a run: the config's [eal] args, then the command line's
 * (before "--"). An option on the command line replaces the config's options
 * of the same key: -l/--lcores/-c are one key, -m/--socket-mem one, --vdev,
 * -a/--allow and -b/--block are keyed by device name, --log-level by its
 * pattern ("pmd.net.ring" in pmd.net.ring:debug; none for the global level),
 * -d by its path; --no-huge and --huge-dir are one key (a run on hugepages
 * from a --no-huge config: --huge-dir DIR); every other option by its name.
 * Without --file-prefix on either, a per-run prefix "<config name>-<pid>" is
 * added, so that two engines on one host get their own runtime directory and
 * telemetry socket (core/eal_clean.h: what is removed at exit and at start).
 * No DPDK calls: test/cfg drives it.
 */
#ifndef ENG_EAL_ARGS_H
#define ENG_EAL_ARGS_H

#include <stddef.h>
#include <sys/types.h>

#define ENG_EAL_MAX_ARGS 64
#define ENG_EAL_PREFIX_LEN 64
#define ENG_EAL_WORDS_LEN 4096

struct eng_eal_args {
	int argc;                      /* argv[0] is the program name */
	char *argv[ENG_EAL_MAX_ARGS + 4];
	int prefix_derived;            /* 1: prefix[] was added by eng_eal_args_build() */
	char prefix[ENG_EAL_PREFIX_LEN];
	char words[ENG_EAL_WORDS_LEN]; /* the config's words, split in place */
};

/*
 * Build a->argv from prog, the config's args string (NULL: none) and the
 * command line's EAL words cli[0..ncli-1]; config names the prefix derived for
 * pid when neither sets --file-prefix. Returns 0, or -E2BIG with a message in
 * err when the result has more than ENG_EAL_MAX_ARGS arguments.
 */
int eng_eal_args_build(struct eng_eal_args *a, char *prog, const char *cfg_args, char **cli,
		int ncli, const char *config, pid_t pid, char *err, size_t errlen);

/*
 * Our last line after a failed rte_eal_init(), into buf (no newline):
 *   "dfcp-engine: EAL failed: STRERR: likely cause and fix"
 * from rte_errno err (strerr its rte_strerror() text), the arguments EAL got
 * and ncpus, the CPUs online: EAL's own lines (and its usage text after a bad
 * option) come before it, so the reason is the line a user sees last.
 */
void eng_eal_failure_line(const struct eng_eal_args *a, int err, const char *strerr, long ncpus,
		char *buf, size_t len);

#endif /* ENG_EAL_ARGS_H */
