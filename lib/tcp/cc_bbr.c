/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * BBR v1 (Cardwell et al., ACM Queue 2016; draft-cardwell-iccrg-bbr-
 * congestion-control-00), with the design of Linux's tcp_bbr.c. A model of
 * the path, not a reaction to loss:
 *
 * - BtlBw: the maximum delivery rate (the connection's rate samples,
 *   tcp_rate.c) over the last 10 round trips (Kathleen Nichols' windowed
 *   max filter: kept while no sample comes); app-limited samples only when
 *   they raise it. A round trip ends when a segment sent after the
 *   previous round's end is delivered.
 * - RTprop: the minimum RTT over 10 s.
 * - Pacing rate = pacing_gain x BtlBw (less a 1 % margin); cwnd =
 *   cwnd_gain x BDP + 3 send quanta (a quantum: ~1 ms at the pacing rate,
 *   at least 2 segments, at most 64 KB), rounded up to an even number of
 *   segments, at least 4 segments.
 * - STARTUP: both gains 2/ln 2 (2.885) until BtlBw grew less than 25 % in
 *   3 rounds in a row (not app-limited); DRAIN: pacing gain 1/2.885 until
 *   the data in flight is down to one BDP; PROBE_BW: the pacing gain cycles
 *   1.25, 0.75, 1 x 6, each phase one RTprop (the 1.25 phase longer until
 *   the flight reaches 1.25 BDP or a loss, the 0.75 phase shorter once it
 *   is down to one BDP), starting at a random phase other than 0.75, cwnd
 *   gain 2; PROBE_RTT: when RTprop is 10 s old, cwnd 4 segments for
 *   max(200 ms, one round) once the flight is down to them, then back.
 * - Before the first RTT sample the pacing rate is init_cwnd / 1 ms x
 *   2.885; until BtlBw is reached the rate never falls.
 * - Loss: no multiplicative decrease. Newly lost bytes leave cwnd; the
 *   first round of a recovery is packet conserving (cwnd = flight +
 *   delivered); on leaving recovery or an RTO's loss state cwnd returns to
 *   at least its value before.
 *
 * - ACK aggregation (Linux >= 4.20): cwnd also covers the most data an ACK
 *   burst delivered beyond what BtlBw explains (max over 5-10 rounds, at
 *   most 100 ms of BtlBw), once BtlBw is found.
 *
 * Not modelled: Linux's long-term (policer) bandwidth and the restart from
 * idle. The connection paces data at
 * cc->pacing_Bps (tcp_output.c) and hands every ACK's rate sample to
 * cong_control. Integer only.
 */
#include "tcp.h"
#include "tcp_priv.h"

#define BBR_UNIT		256
#define BBR_HIGH_GAIN		(BBR_UNIT * 2885 / 1000 + 1)	/* 2/ln 2 */
#define BBR_DRAIN_GAIN		(BBR_UNIT * 1000 / 2885)	/* its inverse */
#define BBR_CWND_GAIN		(2 * BBR_UNIT)
#define BBR_CYCLE_LEN		8
#define BBR_BW_RTTS		(BBR_CYCLE_LEN + 2)	/* BtlBw window, rounds */
#define BBR_MIN_RTT_WIN_NS	10000000000ull		/* RTprop window, 10 s */
#define BBR_PROBE_RTT_NS	200000000ull		/* 200 ms at 4 segments */
#define BBR_MIN_CWND_SEGS	4
#define BBR_INIT_CWND_SEGS	10	/* BDP before any RTT sample */
#define BBR_FULL_BW_THRESH	(BBR_UNIT * 5 / 4)	/* 25 % growth ... */
#define BBR_FULL_BW_CNT		3			/* ... in 3 rounds */
#define BBR_MARGIN_PCT		1	/* pacing below the estimate */
#define BBR_MIN_TSO_BPS		1200000ull	/* quanta of 2 segments from here */
#define BBR_GSO_MAX		65536u
#define BBR_AGG_WIN_RTTS	5	/* ACK aggregation: max over 5-10 rounds */
#define BBR_AGG_MAX_NS		100000000ull	/* its cwnd at most 100 ms of BtlBw */
#define BBR_AGG_RESET_SEGS	20	/* 2^20 segments in an epoch: it restarts */

static const uint32_t bbr_cycle_gain[BBR_CYCLE_LEN] = {
	BBR_UNIT * 5 / 4, BBR_UNIT * 3 / 4,
	BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT, BBR_UNIT,
};

