// SPDX-License-Identifier: MIT
/*
 * fat_sweep_test.c - every valid FAT date word x every valid FAT time word
 * (46751 dates 1980-01-01..2107-12-31 x 43200 two-second times = 2019643200
 * pairs), against a deliberately simple reference calendar (a loop over
 * years and months, no formula shared with the code under test):
 *
 *  - fat_time_fat2unix(time, date) == reference seconds (UTC);
 *  - fat_time_unix2fat() of that gives back the same words (bijection);
 *  - cnvrtDosUnixTm(date, time, 0) == the same seconds;
 *  - per date, every time_cs 0..199 decodes to seconds + cs/100, cs%100*10ms
 *    and encodes back.
 * Invalid words (month 0/13..15, day 0 or past the month's end, hour >= 24,
 * minute >= 60, 2-seconds >= 30) are outside the sweep; the fuzzer and the
 * property test cover them.  Labelled slow.
 */
#include <inttypes.h>

#include "cifs_time.h"
#include "fat_time.h"
#include "kunit.h"

#define MAX_REPORTS 10

static int days_in_month(int year, int month)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return days[month - 1] + (month == 2 && leap);
}

int main(void)
{
	struct kunit test = { .suite = "fat_sweep_test" };
	const struct msdos_sb_info utc = { .options = { .tz_set = 1, .time_offset = 0 } };
	unsigned long long pairs = 0, dates = 0, bad = 0;
	int64_t day_number = 3652; /* 1980-01-01, counted by hand: 1970..1979 has 2 leap days */

	for (int year = 1980; year <= 2107; year++) {
		for (int month = 1; month <= 12; month++) {
			for (int mday = 1; mday <= days_in_month(year, month); mday++, day_number++) {
				u16 date = (u16)((year - 1980) << 9 | month << 5 | mday);
				int64_t midnight = day_number * 86400;

				dates++;
				for (int hour = 0; hour < 24; hour++)
				for (int min = 0; min < 60; min++)
				for (int sec2 = 0; sec2 < 30; sec2++) {
					u16 time = (u16)(hour << 11 | min << 5 | sec2);
					int64_t want = midnight + hour * 3600 + min * 60 + sec2 * 2;
					struct timespec64 ts, dos;
					__le16 t2, d2;

					fat_time_fat2unix(&utc, &ts, cpu_to_le16(time), cpu_to_le16(date), 0);
					fat_time_unix2fat(&utc, &ts, &t2, &d2, NULL);
					dos = cnvrtDosUnixTm(cpu_to_le16(date), cpu_to_le16(time), 0);
					pairs++;
					if (ts.tv_sec != want || ts.tv_nsec != 0 || le16_to_cpu(t2) != time ||
					    le16_to_cpu(d2) != date || dos.tv_sec != want) {
						if (bad++ < MAX_REPORTS)
							fprintf(stderr, "FAIL %04d-%02d-%02d %02d:%02d:%02d: want %"
								PRId64 ", fat2unix %" PRId64 ", dos %" PRId64
								", words %04x/%04x -> %04x/%04x\n", year, month,
								mday, hour, min, sec2 * 2, want, ts.tv_sec,
								dos.tv_sec, date, time, le16_to_cpu(d2),
								le16_to_cpu(t2));
					}
				}
				/* Centiseconds, at noon of every day. */
				u16 noon = 12 << 11;

				for (int cs = 0; cs < 200; cs++) {
					struct timespec64 ts;
					__le16 t2, d2;
					u8 cs2;

					fat_time_fat2unix(&utc, &ts, cpu_to_le16(noon), cpu_to_le16(date), (u8)cs);
					fat_time_unix2fat(&utc, &ts, &t2, &d2, &cs2);
					if (ts.tv_sec != midnight + 12 * 3600 + cs / 100 ||
					    ts.tv_nsec != (cs % 100) * 10000000L || cs2 != cs ||
					    le16_to_cpu(t2) != noon || le16_to_cpu(d2) != date) {
						if (bad++ < MAX_REPORTS)
							fprintf(stderr, "FAIL %04d-%02d-%02d noon cs %d\n", year,
								month, mday, cs);
					}
				}
			}
		}
	}
	printf("fat_sweep_test: %llu valid dates x 43200 times = %llu pairs, %llu mismatches\n",
	       dates, pairs, bad);
	KUNIT_EXPECT_EQ(&test, "every valid date", "dates", 46751, dates);
	KUNIT_EXPECT_EQ(&test, "every valid pair", "pairs", INT64_C(46751) * 43200, pairs);
	KUNIT_EXPECT_EQ(&test, "exhaustive sweep", "mismatches", 0, bad);
	return kunit_finish(&test);
}
