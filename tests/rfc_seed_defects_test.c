// SPDX-License-Identifier: MIT
/*
 * rfc_seed_defects_test.c - the defects of the January 2016 RFC's patches
 * (D6 and after in scripts/y2038lab/report/claims.toml) that run in user
 * space.  Each test runs the patch's lines, ported with the kernel's names,
 * and the lines the hunk removed (the "original": Linux 4.4 as the hunk's
 * context shows it), on the same input: it asserts the defect in the RFC's
 * code AND that the original behaved otherwise, so a wrong port fails.
 *
 * The inode is the one RFC 04-07 compile against as posted
 * (CONFIG_FS_USES_64BIT_TIME off): struct timespec i_[amc]time (timespec64
 * here: the same type on LP64, where 4.4 #defines timespec64 as timespec)
 * and RFC 03's #else accessors, transcribed below.  current_fs_time(),
 * current_fs_time_sec(), fs_time_trunc() are RFC 03's (src/fstime/fs_time.c);
 * the original's current_fs_time() is timespec_trunc(current_kernel_time(),
 * s_time_gran), CURRENT_TIME_SEC the clock's seconds with tv_nsec 0.
 *
 * The quoted patch lines of each defect are in claims.toml's [[defect]]
 * rows; a file system's 4.4 lines that no patch touches (btrfs, xfs) are
 * quoted above their port.
 */
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "fat_time.h"
#include "fs_time.h"
#include "kernel_types.h"
#include "kunit.h"

#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* ---- RFC 02/03 with CONFIG_FS_USES_64BIT_TIME off (RFC 04-07 as posted) ---- */

#define inode_timespec timespec64
#define inode_timespec_equal timespec64_equal
#define inode_timespec_compare timespec64_compare

struct inode {
	struct super_block *i_sb;
	struct timespec64 i_atime, i_mtime, i_ctime;
	unsigned int i_nlink;
};

/* RFC 03/15, include/linux/fs.h, the #else branch. */
#define VFS_INODE_SET_XTIME(xtime, inode, ts)				\
	do {								\
		struct super_block *__sb = inode->i_sb;			\
		(inode)->xtime = (ts);					\
		if (unlikely(is_fs_timestamp_bad((inode)->xtime))) {	\
			(inode)->xtime.tv_nsec = 0;			\
			if (__sb->s_op->bad_timestamp)			\
				__sb->s_op->bad_timestamp(__sb);	\
		}							\
	} while (0)

#define VFS_INODE_GET_XTIME(xtime, inode)       \
	((inode)->xtime)

/* RFC 02/15, include/linux/fs.h. */
#define VFS_INODE_SWAP_XTIME(xtime, inode1, inode2)		\
	do {							\
		struct inode_timespec __ts =			\
			VFS_INODE_GET_XTIME(xtime, inode1);	\
		VFS_INODE_SET_XTIME(xtime, inode1,		\
			VFS_INODE_GET_XTIME(xtime, inode2));	\
		VFS_INODE_SET_XTIME(xtime, inode2, __ts);	\
	} while (0)

/* ---- the clock, the callback, the super blocks ------------------------------ */

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define PAST_MAX ((time64_t)INT_MAX + 60) /* a minute after 2038-01-19T03:14:07Z */
#define RFC_POSTED 1452144972LL           /* 2016-01-07T05:36:12Z, in range */

static struct timespec64 clock_value;
static struct timespec64 fixed_now(void *ctx)
{
	(void)ctx;
	return clock_value;
}
static const struct fs_time_clock fixed_clock = { .now = fixed_now };

static void set_now(struct timespec64 now)
{
	clock_value = now;
	fs_time_set_clock(&fixed_clock);
}

static unsigned int bad_timestamp_calls;
static void count_bad_timestamp(struct super_block *sb)
{
	(void)sb;
	bad_timestamp_calls++;
}
static const struct super_operations counting_ops = { .bad_timestamp = count_bad_timestamp };

/* alloc_super() after RFC 03: 0..INT_MAX; @gran the file system's own. */
static struct super_block rfc_sb(uint32_t gran)
{
	struct super_block sb = { .s_time_min = FS_DEFAULT_MIN_TIMESTAMP,
				  .s_time_max = FS_DEFAULT_MAX_TIMESTAMP, .s_op = &counting_ops };

	sb_set_time_gran(&sb, gran);
	return sb;
}

/* What the hunks removed: timespec_trunc(current_kernel_time(), gran), CURRENT_TIME_SEC. */
static struct timespec64 orig_current_fs_time(const struct super_block *sb)
{
	return timespec64_trunc(fs_time_now(), sb->s_time_gran);
}

static struct timespec64 orig_current_time_sec(void)
{
	return TS(fs_time_now().tv_sec, 0);
}

static bool nsec_valid(long nsec) /* fs/utimes.c */
{
	return nsec >= 0 && nsec <= 999999999;
}

/* ---- RFC 06: fat_fill_inode() ----------------------------------------------- */

struct msdos_dir_entry {
	__le16 time, date, ctime, cdate, adate;
	u8 ctime_cs;
};

static __le16 fat_date(int year, int month, int day)
{
	return cpu_to_le16((u16)((year - 1980) << 9 | month << 5 | day));
}

static __le16 fat_clock(int hour, int min, int sec)
{
	return cpu_to_le16((u16)(hour << 11 | min << 5 | sec / 2));
}

/* ---- RFC 06: fat_time_fat2unix() where time_t is 32 bits (D20) ---------------- */