/* the connection's loss state, as Linux's ca_state order */
enum { BBR_CA_OPEN = 0, BBR_CA_RECOVERY, BBR_CA_LOSS };

/* a windowed max filter sample: round, bytes/s */
struct bbr_mm {
	uint64_t t, v;
};

struct bbr {
	struct bbr_mm bw[3];		/* BtlBw: best, 2nd, 3rd best in the window */
	uint64_t rounds;
	uint64_t next_rtt_delivered;	/* the round ends past this */
	uint64_t min_rtt_ns, min_rtt_stamp;
	uint64_t probe_rtt_done;	/* PROBE_RTT may end after this (0: not yet) */
	uint64_t cycle_stamp;
	uint64_t full_bw;
	uint64_t probe_rtts;
	uint64_t rng;
	/* ACK aggregation: bytes delivered beyond BtlBw since the epoch began */
	uint64_t agg_epoch, agg_acked;
	uint32_t extra_acked[2];
	uint8_t agg_idx, agg_rounds;
	uint32_t prior_cwnd;
	uint32_t pacing_gain, cwnd_gain;
	uint8_t mode, cycle_idx, full_bw_cnt, full_bw_reached;
	uint8_t round_start, conservation, prev_state, probe_rtt_round_done;
	uint8_t has_seen_rtt;
};

_Static_assert(sizeof(struct bbr) <= sizeof(((struct tcp_cc *)0)->priv),
		"bbr state too large");

static struct bbr *
bbr_of(struct tcp_cc *cc)
{
	return (struct bbr *)cc->priv;
}

static uint64_t
max_bw(const struct bbr *b)
{
	return b->bw[0].v;
}

/* Kathleen Nichols' windowed max filter (Linux's win_minmax.c): the best,
 * second and third best samples of the window, each newer than the one
 * before; a sample older than the window is replaced by the next. Without
 * new samples the estimate stays. */
static void
bw_filter(struct bbr_mm *s, uint64_t win, uint64_t t, uint64_t v)
{
	struct bbr_mm val = { t, v };
	uint64_t dt;

	if (v >= s[0].v || t - s[2].t > win) {
		s[0] = s[1] = s[2] = val;
		return;
	}
	if (v >= s[1].v)
		s[2] = s[1] = val;
	else if (v >= s[2].v)
		s[2] = val;
	dt = t - s[0].t;
	if (dt > win) {
		s[0] = s[1];
		s[1] = s[2];
		s[2] = val;
		if (t - s[0].t > win) {
			s[0] = s[1];
			s[1] = s[2];
			s[2] = val;
		}
	} else if (s[1].t == s[0].t && dt > win / 4) {
		s[2] = s[1] = val;
	} else if (s[2].t == s[1].t && dt > win / 2) {
		s[2] = val;
	}
}

/* bytes/s at gain, less the margin */
static uint64_t
rate_at(uint64_t bw, uint32_t gain)
{
	return bw * gain / BBR_UNIT * (100 - BBR_MARGIN_PCT) / 100;
}

/* segments per send quantum (Linux's TSO autosizing for BBR) */
static uint32_t
quantum_segs(const struct tcp_cc *cc)
{
	uint32_t min = cc->pacing_Bps * 8 < BBR_MIN_TSO_BPS ? 1 : 2;
	uint64_t segs = (cc->pacing_Bps >> 10) / cc->mss;

	segs = tcp_min64(segs, BBR_GSO_MAX / cc->mss);
	return (uint32_t)tcp_max64(tcp_min64(segs, 127), min);
}

/* gain x BDP plus extra (bytes) plus the quanta, bytes */
static uint32_t
inflight(const struct tcp_cc *cc, const struct bbr *b, uint64_t bw, uint32_t gain,
		uint32_t extra)
{
	uint64_t segs;

	if (b->min_rtt_ns == UINT64_MAX) {
		segs = BBR_INIT_CWND_SEGS;
	} else {
		uint64_t bdp = bw * (b->min_rtt_ns / 1000) / 1000000;

		segs = (bdp * gain / BBR_UNIT + cc->mss - 1) / cc->mss;
	}
	segs += (extra + cc->mss - 1) / cc->mss;
	segs += 3 * quantum_segs(cc);
	segs = (segs + 1) & ~1ull;
	if (b->mode == TCP_BBR_PROBE_BW && b->cycle_idx == 0)
		segs += 2;
	return (uint32_t)tcp_min64(segs * cc->mss, 0x7fffffffull);
}

