/* SPDX-License-Identifier: MIT */
/*
 * repr_timespec64.h - timestamps as struct timespec64 (time64_t tv_sec; long
 * tv_nsec): mainline from v4.18 ("vfs: change inode times to use struct
 * timespec64") until v6.11, and Dave Chinner's preferred end state in 2016.
 *
 * Per timestamp: 16 bytes on LP64; on ILP32 the compilers differ: 12 on i386
 * (s64 aligned to 4) but 16 on armhf (EABI aligns s64 to 8, leaving a 4-byte
 * tail).  Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_TIMESPEC64_H
#define LAYOUTS_REPR_TIMESPEC64_H

#include "kernel_standins.h"
#include "time64.h"

#define INODE_REPR_NAME "timespec64"

#define INODE_TIMESTAMP_MEMBERS       \
	struct timespec64 i_atime;   \
	struct timespec64 i_mtime;   \
	struct timespec64 i_ctime;

#define INODE_FS_TIMESTAMP(name) struct timespec64 name;

#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(struct timespec64))
#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0

/*
 * Loads and stores go through the same field-by-field conversions as
 * repr_timespec.h's, so that on LP64 ABIs, where the two structs are the
 * same 16 bytes (v4.4's include/linux/time64.h even #defines timespec64 as
 * timespec there), the compiler sees the same code for both and emits the
 * same instructions (CTest bench_twin_codegen checks it).
 */
static inline struct timespec64 inode_repr_load(struct timespec64 t)
{
	return (struct timespec64){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

static inline struct timespec64 inode_repr_pack(struct timespec64 ts)
{
	return (struct timespec64){ .tv_sec = ts.tv_sec, .tv_nsec = ts.tv_nsec };
}

#define INODE_REPR_LOAD(obj, xtime) inode_repr_load((obj)->xtime)
#define INODE_REPR_SEC(obj, xtime) ((obj)->xtime.tv_sec)
#define INODE_REPR_NSEC(obj, xtime) ((obj)->xtime.tv_nsec)
#define INODE_REPR_STORE(obj, xtime, ts) ((obj)->xtime = inode_repr_pack(ts))

#endif /* LAYOUTS_REPR_TIMESPEC64_H */
