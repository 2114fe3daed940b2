/* SPDX-License-Identifier: BSD-3-Clause */
/* EAL arguments of a run: [eal] args merged with the command line (eal_args.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/eal_args.h"

#define EAL_KEY_LEN 128

/* One option (one or two words) of an argument vector. */
struct eal_item {
	int idx;
	int n;
	char key[EAL_KEY_LEN]; /* "" for a word that is no option: never replaced */
};

/* EAL 22.11 options with a required argument (rte_eal_init's getopt table). */
static const char *const eal_long_arg[] = {
	"allow", "base-virtaddr", "block", "file-prefix", "force-max-simd-bitwidth", "huge-dir",
	"iova-mode", "lcores", "log-level", "main-lcore", "mbuf-pool-ops-name", "proc-type",
	"service-corelist", "service-coremask", "socket-limit", "socket-mem", "trace",
	"trace-bufsz", "trace-dir", "trace-mode", "vdev", "vfio-intr", "vfio-vf-token",
};
static const char eal_short_arg[] = "abcdlmnrsw";

static int
eal_long_takes_arg(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(eal_long_arg) / sizeof(eal_long_arg[0]); i++)
		if (strlen(eal_long_arg[i]) == len && strncmp(eal_long_arg[i], name, len) == 0)
			return 1;
	return 0;
}

/* The key of option NAME (its long name, aliases folded) with value VAL. */
static void
eal_key(const char *name, size_t len, const char *val, char *key)
{
	static const char *const alias[][2] = {
		{"l", "lcores"}, {"c", "lcores"}, {"m", "socket-mem"}, {"a", "allow"},
		{"w", "allow"}, {"b", "block"}, {"s", "service-coremask"},
		{"service-corelist", "service-coremask"}, {"v", "version"}, {"h", "help"},
		{"no-huge", "huge-dir"}, /* where the memory comes from: either replaces the other */
	};
	char canon[EAL_KEY_LEN];
	size_t i, vlen;
	const char *stop;

	snprintf(canon, sizeof(canon), "%.*s", (int)len, name);
	for (i = 0; i < sizeof(alias) / sizeof(alias[0]); i++)
		if (strcmp(canon, alias[i][0]) == 0)
			snprintf(canon, sizeof(canon), "%s", alias[i][1]);
	stop = NULL;
	if (strcmp(canon, "allow") == 0 || strcmp(canon, "block") == 0 ||
			strcmp(canon, "vdev") == 0)
		stop = ",";
	else if (strcmp(canon, "log-level") == 0)
		stop = ":";
	else if (strcmp(canon, "d") == 0)
		stop = "";
	if (stop == NULL || val == NULL) {
		snprintf(key, EAL_KEY_LEN, "%s", canon);
		return;
	}
	vlen = stop[0] != '\0' ? strcspn(val, stop) : strlen(val);
	if (strcmp(canon, "log-level") == 0 && val[vlen] == '\0')
		vlen = 0; /* --log-level=8: the global level */
	if (vlen > EAL_KEY_LEN / 2)
		vlen = EAL_KEY_LEN / 2;
	snprintf(key, EAL_KEY_LEN, "%.32s %.*s", canon, (int)vlen, val);
}

/* Split w[0..n-1] into options; returns the number of items. */
static int
eal_items(char **w, int n, struct eal_item *it)
{
	const char *name, *val, *eq;
	int i = 0, k = 0;
	size_t len;

	while (i < n) {
		it[k].idx = i;
		it[k].n = 1;
		val = NULL;
		if (strncmp(w[i], "--", 2) == 0 && w[i][2] != '\0') {
			name = w[i] + 2;
			eq = strchr(name, '=');
			len = eq != NULL ? (size_t)(eq - name) : strlen(name);
			if (eq != NULL)
				val = eq + 1;
			else if (eal_long_takes_arg(name, len) && i + 1 < n)
				val = w[i + 1], it[k].n = 2;
			eal_key(name, len, val, it[k].key);
		} else if (w[i][0] == '-' && w[i][1] != '\0' && w[i][1] != '-') {
			name = w[i] + 1;
			if (strchr(eal_short_arg, w[i][1]) != NULL) {
				if (w[i][2] != '\0')
					val = w[i] + 2;
				else if (i + 1 < n)
					val = w[i + 1], it[k].n = 2;
			}
			eal_key(name, 1, val, it[k].key);
		} else {
			it[k].key[0] = '\0';
		}
		i += it[k].n;
		k++;
	}
	return k;
}