static void
save_cwnd(struct tcp_cc *cc, struct bbr *b)
{
	if (b->prev_state < BBR_CA_RECOVERY && b->mode != TCP_BBR_PROBE_RTT)
		b->prior_cwnd = cc->cwnd;
	else
		b->prior_cwnd = tcp_max32(b->prior_cwnd, cc->cwnd);
}

static void
advance_cycle(struct bbr *b, uint64_t now)
{
	b->cycle_idx = (uint8_t)((b->cycle_idx + 1) % BBR_CYCLE_LEN);
	b->cycle_stamp = now;
}

static void
enter_probe_bw(struct bbr *b, uint64_t now)
{
	b->rng ^= b->rng << 13;
	b->rng ^= b->rng >> 7;
	b->rng ^= b->rng << 17;
	b->mode = TCP_BBR_PROBE_BW;
	/* a random phase, never the 0.75 one */
	b->cycle_idx = (uint8_t)(BBR_CYCLE_LEN - 1 - b->rng % (BBR_CYCLE_LEN - 1));
	advance_cycle(b, now);
}

static void
init_pacing(struct tcp_cc *cc, struct bbr *b)
{
	uint64_t rtt = cc->srtt_ns;

	b->has_seen_rtt = rtt != 0;
	if (rtt == 0)
		rtt = 1000000;	/* 1 ms */
	cc->pacing_Bps = rate_at((uint64_t)cc->cwnd * 1000000000ull / rtt, BBR_HIGH_GAIN);
}

static void
bbr_init(struct tcp_cc *cc, uint64_t now)
{
	struct bbr *b = bbr_of(cc);

	*b = (struct bbr){ .min_rtt_ns = UINT64_MAX, .min_rtt_stamp = now, .agg_epoch = now,
		.mode = TCP_BBR_STARTUP, .pacing_gain = BBR_HIGH_GAIN,
		.cwnd_gain = BBR_HIGH_GAIN, .rng = now * 2654435761u | 1 };
	b->prior_cwnd = cc->cwnd;
	init_pacing(cc, b);
}

/* round trips, and the sample into the max filter */
static void
update_bw(struct bbr *b, const struct tcp_rate_sample *rs)
{
	uint64_t bw;

	b->round_start = 0;
	if (rs->interval_ns == 0)
		return;
	if (rs->prior_delivered >= b->next_rtt_delivered) {
		b->next_rtt_delivered = rs->delivered_total;
		b->rounds++;
		b->round_start = 1;
		b->conservation = 0;
	}
	bw = rs->delivered * 1000000000ull / rs->interval_ns;
	if (!rs->is_app_limited || bw >= max_bw(b))
		bw_filter(b->bw, BBR_BW_RTTS, b->rounds, bw);
}

/* Linux's bbr_update_ack_aggregation: the most data an ACK burst delivered
 * beyond what BtlBw explains since the epoch began (ACK aggregation by
 * delayed ACKs, receivers or the host's scheduling), kept over 5-10 rounds. */
static void
update_ack_aggregation(const struct tcp_cc *cc, struct bbr *b,
		const struct tcp_rate_sample *rs, uint64_t now)
{
	uint64_t expected, extra;

	if (rs->acked_sacked == 0 || rs->interval_ns == 0)
		return;
	if (b->round_start && ++b->agg_rounds >= BBR_AGG_WIN_RTTS) {
		b->agg_rounds = 0;
		b->agg_idx ^= 1;
		b->extra_acked[b->agg_idx] = 0;
	}
	expected = max_bw(b) * (now - b->agg_epoch) / 1000000000ull;
	if (b->agg_acked <= expected || b->agg_acked + rs->acked_sacked >=
			(uint64_t)cc->mss << BBR_AGG_RESET_SEGS) {
		b->agg_acked = 0;
		b->agg_epoch = now;
		expected = 0;
	}
	b->agg_acked += rs->acked_sacked;
	extra = tcp_min64(b->agg_acked - expected, cc->cwnd);
	if (extra > b->extra_acked[b->agg_idx])
		b->extra_acked[b->agg_idx] = (uint32_t)extra;
}

/* the cwnd allowance for it, once BtlBw is found */
static uint32_t
ack_aggregation_cwnd(const struct bbr *b)
{
	if (!b->full_bw_reached)
		return 0;
	return (uint32_t)tcp_min64(tcp_max32(b->extra_acked[0], b->extra_acked[1]),
			max_bw(b) * BBR_AGG_MAX_NS / 1000000000ull);
}

