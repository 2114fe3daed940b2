/* SPDX-License-Identifier: BSD-3-Clause */
/* tcp private definitions. */
#ifndef TCP_PRIV_H
#define TCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "net.h"
#include "net_hash.h"
#include "tcp.h"

static inline uint32_t
tcp_min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

static inline uint32_t
tcp_max32(uint32_t a, uint32_t b)
{
	return a > b ? a : b;
}

static inline uint64_t
tcp_min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static inline uint64_t
tcp_max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Write the headers of s (payload of s->len bytes already at
 * tcp_hdr_len(s) or copied from s->payload) and both checksums. */
int tcp_wire_build(uint8_t *f, size_t cap, const struct tcp_seg *s, uint8_t ttl);

/* Integer cube root (floor). */
uint64_t tcp_cbrt64(uint64_t x);

/* Connection internals used by the endpoint. */
/* A connection in SYN_RECV whose SYN-ACK (ISN iss) was sent at syn_t; the
 * final ACK then goes to tcp_conn_rx. */
struct tcp_conn *tcp_conn_accept(const struct tcp_conf *conf,
		const struct tcp_seg *syn, uint32_t iss, uint64_t syn_t);
/* The SYN-ACK that tcp_conn_accept(conf, syn, iss, .) would have sent at now. */
void tcp_conn_synack(const struct tcp_conf *conf, const struct tcp_seg *syn, uint32_t iss,
		uint64_t now, struct tcp_seg *out);
int tcp_conn_match(const struct tcp_conn *c, const struct tcp_seg *s);

/*
 * tcp_syn.c: the listener's half-open table (a FIFO ring of small records,
 * hash chains keyed by the initiator's address and port) and SYN cookies.
 */
#define TCP_HALF_NIL	UINT32_MAX

struct tcp_half {
	struct tcp_seg syn;		/* the SYN: addresses, seq, options, window */
	uint32_t iss;			/* our SYN-ACK's ISN (a cookie) */
	uint32_t next;			/* hash chain */
	uint64_t t, rtx_at;		/* SYN arrival, next SYN-ACK */
	uint8_t live, tries, queued;
};

struct tcp_synq {
	struct tcp_half *h;		/* ring: h[head] the oldest */
	uint32_t cap, head, count, live;
	uint32_t *bucket, mask;
	uint32_t *pend;			/* SYN-ACKs to send (entry indexes), a ring */
	uint32_t pcap, phead, pcount;
	struct net_sipkey key;		/* cookies and hash chains */
	uint64_t scan_at;		/* next look for SYN-ACKs to resend */
	uint64_t full_at;		/* last time the table was full (0: never) */
	uint64_t rto_ns, life_ns;
	uint32_t retries;
};

int tcp_synq_init(struct tcp_synq *q, uint32_t cap, uint64_t seed, const struct tcp_conf *ac);
void tcp_synq_fini(struct tcp_synq *q);
/* the live entry of (ip, port), or NULL */
struct tcp_half *tcp_synq_find(struct tcp_synq *q, uint32_t ip, uint16_t port);
/* a new entry for syn (the oldest live one goes when full: *evicted = 1) */
struct tcp_half *tcp_synq_add(struct tcp_synq *q, const struct tcp_seg *syn, uint64_t now,
		int *evicted);
void tcp_synq_kill(struct tcp_synq *q, struct tcp_half *e);
/* expire entries past their life; returns how many */
uint32_t tcp_synq_expire(struct tcp_synq *q, uint64_t now);
/* queue e's SYN-ACK (no-op when queued already or no room) */
void tcp_synq_queue(struct tcp_synq *q, struct tcp_half *e);
/* the next queued SYN-ACK's entry, or NULL; resends those due first */
struct tcp_half *tcp_synq_next(struct tcp_synq *q, uint64_t now);
uint64_t tcp_synq_deadline(const struct tcp_synq *q);
/* cookie mode: the table was full less than two cookie periods ago */
int tcp_synq_cookie_mode(const struct tcp_synq *q, uint64_t now);

