/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCP Vegas (Brakmo, O'Malley, Peterson, SIGCOMM 1994; in the form of
 * Linux tcp_vegas.c). Once per RTT: expected = cwnd / BaseRTT, actual =
 * cwnd / RTT, diff = (expected - actual) * BaseRTT = cwnd * (RTT - BaseRTT)
 * / RTT segments queued in the network. In congestion avoidance: diff < alpha
 * -> cwnd + 1, diff > beta -> cwnd - 1, otherwise hold. In slow start, leave
 * it when diff > gamma. RTT is the minimum sample of the last round;
 * BaseRTT the minimum ever. Losses: Reno rules, NewReno recovery.
 */
#include "tcp.h"
#include "tcp_priv.h"

uint32_t tcp_vegas_alpha = 2;
uint32_t tcp_vegas_beta = 4;
uint32_t tcp_vegas_gamma = 1;

struct vegas {
	uint64_t base_rtt;	/* ns, minimum ever */
	uint64_t min_rtt;	/* ns, minimum this round */
	uint32_t cnt_rtt;	/* samples this round */
	uint32_t beg_snd_nxt;	/* round ends when this is acked */
	uint8_t started;
};

_Static_assert(sizeof(struct vegas) <= sizeof(((struct tcp_cc *)0)->priv),
		"vegas state too large");

static void
vegas_init(struct tcp_cc *cc, uint64_t now)
{
	struct vegas *v = (struct vegas *)cc->priv;

	(void)now;
	v->base_rtt = UINT64_MAX;
	v->min_rtt = UINT64_MAX;
	v->cnt_rtt = 0;
	v->started = 0;
}

static void
vegas_on_ack(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct vegas *v = (struct vegas *)cc->priv;

	if (a->rtt_ns == 0)
		return;
	if (a->rtt_ns < v->base_rtt)
		v->base_rtt = a->rtt_ns;
	if (a->rtt_ns < v->min_rtt)
		v->min_rtt = a->rtt_ns;
	v->cnt_rtt++;
}

static void
vegas_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct vegas *v = (struct vegas *)cc->priv;
	uint32_t mss = cc->mss, segs, target;
	uint64_t rtt, diff;

	if (!v->started) {
		v->started = 1;
		v->beg_snd_nxt = cc->snd_nxt;
	}
	if (!TCP_SEQ_GEQ(a->ack, v->beg_snd_nxt)) {
		/* inside a round: only slow start moves */
		if (cc->cwnd < cc->ssthresh)
			tcp_cc_reno_grow(cc, a->acked);
		return;
	}
	v->beg_snd_nxt = cc->snd_nxt;
	if (v->cnt_rtt <= 2 || v->base_rtt == UINT64_MAX) {
		/* too few samples to trust: behave like Reno */
		tcp_cc_reno_grow(cc, a->acked);
		goto next_round;
	}
	rtt = v->min_rtt;
	segs = cc->cwnd / mss;
	diff = (uint64_t)segs * (rtt - v->base_rtt) / rtt;
	if (cc->cwnd < cc->ssthresh) {
		if (diff > tcp_vegas_gamma) {
			/* leave slow start at the expected-rate window */
			target = (uint32_t)((uint64_t)segs * v->base_rtt / rtt);
			cc->cwnd = tcp_min32(cc->cwnd, (target + 1) * mss);
			cc->ssthresh = tcp_max32(cc->cwnd - mss, 2 * mss);
		} else {
			tcp_cc_reno_grow(cc, a->acked);
		}
	} else if (diff > tcp_vegas_beta) {
		cc->cwnd = tcp_max32(cc->cwnd - mss, 2 * mss);
		cc->ssthresh = tcp_max32(tcp_min32(cc->ssthresh, cc->cwnd - mss), 2 * mss);
	} else if (diff < tcp_vegas_alpha) {
		cc->cwnd += mss;
	}
	/* alpha <= diff <= beta: hold */
next_round:
	v->cnt_rtt = 0;
	v->min_rtt = UINT64_MAX;
}

const struct tcp_cc_ops tcp_cc_vegas = {
	.name = "vegas",
	.help = "Vegas: hold the queue between alpha and beta segments (Brakmo 1994)",
	.recovery = TCP_REC_NEWRENO,
	.init = vegas_init,
	.on_ack = vegas_on_ack,
	.cong_avoid = vegas_cong_avoid,
	.ssthresh = tcp_cc_reno_ssthresh,
};
