/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The console's state (console_io.c: stdin, the telemetry hand-over, the
 * replies) and its commands (console.c: the table, each line's run).
 */
#ifndef ENG_CONSOLE_PRIV_H
#define ENG_CONSOLE_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "core/port.h"
#include "core/task.h"

#define ENG_CON_LINE 256	/* a command line, its newline included */
#define ENG_CON_MSG 1024	/* a reply's text or error */
#define ENG_CON_REPLY 8192	/* a /dfcp/cmd answer: RTE_TEL_MAX_SINGLE_STRING_LEN */
#define ENG_CON_WAIT_MS 1000	/* for a task's lcore to apply a change */

/* The telemetry hand-over: IDLE -> POSTED (requester) -> RUNNING (main
 * lcore) -> DONE (main lcore) -> IDLE (requester); POSTED -> IDLE when the
 * requester gives up before the main lcore took it. */
enum eng_con_state {
	ENG_CON_IDLE = 0,
	ENG_CON_POSTED,
	ENG_CON_RUNNING,
	ENG_CON_DONE,
};

struct eng_console_rt {
	/* stdin (-i) */
	int in_fd;			/* 0, or -1: not read (no -i, or its end) */
	int tty;			/* a terminal: a prompt, no echo */
	int prompted;			/* the first prompt is out */
	char in[ENG_CON_LINE];
	size_t in_len;
	int in_skip;			/* dropping the rest of a line too long */
	/* /dfcp/cmd */
	pthread_mutex_t tel_lock;	/* one requester at a time */
	int tel_state;			/* enum eng_con_state, atomic */
	unsigned int tel_users;		/* requesters inside, atomic (close waits) */
	int closing;			/* atomic: the run loop has ended */
	char tel_line[ENG_CON_LINE];
	char tel_reply[ENG_CON_REPLY];
	/* a command waiting for a task's lcore (wait_task NULL: none) */
	struct eng_task *wait_task;
	uint64_t wait_deadline;		/* TSC */
	int wait_tel;			/* its answer goes over telemetry, else to stdout */
	char wait_msg[ENG_CON_MSG];
	char wait_line[ENG_CON_LINE];
	/* clear stats: the counters at the last clear, and when */
	uint64_t clear_tsc;		/* 0: never cleared (since the start) */
	struct eng_port_stats port_base[ENG_MAX_PORTS];
	struct eng_task_stats task_base[ENG_MAX_TASKS];
};

struct eng_out;
struct eng_runtime;

/*
 * console.c: run one line (modified in place). o writes what a command
 * shows (text on stdout, or the JSON reply: the command writes its "out").
 * 0 done (msg: its answer, may be empty), 1 waiting for a task's lcore
 * (wait_*; eng_console_wait() ends it), or a negative errno (msg: why).
 */
int eng_console_exec(struct eng_console_rt *c, struct eng_runtime *rt, char *line,
		struct eng_out *o, char *msg, size_t len);
/* The waiting command: 1 still waiting, 0 applied (msg: its answer), or
 * -ETIMEDOUT (msg: why); wait_task is NULL after 0 or an error. */
int eng_console_wait(struct eng_console_rt *c, struct eng_runtime *rt, char *msg, size_t len);

#endif /* ENG_CONSOLE_PRIV_H */