/* SYN cookies: the ISN for syn (MSS, window scale, SACK-permitted and
 * timestamps in its low 9 bits, a 23-bit keyed MAC above them). */
uint32_t tcp_cookie_make(const struct net_sipkey *k, const struct tcp_seg *syn, uint64_t now);
/* ack (the final ACK of a handshake) carries a valid cookie: 0 and the SYN's
 * options recovered into syn (addresses, seq, MSS, window scale, SACK,
 * timestamps, window); -1 forged or too old. */
int tcp_cookie_check(const struct net_sipkey *k, const struct tcp_seg *ack, uint64_t now,
		struct tcp_seg *syn);

/* RACK-TLP (RFC 8985, tcp_rack.c): one record per sent data segment. */
#define TCP_RS_SACKED	0x01
#define TCP_RS_LOST	0x02	/* deemed lost (RACK or RTO) */
#define TCP_RS_RETRANS	0x04	/* a retransmission is in flight */
#define TCP_RS_EVER_RTX	0x08	/* retransmitted at least once */

#define TCP_RS_APPLTD	0x10	/* sent while the sender was app-limited */

struct tcp_rseg {
	uint32_t seq;
	uint16_t len;
	uint8_t fl;		/* TCP_RS_* */
	uint64_t ts;		/* latest transmission (ns) */
	/* delivery-rate state at that transmission (tcp_rate.c) */
	uint64_t r_delivered;	/* bytes delivered then */
	uint64_t r_delivered_ts;	/* time of the latest delivery then */
	uint64_t r_first_ts;	/* send time of the segment that sample began with */
};

/* Delivery-rate sampling (tcp_rate.c): the connection's counters and the
 * sample of the ACK being processed. */
struct tcp_rate {
	uint64_t delivered;	/* bytes delivered (cumulatively or SACKed) */
	uint64_t delivered_ts;	/* time of the latest delivery */
	uint64_t first_ts;	/* send time of the newest delivered segment */
	uint64_t app_limited;	/* delivered + pipe when it went app-limited, 0: not */
	/* this ACK */
	uint32_t newly;		/* bytes delivered */
	uint8_t have, appl, rtx;
	uint64_t pick_ts;	/* send time of the newest delivered segment */
	uint32_t pick_end;
	uint64_t prior_delivered, prior_ts, first_ts_pick;
};

struct tcp_rack {
	struct tcp_rseg *seg;	/* ring in sequence order, seg[head] oldest */
	uint32_t cap, head, n;
	uint32_t end;		/* sequence after the newest record */
	uint32_t out_b, sacked_b, lost_b, rtx_b;
	/* RACK: the most recently sent delivered segment */
	uint64_t xmit_ts, rtt_ns;
	uint64_t min_rtt;	/* from delivered segments, SACKed ones too */
	uint32_t end_seq, fack;
	uint8_t advanced, reord_seen;
	uint8_t lost_rtx;	/* the last detection found a lost retransmission */
	uint64_t reo_at;	/* reorder timer, 0: off */
	/* reo_wnd in steps of min_RTT/4, raised by D-SACKs (RFC 8985 6.2 step 4) */
	uint8_t reo_steps, reo_persist;
	uint64_t reo_step_at;	/* last raise */
	/* TLP */
	uint64_t tlp_at;	/* probe timer, 0: off */
	uint32_t tlp_high;	/* snd_max after the probe */
	uint8_t tlp_out, tlp_rtx, tlp_pending;
	uint64_t marked;	/* segments marked lost by RACK */
	struct tcp_rate rate;
};

int tcp_rack_init(struct tcp_rack *r, uint32_t cap);
void tcp_rack_fini(struct tcp_rack *r);
void tcp_rack_reset(struct tcp_rack *r, uint32_t seq);
int tcp_rack_full(const struct tcp_rack *r);
uint32_t tcp_rack_pipe(const struct tcp_rack *r);
/* [seq, seq+len) sent at now: a new record, or a retransmission */
void tcp_rack_sent(struct tcp_rack *r, uint32_t seq, uint32_t len, uint64_t now);
/* cumulative ACK una and the ACK's SACK blocks; newly SACKed bytes */
uint32_t tcp_rack_update(struct tcp_rack *r, uint32_t una, const struct tcp_sack_blk *sb,
		uint32_t nsb, uint64_t now, uint64_t min_rtt);
