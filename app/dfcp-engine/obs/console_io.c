/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Where console lines come from and where their answers go, all run on the
 * main lcore (console.c runs a line):
 *   stdin (-i)     read when poll(2) says it has something (never blocking);
 *                  answers on stdout; a prompt on a terminal, the line echoed
 *                  otherwise; its end leaves the run going
 *   /dfcp/cmd      the telemetry thread copies its line into the hand-over
 *                  slot and waits (sleeping 1 ms at a time); the main lcore
 *                  runs it at its next round and leaves the JSON answer there
 * A command waiting for a task's lcore holds both sources until it ends.
 * Why a hand-over: the commands read and reset state the main lcore owns
 * (the periodic counters, the clear stats bases, the mailboxes' posting
 * side), so one thread runs them all, in order.
 * Why not librte_cmdline: its token grammar would be a second command table
 * beside console.c's, and its line editor takes the terminal over; a plain
 * line reader serves a pipe and a terminal alike (the terminal's own line
 * editing in canonical mode).
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>

#include "core/log.h"
#include "core/runtime.h"
#include "obs/console.h"
#include "obs/console_priv.h"
#include "obs/out.h"

#define CON_TEL_GIVE_UP_MS 10000	/* a request the main lcore does not take */

static void
prompt(const struct eng_console_rt *c)
{
	if (c->tty && c->in_fd >= 0) {
		fputs("dfcp> ", stdout);
		fflush(stdout);
	}
}

int
eng_console_open(struct eng_runtime *rt, int interactive)
{
	struct eng_console_rt *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return -ENOMEM;
	pthread_mutex_init(&c->tel_lock, NULL);
	c->in_fd = interactive ? STDIN_FILENO : -1;
	c->tty = interactive && isatty(STDIN_FILENO);
	__atomic_store_n(&rt->console, c, __ATOMIC_RELEASE);
	if (interactive)
		ENG_LOG(INFO, main, "console: commands from %s (help: the list)",
				c->tty ? "the terminal" : "stdin");
	return 0;
}

/* {"ok": false, "error": msg} into buf (any thread). */
static void
reply_error(char *buf, size_t len, const char *msg)
{
	char esc[ENG_CON_MSG * 2];

	eng_json_escape(esc, sizeof(esc), msg);
	snprintf(buf, len, "{\"ok\": false, \"error\": \"%s\"}", esc);
}

/* An answer of the JSON writer (ending in a newline) into the slot. */
static void
reply_take(struct eng_console_rt *c, char *buf, size_t n)
{
	char msg[128];

	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	if (n < sizeof(c->tel_reply)) {
		memcpy(c->tel_reply, buf, n + 1);
		return;
	}
	snprintf(msg, sizeof(msg), "the answer has %zu bytes, over telemetry's %zu: ask for "
			"less (show flows FLOW) or use the console (-i)", n, sizeof(c->tel_reply) - 1);
	reply_error(c->tel_reply, sizeof(c->tel_reply), msg);
}

/* The main lcore's answer to a telemetry line: rc and msg as eng_console_exec's;
 * the writer's text in buf (its "out" already written) when rc is 0. */
static void
tel_done(struct eng_console_rt *c, int rc, const char *msg, char *buf, size_t n)
{
	if (rc < 0) {
		reply_error(c->tel_reply, sizeof(c->tel_reply), msg);
	} else if (buf != NULL) {
		reply_take(c, buf, n);
	} else {
		char esc[ENG_CON_MSG * 2];

		eng_json_escape(esc, sizeof(esc), msg);
		snprintf(c->tel_reply, sizeof(c->tel_reply), "{\"ok\": true, \"out\": \"%s\"}", esc);
	}
	__atomic_store_n(&c->tel_state, ENG_CON_DONE, __ATOMIC_RELEASE);
}

