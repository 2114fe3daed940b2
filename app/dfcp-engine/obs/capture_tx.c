/* SPDX-License-Identifier: BSD-3-Clause */
/* Transmit with capture: a frame is written once, when it left (capture_tx.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_mbuf_dyn.h>

#include "core/egress.h"
#include "obs/capture_tx.h"

#define CAP_TX_MAX_CAPS 4
#define CAP_TX_QUEUES 16
#define CAP_TX_CHUNK 64

/* The copies of the frames a queue refused last time, by their mbuf. */
struct cap_hold {
	uint16_t n;
	struct rte_mbuf *orig[CAP_TX_CHUNK];
	struct rte_mbuf *copy[CAP_TX_CHUNK];
};

struct eng_cap_txport {
	unsigned int nc;
	struct cap_rt *caps[CAP_TX_MAX_CAPS];
	struct cap_hold hold[CAP_TX_MAX_CAPS][CAP_TX_QUEUES]; /* one writer: the queue's lcore */
};

/* Per ethdev port: its tx captures, NULL when there is none (set up before the lcores run). */
static struct eng_cap_txport *eng_cap_tx_ports[RTE_MAX_ETHPORTS];

/* Set on a refused frame whose copy is held; a reallocated mbuf has it cleared. */
static uint64_t cap_held_flag;

/* Copies of pkts[0..n) for capture c: held ones reused, the others taken now. */
static void
cap_tx_stage(struct cap_rt *c, struct cap_hold *h, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n, struct rte_mbuf **st)
{
	uint64_t now = rte_rdtsc();
	uint16_t i;

	for (i = 0; i < n; i++) {
		if (i < h->n && h->orig[i] == pkts[i] && (pkts[i]->ol_flags & cap_held_flag)) {
			st[i] = h->copy[i]; /* offered again: the copy taken the first time */
			h->copy[i] = NULL;
		} else {
			st[i] = eng_cap_copy1(c, port, queue, pkts[i], now, 1);
		}
		pkts[i]->ol_flags &= ~cap_held_flag;
	}
	for (i = 0; i < h->n; i++)
		if (h->copy[i] != NULL)
			eng_cap_discard(c, h->copy[i]); /* refused, then not offered again */
	h->n = 0;
}

/* sent of pkts[0..n) left: write their copies, hold the others'. */
static void
cap_tx_commit(struct cap_rt *c, struct cap_hold *h, struct rte_mbuf **pkts, uint16_t n,
		uint16_t sent, struct rte_mbuf **st)
{
	struct rte_mbuf *out[CAP_TX_CHUNK];
	unsigned int k = 0;
	uint16_t i;

	for (i = 0; i < sent; i++)
		if (st[i] != NULL)
			out[k++] = st[i];
	eng_cap_enqueue(c, out, k);
	for (i = sent; i < n; i++) {
		h->orig[h->n] = pkts[i];
		h->copy[h->n++] = st[i];
		pkts[i]->ol_flags |= cap_held_flag;
	}
}

/* The port's tx hook (core/egress.h): ctx is its eng_cap_txport. */
static uint16_t
eng_cap_tx_burst(void *ctx, uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct eng_cap_txport *tp = ctx;
	struct rte_mbuf *st[CAP_TX_MAX_CAPS][CAP_TX_CHUNK];
	uint16_t done = 0, chunk, sent;
	unsigned int i;

	if (queue >= CAP_TX_QUEUES)
		return rte_eth_tx_burst(port, queue, pkts, n);
	do {
		chunk = (uint16_t)RTE_MIN(n - done, CAP_TX_CHUNK);
		for (i = 0; i < tp->nc; i++)
			cap_tx_stage(tp->caps[i], &tp->hold[i][queue], port, queue, pkts + done,
					chunk, st[i]);
		sent = rte_eth_tx_burst(port, queue, pkts + done, chunk);
		for (i = 0; i < tp->nc; i++)
			cap_tx_commit(tp->caps[i], &tp->hold[i][queue], pkts + done, chunk, sent,
					st[i]);
		done = (uint16_t)(done + sent);
	} while (sent == chunk && done < n);
	return done;
}

int
eng_cap_tx_attach(struct cap_rt *c, uint16_t port)
{
	static const struct rte_mbuf_dynflag desc = { .name = "dfcp_engine_cap_held" };
	struct eng_cap_txport *tp = eng_cap_tx_ports[port];
	int bit;

	if (cap_held_flag == 0) {
		bit = rte_mbuf_dynflag_register(&desc);
		if (bit < 0)
			return -ENOSPC;
		cap_held_flag = UINT64_C(1) << bit;
	}
	if (tp == NULL) {
		tp = calloc(1, sizeof(*tp));
		if (tp == NULL)
			return -ENOMEM;
	}
	if (tp->nc == CAP_TX_MAX_CAPS)
		return -ENOSPC;
	tp->caps[tp->nc++] = c;
	eng_cap_tx_ports[port] = tp;
	eng_egress_hook_set(port, eng_cap_tx_burst, tp);
	return 0;
}

void
eng_cap_tx_detach(struct cap_rt *c, uint16_t port)
{
	struct eng_cap_txport *tp = eng_cap_tx_ports[port];
	unsigned int i, q, j;

	if (tp == NULL)
		return;
	for (i = 0; i < tp->nc && tp->caps[i] != c; i++)
		;
	if (i == tp->nc)
		return;
	for (q = 0; q < CAP_TX_QUEUES; q++)
		for (j = 0; j < tp->hold[i][q].n; j++)
			if (tp->hold[i][q].copy[j] != NULL)
				eng_cap_discard(c, tp->hold[i][q].copy[j]);
	tp->nc--;
	memmove(&tp->caps[i], &tp->caps[i + 1], (tp->nc - i) * sizeof(tp->caps[0]));
	memmove(&tp->hold[i], &tp->hold[i + 1], (tp->nc - i) * sizeof(tp->hold[0]));
	memset(&tp->hold[tp->nc], 0, sizeof(tp->hold[0]));
	if (tp->nc == 0) {
		eng_egress_hook_set(port, NULL, NULL);
		eng_cap_tx_ports[port] = NULL;
		free(tp);
	}
}
