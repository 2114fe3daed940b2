/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dfcp connection state machine: every transition, retry limits, timers,
 * RST, TIME_WAIT expiry, bounded listener under a SYN flood.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dfcp.h"
#include "dfcp_priv.h"
#include "vnet.h"

#define MS	1000000ull
#define RTO	(10 * MS)
#define TW	(50 * MS)

static const struct dfcp_addr A = { { 2, 0, 0, 0, 0, 1 }, 0x0a000001, 5000 };
static const struct dfcp_addr B = { { 2, 0, 0, 0, 0, 2 }, 0x0a000002, 6000 };

static uint8_t fb[VN_BURST][VN_FRAME];
static void *fbp[VN_BURST];
static uint16_t fl[VN_BURST];
static struct dfcp_pkt fp[VN_BURST];

static void
conf_init(struct dfcp_conn_conf *c, struct net_src_pattern *src,
		struct net_sink_count *sink)
{
	dfcp_conn_conf_default(c);
	c->local = A;
	c->remote = B;
	c->T = 64;
	c->K = 4;
	c->window = 4;
	c->redundancy = 6;
	c->hs_rto_ns = RTO;
	c->time_wait_ns = TW;
	if (src != NULL) {
		c->source = net_src_pattern_read;
		c->source_ctx = src;
	}
	if (sink != NULL) {
		c->sink = net_sink_count_write;
		c->sink_ctx = sink;
	}
}

/* tx_burst and parse everything; returns frame count. */
static unsigned int
tx(struct dfcp_conn *c, uint64_t now)
{
	unsigned int k = dfcp_conn_tx_burst(c, now, fbp, fl, VN_FRAME, VN_BURST);

	for (unsigned int i = 0; i < k; i++)
		CHECK(dfcp_parse(fb[i], fl[i], 0, &fp[i]) == 0);
	return k;
}

static int
count_type(unsigned int k, uint8_t type)
{
	int n = 0;

	for (unsigned int i = 0; i < k; i++)
		n += fp[i].type == type;
	return n;
}

static const struct dfcp_pkt *
find_type(unsigned int k, uint8_t type)
{
	for (unsigned int i = 0; i < k; i++)
		if (fp[i].type == type)
			return &fp[i];
	return NULL;
}

/* Handshake a -> b directly; returns b (ESTABLISHED both sides). */
static struct dfcp_conn *
handshake(struct dfcp_conn *a, uint64_t now)
{
	struct dfcp_conn_conf bc;
	struct dfcp_conn *b;
	struct dfcp_pkt syn, synack;
	unsigned int k;

	CHECK(dfcp_conn_state(a) == DFCP_SYN_SENT);
	k = tx(a, now);
	CHECK(k == 1 && fp[0].type == DFCP_T_SYN && fp[0].dst_cid == 0);
	syn = fp[0];
	conf_init(&bc, NULL, NULL);
	bc.local = B;
	b = dfcp_conn_accept(&bc, 0x200, &syn, NULL, now);
	REQUIRE(b != NULL && dfcp_conn_state(b) == DFCP_SYN_RECV);
	CHECK(dfcp_conn_state(b) == DFCP_SYN_RECV);
	k = tx(b, now);
	CHECK(k == 1 && fp[0].type == DFCP_T_SYNACK && fp[0].dst_cid == dfcp_conn_local_cid(a));
	synack = fp[0];
	CHECK(dfcp_conn_rx(a, &synack, now + 1) == 0);
	CHECK(dfcp_conn_state(a) == DFCP_ESTABLISHED);
	CHECK(dfcp_conn_remote_cid(a) == 0x200);
	return b;
}

