/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * [engine] live = screen (or auto on a terminal): the periodic view as a
 * refreshing ncurses screen of at most SCR_COLS x SCR_ROWS (120 x 40), in place
 * of the scrolling log blocks. The same data as the log view (stats.c, live.c):
 *   ports    one row each: packet and bit rates over the period, drops/errors
 *   flows    a totals row per group (live.c's groups), then the flows with the
 *            highest goodput in the period, as many as fit
 *   streams  a totals row per txonly / rxonly task (streams.c), then the
 *            streams of the tasks that have several, in order, as many as fit
 *   tasks    the kinds' period lines (pipes, queues, sched ...), cut to width
 *   lcores   busy share per lcore and its tasks
 * Each section gets the rows it needs up to a cap; the flow and stream rows
 * share what is left; a section cut short ends in "... N more". rte_log output is buffered while
 * the screen is up and printed once it is closed. 'q' stops the run (SIGINT).
 * The screen is drawn into a line buffer first (scr_*), then onto ncurses.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_log.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/port.h"
#include "core/runtime.h"
#include "core/task.h"
#include "obs/obs.h"
#include "obs/out.h"

#include <curses.h>

#define SCR_COLS 120
#define SCR_ROWS 40
#define SCR_CAP_PORTS 8		/* rows per section, header included */
#define SCR_CAP_TASKS 9
#define SCR_CAP_LCORES 7
#define SCR_CAP_TOTALS 8
#define SCR_MIN_FLOW_ROWS 6	/* header + 5 flows, on a terminal too short for all */
#define SCR_MIN_STREAM_ROWS 4	/* header + 3 streams */
#define SCR_NSEC 7

struct scr_line {
	char s[SCR_COLS + 1];
};

/* A list of lines (one section). */
struct scr_sec {
	struct scr_line *l;
	unsigned int n, cap;
};

struct scr_state {
	SCREEN *term;
	FILE *log;			/* rte_log while the screen is up */
	struct eng_port_stats *prev;	/* per port, at the previous period */
	uint64_t prev_tsc;
	struct scr_line out[SCR_ROWS];	/* the frame drawn */
	unsigned int nout, rows;	/* rows: min(SCR_ROWS, the terminal's) */
};

static struct scr_state *scr;

static void
sec_add(struct scr_sec *s, const char *fmt, ...) __rte_format_printf(2, 3);

static void
sec_add(struct scr_sec *s, const char *fmt, ...)
{
	va_list ap;

	if (s->n == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 16;
		struct scr_line *l = realloc(s->l, cap * sizeof(*l));

		if (l == NULL)
			return;
		s->l = l;
		s->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(s->l[s->n].s, sizeof(s->l[s->n].s), fmt, ap); /* cut at SCR_COLS */
	va_end(ap);
	s->n++;
}

/* A record's place in the tasks section: pipes first (the DUT of most runs),
 * then schedulers and TCP connections, then the rest (pacers ...). */
static int
rank(const char *ln)
{
	static const char *const first[] = {"pipe ", "sched", "tcp"};
	unsigned int i;

	for (i = 0; i < RTE_DIM(first); i++)
		if (strncmp(ln, first[i], strlen(first[i])) == 0)
			return (int)i;
	return (int)RTE_DIM(first);
}

/* The text lines in buf (a record, its nested lines indented below it) into
 * s, cut to width; by rank when ranked, else in order. */
static void
sec_from_text(struct scr_sec *s, char *buf, int ranked)
{
	int r, top = ranked ? rank("") : 0;

	for (r = 0; r <= top; r++) {
		char *ln = buf, *end;
		int keep = 0;

		for (; *ln != '\0'; ln = *end ? end + 1 : end) {
			size_t ind = strspn(ln, " ");

			end = strchr(ln, '\n');
			if (end == NULL)
				end = ln + strlen(ln);
			if (ind == 0)
				keep = !ranked || rank(ln) == r;
			if (keep)
				sec_add(s, "%*s%.*s", ind ? 3 : 1, "", (int)(end - ln - ind), ln + ind);
		}
	}
}

static double
rate(uint64_t d, uint64_t cycles, uint64_t hz)
{
	return cycles == 0 ? 0.0 : (double)d * (double)hz / (double)cycles;
}

static void
ports_sec(struct eng_runtime *rt, struct scr_sec *s, uint64_t cycles)
{
	unsigned int i;

	sec_add(s, "PORTS %-10s %12s %12s %11s %11s %11s %11s %11s", "", "rx pkt/s", "tx pkt/s",
			"rx Mbit/s", "tx Mbit/s", "rx_missed", "rx_errors", "tx_errors");
	for (i = 0; i < rt->cfg->nb_ports; i++) {
		struct eng_port_stats c, *p = &scr->prev[i];

		eng_port_stats_read(rt, i, &c);
		sec_add(s, " %-15.15s %12.0f %12.0f %11.1f %11.1f %11lu %11lu %11lu",
				rt->cfg->ports[i].name,
				rate(c.rx_packets - p->rx_packets, cycles, rt->clock.hz),
				rate(c.tx_packets - p->tx_packets, cycles, rt->clock.hz),
				rate(c.rx_bytes - p->rx_bytes, cycles, rt->clock.hz) * 8 / 1e6,
				rate(c.tx_bytes - p->tx_bytes, cycles, rt->clock.hz) * 8 / 1e6,
				(unsigned long)c.rx_missed, (unsigned long)c.rx_errors,
				(unsigned long)c.tx_errors);
		*p = c;
	}
}

struct scr_flow {
	unsigned int idx;
	double goodput, thr;
	const struct eng_flow_view *v;
};

static int
by_goodput(const void *a, const void *b)
{
	const struct scr_flow *x = a, *y = b;

	if (x->goodput != y->goodput)
		return x->goodput < y->goodput ? 1 : -1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The totals row of group (the flows f[0..n) with v->group == group). */
static void
group_row(struct scr_sec *s, const struct scr_flow *f, unsigned int n, const char *group)
{
	unsigned int i, k = 0, est = 0, done = 0;
	const struct eng_flow_view *first = NULL;
	uint64_t sums[3] = {0, 0, 0};
	double gp = 0, thr = 0;

	for (i = 0; i < n; i++) {
		if (strcmp(f[i].v->group, group) != 0)
			continue;
		if (first == NULL)
			first = f[i].v;
		k++;
		est += f[i].v->established != 0;
		done += f[i].v->done != 0;
		gp += f[i].goodput;
		thr += f[i].thr;
		sums[0] += f[i].v->sums[0];
		sums[1] += f[i].v->sums[1];
		sums[2] += f[i].v->sums[2];
	}
	sec_add(s, " %-14.14s %5u flows %5u est %5u done %10.1f %10.1f | %s %lu %s %lu %s %lu",
			group, k, est, done, thr, gp, first->sum_names[0], (unsigned long)sums[0],
			first->sum_names[1], (unsigned long)sums[1], first->sum_names[2],
			(unsigned long)sums[2]);
}

/* Totals rows (tot) and every flow by goodput (rows). */
static void
flows_sec(struct eng_runtime *rt, struct scr_sec *tot, struct scr_sec *rows)
{
	const struct eng_config *cfg = rt->cfg;
	struct scr_flow *f = calloc(cfg->nb_flows + 1, sizeof(*f));
	unsigned int i, j, n = 0;

	if (f == NULL)
		return;
	for (i = 0; i < cfg->nb_flows; i++)
		if (eng_live_row(rt, i, &f[n].goodput, &f[n].thr, &f[n].v) == 0)
			f[n++].idx = i;
	if (n == 0) {
		free(f);
		return;
	}
	sec_add(tot, "FLOWS %-9s %11s %9s %10s %10s %10s", "(totals)", "", "", "",
			"thr Mbit/s", "goodput");
	for (i = 0; i < n; i++) { /* each group once, in the order it first appears */
		for (j = 0; j < i && strcmp(f[j].v->group, f[i].v->group) != 0; j++)
			;
		if (j == i)
			group_row(tot, f, n, f[i].v->group);
	}
	qsort(f, n, sizeof(*f), by_goodput);
	sec_add(rows, " %-14s %-8s %-12s %10s %10s %7s %9s  %s", "flow", "role", "state",
			"thr Mbit/s", "goodput", "window", "loss-est%", "detail");
	for (i = 0; i < n; i++) {
		const struct eng_flow_conf *fc = &cfg->flows[f[i].idx];

		sec_add(rows, " %-14.14s %-8s %-12.12s %10.1f %10.1f %7u %9.2f  %s", fc->name,
				fc->role == ENG_FLOW_SENDER ? "sender" : "receiver", f[i].v->state,
				f[i].thr, f[i].goodput, f[i].v->window, f[i].v->loss_ppm / 1e4,
				f[i].v->detail);
	}
	free(f);
}

/* The totals row of task t's streams r[0..n) in the period. */
static void
stream_total_row(struct scr_sec *s, const struct eng_task *t, const struct eng_stream_row *const *r,
		unsigned int n)
{
	uint64_t lost = 0, got = 0;
	unsigned int i, stopped = 0;
	double pps = 0, mbps = 0, l1 = 0;
	char st[24];

	for (i = 0; i < n; i++) {
		pps += r[i]->pps;
		mbps += r[i]->mbps;
		l1 += r[i]->l1_mbps;
		lost += r[i]->lost;
		got += r[i]->packets;
		stopped += r[i]->v.stopped;
	}
	if (r[0]->v.rx)
		snprintf(st, sizeof(st), "lost %.3f %%", lost + got ? (double)lost * 100 /
				(double)(lost + got) : 0.0);
	else
		snprintf(st, sizeof(st), "%u stopped", stopped);
	sec_add(s, " %-14.14s %-6s %6u %12.0f %11.1f %11.1f  %s", t->name, t->ops->name, n, pps,
			mbps, l1, st);
}

/* A stream's row. */
static void
stream_row(struct scr_sec *s, const struct eng_stream_row *r)
{
	char st[24];

	if (r->v.rx)
		snprintf(st, sizeof(st), "lost %.3f %%", r->loss_pct);
	else
		snprintf(st, sizeof(st), "%s", r->v.stopped ? "stopped" : "sending");
	sec_add(s, " %-24.24s %12.0f %11.1f %11.1f  %s", r->v.name, r->pps, r->mbps, r->l1_mbps,
			st);
}

/*
 * A totals row per task with streams (tot, when not NULL), the streams of
 * those with several (rows) in at most max rows: each such task gets an
 * even share, its streams cut short ending in "... N more of TASK".
 */
static void
streams_sec(struct eng_runtime *rt, struct scr_sec *tot, struct scr_sec *rows, unsigned int max)
{
	const struct eng_stream_row *const *r;
	unsigned int n = eng_streams_rows(rt, &r), i, j, m, k, multi = 0, share, extra;

	if (n == 0)
		return;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && r[j]->t == r[i]->t; j++)
			;
		multi += j - i > 1;
	}
	if (tot != NULL) {
		sec_add(tot, "STREAMS %-14s %6s %12s %11s %11s  %s", "(tasks)", "count", "pkt/s",
				"L2 Mbit/s", "L1 Mbit/s", "lost/stopped");
		for (i = 0; i < n; i = j) {
			for (j = i; j < n && r[j]->t == r[i]->t; j++)
				;
			stream_total_row(tot, r[i]->t, r + i, j - i);
		}
	}
	if (multi == 0 || max < 2)
		return; /* every task sends one stream, or no room: the totals say it */
	sec_add(rows, " %-24s %12s %11s %11s  %s", "stream", "pkt/s", "L2 Mbit/s", "L1 Mbit/s",
			"state");
	share = (max - 1) / multi;
	extra = (max - 1) % multi;
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && r[j]->t == r[i]->t; j++)
			;
		m = j - i;
		if (m < 2)
			continue;
		k = share + (extra != 0);
		extra -= extra != 0;
		if (m <= k) {
			for (; i < j; i++)
				stream_row(rows, r[i]);
			continue;
		}
		for (; k > 1; k--, i++)
			stream_row(rows, r[i]);
		if (k == 1)
			sec_add(rows, " ... %u more of %s", j - i, r[i]->t->name);
	}
}

