/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The dfcp task kind: DFCP flows ([flow NAME] with proto = dfcp; their DFCP
 * keys in dfcp_flow.c) run on one port queue pair (dfcp_task.c), their
 * statistics, JSON and /dfcp/flows telemetry (dfcp_stats.c). See
 * doc/config.md and doc/architecture.md ("DFCP flow path").
 */
#ifndef ENG_DFCP_TASK_H
#define ENG_DFCP_TASK_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <rte_ether.h>

#include "config/config.h"
#include "config/flow.h"
#include "core/runtime.h"
#include "core/task.h"
#include "dfcp.h"
#include "obs/out.h"

/* The DFCP keys of a [flow NAME] (its pconf; dfcp_flow.c). */
struct eng_dfcp_flow_conf {
	/* the thesis's five parameters */
	uint32_t window;		/* blocks (auto: set by eng_dfcp_windows at load) */
	int window_auto;		/* window = auto: the BDP of the flow's share */
	uint64_t share_bps;		/* window = auto: its share of path_rate */
	uint64_t path_rate_bps;		/* for window = auto */
	uint64_t path_rtt_ns;		/* for window = auto */
	uint16_t redundancy;		/* packets per block; 0 = auto */
	int acks, encode, decode;
	/* coding */
	uint32_t block_size;		/* bytes per block (K = block_size / T) */
	uint16_t T, K;
	uint64_t hs_rto_ns, min_rto_ns, time_wait_ns;
	/* extended reports (doc/protocol.md): round header, loss reports, rate hints */
	int xr;				/* negotiate DFCP_F_XR (default on) */
	int rate_hint;			/* sender: cap the rate at the receiver's hint */
	uint64_t round_idle_ns;		/* receiver: idle time that ends a round */
	/* under attack and failure (doc/protocol.md, "Security") */
	int block_crc;			/* negotiate the block CRC-32C (default on) */
	uint64_t peer_timeout_ns;	/* silence that closes (PEER_TIMEOUT); 0: 10 x RTO, >= 3 s */
	uint16_t max_K;			/* receiver: largest K a SYN may ask for */
	uint8_t auth_key[32];		/* auth_key = FILE: both ends */
	uint8_t auth_key_len;		/* 0: none, else 16 or 32 */
	uint8_t crypto;			/* enum dfcp_crypto: both ends */
	uint8_t crypto_backend;		/* enum eng_crypto_backend */
	char crypto_dev[64];		/* cryptodev device; "": the suite's default */
};

/* crypto_backend: where DATA is sealed and opened (the table: dfcp_aead_be.c). */
enum eng_crypto_backend {
	ENG_CRYPTO_AUTO = 0,	/* the first of ipsec-mb, cryptodev, openssl that is there */
	ENG_CRYPTO_IMB,		/* libIPSec_MB, out of place (dfcp_imb.c) */
	ENG_CRYPTO_CDEV,	/* DPDK cryptodev's CPU crypto (dfcp_cdev.c) */
	ENG_CRYPTO_OPENSSL,	/* the library's OpenSSL EVP */
	ENG_CRYPTO_MAX
};
const char *eng_dfcp_backend_name(int backend);
/* A key of 16 or 32 bytes: raw, or 32 / 64 hex digits (one line); 0 or -EINVAL. */
int eng_dfcp_key_decode(const uint8_t *buf, size_t n, uint8_t *key, uint8_t *len);
/* A key file (a regular file, at most cap bytes read): its length, or -1 and why. */
ssize_t eng_dfcp_key_file(const char *path, uint8_t *buf, size_t cap, const char **why);
/* identity_key and peer_key into the flow's auth_key (dfcp_pin.c): 0 or a config error. */
struct eng_sec;
int eng_dfcp_pin_parse(struct eng_sec *sec, struct eng_dfcp_flow_conf *f);
/*
 * The AEAD of suite by backend (set-up; dev: crypto_dev, "" or NULL for the
 * default): *ops, NULL for the library's EVP; 0 or -errno.
 */
