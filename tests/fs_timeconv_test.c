// SPDX-License-Identifier: MIT
/*
 * fs_timeconv_test.c - table tests for src/fstime/timeconv.h over the whole
 * time64_t range, its two ends included.
 *
 * Each round-trip row is an instant and the civil fields it names; the
 * fields were computed with Python's arbitrary-precision integers from the
 * leap-year count (365 y + y/4 - y/100 + y/400), independently of
 * timeconv.c's 400-year eras.  Each row runs through time64_to_tm(),
 * tm64_to_time64() and time64_format_iso8601().  The civil rows give fields
 * outside their usual ranges, and instants beyond either end (saturated).
 * Where the compiler has a 128-bit integer, a grid of such fields is checked
 * against a 128-bit reference as well.
 */
#include <limits.h>
#include <string.h>

#include "kunit.h"
#include "timeconv.h"

struct round_trip_case {
	const char *name;
	time64_t t;
	const char *iso;
	int64_t year;
	int mon, mday, hour, min, sec; /* mon 1..12 */
	int wday, yday;
};

/* TIME64_MIN is 08:29:52 (30592 s into its day): 55808 s to the next midnight. */
static const struct round_trip_case round_trip_cases[] = {
	{ "TIME64_MIN: first instant; its midnight lies before TIME64_MIN", TIME64_MIN,
	  "-292277022657-01-27T08:29:52Z", INT64_C(-292277022657), 1, 27, 8, 29, 52, 0, 26 },
	{ "TIME64_MIN + 1", TIME64_MIN + 1, "-292277022657-01-27T08:29:53Z",
	  INT64_C(-292277022657), 1, 27, 8, 29, 53, 0, 26 },
	{ "last second of the first day", TIME64_MIN + 55807, "-292277022657-01-27T23:59:59Z",
	  INT64_C(-292277022657), 1, 27, 23, 59, 59, 0, 26 },
	{ "first midnight in range", TIME64_MIN + 55808, "-292277022657-01-28T00:00:00Z",
	  INT64_C(-292277022657), 1, 28, 0, 0, 0, 1, 27 },
	{ "last midnight in range", TIME64_MAX - 55807, "+292277026596-12-04T00:00:00Z",
	  INT64_C(292277026596), 12, 4, 0, 0, 0, 0, 338 },
	{ "TIME64_MAX - 1", TIME64_MAX - 1, "+292277026596-12-04T15:30:06Z",
	  INT64_C(292277026596), 12, 4, 15, 30, 6, 0, 338 },
	{ "TIME64_MAX: last instant", TIME64_MAX, "+292277026596-12-04T15:30:07Z",
	  INT64_C(292277026596), 12, 4, 15, 30, 7, 0, 338 },
	{ "epoch", 0, "1970-01-01T00:00:00Z", INT64_C(1970), 1, 1, 0, 0, 0, 4, 0 },
	{ "one second before the epoch", -1, "1969-12-31T23:59:59Z", INT64_C(1969), 12, 31,
	  23, 59, 59, 3, 364 },
	{ "year 0 is leap: 0000-02-29", INT64_C(-62162121600), "0000-02-29T00:00:00Z",
	  INT64_C(0), 2, 29, 0, 0, 0, 2, 59 },
	{ "last second of year 0 (1 BC)", INT64_C(-62135596801), "0000-12-31T23:59:59Z",
	  INT64_C(0), 12, 31, 23, 59, 59, 0, 365 },
	{ "year -1 ends", INT64_C(-62167219201), "-0001-12-31T23:59:59Z", INT64_C(-1), 12, 31,
	  23, 59, 59, 5, 364 },
	{ "2000-02-29", 951782400, "2000-02-29T00:00:00Z", INT64_C(2000), 2, 29, 0, 0, 0, 2, 59 },
	{ "2038-01-19T03:14:08: S32_MAX + 1", INT64_C(2147483648), "2038-01-19T03:14:08Z",
	  INT64_C(2038), 1, 19, 3, 14, 8, 2, 18 },
	{ "2100-03-01: 2100 is not leap", INT64_C(4107542400), "2100-03-01T00:00:00Z",
	  INT64_C(2100), 3, 1, 0, 0, 0, 1, 59 },
	{ "2446-05-10T22:38:55: the ext4 (extra) maximum", INT64_C(0x37fffffff),
	  "2446-05-10T22:38:55Z", INT64_C(2446), 5, 10, 22, 38, 55, 4, 129 },
};