static void
test_open_close(void)
{
	struct dfcp_conn_conf ac;
	struct net_src_pattern src;
	struct dfcp_conn *a, *b;
	const struct dfcp_pkt *p;
	struct dfcp_pkt ack, fin, finack, ackfin;
	unsigned int k;

	net_src_pattern_init(&src, 1, 0, 0);
	src.total = 0;
	conf_init(&ac, NULL, NULL);	/* no source: nothing to send */
	a = dfcp_conn_connect(&ac, 0x100, 0);
	REQUIRE(a != NULL);
	b = handshake(a, 0);
	/* A: ACK of the SYNACK, then straight to FIN (no data) */
	k = tx(a, 2);
	CHECK(count_type(k, DFCP_T_ACK) == 1 && count_type(k, DFCP_T_FIN) == 1);
	CHECK(dfcp_conn_state(a) == DFCP_FIN_WAIT1);
	ack = *find_type(k, DFCP_T_ACK);
	fin = *find_type(k, DFCP_T_FIN);
	CHECK(ack.u.ack.acked == DFCP_T_SYNACK);
	CHECK(fin.u.fin.nblocks == 0 && fin.u.fin.nbytes == 0);
	CHECK(dfcp_conn_rx(b, &ack, 3) == 0);
	CHECK(dfcp_conn_state(b) == DFCP_ESTABLISHED);
	CHECK(dfcp_conn_rx(b, &fin, 3) == 0);
	CHECK(dfcp_conn_state(b) == DFCP_CLOSE_WAIT);
	/* duplicate FIN in CLOSE_WAIT: ACKed again */
	CHECK(dfcp_conn_rx(b, &fin, 3) == 0);
	k = tx(b, 4);
	CHECK(dfcp_conn_state(b) == DFCP_LAST_ACK);
	CHECK(count_type(k, DFCP_T_ACK) == 1 && count_type(k, DFCP_T_FINACK) == 1);
	ackfin = *find_type(k, DFCP_T_ACK);
	finack = *find_type(k, DFCP_T_FINACK);
	CHECK(ackfin.u.ack.acked == DFCP_T_FIN);
	CHECK(dfcp_conn_rx(a, &ackfin, 5) == 0);
	CHECK(dfcp_conn_state(a) == DFCP_FIN_WAIT2);
	CHECK(dfcp_conn_rx(a, &finack, 6) == 0);
	CHECK(dfcp_conn_state(a) == DFCP_TIME_WAIT);
	k = tx(a, 7);
	p = find_type(k, DFCP_T_ACK);
	REQUIRE(k == 1 && p != NULL && p->u.ack.acked == DFCP_T_FINACK);
	ack = *p;
	/* FINACK again (our ACK lost): re-ACK from TIME_WAIT */
	CHECK(dfcp_conn_rx(a, &finack, 8) == 0);
	CHECK(tx(a, 8) == 1 && fp[0].type == DFCP_T_ACK);
	CHECK(dfcp_conn_rx(b, &ack, 9) == 0);
	CHECK(dfcp_conn_state(b) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(b) == DFCP_CR_DONE);
	/* TIME_WAIT lasts time_wait_ns, then CLOSED */
	CHECK(dfcp_conn_next_deadline(a, 10) == 6 + TW);
	tx(a, 6 + TW - 1);
	CHECK(dfcp_conn_state(a) == DFCP_TIME_WAIT);
	tx(a, 6 + TW);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(a) == DFCP_CR_DONE);
	CHECK(dfcp_conn_next_deadline(a, 10) == UINT64_MAX);
	/* FINACK in FIN_WAIT1 (ACK lost) also completes */
	dfcp_conn_free(a);
	dfcp_conn_free(b);

	a = dfcp_conn_connect(&ac, 0x100, 0);
	b = handshake(a, 0);
	k = tx(a, 2);
	fin = *find_type(k, DFCP_T_FIN);
	/* the ACK lost: a FIN is not valid half-open (only ACK or DATA are) */
	CHECK(dfcp_conn_rx(b, &fin, 3) == -DFCP_E_STATE);
	CHECK(dfcp_conn_state(b) == DFCP_SYN_RECV);
	dfcp_conn_free(b);
	dfcp_conn_free(a);
}

