/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of lib/cfg value parsers (no DPDK). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "test_harness.h"

#define DIM(a) (sizeof(a) / sizeof((a)[0]))

static char err[CFG_ERR_LEN];

static void
ok_u64(int rc, uint64_t got, uint64_t want, const char *in)
{
	if (rc != 0 || got != want) {
		fprintf(stderr, "\"%s\": rc %d got %" PRIu64 " want %" PRIu64 " (%s)\n", in, rc, got,
				want, rc ? err : "");
		test_failures++;
	}
}

static void
bad(int rc, const char *in, const char *needle)
{
	if (rc == 0 || strstr(err, needle) == NULL) {
		fprintf(stderr, "\"%s\": rc %d, error \"%s\" lacks \"%s\"\n", in, rc, err, needle);
		test_failures++;
	}
}

#define OK_U64(call, var, want, name) do { int rc_ = (call); ok_u64(rc_, var, want, name); } while (0)
#define RATE_OK(s, v) do { uint64_t o = 0; OK_U64(cfg_parse_rate(s, 0, UINT64_MAX, &o, err, sizeof(err)), o, v, s); } while (0)
#define RATE_BAD(s, n) do { uint64_t o; bad(cfg_parse_rate(s, 0, 100000000000ull, &o, err, sizeof(err)), s, n); } while (0)
#define TIME_OK(s, v) do { uint64_t o = 0; OK_U64(cfg_parse_time(s, 0, 0, UINT64_MAX, &o, err, sizeof(err)), o, v, s); } while (0)
#define TIME_BAD(s, n) do { uint64_t o; bad(cfg_parse_time(s, 0, 0, 3600000000000ull, &o, err, sizeof(err)), s, n); } while (0)
#define SIZE_OK(s, v) do { uint64_t o = 0; OK_U64(cfg_parse_size(s, 0, UINT64_MAX, &o, err, sizeof(err)), o, v, s); } while (0)
#define SIZE_BAD(s, n) do { uint64_t o; bad(cfg_parse_size(s, 0, 1ull << 40, &o, err, sizeof(err)), s, n); } while (0)

static void
test_numbers(void)
{
	uint64_t u = 0;
	int64_t i;
	int b;

	/* integers */
	OK_U64(cfg_parse_u64("42", 0, 100, &u, err, sizeof(err)), u, 42, "42");
	OK_U64(cfg_parse_u64(" 0x1F ", 0, 100, &u, err, sizeof(err)), u, 31, "0x1F");
	OK_U64(cfg_parse_u64("18446744073709551615", 0, UINT64_MAX, &u, err, sizeof(err)), u,
			UINT64_MAX, "max");
	bad(cfg_parse_u64("18446744073709551616", 0, UINT64_MAX, &u, err, sizeof(err)), "2^64",
			"too large");
	bad(cfg_parse_u64("12abc", 0, 100, &u, err, sizeof(err)), "12abc", "unexpected 'a'");
	bad(cfg_parse_u64("-1", 0, 100, &u, err, sizeof(err)), "-1", "unexpected '-'");
	bad(cfg_parse_u64("101", 0, 100, &u, err, sizeof(err)), "101", "between 0 and 100");
	bad(cfg_parse_u64("", 0, 100, &u, err, sizeof(err)), "empty", "empty value");
	CHECK(cfg_parse_i64("-9223372036854775808", INT64_MIN, INT64_MAX, &i, err, sizeof(err)) == 0 &&
			i == INT64_MIN);
	CHECK(cfg_parse_i64("-5", -10, 10, &i, err, sizeof(err)) == 0 && i == -5);
	bad(cfg_parse_i64("-11", -10, 10, &i, err, sizeof(err)), "-11", "between -10 and 10");
	bad(cfg_parse_i64("9223372036854775808", INT64_MIN, INT64_MAX, &i, err, sizeof(err)),
			"i64 overflow", "out of range");

	/* booleans */
	CHECK(cfg_parse_bool("On", &b, err, sizeof(err)) == 0 && b == 1);
	CHECK(cfg_parse_bool("no", &b, err, sizeof(err)) == 0 && b == 0);
	CHECK(cfg_parse_bool("TRUE", &b, err, sizeof(err)) == 0 && b == 1);
	CHECK(cfg_parse_bool("0", &b, err, sizeof(err)) == 0 && b == 0);
	bad(cfg_parse_bool("maybe", &b, err, sizeof(err)), "maybe", "expected a boolean");
}

