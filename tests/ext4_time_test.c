// SPDX-License-Identifier: MIT
/*
 * ext4_time_test.c - table tests for src/fstime/ext4_time.h, in the manner
 * of fs/ext4/inode-test.c: each row is one on-disk (seconds word, extra
 * word) pair at an epoch boundary, read back by the 2016 and the mainline
 * decoder, and written again by both encoders.  Every expected instant also
 * carries its ISO 8601 spelling, checked through timeconv, so a wrong number
 * in the table cannot hide behind a right-looking name.
 */
#include <string.h>

#include "ext4_time.h"
#include "kunit.h"
#include "timeconv.h"

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define EXTRA(epoch, nsec) (((u32)(nsec) << EXT4_EPOCH_BITS) | (u32)(epoch))

struct ext4_case {
	const char *name;
	u32 base, extra;
	struct timespec64 mainline;
	const char *mainline_iso;
	struct timespec64 v2016; /* the 2016 decoder, legacy rule included */
	bool encodes_back;      /* encoding `mainline` gives base/extra again */
};

static const struct ext4_case cases[] = {
	{ "S32_MIN, epoch 0: lower bound", 0x80000000u, EXTRA(0, 0), TS(-2147483648LL, 0),
	  "1901-12-13T20:45:52Z", TS(-2147483648LL, 0), true },
	{ "-1, epoch 0: last second before 1970", 0xffffffffu, EXTRA(0, 0), TS(-1, 0),
	  "1969-12-31T23:59:59Z", TS(-1, 0), true },
	{ "0, epoch 0: the Unix epoch", 0, EXTRA(0, 0), TS(0, 0), "1970-01-01T00:00:00Z", TS(0, 0),
	  true },
	{ "S32_MAX, epoch 0: last s32 second", 0x7fffffffu, EXTRA(0, 999999999),
	  TS(2147483647LL, 999999999), "2038-01-19T03:14:07Z", TS(2147483647LL, 999999999), true },
	{ "2^31, epoch 1: first second past 2038", 0x80000000u, EXTRA(1, 0), TS(2147483648LL, 0),
	  "2038-01-19T03:14:08Z", TS(2147483648LL, 0), true },
	{ "2^32-1, epoch 1: last u32 second", 0xffffffffu, EXTRA(1, 1), TS(4294967295LL, 1),
	  "2106-02-07T06:28:15Z", TS(4294967295LL, 1), true },
	{ "2^32, epoch 1: high word changes (2106)", 0, EXTRA(1, 0), TS(4294967296LL, 0),
	  "2106-02-07T06:28:16Z", TS(4294967296LL, 0), true },
	{ "2^32+2^31-1, epoch 1: last of epoch 1", 0x7fffffffu, EXTRA(1, 0), TS(6442450943LL, 0),
	  "2174-02-25T09:42:23Z", TS(6442450943LL, 0), true },
	{ "2^32+2^31, epoch 2: first of epoch 2", 0x80000000u, EXTRA(2, 0), TS(6442450944LL, 0),
	  "2174-02-25T09:42:24Z", TS(6442450944LL, 0), true },
	{ "2^33-1, epoch 2", 0xffffffffu, EXTRA(2, 0), TS(8589934591LL, 0), "2242-03-16T12:56:31Z",
	  TS(8589934591LL, 0), true },
	{ "2^33, epoch 2: 2242", 0, EXTRA(2, 0), TS(8589934592LL, 0), "2242-03-16T12:56:32Z",
	  TS(8589934592LL, 0), true },
	{ "2^33+2^31, epoch 3, sign bit set: 2016 reads legacy pre-1970", 0x80000000u, EXTRA(3, 0),
	  TS(10737418240LL, 0), "2310-04-04T16:10:40Z", TS(-2147483648LL, 0), true },
	{ "3*2^32-1, epoch 3, sign bit set: 2016 reads 1969-12-31T23:59:59", 0xffffffffu,
	  EXTRA(3, 5), TS(12884901887LL, 5), "2378-04-22T19:24:47Z", TS(-1, 5), true },
	{ "3*2^32, epoch 3, sign bit clear: both agree again", 0, EXTRA(3, 0),
	  TS(12884901888LL, 0), "2378-04-22T19:24:48Z", TS(12884901888LL, 0), true },
	{ "EXT4_EXTRA_TIMESTAMP_MAX, epoch 3: 2446", 0x7fffffffu, EXTRA(3, 999999999),
	  TS(15032385535LL, 999999999), "2446-05-10T22:38:55Z", TS(15032385535LL, 999999999),
	  true },
	{ "nsec field all ones: 2^30-1 read as is (not a valid tv_nsec)", 0, 0xfffffffcu,
	  TS(0, 1073741823), "1970-01-01T00:00:00Z", TS(0, 1073741823), true },
};

