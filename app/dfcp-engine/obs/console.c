/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The console's commands: one table line each (its words, arguments, help,
 * handler), one run of a line (eng_console_exec) on the main lcore. What a
 * command shows goes through the output writer, as text on the terminal or
 * as the "out" member of a /dfcp/cmd reply; the show commands reuse the
 * writers of the summary and of telemetry. Commands that change a task post
 * a request to its kind (ops->control, core/ctl.h) and wait for its lcore.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>

#include "cfg.h"
#include "config/config.h"
#include "config/flow.h"
#include "core/ctl.h"
#include "core/log.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/console.h"
#include "obs/console_priv.h"
#include "obs/obs.h"
#include "obs/out.h"
#include "obs/stats.h"

#define CON_WORDS 8
#define CON_NAMES_SHOWN 24	/* names listed in an "unknown name" message */

#define CON_OUT 1	/* writes a record: the reply's "out" is an object */
#define CON_NOTE 2	/* listed in the --intervals-json record of its period */
#define CON_RUN 4	/* only while the run is on (not while draining) */

struct con_cmd;

/* One line being run. */
struct con_ctx {
	struct eng_console_rt *c;
	struct eng_runtime *rt;
	const struct con_cmd *cmd;
	char **arg;		/* the words after the command's own */
	int nargs;
	struct eng_out *o;
	char *msg;
	size_t len;
};

struct con_cmd {
	const char *name;	/* its words, e.g. "set rate" */
	const char *args;	/* for help and usage */
	int min_args, max_args;
	unsigned int flags;	/* CON_* */
	const char *help;
	int (*fn)(struct con_ctx *x);
	const char *tel;	/* a show command: the telemetry command it answers as */
};

static int con_help(struct con_ctx *x);
static int con_show_ports(struct con_ctx *x);
static int con_show_tasks(struct con_ctx *x);
static int con_show_tel(struct con_ctx *x);
static int con_run(struct con_ctx *x);
static int con_set_rate(struct con_ctx *x);
static int con_set_size(struct con_ctx *x);
static int con_clear(struct con_ctx *x);
static int con_quit(struct con_ctx *x);

/* The commands (doc/observability.md, "The console", lists the same). */
static const struct con_cmd con_cmds[] = {
	{"help", "[COMMAND]", 0, 2, CON_OUT,
		"the commands (those starting with COMMAND)", con_help, NULL},
	{"show ports", "", 0, 0, CON_OUT,
		"every port's counters since the start or the last clear stats, and their mean rates",
		con_show_ports, NULL},
	{"show tasks", "", 0, 0, CON_OUT,
		"every task's counters since the start or the last clear stats", con_show_tasks, NULL},
	{"show flows", "[FLOW]", 0, 1, CON_OUT,
		"every DFCP and TCP flow, or the one named (as /dfcp/flows)", con_show_tel, "/dfcp/flows"},
	{"show pipes", "", 0, 0, CON_OUT,
		"every router pipe and its queues (as /dfcp/pipes)", con_show_tel, "/dfcp/pipes"},
	{"show sched", "", 0, 0, CON_OUT,
		"every sched task and its flows (as /dfcp/sched)", con_show_tel, "/dfcp/sched"},
	{"show pace", "", 0, 0, CON_OUT,
		"every paced task and flow: configured and achieved rate (as /dfcp/pace)", con_show_tel,
		"/dfcp/pace"},
	{"show lcores", "", 0, 0, CON_OUT,
		"busy and idle cycles per lcore and task (as /dfcp/lcores)", con_show_tel,
		"/dfcp/lcores"},
	{"show streams", "[TASK]", 0, 1, CON_OUT,
		"every txonly/rxonly stream (TASK/N, TASK/IP:PORT), or a task's: frames, bytes, "
		"mean L2/L1 rates, losses (as /dfcp/streams)", con_show_tel, "/dfcp/streams"},
	{"start", "TASK|TASK/N|FLOW", 1, 1, CON_NOTE | CON_RUN,
		"a stopped txonly task, or its stream N (flows = N: 0 .. N-1), sends again; a "
		"stopped DFCP/TCP sender flow takes from its source again", con_run, NULL},
	{"stop", "TASK|TASK/N|FLOW", 1, 1, CON_NOTE | CON_RUN,
		"a txonly task, or only its stream N, sends nothing more (what it sent is still "
		"received); a DFCP/TCP sender flow holds its source: what is in flight completes, "
		"nothing closes", con_run, NULL},
	{"set rate", "TASK|TASK/N|FLOW RATE", 2, 2, CON_NOTE | CON_RUN,
		"a txonly task's rate from its next burst: L1 bit/s (3G, 500Mbit), pkt/s (1Mpps), "
		"% of the line rate; 0 or max: full speed; TASK/N: stream N's own limit within the "
		"task's rate (0: none); a DFCP/TCP sender flow's pacer in bit/s (0, off or max: "
		"unpaced)", con_set_rate, NULL},
	{"set pkt_size", "TASK BYTES", 2, 2, CON_NOTE | CON_RUN,
		"a txonly task's frame size with FCS from its next burst (one size: not an IMIX or "
		"streams); a rate in pkt/s or % follows it", con_set_size, NULL},
	{"clear stats", "", 0, 0, CON_NOTE,
		"show ports and show tasks count from now; the summary, its JSON, telemetry and "
		"--intervals-json keep counting from the start", con_clear, NULL},
	{"quit", "", 0, 0, CON_NOTE,
		"stop the run as SIGINT does: drain, summary, the same exit status", con_quit, NULL},
};

