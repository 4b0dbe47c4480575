// SPDX-License-Identifier: MIT
/*
 * rfc_setattr_test.c - what RFC 03/15's accessor does on the setattr path:
 * "But, the accessors can detect a clamped timestamp while saving the
 * timestamps into inodes."
 *
 * RFC 04/15's notify_change() takes now = current_fs_time(inode->i_sb) for
 * every timestamp the caller did not set (chmod, chown, touch without a time:
 * ia_ctime always, ia_atime/ia_mtime without ATTR_{A,M}TIME_SET).
 * current_fs_time() is fs_time_trunc(), which past s_time_max clamps the
 * seconds and marks the value (tv_nsec = FS_TIMESTAMP_NSEC_NOT_VALID, INT_MAX)
 * and returns it unmodified.  setattr_copy() then stores
 * VFS_INODE_SET_XTIME(x, inode, fs_time_trunc(attr->ia_x, inode->i_sb)): the
 * second fs_time_trunc() finds the seconds in range and the nanoseconds out
 * of range and sets them to 0, so the value the setter receives is no longer
 * marked; the setter stores (s_time_max, 0) and never calls ->bad_timestamp().
 * Only a time the caller gave (utimes() with ATTR_MTIME_SET past the range)
 * reaches the setter clamped once, and is detected.  Both of RFC 03/15's
 * setters (the CONFIG_FS_USES_64BIT_TIME one and the #else one) behave so.
 *
 * The suite's port of the RFC code is src/fstime (fs_time_trunc(),
 * current_fs_time(), is_fs_timestamp_bad(), mount's check); the two setters
 * and the two RFC 04/15 functions are transcribed below (renamed, iattr
 * reduced to the fields they use).  Mainline since v5.4 clamps in
 * timestamp_truncate() and keeps a valid tv_nsec: no marker, nothing to lose.
 * If the RFC's accessor did detect the touch past the range, the expected
 * ->bad_timestamp() counts below would fail.
 */
#include <limits.h>

#include "fs_time.h"
#include "inode.h"
#include "kunit.h"

#include "rfc03_setter.h"

/* RFC 03/15, the #else setter (struct timespec members), on a stand-in inode. */
#define RFC03_ELSE_VFS_INODE_SET_XTIME(xtime, inode, ts)		\
	do {								\
		struct super_block *__sb = inode->i_sb;			\
		(inode)->xtime = (ts);					\
		if (unlikely(is_fs_timestamp_bad((inode)->xtime))) {	\
			(inode)->xtime.tv_nsec = 0;			\
			if (__sb->s_op->bad_timestamp)			\
				__sb->s_op->bad_timestamp(__sb);	\
		}							\
	} while (0)

struct else_inode {
	struct timespec64 i_atime, i_mtime, i_ctime;
	struct super_block *i_sb;
};

#define ATTR_ATIME 16
#define ATTR_MTIME 32
#define ATTR_CTIME 64
#define ATTR_ATIME_SET 128
#define ATTR_MTIME_SET 256

struct iattr {
	unsigned int ia_valid;
	struct timespec64 ia_atime, ia_mtime, ia_ctime;
};

/* RFC 04/15 fs/attr.c notify_change(): the part that fills the times. */
static void rfc04_notify_change_times(const struct super_block *sb, struct iattr *attr)
{
	struct inode_timespec now = current_fs_time(sb);
	unsigned int ia_valid = attr->ia_valid;

	attr->ia_ctime = now;
	if (!(ia_valid & ATTR_ATIME_SET))
		attr->ia_atime = now;
	if (!(ia_valid & ATTR_MTIME_SET))
		attr->ia_mtime = now;
}

/* RFC 04/15 fs/attr.c setattr_copy(): the timestamps, with either setter. */
#define RFC04_SETATTR_COPY_TIMES(SET, inode, attr)					\
	do {										\
		if ((attr)->ia_valid & ATTR_ATIME)					\
			SET(i_atime, inode, fs_time_trunc((attr)->ia_atime, (inode)->i_sb));	\
		if ((attr)->ia_valid & ATTR_MTIME)					\
			SET(i_mtime, inode, fs_time_trunc((attr)->ia_mtime, (inode)->i_sb));	\
		if ((attr)->ia_valid & ATTR_CTIME)					\
			SET(i_ctime, inode, fs_time_trunc((attr)->ia_ctime, (inode)->i_sb));	\
	} while (0)

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })

static unsigned int bad_timestamp_calls;
static void count_bad_timestamp(struct super_block *sb)
{
	(void)sb;
	bad_timestamp_calls++;
}
static int refuse_mount(struct super_block *sb)
{
	(void)sb;
	return -22;
}
static const struct super_operations counting_ops = { .bad_timestamp = count_bad_timestamp,
						       .bad_timestamp_mount = refuse_mount };

static struct timespec64 fixed_now(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

/* RFC 03/15's alloc_super() range (0..INT_MAX) with 1 ns granularity. */
static struct super_block rfc_sb(void)
{
	struct super_block sb = { .s_time_min = FS_DEFAULT_MIN_TIMESTAMP,
				  .s_time_max = FS_DEFAULT_MAX_TIMESTAMP, .s_op = &counting_ops };

	sb_set_time_gran(&sb, 1);
	return sb;
}

struct setattr_case {
	const char *name;
	struct timespec64 now;		/* the clock */
	unsigned int ia_valid;
	struct timespec64 ia_mtime;	/* the caller's, when ATTR_MTIME_SET */
	struct timespec64 mtime, ctime;	/* stored (where ia_valid sets them) */
	unsigned int bad_calls;		/* ->bad_timestamp() calls, both setters alike */
};

static const struct setattr_case setattr_cases[] = {
	{ "chmod past s_time_max: ctime = now, clamped once in notify_change(), the marker reset "
	  "to 0 by setattr_copy()'s fs_time_trunc(): stored (INT_MAX, 0), never reported",
	  TS((time64_t)INT_MAX + 3600, 500), ATTR_CTIME, TS(0, 0), TS(0, 0), TS(INT_MAX, 0), 0 },
	{ "touch past s_time_max (utimes(NULL)): a, m, ctime = now: three stores, none reported",
	  TS((time64_t)INT_MAX + 3600, 500), ATTR_ATIME | ATTR_MTIME | ATTR_CTIME, TS(0, 0),
	  TS(INT_MAX, 0), TS(INT_MAX, 0), 0 },
	{ "utimes() with atime and mtime past s_time_max, clock in range: each clamped once, the "
	  "setter sees the marker: reported twice (atime, mtime)",
	  TS(1000, 0), ATTR_ATIME | ATTR_MTIME | ATTR_CTIME | ATTR_ATIME_SET | ATTR_MTIME_SET,
	  TS((time64_t)INT_MAX + 60, 7), TS(INT_MAX, 0), TS(1000, 0), 2 },
	{ "touch in range: stored as given, nothing reported",
	  TS(1000, 123456789), ATTR_ATIME | ATTR_MTIME | ATTR_CTIME, TS(0, 0), TS(1000, 123456789),
	  TS(1000, 123456789), 0 },
};

static void test_setattr_path(struct kunit *test)
{
	for (size_t i = 0; i < sizeof(setattr_cases) / sizeof(setattr_cases[0]); i++) {
		const struct setattr_case *c = &setattr_cases[i];
		const struct fs_time_clock clock = { .now = fixed_now, .ctx = (void *)&c->now };
		struct super_block sb = rfc_sb();
		struct inode node = { .i_sb = &sb };
		struct inode *inode = &node;
		struct else_inode other = { .i_sb = &sb };
		struct else_inode *einode = &other;
		struct iattr attr = { .ia_valid = c->ia_valid, .ia_atime = c->ia_mtime, .ia_mtime = c->ia_mtime };

		fs_time_set_clock(&clock);
		rfc04_notify_change_times(&sb, &attr);
		fs_time_set_clock(NULL);

		bad_timestamp_calls = 0;
		RFC04_SETATTR_COPY_TIMES(RFC03_VFS_INODE_SET_XTIME, inode, &attr);
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls, RFC 03 #ifdef setter", c->bad_calls,
				bad_timestamp_calls);
		if (c->ia_valid & ATTR_MTIME)
			KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_mtime (#ifdef setter)", c->mtime,
					   TS(inode->i_mtime_sec, inode->i_mtime_nsec));
		if (c->ia_valid & ATTR_CTIME)
			KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_ctime (#ifdef setter)", c->ctime,
					   TS(inode->i_ctime_sec, inode->i_ctime_nsec));

		bad_timestamp_calls = 0;
		RFC04_SETATTR_COPY_TIMES(RFC03_ELSE_VFS_INODE_SET_XTIME, einode, &attr);
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls, RFC 03 #else setter", c->bad_calls,
				bad_timestamp_calls);
		if (c->ia_valid & ATTR_MTIME)
			KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_mtime (#else setter)", c->mtime, einode->i_mtime);
		if (c->ia_valid & ATTR_CTIME)
			KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_ctime (#else setter)", c->ctime, einode->i_ctime);
	}
}

/* The mechanism alone: fs_time_trunc() of its own result drops the marker. */
static void test_second_range_check_drops_the_marker(struct kunit *test)
{
	static const char name[] = "fs_time_trunc() twice past s_time_max: marked once, 0 nsec (unmarked) twice";
	struct super_block sb = rfc_sb();
	struct timespec64 once = fs_time_trunc(TS((time64_t)INT_MAX + 1, 0), &sb);
	struct timespec64 twice = fs_time_trunc(once, &sb);

	KUNIT_EXPECT_TS_EQ(test, name, "once", TS(INT_MAX, FS_TIMESTAMP_NSEC_NOT_VALID), once);
	KUNIT_EXPECT_EQ(test, name, "is_fs_timestamp_bad(once)", -1, is_fs_timestamp_bad(once));
	KUNIT_EXPECT_TS_EQ(test, name, "twice", TS(INT_MAX, 0), twice);
	KUNIT_EXPECT_EQ(test, name, "is_fs_timestamp_bad(twice)", 0, is_fs_timestamp_bad(twice));
}

/* v5.4's timestamp_truncate() clamps to the same second and keeps tv_nsec valid (no marker). */
static void test_mainline_keeps_a_valid_nsec(struct kunit *test)
{
	static const char name[] = "timestamp_truncate() (v5.4) past s_time_max: (s_time_max, 0), a valid tv_nsec";
	struct super_block sb = rfc_sb();
	struct timespec64 t = timestamp_truncate(TS((time64_t)INT_MAX + 1, 999999999), &sb);

	KUNIT_EXPECT_TS_EQ(test, name, "clamped", TS(INT_MAX, 0), t);
	KUNIT_EXPECT_TRUE(test, name, t.tv_nsec >= 0 && t.tv_nsec < NSEC_PER_SEC);
}

/*
 * When clamping starts: RFC 03/15's mount_fs() asks ->bad_timestamp_mount only
 * when current_fs_time() is already out of range; in range, the mount goes on
 * and every later store is clamped (cover letter 7.2.1 b: "Timestamps start
 * getting clamped after the filesystem is mounted.").
 */
static void test_mount_check(struct kunit *test)
{
	static const struct { const char *name; struct timespec64 now; int rc; } cases[] = {
		{ "mount in range: no callback, the mount proceeds", TS(1000, 0), 0 },
		{ "mount past s_time_max: ->bad_timestamp_mount decides (here it refuses)",
		  TS((time64_t)INT_MAX + 1, 0), -22 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fs_time_clock clock = { .now = fixed_now, .ctx = (void *)&cases[i].now };
		struct super_block sb = rfc_sb();

		fs_time_set_clock(&clock);
		KUNIT_EXPECT_EQ(test, cases[i].name, "fs_mount_time_check()", cases[i].rc, fs_mount_time_check(&sb));
		fs_time_set_clock(NULL);
	}
}

int main(void)
{
	struct kunit test = { .suite = "rfc_setattr_test" };

	test_setattr_path(&test);
	test_second_range_check_drops_the_marker(&test);
	test_mainline_keeps_a_valid_nsec(&test);
	test_mount_check(&test);
	return kunit_finish(&test);
}