/*
 * RFC 06/15, fs/fat/misc.c: "+	long long second;" and "+	time_t day, leap_day,
 * month, year;".  The sum is Linux 4.4's, which no patch changes:
 *	second += (year * 365 + leap_day
 *		   + days_in_year[month] + day
 *		   + DAYS_DELTA) * SECS_PER_DAY;
 * days_in_year[] is "static time_t", SECS_PER_DAY an int: the product is a
 * time_t.  ILP32 gives it 32 bits; the kernel builds with -fno-strict-overflow,
 * so it wraps, which rfc06_day_seconds() computes in defined C.  tz=UTC.
 */
static int64_t rfc06_day_seconds(int64_t days, bool ilp32)
{
	return ilp32 ? (int64_t)(int32_t)((uint32_t)days * 86400u) : days * 86400;
}

static int64_t rfc06_fat2unix_utc(__le16 __time, __le16 __date, bool ilp32)
{
	static const int64_t days_in_year_44[16] = {
		0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 0, 0, 0,
	};
	u16 time = le16_to_cpu(__time), date = le16_to_cpu(__date);
	long long second;
	int64_t day, leap_day, month, year; /* time_t: every value fits 32 bits */

	year  = date >> 9;
	month = (date >> 5) & 0xf;
	month = month < 1 ? 1 : month;
	day   = (date & 0x1f) < 1 ? 0 : (date & 0x1f) - 1;

	leap_day = (year + 3) / 4;
	if (year > 120)			/* YEAR_2100 */
		leap_day--;
	if (!(year & 3) && year != 120 && month > 2)
		leap_day++;

	second =  (time & 0x1f) << 1;
	second += ((time >> 5) & 0x3f) * 60;
	second += (time >> 11) * 3600;
	second += rfc06_day_seconds(year * 365 + leap_day + days_in_year_44[month] + day
				    + (365 * 10 + 2), ilp32);
	return second;
}

