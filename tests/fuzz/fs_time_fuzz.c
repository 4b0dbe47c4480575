// SPDX-License-Identifier: MIT
/*
 * fs_time_fuzz - clamp and truncate, and the calendar under them: input:
 * s_time_min s64, s_time_max s64, s_time_gran u32, tv_sec s64, tv_nsec long,
 * then year s64, mon/mday/hour/min/sec s32 each.
 * Properties: the division-free timestamp_truncate_reciprocal() equals
 * timestamp_truncate() bit for bit; with min <= max the mainline result is in
 * range, and at a bound its nsec is 0; with min > max it is what mainline's
 * clamp() gives (max for tv_sec >= max, else min) and the RFC's clamp_val()
 * gives max; with a legal gran and a valid nsec the result is a multiple of
 * gran; the RFC result is in range or marked.  time64_to_tm() splits every
 * time64_t, TIME64_MIN and TIME64_MAX included, and tm64_to_time64() rebuilds
 * it exactly; for any civil fields tm64_to_time64() equals a 128-bit count of
 * leap years, saturated to the time64_t range.
 */
#include <inttypes.h>

#include "fs_time.h"
#include "fuzz_input.h"
#include "timeconv.h"
#include "../civil_reference.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size, 0 };
	struct super_block sb = { 0 };
	struct timespec64 ts;

	sb.s_time_min = fuzz_s64(&in);
	sb.s_time_max = fuzz_s64(&in);
	sb_set_time_gran(&sb, fuzz_u32(&in));
	ts.tv_sec = fuzz_s64(&in);
	ts.tv_nsec = fuzz_long(&in);

	struct timespec64 m = timestamp_truncate(ts, &sb);
	struct timespec64 r = timestamp_truncate_reciprocal(ts, &sb);
	struct timespec64 rfc = fs_time_trunc(ts, &sb);
	bool gran_ok = sb.s_time_gran >= 1 && sb.s_time_gran <= NSEC_PER_SEC;

	FUZZ_CHECK(m.tv_sec == r.tv_sec && m.tv_nsec == r.tv_nsec, "reciprocal differs: gran %" PRIu32
		   " nsec %ld: %ld vs %ld", sb.s_time_gran, ts.tv_nsec, m.tv_nsec, r.tv_nsec);
	if (sb.s_time_min <= sb.s_time_max) {
		FUZZ_CHECK(m.tv_sec >= sb.s_time_min && m.tv_sec <= sb.s_time_max, "range");
		FUZZ_CHECK(rfc.tv_sec >= sb.s_time_min && rfc.tv_sec <= sb.s_time_max, "rfc range");
		if (m.tv_sec == sb.s_time_min || m.tv_sec == sb.s_time_max)
			FUZZ_CHECK(m.tv_nsec == 0, "nsec at bound");
	} else {
		/* Misconfigured: clamp() tests hi first; clamp_val() ends on hi. */
		FUZZ_CHECK(m.tv_sec == (ts.tv_sec >= sb.s_time_max ? sb.s_time_max : sb.s_time_min) &&
			   m.tv_nsec == 0, "min > max: mainline %" PRId64 ".%ld", m.tv_sec, m.tv_nsec);
		FUZZ_CHECK(rfc.tv_sec == sb.s_time_max && is_fs_timestamp_bad(rfc),
			   "min > max: rfc %" PRId64, rfc.tv_sec);
	}
	if (gran_ok && ts.tv_nsec >= 0 && ts.tv_nsec < NSEC_PER_SEC)
		FUZZ_CHECK(m.tv_nsec % (long)sb.s_time_gran == 0, "gran multiple");
	if (!is_fs_timestamp_bad(rfc) && gran_ok)
		FUZZ_CHECK(rfc.tv_nsec >= 0 && rfc.tv_nsec < NSEC_PER_SEC &&
			   rfc.tv_nsec % (long)sb.s_time_gran == 0, "rfc nsec %ld", rfc.tv_nsec);
	(void)timespec64_trunc(ts, sb.s_time_gran);

	/* The calendar under FAT and the expiry table: split and rebuild. */
	struct tm64 tm;

	time64_to_tm(ts.tv_sec, 0, &tm);
	FUZZ_CHECK(tm.tm_mon >= 0 && tm.tm_mon < 12 && tm.tm_mday >= 1 && tm.tm_mday <= 31 &&
		   tm.tm_hour < 24 && tm.tm_min < 60 && tm.tm_sec < 60 && tm.tm_yday <= 365 &&
		   tm.tm_wday >= 0 && tm.tm_wday < 7, "tm fields");
	/* Every time64_t, both ends included, rebuilds exactly. */
	FUZZ_CHECK(tm64_to_time64(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
				  tm.tm_min, tm.tm_sec) == ts.tv_sec, "tm round trip %" PRId64, ts.tv_sec);

	/* Any civil fields: exact or saturated, as the 128-bit count says. */
	int64_t year = fuzz_s64(&in);
	int mon = fuzz_s32(&in), mday = fuzz_s32(&in), hour = fuzz_s32(&in);
	int min = fuzz_s32(&in), sec = fuzz_s32(&in);
	time64_t want = civil_reference(year, mon, mday, hour, min, sec);
	time64_t got = tm64_to_time64(year, mon, mday, hour, min, sec);

	FUZZ_CHECK(got == want, "tm64_to_time64(%" PRId64 ", %d, %d, %d, %d, %d) = %" PRId64
		   ", reference %" PRId64, year, mon, mday, hour, min, sec, got, want);
	return 0;
}