static void
test_units(void)
{
	uint32_t r;

	/* rates */
	RATE_OK("1Gbit", 1000000000ull);
	RATE_OK("500Mbit", 500000000ull);
	RATE_OK("10Gbps", 10000000000ull);
	RATE_OK("2.5Gbit/s", 2500000000ull);
	RATE_OK("100kbit", 100000ull);
	RATE_OK("125MB/s", 1000000000ull);
	RATE_OK("1MBps", 8000000ull);
	RATE_OK("1500", 1500ull);
	RATE_OK("1 Gbit", 1000000000ull);
	RATE_BAD("1Gbt", "unknown unit \"Gbt\"");
	RATE_BAD("Gbit", "does not start with a number");
	RATE_BAD("0.5bit", "not a whole number");
	RATE_BAD("101Gbit", "between 0 and 100000000000");
	RATE_BAD("1e9", "unknown unit \"e9\"");
	/* the SI prefix alone, IEC prefixes, case of the prefix */
	RATE_OK("10G", 10000000000ull);
	RATE_OK("10Gbit", 10000000000ull);
	RATE_OK("10Gbps", 10000000000ull);
	RATE_OK("2.5G", 2500000000ull);
	RATE_OK("100M", 100000000ull);
	RATE_OK("100k", 100000ull);
	RATE_OK("100K", 100000ull);
	RATE_OK("1 T", 1000000000000ull);
	RATE_OK("1Gibit", 1ull << 30);
	RATE_OK("1Mibit/s", 1ull << 20);
	RATE_OK("1.5Kibps", 1536ull);
	RATE_OK("1GiB/s", 8ull << 30);
	RATE_OK("18446744073709551615", UINT64_MAX);
	RATE_BAD("1Gi", "unknown unit \"Gi\"");
	RATE_BAD("10GB", "unknown unit \"GB\"");
	RATE_BAD("1Mpps", "a packet rate needs a frame size; give bit/s");
	RATE_BAD("50%", "a share of the line rate needs a port's link speed; give bit/s");
	RATE_BAD("-1G", "cannot be negative");
	RATE_BAD("", "empty value");
	RATE_BAD("   ", "empty value");
	RATE_BAD("18446744073709551616", "too large");
	RATE_BAD("18446744073709552G", "too large");
	RATE_BAD("99999999999999999999999999999999999999Tibit", "too large");
	RATE_BAD("1.0000000000000000001G", "too precise");
	RATE_BAD("G", "does not start with a number");
	RATE_BAD(".5G", "does not start with a number");
	RATE_BAD("5.G", "unknown unit \".G\"");

	/* times */
	TIME_OK("10ms", 10000000ull);
	TIME_OK("1.5s", 1500000000ull);
	TIME_OK("250us", 250000ull);
	TIME_OK("20ns", 20ull);
	TIME_OK("2min", 120000000000ull);
	TIME_OK("0.000001ms", 1ull);
	TIME_BAD("10", "has no unit");
	TIME_BAD("1.5ns", "not a whole number of ns");
	TIME_BAD("10 parsecs", "unknown unit");
	TIME_BAD("2h", "between 0 and 3600000000000");
	{
		uint64_t o = 0;

		OK_U64(cfg_parse_time("3", 1000000000ull, 0, UINT64_MAX, &o, err, sizeof(err)), o,
				3000000000ull, "bare seconds");
	}

	/* sizes */
	SIZE_OK("64KiB", 65536ull);
	SIZE_OK("1MiB", 1048576ull);
	SIZE_OK("1500", 1500ull);
	SIZE_OK("1kB", 1000ull);
	SIZE_OK("1.5KiB", 1536ull);
	SIZE_OK("2GiB", 2147483648ull);
	SIZE_BAD("1.1B", "not a whole number of bytes");
	SIZE_BAD("64kib", "unknown unit \"kib\"");
	SIZE_BAD("2TiB", "between 0 and 1099511627776");
	SIZE_BAD("99999999999999999999999", "between");
	SIZE_BAD("1e40", "unknown unit");

	/* ratios */
	CHECK(cfg_parse_ratio("1.5%", 0, CFG_RATIO_ONE, &r, err, sizeof(err)) == 0 && r == 15000000);
	CHECK(cfg_parse_ratio("0.015", 0, CFG_RATIO_ONE, &r, err, sizeof(err)) == 0 && r == 15000000);
	CHECK(cfg_parse_ratio("100%", 0, CFG_RATIO_ONE, &r, err, sizeof(err)) == 0 &&
			r == CFG_RATIO_ONE);
	CHECK(cfg_parse_ratio("0.1%", 0, CFG_RATIO_ONE, &r, err, sizeof(err)) == 0 && r == 1000000);
	CHECK(cfg_ratio_to_double(500000000) == 0.5);
	bad(cfg_parse_ratio("101%", 0, CFG_RATIO_ONE, &r, err, sizeof(err)), "101%", "between");
	bad(cfg_parse_ratio("1.5", 0, CFG_RATIO_ONE, &r, err, sizeof(err)), "1.5", "between");
	bad(cfg_parse_ratio("5 percent", 0, CFG_RATIO_ONE, &r, err, sizeof(err)), "5 percent",
			"unknown unit");
}