static void test_fat2unix_ilp32(struct kunit *test)
{
	const struct msdos_sb_info utc = { .options = { .tz_set = 1, .isvfat = 1 } };
	static const struct { const char *name; int year; bool ilp32; bool wraps; } cases[] = {
		{ "fat_time_fat2unix (RFC 06), 32-bit time_t, 2040-01-01: wraps 2^32 s early (D20)", 2040, true, true },
		{ "fat_time_fat2unix (RFC 06), 32-bit time_t, 2037-01-01: in range, right", 2037, true, false },
		{ "fat_time_fat2unix (RFC 06), 64-bit time_t, 2040-01-01: right (time_t was 64 bits)", 2040, false, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		__le16 date = fat_date(cases[i].year, 1, 1), time = fat_clock(12, 0, 0);
		struct timespec64 want; /* mainline's: the sum cast to time64_t (src/fstime/fat_time.c) */

		fat_time_fat2unix(&utc, &want, time, date, 0);
		KUNIT_EXPECT_EQ(test, cases[i].name, "tv_sec",
				want.tv_sec - (cases[i].wraps ? (int64_t)1 << 32 : 0),
				rfc06_fat2unix_utc(time, date, cases[i].ilp32));
	}
}

/* RFC 06/15, fs/fat/inode.c, fat_fill_inode(): its time lines. */
static void rfc06_fat_fill_inode_times(struct inode *inode, const struct msdos_sb_info *sbi,
				       const struct msdos_dir_entry *de)
{
	struct inode_timespec mtime, ctime, atime;

	mtime = VFS_INODE_GET_XTIME(i_mtime, inode);
	fat_time_fat2unix(sbi, &mtime, de->time, de->date, 0);
	if (sbi->options.isvfat) {
		ctime = VFS_INODE_GET_XTIME(i_ctime, inode);
		fat_time_fat2unix(sbi,
				  &ctime,
				  de->ctime, de->cdate, de->ctime_cs);
		atime = VFS_INODE_GET_XTIME(i_atime, inode);
		fat_time_fat2unix(sbi, &atime,
				  0, de->adate, 0);
	} else {
	mtime = VFS_INODE_GET_XTIME(i_mtime, inode);
	VFS_INODE_SET_XTIME(i_atime, inode, mtime);
	VFS_INODE_SET_XTIME(i_ctime, inode, mtime);
	}
}

/* Linux 4.4, the lines RFC 06 removed. */
static void orig_fat_fill_inode_times(struct inode *inode, const struct msdos_sb_info *sbi,
				      const struct msdos_dir_entry *de)
{
	fat_time_fat2unix(sbi, &inode->i_mtime, de->time, de->date, 0);
	if (sbi->options.isvfat) {
		fat_time_fat2unix(sbi, &inode->i_ctime, de->ctime,
				  de->cdate, de->ctime_cs);
		fat_time_fat2unix(sbi, &inode->i_atime, 0, de->adate, 0);
	} else
		inode->i_ctime = inode->i_atime = inode->i_mtime;
}

struct fill_case {
	const char *name;
	int isvfat;
	bool rfc;
};

static const struct fill_case fill_cases[] = {
	{ "fat_fill_inode (RFC 06), vfat: the decoded times never reach the inode", 1, true },
	{ "fat_fill_inode (RFC 06), msdos: atime and ctime copy the recycled inode's mtime", 0, true },
	{ "fat_fill_inode (4.4), vfat: the inode holds the entry's times", 1, false },
	{ "fat_fill_inode (4.4), msdos: the inode holds the entry's mtime three times", 0, false },
};

static void test_fat_fill_inode(struct kunit *test)
{
	const struct msdos_dir_entry de = {
		.date = fat_date(2015, 6, 15), .time = fat_clock(12, 34, 56),
		.cdate = fat_date(2015, 6, 14), .ctime = fat_clock(8, 0, 0), .ctime_cs = 150,
		.adate = fat_date(2015, 6, 16),
	};
	/* A recycled inode: 4.4's inode_init_always() does not reset the times. */
	const struct timespec64 stale = TS(1234, 5678);

	for (size_t i = 0; i < ARRAY_SIZE(fill_cases); i++) {
		const struct fill_case *c = &fill_cases[i];
		const struct msdos_sb_info sbi = { .options = { .tz_set = 1, .isvfat = c->isvfat } };
		struct super_block sb = rfc_sb(NSEC_PER_SEC);
		struct inode node = { .i_sb = &sb, .i_atime = stale, .i_mtime = stale, .i_ctime = stale };
		struct timespec64 mtime, ctime, atime;

		fat_time_fat2unix(&sbi, &mtime, de.time, de.date, 0);
		fat_time_fat2unix(&sbi, &ctime, de.ctime, de.cdate, de.ctime_cs);
		fat_time_fat2unix(&sbi, &atime, 0, de.adate, 0);
		if (!c->isvfat)
			ctime = atime = mtime;
		if (c->rfc)
			rfc06_fat_fill_inode_times(&node, &sbi, &de);
		else
			orig_fat_fill_inode_times(&node, &sbi, &de);
		KUNIT_EXPECT_TS_EQ(test, c->name, "i_mtime", c->rfc ? stale : mtime, node.i_mtime);
		KUNIT_EXPECT_TS_EQ(test, c->name, "i_ctime", c->rfc ? stale : ctime, node.i_ctime);
		KUNIT_EXPECT_TS_EQ(test, c->name, "i_atime", c->rfc ? stale : atime, node.i_atime);
	}
}

/* ---- RFC 06: vfat_unlink(), do_msdos_rename() -------------------------------- */

static void test_vfat_unlink_stamps_dir(struct kunit *test)
{
	static const char rfc[] = "vfat_unlink (RFC 06): atime/mtime stamped on the directory, the "
				  "unlinked inode keeps its old ones";
	static const char orig[] = "vfat_unlink (4.4): the unlinked inode's atime/mtime stamped";
	struct super_block s = rfc_sb(NSEC_PER_SEC), *sb = &s;
	const struct timespec64 old_inode = TS(1000, 0), old_dir = TS(2000, 0), now_sec = TS(RFC_POSTED, 0);

	set_now(TS(RFC_POSTED, 123456789));
	{
		struct inode i = { .i_sb = sb, .i_atime = old_inode, .i_mtime = old_inode, .i_nlink = 1 };
		struct inode d = { .i_sb = sb, .i_atime = old_dir, .i_mtime = old_dir };
		struct inode *inode = &i, *dir = &d;
		struct inode_timespec now;

		/* RFC 06/15, fs/fat/namei_vfat.c, vfat_unlink() */
		inode->i_nlink = 0; /* clear_nlink(inode); */
		now = current_fs_time_sec(sb);
		VFS_INODE_SET_XTIME(i_atime, dir, now);
		VFS_INODE_SET_XTIME(i_mtime, dir, now);

		KUNIT_EXPECT_TS_EQ(test, rfc, "inode i_mtime", old_inode, inode->i_mtime);
		KUNIT_EXPECT_TS_EQ(test, rfc, "inode i_atime", old_inode, inode->i_atime);
		KUNIT_EXPECT_TS_EQ(test, rfc, "dir i_mtime", now_sec, dir->i_mtime);
		KUNIT_EXPECT_TS_EQ(test, rfc, "dir i_atime", now_sec, dir->i_atime);
	}
	{
		struct inode i = { .i_sb = sb, .i_atime = old_inode, .i_mtime = old_inode, .i_nlink = 1 };
		struct inode d = { .i_sb = sb, .i_atime = old_dir, .i_mtime = old_dir };
		struct inode *inode = &i, *dir = &d;

		/* Linux 4.4 */
		inode->i_nlink = 0;
		inode->i_mtime = inode->i_atime = orig_current_time_sec();

		KUNIT_EXPECT_TS_EQ(test, orig, "inode i_mtime", now_sec, inode->i_mtime);
		KUNIT_EXPECT_TS_EQ(test, orig, "inode i_atime", now_sec, inode->i_atime);
		KUNIT_EXPECT_TS_EQ(test, orig, "dir i_mtime (fat_remove_entries() sets it, not this line)",
				   old_dir, dir->i_mtime);
	}
	fs_time_set_clock(NULL);
}

static void test_msdos_rename_stamps_new_dir(struct kunit *test)
{
	static const char rfc[] = "do_msdos_rename (RFC 06), target replaced: new_dir's ctime set, "
				  "the replaced inode's kept";
	static const char orig[] = "do_msdos_rename (4.4), target replaced: the replaced inode's ctime set";
	struct super_block sb = rfc_sb(NSEC_PER_SEC);
	const struct timespec64 old = TS(1000, 0), ts = TS(RFC_POSTED, 0);
	const int is_dir = 0;

	{
		struct inode n = { .i_sb = &sb, .i_ctime = old, .i_nlink = 1 }, d = { .i_sb = &sb, .i_ctime = old };
		struct inode *new_inode = &n, *new_dir = &d;

		/* RFC 06/15, fs/fat/namei_msdos.c, do_msdos_rename() */
		if (new_inode) {
			new_inode->i_nlink--; /* drop_nlink(new_inode); */
			if (is_dir)
				new_inode->i_nlink--;
			VFS_INODE_SET_XTIME(i_ctime, new_dir, ts);
		}
		KUNIT_EXPECT_TS_EQ(test, rfc, "new_inode i_ctime", old, new_inode->i_ctime);
		KUNIT_EXPECT_TS_EQ(test, rfc, "new_dir i_ctime", ts, new_dir->i_ctime);
	}
	{
		struct inode n = { .i_sb = &sb, .i_ctime = old, .i_nlink = 1 }, d = { .i_sb = &sb, .i_ctime = old };
		struct inode *new_inode = &n, *new_dir = &d;

		/* Linux 4.4 */
		if (new_inode) {
			new_inode->i_nlink--;
			if (is_dir)
				new_inode->i_nlink--;
			new_inode->i_ctime = ts;
		}
		KUNIT_EXPECT_TS_EQ(test, orig, "new_inode i_ctime", ts, new_inode->i_ctime);
		KUNIT_EXPECT_TS_EQ(test, orig, "new_dir i_ctime", old, new_dir->i_ctime);
	}
}

/* ---- RFC 06: vfat create/rename write the entry from current_fs_time_sec() --- */

struct cs_case {
	const char *name;
	bool rfc;
	time64_t now;
	u8 ctime_cs;            /* written to the directory entry */
	struct timespec64 disk; /* the creation time the entry reads back as */
	struct timespec64 mem;  /* the inode's i_ctime after the setter */
};

static const struct cs_case cs_cases[] = {
	{ "vfat_create (RFC 06) past s_time_max: ctime_cs from tv_nsec = INT_MAX, the entry reads back "
	  "as 03:14:06.58, the inode holds 03:14:07",
	  true, PAST_MAX, 58, TS((time64_t)INT_MAX - 1, 580000000), TS(INT_MAX, 0) },
	{ "vfat_create (4.4) past 2038-01-19: CURRENT_TIME_SEC, the entry holds now",
	  false, PAST_MAX, 100, TS(PAST_MAX, 0), TS(PAST_MAX, 0) },
	{ "vfat_create (RFC 06) in range: the same entry as 4.4's",
	  true, RFC_POSTED, 0, TS(RFC_POSTED, 0), TS(RFC_POSTED, 0) },
	{ "vfat_create (4.4) in range", false, RFC_POSTED, 0, TS(RFC_POSTED, 0), TS(RFC_POSTED, 0) },
};

static void test_vfat_create_ctime_cs(struct kunit *test)
{
	const struct msdos_sb_info sbi = { .options = { .tz_set = 1, .isvfat = 1 } };

	for (size_t i = 0; i < ARRAY_SIZE(cs_cases); i++) {
		const struct cs_case *c = &cs_cases[i];
		struct super_block s = rfc_sb(NSEC_PER_SEC), *sb = &s;
		struct inode node = { .i_sb = sb }, *inode = &node;
		struct inode_timespec ts, back;
		struct msdos_dir_entry de = { 0 };

		set_now(TS(c->now, 0));
		bad_timestamp_calls = 0;
		/* vfat_create(): RFC 06 "ts = current_fs_time_sec(sb);", 4.4 "ts = CURRENT_TIME_SEC;" */
		ts = c->rfc ? current_fs_time_sec(sb) : orig_current_time_sec();
		/* vfat_add_entry() -> vfat_build_slots(): the short entry's creation time */
		fat_time_unix2fat(&sbi, &ts, &de.ctime, &de.cdate, &de.ctime_cs);
		if (c->rfc)
			VFS_INODE_SET_XTIME(i_ctime, inode, ts);
		else
			inode->i_ctime = ts;
		fat_time_fat2unix(&sbi, &back, de.ctime, de.cdate, de.ctime_cs);

		KUNIT_EXPECT_EQ(test, c->name, "ctime_cs", c->ctime_cs, de.ctime_cs);
		KUNIT_EXPECT_TS_EQ(test, c->name, "creation time read back", c->disk, back);
		KUNIT_EXPECT_TS_EQ(test, c->name, "inode i_ctime", c->mem, inode->i_ctime);
	}
	fs_time_set_clock(NULL);
}

/* ---- RFC 03 + 04: setattr_copy() loses the marker; pre-1970 utimes() (D3) ---- */

#define ATTR_MTIME (1 << 5)

struct iattr {
	unsigned int ia_valid;
	struct inode_timespec ia_mtime;
};

/* RFC 04/15, fs/attr.c, setattr_copy(): the mtime line. */
static void rfc04_setattr_copy(struct inode *inode, const struct iattr *attr)
{
	unsigned int ia_valid = attr->ia_valid;

	if (ia_valid & ATTR_MTIME)
		VFS_INODE_SET_XTIME(i_mtime, inode,
			fs_time_trunc(attr->ia_mtime, inode->i_sb));
}

/* Linux 4.4 */
static void orig_setattr_copy(struct inode *inode, const struct iattr *attr)
{
	unsigned int ia_valid = attr->ia_valid;

	if (ia_valid & ATTR_MTIME)
		inode->i_mtime = timespec64_trunc(attr->ia_mtime,
						inode->i_sb->s_time_gran);
}

struct setattr_case {
	const char *name;
	bool rfc, from_clock; /* ia_mtime from notify_change()'s now, else set by utimes() */
	struct timespec64 clock_or_time, stored;
	unsigned int bad_calls;
};

static const struct setattr_case setattr_cases[] = {
	{ "touch past s_time_max (RFC 03, 04): notify_change()'s current_fs_time() is clamped and marked, "
	  "setattr_copy()'s fs_time_trunc() range-checks it again and zeroes the marker: no ->bad_timestamp()",
	  true, true, TS(PAST_MAX, 250000000), TS(INT_MAX, 0), 0 },
	{ "touch past 2038-01-19 (4.4): now stored", false, true, TS(PAST_MAX, 250000000),
	  TS(PAST_MAX, 250000000), 0 },
	{ "utimes() to 1969-12-31 (RFC 03 default range, D3): stored as 1970-01-01",
	  true, false, TS(-86400, 0), TS(0, 0), 1 },
	{ "utimes() to 1969-12-31 (4.4): stored as given", false, false, TS(-86400, 0), TS(-86400, 0), 0 },
};

static void test_setattr_copy(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(setattr_cases); i++) {
		const struct setattr_case *c = &setattr_cases[i];
		struct super_block sb = rfc_sb(1);
		struct inode node = { .i_sb = &sb };
		struct iattr attr = { .ia_valid = ATTR_MTIME, .ia_mtime = c->clock_or_time };

		bad_timestamp_calls = 0;
		if (c->from_clock) { /* notify_change(): "now = current_fs_time(inode->i_sb);" */
			set_now(c->clock_or_time);
			attr.ia_mtime = c->rfc ? current_fs_time(&sb) : orig_current_fs_time(&sb);
		}
		if (c->rfc)
			rfc04_setattr_copy(&node, &attr);
		else
			orig_setattr_copy(&node, &attr);
		KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_mtime", c->stored, node.i_mtime);
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls", c->bad_calls, bad_timestamp_calls);
	}
	fs_time_set_clock(NULL);
	{
		/* The same marked time through the setter alone (generic_update_time()) is reported. */
		static const char name[] = "the same marked now through VFS_INODE_SET_XTIME() alone "
					   "(generic_update_time, RFC 04): reported once";
		struct super_block sb = rfc_sb(1);
		struct inode node = { .i_sb = &sb }, *inode = &node;
		struct inode_timespec now;

		set_now(TS(PAST_MAX, 250000000));
		bad_timestamp_calls = 0;
		now = current_fs_time(&sb);
		VFS_INODE_SET_XTIME(i_mtime, inode, now);
		fs_time_set_clock(NULL);
		KUNIT_EXPECT_EQ(test, name, "->bad_timestamp() calls", 1, bad_timestamp_calls);
	}
}

