/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The one dispatch point of the symbol kernels. rq_isa_init (once per
 * process, from the first encoder / decoder creation or a direct call)
 * fills the GF(256) tables, reads the CPU's features and the L2 size,
 * and picks the best tier the CPU runs, or the one RQ_ISA names:
 *   RQ_ISA=generic|sse|avx2|avx512|avx512-gfni
 * A tier the CPU lacks (or an unknown name) is refused: rq_isa_init returns
 * -ENOTSUP / -EINVAL, says why on stderr once (rq_isa_error() keeps the
 * message), and encoders / decoders cannot be created.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rq_priv.h"
#include "rq_kern.h"

enum cpu_feat { F_SSSE3, F_AVX2, F_AVX512F, F_AVX512BW, F_GFNI, F_COUNT };

static const char *const feat_name[F_COUNT] = { "ssse3", "avx2", "avx512f", "avx512bw", "gfni" };

static const struct {
	const char *name;
	const struct rq_kern *kern;
	unsigned int needs;	/* bits of enum cpu_feat */
} tiers[RQ_ISA_COUNT] = {
	[RQ_ISA_GENERIC] = { "generic", &rq_kern_generic, 0 },
	[RQ_ISA_SSE] = { "sse", &rq_kern_sse, 1u << F_SSSE3 },
	[RQ_ISA_AVX2] = { "avx2", &rq_kern_avx2, 1u << F_SSSE3 | 1u << F_AVX2 },
	[RQ_ISA_AVX512] = { "avx512", &rq_kern_avx512,
		1u << F_SSSE3 | 1u << F_AVX2 | 1u << F_AVX512F | 1u << F_AVX512BW },
	[RQ_ISA_AVX512_GFNI] = { "avx512-gfni", &rq_kern_avx512_gfni,
		1u << F_SSSE3 | 1u << F_AVX2 | 1u << F_AVX512F | 1u << F_AVX512BW | 1u << F_GFNI },
};

const struct rq_kern *rq_kern_cur = &rq_kern_generic;

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static unsigned int cpu_feats;
static enum rq_isa isa_cur;
static int isa_rc;
static char isa_msg[256];
static size_t cache_l2, cache_l3;

static unsigned int
cpu_features(void)
{
	unsigned int f = 0;

	__builtin_cpu_init();
	if (__builtin_cpu_supports("ssse3"))
		f |= 1u << F_SSSE3;
	if (__builtin_cpu_supports("avx2"))
		f |= 1u << F_AVX2;
	if (__builtin_cpu_supports("avx512f"))
		f |= 1u << F_AVX512F;
	if (__builtin_cpu_supports("avx512bw"))
		f |= 1u << F_AVX512BW;
	if (__builtin_cpu_supports("gfni"))
		f |= 1u << F_GFNI;
	return f;
}

/* Cache level 2 or 3 (bytes): sysfs of cpu0, else sysconf, else dflt. */
static size_t
read_cache(int level, size_t dflt)
{
	char path[64], unit = 0;
	long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", level);
	f = fopen(path, "r");
	if (f != NULL) {
		if (fscanf(f, "%ld%c", &v, &unit) < 1)
			v = 0;
		fclose(f);
		if (v > 0)
			return (size_t)v << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0);
	}
	v = sysconf(level == 2 ? _SC_LEVEL2_CACHE_SIZE : _SC_LEVEL3_CACHE_SIZE);
	return v > 0 ? (size_t)v : dflt;
}

int
rq_isa_supported(int isa)
{
	if (isa < 0 || isa >= RQ_ISA_COUNT)
		return 0;
	return (tiers[isa].needs & ~cpu_feats) == 0;
}

const char *
rq_isa_tier_name(int isa)
{
	return isa >= 0 && isa < RQ_ISA_COUNT ? tiers[isa].name : NULL;
}

void
rq_isa_lacks(int isa, char *buf, size_t len)
{
	unsigned int miss, f;
	size_t o = 0;

	if (len == 0)
		return;
	buf[0] = 0;
	if (isa < 0 || isa >= RQ_ISA_COUNT)
		return;
	miss = tiers[isa].needs & ~cpu_feats;
	for (f = 0; f < F_COUNT; f++)
		if (miss & (1u << f) && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "", feat_name[f]);
}

/* "generic, sse, avx2": the tiers this CPU runs. */
static void
tiers_supported(char *buf, size_t len)
{
	size_t o = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < RQ_ISA_COUNT; i++)
		if (rq_isa_supported(i) && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", tiers[i].name);
}

static void
isa_setup(void)
{
	const char *want = getenv("RQ_ISA");
	char lacks[64], has[96];
	int i;

	rq_kern_tables_init();
	cpu_feats = cpu_features();
	cache_l2 = read_cache(2, (size_t)1 << 20);
	cache_l3 = read_cache(3, (size_t)16 << 20);
	for (i = 0; i < RQ_ISA_COUNT; i++)
		if (rq_isa_supported(i))
			isa_cur = (enum rq_isa)i;
	rq_kern_cur = tiers[isa_cur].kern;
	if (want == NULL || *want == 0)
		return;
	for (i = 0; i < RQ_ISA_COUNT && strcmp(want, tiers[i].name) != 0; i++)
		;
	tiers_supported(has, sizeof(has));
	if (i == RQ_ISA_COUNT) {
		isa_rc = -EINVAL;
		snprintf(isa_msg, sizeof(isa_msg), "RQ_ISA=%s: unknown tier (generic, sse, avx2, "
			"avx512, avx512-gfni; this CPU runs %s)", want, has);
	} else if (!rq_isa_supported(i)) {
		rq_isa_lacks(i, lacks, sizeof(lacks));
		isa_rc = -ENOTSUP;
		snprintf(isa_msg, sizeof(isa_msg), "RQ_ISA=%s: this CPU lacks %s; it runs %s",
			want, lacks, has);
	} else {
		isa_cur = (enum rq_isa)i;
		rq_kern_cur = tiers[i].kern;
		return;
	}
	fprintf(stderr, "rq: %s\n", isa_msg);
}

int
rq_isa_init(void)
{
	pthread_once(&isa_once, isa_setup);
	return isa_rc;
}

const char *
rq_isa_name(void)
{
	rq_isa_init();
	return tiers[isa_cur].name;
}

const char *
rq_isa_error(void)
{
	return rq_isa_init() ? isa_msg : NULL;
}

enum rq_isa
rq_isa_current(void)
{
	rq_isa_init();
	return isa_cur;
}

int
rq_isa_set(int isa)
{
	rq_isa_init();
	if (isa < 0 || isa >= RQ_ISA_COUNT)
		return -EINVAL;
	if (!rq_isa_supported(isa))
		return -ENOTSUP;
	isa_cur = (enum rq_isa)isa;
	rq_kern_cur = tiers[isa].kern;
	return 0;
}

size_t
rq_cache_l2(void)
{
	rq_isa_init();
	return cache_l2;
}

size_t
rq_cache_l3(void)
{
	rq_isa_init();
	return cache_l3;
}