#define ANY_OK(s, u, v) do { struct cfg_rate r_ = {0, CFG_RATE_BPS}; \
	int rc_ = cfg_parse_rate_any(s, &r_, err, sizeof(err)); \
	CHECKF(rc_ == 0 && r_.unit == (u) && r_.value == (v), "\"%s\": rc %d unit %d value %" \
			PRIu64 " (%s)", s, rc_, (int)r_.unit, r_.value, rc_ ? err : ""); } while (0)
#define ANY_BAD(s, n) do { struct cfg_rate r_; \
	bad(cfg_parse_rate_any(s, &r_, err, sizeof(err)), s, n); } while (0)

/* Rates in any unit: packet rates and shares of the line rate, resolved to bit/s. */
static void
test_rate_any(void)
{
	struct cfg_rate r;
	uint64_t bps = 0;
	char buf[48];

	ANY_OK("1Mpps", CFG_RATE_PPS, 1000000ull);
	ANY_OK("14.88Mpps", CFG_RATE_PPS, 14880000ull);
	ANY_OK("100kpps", CFG_RATE_PPS, 100000ull);
	ANY_OK("1 pps", CFG_RATE_PPS, 1ull);
	ANY_OK("2000pkt/s", CFG_RATE_PPS, 2000ull);
	ANY_OK("50%", CFG_RATE_LINE, CFG_RATIO_ONE / 2);
	ANY_OK("100 %", CFG_RATE_LINE, CFG_RATIO_ONE);
	ANY_OK("0.0000001%", CFG_RATE_LINE, 1ull);
	ANY_OK("10G", CFG_RATE_BPS, 10000000000ull);
	ANY_OK("0", CFG_RATE_BPS, 0ull);
	ANY_BAD("0Mpps", "at least 1 pkt/s");
	ANY_BAD("0pps", "at least 1 pkt/s");
	ANY_BAD("0.5pps", "not a whole number of packets/s");
	ANY_BAD("Mpps", "does not start with a number");
	ANY_BAD("1Mipps", "unknown unit \"Mipps\"");
	ANY_BAD("101%", "at most 100%");
	ANY_BAD("100.0000001%", "at most 100%");
	ANY_BAD("0%", "above 0%");
	ANY_BAD("-50%", "cannot be negative");
	ANY_BAD("0.00000001%", "not a whole number of parts per billion");
	ANY_BAD("5k%", "unknown unit \"k%\"");
	ANY_BAD("", "empty value");
	ANY_BAD("20000000000000000000pps", "too large");

	/* resolved: 64 B frames are 84 B on the wire */
	r = (struct cfg_rate){1000000, CFG_RATE_PPS};
	CHECK(cfg_rate_resolve(&r, 84, 0, &bps, err, sizeof(err)) == 0 && bps == 672000000ull);
	bad(cfg_rate_resolve(&r, 0, 10000000000ull, &bps, err, sizeof(err)), "pps, no size",
			"a packet rate needs a frame size; give bit/s (1000000 pkt/s here");
	r = (struct cfg_rate){CFG_RATIO_ONE / 2, CFG_RATE_LINE};
	CHECK(cfg_rate_resolve(&r, 0, 10000000000ull, &bps, err, sizeof(err)) == 0 &&
			bps == 5000000000ull);
	bad(cfg_rate_resolve(&r, 84, 0, &bps, err, sizeof(err)), "% of unknown speed",
			"needs the port's link speed, which is unknown");
	r = (struct cfg_rate){1, CFG_RATE_LINE};
	bad(cfg_rate_resolve(&r, 84, 100, &bps, err, sizeof(err)), "tiny share", "below 1 bit/s");
	r = (struct cfg_rate){UINT64_MAX / 100, CFG_RATE_PPS};
	bad(cfg_rate_resolve(&r, 1538, 0, &bps, err, sizeof(err)), "pps overflow", "over 2^64");
	r = (struct cfg_rate){1234, CFG_RATE_BPS};
	CHECK(cfg_rate_resolve(&r, 0, 0, &bps, err, sizeof(err)) == 0 && bps == 1234);
	r = (struct cfg_rate){333333333, CFG_RATE_LINE};
	cfg_rate_str(&r, buf, sizeof(buf));
	CHECKF(strcmp(buf, "33.3333333%") == 0, "%s", buf);
	r = (struct cfg_rate){CFG_RATIO_ONE / 2, CFG_RATE_LINE};
	cfg_rate_str(&r, buf, sizeof(buf));
	CHECKF(strcmp(buf, "50%") == 0, "%s", buf);
	r = (struct cfg_rate){125000000, CFG_RATE_LINE};
	cfg_rate_str(&r, buf, sizeof(buf));
	CHECKF(strcmp(buf, "12.5%") == 0, "%s", buf);
}

