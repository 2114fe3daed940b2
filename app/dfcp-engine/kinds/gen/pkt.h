/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Test packet format shared by txonly and rxonly:
 * Ethernet / IPv4 (20 B, no options) / UDP / payload:
 *   seq   u64  per-stream sequence number (stream = UDP source port)
 *   tsc   u64  rte_rdtsc() when the packet was built
 *   magic u16  ENG_PKT_MAGIC
 * then zero or more filler bytes. 14 + 20 + 8 + 18 = 60 bytes: a 64-byte
 * frame with its FCS. All fields in host byte order inside the payload.
 */
#ifndef ENG_PKT_H
#define ENG_PKT_H

#include <stdint.h>

#include <rte_common.h>

#include "core/defs.h"

#define ENG_PKT_MAGIC 0xDFC9
#define ENG_PKT_HDR_LEN (14 + 20 + 8)
#define ENG_PKT_FCS_LEN 4
#define ENG_PKT_MIN_FRAME 64
#define ENG_PKT_MAX_FRAME ENG_MAX_FRAME

struct eng_pkt_payload {
	uint64_t seq;
	uint64_t tsc;
	uint16_t magic;
} __rte_packed;

#endif /* ENG_PKT_H */
