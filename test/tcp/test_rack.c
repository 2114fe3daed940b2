/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * RACK-TLP (RFC 8985) and limited transmit (RFC 3042) against a scripted
 * peer on a virtual clock: a lost retransmission is detected by RACK and
 * resent without an RTO; a tail loss is repaired by a TLP probe without an
 * RTO; reordering within the reorder window causes no retransmission (and
 * the reorder timer fires when the hole stays open); limited transmit sends
 * one new segment on each of the first two duplicate ACKs. Each case also
 * runs with the mechanism off to show the difference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tsender.h"

/*
 * Segment 0 is lost, and so is its first retransmission. With RACK the
 * second loss is detected once a segment sent after that retransmission
 * is SACKed, and segment 0 goes out a third time at once; without RACK
 * only the RTO (>= 200 ms) resends it.
 */
static void
test_lost_retransmission(int rack)
{
	struct tcp_conn *c = sender("sack", rack, -1, 1000000);
	struct tcp_stats st;
	uint64_t now = 30 * MS;

	tcp_conn_stats(c, &st);
	CHECK(st.rack == (rack != 0));
	/* segments 1..3 SACKed: segment 0 lost (three SACKed above it) */
	for (uint32_t k = 2; k <= 4; k++) {
		ack(c, now, seg(0), 1, k);
		pull(c, now);
	}
	CHECK(tcp_conn_cc(c)->in_recovery);
	CHECK(sent_n[0] == 2);		/* fast retransmit ... lost as well */
	/* 4..9 SACKed at 32 ms: PRR sends new data (10, 11, ...) */
	now = 32 * MS;
	for (uint32_t k = 5; k <= 10; k++) {
		ack(c, now, seg(0), 1, k);
		pull(c, now);
	}
	CHECK(sent_n[10] == 1);
	CHECK(sent_n[0] == 2);
	/* 52 ms: segment 10 (sent at 32 ms, after the retransmission at 30 ms)
	 * is SACKed: RACK deems the retransmission lost */
	now = 52 * MS;
	ack(c, now, seg(0), 1, 11);
	pull(c, now);
	tcp_conn_stats(c, &st);
	if (rack) {
		CHECK(sent_n[0] == 3);
		CHECK(st.timeouts == 0 && st.rack_marked >= 2);
		/* the third copy arrives, and all else: recovery ends, no RTO */
		ack(c, 72 * MS, seg(hi), 0, 0);
		CHECK(!tcp_conn_cc(c)->in_recovery);
		tcp_conn_stats(c, &st);
		CHECK(st.timeouts == 0 && st.fast_retrans == 1);
	} else {
		CHECK(sent_n[0] == 2);
		CHECK(tcp_conn_next_deadline(c, now) >= 230 * MS);	/* the RTO */
	}
	tcp_conn_free(c);
}

/*
 * The last two of ten segments are lost (no more data to send). With RACK
 * a probe (the last segment again) goes out after PTO = 2 SRTT + 2 ms;
 * its SACK reveals segment 8 as lost, resent at once: all acked without an
 * RTO. Without RACK the next event is the RTO.
 */
static void
test_tail_loss_probe(int rack)
{
	struct tcp_conn *c = sender("sack", rack, -1, 10 * MSS);
	struct tcp_stats st;
	uint64_t now = 30 * MS, dl;
	unsigned int k;

	ack(c, now, seg(8), 0, 0);	/* 0..7 arrive; 8 and 9 do not */
	CHECK(pull(c, now) == 0);
	tcp_conn_stats(c, &st);
	CHECK(st.srtt_ns == 20 * MS);
	dl = tcp_conn_next_deadline(c, now);
	if (!rack) {
		CHECK(dl >= now + 200 * MS);
		tcp_conn_free(c);
		return;
	}
	CHECK(dl == now + 42 * MS);		/* PTO = 2 SRTT + 2 ms */
	CHECK(pull(c, dl - 1) == 0);
	now = dl;
	k = pull(c, now);
	CHECK(k == 1 && out[0].seq == seg(9) && out[0].len == MSS);	/* the probe */
	CHECK(sent_n[9] == 2 && sent_n[8] == 1);
	/* the probe is SACKed: segment 8 is lost, resent without waiting */
	now += 20 * MS;
	ack(c, now, seg(8), 9, 10);
	pull(c, now);
	CHECK(sent_n[8] == 2);
	now += 20 * MS;
	ack(c, now, seg(10), 0, 0);
	tcp_conn_stats(c, &st);
	CHECK(tcp_conn_send_done(c));
	CHECK(st.timeouts == 0 && st.tlp_probes == 1);
	CHECK(now < 230 * MS);		/* before the first RTO could have fired */
	tcp_conn_free(c);
}

