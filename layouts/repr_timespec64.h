/* SPDX-License-Identifier: MIT */
/*
 * repr_timespec64.h - timestamps as struct timespec64 (time64_t tv_sec; long
 * tv_nsec): mainline from v4.18 ("vfs: change inode times to use struct
 * timespec64") until v6.11, and Dave Chinner's preferred end state in 2016.
 *
 * Per timestamp: 16 bytes on LP64; on ILP32 the compilers differ: 12 on i386
 * (s64 aligned to 4) but 16 on armhf (EABI aligns s64 to 8, leaving a 4-byte
 * tail).  Lockless: tv_sec one 64-bit access on LP64, two 32-bit halves on
 * ILP32 (lockless_access.h); tv_nsec one long.
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_TIMESPEC64_H
#define LAYOUTS_REPR_TIMESPEC64_H

#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

#define INODE_REPR_ID timespec64
#define INODE_REPR_NAME "timespec64"
#define INODE_REPR_ORIGIN "v4.18 (struct timespec64)"

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS       \
	struct timespec64 i_atime;   \
	struct timespec64 i_mtime;   \
	struct timespec64 i_ctime;

#define INODE_FS_TIMESTAMP(name) struct timespec64 name;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime)
#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(struct timespec64))

/* --- features ------------------------------------------------------------- */

#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0
#define INODE_REPR_HAS_CTIME_QUERIED 0
#define INODE_REPR_ONE_WORD 0
#define INODE_REPR_MIN ((struct timespec64){ .tv_sec = TIME64_MIN, .tv_nsec = 0 })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = TIME64_MAX, .tv_nsec = NSEC_PER_SEC - 1 })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 0

/* --- access --------------------------------------------------------------- */

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

/* --- lockless access ------------------------------------------------------ */

#define INODE_REPR_SEC_ADDR(obj, xtime) ((void *)&(obj)->xtime.tv_sec)
#define INODE_REPR_NSEC_ADDR(obj, xtime) ((void *)&(obj)->xtime.tv_nsec)
#define INODE_REPR_SEC_SIZE sizeof(time64_t)

static inline void inode_repr_lockless_store(void *sec, void *nsec, struct timespec64 ts)
{
	lockless_store_s64(sec, ts.tv_sec);
	lockless_store_long(nsec, ts.tv_nsec);
}

static inline struct timespec64 inode_repr_lockless_load(const void *sec, const void *nsec)
{
	struct timespec64 ts;

	ts.tv_sec = lockless_load_s64(sec);
	ts.tv_nsec = lockless_load_long(nsec);
	return ts;
}

#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	inode_repr_lockless_store(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime), ts)
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	inode_repr_lockless_load(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime))

#endif /* LAYOUTS_REPR_TIMESPEC64_H */
