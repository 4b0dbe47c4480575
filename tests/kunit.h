/* SPDX-License-Identifier: MIT */
/*
 * kunit.h - a KUnit-flavoured check harness for table-driven C tests.
 *
 * Checks never compile out.  A failure prints the case name, the field, the
 * expected and the actual value; a run ends with "<suite>: N passed, N failed"
 * and the process exit status says whether anything failed.
 */
#ifndef Y2038_TESTS_KUNIT_H
#define Y2038_TESTS_KUNIT_H

#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "env.h"

struct kunit {
	const char *suite;
	unsigned long passed, failed;
};

static inline bool kunit_check_i64(struct kunit *test, const char *file, int line,
				   const char *case_name, const char *field,
				   int64_t expected, int64_t actual)
{
	if (expected == actual) {
		test->passed++;
		return true;
	}
	test->failed++;
	fprintf(stderr, "%s:%d: FAIL [%s] %s: expected %" PRId64 ", got %" PRId64 "\n",
		file, line, case_name, field, expected, actual);
	return false;
}

static inline bool kunit_check_u64(struct kunit *test, const char *file, int line,
				   const char *case_name, const char *field,
				   uint64_t expected, uint64_t actual)
{
	if (expected == actual) {
		test->passed++;
		return true;
	}
	test->failed++;
	fprintf(stderr, "%s:%d: FAIL [%s] %s: expected %" PRIu64 " (0x%" PRIx64 "), got %" PRIu64
		" (0x%" PRIx64 ")\n", file, line, case_name, field, expected, expected, actual, actual);
	return false;
}

static inline bool kunit_check_true(struct kunit *test, const char *file, int line,
				    const char *case_name, const char *what, bool ok)
{
	if (ok) {
		test->passed++;
		return true;
	}
	test->failed++;
	fprintf(stderr, "%s:%d: FAIL [%s] %s\n", file, line, case_name, what);
	return false;
}

#define KUNIT_EXPECT_EQ(test, case_name, field, expected, actual) \
	kunit_check_i64((test), __FILE__, __LINE__, (case_name), (field), \
			(int64_t)(expected), (int64_t)(actual))
#define KUNIT_EXPECT_UEQ(test, case_name, field, expected, actual) \
	kunit_check_u64((test), __FILE__, __LINE__, (case_name), (field), \
			(uint64_t)(expected), (uint64_t)(actual))
#define KUNIT_EXPECT_TRUE(test, case_name, cond) \
	kunit_check_true((test), __FILE__, __LINE__, (case_name), #cond, (cond))

/* Both fields of a struct timespec64 (or anything with tv_sec/tv_nsec); each side evaluated once. */
#define KUNIT_EXPECT_TS_EQ(test, case_name, what, expected, actual)                         \
	do {                                                                                \
		const __typeof__(expected) kunit_expected_ = (expected);                    \
		const __typeof__(actual) kunit_actual_ = (actual);                          \
		KUNIT_EXPECT_EQ(test, case_name, what ".tv_sec", kunit_expected_.tv_sec,    \
				kunit_actual_.tv_sec);                                      \
		KUNIT_EXPECT_EQ(test, case_name, what ".tv_nsec", kunit_expected_.tv_nsec,  \
				kunit_actual_.tv_nsec);                                     \
	} while (0)

/* Print the closing line and turn the result into an exit status. */
static inline int kunit_finish(const struct kunit *test)
{
	printf("%s: %lu passed, %lu failed\n", test->suite, test->passed, test->failed);
	return test->failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * How many random inputs a property test draws: $Y2038_PROPERTY_INPUTS
 * (1..ULONG_MAX; a bad value exits 2, see env.h) or @fallback.  Printed.
 */
static inline unsigned long test_property_inputs(const char *suite, unsigned long fallback)
{
	unsigned long n = (unsigned long)env_u64(suite, "Y2038_PROPERTY_INPUTS", 1, ULONG_MAX, fallback);

	printf("%s: %lu random inputs\n", suite, n);
	return n;
}

#endif /* Y2038_TESTS_KUNIT_H */