/* SYN retried exactly 5 times, then CLOSED; resources can be freed. */
static void
test_syn_retries(void)
{
	struct dfcp_conn_conf ac;
	struct dfcp_conn *a;
	int syns = 0;
	uint64_t t;

	conf_init(&ac, NULL, NULL);
	a = dfcp_conn_connect(&ac, 0x100, 0);
	for (t = 0; t <= 10 * RTO; t += MS) {
		unsigned int k = tx(a, t);

		syns += count_type(k, DFCP_T_SYN);
		if (dfcp_conn_state(a) == DFCP_CLOSED)
			break;
	}
	CHECK(syns == 1 + DFCP_HS_RETRIES);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(a) == DFCP_CR_SYN_TIMEOUT);
	CHECK(t == 6 * RTO);
	dfcp_conn_free(a);
}

static void
test_synack_retries(void)
{
	struct dfcp_conn_conf ac;
	struct dfcp_conn *a, *b;
	struct dfcp_pkt syn;
	int n = 0;
	uint64_t t;

	conf_init(&ac, NULL, NULL);
	a = dfcp_conn_connect(&ac, 0x100, 0);
	tx(a, 0);
	syn = fp[0];
	ac.local = B;
	b = dfcp_conn_accept(&ac, 0x200, &syn, NULL, 0);
	ac.local = A;
	for (t = 0; t <= 10 * RTO; t += MS) {
		unsigned int k = tx(b, t);

		n += count_type(k, DFCP_T_SYNACK);
		if (t == 3 * MS) {	/* a retransmitted SYN gets an extra SYNACK */
			CHECK(dfcp_conn_rx(b, &syn, t) == 0);
			n--;
		}
		if (dfcp_conn_state(b) == DFCP_CLOSED)
			break;
	}
	CHECK(n == 1 + DFCP_HS_RETRIES);
	CHECK(dfcp_conn_close_reason(b) == DFCP_CR_SYN_TIMEOUT);
	dfcp_conn_free(b);
	dfcp_conn_free(a);
}

static void
test_lost_ack_and_dup_synack(void)
{
	struct dfcp_conn_conf ac;
	struct net_src_pattern src;
	struct net_sink_count sink;
	struct dfcp_conn *a, *b;
	struct dfcp_pkt synack;
	unsigned int k;

	net_src_pattern_init(&src, 5, 1000, 0);
	net_sink_count_init(&sink, 5, 1);
	conf_init(&ac, &src, NULL);
	a = dfcp_conn_connect(&ac, 0x100, 0);
	tx(a, 0);
	struct dfcp_pkt syn = fp[0];
	struct dfcp_conn_conf bc;

	conf_init(&bc, NULL, &sink);
	bc.local = B;
	b = dfcp_conn_accept(&bc, 0x200, &syn, NULL, 0);
	tx(b, 0);
	synack = fp[0];
	CHECK(dfcp_conn_rx(a, &synack, 1) == 0);
	/* duplicate SYNACK: A answers with a fresh ACK */
	CHECK(dfcp_conn_rx(a, &synack, 1) == 0);
	k = tx(a, 2);
	CHECK(count_type(k, DFCP_T_ACK) == 1);
	CHECK(count_type(k, DFCP_T_DATA) >= 4);
	/* drop the ACK: the first DATA moves B to ESTABLISHED */
	for (unsigned int i = 0; i < k; i++) {
		if (fp[i].type == DFCP_T_DATA)
			dfcp_conn_rx(b, &fp[i], 3);
	}
	CHECK(dfcp_conn_state(b) == DFCP_ESTABLISHED);
	CHECK(sink.bytes == 1000 && sink.bad_bytes == 0);
	k = tx(b, 4);
	CHECK(count_type(k, DFCP_T_BLOCK_ACK) >= 1);
	for (unsigned int i = 0; i < k; i++)
		dfcp_conn_rx(a, &fp[i], 5);
	k = tx(a, 6);
	CHECK(dfcp_conn_state(a) == DFCP_FIN_WAIT1);
	dfcp_conn_free(a);
	dfcp_conn_free(b);
}

