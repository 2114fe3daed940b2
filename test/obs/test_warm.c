/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A flow's rates after its warmup (app/dfcp-engine/obs/warm.c, no EAL) on a
 * virtual clock: a flow that starts late and runs slowly during its warmup
 * reports the rate after it, from the right interval (the sample at the
 * first snapshot once the warmup has passed since the transfer started,
 * not since the run started); one sample only; a transfer shorter than its
 * warmup gives -1; no warmup gives the whole transfer's rate.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "obs/warm.h"
#include "test_harness.h"

#define MS 1000000ull
#define S (1000 * MS)

static int
near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) + 1);
}

/*
 * Run a flow established at start_ns (run time), moving slow_bpms bytes per
 * ms for its first slow_ns then fast_bpms until end_ns; snapshots every
 * snap_ns from run time 0. Returns the after-warmup goodput of warmup warm_ns.
 */
static double
run(uint64_t start_ns, uint64_t slow_ns, uint64_t slow_bpms, uint64_t fast_bpms,
		uint64_t end_ns, uint64_t snap_ns, uint64_t warm_ns, struct eng_warm *w,
		unsigned int *taken)
{
	const uint64_t base = 5 * S;	/* the clock does not start at 0 */
	uint64_t now, bytes = 0, frames = 0;

	*w = (struct eng_warm){0};
	*taken = 0;
	for (now = 0; now <= end_ns; now += MS) {
		if (now > start_ns) {
			uint64_t b = now - start_ns <= slow_ns ? slow_bpms : fast_bpms;

			bytes += b;
			frames += b + b / 10;	/* headers */
		}
		if (now % snap_ns == 0)
			*taken += (unsigned int)eng_warm_sample(w, warm_ns,
					now >= start_ns ? base + start_ns : 0, base + now, bytes, frames);
	}
	return eng_warm_mbps(warm_ns, w, 0, bytes, base + start_ns, base + end_ns);
}

static void
test_late_start(void)
{
	struct eng_warm w;
	unsigned int taken;
	double mbps;

	/* established at 1 s, 12.5 kB/ms (100 Mbit/s) for 2 s, then 62.5 kB/ms
	 * (500 Mbit/s) to 6 s; warmup 2 s: from 3 s on, 500 Mbit/s */
	mbps = run(1 * S, 2 * S, 12500, 62500, 6 * S, 10 * MS, 2 * S, &w, &taken);
	CHECKF(taken == 1, "samples taken %u", taken);
	CHECKF(w.at_ns == 5 * S + 3 * S, "sample at %llu", (unsigned long long)w.at_ns);
	CHECKF(w.goodput_bytes == 2000 * 12500ull, "bytes at the sample %llu",
			(unsigned long long)w.goodput_bytes);
	CHECKF(near(mbps, 500.0), "after warmup %.6f Mbit/s", mbps);
	/* (a warmup from the run's start would end at 2 s and mix in 1 s of 100 Mbit/s)
	 * the whole transfer: (2 s x 100 + 3 s x 500) / 5 s = 340 Mbit/s */
	mbps = run(1 * S, 2 * S, 12500, 62500, 6 * S, 10 * MS, 0, &w, &taken);
	CHECKF(taken == 0 && near(mbps, 340.0), "no warmup: %u samples, %.6f Mbit/s", taken, mbps);
	/* snapshots every 7 ms: the sample at 3.003 s, its bytes of that instant */
	mbps = run(1 * S, 2 * S, 12500, 62500, 6 * S, 7 * MS, 2 * S, &w, &taken);
	CHECKF(taken == 1 && w.at_ns == 5 * S + 3003 * MS, "7 ms: sample at %llu",
			(unsigned long long)w.at_ns);
	CHECKF(near(mbps, 500.0), "7 ms snapshots: after warmup %.6f Mbit/s", mbps);
	/* throughput: frames (bytes + 10 %) from the same sample */
	CHECKF(near(eng_warm_mbps(2 * S, &w, 1, 2000 * 13750ull + 3000 * 68750ull, 6 * S,
			11 * S), 550.0), "throughput after warmup");
}

static void
test_short(void)
{
	struct eng_warm w;
	unsigned int taken;
	double mbps;

	/* established at 0.5 s, the run ends at 2 s: shorter than a 2 s warmup */
	mbps = run(S / 2, 10 * S, 12500, 12500, 2 * S, 10 * MS, 2 * S, &w, &taken);
	CHECKF(taken == 0 && mbps == -1.0, "short: %u samples, %.3f", taken, mbps);
	/* sampled, but no time after it */
	w = (struct eng_warm){.goodput_bytes = 10, .at_ns = 3 * S};
	CHECK(eng_warm_mbps(S, &w, 0, 10, 2 * S, 3 * S) == -1.0);
	CHECK(eng_warm_mbps(S, &w, 0, 10, 2 * S, 2 * S) == -1.0);
	/* not started: no sample, 0 without a warmup */
	CHECK(eng_warm_sample(&w, S, 0, 9 * S, 1, 1) == 0);
	CHECK(eng_warm_mbps(0, &w, 0, 0, 0, 9 * S) == 0.0);
	/* a sample is taken once */
	w = (struct eng_warm){0};
	CHECK(eng_warm_sample(&w, S, 2 * S, 3 * S, 100, 110) == 1);
	CHECK(eng_warm_sample(&w, S, 2 * S, 4 * S, 200, 220) == 0);
	CHECK(w.at_ns == 3 * S && w.goodput_bytes == 100 && w.frame_bytes == 110);
	CHECK(eng_warm_sample(&w, 0, 2 * S, 4 * S, 200, 220) == 0);
}

int
main(void)
{
	test_late_start();
	test_short();
	return test_report("warm");
}