int eng_dfcp_aead_ops(unsigned int suite, int backend, const char *dev,
		const struct dfcp_aead_ops **ops);
/* A backend's ops for a valid suite: 0 (what: its name and unit) or -errno (what: why). */
int eng_dfcp_cdev_get(unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
		char *what, size_t len);
int eng_dfcp_imb_get(unsigned int suite, const char *dev, const struct dfcp_aead_ops **ops,
		char *what, size_t len);

static inline const struct eng_dfcp_flow_conf *
eng_dfcp_fc(const struct eng_flow_conf *f)
{
	return f->pconf;
}

enum eng_dfcp_csum {
	ENG_CSUM_AUTO = 0,	/* offload if the port has tx_checksum, else full */
	ENG_CSUM_FULL,		/* IPv4 and UDP checksums in software */
	ENG_CSUM_ZERO,		/* IPv4 in software, UDP checksum 0 (legal for IPv4) */
	ENG_CSUM_OFFLOAD,	/* the NIC computes both (needs tx_checksum = on) */
};

/* [task NAME] kind = dfcp: its kind-private configuration (flows: the task's list). */
struct eng_dfcp_conf {
	char egress[ENG_NAME_LEN];	/* sched task; "" = rte_eth_tx_burst */
	int csum;			/* enum eng_dfcp_csum */
	uint32_t max_conns;		/* per receiver flow */
	uint64_t mem_budget;		/* block memory of its flows, bytes; 0: auto */
	uint32_t max_half_open;		/* per receiver flow; 0: auto */
};

/* dfcp_mem.c: windows by share, the task's block memory (doc/config.md) */
#define ENG_DFCP_MAX_SHAPES	4		/* block shapes (K, T) per task */
#define ENG_DFCP_MEM_AUTO	(256ull << 20)	/* mem_budget auto: the minimum + at most this */
#define ENG_DFCP_WINDOW_FLOOR	4u		/* window = auto: at least */
#define ENG_DFCP_WINDOW_RTTS	8u		/* window = auto: path_rtt's of a lone flow */
#define ENG_DFCP_DEC_RATIO	4u		/* decoders wanted: one per 4 buffers */
struct eng_dfcp_shape {
	uint16_t K, T;
	uint64_t nrecv, nsend;			/* flows */
	uint64_t conns;				/* receivers' max_conns, summed */
	uint64_t b_buf, b_dec, b_enc;		/* bytes of one item (measured) */
	uint64_t want_buf, want_dec, want_enc;	/* what the windows want */
	uint64_t min_buf, min_dec, min_enc;	/* the least that works */
	uint64_t n_buf, n_dec, n_enc;		/* made */
};
struct eng_dfcp_plan {
	struct eng_dfcp_shape s[ENG_DFCP_MAX_SHAPES];
	unsigned int nshapes;
	uint64_t want, min, budget, bytes;
	uint64_t records;	/* the flows' endpoints' connection records (outside the budget) */
};
struct eng_dfcp_mem_snap {
	uint64_t budget, want, bytes, used, peak, waits, refused;
	uint64_t bufs, decs, encs, bufs_peak, decs_peak, encs_peak;
	uint64_t records;
};
struct eng_dfcp_mem {
	struct eng_dfcp_plan plan;
	struct dfcp_pool *pool[ENG_DFCP_MAX_SHAPES];
	struct eng_dfcp_mem_snap snap;		/* published by the owning lcore */
	uint64_t made_records;			/* the endpoints' slab_bytes (== plan.records) */
};
void eng_dfcp_windows(struct eng_config *cfg);
/* window = auto of a flow with the whole path: ENG_DFCP_WINDOW_RTTS x path_rate
 * x path_rtt in blocks + 64 for queues, at most DFCP_MAX_WINDOW (dfcp_mem.c;
 * the one formula). */
