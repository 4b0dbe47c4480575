// SPDX-License-Identifier: MIT
/*
 * fs_time_test.c - table tests for src/fstime/fs_time.h and time64.h.
 *
 * One table drives the three truncation variants (RFC fs_time_trunc(),
 * mainline timestamp_truncate() and its division-free twin), so every edge is
 * seen by all of them and the places where RFC and mainline part ways are
 * written down case by case.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fs_time.h"
#include "kunit.h"

/* Super-block ranges used by the tables. */
#define RFC_MIN FS_DEFAULT_MIN_TIMESTAMP
#define RFC_MAX FS_DEFAULT_MAX_TIMESTAMP
#define EXT4_MIN ((time64_t)INT32_MIN)
#define EXT4_MAX ((time64_t)0x37fffffffLL) /* 2446-05-10T22:38:55Z */
#define U32_END ((time64_t)UINT32_MAX)     /* 2106-02-07T06:28:15Z */
#define NV FS_TIMESTAMP_NSEC_NOT_VALID

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })

/* Is `long` wider than `unsigned int`?  Decides how a negative tv_nsec truncates. */
#define LONG_IS_WIDER (LONG_MAX > UINT_MAX)

struct trunc_case {
	const char *name;
	time64_t min, max;
	uint32_t gran;
	struct timespec64 in;
	struct timespec64 rfc;      /* fs_time_trunc() */
	struct timespec64 mainline; /* timestamp_truncate(), and the reciprocal variant */
	/* Where ILP32 ABIs differ (negative tv_nsec % unsigned gran). */
	bool has_ilp32;
	struct timespec64 mainline_ilp32;
	bool rfc_warns, mainline_warns;
};

