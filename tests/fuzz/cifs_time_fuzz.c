// SPDX-License-Identifier: MIT
/*
 * cifs_time_fuzz - input: NT time u64, DOS date/time u16s, offset s32,
 * tv_sec s64, tv_nsec long.
 * Properties: NT -> Unix -> NT is the identity for every u64 (the kernel's
 * non-normalised negative timespec64 is what makes that true); Unix -> NT
 * and cnvrtDosUnixTm accept anything without undefined behaviour.
 */
#include <inttypes.h>

#include "cifs_time.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size, 0 };
	u64 nt = fuzz_u64(&in);
	u16 date = fuzz_u16(&in), time = fuzz_u16(&in);
	int offset = (int)(s32)fuzz_u32(&in);
	struct timespec64 ts;

	ts.tv_sec = fuzz_s64(&in);
	ts.tv_nsec = fuzz_long(&in);

	struct timespec64 u = cifs_NTtimeToUnix(cpu_to_le64(nt));

	FUZZ_CHECK(cifs_UnixTimeToNT(u) == nt, "nt %" PRIu64, nt);
	FUZZ_CHECK(u.tv_nsec > -NSEC_PER_SEC && u.tv_nsec < NSEC_PER_SEC, "nsec %ld", u.tv_nsec);
	FUZZ_CHECK(u.tv_nsec % 100 == 0, "100 ns units");

	(void)cifs_UnixTimeToNT(ts);
	/* The kernel passes a small server offset; keep the sum in range. */
	offset %= 1 << 30;
	struct timespec64 d = cnvrtDosUnixTm(cpu_to_le16(date), cpu_to_le16(time), offset);

	FUZZ_CHECK(d.tv_nsec == 0, "dos nsec");
	return 0;
}
