// SPDX-License-Identifier: MIT
/*
 * fat_time_fuzz - input: time u16, date u16, time_cs u8, option flags,
 * time_offset/sys_tz s32, tv_sec s64, tv_nsec long.
 * Properties: fat2unix accepts any words; unix2fat of any instant yields
 * valid words (month 1..12, day 1..31, hour < 24, minute < 60, 2-s < 30),
 * which decode to the same words again; valid words round-trip exactly.
 * Creation time (flags bit 1: vfat): vfat keeps tv_sec and takes off less than
 * 10 ms, leaving a multiple of 10^7 as unsigned long (the kernel's
 * `% 10000000UL`), 0 staying 0; msdos truncates as mtime does.
 */
#include <inttypes.h>

#include "fat_time.h"
#include "fuzz_input.h"

static bool valid_words(u16 time, u16 date)
{
	unsigned month = (date >> 5) & 0xf, day = date & 0x1f;

	return month >= 1 && month <= 12 && day >= 1 && (time >> 11) < 24 &&
	       ((time >> 5) & 0x3f) < 60 && (time & 0x1f) < 30;
}

static bool day_exists(u16 date)
{
	static const unsigned days[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	unsigned year = 1980 + (date >> 9), month = (date >> 5) & 0xf, day = date & 0x1f;
	bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return day <= days[month - 1] + (month == 2 && leap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size, 0 };
	u16 time = fuzz_u16(&in), date = fuzz_u16(&in);
	u8 cs = (u8)fuzz_take(&in, 1), flags = (u8)fuzz_take(&in, 1);
	struct msdos_sb_info sbi = { 0 };
	struct timespec64 ts, got;
	__le16 t2, d2;
	u8 cs2;

	/* One field per statement: initialiser lists do not fix the order. */
	sbi.options.tz_set = flags & 1;
	sbi.options.isvfat = (flags >> 1) & 1;
	sbi.options.time_offset = (int)(s32)fuzz_u32(&in);
	sbi.sys_tz_minuteswest = (int)(s32)fuzz_u32(&in);
	ts.tv_sec = fuzz_s64(&in);
	ts.tv_nsec = fuzz_long(&in);

	fat_time_fat2unix(&sbi, &got, cpu_to_le16(time), cpu_to_le16(date), cs);
	if (valid_words(time, date) && day_exists(date) && cs < 200) {
		fat_time_unix2fat(&sbi, &got, &t2, &d2, &cs2);
		FUZZ_CHECK(le16_to_cpu(t2) == time && le16_to_cpu(d2) == date && cs2 == cs,
			   "words %04x/%04x/%u -> %04x/%04x/%u", time, date, cs, le16_to_cpu(t2),
			   le16_to_cpu(d2), cs2);
	}

	fat_time_unix2fat(&sbi, &ts, &t2, &d2, &cs2);
	FUZZ_CHECK(valid_words(le16_to_cpu(t2), le16_to_cpu(d2)) && day_exists(le16_to_cpu(d2)),
		   "unix2fat(%" PRId64 ") gave %04x/%04x", ts.tv_sec, le16_to_cpu(t2), le16_to_cpu(d2));
	fat_time_fat2unix(&sbi, &got, t2, d2, 0);
	__le16 t3, d3;

	fat_time_unix2fat(&sbi, &got, &t3, &d3, NULL);
	FUZZ_CHECK(t3 == t2 && d3 == d2, "re-encode");

	(void)fat_truncate_atime(&sbi, &ts);
	struct timespec64 mt = fat_truncate_mtime(&sbi, &ts);
	struct timespec64 cr = fat_truncate_crtime(&sbi, &ts);

	if (sbi.options.isvfat) {
		unsigned long in_ns = (unsigned long)ts.tv_nsec, out_ns = (unsigned long)cr.tv_nsec;

		FUZZ_CHECK(cr.tv_sec == ts.tv_sec, "vfat crtime sec");
		FUZZ_CHECK(out_ns % 10000000UL == 0 && in_ns - out_ns < 10000000UL,
			   "vfat crtime nsec %ld -> %ld", ts.tv_nsec, cr.tv_nsec);
		if (ts.tv_nsec >= 0)
			FUZZ_CHECK(cr.tv_nsec == ts.tv_nsec - ts.tv_nsec % 10000000, "vfat crtime");
	} else {
		FUZZ_CHECK(cr.tv_sec == mt.tv_sec && cr.tv_nsec == mt.tv_nsec, "msdos crtime");
	}
	return 0;
}