static const struct trunc_case trunc_cases[] = {
	{ .name = "in range, gran 1: unchanged", .min = RFC_MIN, .max = RFC_MAX, .gran = 1,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 123456789), .mainline = TS(1000, 123456789) },
	{ .name = "gran 100: rounds down to 100 ns", .min = RFC_MIN, .max = RFC_MAX, .gran = 100,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 123456700), .mainline = TS(1000, 123456700) },
	{ .name = "gran 1000 (1 us)", .min = RFC_MIN, .max = RFC_MAX, .gran = 1000,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 123456000), .mainline = TS(1000, 123456000) },
	{ .name = "gran 10^6 (1 ms)", .min = RFC_MIN, .max = RFC_MAX, .gran = 1000000,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 123000000), .mainline = TS(1000, 123000000) },
	{ .name = "gran 10^7 (10 ms, FAT ctime)", .min = RFC_MIN, .max = RFC_MAX, .gran = 10000000,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 120000000), .mainline = TS(1000, 120000000) },
	{ .name = "gran 10^9 (1 s): nsec dropped", .min = RFC_MIN, .max = RFC_MAX, .gran = 1000000000,
	  .in = TS(1000, 999999999), .rfc = TS(1000, 0), .mainline = TS(1000, 0) },
	{ .name = "odd gran 3", .min = RFC_MIN, .max = RFC_MAX, .gran = 3,
	  .in = TS(1000, 123456790), .rfc = TS(1000, 123456789), .mainline = TS(1000, 123456789) },
	{ .name = "odd gran 3, nsec already a multiple", .min = RFC_MIN, .max = RFC_MAX, .gran = 3,
	  .in = TS(1000, 999999999), .rfc = TS(1000, 999999999), .mainline = TS(1000, 999999999) },
	{ .name = "gran 999999999: only 0 survives below it", .min = RFC_MIN, .max = RFC_MAX,
	  .gran = 999999999, .in = TS(1000, 999999998), .rfc = TS(1000, 0), .mainline = TS(1000, 0) },
	{ .name = "illegal gran 0: warns, nsec kept", .min = RFC_MIN, .max = RFC_MAX, .gran = 0,
	  .in = TS(1000, 123456789), .rfc = TS(1000, 123456789), .mainline = TS(1000, 123456789),
	  .rfc_warns = true, .mainline_warns = true },
	{ .name = "illegal gran 10^9+1: warns, nsec kept", .min = RFC_MIN, .max = RFC_MAX,
	  .gran = 1000000001, .in = TS(1000, 5), .rfc = TS(1000, 5), .mainline = TS(1000, 5),
	  .rfc_warns = true, .mainline_warns = true },
	{ .name = "illegal gran UINT32_MAX: warns, nsec kept", .min = RFC_MIN, .max = RFC_MAX,
	  .gran = UINT32_MAX, .in = TS(7, 7), .rfc = TS(7, 7), .mainline = TS(7, 7),
	  .rfc_warns = true, .mainline_warns = true },
	{ .name = "tv_sec == s_time_max: RFC keeps nsec, mainline forces 0", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(RFC_MAX, 5), .rfc = TS(RFC_MAX, 5),
	  .mainline = TS(RFC_MAX, 0) },
	{ .name = "tv_sec == s_time_min: RFC keeps nsec, mainline forces 0", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(RFC_MIN, 5), .rfc = TS(RFC_MIN, 5),
	  .mainline = TS(RFC_MIN, 0) },
	{ .name = "s_time_max + 1: clamped; RFC marks NOT_VALID, mainline 0", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(RFC_MAX + 1LL, 5), .rfc = TS(RFC_MAX, NV),
	  .mainline = TS(RFC_MAX, 0) },
	{ .name = "s_time_min - 1: clamped; RFC marks NOT_VALID, mainline 0", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(RFC_MIN - 1LL, 5), .rfc = TS(RFC_MIN, NV),
	  .mainline = TS(RFC_MIN, 0) },
	{ .name = "2038-01-19T03:14:07.999999999 on ext4 (extra): unchanged", .min = EXT4_MIN,
	  .max = EXT4_MAX, .gran = 1, .in = TS(INT32_MAX, 999999999),
	  .rfc = TS(INT32_MAX, 999999999), .mainline = TS(INT32_MAX, 999999999) },
	{ .name = "2038-01-19T03:14:08 on RFC defaults: clamped to 03:14:07", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1000000000, .in = TS(INT32_MAX + 1LL, 0),
	  .rfc = TS(RFC_MAX, NV), .mainline = TS(RFC_MAX, 0) },
	{ .name = "2038-01-19T03:14:08 on ext4 (extra): representable", .min = EXT4_MIN,
	  .max = EXT4_MAX, .gran = 1, .in = TS(INT32_MAX + 1LL, 1),
	  .rfc = TS(INT32_MAX + 1LL, 1), .mainline = TS(INT32_MAX + 1LL, 1) },
	{ .name = "2106-02-07T06:28:16 (2^32 s) on a u32 fs: clamped", .min = 0, .max = U32_END,
	  .gran = 1000000000, .in = TS(U32_END + 1, 1), .rfc = TS(U32_END, NV),
	  .mainline = TS(U32_END, 0) },
	{ .name = "2106-02-07T06:28:15 == u32 max: RFC keeps nsec, mainline 0", .min = 0,
	  .max = U32_END, .gran = 1, .in = TS(U32_END, 42), .rfc = TS(U32_END, 42),
	  .mainline = TS(U32_END, 0) },
	{ .name = "2446-05-10T22:38:55 == ext4 max: RFC keeps nsec, mainline 0", .min = EXT4_MIN,
	  .max = EXT4_MAX, .gran = 1, .in = TS(EXT4_MAX, 7), .rfc = TS(EXT4_MAX, 7),
	  .mainline = TS(EXT4_MAX, 0) },
	{ .name = "2446-05-10T22:38:56 past ext4 max: clamped", .min = EXT4_MIN, .max = EXT4_MAX,
	  .gran = 1, .in = TS(EXT4_MAX + 1, 0), .rfc = TS(EXT4_MAX, NV), .mainline = TS(EXT4_MAX, 0) },
	{ .name = "pre-1970 (1969-12-31T23:59:59.5) on ext4: kept", .min = EXT4_MIN, .max = EXT4_MAX,
	  .gran = 1000, .in = TS(-1, 500000123), .rfc = TS(-1, 500000000),
	  .mainline = TS(-1, 500000000) },
	{ .name = "1901-12-13T20:45:52 == S32_MIN on ext4: RFC keeps nsec, mainline 0",
	  .min = EXT4_MIN, .max = EXT4_MAX, .gran = 1, .in = TS(INT32_MIN, 9),
	  .rfc = TS(INT32_MIN, 9), .mainline = TS(INT32_MIN, 0) },
	{ .name = "1901-12-13T20:45:51 before S32_MIN on ext4: clamped", .min = EXT4_MIN,
	  .max = EXT4_MAX, .gran = 1, .in = TS(INT32_MIN - 1LL, 9), .rfc = TS(INT32_MIN, NV),
	  .mainline = TS(INT32_MIN, 0) },
	{ .name = "tv_sec INT64_MIN on RFC defaults: clamped to epoch", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(INT64_MIN, 1), .rfc = TS(RFC_MIN, NV),
	  .mainline = TS(RFC_MIN, 0) },
	{ .name = "tv_sec INT64_MAX on RFC defaults: clamped to 2038", .min = RFC_MIN,
	  .max = RFC_MAX, .gran = 1, .in = TS(INT64_MAX, 1), .rfc = TS(RFC_MAX, NV),
	  .mainline = TS(RFC_MAX, 0) },
	{ .name = "tv_sec INT64_MIN on a full-range fs: at min", .min = INT64_MIN, .max = INT64_MAX,
	  .gran = 1, .in = TS(INT64_MIN, 999999999), .rfc = TS(INT64_MIN, 999999999),
	  .mainline = TS(INT64_MIN, 0) },
	{ .name = "tv_sec INT64_MAX on a full-range fs: at max", .min = INT64_MIN, .max = INT64_MAX,
	  .gran = 100, .in = TS(INT64_MAX, 999999999), .rfc = TS(INT64_MAX, 999999900),
	  .mainline = TS(INT64_MAX, 0) },
	{ .name = "nsec -1 in range: RFC zeroes it, mainline keeps it (gran 1)", .min = INT64_MIN,
	  .max = INT64_MAX, .gran = 1, .in = TS(10, -1), .rfc = TS(10, 0), .mainline = TS(10, -1) },
	{ .name = "nsec -7, gran 3: RFC 0; mainline rounds toward zero (LP64) or not at all (ILP32)",
	  .min = INT64_MIN, .max = INT64_MAX, .gran = 3, .in = TS(10, -7), .rfc = TS(10, 0),
	  .mainline = TS(10, -6), .has_ilp32 = true, .mainline_ilp32 = TS(10, -7) },
	{ .name = "nsec == NSEC_PER_SEC: RFC zeroes it, mainline keeps it", .min = INT64_MIN,
	  .max = INT64_MAX, .gran = 1000, .in = TS(10, 1000000000), .rfc = TS(10, 0),
	  .mainline = TS(10, 1000000000) },
	{ .name = "nsec 10^9+999, gran 1000: mainline truncates the invalid value", .min = INT64_MIN,
	  .max = INT64_MAX, .gran = 1000, .in = TS(10, 1000000999), .rfc = TS(10, 0),
	  .mainline = TS(10, 1000000000) },
	{ .name = "nsec LONG_MAX, gran 1: RFC 0, mainline unchanged", .min = INT64_MIN,
	  .max = INT64_MAX, .gran = 1, .in = TS(10, LONG_MAX), .rfc = TS(10, 0),
	  .mainline = TS(10, LONG_MAX) },
	{ .name = "nsec LONG_MIN, gran 10^9: both 0", .min = INT64_MIN, .max = INT64_MAX,
	  .gran = 1000000000, .in = TS(10, LONG_MIN), .rfc = TS(10, 0), .mainline = TS(10, 0) },
	{ .name = "clamped with illegal gran: RFC returns before truncating (no warning)",
	  .min = RFC_MIN, .max = RFC_MAX, .gran = 0, .in = TS(-5, 3), .rfc = TS(RFC_MIN, NV),
	  .mainline = TS(RFC_MIN, 0), .mainline_warns = true },
	{ .name = "invalid nsec with illegal gran: RFC zeroes, then warns", .min = INT64_MIN,
	  .max = INT64_MAX, .gran = 0, .in = TS(10, -3), .rfc = TS(10, 0), .mainline = TS(10, -3),
	  .rfc_warns = true, .mainline_warns = true },
	/*
	 * s_time_min > s_time_max (misconfigured; nothing checks the fields).
	 * RFC clamp_val() = min(max(val, lo), hi): hi always.  Mainline clamp()
	 * (include/linux/minmax.h __clamp: val >= hi ? hi : val <= lo ? lo : val):
	 * hi for val >= hi, lo for every val below hi.  nsec 0 at either bound.
	 */
	{ .name = "min 100 > max 50, val 10 below both: mainline lo wins, RFC hi",
	  .min = 100, .max = 50, .gran = 1, .in = TS(10, 1), .rfc = TS(50, NV),
	  .mainline = TS(100, 0) },
	{ .name = "min 100 > max 50, val 49 == max - 1: mainline lo wins, RFC hi",
	  .min = 100, .max = 50, .gran = 1000, .in = TS(49, 123456), .rfc = TS(50, NV),
	  .mainline = TS(100, 0) },
	{ .name = "min 100 > max 50, val 50 == max: hi wins in both",
	  .min = 100, .max = 50, .gran = 1, .in = TS(50, 7), .rfc = TS(50, NV),
	  .mainline = TS(50, 0) },
	{ .name = "min 100 > max 50, val 75 between them: hi wins in both",
	  .min = 100, .max = 50, .gran = 1, .in = TS(75, 1), .rfc = TS(50, NV),
	  .mainline = TS(50, 0) },
	{ .name = "min 100 > max 50, val 100 == min: hi wins in both (hi tested first)",
	  .min = 100, .max = 50, .gran = 1, .in = TS(100, 1), .rfc = TS(50, NV),
	  .mainline = TS(50, 0) },
	{ .name = "min 100 > max 50, val 200 above both: hi wins in both",
	  .min = 100, .max = 50, .gran = 1000000000, .in = TS(200, 999999999),
	  .rfc = TS(50, NV), .mainline = TS(50, 0) },
	{ .name = "min 0 > max -1 (off by one), val -2: mainline lo 0, RFC hi -1",
	  .min = 0, .max = -1, .gran = 1, .in = TS(-2, 5), .rfc = TS(-1, NV),
	  .mainline = TS(0, 0) },
	{ .name = "min INT64_MAX > max INT64_MIN, val INT64_MIN: == max, hi wins",
	  .min = INT64_MAX, .max = INT64_MIN, .gran = 1, .in = TS(INT64_MIN, 5),
	  .rfc = TS(INT64_MIN, NV), .mainline = TS(INT64_MIN, 0) },
	{ .name = "min INT64_MAX > max INT64_MIN, val 0: every val >= max, hi wins",
	  .min = INT64_MAX, .max = INT64_MIN, .gran = 1, .in = TS(0, 5),
	  .rfc = TS(INT64_MIN, NV), .mainline = TS(INT64_MIN, 0) },
	{ .name = "min 100 > max 50, illegal gran 0, val 10: lo, nsec 0, warns",
	  .min = 100, .max = 50, .gran = 0, .in = TS(10, 3), .rfc = TS(50, NV),
	  .mainline = TS(100, 0), .mainline_warns = true },
};