static void test_round_trip(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(round_trip_cases); i++) {
		const struct round_trip_case *c = &round_trip_cases[i];
		struct tm64 tm;
		char buf[48];

		time64_to_tm(c->t, 0, &tm);
		KUNIT_EXPECT_EQ(test, c->name, "tm_year + 1900", c->year, tm.tm_year + 1900);
		KUNIT_EXPECT_EQ(test, c->name, "tm_mon + 1", c->mon, tm.tm_mon + 1);
		KUNIT_EXPECT_EQ(test, c->name, "tm_mday", c->mday, tm.tm_mday);
		KUNIT_EXPECT_EQ(test, c->name, "tm_hour", c->hour, tm.tm_hour);
		KUNIT_EXPECT_EQ(test, c->name, "tm_min", c->min, tm.tm_min);
		KUNIT_EXPECT_EQ(test, c->name, "tm_sec", c->sec, tm.tm_sec);
		KUNIT_EXPECT_EQ(test, c->name, "tm_wday", c->wday, tm.tm_wday);
		KUNIT_EXPECT_EQ(test, c->name, "tm_yday", c->yday, tm.tm_yday);
		KUNIT_EXPECT_EQ(test, c->name, "tm64_to_time64", c->t,
				tm64_to_time64(c->year, c->mon, c->mday, c->hour, c->min, c->sec));
		KUNIT_EXPECT_EQ(test, c->name, "iso8601 length", (int64_t)strlen(c->iso),
				time64_format_iso8601(c->t, buf, sizeof(buf)));
		if (!KUNIT_EXPECT_TRUE(test, c->name, strcmp(buf, c->iso) == 0))
			fprintf(stderr, "  [%s] ISO: expected %s, got %s\n", c->name, c->iso, buf);
	}
	/* The formatter refuses a buffer one byte short instead of truncating. */
	char small[29];

	KUNIT_EXPECT_EQ(test, "iso8601 of TIME64_MIN into 29 bytes", "return", -1,
			time64_format_iso8601(TIME64_MIN, small, sizeof(small)));
}

struct civil_case {
	const char *name;
	int64_t year;
	int mon, mday, hour, min, sec;
	time64_t t;
};

static const struct civil_case civil_cases[] = {
	{ "one second before TIME64_MIN: saturates", INT64_C(-292277022657), 1, 27, 8, 29, 51,
	  TIME64_MIN },
	{ "one second after TIME64_MAX: saturates", INT64_C(292277026596), 12, 4, 15, 30, 8,
	  TIME64_MAX },
	{ "midnight before TIME64_MIN: saturates", INT64_C(-292277022657), 1, 27, 0, 0, 0,
	  TIME64_MIN },
	{ "TIME64_MIN from midnight + 30592 s", INT64_C(-292277022657), 1, 27, 0, 0, 30592,
	  TIME64_MIN },
	{ "TIME64_MIN from the next midnight - 55808 s", INT64_C(-292277022657), 1, 28, 0, 0,
	  -55808, TIME64_MIN },
	{ "TIME64_MAX from 12-05 midnight - 30593 s", INT64_C(292277026596), 12, 5, 0, 0, -30593,
	  TIME64_MAX },
	{ "year INT64_MIN: saturates", INT64_MIN, 1, 1, 0, 0, 0, TIME64_MIN },
	{ "year INT64_MAX: saturates", INT64_MAX, 12, 31, 23, 59, 59, TIME64_MAX },
	{ "year INT64_MIN, month INT_MIN: saturates", INT64_MIN, INT_MIN, INT_MIN, INT_MIN,
	  INT_MIN, INT_MIN, TIME64_MIN },
	{ "year INT64_MAX, month INT_MAX: saturates", INT64_MAX, INT_MAX, INT_MAX, INT_MAX,
	  INT_MAX, INT_MAX, TIME64_MAX },
	{ "year INT64_MAX, months back INT_MIN: still saturates", INT64_MAX, INT_MIN, 1, 0, 0, 0,
	  TIME64_MAX },
	{ "year 1e15: saturates (far past day arithmetic)", INT64_C(1000000000000000), 1, 1, 0, 0,
	  0, TIME64_MAX },
	{ "month 13 is January of the next year", 1970, 13, 1, 0, 0, 0, 31536000 },
	{ "month 0 is December of the year before", 1970, 0, 1, 0, 0, 0, -2678400 },
	{ "month INT_MAX from year 0", 0, INT_MAX, 1, 0, 0, 0, INT64_C(5647274360841600) },
	{ "month INT_MIN from year 0", 0, INT_MIN, 1, 0, 0, 0, INT64_C(-5647398703315200) },
	{ "mday 0 is the day before the 1st (2000-02-29)", 2000, 3, 0, 0, 0, 0, 951782400 },
	{ "hour -1", 1970, 1, 1, -1, 0, 0, -3600 },
	{ "sec INT_MAX", 1970, 1, 1, 0, 0, INT_MAX, INT32_MAX },
	{ "hour, min, sec INT_MIN", 1970, 1, 1, INT_MIN, INT_MIN, INT_MIN,
	  INT64_C(-7861937635328) },
	{ "hour, min, sec INT_MAX", 1970, 1, 1, INT_MAX, INT_MAX, INT_MAX,
	  INT64_C(7861937631667) },
};