/* The kinds' period lines (tasks = 1) or the lcores' through a text writer. */
static void
text_sec(struct eng_runtime *rt, struct scr_sec *s, int tasks)
{
	char *buf = NULL;
	size_t len = 0;
	struct eng_out o;
	unsigned int k;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	eng_out_text(&o, f, 0);
	if (tasks) {
		for (k = 0; k < eng_kinds_count(); k++)
			if (eng_kind(k)->report != NULL)
				eng_kind(k)->report(rt, &o, ENG_REPORT_PERIOD);
	} else {
		eng_lcore_write(rt, &o, ENG_REPORT_PERIOD);
	}
	eng_out_finish(&o);
	fclose(f);
	if (buf != NULL && buf[0] != '\0') {
		sec_add(s, tasks ? "TASKS (pipes, queues, schedulers: this period)" :
				"LCORES (busy = share of polling cycles in polls that handled packets)");
		sec_from_text(s, buf, tasks);
	}
	free(buf);
}

/* Append s to the frame: at most max rows; a cut section ends in "... N more". */
static void
frame_put(struct scr_sec *s, unsigned int max)
{
	unsigned int i, n = s->n;

	if (max == 0 || n == 0)
		return;
	if (n > max)
		n = max - 1;
	for (i = 0; i < n && scr->nout < scr->rows; i++)
		scr->out[scr->nout++] = s->l[i];
	if (n < s->n && scr->nout < scr->rows)
		snprintf(scr->out[scr->nout++].s, SCR_COLS + 1, " ... %u more", s->n - n);
}

