/* SPDX-License-Identifier: MIT */
/*
 * timeconv.h - broken-down UTC time for any time64_t, as kernel/time/timeconv.c
 * provides time64_to_tm(), plus the inverse and an ISO 8601 formatter.
 *
 * The year is 64-bit: S64_MIN..S64_MAX seconds spans about +-292e9 years,
 * which neither the kernel's `long tm_year` on ILP32 nor libc's `int tm_year`
 * can hold.  The proleptic Gregorian calendar is used throughout.
 */
#ifndef FSTIME_TIMECONV_H
#define FSTIME_TIMECONV_H

#include <stddef.h>

#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tm64 {
	int tm_sec;       /* 0..59 */
	int tm_min;       /* 0..59 */
	int tm_hour;      /* 0..23 */
	int tm_mday;      /* 1..31 */
	int tm_mon;       /* 0..11 */
	int64_t tm_year;  /* years since 1900, as struct tm */
	int tm_wday;      /* 0..6, Sunday = 0 */
	int tm_yday;      /* 0..365 */
};

#define SECS_PER_MIN 60
#define SECS_PER_HOUR (60 * 60)
#define SECS_PER_DAY (SECS_PER_HOUR * 24)

/**
 * time64_to_tm - split @totalsecs + @offset seconds since the epoch into UTC fields
 *
 * Defined for every time64_t and every int @offset (the sum is never formed,
 * so it cannot overflow).  Years before 1 AD are proleptic (year 0 exists).
 */
void time64_to_tm(time64_t totalsecs, int offset, struct tm64 *result);

/**
 * tm64_to_time64 - the inverse: seconds since the epoch for a civil date/time
 *
 * @year is the full year (not since 1900).  Every other field may be outside
 * its usual range: months beyond 1..12 carry into the year, and days, hours,
 * minutes and seconds are added as they are (@mday 0 is the day before the
 * 1st).  Defined for every input: the result is exact whenever it fits a
 * time64_t, from TIME64_MIN (-292277022657-01-27T08:29:52Z) to TIME64_MAX
 * (+292277026596-12-04T15:30:07Z) inclusive, and saturates to TIME64_MIN or
 * TIME64_MAX when the instant lies beyond either end.
 */
time64_t tm64_to_time64(int64_t year, int mon, int mday, int hour, int min, int sec);

/** is_leap_year - Gregorian leap-year rule, for any year. */
static inline int is_leap_year(int64_t year)
{
	return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

/**
 * time64_format_iso8601 - "YYYY-MM-DDThh:mm:ssZ" (with sign and more digits
 * when the year is outside 0000..9999, as ISO 8601 extended years)
 *
 * Return: the length written (excluding NUL), or -1 if @size is too small.
 * 40 bytes is always enough.
 */
int time64_format_iso8601(time64_t sec, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_TIMECONV_H */