static void
test_fin_retries(void)
{
	struct dfcp_conn_conf ac;
	struct dfcp_conn *a, *b;
	struct dfcp_pkt fin, ackfin, ack;
	int n = 0;
	uint64_t t;

	/* FIN never answered */
	conf_init(&ac, NULL, NULL);
	a = dfcp_conn_connect(&ac, 0x100, 0);
	b = handshake(a, 0);
	for (t = 2; t <= 10 * RTO; t += MS) {
		n += count_type(tx(a, t), DFCP_T_FIN);
		if (dfcp_conn_state(a) == DFCP_CLOSED)
			break;
	}
	CHECK(n == 1 + DFCP_HS_RETRIES);
	CHECK(dfcp_conn_close_reason(a) == DFCP_CR_FIN_TIMEOUT);
	dfcp_conn_free(a);
	dfcp_conn_free(b);

	/* FINACK never answered: LAST_ACK gives up after 5 retries */
	a = dfcp_conn_connect(&ac, 0x100, 0);
	b = handshake(a, 0);
	unsigned int k = tx(a, 2);

	ack = *find_type(k, DFCP_T_ACK);
	fin = *find_type(k, DFCP_T_FIN);
	dfcp_conn_rx(b, &ack, 3);
	dfcp_conn_rx(b, &fin, 3);
	n = 0;
	for (t = 4; t <= 10 * RTO; t += MS) {
		k = tx(b, t);
		n += count_type(k, DFCP_T_FINACK);
		if (t == 4)
			ackfin = *find_type(k, DFCP_T_ACK);
		if (dfcp_conn_state(b) == DFCP_CLOSED)
			break;
	}
	CHECK(n == 1 + DFCP_HS_RETRIES);
	CHECK(dfcp_conn_close_reason(b) == DFCP_CR_FIN_TIMEOUT);
	/* A got the ACK of its FIN but no FINACK: FIN_WAIT2 times out */
	dfcp_conn_rx(a, &ackfin, 5);
	CHECK(dfcp_conn_state(a) == DFCP_FIN_WAIT2);
	for (t = 5; t < 20 * RTO && dfcp_conn_state(a) != DFCP_CLOSED; t += MS)
		tx(a, t);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(a) == DFCP_CR_FIN_TIMEOUT);
	dfcp_conn_free(a);
	dfcp_conn_free(b);
}

static void
test_rst(void)
{
	struct dfcp_conn_conf ac;
	struct dfcp_conn *a, *b;
	struct dfcp_pkt rst, synack;

	conf_init(&ac, NULL, NULL);
	a = dfcp_conn_connect(&ac, 0x100, 0);
	b = handshake(a, 0);
	memset(&rst, 0, sizeof(rst));
	rst.type = DFCP_T_RST;
	rst.src_ip = B.ip;
	rst.src_port = B.port;
	rst.dst_ip = A.ip;
	rst.dst_port = A.port;
	rst.dst_cid = 0x100;
	rst.src_cid = 0x999;		/* wrong peer id: ignored */
	CHECK(dfcp_conn_rx(a, &rst, 1) == -DFCP_E_CONN);
	CHECK(dfcp_conn_state(a) == DFCP_ESTABLISHED);
	rst.src_cid = 0x200;
	CHECK(dfcp_conn_rx(a, &rst, 1) == 0);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	CHECK(dfcp_conn_close_reason(a) == DFCP_CR_RESET);
	CHECK(tx(a, 2) == 0);
	/* local abort sends an RST */
	dfcp_conn_abort(b, 3);
	CHECK(tx(b, 3) == 1 && fp[0].type == DFCP_T_RST && fp[0].u.rst.reason == DFCP_RST_ABORT);
	CHECK(dfcp_conn_close_reason(b) == DFCP_CR_ABORT);
	dfcp_conn_free(a);
	dfcp_conn_free(b);

	/* SYNACK with parameters the initiator did not offer: RST, CLOSED */
	a = dfcp_conn_connect(&ac, 0x100, 0);
	tx(a, 0);
	synack = fp[0];
	synack.type = DFCP_T_SYNACK;
	synack.src_ip = B.ip;
	synack.src_port = B.port;
	synack.dst_ip = A.ip;
	synack.dst_port = A.port;
	synack.src_cid = 0x300;
	synack.dst_cid = 0x100;
	synack.u.params.window = 1000;		/* larger than offered */
	CHECK(dfcp_conn_rx(a, &synack, 1) == -DFCP_E_PARAMS);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED);
	CHECK(tx(a, 2) == 1 && fp[0].type == DFCP_T_RST && fp[0].u.rst.reason == DFCP_RST_PARAMS);
	dfcp_conn_free(a);
}

