/* SPDX-License-Identifier: MIT */
/*
 * fs_presets.h - a super block (s_time_min, s_time_max, s_time_gran) for
 * every file system in the limits table of the v5.4 series "vfs: Add support
 * for timestamp limits" (Deepa Dinamani's cover letter of 29 July 2019), plus
 * XFS bigtime (v5.10), the 2016 RFC's defaults and the mainline default for
 * everything else.
 *
 * Each preset is what the file system's mount code sets, not what the cover
 * letter says: every row names that code (file and function, Linux 6.1 and
 * later; removed file systems as of their last release) and says where the
 * cover letter differs.  Where the kernel derives a limit from its own codec
 * (ext4, fat, cifs) the preset calls that codec (src/fstime/ext4_time.c,
 * fat_time.c, cifs_time.c) instead of restating the number; calendar limits
 * (isofs, affs) come from tm64_to_time64().  Time zones are UTC (sys_tz 0, no
 * FAT time_offset, no HPFS timeshift).
 */
#ifndef FSTIME_FS_PRESETS_H
#define FSTIME_FS_PRESETS_H

#include <stddef.h>

#include "fs_time.h"

#ifdef __cplusplus
extern "C" {
#endif

struct fs_preset {
	const char *name;      /* as in the limits table ("ext4 (extra)") */
	const char *time_type; /* the table's "Time type" column */
	/* Fills s_time_min/max/gran (and the reciprocal) of a zeroed super block. */
	void (*init)(struct super_block *sb);
	const char *source;    /* the mainline code that sets the three fields */
	const char *note;      /* where the 2019 cover letter differs, or "" */
	const char *removed;   /* "v6.13" when no longer in mainline, else NULL */
};

/** fs_presets - the whole table, in the limits table's order (XFS bigtime after xfs). */
const struct fs_preset *fs_presets(size_t *count);

/** fs_preset_find - by exact name, or NULL. */
const struct fs_preset *fs_preset_find(const char *name);

/** fs_preset_sb - a zeroed super block initialised by @preset. */
struct super_block fs_preset_sb(const struct fs_preset *preset);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_FS_PRESETS_H */
