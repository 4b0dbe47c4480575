// SPDX-License-Identifier: MIT
/*
 * ext4_time_fuzz - input: base u32, extra u32, tv_sec s64, tv_nsec long.
 * Properties: every (base, extra) pair decodes and re-encodes bit-exactly
 * (mainline); the 2016 decoder differs from mainline only in the legacy
 * case; set+get round-trips exactly what ext4_time_representable() says.
 */
#include <inttypes.h>

#include "ext4_time.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size, 0 };
	u32 base = fuzz_u32(&in), extra = fuzz_u32(&in);
	struct timespec64 ts;

	ts.tv_sec = fuzz_s64(&in);
	ts.tv_nsec = fuzz_long(&in);

	struct timespec64 d = ext4_decode_extra_time(cpu_to_le32(base), cpu_to_le32(extra));

	FUZZ_CHECK(le32_to_cpu(ext4_encode_extra_time(d)) == extra, "extra %08" PRIx32, extra);
	FUZZ_CHECK(d.tv_nsec >= 0 && d.tv_nsec < (1L << 30), "nsec %ld", d.tv_nsec);

	struct timespec64 old = { .tv_sec = (s32)base };
	bool legacy = (extra & EXT4_EPOCH_MASK) == 3 && (base & 0x80000000u);

	ext4_decode_extra_time_2016(&old, cpu_to_le32(extra));
	FUZZ_CHECK(old.tv_nsec == d.tv_nsec, "2016 nsec");
	FUZZ_CHECK(old.tv_sec == (legacy ? d.tv_sec - INT64_C(0x300000000) : d.tv_sec),
		   "2016 sec %" PRId64 " vs %" PRId64, old.tv_sec, d.tv_sec);

	for (int gen = EXT4_TIME_2016; gen <= EXT4_TIME_MAINLINE; gen++) {
		for (int has_extra = 0; has_extra <= 1; has_extra++) {
			struct ext4_raw_time raw = { 0, 0 };
			struct timespec64 got;

			ext4_inode_set_xtime(gen, has_extra, &raw, ts);
			got = ext4_inode_get_xtime(gen, has_extra, &raw);
			if (ext4_time_representable(gen, has_extra, ts.tv_sec)) {
				FUZZ_CHECK(got.tv_sec == ts.tv_sec, "gen %d extra %d sec %" PRId64,
					   gen, has_extra, ts.tv_sec);
				if (has_extra && ts.tv_nsec >= 0 && ts.tv_nsec < NSEC_PER_SEC)
					FUZZ_CHECK(got.tv_nsec == ts.tv_nsec, "nsec %ld", ts.tv_nsec);
			} else {
				FUZZ_CHECK(got.tv_sec != ts.tv_sec, "unrepresentable came back");
			}
			if (!has_extra)
				FUZZ_CHECK(got.tv_nsec == 0, "no extra: nsec");
		}
	}
	return 0;
}