static struct super_block make_sb(time64_t min, time64_t max, uint32_t gran)
{
	struct super_block sb = { .s_time_min = min, .s_time_max = max };

	sb_set_time_gran(&sb, gran);
	return sb;
}

static void check_warned(struct kunit *test, const char *name, const char *fn,
			 unsigned long before, bool expect)
{
	KUNIT_EXPECT_EQ(test, name, fn, expect ? 1 : 0, fs_time_gran_warnings() - before);
}

static void test_trunc_table(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(trunc_cases); i++) {
		const struct trunc_case *c = &trunc_cases[i];
		struct super_block sb = make_sb(c->min, c->max, c->gran);
		struct timespec64 mainline = c->has_ilp32 && !LONG_IS_WIDER ? c->mainline_ilp32
									     : c->mainline;
		unsigned long before;

		before = fs_time_gran_warnings();
		KUNIT_EXPECT_TS_EQ(test, c->name, "fs_time_trunc", c->rfc, fs_time_trunc(c->in, &sb));
		check_warned(test, c->name, "fs_time_trunc warnings", before, c->rfc_warns);

		before = fs_time_gran_warnings();
		KUNIT_EXPECT_TS_EQ(test, c->name, "timestamp_truncate", mainline,
				   timestamp_truncate(c->in, &sb));
		check_warned(test, c->name, "timestamp_truncate warnings", before, c->mainline_warns);

		before = fs_time_gran_warnings();
		KUNIT_EXPECT_TS_EQ(test, c->name, "timestamp_truncate_reciprocal", mainline,
				   timestamp_truncate_reciprocal(c->in, &sb));
		check_warned(test, c->name, "timestamp_truncate_reciprocal warnings", before,
			     c->mainline_warns);

		/* The division-free path must also survive a stale reciprocal. */
		sb.s_time_gran_reciprocal.gran ^= 1;
		KUNIT_EXPECT_TS_EQ(test, c->name, "reciprocal (stale)", mainline,
				   timestamp_truncate_reciprocal(c->in, &sb));
	}
}

