/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Virtual-clock network of several DFCP flows for the overload tests: each
 * flow is a sender endpoint and a receiver endpoint; DATA crosses a chain
 * of lib/pipe pipes (bandwidth, WF2Q+ queues with drop-tail, delay) as in
 * the engine's router, the receiver's frames come back over a pipe of
 * their own. Senders are paced by the engine's token bucket (`rate`, L1
 * overhead counted, a burst of 32 frames), optionally polled only every
 * poll_ns (a busy lcore sends in bursts). Frames may carry a small real
 * symbol while the pipes account them at the size of a wire_T symbol, so
 * that the codec stays cheap and the timing is that of 1420-byte symbols.
 * Stalls (sn_stalls): the senders' lcore (side 0) or the router's and
 * receivers' (side 1, the pipes included) stops polling for 5-20 ms every
 * so often; what fell due meanwhile goes on when it polls again, the pipes
 * keeping their exact schedule (the engine's catch-up), the receivers
 * seeing it at that later time.
 */
#ifndef DFCP_TEST_SIMNET_H
#define DFCP_TEST_SIMNET_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "hist.h"
#include "pipe.h"
#include "test_harness.h"

#define SN_FLOWS	4
#define SN_PIPES	8
#define SN_HOPS		3
#define SN_BURST	32
#define SN_FRAME	2048
#define SN_BINS		512
#define SN_L1		24u	/* preamble, IFG, FCS: counted by the pacer */

struct sn_flow {
	struct dfcp_ep *sep, *rep;	/* sender, receiver endpoints */
	struct dfcp_conn *conn;		/* the sender's connection */
	struct dfcp_conn_conf cc;
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct hist *lat;		/* block latency (sender) */
	uint32_t hop[SN_HOPS], q[SN_HOPS], nhops;
	uint32_t rev;			/* pipe of the receiver's frames */
	uint64_t rate_bps;		/* 0: unpaced */
	uint64_t tokens, tok_max, tok_last;
	uint64_t poll_ns, next_poll;
	uint64_t first_data;		/* first frame sent after the handshake */
	uint64_t last_deliver;		/* the sink last grew */
	uint64_t sink_seen;
	uint64_t bins[SN_BINS];		/* bytes delivered by the end of each bin */
	uint64_t sent;			/* DATA frames sent */
	uint64_t sbins[SN_BINS];	/* DATA frames sent by the end of each bin */
};

struct sn_pkt {
	uint32_t next;			/* free list */
	uint8_t flow, rev, hop;
	uint16_t len;
	uint8_t data[SN_FRAME];
};

struct simnet {
	struct pipe *pipe[SN_PIPES];
	uint32_t npipes;
	struct sn_flow f[SN_FLOWS];
	uint32_t nflows;
	struct sn_pkt **pk;
	uint32_t npk, free_head;
	uint64_t now, bin_ns;
	uint32_t wire_T, real_T;
	uint8_t *bufs[SN_BURST];
	uint64_t stall_every[2];	/* 0: no stalls; side 0 senders, 1 the rest */
};

/* Side s stalls for 5-20 ms at the start of every period of every_ns. */
static inline void
sn_stalls(struct simnet *n, int side, uint64_t every_ns)
{
	n->stall_every[side] = every_ns;
}

/* The end of the stall side s is in at t, or 0. */
static inline uint64_t
sn_stalled(const struct simnet *n, int side, uint64_t t)
{
	uint64_t e = n->stall_every[side], k, len;

	if (e == 0)
		return 0;
	k = t / e;
	if (k == 0)
		return 0;	/* none during the handshake */
	len = (5 + (k * 7 + (uint64_t)side * 3) % 16) * 1000000ull;
	return t < k * e + len ? k * e + len : 0;
}

static inline void
sn_init(struct simnet *n, uint32_t real_T, uint32_t wire_T, uint64_t bin_ns)
{
	memset(n, 0, sizeof(*n));
	n->real_T = real_T;
	n->wire_T = wire_T;
	n->bin_ns = bin_ns;
	n->free_head = UINT32_MAX;
	for (int i = 0; i < SN_BURST; i++)
		n->bufs[i] = malloc(SN_FRAME);
}

/* A pipe; bw 0 = unlimited (a delay line). Returns its index. */
static inline uint32_t
sn_pipe(struct simnet *n, uint64_t bw_bps, uint64_t delay_ns, uint32_t queue_pkts, double plr,
		uint64_t seed)
{
	struct pipe_conf pc;

	memset(&pc, 0, sizeof(pc));
	pc.name = "sn";
	pc.bw_bps = bw_bps;
	pc.delay_ns = delay_ns;
	pc.plr = plr;
	pc.seed = seed;
	pc.overhead = SN_L1;
	pc.queue_pkts = queue_pkts;
	pc.line_pkts = 1u << 16;
	n->pipe[n->npipes] = pipe_create(&pc);
	REQUIRE(n->pipe[n->npipes] != NULL);
	return n->npipes++;
}

/* Flow i: its forward pipes (each gets a queue of that weight) and the return pipe. */
static inline void
sn_path(struct simnet *n, uint32_t i, const uint32_t *hops, uint32_t nhops,
		const uint32_t *weights, uint32_t rev)
{
	struct sn_flow *f = &n->f[i];

	f->nhops = nhops;
	for (uint32_t h = 0; h < nhops; h++) {
		int q = pipe_queue_add(n->pipe[hops[h]], weights[h], 0, 0);

		REQUIRE(q > 0);
		f->hop[h] = hops[h];
		f->q[h] = (uint32_t)q;
	}
	f->rev = rev;
}

/* Flow i: endpoints and a sender connecting at time 0 (cc: T, K, window, ... set). */
static inline void
sn_flow(struct simnet *n, uint32_t i, const struct dfcp_conn_conf *cc, uint64_t bytes,
		uint64_t rate_bps, uint64_t poll_ns)
{
	struct sn_flow *f = &n->f[i];
	struct dfcp_ep_conf ec;
	struct dfcp_addr a = { { 2, 0, 0, 0, 1, (uint8_t)i }, 0x0a000001 + i, 5000 };
	struct dfcp_addr b = { { 2, 0, 0, 0, 2, (uint8_t)i }, 0x0a000101 + i, 6000 };

	net_src_pattern_init(&f->src, 100 + i, bytes, 0);
	net_sink_count_init(&f->sink, 100 + i, 1);
	dfcp_ep_conf_default(&ec);
	ec.local = a;
	ec.listen = 0;
	ec.max_conns = 2;
	ec.max_half_open = 1;
	f->sep = dfcp_ep_create(&ec);
	ec.local = b;
	ec.listen = 1;
	ec.accept_conf = *cc;
	ec.accept_conf.sink = net_sink_count_write;
	ec.accept_conf.sink_ctx = &f->sink;
	ec.accept_conf.block_latency = NULL;
	f->rep = dfcp_ep_create(&ec);
	REQUIRE(f->sep != NULL && f->rep != NULL);
	f->cc = *cc;
	f->cc.local = a;
	f->cc.remote = b;
	f->cc.source = net_src_pattern_read;
	f->cc.source_ctx = &f->src;
	f->lat = hist_create(7);
	f->cc.block_latency = f->lat;
	f->conn = dfcp_ep_connect(f->sep, &f->cc, 0);
	REQUIRE(f->conn != NULL);
	f->rate_bps = rate_bps;
	f->tok_max = (uint64_t)(n->wire_T + DFCP_DATA_OFF + SN_L1) * 8u * 1000000000ull *
		SN_BURST;
	f->tokens = f->tok_max;
	f->poll_ns = poll_ns;
	if (i >= n->nflows)
		n->nflows = i + 1;
}

static inline void
sn_fini(struct simnet *n)
{
	for (uint32_t i = 0; i < n->nflows; i++) {
		dfcp_ep_free(n->f[i].sep);
		dfcp_ep_free(n->f[i].rep);
		hist_free(n->f[i].lat);
	}
	for (uint32_t i = 0; i < n->npipes; i++)
		pipe_free(n->pipe[i]);
	for (uint32_t i = 0; i < n->npk; i++)
		free(n->pk[i]);
	free(n->pk);
	for (int i = 0; i < SN_BURST; i++)
		free(n->bufs[i]);
}

static inline uint32_t
sn_alloc(struct simnet *n)
{
	uint32_t h = n->free_head;

	if (h != UINT32_MAX) {
		n->free_head = n->pk[h]->next;
		return h;
	}
	if ((n->npk & (n->npk - 1)) == 0) {
		n->pk = realloc(n->pk, (n->npk ? 2 * n->npk : 1024) * sizeof(*n->pk));
		REQUIRE(n->pk != NULL);
	}
	n->pk[n->npk] = malloc(sizeof(struct sn_pkt));
	REQUIRE(n->pk[n->npk] != NULL);
	return n->npk++;
}

static inline void
sn_release(struct simnet *n, uint32_t h)
{
	n->pk[h]->next = n->free_head;
	n->free_head = h;
}

/*
 * The size the pipes account a frame at: real symbols count as wire_T ones
 * (real_T >= 48: a DATA frame is then longer than any control frame).
 */
static inline uint32_t
sn_wire_len(const struct simnet *n, uint16_t len)
{
	if (len >= n->real_T + DFCP_DATA_OFF_V1)
		return len - n->real_T + n->wire_T;
	return len;
}

/* Frame h enters pipe (its hop-th on the path, or the return pipe) at t. */
static inline void
sn_enter(struct simnet *n, uint32_t h, uint64_t t)
{
	struct sn_pkt *p = n->pk[h];
	struct sn_flow *f = &n->f[p->flow];
	uint32_t pi = p->rev ? f->rev : f->hop[p->hop];
	uint32_t q = p->rev ? 0 : f->q[p->hop];

	if (pipe_enqueue_q(n->pipe[pi], q, h, sn_wire_len(n, p->len), t) != 0)
		sn_release(n, h);
}

/* Frame h left its pipe at t: next pipe, or its endpoint. */
static inline void
sn_leave(struct simnet *n, uint32_t h, uint64_t t)
{
	struct sn_pkt *p = n->pk[h];
	struct sn_flow *f = &n->f[p->flow];

	if (!p->rev && p->hop + 1u < f->nhops) {
		p->hop++;
		sn_enter(n, h, t);
		return;
	}
	if (!p->rev && n->stall_every[1] && t < n->now)
		t = n->now;	/* the receiver polls again after a stall */
	dfcp_ep_rx(p->rev ? f->sep : f->rep, p->data, p->len, t);
	sn_release(n, h);
}

static inline uint64_t
sn_frame_cost(const struct simnet *n)
{
	return (uint64_t)(n->wire_T + DFCP_DATA_OFF + SN_L1) * 8u * 1000000000ull;
}

/* Send what endpoint ep has due (sender: within its tokens). */
static inline void
sn_tx(struct simnet *n, uint32_t i, int rev)
{
	struct sn_flow *f = &n->f[i];
	struct dfcp_ep *ep = rev ? f->rep : f->sep;
	unsigned int want = SN_BURST, k;
	uint16_t lens[SN_BURST];

	if (dfcp_ep_next_deadline(ep, n->now) > n->now)
		return;
	if (!rev && f->rate_bps) {
		uint64_t dt = n->now - f->tok_last;

		f->tok_last = n->now;
		f->tokens += dt * f->rate_bps;
		if (f->tokens > f->tok_max)
			f->tokens = f->tok_max;
		want = (unsigned int)(f->tokens / sn_frame_cost(n));
		if (want > SN_BURST)
			want = SN_BURST;
		if (want == 0)
			return;
	}
	k = dfcp_ep_tx_burst(ep, n->now, (void *const *)n->bufs, lens, SN_FRAME, want);
	for (unsigned int j = 0; j < k; j++) {
		uint32_t h = sn_alloc(n);
		struct sn_pkt *p = n->pk[h];

		p->flow = (uint8_t)i;
		p->rev = (uint8_t)rev;
		p->hop = 0;
		p->len = lens[j];
		memcpy(p->data, n->bufs[j], lens[j]);
		if (!rev && f->rate_bps) {
			uint64_t c = (uint64_t)(sn_wire_len(n, lens[j]) + SN_L1) * 8u *
				1000000000ull;

			f->tokens = f->tokens > c ? f->tokens - c : 0;
		}
		if (!rev && lens[j] > DFCP_DATA_OFF_V1) {
			f->sent++;
			if (f->first_data == 0)
				f->first_data = n->now;
		}
		sn_enter(n, h, n->now);
	}
}

/* Earliest time something happens after now. */
static inline uint64_t
sn_next(struct simnet *n, uint64_t until)
{
	uint64_t t = until, s0 = sn_stalled(n, 0, n->now), s1 = sn_stalled(n, 1, n->now);

	if (s0 != 0 && s0 < t)
		t = s0;
	if (s1 != 0 && s1 < t)
		t = s1;
	for (uint32_t i = 0; i < n->npipes && s1 == 0; i++) {
		uint64_t e = pipe_next_event(n->pipe[i]);

		if (e < t)
			t = e;
	}
	for (uint32_t i = 0; i < n->nflows; i++) {
		struct sn_flow *f = &n->f[i];
		uint64_t d = dfcp_ep_next_deadline(f->rep, n->now), e;

		if (d < t && s1 == 0)
			t = d;
		if (s0 != 0)
			continue;
		d = dfcp_ep_next_deadline(f->sep, n->now);
		if (f->poll_ns && d < f->next_poll)
			d = f->next_poll;
		if (f->rate_bps && d <= n->now) {
			/* when a full frame of tokens is there */
			uint64_t need = sn_frame_cost(n);

			e = f->tokens >= need ? n->now :
				n->now + (need - f->tokens + f->rate_bps - 1) / f->rate_bps;
			d = e > d ? e : d;
		}
		if (d < t)
			t = d;
	}
	if (n->bin_ns) {
		uint64_t b = (n->now / n->bin_ns + 1) * n->bin_ns;

		if (b < t)
			t = b;
	}
	return t > n->now ? t : n->now + 1;
}

/* Run until 'until' or until every sender's connection is closed. */
static inline void
sn_run(struct simnet *n, uint64_t until)
{
	struct pipe_pkt out[64];

	while (n->now < until) {
		int open = 0, s0 = sn_stalled(n, 0, n->now) != 0;
		int s1 = sn_stalled(n, 1, n->now) != 0;

		for (uint32_t i = 0; i < n->npipes && !s1; i++) {
			unsigned int k;

			while ((k = pipe_dequeue_burst(n->pipe[i], n->now, out, 64)) != 0)
				for (unsigned int j = 0; j < k; j++)
					sn_leave(n, (uint32_t)out[j].pkt, out[j].t_depart);
		}
		for (uint32_t i = 0; i < n->nflows; i++) {
			struct sn_flow *f = &n->f[i];

			if (!s1)
				sn_tx(n, i, 1);
			if (!s0 && (f->poll_ns == 0 || n->now >= f->next_poll)) {
				if (f->poll_ns)
					f->next_poll = n->now + f->poll_ns;
				sn_tx(n, i, 0);
			}
			if (n->bin_ns && n->now / n->bin_ns < SN_BINS) {
				f->bins[n->now / n->bin_ns] = f->sink.bytes;
				f->sbins[n->now / n->bin_ns] = f->sent;
			}
			if (f->sink.bytes != f->sink_seen) {
				f->sink_seen = f->sink.bytes;
				f->last_deliver = n->now;
			}
			open += dfcp_conn_state(f->conn) != DFCP_CLOSED &&
				dfcp_conn_state(f->conn) != DFCP_TIME_WAIT;
		}
		if (!open)
			return;
		n->now = sn_next(n, until);
	}
}

#endif /* DFCP_TEST_SIMNET_H */
