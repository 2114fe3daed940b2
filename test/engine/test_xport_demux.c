/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport demultiplexing table (kinds/xport/xport_demux.c) against
 * the plain scan it replaced (xport_ep_find before issue 13), on random
 * sets of endpoints and random lookups, hits and misses; duplicates are
 * refused; 4096 flows are found in a few probes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "kinds/xport/xport_demux.h"
#include "test_harness.h"

struct ref_ep {
	uint32_t ip;
	uint16_t port;		/* 0: every port of ip */
};

/* The old scan: the first endpoint of ip whose port matches or is 0
 * (any_port: the first endpoint of ip, for ARP). */
static int
ref_find(const struct ref_ep *e, unsigned int n, uint32_t ip, uint16_t port, int any_port)
{
	for (unsigned int i = 0; i < n; i++)
		if (e[i].ip == ip && (any_port || e[i].port == port || e[i].port == 0))
			return (int)i;
	return -1;
}

/* With an exact owner and a wildcard on one address, the table prefers the
 * exact one: the scan in that order. */
static int
ref_find_exact_first(const struct ref_ep *e, unsigned int n, uint32_t ip, uint16_t port)
{
	for (unsigned int i = 0; i < n; i++)
		if (e[i].ip == ip && e[i].port == port)
			return (int)i;
	return ref_find(e, n, ip, port, 0);
}

static int
idx_of(void *o, const struct ref_ep *base)
{
	return o == NULL ? -1 : (int)((const struct ref_ep *)o - base);
}

/* One random set: n endpoints over a few addresses (so they collide), some
 * of them wildcards when mixed, else each address all-exact or one wildcard. */
static void
one_set(struct test_rng *r, unsigned int n, int mixed)
{
	struct ref_ep *e = calloc(n, sizeof(*e));
	struct eng_demux *d = eng_demux_create(n);
	unsigned int naddr = 1 + n / 32 + test_rng_below(r, n), k = 0, q, tries;

	REQUIRE(e != NULL && d != NULL);
	for (tries = 0; k < n && tries < 20 * n; tries++) {
		uint32_t ip = 0x0a000000u + test_rng_below(r, naddr);
		uint16_t port = (uint16_t)(1 + test_rng_below(r, 64));
		int wild = test_rng_below(r, 8) == 0;
		void *prev = NULL;
		int rc, exists = -1;

		if (!mixed) {
			/* an address is either one wildcard or exact ports only */
			int first = ref_find(e, k, ip, 0, 1);

			if (first >= 0)
				wild = e[first].port == 0;
			if (first >= 0 && wild)
				continue;
		}
		if (wild)
			port = 0;
		for (unsigned int i = 0; i < k; i++)
			if (e[i].ip == ip && e[i].port == port)
				exists = (int)i;
		e[k].ip = ip;
		e[k].port = port;
		rc = eng_demux_add(d, ip, port, &e[k], &prev);
		if (exists >= 0) {
			CHECKF(rc == -EEXIST && idx_of(prev, e) == exists, "duplicate %u: rc %d", k, rc);
			continue;	/* refused: not in the set */
		}
		CHECKF(rc == 0, "add %u: rc %d", k, rc);
		k++;
	}
	n = k;	/* what was added */
	for (q = 0; q < 4 * n + 64; q++) {
		uint32_t ip = 0x0a000000u + test_rng_below(r, naddr + 2);
		uint16_t port = (uint16_t)test_rng_below(r, 70);
		int want = mixed ? ref_find_exact_first(e, n, ip, port) : ref_find(e, n, ip, port, 0);

		CHECKF(idx_of(eng_demux_find(d, ip, port), e) == want, "find %08x:%u: want %d", ip,
				port, want);
		CHECKF(idx_of(eng_demux_find_ip(d, ip), e) == ref_find(e, n, ip, 0, 1),
				"find_ip %08x", ip);
	}
	eng_demux_free(d);
	free(e);
}

int
main(void)
{
	struct test_rng r;
	struct eng_demux *d;
	static struct ref_ep e[4096];
	unsigned int i, probes;

	test_rng_seed(&r, 13);
	for (i = 0; i < 300; i++)
		one_set(&r, 1 + test_rng_below(&r, i < 200 ? 40 : 600), (int)(i & 1));
	/* 4096 flows on 64 addresses x 64 ports: each found, a few probes at most */
	d = eng_demux_create(4096);
	REQUIRE(d != NULL);
	for (i = 0; i < 4096; i++) {
		e[i].ip = 0x0a000001u + i / 64;
		e[i].port = (uint16_t)(5000 + i % 64);
		CHECK(eng_demux_add(d, e[i].ip, e[i].port, &e[i], NULL) == 0);
	}
	for (i = 0; i < 4096; i++)
		CHECK(eng_demux_find(d, e[i].ip, e[i].port) == &e[i]);
	CHECK(eng_demux_find(d, 0x0a000001u, 4999) == NULL);
	CHECK(eng_demux_find_ip(d, 0x0a000002u) == &e[64]);
	probes = eng_demux_max_probe(d);
	printf("4096 flows: longest probe %u slots\n", probes);
	CHECKF(probes <= 64, "longest probe %u", probes);
	eng_demux_free(d);
	/* a table of 16 slots holds 8 entries: 4 owners on distinct addresses */
	d = eng_demux_create(1);
	REQUIRE(d != NULL);
	for (i = 0; i < 4; i++)
		CHECK(eng_demux_add(d, 0x0b000000u + i, 1, &e[i], NULL) == 0);
	CHECK(eng_demux_add(d, 0x0b000009u, 1, &e[9], NULL) == -ENOSPC);
	CHECK(eng_demux_find(d, 0x0b000009u, 1) == NULL);
	CHECK(eng_demux_find(d, 0x0b000003u, 1) == &e[3]);
	eng_demux_free(d);
	return test_report("xport-demux");
}
