/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Engine config loader tests: good files load, each bad input fails with a
 * message naming file, section and key. Uses rte_cfgfile, never the EAL.
 */
#include <stdio.h>
#include <string.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-cfg-test-XXXXXX"
#include "test_config_util.h"

static const char *good_base =
	"[eal]\n"
	"args = -l 0-1 --no-huge\n"
	"[engine]\n"
	"duration = 2.5s\n"
	"stats_period = 500ms\n"
	"[port p0]\n"
	"device = ring:w   # a comment\n"
	"preset = net_ring\n"
	"mtu = 1500\n"
	"[port p1]\n"
	"device = ring:w\n"
	"rx_desc = 512\n"
	"[task tx0]\n"
	"kind = txonly\n"
	"port = p0\n"
	"pkt_size = 1KiB\n"
	"rate = 1Gbit\n"
	"[task rx0]\n"
	"kind = rxonly\n"
	"port = p1\n"
	"[lcore 1]\n"
	"tasks = tx0, rx0\n";

static char *
edit(const char *from, const char *to)
{
	return config_edit(good_base, from, to);
}

int
main(void)
{
	char err[ENG_ERR_LEN];

	if (config_file_create() != 0)
		return 1;

	/* good file: values */
	if (load(good_base, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL good: %s\n", err);
		test_failures++;
	} else {
		if (!cfg.has_eal || strcmp(cfg.eal_args, "-l 0-1 --no-huge") != 0 ||
				cfg.duration_ns != 2500000000ull || cfg.stats_period_ns != 500000000ull ||
				cfg.nb_ports != 2 || strcmp(cfg.ports[0].device, "ring:w") != 0 ||
				cfg.ports[0].mtu != 1500 || cfg.ports[1].rx_desc != 512 ||
				cfg.ports[1].tx_desc != 1024 || cfg.nb_tasks != 2 ||
				strcmp(cfg.tasks[0].ops->name, "txonly") != 0 ||
				cfg.tasks[1].ports[0].port_idx != 1 || cfg.nb_lcores != 1 ||
				cfg.lcores[0].lcore_id != 1 || cfg.lcores[0].nb_tasks != 2 ||
				cfg.tasks[1].lcore_id != 1) {
			fprintf(stderr, "FAIL good: values not as written\n");
			test_failures++;
		}
		eng_config_free(&cfg);
	}
	expect_ok("lcore before tasks and ports",
			"[lcore 0]\ntasks = f\n[task f]\nkind = io\nrx_port = a\ntx_port = a\n"
			"[port a]\ndevice = net_null0\n");
	expect_ok("repo default config", "[engine]\nduration = 0\n");

	/* each kind of bad input */
	expect_err("unknown key", edit("mtu = 1500", "mtux = 1500"), "[port p0] mtux: unknown key",
			"known keys:");
	expect_err("unknown section", edit("[engine]", "[engin]"), "[engin]",
			"unknown section kind");
	expect_err("missing required key", edit("device = ring:w\nrx_desc", "rx_desc"),
			"[port p1] device: missing required key", NULL);
	expect_err("missing kind", edit("kind = rxonly\n", ""), "[task rx0] kind: missing required key",
			"txonly, rxonly, io");
	expect_err("bad number", edit("rx_desc = 512", "rx_desc = 51x2"), "[port p1] rx_desc:",
			"unexpected 'x'");
	expect_err("bad unit", edit("rate = 1Gbit", "rate = 1Gbt"), "[task tx0] rate:",
			"unknown unit \"Gbt\"");
	expect_err("bad time unit", edit("duration = 2.5s", "duration = 2.5 fortnights"),
			"[engine] duration:", "unknown unit");
	expect_err("out of range", edit("rx_desc = 512", "rx_desc = 100000"), "[port p1] rx_desc:",
			"between 32 and 16384");
	expect_err("pkt_size out of range", edit("pkt_size = 1KiB", "pkt_size = 20"),
			"[task tx0] pkt_size:", "between 64 and");
	expect_err("duplicate section", edit("[port p1]", "[port p0]"), "[port p0]",
			"duplicate section");
	expect_err("duplicate key", edit("mtu = 1500", "mtu = 1500\nmtu = 9000"), "[port p0] mtu",
			"duplicate key");
	expect_err("line without =", edit("mtu = 1500", "mtu 1500"), "expected \"key = value\"",
			NULL);
	expect_err("empty value", edit("mtu = 1500", "mtu ="), "[port p0] mtu: empty value", NULL);
	expect_err("unknown task kind", edit("kind = rxonly", "kind = rxall"), "[task rx0] kind:",
			"unknown task kind \"rxall\"");
	expect_err("unknown port", edit("port = p1", "port = p9"), "[task rx0]",
			"unknown port \"p9\"");
	expect_err("unknown task in lcore", edit("tasks = tx0, rx0", "tasks = tx0, rx1"),
			"[lcore 1] tasks", "unknown task \"rx1\"");
	expect_err("task on no lcore", edit("tasks = tx0, rx0", "tasks = tx0"), "[task rx0]",
			"not listed");
	expect_err("task on two lcores", edit("tasks = tx0, rx0", "tasks = tx0, rx0\n[lcore 0]\ntasks = rx0"),
			"[lcore 0] tasks", "already polled");
	expect_err("bad bool", edit("mtu = 1500", "promisc = perhaps"), "[port p0] promisc:",
			"expected a boolean");
	expect_err("bad preset", edit("preset = net_ring", "preset = nosuchnic"), "[port p0] preset:",
			"cannot load preset");
	expect_err("queue shared", edit("tasks = tx0, rx0", "tasks = tx0, rx0, rx1\n[task rx1]\nkind = rxonly\nport = p1"),
			"[task rx1]", "rx queue 0 of port p1 is already polled by task rx0");
	expect_err("unnamed port", edit("[port p1]", "[port]"), "[port]", "expected a name");
	expect_err("three ports on a wire", edit("[task tx0]", "[port p2]\ndevice = ring:w\n[task tx0]"),
			"device: \"ring:w\" is used by 3 ports", "at most two");
	expect_err("bad lcore id", edit("[lcore 1]", "[lcore x]"), "[lcore x]", "lcore id");
	expect_err("key outside section", "x = 1\n", "key outside of any [section]", NULL);

	return config_file_finish("test_config");
}
