/* SPDX-License-Identifier: MIT */
/*
 * inode.h - the public entry to the struct inode replicas.
 *
 * Two compile-time choices select one layout, the way the RFC's
 * CONFIG_FS_USES_64BIT_TIME chose one:
 *   INODE_BODY      = INODE_BODY_V4_4 | INODE_BODY_V6
 *   INODE_TIME_REPR = INODE_REPR_TIMESPEC | INODE_REPR_TIMESPEC64 |
 *                     INODE_REPR_PACKED12 | INODE_REPR_SCALAR |
 *                     INODE_REPR_MULTIGRAIN
 * (CMake's layout_<body>_<repr> targets set both.)  Unset, they default to
 * v6/scalar, today's mainline.
 *
 * Every representation offers the same accessors with mainline's names and
 * signatures, the RFC's VFS_INODE_{GET,SET,SWAP}_XTIME() macros, and Dave
 * Chinner's boundary conversions, so that a consumer compiled once per layout
 * differs only where the layouts really differ.  The expected sizes per ABI
 * are claims in inode_sizes.h, checked by _Static_assert on every build.
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

#define INODE_BODY_V4_4 1
#define INODE_BODY_V6 2

#define INODE_REPR_TIMESPEC 1
#define INODE_REPR_TIMESPEC64 2
#define INODE_REPR_PACKED12 3
#define INODE_REPR_SCALAR 4
#define INODE_REPR_MULTIGRAIN 5

#ifndef INODE_BODY
#define INODE_BODY INODE_BODY_V6
#endif
#ifndef INODE_TIME_REPR
#define INODE_TIME_REPR INODE_REPR_SCALAR
#endif

#if INODE_TIME_REPR == INODE_REPR_TIMESPEC
#include "repr_timespec.h"
#elif INODE_TIME_REPR == INODE_REPR_TIMESPEC64
#include "repr_timespec64.h"
#elif INODE_TIME_REPR == INODE_REPR_PACKED12
#include "repr_packed12.h"
#elif INODE_TIME_REPR == INODE_REPR_SCALAR
#include "repr_scalar.h"
#elif INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
#include "repr_multigrain.h"
#else
#error "INODE_TIME_REPR must be one of the INODE_REPR_* constants"
#endif

#if INODE_BODY == INODE_BODY_V4_4
#include "body_v4_4.h"
#elif INODE_BODY == INODE_BODY_V6
#include "body_v6.h"
#else
#error "INODE_BODY must be INODE_BODY_V4_4 or INODE_BODY_V6"
#endif

/* "v6/scalar" and friends, for benchmark names and reports. */
#define INODE_LAYOUT_NAME INODE_BODY_NAME "/" INODE_REPR_NAME

/**
 * inode_timestamp_bytes - bytes the six timestamp fields occupy
 *
 * The sum of sizeof() of the timestamp members (a struct's tail padding
 * counts, holes between members do not): 36 for packed12/scalar/multigrain on
 * every ABI, 3 * sizeof(struct timespec64) etc. otherwise.
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

/* Offset of the first timestamp byte and one past the last, for reports. */
#define INODE_TIMESTAMP_OFFSET_BEGIN offsetof(struct inode, INODE_TIMESTAMP_FIRST)
#define INODE_TIMESTAMP_OFFSET_END \
	(offsetof(struct inode, INODE_TIMESTAMP_LAST) + sizeof(((struct inode *)0)->INODE_TIMESTAMP_LAST))

/*
 * Getters.  inode_get_Xtime() returns the stored value as a timespec64;
 * _sec() and _nsec() return one field each (multigrain: the nsec has the
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
 * hold it (timespec on ILP32 narrows tv_sec; packed12/scalar narrow tv_nsec
 * to 32 bits) and returns @ts unchanged, as mainline does.  No clamping or
 * truncation here: callers pass values that went through
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

#if INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
/**
 * inode_set_ctime_to_ts - multigrain (v6.13): normalise, then store
 *
 * v6.13 normalises @ts (set_normalized_timespec64) so that tv_nsec is in
 * 0..NSEC_PER_SEC-1 and can never collide with I_CTIME_QUERIED; storing also
 * clears the flag.  Returns the normalised value.
 */
static inline struct timespec64 inode_set_ctime_to_ts(struct inode *inode, struct timespec64 ts)
{
	/* Floor division without overflow: the quotient fits easily. */
	time64_t carry = ts.tv_nsec / NSEC_PER_SEC;

	ts.tv_nsec -= carry * NSEC_PER_SEC;
	if (ts.tv_nsec < 0) {
		ts.tv_nsec += NSEC_PER_SEC;
		carry--;
	}
	/* Saturate rather than overflow a time64_t at the ends of time. */
	if (carry > 0 && ts.tv_sec > TIME64_MAX - carry)
		ts.tv_sec = TIME64_MAX;
	else if (carry < 0 && ts.tv_sec < TIME64_MIN - carry)
		ts.tv_sec = TIME64_MIN;
	else
		ts.tv_sec += carry;
	INODE_REPR_STORE(inode, i_ctime, ts);
	return ts;
}
#else
static inline struct timespec64 inode_set_ctime_to_ts(struct inode *inode, struct timespec64 ts)
{
	INODE_REPR_STORE(inode, i_ctime, ts);
	return ts;
}
#endif

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

