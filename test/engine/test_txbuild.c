/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * txonly multi-flow's frame build (kinds/gen/txbuild.h): the fast form on a
 * raw pool mbuf against the plain one (rte_pktmbuf_reset, then the fields),
 * from mbufs left in random states by an earlier user; and the sched
 * hand-off's flow tag (core/egress.h) in the first cache line. No EAL: the
 * mbufs are laid out here as rte_pktmbuf_init() would.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_mbuf.h>

#include "core/egress.h"
#include "kinds/gen/txbuild.h"
#include "test_harness.h"

#define BUF_LEN 2176u
#define MB_SIZE (sizeof(struct rte_mbuf) + BUF_LEN)

/* One mbuf with its buffer at mem, as a pool holds it when free (refcnt 1,
 * nb_segs 1, next NULL), every other field random. */
static struct rte_mbuf *
mbuf_random(uint8_t *mem, struct test_rng *r, int external)
{
	struct rte_mbuf *m = (struct rte_mbuf *)mem;
	unsigned int i;

	for (i = 0; i < MB_SIZE; i++)
		mem[i] = (uint8_t)test_rng_next(r);
	m->buf_addr = mem + sizeof(*m);
	m->buf_len = BUF_LEN;
	m->refcnt = 1;
	m->nb_segs = 1;
	m->next = NULL;
	m->priv_size = 0;
	m->ol_flags = test_rng_next(r) & ~RTE_MBUF_F_EXTERNAL;
	if (external)
		m->ol_flags |= RTE_MBUF_F_EXTERNAL;
	return m;
}

/* The twin of src at mem (its own buffer pointer). */
static struct rte_mbuf *
mbuf_copy(uint8_t *mem, const uint8_t *src)
{
	struct rte_mbuf *m = (struct rte_mbuf *)mem;

	memcpy(mem, src, MB_SIZE);
	m->buf_addr = mem + sizeof(*m);
	return m;
}

static void
check_same(const struct rte_mbuf *a, const struct rte_mbuf *b, uint64_t ol)
{
	CHECK(a->data_off == b->data_off && a->refcnt == b->refcnt && a->nb_segs == b->nb_segs);
	CHECK(a->port == b->port && a->ol_flags == b->ol_flags);
	CHECK(a->packet_type == b->packet_type && a->pkt_len == b->pkt_len);
	CHECK(a->data_len == b->data_len && a->vlan_tci == b->vlan_tci);
	CHECK(a->vlan_tci_outer == b->vlan_tci_outer && a->next == b->next);
	CHECK(memcmp(rte_pktmbuf_mtod(a, const uint8_t *), rte_pktmbuf_mtod(b, const uint8_t *),
			ENG_PKT_HDR_LEN + sizeof(struct eng_pkt_payload)) == 0);
	if (ol != 0)
		CHECK(a->tx_offload == b->tx_offload);
}

static void
test_build(void)
{
	static alignas(64) uint8_t mem_ref[MB_SIZE], mem_fast[MB_SIZE], mem_orig[MB_SIZE];
	struct eng_txflow fl_ref = {.seq = 41, .ip = 0x0a000001, .port = 0x3412, .cksum = 0xbeef};
	struct eng_txflow fl_fast = fl_ref;
	struct eng_txf_frame fr;
	struct test_rng r;
	unsigned int i, k;

	test_rng_seed(&r, 17);
	for (i = 0; i < sizeof(fr.tmpl); i++)
		fr.tmpl[i] = (uint8_t)(i * 7 + 3);
	for (k = 0; k < 2000; k++) {
		uint64_t now = test_rng_next(&r);
		struct rte_mbuf *ref, *fast;
		const struct eng_pkt_payload *pl;

		fr.data_len = (uint16_t)(60 + test_rng_below(&r, 1455));
		fr.ol_flags = k % 3 == 0 ? RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM : 0;
		mbuf_random(mem_orig, &r, k % 7 == 0);
		ref = mbuf_copy(mem_ref, mem_orig);
		fast = mbuf_copy(mem_fast, mem_orig);
		eng_txf_build_ref(&fr, &fl_ref, ref, now);
		eng_txf_build(&fr, &fl_fast, fast, now);
		check_same(ref, fast, fr.ol_flags);
		CHECK(fl_ref.seq == fl_fast.seq && fl_fast.seq == 42 + k);
		pl = (const struct eng_pkt_payload *)(rte_pktmbuf_mtod(fast, const uint8_t *) +
				ENG_PKT_HDR_LEN);
		CHECK(pl->seq == 41 + k && pl->tsc == now && pl->magic == ENG_PKT_MAGIC);
		CHECK(memcmp(rte_pktmbuf_mtod(fast, uint8_t *) + ENG_TXF_PORT_OFF, &fl_fast.port,
				2) == 0);
		/* without an offload the second line is not written at all */
		if (fr.ol_flags == 0)
			CHECK(memcmp(mem_fast + RTE_CACHE_LINE_SIZE, mem_orig + RTE_CACHE_LINE_SIZE,
					RTE_CACHE_LINE_SIZE) == 0);
		else
			CHECK(fast->l2_len == 14 && fast->l3_len == 20);
	}
}

static void
test_tag(void)
{
	static alignas(64) uint8_t mem[MB_SIZE], orig[MB_SIZE];
	struct test_rng r;
	struct rte_mbuf *m;
	uint32_t id;

	test_rng_seed(&r, 5);
	CHECK(offsetof(struct rte_mbuf, hash) + sizeof(uint32_t) <= RTE_CACHE_LINE_SIZE);
	m = mbuf_random(mem, &r, 0);
	memcpy(orig, mem, MB_SIZE);
	for (id = 0; id < 70000; id += 997) {
		eng_egress_flow_id_set(m, id);
		CHECK(eng_egress_flow_id(m) == id);
	}
	CHECK(memcmp(mem + RTE_CACHE_LINE_SIZE, orig + RTE_CACHE_LINE_SIZE,
			MB_SIZE - RTE_CACHE_LINE_SIZE) == 0);
}

int
main(void)
{
	test_build();
	test_tag();
	return test_report("txbuild");
}