/* ---- endpoint level ---- */

static struct dfcp_ep *
mk_ep(const struct dfcp_addr *addr, int listen, uint32_t half, struct net_sink_count *sink)
{
	struct dfcp_ep_conf ec;

	dfcp_ep_conf_default(&ec);
	ec.local = *addr;
	ec.listen = listen;
	ec.max_conns = 64;
	ec.max_half_open = half;
	ec.limits.max_window = 16;
	ec.limits.max_K = 64;
	ec.limits.max_T = 1500;
	conf_init(&ec.accept_conf, NULL, sink);
	return dfcp_ep_create(&ec);
}

struct flow_done {
	struct dfcp_conn *a;
};

static int
a_closed(void *ctx)
{
	struct flow_done *d = ctx;

	return dfcp_conn_state(d->a) == DFCP_CLOSED;
}

static void
test_ep_rst_and_flood(void)
{
	struct net_sink_count sink;
	struct net_src_pattern src;
	struct dfcp_ep *ea, *eb;
	struct dfcp_ep_stats st;
	struct dfcp_conn_conf ac;
	struct dfcp_conn *a;
	struct vnet v;
	uint8_t f[256];
	int len;

	net_sink_count_init(&sink, 9, 1);
	ea = mk_ep(&A, 0, 0, NULL);
	eb = mk_ep(&B, 1, 8, &sink);
	REQUIRE(ea != NULL && eb != NULL);
	vn_init(&v, ea, eb, 1);

	/* unknown connection id: RST, counted */
	struct dfcp_pkt p;

	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_FINACK;
	p.dst_cid = 0x7777;
	p.src_cid = 0x1234;
	len = dfcp_build(f, sizeof(f), &A, &B, &p, DFCP_CSUM_FULL);
	CHECK(dfcp_ep_rx(eb, f, (size_t)len, 0) == -DFCP_E_CONN);
	uint16_t lens[4];
	void *bufs[4] = { fb[0], fb[1], fb[2], fb[3] };

	CHECK(dfcp_ep_tx_burst(eb, 0, bufs, lens, VN_FRAME, 4) == 1);
	CHECK(dfcp_parse(fb[0], lens[0], 0, &p) == 0);
	CHECK(p.type == DFCP_T_RST && p.dst_cid == 0x1234 && p.u.rst.reason == DFCP_RST_UNKNOWN);
	/* an RST for an unknown id is not answered */
	len = dfcp_build(f, sizeof(f), &A, &B, &p, DFCP_CSUM_FULL);
	p.type = DFCP_T_RST;
	p.dst_cid = 0x7777;
	p.src_cid = 0x1234;
	len = dfcp_build(f, sizeof(f), &A, &B, &p, DFCP_CSUM_FULL);
	CHECK(dfcp_ep_rx(eb, f, (size_t)len, 0) == -DFCP_E_CONN);
	CHECK(dfcp_ep_tx_burst(eb, 0, bufs, lens, VN_FRAME, 4) == 0);
	/* not for our address */
	p.type = DFCP_T_FINACK;
	len = dfcp_build(f, sizeof(f), &B, &A, &p, DFCP_CSUM_FULL);
	CHECK(dfcp_ep_rx(eb, f, (size_t)len, 0) == -DFCP_E_ADDR);

	/* absurd SYN parameters: RST, nothing allocated */
	memset(&p, 0, sizeof(p));
	p.type = DFCP_T_SYN;
	p.src_cid = 0x55;
	p.u.params.block_size = 64 * 4;
	p.u.params.T = 64;
	p.u.params.K = 4;
	p.u.params.window = 4;
	p.u.params.redundancy = 6;
	p.u.params.max_window = p.u.params.max_K = p.u.params.max_T = 1;
	p.u.params.K = 100;		/* over the listener's max_K = 64 */
	p.u.params.block_size = 100;
	len = dfcp_build(f, sizeof(f), &A, &B, &p, DFCP_CSUM_FULL);
	CHECK(dfcp_ep_rx(eb, f, (size_t)len, 0) == -DFCP_E_PARAMS);
	dfcp_ep_stats(eb, &st);
	CHECK(st.conns == 0 && st.half_open == 0);
	CHECK(dfcp_ep_tx_burst(eb, 0, bufs, lens, VN_FRAME, 4) == 1);
	CHECK(dfcp_parse(fb[0], lens[0], 0, &p) == 0 && p.u.rst.reason == DFCP_RST_PARAMS);

	/* ARP for our address answered through the endpoint */
	struct net_arp req = { NET_ARP_REQUEST, { 2, 0, 0, 0, 0, 1 }, A.ip, { 0 }, B.ip };

	len = net_arp_build(f, sizeof(f), &req);
	CHECK(dfcp_ep_rx(eb, f, (size_t)len, 0) == 0);
	CHECK(dfcp_ep_tx_burst(eb, 0, bufs, lens, VN_FRAME, 4) == 1);
	CHECK(net_arp_parse(fb[0], lens[0], &req) == 0 && req.op == NET_ARP_REPLY);

	/* an established flow, then a SYN flood while it runs */
	net_src_pattern_init(&src, 9, 200000, 0);
	conf_init(&ac, &src, NULL);
	a = dfcp_ep_connect(ea, &ac, 0);
	REQUIRE(a != NULL);
	vn_run(&v, 2 * MS, NULL, NULL);
	CHECK(dfcp_conn_state(a) == DFCP_ESTABLISHED);
	for (uint32_t i = 0; i < 5000; i++) {
		struct dfcp_addr evil = A;

		evil.port = (uint16_t)(10000 + i);
		evil.ip = 0x0b000000 + i;
		memset(&p, 0, sizeof(p));
		p.type = DFCP_T_SYN;
		p.src_cid = i + 1;
		p.flags = DFCP_F_ACKS | DFCP_F_ENC | DFCP_F_DEC;
		p.u.params.block_size = 1500 * 64;
		p.u.params.T = 1500;
		p.u.params.K = 64;
		p.u.params.window = 16;
		p.u.params.redundancy = 64;
		p.u.params.max_window = 16;
		p.u.params.max_K = 64;
		p.u.params.max_T = 1500;
		p.u.params.flags = p.flags;
		len = dfcp_build(f, sizeof(f), &evil, &B, &p, DFCP_CSUM_FULL);
		dfcp_ep_rx(eb, f, (size_t)len, v.now);
		dfcp_ep_stats(eb, &st);
		CHECK(st.half_open <= 8 && st.conns <= 9);
	}
	dfcp_ep_stats(eb, &st);
	CHECK(st.half_open_evicted >= 5000 - 8);
	struct flow_done d = { a };

	vn_run(&v, v.now + 20 * 1000 * MS, a_closed, &d);
	CHECK(dfcp_conn_state(a) == DFCP_CLOSED && dfcp_conn_close_reason(a) == DFCP_CR_DONE);
	CHECK(sink.bytes == 200000 && sink.bad_bytes == 0 && sink.order_errors == 0);
	/* half-open entries time out (6 SYNACKs each) and are reaped */
	vn_run(&v, v.now + 10 * RTO, NULL, NULL);
	dfcp_ep_reap(ea);
	dfcp_ep_reap(eb);
	dfcp_ep_stats(eb, &st);
	CHECK(st.half_open == 0 && st.conns == 0);
	vn_fini(&v);
	dfcp_ep_free(ea);
	dfcp_ep_free(eb);
}

int
main(void)
{
	for (int i = 0; i < VN_BURST; i++)
		fbp[i] = fb[i];
	test_open_close();
	test_syn_retries();
	test_synack_retries();
	test_lost_ack_and_dup_synack();
	test_fin_retries();
	test_rst();
	test_ep_rst_and_flood();
	return test_report("dfcp-conn");
}