/*
 * Segment 0 is overtaken by segments 1 and 2 (two SACKed: below DupThresh)
 * and arrives 3 ms later, inside the reorder window min_rtt / 4 = 5 ms: no
 * retransmission. If it never arrives, the reorder timer marks it lost 5 ms
 * after RACK.rtt and it is resent; RACK's pipe lets a new segment out per
 * SACK meanwhile.
 */
static void
test_reordering(int arrives)
{
	struct tcp_conn *c = sender("sack", 1, -1, 1000000);
	struct tcp_stats st;
	uint64_t now = 30 * MS;

	ack(c, now, seg(0), 1, 2);
	pull(c, now);
	ack(c, now, seg(0), 1, 3);
	pull(c, now);
	CHECK(sent_n[0] == 1);
	CHECK(sent_n[10] == 1 && sent_n[11] == 1);	/* SACKed data left the pipe */
	CHECK(tcp_conn_next_deadline(c, now) == 35 * MS);	/* 10 + 20 + 5 ms */
	if (arrives) {
		now = 33 * MS;
		ack(c, now, seg(3), 0, 0);
		pull(c, now);
		pull(c, 40 * MS);
		tcp_conn_stats(c, &st);
		CHECK(sent_n[0] == 1 && st.retrans_pkts == 0 && st.fast_retrans == 0);
		CHECK(!tcp_conn_cc(c)->in_recovery);
	} else {
		CHECK(pull(c, 35 * MS - 1) == 0);
		pull(c, 35 * MS);
		tcp_conn_stats(c, &st);
		CHECK(sent_n[0] == 2 && st.retrans_pkts == 1 && st.timeouts == 0);
		CHECK(tcp_conn_cc(c)->in_recovery);
	}
	tcp_conn_free(c);
}

/* RFC 3042 on a NewReno sender without SACK information in the ACKs: one
 * new segment for each of the first two duplicate ACKs, then the fast
 * retransmit on the third. */
static void
test_limited_transmit(int lt)
{
	struct tcp_conn *c = sender("newreno", 0, lt, 1000000);
	uint64_t now = 30 * MS;
	unsigned int k;

	CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS);
	ack(c, now, seg(0), 0, 0);
	k = pull(c, now);
	if (!lt) {
		CHECK(k == 0);
		tcp_conn_free(c);
		return;
	}
	CHECK(k == 1 && out[0].seq == seg(10) && out[0].len == MSS);
	ack(c, now, seg(0), 0, 0);
	k = pull(c, now);
	CHECK(k == 1 && out[0].seq == seg(11));
	CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS);	/* cwnd itself unchanged */
	ack(c, now, seg(0), 0, 0);
	k = pull(c, now);
	CHECK(k >= 1 && out[0].seq == seg(0));		/* fast retransmit */
	CHECK(tcp_conn_cc(c)->in_recovery);
	tcp_conn_free(c);
}

