// SPDX-License-Identifier: MIT
/*
 * fs_presets.c - per-file-system timestamp limits.  Each init function does
 * what that file system's mount code does; the table names the code and says
 * where the 2019 cover letter's limits table differs from it.
 */
#include "fs_presets.h"

#include <string.h>

#include "cifs_time.h"
#include "ext4_time.h"
#include "fat_time.h"
#include "kernel_types.h"
#include "timeconv.h"

static void set(struct super_block *sb, time64_t min, time64_t max, u32 gran)
{
	sb->s_time_min = min;
	sb->s_time_max = max;
	sb_set_time_gran(sb, gran);
}

/* alloc_super() (fs/super.c): what a file system gets when it sets nothing. */
static void init_mainline_default(struct super_block *sb)
{
	set(sb, S64_MIN, S64_MAX, NSEC_PER_SEC);
}
/* "fixed": the file system has no timestamps; every inode reads 0. */
static void init_fixed(struct super_block *sb) { set(sb, 0, 0, NSEC_PER_SEC); }
static void init_s64_ns(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, 1); }
static void init_omfs(struct super_block *sb)
{
	/* 64-bit milliseconds: U64_MAX / MSEC_PER_SEC seconds fits a time64_t. */
	set(sb, 0, (time64_t)(U64_MAX / MSEC_PER_SEC), NSEC_PER_MSEC);
}
static void init_befs(struct super_block *sb) { set(sb, 0, INT64_C(0xffffffffffff), NSEC_PER_SEC); }
static void init_u32_sec(struct super_block *sb) { set(sb, 0, U32_MAX, NSEC_PER_SEC); }
static void init_u32_ns(struct super_block *sb) { set(sb, 0, U32_MAX, 1); }
static void init_u32_us(struct super_block *sb) { set(sb, 0, U32_MAX, NSEC_PER_USEC); }
static void init_s32_sec(struct super_block *sb) { set(sb, S32_MIN, S32_MAX, NSEC_PER_SEC); }
static void init_s32_ns(struct super_block *sb) { set(sb, S32_MIN, S32_MAX, 1); }
static void init_ext4_old(struct super_block *sb) { ext4_sb_set_time_limits(sb, false); }
static void init_ext4_extra(struct super_block *sb) { ext4_sb_set_time_limits(sb, true); }

/*
 * XFS bigtime (fs/xfs/libxfs/xfs_format.h): an unsigned 64-bit count of
 * nanoseconds from the legacy minimum (S32_MIN).  The largest second is
 * U64_MAX / NSEC_PER_SEC rounded down to a multiple of 4, kept in seconds
 * relative to that epoch.
 */
#define XFS_BIGTIME_EPOCH_OFFSET (-(time64_t)S32_MIN)
#define XFS_BIGTIME_TIME_MIN ((time64_t)0)
#define XFS_BIGTIME_TIME_MAX ((time64_t)((U64_MAX / NSEC_PER_SEC) & ~(u64)3))
static time64_t xfs_bigtime_to_unix(time64_t ondisk_seconds)
{
	return ondisk_seconds - XFS_BIGTIME_EPOCH_OFFSET;
}
static void init_xfs_bigtime(struct super_block *sb)
{
	set(sb, xfs_bigtime_to_unix(XFS_BIGTIME_TIME_MIN), xfs_bigtime_to_unix(XFS_BIGTIME_TIME_MAX),
	    1);
}

static void init_affs(struct super_block *sb)
{
	/* AFFS_EPOCH_DELTA: 1978-01-01; then 86400 * U32_MAX + 86400 seconds on. */
	time64_t min = tm64_to_time64(1978, 1, 1, 0, 0, 0);

	set(sb, min, (time64_t)SECS_PER_DAY * U32_MAX + SECS_PER_DAY + min, NSEC_PER_SEC);
}

