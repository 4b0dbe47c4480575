// SPDX-License-Identifier: MIT
/*
 * fat_time_test.c - table tests for src/fstime/fat_time.h and cifs_time.h,
 * in the manner of fs/fat/fat_test.c: each row is a FAT (time, date,
 * time_cs) triple, a time-zone setting and the UTC instant it means; the
 * same rows run through fat_time_fat2unix(), fat_time_unix2fat() and, where
 * the options are UTC, the SMB client's cnvrtDosUnixTm().  Expected seconds
 * were computed with Python's datetime (an independent calendar) and carry
 * their ISO 8601 spelling, checked through timeconv.
 */
#include <limits.h>
#include <string.h>

#include "cifs_time.h"
#include "fat_time.h"
#include "kunit.h"
#include "timeconv.h"

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define FAT_DATE(y, m, d) ((u16)(((y) - 1980) << 9 | (m) << 5 | (d)))
#define FAT_TIME(h, m, s) ((u16)((h) << 11 | (m) << 5 | (s) / 2))
#define UTC { .options = { .tz_set = 1, .time_offset = 0 } }
#define VFAT_UTC { .options = { .tz_set = 1, .time_offset = 0, .isvfat = 1 } }
#define MSDOS_UTC { .options = { .tz_set = 1, .time_offset = 0, .isvfat = 0 } }

/*
 * A negative tv_nsec, as the kernel's `tv_nsec % 10000000UL` and its u8
 * time_cs see it: the remainder is of tv_nsec + 2^BITS_PER_LONG.
 */
#if LONG_MAX > 0x7fffffffL
/* LP64: 2^64 mod 10^7 = 9551616, 2^63 mod 10^7 = 4775808. */
#define CR_NSEC_MINUS_1 (-9551616L)            /* -1 - 9551615 */
#define CR_NSEC_MINUS_10MS (-19551616L)        /* -10^7 - 9551616 */
#define CR_NSEC_LONG_MIN 9223372036850000000L /* 2^63 - 4775808: wraps positive */
#define CS_LONG_MIN_ODD 127                    /* 100 + LONG_MIN / 10^7, mod 256 */
#else
/* ILP32: 2^32 mod 10^7 = 4967296, 2^31 mod 10^7 = 7483648. */
#define CR_NSEC_MINUS_1 (-4967296L)
#define CR_NSEC_MINUS_10MS (-14967296L)
#define CR_NSEC_LONG_MIN 2140000000L
#define CS_LONG_MIN_ODD 142
#endif

struct fat_case {
	const char *name;
	struct msdos_sb_info sbi;
	u16 time, date;
	u8 time_cs;
	struct timespec64 unix_ts;
	const char *iso; /* of unix_ts.tv_sec */
};