static void check_iso(struct kunit *test, const char *name, time64_t sec, const char *iso)
{
	char buf[48];

	time64_format_iso8601(sec, buf, sizeof(buf));
	KUNIT_EXPECT_TRUE(test, name, strcmp(buf, iso) == 0);
	if (strcmp(buf, iso) != 0)
		fprintf(stderr, "  [%s] ISO: expected %s, got %s\n", name, iso, buf);
}

static void test_decode_encode(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ext4_case *c = &cases[i];
		__le32 base = cpu_to_le32(c->base), extra = cpu_to_le32(c->extra);
		struct timespec64 v2016 = { .tv_sec = (s32)c->base };

		check_iso(test, c->name, c->mainline.tv_sec, c->mainline_iso);
		KUNIT_EXPECT_TS_EQ(test, c->name, "ext4_decode_extra_time", c->mainline,
				   ext4_decode_extra_time(base, extra));
		ext4_decode_extra_time_2016(&v2016, extra);
		KUNIT_EXPECT_TS_EQ(test, c->name, "ext4_decode_extra_time_2016", c->v2016, v2016);
		if (c->encodes_back) {
			KUNIT_EXPECT_UEQ(test, c->name, "ext4_encode_extra_time", c->extra,
					 le32_to_cpu(ext4_encode_extra_time(c->mainline)));
			KUNIT_EXPECT_UEQ(test, c->name, "ext4_encode_extra_time_2016", c->extra,
					 le32_to_cpu(ext4_encode_extra_time_2016(&c->mainline)));
		}
		/* Through the raw-inode accessors, with an extra field. */
		struct ext4_raw_time raw;

		ext4_inode_set_xtime(EXT4_TIME_MAINLINE, true, &raw, c->mainline);
		KUNIT_EXPECT_UEQ(test, c->name, "set: seconds word", c->base, le32_to_cpu(raw.xtime));
		KUNIT_EXPECT_TS_EQ(test, c->name, "get (mainline)", c->mainline,
				   ext4_inode_get_xtime(EXT4_TIME_MAINLINE, true, &raw));
		KUNIT_EXPECT_TS_EQ(test, c->name, "get (2016)", c->v2016,
				   ext4_inode_get_xtime(EXT4_TIME_2016, true, &raw));
		KUNIT_EXPECT_TRUE(test, c->name,
				  ext4_time_representable(EXT4_TIME_MAINLINE, true, c->mainline.tv_sec));
		KUNIT_EXPECT_EQ(test, c->name, "representable (2016)",
				timespec64_equal(&c->mainline, &c->v2016),
				ext4_time_representable(EXT4_TIME_2016, true, c->mainline.tv_sec));
	}
}

struct encode_case {
	const char *name;
	struct timespec64 in;
	u32 extra;
};

/* Encoder-only rows: what happens to values outside the range. */
static const struct encode_case encode_cases[] = {
	{ "S32_MIN-1: wraps to epoch 3", TS(-2147483649LL, 0), EXTRA(3, 0) },
	{ "EXT4 max + 1: wraps to epoch 0", TS(15032385536LL, 0), EXTRA(0, 0) },
	{ "S64_MAX: epoch from bits 32..33 of the offset", TS(INT64_MAX, 0), EXTRA(0, 0) },
	{ "S64_MIN", TS(INT64_MIN, 0), EXTRA(0, 0) },
	{ "nsec -1: low 30 bits stored", TS(0, -1), 0xfffffffcu },
	{ "nsec 2^30: bit 30 shifted out", TS(0, 1073741824L), EXTRA(0, 0) },
};

