// SPDX-License-Identifier: MIT
/*
 * rfc_defects_test.c - defects the January 2016 RFC's own patches show,
 * reproduced on the RFC's own layout (v4_4/scalar: RFC 02/15's time64_t
 * i_{a,m,c}time_sec then 32-bit i_{a,m,c}time_nsec) with the RFC's macros
 * transcribed verbatim below (only renamed, so that they sit beside the
 * suite's own VFS_INODE_*_XTIME() of layouts/inode.h, which evaluate their
 * argument once).
 *
 *  1. RFC 03/15's setter evaluates its argument twice: once stored
 *     ("struct inode_timespec __ts = (ts64);") and once checked
 *     ("is_fs_timestamp_bad(ts64)").  RFC 04/15's setattr_copy() passes
 *     fs_time_trunc(...), which then runs twice; simple_set_acl() passes
 *     current_fs_time(inode->i_sb), which reads the clock twice, so the value
 *     checked is not the value stored: across s_time_max a valid time is
 *     stored with nsec 0 and ->bad_timestamp() fires; with the clock stepped
 *     back the clamp marker (INT_MAX) is stored as tv_nsec and nothing fires,
 *     against RFC 03's "Inodes that are saved in memory and on disk always
 *     have valid timestamps."
 *  2. RFC 02/15's VFS_INODE_SWAP_XTIME() declares __ts and passes it to the
 *     setter, which declares its own __ts initialised from itself
 *     ("struct inode_timespec __ts = (__ts);"): inode2 gets an indeterminate
 *     value (RFC 07/15 uses it in ext4's swap_inode_data()).  RFC 07/15's
 *     EXT4_INODE_GET_XTIME(), which ext4_iget() runs for every timestamp it
 *     reads from disk, passes its own __ts to the setter the same way.
 *     Reading that __ts is undefined behaviour (C11 6.2.1p7: its scope
 *     begins at the end of its declarator, so the initialiser names the new
 *     object; 6.2.4p6: its value is indeterminate until the initialisation
 *     completes; 6.3.2.1p2: it is automatic, its address never taken, so the
 *     read is undefined), so no test runs it.  CTest's rfc02_swap_self_init
 *     and rfc07_ext4_iget_self_init compile each instantiation with gcc -O1
 *     -Winit-self -Wuninitialized and pass on gcc's "is used uninitialized";
 *     their controls compile the same macros with the setter's temporary
 *     renamed, clean under -Werror, and test_swap_renamed_temporary below
 *     runs that renamed swap: it exchanges the times, so the name clash is
 *     the whole defect.
 *  3. RFC 03/15's default range, 0..INT_MAX, applies to every super block
 *     (alloc_super()); none of the RFC patches read (02-07, 09, 10, 12, 13)
 *     widens it (RFC 07/15 sets none for ext4), so ext4 clamps at 2038 and
 *     before 1970 (tools/fs-expiry's "under the RFC (2016)" column).
 *  4. After s_time_max, current_fs_time() returns the marker in tv_nsec while
 *     the setter stores 0: RFC 04/15's file_update_time() compares the two
 *     with inode_timespec_equal(), never finds them equal, and so updates
 *     (and calls ->bad_timestamp()) on every write.
 */
#include <limits.h>

#include "fs_time.h"
#include "inode.h"
#include "kunit.h"

/* ---- RFC 02/15 and 03/15, verbatim but for the RFC02_/RFC03_ prefixes ---- */

#include "rfc03_setter.h"

/*
 * The control: RFC 03's setter with its temporary renamed (__set_ts), nothing
 * else changed; CONTROL_VFS_INODE_SWAP_XTIME() is RFC 02's swap over it.
 */
#define CONTROL_VFS_INODE_SET_XTIME(xtime, inode, ts64)			\
	do {								\
		struct inode_timespec __set_ts = (ts64);		\
		struct super_block *__sb = inode->i_sb;			\
		(inode)->xtime##_sec = __set_ts.tv_sec;			\
		(inode)->xtime##_nsec = __set_ts.tv_nsec;		\
		if (unlikely(is_fs_timestamp_bad(ts64))) {		\
			(inode)->xtime##_nsec = 0;			\
			if (__sb->s_op->bad_timestamp)			\
				__sb->s_op->bad_timestamp(__sb);	\
		}							\
	} while (0)