static const struct fat_case cases[] = {
	{ "earliest possible UTC (1980-01-01 00:00:00)", UTC, 0, FAT_DATE_MIN, 0,
	  TS(315532800, 0), "1980-01-01T00:00:00Z" },
	{ "latest possible UTC (2107-12-31 23:59:58)", UTC, FAT_TIME_MAX, FAT_DATE_MAX, 0,
	  TS(4354819198LL, 0), "2107-12-31T23:59:58Z" },
	{ "latest with time_cs 199: 23:59:59.99", UTC, FAT_TIME_MAX, FAT_DATE_MAX, 199,
	  TS(4354819199LL, 990000000), "2107-12-31T23:59:59Z" },
	{ "leap day 2000-02-29", UTC, 0, FAT_DATE(2000, 2, 29), 0, TS(951782400, 0),
	  "2000-02-29T00:00:00Z" },
	{ "2000-03-01 after a leap day", UTC, 0, FAT_DATE(2000, 3, 1), 0, TS(951868800, 0),
	  "2000-03-01T00:00:00Z" },
	{ "2004-03-01", UTC, 0, FAT_DATE(2004, 3, 1), 0, TS(1078099200, 0),
	  "2004-03-01T00:00:00Z" },
	{ "2100-02-28", UTC, 0, FAT_DATE(2100, 2, 28), 0, TS(4107456000LL, 0),
	  "2100-02-28T00:00:00Z" },
	{ "2100-03-01 directly after 02-28: 2100 is not leap", UTC, 0, FAT_DATE(2100, 3, 1), 0,
	  TS(4107542400LL, 0), "2100-03-01T00:00:00Z" },
	{ "2038-01-19 03:14:08: past the s32 end", UTC, FAT_TIME(3, 14, 8), FAT_DATE(2038, 1, 19),
	  0, TS(2147483648LL, 0), "2038-01-19T03:14:08Z" },
	{ "2106-02-07 06:28:16: past the u32 end", UTC, FAT_TIME(6, 28, 16),
	  FAT_DATE(2106, 2, 7), 0, TS(4294967296LL, 0), "2106-02-07T06:28:16Z" },
	{ "odd second via time_cs 100", UTC, FAT_TIME(3, 14, 6), FAT_DATE(2038, 1, 19), 100,
	  TS(2147483647LL, 0), "2038-01-19T03:14:07Z" },
	{ "time_cs 1: 10 ms", UTC, 0, FAT_DATE(2000, 3, 1), 1, TS(951868800, 10000000),
	  "2000-03-01T00:00:00Z" },
	{ "time_offset=+60 (UTC+1): local midnight is 23:00 UTC", 
	  { .options = { .tz_set = 1, .time_offset = 60 } }, 0, FAT_DATE_MIN, 0,
	  TS(315532800 - 3600, 0), "1979-12-31T23:00:00Z" },
	{ "time_offset=-60 (UTC-1)", { .options = { .tz_set = 1, .time_offset = -60 } }, 0,
	  FAT_DATE_MIN, 0, TS(315532800 + 3600, 0), "1980-01-01T01:00:00Z" },
	{ "time_offset=+1440 (a day east)", { .options = { .tz_set = 1, .time_offset = 1440 } },
	  0, FAT_DATE(2000, 3, 1), 0, TS(951868800 - 86400, 0), "2000-02-29T00:00:00Z" },
	{ "no tz option: sys_tz 300 min west (UTC-5)", { .sys_tz_minuteswest = 300 }, 0,
	  FAT_DATE(2000, 3, 1), 0, TS(951868800 + 18000, 0), "2000-03-01T05:00:00Z" },
	{ "2099-12-31 23:59:58", UTC, FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 0,
	  TS(4102444798LL, 0), "2099-12-31T23:59:58Z" },
};

static void check_iso(struct kunit *test, const char *name, time64_t sec, const char *iso)
{
	char buf[48];

	time64_format_iso8601(sec, buf, sizeof(buf));
	if (!KUNIT_EXPECT_TRUE(test, name, strcmp(buf, iso) == 0))
		fprintf(stderr, "  [%s] ISO: expected %s, got %s\n", name, iso, buf);
}

static void test_fat_table(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct fat_case *c = &cases[i];
		struct timespec64 ts;
		__le16 time, date;
		u8 cs;

		check_iso(test, c->name, c->unix_ts.tv_sec, c->iso);
		fat_time_fat2unix(&c->sbi, &ts, cpu_to_le16(c->time), cpu_to_le16(c->date), c->time_cs);
		KUNIT_EXPECT_TS_EQ(test, c->name, "fat_time_fat2unix", c->unix_ts, ts);

		fat_time_unix2fat(&c->sbi, &c->unix_ts, &time, &date, &cs);
		KUNIT_EXPECT_UEQ(test, c->name, "unix2fat time", c->time, le16_to_cpu(time));
		KUNIT_EXPECT_UEQ(test, c->name, "unix2fat date", c->date, le16_to_cpu(date));
		KUNIT_EXPECT_UEQ(test, c->name, "unix2fat time_cs", c->time_cs, cs);

		/* The SMB client's own DOS converter must agree (offset in seconds). */
		if (c->time_cs == 0) {
			int offset = fat_tz_offset(&c->sbi);

			KUNIT_EXPECT_TS_EQ(test, c->name, "cnvrtDosUnixTm", c->unix_ts,
					   cnvrtDosUnixTm(cpu_to_le16(c->date), cpu_to_le16(c->time),
							  offset));
		}
	}
}

struct clamp_case {
	const char *name;
	struct msdos_sb_info sbi;
	struct timespec64 in;
	u16 time, date;
	u8 time_cs;
};