static int
eal_has_key(const struct eal_item *it, int n, const char *key)
{
	int i;

	for (i = 0; i < n; i++)
		if (key[0] != '\0' && strcmp(it[i].key, key) == 0)
			return 1;
	return 0;
}

/* "<config file name without directory and extension>-<pid>", [A-Za-z0-9_-] only. */
static void
eal_derive_prefix(const char *config, pid_t pid, char *out, size_t len)
{
	const char *base = strrchr(config, '/');
	char name[40];
	size_t i, n;

	base = base != NULL ? base + 1 : config;
	n = strcspn(base, ".");
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	for (i = 0; i < n; i++) {
		char c = base[i];

		name[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
				(c >= '0' && c <= '9') || c == '-' || c == '_' ? c : '_';
	}
	name[n] = '\0';
	snprintf(out, len, "%s-%ld", n != 0 ? name : "dfcp", (long)pid);
}

static const char *
eal_prefix_value(char **w, const struct eal_item *it, int n)
{
	int i;
	const char *eq;

	for (i = 0; i < n; i++) {
		if (strcmp(it[i].key, "file-prefix") != 0)
			continue;
		if (it[i].n == 2)
			return w[it[i].idx + 1];
		eq = strchr(w[it[i].idx], '=');
		return eq != NULL ? eq + 1 : "";
	}
	return NULL;
}

int
eng_eal_args_build(struct eng_eal_args *a, char *prog, const char *cfg_args, char **cli,
		int ncli, const char *config, pid_t pid, char *err, size_t errlen)
{
	static struct eal_item cit[ENG_EAL_MAX_ARGS], lit[ENG_EAL_MAX_ARGS];
	char *cw[ENG_EAL_MAX_ARGS], *p, *save = NULL;
	int ncw = 0, nc, nl, i, j;
	const char *set;

	memset(a, 0, sizeof(*a));
	if (cfg_args != NULL) {
		snprintf(a->words, sizeof(a->words), "%s", cfg_args);
		for (p = strtok_r(a->words, " \t\r\n", &save); p != NULL;
				p = strtok_r(NULL, " \t\r\n", &save)) {
			if (ncw == ENG_EAL_MAX_ARGS)
				goto too_many;
			cw[ncw++] = p;
		}
	}
	if (ncli > ENG_EAL_MAX_ARGS)
		goto too_many;
	nc = eal_items(cw, ncw, cit);
	nl = eal_items(cli, ncli, lit);
	a->argv[a->argc++] = prog;
	for (i = 0; i < nc; i++) {
		if (eal_has_key(lit, nl, cit[i].key))
			continue; /* the command line sets this key */
		for (j = 0; j < cit[i].n; j++)
			a->argv[a->argc++] = cw[cit[i].idx + j];
	}
	if (a->argc - 1 + ncli > ENG_EAL_MAX_ARGS)
		goto too_many;
	for (i = 0; i < ncli; i++)
		a->argv[a->argc++] = cli[i];
	set = eal_prefix_value(cli, lit, nl);
	if (set == NULL)
		set = eal_prefix_value(cw, cit, nc);
	if (set != NULL) {
		snprintf(a->prefix, sizeof(a->prefix), "%s", set);
	} else {
		eal_derive_prefix(config, pid, a->prefix, sizeof(a->prefix));
		a->prefix_derived = 1;
		a->argv[a->argc++] = "--file-prefix";
		a->argv[a->argc++] = a->prefix;
	}
	a->argv[a->argc] = NULL;
	return 0;
too_many:
	snprintf(err, errlen, "more than %d EAL arguments", ENG_EAL_MAX_ARGS);
	return -E2BIG;
}

/* The value of short_opt (e.g. 'l') or long_opt ("lcores"; NULL: none) in a's argv, or NULL. */
static const char *
eal_arg_value(const struct eng_eal_args *a, char short_opt, const char *long_opt)
{
	size_t ll = long_opt != NULL ? strlen(long_opt) : 0;
	int i;

	for (i = 1; i < a->argc; i++) {
		const char *w = a->argv[i];

		if (w[0] == '-' && w[1] == short_opt)
			return w[2] != '\0' ? w + 2 : i + 1 < a->argc ? a->argv[i + 1] : NULL;
		if (ll != 0 && strncmp(w, "--", 2) == 0 && strncmp(w + 2, long_opt, ll) == 0) {
			if (w[2 + ll] == '=')
				return w + 3 + ll;
			if (w[2 + ll] == '\0')
				return i + 1 < a->argc ? a->argv[i + 1] : NULL;
		}
	}
	return NULL;
}

static int
eal_has_arg(const struct eng_eal_args *a, const char *word)
{
	int i;

	for (i = 1; i < a->argc; i++)
		if (strcmp(a->argv[i], word) == 0)
			return 1;
	return 0;
}

/*
 * The highest CPU a -l list ("0-5", "1,3") or -c mask ("0x3f") names, or -1
 * when there is none or the form maps lcores to other CPUs ("1@2", "(0-1)@3").
 */
static long
eal_highest_cpu(const char *lcores, const char *mask)
{
	const char *p;
	long hi = -1, v;
	char *end;

	if (lcores != NULL) {
		if (strpbrk(lcores, "@()") != NULL)
			return -1;
		for (p = lcores; *p != '\0';) {
			if (*p < '0' || *p > '9') {
				p++;
				continue;
			}
			v = strtol(p, &end, 10);
			if (v > hi)
				hi = v;
			p = end;
		}
		return hi;
	}
	if (mask != NULL) {
		unsigned long long m = strtoull(mask, &end, 16);

		for (v = 0; m != 0; v++, m >>= 1)
			if (m & 1)
				hi = v;
	}
	return hi;
}

/* What an rte_errno of rte_eal_init() most likely means, and the fix. */
static const struct {
	int err;
	const char *why;
} eal_causes[] = {
	{EINVAL, "an EAL option was refused, a -d driver did not load, or IOVA as PA was "
		"asked for without physical addresses (EAL's lines above say which): check "
		"[eal] args and the options before \"--\""},
	{EACCES, "no usable hugepages (hugetlbfs not mounted, none reserved, or no "
		"permission): reserve some as root (dpdk-hugepages.py -p 2M --setup 1G) or add "
		"--no-huge -m 1024 to [eal] args"},
	{ENOMEM, "not enough memory for -m/--socket-mem: reserve more hugepages "
		"(dpdk-hugepages.py), ask for less, or run with --no-huge -m 1024"},
	{ENODEV, "a device of the EAL arguments (--vdev, -a/--allow) does not parse or its "
		"bus scan failed: check its name (a vdev's starts with its driver's, such as "
		"net_ring0), or give it as a port's device instead"},
	{ENOTSUP, "a device of the EAL arguments failed to probe (EAL's lines above name it), "
		"or this CPU lacks an instruction set DPDK was built for"},
	{EAGAIN, "VFIO could not be set up: load vfio-pci (modprobe vfio-pci) and check "
		"/dev/vfio's permissions, or add --no-pci to [eal] args"},
};

void
eng_eal_failure_line(const struct eng_eal_args *a, int err, const char *strerr, long ncpus,
		char *buf, size_t len)
{
	const char *lcores = eal_arg_value(a, 'l', "lcores"), *mask = eal_arg_value(a, 'c', NULL);
	long cpu = eal_highest_cpu(lcores, lcores == NULL ? mask : NULL);
	char why[384];
	size_t i;

	snprintf(why, sizeof(why), "EAL's lines above say where it stopped");
	for (i = 0; i < sizeof(eal_causes) / sizeof(eal_causes[0]); i++)
		if (eal_causes[i].err == err)
			snprintf(why, sizeof(why), "%s", eal_causes[i].why);
	if (ncpus > 0 && cpu >= ncpus)
		snprintf(why, sizeof(why), "%s %s names CPU %ld, but this machine has %ld CPU%s "
				"(0-%ld): use CPUs it has, e.g. -l 0-%ld, in [eal] args or "
				"before \"--\"", lcores != NULL ? "-l" : "-c",
				lcores != NULL ? lcores : mask, cpu, ncpus, ncpus == 1 ? "" : "s",
				ncpus - 1, ncpus - 1);
	else if (err == ENOMEM && eal_has_arg(a, "--no-huge"))
		snprintf(why, sizeof(why), "not enough memory for -m: ask for less");
	else if ((err == 0 || err == EFAULT) && !a->prefix_derived)
		snprintf(why, sizeof(why), "EAL could not set up its shared files: another DPDK "
				"process may use --file-prefix %s (choose another, or drop "
				"--file-prefix for a per-run one)", a->prefix);
	snprintf(buf, len, "dfcp-engine: EAL failed: %s: %s",
			err != 0 && strerr != NULL ? strerr : "no error code", why);
}
