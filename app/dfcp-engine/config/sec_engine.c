/* SPDX-License-Identifier: BSD-3-Clause */
/* [engine]: run length, stats, memory; command-line options override. */
#include <errno.h>
#include <string.h>

#include "pace.h"

#include "config/config.h"

#undef NS_PER_S
#define NS_PER_S 1000000000ull

int
eng_live_mode(const char *name)
{
	static const char *const names[] = {"auto", "screen", "log", "off"};
	unsigned int i;

	for (i = 0; i < RTE_DIM(names); i++)
		if (strcmp(name, names[i]) == 0)
			return (int)i;
	return -EINVAL;
}

/* live = auto | screen | log | off */
static int
live_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	char v[16] = "";
	int rc = eng_sec_str(sec, "live", v, sizeof(v));

	if (rc < 0 || v[0] == '\0')
		return rc;
	rc = eng_live_mode(v);
	if (rc < 0)
		return eng_sec_error(sec, "live", "'%s': expected auto, screen, log or off", v);
	cfg->live = rc;
	return 0;
}

static int
engine_parse(struct eng_config *cfg, struct eng_sec *sec)
{
	uint64_t v;
	int rc;

	rc = eng_sec_time(sec, "duration", NS_PER_S, 0, 365ull * 86400 * NS_PER_S,
			&cfg->duration_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "stats_period", NS_PER_S, 0, 3600 * NS_PER_S,
				&cfg->stats_period_ns);
	if (rc == 0)
		rc = eng_sec_time(sec, "drain", NS_PER_S, 0, 60 * NS_PER_S, &cfg->drain_ns);
	if (rc == 0)
		rc = eng_sec_str(sec, "summary_json", cfg->summary_json, sizeof(cfg->summary_json));
	if (rc == 0)
		rc = eng_sec_str(sec, "drivers_config", cfg->drivers_dir, sizeof(cfg->drivers_dir));
	if (rc == 0)
		rc = eng_sec_u32(sec, "mbufs", 1023, 1u << 24, &cfg->mbufs);
	if (rc == 0)
		rc = eng_sec_u32(sec, "mbuf_cache", 0, 512, &cfg->mbuf_cache);
	if (rc == 0)
		rc = eng_sec_name(sec, "mbuf_pool_ops", cfg->mbuf_pool_ops,
				sizeof(cfg->mbuf_pool_ops));
	if (rc == 0)
		rc = eng_sec_u32(sec, "stats_top", 0, 100000, &cfg->stats_top);
	if (rc == 0)
		rc = live_parse(cfg, sec);
	if (rc == 0)
		rc = eng_sec_time(sec, "warmup", NS_PER_S, 0, 3600 * NS_PER_S, &cfg->warmup_ns);
	if (rc == 0)
		rc = eng_sec_u32(sec, "summary_flows", 0, UINT32_MAX, &cfg->summary_flows);
	if (rc == 0)
		rc = eng_sec_str(sec, "timeseries", cfg->timeseries, sizeof(cfg->timeseries));
	if (rc == 0)
		rc = eng_sec_bool(sec, "pdump", &cfg->pdump);
	if (rc == 0)
		rc = eng_sec_time(sec, "pace_catchup", 1000000ull, 100000ull, PACE_LAG_MAX_NS / 2,
				&cfg->pace_catchup_ns);
	if (rc == 0) {
		v = cfg->mbuf_data_size;
		rc = eng_sec_size(sec, "mbuf_size", 256 + 128, 65535, &v);
		cfg->mbuf_data_size = (uint32_t)v;
	}
	return rc;
}

const struct eng_section_kind eng_section_engine = {
	.prefix = "engine",
	.named = 0,
	.help = "run length, statistics and memory",
	.parse = engine_parse,
	.check = NULL,
};
