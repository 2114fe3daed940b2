/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Config loader tests of [pipe NAME], [queue NAME] and the router, sched and
 * txonly-egress keys: a good file loads with the values written, each bad
 * input fails with a message naming file, section, key and reason. No EAL.
 */
#include <stdio.h>
#include <string.h>

#define TEST_CONFIG_PATH "/tmp/dfcp-route-cfg-test-XXXXXX"
#include "test_config_util.h"
#include "kinds/route/route.h"

static const char *good_base =
	"[port ga]\ndevice = ring:a\ntx_queues = 2\n[port ra]\ndevice = ring:a\n"
	"[port rb]\ndevice = ring:b\n[port gb]\ndevice = ring:b\n"
	"[pipe link1]\nbw = 1Gbit\ndelay = 10ms\nsched = wf2q+\nunmatched = pass\nnext = link2\n"
	"queue = 100\nplr = 0.5%\nseed = 7\n"
	"[queue q1]\npipe = link1\nweight = 50\nmatch = ip from 10.0.0.1 to any\n"
	"match1 = udp from 10.0.0.9 to any dport 5000-5010\n"
	"[queue q2]\npipe = link1\nweight = 50\nqueue = 20\nmatch = ip from 10.0.0.2 to any\n"
	"[pipe link2]\nbw = 500Mbit\ndelay = 50ms\nloss_model = gilbert\nge_loss = 1%\n"
	"ge_burst = 4\nunmatched = dflt\n"
	"[queue dflt]\npipe = link2\nweight = 3\n"
	"[pipe back]\ndelay = 1ms\n"
	"[task s0]\nkind = sched\nport = ga\ntxq = 1\nrate = 100Mbit\nsched = drr\nquantum = 3000\n"
	"[task tx0]\nkind = txonly\nport = ga\negress = s0\nweight = 3\n"
	"[task r0]\nkind = router\nport_a = ra\nport_b = rb\na_to_b = link1\nb_to_a = back\n"
	"[task rx0]\nkind = rxonly\nport = gb\n"
	"[lcore 1]\ntasks = s0, tx0, r0, rx0\n";

static char *
edit(const char *from, const char *to)
{
	return config_edit(good_base, from, to);
}

static void
check_good(void)
{
	char err[ENG_ERR_LEN];
	const struct eng_route_conf *r;
	const struct eng_router_conf *rc;

	if (load(good_base, err, sizeof(err)) != 0) {
		fprintf(stderr, "FAIL good: %s\n", err);
		test_failures++;
		return;
	}
	r = eng_route_conf(&cfg);
	rc = cfg.tasks[2].conf;
	if (r == NULL || r->nb_pipes != 3 || r->nb_queues != 3 ||
			r->pipes[0].bw_bps != 1000000000ull || r->pipes[0].delay_ns != 10000000ull ||
			r->pipes[0].plr_ppb != 5000000u || r->pipes[0].seed != 7 ||
			r->pipes[0].queue_pkts != 100 || r->pipes[0].next_idx != 1 ||
			r->pipes[0].unmatched_idx != ENG_UNMATCHED_PASS || r->pipes[0].overhead != 24 ||
			r->pipes[0].nb_queues != 2 || r->pipes[1].unmatched_idx != 2 ||
			!r->pipes[1].gilbert || r->pipes[1].ge.p_bg != 0.25 ||
			r->pipes[1].queue_pkts != 50 || r->pipes[2].bw_bps != 0 ||
			r->pipes[2].unmatched_idx != ENG_UNMATCHED_DEFAULT ||
			r->queues[0].nb_rules != 2 || r->queues[0].pipe_q != 1 ||
			r->queues[1].pipe_q != 2 || r->queues[1].limit_pkts != 20 ||
			r->queues[2].pipe_q != 1 || r->queues[2].weight != 3 ||
			r->queues[0].rules[1].dport_lo != 5000 || r->queues[0].rules[1].proto != 17 ||
			rc->pipe_idx[0] != 0 || rc->pipe_idx[1] != 2 ||
			cfg.tasks[1].ports[0].txq != UINT16_MAX || cfg.tasks[0].ports[0].txq != 1) {
		fprintf(stderr, "FAIL good: values not as written\n");
		test_failures++;
	} else {
		printf("ok good config: values as written\n");
	}
	eng_config_free(&cfg);
}