static unsigned int
umin(unsigned int a, unsigned int b)
{
	return a < b ? a : b;
}

/*
 * " of T s" for the header: when every sender's goal is a duration, the run
 * ends with the last of them (start + duration) unless its own duration comes
 * first; with a bytes goal (or none) the end is unknown: " (stops by T s)"
 * names the run's limit only.
 */
static void
planned_end(const struct eng_config *cfg, char *buf, size_t len)
{
	uint64_t end = 0;
	unsigned int i;
	int known = 1;

	for (i = 0; i < cfg->nb_flows; i++) {
		const struct eng_flow_conf *f = &cfg->flows[i];

		if (f->role != ENG_FLOW_SENDER)
			continue;
		if (f->bytes != 0 || f->duration_ns == 0)
			known = 0;
		else if (f->start_ns + f->duration_ns > end)
			end = f->start_ns + f->duration_ns;
	}
	if (known && end != 0 && (cfg->duration_ns == 0 || end < cfg->duration_ns))
		snprintf(buf, len, " of %.1f s", (double)end / 1e9);
	else if (known && cfg->duration_ns != 0)
		snprintf(buf, len, " of %.1f s", (double)cfg->duration_ns / 1e9);
	else if (cfg->duration_ns != 0)
		snprintf(buf, len, " (stops by %.1f s)", (double)cfg->duration_ns / 1e9);
	else
		buf[0] = '\0';
}

