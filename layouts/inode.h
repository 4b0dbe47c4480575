/* SPDX-License-Identifier: MIT */
/*
 * inode.h - the public entry to the struct inode replicas.
 *
 * Two compile-time choices select one layout, the way the RFC's
 * CONFIG_FS_USES_64BIT_TIME chose one: a body (the rest of struct inode,
 * layouts/body_<body>.h) and a timestamp representation
 * (layouts/repr_<repr>.h), named by INODE_BODY_HEADER and INODE_REPR_HEADER
 * (CMake's layout_<body>_<repr> targets set both, from layouts/layouts.def).
 * Unset, they are v6/scalar, today's mainline.  This file is the only
 * selector: nothing else asks which layout it got, only what it offers.
 *
 * The representation contract: everything a consumer needs to know about a
 * representation is in its header, which defines
 *   INODE_REPR_ID, INODE_REPR_NAME   token and string: scalar, "scalar"
 *   INODE_REPR_ORIGIN                where it comes from, for the reports:
 *                                    "v4.18 (struct timespec64)"
 *   INODE_TIMESTAMP_MEMBERS          the members inside struct inode
 *   INODE_FS_TIMESTAMP(name)         a container's own timestamp (i_crtime)
 *   INODE_TIMESTAMP_FIELDS(F, xtime) F(member) for each member that holds
 *                                    timestamp xtime (i_atime, i_mtime,
 *                                    i_ctime, or a container's): the field
 *                                    list that walks, tests and probes use
 *   INODE_TIMESTAMP_FIRST, _LAST, _BYTES  first/last member, bytes of all
 *   INODE_REPR_LOAD/SEC/NSEC(obj, xtime), INODE_REPR_STORE(obj, xtime, ts)
 *                                    plain access, as timespec64
 *   INODE_REPR_SEC_ADDR/NSEC_ADDR(obj, xtime), INODE_REPR_SEC_SIZE
 *                                    the fields' addresses for lockless
 *                                    access, and the seconds' width
 *   INODE_REPR_LOCKLESS_LOAD(obj, xtime), _STORE(obj, xtime, ts)
 *                                    READ_ONCE/WRITE_ONCE of each field,
 *                                    seconds first (lockless_access.h)
 * and its features, each 0 or 1, never left undefined:
 *   INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE  a body may put i_generation
 *                                    right after the timestamps (v6.11)
 *   INODE_REPR_HAS_CTIME_QUERIED     ctime carries v6.13's I_CTIME_QUERIED;
 *                                    then the header also defines
 *                                    INODE_REPR_CTIME_MARK_QUERIED(inode),
 *                                    _CTIME_QUERIED(inode) and
 *                                    _SET_CTIME_CURRENT(inode)
 *   INODE_REPR_ONE_WORD              seconds and nanoseconds are one integer
 *                                    (a lockless read cannot mix the two)
 * and its range: INODE_REPR_MIN, INODE_REPR_MAX (the earliest and latest
 * timestamp it holds exactly, as struct timespec64) and
 * INODE_REPR_OUT_OF_RANGE_WRAPS (1: the seconds wrap beyond it, as a 32-bit
 * time_t does; 0: the value is clamped to MIN or MAX).  A body header
 * defines INODE_BODY_ID, INODE_BODY_NAME and its features
 * INODE_BODY_CURRENT (today's kernel), INODE_BODY_HAS_ATOMIC64 and
 * INODE_BODY_HONOURS_GENERATION_HOLE.  Missing pieces stop the build here.
 *
 * Every representation offers the same accessors with mainline's names and
 * signatures, the RFC's VFS_INODE_{GET,SET,SWAP}_XTIME() macros, and Dave
 * Chinner's boundary conversions, so that a consumer compiled once per layout
 * differs only where the layouts really differ.  The expected sizes per ABI
 * are the rows of layouts.def, checked by _Static_assert (inode_sizes.h).
 */
#ifndef LAYOUTS_INODE_H
#define LAYOUTS_INODE_H

#include <stddef.h>
#include <string.h>

#include "fs_time.h"
#include "kernel_standins.h"
#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef INODE_BODY_HEADER
#define INODE_BODY_HEADER "body_v6.h"
#endif
#ifndef INODE_REPR_HEADER
#define INODE_REPR_HEADER "repr_scalar.h"
#endif

#include INODE_REPR_HEADER

