/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * DFCP sender: the loss model fed by the receiver's loss reports (extended
 * reports, DFCP_F_XR), the sizes of first rounds and top-ups it gives, the
 * rounds sent (to check and use each report), the rounds whose report did
 * not come, and the rate cap from the receiver's hints. Integer only.
 * doc/protocol.md, "Loss reports" and "Auto redundancy".
 */
#include <stdint.h>

#include "dfcp.h"
#include "dfcp_priv.h"

#define Q16		65536u
#define LOSS_CAP_Q16	58982u		/* 0.9: sizes stop growing */
#define LOSS_WIN	1024u		/* packets: memory of the loss estimate */
#define LOSS_MIN_SPAN	16u		/* packets per estimate update */
#define SAMPLE_SHIFT	4		/* first-round statistics: gain 1/16 */
#define SAMPLE_PRIOR	4u		/* phi 1, bias 0 weigh as this many samples */
#define BIAS_MAX_Q16	(Q16 / 8)	/* first rounds' delivery within q +- 1/8 */
#define PHI_MAX_Q16	(16u * Q16)	/* dispersion samples clipped at 16 */
#define Z_FIRST_Q16	Q16		/* first round: mean - 1 sd >= K */
#define Z_TOPUP_Q16	(Q16 / 2)	/* top-up: mean - sd / 2 >= missing + 1 */
#define AUTO_Z_Q8	256u		/* version 1: mean - z sd >= K, z = 1 (Q8) */
#define SYM_CAP		65535u
#define FIRST_BUDGET_8THS	5u	/* first rounds: the budget below 5/8 of the window */
#define FIRST_MEAN_8THS		7u	/* ... N q = K below 7/8, else the margin rule */
#define CAP_BURST	32u		/* rate cap: packets of credit at least */
#define CAP_CATCHUP_NS	10000000ull	/* rate cap: credit kept over a stall */
#define CAP_RELEASE_NS	200000000ull	/* rate cap: ends after this long without loss */
#define CAP_MIN_PPS	1000u		/* rate cap: never below */
#define NS		1000000000ull
#define PAUSE_NS	200000ull	/* a round paused this long: below round_idle's 250 us */

/* ------------------------------------------------------------------ */
/* sizes                                                                */
/* ------------------------------------------------------------------ */

/*
 * The smallest N such that N qe - need >= z sqrt(phi N p q + f), qe = q +
 * bias: the arrivals expected of N symbols (at the delivery rate first
 * rounds actually see) less z standard deviations of their spread (phi
 * times the binomial one; f = min(1, 16 p) symbols^2 at least, so that a
 * nearly deterministic loss still gets one symbol of margin) cover need. phi = 1, bias =
 * 0 is independent loss; the rate-driven loss of an overflowing drop-tail
 * queue has phi well below 1, bursty loss above.
 */
uint32_t
dfcp_model_symbols(uint32_t need, uint32_t loss_q16, int32_t bias_q16, uint32_t phi_q16,
		uint32_t z_q16, uint32_t cap)
{
	uint64_t p, q, n;
	unsigned __int128 floor;
	int64_t qe;

	if (need == 0)
		return 0;
	p = loss_q16 > LOSS_CAP_Q16 ? LOSS_CAP_Q16 : loss_q16;
	/* f: one symbol of spread at least once the loss is 1/16, less below */
	floor = (unsigned __int128)(p >= Q16 / 16 ? Q16 : 16 * p) << 32;
	q = Q16 - p;
	qe = (int64_t)q + bias_q16;
	if (qe < (int64_t)(Q16 / 16))
		qe = Q16 / 16;
	if (qe > (int64_t)Q16)
		qe = Q16;
	n = ((uint64_t)need * Q16 + (uint64_t)qe - 1) / (uint64_t)qe;
	for (; n < cap; n++) {
		uint64_t a = n * (uint64_t)qe, b = (uint64_t)need * Q16;
		unsigned __int128 lhs, rhs, var;

		if (a < b)
			continue;
		/* (a - b)^2 >= z^2 (phi n p q + f): both sides in Q80 */
		var = (unsigned __int128)phi_q16 * n * p * q + floor;
		lhs = (unsigned __int128)(a - b) * (a - b) << 48;
		rhs = (unsigned __int128)z_q16 * z_q16 * var;
		if (lhs >= rhs)
			break;
	}
	return n > cap ? cap : (uint32_t)n;
}

