/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * CUBIC (RFC 9438, formerly RFC 8312) as Linux's tcp_cubic.c runs it: after
 * a loss at W_max, W_cubic(t) = C (t - K)^3 + W_max, K = cbrt(W_max (1 -
 * beta) / C), C = 0.4, beta = 0.7; t is the time since the epoch began plus
 * the minimum RTT (the window one RTT ahead). Each ACK moves cwnd toward
 * W_cubic(t) (cwnd/(target - cwnd) ACKs per segment); the Reno-friendly
 * estimate W_est = W_max beta + 3 (1 - beta)/(1 + beta) t/RTT keeps it at
 * least as fast as Reno; fast convergence releases bandwidth. Time runs in
 * units of 2^-10 s; windows in segments.
 *
 * Linux's clock and update rule are kept because they shape CUBIC at short
 * RTTs: the epoch and t count jiffies (tcp_cubic_hz, 250 as Linux's default
 * CONFIG_HZ), and the per-ACK increment (cnt) is recomputed at most once per
 * jiffy and, while cwnd does not change, at most every HZ/32 jiffies. With a
 * millisecond RTT and losses every few RTTs that holds cwnd near its value
 * after the reduction (Linux's CUBIC gets about half of Reno's goodput at 5 %
 * random loss and a sub-millisecond RTT). An RTO resets the state (W_max
 * forgotten), as Linux's CA_Loss.
 *
 * HyStart (Ha and Rhee 2008, Linux's hystart = 1, both detectors): in slow
 * start from 16 segments on, per round (a window of data), leave slow start
 * (ssthresh = cwnd) when the ACK train of the round spans more than
 * (delay_min + 1 ms) / 2, or when the round's minimum RTT over its first 8
 * samples exceeds delay_min + clamp(delay_min / 8, 4 ms, 16 ms). Only in the
 * first slow start and the one after an RTO; RTT samples within 1 s of an
 * epoch start are ignored (after a recovery).
 *
 * Loss recovery: SACK (RFC 6675, or RACK-TLP) as in Linux, NewReno when SACK
 * is not negotiated.
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

#define HYSTART_LOW_WINDOW	16		/* segments */
#define HYSTART_ACK_DELTA_NS	2000000ull	/* ACKs closer than this form a train */
#define HYSTART_ACK_DELAY_NS	1000000ull	/* Linux's cushion (TSO / GRO), 1 ms */
#define HYSTART_MIN_SAMPLES	8
#define HYSTART_DELAY_MIN_NS	4000000ull
#define HYSTART_DELAY_MAX_NS	16000000ull
#define HYSTART_SKIP_NS		1000000000ull	/* after an epoch start */

uint32_t tcp_cubic_hz = 250;
uint32_t tcp_cubic_hystart = 1;

struct cubic {
	uint32_t cnt;		/* ACKed segments per cwnd increment */
	uint32_t last_max;	/* W_max, segments */
	uint32_t last_cwnd;	/* cwnd at the last cnt update */
	uint32_t last_time;	/* jiffy of the last cnt update */
	uint32_t origin;	/* origin point, segments */
	uint32_t tcp_cwnd;	/* Reno-friendly estimate, segments */
	uint32_t ack_cnt;	/* segments ACKed this epoch (friendliness) */
	uint32_t epoch;		/* jiffy the epoch began */
	uint8_t in_epoch;
	uint64_t k;		/* K in 2^-10 s */
	/* HyStart */
	uint8_t found;		/* slow start exit found (until an RTO) */
	uint8_t samples, round_ok;
	uint32_t end_seq;	/* the round ends when this is acked */
	uint64_t round_start, last_ack;	/* ns */
	uint64_t curr_rtt, delay_min;	/* ns; curr_rtt 0: none yet */
};

_Static_assert(sizeof(struct cubic) <= sizeof(((struct tcp_cc *)0)->priv),
		"cubic state too large");

static uint64_t
jiffy_ns(void)
{
	return 1000000000ull / (tcp_cubic_hz ? tcp_cubic_hz : 250);
}

static uint32_t
jiffies(uint64_t now)
{
	return (uint32_t)(now / jiffy_ns());
}

static void
hystart_reset(struct tcp_cc *cc, struct cubic *c, uint64_t now)
{
	c->round_start = c->last_ack = now;
	c->end_seq = cc->snd_nxt;
	c->curr_rtt = 0;
	c->samples = 0;
	c->round_ok = 1;
}

static void
cubic_reset(struct tcp_cc *cc, struct cubic *c, uint64_t now)
{
	uint64_t dmin = c->delay_min;

	*c = (struct cubic){ 0 };
	c->delay_min = dmin;	/* a path property: Linux keeps it across resets too */
	hystart_reset(cc, c, now);
}

static void
cubic_init(struct tcp_cc *cc, uint64_t now)
{
	struct cubic *c = (struct cubic *)cc->priv;

	(void)now;
	*c = (struct cubic){ 0 };	/* the first round starts with the first ACK */
}

static void
hystart_update(struct tcp_cc *cc, struct cubic *c, uint32_t una, uint64_t delay,
		uint64_t now)
{
	uint64_t thresh;

	if (!c->round_ok || TCP_SEQ_GT(una, c->end_seq))
		hystart_reset(cc, c, now);
	if (cc->cwnd / cc->mss < HYSTART_LOW_WINDOW)
		return;
	/* ACK train: the round's ACKs keep coming closely spaced for longer
	 * than half the minimum RTT (no pacing: Linux halves the threshold) */
	if (now - c->last_ack <= HYSTART_ACK_DELTA_NS) {
		c->last_ack = now;
		thresh = (c->delay_min + HYSTART_ACK_DELAY_NS) / 2;
		if (now - c->round_start > thresh) {
			c->found = 1;
			cc->ssthresh = cc->cwnd;
		}
	}
	/* delay increase: the round's minimum RTT over 8 samples */
	if (c->curr_rtt == 0 || delay < c->curr_rtt)
		c->curr_rtt = delay;
	if (c->samples < HYSTART_MIN_SAMPLES) {
		c->samples++;
	} else {
		thresh = c->delay_min / 8;
		if (thresh < HYSTART_DELAY_MIN_NS)
			thresh = HYSTART_DELAY_MIN_NS;
		if (thresh > HYSTART_DELAY_MAX_NS)
			thresh = HYSTART_DELAY_MAX_NS;
		if (c->curr_rtt > c->delay_min + thresh) {
			c->found = 1;
			cc->ssthresh = cc->cwnd;
		}
	}
}

/* Every ACK (Linux's pkts_acked): the minimum delay and HyStart. */
static void
cubic_on_ack(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct cubic *c = (struct cubic *)cc->priv;

	if (a->rtt_ns == 0 || a->acked == 0)
		return;
	/* discard the samples right after a recovery */
	if (c->in_epoch && (uint64_t)(jiffies(a->now) - c->epoch) * jiffy_ns() <
			HYSTART_SKIP_NS)
		return;
	if (c->delay_min == 0 || a->rtt_ns < c->delay_min)
		c->delay_min = a->rtt_ns;
	if (!c->found && tcp_cubic_hystart && cc->cwnd < cc->ssthresh)
		hystart_update(cc, c, a->ack, a->rtt_ns, a->now);
}

static void
cubic_update(struct tcp_cc *cc, struct cubic *c, uint32_t acked_segs, uint64_t now)
{
	uint32_t cwnd = cc->cwnd / cc->mss, target, delta_w, j = jiffies(now);
	uint32_t hz = tcp_cubic_hz ? tcp_cubic_hz : 250;
	uint64_t t, offs, delta, dmin;

	c->ack_cnt += acked_segs;
	/* cnt holds while cwnd is unchanged, for up to HZ/32 jiffies */
	if (c->last_cwnd == cwnd && (int32_t)(j - c->last_time) <= (int32_t)(hz / 32))
		return;
	/* and is recomputed at most once per jiffy */
	if (c->in_epoch && j == c->last_time)
		goto friendliness;
	c->last_cwnd = cwnd;
	c->last_time = j;
	if (!c->in_epoch) {
		c->in_epoch = 1;
		c->epoch = j;
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
	/* t = elapsed + min RTT, in jiffies, then in 2^-10 s */
	dmin = c->delay_min ? c->delay_min : cc->rtt_min_ns;
	t = (uint64_t)(j - c->epoch) + (dmin + jiffy_ns() - 1) / jiffy_ns();
	t = (t << CUBIC_HZ) / hz;
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
friendliness:
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
	c->in_epoch = 0;
	if (w < c->last_max)	/* fast convergence */
		c->last_max = w * (CUBIC_BETA_SCALE + CUBIC_BETA) / (2 * CUBIC_BETA_SCALE);
	else
		c->last_max = w;
	return tcp_max32(w * CUBIC_BETA / CUBIC_BETA_SCALE, 2) * cc->mss;
}

static void
cubic_on_timeout(struct tcp_cc *cc, uint64_t now)
{
	cubic_reset(cc, (struct cubic *)cc->priv, now);
}

void
tcp_cubic_info(const struct tcp_cc *cc, struct tcp_cubic_info *ci)
{
	const struct cubic *c = (const struct cubic *)cc->priv;

	ci->w_max = c->last_max;
	ci->k_ms = c->k * 1000 / 1024;
	ci->epoch_ns = c->in_epoch ? (uint64_t)c->epoch * jiffy_ns() : 0;
	ci->hystart_found = c->found;
	ci->delay_min_ns = c->delay_min;
}

const struct tcp_cc_ops tcp_cc_cubic = {
	.name = "cubic",
	.help = "CUBIC: W(t) = C (t - K)^3 + W_max, beta 0.7 (RFC 9438), HyStart, as Linux",
	.recovery = TCP_REC_SACK,	/* NewReno when SACK is not negotiated */
	.init = cubic_init,
	.on_ack = cubic_on_ack,
	.cong_avoid = cubic_cong_avoid,
	.ssthresh = cubic_ssthresh,
	.on_timeout = cubic_on_timeout,
};