struct range_case {
	const char *name;
	time64_t min, max;
	struct timespec64 in, out;
	int bad;
};

static const struct range_case range_cases[] = {
	{ "in range, valid nsec: untouched", 0, RFC_MAX, TS(1, 999999999), TS(1, 999999999), 0 },
	{ "in range, nsec -1: zeroed, not bad", 0, RFC_MAX, TS(1, -1), TS(1, 0), 0 },
	{ "in range, nsec 10^9: zeroed, not bad", 0, RFC_MAX, TS(1, NSEC_PER_SEC), TS(1, 0), 0 },
	{ "at max: untouched", 0, RFC_MAX, TS(RFC_MAX, 1), TS(RFC_MAX, 1), 0 },
	{ "max + 1: clamped and bad", 0, RFC_MAX, TS(RFC_MAX + 1LL, 1), TS(RFC_MAX, NV), -1 },
	{ "min - 1: clamped and bad", 0, RFC_MAX, TS(-1, 1), TS(0, NV), -1 },
	{ "INT64_MIN on an ext4 range: clamped to S32_MIN", EXT4_MIN, EXT4_MAX, TS(INT64_MIN, 0),
	  TS(EXT4_MIN, NV), -1 },
	{ "in range but nsec already the marker: zeroed (marker is out of range)", 0, RFC_MAX,
	  TS(5, NV), TS(5, 0), 0 },
};

