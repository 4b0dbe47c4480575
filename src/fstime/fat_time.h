/* SPDX-License-Identifier: MIT */
/*
 * fat_time.h - the FAT/VFAT directory-entry timestamp (fs/fat/misc.c).
 *
 * date word: bits 0-4 day (1-31), 5-8 month (1-12), 9-15 year since 1980
 * (0-127); time word: bits 0-4 seconds/2 (0-29), 5-10 minutes, 11-15 hours;
 * time_cs (VFAT creation time only): centiseconds 0-199, carrying the odd
 * second.  The words are local time: mount option tz=UTC / time_offset=
 * (minutes east of UTC) when tz_set, else the kernel's sys_tz.
 *
 * Granularity: mtime 2 s, atime 1 day (adate only), creation time 10 ms on
 * vfat (time_cs); msdos (the non-vfat driver) stores no creation time at all
 * (msdos_add_entry() zeroes ctime, cdate and ctime_cs).  Range 1980-01-01
 * 00:00:00 .. 2107-12-31 23:59:58 local (time_cs extends the last instant to
 * 23:59:59.99); fat_time_unix2fat() clamps outside it.
 * This models mainline, which casts the day count to time64_t before
 * multiplying by SECS_PER_DAY.  The RFC (06/15) only widened `second` in
 * fat_time_fat2unix() and kept Linux 4.4's time_t product, which wraps where
 * time_t is 32 bits (D20; tests/rfc_seed_defects_test.c runs that line).
 */
#ifndef FSTIME_FAT_TIME_H
#define FSTIME_FAT_TIME_H

#include "fs_time.h"
#include "kernel_types.h"
#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The v5.4 limits, as fat_fill_super() derives s_time_min/max from them. */
#define FAT_DATE_MIN (0 << 9 | 1 << 5 | 1)     /* 1980-01-01 */
#define FAT_DATE_MAX (127 << 9 | 12 << 5 | 31) /* 2107-12-31 */
#define FAT_TIME_MAX (23 << 11 | 59 << 5 | 29) /* 23:59:58 */

/* The mount options parse_options() accepts for time_offset: +-24 h. */
#define FAT_TIME_OFFSET_MAX_MINUTES (24 * 60)

struct msdos_sb_info {
	struct {
		int tz_set;      /* tz=UTC or time_offset= given */
		int time_offset; /* minutes east of UTC, -1440..1440 */
		int isvfat;      /* 1: the vfat driver, 0: msdos (8.3 names only) */
	} options;
	/*
	 * The kernel reads the global sys_tz.tz_minuteswest when !tz_set; a
	 * field here keeps the model free of mutable globals.  -1440..1440.
	 */
	int sys_tz_minuteswest;
};

/**
 * fat_tz_offset - seconds to add to a FAT local time to get UTC
 *
 * tz_set: -time_offset minutes; else sys_tz_minuteswest minutes.  Values
 * outside -1440..1440 (which the kernel never mounts with) are clamped to
 * that range so that no input can overflow.
 */
int fat_tz_offset(const struct msdos_sb_info *sbi);

/**
 * fat_time_fat2unix - FAT @time/@date words (+ @time_cs) to UTC
 *
 * Never fails: month 0 reads as 1, day 0 as 1, month 13..15 contributes no
 * days, hours/minutes/2-seconds beyond their range are added as they are,
 * time_cs >= 100 adds whole seconds (200..255 add 2 s).
 */
void fat_time_fat2unix(const struct msdos_sb_info *sbi, struct timespec64 *ts, __le16 time,
		       __le16 date, u8 time_cs);

/**
 * fat_time_unix2fat - UTC to FAT words; @time_cs may be NULL
 *
 * Local year < 1980: 1980-01-01 00:00:00, time_cs 0.  Local year > 2107:
 * 2107-12-31 23:59:58, time_cs 199.  Otherwise seconds are halved (2 s
 * granularity) and time_cs = (tv_sec & 1) * 100 + tv_nsec / 10000000, as the
 * kernel writes it: a signed division (tv_nsec is a long, the divisor an
 * int), so a negative tv_nsec gives a count rounded toward zero that can be
 * negative, and the u8 keeps the low 8 bits (tv_nsec -10^7 on an even second
 * stores 255).
 */
void fat_time_unix2fat(const struct msdos_sb_info *sbi, const struct timespec64 *ts,
		       __le16 *time, __le16 *date, u8 *time_cs);

/** fat_truncate_mtime - mtime granularity: tv_sec & ~1, tv_nsec 0. */
struct timespec64 fat_truncate_mtime(const struct msdos_sb_info *sbi, const struct timespec64 *ts);

/**
 * fat_truncate_crtime - creation-time granularity, vfat 10 ms, msdos 2 s
 *
 * What fs/fat/misc.c did from v5.6 to v5.19 (fat_truncate_time(S_CTIME): the
 * on-disk creation time then held i_ctime) and in the v6.0 series that split
 * it out as fat_truncate_crtime(): vfat - fat_timespec64_trunc_10ms(), which
 * is `if (tv_nsec) tv_nsec -= tv_nsec % 10000000UL`: the remainder is taken
 * of tv_nsec converted to unsigned long, so a negative tv_nsec truncates by
 * (2^BITS_PER_LONG + tv_nsec) mod 10^7 (a different amount on ILP32 and LP64)
 * and the subtraction wraps like the kernel's; msdos - the 2-second
 * truncation of mtime (tv_sec & ~1, tv_nsec 0).  Since v6.0 mainline does not
 * truncate creation times at all: vfat reads them back through
 * fat_time_fat2unix(), msdos keeps none.
 */
struct timespec64 fat_truncate_crtime(const struct msdos_sb_info *sbi, const struct timespec64 *ts);

/**
 * fat_truncate_atime - atime granularity: local midnight, tv_nsec 0
 *
 * Uses truncating division, like div_s64_rem(): a local time before 1970
 * rounds toward 1970, not to the previous midnight.
 */
struct timespec64 fat_truncate_atime(const struct msdos_sb_info *sbi, const struct timespec64 *ts);

/**
 * fat_sb_set_time_limits - fat_fill_super() since v5.4: s_time_min/max from
 * FAT_DATE_MIN and FAT_TIME_MAX/FAT_DATE_MAX through fat_time_fat2unix()
 * (so they move with the time-zone options); s_time_gran = 1, because FAT
 * truncates its timestamps itself (fat_truncate_time()) and the VFS step is
 * then free ("we set 1 here to be fast", fs/fat/inode.c).
 */
void fat_sb_set_time_limits(struct super_block *sb, const struct msdos_sb_info *sbi);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_FAT_TIME_H */