#define RFC02_VFS_INODE_GET_XTIME(xtime, inode)			\
	(struct timespec64){.tv_sec = (inode)->xtime##_sec,	\
			    .tv_nsec = (inode)->xtime##_nsec}

#define RFC02_VFS_INODE_SWAP_XTIME(xtime, inode1, inode2)		\
	do {							\
		struct inode_timespec __ts =			\
			RFC02_VFS_INODE_GET_XTIME(xtime, inode1);	\
		RFC03_VFS_INODE_SET_XTIME(xtime, inode1,		\
			RFC02_VFS_INODE_GET_XTIME(xtime, inode2));	\
		RFC03_VFS_INODE_SET_XTIME(xtime, inode2, __ts);	\
	} while (0)

#define CONTROL_VFS_INODE_SWAP_XTIME(xtime, inode1, inode2)		\
	do {							\
		struct inode_timespec __ts =			\
			RFC02_VFS_INODE_GET_XTIME(xtime, inode1);	\
		CONTROL_VFS_INODE_SET_XTIME(xtime, inode1,		\
			RFC02_VFS_INODE_GET_XTIME(xtime, inode2));	\
		CONTROL_VFS_INODE_SET_XTIME(xtime, inode2, __ts);	\
	} while (0)

/* RFC 07/15, fs/ext4/ext4.h: what ext4_iget() runs for each timestamp it reads. */
#define RFC07_EXT4_INODE_GET_XTIME(xtime, inode, raw_inode)				\
do {										\
	struct inode_timespec __ts = RFC02_VFS_INODE_GET_XTIME(xtime, inode);		\
	__ts.tv_sec = (signed)le32_to_cpu((raw_inode)->xtime);			\
	if (EXT4_FITS_IN_INODE(raw_inode, EXT4_I(inode), xtime ## _extra))	\
		ext4_decode_extra_time(&__ts,					\
				       raw_inode->xtime ## _extra);		\
	else									\
		__ts.tv_nsec = 0;						\
	RFC03_VFS_INODE_SET_XTIME(xtime, inode, __ts);				\
} while (0)

/* ---- instruments: a counted argument, a clock that replays readings ------ */

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define MAX_READINGS 4

struct replay {
	struct timespec64 readings[MAX_READINGS];
	unsigned int count, reads;
};

static struct timespec64 replay_now(void *ctx)
{
	struct replay *r = ctx;
	struct timespec64 now = r->readings[r->reads < r->count ? r->reads : r->count - 1];

	r->reads++;
	return now;
}

static struct timespec64 fixed_now(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

static unsigned int bad_timestamp_calls;
static void count_bad_timestamp(struct super_block *sb)
{
	(void)sb;
	bad_timestamp_calls++;
}
static const struct super_operations counting_ops = { .bad_timestamp = count_bad_timestamp };

static unsigned int trunc_calls;
static struct timespec64 counted_fs_time_trunc(struct timespec64 t, const struct super_block *sb)
{
	trunc_calls++;
	return fs_time_trunc(t, sb);
}

/* RFC 03/15's alloc_super() range with libfs's 1 ns granularity. */
static struct super_block rfc_sb(void)
{
	struct super_block sb = { .s_time_min = FS_DEFAULT_MIN_TIMESTAMP,
				  .s_time_max = FS_DEFAULT_MAX_TIMESTAMP, .s_op = &counting_ops };

	sb_set_time_gran(&sb, 1);
	return sb;
}

/* ---- 1. the argument evaluated twice --------------------------------------- */

enum setter { RFC03_SETTER, SUITE_SETTER };

struct clock_case {
	const char *name;
	enum setter setter;
	struct timespec64 readings[2];
	unsigned int reads, bad_calls;
	struct timespec64 stored;
};

static const struct clock_case clock_cases[] = {
	{ "RFC 03 setter, simple_set_acl (RFC 04): clock crosses s_time_max between its two reads: "
	  "a valid time stored with nsec 0, ->bad_timestamp() called",
	  RFC03_SETTER, { TS(INT_MAX, 999999999), TS((time64_t)INT_MAX + 1, 0) }, 2, 1, TS(INT_MAX, 0) },
	{ "RFC 03 setter, clock stepped back across s_time_max: the clamp marker stored as tv_nsec, "
	  "no ->bad_timestamp()",
	  RFC03_SETTER, { TS((time64_t)INT_MAX + 5, 0), TS(INT_MAX - 5, 0) }, 2, 0,
	  TS(INT_MAX, FS_TIMESTAMP_NSEC_NOT_VALID) },
	{ "suite setter (one evaluation), clock crosses s_time_max: one read, the value checked is stored",
	  SUITE_SETTER, { TS(INT_MAX, 999999999), TS((time64_t)INT_MAX + 1, 0) }, 1, 0,
	  TS(INT_MAX, 999999999) },
	{ "suite setter (one evaluation), clock stepped back: one read, clamped and reported once",
	  SUITE_SETTER, { TS((time64_t)INT_MAX + 5, 0), TS(INT_MAX - 5, 0) }, 1, 1, TS(INT_MAX, 0) },
};

static void test_clock_read_twice(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(clock_cases); i++) {
		const struct clock_case *c = &clock_cases[i];
		struct super_block sb = rfc_sb();
		struct inode node = { .i_sb = &sb };
		struct inode *inode = &node;
		struct replay clock_state = { .readings = { c->readings[0], c->readings[1] }, .count = 2 };
		const struct fs_time_clock clock = { .now = replay_now, .ctx = &clock_state };

		bad_timestamp_calls = 0;
		fs_time_set_clock(&clock);
		if (c->setter == RFC03_SETTER)
			RFC03_VFS_INODE_SET_XTIME(i_ctime, inode, current_fs_time(inode->i_sb));
		else
			VFS_INODE_SET_XTIME(i_ctime, inode, current_fs_time(inode->i_sb));
		fs_time_set_clock(NULL);
		KUNIT_EXPECT_EQ(test, c->name, "clock reads", c->reads, clock_state.reads);
		KUNIT_EXPECT_EQ(test, c->name, "->bad_timestamp() calls", c->bad_calls, bad_timestamp_calls);
		KUNIT_EXPECT_TS_EQ(test, c->name, "stored i_ctime", c->stored, RFC02_VFS_INODE_GET_XTIME(i_ctime, inode));
	}
	/* The stepped-back case leaves an inode timestamp no valid timespec64 can hold. */
	KUNIT_EXPECT_TRUE(test, clock_cases[1].name, clock_cases[1].stored.tv_nsec >= NSEC_PER_SEC);
}

static void test_setattr_copy_truncates_twice(struct kunit *test)
{
	static const char name[] = "setattr_copy (RFC 04): fs_time_trunc() runs twice per timestamp under "
				   "the RFC 03 setter, once under the suite's";
	struct super_block sb = rfc_sb();
	struct inode node = { .i_sb = &sb };
	struct inode *inode = &node;
	const struct timespec64 ia_mtime = TS(1000, 123456789);

	trunc_calls = 0;
	RFC03_VFS_INODE_SET_XTIME(i_mtime, inode, counted_fs_time_trunc(ia_mtime, inode->i_sb));
	KUNIT_EXPECT_EQ(test, name, "fs_time_trunc() calls, RFC 03 setter", 2, trunc_calls);
	trunc_calls = 0;
	VFS_INODE_SET_XTIME(i_mtime, inode, counted_fs_time_trunc(ia_mtime, inode->i_sb));
	KUNIT_EXPECT_EQ(test, name, "fs_time_trunc() calls, suite setter", 1, trunc_calls);
	KUNIT_EXPECT_TS_EQ(test, name, "stored i_mtime", ia_mtime, RFC02_VFS_INODE_GET_XTIME(i_mtime, inode));
}

/* ---- 2. the swap's __ts initialised from itself ---------------------------- */

static void test_swap_renamed_temporary(struct kunit *test)
{
	static const char name[] = "VFS_INODE_SWAP_XTIME (RFC 02) with the setter's temporary renamed "
				   "(the control the CTest rfc02_swap_self_init_control compiles): the times swap";
	struct super_block sb = rfc_sb();
	struct inode one = { .i_sb = &sb }, two = { .i_sb = &sb };
	struct inode *inode1 = &one, *inode2 = &two;
	const struct timespec64 t1 = TS(1000, 111), t2 = TS(2000, 222);

	CONTROL_VFS_INODE_SET_XTIME(i_mtime, inode1, t1);
	CONTROL_VFS_INODE_SET_XTIME(i_mtime, inode2, t2);
	bad_timestamp_calls = 0;
	CONTROL_VFS_INODE_SWAP_XTIME(i_mtime, inode1, inode2);
	KUNIT_EXPECT_TS_EQ(test, name, "inode1 i_mtime", t2, RFC02_VFS_INODE_GET_XTIME(i_mtime, inode1));
	KUNIT_EXPECT_TS_EQ(test, name, "inode2 i_mtime", t1, RFC02_VFS_INODE_GET_XTIME(i_mtime, inode2));
	KUNIT_EXPECT_EQ(test, name, "->bad_timestamp() calls", 0, bad_timestamp_calls);
}

/*
 * Compiled only by CTest (-Winit-self -Wuninitialized -O1), never run:
 * RFC_DEFECTS_INSTANTIATE_SWAP instantiates the swap, RFC_DEFECTS_INSTANTIATE_EXT4_IGET
 * RFC 07's EXT4_INODE_GET_XTIME(); with RFC_DEFECTS_SWAP_CONTROL the RFC 03
 * setter they expand is the control's (the temporary renamed, nothing else):
 * the *_control tests must then compile without a diagnostic.
 */
#ifdef RFC_DEFECTS_SWAP_CONTROL
#undef RFC03_VFS_INODE_SET_XTIME
#define RFC03_VFS_INODE_SET_XTIME CONTROL_VFS_INODE_SET_XTIME
#endif
#ifdef RFC_DEFECTS_INSTANTIATE_SWAP
void rfc02_swap(struct inode *inode1, struct inode *inode2);
void rfc02_swap(struct inode *inode1, struct inode *inode2)
{
	RFC02_VFS_INODE_SWAP_XTIME(i_mtime, inode1, inode2);
}
#endif
/* EXT4_INODE_GET_XTIME (RFC 07, every ext4 inode read): CTest rfc07_ext4_iget_self_init. */
#ifdef RFC_DEFECTS_INSTANTIATE_EXT4_IGET
#include "ext4_time.h"
/* Stand-ins for what the macro names around the decode (fs/ext4/ext4.h). */
struct ext4_inode {
	__le32 i_mtime, i_mtime_extra;
};
#define EXT4_I(inode) (inode)
#define EXT4_FITS_IN_INODE(raw_inode, einode, field) ((void)(einode), 1)
#define ext4_decode_extra_time ext4_decode_extra_time_2016
void rfc07_ext4_iget_mtime(struct inode *inode, const struct ext4_inode *raw_inode);
void rfc07_ext4_iget_mtime(struct inode *inode, const struct ext4_inode *raw_inode)
{
	RFC07_EXT4_INODE_GET_XTIME(i_mtime, inode, raw_inode);
}
#endif

/* ---- 3, 4. the default range ----------------------------------------------- */

struct range_case {
	const char *name;
	struct timespec64 in, out;
	bool bad;
};

static const struct range_case range_cases[] = {
	{ "RFC 03 default range: 2040-01-01 on any file system (ext4 too) is clamped to 2038",
	  TS(2208988800LL, 0), TS(INT_MAX, FS_TIMESTAMP_NSEC_NOT_VALID), true },
	{ "RFC 03 default range: 1969-12-31T23:59:59Z is clamped to the epoch",
	  TS(-1, 0), TS(0, FS_TIMESTAMP_NSEC_NOT_VALID), true },
	{ "RFC 03 default range: 2038-01-19T03:14:07Z itself is kept",
	  TS(INT_MAX, 5), TS(INT_MAX, 5), false },
};

static void test_default_range(struct kunit *test)
{
	struct super_block sb;

	sb_init_rfc_defaults(&sb);
	sb_set_time_gran(&sb, 1);
	for (size_t i = 0; i < ARRAY_SIZE(range_cases); i++) {
		const struct range_case *c = &range_cases[i];
		struct timespec64 out = fs_time_trunc(c->in, &sb);

		KUNIT_EXPECT_TS_EQ(test, c->name, "fs_time_trunc", c->out, out);
		KUNIT_EXPECT_EQ(test, c->name, "is_fs_timestamp_bad", c->bad ? -1 : 0, is_fs_timestamp_bad(out));
	}
}

static void test_file_update_time_never_settles(struct kunit *test)
{
	static const char name[] = "file_update_time (RFC 04) after s_time_max: now (nsec = marker) never "
				   "equals the stored mtime (nsec 0), so every write updates and reports";
	struct super_block sb = rfc_sb();
	struct inode node = { .i_sb = &sb };
	struct inode *inode = &node;
	struct timespec64 after = TS((time64_t)INT_MAX + 60, 0);
	const struct fs_time_clock clock = { .now = fixed_now, .ctx = &after };
	unsigned int updates = 0;

	bad_timestamp_calls = 0;
	fs_time_set_clock(&clock);
	for (int write = 0; write < 3; write++) {
		struct timespec64 now = current_fs_time(inode->i_sb);
		struct timespec64 mtime = RFC02_VFS_INODE_GET_XTIME(i_mtime, inode);

		if (!timespec64_equal(&mtime, &now)) {
			updates++;
			RFC03_VFS_INODE_SET_XTIME(i_mtime, inode, now);
		}
	}
	fs_time_set_clock(NULL);
	KUNIT_EXPECT_EQ(test, name, "updates in 3 writes", 3, updates);
	KUNIT_EXPECT_EQ(test, name, "->bad_timestamp() calls", 3, bad_timestamp_calls);
}

int main(void)
{
	struct kunit test = { .suite = "rfc_defects_test" };

	test_clock_read_twice(&test);
	test_setattr_copy_truncates_twice(&test);
	test_swap_renamed_temporary(&test);
	test_default_range(&test);
	test_file_update_time_never_settles(&test);
	return kunit_finish(&test);
}
