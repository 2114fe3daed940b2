/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Run-time control of a task (the console, obs/console.c, through the
 * kind's ops->control): the requests, and the mailbox a kind keeps for the
 * lcore that owns the task.
 *
 * Only the owning lcore changes a task's sending state (its pacer, frame
 * template, run flag). The console, on the main lcore, writes the wanted
 * state into the kind's mailbox fields (64-bit atomics) and then bumps
 * box.gen; the owner compares gen with what it applied at the top of its
 * poll, applies the whole wanted state and publishes ack = gen. The fields
 * hold a state, not a change, so an owner that reads a field the console
 * rewrote after the gen it saw applies the newer value early and the same
 * one again at the next gen: nothing is lost or doubled. ENG_CTL_SYNC tells
 * the console when the owner has caught up (its reply waits for that).
 * A request may name one [flow] of the task (req->flow: the transport kinds,
 * kinds/xport/xport_ctl.c), or one stream of a txonly task (req->stream,
 * kinds/gen/txctl.c); a kind without either gets 0 for both.
 */
#ifndef ENG_CTL_H
#define ENG_CTL_H

#include <stdint.h>

#include "cfg.h"

enum eng_ctl_op {
	ENG_CTL_START = 0,	/* send again after ENG_CTL_STOP */
	ENG_CTL_STOP,		/* send nothing more; frames already sent are delivered */
	ENG_CTL_RATE,		/* the rate becomes req->rate (rate.value 0: full speed) */
	ENG_CTL_PKT_SIZE,	/* frames of req->value bytes (with FCS) from now on */
	ENG_CTL_SYNC,		/* 0: everything asked so far is applied, 1: not yet */
};

struct eng_ctl_req {
	enum eng_ctl_op op;
	uint64_t value;		/* ENG_CTL_PKT_SIZE */
	struct cfg_rate rate;	/* ENG_CTL_RATE, as written (any unit of cfg_parse_rate_any) */
	unsigned int flow;	/* 1 + the cfg->flows index of one of the task's [flow]s;
				 * 0: the task itself */
	unsigned int stream;	/* 1 + the index of one of the task's streams
				 * (txonly flows = N, "TASK/N"); 0: the task */
};

/* The generation counters of a mailbox: gen written by the main lcore, ack
 * by the owner; the wanted state beside them is the kind's. */
struct eng_ctl_box {
	uint64_t gen;
	uint64_t ack;
};

/* Main lcore: the wanted state is written (relaxed stores); make it visible. */
static inline void
eng_ctl_post(struct eng_ctl_box *b)
{
	__atomic_add_fetch(&b->gen, 1, __ATOMIC_RELEASE);
}

/* Main lcore: 1 while the owner has not applied the last post. */
static inline int
eng_ctl_pending(const struct eng_ctl_box *b)
{
	return __atomic_load_n(&b->ack, __ATOMIC_ACQUIRE) !=
			__atomic_load_n(&b->gen, __ATOMIC_RELAXED);
}

/* Owner, each poll: the gen to apply (then read the wanted state), or 0. */
static inline uint64_t
eng_ctl_take(const struct eng_ctl_box *b, uint64_t applied)
{
	uint64_t g = __atomic_load_n(&b->gen, __ATOMIC_ACQUIRE);

	return g != applied ? g : 0;
}

/* Owner: the state of gen g is in effect. */
static inline void
eng_ctl_ack(struct eng_ctl_box *b, uint64_t g)
{
	__atomic_store_n(&b->ack, g, __ATOMIC_RELEASE);
}

#endif /* ENG_CTL_H */