static void test_civil(struct kunit *test)
{
	for (size_t i = 0; i < ARRAY_SIZE(civil_cases); i++) {
		const struct civil_case *c = &civil_cases[i];

		KUNIT_EXPECT_EQ(test, c->name, "tm64_to_time64", c->t,
				tm64_to_time64(c->year, c->mon, c->mday, c->hour, c->min, c->sec));
	}
}

#ifdef __SIZEOF_INT128__
#include "civil_reference.h"

/* Every combination of edge values: carries, both ends, and far beyond. */
static void test_reference_grid(struct kunit *test)
{
	static const int64_t years[] = { INT64_MIN, INT64_C(-292277022658), INT64_C(-292277022657),
					 INT64_C(-292277022656), -1, 0, 1, 1969, 1970, 2000, 2100,
					 INT64_C(292277026596), INT64_C(292277026597), INT64_MAX };
	static const int mons[] = { INT_MIN, -13, -1, 0, 1, 2, 3, 12, 13, 25, INT_MAX };
	static const int mdays[] = { INT_MIN, -400, 0, 1, 27, 28, 29, 31, 366, INT_MAX };
	static const int hms[] = { INT_MIN, -86401, -1, 0, 8, 59, 86400, INT_MAX };
	unsigned long checked = 0, failed = 0;

	for (size_t a = 0; a < ARRAY_SIZE(years); a++)
	for (size_t b = 0; b < ARRAY_SIZE(mons); b++)
	for (size_t c = 0; c < ARRAY_SIZE(mdays); c++)
	for (size_t d = 0; d < ARRAY_SIZE(hms); d++)
	for (size_t e = 0; e < ARRAY_SIZE(hms); e++)
	for (size_t f = 0; f < ARRAY_SIZE(hms); f++) {
		time64_t want = civil_reference(years[a], mons[b], mdays[c], hms[d], hms[e], hms[f]);
		time64_t got = tm64_to_time64(years[a], mons[b], mdays[c], hms[d], hms[e], hms[f]);

		checked++;
		if (got != want && failed++ < 5)
			fprintf(stderr, "  tm64_to_time64(%" PRId64 ", %d, %d, %d, %d, %d): "
				"expected %" PRId64 ", got %" PRId64 "\n", years[a], mons[b],
				mdays[c], hms[d], hms[e], hms[f], want, got);
	}
	printf("  128-bit reference grid: %lu inputs, %lu failed\n", checked, failed);
	KUNIT_EXPECT_EQ(test, "128-bit reference grid", "failures", 0, failed);
}
#else
static void test_reference_grid(struct kunit *test)
{
	(void)test;
	printf("  128-bit reference grid: skipped (no __int128 on this ABI)\n");
}
#endif

int main(void)
{
	struct kunit test = { .suite = "fs_timeconv_test" };

	test_round_trip(&test);
	test_civil(&test);
	test_reference_grid(&test);
	return kunit_finish(&test);
}
