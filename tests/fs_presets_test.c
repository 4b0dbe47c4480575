// SPDX-License-Identifier: MIT
/*
 * fs_presets_test.c - every preset holds exactly the s_time_min, s_time_max
 * and s_time_gran that its file system's mount code sets.
 *
 * Each expected value is written as the kernel writes it (S32_MIN, U32_MAX,
 * 52*15*60, ...), and each row's comment names the code it was read from
 * (mainline, Linux 6.1 and later; removed file systems as of their last
 * release).  Where that code differs from the 2019 cover letter's limits
 * table, the row says "letter:" and what the letter had.  The first and
 * last year of every row are checked too, against the years the table gives.
 */
#include <limits.h>
#include <string.h>

#include "fs_presets.h"
#include "kernel_types.h"
#include "kunit.h"
#include "timeconv.h"

#define SEC 1000000000u                  /* alloc_super()'s s_time_gran */
#define Y_S64_MIN INT64_C(-292277022657)           /* the year of S64_MIN seconds */
#define Y_S64_MAX INT64_C(292277026596)            /* the year of S64_MAX seconds */
#define EPOCH_1900 INT64_C(-2208988800)            /* mktime64(1900, 1, 1, 0, 0, 0) */
#define ISOFS_MAX_TZ_OFFSET (52 * 15 * 60)         /* fs/isofs/inode.c MAX_TZ_OFFSET */
#define AFFS_EPOCH_DELTA ((8 * 365 + 2) * INT64_C(86400)) /* fs/affs/amigaffs.h */
#define FAT_FIRST INT64_C(315532800)               /* 1980-01-01 00:00:00 UTC */
#define FAT_LAST INT64_C(4354819198)               /* 2107-12-31 23:59:58 UTC */

struct preset_case {
	const char *name;
	time64_t min, max;
	uint32_t gran;
	int64_t first_year, last_year;
	bool removed; /* no longer in mainline */
};