/*
 * Version 1 (no reports), first round: the smallest N such that, with
 * independent loss p, the received count X ~ Bin(N, q), q = 1 - p, satisfies
 * E[X] - z sd(X) >= need, i.e. N q - need >= z sqrt(N p q), z = 1 (~85-95 %
 * of blocks decode on the first pass; the rest get an exact top-up, which
 * costs an RTT, not excess: doc/protocol.md, "Auto redundancy").
 */
uint32_t
dfcp_auto_symbols(uint32_t need, uint32_t loss_q16, uint32_t cap)
{
	uint64_t p, q, n;

	if (need == 0)
		return 0;
	p = loss_q16 > LOSS_CAP_Q16 ? LOSS_CAP_Q16 : loss_q16;
	q = Q16 - p;
	n = ((uint64_t)need * Q16 + q - 1) / q;
	if (n < need)
		n = need;
	for (; n < cap; n++) {
		uint64_t a = n * q, b = (uint64_t)need * Q16;
		unsigned __int128 lhs, rhs;

		if (a < b)
			continue;
		/* (a - b)^2 >= z^2 n p q, all in Q32; z in Q8 */
		lhs = (unsigned __int128)(a - b) * (a - b) << 16;
		rhs = (unsigned __int128)AUTO_Z_Q8 * AUTO_Z_Q8 * n * p * q;
		if (lhs >= rhs)
			break;
	}
	return n > cap ? cap : (uint32_t)n;
}

/* Packets of a block's first round: the fixed redundancy, or auto. */
uint32_t
dfcp_first_round_syms(const struct dfcp_conn *c)
{
	if (c->p.redundancy != DFCP_REDUNDANCY_AUTO)
		return c->p.redundancy;
	if (c->p.flags & DFCP_F_XR)
		return dfcp_first_syms_model(c);
	return dfcp_auto_symbols(c->p.K, c->loss_q16, SYM_CAP);
}

/*
 * The capacity budget (dfcp_budget.c) sizes rounds while the loss looks
 * independent (dispersion 1/2 or more: not a queue's overflow, whose
 * rounds the margin rule below fits) and no rate cap holds the sender.
 */
int
dfcp_budget_on(const struct dfcp_conn *c)
{
	return (c->p.flags & DFCP_F_XR) && c->p.redundancy == DFCP_REDUNDANCY_AUTO &&
		c->lm.phi_q16 >= Q16 / 2 && c->cap_pps == 0;
}

/*
 * A block's top-ups and probes: the budget, but not for one of the
 * window's oldest sixteenth while the window is half full: such a block
 * holds the window (it counts from the oldest block not acked), and a
 * margin finishes it sooner. (Capping the rounds a block gets under the
 * budget instead costs efficiency: at 30 % loss a 1-symbol round is lost
 * whole 3 times in 10, and 6 rounds are not rare.)
 */
int
dfcp_budget_slot(const struct dfcp_conn *c, const struct tx_slot *s)
{
	uint32_t inflight = c->snd_next - c->snd_base;

	if (!dfcp_budget_on(c))
		return 0;
	return !((uint64_t)inflight * 2u >= c->W &&
			(uint64_t)(s->block - c->snd_base) * 16u < c->W);
}

/*
 * First rounds: the budget while the window has room for a block's few
 * rounds (under 5/8 of it in flight); with more the margin rule, at z = 0
 * (N q = K: half the blocks in one round) up to 7/8 and z = 1 beyond: a
 * block that takes one round frees the window sooner.
 */
uint32_t
dfcp_first_syms_model(const struct dfcp_conn *c)
{
	uint64_t inflight = (uint64_t)(c->snd_next - c->snd_base) * 8u;
	int on = dfcp_budget_on(c);

	if (on && inflight < (uint64_t)c->W * FIRST_BUDGET_8THS)
		return dfcp_budget_syms(c->p.K, dfcp_budget_loss_lo(&c->lm), SYM_CAP);
	return dfcp_model_symbols(c->p.K, c->loss_q16, c->lm.bias_q16, c->lm.phi_q16,
			on && inflight < (uint64_t)c->W * FIRST_MEAN_8THS ? 0 : Z_FIRST_Q16, SYM_CAP);
}

/*
 * A top-up of slot s for need arrivals: the capacity budget (need is then
 * the shortfall itself), else missing + 1 arrivals (the one for a decode
 * that fails on exactly K symbols) with half a spread of margin. Without
 * loss reports the model is the plain binomial at the estimate (phi 1, no
 * bias) and no margin: ceil(need / q).
 */