static const struct clamp_case clamp_cases[] = {
	{ "1979-12-31 23:59:59 UTC: before 1980, clamped to the first instant", UTC,
	  TS(315532799, 999999999), 0, FAT_DATE_MIN, 0 },
	{ "epoch 0: clamped to 1980", UTC, TS(0, 0), 0, FAT_DATE_MIN, 0 },
	{ "S64_MIN: clamped to 1980", UTC, TS(INT64_MIN, 0), 0, FAT_DATE_MIN, 0 },
	{ "2108-01-01 00:00:00: clamped to the last instant, cs 199", UTC, TS(4354819200LL, 0),
	  FAT_TIME_MAX, FAT_DATE_MAX, 199 },
	{ "S64_MAX: clamped to 2107", UTC, TS(INT64_MAX, 0), FAT_TIME_MAX, FAT_DATE_MAX, 199 },
	{ "1979-12-31 23:30 UTC with time_offset=+60: local 1980, representable",
	  { .options = { .tz_set = 1, .time_offset = 60 } }, TS(315532800 - 1800, 0),
	  FAT_TIME(0, 30, 0), FAT_DATE_MIN, 0 },
	{ "2107-12-31 23:30 UTC with time_offset=+60: local 2108, clamped",
	  { .options = { .tz_set = 1, .time_offset = 60 } }, TS(4354819200LL - 1800, 0),
	  FAT_TIME_MAX, FAT_DATE_MAX, 199 },
	{ "2 s granularity: 23:59:59.5 odd second goes to time_cs", UTC, TS(4102444799LL, 500000000),
	  FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 150 },
	/* time_cs = (tv_sec & 1) * 100 + tv_nsec / 10000000: signed, toward zero. */
	{ "nsec -1, odd second: -1 / 10^7 is 0, time_cs 100", UTC, TS(4102444799LL, -1),
	  FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 100 },
	{ "nsec -10^7, odd second: time_cs 100 - 1 = 99", UTC, TS(4102444799LL, -10000000),
	  FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 99 },
	{ "nsec -10^7, even second: time_cs -1 stored as 255", UTC, TS(4102444798LL, -10000000),
	  FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 255 },
	{ "nsec -999999999, even second: time_cs -99 stored as 157", UTC,
	  TS(4102444798LL, -999999999), FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31), 157 },
	{ "nsec LONG_MIN, odd second: low 8 bits of 100 + LONG_MIN / 10^7", UTC,
	  TS(4102444799LL, LONG_MIN), FAT_TIME(23, 59, 58), FAT_DATE(2099, 12, 31),
	  CS_LONG_MIN_ODD },
};

static void test_fat_clamp(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(clamp_cases); i++) {
		const struct clamp_case *c = &clamp_cases[i];
		__le16 time, date;
		u8 cs;

		fat_time_unix2fat(&c->sbi, &c->in, &time, &date, &cs);
		KUNIT_EXPECT_UEQ(test, c->name, "time", c->time, le16_to_cpu(time));
		KUNIT_EXPECT_UEQ(test, c->name, "date", c->date, le16_to_cpu(date));
		KUNIT_EXPECT_UEQ(test, c->name, "time_cs", c->time_cs, cs);
		/* time_cs is optional: the NULL path must give the same words. */
		fat_time_unix2fat(&c->sbi, &c->in, &time, &date, NULL);
		KUNIT_EXPECT_UEQ(test, c->name, "time (no cs)", c->time, le16_to_cpu(time));
		KUNIT_EXPECT_UEQ(test, c->name, "date (no cs)", c->date, le16_to_cpu(date));
	}
}

struct trunc_case {
	const char *name;
	struct msdos_sb_info sbi;
	struct timespec64 in, mtime, crtime, atime;
};

