// SPDX-License-Identifier: MIT
/*
 * timeconv.c - civil-calendar conversion for the whole time64_t range.
 *
 * Day counts use the era-based algorithm (400-year eras of 146097 days), so
 * one division per field and no loops over years; everything is done in
 * int64_t with floor division, so negative times need no special cases.
 */
#include "timeconv.h"

#include <inttypes.h>
#include <stdio.h>

#define DAYS_PER_ERA 146097 /* days in 400 Gregorian years */
/* Days from 0000-03-01 (start of era 0, March-based year) to 1970-01-01. */
#define DAYS_0000_03_01_TO_EPOCH 719468

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static int64_t floor_mod(int64_t a, int64_t b)
{
	int64_t r = a % b; /* a - (a / b) * b could overflow at INT64_MIN */

	return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}

void time64_to_tm(time64_t totalsecs, int offset, struct tm64 *result)
{
	int64_t days = floor_div(totalsecs, SECS_PER_DAY);
	int64_t rem = floor_mod(totalsecs, SECS_PER_DAY) + offset;

	/* Fold the offset into whole days first: neither sum can overflow. */
	days += floor_div(rem, SECS_PER_DAY);
	rem = floor_mod(rem, SECS_PER_DAY);

	result->tm_hour = (int)(rem / SECS_PER_HOUR);
	rem %= SECS_PER_HOUR;
	result->tm_min = (int)(rem / SECS_PER_MIN);
	result->tm_sec = (int)(rem % SECS_PER_MIN);
	/* 1970-01-01 was a Thursday (4). */
	result->tm_wday = (int)floor_mod(days + 4, 7);

	/*
	 * Shift to a March-based year so the leap day is the last day of the
	 * year; |days| <= 2^63 / 86400 < 2^47, so the shift cannot overflow.
	 */
	int64_t z = days + DAYS_0000_03_01_TO_EPOCH;
	int64_t era = floor_div(z, DAYS_PER_ERA);
	int64_t doe = z - era * DAYS_PER_ERA;                                  /* 0..146096 */
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* 0..399 */
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);                 /* 0..365 */
	int64_t mp = (5 * doy + 2) / 153;                                      /* 0..11, March = 0 */
	int64_t year = yoe + era * 400 + (mp >= 10);

	result->tm_mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	result->tm_mon = (int)(mp < 10 ? mp + 2 : mp - 10);
	result->tm_year = year - 1900;

	static const int days_before_month[12] = { 0, 31, 59, 90, 120, 151,
						   181, 212, 243, 273, 304, 334 };
	result->tm_yday = days_before_month[result->tm_mon] + result->tm_mday - 1 +
			  (result->tm_mon > 1 && is_leap_year(year));
}

/*
 * seconds = days * SECS_PER_DAY + sod, exactly when it fits and saturated
 * otherwise; 0 <= sod < SECS_PER_DAY.  For a negative day the product is
 * formed one day nearer zero and sod - SECS_PER_DAY added after, so the first
 * day of the range, whose midnight lies before TIME64_MIN, still converts.
 */
static time64_t days_to_seconds(int64_t days, int64_t sod)
{
	int64_t secs;

	if (days >= 0) {
		if (__builtin_mul_overflow(days, (int64_t)SECS_PER_DAY, &secs) ||
		    __builtin_add_overflow(secs, sod, &secs))
			return TIME64_MAX;
		return secs;
	}
	if (__builtin_mul_overflow(days + 1, (int64_t)SECS_PER_DAY, &secs) ||
	    __builtin_add_overflow(secs, sod - SECS_PER_DAY, &secs))
		return TIME64_MIN;
	return secs;
}

time64_t tm64_to_time64(int64_t year, int mon, int mday, int hour, int min, int sec)
{
	/* Months carry into the year (|carry| < 2^28); January = 0. */
	int64_t mon0 = (int64_t)mon - 1;
	int64_t carry = floor_div(mon0, 12), m = floor_mod(mon0, 12);
	/* A March-based year puts the leap day last: January and February
	 * belong to the year before. */
	int64_t mp = m >= 2 ? m - 2 : m + 10; /* 0..11, March = 0 */

	carry -= m < 2;
	/*
	 * year + carry could overflow; split the year into 400-year eras first
	 * and let the carry move the year of the era, which stays small.
	 */
	int64_t era = floor_div(year, 400), yoe = floor_mod(year, 400) + carry;

	era += floor_div(yoe, 400); /* |era| <= 2^63 / 400 + 2^20: no overflow */
	yoe = floor_mod(yoe, 400);

	int64_t doy = (153 * mp + 2) / 5;                           /* 0..337 */
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;        /* 0..146096 */
	/* Time of day in seconds, |sod| < 2^44; whole days of it join the days. */
	int64_t sod = (int64_t)hour * SECS_PER_HOUR + (int64_t)min * SECS_PER_MIN + sec;
	int64_t near = doe - DAYS_0000_03_01_TO_EPOCH + ((int64_t)mday - 1) +
		       floor_div(sod, SECS_PER_DAY); /* |near| < 2^33 */
	int64_t days;

	sod = floor_mod(sod, SECS_PER_DAY);
	/* Either overflow puts the day some 2^63 days out: saturate by sign. */
	if (__builtin_mul_overflow(era, (int64_t)DAYS_PER_ERA, &days) ||
	    __builtin_add_overflow(days, near, &days))
		return era < 0 ? TIME64_MIN : TIME64_MAX;
	return days_to_seconds(days, sod);
}

int time64_format_iso8601(time64_t sec, char *buf, size_t size)
{
	struct tm64 tm;
	int64_t year;
	int n;

	time64_to_tm(sec, 0, &tm);
	year = tm.tm_year + 1900;
	if (year >= 0 && year <= 9999)
		n = snprintf(buf, size, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", year,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	else
		n = snprintf(buf, size, "%+05" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", year,
			     tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	if (n < 0 || (size_t)n >= size)
		return -1;
	return n;
}