/* Words of a table name: "set rate" -> 2. */
static int
name_words(const char *name)
{
	int n = 1;

	for (; *name != '\0'; name++)
		n += *name == ' ';
	return n;
}

/* Word i of a table name into buf. */
static const char *
name_word(const char *name, int i, char *buf, size_t len)
{
	const char *end;

	while (i-- > 0 && (name = strchr(name, ' ')) != NULL)
		name++;
	if (name == NULL)
		return "";
	end = strchr(name, ' ');
	snprintf(buf, len, "%.*s", end != NULL ? (int)(end - name) : (int)strlen(name), name);
	return buf;
}

/*
 * The table lines whose first word is word0, and among them the one whose
 * second word (if it has one) is word1: its index, or -1 with the reason in
 * x->msg (a closest match and the list of choices).
 */
static int
cmd_find(struct con_ctx *x, char **w, int nw)
{
	const char *firsts[RTE_DIM(con_cmds)], *seconds[RTE_DIM(con_cmds)], *near;
	char buf[RTE_DIM(con_cmds)][32], b2[RTE_DIM(con_cmds)][32], list[256] = "";
	unsigned int i, nf = 0, ns = 0, j;
	size_t off = 0;

	for (i = 0; i < RTE_DIM(con_cmds); i++) {
		name_word(con_cmds[i].name, 0, buf[nf], sizeof(buf[nf]));
		for (j = 0; j < nf && strcmp(firsts[j], buf[nf]) != 0; j++)
			;
		if (j == nf) {
			firsts[nf] = buf[nf];
			nf++;
		}
		if (strcmp(buf[j], w[0]) != 0)
			continue;
		if (name_words(con_cmds[i].name) == 1)
			return (int)i;
		seconds[ns] = name_word(con_cmds[i].name, 1, b2[ns], sizeof(b2[ns]));
		if (nw > 1 && strcmp(seconds[ns], w[1]) == 0)
			return (int)i;
		ns++;
	}
	if (ns == 0) {
		for (i = 0; i < nf; i++)
			off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
					"%s%s", i ? ", " : "", firsts[i]);
		near = cfg_closest(w[0], firsts, nf, 2);
		snprintf(x->msg, x->len, "unknown command \"%s\"%s%s%s; commands: %s (help: what "
				"each does)", w[0], near ? " (did you mean \"" : "", near ? near : "",
				near ? "\"?)" : "", list);
		return -1;
	}
	for (i = 0; i < ns; i++)
		off += (size_t)snprintf(list + off, off < sizeof(list) ? sizeof(list) - off : 0,
				"%s%s", i ? "|" : "", seconds[i]);
	if (nw < 2) {
		snprintf(x->msg, x->len, "usage: %s %s", w[0], list);
		return -1;
	}
	near = cfg_closest(w[1], seconds, ns, 2);
	snprintf(x->msg, x->len, "%s: unknown \"%s\"%s%s%s; %s %s", w[0], w[1],
			near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "", w[0],
			list);
	return -1;
}

