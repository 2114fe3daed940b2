/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Congestion-control module table and the helpers shared by the modules:
 * RFC 5681 slow start / congestion avoidance with byte counting (RFC 3465,
 * L = 2 SMSS), the FlightSize/2 loss rule, an integer cube root.
 */
#include <string.h>

#include "tcp.h"
#include "tcp_priv.h"

static const struct tcp_cc_ops *const cc_table[] = {
	&tcp_cc_tahoe,
	&tcp_cc_reno,
	&tcp_cc_newreno,
	&tcp_cc_sack,
	&tcp_cc_vegas,
	&tcp_cc_bic,
	&tcp_cc_cubic,
	&tcp_cc_westwood,
	&tcp_cc_tcpwc,
	&tcp_cc_bbr,
};

const struct tcp_cc_ops *
tcp_cc_find(const char *name)
{
	if (name == NULL)
		return NULL;
	for (unsigned int i = 0; i < sizeof(cc_table) / sizeof(cc_table[0]); i++)
		if (strcmp(cc_table[i]->name, name) == 0)
			return cc_table[i];
	return NULL;
}

const struct tcp_cc_ops *
tcp_cc_get(unsigned int i)
{
	if (i >= sizeof(cc_table) / sizeof(cc_table[0]))
		return NULL;
	return cc_table[i];
}

void
tcp_cc_init(struct tcp_cc *cc, const struct tcp_cc_ops *ops, uint32_t mss,
		uint32_t init_cwnd_segs, uint64_t now)
{
	memset(cc, 0, sizeof(*cc));
	cc->ops = ops;
	cc->mss = mss ? mss : 536;
	cc->cwnd = (init_cwnd_segs ? init_cwnd_segs : 1) * cc->mss;
	cc->ssthresh = 0x7fffffff;
	if (ops->init != NULL)
		ops->init(cc, now);
}

void
tcp_cc_reno_grow(struct tcp_cc *cc, uint32_t acked)
{
	if (cc->cwnd < cc->ssthresh) {
		cc->cwnd += tcp_min32(acked, 2 * cc->mss);
		return;
	}
	cc->ca_acc += acked;
	if (cc->ca_acc >= cc->cwnd) {
		cc->ca_acc -= cc->cwnd;
		cc->cwnd += cc->mss;
	}
}

uint32_t
tcp_cc_reno_ssthresh(struct tcp_cc *cc, uint64_t now)
{
	(void)now;
	return tcp_max32(cc->flight / 2, 2 * cc->mss);
}

uint64_t
tcp_cbrt64(uint64_t x)
{
	uint64_t r = 0;

	/* bitwise integer cube root: floor(cbrt(x)) */
	for (int s = 63; s >= 0; s -= 3) {
		uint64_t b;

		r <<= 1;
		b = 3 * r * (r + 1) + 1;
		if ((x >> s) >= b) {
			x -= b << s;
			r++;
		}
	}
	return r;
}

/* --- Tahoe, Reno, NewReno, SACK: the same AIMD, different recovery --- */

static void
reno_cong_avoid(struct tcp_cc *cc, const struct tcp_cc_ack *a)
{
	tcp_cc_reno_grow(cc, a->acked);
}

const struct tcp_cc_ops tcp_cc_tahoe = {
	.name = "tahoe",
	.help = "Tahoe: slow start, AIMD, fast retransmit then cwnd = 1 MSS (Jacobson 1988)",
	.recovery = TCP_REC_NONE,
	.cong_avoid = reno_cong_avoid,
	.ssthresh = tcp_cc_reno_ssthresh,
};

const struct tcp_cc_ops tcp_cc_reno = {
	.name = "reno",
	.help = "Reno: fast recovery, leaves it on the first new ACK (RFC 5681)",
	.recovery = TCP_REC_RENO,
	.cong_avoid = reno_cong_avoid,
	.ssthresh = tcp_cc_reno_ssthresh,
};

const struct tcp_cc_ops tcp_cc_newreno = {
	.name = "newreno",
	.help = "NewReno: stays in fast recovery across partial ACKs (RFC 6582)",
	.recovery = TCP_REC_NEWRENO,
	.cong_avoid = reno_cong_avoid,
	.ssthresh = tcp_cc_reno_ssthresh,
};

const struct tcp_cc_ops tcp_cc_sack = {
	.name = "sack",
	.help = "Reno AIMD with SACK-based loss recovery (RFC 6675)",
	.recovery = TCP_REC_SACK,
	.cong_avoid = reno_cong_avoid,
	.ssthresh = tcp_cc_reno_ssthresh,
};
