// SPDX-License-Identifier: MIT
/*
 * layout_probe.c - one object per layout whose only job is to carry the
 * DWARF of struct inode and the containers, for pahole (scripts/lab pahole).
 * Compiled with the preset's -g flags; never linked into anything.
 * <build>/layout_probes.txt lists them: "<body> <repr> <object>" per line.
 *
 * struct inode_timestamp_fields names the representation's timestamp
 * members (INODE_TIMESTAMP_FIELDS), with their types, a/m/c in that order,
 * so that a script reads the field list of any representation from the
 * object (`pahole -C inode_timestamp_fields <object>`) instead of knowing
 * it.  A member type that is a struct (timespec64, inode_timespec, ...)
 * thereby reaches the debug info too.
 */
#include "fs_inode_info.h"

#define LAYOUT_PROBE_FIELD(member) __typeof__(((struct inode *)0)->member) member;

struct inode_timestamp_fields {
	INODE_TIMESTAMP_FIELDS(LAYOUT_PROBE_FIELD, i_atime)
	INODE_TIMESTAMP_FIELDS(LAYOUT_PROBE_FIELD, i_mtime)
	INODE_TIMESTAMP_FIELDS(LAYOUT_PROBE_FIELD, i_ctime)
};

/* Tentative definitions force the types into the object's debug info. */
struct inode layout_probe_inode;
struct ext4_inode_info layout_probe_ext4_inode_info;
struct msdos_inode_info layout_probe_msdos_inode_info;
struct cifsInodeInfo layout_probe_cifs_inode_info;
struct timespec64 layout_probe_timespec64;
struct kernel_old_timespec layout_probe_old_timespec;
struct inode_timestamp_fields layout_probe_timestamp_fields;
