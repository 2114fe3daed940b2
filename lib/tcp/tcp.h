/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tcp: a userspace TCP (IPv4) sender and receiver with pluggable congestion
 * control, the TCP baseline that DFCP is compared against (issue #7).
 *
 * No DPDK calls. Time is passed in (nanoseconds, any monotonic origin);
 * frames are plain byte buffers owned by the caller (Ethernet / IPv4 / TCP,
 * checksums computed in software). The engine drives an endpoint with:
 *   tcp_ep_rx()            for every received frame (TCP or ARP),
 *   tcp_ep_tx_burst()      "give me up to n frames to send now",
 *   tcp_ep_next_deadline() to know when to call again when idle.
 * Functions return 0 or a negative errno (or -TCP_E_*); burst calls return
 * counts. See doc/tcp.md.
 *
 * Implemented: three-way handshake, MSS, window scaling, timestamps (RTT),
 * SACK (receiver blocks, sender scoreboard and RFC 6675 recovery),
 * cumulative and delayed ACKs, RFC 6298 RTO with minimum and timer tick,
 * fast retransmit / recovery (Tahoe, Reno, NewReno, SACK), RACK-TLP loss
 * detection and limited transmit, FIN / RST with
 * RFC 5961 checks, zero-window probes, a listener that holds SYNs in a
 * bounded half-open table with FIFO eviction and SYN cookies (RFC 4987) and
 * makes a connection only on the final ACK; congestion control modules behind
 * struct tcp_cc_ops; the seed-002 cwnd-cap policy (struct tcp_cap).
 */
#ifndef TCP_H
#define TCP_H

#include <stddef.h>
#include <stdint.h>

#include "net.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Wire format                                                          */
/* ------------------------------------------------------------------ */

#define TCP_ETH_LEN		14
#define TCP_IP_LEN		20
#define TCP_HDR_LEN		20
#define TCP_OPT_MAX		40
#define TCP_L2L4_LEN		(TCP_ETH_LEN + TCP_IP_LEN + TCP_HDR_LEN)	/* 54 */
#define TCP_HDR_MAX		(TCP_L2L4_LEN + TCP_OPT_MAX)	/* 94 */
#define TCP_MIN_FRAME		60	/* frames are padded to this */
#define TCP_ETHERTYPE_IPV4	0x0800

#define TCP_FL_FIN		0x01
#define TCP_FL_SYN		0x02
#define TCP_FL_RST		0x04
#define TCP_FL_PSH		0x08
#define TCP_FL_ACK		0x10
#define TCP_FL_URG		0x20
#define TCP_FL_ECE		0x40
#define TCP_FL_CWR		0x80

/*
 * TCPW-C (seed 001): the assistant ACK of an ACK pair has the three
 * reserved bits of the data-offset byte set (RFC 9293 "Rsrvd", bits 4-6 of
 * byte 12; the AE/NS bit and the ECN flags are left alone).
 */
#define TCP_RSV_PAIR		0x0e

/* Option presence bits (struct tcp_seg.opts). */
#define TCP_O_MSS		0x01
#define TCP_O_WS		0x02
#define TCP_O_SACKOK		0x04
#define TCP_O_TS		0x08
#define TCP_O_SACK		0x10

#define TCP_MAX_SACK		4	/* blocks in one segment (3 with TS) */
#define TCP_MAX_WSCALE		14

/*
 * Parse and validation errors, counted per reason by the endpoint. The
 * Ethernet / IPv4 and ARP ones are lib/net's (enum net_err), the same numbers.
 */
enum tcp_err {
	TCP_E_OK = NET_E_OK,
	TCP_E_TRUNC_ETH = NET_E_TRUNC_ETH,
	TCP_E_ETHERTYPE = NET_E_ETHERTYPE,
	TCP_E_TRUNC_IP = NET_E_TRUNC_IP,
	TCP_E_IP_HDR = NET_E_IP_HDR,	/* IPv4 options are allowed */
	TCP_E_IP_LEN = NET_E_IP_LEN,
	TCP_E_IP_CSUM = NET_E_IP_CSUM,
	TCP_E_IP_FRAG = NET_E_IP_FRAG,
	TCP_E_IP_PROTO = NET_E_IP_PROTO,	/* not TCP */
	TCP_E_ARP = NET_E_ARP,		/* malformed ARP */
	TCP_E_TRUNC_TCP = NET_E_MAX,	/* shorter than a TCP header */
	TCP_E_TCP_OFF,		/* data offset < 5 or past the end */
	TCP_E_TCP_CSUM,		/* bad TCP checksum */
	TCP_E_OPT,		/* malformed option */
	TCP_E_FLAGS,		/* impossible flag combination (SYN+FIN, SYN+RST...) */
	TCP_E_ADDR,		/* not addressed to us */
	TCP_E_NO_CONN,		/* no connection (answered by RST) */
	TCP_E_STATE,		/* not expected in this state */
	TCP_E_WINDOW,		/* sequence number outside the receive window */
	TCP_E_ACK,		/* unacceptable ACK (acks unsent data / too old) */
	TCP_E_RST,		/* RST not exactly at rcv_nxt: ignored / challenged */
	TCP_E_SYN,		/* SYN on a synchronized connection: challenged */
	TCP_E_FULL,		/* connection table or half-open limit full */
	TCP_E_PAWS,		/* timestamp older than TS.Recent (RFC 7323 PAWS) */
	TCP_E_MAX
};
const char *tcp_err_str(int err);	/* accepts err or -err */

/* Receive checksum policy. */
#define TCP_RX_IP_CSUM_OK	0x1	/* NIC verified the IPv4 checksum */
#define TCP_RX_L4_CSUM_OK	0x2	/* NIC verified the TCP checksum */

struct tcp_sack_blk {
	uint32_t start, end;	/* [start, end) sequence numbers */
};

/* A segment, parsed or to be built (host byte order). */
struct tcp_seg {
	uint8_t dst_mac[6], src_mac[6];
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	uint32_t seq, ack;
	uint8_t flags;		/* TCP_FL_* */
	uint8_t rsv;		/* low nibble of byte 12 (TCP_RSV_PAIR, AE) */
	uint16_t wnd;		/* raw window field */
	uint8_t opts;		/* TCP_O_* present */
	uint8_t wscale;
	uint16_t mss;
	uint32_t tsval, tsecr;
	uint8_t nsack;
	struct tcp_sack_blk sack[TCP_MAX_SACK];
	const uint8_t *payload;	/* into the frame when parsed */
	uint32_t len;		/* payload bytes */
	uint32_t frame_len;	/* parsed: Ethernet frame length (IP total + 14) */
};

/* Parse and fully validate one frame. rx_flags: TCP_RX_*. 0 or -TCP_E_*. */
int tcp_parse(const void *frame, size_t len, unsigned int rx_flags,
		struct tcp_seg *s);
/*
 * Build a frame from s (headers, options in s->opts, payload copied from
 * s->payload unless NULL with s->len > 0: then the caller has written the
 * payload at offset tcp_hdr_len(s)). Returns the frame length (padded to
 * 60), -EMSGSIZE if cap is too small, -EINVAL on bad fields.
 */
int tcp_build(void *frame, size_t cap, const struct tcp_seg *s);
/* Header length (Ethernet + IPv4 + TCP with s's options). */
unsigned int tcp_hdr_len(const struct tcp_seg *s);

/* Sequence-space comparisons. */
#define TCP_SEQ_LT(a, b)	((int32_t)((uint32_t)(a) - (uint32_t)(b)) < 0)
#define TCP_SEQ_LEQ(a, b)	((int32_t)((uint32_t)(a) - (uint32_t)(b)) <= 0)
#define TCP_SEQ_GT(a, b)	((int32_t)((uint32_t)(a) - (uint32_t)(b)) > 0)
#define TCP_SEQ_GEQ(a, b)	((int32_t)((uint32_t)(a) - (uint32_t)(b)) >= 0)

/* ------------------------------------------------------------------ */
/* Congestion control                                                   */
/* ------------------------------------------------------------------ */

/* Loss recovery a module asks the connection for. */
enum tcp_recovery {
	TCP_REC_NONE = 0,	/* Tahoe: fast retransmit, then slow start from 1 */
	TCP_REC_RENO,		/* RFC 5681: leave recovery on the first new ACK */
	TCP_REC_NEWRENO,	/* RFC 6582: stay until 'recover' is acked */
	TCP_REC_SACK,		/* RFC 6675: scoreboard, pipe, NextSeg */
};

/*
 * The state a module works on, embedded in the connection. cwnd and
 * ssthresh are bytes. The connection fills mss, flight, the RTT fields and
 * in_recovery before every call and applies cwnd_cap after it.
 */
struct tcp_cc {
	const struct tcp_cc_ops *ops;
	uint32_t mss;
	uint32_t cwnd, ssthresh;
	uint32_t flight;		/* bytes outstanding (pipe) */
	uint32_t snd_nxt;		/* next new sequence number (RTT rounds) */
	uint32_t cwnd_cap;		/* 0: none (seed-002 policy sets it) */
	uint32_t ca_acc;		/* bytes acked toward the next CA step */
	uint8_t in_recovery;
	uint8_t in_loss;		/* after an RTO, until its window is acked */
	uint64_t rtt_min_ns, srtt_ns;
	uint64_t pacing_Bps;		/* set by a module that paces (0: unpaced) */
	uint8_t app_limited;		/* set by a module: samples of the data in
					 * flight now are app-limited */
	uint64_t priv[96];		/* module state */
};

/* One received ACK as a module sees it. */
struct tcp_cc_ack {
	uint64_t now;			/* arrival time */
	uint32_t ack;			/* cumulative ACK (sequence) */
	uint32_t acked;			/* bytes newly acked (0: duplicate) */
	uint32_t sacked;		/* bytes newly SACKed */
	uint64_t rtt_ns;		/* RTT sample, 0 = none (Karn / no TS) */
	uint64_t delay_ns;		/* now - echoed send time (TS), 0 = unknown */
	uint32_t frame_len;		/* bytes of the ACK frame */
	uint8_t pair;			/* TCPW-C assistant ACK (TCP_RSV_PAIR) */
	uint8_t has_tsval;		/* tsval valid (TS option with an echo) */
	uint32_t tsval;			/* peer's TSval (TCPW-C: data arrival) */
	uint8_t dup;			/* counted as a duplicate ACK */
};

/*
 * Delivery-rate sample of one ACK (draft-cheng-iccrg-delivery-rate-estimation,
 * Linux's tcp_rate.c), from per-segment send state; byte counts.
 * interval_ns 0: no valid sample (delivered and the rate are not to be used).
 */
struct tcp_rate_sample {
	uint64_t delivered_total;	/* bytes delivered since the start */
	uint64_t prior_delivered;	/* delivered_total when the sampled segment left */
	uint64_t delivered;		/* bytes delivered over interval_ns */
	uint64_t interval_ns;		/* max(send interval, ACK interval) */
	uint64_t rtt_ns;		/* of the newest delivered original, 0: none */
	uint32_t acked_sacked;		/* bytes newly delivered by this ACK */
	uint32_t losses;		/* bytes newly marked lost by this ACK */
	uint32_t prior_in_flight;	/* pipe before the ACK */
	uint32_t in_flight;		/* pipe after it */
	uint8_t is_app_limited;		/* the sampled segment left app-limited */
};

struct tcp_cc_ops {
	const char *name;
	const char *help;
	enum tcp_recovery recovery;
	unsigned int flags;		/* TCP_CC_F_* */
	/* set up priv; cwnd/ssthresh already hold the initial values */
	void (*init)(struct tcp_cc *cc, uint64_t now);
	/* every ACK, before the connection acts on it (estimators); optional */
	void (*on_ack)(struct tcp_cc *cc, const struct tcp_cc_ack *a);
	/* new data acked outside recovery: grow cwnd */
	void (*cong_avoid)(struct tcp_cc *cc, const struct tcp_cc_ack *a);
	/* new ssthresh on a loss event (dupacks or timeout) */
	uint32_t (*ssthresh)(struct tcp_cc *cc, uint64_t now);
	/* after ssthresh and cwnd are set for fast recovery; optional */
	void (*enter_recovery)(struct tcp_cc *cc, uint64_t now);
	/* partial ACK inside NewReno/SACK recovery; optional */
	void (*on_partial_ack)(struct tcp_cc *cc, const struct tcp_cc_ack *a);
	/* recovery complete (cwnd already deflated to ssthresh); optional */
	void (*exit_recovery)(struct tcp_cc *cc, uint64_t now);
	/* after a retransmission timeout set ssthresh and cwnd = 1 MSS; optional */
	void (*on_timeout)(struct tcp_cc *cc, uint64_t now);
	/* bandwidth estimate in bit/s for stats, 0 = none; optional */
	uint64_t (*bw_bps)(const struct tcp_cc *cc);
	/* every ACK, after loss detection, with its delivery-rate sample
	 * (Linux's cong_control); optional. A module that sets it owns cwnd:
	 * the connection calls no cong_avoid, runs no PRR and leaves cwnd as
	 * it is on entering and leaving recovery (an RTO still sets 1 MSS) */
	void (*cong_control)(struct tcp_cc *cc, const struct tcp_cc_ack *a,
			const struct tcp_rate_sample *rs);
};

#define TCP_CC_F_PAIR_ACKS	0x1	/* wants the peer to send ACK pairs (TCPW-C) */

/* The module table: tahoe, reno, newreno, sack, vegas, bic, cubic,
 * westwood, tcpw-c, bbr. NULL if unknown. */
const struct tcp_cc_ops *tcp_cc_find(const char *name);
/* i-th module or NULL past the end. */
const struct tcp_cc_ops *tcp_cc_get(unsigned int i);

/* Initialise cc for ops (cwnd = init_cwnd, ssthresh = "infinite"). */
void tcp_cc_init(struct tcp_cc *cc, const struct tcp_cc_ops *ops,
		uint32_t mss, uint32_t init_cwnd_segs, uint64_t now);
/* Shared helpers the modules use. */
void tcp_cc_reno_grow(struct tcp_cc *cc, uint32_t acked);	/* SS + AIMD CA */
uint32_t tcp_cc_reno_ssthresh(struct tcp_cc *cc, uint64_t now);	/* flight/2 */

/* Module parameters that tests and configs may change (defaults shown). */
extern uint32_t tcp_vegas_alpha;	/* 2 segments */
extern uint32_t tcp_vegas_beta;		/* 4 segments */
extern uint32_t tcp_vegas_gamma;	/* 1 segment */
extern uint32_t tcp_cubic_hz;		/* CUBIC's jiffy clock: 250 (Linux CONFIG_HZ) */
extern uint32_t tcp_cubic_hystart;	/* HyStart in CUBIC's slow start: 1 */

/* Introspection for tests and stats (module state is private). */
struct tcp_cubic_info {
	uint32_t w_max;		/* segments */
	uint64_t k_ms;		/* K in ms */
	uint64_t epoch_ns;	/* start of the current epoch (jiffy), 0 = none */
	uint8_t hystart_found;	/* HyStart ended slow start */
	uint64_t delay_min_ns;	/* CUBIC's minimum RTT */
};
void tcp_cubic_info(const struct tcp_cc *cc, struct tcp_cubic_info *ci);
/* TCPW-C: add an ACK pair sample directly (tests). */
void tcp_tcpwc_add_pair(struct tcp_cc *cc, uint64_t dispersion_ns,
		uint64_t delay_sum_ns, uint32_t len);
uint32_t tcp_tcpwc_pairs(const struct tcp_cc *cc);
/* BBR's state machine and model. */
enum tcp_bbr_mode {
	TCP_BBR_STARTUP = 0, TCP_BBR_DRAIN, TCP_BBR_PROBE_BW, TCP_BBR_PROBE_RTT,
};
struct tcp_bbr_info {
	enum tcp_bbr_mode mode;
	uint64_t bw_Bps;		/* BtlBw: windowed max delivery rate */
	uint64_t min_rtt_ns;		/* RTprop: windowed min RTT */
	uint32_t pacing_gain, cwnd_gain;	/* in 1/256 */
	uint32_t cycle_idx;		/* PROBE_BW phase 0..7 */
	uint64_t rounds;		/* round trips counted */
	uint8_t full_bw_reached;
	uint64_t probe_rtts;		/* PROBE_RTT entries */
};
void tcp_bbr_info(const struct tcp_cc *cc, struct tcp_bbr_info *bi);

/* ------------------------------------------------------------------ */
/* Connections                                                          */
/* ------------------------------------------------------------------ */

enum tcp_state {
	TCP_CLOSED = 0,
	TCP_LISTEN,
	TCP_SYN_SENT,
	TCP_SYN_RECV,
	TCP_ESTABLISHED,
	TCP_FIN_WAIT1,
	TCP_FIN_WAIT2,
	TCP_CLOSE_WAIT,
	TCP_CLOSING,
	TCP_LAST_ACK,
	TCP_TIME_WAIT,
	TCP_STATE_MAX
};
const char *tcp_state_str(enum tcp_state s);

enum tcp_close_reason {
	TCP_CR_NONE = 0,
	TCP_CR_DONE,		/* orderly close */
	TCP_CR_SYN_TIMEOUT,	/* handshake retries exhausted */
	TCP_CR_TIMEOUT,		/* data / FIN retries exhausted */
	TCP_CR_RESET,		/* RST received */
	TCP_CR_ABORT,		/* local abort */
};

struct tcp_addr {
	uint8_t mac[6];
	uint32_t ip;		/* host order */
	uint16_t port;
};

/* One cwnd trace point (on every cwnd / ssthresh change and each RTO). */
enum tcp_trace_ev {
	TCP_TR_ACK = 0, TCP_TR_DUPACK, TCP_TR_RECOVERY, TCP_TR_PARTIAL,
	TCP_TR_EXIT, TCP_TR_TIMEOUT, TCP_TR_CAP,
};
struct tcp_trace_pt {
	uint64_t now;
	uint32_t cwnd, ssthresh;	/* bytes */
	uint32_t flight;
	uint64_t srtt_ns;
	uint8_t ev;			/* enum tcp_trace_ev */
};
typedef void (*tcp_trace_fn)(void *ctx, const struct tcp_trace_pt *pt);

/* Bounded trace buffer (a ready-made trace callback). */
struct tcp_trace_buf {
	struct tcp_trace_pt *pts;
	uint32_t cap, n;
	uint64_t dropped;
	uint64_t min_gap_ns;	/* keep at most one point per gap (0 = all) */
};
int tcp_trace_buf_init(struct tcp_trace_buf *b, uint32_t cap, uint64_t min_gap_ns);
void tcp_trace_buf_free(struct tcp_trace_buf *b);
void tcp_trace_buf_add(void *ctx, const struct tcp_trace_pt *pt);
/* gnuplot data: "time_s cwnd_seg ssthresh_seg srtt_ms event"; 0 or -errno. */
int tcp_trace_buf_write(const struct tcp_trace_buf *b, const char *path,
		uint32_t mss, uint64_t t0);

struct tcp_conf {
	struct tcp_addr local, remote;
	const char *cc;			/* module name (default "newreno") */
	int recovery;			/* -1: the module's; else enum tcp_recovery */
	uint16_t mss;			/* our MSS (default 1460) */
	uint32_t sndbuf, rcvbuf;	/* bytes, rounded up to 2^n (1 MiB each) */
	int wscale, sack, timestamps;	/* offer the option (default 1 each) */
	uint32_t init_cwnd;		/* segments (default 10) */
	uint32_t dupthresh;		/* duplicate ACKs for fast retransmit (3) */
	/* RACK-TLP loss detection (RFC 8985): -1 auto = on when the recovery is
	 * SACK (sack, bic, cubic), 0 off, 1 on: Linux's loss recovery (SACK +
	 * RACK-TLP + PRR) under any module but tahoe; needs SACK negotiated */
	int rack;
	int limited_transmit;		/* RFC 3042: -1 = with rack, 0 off, 1 on */
	uint32_t delack_count;		/* ACK every N full segments (2; 1 = off) */
	uint64_t delack_ns;		/* delayed ACK timeout (40 ms) */
	int pair_acks;			/* receiver: TCPW-C ACK pairs (-1: if the cc asks) */
	uint64_t rto_init_ns;		/* 1 s */
	uint64_t rto_min_ns;		/* 200 ms */
	uint64_t rto_max_ns;		/* 60 s */
	uint64_t tick_ns;		/* timer granularity G (0: exact) */
	uint32_t max_retries;		/* RTO expiries in a row before giving up (12) */
	uint32_t syn_retries;		/* 5 */
	uint64_t time_wait_ns;		/* 1 s */
	uint32_t iss;			/* initial sequence number (0: from a hash) */
	uint8_t ttl;			/* 64 */
	/* application */
	net_source_fn source;		/* NULL: nothing to send */
	void *source_ctx;
	net_sink_fn sink;		/* NULL: data counted and dropped */
	void *sink_ctx;
	int close_on_eof;		/* send FIN when the source ends (1) */
	tcp_trace_fn trace;
	void *trace_ctx;
};
void tcp_conf_default(struct tcp_conf *c);

struct tcp_stats {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	uint64_t tx_data_pkts, tx_data_bytes;	/* incl. retransmissions */
	uint64_t rx_data_pkts, rx_data_bytes;
	uint64_t retrans_pkts, retrans_bytes;
	uint64_t fast_retrans;			/* recovery episodes entered */
	uint64_t timeouts;			/* RTO expiries */
	uint64_t dupacks_rx;
	uint64_t acks_tx, pair_acks_tx, pair_acks_rx;
	uint64_t sack_blocks_rx, sack_blocks_tx;
	uint64_t ooo_pkts;			/* received out of order */
	uint64_t dup_data_pkts;			/* received, already had it */
	uint64_t rst_rx, challenge_acks, rst_tx;
	uint64_t zero_window_probes;
	uint64_t rack_marked;			/* segments RACK deemed lost */
	uint64_t tlp_probes, tlp_recoveries;	/* probes sent; losses they repaired */
	uint64_t dsack_rx, dsack_tx;		/* D-SACK blocks (RFC 2883) */
	uint64_t undos;				/* spurious reductions undone */
	uint8_t rack;				/* RACK-TLP in use on this connection */
	uint64_t bytes_acked;			/* sender goodput */
	uint64_t bytes_delivered;		/* receiver goodput (to the sink) */
	uint32_t cwnd, ssthresh, mss, flight;	/* bytes */
	uint32_t snd_wnd, rcv_wnd;
	uint64_t srtt_ns, rttvar_ns, rto_ns;
	uint64_t rtt_min_ns, rtt_avg_ns, rtt_samples;
	uint64_t bw_est_bps;			/* Westwood / TCPW-C / BBR estimate */
	uint64_t pacing_bps;			/* the module's pacing rate (0: none) */
	uint64_t start_ns, established_ns, done_ns;
	uint64_t drops[TCP_E_MAX];
};

struct tcp_conn;

/* Active open (SYN on the first tx_burst). NULL on bad conf / no memory. */
struct tcp_conn *tcp_conn_connect(const struct tcp_conf *conf, uint64_t now);
void tcp_conn_free(struct tcp_conn *c);
/* Feed one parsed segment of this connection. 0 or -TCP_E_* (dropped). */
int tcp_conn_rx(struct tcp_conn *c, const struct tcp_seg *s, uint64_t now);
/* Write up to n frames (each cap >= mss + TCP_HDR_MAX bytes). Runs timers. */
unsigned int tcp_conn_tx_burst(struct tcp_conn *c, uint64_t now,
		void *const *bufs, uint16_t *lens, size_t cap, unsigned int n);
/* Earliest time tx_burst has something to do (UINT64_MAX: nothing). */
uint64_t tcp_conn_next_deadline(const struct tcp_conn *c, uint64_t now);
int tcp_conn_close(struct tcp_conn *c, uint64_t now);	/* FIN after queued data */
void tcp_conn_abort(struct tcp_conn *c, uint64_t now);	/* RST, CLOSED */

enum tcp_state tcp_conn_state(const struct tcp_conn *c);
enum tcp_close_reason tcp_conn_close_reason(const struct tcp_conn *c);
void tcp_conn_stats(const struct tcp_conn *c, struct tcp_stats *st);
/* The congestion-control state (read-only for stats, cwnd_cap writable). */
struct tcp_cc *tcp_conn_cc(struct tcp_conn *c);
/* Sender: every byte of the source acked (and FIN acked if sent). */
int tcp_conn_send_done(const struct tcp_conn *c);
/* Sender: hold (1) or release (0) the source: while held, nothing more is
 * taken from it (what is buffered is still sent, nothing closes). */
void tcp_conn_hold(struct tcp_conn *c, int hold);
/* Receiver: FIN received (all data delivered). */
int tcp_conn_recv_done(const struct tcp_conn *c);
const struct tcp_addr *tcp_conn_remote(const struct tcp_conn *c);
/* Replace the application sink (e.g. from on_accept, per connection). */
void tcp_conn_set_sink(struct tcp_conn *c, net_sink_fn fn, void *ctx);
uint16_t tcp_conn_local_port(const struct tcp_conn *c);

/* ------------------------------------------------------------------ */
/* Endpoint: one local address, listener and demultiplexer             */
/* ------------------------------------------------------------------ */

struct tcp_ep_conf {
	struct tcp_addr local;		/* port: the listening port */
	uint32_t max_conns;		/* 64 */
	/*
	 * Half-open table (SYNs answered, no ACK yet): small records, no
	 * connection and no buffers, 1..TCP_EP_MAX_HALF (4096). When full the
	 * oldest entry makes room. Every SYN-ACK's ISN is a SYN cookie (RFC
	 * 4987 section 3.6), accepted in the final ACK for up to two cookie
	 * periods after the table was last full, so a handshake whose entry was
	 * evicted still completes. An entry's SYN-ACK is resent after
	 * accept_conf.rto_init_ns, doubling, syn_retries times; then it expires.
	 */
	uint32_t max_half_open;
	int listen;
	struct tcp_conf accept_conf;	/* template for accepted connections */
	unsigned int rx_flags;		/* TCP_RX_* */
	uint32_t rst_per_sec;		/* RSTs sent for unknown segments (100) */
	uint64_t secret_seed;		/* cookie key: 0 = getrandom(); tests fix it */
	/* called when an accepted connection completes its handshake
	 * (ESTABLISHED, before any data is delivered); never for a SYN alone */
	void (*on_accept)(void *ctx, struct tcp_conn *c);
	void *accept_ctx;
};
#define TCP_EP_MAX_HALF		(1u << 20)
/* SYN cookies: a cookie is accepted while its period (2^36 ns, ~69 s) or
 * the one before is current. */
#define TCP_COOKIE_PERIOD_SHIFT	36
void tcp_ep_conf_default(struct tcp_ep_conf *c);

struct tcp_ep_stats {
	uint64_t rx_pkts;
	uint64_t rst_sent, rst_suppressed;
	uint64_t syn_accepted;		/* handshakes completed (connections accepted) */
	uint64_t syn_rx;		/* SYNs answered with a SYN-ACK */
	uint64_t arp_replies;
	uint64_t conns;
	uint64_t half_open;		/* entries now */
	uint64_t half_open_evicted;	/* the oldest entry made room for a SYN */
	uint64_t half_open_expired;	/* entries whose SYN-ACKs went unanswered */
	uint64_t syn_cookies_sent;	/* SYN-ACKs sent while the table was full */
	uint64_t syn_cookies_ok;	/* handshakes completed by their cookie (no entry) */
	uint64_t syn_cookies_bad;	/* final ACKs with no entry and no valid cookie */
	uint64_t drops[TCP_E_MAX];	/* before reaching a connection */
	uint64_t conn_drops[TCP_E_MAX];	/* returned by connections */
};

struct tcp_ep;
struct tcp_ep *tcp_ep_create(const struct tcp_ep_conf *conf);
void tcp_ep_free(struct tcp_ep *ep);
struct tcp_conn *tcp_ep_connect(struct tcp_ep *ep, const struct tcp_conf *conf,
		uint64_t now);
int tcp_ep_rx(struct tcp_ep *ep, const void *frame, size_t len, uint64_t now);
unsigned int tcp_ep_tx_burst(struct tcp_ep *ep, uint64_t now,
		void *const *bufs, uint16_t *lens, size_t cap, unsigned int n);
uint64_t tcp_ep_next_deadline(const struct tcp_ep *ep, uint64_t now);
unsigned int tcp_ep_reap(struct tcp_ep *ep);	/* free CLOSED connections */
/* next connection with index >= *pos (advances *pos), or NULL */
struct tcp_conn *tcp_ep_next_conn(struct tcp_ep *ep, uint32_t *pos);
void tcp_ep_stats(const struct tcp_ep *ep, struct tcp_ep_stats *st);
/* sum += a, every counter (the current ones too) */
void tcp_ep_stats_add(struct tcp_ep_stats *sum, const struct tcp_ep_stats *a);

/* ------------------------------------------------------------------ */
/* Seed-002 cwnd-cap policy over a set of flows                        */
/* ------------------------------------------------------------------ */

enum tcp_cap_mode {
	TCP_CAP_OFF = 0,
	TCP_CAP_OLD,		/* each flow capped when its own RTT rises */
	TCP_CAP_COORD,		/* every flow capped when any flow's RTT rises */
};

#define TCP_CAP_TABLE_MAX	16
struct tcp_cap_ent {
	uint64_t rtt_rise_ns;	/* srtt - rtt_min at least this ... */
	uint32_t cap_segs;	/* ... caps cwnd at this many segments */
};

struct tcp_cap_conf {
	enum tcp_cap_mode mode;
	uint64_t interval_ns;		/* re-evaluation period (500 ms) */
	uint32_t rise_pct;		/* "sharp rise": srtt > rtt_min*(100+pct)/100 (100) */
	uint64_t rise_min_ns;		/* ... and srtt - rtt_min >= this (5 ms) */
	uint32_t budget_segs;		/* bound 1 = budget / active flows (0: from bw) */
	uint64_t bw_bps;		/* bottleneck rate for the budget (0: no bound 1) */
	uint32_t queue_segs;		/* bottleneck queue counted in the budget */
	uint32_t min_segs;		/* never cap below this (4) */
	uint32_t release_pct;		/* stop when srtt < rtt_min*(100+pct)/100 (25) */
	uint32_t ntable;
	struct tcp_cap_ent table[TCP_CAP_TABLE_MAX];	/* ascending rise */
};
void tcp_cap_conf_default(struct tcp_cap_conf *c);

#define TCP_CAP_MAX_FLOWS	64
struct tcp_cap;
struct tcp_cap *tcp_cap_create(const struct tcp_cap_conf *conf);
void tcp_cap_free(struct tcp_cap *p);
int tcp_cap_add(struct tcp_cap *p, struct tcp_conn *c);	/* index or -errno */
/* Run at most once per interval (call as often as you like); returns 1 when
 * it re-evaluated. */
int tcp_cap_poll(struct tcp_cap *p, uint64_t now);
uint64_t tcp_cap_next_deadline(const struct tcp_cap *p);
/* Pure decision helpers (tests): cap for one flow's rise, bound 1. */
uint32_t tcp_cap_table_lookup(const struct tcp_cap_conf *c, uint64_t rise_ns);
uint32_t tcp_cap_flow_bound(const struct tcp_cap_conf *c, uint32_t nactive,
		uint64_t rtt_min_ns, uint32_t mss);
struct tcp_cap_stats {
	uint64_t evaluations;
	uint64_t triggers;		/* evaluations with a sharp rise */
	uint32_t active, capped;	/* flows now */
	uint32_t last_cap_segs;
};
void tcp_cap_stats(const struct tcp_cap *p, struct tcp_cap_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* TCP_H */
