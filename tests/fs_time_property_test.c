// SPDX-License-Identifier: MIT
/*
 * fs_time_property_test.c - properties of the clamp/trunc variants over
 * random inputs (seeded; the seed is printed, Y2038_SEED replays it).
 *
 * Properties, each counted per input:
 *  P1 both variants land in [s_time_min, s_time_max];
 *  P2 valid input nsec -> output nsec valid and a multiple of s_time_gran
 *     (RFC: unless clamped, when it is the marker);
 *  P3 idempotence: mainline exactly; RFC on unclamped values, and on clamped
 *     values once VFS_INODE_SET_XTIME has zeroed the marker;
 *  P4 monotonicity (a <= b -> f(a) <= f(b)) for valid nsec: mainline exactly
 *     (zeroing nsec at both ends is what buys it).  The RFC is not monotone:
 *     (1) the raw marker (INT_MAX) makes a value clamped up to s_time_min
 *     compare greater than a later {s_time_min, x}, which zeroing the marker
 *     (VFS_INODE_SET_XTIME) repairs; (2) even once stored, {s_time_max, x}
 *     keeps x while a later, clamped value becomes {s_time_max, 0}.  The test
 *     asserts that (2) is the only kind of inversion left and counts it;
 *  P5 timestamp_truncate_reciprocal() is bit-identical to timestamp_truncate()
 *     for every input, valid or not, legal granularity or not;
 *  P6 RFC and mainline agree exactly when s_time_min < tv_sec < s_time_max
 *     and tv_nsec is valid; elsewhere they differ exactly as documented in
 *     fs_time.h (marker vs 0, kept vs zeroed nsec at the ends, zeroed vs
 *     truncated invalid nsec).
 */
#include <limits.h>

#include "fs_time.h"
#include "kunit.h"
#include "rng.h"

static const uint32_t common_grans[] = { 1, 2, 3, 7, 100, 1000, 4096, 1000000, 10000000,
					 999999999, 1000000000 };

static const struct {
	time64_t min, max;
} ranges[] = {
	{ FS_DEFAULT_MIN_TIMESTAMP, FS_DEFAULT_MAX_TIMESTAMP }, /* RFC default */
	{ INT32_MIN, INT64_C(0x37fffffff) },                     /* ext4 with extra */
	{ INT32_MIN, INT32_MAX },                                /* ext2/3, xfs (2019) */
	{ 0, UINT32_MAX },                                       /* unsigned 32-bit */
	{ INT64_C(315532800), INT64_C(4354819199) },            /* FAT 1980..2107 */
	{ INT64_MIN, INT64_MAX },                                /* default, no limits */
};

/* Seconds near the edges that matter, or anywhere at all. */
static time64_t random_sec(struct rng *rng, time64_t min, time64_t max)
{
	static const time64_t anchors[] = { 0, INT32_MAX, (time64_t)INT32_MAX + 1, INT32_MIN,
					    UINT32_MAX, INT64_C(0x37fffffff), INT64_MAX,
					    INT64_MIN };
	uint64_t r = rng_next(rng);
	int64_t delta = (int64_t)(r >> 60) - 8; /* -8..7 */

	switch (r & 7) {
	case 0: /* around s_time_min */
		return delta < 0 && min < INT64_MIN - delta ? min : min + delta;
	case 1: /* around s_time_max */
		return delta > 0 && max > INT64_MAX - delta ? max : max + delta;
	case 2: {
		time64_t a = anchors[(r >> 3) % ARRAY_SIZE(anchors)];

		if ((delta > 0 && a > INT64_MAX - delta) || (delta < 0 && a < INT64_MIN - delta))
			return a;
		return a + delta;
	}
	case 3:
		return (time64_t)rng_next(rng); /* anywhere in int64 */
	default: /* a plausible time: 1900..2500 */
		return (time64_t)rng_below(rng, UINT64_C(19000000000)) - INT64_C(2208988800);
	}
}

static long random_nsec(struct rng *rng, bool *valid)
{
	uint64_t r = rng_next(rng);

	*valid = true;
	switch (r & 15) {
	case 0:
		*valid = false;
		return -(long)(r >> 40) - 1;
	case 1:
		*valid = false;
		return NSEC_PER_SEC + (long)((r >> 40) & 0xffff);
	case 2:
		return NSEC_PER_SEC - 1;
	case 3:
		return 0;
	default:
		return (long)((r >> 16) % NSEC_PER_SEC);
	}
}