/*
 * PRR sizing with RACK, as Linux's tcp_cwnd_reduction (RFC 9937): below
 * ssthresh the slow start reduction bound (+1 MSS) only on a "safe" ACK
 * (snd_una advances, no new loss), else only what was delivered. 10
 * segments out, 0..5 lost, 6, 7, 8 SACKed (10 and 11 sent meanwhile): the
 * third SACK marks 0..5 lost, ssthresh = cwnd / 2 = 5 (Linux's Reno; RFC
 * 5681's FlightSize / 2 would be 6), pipe 3: one retransmission (RFC 6937's
 * SSRB: two); the next SACK one more; the ACK of the first retransmission
 * (safe: delivered 1 + 1 MSS) two.
 */
static void
test_prr_linux(void)
{
	struct tcp_conn *c = sender_iw("reno", 1, 0, 1000000, 10);
	uint64_t now = 30 * MS;

	ack(c, now, seg(0), 6, 7);
	pull(c, now);
	ack(c, now, seg(0), 6, 8);
	pull(c, now);
	CHECK(sent_n[10] == 1 && sent_n[11] == 1 && hi == 12);
	ack(c, now, seg(0), 6, 9);
	pull(c, now);
	CHECK(tcp_conn_cc(c)->in_recovery && tcp_conn_cc(c)->ssthresh == 5 * MSS);
	CHECK(sent_n[0] == 2 && sent_n[1] == 1);
	ack(c, now, seg(0), 6, 10);
	pull(c, now);
	CHECK(sent_n[1] == 2 && sent_n[2] == 1);
	now += 20 * MS;
	ack(c, now, seg(1), 6, 10);
	pull(c, now);
	CHECKF(sent_n[2] == 2 && sent_n[3] == 2 && sent_n[4] == 1 && hi == 12,
		"after the safe ACK: %u %u %u, hi %u", sent_n[2], sent_n[3], sent_n[4], hi);
	tcp_conn_free(c);
}

/*
 * The RTO with RACK follows Linux (tcp_rtt_estimator): SRTT + max(4 mdev,
 * rto_min) where RFC 6298 floors the sum at rto_min. A steady 300 ms RTT:
 * both start at 3 RTT (900 ms); after 30 windows RFC 6298's RTTVAR has
 * decayed to ~0 (RTO ~300 ms) while Linux keeps SRTT + 200 ms. A steady
 * 20 ms RTT: 220 ms against RFC 6298's 200 ms floor.
 */
static void
test_rto_linux(int rack)
{
	struct tcp_conn *c = sender("reno", rack, -1, 100000000);
	struct tcp_stats st;
	uint64_t now = 10 * MS;

	for (int r = 0; r < 30; r++) {
		now += 300 * MS;
		ack(c, now, seg(hi), 0, 0);
		if (r == 0) {
			tcp_conn_stats(c, &st);
			CHECKF(st.rto_ns == 900 * MS, "first RTO %llu ms",
				(unsigned long long)(st.rto_ns / MS));
		}
		pull(c, now);
	}
	tcp_conn_stats(c, &st);
	CHECK(st.srtt_ns == 300 * MS);
	if (rack)
		CHECKF(st.rto_ns >= 499 * MS && st.rto_ns <= 510 * MS, "rack: RTO %llu ms",
			(unsigned long long)(st.rto_ns / MS));
	else
		CHECKF(st.rto_ns >= 300 * MS && st.rto_ns <= 310 * MS, "RFC 6298: RTO %llu ms",
			(unsigned long long)(st.rto_ns / MS));
	tcp_conn_free(c);
	c = sender("reno", rack, -1, 100000000);
	now = 10 * MS;
	for (int r = 0; r < 30; r++) {
		now += 20 * MS;
		ack(c, now, seg(hi), 0, 0);
		pull(c, now);
	}
	tcp_conn_stats(c, &st);
	CHECKF(st.rto_ns == (rack ? 220 : 200) * MS, "rack=%d: RTO %llu ms at 20 ms", rack,
		(unsigned long long)(st.rto_ns / MS));
	tcp_conn_free(c);
}