#define PROF_BAD(s, n) do { struct cfg_rate_profile p_; \
	bad(cfg_parse_rate_profile(s, &p_, err, sizeof(err)), s, n); } while (0)

/* Timed rate profiles: steps and ramps, every rate unit, the point named in each refusal. */
static void
test_rate_profile(void)
{
	struct cfg_rate_profile p;
	char many[1024];
	unsigned int i;
	int rc;

	rc = cfg_parse_rate_profile("0s:1G,5s:5G,10s:10G", &p, err, sizeof(err));
	CHECKF(rc == 0 && p.n == 3 && !p.ramp, "rc %d n %u (%s)", rc, p.n, err);
	CHECK(p.t_ns[0] == 0 && p.t_ns[1] == 5000000000ull && p.t_ns[2] == 10000000000ull);
	CHECK(p.rate[0].unit == CFG_RATE_BPS && p.rate[0].value == 1000000000ull);
	CHECK(p.rate[2].value == 10000000000ull);
	rc = cfg_parse_rate_profile(" ramp 0:1Mpps , 1.5s : 50% ,2500ms:300Mbit ", &p, err,
			sizeof(err));
	CHECKF(rc == 0 && p.n == 3 && p.ramp, "rc %d (%s)", rc, err);
	CHECK(p.rate[0].unit == CFG_RATE_PPS && p.rate[0].value == 1000000);
	CHECK(p.t_ns[1] == 1500000000ull && p.rate[1].unit == CFG_RATE_LINE &&
			p.rate[1].value == CFG_RATIO_ONE / 2);
	CHECK(p.t_ns[2] == 2500000000ull && p.rate[2].value == 300000000ull);
	CHECK(cfg_parse_rate_profile("STEPS 0s:10G", &p, err, sizeof(err)) == 0 && p.n == 1);
	CHECK(cfg_parse_rate_profile("RAMP 0s:1G, 1min:2G", &p, err, sizeof(err)) == 0 &&
			p.ramp && p.t_ns[1] == 60000000000ull);
	CHECK(cfg_rate_is_profile("0s:1G") && cfg_rate_is_profile("ramp 0s:1G") &&
			cfg_rate_is_profile(" steps x") && !cfg_rate_is_profile("10G") &&
			!cfg_rate_is_profile(" 50% ") && !cfg_rate_is_profile(NULL));
	PROF_BAD("1s:1G,5s:5G", "point 1 \"1s:1G\": a profile starts at 0s");
	PROF_BAD("0s:1G,5s:5G,5s:6G", "point 3 \"5s:6G\": times must increase; 5s is not after "
			"point 2's 5 s");
	PROF_BAD("0s:1G,5s:5G,4s:6G", "times must increase");
	PROF_BAD("0s:1G,5s:5Q", "point 2 \"5s:5Q\": expected a rate");
	PROF_BAD("0s:1G,5s:5Q", "unknown unit \"Q\"");
	PROF_BAD("0s:1G,5x:5G", "point 2 \"5x:5G\": expected a time");
	PROF_BAD("0s:1G,5s:0", "point 2 \"5s:0\": a rate in a profile must be above 0");
	PROF_BAD("0s:1G,5s5G", "point 2 \"5s5G\" has no ':'");
	PROF_BAD("0s:1G,,5s:5G", "empty item");
	PROF_BAD("0s:1G,5s:5G,", "ends with a comma");
	PROF_BAD("ramp 0s:1G", "a ramp needs at least two points");
	PROF_BAD("ramps 0s:1G,1s:2G", "unknown form \"ramps\" (steps, the default, or ramp)");
	PROF_BAD("ramp ", "has no points");
	PROF_BAD("0s:-1G", "cannot be negative");
	PROF_BAD("0s:101%", "at most 100%");
	PROF_BAD("0s:1G,-1s:2G", "point 2");
	PROF_BAD("", "empty value");
	for (i = 0, many[0] = '\0'; i <= CFG_PROFILE_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s%us:%uM",
				i ? "," : "", i, i + 1);
	PROF_BAD(many, "more than 32 points");
	many[strrchr(many, ',') - many] = '\0';	/* 32: the most */
	CHECK(cfg_parse_rate_profile(many, &p, err, sizeof(err)) == 0 && p.n == CFG_PROFILE_MAX);
}

