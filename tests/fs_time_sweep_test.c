// SPDX-License-Identifier: MIT
/*
 * fs_time_sweep_test.c - slow: the division-free truncation against a plain
 * reference, for every nanosecond value 0..NSEC_PER_SEC-1 at a few
 * granularities chosen to stress the reciprocal (smallest odd, a power of two,
 * the largest legal, a large prime), plus every legal granularity up to 4096
 * at the values around each multiple that matter.
 */
#include "fs_time.h"
#include "kunit.h"

/* The obvious way, in 64-bit arithmetic, nothing clever. */
static long reference_trunc(long nsec, uint32_t gran)
{
	return (long)((int64_t)nsec - (int64_t)nsec % (int64_t)gran);
}

static unsigned long sweep(struct kunit *test, uint32_t gran, long first, long last, long step)
{
	struct super_block sb = { .s_time_min = INT64_MIN, .s_time_max = INT64_MAX };
	unsigned long mismatches = 0, n = 0;

	sb_set_time_gran(&sb, gran);
	for (long nsec = first; nsec <= last; nsec += step, n++) {
		struct timespec64 in = { .tv_sec = 1, .tv_nsec = nsec };
		struct timespec64 got = timestamp_truncate_reciprocal(in, &sb);

		if (got.tv_nsec != reference_trunc(nsec, gran) && mismatches++ < 5)
			fprintf(stderr, "gran %u nsec %ld: got %ld, reference %ld\n", gran, nsec,
				got.tv_nsec, reference_trunc(nsec, gran));
		if (nsec > last - step)
			break; /* no signed overflow on the last step */
	}
	KUNIT_EXPECT_EQ(test, "sweep", "mismatches", 0, mismatches);
	return n;
}

int main(void)
{
	struct kunit test = { .suite = "fs_time_sweep_test" };
	static const uint32_t full_grans[] = { 3, 1u << 20, 999999999, 999999937 };
	unsigned long inputs = 0;

	for (size_t i = 0; i < ARRAY_SIZE(full_grans); i++)
		inputs += sweep(&test, full_grans[i], 0, NSEC_PER_SEC - 1, 1);

	/* Every small granularity, at k*gran - 1, k*gran, k*gran + 1 for every k. */
	for (uint32_t gran = 2; gran <= 4096; gran++) {
		struct super_block sb = { .s_time_min = INT64_MIN, .s_time_max = INT64_MAX };
		unsigned long mismatches = 0;

		sb_set_time_gran(&sb, gran);
		for (long base = gran; base < NSEC_PER_SEC; base += gran * 97L) {
			for (long nsec = base - 1; nsec <= base + 1; nsec++, inputs++) {
				struct timespec64 in = { .tv_sec = 1, .tv_nsec = nsec };

				if (timestamp_truncate_reciprocal(in, &sb).tv_nsec !=
				    reference_trunc(nsec, gran))
					mismatches++;
			}
		}
		KUNIT_EXPECT_EQ(&test, "every gran 2..4096 near its multiples", "mismatches", 0,
				mismatches);
	}
	/* The reciprocal's own domain edge: 2^31 - 1 is the last value it multiplies. */
	inputs += sweep(&test, 7, (1L << 30), (long)((1UL << 31) - 1), 4093);
	printf("%s: %lu inputs compared with the reference\n", test.suite, inputs);
	return kunit_finish(&test);
}
