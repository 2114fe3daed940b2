/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp-engine: testpmd-style packet engine driven by an INI config.
 *
 *   dfcp-engine [EAL args] -- --config FILE [--duration T] [--stats-period T]
 *                             [--summary-json FILE] [--timeseries FILE] [--live MODE]
 *                             [--intervals-json FILE] [-i]
 *   dfcp-engine --counters | --help | --version
 *
 * EAL args on the command line override the config's [eal] args key by key
 * (core/eal_args.h). Exit codes: enum eng_exit in core/defs.h, doc/config.md.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cryptodev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_version.h>

#include "config/config.h"
#include "core/eal_args.h"
#include "core/eal_clean.h"
#include "core/lcore.h"
#include "core/lock.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/console.h"
#include "obs/obs.h"
#include "obs/stats.h"


static volatile sig_atomic_t eng_signal;

static void
on_signal(int sig)
{
	eng_signal = sig;
}

static void
usage(FILE *f, const char *prog)
{
	fprintf(f,
			"usage: %s [EAL args] -- --config FILE [--duration T] [--stats-period T]\n"
			"                         [--summary-json FILE] [--timeseries FILE] [--live MODE]\n"
			"                         [--intervals-json FILE] [-i]\n"
			"       %s --counters | --help | --version\n"
			"  -c, --config FILE    INI config (doc/config.md); EAL args before \"--\" add to\n"
			"                       its [eal] args or replace them option by option\n"
			"                       (-l/--lcores/-c, -m/--socket-mem, --vdev NAME, -a/-b ADDR,\n"
			"                       --log-level PATTERN, every other option by its name);\n"
			"                       without --file-prefix the run gets CONFIG-PID (printed)\n"
			"  --duration T         run time (10s, 1.5min; bare number = seconds; 0 = until\n"
			"                       SIGINT/SIGTERM/SIGHUP); overrides [engine] duration\n"
			"  --stats-period T     port stats every T (0 = off); overrides [engine]\n"
			"  --summary-json FILE  write the final counters as JSON\n"
			"  --timeseries FILE    CSV, one row per stats period per flow (tools/plot)\n"
			"  --intervals-json FILE  JSON Lines, one record per stats period (every second\n"
			"                       without a stats period): ports, tasks, flows, pace\n"
			"  -i, --interactive    a console on stdin: help, show, start, stop, set rate,\n"
			"                       set pkt_size, clear stats, quit (also over telemetry:\n"
			"                       /dfcp/cmd,LINE; scripts/dfcp_ctl.py); live auto is off\n"
			"  --live MODE          periodic view: auto (a refreshing screen when stdout is a\n"
			"                       terminal, else log), screen, log, off; overrides [engine]\n"
			"  --counters           list every counter: record, name, unit, outputs, meaning\n"
			"  --allow-shared-cpu   run although another dfcp-engine busy-polls one of our\n"
			"                       lcores' CPUs (interfaces are never shared)\n"
			"  -h, --help           this text;  -V, --version  program and DPDK version\n"
			"exit codes: 0 ok (every flow reached its goal), 1 config/usage error,\n"
			"            2 EAL error, 3 set-up error, 4 runtime error, 5 a flow failed\n",
			prog, prog);
}

struct app_opts {
	const char *config;
	const char *duration;
	const char *stats_period;
	const char *summary_json;
	const char *timeseries;
	const char *live;
	const char *intervals_json;
	int interactive;
	int shared_cpu_ok;	/* --allow-shared-cpu */
};

static int
parse_app_args(int argc, char **argv, struct app_opts *o)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"duration", required_argument, NULL, 'd'},
		{"stats-period", required_argument, NULL, 's'},
		{"summary-json", required_argument, NULL, 'j'},
		{"timeseries", required_argument, NULL, 't'},
		{"live", required_argument, NULL, 'L'},
		{"intervals-json", required_argument, NULL, 'I'},
		{"interactive", no_argument, NULL, 'i'},
		{"allow-shared-cpu", no_argument, NULL, 'S'},
		{"counters", no_argument, NULL, 'C'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int c;

	optind = 1;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "c:hiV", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->config = optarg;
			break;
		case 'd':
			o->duration = optarg;
			break;
		case 's':
			o->stats_period = optarg;
			break;
		case 'j':
			o->summary_json = optarg;
			break;
		case 't':
			o->timeseries = optarg;
			break;
		case 'L':
			o->live = optarg;
			break;
		case 'I':
			o->intervals_json = optarg;
			break;
		case 'i':
			o->interactive = 1;
			break;
		case 'S':
			o->shared_cpu_ok = 1;
			break;
		case 'C':
			eng_counters_print(stdout);
			exit(ENG_EXIT_OK);
		case 'h':
			usage(stdout, argv[0]);
			exit(ENG_EXIT_OK);
		case 'V':
			printf("dfcp-engine %s (%s)\n", DFCP_TOOL_VERSION, rte_version());
			exit(ENG_EXIT_OK);
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "dfcp-engine: unexpected argument \"%s\"\n", argv[optind]);
		return -EINVAL;
	}
	if (o->config == NULL) {
		fprintf(stderr, "dfcp-engine: --config FILE is required\n");
		return -EINVAL;
	}
	return 0;
}