/* Main lcore: run the posted telemetry line. */
static void
tel_run(struct eng_console_rt *c, struct eng_runtime *rt)
{
	char msg[ENG_CON_MSG], *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct eng_out o;
	int rc;

	if (f == NULL) {
		tel_done(c, -ENOMEM, "out of memory", NULL, 0);
		return;
	}
	eng_out_json_line(&o, f);
	eng_out_bool(&o, "ok", 1);
	rc = eng_console_exec(c, rt, c->tel_line, &o, msg, sizeof(msg));
	if (eng_out_finish(&o) < 0 && rc == 0) {
		rc = -EIO;
		snprintf(msg, sizeof(msg), "the answer could not be written");
	}
	fclose(f);
	if (rc == 1)
		c->wait_tel = 1;	/* answered when the task's lcore took it */
	else
		tel_done(c, rc, msg, rc == 0 ? buf : NULL, n);
	free(buf);
}

/* Main lcore: the answer to a stdin line. */
static void
stdin_done(struct eng_console_rt *c, int rc, const char *msg)
{
	if (rc < 0)
		printf("error: %s\n", msg);
	else if (msg[0] != '\0')
		printf("%s\n", msg);
	prompt(c);
	fflush(stdout);
}

static void
stdin_run(struct eng_console_rt *c, struct eng_runtime *rt, char *line)
{
	char msg[ENG_CON_MSG], *p = line + strlen(line);
	struct eng_out o;
	int rc;

	while (p > line && (p[-1] == '\n' || p[-1] == '\r' || p[-1] == ' ' || p[-1] == '\t'))
		*--p = '\0';
	while (*line == ' ' || *line == '\t')
		line++;
	if (line[0] == '\0' || line[0] == '#') {
		prompt(c);
		return;
	}
	if (!c->tty)
		printf("dfcp> %s\n", line);
	fflush(stdout); /* before the log lines the command may write (unbuffered) */
	eng_out_text(&o, stdout, 2);
	rc = eng_console_exec(c, rt, line, &o, msg, sizeof(msg));
	eng_out_finish(&o);
	if (rc == 1)
		c->wait_tel = 0;
	else
		stdin_done(c, rc, msg);
}

/* Main lcore: the whole lines stdin has, one at a time, until one waits. */
static void
stdin_poll(struct eng_console_rt *c, struct eng_runtime *rt)
{
	struct pollfd pfd = {.fd = c->in_fd, .events = POLLIN};
	char line[ENG_CON_LINE];
	ssize_t r;

	while (c->wait_task == NULL) {
		char *nl = memchr(c->in, '\n', c->in_len);

		if (nl != NULL) {
			size_t k = (size_t)(nl - c->in) + 1;

			memcpy(line, c->in, k - 1);
			line[k - 1] = '\0';
			memmove(c->in, c->in + k, c->in_len - k);
			c->in_len -= k;
			if (c->in_skip) {
				c->in_skip = 0;
				continue;
			}
			stdin_run(c, rt, line);
			continue;
		}
		if (c->in_fd < 0)
			return;
		if (c->in_len == sizeof(c->in)) { /* no newline in a whole buffer */
			if (!c->in_skip)
				stdin_done(c, -E2BIG, "line too long (at most 255 characters): ignored");
			c->in_skip = 1;
			c->in_len = 0;
		}
		if (poll(&pfd, 1, 0) <= 0)
			return;
		r = read(c->in_fd, c->in + c->in_len, sizeof(c->in) - c->in_len);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		if (r <= 0) { /* its end (or an error): what is left is the last line */
			c->in_fd = -1;
			if (c->in_len < sizeof(c->in))
				c->in[c->in_len++] = '\n';
			ENG_LOG(INFO, main, "console: end of stdin; the run goes on (SIGINT or "
					"/dfcp/cmd,quit stops it)");
			continue;
		}
		c->in_len += (size_t)r;
	}
}