static void
update_cycle_phase(const struct tcp_cc *cc, struct bbr *b,
		const struct tcp_rate_sample *rs, uint64_t now)
{
	int full;
	uint32_t gain = b->pacing_gain;

	if (b->mode != TCP_BBR_PROBE_BW)
		return;
	full = now - b->cycle_stamp > b->min_rtt_ns;
	if (gain == BBR_UNIT ? full :
			gain > BBR_UNIT ? full && (rs->losses || rs->prior_in_flight >=
				inflight(cc, b, max_bw(b), gain, 0)) :
			full || rs->prior_in_flight <= inflight(cc, b, max_bw(b), BBR_UNIT, 0))
		advance_cycle(b, now);
}

static void
check_full_bw(struct bbr *b, const struct tcp_rate_sample *rs)
{
	uint64_t bw = max_bw(b);

	if (b->full_bw_reached || !b->round_start || rs->is_app_limited)
		return;
	if (bw >= b->full_bw * BBR_FULL_BW_THRESH / BBR_UNIT) {
		b->full_bw = bw;
		b->full_bw_cnt = 0;
		return;
	}
	if (++b->full_bw_cnt >= BBR_FULL_BW_CNT)
		b->full_bw_reached = 1;
}

static void
check_drain(struct tcp_cc *cc, struct bbr *b, const struct tcp_rate_sample *rs,
		uint64_t now)
{
	if (b->mode == TCP_BBR_STARTUP && b->full_bw_reached) {
		b->mode = TCP_BBR_DRAIN;
		cc->ssthresh = inflight(cc, b, max_bw(b), BBR_UNIT, 0);
	}
	if (b->mode == TCP_BBR_DRAIN &&
			rs->in_flight <= inflight(cc, b, max_bw(b), BBR_UNIT, 0))
		enter_probe_bw(b, now);
}

static void
update_min_rtt(struct tcp_cc *cc, struct bbr *b, const struct tcp_rate_sample *rs,
		uint64_t now)
{
	int expired = now > b->min_rtt_stamp + BBR_MIN_RTT_WIN_NS;

	if (rs->rtt_ns && (rs->rtt_ns < b->min_rtt_ns || expired)) {
		b->min_rtt_ns = rs->rtt_ns;
		b->min_rtt_stamp = now;
	}
	if (expired && b->mode != TCP_BBR_PROBE_RTT) {
		b->mode = TCP_BBR_PROBE_RTT;
		save_cwnd(cc, b);
		b->probe_rtt_done = 0;
		b->probe_rtts++;
	}
	if (b->mode != TCP_BBR_PROBE_RTT)
		return;
	cc->app_limited = 1;	/* its low-rate samples say nothing of BtlBw */
	if (b->probe_rtt_done == 0 && rs->in_flight <= BBR_MIN_CWND_SEGS * cc->mss) {
		b->probe_rtt_done = now + BBR_PROBE_RTT_NS;
		b->probe_rtt_round_done = 0;
		b->next_rtt_delivered = rs->delivered_total;
	} else if (b->probe_rtt_done) {
		if (b->round_start)
			b->probe_rtt_round_done = 1;
		if (b->probe_rtt_round_done && now > b->probe_rtt_done) {
			b->min_rtt_stamp = now;
			cc->cwnd = tcp_max32(cc->cwnd, b->prior_cwnd);
			if (b->full_bw_reached)
				enter_probe_bw(b, now);
			else
				b->mode = TCP_BBR_STARTUP;
		}
	}
}

static void
update_gains(struct bbr *b)
{
	switch (b->mode) {
	case TCP_BBR_STARTUP:
		b->pacing_gain = b->cwnd_gain = BBR_HIGH_GAIN;
		break;
	case TCP_BBR_DRAIN:
		b->pacing_gain = BBR_DRAIN_GAIN;
		b->cwnd_gain = BBR_HIGH_GAIN;
		break;
	case TCP_BBR_PROBE_BW:
		b->pacing_gain = bbr_cycle_gain[b->cycle_idx];
		b->cwnd_gain = BBR_CWND_GAIN;
		break;
	default:
		b->pacing_gain = b->cwnd_gain = BBR_UNIT;
		break;
	}
}

/* Loss: newly lost bytes leave cwnd; the first round of a recovery
 * conserves packets; leaving recovery restores cwnd. 1: cwnd is final. */
