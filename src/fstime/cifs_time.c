// SPDX-License-Identifier: MIT
/*
 * cifs_time.c - NT and DOS time conversions of the SMB client.
 */
#include "cifs_time.h"

#include "timeconv.h"

struct timespec64 cifs_NTtimeToUnix(__le64 ntutc)
{
	struct timespec64 ts;
	u64 diff = le64_to_cpu(ntutc) - NTFS_TIME_OFFSET; /* wraps, as the kernel's */
	u64 abs_t;

	/*
	 * The kernel stores diff in an s64 and negates it when negative; on
	 * two's complement -t is computed here as 0 - diff in u64, which is
	 * also right for t == S64_MIN, where signed negation would overflow.
	 */
	if (diff >> 63) {
		abs_t = (u64)0 - diff;
		ts.tv_nsec = -(long)(abs_t % NT_INTERVALS_PER_SEC) * NSEC_PER_NT_INTERVAL;
		/* abs_t / 10^7 <= 2^63 / 10^7: negation fits. */
		ts.tv_sec = -(time64_t)(abs_t / NT_INTERVALS_PER_SEC);
	} else {
		ts.tv_nsec = (long)(diff % NT_INTERVALS_PER_SEC) * NSEC_PER_NT_INTERVAL;
		ts.tv_sec = (time64_t)(diff / NT_INTERVALS_PER_SEC);
	}
	return ts;
}

u64 cifs_UnixTimeToNT(struct timespec64 t)
{
	/* u64 products and sums wrap; the long quotient converts modulo 2^64. */
	return (u64)t.tv_sec * NT_INTERVALS_PER_SEC + (u64)(t.tv_nsec / NSEC_PER_NT_INTERVAL) +
	       NTFS_TIME_OFFSET;
}

static const int total_days_of_prev_months[] = {
	0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334
};

struct timespec64 cnvrtDosUnixTm(__le16 le_date, __le16 le_time, int offset)
{
	u16 date = le16_to_cpu(le_date);
	u16 time = le16_to_cpu(le_time);
	/* SMB_TIME / SMB_DATE bit fields, little-endian bit order. */
	int two_seconds = time & 0x1f, minutes = (time >> 5) & 0x3f, hours = time >> 11;
	int day = date & 0x1f, month = (date >> 5) & 0xf, year = date >> 9;
	time64_t sec, days;

	sec = 2 * two_seconds;
	sec += minutes * 60;
	sec += 60 * 60 * hours;
	if (day < 1)
		day = 1;
	if (month < 1)
		month = 1;
	if (month > 12)
		month = 12;
	month -= 1;
	/* day is 1-based: its extra 1 stands in for 1980's own leap day. */
	days = day + total_days_of_prev_months[month];
	days += 3652; /* 1970-01-01 .. 1980-01-01 */
	days += year * 365;
	days += year / 4;
	if (year >= 120) /* 2100 is not a leap year */
		days = days - 1;
	/* In a leap year, January and February come before its leap day. */
	if (year != 120)
		days -= ((year & 0x03) == 0) && (month < 2 ? 1 : 0);
	sec += SECS_PER_DAY * days;

	return (struct timespec64){ .tv_sec = sec + offset, .tv_nsec = 0 };
}

void cifs_sb_set_time_limits(struct super_block *sb, bool dos_time_only)
{
	struct timespec64 ts;

	if (dos_time_only) {
		sb_set_time_gran(sb, NSEC_PER_SEC);
		ts = cnvrtDosUnixTm(cpu_to_le16(SMB_DATE_MIN), 0, 0);
		sb->s_time_min = ts.tv_sec;
		ts = cnvrtDosUnixTm(cpu_to_le16(SMB_DATE_MAX), cpu_to_le16(SMB_TIME_MAX), 0);
		sb->s_time_max = ts.tv_sec;
	} else {
		sb_set_time_gran(sb, NSEC_PER_NT_INTERVAL);
		ts = cifs_NTtimeToUnix(0);
		sb->s_time_min = ts.tv_sec;
		ts = cifs_NTtimeToUnix(cpu_to_le64((u64)S64_MAX));
		sb->s_time_max = ts.tv_sec;
	}
}