static int
apply_overrides(struct eng_config *cfg, const struct app_opts *o)
{
	char e[CFG_ERR_LEN];

	if (o->duration != NULL &&
			cfg_parse_time(o->duration, 1000000000ull, 0, UINT64_MAX / 2, &cfg->duration_ns,
					e, sizeof(e)) < 0) {
		fprintf(stderr, "dfcp-engine: --duration: %s\n", e);
		return -EINVAL;
	}
	if (o->stats_period != NULL &&
			cfg_parse_time(o->stats_period, 1000000000ull, 0, 3600000000000ull,
					&cfg->stats_period_ns, e, sizeof(e)) < 0) {
		fprintf(stderr, "dfcp-engine: --stats-period: %s\n", e);
		return -EINVAL;
	}
	if (o->summary_json != NULL)
		snprintf(cfg->summary_json, sizeof(cfg->summary_json), "%s", o->summary_json);
	if (o->timeseries != NULL)
		snprintf(cfg->timeseries, sizeof(cfg->timeseries), "%s", o->timeseries);
	if (o->live != NULL) {
		int m = eng_live_mode(o->live);

		if (m < 0) {
			fprintf(stderr, "dfcp-engine: --live: '%s': expected auto, screen, log or off\n",
					o->live);
			return -EINVAL;
		}
		cfg->live = m;
	}
	if (o->intervals_json != NULL)
		snprintf(cfg->intervals_json, sizeof(cfg->intervals_json), "%s", o->intervals_json);
	/* the console owns the terminal: no screen, no periodic blocks unless asked */
	if (o->interactive && cfg->live == ENG_LIVE_SCREEN) {
		fprintf(stderr, "dfcp-engine: -i: the console and live = screen both need the "
				"terminal; use --live log or off\n");
		return -EINVAL;
	}
	if (o->interactive && cfg->live == ENG_LIVE_AUTO)
		cfg->live = ENG_LIVE_OFF;
	return 0;
}

/* Housekeeping on the main lcore until the run ends. */
static void
run(struct eng_runtime *rt)
{
	const struct eng_config *cfg = rt->cfg;
	uint64_t hz = rt->clock.hz, now, next_check, next_stats = UINT64_MAX, drain_end = 0;
	uint64_t dur = eng_clock_ns_cycles(&rt->clock, cfg->duration_ns);
	uint64_t period = eng_clock_ns_cycles(&rt->clock, cfg->stats_period_ns);
	int main_tasks = eng_lcore_main_has_tasks(rt);

	if (period == 0 && (cfg->timeseries[0] != '\0' || cfg->intervals_json[0] != '\0'))
		period = hz; /* time series without printed stats: one row per second */

	now = rte_rdtsc();
	next_check = now;
	if (period != 0)
		next_stats = now + period;
	for (;;) {
		if (main_tasks)
			eng_lcore_main_poll(rt, now);
		else
			usleep(1000);
		now = rte_rdtsc();
		if (now < next_check)
			continue;
		next_check = now + hz / 1000;
		eng_capture_poll(rt);
		eng_console_poll(rt); /* -i and /dfcp/cmd lines; quit raises SIGINT */
		if (rt->phase == ENG_PHASE_RUN &&
				(eng_signal != 0 || (dur != 0 && now - rt->start_tsc >= dur) ||
				 eng_tasks_done(rt->cfg) == ENG_GOAL_REACHED)) { /* every goal reached */
			if (eng_signal != 0)
				ENG_LOG(INFO, main, "signal %d: stopping", (int)eng_signal);
			rt->stop_signal = eng_signal;
			rt->stop_tsc = now;
			rt->phase = ENG_PHASE_DRAIN;
			drain_end = now + eng_clock_ns_cycles(&rt->clock, cfg->drain_ns);
		}
		if (rt->phase == ENG_PHASE_DRAIN && now >= drain_end) {
			rt->phase = ENG_PHASE_STOP;
			break;
		}
		if (rt->phase == ENG_PHASE_RUN && now >= next_stats) {
			if (cfg->stats_period_ns != 0)
				eng_stats_period(rt);
			else
				eng_live_period(rt, 0); /* --timeseries only */
			next_stats += period;
		}
	}
}