static uint32_t random_gran(struct rng *rng)
{
	uint64_t r = rng_next(rng);

	if (r & 1)
		return common_grans[(r >> 1) % ARRAY_SIZE(common_grans)];
	return 2 + (uint32_t)((r >> 8) % (NSEC_PER_SEC - 2)); /* 2..999999999 */
}

static struct timespec64 zero_marker(struct timespec64 ts)
{
	if (is_fs_timestamp_bad(ts))
		ts.tv_nsec = 0;
	return ts;
}

struct tally {
	unsigned long inputs, checks, failures;
	unsigned long agree, differ_clamped, differ_at_end, differ_invalid_nsec;
	unsigned long rfc_inversions;
};

/* One failure report per property is plenty; the seed replays the rest. */
static void fail(struct tally *t, const char *property, time64_t sec, long nsec, uint32_t gran,
		 time64_t min, time64_t max, struct timespec64 got)
{
	if (t->failures++ < 10)
		fprintf(stderr,
			"FAIL %s: in {%lld, %ld} gran %u range [%lld, %lld] -> {%lld, %ld}\n",
			property, (long long)sec, nsec, gran, (long long)min, (long long)max,
			(long long)got.tv_sec, got.tv_nsec);
}

#define CHECK(t, cond, property, in, gran, sb, got)                                       \
	do {                                                                               \
		(t)->checks++;                                                             \
		if (!(cond))                                                               \
			fail((t), (property), (in).tv_sec, (in).tv_nsec, (gran),            \
			     (sb).s_time_min, (sb).s_time_max, (got));                     \
	} while (0)

static void check_one(struct tally *t, struct rng *rng)
{
	struct super_block sb = { 0 };
	uint32_t gran = random_gran(rng);
	bool nsec_valid;
	size_t which = rng_below(rng, ARRAY_SIZE(ranges));
	struct timespec64 a, b, rfc_a, rfc_b, main_a, main_b;

	sb.s_time_min = ranges[which].min;
	sb.s_time_max = ranges[which].max;
	sb_set_time_gran(&sb, gran);
	a.tv_sec = random_sec(rng, sb.s_time_min, sb.s_time_max);
	a.tv_nsec = random_nsec(rng, &nsec_valid);
	t->inputs++;

	rfc_a = fs_time_trunc(a, &sb);
	main_a = timestamp_truncate(a, &sb);

	/* P1 */
	CHECK(t, rfc_a.tv_sec >= sb.s_time_min && rfc_a.tv_sec <= sb.s_time_max, "P1 rfc range", a,
	      gran, sb, rfc_a);
	CHECK(t, main_a.tv_sec >= sb.s_time_min && main_a.tv_sec <= sb.s_time_max,
	      "P1 mainline range", a, gran, sb, main_a);

	/* P2 */
	if (!is_fs_timestamp_bad(rfc_a))
		CHECK(t, rfc_a.tv_nsec >= 0 && rfc_a.tv_nsec < NSEC_PER_SEC &&
			 rfc_a.tv_nsec % gran == 0, "P2 rfc nsec", a, gran, sb, rfc_a);
	if (nsec_valid)
		CHECK(t, main_a.tv_nsec >= 0 && main_a.tv_nsec < NSEC_PER_SEC &&
			 main_a.tv_nsec % gran == 0, "P2 mainline nsec", a, gran, sb, main_a);

	/* P3 */
	{
		struct timespec64 again = timestamp_truncate(main_a, &sb);
		struct timespec64 stored = zero_marker(rfc_a);
		struct timespec64 rfc_again = fs_time_trunc(stored, &sb);

		CHECK(t, timespec64_equal(&again, &main_a), "P3 mainline idempotent", a, gran, sb,
		      again);
		CHECK(t, timespec64_equal(&rfc_again, &stored), "P3 rfc idempotent once stored", a,
		      gran, sb, rfc_again);
	}

	/* P4: a second input at or after a, valid nsec on both sides. */
	if (nsec_valid) {
		uint64_t step = rng_below(rng, 3);

		b = a;
		if (step == 1 && b.tv_nsec < NSEC_PER_SEC - 1)
			b.tv_nsec += 1 + (long)rng_below(rng, (uint64_t)(NSEC_PER_SEC - 1 - b.tv_nsec));
		else if (step == 2 && b.tv_sec < INT64_MAX - 3)
			b.tv_sec += 1 + (time64_t)rng_below(rng, 3);
		main_b = timestamp_truncate(b, &sb);
		rfc_b = fs_time_trunc(b, &sb);
		CHECK(t, timespec64_compare(&main_a, &main_b) <= 0, "P4 mainline monotone", b, gran,
		      sb, main_b);
		{
			struct timespec64 sa = zero_marker(rfc_a), sb_ = zero_marker(rfc_b);

			if (timespec64_compare(&sa, &sb_) > 0) {
				/* Only the documented inversion (2) may remain. */
				t->rfc_inversions++;
				CHECK(t, a.tv_sec == sb.s_time_max && b.tv_sec > sb.s_time_max &&
					 sa.tv_sec == sb_.tv_sec && sb_.tv_nsec == 0,
				      "P4 rfc inverts only at s_time_max", b, gran, sb, sb_);
			}
		}
	}

	/* P5 */
	{
		struct timespec64 fast = timestamp_truncate_reciprocal(a, &sb);

		CHECK(t, timespec64_equal(&fast, &main_a), "P5 reciprocal == timestamp_truncate", a,
		      gran, sb, fast);
	}

	/* P6 */
	if (a.tv_sec > sb.s_time_max || a.tv_sec < sb.s_time_min) {
		/* Clamped: same seconds; RFC carries the marker, mainline 0. */
		t->differ_clamped++;
		CHECK(t, rfc_a.tv_sec == main_a.tv_sec && rfc_a.tv_nsec == FS_TIMESTAMP_NSEC_NOT_VALID &&
			 main_a.tv_nsec == 0, "P6 clamped: marker vs 0", a, gran, sb, rfc_a);
	} else if (!nsec_valid) {
		/* Invalid nsec in range: RFC zeroes it first, mainline truncates it raw. */
		struct timespec64 rfc_expect = timespec64_trunc((struct timespec64){ a.tv_sec, 0 }, gran);
		struct timespec64 main_expect = timespec64_trunc(a, gran);

		t->differ_invalid_nsec++;
		if (a.tv_sec == sb.s_time_min || a.tv_sec == sb.s_time_max)
			main_expect.tv_nsec = 0;
		CHECK(t, timespec64_equal(&rfc_a, &rfc_expect), "P6 invalid nsec: rfc zeroes", a, gran,
		      sb, rfc_a);
		CHECK(t, timespec64_equal(&main_a, &main_expect), "P6 invalid nsec: mainline raw", a,
		      gran, sb, main_a);
	} else if (a.tv_sec == sb.s_time_min || a.tv_sec == sb.s_time_max) {
		/* At an end, unclamped: RFC keeps truncated nsec, mainline zeroes it. */
		struct timespec64 rfc_expect = timespec64_trunc(a, gran);

		t->differ_at_end++;
		CHECK(t, timespec64_equal(&rfc_a, &rfc_expect) && main_a.tv_sec == a.tv_sec &&
			 main_a.tv_nsec == 0, "P6 at an end: kept vs 0", a, gran, sb, rfc_a);
	} else {
		t->agree++;
		CHECK(t, timespec64_equal(&rfc_a, &main_a), "P6 interior: identical", a, gran, sb,
		      rfc_a);
	}
}