int
eng_console_exec(struct eng_console_rt *c, struct eng_runtime *rt, char *line,
		struct eng_out *o, char *msg, size_t len)
{
	struct con_ctx x = {.c = c, .rt = rt, .o = o, .msg = msg, .len = len};
	char *w[CON_WORDS + 1], copy[ENG_CON_LINE];
	const struct con_cmd *cmd;
	int nw, k, rc;

	msg[0] = '\0';
	snprintf(copy, sizeof(copy), "%s", line);
	nw = cfg_split_words(line, w, CON_WORDS + 1);
	if (nw <= 0 || nw > CON_WORDS) {
		snprintf(msg, len, nw == 0 ? "empty line" : "too many words (at most %d)",
				CON_WORDS);
		return -EINVAL;
	}
	k = cmd_find(&x, w, nw);
	if (k < 0)
		return -EINVAL;
	cmd = x.cmd = &con_cmds[k];
	x.arg = w + name_words(cmd->name);
	x.nargs = nw - name_words(cmd->name);
	if (x.nargs < cmd->min_args || x.nargs > cmd->max_args) {
		snprintf(msg, len, "usage: %s%s%s", cmd->name, cmd->args[0] ? " " : "", cmd->args);
		return -EINVAL;
	}
	if ((cmd->flags & CON_RUN) && rt->phase != ENG_PHASE_RUN) {
		snprintf(msg, len, "%s: the run is %s", cmd->name,
				rt->phase == ENG_PHASE_INIT ? "not on yet" : "stopping");
		return -EAGAIN;
	}
	if ((cmd->flags & CON_OUT) && o->kind == ENG_OUT_JSON)
		eng_out_obj(o, "out");
	rc = cmd->fn(&x);
	if (cmd->flags & CON_OUT) {
		if (o->kind == ENG_OUT_JSON)
			eng_out_end(o);
	} else if (rc == 0 && o->kind == ENG_OUT_JSON) {
		eng_out_str(o, "out", msg);
	}
	if (rc == 1)
		snprintf(c->wait_line, sizeof(c->wait_line), "%s", copy);
	else if (rc == 0 && (cmd->flags & CON_NOTE))
		eng_intervals_note(rt, copy);
	return rc;
}

int
eng_console_wait(struct eng_console_rt *c, struct eng_runtime *rt, char *msg, size_t len)
{
	static const struct eng_ctl_req sync = {.op = ENG_CTL_SYNC};
	struct eng_task *t = c->wait_task;
	char e[ENG_CON_MSG];

	if (t == NULL)
		return 0;
	if (t->ops->control(t, &sync, e, sizeof(e)) == 0) {
		snprintf(msg, len, "%s", c->wait_msg);
		c->wait_task = NULL;
		eng_intervals_note(rt, c->wait_line);
		return 0;
	}
	if (rte_rdtsc() < c->wait_deadline)
		return 1;
	snprintf(msg, len, "task %s: its lcore %u did not take \"%s\" within %u ms (the run "
			"stopping, or the lcore stalled): it applies it at its next poll", t->name,
			t->lcore_id, c->wait_line, ENG_CON_WAIT_MS);
	c->wait_task = NULL;
	return -ETIMEDOUT;
}

/* ---- help ------------------------------------------------------------------ */

static int
con_help(struct con_ctx *x)
{
	char want[64] = "";
	unsigned int i, n = 0;
	int k;

	for (k = 0; k < x->nargs; k++) /* "help set rate": the lines starting so */
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", k ? " " : "",
				x->arg[k]);
	if (x->o->kind == ENG_OUT_JSON)
		eng_out_arr(x->o, "commands");
	for (i = 0; i < RTE_DIM(con_cmds); i++) {
		const struct con_cmd *c = &con_cmds[i];
		char left[64];

		if (strncmp(c->name, want, strlen(want)) != 0)
			continue;
		n++;
		if (x->o->kind != ENG_OUT_JSON) {
			snprintf(left, sizeof(left), "%s%s%s", c->name, c->args[0] ? " " : "", c->args);
			fprintf(x->o->f, "  %-26s %s\n", left, c->help);
			continue;
		}
		eng_out_item(x->o, "command", c->name);
		eng_out_str(x->o, "command", c->name);
		eng_out_str(x->o, "args", c->args);
		eng_out_str(x->o, "help", c->help);
		eng_out_end(x->o);
	}
	if (x->o->kind == ENG_OUT_JSON)
		eng_out_end(x->o);
	if (n == 0) {
		snprintf(x->msg, x->len, "no command starts with \"%s\"", want);
		return -ENOENT;
	}
	return 0;
}

