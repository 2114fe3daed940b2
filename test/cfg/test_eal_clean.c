/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A run's leftovers and their removal (app/dfcp-engine/core/eal_clean.c) on
 * plain directories: the derived-name form, the hugepage directories of an
 * argument vector, <prefix>map_N matching, the mark file, and the stale scan
 * that removes dead engine runs only (no mark, a live PID, a locked config or
 * a hugepage file in use keep a directory). No EAL.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_harness.h"
#include "core/eal_clean.h"

static char root[256];

static void
touch(const char *dir, const char *name)
{
	char path[PATH_MAX * 2];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	REQUIRE(f != NULL);
	fclose(f);
}

static int
exists(const char *dir, const char *name)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* mkdir parent/name into out */
static void
sub(char *out, const char *parent, const char *name)
{
	snprintf(out, PATH_MAX, "%s/%s", parent, name);
	REQUIRE(mkdir(out, 0700) == 0 || errno == EEXIST);
}

static void
test_derived_name(void)
{
	static const char *const yes[] = {"default-123", "a-b-7", "my_cfg_-4242", "x-2147483647"};
	static const char *const no[] = {"x", "-5", "name-", "name-0", "name-01", "na me-5",
			"x-2147483648", "x-12345678901", "name-5a", "rte",
			"a234567890123456789012345678901234567890-5"};
	long pid;
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		CHECKF(eng_eal_derived_name(yes[i], &pid) == 1, "%s", yes[i]);
	CHECK(eng_eal_derived_name("a-b-7", &pid) == 1 && pid == 7);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		CHECKF(eng_eal_derived_name(no[i], &pid) == 0, "%s", no[i]);
}

static void
test_hugedirs(void)
{
	static struct eng_eal_huge h;
	char mounts[sizeof(root) + 16];
	char *a_none[] = {"prog", "--no-huge", "-m", "512"};
	char *a_dir[] = {"prog", "--huge-dir", "/mnt/a", "-m", "512"};
	char *a_eq[] = {"prog", "--huge-dir=/mnt/b"};
	char *a_auto[] = {"prog", "-l", "0"};
	FILE *f;

	snprintf(mounts, sizeof(mounts), "%s/mounts", root);
	f = fopen(mounts, "w");
	REQUIRE(f != NULL);
	fputs("proc /proc proc rw 0 0\n"
			"nodev /dev/hugepages hugetlbfs rw,relatime,pagesize=2M 0 0\n"
			"nodev /mnt/huge\\0401g hugetlbfs rw,pagesize=1024M 0 0\n"
			"tmpfs /mnt/huge tmpfs rw 0 0\n", f);
	fclose(f);
	CHECK(eng_eal_hugedirs(&h, 4, a_none, mounts) == 0);
	CHECK(eng_eal_hugedirs(&h, 5, a_dir, mounts) == 1 && strcmp(h.dir[0], "/mnt/a") == 0);
	CHECK(eng_eal_hugedirs(&h, 2, a_eq, mounts) == 1 && strcmp(h.dir[0], "/mnt/b") == 0);
	CHECK(eng_eal_hugedirs(&h, 3, a_auto, mounts) == 2);
	CHECK(strcmp(h.dir[0], "/dev/hugepages") == 0);
	CHECKF(strcmp(h.dir[1], "/mnt/huge 1g") == 0, "%s", h.dir[1]);
	CHECK(eng_eal_hugedirs(&h, 3, a_auto, "/nonexistent/mounts") == 0);
}

static void
test_hugefiles(void)
{
	static const char *const keep[] = {"p-1map_0", "pmap_x", "pmap_", "qmap_0", "pmap_1x",
			"xpmap_0"};
	char dir[PATH_MAX], path[PATH_MAX * 2];
	int fd, held = 0;
	size_t i;

	sub(dir, root, "huge");
	touch(dir, "pmap_0");
	touch(dir, "pmap_12");
	touch(dir, "pmap_3");
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		touch(dir, keep[i]);
	/* a shared flock, as a DPDK process mapping the file holds */
	snprintf(path, sizeof(path), "%s/pmap_3", dir);
	fd = open(path, O_RDONLY);
	REQUIRE(fd >= 0 && flock(fd, LOCK_SH) == 0);
	CHECK(eng_eal_hugefiles_remove(dir, "p", 1, &held) == 2 && held == 1);
	CHECK(!exists(dir, "pmap_0") && !exists(dir, "pmap_12") && exists(dir, "pmap_3"));
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		CHECKF(exists(dir, keep[i]), "%s removed", keep[i]);
	/* without the lock check (the run's own files at exit) */
	CHECK(eng_eal_hugefiles_remove(dir, "p", 0, &held) == 1 && !exists(dir, "pmap_3"));
	close(fd);
	CHECK(eng_eal_hugefiles_remove(dir, "", 0, &held) == 0);
	CHECK(eng_eal_hugefiles_remove("/nonexistent", "p", 0, &held) == 0);
}

/* A run's runtime directory as the EAL and the engine leave it. */
static void
fake_run(char *rundir, const char *base, const char *name, const char *hugedir, int mark)
{
	static struct eng_eal_huge h;
	char file[PATH_MAX];

	sub(rundir, base, name);
	touch(rundir, "config");
	touch(rundir, "hugepage_info");
	touch(rundir, "mp_socket");
	snprintf(file, sizeof(file), "%smap_0", name);
	touch(hugedir, file);
	snprintf(file, sizeof(file), "%smap_1", name);
	touch(hugedir, file);
	h.n = 1;
	snprintf(h.dir[0], sizeof(h.dir[0]), "%s", hugedir);
	if (mark)
		REQUIRE(eng_eal_mark_write(rundir, &h) == 0);
}

