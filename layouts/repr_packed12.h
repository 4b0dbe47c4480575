/* SPDX-License-Identifier: MIT */
/*
 * repr_packed12.h - the RFC's 12-byte timestamp as LWN's article read it
 * ("The inode_timespec would be aligned so that it only used 12 bytes"): a
 * 64-bit tv_sec and a 32-bit tv_nsec, packed and aligned to 4 so that each
 * timestamp is 12 bytes on every ABI.  The RFC's own struct inode fields
 * (RFC 02/15: three time64_t seconds, then three s32 nanoseconds) are
 * repr_scalar.h.
 *
 * The struct is 4-aligned, so its tv_sec may sit at an address that is not a
 * multiple of 8: loads go through the packed type (the compiler emits what
 * the ABI needs), never through a time64_t pointer, and the lockless
 * accesses split such a tv_sec into two 32-bit halves (lockless_access.h).
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_PACKED12_H
#define LAYOUTS_REPR_PACKED12_H

#include <stddef.h>

#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

struct inode_timespec {
	s64 tv_sec;
	s32 tv_nsec;
} __attribute__((packed, aligned(4)));

INODE_STATIC_ASSERT(sizeof(struct inode_timespec) == 12 && __alignof__(struct inode_timespec) == 4,
		    "packed12 is 12 bytes aligned to 4 on every ABI");

#define INODE_REPR_ID packed12
#define INODE_REPR_NAME "packed12"
#define INODE_REPR_ORIGIN "packed 12-byte s64+s32 struct (LWN's reading)"

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS           \
	struct inode_timespec i_atime;   \
	struct inode_timespec i_mtime;   \
	struct inode_timespec i_ctime;

#define INODE_FS_TIMESTAMP(name) struct inode_timespec name;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime)
#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(struct inode_timespec))
INODE_STATIC_ASSERT(INODE_TIMESTAMP_BYTES == 36, "packed12 timestamps take 36 bytes on every ABI");

/* --- features ------------------------------------------------------------- */

#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0
#define INODE_REPR_HAS_CTIME_QUERIED 0
#define INODE_REPR_ONE_WORD 0
#define INODE_REPR_MIN ((struct timespec64){ .tv_sec = TIME64_MIN, .tv_nsec = 0 })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = TIME64_MAX, .tv_nsec = NSEC_PER_SEC - 1 })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 0

/* --- access --------------------------------------------------------------- */

static inline struct timespec64 inode_repr_load(struct inode_timespec t)
{
	return (struct timespec64){ .tv_sec = t.tv_sec, .tv_nsec = t.tv_nsec };
}

static inline struct inode_timespec inode_repr_pack(struct timespec64 ts)
{
	/* Valid tv_nsec (< 10^9) fits s32; the RFC's marker INT_MAX does too. */
	return (struct inode_timespec){ .tv_sec = ts.tv_sec, .tv_nsec = (s32)ts.tv_nsec };
}

#define INODE_REPR_LOAD(obj, xtime) inode_repr_load((obj)->xtime)
#define INODE_REPR_SEC(obj, xtime) ((time64_t)(obj)->xtime.tv_sec)
#define INODE_REPR_NSEC(obj, xtime) ((long)(obj)->xtime.tv_nsec)
#define INODE_REPR_STORE(obj, xtime, ts) ((obj)->xtime = inode_repr_pack(ts))

/* --- lockless access ------------------------------------------------------ */

/* With offsetof, so that no pointer to an under-aligned s64 is ever formed. */
#define INODE_REPR_SEC_ADDR(obj, xtime) \
	((void *)((char *)&(obj)->xtime + offsetof(struct inode_timespec, tv_sec)))
#define INODE_REPR_NSEC_ADDR(obj, xtime) \
	((void *)((char *)&(obj)->xtime + offsetof(struct inode_timespec, tv_nsec)))
#define INODE_REPR_SEC_SIZE sizeof(s64)

static inline void inode_repr_lockless_store(void *sec, void *nsec, struct timespec64 ts)
{
	lockless_store_s64(sec, ts.tv_sec);
	lockless_store_u32(nsec, (u32)ts.tv_nsec); /* the s32's bits */
}

static inline struct timespec64 inode_repr_lockless_load(const void *sec, const void *nsec)
{
	struct timespec64 ts;

	ts.tv_sec = lockless_load_s64(sec);
	ts.tv_nsec = (s32)lockless_load_u32(nsec);
	return ts;
}

#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	inode_repr_lockless_store(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime), ts)
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	inode_repr_lockless_load(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime))

#endif /* LAYOUTS_REPR_PACKED12_H */