uint32_t eng_dfcp_window_path(const struct eng_dfcp_flow_conf *df);
/* block_size = auto: bytes per block for the path (dfcp_flow.c) */
#define ENG_DFCP_AUTO_K_MAX	1024u
uint32_t eng_dfcp_block_auto(uint64_t rate_bps, uint64_t rtt_ns, uint16_t T);
/* The task's plan; a budget below its flows' minimum: err (file:line, the numbers). */
int eng_dfcp_plan(const struct eng_config *cfg, const struct eng_task *tk,
		struct eng_dfcp_plan *pl, char *err, size_t errlen);
struct eng_xtask;
int eng_dfcp_mem_setup(const struct eng_xtask *x, struct eng_dfcp_mem *m);
struct dfcp_pool *eng_dfcp_mem_pool(const struct eng_dfcp_mem *m, uint16_t K, uint16_t T);
void eng_dfcp_mem_free(struct eng_dfcp_mem *m);
void eng_dfcp_mem_publish(struct eng_dfcp_mem *m);
struct eng_out;
void eng_dfcp_mem_write(struct eng_runtime *rt, struct eng_out *o);
/* dfcp_task.c: a task's published totals; 0 or -ENOENT */
int eng_dfcp_mem_snap(const struct eng_task *t, struct eng_dfcp_mem_snap *out);
#define ENG_DFCP_MEM_NCTRS	14
extern const struct eng_ctr eng_dfcp_mem_ctrs[ENG_DFCP_MEM_NCTRS];
extern const struct eng_tel_cmd eng_dfcp_tel[];

/* Live per-flow counters, published by the owning lcore (dfcp_stats.c reads). */
struct eng_flow_snap {
	struct dfcp_stats st;		/* sum over the flow's connections */
	uint64_t start_ns, last_ns;	/* first ESTABLISHED, last goodput change */
	uint64_t bad_bytes, order_errors;	/* verifying sink */
	uint64_t sink_bytes;
	uint64_t sink_file_bytes;	/* written to a sink = file */
	uint64_t sink_errors;		/* connections whose sink file failed (write or fsync) */
	int sink_err;			/* the first of them: -errno; 0: none */
	uint64_t arp_unsolicited, arp_conflicts;	/* sender: its ARP entry's (lib/net) */
	uint64_t tx_dropped;		/* frames refused by the port / sched ring */
	uint32_t conns;			/* connections handled */
	int state;			/* enum dfcp_state of the current connection */
	int close_reason;
	int done;			/* the flow has finished (closed) */
	int completed;			/* its goal reached (eng_xport_judge) */
	char fail[ENG_FAIL_LEN];	/* why it failed, "" if it did not */
};

/* dfcp_flow.c: a [flow]'s DFCP keys, the task keys, the kind's check
 * (addresses per task, receive memory) */
int eng_dfcp_flow_parse(struct eng_flow_conf *f, struct eng_sec *sec, struct eng_config *cfg);
int eng_dfcp_parse(struct eng_task *t, struct eng_sec *sec, struct eng_config *cfg);
int eng_dfcp_check(struct eng_config *cfg, char *err, size_t errlen);

/* dfcp_conn.c: connection and endpoint configuration, receive pools, sums */
struct eng_xtask;
int eng_dfcp_ep_conf(const struct eng_xtask *x, enum dfcp_csum csum, unsigned int rx_flags,
		const struct eng_flow_conf *fc, struct dfcp_ep_conf *ec);
void eng_dfcp_conn_conf(const struct eng_xtask *x, enum dfcp_csum csum,
		const struct eng_flow_conf *fc, struct dfcp_conn_conf *cc);
void eng_dfcp_stats_add(struct dfcp_stats *a, const struct dfcp_stats *b);