#if INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
/**
 * inode_ctime_mark_queried - what stat() (fill_mg_cmtime) does in v6.13:
 * set I_CTIME_QUERIED so that the next inode_set_ctime_current() must
 * produce a ctime distinguishable from the one just reported.
 */
static inline void inode_ctime_mark_queried(struct inode *inode)
{
	__atomic_fetch_or(&inode->i_ctime_nsec, I_CTIME_QUERIED, __ATOMIC_RELAXED);
}

/* True when I_CTIME_QUERIED is set. */
static inline int inode_ctime_queried(const struct inode *inode)
{
	return (__atomic_load_n(&inode->i_ctime_nsec, __ATOMIC_RELAXED) & I_CTIME_QUERIED) != 0;
}

/*
 * The fine-grained clock of the model.  The kernel's ktime_get_real_ts64_mg()
 * returns a fine-grained "now", which is later than any coarse value handed
 * out so far.  Here "now" comes from the replaceable fstime clock, so the
 * model guarantees the property that matters instead: the result is later
 * than @floor by at least one s_time_gran.
 */
static inline struct timespec64 inode_mg_fine_time(const struct inode *inode,
						   struct timespec64 floor)
{
	struct timespec64 now = current_time(inode);
	u32 gran = inode->i_sb->s_time_gran;
	time64_t nsec, carry;

	if (timespec64_compare(&now, &floor) > 0)
		return now;
	if (gran == 0 || gran > NSEC_PER_SEC)
		gran = 1; /* illegal granularity: step by 1 ns */
	/*
	 * 64-bit arithmetic: a ctime stored through VFS_INODE_SET_XTIME() is not
	 * normalised, so floor.tv_nsec may be anything below 2^31 and the sum
	 * must not overflow a 32-bit long.
	 */
	nsec = (time64_t)floor.tv_nsec + gran;
	carry = nsec / NSEC_PER_SEC;
	now.tv_nsec = (long)(nsec % NSEC_PER_SEC);
	now.tv_sec = floor.tv_sec > TIME64_MAX - carry ? TIME64_MAX : floor.tv_sec + carry;
	return timestamp_truncate(now, inode->i_sb);
}

/**
 * inode_set_ctime_current - v6.13 multigrain: set ctime to "now"
 *
 * Coarse-grained now, truncated for the super block.  If the current ctime
 * was queried and coarse now is not later than it, a fine-grained time is
 * used instead.  The new nsec is swapped in with a compare-and-exchange so
 * that a concurrent inode_ctime_mark_queried() is either seen or retried;
 * if another writer won, its ctime is kept and returned.  Returns the ctime
 * now in the inode.
 */
static inline struct timespec64 inode_set_ctime_current(struct inode *inode)
{
	struct timespec64 now = current_time(inode);
	u32 cns = __atomic_load_n(&inode->i_ctime_nsec, __ATOMIC_ACQUIRE);
	u32 cur;

	if (cns & I_CTIME_QUERIED) {
		struct timespec64 ctime = { .tv_sec = inode->i_ctime_sec,
					    .tv_nsec = (long)(cns & ~I_CTIME_QUERIED) };

		if (timespec64_compare(&now, &ctime) <= 0)
			now = inode_mg_fine_time(inode, ctime);
	}

	/* Nothing to swap if the value is exactly the same (flag clear). */
	if (cns == (u32)now.tv_nsec && inode->i_ctime_sec == now.tv_sec)
		return now;

	cur = cns;
	for (;;) {
		if (__atomic_compare_exchange_n(&inode->i_ctime_nsec, &cur, (u32)now.tv_nsec, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			inode->i_ctime_sec = now.tv_sec;
			return now;
		}
		/* Someone only marked the old ctime queried: retry, once. */
		if (!(cns & I_CTIME_QUERIED) && (cns | I_CTIME_QUERIED) == cur) {
			cns = cur;
			continue;
		}
		/* Another writer stored a new ctime: keep theirs. */
		now.tv_sec = inode->i_ctime_sec;
		now.tv_nsec = (long)(cur & ~I_CTIME_QUERIED);
		return now;
	}
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
 * a file system that keeps struct timespec internally converts only at the
 * boundary (setattr, getattr/kstat).  Defined for every representation.
 */
#if INODE_TIME_REPR != INODE_REPR_TIMESPEC
/* repr_timespec.h defines it for the timespec representation. */
struct kernel_old_timespec {
	kernel_old_time_t tv_sec;
	long tv_nsec;
};
#endif

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