/* ---- RFC 04: atime_needs_update() after s_time_max -------------------------- */

/* RFC 04/15, fs/inode.c (mnt->mnt_flags & MNT_RELATIME as @relatime). */
static int rfc04_relatime_need_update(bool relatime, struct inode *inode,
				      struct inode_timespec now)
{

	struct inode_timespec ctime;
	struct inode_timespec mtime;
	struct inode_timespec atime;

	if (!relatime)
		return 1;

	atime = VFS_INODE_GET_XTIME(i_atime, inode);
	ctime = VFS_INODE_GET_XTIME(i_ctime, inode);
	mtime = VFS_INODE_GET_XTIME(i_mtime, inode);

	if (inode_timespec_compare(&mtime, &atime) >= 0)
		return 1;
	if (inode_timespec_compare(&ctime, &atime) >= 0)
		return 1;
	if ((long)(now.tv_sec - atime.tv_sec) >= 24*60*60)
		return 1;
	return 0;
}

static bool rfc04_atime_needs_update(bool relatime, struct inode *inode)
{
	struct inode_timespec now;
	struct inode_timespec atime;

	now = current_fs_time(inode->i_sb);
	if (!rfc04_relatime_need_update(relatime, inode, now))
		return false;

	atime = VFS_INODE_GET_XTIME(i_atime, inode);
	if (inode_timespec_equal(&atime, &now))
		return false;

	return true;
}