/* dfcp_task.c */
/* Snapshot of a flow's counters (any thread); 0 or -ENOENT if not running. */
int eng_dfcp_flow_snap(const struct eng_runtime *rt, unsigned int flow, struct eng_flow_snap *out);
/* Task-level drops (frames no flow accepted) by reason, and multi-segment frames. */
void eng_dfcp_task_drops(const struct eng_task *t, uint64_t drops[DFCP_E_MAX], uint64_t *seg);

/* One connection of a receiver flow: its stream verified on its own, from
 * offset 0 against the flow's seed (a listener serves several at once). */
struct dfcp_flow;
struct dfcp_rconn {
	struct dfcp_flow *f;
	struct dfcp_conn *c;		/* NULL: a free entry */
	struct net_sink_count sink;	/* this connection's stream */
	uint64_t start_ns, last_ns;	/* established, last delivery seen (1 ms ticks) */
	uint64_t last_bytes;
};

/* dfcp_task.c's state of one flow (eng_xflow.priv). */
struct dfcp_flow {
	struct eng_xflow *xf;
	struct dfcp_ep *ep;
	struct dfcp_conn *conn;		/* the current connection */
	struct dfcp_conn_conf cc;	/* sender: connect conf */
	const struct dfcp_aead_ops *aead_ops;	/* crypto: DATA's AEAD (NULL: OpenSSL) */
	struct net_src_pattern src;
	struct net_sink_count sink;	/* receiver: the sums of its connections' sinks */
	struct dfcp_rconn *rconn;	/* receiver: [nrconn], one per connection (max_conns) */
	uint32_t nrconn, live;		/* entries, connections in them */
	volatile int stop_src;		/* DRAIN: the source reports end of data */
	int started;			/* sender: connect issued */
	int src_end;			/* sender: the source ended by itself (its goal) */
	int completed;			/* a connection reached the goal */
	const char *closed;		/* the first abnormal close before completing, or NULL */
	/* accounting */
	struct dfcp_stats acc;		/* closed connections, summed */
	uint32_t conns_closed;
	uint64_t start_ns, last_ns, last_goodput;
	uint64_t rx_bytes;		/* frames handed to the endpoint */
	uint64_t stalls_logged;		/* stall episodes already logged */
	uint64_t sink_errors;		/* connections whose sink file failed */
	int sink_aborted;		/* receiver: its connections were aborted for it */
	int held;			/* its endpoint holds sealed DATA (the task's held list) */
	struct eng_flow_snap snap;	/* published to other threads */
};

/* dfcp_rconn.c: a connection accepted (on_accept), closed; a receiver's connections each 1 ms */
void eng_dfcp_flow_accept(void *ctx, struct dfcp_conn *c);
/* A sink of flow f failed with err (-errno): counted, the flow's first kept. */
void eng_dfcp_sink_failed(struct dfcp_flow *f, int err);
struct eng_xflow;
void eng_dfcp_conn_closed(struct eng_xflow *xf, struct dfcp_flow *f, struct dfcp_conn *c);
void eng_dfcp_rconn_tick(struct eng_xflow *xf, struct dfcp_flow *f, uint64_t now);

/* dfcp_stats.c: the kind's report, a flow's fields, its counter table */
struct eng_out;
struct eng_xflow;
void eng_dfcp_report(struct eng_runtime *rt, struct eng_out *o, enum eng_report what);
void eng_dfcp_flow_write(const struct eng_xflow *xf, struct eng_out *o);
extern const struct eng_ctr_table eng_dfcp_tables[];
/* dfcp_drops.c: drops by reason (an object `key`), a task's drops, dispatch */
void eng_dfcp_drops_write(struct eng_out *o, const char *key, const uint64_t *drops);
void eng_dfcp_task_drops_write(struct eng_runtime *rt, struct eng_out *o);
void eng_dfcp_dispatch_write(struct eng_runtime *rt, struct eng_out *o);

extern const struct eng_task_ops eng_task_dfcp;

#endif /* ENG_DFCP_TASK_H */