#if !defined(INODE_REPR_ID) || !defined(INODE_REPR_NAME) || !defined(INODE_REPR_ORIGIN) ||        \
	!defined(INODE_TIMESTAMP_MEMBERS) ||                                                      \
	!defined(INODE_FS_TIMESTAMP) || !defined(INODE_TIMESTAMP_FIELDS) ||                        \
	!defined(INODE_TIMESTAMP_FIRST) || !defined(INODE_TIMESTAMP_LAST) ||                      \
	!defined(INODE_TIMESTAMP_BYTES) || !defined(INODE_REPR_LOAD) || !defined(INODE_REPR_SEC) || \
	!defined(INODE_REPR_NSEC) || !defined(INODE_REPR_STORE) || !defined(INODE_REPR_SEC_ADDR) || \
	!defined(INODE_REPR_NSEC_ADDR) || !defined(INODE_REPR_SEC_SIZE) ||                        \
	!defined(INODE_REPR_LOCKLESS_LOAD) || !defined(INODE_REPR_LOCKLESS_STORE) ||              \
	!defined(INODE_REPR_MIN) || !defined(INODE_REPR_MAX)
#error "INODE_REPR_HEADER does not define the whole representation contract (layouts/inode.h)"
#endif
#if !defined(INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE) || !defined(INODE_REPR_HAS_CTIME_QUERIED) || \
	!defined(INODE_REPR_ONE_WORD) || !defined(INODE_REPR_OUT_OF_RANGE_WRAPS)
#error "INODE_REPR_HEADER leaves a feature undefined (each is 0 or 1; layouts/inode.h)"
#endif
#if INODE_REPR_HAS_CTIME_QUERIED &&                                                            \
	(!defined(INODE_REPR_CTIME_MARK_QUERIED) || !defined(INODE_REPR_CTIME_QUERIED) ||       \
	 !defined(INODE_REPR_SET_CTIME_CURRENT))
#error "INODE_REPR_HAS_CTIME_QUERIED needs INODE_REPR_CTIME_MARK_QUERIED, _CTIME_QUERIED, _SET_CTIME_CURRENT"
#endif

#include INODE_BODY_HEADER

#if !defined(INODE_BODY_ID) || !defined(INODE_BODY_NAME) || !defined(INODE_BODY_CURRENT) || \
	!defined(INODE_BODY_HAS_ATOMIC64) || !defined(INODE_BODY_HONOURS_GENERATION_HOLE)
#error "INODE_BODY_HEADER does not define INODE_BODY_ID, _NAME, _CURRENT, _HAS_ATOMIC64, _HONOURS_GENERATION_HOLE"
#endif

/* "v6/scalar" and friends, for benchmark names and reports. */
#define INODE_LAYOUT_NAME INODE_BODY_NAME "/" INODE_REPR_NAME

/**
 * inode_timestamp_bytes - bytes the timestamp members occupy
 *
 * The sum of sizeof() of the timestamp members (a struct's tail padding
 * counts, holes between members do not): INODE_TIMESTAMP_BYTES of the
 * representation, e.g. 36 for scalar on every ABI.
 */
static inline size_t inode_timestamp_bytes(void)
{
	return INODE_TIMESTAMP_BYTES;
}

/**
 * inode_init_always - zero @inode and tie it to @sb, as the kernel's
 * inode_init_always() does for the members this model uses
 *
 * struct inode cannot be assigned (i_nlink is const, as in the kernel), so
 * callers that need a fresh inode, e.g. in an array, use this.  i_mapping
 * points at the embedded i_data, whose host is the inode.  Returns 0.
 */
static inline int inode_init_always(struct super_block *sb, struct inode *inode)
{
	memset((void *)inode, 0, sizeof(*inode)); /* (void *): C++ consumers, const i_nlink */
	inode->i_sb = sb;
	inode->i_data.host = inode;
	inode->i_mapping = &inode->i_data;
	return 0;
}

/**
 * i_size_read - @inode's i_size, as include/linux/fs.h reads it
 *
 * 32-bit SMP kernels (__NEED_I_SIZE_ORDERED) read the 64-bit i_size under
 * i_size_seqcount, retrying while a writer was in between; LP64 ABIs load it.
 */
static inline kernel_loff_t i_size_read(const struct inode *inode)
{
#if INODE_ABI_LP64
	return inode->i_size;
#else
	unsigned int seq;
	kernel_loff_t size;

	do {
		seq = __atomic_load_n(&inode->i_size_seqcount.sequence, __ATOMIC_ACQUIRE);
		size = inode->i_size;
	} while (__atomic_load_n(&inode->i_size_seqcount.sequence, __ATOMIC_ACQUIRE) != seq);
	return size;
#endif
}

/* Offset of the first timestamp byte and one past the last, for reports. */
#define INODE_TIMESTAMP_OFFSET_BEGIN offsetof(struct inode, INODE_TIMESTAMP_FIRST)
#define INODE_TIMESTAMP_OFFSET_END \
	(offsetof(struct inode, INODE_TIMESTAMP_LAST) + sizeof(((struct inode *)0)->INODE_TIMESTAMP_LAST))