static const struct preset_case cases[] = {
	/* fs/cramfs/inode.c cramfs_finalize_super(): 0..0; gran alloc_super() */
	{ "cramfs", 0, 0, SEC, 1970, 1970, false },
	/* fs/romfs/super.c romfs_fill_super(): 0..0; gran alloc_super() */
	{ "romfs", 0, 0, SEC, 1970, 1970, false },
	/* fs/pstore/inode.c pstore_fill_super(): gran 1, range alloc_super(); letter: gran 1000 */
	{ "pstore", S64_MIN, S64_MAX, 1, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/coda/inode.c coda_fill_super(): S64_MIN..S64_MAX, gran 1 */
	{ "coda", S64_MIN, S64_MAX, 1, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/omfs/inode.c omfs_fill_super(): 0..U64_MAX / MSEC_PER_SEC, NSEC_PER_MSEC */
	{ "omfs", 0, (time64_t)(UINT64_MAX / 1000), 1000000, 1970, 584556019, false },
	/* fs/befs/linuxvfs.c befs_fill_super(): 0..0xffffffffffff */
	{ "befs", 0, INT64_C(0xffffffffffff), SEC, 1970, 8921556, false },
	/* fs/bfs/inode.c bfs_fill_super(): 0..U32_MAX */
	{ "bfs", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/efs/super.c efs_fill_super(): 0..U32_MAX */
	{ "efs", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/ext2/super.c ext2_fill_super(): S32_MIN..S32_MAX */
	{ "ext2", S32_MIN, S32_MAX, SEC, 1901, 2038, false },
	/* fs/ext4/super.c ext4_inode_info_init() (ext4 mounts ext3), 128-byte inodes */
	{ "ext3", S32_MIN, S32_MAX, SEC, 1901, 2038, false },
	/* fs/ext4/super.c ext4_inode_info_init(): EXT4_TIMESTAMP_MIN..EXT4_NON_EXTRA_TIMESTAMP_MAX */
	{ "ext4 (old)", S32_MIN, S32_MAX, SEC, 1901, 2038, false },
	/* fs/ext4/super.c ext4_inode_info_init(): ..EXT4_EXTRA_TIMESTAMP_MAX, gran 1 */
	{ "ext4 (extra)", S32_MIN, (INT64_C(1) << 34) - 1 + S32_MIN, 1, 1901, 2446, false },
	/* fs/freevxfs/vxfs_super.c vxfs_fill_super(): 0..U32_MAX */
	{ "freevxfs", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/jffs2/fs.c jffs2_do_fill_super(): 0..U32_MAX */
	{ "jffs2", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/jfs/super.c jfs_fill_super(): 0..U32_MAX, gran 1 */
	{ "jfs", 0, U32_MAX, 1, 1970, 2106, false },
	/* fs/minix/inode.c minix_fill_super(): 0..U32_MAX */
	{ "minix", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/orangefs/super.c orangefs_fill_sb() sets none; letter: 0..U64_MAX */
	{ "orangefs", S64_MIN, S64_MAX, SEC, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/qnx4/inode.c qnx4_fill_super(): 0..U32_MAX */
	{ "qnx4", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/qnx6/inode.c qnx6_fill_super(): 0..U32_MAX */
	{ "qnx6", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/reiserfs/super.c reiserfs_fill_super(): 0..U32_MAX; removed in v6.13 */
	{ "reiserfs", 0, U32_MAX, SEC, 1970, 2106, true },
	/* fs/squashfs/super.c squashfs_fill_super(): 0..U32_MAX */
	{ "squashfs", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/ufs/super.c ufs_fill_super(): S32_MIN..S32_MAX, NSEC_PER_SEC */
	{ "ufs1", S32_MIN, S32_MAX, SEC, 1901, 2038, false },
	/* fs/ufs/super.c ufs_fill_super(), UFS_TYPE_UFS2: S64_MIN..S64_MAX, gran 1 */
	{ "ufs2", S64_MIN, S64_MAX, 1, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/xfs/xfs_super.c xfs_fs_fill_super(): XFS_LEGACY_TIME_MIN/MAX, gran 1 */
	{ "xfs", S32_MIN, S32_MAX, 1, 1901, 2038, false },
	/* fs/xfs/xfs_super.c xfs_fs_fill_super(): xfs_bigtime_to_unix(XFS_BIGTIME_TIME_MIN/MAX) */
	{ "xfs (bigtime)", S32_MIN, (time64_t)((UINT64_MAX / 1000000000) & ~UINT64_C(3)) + S32_MIN,
	  1, 1901, 2486, false },
	/* fs/ceph/super.c ceph_set_super(): 0..U32_MAX, gran 1; letter: gran 1000 */
	{ "ceph", 0, U32_MAX, 1, 1970, 2106, false },
	/* fs/sysv/super.c sysv_fill_super(), v7_fill_super(): 0..U32_MAX; removed in v6.15 */
	{ "sysv", 0, U32_MAX, SEC, 1970, 2106, true },
	/* fs/affs/super.c affs_fill_super(): 86400LL * U32_MAX + 86400 + s_time_min */
	{ "affs", AFFS_EPOCH_DELTA, INT64_C(86400) * U32_MAX + 86400 + AFFS_EPOCH_DELTA, SEC, 1978,
	  11761199, false },
	/* fs/nfs/super.c nfs_fill_super(), version 2: gran 1000; letter: gran 1 */
	{ "nfsv2", 0, U32_MAX, 1000, 1970, 2106, false },
	/* fs/nfs/super.c nfs_fill_super(), version 3: gran 1; letter: gran 1000 */
	{ "nfsv3", 0, U32_MAX, 1, 1970, 2106, false },
	/* fs/nfs/super.c nfs_fill_super(), version 4: S64_MIN..S64_MAX, gran 1; letter: 1000 */
	{ "nfsv4", S64_MIN, S64_MAX, 1, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/isofs/inode.c isofs_fill_super(): +- MAX_TZ_OFFSET; letter: 1900..2155 */
	{ "isofs", EPOCH_1900 - ISOFS_MAX_TZ_OFFSET, INT64_C(5869583999) + ISOFS_MAX_TZ_OFFSET, SEC,
	  1899, 2156, false },
	/* fs/hpfs/super.c hpfs_fill_super(): local_to_gmt(s, 0)..local_to_gmt(s, U32_MAX), UTC */
	{ "hpfs", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/fat/inode.c fat_fill_super(): fat_time_fat2unix() of the limits, gran 1 */
	{ "fat", FAT_FIRST, FAT_LAST, 1, 1980, 2107, false },
	/* fs/smb/client/cifsfs.c cifs_read_super(), DOS times: cnvrtDosUnixTm(), NSEC_PER_SEC */
	{ "cifs (smb)", FAT_FIRST, FAT_LAST, SEC, 1980, 2107, false },
	/* fs/smb/client/cifsfs.c cifs_read_super(): cifs_NTtimeToUnix(0 / S64_MAX), gran 100 */
	{ "cifs (modern)", INT64_C(-11644473600), INT64_C(910692730085), 100, 1601, 30828, false },
	/* fs/adfs/super.c adfs_fill_super(): gran 10000000 only; letter: 1900..2248 */
	{ "adfs", S64_MIN, S64_MAX, 10000000, Y_S64_MIN, Y_S64_MAX, false },
	/* fs/9p/vfs_super.c v9fs_fill_super(): 0..U32_MAX for 9P2000 */
	{ "9p (9P2000)", 0, U32_MAX, SEC, 1970, 2106, false },
	/* fs/9p/vfs_super.c v9fs_fill_super(): s_time_min 0 only; letter: ns */
	{ "9p (9P2000.L)", 0, S64_MAX, SEC, 1970, Y_S64_MAX, false },
	/* the 2016 RFC's alloc_super(): 0..INT_MAX, 1 s */
	{ "rfc-2016-default", 0, S32_MAX, SEC, 1970, 2038, false },
	/* fs/super.c alloc_super(): TIME64_MIN..TIME64_MAX, 1000000000 */
	{ "mainline-default", S64_MIN, S64_MAX, SEC, Y_S64_MIN, Y_S64_MAX, false },
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
		KUNIT_EXPECT_TRUE(&test, c->name, i < count && strcmp(all[i].name, c->name) == 0);
		struct super_block sb = fs_preset_sb(p);
		struct tm64 first, last;

		KUNIT_EXPECT_EQ(&test, c->name, "s_time_min", c->min, sb.s_time_min);
		KUNIT_EXPECT_EQ(&test, c->name, "s_time_max", c->max, sb.s_time_max);
		KUNIT_EXPECT_EQ(&test, c->name, "s_time_gran", c->gran, sb.s_time_gran);
		time64_to_tm(sb.s_time_min, 0, &first);
		time64_to_tm(sb.s_time_max, 0, &last);
		KUNIT_EXPECT_EQ(&test, c->name, "first year", c->first_year, first.tm_year + 1900);
		KUNIT_EXPECT_EQ(&test, c->name, "last year", c->last_year, last.tm_year + 1900);
		KUNIT_EXPECT_TRUE(&test, c->name, sb.s_time_min <= sb.s_time_max);
		/* Every row names its code; removed ones say when they went. */
		KUNIT_EXPECT_TRUE(&test, c->name, p->source && p->source[0] != '\0');
		KUNIT_EXPECT_TRUE(&test, c->name, p->note != NULL);
		KUNIT_EXPECT_EQ(&test, c->name, "removed", c->removed, p->removed != NULL);
		/* The division-free reciprocal matches the granularity it was set for. */
		if (sb.s_time_gran > 1 && sb.s_time_gran < SEC)
			KUNIT_EXPECT_EQ(&test, c->name, "reciprocal gran", sb.s_time_gran,
					sb.s_time_gran_reciprocal.gran);
	}
	KUNIT_EXPECT_TRUE(&test, "unknown name", fs_preset_find("ext5") == NULL);
	return kunit_finish(&test);
}
