/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The console (doc/observability.md, "The console"): command lines read
 * from stdin with -i, and the same lines over telemetry (/dfcp/cmd,LINE,
 * a JSON reply). Every line runs on the main lcore, in its housekeeping
 * loop: a telemetry request hands its line over and waits for the answer.
 * A command that changes a task (start, stop, set) goes to the task's
 * mailbox (core/ctl.h) and is answered once the task's lcore applied it.
 */
#ifndef ENG_CONSOLE_H
#define ENG_CONSOLE_H

struct eng_out;
struct eng_runtime;

/* Before the run: the console's state (interactive: read stdin too);
 * 0 or -ENOMEM. The run loop polls it; close after the run (idempotent). */
int eng_console_open(struct eng_runtime *rt, int interactive);
/* Main lcore, every housekeeping round (about 1 ms): a waiting command,
 * a telemetry request, the lines stdin has; never blocks. */
void eng_console_poll(struct eng_runtime *rt);
void eng_console_close(struct eng_runtime *rt);
/* /dfcp/cmd (obs/telemetry.c, the telemetry thread): run params as a line,
 * answer {"ok": true, "out": ...} or {"ok": false, "error": "..."} as one
 * string. */
int eng_console_tel(struct eng_runtime *rt, const char *params, struct eng_out *o);

#endif /* ENG_CONSOLE_H */
