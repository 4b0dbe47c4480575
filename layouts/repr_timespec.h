/* SPDX-License-Identifier: MIT */
/*
 * repr_timespec.h - timestamps as Linux 4.4 stored them: three struct
 * timespec (time_t tv_sec; long tv_nsec), the y2038-unsafe baseline.
 *
 * Per timestamp: 8 bytes on ILP32 ABIs (i386, armhf), 16 on LP64 ABIs.
 * On ILP32, tv_sec is 32 bits: a set beyond 2038-01-19T03:14:07Z wraps
 * (GCC converts modulo 2^32), which is the bug the RFC set out to fix.
 * Lockless: tv_sec and tv_nsec are one long each, one access each.
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_TIMESPEC_H
#define LAYOUTS_REPR_TIMESPEC_H

#include <limits.h>

#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

#define INODE_REPR_ID timespec
#define INODE_REPR_NAME "timespec"
#define INODE_REPR_ORIGIN "v4.4 (struct timespec, before 2016)"

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS                \
	struct kernel_old_timespec i_atime;   \
	struct kernel_old_timespec i_mtime;   \
	struct kernel_old_timespec i_ctime;

/* A container's own timestamp (ext4's i_crtime) in the same representation. */
#define INODE_FS_TIMESTAMP(name) struct kernel_old_timespec name;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime)
#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(struct kernel_old_timespec))

/* --- features ------------------------------------------------------------- */

/* i_generation stays where the body had it before v6.11. */
#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0
#define INODE_REPR_HAS_CTIME_QUERIED 0
#define INODE_REPR_ONE_WORD 0
/* A time_t's range; beyond it, on ILP32, the seconds wrap modulo 2^32. */
#define INODE_REPR_MIN ((struct timespec64){ .tv_sec = LONG_MIN, .tv_nsec = 0 })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = LONG_MAX, .tv_nsec = NSEC_PER_SEC - 1 })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 1

/* --- access --------------------------------------------------------------- */

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

/* --- lockless access ------------------------------------------------------ */

#define INODE_REPR_SEC_ADDR(obj, xtime) ((void *)&(obj)->xtime.tv_sec)
#define INODE_REPR_NSEC_ADDR(obj, xtime) ((void *)&(obj)->xtime.tv_nsec)
#define INODE_REPR_SEC_SIZE sizeof(kernel_old_time_t)

static inline void inode_repr_lockless_store(void *sec, void *nsec, struct timespec64 ts)
{
	lockless_store_long(sec, (kernel_old_time_t)ts.tv_sec);
	lockless_store_long(nsec, ts.tv_nsec);
}

static inline struct timespec64 inode_repr_lockless_load(const void *sec, const void *nsec)
{
	struct timespec64 ts;

	ts.tv_sec = lockless_load_long(sec); /* sign-extended */
	ts.tv_nsec = lockless_load_long(nsec);
	return ts;
}

#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	inode_repr_lockless_store(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime), ts)
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	inode_repr_lockless_load(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime))

#endif /* LAYOUTS_REPR_TIMESPEC_H */
