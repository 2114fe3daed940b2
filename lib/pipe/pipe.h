/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pipe: Dummynet-style link emulation.
 *
 * A pipe is one direction of an emulated link: packets are classified into
 * the queues bound to it (IPv4 5-tuple rules, first match wins, as ipfw's
 * `add queue N ip from A to B` rules), dropped by Bernoulli and/or
 * Gilbert-Elliott loss on arrival (as Dummynet's plr), held in their queue
 * under a scheduler from lib/sched (WF2Q+, DRR, FIFO), serialized on the
 * link at the configured bandwidth (byte-accurate, sub-ns fixed point), then
 * held in a delay line for the propagation delay. pipe_dequeue_burst hands
 * back the packets whose departure time has come. Pipes in series: enqueue
 * what one pipe returns into the next, passing its departure time as now.
 *
 * No DPDK dependency. Packets are opaque 64-bit handles; times are ns given
 * by the caller and must not go backwards (an earlier time is treated as the
 * latest seen). Floating point only at set-up. One thread per pipe.
 *
 * Errors: -EINVAL bad parameter, -ENOSPC too many queues or rules,
 * -ENOBUFS dropped by drop-tail (queue limit), -EIO dropped by emulated
 * loss. After a drop the caller frees the packet.
 */
#ifndef PIPE_H
#define PIPE_H

#include <stdint.h>

#include "pktsched.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PIPE_PASS	1		/* pipe_enqueue: unmatched, forward untouched */
#define PIPE_NO_QUEUE	UINT32_MAX	/* unmatched_queue: pass unmatched traffic */

struct pipe;

/* Gilbert-Elliott two-state loss: Good <-> Bad, per-packet transitions. */
struct pipe_ge {
	double p_gb;		/* P(Good -> Bad) per packet; 0 disables GE */
	double p_bg;		/* P(Bad -> Good) per packet */
	double loss_good;	/* loss probability in Good (often 0) */
	double loss_bad;	/* loss probability in Bad (often 1) */
};

struct pipe_conf {
	const char *name;
	uint64_t bw_bps;	/* bits per second; 0 = unlimited */
	uint64_t delay_ns;	/* propagation delay */
	double plr;		/* Bernoulli loss probability 0..1 */
	struct pipe_ge ge;	/* burst loss (p_gb == 0: off) */
	uint64_t seed;		/* loss PRNG seed */
	uint32_t overhead;	/* bytes added to each packet on the wire
				 * (e.g. 24 = preamble + IFG + FCS); 0 = none */
	const char *sched;	/* "wf2q+" (NULL), "drr", "fifo" */
	uint32_t max_queues;	/* queues that can be bound; 0 = 64 */
	uint32_t max_rules;	/* classification rules; 0 = 256 */
	uint32_t queue_pkts;	/* default queue size in packets; 0 = 50 (ipfw) */
	uint64_t queue_bytes;	/* default queue size in bytes; 0 = none */
	uint32_t pool_pkts;	/* packets in the scheduler at once; 0 = auto */
	uint32_t line_pkts;	/* delay-line capacity; 0 = bw*delay/64B, >= 1024 */
	uint64_t catchup_ns;	/* bw > 0: how late a packet may leave after a stall
				 * of the caller; 0 = PACE_CATCHUP_DEFAULT_NS,
				 * UINT64_MAX = unbounded */
};

/* An IPv4 5-tuple in host byte order. */
struct pipe_flow {
	uint32_t src, dst;
	uint16_t sport, dport;
	uint8_t proto;
};

/* ipfw-like match: addr/prefix, protocol (0 = any), port ranges (inclusive;
 * 0..65535 = any). Ports are compared only for TCP, UDP, SCTP and UDP-Lite
 * when the rule restricts them. */
struct pipe_rule {
	uint32_t src, dst;
	uint8_t src_len, dst_len;	/* prefix lengths 0..32 (0 = any) */
	uint8_t proto;
	uint16_t sport_lo, sport_hi;
	uint16_t dport_lo, dport_hi;
	uint32_t queue;			/* queue index from pipe_queue_add */
};

/* The address mask of a prefix length (0: any address). */
static inline uint32_t
pipe_prefix_mask(uint8_t len)
{
	return len == 0 ? 0 : len >= 32 ? UINT32_MAX : ~(UINT32_MAX >> len);
}

/* 1 when flow f matches rule r, whose src and dst are already masked with
 * smask / dmask (pipe_prefix_mask of its lengths): the one match of pipes'
 * queues and of the engine's capture filters. */
static inline int
pipe_rule_match(const struct pipe_rule *r, uint32_t smask, uint32_t dmask,
		const struct pipe_flow *f)
{
	int any_ports = r->sport_lo == 0 && r->sport_hi == UINT16_MAX &&
			r->dport_lo == 0 && r->dport_hi == UINT16_MAX;
	int has_ports = f->proto == 6 || f->proto == 17 || f->proto == 132 || f->proto == 136;

	if ((f->src & smask) != r->src || (f->dst & dmask) != r->dst)
		return 0;
	if (r->proto && r->proto != f->proto)
		return 0;
	return any_ports || (has_ports && f->sport >= r->sport_lo && f->sport <= r->sport_hi &&
			f->dport >= r->dport_lo && f->dport <= r->dport_hi);
}

/* Parse one ipfw-like match rule (grammar in doc/config.md):
 *   [PROTO] [from ADDR [PORTS]] [to ADDR [PORTS]] [proto PROTO]
 *   [sport PORTS] [dport PORTS]
 * ADDR: any | A.B.C.D | A.B.C.D/LEN; PROTO: any, ip, all, tcp, udp, icmp,
 * sctp, udplite or 0..255; PORTS: N or LO-HI (1..65535).
 * Fills r (queue left 0). 0 or -EINVAL with the reason in err. No DPDK. */
int pipe_rule_parse(const char *s, struct pipe_rule *r, char *err, size_t errlen);
/* Format a rule back into the same grammar (for logs and telemetry). */
void pipe_rule_format(const struct pipe_rule *r, char *buf, size_t len);

struct pipe_pkt {
	uint64_t pkt;
	uint64_t t_depart;	/* ns: when it left the delay line */
	uint32_t len;
	uint32_t queue;
};

#define PIPE_DROP_BURST	16	/* a drop this far into a run of drops is a burst's */

struct pipe_stats {
	uint64_t in_pkts, in_bytes;	/* offered to the pipe (matched) */
	uint64_t out_pkts, out_bytes;	/* left the delay line */
	uint64_t loss_pkts, loss_bytes;	/* emulated loss */
	uint64_t drop_pkts, drop_bytes;	/* drop-tail */
	uint64_t drop_run_max;		/* most drop-tail drops in a row (burstiness) */
	uint64_t drop_burst_pkts;	/* drop-tail drops PIPE_DROP_BURST-th or later in a row */
	uint64_t pass_pkts, pass_bytes;	/* unmatched, passed untouched */
	uint32_t sched_pkts;		/* occupancy: in queues now */
	uint32_t line_pkts;		/* occupancy: on the wire / delay line */
	uint64_t sched_bytes;
	uint32_t line_stalls;		/* serializations held back: line full */
	uint32_t nb_queues;
	uint64_t late_max_ns;		/* latest departure: now - t_depart, worst */
	uint64_t catchup_stalls;	/* times the catch-up bound moved the pipe later */
	uint64_t catchup_lost_ns;	/* link time lost to it */
};

/* Fill ge for a simple Gilbert model (loss_good 0, loss_bad 1) with mean
 * loss rate `loss` (0 < loss < 1) and mean burst length `burst` (>= 1). */
int pipe_ge_from_mean(struct pipe_ge *ge, double loss, double burst);

/* Creates the pipe with queue 0 bound (weight 1, default size), which is
 * also the queue for unmatched traffic until pipe_set_unmatched. */
struct pipe *pipe_create(const struct pipe_conf *conf);
void pipe_free(struct pipe *p);
const char *pipe_name(const struct pipe *p);

/* Bind a new queue (ipfw `queue N config pipe P weight W queue Q`); limits
 * of 0 take the pipe's defaults. Returns the queue index (>= 1) or -errno. */
int pipe_queue_add(struct pipe *p, uint32_t weight, uint32_t limit_pkts,
		uint64_t limit_bytes);
/* Reconfigure queue q (index 0 included). */
int pipe_queue_set(struct pipe *p, uint32_t q, uint32_t weight,
		uint32_t limit_pkts, uint64_t limit_bytes);
/* Append a rule (evaluated in the order added). */
int pipe_rule_add(struct pipe *p, const struct pipe_rule *r);
/* Queue for unmatched traffic, or PIPE_NO_QUEUE to pass it untouched. */
int pipe_set_unmatched(struct pipe *p, uint32_t q);

/* Queue index for a flow, or PIPE_NO_QUEUE (pass). */
uint32_t pipe_classify(const struct pipe *p, const struct pipe_flow *f);

/*
 * Offer a packet at time now. 0: queued; PIPE_PASS: unmatched, the caller
 * forwards it untouched; -EIO: lost (emulated loss); -ENOBUFS: drop-tail.
 * flow may be NULL: queue 0 / the unmatched queue. Times earlier than the
 * pipe's latest are taken as that time, except by a pipe without bandwidth
 * (a pure delay line), which takes any time not before its latest enqueue
 * (a packet already due then leaves at the next dequeue).
 */
int pipe_enqueue(struct pipe *p, uint64_t pkt, uint32_t len,
		const struct pipe_flow *flow, uint64_t now);
/* Same, into queue q directly (no classification). */
int pipe_enqueue_q(struct pipe *p, uint32_t q, uint64_t pkt, uint32_t len,
		uint64_t now);

/* Packets whose departure time is <= now, in departure order; count. */
unsigned int pipe_dequeue_burst(struct pipe *p, uint64_t now,
		struct pipe_pkt *out, unsigned int n);
/* Earliest time something may leave (UINT64_MAX if empty); for sleeping. */
uint64_t pipe_next_event(const struct pipe *p);
/* Everything still held, regardless of time (for teardown); count. */
unsigned int pipe_flush(struct pipe *p, struct pipe_pkt *out, unsigned int n);

int pipe_stats_get(const struct pipe *p, struct pipe_stats *st);
int pipe_queue_stats(const struct pipe *p, uint32_t q, struct sched_qstats *st);
/* Weighted Jain index over the queues that sent since base (deq_bytes per
 * queue at the start of the interval, NULL = since creation):
 * x_q = bytes_q / weight_q. Statistics path (floating point). */
double pipe_jain(const struct pipe *p, const uint64_t *base_deq_bytes);

#ifdef __cplusplus
}
#endif

#endif /* PIPE_H */