static pid_t
dead_pid(void)
{
	pid_t pid = fork();

	REQUIRE(pid >= 0);
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* A child holding an fcntl write lock on path, as a live primary on its config. */
static pid_t
lock_holder(const char *path)
{
	int p[2];
	char c;
	pid_t pid;

	REQUIRE(pipe(p) == 0);
	pid = fork();
	REQUIRE(pid >= 0);
	if (pid == 0) {
		struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
		int fd = open(path, O_RDWR);

		if (fd < 0 || fcntl(fd, F_SETLK, &fl) < 0)
			_exit(1);
		(void)write(p[1], "x", 1);
		pause();
		_exit(0);
	}
	close(p[1]);
	REQUIRE(read(p[0], &c, 1) == 1);
	close(p[0]);
	return pid;
}

static void
test_stale(void)
{
	static struct eng_eal_huge h;
	static struct eng_eal_stale s;
	char base[PATH_MAX], huge[PATH_MAX], dead[PATH_MAX], name[64], lockname[64];
	char live[PATH_MAX], nomark[PATH_MAX], other[PATH_MAX], locked[PATH_MAX], cfg[PATH_MAX + 8];
	pid_t gone = dead_pid(), holder;

	sub(base, root, "dpdk");
	sub(huge, root, "huge2");
	snprintf(name, sizeof(name), "default-%d", (int)gone);
	fake_run(dead, base, name, huge, 1);
	REQUIRE(eng_eal_mark_read(dead, &h) == 0 && h.n == 1 && strcmp(h.dir[0], huge) == 0);
	snprintf(lockname, sizeof(lockname), "default-%d", (int)getpid());
	fake_run(live, base, lockname, huge, 1);
	snprintf(lockname, sizeof(lockname), "nomark-%d", (int)gone);
	fake_run(nomark, base, lockname, huge, 0);
	fake_run(other, base, "other", huge, 1);
	snprintf(lockname, sizeof(lockname), "locked-%d", (int)gone);
	fake_run(locked, base, lockname, huge, 1);
	snprintf(cfg, sizeof(cfg), "%s/config", locked);
	holder = lock_holder(cfg);

	eng_eal_stale_clean(base, &s);
	CHECKF(s.runs == 1 && s.files == 2, "runs %d files %d", s.runs, s.files);
	CHECKF(strcmp(s.first, dead) == 0, "%s", s.first);
	CHECK(access(dead, F_OK) != 0);
	snprintf(cfg, sizeof(cfg), "%smap_0", name);
	CHECK(!exists(huge, cfg));
	CHECK(access(live, F_OK) == 0 && access(nomark, F_OK) == 0);
	CHECK(access(other, F_OK) == 0 && access(locked, F_OK) == 0);
	snprintf(cfg, sizeof(cfg), "%smap_0", lockname);
	CHECK(exists(huge, cfg));
	/* the primary gone: its lock with it */
	kill(holder, SIGKILL);
	waitpid(holder, NULL, 0);
	eng_eal_stale_clean(base, &s);
	CHECK(s.runs == 1 && s.files == 2 && access(locked, F_OK) != 0);
	eng_eal_stale_clean("/nonexistent", &s);
	CHECK(s.runs == 0);
}

/* A hugepage file still mapped (an flock held) keeps the directory for a later start. */
static void
test_stale_busy(void)
{
	static struct eng_eal_stale s;
	char base[PATH_MAX], huge[PATH_MAX], run[PATH_MAX], name[64], path[PATH_MAX * 2];
	int fd;

	sub(base, root, "dpdk2");
	sub(huge, root, "huge3");
	snprintf(name, sizeof(name), "busy-%d", (int)dead_pid());
	fake_run(run, base, name, huge, 1);
	snprintf(path, sizeof(path), "%s/%smap_1", huge, name);
	fd = open(path, O_RDONLY);
	REQUIRE(fd >= 0 && flock(fd, LOCK_SH) == 0);
	eng_eal_stale_clean(base, &s);
	CHECK(s.files == 1 && access(run, F_OK) == 0 && access(path, F_OK) == 0);
	close(fd);
	eng_eal_stale_clean(base, &s);
	CHECK(s.runs == 1 && s.files == 1 && access(run, F_OK) != 0);
}

/* A killed run not yet reaped (a zombie) is dead: it holds no lock and no mapping. */
static void
test_stale_zombie(void)
{
	static struct eng_eal_stale s;
	char base[PATH_MAX], huge[PATH_MAX], run[PATH_MAX], name[64];
	pid_t z = fork();

	REQUIRE(z >= 0);
	if (z == 0)
		_exit(0);
	usleep(100000); /* exited, not waited for */
	sub(base, root, "dpdk3");
	sub(huge, root, "huge4");
	snprintf(name, sizeof(name), "zombie-%d", (int)z);
	fake_run(run, base, name, huge, 1);
	eng_eal_stale_clean(base, &s);
	CHECK(s.runs == 1 && s.files == 2 && access(run, F_OK) != 0);
	waitpid(z, NULL, 0);
}

int
main(void)
{
	char tmpl[] = "/tmp/test-eal-clean-XXXXXX", cmd[PATH_MAX + 16];

	REQUIRE(mkdtemp(tmpl) != NULL);
	snprintf(root, sizeof(root), "%s", tmpl);
	test_derived_name();
	test_hugedirs();
	test_hugefiles();
	test_stale();
	test_stale_busy();
	test_stale_zombie();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmpl);
	return test_report("eal-clean");
}
