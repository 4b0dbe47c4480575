// SPDX-License-Identifier: MIT
/*
 * codec_property_test.c - round-trip properties of every on-disk codec over
 * random inputs (>= 10^7 per codec by default; $Y2038_PROPERTY_INPUTS to
 * change, $Y2038_SEED to replay).
 *
 * The property, per codec: decode(encode(t)) == trunc(clamp(t)), where
 * clamp/trunc are the kernel's own path for that file system (mainline
 * timestamp_truncate() with the file system's preset, or the RFC's
 * fs_time_trunc() + VFS_INODE_SET_XTIME check), and the expected value is
 * computed from plain integer bounds, independently of the codec.
 * Inputs mix a uniform draw over the whole time64_t range with draws
 * concentrated around each codec's boundaries, where the bugs live.
 */
#include "rng.h"

#include <inttypes.h>
#include <string.h>

#include "cifs_time.h"
#include "ext4_time.h"
#include "fat_time.h"
#include "fs_presets.h"
#include "kunit.h"
#include "timeconv.h"

#define DEFAULT_INPUTS 10000000UL
/* Print at most this many failures per property, then only count them. */
#define MAX_REPORTS 5

struct property {
	const char *name;
	unsigned long checked, failed;
};

static bool report(struct property *p, struct timespec64 in, struct timespec64 want,
		   struct timespec64 got)
{
	p->checked++;
	if (want.tv_sec == got.tv_sec && want.tv_nsec == got.tv_nsec)
		return true;
	if (p->failed++ < MAX_REPORTS)
		fprintf(stderr, "FAIL [%s] in {%" PRId64 ", %ld}: expected {%" PRId64 ", %ld}, got {%"
			PRId64 ", %ld}\n", p->name, in.tv_sec, in.tv_nsec, want.tv_sec, want.tv_nsec,
			got.tv_sec, got.tv_nsec);
	return false;
}

/* A tv_sec near one of @anchors (within +-2^span), or anywhere in time64_t. */
static time64_t draw_sec(struct rng *rng, const time64_t *anchors, size_t n, unsigned span)
{
	uint64_t r = rng_next(rng);

	if (n == 0 || (r & 7) == 0)
		return (time64_t)rng_next(rng);
	time64_t anchor = anchors[(r >> 3) % n];
	int64_t delta = (int64_t)(rng_next(rng) & ((UINT64_C(1) << span) - 1)) -
			(int64_t)(UINT64_C(1) << (span - 1));

	/* Saturate at the ends instead of overflowing. */
	if (delta > 0 && anchor > INT64_MAX - delta)
		return INT64_MAX;
	if (delta < 0 && anchor < INT64_MIN - delta)
		return INT64_MIN;
	return anchor + delta;
}

static long draw_nsec(struct rng *rng)
{
	uint64_t r = rng_next(rng);

	/* Mostly valid, sometimes the edges 0 and 999999999. */
	switch (r & 15) {
	case 0: return 0;
	case 1: return NSEC_PER_SEC - 1;
	default: return (long)((r >> 4) % NSEC_PER_SEC);
	}
}

