/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP Westwood (Mascolo et al., MobiCom 2001) with the Westwood+ estimator
 * (Grieco & Mascolo 2004, the Linux tcp_westwood.c form): the bytes the ACK
 * stream reports delivered (duplicate ACKs count one segment, later
 * cumulative ACKs are debited for them) are summed over windows of at least
 * one RTT (>= 50 ms) and low-pass filtered twice with gain 1/8. On a loss
 * (three duplicate ACKs or a timeout) ssthresh = BWE * RTTmin instead of
 * halving, never below 2 segments; on a timeout cwnd = 1 segment. Growth and
 * recovery are Reno / NewReno.
 */
#include "tcp.h"
#include "tcp_priv.h"

#define WW_MIN_WIN_NS	50000000ull	/* 50 ms */

void
tcp_ww_est_ack(struct tcp_ww_est *w, const struct tcp_cc *cc,
		const struct tcp_cc_ack *a)
{
	uint32_t cumul;
	uint64_t win;

	if (a->pair)
		return;		/* TCPW-C assistant ACKs carry no delivery news */
	if (!w->started) {
		w->started = 1;
		w->win_start = a->now;
		w->snd_una = a->ack;
		w->bk = 0;
		return;
	}
	cumul = TCP_SEQ_GT(a->ack, w->snd_una) ? a->ack - w->snd_una : 0;
	if (cumul == 0) {
		if (a->dup) {
			cumul = cc->mss;
			w->accounted += cc->mss;
		}
	} else if (cumul > cc->mss) {
		if (w->accounted >= cumul) {
			w->accounted -= cumul;
			cumul = cc->mss;
		} else {
			cumul -= w->accounted;
			w->accounted = 0;
		}
	}
	if (TCP_SEQ_GT(a->ack, w->snd_una))
		w->snd_una = a->ack;
	w->bk += cumul;
	win = tcp_max64(cc->srtt_ns, WW_MIN_WIN_NS);
	if (a->now - w->win_start >= win) {
		uint64_t dt = a->now - w->win_start;
		uint64_t sample = w->bk * 1000000000ull / dt;

		if (w->bw_Bps == 0)
			w->bw_Bps = sample;
		else
			w->bw_Bps = (7 * w->bw_Bps + sample) / 8;
		w->bk = 0;
		w->win_start = a->now;
	}
}

uint32_t
tcp_ww_ssthresh(const struct tcp_cc *cc, uint64_t bw_Bps)
{
	uint64_t rtt = cc->rtt_min_ns, b;

	if (bw_Bps == 0 || rtt == 0)
		return tcp_max32(cc->flight / 2, 2 * cc->mss);
	b = bw_Bps * rtt / 1000000000ull;
	/* whole segments: BWE * RTTmin / seg, as the seed states it */
	b = b / cc->mss * cc->mss;
	if (b > 0x7fffffffull)
		b = 0x7fffffffull;
	return tcp_max32((uint32_t)b, 2 * cc->mss);
}

struct westwood {
	struct tcp_ww_est est;
};

_Static_assert(sizeof(struct westwood) <= sizeof(((struct tcp_cc *)0)->priv),
		"westwood state too large");

static void
ww_init(struct tcp_cc *cc, uint64_t now)
{
	struct westwood *w = (struct westwood *)cc->priv;

	(void)now;
	*w = (struct westwood){ { 0 } };
}

static void
ww_on_ack(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct westwood *w = (struct westwood *)cc->priv;

	tcp_ww_est_ack(&w->est, cc, a);
}

static void
ww_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	tcp_cc_reno_grow(cc, a->acked);
}

static uint32_t
ww_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	struct westwood *w = (struct westwood *)cc->priv;

	(void)now;
	return tcp_ww_ssthresh(cc, w->est.bw_Bps);
}

static void
ww_enter_recovery(struct tcp_cc *cc, uint64_t now)
{
	(void)now;
	/* Westwood: cwnd = ssthresh if it was larger (plus the dupack
	 * inflation the connection adds) */
	if (cc->cwnd > cc->ssthresh + 3 * cc->mss)
		cc->cwnd = cc->ssthresh + 3 * cc->mss;
}

static uint64_t
ww_bw(const struct tcp_cc *cc)
{
	const struct westwood *w = (const struct westwood *)cc->priv;

	return w->est.bw_Bps * 8;
}

const struct tcp_cc_ops tcp_cc_westwood = {
	.name = "westwood",
	.help = "Westwood+: ssthresh = BWE * RTTmin on loss (Mascolo 2001)",
	.recovery = TCP_REC_NEWRENO,
	.init = ww_init,
	.on_ack = ww_on_ack,
	.cong_avoid = ww_cong_avoid,
	.ssthresh = ww_ssthresh,
	.enter_recovery = ww_enter_recovery,
	.bw_bps = ww_bw,
};