/* the record at the cumulative ACK is SACKed: the receiver reneged */
int tcp_rack_reneged(const struct tcp_rack *r);
void tcp_rack_clear_sacked(struct tcp_rack *r);
uint64_t tcp_rack_reo_wnd(const struct tcp_rack *r, int recovering,
		uint32_t dupthresh_bytes, uint64_t min_rtt, uint64_t srtt);
/* a D-SACK arrived / a recovery ended: the reorder window's steps */
void tcp_rack_dsack(struct tcp_rack *r, uint64_t now, uint64_t srtt);
void tcp_rack_recovered(struct tcp_rack *r);
/* mark lost what RACK deems lost; returns newly lost bytes, arms reo_at */
uint32_t tcp_rack_detect(struct tcp_rack *r, uint64_t now, uint64_t reo_wnd);
void tcp_rack_mark_all_lost(struct tcp_rack *r);	/* RTO */
void tcp_rack_unmark_lost(struct tcp_rack *r);		/* spurious RTO */
/* first lost record without a retransmission in flight */
int tcp_rack_next_lost(const struct tcp_rack *r, uint32_t *seq, uint32_t *len);
/* highest record not SACKed (the TLP retransmission) */
int tcp_rack_last(const struct tcp_rack *r, uint32_t *seq, uint32_t *len);
/* probe timeout: 2 SRTT + 2 ms, + 200 ms with one segment out; 0: no SRTT */
uint64_t tcp_rack_pto(uint64_t srtt, uint32_t flight, uint32_t smss);

/* tcp_rate.c: delivery-rate sampling on RACK's records */
void tcp_rate_sent(struct tcp_rate *r, struct tcp_rseg *g, uint32_t out_b, uint64_t now);
void tcp_rate_delivered(struct tcp_rate *r, struct tcp_rseg *g, uint32_t len);
/* after the ACK's records were updated: the sample (rs zeroed by the caller
 * but for prior_in_flight) */
void tcp_rate_gen(struct tcp_rate *r, uint64_t now, uint64_t min_rtt,
		struct tcp_rate_sample *rs);
/* nothing more to send though cwnd allows: later samples are app-limited */
void tcp_rate_app_limited(struct tcp_rate *r, uint32_t pipe);

/* The connection (tcp_conn.c, tcp_input.c, tcp_output.c, tcp_timer.c). */
#define SB_MAX		32	/* sender scoreboard blocks (classic SACK recovery) */
/* receiver out-of-order blocks: one per KiB of receive buffer (a window of
 * alternately lost and received full segments needs rcvbuf / (2 MSS)), as
 * Linux keeps every out-of-order segment the buffer holds */
#define OOO_PER_BYTES	1024u
#define OOO_MIN		32u
#define OOO_MAX		8192u
#define NS_PER_US	1000ull

struct tcp_conn {
	struct tcp_conf conf;
	enum tcp_state state;
	enum tcp_close_reason reason;
	const struct tcp_cc_ops *ops;
	struct tcp_cc cc;
	enum tcp_recovery rec_mode;

	/* negotiated */
	uint16_t smss;		/* payload bytes per segment we send */
	uint16_t peer_mss;
	uint8_t snd_wscale, rcv_wscale;
	uint8_t ws_ok, sack_ok, ts_ok;
	uint8_t pair_acks;	/* we send TCPW-C ACK pairs */

