/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Engine config loader tests: good files load, each bad input fails with a
 * message naming file, section and key. Uses rte_cfgfile, never the EAL.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-cfg-test-XXXXXX"
#include "test_config_util.h"
#include "config/flow.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/tcp/tcp_task.h"

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

/* The flow model: DFCP and TCP [flow]s. */
static const char *flow_base =
	"[port a]\ndevice = ring:w\n[port b]\ndevice = ring:w\n"
	"[port c]\ndevice = ring:v\n[port d]\ndevice = ring:v\n"
	"[flow f1]\nrole = sender\nlocal = 10.0.0.1:5001\nremote = 10.0.0.2:6001\nbytes = 1MiB\n"
	"[flow r1]\nrole = receiver\nlocal = 10.0.0.2:6001\nsink = verify\n"
	"[flow ts]\nproto = tcp\nrole = sender\nlocal = 10.0.1.1:40000\n"
	"remote = 10.0.1.2:5201\ncc = cubic\nmss = 1200\nsack = off\nbytes = 2MiB\n"
	"[flow tr]\nproto = tcp\nrole = receiver\nlocal = 10.0.1.2:5201\nsink = verify\n"
	"[task d0]\nkind = dfcp\nport = a\nflows = f1\n"
	"[task d1]\nkind = dfcp\nport = b\nflows = r1\n"
	"[task t0]\nkind = tcp\nport = c\nflows = ts\n"
	"[task t1]\nkind = tcp\nport = d\nflows = tr\n"
	"[lcore 1]\ntasks = d0, d1, t0, t1\n";

static char *
fedit(const char *from, const char *to)
{
	return config_edit(flow_base, from, to);
}