uint32_t
dfcp_topup_syms(const struct dfcp_conn *c, const struct tx_slot *s, uint32_t need)
{
	uint64_t q, n;

	if (dfcp_budget_slot(c, s))
		return dfcp_budget_syms(need, dfcp_budget_loss_lo(&c->lm), SYM_CAP);
	if (c->p.flags & DFCP_F_XR)
		return dfcp_model_symbols(need, c->loss_q16, c->lm.bias_q16, c->lm.phi_q16,
				Z_TOPUP_Q16, SYM_CAP);
	q = Q16 - (c->loss_q16 > LOSS_CAP_Q16 ? LOSS_CAP_Q16 : c->loss_q16);
	n = ((uint64_t)need * Q16 + q - 1) / q;
	if (n < need)
		n = need;
	return n > SYM_CAP ? SYM_CAP : (uint32_t)n;
}

/* ------------------------------------------------------------------ */
/* rounds sent                                                          */
/* ------------------------------------------------------------------ */

void
dfcp_model_round(struct dfcp_conn *c, uint32_t block, uint32_t seq, uint32_t len,
		int first, uint64_t now)
{
	struct rnd_ent *e;

	if (c->rnd == NULL)
		return;
	/* a waiting round about to be overwritten: its block keeps its timer */
	if (c->rnd_count - c->wait_head > c->rnd_mask)
		c->wait_head = c->rnd_count - c->rnd_mask;
	e = &c->rnd[c->rnd_count & c->rnd_mask];
	e->seq = seq;
	e->block = block;
	e->len = (uint16_t)len;
	e->first = (uint8_t)first;
	e->sampled = 0;
	e->timed = 0;
	e->paused = 0;
	e->pause_seq = 0;
	e->t_end = 0;
	e->t_last = now;
	c->rnd_count++;
}

/*
 * A later packet (seq) of slot s's round goes out at now: after a pause
 * of PAUSE_NS or more (the lcore was descheduled, the rate held it back)
 * the receiver may end the round by its idle time before this packet
 * arrives.
 */
void
dfcp_model_round_pkt(struct dfcp_conn *c, const struct tx_slot *s, uint32_t seq, uint64_t now)
{
	struct rnd_ent *e;

	if (c->rnd == NULL)
		return;
	e = &c->rnd[s->rnd_idx & c->rnd_mask];
	if (e->block != s->block)
		return;
	if (now - e->t_last >= PAUSE_NS) {
		e->paused = 1;
		e->pause_seq = seq;
	}
	e->t_last = now;
}

/* The latest round of slot s, or NULL (its entry was reused). */
const struct rnd_ent *
dfcp_model_slot_round(const struct dfcp_conn *c, const struct tx_slot *s)
{
	const struct rnd_ent *e;

	if (c->rnd == NULL)
		return NULL;
	e = &c->rnd[s->rnd_idx & c->rnd_mask];
	return e->block == s->block && e->seq + e->len == s->rnd_end ? e : NULL;
}

/* The round of slot s has gone out whole at now. */
void
dfcp_model_round_done(struct dfcp_conn *c, const struct tx_slot *s, uint64_t now)
{
	struct rnd_ent *e;

	if (c->rnd == NULL)
		return;
	e = &c->rnd[s->rnd_idx & c->rnd_mask];
	if (e->block == s->block && e->seq + e->len == s->rnd_end)
		e->t_end = now;
}

/*
 * The round of the ring that starts at seq, or NULL (never sent, or too
 * old). Rounds are in seq order: a binary search (a report cannot make the
 * sender scan the ring).
 */