int main(void)
{
	struct kunit test = { .suite = "fs_time_property_test" };
	struct rng rng = { rng_seed_from_env(test.suite) };
	unsigned long n = test_property_inputs(test.suite, 10000000UL);
	struct tally t = { 0 };
	unsigned long warnings_before = fs_time_gran_warnings();

	for (unsigned long i = 0; i < n; i++)
		check_one(&t, &rng);

	printf("%s: %lu inputs, %lu property checks; RFC == mainline on %lu, differ as documented: "
	       "%lu clamped, %lu at an end, %lu invalid nsec; RFC order inversions at s_time_max: "
	       "%lu\n",
	       test.suite, t.inputs, t.checks, t.agree, t.differ_clamped, t.differ_at_end,
	       t.differ_invalid_nsec, t.rfc_inversions);
	test.passed = t.checks - t.failures;
	test.failed = t.failures;
	/* Every class must actually have been exercised, or the properties prove little. */
	KUNIT_EXPECT_TRUE(&test, "coverage", t.agree > n / 10);
	KUNIT_EXPECT_TRUE(&test, "coverage", t.differ_clamped > n / 100);
	KUNIT_EXPECT_TRUE(&test, "coverage", t.differ_at_end > n / 1000);
	KUNIT_EXPECT_TRUE(&test, "coverage", t.differ_invalid_nsec > n / 100);
	KUNIT_EXPECT_EQ(&test, "legal granularities only", "warnings", 0,
			fs_time_gran_warnings() - warnings_before);
	return kunit_finish(&test);
}
