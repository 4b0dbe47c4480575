// SPDX-License-Identifier: MIT
/*
 * env_parse_test.c - src/support/env.h: which values of Y2038_SEED and the
 * other numeric variables are taken, which are refused, and what the
 * refusal says.  (CTest also runs a property test with bad seeds and checks
 * its message: tests/CMakeLists.txt, seed_refused_*.)
 */
#include <string.h>

#include "env.h"
#include "kunit.h"

struct env_case {
	const char *name;
	const char *text;
	uint64_t min, max;
	bool ok;
	uint64_t value;     /* when ok */
	const char *reason; /* when not ok: a substring of the message */
};

static const struct env_case env_cases[] = {
	{ "zero", "0", 0, UINT64_MAX, true, 0, NULL },
	{ "decimal", "1452144972", 0, UINT64_MAX, true, 1452144972, NULL },
	{ "leading zero stays decimal (no octal)", "010", 0, UINT64_MAX, true, 10, NULL },
	{ "hexadecimal", "0x9e3779b97f4a7c15", 0, UINT64_MAX, true, UINT64_C(0x9e3779b97f4a7c15), NULL },
	{ "upper-case hexadecimal", "0XFF", 0, UINT64_MAX, true, 255, NULL },
	{ "UINT64_MAX", "18446744073709551615", 0, UINT64_MAX, true, UINT64_MAX, NULL },
	{ "UINT64_MAX + 1 overflows", "18446744073709551616", 0, UINT64_MAX, false, 0,
	  "is out of range (0..18446744073709551615)" },
	{ "twenty digits overflow", "99999999999999999999", 0, UINT64_MAX, false, 0, "out of range" },
	{ "17 hex digits overflow", "0x10000000000000000", 0, UINT64_MAX, false, 0, "out of range" },
	{ "below the minimum", "0", 1, 10, false, 0, "is out of range (1..10)" },
	{ "above the maximum", "11", 1, 10, false, 0, "is out of range (1..10)" },
	{ "at the maximum", "10", 1, 10, true, 10, NULL },
	{ "negative", "-1", 0, UINT64_MAX, false, 0, "is not a number" },
	{ "plus sign", "+1", 0, UINT64_MAX, false, 0, "is not a number" },
	{ "leading blank", " 1", 0, UINT64_MAX, false, 0, "is not a number" },
	{ "trailing garbage", "12x", 0, UINT64_MAX, false, 0, "Y2038_TEST=\"12x\" is not a number" },
	{ "0x without digits", "0x", 0, UINT64_MAX, false, 0, "is not a number" },
	{ "hex digit in decimal", "1f", 0, UINT64_MAX, false, 0, "is not a number" },
	{ "float", "1.5", 0, UINT64_MAX, false, 0, "is not a number" },
};

int main(void)
{
	struct kunit test = { .suite = "env_parse_test" };

	for (size_t i = 0; i < ARRAY_SIZE(env_cases); i++) {
		const struct env_case *tc = &env_cases[i];
		uint64_t got = 0xdeadbeef;
		char err[256] = "";
		int rc = env_parse_u64("Y2038_TEST", tc->text, tc->min, tc->max, &got, err, sizeof(err));

		KUNIT_EXPECT_EQ(&test, tc->name, "return", tc->ok ? 0 : -1, rc);
		if (tc->ok) {
			KUNIT_EXPECT_UEQ(&test, tc->name, "value", tc->value, got);
		} else {
			KUNIT_EXPECT_UEQ(&test, tc->name, "value untouched", 0xdeadbeef, got);
			if (!KUNIT_EXPECT_TRUE(&test, tc->name, strstr(err, tc->reason) != NULL))
				fprintf(stderr, "  message: %s\n", err);
			KUNIT_EXPECT_TRUE(&test, tc->name, strstr(err, "Y2038_TEST=") == err);
		}
	}
	return kunit_finish(&test);
}
