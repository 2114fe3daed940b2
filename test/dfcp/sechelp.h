/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Helpers of the dfcp security tests: a sender and a listener on a vnet
 * (virtual clock), one transfer, and frames forged from the ones seen on
 * the wire (what an on-path observer has) or from nothing (off-path).
 */
#ifndef DFCP_TEST_SECHELP_H
#define DFCP_TEST_SECHELP_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "vnet.h"

#define MS	1000000ull

static const struct dfcp_addr SA = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr SB = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };
static const uint8_t sec_key[32] = "0123456789abcdef0123456789abcdef";

struct sec_run {
	struct vnet v;
	struct dfcp_ep *ea, *eb;
	struct dfcp_conn *a;
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct dfcp_ep_conf ec;		/* the listener's, before create */
	struct dfcp_conn_conf cc;	/* the sender's */
	uint64_t bytes;
	/* the attack: called on every frame on the wire (dir 0: a -> b) */
	int (*attack)(struct sec_run *r, int dir, const uint8_t *f, uint16_t len);
	int defer_connect;		/* the test connects r->a itself */
	int step;			/* attack progress */
	int rc[32];			/* what each forged frame got */
	int nrc;
};

static inline int
sec_filter(void *ctx, int dir, const uint8_t *f, uint16_t len)
{
	struct sec_run *r = ctx;

	return r->attack != NULL ? r->attack(r, dir, f, len) : 0;
}

/* The default transfer: 200 blocks of K = 16 x T = 64, window 8, auto redundancy. */
static inline void
sec_init(struct sec_run *r, uint64_t bytes)
{
	memset(r, 0, sizeof(*r));
	r->bytes = bytes;
	net_src_pattern_init(&r->src, 77, bytes, 0);
	net_sink_count_init(&r->sink, 77, 1);
	dfcp_conn_conf_default(&r->cc);
	r->cc.remote = SB;
	r->cc.T = 64;
	r->cc.K = 16;
	r->cc.window = 8;
	r->cc.redundancy = DFCP_REDUNDANCY_AUTO;
	r->cc.csum = DFCP_CSUM_UDP_ZERO;
	r->cc.hs_rto_ns = 10 * MS;
	r->cc.time_wait_ns = 10 * MS;
	r->cc.source = net_src_pattern_read;
	r->cc.source_ctx = &r->src;
	dfcp_ep_conf_default(&r->ec);
	r->ec.local = SB;
	r->ec.max_conns = 8;
	r->ec.max_half_open = 64;
	r->ec.secret_seed = 99;
	r->ec.csum = DFCP_CSUM_UDP_ZERO;
	r->ec.accept_conf.T = 64;
	r->ec.accept_conf.K = 16;
	r->ec.accept_conf.hs_rto_ns = 10 * MS;
	r->ec.accept_conf.time_wait_ns = 10 * MS;
	r->ec.accept_conf.sink = net_sink_count_write;
	r->ec.accept_conf.sink_ctx = &r->sink;
}

static inline int
sec_a_closed(void *ctx)
{
	struct sec_run *r = ctx;

	return dfcp_conn_state(r->a) == DFCP_CLOSED;
}

/* Create both endpoints, connect, run until the sender closes (or until). */
static inline void
sec_start(struct sec_run *r, uint64_t seed)
{
	struct dfcp_ep_conf ac;

	dfcp_ep_conf_default(&ac);
	ac.local = SA;
	ac.listen = 0;
	ac.max_conns = 2;
	ac.max_half_open = 1;
	ac.secret_seed = 98;
	ac.csum = DFCP_CSUM_UDP_ZERO;
	r->ea = dfcp_ep_create(&ac);
	r->eb = dfcp_ep_create(&r->ec);
	REQUIRE(r->ea != NULL && r->eb != NULL);
	vn_init(&r->v, r->ea, r->eb, seed);
	r->v.filter = sec_filter;
	r->v.filter_ctx = r;
	if (r->defer_connect)
		return;
	r->a = dfcp_ep_connect(r->ea, &r->cc, 0);
	REQUIRE(r->a != NULL);
}

static inline void
sec_run_until(struct sec_run *r, uint64_t until)
{
	vn_run(&r->v, until, sec_a_closed, r);
}

static inline struct dfcp_conn *
sec_b(struct sec_run *r)
{
	uint32_t pos = 0;

	return dfcp_ep_next_conn(r->eb, &pos);
}

static inline void
sec_fini(struct sec_run *r)
{
	vn_fini(&r->v);
	dfcp_ep_free(r->ea);
	dfcp_ep_free(r->eb);
}

/* The transfer completed, every byte exact, both sides say so. */
static inline int
sec_verified(struct sec_run *r)
{
	struct dfcp_stats ss;

	dfcp_conn_stats(r->a, &ss);
	return dfcp_conn_state(r->a) == DFCP_CLOSED && dfcp_conn_close_reason(r->a) == DFCP_CR_DONE &&
		ss.completed && r->sink.bytes == r->bytes && r->sink.bad_bytes == 0 &&
		r->sink.order_errors == 0;
}

/*
 * Forge a frame from a seen one f: parse it, let edit change the packet
 * and the addresses, build it again (with auth if given) and feed it to
 * the endpoint to. Returns what the endpoint said.
 */
typedef void (*sec_edit_fn)(struct dfcp_pkt *p, struct dfcp_addr *src, struct dfcp_addr *dst,
		void *ctx);

static inline int
sec_forge(struct sec_run *r, struct dfcp_ep *to, const uint8_t *f, uint16_t len,
		sec_edit_fn edit, void *ctx, const struct dfcp_auth *auth)
{
	uint8_t out[VN_FRAME], sym[VN_FRAME];
	struct dfcp_addr src, dst;
	struct dfcp_pkt p;
	int n;

	REQUIRE(dfcp_parse(f, len, 0, &p) == 0);
	memcpy(src.mac, p.src_mac, 6);
	src.ip = p.src_ip;
	src.port = p.src_port;
	memcpy(dst.mac, p.dst_mac, 6);
	dst.ip = p.dst_ip;
	dst.port = p.dst_port;
	if (p.type == DFCP_T_DATA) {
		memcpy(sym, p.u.data.sym, p.u.data.sym_len);
		p.u.data.sym = sym;
	}
	edit(&p, &src, &dst, ctx);
	n = dfcp_build_auth(out, sizeof(out), &src, &dst, &p, DFCP_CSUM_UDP_ZERO, auth);
	REQUIRE(n > 0);
	return dfcp_ep_rx(to, out, (size_t)n, r->v.now);
}

static inline uint8_t
sec_type(const uint8_t *f, uint16_t len)
{
	return len > DFCP_L2L4_LEN + 1 ? f[DFCP_L2L4_LEN + 1] : 0;
}

#endif /* DFCP_TEST_SECHELP_H */
