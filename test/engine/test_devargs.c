/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Device argument lists (core/devargs.c, no EAL): merge key by key (a same
 * key replaced, new keys appended in order, the device string's items last
 * and winning, empty lists, -ENOSPC leaving the list as it was) and the key
 * lookup (first, middle, last item; a key that is a prefix of another).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/devargs.h"
#include "test_harness.h"

/* Merge ADD into a copy of DST of LEN bytes; check the return code and the result. */
static void
merge_is(const char *dst, size_t len, const char *add, int want_rc, const char *want)
{
	char buf[600];
	int rc;

	REQUIRE(len <= sizeof(buf) && strlen(dst) < sizeof(buf));
	memset(buf, 'X', sizeof(buf));
	snprintf(buf, sizeof(buf), "%s", dst);
	rc = eng_devargs_merge(buf, len, add);
	CHECKF(rc == want_rc, "merge(\"%s\", %zu, \"%s\"): rc %d, want %d", dst, len, add, rc,
			want_rc);
	CHECKF(strcmp(buf, want) == 0, "merge(\"%s\", %zu, \"%s\"): \"%s\", want \"%s\"", dst,
			len, add, buf, want);
	CHECKF(strlen(buf) < len || rc != 0, "merge(\"%s\", %zu, \"%s\"): %zu bytes do not fit",
			dst, len, add, strlen(buf) + 1);
}

static void
test_merge(void)
{
	/* a same key replaced (the replacing item goes last, where ADD's items go),
	 * new keys appended in ADD's order */
	merge_is("qdisc_bypass=1,framecnt=4096", 256, "framecnt=8192",
			0, "qdisc_bypass=1,framecnt=8192");
	merge_is("a=1,b=2,c=3", 256, "b=9", 0, "a=1,c=3,b=9");
	merge_is("a=1", 256, "b=2,c=3", 0, "a=1,b=2,c=3");
	merge_is("a=1,b=2", 256, "c=3,a=4", 0, "b=2,c=3,a=4");
	/* several items of one key in ADD: the last wins, once */
	merge_is("a=1", 256, "b=2,b=3", 0, "a=1,b=3");
	/* a key that is a prefix of another is a different key */
	merge_is("qpairs=2", 256, "q=1", 0, "qpairs=2,q=1");
	merge_is("q=1,qpairs=2", 256, "qpairs=4", 0, "q=1,qpairs=4");
	merge_is("q=1,qpairs=2", 256, "q=3", 0, "qpairs=2,q=3");
	/* an item without a value is a key of its own */
	merge_is("flag,a=1", 256, "flag", 0, "a=1,flag");
	/* empty lists and empty items */
	merge_is("", 256, "", 0, "");
	merge_is("", 256, "a=1,b=2", 0, "a=1,b=2");
	merge_is("a=1,b=2", 256, "", 0, "a=1,b=2");
	merge_is("a=1", 256, ",,b=2,", 0, "a=1,b=2");
	/* device_probe_args' order: preset, queue count, then the device string's own
	 * items, which win over the preset's */
	{
		char args[256] = "qdisc_bypass=1,framecnt=4096";

		CHECK(eng_devargs_merge(args, sizeof(args), "qpairs=2") == 0);
		CHECK(eng_devargs_merge(args, sizeof(args), "iface=veth0,framecnt=512") == 0);
		CHECKF(strcmp(args, "qdisc_bypass=1,qpairs=2,iface=veth0,framecnt=512") == 0,
				"probe args \"%s\"", args);
	}
}

static void
test_nospace(void)
{
	/* "a=1,b=2" is 7 characters: fits in 8 bytes, not in 7 */
	merge_is("a=1", 8, "b=2", 0, "a=1,b=2");
	merge_is("a=1", 7, "b=2", -ENOSPC, "a=1");
	/* the first item fits, the second does not: nothing of ADD applied */
	merge_is("a=1", 10, "b=2,c=3", -ENOSPC, "a=1");
	/* a replacement that grows the list past LEN */
	merge_is("a=1,b=2", 8, "a=100", -ENOSPC, "a=1,b=2");
	/* the same length: fits */
	merge_is("a=1,b=2", 8, "a=9", 0, "b=2,a=9");
	/* an empty list and an item of exactly LEN - 1 characters, and one more */
	merge_is("", 6, "abc=1", 0, "abc=1");
	merge_is("", 5, "abc=1", -ENOSPC, "");
	/* LEN beyond the merge's own buffer (512) */
	merge_is("a=1", 600, "b=2", -ENOSPC, "a=1");
}

static void
test_has(void)
{
	const char *l = "first=1,middle=2,last=3";

	CHECK(eng_devargs_has(l, "first") == 1);
	CHECK(eng_devargs_has(l, "middle") == 1);
	CHECK(eng_devargs_has(l, "last") == 1);
	CHECK(eng_devargs_has(l, "none") == 0);
	CHECK(eng_devargs_has(l, "1") == 0);	/* a value is not a key */
	CHECK(eng_devargs_has(l, "firs") == 0);	/* a prefix of a key */
	CHECK(eng_devargs_has(l, "lastx") == 0);
	/* a key that is a prefix of another, both orders */
	CHECK(eng_devargs_has("qpairs=2", "q") == 0);
	CHECK(eng_devargs_has("q=1", "qpairs") == 0);
	CHECK(eng_devargs_has("qpairs=2,q=1", "q") == 1);
	CHECK(eng_devargs_has("q=1,qpairs=2", "qpairs") == 1);
	CHECK(eng_devargs_has("iface=veth0,qpairs=2", "qpairs") == 1);
	CHECK(eng_devargs_has("iface=q", "q") == 0);
	/* an item without a value; empty lists and items */
	CHECK(eng_devargs_has("flag", "flag") == 1);
	CHECK(eng_devargs_has("a=1,flag", "flag") == 1);
	CHECK(eng_devargs_has("", "a") == 0);
	CHECK(eng_devargs_has(NULL, "a") == 0);
	CHECK(eng_devargs_has(",,a=1,", "a") == 1);
}

int
main(void)
{
	test_merge();
	test_nospace();
	test_has();
	return test_report("devargs");
}