	/* send side */
	uint32_t iss, snd_una, snd_nxt, snd_max;
	uint32_t snd_wnd, snd_wl1, snd_wl2;
	uint8_t *sndbuf;
	uint32_t sndbuf_size, snd_buffered;	/* bytes from snd_una */
	uint8_t src_eof, fin_queued;
	uint8_t hold;		/* the source is not pulled (tcp_conn_hold) */
	uint32_t fin_seq;			/* valid when fin_queued */
	uint32_t dupacks, recover, high_rxt;
	uint8_t in_rec, rtx_pending, ever_rec, probe;
	uint32_t nsb;
	struct tcp_sack_blk sb[SB_MAX];
	/* undo of a spurious reduction (RACK: Linux's undo_marker / undo_retrans,
	 * RFC 2883 D-SACK, RFC 3522 / 4015 Eifel with timestamps) */
	uint8_t undo_on, undo_loss;
	int32_t undo_retrans;		/* retransmitted segments not D-SACKed */
	uint32_t undo_rtx;		/* retransmitted segments this episode */
	uint32_t undo_marker;		/* snd_una at the episode's start */
	uint32_t retrans_stamp;		/* TSval of its first retransmission */
	uint32_t prior_cwnd, prior_ssthresh;
	/* RFC 6937 proportional rate reduction (SACK recovery) */
	uint32_t prr_delivered, prr_out, recover_fs;
	int64_t prr_sndcnt;
	/* RFC 8985 RACK-TLP (tcp_rack.c), RFC 3042 limited transmit */
	struct tcp_rack rk;
	uint8_t rack_on, lt_on;
	/* pacing at the module's cc.pacing_Bps: the next data segment's
	 * earliest departure (ns) */
	uint64_t pace_next;
	uint8_t rate_on;	/* delivery-rate samples for the module */
	/* RTT and timer */
	uint64_t srtt, rttvar, rto;
	/* Linux's estimator (with RACK): 4 mdev, its maximum this window, RTTVAR */
	uint64_t lx_mdev, lx_mdev_max, lx_rttvar;
	uint32_t lx_rtt_seq;
	uint64_t rtt_sum;
	uint8_t rtt_timing;
	uint32_t rtt_seq;
	uint64_t rtt_ts;
	uint32_t backoffs;
	uint64_t rto_at, delack_at, tw_at;
	uint32_t syn_tries;

	/* receive side */
	uint32_t irs, rcv_nxt;
	uint8_t *rcvbuf;
	uint32_t rcvbuf_size;
	uint64_t rcv_off;		/* stream offset of rcv_nxt */
	uint32_t nooo, ooo_cap;
	struct tcp_sack_blk *ooo;	/* sorted, ooo_cap entries */
	uint32_t last_ooo;		/* start of the most recent OOO arrival */
	struct tcp_sack_blk dsack;	/* RFC 2883: a duplicate to report once */
	uint8_t dsack_pending;
	uint8_t fin_rcvd, rfin_pending;
	uint32_t rfin_seq;
	uint32_t ts_recent, last_ack_sent;
	uint8_t ts_recent_ok;
	uint32_t rcv_mss;		/* largest payload seen */
	uint32_t unacked_segs;
	/* TCPW-C receiver: arrival time (TS clock) and TSval of the last two
	 * full in-order segments since the last segment we sent */
	uint32_t pair_rx[2], pair_tsv[2];
	uint8_t pair_n;

	/* pending control */
	uint8_t syn_pending, ack_now, pair_now, rst_pending;
	uint64_t chal_win;
	uint32_t chal_cnt;

	/* trace */
	uint32_t tr_cwnd, tr_ssthresh;

	struct tcp_stats st;
};

/* TSval clock: microseconds. */
static inline uint32_t
tcp_ts_now(uint64_t now)
{
	return (uint32_t)(now / NS_PER_US);
}