/* ---- show -------------------------------------------------------------------- */

/* The TSC cycles the counters of show ports / show tasks cover, written
 * first ("since_s"; text: a line of its own). */
static uint64_t
since_write(const struct con_ctx *x)
{
	uint64_t from = x->c->clear_tsc ? x->c->clear_tsc : x->rt->start_tsc, now = rte_rdtsc();
	uint64_t cyc = now > from ? now - from : 0;
	double s = (double)cyc / (double)x->rt->clock.hz;

	if (x->o->kind == ENG_OUT_TEXT)
		fprintf(x->o->f, "  since the %s: %.3f s\n", x->c->clear_tsc ? "last clear stats" :
				"start", s);
	else
		eng_out_dbl(x->o, "since_s", s, 3);
	return cyc;
}

static int
con_show_ports(struct con_ctx *x)
{
	static const struct eng_port_stats zero;
	uint64_t cyc = since_write(x);
	unsigned int i;

	eng_out_arr(x->o, "ports");
	for (i = 0; i < x->rt->cfg->nb_ports; i++) {
		const struct eng_port_stats *b = &x->c->port_base[i];
		struct eng_port_stats s;

		eng_port_stats_read(x->rt, i, &s);
		s.rx_packets -= b->rx_packets;
		s.tx_packets -= b->tx_packets;
		s.rx_bytes -= b->rx_bytes;
		s.tx_bytes -= b->tx_bytes;
		s.rx_missed -= b->rx_missed;
		s.rx_errors -= b->rx_errors;
		s.tx_errors -= b->tx_errors;
		s.rx_nombuf -= b->rx_nombuf;
		eng_stats_port_write(x->rt, x->o, i, &s, &zero, cyc);
	}
	eng_out_end(x->o);
	return 0;
}

/* s - base, counter by counter; the mean latency of the samples since the
 * base; the smallest and largest latency stay those since the start. */
static void
task_since(struct eng_task_stats *s, const struct eng_task_stats *b)
{
	uint64_t n = s->lat_samples - b->lat_samples;

	if (n != 0 && b->lat_samples != 0)
		s->lat_avg_ns = (s->lat_avg_ns * s->lat_samples - b->lat_avg_ns * b->lat_samples) / n;
	s->tx_packets -= b->tx_packets;
	s->tx_bytes -= b->tx_bytes;
	s->tx_dropped -= b->tx_dropped;
	s->rx_packets -= b->rx_packets;
	s->rx_bytes -= b->rx_bytes;
	s->rx_valid -= b->rx_valid;
	s->rx_bad -= b->rx_bad;
	s->rx_other -= b->rx_other;
	s->seq_lost -= b->seq_lost;
	s->seq_reordered -= b->seq_reordered;
	s->lat_samples = n;
	s->no_mbuf -= b->no_mbuf;
}

static int
con_show_tasks(struct con_ctx *x)
{
	unsigned int i;

	since_write(x);
	eng_out_arr(x->o, "tasks");
	for (i = 0; i < x->rt->cfg->nb_tasks; i++) {
		const struct eng_task *t = &x->rt->cfg->tasks[i];
		struct eng_task_stats s;

		memset(&s, 0, sizeof(s));
		t->ops->stats(t, &s);
		task_since(&s, &x->c->task_base[i]);
		eng_stats_task_write(x->o, t, &s);
	}
	eng_out_end(x->o);
	return 0;
}

