/* SPDX-License-Identifier: MIT */
/*
 * civil_reference.h - the civil calendar the slow way, the reference that
 * tm64_to_time64() is held to (tests/fs_timeconv_test.c over a grid of edge
 * values, tests/fuzz/fs_time_fuzz.c over any input): whole days counted with
 * 128-bit leap-year arithmetic from 0001-01-01, months carried into years,
 * the result saturated to the time64_t range.  Needs __int128.
 */
#ifndef TESTS_CIVIL_REFERENCE_H
#define TESTS_CIVIL_REFERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "timeconv.h"

typedef __int128 s128;

static inline s128 floor_div128(s128 a, s128 b)
{
	s128 q = a / b;

	return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* Days from 0001-01-01 to January 1st of @y: 365 a year plus the leap days. */
static inline s128 days_before_year(s128 y)
{
	s128 y1 = y - 1;

	return 365 * y1 + floor_div128(y1, 4) - floor_div128(y1, 100) + floor_div128(y1, 400);
}

static inline time64_t civil_reference(int64_t year, int mon, int mday, int hour, int min, int sec)
{
	static const int days_before_month[12] = { 0, 31, 59, 90, 120, 151,
						   181, 212, 243, 273, 304, 334 };
	s128 carry = floor_div128((s128)mon - 1, 12);
	int m = (int)((s128)mon - 1 - 12 * carry); /* 0..11 */
	s128 y = (s128)year + carry;
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	s128 days = days_before_year(y) - days_before_year(1970) + days_before_month[m] +
		    (leap && m >= 2) + mday - 1;
	s128 t = days * SECS_PER_DAY + (s128)hour * SECS_PER_HOUR + (s128)min * SECS_PER_MIN + sec;

	return t < INT64_MIN ? TIME64_MIN : t > INT64_MAX ? TIME64_MAX : (time64_t)t;
}

#endif /* TESTS_CIVIL_REFERENCE_H */
