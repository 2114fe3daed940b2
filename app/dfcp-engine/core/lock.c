/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One engine per kernel interface and per busy-polled CPU (lock.h). A lock
 * is an flock(2) on an open file that stays open for the life of the
 * process: nothing releases it but the process's end, so a file left behind
 * by a dead engine is free to take. The file holds the holder's PID for the
 * message of the one refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "core/lock.h"
#include "core/log.h"

/* /run/dfcp-engine as root, else under $XDG_RUNTIME_DIR or /tmp: shared by
 * every network namespace (ip netns exec remounts /sys, not /run). */
static int
lock_dir(char *out, size_t len)
{
	const char *dir = "/run";

	if (getuid() != 0) {
		dir = getenv("XDG_RUNTIME_DIR");
		if (dir == NULL)
			dir = "/tmp";
	}
	snprintf(out, len, "%s/dfcp-engine", dir);
	if (mkdir(out, 01777) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Takes DIR/NAME.lock: 0, or -EBUSY with the holder's PID in *holder (0: not yet written). */
static int
lock_take(const char *dir, const char *name, long *holder)
{
	char path[PATH_MAX], buf[32];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%s.lock", dir, name);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = '\0';
		*holder = strtol(buf, NULL, 10);
		close(fd);
		return e == EWOULDBLOCK ? -EBUSY : -e;
	}
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)n, 0) != n)
		ENG_LOG(WARNING, main, "%s: cannot write our PID: %s", path, strerror(errno));
	return 0;	/* fd stays open: the lock lasts as long as the process */
}

/* The value of iface= in a device argument list ("net_af_packet0,iface=veth0,..."), or "". */
static void
iface_of(const char *args, char *out, size_t len)
{
	const char *p = args;
	size_t n;

	out[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, "iface=", 6) == 0) {
			p += 6;
			n = strcspn(p, ",");
			snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), p);
			return;
		}
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
}

void
eng_port_iface(const struct eng_port_conf *pc, char *out, size_t len)
{
	iface_of(pc->devargs, out, len);
	if (out[0] == '\0')
		iface_of(pc->device, out, len);
	if (strchr(out, '/') != NULL)	/* not a name: never a path under /sys or the lock folder */
		out[0] = '\0';
}

/* The network namespace's inode (interfaces of one name in two namespaces are two). */
static unsigned long
netns_id(void)
{
	char link[64];
	ssize_t n = readlink("/proc/self/ns/net", link, sizeof(link) - 1);
	const char *p;

	if (n <= 0)
		return 0;
	link[n] = '\0';
	p = strchr(link, '[');
	return p != NULL ? strtoul(p + 1, NULL, 10) : 0;
}

static int
ifaces_take(const struct eng_config *cfg, const char *dir)
{
	char iface[64], name[128];
	unsigned long ns = netns_id();
	unsigned int i;
	long holder;

	for (i = 0; i < cfg->nb_ports; i++) {
		const struct eng_port_conf *pc = &cfg->ports[i];

		eng_port_iface(pc, iface, sizeof(iface));
		if (iface[0] == '\0')
			continue;
		snprintf(name, sizeof(name), "iface-%s-net%lu", iface, ns);
		if (lock_take(dir, name, &holder) == -EBUSY) {
			ENG_LOG(ERR, main, "port %s: interface %s is in use by another dfcp-engine "
					"(PID %ld; lock %s/%s.lock): two engines on one interface "
					"take each other's frames", pc->name, iface, holder, dir, name);
			return -EBUSY;
		}
	}
	return 0;
}

static int
cpus_take(const struct eng_config *cfg, const char *dir)
{
	char name[32];
	unsigned int i;
	long holder;
	int cpu;

	for (i = 0; i < cfg->nb_lcores; i++) {
		const struct eng_lcore_conf *lc = &cfg->lcores[i];
		rte_cpuset_t set;

		if (lc->nb_tasks == 0 || !rte_lcore_is_enabled(lc->lcore_id))
			continue;
		set = rte_lcore_cpuset(lc->lcore_id);
		if (CPU_COUNT(&set) != 1)
			continue;	/* a floating lcore: the kernel places it */
		for (cpu = 0; !CPU_ISSET(cpu, &set); cpu++)
			;
		snprintf(name, sizeof(name), "cpu-%d", cpu);
		if (lock_take(dir, name, &holder) == -EBUSY) {
			ENG_LOG(ERR, main, "lcore %u: CPU %d is busy-polled by another dfcp-engine "
					"(PID %ld; lock %s/%s.lock); choose other CPUs (-l) or run beside "
					"it anyway with --allow-shared-cpu", lc->lcore_id, cpu, holder, dir,
					name);
			return -EBUSY;
		}
	}
	return 0;
}

int
eng_locks_take(const struct eng_config *cfg, int shared_cpu_ok)
{
	const char *env = getenv("DFCP_ALLOW_SHARED_CPU");
	char dir[PATH_MAX - 64];
	int rc;

	rc = lock_dir(dir, sizeof(dir));
	if (rc < 0) {
		ENG_LOG(WARNING, main, "%s: %s: a second engine on our interfaces or CPUs goes "
				"undetected", dir, strerror(-rc));
		return 0;
	}
	if (env != NULL && env[0] != '\0' && strcmp(env, "0") != 0)
		shared_cpu_ok = 1;
	if (ifaces_take(cfg, dir) < 0 || (!shared_cpu_ok && cpus_take(cfg, dir) < 0))
		return -EBUSY;
	return 0;
}