void
eng_console_poll(struct eng_runtime *rt)
{
	struct eng_console_rt *c = rt->console;
	char msg[ENG_CON_MSG];
	int rc;

	if (c == NULL)
		return;
	if (!c->prompted) { /* the run is on: after the start-up's log lines */
		c->prompted = 1;
		prompt(c);
	}
	if (c->wait_task != NULL) {
		rc = eng_console_wait(c, rt, msg, sizeof(msg));
		if (rc == 1)
			return;
		if (c->wait_tel)
			tel_done(c, rc, msg, NULL, 0);
		else
			stdin_done(c, rc, msg);
	}
	if (__atomic_load_n(&c->tel_state, __ATOMIC_ACQUIRE) == ENG_CON_POSTED) {
		int posted = ENG_CON_POSTED;

		if (__atomic_compare_exchange_n(&c->tel_state, &posted, ENG_CON_RUNNING, 0,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			tel_run(c, rt);
	}
	stdin_poll(c, rt);
}

/* The telemetry thread: wait for the main lcore's answer; 0, or -1 when it
 * will not come (the run ended) with the answer made here. */
static int
tel_wait(struct eng_console_rt *c, const struct eng_runtime *rt)
{
	unsigned int ms;

	for (ms = 0;; ms++) {
		int st = __atomic_load_n(&c->tel_state, __ATOMIC_ACQUIRE), posted = ENG_CON_POSTED;
		int over = __atomic_load_n(&c->closing, __ATOMIC_ACQUIRE) ||
				rt->phase == ENG_PHASE_STOP;

		if (st == ENG_CON_DONE)
			return 0;
		if (st == ENG_CON_POSTED && (over || ms >= CON_TEL_GIVE_UP_MS) &&
				__atomic_compare_exchange_n(&c->tel_state, &posted, ENG_CON_IDLE, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			reply_error(c->tel_reply, sizeof(c->tel_reply), over ? "the run has ended" :
					"the engine's main lcore did not take the line in 10 s");
			return -1;
		}
		if (st == ENG_CON_RUNNING && over) { /* the run loop ended while it waited */
			reply_error(c->tel_reply, sizeof(c->tel_reply),
					"the run ended before the task's lcore took the change");
			return -1;
		}
		usleep(1000);
	}
}

int
eng_console_tel(struct eng_runtime *rt, const char *params, struct eng_out *o)
{
	struct eng_console_rt *c = __atomic_load_n(&rt->console, __ATOMIC_ACQUIRE);
	char reply[ENG_CON_REPLY];
	int rc;

	if (params == NULL || params[0] == '\0') {
		reply_error(reply, sizeof(reply), "usage: /dfcp/cmd,LINE (/dfcp/cmd,help lists the "
				"commands)");
		return eng_out_tel_string(o, reply);
	}
	if (c == NULL || strlen(params) >= sizeof(c->tel_line)) {
		reply_error(reply, sizeof(reply), c == NULL ? "no console: the run has ended" :
				"line too long (at most 255 characters)");
		return eng_out_tel_string(o, reply);
	}
	__atomic_add_fetch(&c->tel_users, 1, __ATOMIC_ACQ_REL);
	pthread_mutex_lock(&c->tel_lock);
	snprintf(c->tel_line, sizeof(c->tel_line), "%s", params);
	__atomic_store_n(&c->tel_state, ENG_CON_POSTED, __ATOMIC_RELEASE);
	tel_wait(c, rt);
	snprintf(reply, sizeof(reply), "%s", c->tel_reply);
	__atomic_store_n(&c->tel_state, ENG_CON_IDLE, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&c->tel_lock);
	__atomic_sub_fetch(&c->tel_users, 1, __ATOMIC_ACQ_REL);
	rc = eng_out_tel_string(o, reply);
	return rc;
}

void
eng_console_close(struct eng_runtime *rt)
{
	struct eng_console_rt *c = rt->console;
	unsigned int ms;

	if (c == NULL)
		return;
	if (c->wait_task != NULL && !c->wait_tel)
		stdin_done(c, -ECANCELED, "the run ended before the task's lcore took the change");
	__atomic_store_n(&c->closing, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&rt->console, NULL, __ATOMIC_RELEASE);
	/* a requester that read the pointer just before: let it in, then out */
	usleep(20000);
	for (ms = 0; ms < 2 * CON_TEL_GIVE_UP_MS && __atomic_load_n(&c->tel_users,
			__ATOMIC_ACQUIRE) != 0; ms++)
		usleep(1000);
	pthread_mutex_destroy(&c->tel_lock);
	free(c);
}
