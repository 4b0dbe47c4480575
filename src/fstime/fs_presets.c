// SPDX-License-Identifier: MIT
/*
 * fs_presets.c - per-file-system timestamp limits.  Each init function is
 * what that file system's fill_super does (v5.4 onward), with the limits
 * table's wording next to it.
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

/* "fixed": the file system has no timestamps; every inode reads 0. */
static void init_fixed(struct super_block *sb) { set(sb, 0, 0, NSEC_PER_SEC); }
static void init_pstore(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, NSEC_PER_USEC); }
static void init_s64_ns(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, 1); }
static void init_omfs(struct super_block *sb)
{
	/* 64-bit milliseconds: U64_MAX / 1000 seconds fits a time64_t. */
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
/* u64 seconds: the table says U64_MAX; a time64_t stops at S64_MAX. */
static void init_orangefs(struct super_block *sb) { set(sb, 0, S64_MAX, NSEC_PER_SEC); }
static void init_s64_us(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, NSEC_PER_USEC); }
static void init_affs(struct super_block *sb)
{
	/* u32 days since 1978-01-01, then minutes and ticks within the last day. */
	time64_t min = tm64_to_time64(1978, 1, 1, 0, 0, 0);

	set(sb, min, min + (time64_t)U32_MAX * SECS_PER_DAY + SECS_PER_DAY - 1, NSEC_PER_SEC);
}
static void init_isofs(struct super_block *sb)
{
	/* u8 years since 1900: mktime64(1900,1,1,...) .. mktime64(1900+255,12,31,23,59,59) */
	set(sb, tm64_to_time64(1900, 1, 1, 0, 0, 0), tm64_to_time64(1900 + 255, 12, 31, 23, 59, 59),
	    NSEC_PER_SEC);
}
static void init_fat(struct super_block *sb)
{
	const struct msdos_sb_info sbi = { .options = { .tz_set = 1, .time_offset = 0 } };

	fat_sb_set_time_limits(sb, &sbi);
}
static void init_cifs_dos(struct super_block *sb) { cifs_sb_set_time_limits(sb, true); }
static void init_cifs_nt(struct super_block *sb) { cifs_sb_set_time_limits(sb, false); }
static void init_adfs(struct super_block *sb)
{
	/* 40-bit centiseconds since 1900-01-01. */
	time64_t min = tm64_to_time64(1900, 1, 1, 0, 0, 0);

	set(sb, min, min + (time64_t)(((u64)1 << 40) - 1) / 100, 10 * NSEC_PER_MSEC);
}
static void init_9p_l(struct super_block *sb) { set(sb, 0, S64_MAX, 1); }
static void init_rfc_default(struct super_block *sb) { sb_init_rfc_defaults(sb); }
static void init_mainline_default(struct super_block *sb) { set(sb, S64_MIN, S64_MAX, NSEC_PER_SEC); }

#define ALLOC_SUPER "alloc_super(): NSEC_PER_SEC"
#define NOT_IN_TABLE "not given in the table; alloc_super() default NSEC_PER_SEC"

static const struct fs_preset presets[] = {
	{ "cramfs", "fixed", init_fixed, NOT_IN_TABLE },
	{ "romfs", "fixed", init_fixed, NOT_IN_TABLE },
	{ "pstore", "ascii seconds (27 digit ascii)", init_pstore, "NSEC_PER_USEC" },
	{ "coda", "INT64", init_s64_ns, "1" },
	{ "omfs", "64-bit milliseconds", init_omfs, "NSEC_PER_MSEC" },
	{ "befs", "unsigned 48-bit seconds", init_befs, ALLOC_SUPER },
	{ "bfs", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "efs", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "ext2", "signed 32-bit seconds", init_s32_sec, ALLOC_SUPER },
	{ "ext3", "signed 32-bit seconds", init_s32_sec, ALLOC_SUPER },
	{ "ext4 (old)", "signed 32-bit seconds", init_ext4_old, "ext4_fill_super(): NSEC_PER_SEC" },
	{ "ext4 (extra)", "34-bit seconds, 30-bit ns", init_ext4_extra, "ext4_fill_super(): 1" },
	{ "freevxfs", "u32 secs/usecs", init_u32_sec, ALLOC_SUPER },
	{ "jffs2", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "jfs", "unsigned 32-bit seconds/ns", init_u32_ns, "1" },
	{ "minix", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "orangefs", "u64 seconds", init_orangefs, ALLOC_SUPER },
	{ "qnx4", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "qnx6", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "reiserfs", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "squashfs", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "ufs1", "signed 32-bit seconds", init_s32_sec, "NSEC_PER_SEC" },
	{ "ufs2", "signed 64-bit seconds/u32 ns", init_s64_ns, "1" },
	{ "xfs", "signed 32-bit seconds/ns", init_s32_ns, "1" },
	{ "ceph", "unsigned 32-bit second/ns", init_u32_us, "1000" },
	{ "sysv", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "affs", "u32 day, min, ticks", init_affs, "NSEC_PER_SEC" },
	{ "nfsv2", "unsigned 32-bit seconds/ns", init_u32_ns, "1" },
	{ "nfsv3", "unsigned 32-bit seconds/ns", init_u32_us, "1000" },
	{ "nfsv4", "u64 seconds/u32 ns", init_s64_us, "1000" },
	{ "isofs", "u8 year since 1900 (fixable)", init_isofs, ALLOC_SUPER },
	{ "hpfs", "unsigned 32-bit seconds", init_u32_sec, ALLOC_SUPER },
	{ "fat", "7-bit years, 2s resolution", init_fat, NOT_IN_TABLE },
	{ "cifs (smb)", "7-bit years", init_cifs_dos, "cifs_read_super(): NSEC_PER_SEC" },
	{ "cifs (modern)", "64-bit 100ns since 1601", init_cifs_nt, "cifs_read_super(): 100" },
	{ "adfs", "40-bit cs since 1900", init_adfs, "not given in the table; 10 ms (one centisecond)" },
	{ "9p (9P2000)", "unsigned 32-bit seconds", init_u32_sec, NOT_IN_TABLE },
	{ "9p (9P2000.L)", "signed 64-bit seconds, ns", init_9p_l, "not given in the table; 1 (ns)" },
	{ "rfc-2016-default", "RFC 03/15 alloc_super(): 0..INT_MAX", init_rfc_default,
	  "sb_init_rfc_defaults(): NSEC_PER_SEC" },
	{ "mainline-default", "anything not listed: S64_MIN..S64_MAX", init_mainline_default,
	  ALLOC_SUPER },
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
