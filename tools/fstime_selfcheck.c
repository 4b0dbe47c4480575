// SPDX-License-Identifier: MIT
/*
 * fstime-selfcheck - print how the RFC's fs_time_trunc() and mainline's
 * timestamp_truncate() treat the instants the y2038 debate is about, on the
 * super-block ranges that matter, and check the division-free variant against
 * mainline on every one.  Exit status 1 if any check fails, 2 for any
 * argument other than --help (one line on stderr).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fs_time.h"

struct named_sb {
	const char *name;
	time64_t min, max;
	uint32_t gran;
};

static const struct named_sb sbs[] = {
	{ "RFC default 0..INT_MAX, 1 s", FS_DEFAULT_MIN_TIMESTAMP, FS_DEFAULT_MAX_TIMESTAMP, 1000000000 },
	{ "ext4 (extra) S32_MIN..0x37fffffff, 1 ns", INT32_MIN, INT64_C(0x37fffffff), 1 },
	{ "u32 seconds 0..U32_MAX, 1 s", 0, UINT32_MAX, 1000000000 },
	{ "nfsv3 0..U32_MAX, 1 us", 0, UINT32_MAX, 1000 },
	{ "full range S64_MIN..S64_MAX, 1 ns", INT64_MIN, INT64_MAX, 1 },
};

struct named_instant {
	const char *name;
	struct timespec64 ts;
};

static const struct named_instant instants[] = {
	{ "1901-12-13T20:45:51.5 (S32_MIN-1)", { (time64_t)INT32_MIN - 1, 500000000 } },
	{ "1969-12-31T23:59:59.123456789", { -1, 123456789 } },
	{ "2016-01-07T05:36:12.123456789 (RFC posted)", { 1452144972, 123456789 } },
	{ "2038-01-19T03:14:07.999999999", { INT32_MAX, 999999999 } },
	{ "2038-01-19T03:14:08.000000001", { (time64_t)INT32_MAX + 1, 1 } },
	{ "2106-02-07T06:28:16.5 (2^32 s)", { INT64_C(4294967296), 500000000 } },
	{ "2446-05-10T22:38:56.25 (ext4 max + 1)", { INT64_C(0x380000000), 250000000 } },
	{ "INT64_MAX seconds", { INT64_MAX, 999999999 } },
};

static void print_ts(struct timespec64 ts)
{
	if (ts.tv_nsec == FS_TIMESTAMP_NSEC_NOT_VALID)
		printf(" %20" PRId64 ".NOT_VALID", ts.tv_sec);
	else
		printf(" %20" PRId64 ".%09ld ", ts.tv_sec, ts.tv_nsec);
}

static const char usage[] =
	"Usage: fstime-selfcheck [--help]\n"
	"\n"
	"Print how the 2016 RFC's fs_time_trunc() and mainline's timestamp_truncate()\n"
	"treat the instants the y2038 debate is about, on the super-block ranges that\n"
	"matter, and check the division-free timestamp_truncate_reciprocal() against\n"
	"timestamp_truncate() on every one.\n"
	"\n"
	"Exit status: 0 if every check passed, 1 if one failed, 2 for a bad argument.\n";

int main(int argc, char **argv)
{
	unsigned long checks = 0, failures = 0;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(usage, stdout);
		return EXIT_SUCCESS;
	}
	if (argc > 1) {
		fprintf(stderr, "fstime-selfcheck: unknown argument '%s' (it takes none; try --help)\n",
			argv[1]);
		return 2;
	}

	printf("fstime self-check: RFC fs_time_trunc() vs mainline timestamp_truncate()\n");
	printf("(NOT_VALID = the RFC's clamp marker FS_TIMESTAMP_NSEC_NOT_VALID; "
	       "mainline stores 0 instead)\n");
	for (size_t s = 0; s < sizeof(sbs) / sizeof(sbs[0]); s++) {
		struct super_block sb = { .s_time_min = sbs[s].min, .s_time_max = sbs[s].max };

		sb_set_time_gran(&sb, sbs[s].gran);
		printf("\n== %s\n%-44s %30s %30s\n", sbs[s].name, "instant", "RFC fs_time_trunc",
		       "mainline timestamp_truncate");
		for (size_t i = 0; i < sizeof(instants) / sizeof(instants[0]); i++) {
			struct timespec64 rfc = fs_time_trunc(instants[i].ts, &sb);
			struct timespec64 mainline = timestamp_truncate(instants[i].ts, &sb);
			struct timespec64 fast = timestamp_truncate_reciprocal(instants[i].ts, &sb);

			printf("%-44s", instants[i].name);
			print_ts(rfc);
			print_ts(mainline);
			printf("%s\n", is_fs_timestamp_bad(rfc) ? "  clamped" : "");
			checks++;
			if (!timespec64_equal(&fast, &mainline)) {
				failures++;
				printf("  FAIL: division-free variant differs from timestamp_truncate\n");
			}
		}
	}
	printf("\nfstime self-check: %lu passed, %lu failed\n", checks - failures, failures);
	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
