/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Delivery-rate sampling (draft-cheng-iccrg-delivery-rate-estimation, the
 * design of Linux's tcp_rate.c) on RACK's per-segment records, in bytes.
 *
 * Each transmission stamps its record with the connection's delivered
 * count, the time of the latest delivery and the send time of the segment
 * the current sampling interval began with (a new interval starts when
 * nothing is outstanding). An ACK delivering segments (cumulatively or by
 * SACK) takes the most recently sent of them: the bytes delivered since it
 * left, over the longer of its send interval and its ACK interval, is the
 * sample; shorter than the minimum RTT it is discarded (ACK compression).
 * A sample whose segment left while the sender had nothing to send is
 * marked app-limited until the data outstanding at that moment is
 * delivered. Integer only.
 */
#include "tcp.h"
#include "tcp_priv.h"

void
tcp_rate_sent(struct tcp_rate *r, struct tcp_rseg *g, uint32_t out_b, uint64_t now)
{
	if (out_b == 0) {
		/* nothing outstanding: a new sampling interval */
		r->first_ts = now;
		r->delivered_ts = now;
	}
	g->r_delivered = r->delivered;
	g->r_delivered_ts = r->delivered_ts;
	g->r_first_ts = r->first_ts;
	g->fl = (uint8_t)((g->fl & ~TCP_RS_APPLTD) | (r->app_limited ? TCP_RS_APPLTD : 0));
}

void
tcp_rate_delivered(struct tcp_rate *r, struct tcp_rseg *g, uint32_t len)
{
	uint32_t end = g->seq + g->len;

	r->delivered += len;
	r->newly += len;
	if (r->have && (g->ts < r->pick_ts ||
			(g->ts == r->pick_ts && !TCP_SEQ_GT(end, r->pick_end))))
		return;
	/* the most recently sent segment this ACK delivers */
	r->have = 1;
	r->pick_ts = g->ts;
	r->pick_end = end;
	r->prior_delivered = g->r_delivered;
	r->prior_ts = g->r_delivered_ts;
	r->first_ts_pick = g->r_first_ts;
	r->appl = (g->fl & TCP_RS_APPLTD) != 0;
	r->rtx = (g->fl & TCP_RS_EVER_RTX) != 0;
}

void
tcp_rate_gen(struct tcp_rate *r, uint64_t now, uint64_t min_rtt, struct tcp_rate_sample *rs)
{
	uint64_t snd, ack;

	if (r->app_limited && r->delivered > r->app_limited)
		r->app_limited = 0;
	if (r->newly)
		r->delivered_ts = now;
	rs->delivered_total = r->delivered;
	rs->acked_sacked = r->newly;
	if (!r->have)
		return;
	r->first_ts = r->pick_ts;	/* the next interval begins at this send */
	rs->prior_delivered = r->prior_delivered;
	rs->delivered = r->delivered - r->prior_delivered;
	rs->is_app_limited = r->appl;
	if (!r->rtx)
		rs->rtt_ns = now > r->pick_ts ? now - r->pick_ts : 1;
	if (r->prior_ts == 0)
		return;
	snd = r->pick_ts - r->first_ts_pick;
	ack = now - r->prior_ts;
	rs->interval_ns = tcp_max64(snd, ack);
	if (rs->interval_ns < min_rtt)
		rs->interval_ns = 0;	/* compressed: not a valid rate */
}

void
tcp_rate_app_limited(struct tcp_rate *r, uint32_t pipe)
{
	r->app_limited = r->delivered + pipe ? r->delivered + pipe : 1;
}