/* tcp_conn.c: state helpers */
void tcp_trace(struct tcp_conn *c, uint64_t now, uint8_t ev);
void tcp_cc_sync(struct tcp_conn *c, uint32_t flight);
int tcp_challenge_ok(struct tcp_conn *c, uint64_t now);
void tcp_closed(struct tcp_conn *c, enum tcp_close_reason r, uint64_t now);
void tcp_time_wait(struct tcp_conn *c, uint64_t now);
int tcp_fin_acked(const struct tcp_conn *c);
/* tcp_input.c: ACKs and data */
int tcp_process_ack(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now);
void tcp_process_data(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now);
/* tcp_sack.c: sender scoreboard, receiver out-of-order blocks */
void tcp_sb_trim(struct tcp_conn *c);
uint32_t tcp_sb_add(struct tcp_conn *c, uint32_t s, uint32_t e);
uint32_t tcp_sb_lost_edge(const struct tcp_conn *c);
uint32_t tcp_sb_pipe(const struct tcp_conn *c);
int tcp_sb_next_lost(const struct tcp_conn *c, uint32_t *seq, uint32_t *len);
int tcp_ooo_add(struct tcp_conn *c, uint32_t s, uint32_t e);
void tcp_rcv_dsack(struct tcp_conn *c, uint32_t s, uint32_t e);
/* tcp_recov.c: recovery, PRR, RACK-TLP hooks */
void tcp_apply_cap(struct tcp_conn *c);
void tcp_enter_recovery(struct tcp_conn *c, uint64_t now);
void tcp_exit_recovery(struct tcp_conn *c, uint64_t now);
void tcp_prr_update(struct tcp_conn *c, uint32_t delivered, int safe);
uint32_t tcp_rack_mark(struct tcp_conn *c, uint32_t una, uint64_t now);
void tcp_rack_recover(struct tcp_conn *c, uint64_t now, uint32_t delivered);
void tcp_rack_timer(struct tcp_conn *c, uint64_t now);
void tcp_tlp_ack(struct tcp_conn *c, uint32_t ack, uint32_t acked, uint32_t sacked,
		const struct tcp_sack_blk *dsack, uint64_t now);
/* undo: an episode starts (before its reduction), a retransmission, an ACK */
void tcp_undo_start(struct tcp_conn *c, int loss);
void tcp_undo_rtx(struct tcp_conn *c, uint64_t now);
void tcp_undo_ack(struct tcp_conn *c, const struct tcp_seg *s, uint32_t acked,
		const struct tcp_sack_blk *dsack, uint64_t now);
/* tcp_output.c: segments out */
int tcp_can_send_data(const struct tcp_conn *c);
void tcp_tlp_arm(struct tcp_conn *c, uint64_t now);
int tcp_next_data(struct tcp_conn *c, uint64_t now, void *buf, size_t cap, uint16_t *flen);
/* tcp_timer.c: RTO, timers */
void tcp_arm_rto(struct tcp_conn *c, uint64_t now);

void tcp_rtt_sample(struct tcp_conn *c, uint64_t r);
void tcp_rto_update(struct tcp_conn *c);
void tcp_run_timers(struct tcp_conn *c, uint64_t now);

/* Module table entries (one file each). */
extern const struct tcp_cc_ops tcp_cc_tahoe;
extern const struct tcp_cc_ops tcp_cc_reno;
extern const struct tcp_cc_ops tcp_cc_newreno;
extern const struct tcp_cc_ops tcp_cc_sack;
extern const struct tcp_cc_ops tcp_cc_vegas;
extern const struct tcp_cc_ops tcp_cc_bic;
extern const struct tcp_cc_ops tcp_cc_cubic;
extern const struct tcp_cc_ops tcp_cc_westwood;
extern const struct tcp_cc_ops tcp_cc_tcpwc;
extern const struct tcp_cc_ops tcp_cc_bbr;

/* Westwood+ estimator, shared by westwood and tcpw-c. */
struct tcp_ww_est {
	uint64_t bw_Bps;		/* filtered estimate, bytes/s */
	uint64_t win_start;		/* ns */
	uint64_t bk;			/* bytes acked in the current window */
	uint32_t snd_una;		/* last cumulative ACK seen */
	uint32_t accounted;		/* dupack credit (bytes) */
	uint8_t started;
};
void tcp_ww_est_ack(struct tcp_ww_est *w, const struct tcp_cc *cc,
		const struct tcp_cc_ack *a);
/* Westwood loss rules: ssthresh = max(2 mss, bw * rtt_min). */
uint32_t tcp_ww_ssthresh(const struct tcp_cc *cc, uint64_t bw_Bps);

#endif /* TCP_PRIV_H */