/*
 * Getters.  inode_get_Xtime() returns the stored value as a timespec64;
 * _sec() and _nsec() return its two parts (multigrain: the nsec has the
 * I_CTIME_QUERIED flag masked off).  With the timespec representation on
 * ILP32 ABIs, the seconds are a sign-extended 32-bit time_t.
 */
static inline struct timespec64 inode_get_atime(const struct inode *inode)
{
	return INODE_REPR_LOAD(inode, i_atime);
}

static inline struct timespec64 inode_get_mtime(const struct inode *inode)
{
	return INODE_REPR_LOAD(inode, i_mtime);
}

static inline struct timespec64 inode_get_ctime(const struct inode *inode)
{
	return INODE_REPR_LOAD(inode, i_ctime);
}

static inline time64_t inode_get_atime_sec(const struct inode *inode)
{
	return INODE_REPR_SEC(inode, i_atime);
}

static inline time64_t inode_get_mtime_sec(const struct inode *inode)
{
	return INODE_REPR_SEC(inode, i_mtime);
}

static inline time64_t inode_get_ctime_sec(const struct inode *inode)
{
	return INODE_REPR_SEC(inode, i_ctime);
}

static inline long inode_get_atime_nsec(const struct inode *inode)
{
	return INODE_REPR_NSEC(inode, i_atime);
}

static inline long inode_get_mtime_nsec(const struct inode *inode)
{
	return INODE_REPR_NSEC(inode, i_mtime);
}

static inline long inode_get_ctime_nsec(const struct inode *inode)
{
	return INODE_REPR_NSEC(inode, i_ctime);
}

/*
 * Setters.  inode_set_Xtime_to_ts() stores @ts as the representation can
 * hold it (its header says how: e.g. timespec on ILP32 narrows tv_sec,
 * packed12/scalar narrow tv_nsec to 32 bits, a representation whose range
 * is narrower than timespec64's clamps to its INODE_REPR_MIN/MAX) and
 * returns @ts unchanged, as mainline does.  No truncation or clamping to
 * the file system's limits here: callers pass values that went through
 * timestamp_truncate(), as in the kernel.
 */
static inline struct timespec64 inode_set_atime_to_ts(struct inode *inode, struct timespec64 ts)
{
	INODE_REPR_STORE(inode, i_atime, ts);
	return ts;
}

static inline struct timespec64 inode_set_mtime_to_ts(struct inode *inode, struct timespec64 ts)
{
	INODE_REPR_STORE(inode, i_mtime, ts);
	return ts;
}

/**
 * inode_set_ctime_to_ts - store @ts as the ctime
 *
 * With v6.13's queried flag (INODE_REPR_HAS_CTIME_QUERIED) @ts is first
 * normalised (set_normalized_timespec64()), so that tv_nsec is in
 * 0..NSEC_PER_SEC-1 and can never collide with I_CTIME_QUERIED; storing also
 * clears the flag.  Returns the value stored (normalised or not).
 */
static inline struct timespec64 inode_set_ctime_to_ts(struct inode *inode, struct timespec64 ts)
{
#if INODE_REPR_HAS_CTIME_QUERIED
	set_normalized_timespec64(&ts, ts.tv_sec, ts.tv_nsec);
#endif
	INODE_REPR_STORE(inode, i_ctime, ts);
	return ts;
}

/* inode_set_Xtime - mainline's (sec, nsec) forms of the setters. */
static inline struct timespec64 inode_set_atime(struct inode *inode, time64_t sec, long nsec)
{
	return inode_set_atime_to_ts(inode, (struct timespec64){ .tv_sec = sec, .tv_nsec = nsec });
}

static inline struct timespec64 inode_set_mtime(struct inode *inode, time64_t sec, long nsec)
{
	return inode_set_mtime_to_ts(inode, (struct timespec64){ .tv_sec = sec, .tv_nsec = nsec });
}

static inline struct timespec64 inode_set_ctime(struct inode *inode, time64_t sec, long nsec)
{
	return inode_set_ctime_to_ts(inode, (struct timespec64){ .tv_sec = sec, .tv_nsec = nsec });
}

/**
 * current_time - mainline: now from the fstime clock, through
 * timestamp_truncate() against inode->i_sb (which must be set).
 */
static inline struct timespec64 current_time(const struct inode *inode)
{
	return timestamp_truncate(fs_time_now(), inode->i_sb);
}

#if INODE_REPR_HAS_CTIME_QUERIED
/**
 * inode_ctime_mark_queried - what stat() (fill_mg_cmtime) does in v6.13:
 * set I_CTIME_QUERIED so that the next inode_set_ctime_current() must
 * produce a ctime distinguishable from the one just reported.
 */