static const struct trunc_case trunc_cases[] = {
	{ "vfat 2000-03-01 12:34:57.123456789 UTC", VFAT_UTC, TS(951914097, 123456789),
	  TS(951914096, 0), TS(951914097, 120000000), TS(951868800, 0) },
	{ "vfat same instant, time_offset=+60: atime at local midnight",
	  { .options = { .tz_set = 1, .time_offset = 60, .isvfat = 1 } },
	  TS(951914097, 123456789), TS(951914096, 0), TS(951914097, 120000000),
	  TS(951868800 - 3600, 0) },
	{ "vfat 23:30 UTC, time_offset=+60: local next day",
	  { .options = { .tz_set = 1, .time_offset = 60, .isvfat = 1 } },
	  TS(951868800 - 1800, 0), TS(951868800 - 1800, 0), TS(951868800 - 1800, 0),
	  TS(951868800 - 3600, 0) },
	{ "vfat pre-1970 local: atime rounds toward 1970 (div_s64_rem)", VFAT_UTC,
	  TS(-86400 - 5, 0), TS(-86400 - 6, 0), TS(-86400 - 5, 0), TS(-86400, 0) },
	{ "vfat nsec 999999999: crtime 990000000", VFAT_UTC, TS(951914097, 999999999),
	  TS(951914096, 0), TS(951914097, 990000000), TS(951868800, 0) },
	/* fat_timespec64_trunc_10ms(): tv_nsec -= tv_nsec % 10000000UL (unsigned). */
	{ "vfat nsec -1: % 10000000UL of the unsigned value", VFAT_UTC, TS(951914097, -1),
	  TS(951914096, 0), TS(951914097, CR_NSEC_MINUS_1), TS(951868800, 0) },
	{ "vfat nsec -10^7: not a multiple once unsigned", VFAT_UTC, TS(951914097, -10000000),
	  TS(951914096, 0), TS(951914097, CR_NSEC_MINUS_10MS), TS(951868800, 0) },
	{ "vfat nsec LONG_MIN: the subtraction wraps to a positive nsec", VFAT_UTC,
	  TS(951914097, LONG_MIN), TS(951914096, 0), TS(951914097, CR_NSEC_LONG_MIN),
	  TS(951868800, 0) },
	{ "vfat nsec 0: left alone (the kernel skips the division)", VFAT_UTC,
	  TS(951914097, 0), TS(951914096, 0), TS(951914097, 0), TS(951868800, 0) },
	/* msdos: fat_timespec64_trunc_2secs(), as for mtime. */
	{ "msdos 12:34:57.123456789: crtime 2 s like mtime", MSDOS_UTC, TS(951914097, 123456789),
	  TS(951914096, 0), TS(951914096, 0), TS(951868800, 0) },
	{ "msdos nsec -1: crtime tv_sec & ~1, nsec 0", MSDOS_UTC, TS(951914097, -1),
	  TS(951914096, 0), TS(951914096, 0), TS(951868800, 0) },
	{ "msdos pre-1970 odd second: & ~1 rounds down", MSDOS_UTC, TS(-86400 - 5, 7),
	  TS(-86400 - 6, 0), TS(-86400 - 6, 0), TS(-86400, 0) },
};

static void test_fat_truncate(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(trunc_cases); i++) {
		const struct trunc_case *c = &trunc_cases[i];

		KUNIT_EXPECT_TS_EQ(test, c->name, "fat_truncate_mtime", c->mtime,
				   fat_truncate_mtime(&c->sbi, &c->in));
		KUNIT_EXPECT_TS_EQ(test, c->name, "fat_truncate_crtime", c->crtime,
				   fat_truncate_crtime(&c->sbi, &c->in));
		KUNIT_EXPECT_TS_EQ(test, c->name, "fat_truncate_atime", c->atime,
				   fat_truncate_atime(&c->sbi, &c->in));
	}
}

struct nt_case {
	const char *name;
	u64 nt;
	struct timespec64 unix_ts;
	bool round_trips; /* cifs_UnixTimeToNT(unix_ts) == nt */
};

static const struct nt_case nt_cases[] = {
	{ "NT 0: 1601-01-01, the NT epoch", 0, TS(-11644473600LL, 0), true },
	{ "NTFS_TIME_OFFSET: the Unix epoch", NTFS_TIME_OFFSET, TS(0, 0), true },
	{ "offset + 1: 100 ns after 1970", NTFS_TIME_OFFSET + 1, TS(0, 100), true },
	{ "offset - 1: 100 ns before 1970 is {0, -100}, not normalised", NTFS_TIME_OFFSET - 1,
	  TS(0, -100), true },
	{ "offset - 10^7: exactly -1 s", NTFS_TIME_OFFSET - 10000000, TS(-1, 0), true },
	{ "offset - 10^7 - 1: {-1, -100}", NTFS_TIME_OFFSET - 10000001, TS(-1, -100), true },
	{ "2038-01-19T03:14:08", UINT64_C(137919572480000000), TS(2147483648LL, 0), true },
	{ "S64_MAX: last instant, 30828-09-14T02:48:05.4775807", (u64)INT64_MAX,
	  TS(910692730085LL, 477580700), true },
	{ "2^63 + offset: t == S64_MIN, negated without overflow",
	  (UINT64_C(1) << 63) + NTFS_TIME_OFFSET, TS(-922337203685LL, -477580800), true },
	{ "U64_MAX: wraps to 100 ns before 1601", UINT64_MAX, TS(-11644473600LL, -100), true },
};