/*
 * RFC 04: touch_atime() -> update_time() -> generic_update_time(), S_ATIME.
 * Return: true when it updated (and dirtied) the inode.
 */
static bool rfc04_touch_atime(bool relatime, struct inode *inode)
{
	struct inode_timespec now;

	if (!rfc04_atime_needs_update(relatime, inode))
		return false;
	now = current_fs_time(inode->i_sb);
	VFS_INODE_SET_XTIME(i_atime, inode, now);
	return true;
}

/* Linux 4.4 */
static int orig_relatime_need_update(bool relatime, struct inode *inode, struct timespec64 now)
{
	if (!relatime)
		return 1;
	if (timespec64_compare(&inode->i_mtime, &inode->i_atime) >= 0)
		return 1;
	if (timespec64_compare(&inode->i_ctime, &inode->i_atime) >= 0)
		return 1;
	if ((long)(now.tv_sec - inode->i_atime.tv_sec) >= 24*60*60)
		return 1;
	return 0;
}

static bool orig_touch_atime(bool relatime, struct inode *inode)
{
	struct timespec64 now = orig_current_fs_time(inode->i_sb);

	if (!orig_relatime_need_update(relatime, inode, now))
		return false;
	if (timespec64_equal(&inode->i_atime, &now))
		return false;
	now = orig_current_fs_time(inode->i_sb);
	inode->i_atime = now;
	return true;
}

struct atime_case {
	const char *name;
	bool rfc, relatime;
	time64_t now;
	unsigned int updates, bad_calls; /* in 3 reads within one tick */
};

static const struct atime_case atime_cases[] = {
	{ "atime_needs_update (RFC 04), strictatime, past s_time_max: now (nsec = marker) never equals "
	  "the stored atime (nsec 0): every read updates", true, false, PAST_MAX, 3, 3 },
	{ "atime_needs_update (4.4), strictatime, past 2038-01-19: one update", false, false, PAST_MAX, 1, 0 },
	{ "atime_needs_update (RFC 04), relatime, past s_time_max: atime, mtime, ctime all clamped equal, "
	  "mtime >= atime: every read updates", true, true, PAST_MAX, 3, 3 },
	{ "atime_needs_update (4.4), relatime, past 2038-01-19: one update", false, true, PAST_MAX, 1, 0 },
	{ "atime_needs_update (RFC 04), strictatime, in range: one update", true, false, RFC_POSTED, 1, 0 },
};