/* Rows for the flow rows (want[2]) and the stream rows (want[4]) out of left:
 * each all it has when both fit, else an even share, the smaller one whole. */
static void
rows_share(const struct scr_sec *sec, unsigned int *want, unsigned int left)
{
	unsigned int a = sec[2].n, b = sec[4].n, half = left / 2;

	if (a + b <= left) {
		want[2] = a;
		want[4] = b;
	} else if (a <= half) {
		want[2] = a;
		want[4] = left - a;
	} else if (b <= left - half) {
		want[4] = b;
		want[2] = left - b;
	} else {
		want[2] = left - half;
		want[4] = half;
	}
	if (want[2] == 1 && a > 1)
		want[2] = 0; /* a header alone */
	if (want[4] == 1 && b > 1)
		want[4] = 0;
}

/* Lay the sections out into scr->out (pure: no ncurses). */
static void
frame_build(struct eng_runtime *rt, uint64_t now)
{
	/* ports, flow totals, flow rows, stream totals, stream rows, tasks, lcores */
	struct scr_sec sec[SCR_NSEC];
	static const unsigned int cap[SCR_NSEC] = {SCR_CAP_PORTS, SCR_CAP_TOTALS, 0,
			SCR_CAP_TOTALS, 0, SCR_CAP_TASKS, SCR_CAP_LCORES};
	unsigned int i, left, keep, sum, want[SCR_NSEC];
	double t = (double)(now - rt->start_tsc) / (double)rt->clock.hz;
	char dur[32] = "", head[256];
	const char *name = strrchr(rt->cfg->file, '/');

	memset(sec, 0, sizeof(sec));
	ports_sec(rt, &sec[0], now - scr->prev_tsc);
	eng_live_period(rt, 0); /* the flows' and streams' period (and the --timeseries rows) */
	flows_sec(rt, &sec[1], &sec[2]);
	streams_sec(rt, &sec[3], &sec[4], UINT32_MAX);
	text_sec(rt, &sec[5], 1);
	text_sec(rt, &sec[6], 0);
	scr->prev_tsc = now;

	planned_end(rt->cfg, dur, sizeof(dur));
	scr->nout = 0;
	scr->rows = LINES > 1 && LINES < SCR_ROWS ? (unsigned int)LINES : SCR_ROWS;
	snprintf(head, sizeof(head), "dfcp-engine  %.60s  %.1f s%s  (q: stop)",
			name != NULL ? name + 1 : rt->cfg->file, t, dur);
	/* the title is cut at the screen width (a precision, so the compiler sees it fit) */
	snprintf(scr->out[scr->nout++].s, SCR_COLS + 1, "%.*s", SCR_COLS, head);
	left = scr->rows - 1;
	for (i = 0; i < SCR_NSEC; i++)
		want[i] = cap[i] ? umin(sec[i].n, cap[i]) : 0;
	/* a short terminal (80 x 24) keeps some flow and stream rows: the other
	 * sections give up rows, the longest first, down to their header and one row */
	keep = umin(sec[2].n, SCR_MIN_FLOW_ROWS) + umin(sec[4].n, SCR_MIN_STREAM_ROWS);
	for (;;) {
		unsigned int k = 0;

		for (i = 0, sum = 0; i < SCR_NSEC; i++)
			sum += want[i];
		if (sum + keep <= left)
			break;
		for (i = 1; i < SCR_NSEC; i++)
			if (cap[i] != 0 && want[i] > want[k])
				k = i;
		if (want[k] <= 2)
			break;
		want[k]--;
	}
	for (i = 0; i < SCR_NSEC; i++)
		left -= umin(want[i], left);
	rows_share(sec, want, left);
	if (want[4] < sec[4].n) { /* the stream rows again, each task its share */
		sec[4].n = 0;
		streams_sec(rt, NULL, &sec[4], want[4]);
	}
	for (i = 0; i < SCR_NSEC; i++) {
		frame_put(&sec[i], want[i]);
		free(sec[i].l);
	}
}

