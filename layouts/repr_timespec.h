/* SPDX-License-Identifier: MIT */
/*
 * repr_timespec.h - timestamps as Linux 4.4 stored them: three struct
 * timespec (time_t tv_sec; long tv_nsec), the y2038-unsafe baseline.
 *
 * Per timestamp: 8 bytes on ILP32 ABIs (i386, armhf), 16 on LP64 ABIs.
 * On ILP32, tv_sec is 32 bits: a set beyond 2038-01-19T03:14:07Z wraps
 * (GCC converts modulo 2^32), which is the bug the RFC set out to fix.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_TIMESPEC_H
#define LAYOUTS_REPR_TIMESPEC_H

#include "kernel_standins.h"
#include "time64.h"

/*
 * The kernel's pre-y2038 struct timespec (today __kernel_old_timespec).  It
 * cannot be called struct timespec here: <time.h> owns that name.
 */
struct kernel_old_timespec {
	kernel_old_time_t tv_sec;
	long tv_nsec;
};

#define INODE_REPR_ID timespec
#define INODE_REPR_NAME "timespec"

#define INODE_TIMESTAMP_MEMBERS                \
	struct kernel_old_timespec i_atime;   \
	struct kernel_old_timespec i_mtime;   \
	struct kernel_old_timespec i_ctime;

/* A container's own timestamp (ext4's i_crtime) in the same representation. */
#define INODE_FS_TIMESTAMP(name) struct kernel_old_timespec name;

#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(struct kernel_old_timespec))
/* i_generation stays where the body had it before v6.11. */
#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0

static inline struct timespec64 inode_repr_load(struct kernel_old_timespec t)
{
	return (struct timespec64){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

static inline struct kernel_old_timespec inode_repr_pack(struct timespec64 ts)
{
	/* Narrowing on ILP32 is the point of this representation. */
	return (struct kernel_old_timespec){ .tv_sec = (kernel_old_time_t)ts.tv_sec,
					     .tv_nsec = ts.tv_nsec };
}

/* @obj: pointer to any struct with the member; @xtime: i_atime, i_mtime, ... */
#define INODE_REPR_LOAD(obj, xtime) inode_repr_load((obj)->xtime)
#define INODE_REPR_SEC(obj, xtime) ((time64_t)(obj)->xtime.tv_sec)
#define INODE_REPR_NSEC(obj, xtime) ((long)(obj)->xtime.tv_nsec)
#define INODE_REPR_STORE(obj, xtime, ts) ((obj)->xtime = inode_repr_pack(ts))

#endif /* LAYOUTS_REPR_TIMESPEC_H */