static void check_ext4(struct kunit *test, struct rng *rng, unsigned long n)
{
	static const time64_t anchors[] = { INT32_MIN, 0, INT32_MAX, INT64_C(0x100000000),
					    INT64_C(0x180000000), INT64_C(0x200000000),
					    INT64_C(0x280000000), INT64_C(0x300000000),
					    INT64_C(0x37fffffff) };
	struct property mainline = { .name = "ext4 mainline, extra" }, old = { .name = "ext4 mainline, no extra" };
	struct property rfc = { .name = "ext4 2016 (RFC fs_time_trunc), extra" };
	struct super_block extra_sb = { 0 }, old_sb = { 0 };

	ext4_sb_set_time_limits(&extra_sb, true);
	ext4_sb_set_time_limits(&old_sb, false);
	for (unsigned long i = 0; i < n; i++) {
		struct timespec64 t = { draw_sec(rng, anchors, ARRAY_SIZE(anchors), 34),
					draw_nsec(rng) };
		struct ext4_raw_time raw;
		struct timespec64 want;

		/* Mainline, 256-byte inode: clamp to S32_MIN..2446, keep ns. */
		want = t;
		if (want.tv_sec <= EXT4_TIMESTAMP_MIN)
			want = (struct timespec64){ EXT4_TIMESTAMP_MIN, 0 };
		if (want.tv_sec >= EXT4_EXTRA_TIMESTAMP_MAX)
			want = (struct timespec64){ EXT4_EXTRA_TIMESTAMP_MAX, 0 };
		ext4_inode_set_xtime(EXT4_TIME_MAINLINE, true, &raw, timestamp_truncate(t, &extra_sb));
		report(&mainline, t, want, ext4_inode_get_xtime(EXT4_TIME_MAINLINE, true, &raw));

		/* Mainline, 128-byte inode: whole seconds in s32. */
		want = (struct timespec64){ t.tv_sec < INT32_MIN ? INT32_MIN
					    : t.tv_sec > INT32_MAX ? INT32_MAX : t.tv_sec, 0 };
		ext4_inode_set_xtime(EXT4_TIME_MAINLINE, false, &raw, timestamp_truncate(t, &old_sb));
		report(&old, t, want, ext4_inode_get_xtime(EXT4_TIME_MAINLINE, false, &raw));

		/*
		 * 2016 + RFC: fs_time_trunc() clamps with the NOT_VALID marker,
		 * VFS_INODE_SET_XTIME zeroes it; the RFC kept tv_nsec at the
		 * bounds.  The legacy rule then moves 2310..2378 to 1901..1970.
		 */
		struct timespec64 stored = fs_time_trunc(t, &extra_sb);

		vfs_inode_xtime_check(&extra_sb, &stored);
		want = t;
		if (t.tv_sec < EXT4_TIMESTAMP_MIN)
			want = (struct timespec64){ EXT4_TIMESTAMP_MIN, 0 };
		if (t.tv_sec > EXT4_EXTRA_TIMESTAMP_MAX)
			want = (struct timespec64){ EXT4_EXTRA_TIMESTAMP_MAX, 0 };
		if (want.tv_sec >= INT64_C(0x280000000) && want.tv_sec <= INT64_C(0x2ffffffff))
			want.tv_sec -= INT64_C(0x300000000);
		ext4_inode_set_xtime(EXT4_TIME_2016, true, &raw, stored);
		report(&rfc, t, want, ext4_inode_get_xtime(EXT4_TIME_2016, true, &raw));
	}
	struct property *all[] = { &mainline, &old, &rfc };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		printf("  %-40s %lu inputs, %lu failed\n", all[i]->name, all[i]->checked, all[i]->failed);
		KUNIT_EXPECT_EQ(test, all[i]->name, "failures", 0, all[i]->failed);
	}
}

static void check_fat(struct kunit *test, struct rng *rng, unsigned long n)
{
	static const time64_t anchors[] = { 315532800, 951868800, 2147483648LL, 4107542400LL,
					    4294967296LL, 4354819199LL };
	struct property mtime = { .name = "fat mtime (2 s)" }, crtime = { .name = "fat crtime (10 ms, time_cs)" };
	struct property atime = { .name = "fat atime (1 day, adate only)" };
	const time64_t first_local = 315532800, end_local = 4354819200LL; /* 1980 .. 2108 */

	for (unsigned long i = 0; i < n; i++) {
		struct msdos_sb_info sbi = { 0 };
		uint64_t r = rng_next(rng);

		if (r & 1) {
			sbi.options.tz_set = 1;
			sbi.options.time_offset = (int)((r >> 1) % (2 * 1440 + 1)) - 1440;
		} else {
			sbi.sys_tz_minuteswest = (int)((r >> 1) % (2 * 1440 + 1)) - 1440;
		}
		int offset = fat_tz_offset(&sbi); /* local + offset == UTC */
		struct timespec64 t = { draw_sec(rng, anchors, ARRAY_SIZE(anchors), 28),
					draw_nsec(rng) };
		/* local = t - offset, without overflow at the ends of time64_t */
		bool early = t.tv_sec < first_local + offset;
		bool late = t.tv_sec >= end_local + offset;
		struct timespec64 got, want;
		__le16 time, date;
		u8 cs;

		fat_time_unix2fat(&sbi, &t, &time, &date, NULL);
		fat_time_fat2unix(&sbi, &got, time, date, 0);
		if (early)
			want = (struct timespec64){ first_local + offset, 0 };
		else if (late)
			want = (struct timespec64){ end_local - 2 + offset, 0 };
		else
			want = (struct timespec64){ t.tv_sec & ~(time64_t)1, 0 };
		report(&mtime, t, want, got);

		fat_time_unix2fat(&sbi, &t, &time, &date, &cs);
		fat_time_fat2unix(&sbi, &got, time, date, cs);
		if (early)
			want = (struct timespec64){ first_local + offset, 0 };
		else if (late)
			want = (struct timespec64){ end_local - 1 + offset, 990000000 };
		else
			want = (struct timespec64){ t.tv_sec, t.tv_nsec - t.tv_nsec % 10000000 };
		report(&crtime, t, want, got);

		fat_time_unix2fat(&sbi, &t, &time, &date, NULL);
		fat_time_fat2unix(&sbi, &got, 0, date, 0);
		if (early)
			want = (struct timespec64){ first_local + offset, 0 };
		else if (late)
			want = (struct timespec64){ end_local - SECS_PER_DAY + offset, 0 };
		else
			want = (struct timespec64){ t.tv_sec - (t.tv_sec - offset) % SECS_PER_DAY, 0 };
		report(&atime, t, want, got);
		/* In range, the kernel's own atime truncation must say the same. */
		if (!early && !late) {
			struct timespec64 a = fat_truncate_atime(&sbi, &t);

			report(&atime, t, want, a);
		}
	}
	struct property *all[] = { &mtime, &crtime, &atime };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		printf("  %-40s %lu inputs, %lu failed\n", all[i]->name, all[i]->checked, all[i]->failed);
		KUNIT_EXPECT_EQ(test, all[i]->name, "failures", 0, all[i]->failed);
	}
}

