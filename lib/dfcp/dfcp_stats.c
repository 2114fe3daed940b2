/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP connection statistics and stall detection: no block acked or
 * delivered for DFCP_STALL_NS while the peer is still heard from, with the
 * reason (window full, every block waiting on its timer, rx drops, ...),
 * for the engine to log once per episode.
 */
#include <stdio.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"

/* The connection's stall time: a few of its usual gaps between progresses. */
static uint64_t
stall_ns(const struct dfcp_conn *c)
{
	uint64_t t = 4 * c->gap_avg;

	return t < DFCP_STALL_NS ? DFCP_STALL_NS : t > DFCP_STALL_MAX_NS ? DFCP_STALL_MAX_NS : t;
}

void
dfcp_conn_stats(const struct dfcp_conn *c, struct dfcp_stats *st)
{
	*st = c->st;
	st->stall_ms = (uint32_t)(stall_ns(c) / 1000000u);
	st->srtt_ns = c->srtt;
	st->completed = (uint32_t)c->completed;
	st->close_reason = c->reason;
	if (c->sender) {
		/*
		 * With reports (XR): the whole connection's loss as the last
		 * report accepted counts it (the receiver's rx_pkts and
		 * seq_next, what its own loss_est divides), not the model's
		 * 1024-packet EWMA that sizes rounds (c->loss_q16): after a
		 * burst of drops that one is any value between 0 and the
		 * burst's share. Without reports, the per-block estimate.
		 */
		if ((c->p.flags & DFCP_F_XR) && c->lm.have && c->lm.seq64 != 0)
			st->loss_ppm = (uint32_t)((c->lm.seq64 - c->lm.rx64) * 1000000u /
				c->lm.seq64);
		else
			st->loss_ppm = (uint32_t)(((uint64_t)c->loss_q16 * 1000000u) >> 16);
		st->redundancy = dfcp_first_round_syms(c);
		st->window_used = c->snd_next - c->snd_base;
		st->dispersion_pct = (uint32_t)(((uint64_t)c->lm.phi_q16 * 100u) >> 16);
		st->rate_hint_pps = c->cap_pps;
		/* what arrived of the symbols sent (1 - loss) that was the data */
		if (st->tx_data_pkts != 0 && st->loss_ppm < 1000000u) {
			unsigned __int128 den = (unsigned __int128)st->tx_data_pkts * c->p.T *
				(1000000u - st->loss_ppm);
			unsigned __int128 e = (unsigned __int128)st->goodput_bytes * 1000000u *
				1000000u / den;

			st->efficiency_ppm = e > UINT32_MAX ? UINT32_MAX : (uint32_t)e;
		}
	} else {
		uint32_t used = 0;

		if (c->seq_seen && c->seq_next != 0)
			st->loss_ppm = (uint32_t)((uint64_t)(c->seq_next - c->rx_pkts) *
				1000000u / c->seq_next);
		else if (c->rcv_sum_span)
			st->loss_ppm = (uint32_t)((c->rcv_sum_span - c->rcv_sum_rcvd) *
				1000000u / c->rcv_sum_span);
		st->rate_hint_pps = (c->p.flags & DFCP_F_RHINT) ? c->rate_pps : 0;
		for (uint32_t i = 0; c->rx != NULL && i < c->W; i++)
			used += c->rx[i].state != RX_FREE;
		st->window_used = used;
		st->redundancy = c->p.redundancy;
	}
}

static uint64_t
drops_sum(const struct dfcp_conn *c)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < DFCP_E_MAX; i++)
		n += c->st.drops[i];
	return n;
}

/* Progress (a block acked or delivered): any stall is over. */
void
dfcp_progress(struct dfcp_conn *c, uint64_t now)
{
	if (c->progress_at != 0 && now > c->progress_at) {
		uint64_t gap = now - c->progress_at;

		if (gap > DFCP_STALL_MAX_NS)
			gap = DFCP_STALL_MAX_NS;
		c->gap_avg = c->gap_avg == 0 ? gap : c->gap_avg - c->gap_avg / 4 + gap / 4;
	}
	c->progress_at = now;
	c->rx_at_progress = c->rx_pkts;
	c->snd_at_progress = c->snd_seq64;
	c->stall_at = now + stall_ns(c);
	c->drops_at_progress = drops_sum(c);
	c->st.stall = 0;
}