static void test_range_check(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(range_cases); i++) {
		const struct range_case *c = &range_cases[i];
		struct super_block sb = make_sb(c->min, c->max, 1);
		struct timespec64 ts = c->in;

		fs_time_range_check(&sb, &ts);
		KUNIT_EXPECT_TS_EQ(test, c->name, "fs_time_range_check", c->out, ts);
		KUNIT_EXPECT_EQ(test, c->name, "is_fs_timestamp_bad", c->bad, is_fs_timestamp_bad(ts));
	}
}

struct pre_rfc_case {
	const char *name;
	unsigned int gran;
	struct timespec64 in, out, out_ilp32;
	bool warns;
};

static const struct pre_rfc_case pre_rfc_cases[] = {
	{ "gran 1: unchanged", 1, TS(-5, 123456789), TS(-5, 123456789), TS(-5, 123456789), false },
	{ "gran 100", 100, TS(0, 123456789), TS(0, 123456700), TS(0, 123456700), false },
	{ "gran 1000", 1000, TS(0, 123456789), TS(0, 123456000), TS(0, 123456000), false },
	{ "gran 10^6", 1000000, TS(0, 123456789), TS(0, 123000000), TS(0, 123000000), false },
	{ "gran 10^7", 10000000, TS(0, 123456789), TS(0, 120000000), TS(0, 120000000), false },
	{ "gran 10^9", 1000000000, TS(0, 123456789), TS(0, 0), TS(0, 0), false },
	{ "gran 3", 3, TS(0, 5), TS(0, 3), TS(0, 3), false },
	{ "gran 0: warns, unchanged", 0, TS(0, 5), TS(0, 5), TS(0, 5), true },
	{ "gran 10^9+1: warns, unchanged", 1000000001, TS(0, 5), TS(0, 5), TS(0, 5), true },
	{ "no range check: INT64_MAX seconds pass", 1000, TS(INT64_MAX, 1999), TS(INT64_MAX, 1000),
	  TS(INT64_MAX, 1000), false },
	{ "negative nsec, gran 1000: LP64 rounds toward zero; ILP32 converts to unsigned", 1000,
	  TS(0, -1500), TS(0, -1000), TS(0, -1500 - (long)(((unsigned long)-1500) % 1000u)), false },
};

static void test_timespec64_trunc(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(pre_rfc_cases); i++) {
		const struct pre_rfc_case *c = &pre_rfc_cases[i];
		unsigned long before = fs_time_gran_warnings();

		KUNIT_EXPECT_TS_EQ(test, c->name, "timespec64_trunc", LONG_IS_WIDER ? c->out : c->out_ilp32,
				   timespec64_trunc(c->in, c->gran));
		check_warned(test, c->name, "timespec64_trunc warnings", before, c->warns);
	}
}

