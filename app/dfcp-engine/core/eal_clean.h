/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a run leaves on the host, and its removal (eal_clean.c): the EAL's
 * runtime directory (<base>/<prefix>: config, hugepage_info, fbarray files,
 * mp socket, telemetry socket) and its hugepage files <hugedir>/<prefix>map_N,
 * which DPDK keeps after a clean exit and a killed run leaves too.
 *
 * At exit the primary removes its own (any prefix). At start, before
 * rte_eal_init(), the engine removes the state of dead earlier engine runs:
 * a runtime directory is removed only when all of these hold
 *   - its name has the derived form NAME-PID (core/eal_args.c), and the PID is
 *     not alive: a run with a prefix someone chose may be restarted by them;
 *   - it holds the engine's mark file (ENG_EAL_MARK, written after
 *     rte_eal_init, naming the hugepage directories): never another
 *     program's prefix, and the hugepage files are found where they are;
 *   - its `config` file is not locked: a live primary holds an fcntl write
 *     lock on it (F_GETLK sees it from another process);
 * and a hugepage file only when no process holds an flock on it (every DPDK
 * process mapping it holds a shared one), as the EAL's own clear_hugedir().
 * No DPDK calls: test/cfg drives it on plain directories.
 */
#ifndef ENG_EAL_CLEAN_H
#define ENG_EAL_CLEAN_H

#include <limits.h>
#include <stddef.h>

#define ENG_EAL_MARK "dfcp-engine"
#define ENG_EAL_MAX_HUGEDIRS 4

/* The hugetlbfs directories a run may put its files in. */
struct eng_eal_huge {
	int n;
	char dir[ENG_EAL_MAX_HUGEDIRS][PATH_MAX];
};

/* What eng_eal_stale_clean() removed. */
struct eng_eal_stale {
	int runs;            /* runtime directories */
	int files;           /* hugepage files */
	char first[PATH_MAX]; /* the first directory removed, for the log */
};

/*
 * fn(dir, arg) for each mount of file system type fstype listed in mounts
 * (/proc/mounts; the directory unescaped), until fn returns non-zero: that
 * value, or 0.
 */
int eng_mounts_each(const char *mounts, const char *fstype,
		int (*fn)(const char *dir, void *arg), void *arg);

/* The EAL's runtime base: /var/run/dpdk as root, else $XDG_RUNTIME_DIR/dpdk or /tmp/dpdk. */
void eng_eal_run_base(char *out, size_t len);

/*
 * The hugepage directories of EAL arguments argv[0..argc-1] (argv[0] the
 * program): none with --no-huge, the last --huge-dir's, else every hugetlbfs
 * mount listed in mounts (/proc/mounts). Returns h->n.
 */
int eng_eal_hugedirs(struct eng_eal_huge *h, int argc, char **argv, const char *mounts);

/*
 * Remove <dir>/<prefix>map_<N>; with check_lock only the files no process
 * holds an flock on (*held counts the others). Returns the number removed.
 */
int eng_eal_hugefiles_remove(const char *dir, const char *prefix, int check_lock, int *held);

/* Write <rundir>/ENG_EAL_MARK, one hugepage directory a line; 0 or -errno. */
int eng_eal_mark_write(const char *rundir, const struct eng_eal_huge *h);

/* Read it back; 0, or -errno when there is none. */
int eng_eal_mark_read(const char *rundir, struct eng_eal_huge *h);

/* A runtime directory's plain entries (sockets, lock files, the mark), then the directory. */
void eng_eal_rundir_remove(const char *dir);

/*
 * A run's state: the hugepage files of prefix in h's directories, then rundir
 * (kept when check_lock found a file still in use). Returns the number of
 * hugepage files removed.
 */
int eng_eal_run_remove(const char *rundir, const char *prefix, const struct eng_eal_huge *h,
		int check_lock);

/* 1 when name has the derived form NAME-PID; *pid is then set. */
int eng_eal_derived_name(const char *name, long *pid);

/* Remove the state of dead engine runs under base (see above); s counts it. */
void eng_eal_stale_clean(const char *base, struct eng_eal_stale *s);

#endif /* ENG_EAL_CLEAN_H */
