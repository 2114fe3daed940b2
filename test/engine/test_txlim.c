/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A txonly stream held to its own rate (kinds/gen/txlim.h) on a virtual
 * clock: polled every 10 us for 1 s, taking a frame whenever it is ready,
 * it sends its rate's frames (within one); a 5 ms stall with a 1 ms
 * catch-up bound costs 4 ms of frames and no more (no burst after it);
 * a stopped stream never sends; a free one always may; a frame taken back
 * (untake) is sent again at once; a new rate takes effect from its set
 * time on.
 */
#include <stdio.h>

#include "kinds/gen/txlim.h"
#include "test_harness.h"

#define HZ 2000000000ull		/* 2 GHz */
#define FRAME_BITS ((100 + 24) * 8ull)	/* 100 B frames on the wire */

/* Frames sent from t0 to t1 (ns), polled every step ns, up to burst a poll,
 * skipping the polls within [stall_from, stall_to). */
static uint64_t
run(struct eng_txlim *l, uint64_t t0, uint64_t t1, uint64_t step, unsigned int burst,
		uint64_t stall_from, uint64_t stall_to, uint64_t catchup_ns)
{
	uint64_t ns, sent = 0, catchup = catchup_ns * (HZ / 1000000000ull) << ENG_TXLIM_FP;
	unsigned int k;

	for (ns = t0; ns < t1; ns += step) {
		uint64_t t = eng_txlim_now(0, ns * (HZ / 1000000000ull));

		if (ns >= stall_from && ns < stall_to)
			continue;
		for (k = 0; k < burst && eng_txlim_ready(l, t); k++) {
			eng_txlim_take(l, t, catchup);
			sent++;
		}
	}
	return sent;
}

int
main(void)
{
	struct eng_txlim l = {0, 0};
	uint64_t bps = 10000000, want, sent, t;

	/* 10 Mbit/s of 124 B frames: 10080.6 frames a second */
	want = bps / FRAME_BITS;
	eng_txlim_set(&l, eng_txlim_gap(FRAME_BITS, HZ, bps), 0);
	CHECK(l.gap == (FRAME_BITS * HZ << ENG_TXLIM_FP) / bps);
	sent = run(&l, 0, 1000000000ull, 10000, 32, 0, 0, 1000000);
	CHECKF(sent >= want && sent <= want + 1, "%lu frames, want %lu", (unsigned long)sent,
			(unsigned long)want);

	/* a 5 ms stall, catch-up 1 ms: 4 ms of frames lost, the rest sent */
	l.gap = 0;
	eng_txlim_set(&l, eng_txlim_gap(FRAME_BITS, HZ, bps), 0);
	sent = run(&l, 0, 1000000000ull, 10000, 32, 300000000ull, 305000000ull, 1000000);
	want = bps / FRAME_BITS - bps / FRAME_BITS * 4 / 1000;
	CHECKF(sent + 2 >= want && sent <= want + 2, "%lu frames after a stall, want %lu",
			(unsigned long)sent, (unsigned long)want);

	/* stopped: never; free: always */
	eng_txlim_set(&l, ENG_TXLIM_STOP, 0);
	CHECK(!eng_txlim_ready(&l, 0) && !eng_txlim_ready(&l, UINT64_MAX / 2));
	CHECK(run(&l, 0, 1000000, 10000, 32, 0, 0, 1000000) == 0);
	eng_txlim_set(&l, 0, 0);
	CHECK(eng_txlim_ready(&l, 0));
	CHECK(run(&l, 0, 100000, 10000, 32, 0, 0, 1000000) == 10 * 32);

	/* a frame taken back is ready again at the same time */
	eng_txlim_set(&l, eng_txlim_gap(FRAME_BITS, HZ, bps), 1000);
	CHECK(eng_txlim_ready(&l, 1000));
	eng_txlim_take(&l, 1000, 0);
	CHECK(!eng_txlim_ready(&l, 1000));
	eng_txlim_untake(&l);
	CHECK(eng_txlim_ready(&l, 1000));

	/* a new rate counts from its set time: 20 Mbit/s for 0.5 s after 10 for 0.5 s */
	l.gap = 0;
	eng_txlim_set(&l, eng_txlim_gap(FRAME_BITS, HZ, bps), 0);
	sent = run(&l, 0, 500000000ull, 10000, 32, 0, 0, 1000000);
	t = eng_txlim_now(0, 500000000ull * (HZ / 1000000000ull));
	eng_txlim_set(&l, eng_txlim_gap(FRAME_BITS, HZ, 2 * bps), t);
	sent += run(&l, 500000000ull, 1000000000ull, 10000, 32, 0, 0, 1000000);
	want = bps / FRAME_BITS / 2 + 2 * bps / FRAME_BITS / 2;
	CHECKF(sent + 2 >= want && sent <= want + 2, "%lu frames over the change, want %lu",
			(unsigned long)sent, (unsigned long)want);
	return test_report("txlim");
}
