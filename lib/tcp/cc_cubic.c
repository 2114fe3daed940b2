/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CUBIC (RFC 9438, formerly RFC 8312; integer form after Linux
 * tcp_cubic.c): after a loss at W_max, W_cubic(t) = C (t - K)^3 + W_max,
 * K = cbrt(W_max (1 - beta) / C), C = 0.4, beta = 0.7; t is the time since
 * the epoch began plus the minimum RTT (the window one RTT ahead). Each ACK
 * moves cwnd toward W_cubic(t) (cwnd/(target - cwnd) ACKs per segment); the
 * Reno-friendly estimate W_est = W_max beta + 3 (1 - beta)/(1 + beta) t/RTT
 * keeps it at least as fast as Reno; fast convergence releases bandwidth.
 * Time runs in units of 2^-10 s; windows in segments. Loss recovery: SACK
 * (RFC 6675) as in Linux, NewReno when SACK is not negotiated.
 */
#include "tcp.h"
#include "tcp_priv.h"

#define CUBIC_BETA_SCALE	1024
#define CUBIC_BETA		717	/* 0.7 */
#define CUBIC_C_SCALED		410	/* C = 410 / 1024 = 0.4 */
#define CUBIC_HZ		10	/* time unit 2^-10 s */
/* K^3 = (W_max - cwnd) / C, in (2^-10 s)^3: (W_max - cwnd) * 2^40 / 410 */
#define CUBIC_FACTOR		((1ull << (10 + 3 * CUBIC_HZ)) / CUBIC_C_SCALED)
/* Reno-friendly slope: one segment per cwnd*8/(3(1-b)/(1+b)*8) ACKed segments */
#define CUBIC_FRIENDLY_SCALE	(8 * (CUBIC_BETA_SCALE + CUBIC_BETA) / 3 / \
				(CUBIC_BETA_SCALE - CUBIC_BETA))

struct cubic {
	uint32_t cnt;		/* ACKed segments per cwnd increment */
	uint32_t last_max;	/* W_max, segments */
	uint32_t origin;	/* origin point, segments */
	uint32_t tcp_cwnd;	/* Reno-friendly estimate, segments */
	uint32_t ack_cnt;	/* segments ACKed this epoch (friendliness) */
	uint64_t k;		/* K in 2^-10 s */
	uint64_t epoch;		/* ns, 0: no epoch */
};

_Static_assert(sizeof(struct cubic) <= sizeof(((struct tcp_cc *)0)->priv),
		"cubic state too large");

static void
cubic_init(struct tcp_cc *cc, uint64_t now)
{
	struct cubic *c = (struct cubic *)cc->priv;

	(void)now;
	*c = (struct cubic){ 0 };
}

static void
cubic_update(struct tcp_cc *cc, struct cubic *c, uint32_t acked_segs, uint64_t now)
{
	uint32_t cwnd = cc->cwnd / cc->mss, target, delta_w;
	uint64_t t, offs, delta;

	c->ack_cnt += acked_segs;
	if (c->epoch == 0) {
		c->epoch = now ? now : 1;
		c->ack_cnt = acked_segs;
		c->tcp_cwnd = cwnd;
		if (c->last_max <= cwnd) {
			c->k = 0;
			c->origin = cwnd;
		} else {
			c->k = tcp_cbrt64(CUBIC_FACTOR * (uint64_t)(c->last_max - cwnd));
			c->origin = c->last_max;
		}
	}
	/* t = elapsed + min RTT, in 2^-10 s */
	t = ((now - c->epoch) + cc->rtt_min_ns) * 1024 / 1000000000ull;
	offs = t < c->k ? c->k - t : t - c->k;
	if (offs > (1u << 17))
		offs = 1u << 17;
	delta = (CUBIC_C_SCALED * offs * offs * offs) >> (10 + 3 * CUBIC_HZ);
	if (t < c->k)
		target = delta >= c->origin ? 1 : c->origin - (uint32_t)delta;
	else
		target = (uint32_t)tcp_min64((uint64_t)c->origin + delta, 1u << 30);
	if (target > cwnd)
		c->cnt = cwnd / (target - cwnd);
	else
		c->cnt = 100 * cwnd;	/* very slow growth at the plateau */
	if (c->last_max == 0 && c->cnt > 20)
		c->cnt = 20;
	/* Reno-friendly region */
	delta_w = (cwnd * CUBIC_FRIENDLY_SCALE) >> 3;
	if (delta_w == 0)
		delta_w = 1;
	while (c->ack_cnt > delta_w) {
		c->ack_cnt -= delta_w;
		c->tcp_cwnd++;
	}
	if (c->tcp_cwnd > cwnd) {
		uint32_t max_cnt = cwnd / (c->tcp_cwnd - cwnd);

		if (c->cnt > max_cnt)
			c->cnt = max_cnt;
	}
	if (c->cnt < 2)
		c->cnt = 2;	/* at most 1.5x per RTT */
}

static void
cubic_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct cubic *c = (struct cubic *)cc->priv;

	if (cc->cwnd < cc->ssthresh) {
		tcp_cc_reno_grow(cc, a->acked);
		return;
	}
	cubic_update(cc, c, (a->acked + cc->mss - 1) / cc->mss, a->now);
	/* credit piled up under a larger cnt is applied gently (as Linux
	 * tcp_cong_avoid_ai): one segment, then start over */
	if (cc->ca_acc >= c->cnt * cc->mss) {
		cc->ca_acc = 0;
		cc->cwnd += cc->mss;
	}
	cc->ca_acc += a->acked;
	while (cc->ca_acc >= c->cnt * cc->mss) {
		cc->ca_acc -= c->cnt * cc->mss;
		cc->cwnd += cc->mss;
	}
}

static uint32_t
cubic_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	struct cubic *c = (struct cubic *)cc->priv;
	uint32_t w = cc->cwnd / cc->mss;

	(void)now;
	c->epoch = 0;
	if (w < c->last_max)	/* fast convergence */
		c->last_max = w * (CUBIC_BETA_SCALE + CUBIC_BETA) / (2 * CUBIC_BETA_SCALE);
	else
		c->last_max = w;
	return tcp_max32(w * CUBIC_BETA / CUBIC_BETA_SCALE, 2) * cc->mss;
}

static void
cubic_on_timeout(struct tcp_cc *cc, uint64_t now)
{
	struct cubic *c = (struct cubic *)cc->priv;

	(void)now;
	c->epoch = 0;
}

void
tcp_cubic_info(const struct tcp_cc *cc, struct tcp_cubic_info *ci)
{
	const struct cubic *c = (const struct cubic *)cc->priv;

	ci->w_max = c->last_max;
	ci->k_ms = c->k * 1000 / 1024;
	ci->epoch_ns = c->epoch;
}

const struct tcp_cc_ops tcp_cc_cubic = {
	.name = "cubic",
	.help = "CUBIC: W(t) = C (t - K)^3 + W_max, beta 0.7 (RFC 9438)",
	.recovery = TCP_REC_SACK,	/* NewReno when SACK is not negotiated */
	.init = cubic_init,
	.cong_avoid = cubic_cong_avoid,
	.ssthresh = cubic_ssthresh,
	.on_timeout = cubic_on_timeout,
};