static void
frame_draw(void)
{
	int i, w = COLS > 0 && COLS < SCR_COLS ? COLS : SCR_COLS; /* no wrapping */

	erase();
	for (i = 0; i < (int)scr->nout; i++)
		mvaddnstr(i, 0, scr->out[i].s, w);
	clearok(curscr, TRUE); /* repaint whatever else wrote to the terminal */
	refresh();
}

void
eng_screen_open(struct eng_runtime *rt)
{
	int mode = rt->cfg->live;
	const char *term = getenv("TERM");

	if (mode == ENG_LIVE_LOG || mode == ENG_LIVE_OFF || rt->cfg->stats_period_ns == 0)
		return;
	if (!isatty(STDOUT_FILENO) || term == NULL || term[0] == '\0' ||
			strcmp(term, "dumb") == 0) {
		if (mode == ENG_LIVE_SCREEN)
			fprintf(stderr, "dfcp-engine: live = screen: stdout is not a terminal; "
					"printing the log view\n");
		return;
	}
	scr = calloc(1, sizeof(*scr));
	if (scr == NULL)
		return;
	scr->prev = calloc(rt->cfg->nb_ports + 1, sizeof(*scr->prev));
	fflush(stdout);
	scr->term = scr->prev != NULL ? newterm(NULL, stdout, stdin) : NULL;
	if (scr->term == NULL) {
		fprintf(stderr, "dfcp-engine: live: cannot start the screen (TERM=%s); "
				"printing the log view\n", term);
		free(scr->prev);
		free(scr);
		scr = NULL;
		return;
	}
	cbreak(); /* keys without Enter; ^C still raises SIGINT */
	noecho();
	nodelay(stdscr, TRUE);
	curs_set(0);
	scr->prev_tsc = rt->start_tsc;
	scr->log = tmpfile();
	if (scr->log != NULL)
		rte_openlog_stream(scr->log);
	snprintf(scr->out[0].s, SCR_COLS + 1, "dfcp-engine  %.50s  starting (the view comes "
			"after one stats period)", rt->cfg->file);
	scr->nout = 1;
	frame_draw();
}

int
eng_screen_period(struct eng_runtime *rt)
{
	int c;

	if (scr == NULL)
		return -ENOTSUP;
	while ((c = getch()) != ERR)
		if (c == 'q' || c == 'Q')
			raise(SIGINT);
	frame_build(rt, rte_rdtsc());
	frame_draw();
	return 0;
}

void
eng_screen_close(struct eng_runtime *rt)
{
	char buf[1024];
	size_t n;

	RTE_SET_USED(rt);
	if (scr == NULL)
		return;
	endwin();
	delscreen(scr->term);
	/* the last frame stays readable above the summary */
	for (n = 0; n < scr->nout; n++)
		printf("%s\n", scr->out[n].s);
	if (scr->log != NULL) {
		rte_openlog_stream(NULL);
		rewind(scr->log);
		while ((n = fread(buf, 1, sizeof(buf), scr->log)) > 0)
			fwrite(buf, 1, n, stderr);
		fclose(scr->log);
	}
	fflush(stdout);
	free(scr->prev);
	free(scr);
	scr = NULL;
}
