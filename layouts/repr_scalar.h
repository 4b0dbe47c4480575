/* SPDX-License-Identifier: MIT */
/*
 * repr_scalar.h - discrete integers: three time64_t seconds, then three
 * 32-bit nanoseconds.  RFC 02/15 (CONFIG_FS_USES_64BIT_TIME, s32 nsec) and
 * mainline v6.11 ("fs: switch timespec64 fields in inode to discrete
 * integers", u32 nsec; this header uses the mainline u32).  36 bytes on every
 * ABI; mainline moved i_generation into the 4-byte hole after the nsec
 * fields, and so does the v6 body with this representation.  Lockless:
 * each _sec one 64-bit access on LP64, two 32-bit halves on ILP32; each
 * _nsec one 32-bit access.
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_SCALAR_H
#define LAYOUTS_REPR_SCALAR_H

#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

#define INODE_REPR_ID scalar
#define INODE_REPR_NAME "scalar"
#define INODE_REPR_ORIGIN "RFC 02 (2016) = v6.11 (discrete sec/nsec)"

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS   \
	time64_t i_atime_sec;    \
	time64_t i_mtime_sec;    \
	time64_t i_ctime_sec;    \
	u32 i_atime_nsec;        \
	u32 i_mtime_nsec;        \
	u32 i_ctime_nsec;

/* A container's own timestamp as a pair of discrete integers. */
#define INODE_FS_TIMESTAMP(name) \
	time64_t name##_sec;     \
	u32 name##_nsec;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime##_sec) F(xtime##_nsec)
#define INODE_TIMESTAMP_FIRST i_atime_sec
#define INODE_TIMESTAMP_LAST i_ctime_nsec
#define INODE_TIMESTAMP_BYTES (3 * sizeof(time64_t) + 3 * sizeof(u32))
INODE_STATIC_ASSERT(INODE_TIMESTAMP_BYTES == 36, "scalar timestamps take 36 bytes on every ABI");

/* --- features ------------------------------------------------------------- */

#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 1
#define INODE_REPR_HAS_CTIME_QUERIED 0
#define INODE_REPR_ONE_WORD 0
#define INODE_REPR_MIN ((struct timespec64){ .tv_sec = TIME64_MIN, .tv_nsec = 0 })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = TIME64_MAX, .tv_nsec = NSEC_PER_SEC - 1 })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 0

/* --- access --------------------------------------------------------------- */

#define INODE_REPR_SEC(obj, xtime) ((obj)->xtime##_sec)
#define INODE_REPR_NSEC(obj, xtime) ((long)(obj)->xtime##_nsec)
#define INODE_REPR_LOAD(obj, xtime) \
	((struct timespec64){ .tv_sec = INODE_REPR_SEC(obj, xtime), .tv_nsec = INODE_REPR_NSEC(obj, xtime) })
/* u32 conversion: a negative tv_nsec wraps, as in mainline. */
#define INODE_REPR_STORE(obj, xtime, ts) \
	((obj)->xtime##_sec = (ts).tv_sec, (obj)->xtime##_nsec = (u32)(ts).tv_nsec)

/* --- lockless access ------------------------------------------------------ */

#define INODE_REPR_SEC_ADDR(obj, xtime) ((void *)&(obj)->xtime##_sec)
#define INODE_REPR_NSEC_ADDR(obj, xtime) ((void *)&(obj)->xtime##_nsec)
#define INODE_REPR_SEC_SIZE sizeof(time64_t)

static inline void inode_repr_lockless_store(void *sec, void *nsec, struct timespec64 ts)
{
	lockless_store_s64(sec, ts.tv_sec);
	lockless_store_u32(nsec, (u32)ts.tv_nsec);
}

static inline struct timespec64 inode_repr_lockless_load(const void *sec, const void *nsec)
{
	struct timespec64 ts;

	ts.tv_sec = lockless_load_s64(sec);
	ts.tv_nsec = (long)lockless_load_u32(nsec);
	return ts;
}

#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	inode_repr_lockless_store(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime), ts)
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	inode_repr_lockless_load(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime))

#endif /* LAYOUTS_REPR_SCALAR_H */