static void test_atime_needs_update(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(atime_cases); i++) {
		const struct atime_case *c = &atime_cases[i];
		struct super_block sb = rfc_sb(1);
		/* Written before the read: mtime/ctime as the RFC stores a write past the range. */
		const struct timespec64 written = c->now > INT_MAX ? TS(INT_MAX, 0) : TS(c->now - 10, 0);
		struct inode node = { .i_sb = &sb, .i_atime = TS(c->now - 100, 0),
				      .i_mtime = written, .i_ctime = written };
		unsigned int updates = 0;

		set_now(TS(c->now, 500000000));
		bad_timestamp_calls = 0;
		for (int read = 0; read < 3; read++)
			updates += c->rfc ? rfc04_touch_atime(c->relatime, &node)
					  : orig_touch_atime(c->relatime, &node);
		KUNIT_EXPECT_EQ(test, c->name, "atime updates in 3 reads", c->updates, updates);
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls", c->bad_calls, bad_timestamp_calls);
	}
	fs_time_set_clock(NULL);
}

/* ---- RFC 03/04: btrfs and xfs store the marker raw ----------------------------- */

#define S_ATIME 1
#define S_MTIME 2
#define S_CTIME 4

/*
 * Linux 4.4, fs/btrfs/inode.c, btrfs_update_time() (no RFC patch touches it):
 *	if (flags & S_CTIME)
 *		inode->i_ctime = *now;
 *	if (flags & S_MTIME)
 *		inode->i_mtime = *now;
 *	if (flags & S_ATIME)
 *		inode->i_atime = *now;
 *	return btrfs_dirty_inode(inode);
 */
static int btrfs_update_time(struct inode *inode, struct timespec64 *now, int flags)
{
	if (flags & S_CTIME)
		inode->i_ctime = *now;
	if (flags & S_MTIME)
		inode->i_mtime = *now;
	if (flags & S_ATIME)
		inode->i_atime = *now;
	return 0;
}

/*
 * Linux 4.4, fs/xfs/xfs_iops.c, xfs_vn_update_time() (no RFC patch touches
 * it) stores *now in the VFS inode ("inode->i_mtime = *now;") and logs the
 * inode; XFS's on-disk inode keeps each timestamp as two 32-bit fields (struct
 * xfs_timestamp: t_sec, t_nsec), copied from those values: di_mtime here
 * stands for that copy.
 */
struct xfs_ictimestamp {
	int32_t t_sec, t_nsec;
};

struct xfs_inode {
	struct inode i_vnode;
	struct {
		struct xfs_ictimestamp di_mtime;
	} i_d;
};

static int xfs_vn_update_time(struct xfs_inode *ip, struct timespec64 *now, int flags)
{
	struct inode *inode = &ip->i_vnode;

	if (flags & S_MTIME) {
		inode->i_mtime = *now;
		ip->i_d.di_mtime.t_sec = (int32_t)now->tv_sec;
		ip->i_d.di_mtime.t_nsec = (int32_t)now->tv_nsec;
	}
	return 0;
}

enum clock_source { RFC03_CURRENT_FS_TIME, ORIG_CURRENT_FS_TIME, MAINLINE_CURRENT_TIME };

struct raw_case {
	const char *name;
	enum clock_source source;
	time64_t now;
	struct timespec64 stored; /* btrfs i_mtime; xfs i_mtime and di_mtime the same */
};

static const struct raw_case raw_cases[] = {
	{ "file_update_time -> ->update_time (RFC 03/04) past s_time_max: btrfs and xfs store "
	  "tv_nsec = INT_MAX, xfs on disk too; no ->bad_timestamp()",
	  RFC03_CURRENT_FS_TIME, PAST_MAX, TS(INT_MAX, FS_TIMESTAMP_NSEC_NOT_VALID) },
	{ "file_update_time -> ->update_time (4.4) past 2038-01-19: now stored",
	  ORIG_CURRENT_FS_TIME, PAST_MAX, TS(PAST_MAX, 500000000) },
	{ "file_update_time -> ->update_time (v5.4+ timestamp_truncate, range 0..INT_MAX): clamped, "
	  "tv_nsec 0", MAINLINE_CURRENT_TIME, PAST_MAX, TS(INT_MAX, 0) },
	{ "file_update_time -> ->update_time (RFC 03/04) in range: now stored",
	  RFC03_CURRENT_FS_TIME, RFC_POSTED, TS(RFC_POSTED, 500000000) },
};

static void test_update_time_stores_marker(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(raw_cases); i++) {
		const struct raw_case *c = &raw_cases[i];
		struct super_block sb = rfc_sb(1);
		struct inode btrfs = { .i_sb = &sb };
		struct xfs_inode xfs = { .i_vnode = { .i_sb = &sb } };
		struct timespec64 now;

		set_now(TS(c->now, 500000000));
		bad_timestamp_calls = 0;
		/* file_update_time(): "now = current_fs_time(inode->i_sb);" then update_time(). */
		switch (c->source) {
		case RFC03_CURRENT_FS_TIME: now = current_fs_time(&sb); break;
		case ORIG_CURRENT_FS_TIME: now = orig_current_fs_time(&sb); break;
		default: now = timestamp_truncate(fs_time_now(), &sb); break;
		}
		btrfs_update_time(&btrfs, &now, S_MTIME | S_CTIME);
		xfs_vn_update_time(&xfs, &now, S_MTIME);
		KUNIT_EXPECT_TS_EQ(test, c->name, "btrfs i_mtime", c->stored, btrfs.i_mtime);
		KUNIT_EXPECT_TS_EQ(test, c->name, "xfs i_mtime", c->stored, xfs.i_vnode.i_mtime);
		KUNIT_EXPECT_EQ(test, c->name, "xfs di_mtime.t_nsec (on disk)", c->stored.tv_nsec,
				xfs.i_d.di_mtime.t_nsec);
		KUNIT_EXPECT_EQ(test, c->name, "stat()'s tv_nsec accepted back by utimensat()",
				c->source != RFC03_CURRENT_FS_TIME || c->now <= INT_MAX,
				nsec_valid(btrfs.i_mtime.tv_nsec));
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls", 0, bad_timestamp_calls);
	}
	fs_time_set_clock(NULL);
}

