/* SPDX-License-Identifier: BSD-3-Clause */
/* The runtime directory and hugepage files of a run, and their removal (eal_clean.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "core/eal_clean.h"

#define HUGEFILE_MID "map_"
#define DERIVED_NAME_MAX 39 /* eal_derive_prefix(): the config name, at most 39 characters */

void
eng_eal_run_base(char *out, size_t len)
{
	const char *dir = "/var/run";

	/* as rte_eal_init()'s eal_create_runtime_dir() */
	if (getuid() != 0) {
		dir = getenv("XDG_RUNTIME_DIR");
		if (dir == NULL)
			dir = "/tmp";
	}
	snprintf(out, len, "%s/dpdk", dir);
}

static void
huge_add(struct eng_eal_huge *h, const char *dir)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->dir[i], dir) == 0)
			return;
	if (h->n < ENG_EAL_MAX_HUGEDIRS)
		snprintf(h->dir[h->n++], sizeof(h->dir[0]), "%s", dir);
}

/* /proc/mounts writes space, tab, newline and backslash in a path as \ooo. */
static void
mount_unescape(char *s)
{
	char *r = s, *w = s;

	while (*r != '\0') {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
				r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
}

int
eng_mounts_each(const char *mounts, const char *fstype,
		int (*fn)(const char *dir, void *arg), void *arg)
{
	char line[PATH_MAX + 256], *dev, *dir, *type, *save;
	FILE *f = fopen(mounts, "r");
	int rc = 0;

	if (f == NULL)
		return 0;
	while (rc == 0 && fgets(line, sizeof(line), f) != NULL) {
		save = NULL;
		dev = strtok_r(line, " \t\n", &save);
		dir = strtok_r(NULL, " \t\n", &save);
		type = strtok_r(NULL, " \t\n", &save);
		if (dev == NULL || dir == NULL || type == NULL || strcmp(type, fstype) != 0)
			continue;
		mount_unescape(dir);
		rc = fn(dir, arg);
	}
	fclose(f);
	return rc;
}

static int
huge_mount(const char *dir, void *h)
{
	huge_add(h, dir);
	return 0;
}

static void
huge_from_mounts(struct eng_eal_huge *h, const char *mounts)
{
	(void)eng_mounts_each(mounts, "hugetlbfs", huge_mount, h);
}

int
eng_eal_hugedirs(struct eng_eal_huge *h, int argc, char **argv, const char *mounts)
{
	const char *set = NULL;
	int i;

	h->n = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-huge") == 0)
			return 0;
		if (strcmp(argv[i], "--huge-dir") == 0 && i + 1 < argc)
			set = argv[++i];
		else if (strncmp(argv[i], "--huge-dir=", 11) == 0)
			set = argv[i] + 11;
	}
	if (set != NULL)
		huge_add(h, set);
	else
		huge_from_mounts(h, mounts);
	return h->n;
}

/* 1 when name is <prefix>map_<digits>. */
static int
hugefile_of(const char *name, const char *prefix)
{
	size_t n = strlen(prefix), m = strlen(HUGEFILE_MID);

	if (strncmp(name, prefix, n) != 0 || strncmp(name + n, HUGEFILE_MID, m) != 0)
		return 0;
	name += n + m;
	if (*name == '\0')
		return 0;
	for (; *name != '\0'; name++)
		if (*name < '0' || *name > '9')
			return 0;
	return 1;
}

/* 1 when some process holds an flock on path (DPDK's hugepage files: a shared one each). */
static int
flock_held(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), held;

	if (fd < 0)
		return errno != ENOENT;
	held = flock(fd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

int
eng_eal_hugefiles_remove(const char *dir, const char *prefix, int check_lock, int *held)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (prefix[0] == '\0' || (d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (!hugefile_of(de->d_name, prefix))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path))
			continue;
		if (check_lock && flock_held(path)) {
			(*held)++;
			continue;
		}
		if (unlink(path) == 0)
			n++;
	}
	closedir(d);
	return n;
}

