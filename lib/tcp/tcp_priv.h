/* SPDX-License-Identifier: BSD-3-Clause */
/* tcp private definitions. */
#ifndef TCP_PRIV_H
#define TCP_PRIV_H

#include <stdint.h>
#include <string.h>

#include "net.h"
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
struct tcp_conn *tcp_conn_accept(const struct tcp_conf *conf,
		const struct tcp_seg *syn, uint64_t now);
int tcp_conn_match(const struct tcp_conn *c, const struct tcp_seg *s);
int tcp_conn_is_half_open(const struct tcp_conn *c);

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