static void
test_flows(void)
{
	char err[ENG_ERR_LEN];
	const struct eng_flow_conf *ts, *f1;

	if (load(flow_base, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL flows good: %s\n", err);
		test_failures++;
	} else {
		f1 = &cfg.flows[eng_flow_index(&cfg, "f1")];
		ts = &cfg.flows[eng_flow_index(&cfg, "ts")];
		CHECK(cfg.nb_flows == 4 && strcmp(f1->proto->name, "dfcp") == 0 &&
				strcmp(ts->proto->name, "tcp") == 0 && ts->bytes == 2u << 20);
		CHECK(strcmp(eng_tcp_fc(ts)->k.cc, "cubic") == 0 && eng_tcp_fc(ts)->k.mss == 1200 &&
				eng_tcp_fc(ts)->p.sack == 0);
		CHECK(cfg.tasks[2].nb_flows == 1 && ts->task_idx == 2 && ts->task_pos == 0);
		CHECK(cfg.flows[eng_flow_index(&cfg, "tr")].verify == 1);
		eng_config_free(&cfg);
	}
	expect_err("flow unknown proto", fedit("proto = tcp\nrole = sender", "proto = sctp\nrole = sender"),
			"[flow ts] proto:", "unknown protocol \"sctp\" (expected dfcp or tcp)");
	expect_err("flow proto vs task kind", fedit("flows = f1", "flows = f1, ts"), "[task d0] flows:",
			"flow \"ts\" has proto = tcp, the task is of kind dfcp");
	expect_err("tcp flow bad cc", fedit("cc = cubic", "cc = reno, cubic"), "[flow ts] cc:",
			"unknown congestion control");
	expect_err("tcp flow dfcp key", fedit("cc = cubic", "redundancy = 60"),
			"[flow ts] redundancy: unknown key", NULL);
	expect_err("dfcp flow tcp key", fedit("sink = verify\n[flow ts]", "sink = verify\ncc = reno\n[flow ts]"),
			"[flow r1] cc: unknown key", NULL);
	/* a word out of a list names the list; a role takes no words after it */
	expect_err("flow sink typo", fedit("sink = verify\n[flow ts]", "sink = verfy\n[flow ts]"),
			"[flow r1] sink:", "unknown value \"verfy\" (expected count, verify or file)");
	expect_err("flow role with words after", fedit("[flow f1]\nrole = sender",
			"[flow f1]\nrole = sender now"), "[flow f1] role:", "unexpected \"now\" after sender");
	expect_err("flow address without port", fedit("remote = 10.0.0.2:6001", "remote = 10.0.0.2"),
			"[flow f1] remote:", "missing \":PORT\"");
	expect_err("tcp flow sink file", fedit("local = 10.0.1.2:5201\nsink = verify",
			"local = 10.0.1.2:5201\nsink = file /tmp/x"), "[flow tr] sink:", "not supported");
	expect_err("tcp flow not listed", fedit("flows = ts", "flows = tr"), "[task t1] flows:",
			"flow \"tr\" is already run by task t0");
	expect_err("tcp cap without senders", fedit("flows = tr\n", "flows = tr\ncap_policy = old\n"),
			"[task t1] cap_policy:", "sender flows only");
	expect_err("tcp senders share a port", fedit("[task t0]\nkind = tcp\nport = c\nflows = ts\n",
			"[flow ts2]\nproto = tcp\nrole = sender\nlocal = 10.0.1.1:40000\n"
			"remote = 10.0.1.2:5201\n[task t0]\nkind = tcp\nport = c\nflows = ts, ts2\n"),
			"[flow ts2] local:", "senders need their own ports");
}

/* A key file with these bytes; its path in path. */
static int
key_file(char *path, size_t len, const char *name, const void *bytes, size_t n)
{
	FILE *f;

	snprintf(path, len, "/tmp/dfcp-cfg-test-%d-%s", (int)getpid(), name);
	f = fopen(path, "wb");
	if (f == NULL)
		return -1;
	fwrite(bytes, 1, n, f);
	return fclose(f);
}

/* auth_key, block_crc, peer_timeout, max_K, [task] mem_budget (issues #15, #13). */
static void
test_security_keys(void)
{
	static const char hex[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f\n";
	char err[ENG_ERR_LEN], khex[96], kshort[96], line[256];
	const struct eng_dfcp_flow_conf *df;

	REQUIRE(key_file(khex, sizeof(khex), "hex", hex, sizeof(hex) - 1) == 0);
	REQUIRE(key_file(kshort, sizeof(kshort), "short", "0123456789", 10) == 0);
	snprintf(line, sizeof(line), "sink = verify\nauth_key = %s\nblock_crc = off\n"
			"peer_timeout = 2.5\nmax_K = 100", khex);
	if (load(fedit("sink = verify", line), err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL security keys: %s\n", err);
		test_failures++;
	} else {
		df = eng_dfcp_fc(&cfg.flows[eng_flow_index(&cfg, "r1")]);
		CHECK(df->auth_key_len == 32 && df->auth_key[0] == 0 && df->auth_key[31] == 0x1f);
		CHECK(df->block_crc == 0 && df->peer_timeout_ns == 2500000000ull && df->max_K == 100);
		df = eng_dfcp_fc(&cfg.flows[eng_flow_index(&cfg, "f1")]);
		CHECK(df->auth_key_len == 0 && df->block_crc == 1 && df->peer_timeout_ns == 0);
		eng_config_free(&cfg);
	}
	snprintf(line, sizeof(line), "sink = verify\nauth_key = %s", kshort);
	expect_err("auth_key short", fedit("sink = verify", line), "[flow r1] auth_key:",
			"10 bytes: expected a key of exactly 16 or 32 bytes");
	expect_err("auth_key missing", fedit("sink = verify", "sink = verify\nauth_key = /nonexistent"),
			"[flow r1] auth_key:", "No such file");
	expect_err("auth_key a folder", fedit("sink = verify", "sink = verify\nauth_key = /tmp"),
			"[flow r1] auth_key:", "not a regular file");
	expect_err("peer_timeout too short", fedit("sink = verify", "sink = verify\npeer_timeout = 1ms"),
			"[flow r1] peer_timeout:", NULL);
	expect_err("max_K below K", fedit("sink = verify", "sink = verify\nmax_K = 10"),
			"[flow r1] max_K:", "below the flow's own K = 47");
	/* the old name of mem_budget; one receiver needs a buffer and a decoder at least */
	expect_err("max_rx_memory too small", fedit("flows = r1\n", "flows = r1\nmax_rx_memory = 100KiB\n"),
			"[task d1] mem_budget: its flows need at least",
			"1 receivers x 1 block buffer x 65.2 KiB + 1 decoder x");
	expect_err("mem_budget too small", fedit("flows = r1\n", "flows = r1\nmem_budget = 100KiB\n"),
			"> mem_budget 100.0 KiB", NULL);
	expect_ok("max_rx_memory", fedit("flows = r1\n", "flows = r1\nmax_rx_memory = 16MiB\n"));
	expect_ok("mem_budget", fedit("flows = r1\n", "flows = r1\nmem_budget = 16MiB\n"));
	expect_err("mem_budget above the machine", fedit("flows = r1\n",
			"flows = r1\nmem_budget = 1TiB\n"), "is more than this machine's memory", NULL);
	unlink(khex);
	unlink(kshort);
}

/* window = auto: 8 BDPs of the whole path without a label, twice the BDP of the share with one. */
static void
test_windows(void)
{
	char err[ENG_ERR_LEN];

	if (load(fedit("sink = verify", "sink = verify\nbottleneck = b\nweight = 3"), err,
			sizeof(err)) != 0) {
		fprintf(stderr, "FAIL windows: %s\n", err);
		test_failures++;
		return;
	}
	/* 8 x 1 Gbit/s x 200 ms = 200 MB = 3051.8 blocks of 64 KiB */
	CHECK(eng_dfcp_fc(&cfg.flows[eng_flow_index(&cfg, "f1")])->window == 3051 + 64);
	/* alone in its group (receivers labelled b): 2 x 381.5 -> 763, + 64 */
	CHECK(eng_dfcp_fc(&cfg.flows[eng_flow_index(&cfg, "r1")])->window == 763 + 64);
	eng_config_free(&cfg);
}

/* d0's plan after loading text (its task index in *t); 0 or -1. */
static int
plan_of(const char *text, struct eng_dfcp_plan *pl)
{
	char err[ENG_ERR_LEN];
	unsigned int t;

	if (load(text, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL mem guarantees: %s\n", err);
		test_failures++;
		return -1;
	}
	for (t = 0; t < cfg.nb_tasks && strcmp(cfg.tasks[t].name, "d0") != 0; t++)
		;
	REQUIRE(t < cfg.nb_tasks);
	REQUIRE(eng_dfcp_plan(&cfg, &cfg.tasks[t], pl, err, sizeof(err)) == 0);
	eng_config_free(&cfg);
	return 0;
}

/* mem_budget auto: every sender of a 64-flow group gets an encoder of its
 * own, and each of 4096 (whose windows want more than the 256 MiB auto adds)
 * two (one would make them stop-and-wait); a budget that holds only the
 * minimum gives fewer (not reserved). */
static void
test_mem_guarantees(void)
{
	struct eng_dfcp_plan pl;
	char *group = strdup(fedit("bytes = 1MiB\n", "bytes = 1MiB\ncount = 4096\n"));

	REQUIRE(group != NULL);
	if (plan_of(group, &pl) == 0)
		CHECKF(pl.nshapes == 1 && pl.s[0].nsend == 4096 && pl.s[0].n_enc >= 2 * 4096 &&
				pl.s[0].want_enc > 2 * 4096 && pl.bytes <= pl.budget,
				"senders %lu encoders %lu (want %lu)", (unsigned long)pl.s[0].nsend,
				(unsigned long)pl.s[0].n_enc, (unsigned long)pl.s[0].want_enc);
	free(group);
	group = strdup(fedit("bytes = 1MiB\n", "bytes = 1MiB\ncount = 64\n"));
	REQUIRE(group != NULL);
	if (plan_of(group, &pl) == 0) {
		CHECKF(pl.nshapes == 1 && pl.s[0].nsend == 64 && pl.s[0].n_enc >= 64,
				"senders %lu encoders %lu", (unsigned long)pl.s[0].nsend,
				(unsigned long)pl.s[0].n_enc);
		CHECK(pl.bytes <= pl.budget);
	}
	if (plan_of(config_edit(group, "flows = f1\n", "flows = f1\nmem_budget = 4MiB\n"),
			&pl) == 0)
		CHECKF(pl.s[0].n_enc >= 1 && pl.s[0].n_enc < 64 && pl.bytes <= pl.budget,
				"encoders %lu in %lu of %lu bytes", (unsigned long)pl.s[0].n_enc,
				(unsigned long)pl.bytes, (unsigned long)pl.budget);
	free(group);
}

/* "FILE:LINE: [task t0] KEY:" of the first line after [task t0] in text that starts
 * with "KEY ". */
static void
key_where(char *buf, size_t len, const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text, *task = strstr(text, "[task t0]\n");
	unsigned int line = 1;

	while (p != NULL && *p != '\0' &&
			(p < task || strncmp(p, key, klen) != 0 || p[klen] != ' ')) {
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
		line++;
	}
	snprintf(buf, len, "%s:%u: [task t0] %s:", path, line, key);
}

/* A connection key in a tcp task is refused at its line, saying what to write instead. */
static void
test_tcp_task_conn_keys(void)
{
	static const char *const keys[][2] = {
		{"role", "role = sender"}, {"cc", "cc = reno"}, {"verify", "verify = on"},
		{"local", "local = 10.0.1.1:40001"}, {"sndbuf", "sndbuf = 64KiB"},
	};
	const char *hint = "not a tcp task key; connections are [flow NAME] sections with "
			"proto = tcp, named in the task's flows (doc/config.md, [flow])";
	char add[128], where[sizeof(path) + 64], *text, *no_ts;
	unsigned int i;

	for (i = 0; i < RTE_DIM(keys); i++) {
		snprintf(add, sizeof(add), "flows = ts\n%s\n", keys[i][1]);
		text = fedit("flows = ts\n", add);
		key_where(where, sizeof(where), text, keys[i][0]);
		expect_err(keys[i][0], text, where, hint);
	}
	/* the whole connection in the task, as it used to be written: its first key */
	no_ts = strdup(fedit("[flow ts]\nproto = tcp\nrole = sender\nlocal = 10.0.1.1:40000\n"
			"remote = 10.0.1.2:5201\ncc = cubic\nmss = 1200\nsack = off\nbytes = 2MiB\n", ""));
	REQUIRE(no_ts != NULL);
	text = config_edit(no_ts, "flows = ts\n", "role = sender\nlocal = 10.0.1.1:40000\n"
			"remote = 10.0.1.2:5201\nflows = 3\ncc = reno, cubic\n");
	key_where(where, sizeof(where), text, "role");
	expect_err("tcp task with its connection", text, where, hint);
	free(no_ts);
}

/* Every .ini file of the repository's configs/ (argv[1]) loads. */
static void
test_repo_configs(const char *dir)
{
	char file[PATH_MAX], err[ENG_ERR_LEN];
	struct dirent *de;
	unsigned int n = 0;
	DIR *d = opendir(dir);

	REQUIRE(d != NULL);
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (len < 4 || strcmp(de->d_name + len - 4, ".ini") != 0)
			continue;
		snprintf(file, sizeof(file), "%s/%s", dir, de->d_name);
		if (eng_config_load(&cfg, file, err, sizeof(err)) != 0) {
			fprintf(stderr, "FAIL %s: %s\n", file, err);
			test_failures++;
			continue;
		}
		eng_config_free(&cfg);
		n++;
	}
	closedir(d);
	CHECKF(n >= 10, "only %u configs in %s", n, dir);
	printf("ok %u repository configs load\n", n);
}

/* Raw bytes (NUL, control characters) into the config file, then load. */
static int
load_raw(const char *bytes, size_t n, char *err, size_t len)
{
	FILE *f = fopen(path, "wb");

	REQUIRE(f != NULL);
	REQUIRE(fwrite(bytes, 1, n, f) == n);
	fclose(f);
	err[0] = '\0';
	return eng_config_load(&cfg, path, err, len);
}

static void
expect_raw_err(const char *name, const char *bytes, size_t n, const char *what)
{
	char err[ENG_ERR_LEN];

	if (load_raw(bytes, n, err, sizeof(err)) == 0) {
		eng_config_free(&cfg);
		fprintf(stderr, "FAIL %s: loaded\n", name);
		test_failures++;
		return;
	}
	CHECKF(strstr(err, path) != NULL && strstr(err, what) != NULL,
			"%s: message \"%s\" lacks \"%s\"", name, err, what);
	printf("ok %s: %s\n", name, err);
}

/* Files that are no config: NUL bytes, control characters, nothing, a directory, a device. */
static void
test_not_text(void)
{
	static const char nul[] = "[engine]\nduration = 1s\n[port p0]\ndev\0ice = ring:w\n";
	static const char ctl[] = "[engine]\nduration = 1\x1b[2Js\n";
	char err[ENG_ERR_LEN];
	int rc;

	expect_raw_err("NUL byte", nul, sizeof(nul) - 1, ":4: NUL byte at column 4");
	expect_raw_err("text after NUL", "[engine]\0[bogus]\n", 18, ":1: NUL byte");
	expect_raw_err("control character", ctl, sizeof(ctl) - 1, ":2: control character 0x1b");
	expect_raw_err("empty file", "", 0, "empty file: no [section]");
	expect_raw_err("comments only", "# a\n\n   # b\n", 12, "only comments and blank lines");
	expect_err("CRLF and tabs are text", "\t# x\r\n[enginex]\r\n", "[enginex]",
			"unknown section kind");
	rc = eng_config_load(&cfg, "/tmp", err, sizeof(err));
	CHECKF(rc < 0 && strstr(err, "/tmp: is a directory") != NULL, "directory: %s", err);
	rc = eng_config_load(&cfg, "/dev/zero", err, sizeof(err));
	CHECKF(rc < 0 && strstr(err, "/dev/zero: not a regular file") != NULL, "/dev/zero: %s", err);
	rc = eng_config_load(&cfg, "/nonexistent/x.ini", err, sizeof(err));
	CHECKF(rc < 0 && strstr(err, "/nonexistent/x.ini: cannot open") != NULL, "missing: %s",
			err);
}

/* Cross-references name FILE:LINE of the key. */
static void
test_cross_refs(void)
{
	expect_err("txonly streams and flows", edit("rate = 1Gbit", "rate = 1Gbit\nstreams = 4\nflows = 4"),
			":19: [task tx0] flows:", "streams is its newer spelling");
	expect_err("egress to no task", edit("rate = 1Gbit", "rate = 1Gbit\negress = ghost"),
			":18: [task tx0] egress: no task named \"ghost\"", "kind = sched");
	expect_err("egress to a non-sched task", edit("rate = 1Gbit", "rate = 1Gbit\negress = rx0"),
			":18: [task tx0] egress: not a sched task: \"rx0\"", NULL);
	expect_err("three ports on a wire line", edit("[task tx0]", "[port p2]\ndevice = ring:w\n[task tx0]"),
			":6: [port p0] device", NULL);
}

int
main(int argc, char **argv)
{
	char err[ENG_ERR_LEN];

	if (config_file_create() != 0)
		return 1;
	if (argc > 1)
		test_repo_configs(argv[1]);

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

	test_flows();
	test_tcp_task_conn_keys();
	test_not_text();
	test_cross_refs();
	test_security_keys();
	test_windows();
	test_mem_guarantees();
	return config_file_finish("test_config");
}
