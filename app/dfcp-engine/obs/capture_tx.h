/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transmit with capture (capture_tx.c): every engine task transmits to a
 * port through eng_port_tx(). Without a tx [capture] on the port it is
 * rte_eth_tx_burst(); with one, each frame is copied before the burst (the
 * queue may hand it to another lcore at once) and the copy is written only
 * when the queue took the frame. A refused frame's copy is held and reused
 * when the same frame is offered again, so a frame retried N times is copied
 * and written once, and a refused frame that is then freed is never written.
 */
#ifndef ENG_CAPTURE_TX_H
#define ENG_CAPTURE_TX_H

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_ethdev.h>
#include <rte_mbuf.h>

struct cap_rt;
struct eng_cap_txport;

/* Per ethdev port: its tx captures, NULL when there is none (set up before the lcores run). */
extern struct eng_cap_txport *eng_cap_tx_ports[RTE_MAX_ETHPORTS];

uint16_t eng_cap_tx_burst(struct eng_cap_txport *tp, uint16_t port, uint16_t queue,
		struct rte_mbuf **pkts, uint16_t n);

static inline uint16_t
eng_port_tx(uint16_t port, uint16_t queue, struct rte_mbuf **pkts, uint16_t n)
{
	struct eng_cap_txport *tp = eng_cap_tx_ports[port];

	if (likely(tp == NULL))
		return rte_eth_tx_burst(port, queue, pkts, n);
	return eng_cap_tx_burst(tp, port, queue, pkts, n);
}

/* Set-up and close (capture.c, main lcore, lcores stopped at detach). */
int eng_cap_tx_attach(struct cap_rt *c, uint16_t port);
void eng_cap_tx_detach(struct cap_rt *c, uint16_t port);

/* capture.c: one copy (NULL: not captured), its discard, the hand-off to the writer. */
struct rte_mbuf *eng_cap_copy1(struct cap_rt *c, uint16_t port, uint16_t queue,
		const struct rte_mbuf *m, uint64_t now, int out_dir);
void eng_cap_discard(struct cap_rt *c, struct rte_mbuf *cp);
void eng_cap_enqueue(struct cap_rt *c, struct rte_mbuf **out, unsigned int k);

#endif /* ENG_CAPTURE_TX_H */
