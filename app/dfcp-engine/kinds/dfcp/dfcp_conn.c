/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dfcp kind's connection configuration: a flow's endpoint (listener
 * limits, half-open table, the accepted connections' template), a sender's
 * connection, and the sum of closed connections' counters. dfcp_task.c
 * wires the application callbacks and the task's block memory
 * (dfcp_mem.c). doc/config.md.
 */
#include <inttypes.h>
#include <string.h>

#include <rte_lcore.h>

#include "core/log.h"
#include "dfcp.h"
#include "kinds/dfcp/dfcp_task.h"
#include "kinds/xport/xport.h"
#include "obs/obs.h"

/* The largest symbol size a peer may ask for: its frames fit the mbufs and the MTU. */
static uint16_t
max_T(const struct eng_xtask *x, uint32_t tag_len)
{
	const struct eng_port_conf *pc = &x->rt->cfg->ports[x->t->ports[0].port_idx];
	uint32_t over = dfcp_data_frame_len(0, tag_len), cap = x->cap;

	if (pc->mtu != 0 && (uint32_t)pc->mtu + DFCP_ETH_LEN < cap)
		cap = (uint32_t)pc->mtu + DFCP_ETH_LEN;
	if (cap <= over + DFCP_MIN_T)
		return DFCP_MIN_T;
	return (uint16_t)RTE_MIN(cap - over, (uint32_t)DFCP_MAX_T);
}

/*
 * Half-open entries per receiver flow: the task's max_half_open, or auto:
 * 65536 in all shared by its receivers, 64..4096 each (an entry with its
 * slot and hash links is ~130 bytes).
 */
static uint32_t
half_open(const struct eng_xtask *x)
{
	const struct eng_dfcp_conf *dc = x->t->conf;
	unsigned int i, n = 0;
	uint32_t h;

	if (dc->max_half_open != 0)
		return dc->max_half_open;
	for (i = 0; i < x->nb_flows; i++)
		n += x->flows[i].fc->role == ENG_FLOW_RECEIVER;
	h = 65536u / (n ? n : 1);
	return h < 64 ? 64 : h > 4096 ? 4096 : h;
}

/* The keys both ends of a connection share: timers, extensions, integrity, key. */
static void
conn_common(const struct eng_dfcp_flow_conf *df, enum dfcp_csum csum, struct dfcp_conn_conf *cc)
{
	cc->csum = csum;
	cc->hs_rto_ns = df->hs_rto_ns;
	cc->min_rto_ns = df->min_rto_ns;
	cc->time_wait_ns = df->time_wait_ns;
	cc->xr = df->xr;
	cc->round_idle_ns = df->round_idle_ns;
	cc->integrity = df->block_crc;
	cc->peer_timeout_ns = df->peer_timeout_ns;
	memcpy(cc->auth_key, df->auth_key, sizeof(cc->auth_key));
	cc->auth_key_len = df->auth_key_len;
	cc->crypto = df->crypto;
}

/*
 * checksum = auto on a port without the offload is full, but not for a sealed
 * flow: its every message carries a tag (the AEAD's or SipHash), UDP's adds nothing.
 */
static enum dfcp_csum
flow_csum(const struct eng_xtask *x, const struct eng_dfcp_flow_conf *df, enum dfcp_csum csum)
{
	const struct eng_dfcp_conf *dc = x->t->conf;

	if (df->crypto != DFCP_CRYPTO_OFF && dc->csum == ENG_CSUM_AUTO && csum == DFCP_CSUM_FULL)
		return DFCP_CSUM_UDP_ZERO;
	return csum;
}

int
eng_dfcp_ep_conf(const struct eng_xtask *x, enum dfcp_csum csum, unsigned int rx_flags,
		const struct eng_flow_conf *fc, struct dfcp_ep_conf *ec)
{
	const struct eng_dfcp_conf *dc = x->t->conf;
	const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(fc);
	int receiver = fc->role == ENG_FLOW_RECEIVER;

	csum = flow_csum(x, df, csum);
	dfcp_ep_conf_default(ec);
	memcpy(ec->local.mac, x->mac.addr_bytes, 6);
	ec->local.ip = fc->local_ip;
	ec->local.port = fc->local_port;
	ec->csum = csum;
	ec->rx_flags = rx_flags;
	ec->listen = receiver;
	ec->max_conns = receiver ? dc->max_conns : 2;
	/* the connection records are made with the endpoint, none while polling */
	ec->slab = 1;
	/* local policy on what a peer may ask for: the window, K, T within the port */
	ec->limits.max_window = df->window;
	ec->limits.max_K = df->max_K;
	ec->limits.max_T = max_T(x, dfcp_data_tag_len(df->auth_key_len != 0, df->crypto));
	/* the block memory is the task's pool (dfcp_task.c sets ec->pool) */
	/* a sender accepts no SYN: no half-open entries (the library's default
	 * 4096 made 144 KiB of slots and hash heads per sender, 590 MB at 4096) */
	ec->max_half_open = receiver ? half_open(x) : 0;
	conn_common(df, csum, &ec->accept_conf);
	memcpy(ec->auth_key, df->auth_key, sizeof(ec->auth_key));
	ec->auth_key_len = df->auth_key_len;
	ec->crypto = receiver ? df->crypto : DFCP_CRYPTO_OFF;
	/* sealed DATA opened a burst at a time (the task flushes after each rx burst) */
	ec->rx_defer = ec->crypto != DFCP_CRYPTO_OFF;
	return 0;
}

void
eng_dfcp_conn_conf(const struct eng_xtask *x, enum dfcp_csum csum, const struct eng_flow_conf *fc,
		struct dfcp_conn_conf *cc)
{
	const struct eng_dfcp_flow_conf *df = eng_dfcp_fc(fc);

	csum = flow_csum(x, df, csum);
	dfcp_conn_conf_default(cc);
	cc->remote.ip = fc->remote_ip;
	cc->remote.port = fc->remote_port;
	if (fc->has_remote_mac)
		memcpy(cc->remote.mac, fc->remote_mac.addr_bytes, 6);
	else if (x->peer_mac_set)
		memcpy(cc->remote.mac, x->peer_mac.addr_bytes, 6);
	cc->T = df->T;
	cc->K = df->K;
	cc->window = df->window;
	cc->redundancy = df->redundancy;
	cc->acks = df->acks;
	cc->encode = df->encode;
	cc->decode = df->decode;
	cc->rate_hint = df->rate_hint;
	conn_common(df, csum, cc);
	/* block latency histogram (obs/obs.h): one hist_record per acked block */
	cc->block_latency = eng_lat_flow_hist(x->rt, fc - x->rt->cfg->flows,
			(int)rte_lcore_to_socket_id(x->t->lcore_id));
}

void
eng_dfcp_stats_add(struct dfcp_stats *a, const struct dfcp_stats *b)
{
	unsigned int i;

	a->tx_pkts += b->tx_pkts;
	a->tx_bytes += b->tx_bytes;
	a->rx_pkts += b->rx_pkts;
	a->rx_bytes += b->rx_bytes;
	a->tx_data_pkts += b->tx_data_pkts;
	a->rx_data_pkts += b->rx_data_pkts;
	a->goodput_bytes += b->goodput_bytes;
	a->blocks_sent += b->blocks_sent;
	a->blocks_acked += b->blocks_acked;
	a->blocks_decoded += b->blocks_decoded;
	a->blocks_first_pass += b->blocks_first_pass;
	a->blocks_lost += b->blocks_lost;
	a->decode_failures += b->decode_failures;
	a->topups += b->topups;
	a->topup_syms += b->topup_syms;
	a->timeouts += b->timeouts;
	a->short_reports += b->short_reports;
	a->retransmits += b->retransmits;
	a->rounds_last += b->rounds_last;
	a->rounds_next += b->rounds_next;
	a->rounds_idle += b->rounds_idle;
	a->rounds_late += b->rounds_late;
	a->rounds_resumed += b->rounds_resumed;
	a->reports += b->reports;
	a->implicit_topups += b->implicit_topups;
	a->early_shorts += b->early_shorts;
	a->rate_capped += b->rate_capped;
	a->stalls += b->stalls;
	a->crc_failures += b->crc_failures;
	a->hdr_switches += b->hdr_switches;
	a->stale_syms += b->stale_syms;
	a->efficiency_ppm = b->efficiency_ppm;
	a->rx_mem_bytes = b->rx_mem_bytes;
	a->dispersion_pct = b->dispersion_pct;
	a->rate_hint_pps = b->rate_hint_pps;
	a->stall = b->stall;
	a->stall_ms = b->stall_ms;
	a->loss_ppm = b->loss_ppm;
	a->redundancy = b->redundancy;
	a->window_used = b->window_used;
	a->window = b->window;
	a->srtt_ns = b->srtt_ns;
	for (i = 0; i < DFCP_E_MAX; i++)
		a->drops[i] += b->drops[i];
}

