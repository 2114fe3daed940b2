/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of lib/cfg value parsers (no DPDK). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "test_harness.h"

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
	test_addresses();
	test_lists();
	return test_report("test_cfg");
}
