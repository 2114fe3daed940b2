/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A task over several lcores ([task NAME] lcores = ..., config/sec_task.c):
 * the tasks NAME.i with their lcores and queues, the ports' queue counts, the
 * [lcore] lists, and the flows placed by the RSS hash as the plain rule of
 * lib/net/net_rss.h gives them; each wrong use fails with a message naming
 * file, section and key. No EAL.
 */
#include <stdio.h>
#include <string.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-spread-cfg-test-XXXXXX"
#include "test_config_util.h"
#include "config/flow.h"
#include "net_rss.h"

static const char *good_base =
	"[port a]\ndevice = ring:w0\n[port b]\ndevice = ring:w0\n"
	"[port c]\ndevice = ring:w1\n[port d]\ndevice = ring:w1\nrx_queues = 3\ntx_queues = 3\n"
	"[flow s]\nrole = sender\ncount = 64\nlocal = 10.0.0.1:10000\nremote = 10.0.1.1:20000\n"
	"bytes = 64KiB\n"
	"[flow r]\nrole = receiver\ncount = 64\nlocal = 10.0.1.1:20000\nsink = verify\n"
	"[task tx]\nkind = dfcp\nport = a\nlcores = 2-5\nflows = s\n"
	"[task rx]\nkind = dfcp\nport = b\nlcores = 2,3,6\nflows = r\n"
	"[task gen]\nkind = txonly\nport = c\nlcores = 0-1\n"
	"[task fwd]\nkind = io\nrx_port = d\ntx_port = d\nlcores = 7,8\n"
	"[task sink]\nkind = rxonly\nport = d\nrxq = 2\n"
	"[lcore 2]\ntasks = sink\n";

static char *
edit(const char *from, const char *to)
{
	return config_edit(good_base, from, to);
}

static int
task_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < cfg.nb_tasks; i++)
		if (strcmp(cfg.tasks[i].name, name) == 0)
			return (int)i;
	return -1;
}

static const struct eng_lcore_conf *
lcore_of(unsigned int id)
{
	unsigned int i;

	for (i = 0; i < cfg.nb_lcores; i++)
		if (cfg.lcores[i].lcore_id == id)
			return &cfg.lcores[i];
	return NULL;
}

/* The tasks base.0 .. base.(n-1): consecutive, on lcores[i], queue i where a queue is used. */
static void
check_tasks(const char *base, unsigned int n, const unsigned int *lcores)
{
	char name[ENG_NAME_LEN];
	int first;
	unsigned int i, a;

	snprintf(name, sizeof(name), "%s.0", base);
	first = task_index(name);
	CHECKF(first >= 0, "no task %s", name);
	CHECKF(task_index(base) < 0, "task %s exists besides its expansion", base);
	if (first < 0)
		return;
	for (i = 0; i < n; i++) {
		const struct eng_task *t = &cfg.tasks[first + (int)i];

		snprintf(name, sizeof(name), "%s.%u", base, i);
		CHECKF(strcmp(t->name, name) == 0, "task %u after %s.0 is %s", i, base, t->name);
		CHECK(t->spread_n == n && t->spread_i == i && strcmp(t->spread, base) == 0);
		CHECKF(t->assigned && t->lcore_id == lcores[i], "%s on lcore %u, expected %u",
				t->name, t->lcore_id, lcores[i]);
		CHECK((i == 0) == (t->flow_list != NULL) || t->ops->flow_parse == NULL);
		for (a = 0; a < t->nb_ports; a++) {
			CHECK(t->ports[a].rxq == UINT16_MAX || t->ports[a].rxq == i);
			CHECK(t->ports[a].txq == UINT16_MAX || t->ports[a].txq == i);
		}
	}
	snprintf(name, sizeof(name), "%s.%u", base, n);
	CHECKF(task_index(name) < 0, "task %s beyond the list", name);
}

/* Every flow of the group on the task the RSS rule names: the queue of the
 * hash of (remote, local) over the port's rx queues. */
static void
check_placement(const char *group, const char *base, unsigned int n)
{
	char name[ENG_NAME_LEN];
	unsigned int i, count[ENG_TASK_SPREAD_MAX] = {0};
	int g = eng_flow_group_index(&cfg, group), first;

	snprintf(name, sizeof(name), "%s.0", base);
	first = task_index(name);
	REQUIRE(g >= 0 && first >= 0);
	for (i = 0; i < cfg.flow_groups[g].count; i++) {
		const struct eng_flow_conf *f = &cfg.flows[cfg.flow_groups[g].first + i];
		const struct eng_task *t = &cfg.tasks[first];
		uint32_t h = net_rss_ipv4_l4(net_rss_key_default, f->remote_ip, f->local_ip,
				f->remote_port, f->local_port);
		unsigned int want = net_rss_queue(h, cfg.ports[t->ports[0].port_idx].rx_queues) % n;

		CHECKF(f->task_idx == first + (int)want, "flow %s on %s, expected %s.%u", f->name,
				cfg.tasks[f->task_idx].name, base, want);
		count[want]++;
	}
	for (i = 0; i < n; i++) {
		CHECK(cfg.tasks[first + (int)i].nb_flows == count[i]);
		printf("  %s.%u: %u flows\n", base, i, count[i]);
	}
}