static void test_nt_table(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(nt_cases); i++) {
		const struct nt_case *c = &nt_cases[i];

		KUNIT_EXPECT_TS_EQ(test, c->name, "cifs_NTtimeToUnix", c->unix_ts,
				   cifs_NTtimeToUnix(cpu_to_le64(c->nt)));
		if (c->round_trips)
			KUNIT_EXPECT_UEQ(test, c->name, "cifs_UnixTimeToNT", c->nt,
					 cifs_UnixTimeToNT(c->unix_ts));
	}
	check_iso(test, "NT 0 is 1601", -11644473600LL, "1601-01-01T00:00:00Z");
	check_iso(test, "NT S64_MAX is 30828", 910692730085LL, "+30828-09-14T02:48:05Z");
	KUNIT_EXPECT_UEQ(test, "UnixTimeToNT truncates 99 ns", "nt", NTFS_TIME_OFFSET,
			 cifs_UnixTimeToNT(TS(0, 99)));
	KUNIT_EXPECT_UEQ(test, "UnixTimeToNT {-1, 999999900}", "nt", NTFS_TIME_OFFSET - 1,
			 cifs_UnixTimeToNT(TS(-1, 999999900)));
}

struct dos_case {
	const char *name;
	u16 date, time;
	int offset;
	time64_t sec;
};

/* cnvrtDosUnixTm() clamps bad day/month fields instead of indexing past its table. */
static const struct dos_case dos_cases[] = {
	{ "month 0 reads as January", (u16)(20 << 9 | 0 << 5 | 1), 0, 0, 946684800 },
	{ "month 15 reads as December", (u16)(20 << 9 | 15 << 5 | 1), 0, 0, 975628800 },
	{ "day 0 reads as 1", (u16)(20 << 9 | 1 << 5 | 0), 0, 0, 946684800 },
	{ "offset -3600 s", FAT_DATE(2000, 1, 1), 0, -3600, 946684800 - 3600 },
	{ "hours 31, minutes 63, 2-seconds 31: added as they are", FAT_DATE(2000, 1, 1), 0xffff, 0,
	  946684800 + 31 * 3600 + 63 * 60 + 62 },
};

static void test_dos_table(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(dos_cases); i++) {
		const struct dos_case *c = &dos_cases[i];

		KUNIT_EXPECT_TS_EQ(test, c->name, "cnvrtDosUnixTm", TS(c->sec, 0),
				   cnvrtDosUnixTm(cpu_to_le16(c->date), cpu_to_le16(c->time),
						  c->offset));
	}
}

static void test_sb_limits(struct kunit *test)
{
	const struct msdos_sb_info utc = UTC;
	const struct msdos_sb_info east = { .options = { .tz_set = 1, .time_offset = 120 } };
	struct super_block sb = { 0 };

	fat_sb_set_time_limits(&sb, &utc);
	KUNIT_EXPECT_EQ(test, "fat UTC", "s_time_min", 315532800, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "fat UTC", "s_time_max", 4354819198LL, sb.s_time_max);
	fat_sb_set_time_limits(&sb, &east);
	KUNIT_EXPECT_EQ(test, "fat UTC+2", "s_time_min", 315532800 - 7200, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "fat UTC+2", "s_time_max", 4354819198LL - 7200, sb.s_time_max);
	cifs_sb_set_time_limits(&sb, false);
	KUNIT_EXPECT_EQ(test, "cifs NT", "s_time_min", -11644473600LL, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "cifs NT", "s_time_max", 910692730085LL, sb.s_time_max);
	KUNIT_EXPECT_EQ(test, "cifs NT", "s_time_gran", 100, sb.s_time_gran);
	cifs_sb_set_time_limits(&sb, true);
	KUNIT_EXPECT_EQ(test, "cifs DOS", "s_time_min", 315532800, sb.s_time_min);
	KUNIT_EXPECT_EQ(test, "cifs DOS", "s_time_max", 4354819198LL, sb.s_time_max);
	KUNIT_EXPECT_EQ(test, "cifs DOS", "s_time_gran", NSEC_PER_SEC, sb.s_time_gran);
}

int main(void)
{
	struct kunit test = { .suite = "fat_cifs_time_test" };

	test_fat_table(&test);
	test_fat_clamp(&test);
	test_fat_truncate(&test);
	test_nt_table(&test);
	test_dos_table(&test);
	test_sb_limits(&test);
	return kunit_finish(&test);
}
