/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly's multi-flow mode (txflows.c), as testpmd's --txonly-multi-flow:
 * `flows = N` streams from one task differing in the UDP source port
 * and/or the IPv4 source address (`flow_vary`), sent round-robin, each with
 * its own sequence numbers (pkt.h) and, with `egress`, its own flow in the
 * sched task (weight `weight`, or `weights = w1,w2,...` taken in turn).
 * Each stream may be stopped or held to its own rate (the console, txctl.c):
 * the main lcore writes the wanted state, the owner applies it at a mailbox
 * gen (core/ctl.h); a held stream is skipped in the round until it is due.
 */
#ifndef ENG_TXFLOWS_H
#define ENG_TXFLOWS_H

#include <stdint.h>

#include "kinds/gen/pkt.h"

#define ENG_TXF_MAX_FLOWS 65536u
#define ENG_TXF_MAX_WEIGHTS 64u
#define ENG_TXF_VARY_PORT 1
#define ENG_TXF_VARY_IP 2
#define ENG_TXF_STOP (1ull << 63)	/* a stream's wanted state: stopped */

struct eng_sec;
struct eng_task;
struct eng_runtime;
struct rte_mempool;

struct eng_txflows_conf {
	uint32_t n;		/* flows = N; 1: a single stream (no multi-flow) */
	int vary;		/* ENG_TXF_VARY_* */
	uint32_t nb_weights;	/* 0: `weight` for all */
	uint32_t weights[ENG_TXF_MAX_WEIGHTS];
	uint64_t start_ns;	/* start = T: send from T after the first poll of the run */
};

/* What the multi-flow sender starts from (txonly's set-up). */
struct eng_txflows_base {
	struct rte_mempool *pool;
	uint16_t port_id, txq;
	uint16_t data_len;
	uint64_t ol_flags;
	int ip_cksum;			/* compute the IPv4 checksum (not offloaded) */
	const uint8_t *tmpl;		/* ENG_PKT_HDR_LEN bytes: flow 0's headers */
	uint32_t src_ip;		/* host order */
	uint16_t src_port;
	const char *egress;		/* sched task or "" */
	uint32_t weight;		/* when no `weights` */
};

struct eng_txflows;

/* flows, flow_vary, weights, start of a txonly section (defaults: 1, port,
 * none, 0). */
int eng_txflows_parse(struct eng_txflows_conf *c, struct eng_sec *sec);
/* NULL with the reason logged. Flows are named TASK.I in the sched task. */
struct eng_txflows *eng_txflows_create(const struct eng_txflows_conf *c,
		const struct eng_txflows_base *b, struct eng_runtime *rt, const struct eng_task *t,
		int socket);
void eng_txflows_free(struct eng_txflows *tf);
/* Build and send up to n packets, one flow after the other; returns the
 * count sent. Refused packets (over a flow's flow_queue, a full ring or tx
 * queue) are counted in *dropped; a failed mbuf allocation in *no_mbuf. */
uint16_t eng_txflows_send(struct eng_txflows *tf, uint16_t n, uint64_t now, uint64_t *dropped,
		uint64_t *no_mbuf);

/* Any thread: the streams, stream i's frames sent (its next sequence
 * number) and its wanted state (ENG_TXF_STOP | its own L1 bit/s, 0: none). */
uint32_t eng_txflows_count(const struct eng_txflows *tf);
uint64_t eng_txflows_sent(const struct eng_txflows *tf, uint32_t i);
uint64_t eng_txflows_wanted(const struct eng_txflows *tf, uint32_t i);
/* Main lcore: stream i's wanted state; the caller then posts the mailbox. */
void eng_txflows_want(struct eng_txflows *tf, uint32_t i, uint64_t want);
/* Owner lcore, at a mailbox gen (TSC now): every stream's wanted state. */
void eng_txflows_ctl_apply(struct eng_txflows *tf, uint64_t now);

#endif /* ENG_TXFLOWS_H */
