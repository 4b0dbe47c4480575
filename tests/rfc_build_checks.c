/* SPDX-License-Identifier: MIT */
/*
 * rfc_build_checks.c - RFC lines that do not compile, compiled by CTest
 * (never linked, never run) with the flags Linux 4.4 built with:
 * -std=gnu89 -Werror-implicit-function-declaration (the top Makefile's
 * KBUILD_CFLAGS).  One snippet per -D; each has a control that must compile
 * clean with -Werror, so that a test passes only on the RFC's own text.
 * Kernel types are stand-ins declared as Linux 4.4 declares them.
 *
 * RFC13_ORDER: RFC 13/15 adds current_fs_time_sec(), which calls the
 *      static fs_time_range_check(), above that function's definition in
 *      kernel/time/time.c, with no declaration before it (the RFC's
 *      prototypes in include/linux/fs.h are of the exported functions only).
 *      gnu89 takes the call as an implicit declaration (an error under
 *      -Werror-implicit-function-declaration), then the static definition
 *      conflicts with it (an error under any flags).  Control: RFC 03's
 *      order, the definition first.
 *  ILP32_VFAT_MKDIR: RFC 06 changes vfat_mkdir()'s "struct timespec ts;"
 *      to "struct inode_timespec ts;" and leaves "ts = CURRENT_TIME_SEC;";
 *      with CONFIG_FS_USES_64BIT_TIME=y inode_timespec is timespec64, which
 *      Linux 4.4's include/linux/time64.h makes another struct where
 *      BITS_PER_LONG is 32 (on 64-bit it #defines timespec64 as timespec).
 *  ILP32_PROTOTYPES: RFC 04 changes the definitions of
 *      lease_get_mtime() and do_utimes() to struct inode_timespec * (RFC 12:
 *      timespec64 *) while their declarations (include/linux/fs.h,
 *      include/linux/time.h) keep struct timespec *: no patch read changes them.
 *  Define BITS_PER_LONG=32 for the defect, 64 for the control.
 */

#ifdef RFC13_ORDER_CHECK
typedef long long time64_t;
struct timespec64 {
	time64_t tv_sec;
	long tv_nsec;
};
struct super_block {
	time64_t s_time_max, s_time_min;
};
#define clamp_val(val, lo, hi) ((val) < (lo) ? (lo) : (val) > (hi) ? (hi) : (val))
#define unlikely(x) __builtin_expect(!!(x), 0)
#define NSEC_PER_SEC 1000000000L
#define FS_TIMESTAMP_NSEC_NOT_VALID 2147483647
extern time64_t ktime_get_real_seconds(void);
struct timespec64 current_fs_time_sec(struct super_block *sb);

#ifndef RFC13_ORDER
/* RFC 03/15: the definition above its callers. */
static void
fs_time_range_check(struct super_block *sb, struct timespec64 *ts)
{
	if (unlikely(sb->s_time_max < ts->tv_sec ||
		sb->s_time_min > ts->tv_sec)) {
		ts->tv_sec = clamp_val(ts->tv_sec, sb->s_time_min, sb->s_time_max);
		ts->tv_nsec = FS_TIMESTAMP_NSEC_NOT_VALID;
		return;
	}

	if(unlikely(ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC))
		ts->tv_nsec = 0;
}
#endif

/* RFC 13/15: the block it adds between "=======" and the existing code. */
struct timespec64 current_fs_time_sec(struct super_block *sb)
{
	struct timespec64 ts = {ktime_get_real_seconds(), 0};

	/* range check for time. */
	fs_time_range_check(sb, &ts);

	return ts;
}

#ifdef RFC13_ORDER
/* RFC 13/15: the definition it leaves below. */
static void
fs_time_range_check(struct super_block *sb, struct timespec64 *ts)
{
	if (unlikely(sb->s_time_max < ts->tv_sec ||
		sb->s_time_min > ts->tv_sec)) {
		ts->tv_sec = clamp_val(ts->tv_sec, sb->s_time_min, sb->s_time_max);
		ts->tv_nsec = FS_TIMESTAMP_NSEC_NOT_VALID;
		return;
	}

	if(unlikely(ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC))
		ts->tv_nsec = 0;
}
#endif
#endif /* RFC13_ORDER_CHECK */

#if defined(ILP32_VFAT_MKDIR) || defined(ILP32_PROTOTYPES)
/* Linux 4.4, include/linux/time.h and include/linux/time64.h */
struct timespec {
	long tv_sec;
	long tv_nsec;
};
typedef long long time64_t;
#if BITS_PER_LONG == 64
# define timespec64 timespec
#else
struct timespec64 {
	time64_t tv_sec;
	long tv_nsec;
};
#endif
/* RFC 02/15, include/linux/time64.h, CONFIG_FS_USES_64BIT_TIME=y */
#define inode_timespec timespec64
struct inode;
#endif

#ifdef ILP32_VFAT_MKDIR
/* Linux 4.4, include/linux/time.h */
#define CURRENT_TIME_SEC	((struct timespec) { 1452144972L, 0 })
extern int fat_alloc_new_dir(struct inode *dir, struct inode_timespec *ts);
int vfat_mkdir_times(struct inode *dir);
int vfat_mkdir_times(struct inode *dir)
{
	struct inode_timespec ts;	/* RFC 06/15: "+	struct inode_timespec ts;" */

	ts = CURRENT_TIME_SEC;		/* Linux 4.4, left by RFC 06 and RFC 10 */
	return fat_alloc_new_dir(dir, &ts);
}
#endif

#ifdef ILP32_PROTOTYPES
/* Linux 4.4, include/linux/fs.h and include/linux/time.h: no patch read changes them. */
extern void lease_get_mtime(struct inode *, struct timespec *time);
extern long do_utimes(int dfd, const char *filename, struct timespec *times, int flags);

/* RFC 04/15, fs/locks.c and fs/utimes.c: the definitions' new heads. */
void lease_get_mtime(struct inode *inode, struct inode_timespec *time)
{
	(void)inode;
	(void)time;
}

long do_utimes(int dfd, const char *filename,
	       struct inode_timespec *times,
	       int flags)
{
	(void)dfd;
	(void)filename;
	(void)times;
	return flags;
}
#endif

/* ISO C forbids an empty translation unit. */
typedef int rfc_build_checks_nonempty;
