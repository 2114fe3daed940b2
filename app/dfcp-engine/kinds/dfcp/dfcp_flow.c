/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The DFCP keys of a [flow NAME] (proto = dfcp, the default): the thesis's
 * five parameters, coding, pacing, timers (config/sec_flow.c reads the keys
 * every flow has). The dfcp kind's check: the flows of one task have
 * distinct local addresses. Keys: doc/config.md.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/dfcp/dfcp_task.h"

static void
dfcp_flow_defaults(struct eng_dfcp_flow_conf *f)
{
	f->path_rate_bps = 1000000000ull;
	f->path_rtt_ns = 200000000ull;
	f->redundancy = DFCP_REDUNDANCY_AUTO;
	f->acks = f->encode = f->decode = 1;
	f->T = DFCP_DEFAULT_T;
	f->block_size = 65536;
	f->hs_rto_ns = 200000000ull;
	f->min_rto_ns = 10000000ull; /* above the queueing delay of deep rings */
	f->time_wait_ns = 1000000000ull;
	f->xr = 1;
	f->round_idle_ns = 250000ull;
}

/* The thesis's five parameters and the path they are sized for. */
static int
flow_parse_five(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	const char *v = eng_sec_get(sec, "window");
	int rc = 0;

	if (v != NULL && strcmp(v, "auto") != 0)
		rc = eng_sec_u32(sec, "window", 1, DFCP_MAX_WINDOW, &f->window);
	if (rc == 0)
		rc = eng_sec_rate(sec, "path_rate", 1000, 400000000000ull, &f->path_rate_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "path_rtt", 1000000ull, 0, 10000000000ull, &f->path_rtt_ns);
	v = eng_sec_get(sec, "redundancy");
	if (rc == 0 && v != NULL) {
		if (strcmp(v, "auto") == 0)
			f->redundancy = DFCP_REDUNDANCY_AUTO;
		else
			rc = eng_sec_u16(sec, "redundancy", 1, DFCP_MAX_REDUNDANCY, &f->redundancy);
	}
	if (rc == 0)
		rc = eng_sec_bool(sec, "acks", &f->acks);
	if (rc == 0)
		rc = eng_sec_bool(sec, "encode", &f->encode);
	if (rc == 0)
		rc = eng_sec_bool(sec, "decode", &f->decode);
	return rc;
}

/* Coding (symbol and block size), pacing and the connection's timers. */
static int
flow_parse_coding(struct eng_sec *sec, struct eng_dfcp_flow_conf *f)
{
	uint64_t u = f->block_size;
	int rc;

	rc = eng_sec_u16(sec, "symbol_size", DFCP_MIN_T, DFCP_MAX_T, &f->T);
	if (rc == 0)
		rc = eng_sec_size(sec, "block_size", 1, (uint64_t)DFCP_MAX_K * DFCP_MAX_T, &u);
	if (rc < 0)
		return rc;
	f->block_size = (uint32_t)u;
	u = (f->block_size + f->T - 1u) / f->T;
	if (u > DFCP_MAX_K)
		return eng_sec_error(sec, "block_size", "%u bytes need K = %" PRIu64
				" symbols of %u bytes (at most %u)", f->block_size, u, f->T,
				DFCP_MAX_K);
	f->K = (uint16_t)u;
	if (f->redundancy != DFCP_REDUNDANCY_AUTO && f->redundancy < f->K)
		return eng_sec_error(sec, "redundancy",
				"%u packets per block is fewer than K = %u source symbols",
				f->redundancy, f->K);
	rc = eng_sec_rate(sec, "rate", 0, 400000000000ull, &f->rate_bps);
	if (rc == 0)
		rc = eng_sec_time(sec, "hs_rto", 1000000ull, 1000000ull, 60000000000ull, &f->hs_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "min_rto", 1000000ull, 1000ull, 60000000000ull, &f->min_rto_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "time_wait", 1000000ull, 1000000ull, 600000000000ull,
				&f->time_wait_ns);
	if (rc == 0)
		rc = eng_sec_bool(sec, "xr", &f->xr);
	if (rc == 0)
		rc = eng_sec_bool(sec, "rate_hint", &f->rate_hint);
	if (rc == 0)
		rc = eng_sec_time(sec, "round_idle", 1000000ull, 10000ull, 1000000000ull,
				&f->round_idle_ns);
	if (rc == 0 && f->rate_hint && !f->xr)
		return eng_sec_error(sec, "rate_hint", "needs xr = on (hints travel in loss reports)");
	return rc;
}

int
eng_dfcp_flow_parse(struct eng_flow_conf *fc, struct eng_sec *sec, struct eng_config *cfg)
{
	struct eng_dfcp_flow_conf *f;
	int rc;

	RTE_SET_USED(cfg);
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return -ENOMEM;
	fc->pconf = f;
	dfcp_flow_defaults(f);
	rc = flow_parse_five(sec, f);
	if (rc == 0)
		rc = flow_parse_coding(sec, f);
	if (rc < 0)
		return rc;
	if (f->window == 0) {
		/* auto: the bandwidth-delay product in blocks, plus 64 blocks for queues */
		unsigned __int128 bdp = (unsigned __int128)f->path_rate_bps * f->path_rtt_ns;
		uint64_t blocks = (uint64_t)(bdp / 8u / 1000000000u / f->block_size) + 64u;

		f->window = blocks > DFCP_MAX_WINDOW ? DFCP_MAX_WINDOW : (uint32_t)blocks;
	}
	return 0;
}

/* Two flows of one task on the same local address:port cannot be told apart. */
int
eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen)
{
	unsigned int t, i, j;

	for (t = 0; t < cfg->nb_tasks; t++) {
		const struct eng_task *tk = &cfg->tasks[t];

		if (tk->ops != &eng_task_dfcp)
			continue;
		for (i = 0; i < tk->nb_flows; i++)
			for (j = 0; j < i; j++) {
				const struct eng_flow_conf *f = eng_task_flow(cfg, tk, i);
				const struct eng_flow_conf *g = eng_task_flow(cfg, tk, j);

				if (g->local_ip == f->local_ip && g->local_port == f->local_port) {
					snprintf(err, errlen, "%s:%d: [flow %s] local: same address and "
							"port as flow %s on the same task", cfg->file,
							f->line, f->name, g->name);
					return -EINVAL;
				}
			}
	}
	return 0;
}
