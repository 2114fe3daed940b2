/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Wire times: the engine-clock time (ns) a frame entered an in-process wire
 * (net_ring), carried in an mbuf dynamic field beside a dynamic flag that
 * says the field is set. A paced sender stamps each frame with its slot in
 * the virtual schedule (the emulated access link's departure time), an
 * unpaced one with the time it sent it, a router with the frame's departure
 * from its last pipe. A router takes the stamp as the frame's arrival, so
 * that a sender or router whose thread was descheduled for a few ms does
 * not change what the emulated network does: the backlog it finds is fed to
 * the pipes in the order and at the times the frames arrived, departures
 * interleaved, instead of all at the time it woke (doc/architecture.md,
 * "Wire times"). Frames from a NIC, af_packet, tap or memif never carry the
 * flag (their mbufs are fresh): they are stamped when received.
 */
#ifndef ENG_WIRE_TS_H
#define ENG_WIRE_TS_H

#include <stdint.h>

#include <rte_mbuf.h>

/* Offset of the field (-1: not registered) and the flag's mask (0: none). */
extern int eng_wire_ts_off;
extern uint64_t eng_wire_ts_flag;

/* Set-up (main lcore): register the field and flag once; 0 or -errno. */
int eng_wire_ts_register(void);

static inline void
eng_wire_ts_set(struct rte_mbuf *m, uint64_t ns)
{
	if (eng_wire_ts_flag == 0)
		return;
	*(uint64_t *)((char *)m + eng_wire_ts_off) = ns;
	m->ol_flags |= eng_wire_ts_flag;
}

/* 1 and *ns if m carries a wire time, else 0. */
static inline int
eng_wire_ts_get(const struct rte_mbuf *m, uint64_t *ns)
{
	if (!(m->ol_flags & eng_wire_ts_flag))	/* also when not registered (0) */
		return 0;
	*ns = *(const uint64_t *)((const char *)m + eng_wire_ts_off);
	return 1;
}

#endif