/* After rte_eal_init(): the mark of a primary's runtime directory, what the stale scan removed. */
static void
eal_report(const struct eng_eal_huge *huge, const struct eng_eal_stale *stale)
{
	char dirs[512];
	size_t off = 0;
	int i;

	if (rte_eal_process_type() == RTE_PROC_PRIMARY &&
			eng_eal_mark_write(rte_eal_get_runtime_dir(), huge) < 0)
		ENG_LOG(WARNING, main, "cannot write %s/%s: a kill -9 of this run leaves its "
				"hugepage files", rte_eal_get_runtime_dir(), ENG_EAL_MARK);
	if (stale->runs != 0)
		ENG_LOG(INFO, main, "removed the leftovers of %d dead earlier run(s) (%s%s): "
				"runtime folder(s), %d hugepage file(s)", stale->runs, stale->first,
				stale->runs > 1 ? ", ..." : "", stale->files);
	if (!rte_eal_has_hugepages())
		return;
	dirs[0] = '\0';
	for (i = 0; i < huge->n && off < sizeof(dirs); i++)
		off += (size_t)snprintf(dirs + off, sizeof(dirs) - off, "%s%s", i ? ", " : "",
				huge->dir[i]);
	ENG_LOG(INFO, main, "EAL memory: hugepages, files in %s", huge->n ? dirs : "(none)");
}

/* EAL arguments: the config's [eal] args, overridden key by key by those before "--". */
static int
eal_init(char **argv, int dashdash, struct eng_config *cfg, struct eng_eal_args *ea,
		struct eng_eal_huge *huge)
{
	static struct eng_eal_stale stale;
	char err[128], base[PATH_MAX], rundir[PATH_MAX + ENG_EAL_PREFIX_LEN];

	if (eng_eal_args_build(ea, argv[0], cfg->has_eal ? cfg->eal_args : NULL, &argv[1],
				dashdash > 1 ? dashdash - 1 : 0, cfg->file, getpid(), err,
				sizeof(err)) < 0) {
		fprintf(stderr, "dfcp-engine: config error: %s: [eal] args: %s\n", cfg->file, err);
		return ENG_EXIT_CONFIG;
	}
	/* dead earlier engine runs' runtime folders and hugepage files (core/eal_clean.h) */
	eng_eal_run_base(base, sizeof(base));
	eng_eal_stale_clean(base, &stale);
	eng_eal_hugedirs(huge, ea->argc, ea->argv, "/proc/mounts");
	if (rte_eal_init(ea->argc, ea->argv) < 0) {
		char line[512];

		/* one line of ours after EAL's own: what failed and the likely fix */
		eng_eal_failure_line(ea, rte_errno, rte_strerror(rte_errno),
				sysconf(_SC_NPROCESSORS_ONLN), line, sizeof(line));
		fprintf(stderr, "%s\n", line);
		snprintf(rundir, sizeof(rundir), "%s/%s", base, ea->prefix);
		if (ea->prefix_derived) /* ours alone (our PID) */
			eng_eal_run_remove(rundir, ea->prefix, huge, 0);
		return ENG_EXIT_EAL;
	}
	ENG_LOG(INFO, main, "EAL file prefix %s%s; telemetry: %s/dpdk_telemetry.v2", ea->prefix,
			ea->prefix_derived ? " (per run; set --file-prefix to choose)" : "",
			rte_eal_get_runtime_dir());
	eal_report(huge, &stale);
	return ENG_EXIT_OK;
}