static uint32_t
stall_why(const struct dfcp_conn *c, uint64_t now)
{
	uint32_t why = DFCP_STALL_ON, inflight = c->snd_next - c->snd_base;

	if (drops_sum(c) != c->drops_at_progress)
		why |= DFCP_STALL_RX_DROPS;
	if (!c->sender) {
		if (now - c->last_data >= stall_ns(c))
			why |= DFCP_STALL_NO_DATA_RX;
		return why;
	}
	if (inflight >= c->W)
		why |= DFCP_STALL_WINDOW;
	if (inflight == 0 && !c->src_eof)
		why |= DFCP_STALL_NO_DATA;
	if (c->cap_pps != 0 && dfcp_cap_next(c, now) > now)
		why |= DFCP_STALL_PACED;
	if (c->pool_retry != 0)
		why |= DFCP_STALL_POOL;
	if (inflight != 0 && c->rr_count == 0 && c->snd_first == c->snd_next) {
		uint32_t waiting = 0;

		for (uint32_t b = c->snd_base; b != c->snd_next; b++) {
			const struct tx_slot *s = &c->tx[b % c->W];

			waiting += s->state != TX_ACTIVE || s->deadline != 0;
		}
		if (waiting == inflight)
			why |= DFCP_STALL_TIMERS;
	}
	return why;
}

/*
 * No progress for the stall time while the peer is alive (a packet from it
 * in that time): the reason goes into the stats (stall), each episode
 * counted once (stalls). Checked at most every stall time / 8.
 */
void
dfcp_stall_check(struct dfcp_conn *c, uint64_t now)
{
	uint64_t t = stall_ns(c);
	uint32_t why;

	if (c->state != DFCP_ESTABLISHED || now < c->stall_at)
		return;
	c->stall_at = now + t / 8;
	/*
	 * The first block, its DATA still going out (sender) or coming in
	 * (receiver): not stalled before 4 blocks' worth of it did (no gap
	 * between blocks known yet; a flow with a small share of a bottleneck,
	 * paced by the scheduler's back-pressure, takes seconds for a block)
	 */
	if (now - c->progress_at < t || now - c->peer_at >= t ||
			(!c->sender && c->gap_avg == 0 && now - c->last_data < t &&
			 (c->p.flags & DFCP_F_XR) && c->rx_pkts - c->rx_at_progress < 4 * c->p.K) ||
			(c->sender && c->gap_avg == 0 && now - c->last_data_tx < t &&
			 c->snd_seq64 - c->snd_at_progress < 4ull * c->p.K)) {
		c->st.stall = 0;
		return;
	}
	why = stall_why(c, now);
	if (c->st.stall == 0)
		c->st.stalls++;
	c->st.stall = why;
}

const char *
dfcp_stall_str(uint32_t why, char *buf, size_t len)
{
	static const struct { uint32_t bit; const char *name; } names[] = {
		{ DFCP_STALL_WINDOW, "window full" },
		{ DFCP_STALL_TIMERS, "all blocks waiting on timers" },
		{ DFCP_STALL_NO_DATA, "no data from the source" },
		{ DFCP_STALL_PACED, "rate cap" },
		{ DFCP_STALL_RX_DROPS, "rx drops" },
		{ DFCP_STALL_NO_DATA_RX, "no DATA arriving" },
		{ DFCP_STALL_POOL, "no encoder free for the next block (mem_budget)" },
	};
	size_t off = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	if (!(why & DFCP_STALL_ON)) {
		snprintf(buf, len, "progressing");
		return buf;
	}
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int w;

		if (!(why & names[i].bit))
			continue;
		w = snprintf(buf + off, len - off, "%s%s", off ? ", " : "", names[i].name);
		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
	if (off == 0)
		snprintf(buf, len, "no progress");
	return buf;
}