/* A clock that always answers the instant it is given. */
static struct timespec64 fixed_clock(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

struct now_case {
	const char *name;
	time64_t min, max;
	uint32_t gran;
	struct timespec64 now;
	struct timespec64 fs_time, fs_time_sec;
};

static const struct now_case now_cases[] = {
	{ "2016 on RFC defaults, 1 s gran", RFC_MIN, RFC_MAX, 1000000000, TS(1452144972, 123456789),
	  TS(1452144972, 0), TS(1452144972, 0) },
	{ "2016 on ext4, 1 ns gran", EXT4_MIN, EXT4_MAX, 1, TS(1452144972, 123456789),
	  TS(1452144972, 123456789), TS(1452144972, 0) },
	{ "2038-01-19T03:14:08.5 on RFC defaults: clamped, marked", RFC_MIN, RFC_MAX, 1,
	  TS(INT32_MAX + 1LL, 500000000), TS(RFC_MAX, NV), TS(RFC_MAX, NV) },
	{ "2038-01-19T03:14:08.5 on ext4: fine", EXT4_MIN, EXT4_MAX, 1,
	  TS(INT32_MAX + 1LL, 500000000), TS(INT32_MAX + 1LL, 500000000), TS(INT32_MAX + 1LL, 0) },
	{ "2106-02-07T06:28:16 on a u32 fs: clamped", 0, U32_END, 1, TS(U32_END + 1, 0),
	  TS(U32_END, NV), TS(U32_END, NV) },
	{ "2446-05-10T22:38:56 on ext4: clamped", EXT4_MIN, EXT4_MAX, 100, TS(EXT4_MAX + 1, 999),
	  TS(EXT4_MAX, NV), TS(EXT4_MAX, NV) },
	{ "1969-12-31T23:59:59.25 on RFC defaults: clamped to epoch", RFC_MIN, RFC_MAX, 1,
	  TS(-1, 250000000), TS(0, NV), TS(0, NV) },
	{ "1969-12-31T23:59:59.25 on ext4: fine", EXT4_MIN, EXT4_MAX, 1, TS(-1, 250000000),
	  TS(-1, 250000000), TS(-1, 0) },
	{ "INT64_MAX seconds on a full-range fs", INT64_MIN, INT64_MAX, 1000, TS(INT64_MAX, 1999),
	  TS(INT64_MAX, 1000), TS(INT64_MAX, 0) },
	{ "INT64_MIN seconds on a full-range fs", INT64_MIN, INT64_MAX, 1, TS(INT64_MIN, 0),
	  TS(INT64_MIN, 0), TS(INT64_MIN, 0) },
};

static void test_current_fs_time(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(now_cases); i++) {
		const struct now_case *c = &now_cases[i];
		struct super_block sb = make_sb(c->min, c->max, c->gran);
		struct timespec64 now = c->now;
		const struct fs_time_clock clock = { .now = fixed_clock, .ctx = &now };

		fs_time_set_clock(&clock);
		KUNIT_EXPECT_TS_EQ(test, c->name, "current_fs_time", c->fs_time, current_fs_time(&sb));
		KUNIT_EXPECT_TS_EQ(test, c->name, "current_fs_time_sec", c->fs_time_sec,
				   current_fs_time_sec(&sb));
		fs_time_set_clock(NULL);
	}

	/* The default clock is the real one: it must say something after 2025. */
	struct timespec64 real = fs_time_now();

	KUNIT_EXPECT_TRUE(test, "default clock is CLOCK_REALTIME_COARSE", real.tv_sec > 1735689600);
	KUNIT_EXPECT_TRUE(test, "default clock nsec valid",
			  real.tv_nsec >= 0 && real.tv_nsec < NSEC_PER_SEC);
}

