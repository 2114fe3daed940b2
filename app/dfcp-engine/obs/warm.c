/* SPDX-License-Identifier: BSD-3-Clause */
/* A flow's rates after its warmup (warm.h). No EAL. */
#include "obs/warm.h"

int
eng_warm_sample(struct eng_warm *w, uint64_t warm_ns, uint64_t start_ns, uint64_t now,
		uint64_t goodput_bytes, uint64_t frame_bytes)
{
	if (warm_ns == 0 || start_ns == 0 || now < start_ns || now - start_ns < warm_ns ||
			__atomic_load_n(&w->at_ns, __ATOMIC_RELAXED) != 0)
		return 0;
	w->goodput_bytes = goodput_bytes;
	w->frame_bytes = frame_bytes;
	/* readers check at_ns first: the counters are in place before it */
	__atomic_store_n(&w->at_ns, now, __ATOMIC_RELEASE);
	return 1;
}

static double
mbps(uint64_t bytes, uint64_t ns)
{
	return ns == 0 ? 0.0 : (double)bytes * 8.0 * 1e3 / (double)ns;
}

double
eng_warm_mbps(uint64_t warm_ns, const struct eng_warm *w, int frames, uint64_t bytes,
		uint64_t start_ns, uint64_t end_ns)
{
	uint64_t at, bytes_at;

	if (warm_ns == 0)
		return start_ns != 0 && end_ns > start_ns ? mbps(bytes, end_ns - start_ns) : 0.0;
	at = __atomic_load_n(&w->at_ns, __ATOMIC_ACQUIRE);
	bytes_at = frames ? w->frame_bytes : w->goodput_bytes;
	if (at == 0 || end_ns <= at || bytes < bytes_at)
		return -1.0;
	return mbps(bytes - bytes_at, end_ns - at);
}