/*
 * Random rate strings from numbers, prefixes and units (and junk): never a
 * crash or an unterminated message; every refusal says why; what parses as
 * bit/s parses the same through cfg_parse_rate(), and a resolved rate is
 * the value times the frame or the line rate.
 */
static void
test_rate_fuzz(void)
{
	static const char *const nums[] = {"0", "1", "10", "2.5", "0.001", "100", ".5", "1.",
		"18446744073709551615", "99999999999999999999", "-3", "", "1e3", "007"};
	static const char *const pre[] = {"", "k", "K", "M", "m", "G", "T", "Ki", "Mi", "Gi",
		"Ti", "P", "i", " "};
	static const char *const units[] = {"", "bit", "bit/s", "bps", "b/s", "B/s", "Bps",
		"Byte/s", "pps", "pkt/s", "%", "Gbt", "/s", "bits", "ps", "%%"};
	uint64_t x = 88172645463325252ull;
	char in[96];
	unsigned int i, fails = 0;

	for (i = 0; i < 200000; i++) {
		struct cfg_rate r = {0, CFG_RATE_BPS};
		uint64_t bps, b2;
		int rc, rc2;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		snprintf(in, sizeof(in), "%s%s%s%s", nums[x % DIM(nums)],
				pre[(x >> 8) % DIM(pre)], units[(x >> 16) % DIM(units)],
				(x >> 24) % 16 == 0 ? "x" : "");
		err[0] = '\0';
		rc = cfg_parse_rate_any(in, &r, err, sizeof(err));
		if (rc < 0 && (err[0] == '\0' || memchr(err, '\0', sizeof(err)) == NULL))
			fails++;
		if (rc < 0)
			continue;
		rc2 = cfg_parse_rate(in, 0, UINT64_MAX, &b2, err, sizeof(err));
		if ((r.unit == CFG_RATE_BPS) != (rc2 == 0) || (rc2 == 0 && b2 != r.value))
			fails++;
		if (r.unit == CFG_RATE_LINE && (r.value == 0 || r.value > CFG_RATIO_ONE))
			fails++;
		if (r.unit == CFG_RATE_PPS && r.value == 0)
			fails++;
		rc = cfg_rate_resolve(&r, 84, 10000000000ull, &bps, err, sizeof(err));
		if (rc == 0 && r.unit == CFG_RATE_PPS && bps != r.value * 84 * 8)
			fails++;
		if (rc == 0 && r.unit == CFG_RATE_LINE && bps != 10 * r.value)
			fails++;
	}
	CHECKF(fails == 0, "%u rate strings broke an invariant", fails);
}

static void
test_closest(void)
{
	static const char *const keys[] = {"kind", "burst", "port", "txq", "pkt_size", "rate",
		"bucket", "count"};
	static const char *const sinks[] = {"count", "verify", "file"};

	CHECK(cfg_edit_distance("rate", "rate") == 0);
	CHECK(cfg_edit_distance("rat", "rate") == 1);
	CHECK(cfg_edit_distance("rtae", "rate") == 1);	/* a swap */
	CHECK(cfg_edit_distance("Rate", "rate") == 0);
	CHECK(cfg_edit_distance("", "abc") == 3);
	CHECK(cfg_edit_distance("verfy", "verify") == 1);
	CHECK(cfg_edit_distance("kitten", "sitting") == 3);
	CHECK(cfg_closest("rat", keys, DIM(keys), 2) == keys[5]);
	CHECK(cfg_closest("pkt_sise", keys, DIM(keys), 2) == keys[4]);
	CHECK(cfg_closest("verfy", sinks, DIM(sinks), 2) == sinks[1]);
	CHECK(cfg_closest("zzzzzz", keys, DIM(keys), 2) == NULL);
	CHECK(cfg_closest("ab", keys, DIM(keys), 2) == NULL);	/* 2 edits of 2 letters */
}