/* The benchmarks' two clocks, which fs_time_now() calls directly, and a test's own through ->now. */
static void test_direct_clocks(struct kunit *test)
{
	struct timespec64 at = TS(1452144972, 999999998);
	const struct fs_time_clock fixed = { .now = fs_time_fixed_clock, .ctx = &at };
	const struct fs_time_clock advancing = { .now = fs_time_advancing_clock, .ctx = &at };
	const struct fs_time_clock own = { .now = fixed_clock, .ctx = &at };

	fs_time_set_clock(&fixed);
	KUNIT_EXPECT_TS_EQ(test, "fixed clock", "fs_time_now", TS(1452144972, 999999998), fs_time_now());
	KUNIT_EXPECT_TS_EQ(test, "fixed clock, read again", "fs_time_now", TS(1452144972, 999999998),
			   fs_time_now());
	fs_time_set_clock(&advancing);
	KUNIT_EXPECT_TS_EQ(test, "advancing clock: 1 ns on", "fs_time_now", TS(1452144972, 999999999),
			   fs_time_now());
	KUNIT_EXPECT_TS_EQ(test, "advancing clock: the second carried", "fs_time_now", TS(1452144973, 0),
			   fs_time_now());
	KUNIT_EXPECT_TS_EQ(test, "advancing clock: its ctx moved", "ctx", TS(1452144973, 0), at);
	fs_time_set_clock(&own);
	KUNIT_EXPECT_TS_EQ(test, "a test's clock through ->now", "fs_time_now", TS(1452144973, 0), fs_time_now());
	fs_time_set_clock(NULL);
}

struct callback_counts {
	int mount_calls, bad_calls, mount_result;
};

static int count_bad_mount(struct super_block *sb)
{
	struct callback_counts *counts = sb->s_fs_info;

	counts->mount_calls++;
	return counts->mount_result;
}

static void count_bad_timestamp(struct super_block *sb)
{
	struct callback_counts *counts = sb->s_fs_info;

	counts->bad_calls++;
}

static const struct super_operations counting_ops = {
	.bad_timestamp_mount = count_bad_mount,
	.bad_timestamp = count_bad_timestamp,
};
static const struct super_operations no_ops = { 0 };

struct mount_case {
	const char *name;
	const struct super_operations *ops;
	struct timespec64 now;
	int callback_result;
	int expected, mount_calls;
};

static const struct mount_case mount_cases[] = {
	{ "now in range: callback not called", &counting_ops, TS(1452144972, 0), -EROFS, 0, 0 },
	{ "now at s_time_max: still in range", &counting_ops, TS(RFC_MAX, 0), -EROFS, 0, 0 },
	{ "now past 2038 on RFC defaults: callback refuses the mount", &counting_ops,
	  TS(INT32_MAX + 1LL, 0), -EROFS, -EROFS, 1 },
	{ "now past 2038, callback accepts (read-write anyway)", &counting_ops,
	  TS(INT32_MAX + 1LL, 0), 0, 0, 1 },
	{ "now before 1970: bad, callback called", &counting_ops, TS(-10, 0), -EINVAL, -EINVAL, 1 },
	{ "bad but no callback: mount goes on", &no_ops, TS(INT32_MAX + 1LL, 0), -EROFS, 0, 0 },
	{ "bad and no s_op at all: mount goes on", NULL, TS(INT32_MAX + 1LL, 0), -EROFS, 0, 0 },
};

static void test_mount_time_check(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(mount_cases); i++) {
		const struct mount_case *c = &mount_cases[i];
		struct callback_counts counts = { .mount_result = c->callback_result };
		struct super_block sb;
		struct timespec64 now = c->now;
		const struct fs_time_clock clock = { .now = fixed_clock, .ctx = &now };

		sb_init_rfc_defaults(&sb);
		sb.s_op = c->ops;
		sb.s_fs_info = &counts;
		fs_time_set_clock(&clock);
		KUNIT_EXPECT_EQ(test, c->name, "fs_mount_time_check", c->expected,
				fs_mount_time_check(&sb));
		fs_time_set_clock(NULL);
		KUNIT_EXPECT_EQ(test, c->name, "bad_timestamp_mount calls", c->mount_calls,
				counts.mount_calls);
		KUNIT_EXPECT_EQ(test, c->name, "bad_timestamp calls", 0, counts.bad_calls);
	}
}

struct xtime_case {
	const char *name;
	const struct super_operations *ops;
	struct timespec64 in, out;
	bool bad;
	int bad_calls;
};

static const struct xtime_case xtime_cases[] = {
	{ "good value: stored as is", &counting_ops, TS(5, 7), TS(5, 7), false, 0 },
	{ "clamped value: nsec zeroed, bad_timestamp called once", &counting_ops, TS(RFC_MAX, NV),
	  TS(RFC_MAX, 0), true, 1 },
	{ "clamped value, no callback: nsec zeroed", &no_ops, TS(0, NV), TS(0, 0), true, 0 },
	{ "clamped value, no s_op: nsec zeroed", NULL, TS(0, NV), TS(0, 0), true, 0 },
	{ "nsec INT_MAX - 1 is not the marker", &counting_ops, TS(1, INT_MAX - 1),
	  TS(1, INT_MAX - 1), false, 0 },
};