static inline void inode_ctime_mark_queried(struct inode *inode)
{
	INODE_REPR_CTIME_MARK_QUERIED(inode);
}

/* True when I_CTIME_QUERIED is set. */
static inline int inode_ctime_queried(const struct inode *inode)
{
	return INODE_REPR_CTIME_QUERIED(inode);
}

/**
 * inode_set_ctime_current - v6.13 multigrain: set ctime to "now", coarse
 * or, when the ctime was queried, fine-grained (the representation's
 * INODE_REPR_SET_CTIME_CURRENT(); repr_multigrain.h).  Returns the ctime
 * now in the inode.
 */
static inline struct timespec64 inode_set_ctime_current(struct inode *inode)
{
	return INODE_REPR_SET_CTIME_CURRENT(inode);
}
#else
/* Without multigrain timestamps nobody queries: no-ops. */
static inline void inode_ctime_mark_queried(struct inode *inode)
{
	(void)inode;
}

static inline int inode_ctime_queried(const struct inode *inode)
{
	(void)inode;
	return 0;
}

/**
 * inode_set_ctime_current - mainline (v6.6+): ctime = current_time(inode)
 *
 * Now from the fstime clock, truncated with timestamp_truncate() against
 * inode->i_sb, stored, and returned.
 */
static inline struct timespec64 inode_set_ctime_current(struct inode *inode)
{
	return inode_set_ctime_to_ts(inode, current_time(inode));
}
#endif

/*
 * The RFC's accessors (RFC 02/15, with RFC 03/15's clamp handling).
 * @xtime is the token i_atime, i_mtime or i_ctime.
 *
 * VFS_INODE_SET_XTIME() stores @ts; if it carries the RFC's clamp marker
 * (tv_nsec == FS_TIMESTAMP_NSEC_NOT_VALID), the stored nsec becomes 0 and
 * the super block's ->bad_timestamp() is called, via fstime's
 * vfs_inode_xtime_check().  inode->i_sb must be set.
 * VFS_INODE_SWAP_XTIME() swaps one timestamp between two inodes through
 * those two macros, as the RFC writes it.
 */
#define VFS_INODE_GET_XTIME(xtime, inode_ptr) INODE_REPR_LOAD(inode_ptr, xtime)

#define VFS_INODE_SET_XTIME(xtime, inode_ptr, ts)                          \
	do {                                                               \
		struct inode *vfs_xtime_inode_ = (inode_ptr);                  \
		struct timespec64 vfs_xtime_ts_ = (ts);                    \
		vfs_inode_xtime_check(vfs_xtime_inode_->i_sb, &vfs_xtime_ts_); \
		INODE_REPR_STORE(vfs_xtime_inode_, xtime, vfs_xtime_ts_);  \
	} while (0)

#define VFS_INODE_SWAP_XTIME(xtime, inode1, inode2)                             \
	do {                                                                    \
		struct inode *vfs_swap_a_ = (inode1), *vfs_swap_b_ = (inode2);  \
		struct timespec64 vfs_swap_ts_ = VFS_INODE_GET_XTIME(xtime, vfs_swap_a_); \
		VFS_INODE_SET_XTIME(xtime, vfs_swap_a_, VFS_INODE_GET_XTIME(xtime, vfs_swap_b_)); \
		VFS_INODE_SET_XTIME(xtime, vfs_swap_b_, vfs_swap_ts_);          \
	} while (0)

/*
 * Dave Chinner's alternative (January 2016): the VFS speaks timespec64, and
 * a file system that keeps struct timespec (struct kernel_old_timespec,
 * kernel_standins.h) internally converts only at the boundary (setattr,
 * getattr/kstat).  Defined for every representation.
 */
/**
 * vfs_time_to_timespec - VFS time (timespec64) to a file system's timespec
 *
 * tv_sec is narrowed to the ABI's time_t: on ILP32 a time after 2038-01-19
 * wraps, which is the audit Chinner asked every file system to do.
 */
static inline struct kernel_old_timespec vfs_time_to_timespec(struct timespec64 ts)
{
	return (struct kernel_old_timespec){ .tv_sec = (kernel_old_time_t)ts.tv_sec,
					     .tv_nsec = ts.tv_nsec };
}

/** timespec_to_vfs_time - a file system's timespec to VFS time: exact. */
static inline struct timespec64 timespec_to_vfs_time(struct kernel_old_timespec ts)
{
	return (struct timespec64){ .tv_sec = ts.tv_sec, .tv_nsec = ts.tv_nsec };
}

#ifdef __cplusplus
}
#endif

#include "inode_sizes.h"

#endif /* LAYOUTS_INODE_H */
