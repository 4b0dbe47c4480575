// SPDX-License-Identifier: MIT
/*
 * fs_presets_test.c - every row of shared/data/fs_timestamp_limits.txt has a
 * preset, and its computed first/last instant falls in the years the table
 * states (the table gives years, or S32/S64/U32 bounds, per file system).
 */
#include <string.h>

#include "fs_presets.h"
#include "kunit.h"
#include "timeconv.h"

#define Y_S64_MIN INT64_C(-292277022657)
#define Y_S64_MAX INT64_C(292277026596)

struct preset_case {
	const char *name;
	int64_t first_year, last_year; /* from the limits table */
	uint32_t gran;
};

static const struct preset_case cases[] = {
	{ "cramfs", 1970, 1970, 1000000000 },
	{ "romfs", 1970, 1970, 1000000000 },
	{ "pstore", Y_S64_MIN, Y_S64_MAX, 1000 },
	{ "coda", Y_S64_MIN, Y_S64_MAX, 1 },
	{ "omfs", 1970, 584556019, 1000000 },
	{ "befs", 1970, 8921556, 1000000000 },
	{ "bfs", 1970, 2106, 1000000000 },
	{ "efs", 1970, 2106, 1000000000 },
	{ "ext2", 1901, 2038, 1000000000 },
	{ "ext3", 1901, 2038, 1000000000 },
	{ "ext4 (old)", 1901, 2038, 1000000000 },
	{ "ext4 (extra)", 1901, 2446, 1 },
	{ "freevxfs", 1970, 2106, 1000000000 },
	{ "jffs2", 1970, 2106, 1000000000 },
	{ "jfs", 1970, 2106, 1 },
	{ "minix", 1970, 2106, 1000000000 },
	{ "orangefs", 1970, Y_S64_MAX, 1000000000 },
	{ "qnx4", 1970, 2106, 1000000000 },
	{ "qnx6", 1970, 2106, 1000000000 },
	{ "reiserfs", 1970, 2106, 1000000000 },
	{ "squashfs", 1970, 2106, 1000000000 },
	{ "ufs1", 1901, 2038, 1000000000 },
	{ "ufs2", Y_S64_MIN, Y_S64_MAX, 1 },
	{ "xfs", 1901, 2038, 1 },
	{ "ceph", 1970, 2106, 1000 },
	{ "sysv", 1970, 2106, 1000000000 },
	{ "affs", 1978, 11761199, 1000000000 },
	{ "nfsv2", 1970, 2106, 1 },
	{ "nfsv3", 1970, 2106, 1000 },
	{ "nfsv4", Y_S64_MIN, Y_S64_MAX, 1000 },
	{ "isofs", 1900, 2155, 1000000000 },
	{ "hpfs", 1970, 2106, 1000000000 },
	{ "fat", 1980, 2107, 1000000000 },
	{ "cifs (smb)", 1980, 2107, 1000000000 },
	{ "cifs (modern)", 1601, 30828, 100 },
	{ "adfs", 1900, 2248, 10000000 },
	{ "9p (9P2000)", 1970, 2106, 1000000000 },
	{ "9p (9P2000.L)", 1970, Y_S64_MAX, 1 },
	{ "rfc-2016-default", 1970, 2038, 1000000000 },
	{ "mainline-default", Y_S64_MIN, Y_S64_MAX, 1000000000 },
};

int main(void)
{
	struct kunit test = { .suite = "fs_presets_test" };
	size_t count;
	const struct fs_preset *all = fs_presets(&count);

	KUNIT_EXPECT_EQ(&test, "one case per preset", "count", ARRAY_SIZE(cases), count);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct preset_case *c = &cases[i];
		const struct fs_preset *p = fs_preset_find(c->name);

		if (!KUNIT_EXPECT_TRUE(&test, c->name, p != NULL))
			continue;
		KUNIT_EXPECT_TRUE(&test, c->name, strcmp(all[i].name, c->name) == 0);
		struct super_block sb = fs_preset_sb(p);
		struct tm64 first, last;

		time64_to_tm(sb.s_time_min, 0, &first);
		time64_to_tm(sb.s_time_max, 0, &last);
		KUNIT_EXPECT_EQ(&test, c->name, "first year", c->first_year, first.tm_year + 1900);
		KUNIT_EXPECT_EQ(&test, c->name, "last year", c->last_year, last.tm_year + 1900);
		KUNIT_EXPECT_EQ(&test, c->name, "s_time_gran", c->gran, sb.s_time_gran);
		KUNIT_EXPECT_TRUE(&test, c->name, sb.s_time_min <= sb.s_time_max);
	}
	KUNIT_EXPECT_TRUE(&test, "unknown name", fs_preset_find("ext5") == NULL);
	return kunit_finish(&test);
}
