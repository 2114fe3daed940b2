/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Undo of spurious reductions with RACK-TLP, as Linux: the D-SACK of every
 * retransmission of a recovery (RFC 2883, RFC 3708), or with timestamps an
 * ACK of the first retransmitted segment that echoes a TSval older than the
 * retransmission (Eifel, RFC 3522, with RFC 4015's response), restores cwnd
 * and ssthresh; after a spurious RTO the segments it marked lost are not
 * resent. A scripted peer on a virtual clock; each case also without the
 * evidence, where the reduction stands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcp.h"
#include "tsender.h"

/*
 * Segment 0 is delayed, not lost: 1, 2, 3 SACKed, RACK marks 0 lost, the
 * recovery halves cwnd (ssthresh 5) and resends 0; the late original
 * completes the window (the recovery ends at cwnd 5); then the duplicate
 * retransmission is D-SACKed: the reduction is undone (cwnd 10).
 */
static void
test_dsack_undo(int dsack)
{
	struct tcp_conn *c;
	struct tcp_stats st;
	uint64_t now = 30 * MS;

	ts_peer = 0;
	c = sender("reno", 1, 0, 1000000);
	for (uint32_t k = 2; k <= 4; k++) {
		ack(c, now, seg(0), 1, k);
		pull(c, now);
	}
	CHECK(tcp_conn_cc(c)->in_recovery && sent_n[0] == 2);
	CHECK(tcp_conn_cc(c)->ssthresh == 5 * MSS);
	now += 2 * MS;
	ack(c, now, seg(hi), 0, 0);	/* the original 0 arrives */
	CHECK(!tcp_conn_cc(c)->in_recovery && tcp_conn_cc(c)->cwnd == 5 * MSS);
	pull(c, now);
	now += 1 * MS;
	if (dsack)
		ack_opt(c, now, seg(hi), 0, 0, 0, 1, 0);	/* D-SACK of 0 */
	else
		ack(c, now, seg(hi), 0, 0);
	tcp_conn_stats(c, &st);
	if (dsack) {
		CHECK(st.dsack_rx == 1 && st.undos == 1);
		CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS && tcp_conn_cc(c)->ssthresh > 1000 * MSS);
	} else {
		CHECK(st.undos == 0 && tcp_conn_cc(c)->cwnd <= 6 * MSS);
	}
	tcp_conn_free(c);
}

/*
 * The same with timestamps and no D-SACK: the ACK that the late original 0
 * triggers echoes 0's first TSval (10 ms), older than the retransmission
 * (30 ms): spurious, undone at that ACK. Echoing the retransmission's
 * TSval instead (it was the one that arrived) keeps the reduction.
 */
static void
test_eifel_undo(int late_original)
{
	struct tcp_conn *c;
	struct tcp_stats st;
	uint64_t now = 30 * MS;
	uint32_t rtx_tsval = 0;

	ts_peer = 1;
	c = sender("reno", 1, 0, 1000000);
	for (uint32_t k = 2; k <= 4; k++) {
		ack_opt(c, now, seg(0), 1, k, 0, 0, tsv_first[k - 1]);
		if (pull(c, now) && out[0].seq == seg(0))
			rtx_tsval = out[0].tsval;
	}
	CHECK(tcp_conn_cc(c)->in_recovery && sent_n[0] == 2);
	CHECK(rtx_tsval == 30000 && tsv_first[0] == 10000);
	now += 2 * MS;
	ack_opt(c, now, seg(hi), 0, 0, 0, 0, late_original ? tsv_first[0] : rtx_tsval);
	tcp_conn_stats(c, &st);
	if (late_original) {
		CHECK(st.undos == 1);
		CHECK(tcp_conn_cc(c)->cwnd == 10 * MSS && !tcp_conn_cc(c)->in_recovery);
	} else {
		CHECK(st.undos == 0 && tcp_conn_cc(c)->cwnd == 5 * MSS);
	}
	tcp_conn_free(c);
	ts_peer = 0;
}

/*
 * A spurious RTO (Eifel after a timeout, Linux's tcp_try_undo_loss): the
 * ACKs of 10 segments are held past the RTO (the initial 1 s): cwnd 1,
 * everything marked lost, 0 resent. 100 ms later the held ACK of 0..4
 * echoes 4's original TSval: the RTO was spurious, cwnd and ssthresh come
 * back and 5..9 are not resent (new data follows instead). Echoing the
 * retransmission of 0 keeps the RTO's reduction, and 5..9 are resent.
 */
static void
test_spurious_rto(int spurious)
{
	struct tcp_conn *c;
	struct tcp_stats st;
	uint64_t now = 10 * MS, rto_at;
	uint32_t rtx_tsval = 0;

	ts_peer = 1;
	c = sender("reno", 1, 0, 1000000);
	rto_at = tcp_conn_next_deadline(c, now);
	CHECK(rto_at == now + 1000 * MS);	/* no RTT sample yet: the initial RTO */
	now = rto_at;
	if (pull(c, now) == 1 && out[0].seq == seg(0))
		rtx_tsval = out[0].tsval;
	tcp_conn_stats(c, &st);
	CHECK(st.timeouts == 1 && tcp_conn_cc(c)->cwnd == MSS && rtx_tsval != 0);
	now += 100 * MS;
	ack_opt(c, now, seg(5), 0, 0, 0, 0, spurious ? tsv_first[4] : rtx_tsval);
	pull(c, now);
	tcp_conn_stats(c, &st);
	if (spurious) {
		CHECK(st.undos == 1 && tcp_conn_cc(c)->cwnd >= 10 * MSS);
		for (uint32_t i = 5; i < 10; i++)
			CHECK(sent_n[i] == 1);
		CHECK(sent_n[10] == 1);	/* new data instead */
	} else {
		CHECK(st.undos == 0 && tcp_conn_cc(c)->cwnd <= 3 * MSS);
		CHECK(sent_n[5] == 2);
	}
	tcp_conn_free(c);
	ts_peer = 0;
}

int
main(void)
{
	test_dsack_undo(1);
	test_dsack_undo(0);
	test_eifel_undo(1);
	test_eifel_undo(0);
	test_spurious_rto(1);
	test_spurious_rto(0);
	return test_report("tcp-undo");
}