static void
test_addresses(void)
{
	uint32_t a;
	uint8_t len, mac[6];
	uint16_t lo, hi;

	/* IPv4 */
	CHECK(cfg_parse_ipv4("10.0.0.1", &a, err, sizeof(err)) == 0 && a == 0x0a000001);
	bad(cfg_parse_ipv4("10.0.0.256", &a, err, sizeof(err)), "256", "IPv4 address");
	bad(cfg_parse_ipv4("10.0.0", &a, err, sizeof(err)), "3 octets", "IPv4 address");
	bad(cfg_parse_ipv4("10.0.0.01", &a, err, sizeof(err)), "leading zero", "IPv4 address");
	CHECK(cfg_parse_ipv4_prefix("10.1.0.0/16", 1, &a, &len, err, sizeof(err)) == 0 &&
			a == 0x0a010000 && len == 16);
	CHECK(cfg_parse_ipv4_prefix("10.1.2.3", 1, &a, &len, err, sizeof(err)) == 0 && len == 32);
	bad(cfg_parse_ipv4_prefix("10.1.2.3/16", 1, &a, &len, err, sizeof(err)), "host bits",
			"host bits set");
	bad(cfg_parse_ipv4_prefix("10.1.0.0/33", 0, &a, &len, err, sizeof(err)), "/33",
			"prefix length 0..32");

	/* MAC */
	CHECK(cfg_parse_mac("02:00:0A:0b:00:ff", mac, err, sizeof(err)) == 0 && mac[0] == 2 &&
			mac[2] == 0x0a && mac[3] == 0x0b && mac[5] == 0xff);
	CHECK(cfg_parse_mac("02-00-00-00-00-01", mac, err, sizeof(err)) == 0 && mac[5] == 1);
	bad(cfg_parse_mac("02:00:00:00:00", mac, err, sizeof(err)), "short mac", "MAC address");
	bad(cfg_parse_mac("02:00:00:00:00:0g", mac, err, sizeof(err)), "bad hex", "MAC address");

	/* port ranges */
	CHECK(cfg_parse_port_range("1000-2000", &lo, &hi, err, sizeof(err)) == 0 && lo == 1000 &&
			hi == 2000);
	CHECK(cfg_parse_port_range("9", &lo, &hi, err, sizeof(err)) == 0 && lo == 9 && hi == 9);
	bad(cfg_parse_port_range("2000-1000", &lo, &hi, err, sizeof(err)), "reversed", "LO <= HI");
	bad(cfg_parse_port_range("70000", &lo, &hi, err, sizeof(err)), "70000", "0..65535");
}

static void
test_lists(void)
{
	/* names and lists */
	CHECK(cfg_check_name("tx0", 32, err, sizeof(err)) == 0);
	bad(cfg_check_name("tx 0", 32, err, sizeof(err)), "space", "contains ' '");
	bad(cfg_check_name("_x", 32, err, sizeof(err)), "underscore first", "must start");
	{
		const char *cur = " a, bb ,c ";
		char item[8];

		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == 1 &&
				strcmp(item, "a") == 0);
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == 1 &&
				strcmp(item, "bb") == 0);
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == 1 &&
				strcmp(item, "c") == 0);
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == 0);
		cur = "a,,b";
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == 1);
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == -EINVAL);
		cur = "a,";
		CHECK(cfg_list_next(&cur, item, sizeof(item), err, sizeof(err)) == -EINVAL);
	}
	{
		char s[] = "  -l 0-1   --no-huge ";
		char *argv[4];

		CHECK(cfg_split_words(s, argv, 4) == 3 && strcmp(argv[2], "--no-huge") == 0);
	}
}

int
main(void)
{
	test_numbers();
	test_units();
	test_rate_any();
	test_rate_profile();
	test_rate_fuzz();
	test_closest();
	test_addresses();
	test_lists();
	return test_report("test_cfg");
}
