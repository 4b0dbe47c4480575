/* SPDX-License-Identifier: MIT */
/*
 * cifs_time.h - SMB/CIFS timestamps (fs/smb/client/netmisc.c).
 *
 * NT time: unsigned 64-bit count of 100 ns intervals since
 * 1601-01-01T00:00:00Z.  The client reads it as s64 after subtracting the
 * 1601..1970 offset, so the usable range is 1601-01-01 .. 30828-09-14
 * (S64_MAX intervals); before 1970 it returns a *non-normalised* timespec64
 * (tv_sec rounded toward zero, tv_nsec negative), exactly as the kernel does.
 *
 * DOS time (SMB1 / LANMAN servers): the FAT date and time words, 2 s
 * granularity, 1980..2107, converted by cnvrtDosUnixTm() with its own
 * (different but equivalent) leap-year arithmetic.
 */
#ifndef FSTIME_CIFS_TIME_H
#define FSTIME_CIFS_TIME_H

#include <stdbool.h>

#include "fs_time.h"
#include "kernel_types.h"
#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 100 ns intervals from 1601-01-01 to 1970-01-01: 369 years, 89 leap days. */
#define NTFS_TIME_OFFSET ((u64)(369 * 365 + 89) * 24 * 3600 * 10000000)
#define NT_INTERVALS_PER_SEC 10000000L
#define NSEC_PER_NT_INTERVAL 100L

/* SMB1 DOS date/time limits, as cifs_read_super() uses them. */
#define SMB_DATE_MAX (127 << 9 | 12 << 5 | 31)
#define SMB_DATE_MIN (0 << 9 | 1 << 5 | 1)
#define SMB_TIME_MAX (23 << 11 | 59 << 5 | 29)

/**
 * cifs_NTtimeToUnix - NT time to timespec64
 *
 * Defined for every input: values above 2^63 + NTFS_TIME_OFFSET wrap to
 * negative (the kernel's s64 conversion).  Negative results truncate toward
 * zero: tv_sec = -(|t| / 10^7), tv_nsec = -(|t| % 10^7) * 100.
 */
struct timespec64 cifs_NTtimeToUnix(__le64 ntutc);

/**
 * cifs_UnixTimeToNT - timespec64 to NT time
 *
 * (u64)tv_sec * 10^7 + tv_nsec / 100 + NTFS_TIME_OFFSET in u64 arithmetic:
 * wraps silently outside 1601..60056; tv_nsec is not checked (truncating
 * division, so a negative tv_nsec counts backwards).
 */
u64 cifs_UnixTimeToNT(struct timespec64 t);

/**
 * cnvrtDosUnixTm - DOS @le_date/@le_time (local) to Unix time, plus @offset s
 *
 * As mainline: day and month are clamped to 1..31 and 1..12, hours
 * (0..31), minutes (0..63) and 2-seconds (0..31) are used as they are
 * (the kernel only logs them); tv_nsec is 0.
 */
struct timespec64 cnvrtDosUnixTm(__le16 le_date, __le16 le_time, int offset);

/**
 * cifs_sb_set_time_limits - cifs_read_super() since v5.4
 *
 * @dos_time_only: an SMB1 server without NT find (DOS/OS2): gran 1 s and the
 * DOS range from cnvrtDosUnixTm(); else gran 100 ns and the NT range from
 * cifs_NTtimeToUnix(0) .. cifs_NTtimeToUnix(S64_MAX).
 */
void cifs_sb_set_time_limits(struct super_block *sb, bool dos_time_only);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_CIFS_TIME_H */