int
main(void)
{
	char err[ENG_ERR_LEN];

	if (config_file_create() != 0)
		return 1;
	check_good();
	if (load(edit("b_to_a = back\n", ""), err, sizeof(err)) != 0 ||
			((struct eng_router_conf *)cfg.tasks[2].conf)->pipe_idx[1] != ENG_ROUTE_PASS) {
		fprintf(stderr, "FAIL router b_to_a default pass: %s\n", err);
		test_failures++;
	} else {
		eng_config_free(&cfg);
	}

	/* [pipe] */
	expect_err("pipe unknown key", edit("queue = 100\n", "queue = 100\nbandwidth = 1Gbit\n"),
			"[pipe link1] bandwidth: unknown key", "known keys:");
	expect_err("pipe bad bw unit", edit("bw = 1Gbit", "bw = 1Gbt"), "[pipe link1] bw:",
			"unknown unit \"Gbt\"");
	expect_err("pipe bad delay", edit("delay = 10ms", "delay = 10"), "[pipe link1] delay:",
			NULL);
	expect_err("pipe bad plr", edit("plr = 0.5%", "plr = 150%"), "[pipe link1] plr:", NULL);
	expect_err("pipe bad sched", edit("sched = wf2q+", "sched = qfq"), "[pipe link1] sched:",
			"unknown scheduler \"qfq\"");
	expect_err("pipe unknown next", edit("next = link2", "next = link9"), "[pipe link1] next:",
			"unknown pipe \"link9\"");
	expect_err("pipe next cycle", edit("ge_burst = 4\n", "ge_burst = 4\nnext = link1\n"),
			"next: cycle", NULL);
	expect_err("pipe next self", edit("[pipe back]\ndelay = 1ms\n",
			"[pipe back]\ndelay = 1ms\nnext = back\n"), "[pipe back] next: cycle", NULL);
	expect_err("pipe bad unmatched", edit("unmatched = dflt", "unmatched = q1"),
			"[pipe link2] unmatched:", "not a [queue NAME] of this pipe");
	expect_err("pipe ge without gilbert", edit("loss_model = gilbert\n", ""),
			"[pipe link2] ge_loss:", "need loss_model = gilbert");
	expect_err("pipe bad loss model", edit("loss_model = gilbert", "loss_model = markov"),
			"[pipe link2] loss_model:", "unknown loss model");
	expect_err("pipe bad ge_burst", edit("ge_burst = 4", "ge_burst = 0.5"),
			"[pipe link2] ge_burst:", "number >= 1");
	expect_err("pipe gilbert missing", edit("ge_loss = 1%\nge_burst = 4\n", ""),
			"[pipe link2] ge_loss: missing required key", NULL);
	expect_err("pipe fed twice", edit("b_to_a = back", "b_to_a = link2"), "[pipe link2]",
			"fed twice");
	/* [queue] */
	expect_err("queue unknown key", edit("weight = 3\n", "weight = 3\nprio = 1\n"),
			"[queue dflt] prio: unknown key", NULL);
	expect_err("queue unknown pipe", edit("pipe = link1\nweight = 50\nqueue = 20",
			"pipe = linkx\nweight = 50\nqueue = 20"), "[queue q2] pipe:",
			"unknown pipe \"linkx\"");
	expect_err("queue missing pipe", edit("pipe = link2\nweight = 3\n", "weight = 3\n"),
			"[queue dflt] pipe: missing required key", NULL);
	expect_err("queue bad weight", edit("weight = 3", "weight = 0"), "[queue dflt] weight:",
			NULL);
	expect_err("queue bad rule", edit("match = ip from 10.0.0.2 to any",
			"match = ip from 10.0.0.2 too any"), "[queue q2] match:", "unknown word \"too\"");
	expect_err("queue bad rule key", edit("match1 = udp", "match16 = udp"),
			"[queue q1] match16: unknown key", NULL);
	expect_err("queue no rule", edit("unmatched = dflt", "unmatched = default"),
			"[queue dflt]", "no match rule");
	/* router, sched, txonly egress */
	expect_err("router unknown pipe", edit("a_to_b = link1", "a_to_b = link3"),
			"[task r0] a_to_b:", "unknown pipe \"link3\"");
	expect_err("router missing port", edit("port_b = rb\n", ""),
			"[task r0] port_b: missing required key", NULL);
	expect_err("router unknown key", edit("b_to_a = back\n", "b_to_a = back\nfoo = 1\n"),
			"[task r0] foo: unknown key", NULL);
	expect_err("sched bad rate", edit("rate = 100Mbit", "rate = 100Mbt"), "[task s0] rate:",
			"unknown unit");
	expect_err("sched bad algo", edit("sched = drr", "sched = wrr"), "[task s0] sched:",
			"unknown scheduler");
	expect_err("txonly bad weight", edit("egress = s0\nweight = 3", "egress = s0\nweight = 0"),
			"[task tx0] weight:", NULL);

	return config_file_finish("test_route_config");
}
