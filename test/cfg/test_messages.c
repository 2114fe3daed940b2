/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What a user reads when a config is wrong (no EAL): an unknown key with every
 * key of its section and the closest one, an unknown choice with the values
 * and the closest one, a vdev name no DPDK driver has (refused before EAL
 * starts, also from a plugin named by -d), rates in any unit where a frame
 * size or a link speed is known and the reason where not, and our one line
 * after a failed rte_eal_init().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-msg-test-XXXXXX"
#include "test_config_util.h"
#include "core/devargs.h"
#include "core/eal_args.h"

static const char *base =
	"[eal]\n"
	"args = -l 0-1 --no-huge\n"
	"[port p0]\n"
	"device = ring:w\n"
	"[port p1]\n"
	"device = ring:w\n"
	"[task tx0]\n"
	"kind = txonly\n"
	"port = p0\n"
	"pkt_size = 64\n"
	"rate = 1Gbit\n"
	"[task rx0]\n"
	"kind = rxonly\n"
	"port = p1\n"
	"[lcore 1]\n"
	"tasks = tx0, rx0\n";

/* A DFCP sender and receiver over one ring wire. */
static const char *flow_base =
	"[port a]\ndevice = ring:v\n[port b]\ndevice = ring:v\n"
	"[flow s1]\nproto = dfcp\nrole = sender\nlocal = 10.0.0.1:1000\nremote = 10.0.0.2:2000\n"
	"bytes = 1MiB\nrate = 100Mbit\n"
	"[flow r1]\nproto = dfcp\nrole = receiver\nlocal = 10.0.0.2:2000\nsink = verify\n"
	"[task d0]\nkind = dfcp\nport = a\nflows = s1\n"
	"[task d1]\nkind = dfcp\nport = b\nflows = r1\n"
	"[lcore 1]\ntasks = d0, d1\n";

static char *
edit(const char *from, const char *to)
{
	return config_edit(base, from, to);
}

/* Every key of a txonly task that the message must list (others may join them). */
static const char *const txonly_keys[] = {"kind", "burst", "port", "txq", "pkt_size",
	"pkt_weights", "rate", "bucket", "count", "warmup", "src_ip", "dst_ip", "src_port",
	"dst_port", "dst_mac", "egress", "weight", "streams", "start", "flow_vary", "weights"};

/* ", a, b, c," from the "(known keys: a, b, c)" of message m (a static buffer). */
static const char *
known_keys(const char *m)
{
	static char keys[ENG_ERR_LEN];
	const char *l = strstr(m, "(known keys: ");
	const char *e = l != NULL ? strrchr(l, ')') : NULL;

	if (l == NULL || e == NULL)
		return "";
	l += strlen("(known keys: ");
	snprintf(keys, sizeof(keys), ", %.*s,", (int)(e - l), l);
	return keys;
}