/* isofs: the most any ISO 9660 time-zone byte can move a time (13 h). */
#define ISOFS_MAX_TZ_OFFSET (52 * 15 * 60)
static void init_isofs(struct super_block *sb)
{
	/* u8 years since 1900, widened by the largest time-zone offset. */
	set(sb, tm64_to_time64(1900, 1, 1, 0, 0, 0) - ISOFS_MAX_TZ_OFFSET,
	    tm64_to_time64(1900 + 255, 12, 31, 23, 59, 59) + ISOFS_MAX_TZ_OFFSET, NSEC_PER_SEC);
}
static void init_fat(struct super_block *sb)
{
	const struct msdos_sb_info sbi = { .options = { .tz_set = 1, .time_offset = 0 } };

	fat_sb_set_time_limits(sb, &sbi);
}
static void init_cifs_dos(struct super_block *sb) { cifs_sb_set_time_limits(sb, true); }
static void init_cifs_nt(struct super_block *sb) { cifs_sb_set_time_limits(sb, false); }
/* adfs sets only the granularity, one centisecond; the range stays alloc_super()'s. */
static void init_adfs(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, 10 * NSEC_PER_MSEC); }
/* 9P2000.L: s_time_min 0, s_time_max and s_time_gran left as alloc_super() set them. */
static void init_9p_l(struct super_block *sb) { set(sb, 0, S64_MAX, NSEC_PER_SEC); }
static void init_rfc_default(struct super_block *sb) { sb_init_rfc_defaults(sb); }

#define GRAN_DEFAULT "; s_time_gran: alloc_super()"
#define NO_GRAN_IN_LETTER "the cover letter gives no granularity"

