/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BIC-TCP (Xu, Harfoush, Rhee, INFOCOM 2004; the Linux tcp_bic.c rules):
 * binary search increase toward the window of the last loss (W_max), then
 * max probing above it; multiplicative decrease by beta = 0.8 with fast
 * convergence; Reno below low_window = 14 segments.
 */
#include "tcp.h"
#include "tcp_priv.h"

#define BIC_BETA_SCALE		1024
#define BIC_BETA		819	/* 0.8 */
#define BIC_B			4	/* binary search coefficient */
#define BIC_MAX_INCREMENT	16
#define BIC_LOW_WINDOW		14
#define BIC_SMOOTH_PART		20

struct bic {
	uint32_t cnt;		/* ACKed segments per cwnd increment */
	uint32_t last_max;	/* segments */
	uint32_t loss_cwnd;
};

_Static_assert(sizeof(struct bic) <= sizeof(((struct tcp_cc *)0)->priv),
		"bic state too large");

static void
bic_init(struct tcp_cc *cc, uint64_t now)
{
	struct bic *b = (struct bic *)cc->priv;

	(void)now;
	b->cnt = 0;
	b->last_max = 0;
	b->loss_cwnd = 0;
}

static void
bic_update(struct bic *b, uint32_t cwnd)
{
	if (cwnd <= BIC_LOW_WINDOW) {
		b->cnt = cwnd;
		return;
	}
	if (cwnd < b->last_max) {
		uint32_t dist = (b->last_max - cwnd) / BIC_B;

		if (dist > BIC_MAX_INCREMENT)
			b->cnt = cwnd / BIC_MAX_INCREMENT;	/* linear increase */
		else if (dist <= 1)
			b->cnt = cwnd * BIC_SMOOTH_PART / BIC_B;	/* near W_max */
		else
			b->cnt = cwnd / dist;			/* binary search */
	} else {
		if (cwnd < b->last_max + BIC_B)
			b->cnt = cwnd * BIC_SMOOTH_PART / BIC_B;	/* slow start-ish */
		else if (cwnd < b->last_max + BIC_MAX_INCREMENT * (BIC_B - 1))
			b->cnt = cwnd * (BIC_B - 1) / (cwnd - b->last_max);
		else
			b->cnt = cwnd / BIC_MAX_INCREMENT;	/* max probing, linear */
	}
	if (b->last_max == 0 && b->cnt > 20)
		b->cnt = 20;
	if (b->cnt == 0)
		b->cnt = 1;
}

static void
bic_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct bic *b = (struct bic *)cc->priv;

	if (cc->cwnd < cc->ssthresh) {
		tcp_cc_reno_grow(cc, a->acked);
		return;
	}
	bic_update(b, cc->cwnd / cc->mss);
	/* credit piled up under a larger cnt is applied gently (as Linux
	 * tcp_cong_avoid_ai): one segment, then start over */
	if (cc->ca_acc >= b->cnt * cc->mss) {
		cc->ca_acc = 0;
		cc->cwnd += cc->mss;
	}
	cc->ca_acc += a->acked;
	while (cc->ca_acc >= b->cnt * cc->mss) {
		cc->ca_acc -= b->cnt * cc->mss;
		cc->cwnd += cc->mss;
	}
}

static uint32_t
bic_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	struct bic *b = (struct bic *)cc->priv;
	uint32_t w = cc->cwnd / cc->mss;

	(void)now;
	if (w < b->last_max)
		b->last_max = w * (BIC_BETA_SCALE + BIC_BETA) / (2 * BIC_BETA_SCALE);
	else
		b->last_max = w;
	b->loss_cwnd = w;
	if (w <= BIC_LOW_WINDOW)
		return tcp_max32(cc->cwnd / 2, 2 * cc->mss);
	return tcp_max32(w * BIC_BETA / BIC_BETA_SCALE, 2) * cc->mss;
}

const struct tcp_cc_ops tcp_cc_bic = {
	.name = "bic",
	.help = "BIC: binary search increase toward W_max, beta 0.8 (Xu 2004)",
	.recovery = TCP_REC_SACK,	/* NewReno when SACK is not negotiated */
	.init = bic_init,
	.cong_avoid = bic_cong_avoid,
	.ssthresh = bic_ssthresh,
};
