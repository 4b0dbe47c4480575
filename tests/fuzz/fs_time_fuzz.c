// SPDX-License-Identifier: MIT
/*
 * fs_time_fuzz - clamp and truncate: input: s_time_min s64, s_time_max s64,
 * s_time_gran u32, tv_sec s64, tv_nsec long.
 * Properties: the division-free timestamp_truncate_reciprocal() equals
 * timestamp_truncate() bit for bit; with min <= max the mainline result is in
 * range, and at a bound its nsec is 0; with a legal gran and a valid nsec the
 * result is a multiple of gran; the RFC result is in range or marked.
 */
#include <inttypes.h>

#include "fs_time.h"
#include "fuzz_input.h"
#include "timeconv.h"

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
	/* tm64_to_time64 is exact while days * 86400 fits: |year| < 2.9e11. */
	if (tm.tm_year > INT64_C(-290000000000) && tm.tm_year < INT64_C(290000000000) &&
	    ts.tv_sec > INT64_MIN + 2 * 86400 && ts.tv_sec < INT64_MAX - 2 * 86400)
		FUZZ_CHECK(tm64_to_time64(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
					  tm.tm_min, tm.tm_sec) == ts.tv_sec, "tm round trip %" PRId64,
			   ts.tv_sec);
	return 0;
}