int
eng_eal_mark_write(const char *rundir, const struct eng_eal_huge *h)
{
	char path[PATH_MAX];
	FILE *f;
	int i, rc = 0;

	if (snprintf(path, sizeof(path), "%s/%s", rundir, ENG_EAL_MARK) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	for (i = 0; i < h->n; i++)
		fprintf(f, "%s\n", h->dir[i]);
	if (fclose(f) != 0)
		rc = -errno;
	return rc;
}

int
eng_eal_mark_read(const char *rundir, struct eng_eal_huge *h)
{
	char path[PATH_MAX], line[PATH_MAX];
	FILE *f;

	h->n = 0;
	if (snprintf(path, sizeof(path), "%s/%s", rundir, ENG_EAL_MARK) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "r");
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '/')
			huge_add(h, line);
	}
	fclose(f);
	return 0;
}

void
eng_eal_rundir_remove(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) < (int)sizeof(path))
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

int
eng_eal_run_remove(const char *rundir, const char *prefix, const struct eng_eal_huge *h,
		int check_lock)
{
	int i, n = 0, held = 0;

	for (i = 0; i < h->n; i++)
		n += eng_eal_hugefiles_remove(h->dir[i], prefix, check_lock, &held);
	if (held == 0)
		eng_eal_rundir_remove(rundir); /* else kept, mark and all, for a later start */
	return n;
}

int
eng_eal_derived_name(const char *name, long *pid)
{
	const char *dash = strrchr(name, '-'), *p;
	size_t len = dash != NULL ? (size_t)(dash - name) : 0, digits;

	if (len == 0 || len > DERIVED_NAME_MAX)
		return 0;
	for (p = name; p < dash; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				(*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return 0;
	digits = strlen(dash + 1);
	if (digits == 0 || digits > 10 || dash[1] == '0' ||
			strspn(dash + 1, "0123456789") != digits)
		return 0;
	*pid = strtol(dash + 1, NULL, 10);
	return *pid <= 0x7fffffffL;
}

/* 1 when a process holds an fcntl lock on <rundir>/config (a live primary does). */
static int
config_locked(const char *rundir)
{
	struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
	char path[PATH_MAX];
	int fd, locked;

	if (snprintf(path, sizeof(path), "%s/config", rundir) >= (int)sizeof(path))
		return 1;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return errno != ENOENT; /* none: --no-shconf; unreadable: not ours to judge */
	locked = fcntl(fd, F_GETLK, &fl) < 0 || fl.l_type != F_UNLCK;
	close(fd);
	return locked;
}

/* A zombie (killed, not yet reaped) holds no lock and no mapping: dead. */
static int
pid_zombie(long pid)
{
	char path[64], buf[512], *rp;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	rp = strrchr(buf, ')'); /* "pid (comm) S ...": comm may hold spaces and parentheses */
	return rp != NULL && rp[1] == ' ' && rp[2] == 'Z';
}

static int
pid_alive(long pid)
{
	if (pid == (long)getpid())
		return 1;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 0;
	return !pid_zombie(pid);
}

void
eng_eal_stale_clean(const char *base, struct eng_eal_stale *s)
{
	static struct eng_eal_huge h; /* PATH_MAX-sized: not on the stack */
	char rundir[PATH_MAX];
	struct dirent *de;
	long pid;
	DIR *d;

	memset(s, 0, sizeof(*s));
	d = opendir(base);
	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (!eng_eal_derived_name(de->d_name, &pid) || pid_alive(pid))
			continue;
		if (snprintf(rundir, sizeof(rundir), "%s/%s", base, de->d_name) >=
				(int)sizeof(rundir))
			continue;
		if (eng_eal_mark_read(rundir, &h) < 0 || config_locked(rundir))
			continue;
		s->files += eng_eal_run_remove(rundir, de->d_name, &h, 1);
		if (s->runs++ == 0)
			snprintf(s->first, sizeof(s->first), "%s", rundir);
	}
	closedir(d);
}
