// SPDX-License-Identifier: MIT
/*
 * fat_time.c - FAT date/time words <-> timespec64, written from the
 * documented on-disk format and the behaviour of fs/fat/misc.c.
 */
#include "fat_time.h"

#include <limits.h>

#include "timeconv.h"

/* Days between 1970-01-01 and 1980-01-01 (1972 and 1976 are leap). */
#define DAYS_DELTA (365 * 10 + 2)
/* 2100 - 1980: the one year in FAT's range divisible by 4 and not leap. */
#define YEAR_2100 120
#define IS_LEAP_YEAR(y) (!((y) & 3) && (y) != YEAR_2100)
#define FAT_CS_NSEC 10000000L /* one centisecond */

/* First day of each month in a non-leap year; months 13..15 add nothing. */
static const long days_in_year[16] = {
	0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 0, 0, 0,
};

static int clamp_minutes(int minutes)
{
	if (minutes < -FAT_TIME_OFFSET_MAX_MINUTES)
		return -FAT_TIME_OFFSET_MAX_MINUTES;
	if (minutes > FAT_TIME_OFFSET_MAX_MINUTES)
		return FAT_TIME_OFFSET_MAX_MINUTES;
	return minutes;
}

int fat_tz_offset(const struct msdos_sb_info *sbi)
{
	int minutes = sbi->options.tz_set ? -clamp_minutes(sbi->options.time_offset)
					  : clamp_minutes(sbi->sys_tz_minuteswest);

	return minutes * SECS_PER_MIN;
}

void fat_time_fat2unix(const struct msdos_sb_info *sbi, struct timespec64 *ts, __le16 __time,
		       __le16 __date, u8 time_cs)
{
	u16 time = le16_to_cpu(__time), date = le16_to_cpu(__date);
	long year = date >> 9;
	long month = (date >> 5) & 0xf;
	long day = date & 0x1f;
	long leap_day;
	time64_t second;

	if (month < 1)
		month = 1;
	day = (day < 1 ? 1 : day) - 1;

	/* Leap days in the whole years since 1980, then this year's own. */
	leap_day = (year + 3) / 4;
	if (year > YEAR_2100)
		leap_day--;
	if (IS_LEAP_YEAR(year) && month > 2)
		leap_day++;

	second = (time & 0x1f) << 1;
	second += ((time >> 5) & 0x3f) * SECS_PER_MIN;
	second += (time >> 11) * SECS_PER_HOUR;
	second += (time64_t)(year * 365 + leap_day + days_in_year[month] + day + DAYS_DELTA) *
		  SECS_PER_DAY;
	second += fat_tz_offset(sbi);

	ts->tv_sec = second + time_cs / 100;
	ts->tv_nsec = (time_cs % 100) * FAT_CS_NSEC;
}

void fat_time_unix2fat(const struct msdos_sb_info *sbi, const struct timespec64 *ts,
		       __le16 *time, __le16 *date, u8 *time_cs)
{
	struct tm64 tm;

	time64_to_tm(ts->tv_sec, -fat_tz_offset(sbi), &tm);

	if (tm.tm_year < 1980 - 1900) {
		*time = 0;
		*date = cpu_to_le16(FAT_DATE_MIN);
		if (time_cs)
			*time_cs = 0;
		return;
	}
	if (tm.tm_year > 2107 - 1900) {
		*time = cpu_to_le16(FAT_TIME_MAX);
		*date = cpu_to_le16(FAT_DATE_MAX);
		if (time_cs)
			*time_cs = 199;
		return;
	}

	*time = cpu_to_le16((u16)(tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec >> 1));
	*date = cpu_to_le16((u16)((tm.tm_year - 80) << 9 | (tm.tm_mon + 1) << 5 | tm.tm_mday));
	if (time_cs) {
		/*
		 * The kernel's u8 assignment keeps the low 8 bits; doing the
		 * sum in unsigned long gives those bits for any tv_nsec.
		 */
		unsigned long cs = ((u64)ts->tv_sec & 1) * 100 +
				   (unsigned long)(ts->tv_nsec / FAT_CS_NSEC);

		*time_cs = (u8)cs;
	}
}

struct timespec64 fat_truncate_mtime(const struct msdos_sb_info *sbi, const struct timespec64 *ts)
{
	(void)sbi;
	/* & ~1 on two's complement rounds negative seconds down too. */
	return (struct timespec64){ .tv_sec = (time64_t)((u64)ts->tv_sec & ~(u64)1), .tv_nsec = 0 };
}

/* long from unsigned long without an implementation-defined conversion. */
static long ulong_to_long(unsigned long v)
{
	return v > (unsigned long)LONG_MAX ? -(long)~v - 1 : (long)v;
}

struct timespec64 fat_truncate_crtime(const struct msdos_sb_info *sbi, const struct timespec64 *ts)
{
	struct timespec64 t = *ts;

	if (!sbi->options.isvfat)
		return fat_truncate_mtime(sbi, ts);
	if (t.tv_nsec) {
		/*
		 * `t.tv_nsec -= t.tv_nsec % 10000000UL`: the usual arithmetic
		 * conversions make both the remainder and the subtraction
		 * unsigned long, which the kernel then stores back into a long.
		 */
		unsigned long nsec = (unsigned long)t.tv_nsec;

		t.tv_nsec = ulong_to_long(nsec - nsec % (unsigned long)FAT_CS_NSEC);
	}
	return t;
}

struct timespec64 fat_truncate_atime(const struct msdos_sb_info *sbi, const struct timespec64 *ts)
{
	int offset = fat_tz_offset(sbi);
	time64_t seconds;

	/* Saturate instead of overflowing at the ends of time64_t. */
	if (offset > 0 && ts->tv_sec < TIME64_MIN + offset)
		seconds = TIME64_MIN + SECS_PER_DAY;
	else if (offset < 0 && ts->tv_sec > TIME64_MAX + offset)
		seconds = TIME64_MAX - SECS_PER_DAY;
	else
		seconds = ts->tv_sec - offset;
	/* to the local day boundary (toward zero, as div_s64_rem), back to UTC */
	seconds -= seconds % SECS_PER_DAY;
	if (offset < 0 && seconds < TIME64_MIN - offset)
		return (struct timespec64){ .tv_sec = TIME64_MIN, .tv_nsec = 0 };
	if (offset > 0 && seconds > TIME64_MAX - offset)
		return (struct timespec64){ .tv_sec = TIME64_MAX, .tv_nsec = 0 };
	return (struct timespec64){ .tv_sec = seconds + offset, .tv_nsec = 0 };
}

void fat_sb_set_time_limits(struct super_block *sb, const struct msdos_sb_info *sbi)
{
	struct timespec64 ts;

	fat_time_fat2unix(sbi, &ts, 0, cpu_to_le16(FAT_DATE_MIN), 0);
	sb->s_time_min = ts.tv_sec;
	fat_time_fat2unix(sbi, &ts, cpu_to_le16(FAT_TIME_MAX), cpu_to_le16(FAT_DATE_MAX), 0);
	sb->s_time_max = ts.tv_sec;
	sb_set_time_gran(sb, 1);
}
