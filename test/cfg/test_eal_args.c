/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * EAL argument merge (app/dfcp-engine/core/eal_args.c): the command line adds
 * to the config's [eal] args and replaces them key by key; a per-run file
 * prefix is derived unless one is set. No EAL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "test_harness.h"
#include "core/eal_args.h"

/* The merged vector as one space-separated string (without argv[0]). */
static const char *
merged(const char *cfg, const char *cli, const char *config, char *out, size_t len)
{
	static struct eng_eal_args a;
	static char clibuf[1024];
	char *w[ENG_EAL_MAX_ARGS + 8], err[128], *p, *save = NULL;
	size_t off = 0;
	int n = 0, i, rc;

	snprintf(clibuf, sizeof(clibuf), "%s", cli);
	for (p = strtok_r(clibuf, " ", &save); p != NULL; p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	rc = eng_eal_args_build(&a, "prog", cfg, w, n, config, 4242, err, sizeof(err));
	if (rc < 0) {
		snprintf(out, len, "ERR %s", err);
		return out;
	}
	out[0] = '\0';
	CHECK(strcmp(a.argv[0], "prog") == 0);
	CHECK(a.argv[a.argc] == NULL);
	for (i = 1; i < a.argc; i++)
		off += (size_t)snprintf(out + off, len - off, "%s%s", i > 1 ? " " : "", a.argv[i]);
	return out;
}

static void
expect(const char *cfg, const char *cli, const char *want)
{
	char got[2048];

	merged(cfg, cli, "configs/txonly.ini", got, sizeof(got));
	CHECKF(strcmp(got, want) == 0, "cfg '%s' cli '%s':\n  got  '%s'\n  want '%s'",
			cfg != NULL ? cfg : "(none)", cli, got, want);
}

int
main(void)
{
	static const char base[] = "-l 0-1 --no-huge -m 1024 --no-pci "
			"--log-level=pmd.net.ring:warning --vdev=net_tap0,iface=a";
	char big[4096], got[2048];
	size_t off = 0;
	int i;

	/* no command line: the config's words and the derived prefix */
	expect(base, "", "-l 0-1 --no-huge -m 1024 --no-pci --log-level=pmd.net.ring:warning "
			"--vdev=net_tap0,iface=a --file-prefix txonly-4242");
	/* an option the config lacks is added; a set prefix is kept, none derived */
	expect(base, "--file-prefix x", "-l 0-1 --no-huge -m 1024 --no-pci "
			"--log-level=pmd.net.ring:warning --vdev=net_tap0,iface=a --file-prefix x");
	expect("--file-prefix=c -l 1", "", "--file-prefix=c -l 1");
	/* same key, other spelling: -l / --lcores / -c, -m / --socket-mem */
	expect(base, "--lcores=0@0,1@1 --socket-mem 512",
			"--no-huge --no-pci --log-level=pmd.net.ring:warning --vdev=net_tap0,iface=a "
			"--lcores=0@0,1@1 --socket-mem 512 --file-prefix txonly-4242");
	expect(base, "-l2-3", "--no-huge -m 1024 --no-pci --log-level=pmd.net.ring:warning "
			"--vdev=net_tap0,iface=a -l2-3 --file-prefix txonly-4242");
	/* --vdev by device name: the same name replaces, another adds */
	expect(base, "--vdev net_tap0,iface=b --vdev=net_ring0", "-l 0-1 --no-huge -m 1024 "
			"--no-pci --log-level=pmd.net.ring:warning --vdev net_tap0,iface=b "
			"--vdev=net_ring0 --file-prefix txonly-4242");
	/* --log-level by pattern; the global level is its own key */
	expect(base, "--log-level=pmd.net.ring:debug --log-level 7", "-l 0-1 --no-huge -m 1024 "
			"--no-pci --vdev=net_tap0,iface=a --log-level=pmd.net.ring:debug "
			"--log-level 7 --file-prefix txonly-4242");
	expect("--log-level=6 --log-level=x:debug", "--log-level=4",
			"--log-level=x:debug --log-level=4 --file-prefix txonly-4242");
	/* a repeated flag replaces, not doubles */
	expect("--no-huge --no-pci", "--no-huge", "--no-pci --no-huge --file-prefix txonly-4242");
	/* --no-huge and --huge-dir are one key: either on the command line replaces the other */
	expect(base, "-m 512 --huge-dir /mnt/h", "-l 0-1 --no-pci "
			"--log-level=pmd.net.ring:warning --vdev=net_tap0,iface=a -m 512 "
			"--huge-dir /mnt/h --file-prefix txonly-4242");
	expect("--huge-dir=/mnt/h -l 0", "--no-huge", "-l 0 --no-huge --file-prefix txonly-4242");
	/* -a / --allow by address */
	expect("-a 0000:01:00.0 -a 0000:02:00.0", "--allow=0000:01:00.0,rxq=2",
			"-a 0000:02:00.0 --allow=0000:01:00.0,rxq=2 --file-prefix txonly-4242");
	/* no [eal] at all */
	expect(NULL, "", "--file-prefix txonly-4242");
	/* the prefix keeps [A-Za-z0-9_-] of the file name */
	merged(NULL, "", "/x/y/my cfg!.v2.ini", got, sizeof(got));
	CHECKF(strcmp(got, "--file-prefix my_cfg_-4242") == 0, "%s", got);
	merged(NULL, "", ".ini", got, sizeof(got));
	CHECKF(strcmp(got, "--file-prefix dfcp-4242") == 0, "%s", got);
	/* too many words: an error, not an overflow */
	for (i = 0; i < ENG_EAL_MAX_ARGS + 1; i++)
		off += (size_t)snprintf(big + off, sizeof(big) - off, "--x%d ", i);
	merged(big, "", "c.ini", got, sizeof(got));
	CHECKF(strncmp(got, "ERR more than", 13) == 0, "%s", got);
	merged("-l 0", big, "c.ini", got, sizeof(got));
	CHECKF(strncmp(got, "ERR more than", 13) == 0, "%s", got);
	return test_report("eal-args");
}