static void
test_unknown_key(void)
{
	char err[ENG_ERR_LEN], dir[] = "/tmp/dfcp-msg-long-XXXXXX", file[ENG_ERR_LEN];
	char all[ENG_ERR_LEN], item[64];
	const char *more, *p;
	unsigned int i;
	FILE *f;

	expect_err("unknown key rat", edit("rate = 1Gbit\n", "rat = 1Gbit\n"),
			":11: [task tx0] rat: unknown key; did you mean \"rate\"? (known keys: ",
			", flow_vary, weights)");
	expect_err("unknown key, no close one", edit("rate = 1Gbit\n", "zzzzzz = 1\n"),
			"[task tx0] zzzzzz: unknown key (known keys: ", ", flow_vary, weights)");
	/* the whole list: every key of the kind and of every task */
	REQUIRE(load(edit("rate = 1Gbit\n", "rat = 1Gbit\n"), err, sizeof(err)) < 0);
	snprintf(all, sizeof(all), "%s", known_keys(err));
	for (i = 0; i < RTE_DIM(txonly_keys); i++) {
		snprintf(item, sizeof(item), ", %s,", txonly_keys[i]);
		CHECKF(strstr(all, item) != NULL, "no %s in %s", txonly_keys[i], err);
	}
	/* a swap of two letters is one edit */
	expect_err("unknown key bukcet", edit("rate = 1Gbit\n", "bukcet = 1KiB\n"),
			"did you mean \"bucket\"?", NULL);

	/* a path so long the list cannot fit: whole keys, then how many are left out */
	REQUIRE(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/%0250d.ini", dir, 0);
	f = fopen(file, "w");
	REQUIRE(f != NULL);
	fputs(edit("rate = 1Gbit\n", "rat = 1Gbit\n"), f);
	fclose(f);
	CHECK(eng_config_load(&cfg, file, err, sizeof(err)) < 0);
	/* "(known keys: kind, ..., weight, and 5 more)": every item a whole key */
	p = strstr(err, "(known keys: ");
	more = strstr(err, ", and ");
	CHECKF(p != NULL && more != NULL && strstr(more, " more)") != NULL &&
			strstr(err, "did you mean \"rate\"?") != NULL, "long path: %s", err);
	for (p = p != NULL ? p + strlen("(known keys: ") : NULL; p != NULL && p < more;) {
		size_t n = strcspn(p, ",");

		snprintf(item, sizeof(item), ", %.*s,", (int)n, p);
		CHECKF(strstr(all, item) != NULL, "\"%s\" is no whole key: %s", item, err);
		p += n + 2;
	}
	printf("ok long path: %s\n", err);
	unlink(file);
	rmdir(dir);
}

static void
test_choice(void)
{
	expect_err("sink verfy", config_edit(flow_base, "sink = verify", "sink = verfy"),
			"[flow r1] sink: unknown value \"verfy\" (expected count, verify or file); "
			"did you mean \"verify\"?", NULL);
	expect_err("sink far off", config_edit(flow_base, "sink = verify", "sink = banana"),
			"[flow r1] sink: unknown value \"banana\" (expected count, verify or file)",
			NULL);
	expect_err("role sendr", config_edit(flow_base, "role = sender", "role = sendr"),
			"did you mean \"sender\"?", NULL);
}

static void
test_rates(void)
{
	static const char *const good[] = {"1Mpps", "14.88Mpps", "10G", "2.5G", "100M", "100k",
		"10Gbps", "1Gibit", "50%", "0.5%", "100%", "0"};
	char to[64];
	unsigned int i;

	for (i = 0; i < RTE_DIM(good); i++) {
		snprintf(to, sizeof(to), "rate = %s\n", good[i]);
		expect_ok(good[i], edit("rate = 1Gbit\n", to));
	}
	expect_err("0Mpps", edit("rate = 1Gbit\n", "rate = 0Mpps\n"), "[task tx0] rate:",
			"at least 1 pkt/s");
	expect_err("150%", edit("rate = 1Gbit\n", "rate = 150%\n"), "[task tx0] rate:",
			"at most 100%");
	expect_err("-1G", edit("rate = 1Gbit\n", "rate = -1G\n"), "[task tx0] rate:",
			"cannot be negative");
	expect_err("empty rate", edit("rate = 1Gbit\n", "rate =\n"), "[task tx0] rate:", "empty");
	expect_err("rate over the pacer", edit("rate = 1Gbit\n", "rate = 401G\n"),
			"[task tx0] rate:", "between 0 and 400000000000 bit/s");
	expect_err("rate overflow", edit("rate = 1Gbit\n", "rate = 99999999999999999999T\n"),
			"[task tx0] rate:", "too large");
	/* a flow's rate is bit/s: no frame size, no port speed at parse time */
	expect_err("flow rate 1Mpps", config_edit(flow_base, "rate = 100Mbit", "rate = 1Mpps"),
			"[flow s1] rate: a packet rate needs a frame size; give bit/s", NULL);
	expect_err("flow rate 50%", config_edit(flow_base, "rate = 100Mbit", "rate = 50%"),
			"[flow s1] rate: a share of the line rate needs a port's link speed; give bit/s",
			NULL);
	expect_ok("flow rate 1G", config_edit(flow_base, "rate = 100Mbit", "rate = 1G"));
}

/* A file that holds a driver's PMD_INFO_STRING record, as a plugin does. */
static void
fake_plugin(const char *file, const char *name)
{
	FILE *f = fopen(file, "w");

	REQUIRE(f != NULL);
	fwrite("\x7f" "ELF\0junk", 1, 9, f);	/* binary around it */
	fprintf(f, "PMD_INFO_STRING= {\"name\": \"%s\", \"params\": \"\", \"pci_ids\": []}", name);
	fwrite("\0more", 1, 5, f);
	fclose(f);
}

static void
test_devices(void)
{
	static const char *const real[] = {"net_ring0", "net_null0", "net_tap0,iface=dt0",
		"net_memif0", "net_af_packet0,iface=veth0", "net_af_xdp0,iface=veth0",
		"net_pcap0,iface=lo", "net_vhost0,iface=/tmp/s", "net_virtio_user0",
		"net_bonding0,mode=0", "0000:01:00.0", "01:00.0", "eth_ring0", "mlx5_0"};
	char dir[] = "/tmp/dfcp-msg-pmd-XXXXXX", file[128], text[1024], to[256];
	struct eng_vdev_names v;
	unsigned int i;

	for (i = 0; i < RTE_DIM(real); i++) {
		snprintf(to, sizeof(to), "[port p0]\ndevice = %s\n", real[i]);
		expect_ok(real[i], edit("[port p0]\ndevice = ring:w\n", to));
	}
	expect_err("net_foo0", edit("[port p0]\ndevice = ring:w\n", "[port p0]\ndevice = net_foo0\n"),
			":4: [port p0] device: no DPDK driver for \"net_foo0\" (a vdev's name starts "
			"with its driver's: net_ring, net_null, net_tap,", NULL);
	expect_err("net_rign0", edit("[port p0]\ndevice = ring:w\n",
			"[port p0]\ndevice = net_rign0,foo=1\n"),
			"[port p0] device: no DPDK driver for \"net_rign0\"; did you mean \"net_ring0\"?",
			NULL);
	expect_err("--vdev net_foo0", edit("--no-huge\n", "--no-huge --vdev net_foo0,x=1\n"),
			"[eal] args: --vdev: no DPDK driver for \"net_foo0\"", NULL);

	/* a driver from a plugin: found through [eal] -d (a file or a folder), not without */
	REQUIRE(mkdtemp(dir) != NULL);
	snprintf(file, sizeof(file), "%s/librte_net_fake.so", dir);
	fake_plugin(file, "net_fake");
	eng_vdev_names_init(&v);
	CHECK(eng_vdev_driver_of(&v, "net_ring0,x=1") != NULL &&
			strcmp(eng_vdev_driver_of(&v, "net_ring0"), "net_ring") == 0);
	CHECK(eng_vdev_driver_of(&v, "net_fake0") == NULL);
	CHECK(strcmp(eng_vdev_driver_of(&v, "0000:01:00.0"), "0000:01:00.0") == 0);
	CHECK(eng_vdev_names_scan(&v, "/nonexistent") == 0);
	CHECK(eng_vdev_names_scan(&v, dir) == 1);
	CHECK(eng_vdev_names_scan(&v, file) == 0); /* known already */
	CHECK(eng_vdev_driver_of(&v, "net_fake3,k=v") != NULL);
	snprintf(text, sizeof(text), "%s", edit("[port p0]\ndevice = ring:w\n",
			"[port p0]\ndevice = net_fake0\n"));
	expect_err("net_fake0 without -d", text, "no DPDK driver for \"net_fake0\"", NULL);
	snprintf(to, sizeof(to), "--no-huge -d %s\n", file);
	expect_ok("net_fake0 with -d FILE", config_edit(text, "--no-huge\n", to));
	snprintf(to, sizeof(to), "--no-huge -d%s\n", dir);
	expect_ok("net_fake0 with -dDIR", config_edit(text, "--no-huge\n", to));
	unlink(file);
	rmdir(dir);
}

/* Our line after a failed rte_eal_init(), for an [eal] args string. */
static const char *
eal_line(const char *args, int err, const char *strerr, long ncpus)
{
	static struct eng_eal_args a;
	static char line[512];
	char e[128];

	CHECK(eng_eal_args_build(&a, "prog", args, NULL, 0, "x.ini", 42, e, sizeof(e)) == 0);
	eng_eal_failure_line(&a, err, strerr, ncpus, line, sizeof(line));
	printf("ok eal \"%s\" errno %d: %s\n", args, err, line);
	return line;
}

static void
test_eal_failure(void)
{
	const char *l;

	l = eal_line("-l 0-5 --no-huge", EINVAL, "Invalid argument", 2);
	CHECKF(strcmp(l, "dfcp-engine: EAL failed: Invalid argument: -l 0-5 names CPU 5, but "
			"this machine has 2 CPUs (0-1): use CPUs it has, e.g. -l 0-1, in [eal] args "
			"or before \"--\"") == 0, "%s", l);
	l = eal_line("--lcores=0,3", EINVAL, "Invalid argument", 2);
	CHECK(strstr(l, "-l 0,3 names CPU 3") != NULL);
	l = eal_line("-c 0x3f", EINVAL, "Invalid argument", 4);
	CHECK(strstr(l, "-c 0x3f names CPU 5") != NULL);
	l = eal_line("--lcores 1@2", EINVAL, "Invalid argument", 2);	/* lcore 1 on CPU 2: EAL's */
	CHECK(strstr(l, "an EAL option was refused") != NULL);
	l = eal_line("-l 0-1", EINVAL, "Invalid argument", 2);
	CHECK(strstr(l, "EAL failed: Invalid argument: an EAL option was refused") != NULL);
	l = eal_line("-l 0-1", EACCES, "Permission denied", 2);
	CHECK(strstr(l, "no usable hugepages") != NULL && strstr(l, "--no-huge -m 1024") != NULL);
	l = eal_line("-l 0-1 --no-huge -m 99999", ENOMEM, "Cannot allocate memory", 2);
	CHECK(strstr(l, "not enough memory for -m: ask for less") != NULL);
	l = eal_line("-l 0-1 --vdev net_x0", ENODEV, "No such device", 2);
	CHECK(strstr(l, "--vdev, -a/--allow") != NULL);
	l = eal_line("-l 0-1 --file-prefix mine", 0, "Success", 2);
	CHECK(strstr(l, "EAL failed: no error code: ") != NULL &&
			strstr(l, "--file-prefix mine") != NULL);
	l = eal_line("-l 0-1", EAGAIN, "Resource temporarily unavailable", 2);
	CHECK(strstr(l, "vfio-pci") != NULL);
	CHECK(strchr(l, '\n') == NULL);
}

int
main(void)
{
	if (config_file_create() < 0)
		return 1;
	test_unknown_key();
	test_choice();
	test_rates();
	test_devices();
	test_eal_failure();
	return config_file_finish("test_messages");
}