/* Set up, run, stop, report (doc/architecture.md, "Start-up order"). */
static int
engine_run(struct eng_runtime *rt, int shared_cpu_ok)
{
	const struct eng_config *cfg = rt->cfg;
	int exit_code;

	eng_clock_init(&rt->clock, rte_get_tsc_hz(), rte_rdtsc());
	if (eng_locks_take(cfg, shared_cpu_ok) < 0 || eng_ports_probe(rt) < 0 || eng_lcores_check(rt) < 0 || eng_pools_create(rt) < 0 ||
			eng_ports_start(rt) < 0 || eng_tasks_setup(rt->cfg, rt) < 0 ||
			eng_capture_setup(rt) < 0 || eng_timeseries_open(rt) < 0)
		return ENG_EXIT_SETUP;
	eng_telemetry_register(rt);
	ENG_LOG(INFO, main, "running %u tasks on %u lcores, %u ports; duration %s", cfg->nb_tasks,
			cfg->nb_lcores, cfg->nb_ports, cfg->duration_ns ? "set" : "until SIGINT/SIGTERM");
	eng_stats_start(rt);
	rt->start_tsc = rte_rdtsc();
	rt->phase = ENG_PHASE_RUN;
	if (eng_lcores_launch(rt) < 0) {
		rt->phase = ENG_PHASE_STOP;
		eng_lcores_wait(rt);
		return ENG_EXIT_SETUP;
	}
	eng_screen_open(rt); /* [engine] live: the refreshing screen (obs/screen.c) */
	run(rt);
	eng_screen_close(rt);
	exit_code = eng_lcores_wait(rt) < 0 ? ENG_EXIT_RUNTIME : ENG_EXIT_OK;
	eng_tasks_quiesce(rt->cfg); /* lcores stopped: mbufs back, final counters */
	eng_capture_close(rt); /* callbacks off, files complete */
	eng_stats_summary(rt);
	eng_timeseries_close(rt);
	if (cfg->summary_json[0] != '\0' && eng_stats_json(rt, cfg->summary_json) < 0)
		exit_code = ENG_EXIT_RUNTIME;
	if (exit_code == ENG_EXIT_OK && eng_stats_failed(rt) != 0)
		exit_code = ENG_EXIT_FLOW;
	return exit_code;
}

static void
engine_teardown(struct eng_runtime *rt)
{
	eng_telemetry_stop();
	eng_screen_close(rt);
	rt->phase = ENG_PHASE_STOP;
	eng_capture_close(rt);
	eng_capture_free(rt);
	eng_timeseries_close(rt);
	eng_tasks_teardown(rt->cfg);
	eng_lat_free(rt);
	eng_live_free(rt);
	eng_ports_close(rt);
	eng_pools_free(rt);
}

int
main(int argc, char **argv)
{
	static struct eng_config cfg; /* large: not on the stack */
	static struct eng_runtime rt;
	static struct eng_eal_args ea;
	static struct eng_eal_huge huge;
	char err[ENG_ERR_LEN], rundir[PATH_MAX];
	int primary;
	struct app_opts opts = {0};
	struct sigaction sa;
	int i, dashdash = -1, exit_code;
	char **app_argv;
	int app_argc;

	for (i = 1; i < argc; i++)
		if (strcmp(argv[i], "--") == 0) {
			dashdash = i;
			break;
		}
	/* app args: after "--", or all of them when there is no "--" */
	app_argv = dashdash >= 0 ? &argv[dashdash] : argv;
	app_argc = dashdash >= 0 ? argc - dashdash : argc;
	app_argv[0] = argv[0];
	if (parse_app_args(app_argc, app_argv, &opts) < 0) {
		usage(stderr, argv[0]);
		return ENG_EXIT_CONFIG;
	}
	/* Config first: its errors come before any EAL output. */
	if (eng_config_load(&cfg, opts.config, err, sizeof(err)) < 0) {
		fprintf(stderr, "dfcp-engine: config error: %s\n", err);
		return ENG_EXIT_CONFIG;
	}
	if (apply_overrides(&cfg, &opts) < 0)
		return ENG_EXIT_CONFIG;
	if (eng_config_outputs_check(&cfg, err, sizeof(err)) < 0) {
		fprintf(stderr, "dfcp-engine: output error: %s\n", err);
		return ENG_EXIT_CONFIG;
	}
	exit_code = eal_init(argv, dashdash, &cfg, &ea, &huge);
	if (exit_code != ENG_EXIT_OK)
		return exit_code;
	snprintf(rundir, sizeof(rundir), "%s", rte_eal_get_runtime_dir());
	primary = rte_eal_process_type() == RTE_PROC_PRIMARY;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);	/* a closed terminal: stop as on SIGTERM, summary written */
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);	/* stdout into `head`: writes fail, the run goes on */
	rt.cfg = &cfg;
	exit_code = eng_console_open(&rt, opts.interactive) < 0 ? ENG_EXIT_SETUP : engine_run(&rt, opts.shared_cpu_ok);
	eng_console_close(&rt);
	engine_teardown(&rt);
	eng_config_free(&cfg);
	/* crypto vdevs (dfcp_cdev.c) stopped: the EAL's cleanup closes them quietly */
	for (uint8_t d = 0; d < rte_cryptodev_count(); d++)
		rte_cryptodev_stop(d);
	rte_eal_cleanup();
	/* DPDK keeps both until the next run with this prefix, which may never come */
	if (primary)
		eng_eal_run_remove(rundir, ea.prefix, &huge, 0);
	return exit_code;
}