/* The telemetry command's own writer (/dfcp/flows, /dfcp/pipes ...). */
static int
con_show_tel(struct con_ctx *x)
{
	const struct eng_tel_cmd *t = eng_telemetry_find(x->cmd->tel);

	const struct eng_config *cfg = x->rt->cfg;
	unsigned int i;

	if (t == NULL) {
		snprintf(x->msg, x->len, "%s: no kind of this engine answers %s", x->cmd->name,
				x->cmd->tel);
		return -ENOENT;
	}
	for (i = 0; x->nargs != 0 && i < cfg->nb_flows; i++) /* show flows FLOW */
		if (strcmp(cfg->flows[i].name, x->arg[0]) == 0)
			break;
	if (x->nargs != 0 && i == cfg->nb_flows && strcmp(x->cmd->tel, "/dfcp/flows") == 0) {
		snprintf(x->msg, x->len, "%s: no flow \"%s\" (show flows: every one)", x->cmd->name,
				x->arg[0]);
		return -ENOENT;
	}
	if (t->fn(x->rt, x->nargs ? x->arg[0] : NULL, x->o) < 0) {
		snprintf(x->msg, x->len, "%s: nothing named \"%s\"", x->cmd->name,
				x->nargs ? x->arg[0] : "");
		return -ENOENT;
	}
	return 0;
}

/* ---- start, stop, set ---------------------------------------------------------- */

/* "a, b, c ... and N more" of names[0..n) into buf. */
static void
names_list(char *buf, size_t len, const char *const *names, unsigned int n)
{
	size_t off = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < n && i < CON_NAMES_SHOWN && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? ", " : "", names[i]);
	if (n > CON_NAMES_SHOWN && off < len)
		snprintf(buf + off, len - off, " ... and %u more", n - CON_NAMES_SHOWN);
}

static struct eng_task *con_task(struct con_ctx *x, const char *name, struct eng_ctl_req *req);

/* "TASK/N": stream N of the task (req->stream = N + 1); NULL with the
 * reason in x->msg, or when name is not of that form (x->msg empty). */
static struct eng_task *
con_stream(struct con_ctx *x, const char *name, struct eng_ctl_req *req)
{
	const char *slash = strrchr(name, '/');
	char task[ENG_NAME_LEN], *end;
	struct eng_task *t;
	unsigned long n;

	if (slash == NULL || slash == name || (size_t)(slash - name) >= sizeof(task) ||
			slash[1] < '0' || slash[1] > '9')
		return NULL;
	n = strtoul(slash + 1, &end, 10);
	if (*end != '\0' || n >= UINT32_MAX)
		return NULL;
	snprintf(task, sizeof(task), "%.*s", (int)(slash - name), name);
	t = con_task(x, task, req);
	if (t == NULL)
		return NULL;
	if (req->flow != 0 || t->ops->stream_slots == NULL) {
		snprintf(x->msg, x->len, "%s: %s has no streams (TASK/N names a stream of a txonly "
				"task)", name, task);
		return NULL;
	}
	req->stream = (unsigned int)n + 1;
	return t;
}

/* The task named name that takes commands, that runs the [flow] named name
 * (req->flow: 1 + its cfg->flows index, else 0), or whose stream it names
 * (TASK/N: req->stream); NULL with the reason in x->msg. */
static struct eng_task *
con_task(struct con_ctx *x, const char *name, struct eng_ctl_req *req)
{
	struct eng_config *cfg = x->rt->cfg;
	const char *names[ENG_MAX_TASKS], *near, *kinds[ENG_MAX_KINDS];
	char list[ENG_CON_MSG / 2];
	unsigned int i, n = 0;
	struct eng_task *st;

	req->flow = 0;
	for (i = 0; i < cfg->nb_tasks; i++) {
		struct eng_task *t = &cfg->tasks[i];

		if (strcmp(t->name, name) != 0) {
			names[i] = t->name;
			continue;
		}
		if (t->ops->control != NULL)
			return t;
		for (i = 0; i < eng_kinds_count(); i++)
			if (eng_kind(i)->control != NULL)
				kinds[n++] = eng_kind(i)->name;
		names_list(list, sizeof(list), kinds, n);
		snprintf(x->msg, x->len, "task %s is a %s task: %s acts on %s tasks only", name,
				t->ops->name, x->cmd->name, list);
		return NULL;
	}
	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[i];

		if (strcmp(fc->name, name) != 0)
			continue;
		if (fc->task_idx >= 0 && cfg->tasks[fc->task_idx].ops->control != NULL) {
			req->flow = i + 1;
			return &cfg->tasks[fc->task_idx];
		}
		snprintf(x->msg, x->len, "%s is a [flow] (%s) whose kind takes no %s", name,
				fc->proto != NULL ? fc->proto->name : "?", x->cmd->name);
		return NULL;
	}
	x->msg[0] = '\0';
	st = con_stream(x, name, req);
	if (st != NULL || x->msg[0] != '\0')
		return st;
	near = cfg_closest(name, names, cfg->nb_tasks, 2);
	names_list(list, sizeof(list), names, cfg->nb_tasks);
	snprintf(x->msg, x->len, "unknown task \"%s\"%s%s%s; tasks: %s", name,
			near ? " (did you mean \"" : "", near ? near : "", near ? "\"?)" : "", list);
	return NULL;
}