/* RFC 04/15, fs/locks.c, lease_get_mtime(): what nfsd encodes as the file's mtime. */
static void lease_get_mtime(struct inode *inode, struct inode_timespec *time, bool has_lease)
{
	if (has_lease)
		*time = current_fs_time(inode->i_sb);
	else
		*time = VFS_INODE_GET_XTIME(i_mtime, inode);
}

static void test_lease_get_mtime_marker(struct kunit *test)
{
	static const char rfc[] = "lease_get_mtime (RFC 03/04), write lease held, past s_time_max: nfsd "
				  "gets tv_nsec = INT_MAX";
	static const char orig[] = "lease_get_mtime (4.4), write lease held, past 2038-01-19: now";
	struct super_block sb = rfc_sb(1);
	struct inode node = { .i_sb = &sb };
	struct timespec64 time;

	set_now(TS(PAST_MAX, 500000000));
	lease_get_mtime(&node, &time, true);
	KUNIT_EXPECT_TS_EQ(test, rfc, "time", TS(INT_MAX, FS_TIMESTAMP_NSEC_NOT_VALID), time);
	KUNIT_EXPECT_EQ(test, rfc, "a valid nfstime nseconds", false, nsec_valid(time.tv_nsec));
	time = orig_current_fs_time(&sb); /* 4.4: "*time = current_fs_time(inode->i_sb);" */
	KUNIT_EXPECT_TS_EQ(test, orig, "time", TS(PAST_MAX, 500000000), time);
	fs_time_set_clock(NULL);
}

/* ---- RFC 05: cifs revalidation against a clamped mtime --------------------- */

struct cifs_fattr {
	struct inode_timespec cf_mtime;
	u64 cf_eof;
};

struct cifsInodeInfo {
	struct inode vfs_inode;
	u64 server_eof;
	unsigned int invalidations; /* set_bit(CIFS_INO_INVALID_MAPPING, &cifs_i->flags) */
};

/* RFC 05/15, fs/cifs/inode.c: cifs_revalidate_cache() (no oplock, not I_NEW) and cifs_fattr_to_inode(). */
static void rfc05_cifs_revalidate_cache(struct cifsInodeInfo *cifs_i, struct cifs_fattr *fattr)
{
	struct inode *inode = &cifs_i->vfs_inode;
	struct inode_timespec mtime;

	mtime = VFS_INODE_GET_XTIME(i_mtime, inode);
	if (inode_timespec_equal(&mtime, &fattr->cf_mtime)
		&& cifs_i->server_eof == fattr->cf_eof) {
		 return;
	 }
	cifs_i->invalidations++;
}

static void rfc05_cifs_fattr_to_inode(struct cifsInodeInfo *cifs_i, struct cifs_fattr *fattr)
{
	struct inode *inode = &cifs_i->vfs_inode;
	struct super_block *sb = inode->i_sb;

	rfc05_cifs_revalidate_cache(cifs_i, fattr);
	VFS_INODE_SET_XTIME(i_mtime, inode,
		fs_time_trunc(fattr->cf_mtime, sb));
	cifs_i->server_eof = fattr->cf_eof;
}

/* Linux 4.4 */
static void orig_cifs_fattr_to_inode(struct cifsInodeInfo *cifs_i, struct cifs_fattr *fattr)
{
	struct inode *inode = &cifs_i->vfs_inode;

	if (!(timespec64_equal(&inode->i_mtime, &fattr->cf_mtime) &&
	      cifs_i->server_eof == fattr->cf_eof))
		cifs_i->invalidations++;
	inode->i_mtime = fattr->cf_mtime;
	cifs_i->server_eof = fattr->cf_eof;
}

struct cifs_case {
	const char *name;
	bool rfc;
	struct timespec64 server_mtime;
	unsigned int invalidations; /* in 3 revalidations of an unchanged file */
};

static const struct cifs_case cifs_cases[] = {
	{ "cifs_revalidate_cache (RFC 05), server mtime 2040-01-01: the inode holds it clamped, never "
	  "equal: the page cache is dropped on every revalidation", true, TS(2208988800LL, 1234500), 3 },
	{ "cifs_revalidate_cache (RFC 05), server mtime 1960-01-01: the same", true, TS(-315619200LL, 0), 3 },
	{ "cifs_revalidate_cache (RFC 05), server mtime 2016: unchanged is unchanged", true,
	  TS(RFC_POSTED, 1234500), 0 },
	{ "cifs_revalidate_cache (4.4), server mtime 2040-01-01: unchanged is unchanged", false,
	  TS(2208988800LL, 1234500), 0 },
	{ "cifs_revalidate_cache (4.4), server mtime 1960-01-01: unchanged is unchanged", false,
	  TS(-315619200LL, 0), 0 },
};