static void test_encode_out_of_range(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(encode_cases); i++) {
		const struct encode_case *c = &encode_cases[i];

		KUNIT_EXPECT_UEQ(test, c->name, "ext4_encode_extra_time", c->extra,
				 le32_to_cpu(ext4_encode_extra_time(c->in)));
		KUNIT_EXPECT_UEQ(test, c->name, "ext4_encode_extra_time_2016", c->extra,
				 le32_to_cpu(ext4_encode_extra_time_2016(&c->in)));
	}
}

struct no_extra_case {
	const char *name;
	struct timespec64 in;
	struct timespec64 mainline, v2016;
};

/* 128-byte inodes: no _extra word; 2016 truncates tv_sec, mainline clamps. */
static const struct no_extra_case no_extra_cases[] = {
	{ "in range, nsec dropped", TS(1452144972, 123), TS(1452144972, 0), TS(1452144972, 0) },
	{ "S32_MAX", TS(2147483647LL, 0), TS(2147483647LL, 0), TS(2147483647LL, 0) },
	{ "2038-01-19T03:14:08: mainline clamps, 2016 wraps to 1901", TS(2147483648LL, 0),
	  TS(2147483647LL, 0), TS(-2147483648LL, 0) },
	{ "2106-02-07T06:28:16: mainline clamps, 2016 wraps to 1970", TS(4294967296LL, 0),
	  TS(2147483647LL, 0), TS(0, 0) },
	{ "S32_MIN-1: mainline clamps, 2016 wraps to 2038", TS(-2147483649LL, 0),
	  TS(-2147483648LL, 0), TS(2147483647LL, 0) },
	{ "pre-1970 -1 s: kept by both", TS(-1, 0), TS(-1, 0), TS(-1, 0) },
};

static void test_no_extra(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(no_extra_cases); i++) {
		const struct no_extra_case *c = &no_extra_cases[i];
		struct ext4_raw_time raw = { .xtime_extra = cpu_to_le32(0xdeadbeefu) };

		ext4_inode_set_xtime(EXT4_TIME_MAINLINE, false, &raw, c->in);
		KUNIT_EXPECT_TS_EQ(test, c->name, "mainline", c->mainline,
				   ext4_inode_get_xtime(EXT4_TIME_MAINLINE, false, &raw));
		KUNIT_EXPECT_UEQ(test, c->name, "extra word untouched", 0xdeadbeefu,
				 le32_to_cpu(raw.xtime_extra));
		ext4_inode_set_xtime(EXT4_TIME_2016, false, &raw, c->in);
		KUNIT_EXPECT_TS_EQ(test, c->name, "2016", c->v2016,
				   ext4_inode_get_xtime(EXT4_TIME_2016, false, &raw));
	}
}

static void test_sb_limits(struct kunit *test)
{
	struct super_block sb = { 0 };

	ext4_sb_set_time_limits(&sb, true);
	KUNIT_EXPECT_EQ(test, "extra", "s_time_min", INT32_MIN, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "extra", "s_time_max", INT64_C(0x37fffffff), sb.s_time_max);
	KUNIT_EXPECT_EQ(test, "extra", "s_time_gran", 1, sb.s_time_gran);
	/* The limits are exactly the representable range's ends. */
	KUNIT_EXPECT_TRUE(test, "extra max representable",
			  ext4_time_representable(EXT4_TIME_MAINLINE, true, sb.s_time_max));
	KUNIT_EXPECT_TRUE(test, "extra max+1 not representable",
			  !ext4_time_representable(EXT4_TIME_MAINLINE, true, sb.s_time_max + 1));
	KUNIT_EXPECT_TRUE(test, "extra min-1 not representable",
			  !ext4_time_representable(EXT4_TIME_MAINLINE, true, sb.s_time_min - 1));
	ext4_sb_set_time_limits(&sb, false);
	KUNIT_EXPECT_EQ(test, "no extra", "s_time_min", INT32_MIN, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "no extra", "s_time_max", INT32_MAX, sb.s_time_max);
	KUNIT_EXPECT_EQ(test, "no extra", "s_time_gran", NSEC_PER_SEC, sb.s_time_gran);
}

int main(void)
{
	struct kunit test = { .suite = "ext4_time_test" };

	test_decode_encode(&test);
	test_encode_out_of_range(&test);
	test_no_extra(&test);
	test_sb_limits(&test);
	return kunit_finish(&test);
}