static int
recover_or_restore(struct tcp_cc *cc, struct bbr *b, const struct tcp_rate_sample *rs,
		uint32_t *cwnd)
{
	uint8_t state = cc->in_recovery ? BBR_CA_RECOVERY :
		cc->in_loss ? BBR_CA_LOSS : BBR_CA_OPEN;
	uint32_t w = cc->cwnd, fl = rs->in_flight + rs->acked_sacked;

	if (rs->losses)
		w = w > rs->losses + cc->mss ? w - rs->losses : cc->mss;
	if (state == BBR_CA_RECOVERY && b->prev_state != BBR_CA_RECOVERY) {
		b->conservation = 1;
		b->next_rtt_delivered = rs->delivered_total;	/* a round from now */
		w = fl;
	} else if (b->prev_state >= BBR_CA_RECOVERY && state < BBR_CA_RECOVERY) {
		w = tcp_max32(w, b->prior_cwnd);
		b->conservation = 0;
	}
	b->prev_state = state;
	*cwnd = b->conservation ? tcp_max32(w, fl) : w;
	return b->conservation;
}

static void
set_cwnd(struct tcp_cc *cc, struct bbr *b, const struct tcp_rate_sample *rs, uint64_t bw)
{
	uint32_t cwnd = cc->cwnd, acked = rs->acked_sacked, target;

	if (acked != 0 && !recover_or_restore(cc, b, rs, &cwnd)) {
		target = inflight(cc, b, bw, b->cwnd_gain, ack_aggregation_cwnd(b));
		if (b->full_bw_reached)
			cwnd = tcp_min32(cwnd + acked, target);
		else if (cwnd < target || rs->delivered_total < BBR_INIT_CWND_SEGS * cc->mss)
			cwnd += acked;
		cwnd = tcp_max32(cwnd, BBR_MIN_CWND_SEGS * cc->mss);
	}
	cc->cwnd = cwnd;
	if (b->mode == TCP_BBR_PROBE_RTT)
		cc->cwnd = tcp_min32(cc->cwnd, BBR_MIN_CWND_SEGS * cc->mss);
}

static void
bbr_cong_control(struct tcp_cc *cc, const struct tcp_cc_ack *a,
		const struct tcp_rate_sample *rs)
{
	struct bbr *b = bbr_of(cc);
	uint64_t bw, rate;

	update_bw(b, rs);
	update_ack_aggregation(cc, b, rs, a->now);
	update_cycle_phase(cc, b, rs, a->now);
	check_full_bw(b, rs);
	check_drain(cc, b, rs, a->now);
	update_min_rtt(cc, b, rs, a->now);
	update_gains(b);
	bw = max_bw(b);
	if (!b->has_seen_rtt && cc->srtt_ns)
		init_pacing(cc, b);
	rate = rate_at(bw, b->pacing_gain);
	if (b->full_bw_reached || rate > cc->pacing_Bps)
		cc->pacing_Bps = rate;
	set_cwnd(cc, b, rs, bw);
}

/* loss or RTO: remember cwnd; ssthresh is left as it is (no reduction) */
static uint32_t
bbr_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	(void)now;
	save_cwnd(cc, bbr_of(cc));
	return cc->ssthresh;
}

static void
bbr_on_timeout(struct tcp_cc *cc, uint64_t now)
{
	struct bbr *b = bbr_of(cc);

	(void)now;
	b->prev_state = BBR_CA_LOSS;
	b->full_bw = 0;
	b->round_start = 1;
}

static uint64_t
bbr_bw_bps(const struct tcp_cc *cc)
{
	return max_bw((const struct bbr *)cc->priv) * 8;
}

void
tcp_bbr_info(const struct tcp_cc *cc, struct tcp_bbr_info *bi)
{
	const struct bbr *b = (const struct bbr *)cc->priv;

	bi->mode = (enum tcp_bbr_mode)b->mode;
	bi->bw_Bps = max_bw(b);
	bi->min_rtt_ns = b->min_rtt_ns == UINT64_MAX ? 0 : b->min_rtt_ns;
	bi->pacing_gain = b->pacing_gain;
	bi->cwnd_gain = b->cwnd_gain;
	bi->cycle_idx = b->cycle_idx;
	bi->rounds = b->rounds;
	bi->full_bw_reached = b->full_bw_reached;
	bi->probe_rtts = b->probe_rtts;
}

const struct tcp_cc_ops tcp_cc_bbr = {
	.name = "bbr",
	.help = "BBR v1: paced at the max delivery rate, cwnd 2 BDP, gain cycling "
		"and min-RTT probes (Cardwell 2016, Linux's tcp_bbr.c)",
	.recovery = TCP_REC_SACK,
	.init = bbr_init,
	.ssthresh = bbr_ssthresh,
	.on_timeout = bbr_on_timeout,
	.bw_bps = bbr_bw_bps,
	.cong_control = bbr_cong_control,
};
