/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The txonly task's config and private state (txonly.c), shared with its
 * run-time control (txctl.c: the console's requests and their mailbox).
 */
#ifndef ENG_TXONLY_PRIV_H
#define ENG_TXONLY_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_ether.h>

#include "cfg.h"
#include "config/config.h"
#include "core/ctl.h"
#include "kinds/gen/imix.h"
#include "kinds/gen/pkt.h"
#include "kinds/gen/txflows.h"
#include "obs/pace_view.h"
#include "pace.h"

struct eng_ctl_req;
struct eng_egress_flow;
struct eng_port;
struct eng_task;
struct rte_mempool;

struct txonly_conf {
	uint32_t pkt_size;   /* frame size including FCS (an IMIX: the largest) */
	struct eng_imix imix; /* pkt_size lists (nb_sizes 0: one size) */
	struct cfg_rate rate; /* as written (0 bit/s: full speed); bit/s at set-up */
	struct cfg_rate_profile prof; /* rate = a timed profile (n 0: none); rate: its first */
	uint64_t bucket;     /* token-bucket depth in bytes (0: strict pacer) */
	uint64_t count;      /* 0: unlimited */
	uint32_t src_ip, dst_ip;
	uint16_t src_port, dst_port;
	int has_dst_mac;
	struct rte_ether_addr dst_mac;
	uint64_t warmup_ns;  /* UINT64_MAX: [engine] warmup */
	char egress[ENG_NAME_LEN]; /* sched task to hand packets to ("" = the port) */
	uint32_t weight;           /* its weight there */
	struct eng_txflows_conf mf; /* flows = N (txflows.c) */
};

struct txonly_priv {
	struct rte_mempool *pool;
	struct eng_egress_flow *ring; /* egress sched task's hand-off for this flow, or NULL */
	struct eng_txflows *mf;    /* flows > 1 (txflows.c), or NULL */
	uint16_t port_id, queue;
	uint16_t data_len;	/* one size; an IMIX: the mean (for the pacer) */
	uint64_t ol_flags;
	uint8_t *mix;		/* an IMIX: the sequence of size indexes, or NULL */
	uint32_t mix_len, mix_pos;
	uint16_t mix_len_of[ENG_IMIX_MAX_SIZES]; /* data length (no FCS) of each size */
	uint64_t count;
	uint64_t seq;
	struct pace *pace;      /* NULL: full speed */
	struct pace *pace_mem;  /* the pacer, made at set-up: a rate may come at run time */
	struct eng_pace_mark mark; /* the reporting thread's */
	/* rate = a timed profile (prof, txctl.c): followed from the run's start
	 * until the console's set rate; prof_next_tsc: its next change (UINT64_MAX:
	 * none) */
	uint64_t prof_next_tsc;
	int prof_on;
	uint64_t want_rates, rates_seen;	/* set rate requests: posted, applied */
	int stopped;            /* "stop TASK": sends nothing until "start TASK" */
	uint64_t ctl_applied;   /* the last mailbox gen this lcore applied */
	/* the console's mailbox (core/ctl.h): the wanted state, main lcore -> owner */
	struct eng_ctl_box box;
	uint64_t want_run, want_bps, want_size;
	/* main lcore only: the rate and size last set, to resolve pkt/s and % again */
	struct cfg_rate ctl_rate;
	uint32_t ctl_size;
	uint64_t tx_packets, tx_bytes, tx_dropped, no_mbuf;
	uint64_t warm_cycles;	/* warmup as TSC cycles (0: none) */
	uint64_t warm_tsc, warm_packets, warm_bytes; /* at the end of the warmup */
	uint8_t tmpl[ENG_PKT_HDR_LEN];
	uint8_t mix_tmpl[ENG_IMIX_MAX_SIZES][ENG_PKT_HDR_LEN];
	struct pace_prof prof;	/* its points in L1 bit/s */
} __rte_cache_aligned;

/* txonly.c: the headers of a frame of data_len bytes (no FCS) into tmpl. */
void eng_txonly_template(struct txonly_priv *p, const struct txonly_conf *c,
		const struct eng_port *port, const struct eng_port_conf *pc, uint16_t data_len,
		uint8_t *tmpl);
/* txonly.c: rate r in L1 bit/s for frames of pkt_size bytes (a packet rate
 * times their size on the wire, a share times the port's link speed, waited
 * for with wait_link); 0, or -errno with the reason in err. */
int eng_txonly_rate_bps(const struct txonly_conf *c, const struct cfg_rate *r, uint32_t pkt_size,
		const struct eng_port *port, const struct eng_port_conf *pc, int wait_link,
		uint64_t *bps, char *err, size_t len);

/* txctl.c: the ops->control of txonly (main lcore), and what its poll calls
 * when the mailbox has a new gen g (owner lcore, now: TSC). */
int eng_txonly_control(struct eng_task *t, const struct eng_ctl_req *req, char *err, size_t len);
void eng_txonly_ctl_apply(struct eng_task *t, struct txonly_priv *p, uint64_t g, uint64_t now);
/* txctl.c: the rate profile's points in L1 bit/s (set-up: 0, or -errno
 * logged), and its rate at TSC now, once now reached p->prof_next_tsc. */
int eng_txonly_prof_setup(struct eng_task *t, struct txonly_priv *p);
void eng_txonly_prof_step(struct eng_task *t, struct txonly_priv *p, uint64_t now);

#endif /* ENG_TXONLY_PRIV_H */
