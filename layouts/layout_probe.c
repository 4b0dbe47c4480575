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
 *
 * Section .y2038_repr holds the representation's facts as the header states
 * them on this ABI (struct inode_repr_facts: range, one word or two, wraps
 * or clamps, origin), so that the scripts read them from the object
 * (`readelf -x .y2038_repr <object>`; y2038lab.core.reprs) instead of
 * repeating them.
 */
#include <stddef.h>

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

/*
 * Fixed offsets on every ABI: min at 0 and max at 16 (tv_sec an s64, tv_nsec
 * from offset 8, the ABI's long, always below 2^31), then one_word at 32,
 * wraps at 36 and the origin, NUL-terminated, from 40.
 */
union inode_repr_facts_time {
	struct timespec64 ts;
	char bytes[16]; /* 12 on i386 */
};

struct inode_repr_facts {
	union inode_repr_facts_time min;
	union inode_repr_facts_time max;
	s32 one_word;
	s32 wraps;
	char origin[88];
};

INODE_STATIC_ASSERT(offsetof(struct inode_repr_facts, max) == 16 &&
			    offsetof(struct inode_repr_facts, one_word) == 32 &&
			    offsetof(struct inode_repr_facts, origin) == 40,
		    "struct inode_repr_facts: the offsets y2038lab.core.reprs reads");
INODE_STATIC_ASSERT(sizeof(INODE_REPR_ORIGIN) <= 88, "INODE_REPR_ORIGIN: at most 87 characters");

__attribute__((section(".y2038_repr"), used)) const struct inode_repr_facts layout_probe_repr_facts = {
	.min.ts = INODE_REPR_MIN,
	.max.ts = INODE_REPR_MAX,
	.one_word = INODE_REPR_ONE_WORD,
	.wraps = INODE_REPR_OUT_OF_RANGE_WRAPS,
	.origin = INODE_REPR_ORIGIN,
};