static void
check_good(void)
{
	static const unsigned int tx_l[] = {2, 3, 4, 5}, rx_l[] = {2, 3, 6}, gen_l[] = {0, 1},
			fwd_l[] = {7, 8};
	const struct eng_lcore_conf *l2, *l6;
	char err[ENG_ERR_LEN];
	int a = 0, b = 1, c = 2, d = 3;

	if (load(good_base, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL good: %s\n", err);
		test_failures++;
		return;
	}
	check_tasks("tx", 4, tx_l);
	check_tasks("rx", 3, rx_l);
	check_tasks("gen", 2, gen_l);
	check_tasks("fwd", 2, fwd_l);
	/* the defaults raised to the tasks' queues, and only where a queue is used */
	CHECK(cfg.ports[a].rx_queues == 4 && cfg.ports[a].tx_queues == 4);
	CHECK(cfg.ports[b].rx_queues == 3 && cfg.ports[b].tx_queues == 3);
	CHECK(cfg.ports[c].rx_queues == 1 && cfg.ports[c].tx_queues == 2);
	CHECKF(cfg.ports[d].rx_queues == 3 && cfg.ports[d].tx_queues == 3,
			"port d: %u rx %u tx queues", cfg.ports[d].rx_queues, cfg.ports[d].tx_queues);
	/* [lcore 2] polls its own task first, then tx.0 and rx.0; lcore 6 is rx's */
	l2 = lcore_of(2);
	l6 = lcore_of(6);
	REQUIRE(l2 != NULL && l6 != NULL);
	CHECK(l2->nb_tasks == 3 && l2->task_idx[0] == task_index("sink") &&
			l2->task_idx[1] == task_index("tx.0") && l2->task_idx[2] == task_index("rx.0"));
	CHECK(l2->spread[0] == '\0');
	CHECK(l6->nb_tasks == 1 && l6->task_idx[0] == task_index("rx.2") &&
			strcmp(l6->spread, "rx") == 0);
	check_placement("s", "tx", 4);
	check_placement("r", "rx", 3);
	printf("ok good config: tasks, lcores, queues and placement\n");
	eng_config_free(&cfg);
}

int
main(void)
{
	if (config_file_create() != 0)
		return 1;
	check_good();
	expect_ok("rx_queues written large enough",
			edit("[port a]\ndevice = ring:w0\n", "[port a]\ndevice = ring:w0\nrx_queues = 8\n"));
	expect_err("lcores with rxq", edit("lcores = 2-5\n", "lcores = 2-5\nrxq = 1\n"),
			"[task tx] rxq:", "not with lcores");
	expect_err("lcores with txq", edit("lcores = 0-1\n", "lcores = 0-1\ntxq = 0\n"),
			"[task gen] txq:", "not with lcores");
	expect_err("rx_queues written too small",
			edit("[port a]\ndevice = ring:w0\n", "[port a]\ndevice = ring:w0\nrx_queues = 2\n"),
			"[task tx] lcores: 4 tasks need 4 rx_queues on port a", "rx_queues = 2 (line 3)");
	expect_err("tx_queues written too small",
			edit("[port b]\ndevice = ring:w0\n", "[port b]\ndevice = ring:w0\ntx_queues = 1\n"),
			"[task rx] lcores: 3 tasks need 3 tx_queues on port b", "tx_queues = 1");
	expect_err("base name in [lcore]", edit("tasks = sink\n", "tasks = sink, tx\n"),
			"[lcore 2] tasks: task \"tx\" runs on the lcores of [task tx]", "list it in no");
	expect_err("expanded name in [lcore]", edit("tasks = sink\n", "tasks = sink, rx.1\n"),
			"[lcore 2] tasks: task \"rx.1\"", "[task rx] (lcores");
	expect_err("expanded name taken before", edit("[task tx]\n",
			"[task tx.2]\nkind = rxonly\nport = c\n[task tx]\n"), "[task tx] lcores:",
			"task \"tx.2\" defined twice (line");
	expect_err("expanded name taken after", edit("[lcore 2]\n",
			"[task rx.0]\nkind = rxonly\nport = c\n[lcore 2]\n"), "[task rx.0]",
			"taken by [task rx] (lcores, line");
	expect_err("lcores empty range", edit("lcores = 2-5", "lcores = 5-2"), "[task tx] lcores:",
			"empty range 5-2");
	expect_err("lcores twice", edit("lcores = 2-5", "lcores = 2-5, 3"), "[task tx] lcores:",
			"lcore 3 listed twice");
	expect_err("lcores not a number", edit("lcores = 2-5", "lcores = two"),
			"[task tx] lcores:", "such as 2-5 or 2,3,6");
	expect_err("lcores past RTE_MAX_LCORE", edit("lcores = 2-5", "lcores = 2-900"),
			"[task tx] lcores:", NULL);
	expect_err("more lcores than queues", edit("lcores = 2-5", "lcores = 10-30"),
			"[task tx] lcores:", "more than 16 lcores");
	expect_err("expanded name too long", edit("[task tx]\n",
			"[task t23456789012345678901234567890]\n"),
			"lcores: task t23456789012345678901234567890.0", "too long");
	expect_err("a task without flows", edit("[flow r]\nrole = receiver\ncount = 64\n",
			"[flow r]\nrole = receiver\ncount = 2\n"),
			"[task rx] lcores: task rx.", "runs none of the 2 flows");
	expect_err("a flow listed by a spread and a task",
			edit("kind = rxonly\nport = d\nrxq = 2\n", "kind = dfcp\nport = d\nrxq = 2\n"
			"txq = 2\nflows = r.5\n"), "flow \"r.5\" is already run by task", NULL);
	return config_file_finish("test_spread_config");
}