static void test_vfs_inode_xtime_check(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(xtime_cases); i++) {
		const struct xtime_case *c = &xtime_cases[i];
		struct callback_counts counts = { 0 };
		struct super_block sb;
		struct timespec64 ts = c->in;

		sb_init_rfc_defaults(&sb);
		sb.s_op = c->ops;
		sb.s_fs_info = &counts;
		KUNIT_EXPECT_EQ(test, c->name, "vfs_inode_xtime_check", c->bad,
				vfs_inode_xtime_check(&sb, &ts));
		KUNIT_EXPECT_TS_EQ(test, c->name, "stored", c->out, ts);
		KUNIT_EXPECT_EQ(test, c->name, "bad_timestamp calls", c->bad_calls, counts.bad_calls);
	}
}

struct helper_case {
	const char *name;
	struct timespec64 a, b;
	int compare; /* sign of timespec64_compare(a, b) */
	bool equal, a_valid;
};

static const struct helper_case helper_cases[] = {
	{ "equal", TS(5, 5), TS(5, 5), 0, true, true },
	{ "seconds decide first", TS(4, 999999999), TS(5, 0), -1, false, true },
	{ "then nanoseconds", TS(5, 6), TS(5, 5), 1, false, true },
	{ "pre-1970 is not a valid system time", TS(-1, 0), TS(0, 0), -1, false, false },
	{ "nsec 10^9 is not valid", TS(1, NSEC_PER_SEC), TS(1, 0), 1, false, false },
	{ "nsec -1 is not valid", TS(1, -1), TS(1, 0), -1, false, false },
	{ "extreme nsec compare without overflow", TS(1, LONG_MIN), TS(1, LONG_MAX), -1, false,
	  false },
	{ "INT64_MIN < INT64_MAX", TS(INT64_MIN, 0), TS(INT64_MAX, 0), -1, false, false },
	{ "2^32 s is valid", TS(INT64_C(4294967296), 0), TS(0, 0), 1, false, true },
};

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

static void test_timespec64_helpers(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(helper_cases); i++) {
		const struct helper_case *c = &helper_cases[i];

		KUNIT_EXPECT_EQ(test, c->name, "timespec64_compare(a, b)", c->compare,
				sign(timespec64_compare(&c->a, &c->b)));
		KUNIT_EXPECT_EQ(test, c->name, "timespec64_compare(b, a)", -c->compare,
				sign(timespec64_compare(&c->b, &c->a)));
		KUNIT_EXPECT_EQ(test, c->name, "timespec64_equal", c->equal,
				timespec64_equal(&c->a, &c->b));
		KUNIT_EXPECT_EQ(test, c->name, "timespec64_valid(a)", c->a_valid,
				timespec64_valid(&c->a));
	}
}

static void test_rfc_defaults(struct kunit *test)
{
	struct super_block sb;

	memset(&sb, 0xa5, sizeof(sb));
	sb_init_rfc_defaults(&sb);
	KUNIT_EXPECT_EQ(test, "alloc_super defaults", "s_time_gran", NSEC_PER_SEC, sb.s_time_gran);
	KUNIT_EXPECT_EQ(test, "alloc_super defaults", "s_time_min", 0, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "alloc_super defaults", "s_time_max", INT32_MAX, sb.s_time_max);
	KUNIT_EXPECT_TRUE(test, "alloc_super defaults", sb.s_op == NULL);

	/* Illegal granularities are stored as given, with no reciprocal. */
	sb_set_time_gran(&sb, 0);
	KUNIT_EXPECT_EQ(test, "gran 0 stored", "s_time_gran", 0, sb.s_time_gran);
	KUNIT_EXPECT_EQ(test, "gran 0 stored", "reciprocal.gran", 0, sb.s_time_gran_reciprocal.gran);
}

int main(void)
{
	struct kunit test = { .suite = "fs_time_test" };

	test_trunc_table(&test);
	test_range_check(&test);
	test_timespec64_trunc(&test);
	test_current_fs_time(&test);
	test_direct_clocks(&test);
	test_mount_time_check(&test);
	test_vfs_inode_xtime_check(&test);
	test_timespec64_helpers(&test);
	test_rfc_defaults(&test);
	return kunit_finish(&test);
}
