/* SPDX-License-Identifier: BSD-3-Clause */
/* Wire times: the mbuf dynamic field and flag (wire_ts.h). */
#include <errno.h>
#include <stdint.h>

#include <rte_errno.h>
#include <rte_mbuf_dyn.h>

#include "core/wire_ts.h"

int eng_wire_ts_off = -1;
uint64_t eng_wire_ts_flag;

int
eng_wire_ts_register(void)
{
	static const struct rte_mbuf_dynfield field = {
		.name = "dfcp_engine_wire_ns",
		.size = sizeof(uint64_t),
		.align = __alignof__(uint64_t),
	};
	static const struct rte_mbuf_dynflag flag = { .name = "dfcp_engine_wire_ns_set" };
	int off, bit;

	if (eng_wire_ts_flag != 0)
		return 0;
	off = rte_mbuf_dynfield_register(&field);
	if (off < 0)
		return -rte_errno;
	bit = rte_mbuf_dynflag_register(&flag);
	if (bit < 0)
		return -rte_errno;
	eng_wire_ts_off = off;
	eng_wire_ts_flag = UINT64_C(1) << bit;
	return 0;
}