/* Post req to the task named by the first argument; wait for its lcore. */
static int
con_control(struct con_ctx *x, struct eng_ctl_req *req, const char *done)
{
	struct eng_task *t = con_task(x, x->arg[0], req);
	char info[ENG_CON_MSG / 2];
	int rc;

	if (t == NULL)
		return -ENOENT;
	rc = t->ops->control(t, req, info, sizeof(info));
	if (rc < 0) {
		snprintf(x->msg, x->len, "task %s: %s", t->name, info);
		return rc;
	}
	if (req->flow != 0 || (req->stream != 0 && info[0] != '\0'))
		done = "";	/* the kind's reply names the flow or stream and what it does */
	snprintf(x->c->wait_msg, sizeof(x->c->wait_msg), "%s: %s%s%s", t->name, done,
			info[0] && done[0] ? ", " : "", info);
	x->c->wait_task = t;
	x->c->wait_deadline = rte_rdtsc() + x->rt->clock.hz / 1000 * ENG_CON_WAIT_MS;
	return 1;
}

static int
con_run(struct con_ctx *x)
{
	struct eng_ctl_req req = {.op = strcmp(x->cmd->name, "start") == 0 ? ENG_CTL_START :
			ENG_CTL_STOP};

	return con_control(x, &req, req.op == ENG_CTL_START ? "sending" : "stopped");
}

static int
con_set_rate(struct con_ctx *x)
{
	struct eng_ctl_req req = {.op = ENG_CTL_RATE};
	char e[CFG_ERR_LEN];

	if (strcmp(x->arg[1], "0") != 0 && strcmp(x->arg[1], "max") != 0 &&
			strcmp(x->arg[1], "off") != 0 &&
			cfg_parse_rate_any(x->arg[1], &req.rate, e, sizeof(e)) < 0) {
		snprintf(x->msg, x->len, "rate \"%s\": %s", x->arg[1], e);
		return -EINVAL;
	}
	return con_control(x, &req, "");
}

static int
con_set_size(struct con_ctx *x)
{
	struct eng_ctl_req req = {.op = ENG_CTL_PKT_SIZE};
	char e[CFG_ERR_LEN];

	if (cfg_parse_size(x->arg[1], 1, UINT32_MAX, &req.value, e, sizeof(e)) < 0) {
		snprintf(x->msg, x->len, "pkt_size \"%s\": %s", x->arg[1], e);
		return -EINVAL;
	}
	return con_control(x, &req, "");
}

/* ---- clear, quit ----------------------------------------------------------------- */

static int
con_clear(struct con_ctx *x)
{
	const struct eng_config *cfg = x->rt->cfg;
	unsigned int i;

	for (i = 0; i < cfg->nb_ports; i++)
		eng_port_stats_read(x->rt, i, &x->c->port_base[i]);
	for (i = 0; i < cfg->nb_tasks; i++) {
		memset(&x->c->task_base[i], 0, sizeof(x->c->task_base[i]));
		cfg->tasks[i].ops->stats(&cfg->tasks[i], &x->c->task_base[i]);
	}
	x->c->clear_tsc = rte_rdtsc();
	snprintf(x->msg, x->len, "counters of show ports and show tasks from now (%u ports, "
			"%u tasks)", cfg->nb_ports, cfg->nb_tasks);
	return 0;
}

static int
con_quit(struct con_ctx *x)
{
	ENG_LOG(INFO, main, "console: quit: stopping the run as SIGINT does");
	x->c->in_fd = -1;	/* nothing more is read (no prompt either) */
	snprintf(x->msg, x->len, "stopping the run (as SIGINT)");
	raise(SIGINT);
	return 0;
}