/*
 * A reneging receiver (RFC 2018 section 8) with more holes than a fixed
 * scoreboard holds: 80 segments out, the peer SACKs 69, 67, ..., 1 (35
 * blocks, highest first), then acknowledges up to 65 and no further: it
 * dropped 65, 67 and 69 after SACKing them. The segment at the cumulative
 * ACK being SACKed is the sign; as Linux, the RTO comes after max(SRTT / 2,
 * 10 ms), forgets every SACK mark and resends from 65 (before issue #20 the
 * marks were kept, 65 was never resent and the flow stalled).
 */
static void
test_reneging(void)
{
	struct tcp_conn *c = sender_iw("reno", 1, -1, 1000000, 80);
	struct tcp_stats st;
	uint64_t now = 30 * MS;

	for (uint32_t k = 69; k >= 1 && k <= 69; k -= 2)
		ack(c, now, seg(0), k, k + 1);
	pull(c, now);
	tcp_conn_stats(c, &st);
	CHECK(st.timeouts == 0);
	/* everything below 65 arrives (the retransmissions of 0, 2, ...) */
	now = 50 * MS;
	ack(c, now, seg(65), 0, 0);
	pull(c, now);
	CHECK(sent_n[65] == 1);
	tcp_conn_stats(c, &st);
	CHECKF(st.srtt_ns == 40 * MS, "srtt %llu", (unsigned long long)st.srtt_ns);
	/* the RTO after SRTT / 2 = 20 ms (not SRTT + 4 RTTVAR) */
	CHECK(tcp_conn_next_deadline(c, now) <= now + 20 * MS);
	pull(c, now + 20 * MS - 1);
	CHECK(sent_n[65] == 1);
	now += 20 * MS;
	pull(c, now);
	tcp_conn_stats(c, &st);
	CHECK(st.timeouts == 1);
	CHECK(sent_n[65] == 2);	/* the first segment resent is the reneged one */
	CHECK(sent_n[67] == 1 && sent_n[69] == 1);	/* later, under cwnd */
	/* slow start from one segment over the reneged ones, SACKed or not */
	now += 40 * MS;
	ack(c, now, seg(66), 0, 0);
	pull(c, now);
	CHECK(sent_n[66] >= 2 && sent_n[67] == 2);
	now += 40 * MS;
	ack(c, now, seg(68), 0, 0);
	pull(c, now);
	CHECK(sent_n[69] == 2);
	tcp_conn_free(c);
}

/* Defaults: on with SACK recovery, off for the classic modules; rack = 1
 * gives a Reno sender Linux's recovery; no SACK, no RACK. */
static void
test_defaults(void)
{
	static const struct {
		const char *cc;
		int rack, want;
	} t[] = {
		{ "sack", -1, 1 }, { "cubic", -1, 1 }, { "bic", -1, 1 },
		{ "reno", -1, 0 }, { "newreno", -1, 0 }, { "tahoe", -1, 0 },
		{ "westwood", -1, 0 }, { "tcpw-c", -1, 0 }, { "vegas", -1, 0 },
		{ "cubic", 0, 0 }, { "reno", 1, 1 }, { "newreno", 1, 1 }, { "tahoe", 1, 0 },
	};
	struct tcp_stats st;

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct tcp_conn *c = sender(t[i].cc, t[i].rack, -1, 1000000);

		tcp_conn_stats(c, &st);
		CHECKF(st.rack == t[i].want, "%s rack=%d: in use %u, want %d", t[i].cc,
			t[i].rack, st.rack, t[i].want);
		tcp_conn_free(c);
	}
}

int
main(void)
{
	test_defaults();
	test_lost_retransmission(1);
	test_lost_retransmission(0);
	test_tail_loss_probe(1);
	test_tail_loss_probe(0);
	test_reordering(1);
	test_reordering(0);
	test_limited_transmit(1);
	test_limited_transmit(0);
	test_prr_linux();
	test_rto_linux(1);
	test_rto_linux(0);
	test_reneging();
	return test_report("tcp-rack");
}
