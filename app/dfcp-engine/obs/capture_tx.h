/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Transmit with capture (capture_tx.c): every engine task transmits to a
 * port through eng_port_tx() (core/egress.h). Without a tx [capture] on the
 * port it is rte_eth_tx_burst(); with one, the capture's tx hook runs
 * instead: each frame is copied before the burst (the
 * queue may hand it to another lcore at once) and the copy is written only
 * when the queue took the frame. A refused frame's copy is held and reused
 * when the same frame is offered again, so a frame retried N times is copied
 * and written once, and a refused frame that is then freed is never written.
 */
#ifndef ENG_CAPTURE_TX_H
#define ENG_CAPTURE_TX_H

#include <stdint.h>

#include <rte_ethdev.h>
#include <rte_mbuf.h>

struct cap_rt;

/* Set-up and close (capture.c, main lcore, lcores stopped at detach). */
int eng_cap_tx_attach(struct cap_rt *c, uint16_t port);
void eng_cap_tx_detach(struct cap_rt *c, uint16_t port);

/* capture.c: one copy (NULL: not captured), its discard, the hand-off to the writer. */
struct rte_mbuf *eng_cap_copy1(struct cap_rt *c, uint16_t port, uint16_t queue,
		const struct rte_mbuf *m, uint64_t now, int out_dir);
void eng_cap_discard(struct cap_rt *c, struct rte_mbuf *cp);
void eng_cap_enqueue(struct cap_rt *c, struct rte_mbuf **out, unsigned int k);

#endif /* ENG_CAPTURE_TX_H */