static void check_cifs(struct kunit *test, struct rng *rng, unsigned long n)
{
	static const time64_t anchors[] = { -11644473600LL, -1, 0, INT32_MAX, 910692730085LL };
	struct property nt = { .name = "cifs Unix->NT->Unix (100 ns)" };
	struct property back = { .name = "cifs NT->Unix->NT (exact)" };
	struct property dos = { .name = "cifs DOS vs fat (UTC)" };
	const struct super_block sb = fs_preset_sb(fs_preset_find("cifs (modern)"));

	for (unsigned long i = 0; i < n; i++) {
		struct timespec64 t = { draw_sec(rng, anchors, ARRAY_SIZE(anchors), 36),
					draw_nsec(rng) };
		struct timespec64 want = t, got;

		if (t.tv_sec <= sb.s_time_min)
			want = (struct timespec64){ sb.s_time_min, 0 };
		else if (t.tv_sec >= sb.s_time_max)
			want = (struct timespec64){ sb.s_time_max, 0 };
		else
			want.tv_nsec -= want.tv_nsec % 100;
		got = cifs_NTtimeToUnix(cpu_to_le64(cifs_UnixTimeToNT(timestamp_truncate(t, &sb))));
		/* Before 1970 the client hands back {sec rounded to 0, -nsec}: normalise. */
		if (got.tv_nsec < 0) {
			got.tv_sec -= 1;
			got.tv_nsec += NSEC_PER_SEC;
		}
		report(&nt, t, want, got);

		/* Every NT value the client can represent (0..S64_MAX) comes back bit-exact. */
		u64 v = rng_next(rng) >> 1;
		u64 again = cifs_UnixTimeToNT(cifs_NTtimeToUnix(cpu_to_le64(v)));

		report(&back, (struct timespec64){ (time64_t)v, 0 }, (struct timespec64){ (time64_t)v, 0 },
		       (struct timespec64){ (time64_t)again, 0 });

		/* The SMB client's DOS converter and FAT's agree on any word pair. */
		u16 date = (u16)rng_next(rng), time = (u16)rng_next(rng);
		const struct msdos_sb_info utc = { .options = { .tz_set = 1 } };
		u16 month = (date >> 5) & 0xf, day = date & 0x1f;

		/* Only where both define the fields the same way (month 1..12, day >= 1). */
		if (month >= 1 && month <= 12 && day >= 1) {
			fat_time_fat2unix(&utc, &got, cpu_to_le16(time), cpu_to_le16(date), 0);
			report(&dos, (struct timespec64){ date, time }, got,
			       cnvrtDosUnixTm(cpu_to_le16(date), cpu_to_le16(time), 0));
		}
	}
	struct property *all[] = { &nt, &back, &dos };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++) {
		printf("  %-40s %lu inputs, %lu failed\n", all[i]->name, all[i]->checked, all[i]->failed);
		KUNIT_EXPECT_EQ(test, all[i]->name, "failures", 0, all[i]->failed);
	}
}

int main(void)
{
	struct kunit test = { .suite = "codec_property_test" };
	struct rng rng = { rng_seed_from_env(test.suite) };
	unsigned long n = test_property_inputs(test.suite, DEFAULT_INPUTS);

	check_ext4(&test, &rng, n);
	check_fat(&test, &rng, n);
	check_cifs(&test, &rng, n);
	return kunit_finish(&test);
}
