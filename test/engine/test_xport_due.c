/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The transport task's endpoint deadlines (kinds/xport/xport_due.c) against
 * the plain walk they replaced (eng_due_walk_ref: every endpoint's cached
 * deadline compared with now each poll), on random sets, moves, removals
 * and wakes with a virtual clock; and the stuck-frame rule (back-pressure
 * kept, a dead link dropped) on a virtual clock.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/xport/xport_due.h"
#include "test_harness.h"

#define NMAX 4096u

static uint64_t ref_key[NMAX];	/* UINT64_MAX: no deadline */
static uint8_t ref_ready[NMAX];

/* The heap's shape: every parent's deadline <= its children's, pos[] exact. */
static int
heap_ok(const struct eng_due *d)
{
	for (unsigned int i = 0; i < d->n; i++) {
		if (d->pos[d->heap[i]] != i)
			return 0;
		if (i > 0 && d->key[d->heap[(i - 1) / 2]] > d->key[d->heap[i]])
			return 0;
	}
	return 1;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Random set/del/wake; at each poll the ids run (woken + due) equal the
 * walk's, the due ones come out earliest first. */
static void
test_against_walk(unsigned int n, uint64_t seed)
{
	static uint32_t got[NMAX], want[NMAX];
	struct eng_due d;
	struct test_rng r;
	uint64_t now = 1000;

	test_rng_seed(&r, seed);
	REQUIRE(eng_due_init(&d, n) == 0);
	for (unsigned int i = 0; i < n; i++)
		ref_key[i] = UINT64_MAX;
	memset(ref_ready, 0, sizeof(ref_ready));
	for (unsigned int poll = 0; poll < 2000; poll++) {
		unsigned int ops = (unsigned int)(test_rng_next(&r) % 16), k, w;
		uint64_t last = 0;
		uint32_t id;

		for (unsigned int o = 0; o < ops; o++) {
			uint64_t v = test_rng_next(&r);

			id = (uint32_t)(v % n);
			switch ((v >> 32) % 4) {
			case 0:
			case 1:	/* a deadline within the next 100 polls */
				if (ref_ready[id])
					break;	/* xport never sets one while queued */
				ref_key[id] = now + (v >> 40) % 100;
				eng_due_set(&d, id, ref_key[id]);
				break;
			case 2:
				ref_key[id] = UINT64_MAX;
				eng_due_del(&d, id);
				break;
			default:	/* received a frame */
				ref_key[id] = UINT64_MAX;
				ref_ready[id] = 1;
				eng_due_wake(&d, id);
				break;
			}
		}
		CHECK(heap_ok(&d));
		/* the walk: the due ones, then the woken ones join them */
		w = eng_due_walk_ref(ref_key, n, now, want);
		for (unsigned int i = 0; i < w; i++)
			ref_key[want[i]] = UINT64_MAX;
		for (unsigned int i = 0; i < n; i++)
			if (ref_ready[i] && ref_key[i] == UINT64_MAX) {
				int dup = 0;

				for (unsigned int j = 0; j < w; j++)
					dup |= want[j] == i;
				if (!dup)
					want[w++] = i;
			}
		memset(ref_ready, 0, sizeof(ref_ready));
		/* the heap: due ones earliest first */
		while (d.n != 0 && eng_due_min(&d) <= now) {
			uint64_t t = eng_due_min(&d);

			CHECK(t >= last);
			last = t;
			REQUIRE(eng_due_pop(&d, now, &id) == 1);
			eng_due_wake(&d, id);
		}
		CHECK(eng_due_pop(&d, now, &id) == 0);
		k = eng_due_take(&d, got);
		CHECKF(k == w, "poll %u: %u run, the walk %u", poll, k, w);
		qsort(got, k, sizeof(got[0]), cmp_u32);
		qsort(want, w, sizeof(want[0]), cmp_u32);
		CHECK(k != w || memcmp(got, want, k * sizeof(got[0])) == 0);
		CHECK(d.nready == 0);
		now += 1 + test_rng_next(&r) % 3;
	}
	/* the rest in order of deadline, each once */
	{
		uint64_t last = 0;
		unsigned int left = d.n, seen = 0;
		uint32_t id;

		while (eng_due_pop(&d, UINT64_MAX - 1, &id)) {
			CHECK(d.key[id] >= last);
			last = d.key[id];
			seen++;
		}
		CHECK(seen == left);
	}
	eng_due_free(&d);
}

/* Moving a deadline later and earlier; a wake removes it; wake_due. */
static void
test_moves(void)
{
	struct eng_due d;
	uint32_t out[8], id;

	REQUIRE(eng_due_init(&d, 8) == 0);
	for (uint32_t i = 0; i < 8; i++)
		eng_due_set(&d, i, 100 + 10 * i);
	CHECK(eng_due_min(&d) == 100);
	eng_due_set(&d, 0, 500);		/* later */
	CHECK(eng_due_min(&d) == 110);
	eng_due_set(&d, 7, 50);			/* earlier */
	CHECK(eng_due_min(&d) == 50);
	eng_due_wake(&d, 7);			/* received: runs next poll, no deadline */
	eng_due_wake(&d, 7);			/* once */
	CHECK(d.n == 7 && d.nready == 1);
	CHECK(eng_due_min(&d) == 110);
	CHECK(eng_due_wake_due(&d, 125) == 2);	/* 1 (110), 2 (120) */
	CHECK(eng_due_take(&d, out) == 3);
	CHECK(out[0] == 7 && out[1] == 1 && out[2] == 2);
	CHECK(eng_due_pop(&d, 129, &id) == 0);
	CHECK(eng_due_pop(&d, 130, &id) == 1 && id == 3);
	eng_due_del(&d, 3);			/* not there: nothing */
	eng_due_del(&d, 0);
	CHECK(d.n == 3 && heap_ok(&d));
	CHECK(eng_due_pop(&d, UINT64_MAX, &id) == 1 && id == 4);
	eng_due_free(&d);
	CHECK(eng_due_init(&d, 0) == 0);
	CHECK(eng_due_min(&d) == UINT64_MAX);
	eng_due_free(&d);
}

/*
 * The stuck rule on a virtual clock, 1 ms polls. A flow whose share of the
 * bottleneck is 244 kbit/s (4096 flows of 1 Gbit/s) gets one 1444-byte
 * frame into its queue every ~47 ms and may see none accepted for longer
 * than 0.5 s when the scheduler serves others; its frames are kept while the
 * task's egress moves. A dead link (nothing accepted from anyone) drops
 * them after 0.5 s; a queue that never serves this one flow after 5 s.
 */
static void
test_stuck(void)
{
	const uint64_t ms = 1000000ull;
	uint64_t since = 1000 * ms, moved = since, now, dropped = 0;

	/* back-pressure: others' frames leave every poll, this flow's for 3 s
	 * not at all */
	for (now = since; now < since + 3000 * ms; now += ms) {
		moved = now;
		if (eng_xport_stuck(since, moved, now))
			dropped = now;
	}
	CHECKF(dropped == 0, "dropped at +%llu ms under back-pressure",
			(unsigned long long)((dropped - since) / ms));
	/* ... up to 5 s */
	for (; now < since + 6000 * ms && dropped == 0; now += ms) {
		moved = now;
		if (eng_xport_stuck(since, moved, now))
			dropped = now;
	}
	CHECK(dropped == since + ENG_XPORT_STUCK_MAX_NS);
	/* the link dies at +200 ms: nothing moves from then on */
	dropped = 0;
	since = 10000 * ms;
	moved = since + 200 * ms;
	for (now = since; now < since + 2000 * ms && dropped == 0; now += ms)
		if (eng_xport_stuck(since, moved, now))
			dropped = now;
	CHECKF(dropped == moved + ENG_XPORT_STUCK_NS, "dead link: dropped at +%llu ms",
			(unsigned long long)((dropped - since) / ms));
	/* dead from the start: exactly 0.5 s */
	CHECK(!eng_xport_stuck(since, since, since + ENG_XPORT_STUCK_NS - 1));
	CHECK(eng_xport_stuck(since, since, since + ENG_XPORT_STUCK_NS));
	/* the egress moved recently but this flow's own wait is short: kept */
	CHECK(!eng_xport_stuck(since, 0, since + 100 * ms));
}

/*
 * The running time: polls every 10 us with a 2 s deschedule of the lcore
 * in the middle of a refusal (the scheduler on the same lcore could not
 * drain either) is not a dead link; polls every 1 ms with nothing moving
 * are, after 0.5 s of them.
 */
static void
test_active(void)
{
	const uint64_t us = 1000ull, ms = 1000000ull;
	uint64_t active = 1, last = 0, now = 5000 * ms, since, moved, dropped = 0;

	since = moved = eng_xport_active(&active, &last, now);
	for (now += 10 * us; now < 5000 * ms + 400 * ms; now += 10 * us)
		if (eng_xport_stuck(since, moved, eng_xport_active(&active, &last, now)))
			dropped = now;
	now += 2000 * ms;	/* descheduled */
	for (unsigned int i = 0; i < 1000; i++, now += 10 * us)
		if (eng_xport_stuck(since, moved, eng_xport_active(&active, &last, now)))
			dropped = now;
	CHECKF(dropped == 0, "dropped after a deschedule");
	CHECK(active - since < 412 * ms);	/* 400 ms + one gap of 1 ms + 10 ms */
	/* the same refusal goes on, the lcore running: dropped 0.5 s after `since` */
	for (; dropped == 0 && now < 20000 * ms; now += 1 * ms)
		if (eng_xport_stuck(since, moved, eng_xport_active(&active, &last, now)))
			dropped = active;
	CHECK(dropped >= since + ENG_XPORT_STUCK_NS && dropped < since + ENG_XPORT_STUCK_NS + ms);
	/* time going backwards or standing still adds nothing */
	last = now;
	moved = active;
	CHECK(eng_xport_active(&active, &last, now - 5 * ms) == moved);
	CHECK(eng_xport_active(&active, &last, now) == moved);
}

/* One flow through a scheduler that serves it a packet every svc ns (a
 * slot with its queue empty is lost: the link idles), publishing what it
 * took every limit / 4 packets, and its producer polled every poll ns with
 * frames always to send, a burst at a time. */
struct bo_run {
	uint64_t served, starved, tries, handovers;
};

static struct bo_run
bo_sim(uint64_t svc, uint32_t limit, uint64_t poll, uint32_t burst, uint64_t dur,
		int every_poll)
{
	struct bo_run r = { 0, 0, 0, 0 };
	uint64_t now, next_svc = svc, sent = 0, done = 0, backoff = 0, retry_at = 0, wake = 0;
	uint32_t step = limit / 4 ? limit / 4 : 1;

	for (now = 0; now < dur; now += poll) {
		for (; next_svc <= now; next_svc += svc) {
			if (sent == r.served) {
				r.starved++;
				continue;
			}
			if (++r.served % step == 0)
				done = r.served;
		}
		if (!every_poll && now < wake)
			continue;
		r.tries++;
		if (sent - done < limit) {
			uint64_t k = limit - (sent - done);

			sent += k < burst ? k : burst;
			r.handovers++;
			eng_xport_backoff_moved(&backoff, &retry_at);
			wake = 0;	/* the next poll */
		} else {
			wake = eng_xport_backoff(&backoff, &retry_at, now);
		}
	}
	return r;
}

/*
 * The backoff against a try every poll (the reference): the flow is served
 * as much (no slot lost to an empty queue) with far fewer tries. A flow
 * with 1/4096 of 1 Gbit/s (a 1444-byte frame every 47 ms, flow_queue 4,
 * polls every 50 us) and one at 10 Gbit/s (every 1.2 us, flow_queue 64,
 * polls every 2 us, bursts of 32).
 */
static void
test_backoff(void)
{
	static const struct {
		uint64_t svc;
		uint32_t limit;
		uint64_t poll;
		uint32_t burst;
		uint64_t dur;
	} c[] = {
		{ 47000000ull, 4, 50000ull, 4, 20000000000ull },
		{ 1200ull, 64, 2000ull, 32, 50000000ull },
		{ 300000ull, 16, 10000ull, 8, 2000000000ull },
	};
	uint64_t t = 1000;

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct bo_run ref = bo_sim(c[i].svc, c[i].limit, c[i].poll, c[i].burst, c[i].dur, 1);
		struct bo_run bo = bo_sim(c[i].svc, c[i].limit, c[i].poll, c[i].burst, c[i].dur, 0);

		CHECKF(bo.starved == ref.starved && bo.served == ref.served,
				"case %u: served %llu / %llu, slots lost %llu / %llu", i,
				(unsigned long long)bo.served, (unsigned long long)ref.served,
				(unsigned long long)bo.starved, (unsigned long long)ref.starved);
		CHECKF(bo.tries <= 4 * bo.handovers + 32 && bo.tries * 4 < ref.tries,
				"case %u: %llu tries for %llu hand-overs (every poll: %llu)", i,
				(unsigned long long)bo.tries, (unsigned long long)bo.handovers,
				(unsigned long long)ref.tries);
	}
	/* bounds: from the least, doubled, at most the most; woken early: same time */
	uint64_t b = 0, at = 0;

	CHECK(eng_xport_backoff(&b, &at, t) == t + ENG_XPORT_BACKOFF_MIN_NS);
	CHECK(eng_xport_backoff(&b, &at, t + 10) == t + ENG_XPORT_BACKOFF_MIN_NS);
	CHECK(eng_xport_backoff(&b, &at, at) == t + 3 * ENG_XPORT_BACKOFF_MIN_NS);
	for (unsigned int i = 0; i < 64; i++)
		eng_xport_backoff(&b, &at, at);
	CHECK(b == ENG_XPORT_BACKOFF_MAX_NS);
	eng_xport_backoff_moved(&b, &at);
	CHECK(b == ENG_XPORT_BACKOFF_MAX_NS / 2 && at == 0);
}

int
main(void)
{
	test_moves();
	test_against_walk(7, 1);
	test_against_walk(64, 2);
	test_against_walk(NMAX, 3);
	test_stuck();
	test_active();
	test_backoff();
	return test_report("xport-due");
}
