/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The demultiplexing table (xport_demux.h): open addressing with linear
 * probing over 2^b slots, at least 4 per owner (an owner takes up to two
 * entries: its address:port and, if first, its address for ARP), so the
 * table is at most half full and a probe sequence always meets an empty
 * slot. The key is never 0 (its tag byte is 1 or 2), 0 marks an empty
 * slot. Entries are only added (set-up), never removed.
 */
#include <errno.h>
#include <stdlib.h>

#include "kinds/xport/xport_demux.h"

#define TAG_PORT	1u	/* (ip, port): port 0 is the address's wildcard */
#define TAG_IP		2u	/* (ip): the first owner of the address, for ARP */

struct demux_slot {
	uint64_t key;
	void *owner;
};

struct eng_demux {
	uint64_t mask;
	unsigned int shift;		/* 64 - b */
	unsigned int n, max;		/* entries, at most */
	struct demux_slot slots[];
};

static inline uint64_t
key_of(uint32_t ip, uint16_t port, unsigned int tag)
{
	return (uint64_t)ip << 32 | (uint64_t)port << 8 | tag;
}

static inline uint64_t
slot_of(const struct eng_demux *d, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull) >> d->shift;
}

struct eng_demux *
eng_demux_create(unsigned int max_owners)
{
	unsigned int b = 4;
	struct eng_demux *d;

	while (b < 31 && (1ull << b) < 4ull * max_owners)
		b++;
	d = calloc(1, sizeof(*d) + (sizeof(struct demux_slot) << b));
	if (d == NULL)
		return NULL;
	d->mask = (1ull << b) - 1;
	d->shift = 64 - b;
	d->max = (unsigned int)((1ull << b) / 2);
	return d;
}

void
eng_demux_free(struct eng_demux *d)
{
	free(d);
}

static void *
lookup(const struct eng_demux *d, uint64_t key)
{
	for (uint64_t i = slot_of(d, key);; i = (i + 1) & d->mask) {
		const struct demux_slot *s = &d->slots[i];

		if (s->key == key)
			return s->owner;
		if (s->key == 0)
			return NULL;
	}
}

static int
insert(struct eng_demux *d, uint64_t key, void *owner, void **prev)
{
	uint64_t i;

	for (i = slot_of(d, key); d->slots[i].key != 0; i = (i + 1) & d->mask)
		if (d->slots[i].key == key) {
			if (prev != NULL)
				*prev = d->slots[i].owner;
			return -EEXIST;
		}
	if (d->n == d->max)
		return -ENOSPC;
	d->slots[i].key = key;
	d->slots[i].owner = owner;
	d->n++;
	return 0;
}

int
eng_demux_add(struct eng_demux *d, uint32_t ip, uint16_t port, void *owner, void **prev)
{
	int rc;

	if (d->n + 2 > d->max)
		return -ENOSPC;
	rc = insert(d, key_of(ip, port, TAG_PORT), owner, prev);
	if (rc < 0)
		return rc;
	insert(d, key_of(ip, 0, TAG_IP), owner, NULL);	/* -EEXIST: an earlier owner answers ARP */
	return 0;
}

void *
eng_demux_find(const struct eng_demux *d, uint32_t ip, uint16_t port)
{
	void *o = lookup(d, key_of(ip, port, TAG_PORT));

	return o != NULL || port == 0 ? o : lookup(d, key_of(ip, 0, TAG_PORT));
}

void *
eng_demux_find_ip(const struct eng_demux *d, uint32_t ip)
{
	return lookup(d, key_of(ip, 0, TAG_IP));
}

unsigned int
eng_demux_max_probe(const struct eng_demux *d)
{
	unsigned int best = 0, run = 0;

	/* twice round the table: a cluster may wrap past the last slot */
	for (uint64_t i = 0; i <= 2 * d->mask + 1; i++) {
		run = d->slots[i & d->mask].key != 0 ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best + 1;
}