static struct rnd_ent *
round_find(struct dfcp_conn *c, uint32_t seq)
{
	uint32_t n = c->rnd_count < c->rnd_mask + 1 ? c->rnd_count : c->rnd_mask + 1;
	uint32_t lo = c->rnd_count - n, hi = c->rnd_count, base;

	if (n == 0)
		return NULL;
	base = c->rnd[lo & c->rnd_mask].seq;
	/* seqs relative to the oldest round kept: increasing along the ring */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		struct rnd_ent *e = &c->rnd[mid & c->rnd_mask];

		if (e->seq - base == seq - base)
			return e;
		if (e->seq - base < seq - base)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Every round ends in a report (DECODED or SHORT), sent in the order the
 * rounds ended. A report about a round that started after round R ended
 * means R's report is lost, or R was lost whole: R's block, if it still
 * waits on that round, gets its probe now instead of at its timer.
 */
void
dfcp_model_passed(struct dfcp_conn *c, const struct dfcp_pkt *pkt)
{
	uint32_t seq = pkt->u.back.rnd_seq;

	if (!(pkt->flags & DFCP_F_RPT) || pkt->u.back.rnd_len == 0 || c->rnd == NULL)
		return;
	while (c->wait_head != c->rnd_count) {
		const struct rnd_ent *e = &c->rnd[c->wait_head & c->rnd_mask];
		uint32_t b = e->block;
		struct tx_slot *s;

		if ((int32_t)(seq - (e->seq + e->len)) < 0)
			break;
		c->wait_head++;
		if ((int32_t)(b - c->snd_base) < 0 || (int32_t)(b - c->snd_next) >= 0)
			continue;
		s = &c->tx[b % c->W];
		if (s->state != TX_ACTIVE || s->block != b || s->deadline == 0 ||
				s->rnd_end != e->seq + e->len)
			continue;
		c->st.implicit_topups++;
		dfcp_sender_probe(c, s);
	}
}

/* ------------------------------------------------------------------ */
/* loss reports                                                         */
/* ------------------------------------------------------------------ */

static void
loss_update(struct loss_model *lm, uint64_t span, int64_t lost)
{
	uint64_t sample, w;

	lm->acc_seq += span;
	lm->acc_lost += lost;
	if (lm->acc_seq < LOSS_MIN_SPAN)
		return;
	/*
	 * Late arrivals (reordering) count as lost until they come, then make a
	 * later interval's count negative: what does not fit this interval is
	 * carried to the next one, so that the sum stays right.
	 */
	w = lm->acc_seq;
	lm->acc_seq = 0;
	if (lm->acc_lost < 0) {
		sample = 0;
	} else if ((uint64_t)lm->acc_lost > w) {
		sample = Q16;
		lm->acc_lost -= (int64_t)w;
	} else {
		sample = (uint64_t)lm->acc_lost * Q16 / w;
		lm->acc_lost = 0;
	}
	if (lm->total < LOSS_WIN) {
		/* the first window: the plain average of everything seen */
		uint64_t t = lm->total + w;

		lm->loss_q16 = (uint32_t)((lm->loss_q16 * lm->total + sample * w) / t);
		lm->total = t;
		return;
	}
	if (w > LOSS_WIN)
		w = LOSS_WIN;
	lm->loss_q16 = (uint32_t)((int64_t)lm->loss_q16 +
			((int64_t)sample - (int64_t)lm->loss_q16) * (int64_t)w / LOSS_WIN);
	lm->total += w;
}

/*
 * A first round of n packets delivered x: its residual from the current
 * estimate gives the bias of first rounds (mean of (x - q n) / n) and their
 * dispersion (mean of the squared residual over the binomial variance).
 */
static void
first_sample(struct loss_model *lm, uint32_t n, uint32_t x)
{
	uint64_t p = lm->loss_q16, q = Q16 - p, var;
	int64_t r = (int64_t)x * Q16 - (int64_t)(n * q), rc, bias, phi, g;

	if (n == 0 || lm->total < LOSS_MIN_SPAN)
		return;
	bias = r / (int64_t)n;
	if (bias > (int64_t)BIAS_MAX_Q16)
		bias = BIAS_MAX_Q16;
	if (bias < -(int64_t)BIAS_MAX_Q16)
		bias = -(int64_t)BIAS_MAX_Q16;
	lm->nsamples++;
	g = lm->nsamples + SAMPLE_PRIOR < (1u << SAMPLE_SHIFT) ?
		lm->nsamples + SAMPLE_PRIOR : (1u << SAMPLE_SHIFT);
	lm->bias_q16 += (int32_t)((bias - lm->bias_q16) / g);
	var = (uint64_t)n * p * q >> 16;	/* Q16 symbols^2 */
	if (var < Q16 / 4)
		return;		/* almost no loss: nothing to learn about the spread */
	rc = r - (int64_t)lm->bias_q16 * n;
	phi = (int64_t)((unsigned __int128)((__int128)rc * rc) / var);	/* Q16 */
	if (phi > (int64_t)PHI_MAX_Q16)
		phi = PHI_MAX_Q16;
	lm->phi_q16 = (uint32_t)((int64_t)lm->phi_q16 + (phi - (int64_t)lm->phi_q16) / g);
}

/*
 * A report that was made before round e could have arrived whole: the
 * round is still going out; it paused and the receiver had seen nothing
 * from the pause on (seq_next, the highest seq it had + 1: its idle time
 * ended the round while the sender was stopped); or the report came sooner
 * than 7/8 of the least RTT after the round's last packet went out. What it
 * counted is not what the round delivered: no top-up, no first-round
 * sample. The rest of the round reopens it at the receiver, whose end
 * brings another report (if that rest is lost, the next round's report
 * passes it: dfcp_model_passed; the block timer stays the last resort).
 */
int
dfcp_model_early(const struct dfcp_conn *c, const struct rnd_ent *e,
		const struct dfcp_pkt *pkt, uint64_t now)
{
	if (e->t_end == 0)
		return 1;
	if (e->paused && (pkt->flags & DFCP_F_RPT) &&
			(int32_t)(pkt->u.back.seq_next - e->pause_seq) <= 0)
		return 1;
	return c->min_rtt != 0 && now < e->t_end + c->min_rtt - c->min_rtt / 8;
}

static void cap_update(struct dfcp_conn *c, uint64_t now);

/*
 * Check a loss report against what was sent (a peer may lie: the report
 * can only describe packets we sent, received <= sent, never fewer
 * received than before), then update the estimate, the first-round
 * statistics and the rate cap. A report older than the last one accepted
 * (the reverse path reordered them) is ignored.
 */
int
dfcp_model_report(struct dfcp_conn *c, const struct dfcp_pkt *pkt, uint64_t now)
{
	const struct dfcp_back *r = &pkt->u.back;
	struct loss_model *lm = &c->lm;
	uint32_t back = c->snd_seq - r->seq_next, lost = r->seq_next - r->rx_pkts;
	struct rnd_ent *e = NULL;
	uint64_t seq64, rx64;

	if (!(pkt->flags & DFCP_F_RPT) || !(c->p.flags & DFCP_F_XR))
		return 0;
	if (back > c->snd_seq64 || lost > c->snd_seq64 - back)
		return -DFCP_E_REPORT;
	seq64 = c->snd_seq64 - back;
	rx64 = seq64 - lost;
	if (lm->have && seq64 < lm->seq64)
		return 0;
	if (lm->have && rx64 < lm->rx64)
		return -DFCP_E_REPORT;
	if (r->rnd_len != 0) {
		if ((int32_t)(c->snd_seq - r->rnd_seq) <= 0 ||
				r->rnd_rcvd > c->snd_seq - r->rnd_seq)
			return -DFCP_E_REPORT;	/* a round not sent (yet) */
		e = round_find(c, r->rnd_seq);
		if (e != NULL && e->len != r->rnd_len)
			return -DFCP_E_REPORT;
	}
	/*
	 * The round's residual against the estimate before this report: the
	 * report's own packets move it (a round of 400 is 0.4 of the EWMA),
	 * and a residual taken after would shrink by that much, its square
	 * (the dispersion) by its square.
	 */
	if (e != NULL && e->first && !e->sampled) {
		/* an idle end that came too soon: the round's real end samples it */
		if (r->rnd_end != DFCP_END_IDLE || !dfcp_model_early(c, e, pkt, now)) {
			e->sampled = 1;
			first_sample(lm, e->len, r->rnd_rcvd);
		}
	}
	if (lm->have)
		loss_update(lm, seq64 - lm->seq64,
				(int64_t)(seq64 - rx64) - (int64_t)(lm->seq64 - lm->rx64));
	else
		loss_update(lm, seq64, (int64_t)(seq64 - rx64));
	/*
	 * RTT: a round whose last packet ended it was reported as soon as
	 * that packet arrived. Each round has its own seqs: no ambiguity
	 * after a top-up (Karn), a sample per round.
	 */
	if (e != NULL && !e->timed && e->t_end != 0 && r->rnd_end == DFCP_END_LAST &&
			now >= e->t_end) {
		e->timed = 1;
		dfcp_rtt_sample(c, now - e->t_end);
	}
	lm->have = 1;
	c->last_rpt = now;
	c->rto_backoff = 0;
	lm->seq64 = seq64;
	lm->rx64 = rx64;
	c->loss_q16 = lm->loss_q16;
	c->st.reports++;
	if (c->p.flags & DFCP_F_RHINT) {
		c->hint_pps = r->rate;
		cap_update(c, now);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* rate cap                                                             */
/* ------------------------------------------------------------------ */

/*
 * Dead packets: a sender faster than a downstream bottleneck sends what the
 * bottleneck drops. With hints on, the receiver reports the rate DATA
 * arrives at (over the last 50 ms, in two windows of 25 ms); while the
 * path shows a standing queue (srtt above the least RTT by 1/16 of it, 0.5
 * ms at least) and losses (over 1/32), the loss is that queue overflowing,
 * and the sender caps its DATA rate at 9/8 of the arrival rate: it keeps
 * probing 1/8 above what gets through (a freed link is found again at 9/8
 * per window), the rest is not sent. The cap stays until the losses stop
 * (the estimate under 1/64 for 200 ms): neither a queue that an lcore's
 * stall drained for a moment nor the loss-free reports after it end it;
 * random loss on a path without a queue never sets it.
 */
static void
cap_update(struct dfcp_conn *c, uint64_t now)
{
	uint64_t qd = c->min_rtt / 16 > 500000u ? c->min_rtt / 16 : 500000u, cap;

	if (c->cap_pps != 0 && c->loss_q16 < Q16 / 64) {
		if (c->cap_low == 0)
			c->cap_low = now;
		if (now - c->cap_low >= CAP_RELEASE_NS)
			c->cap_pps = 0;
		return;
	}
	c->cap_low = 0;
	if (!c->conf.rate_hint || c->hint_pps == 0 || c->min_rtt == 0 ||
			(c->cap_pps == 0 && (c->loss_q16 < Q16 / 32 ||
			c->srtt < c->min_rtt + qd))) {
		c->cap_pps = 0;
		return;
	}
	cap = c->hint_pps + c->hint_pps / 8;
	if (cap < CAP_MIN_PPS)
		cap = CAP_MIN_PPS;
	if (c->cap_pps == 0) {
		c->cap_tokens = (uint64_t)CAP_BURST * Q16;
		c->cap_last = now;
		/* what arrives stays, what is sent shrinks: the loss becomes 1/9 */
		if (c->lm.loss_q16 > Q16 / 9)
			c->lm.loss_q16 = c->loss_q16 = Q16 / 9;
	}
	c->cap_pps = cap;
	/* credit (cap_refill): what the cap lets out over CAP_CATCHUP_NS, CAP_BURST at least */
	c->cap_max = cap * CAP_CATCHUP_NS / NS;
	if (c->cap_max < CAP_BURST)
		c->cap_max = CAP_BURST;
	c->cap_max *= Q16;
}

/*
 * Credit: at most what the cap lets out over CAP_CATCHUP_NS (32 packets at
 * least; cap_max, set with the cap), so that a sender descheduled that long
 * makes it up afterwards as its pacer does, instead of the hint then
 * following the dip down.
 */
static void
cap_refill(struct dfcp_conn *c, uint64_t now)
{
	uint64_t dt = now > c->cap_last ? now - c->cap_last : 0;

	if (dt > NS)
		dt = NS;
	c->cap_last = now;
	c->cap_tokens += (uint64_t)(((unsigned __int128)dt * c->cap_pps * Q16) / NS);
	if (c->cap_tokens > c->cap_max)
		c->cap_tokens = c->cap_max;
}

unsigned int
dfcp_cap_allow(struct dfcp_conn *c, uint64_t now, unsigned int n)
{
	uint64_t k;

	if (c->cap_pps == 0)
		return n;
	cap_refill(c, now);
	k = c->cap_tokens / Q16;
	if (k < n) {
		c->st.rate_capped++;
		return (unsigned int)k;
	}
	return n;
}

void
dfcp_cap_charge(struct dfcp_conn *c, unsigned int k)
{
	uint64_t t = (uint64_t)k * Q16;

	if (c->cap_pps == 0)
		return;
	c->cap_tokens = c->cap_tokens > t ? c->cap_tokens - t : 0;
}

/* When the cap lets the next DATA frame out (now if no cap). */
uint64_t
dfcp_cap_next(const struct dfcp_conn *c, uint64_t now)
{
	uint64_t have, dt;

	if (c->cap_pps == 0)
		return now;
	dt = now > c->cap_last ? now - c->cap_last : 0;
	have = c->cap_tokens + (uint64_t)(((unsigned __int128)dt * c->cap_pps * Q16) / NS);
	if (have >= Q16)
		return now;
	return now + ((Q16 - have) * NS + (uint64_t)c->cap_pps * Q16 - 1) /
		((uint64_t)c->cap_pps * Q16);
}