static const struct fs_preset presets[] = {
	{ "cramfs", "fixed", init_fixed, "fs/cramfs/inode.c cramfs_finalize_super()" GRAN_DEFAULT,
	  "", NULL },
	{ "romfs", "fixed", init_fixed, "fs/romfs/super.c romfs_fill_super()" GRAN_DEFAULT, "",
	  NULL },
	{ "pstore", "ascii seconds (27 digit ascii)", init_s64_ns,
	  "fs/pstore/inode.c pstore_fill_super(); range: alloc_super()",
	  "cover letter: s_time_gran NSEC_PER_USEC; the code sets 1", NULL },
	{ "coda", "INT64", init_s64_ns, "fs/coda/inode.c coda_fill_super()", "", NULL },
	{ "omfs", "64-bit milliseconds", init_omfs, "fs/omfs/inode.c omfs_fill_super()", "", NULL },
	{ "befs", "unsigned 48-bit seconds", init_befs,
	  "fs/befs/linuxvfs.c befs_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "bfs", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/bfs/inode.c bfs_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "efs", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/efs/super.c efs_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "ext2", "signed 32-bit seconds", init_s32_sec,
	  "fs/ext2/super.c ext2_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "ext3", "signed 32-bit seconds", init_ext4_old,
	  "fs/ext4/super.c ext4_inode_info_init() (ext4 mounts ext3 since v4.3)",
	  "ext3 has no driver of its own: 128-byte inodes get this row, larger ones "
	  "\"ext4 (extra)\"", NULL },
	{ "ext4 (old)", "signed 32-bit seconds", init_ext4_old,
	  "fs/ext4/super.c ext4_inode_info_init()", "", NULL },
	{ "ext4 (extra)", "34-bit seconds, 30-bit ns", init_ext4_extra,
	  "fs/ext4/super.c ext4_inode_info_init()", "", NULL },
	{ "freevxfs", "u32 secs/usecs", init_u32_sec,
	  "fs/freevxfs/vxfs_super.c vxfs_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "jffs2", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/jffs2/fs.c jffs2_do_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "jfs", "unsigned 32-bit seconds/ns", init_u32_ns, "fs/jfs/super.c jfs_fill_super()", "",
	  NULL },
	{ "minix", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/minix/inode.c minix_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "orangefs", "u64 seconds", init_mainline_default,
	  "fs/orangefs/super.c orangefs_fill_sb() sets none: alloc_super()",
	  "cover letter: 0..U64_MAX; the code sets no limits", NULL },
	{ "qnx4", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/qnx4/inode.c qnx4_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "qnx6", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/qnx6/inode.c qnx6_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "reiserfs", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/reiserfs/super.c reiserfs_fill_super()" GRAN_DEFAULT, "", "v6.13" },
	{ "squashfs", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/squashfs/super.c squashfs_fill_super()" GRAN_DEFAULT, "", NULL },
	{ "ufs1", "signed 32-bit seconds", init_s32_sec, "fs/ufs/super.c ufs_fill_super()", "",
	  NULL },
	{ "ufs2", "signed 64-bit seconds/u32 ns", init_s64_ns, "fs/ufs/super.c ufs_fill_super()",
	  "", NULL },
	{ "xfs", "signed 32-bit seconds/ns", init_s32_ns,
	  "fs/xfs/xfs_super.c xfs_fs_fill_super(): XFS_LEGACY_TIME_MIN/MAX",
	  "without bigtime; see \"xfs (bigtime)\"", NULL },
	{ "xfs (bigtime)", "unsigned 64-bit ns since 1901-12-13", init_xfs_bigtime,
	  "fs/xfs/xfs_super.c xfs_fs_fill_super(): xfs_bigtime_to_unix(XFS_BIGTIME_TIME_MIN/MAX)",
	  "not in the cover letter: v5.10, the mkfs.xfs default since xfsprogs 5.15", NULL },
	{ "ceph", "unsigned 32-bit second/ns", init_u32_ns, "fs/ceph/super.c ceph_set_super()",
	  "cover letter: s_time_gran 1000; the code sets 1", NULL },
	{ "sysv", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/sysv/super.c sysv_fill_super(), v7_fill_super()" GRAN_DEFAULT, "", "v6.15" },
	{ "affs", "u32 day, min, ticks", init_affs, "fs/affs/super.c affs_fill_super()",
	  "cover letter: u32_max days; the code's s_time_max = 86400 * U32_MAX + 86400 + "
	  "s_time_min is the midnight ending day U32_MAX", NULL },
	{ "nfsv2", "unsigned 32-bit seconds/ns", init_u32_us, "fs/nfs/super.c nfs_fill_super()",
	  "cover letter: s_time_gran 1; the code sets 1000 (NFSv2 carries microseconds)", NULL },
	{ "nfsv3", "unsigned 32-bit seconds/ns", init_u32_ns, "fs/nfs/super.c nfs_fill_super()",
	  "cover letter: s_time_gran 1000; the code sets 1", NULL },
	{ "nfsv4", "u64 seconds/u32 ns", init_s64_ns, "fs/nfs/super.c nfs_fill_super()",
	  "cover letter: s_time_gran 1000; the code sets 1", NULL },
	{ "isofs", "u8 year since 1900 (fixable)", init_isofs,
	  "fs/isofs/inode.c isofs_fill_super()" GRAN_DEFAULT,
	  "cover letter: 1900..2155; the code widens both ends by MAX_TZ_OFFSET (13 h)", NULL },
	{ "hpfs", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/hpfs/super.c hpfs_fill_super() via local_to_gmt()" GRAN_DEFAULT,
	  "UTC, no timeshift=", NULL },
	{ "fat", "7-bit years, 2s resolution", init_fat, "fs/fat/inode.c fat_fill_super()",
	  NO_GRAN_IN_LETTER "; the code sets 1 and FAT truncates itself (fat_truncate_time())",
	  NULL },
	{ "cifs (smb)", "7-bit years", init_cifs_dos,
	  "fs/smb/client/cifsfs.c (fs/cifs/ before v6.4) cifs_read_super()", "", NULL },
	{ "cifs (modern)", "64-bit 100ns since 1601", init_cifs_nt,
	  "fs/smb/client/cifsfs.c (fs/cifs/ before v6.4) cifs_read_super()", "", NULL },
	{ "adfs", "40-bit cs since 1900", init_adfs,
	  "fs/adfs/super.c adfs_fill_super(); range: alloc_super()",
	  "cover letter: 1900..2248; the code sets only s_time_gran (10 ms), no range", NULL },
	{ "9p (9P2000)", "unsigned 32-bit seconds", init_u32_sec,
	  "fs/9p/vfs_super.c v9fs_fill_super()" GRAN_DEFAULT, NO_GRAN_IN_LETTER, NULL },
	{ "9p (9P2000.L)", "signed 64-bit seconds, ns", init_9p_l,
	  "fs/9p/vfs_super.c v9fs_fill_super(); s_time_max, s_time_gran: alloc_super()",
	  "cover letter: ns; the code sets no s_time_gran, so 1 s", NULL },
	{ "rfc-2016-default", "RFC 03/15 alloc_super(): 0..INT_MAX", init_rfc_default,
	  "the 2016 RFC's alloc_super() (never merged)", "", NULL },
	{ "mainline-default", "anything not listed: S64_MIN..S64_MAX", init_mainline_default,
	  "fs/super.c alloc_super()", "", NULL },
};

const struct fs_preset *fs_presets(size_t *count)
{
	*count = sizeof(presets) / sizeof(presets[0]);
	return presets;
}

const struct fs_preset *fs_preset_find(const char *name)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

struct super_block fs_preset_sb(const struct fs_preset *preset)
{
	struct super_block sb = { 0 };

	preset->init(&sb);
	return sb;
}