static void test_cifs_revalidate(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(cifs_cases); i++) {
		const struct cifs_case *c = &cifs_cases[i];
		struct super_block sb = rfc_sb(100); /* cifs_read_super(): s_time_gran = 100 */
		struct cifsInodeInfo cifs_i = { .vfs_inode = { .i_sb = &sb } };
		struct cifs_fattr fattr = { .cf_mtime = c->server_mtime, .cf_eof = 4096 };

		struct inode *inode = &cifs_i.vfs_inode;

		/* The first fill (I_NEW: cifs_revalidate_cache() returns early), then three revalidations. */
		if (c->rfc)
			VFS_INODE_SET_XTIME(i_mtime, inode, fs_time_trunc(fattr.cf_mtime, &sb));
		else
			inode->i_mtime = fattr.cf_mtime;
		cifs_i.server_eof = fattr.cf_eof;
		for (int n = 0; n < 3; n++) {
			if (c->rfc)
				rfc05_cifs_fattr_to_inode(&cifs_i, &fattr);
			else
				orig_cifs_fattr_to_inode(&cifs_i, &fattr);
		}
		KUNIT_EXPECT_EQ(test, c->name, "mapping invalidations", c->invalidations, cifs_i.invalidations);
	}
}

/* ---- RFC 05: cnvrtDosUnixTm(), month 0 --------------------------------------- */

/*
 * The index cnvrtDosUnixTm() reads total_days_of_prev_months[] at, for the
 * SMB_DATE's 4-bit Month: 4.4 "int ... month" against RFC 05 "unsigned int
 * min, days, month, year;", both after "if (month > 12) month = 12;
 * month -= 1;".  Only the index is computed: reading the array there is the
 * out-of-bounds access itself.
 */
static long long orig_month_index(unsigned int field)
{
	int month = (int)field;

	if (month > 12)
		month = 12;
	month -= 1;
	return month;
}

static long long rfc05_month_index(unsigned int field)
{
	unsigned int month = field;

	if (month > 12)
		month = 12;
	month -= 1;
	return month;
}

static void test_cnvrt_dos_month0(struct kunit *test)
{
	static const char rfc[] = "cnvrtDosUnixTm (RFC 05), Month 0 from the server: index UINT_MAX "
				  "(16 GiB past the array on LP64)";
	static const char orig[] = "cnvrtDosUnixTm (4.4), Month 0: index -1 (the int just before the array)";
	static const char valid[] = "cnvrtDosUnixTm, Month 1..12: the same index before and after";

	KUNIT_EXPECT_EQ(test, rfc, "index", (long long)UINT_MAX, rfc05_month_index(0));
	KUNIT_EXPECT_EQ(test, orig, "index", -1, orig_month_index(0));
	for (unsigned int m = 1; m <= 15; m++)
		KUNIT_EXPECT_EQ(test, valid, "index", orig_month_index(m), rfc05_month_index(m));
}

/* ---- RFC 07: swap_inode_data() swaps ctime ----------------------------------- */

static void memswap(void *a, void *b, size_t len)
{
	unsigned char *x = a, *y = b;

	for (size_t i = 0; i < len; i++) {
		unsigned char t = x[i];

		x[i] = y[i];
		y[i] = t;
	}
}

static void test_swap_inode_data(struct kunit *test)
{
	static const char rfc[] = "swap_inode_data (RFC 07): ctime swapped too";
	static const char orig[] = "swap_inode_data (4.4): atime and mtime swapped, ctime not";
	static const char caller[] = "swap_inode_boot_loader (RFC 07 and 4.4): both ctimes set to now right "
				     "after: no difference through EXT4_IOC_SWAP_BOOT";
	struct super_block sb = rfc_sb(1);
	const struct timespec64 c1 = TS(100, 1), c2 = TS(200, 2), now = TS(RFC_POSTED, 0);
	struct inode a = { .i_sb = &sb, .i_ctime = c1 }, b = { .i_sb = &sb, .i_ctime = c2 };
	struct inode oa = a, ob = b;
	struct inode *inode1 = &a, *inode2 = &b;

	/* RFC 07/15, fs/ext4/ioctl.c */
	VFS_INODE_SWAP_XTIME(i_ctime, inode1, inode2);
	VFS_INODE_SWAP_XTIME(i_atime, inode1, inode2);
	VFS_INODE_SWAP_XTIME(i_mtime, inode1, inode2);
	/* Linux 4.4 */
	memswap(&oa.i_atime, &ob.i_atime, sizeof(oa.i_atime));
	memswap(&oa.i_mtime, &ob.i_mtime, sizeof(oa.i_mtime));

	KUNIT_EXPECT_TS_EQ(test, rfc, "inode1 i_ctime", c2, a.i_ctime);
	KUNIT_EXPECT_TS_EQ(test, rfc, "inode2 i_ctime", c1, b.i_ctime);
	KUNIT_EXPECT_TS_EQ(test, orig, "inode1 i_ctime", c1, oa.i_ctime);
	KUNIT_EXPECT_TS_EQ(test, orig, "inode2 i_ctime", c2, ob.i_ctime);

	/* swap_inode_boot_loader(): "inode->i_ctime = inode_bl->i_ctime = ext4_current_time(inode);" */
	a.i_ctime = b.i_ctime = oa.i_ctime = ob.i_ctime = now;
	KUNIT_EXPECT_TS_EQ(test, caller, "inode i_ctime, RFC against 4.4", oa.i_ctime, a.i_ctime);
	KUNIT_EXPECT_TS_EQ(test, caller, "inode_bl i_ctime, RFC against 4.4", ob.i_ctime, b.i_ctime);
}

int main(void)
{
	struct kunit test = { .suite = "rfc_seed_defects_test" };

	test_fat_fill_inode(&test);
	test_vfat_unlink_stamps_dir(&test);
	test_msdos_rename_stamps_new_dir(&test);
	test_vfat_create_ctime_cs(&test);
	test_setattr_copy(&test);
	test_atime_needs_update(&test);
	test_update_time_stores_marker(&test);
	test_lease_get_mtime_marker(&test);
	test_cifs_revalidate(&test);
	test_cnvrt_dos_month0(&test);
	test_swap_inode_data(&test);
	test_fat2unix_ilp32(&test);
	return kunit_finish(&test);
}
