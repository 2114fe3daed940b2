/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * TCPW-C: TCP Westwood with CAPPROBE capacity estimation (seed 001).
 *
 * The receiver answers every two full segments with two back-to-back ACKs,
 * the second (assistant) marked with TCP_RSV_PAIR in the reserved bits.
 * The probe pair is the two DATA segments those ACKs acknowledge: the
 * receiver stamps the standard ACK with TSval = the first segment's arrival
 * (echoing its TSval) and the assistant with the second's, so the sender
 * reads the pair's dispersion behind the bottleneck as the TSval difference.
 * (The ACKs leave back to back; their own arrival gap at the sender only
 * measures the return path, which on the seed-001 emulation is unshaped.)
 * Delay sum = the two ACKs' delays since the echoed send times (the sum of
 * the two segments' one-way delays plus constants). A pair whose segments
 * left the sender farther apart than half their dispersion measures the
 * sender, not the bottleneck, and is not recorded. On a loss event (three
 * duplicate standard ACKs or a timeout) it takes the pair with the minimum
 * delay sum (CAPPROBE: the pair least disturbed by cross traffic),
 * estimates the capacity as L / dispersion with L the second segment's
 * payload (one full segment: the rate in payload bytes, what
 * ssthresh = BW * RTTmin / segment needs), clears the table and applies
 * Westwood's rule. Without pairs (no timestamps, peer without the option)
 * it falls back to the Westwood+ estimate.
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

#define PAIRS_MAX	32

struct pair_smp {
	uint32_t disp_ns;
	uint32_t len;
	uint64_t dsum_ns;
};

struct tcpwc {
	struct tcp_ww_est est;
	uint64_t cap_Bps;	/* last CAPPROBE estimate */
	uint64_t std_now;	/* last standard ACK: arrival, delay, ack */
	uint64_t std_delay;
	uint32_t std_ack;
	uint32_t std_tsval;	/* receiver's arrival stamp of the first segment */
	uint8_t have_std;
	uint8_t npairs;
	uint8_t next;		/* replacement cursor when full */
	struct pair_smp pairs[PAIRS_MAX];
};

_Static_assert(sizeof(struct tcpwc) <= sizeof(((struct tcp_cc *)0)->priv),
		"tcpw-c state too large");

static void
wc_init(struct tcp_cc *cc, uint64_t now)
{
	struct tcpwc *w = (struct tcpwc *)cc->priv;

	(void)now;
	memset(w, 0, sizeof(*w));
}

void
tcp_tcpwc_add_pair(struct tcp_cc *cc, uint64_t disp, uint64_t dsum, uint32_t len)
{
	struct tcpwc *w = (struct tcpwc *)cc->priv;
	struct pair_smp *p;

	if (disp == 0 || disp > UINT32_MAX || len == 0)
		return;
	if (w->npairs < PAIRS_MAX) {
		p = &w->pairs[w->npairs++];
	} else {
		/* full: replace the entry with the largest delay sum if the new
		 * one is smaller (the minimum is all that is ever used) */
		unsigned int worst = 0;

		for (unsigned int i = 1; i < PAIRS_MAX; i++)
			if (w->pairs[i].dsum_ns > w->pairs[worst].dsum_ns)
				worst = i;
		if (dsum >= w->pairs[worst].dsum_ns)
			return;
		p = &w->pairs[worst];
	}
	p->disp_ns = (uint32_t)disp;
	p->dsum_ns = dsum;
	p->len = len;
}

uint32_t
tcp_tcpwc_pairs(const struct tcp_cc *cc)
{
	return ((const struct tcpwc *)cc->priv)->npairs;
}

static void
wc_on_ack(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	struct tcpwc *w = (struct tcpwc *)cc->priv;

	tcp_ww_est_ack(&w->est, cc, a);
	if (!a->pair) {
		w->have_std = a->has_tsval && a->delay_ns;
		w->std_now = a->now;
		w->std_delay = a->delay_ns;
		w->std_ack = a->ack;
		w->std_tsval = a->tsval;
		return;
	}
	if (w->have_std && a->ack == w->std_ack && a->has_tsval && a->delay_ns) {
		/* dispersion of the data pair at the receiver (TS clock: us) */
		uint64_t disp = (uint64_t)(uint32_t)(a->tsval - w->std_tsval) * 1000u;
		/* their send gap at this end: (arrival - delay) = echoed send time */
		int64_t gap = (int64_t)(a->now - a->delay_ns) -
				(int64_t)(w->std_now - w->std_delay);

		if (disp > 0 && disp < 1000000000ull && 2 * gap <= (int64_t)disp)
			tcp_tcpwc_add_pair(cc, disp, w->std_delay + a->delay_ns, cc->mss);
	}
	w->have_std = 0;
}

/* CAPPROBE: capacity from the minimum delay-sum pair; resets the table. */
static void
wc_estimate(struct tcpwc *w)
{
	unsigned int best = 0;

	if (w->npairs == 0)
		return;
	for (unsigned int i = 1; i < w->npairs; i++)
		if (w->pairs[i].dsum_ns < w->pairs[best].dsum_ns)
			best = i;
	w->cap_Bps = (uint64_t)w->pairs[best].len * 1000000000ull /
			w->pairs[best].disp_ns;
	w->npairs = 0;
}

static uint32_t
wc_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	struct tcpwc *w = (struct tcpwc *)cc->priv;

	(void)now;
	wc_estimate(w);
	return tcp_ww_ssthresh(cc, w->cap_Bps ? w->cap_Bps : w->est.bw_Bps);
}

static void
wc_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	tcp_cc_reno_grow(cc, a->acked);
}

static void
wc_enter_recovery(struct tcp_cc *cc, uint64_t now)
{
	(void)now;
	if (cc->cwnd > cc->ssthresh + 3 * cc->mss)
		cc->cwnd = cc->ssthresh + 3 * cc->mss;
}

static uint64_t
wc_bw(const struct tcp_cc *cc)
{
	const struct tcpwc *w = (const struct tcpwc *)cc->priv;

	return (w->cap_Bps ? w->cap_Bps : w->est.bw_Bps) * 8;
}

const struct tcp_cc_ops tcp_cc_tcpwc = {
	.name = "tcpw-c",
	.help = "TCPW-C: Westwood with CAPPROBE ACK-pair capacity estimates (seed 001)",
	.recovery = TCP_REC_NEWRENO,
	.flags = TCP_CC_F_PAIR_ACKS,
	.init = wc_init,
	.on_ack = wc_on_ack,
	.cong_avoid = wc_cong_avoid,
	.ssthresh = wc_ssthresh,
	.enter_recovery = wc_enter_recovery,
	.bw_bps = wc_bw,
};
