/* SPDX-License-Identifier: MIT */
/*
 * repr_multigrain.h - v6.13 multigrain timestamps: the scalar layout, with
 * bit 31 of i_ctime_nsec (I_CTIME_QUERIED) recording that someone has looked
 * at the ctime since it was last set, so that the next ctime update must be
 * fine-grained to stay distinguishable.  Same bytes as repr_scalar.h; only
 * the accessors differ (every nsec read masks the flag; the ctime setter
 * normalises, layouts/inode.h; inode_set_ctime_current() follows the v6.13
 * algorithm, below, the one compare-and-exchange of the model).
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_MULTIGRAIN_H
#define LAYOUTS_REPR_MULTIGRAIN_H

#include "fs_time.h"
#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

#define INODE_REPR_ID multigrain
#define INODE_REPR_NAME "multigrain"
#define INODE_REPR_ORIGIN "v6.13 (multigrain ctime)"

/* Valid nanoseconds need 30 bits, so bit 31 is free for the flag. */
#define I_CTIME_QUERIED (1U << 31)

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS   \
	time64_t i_atime_sec;    \
	time64_t i_mtime_sec;    \
	time64_t i_ctime_sec;    \
	u32 i_atime_nsec;        \
	u32 i_mtime_nsec;        \
	u32 i_ctime_nsec;

#define INODE_FS_TIMESTAMP(name) \
	time64_t name##_sec;     \
	u32 name##_nsec;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime##_sec) F(xtime##_nsec)
#define INODE_TIMESTAMP_FIRST i_atime_sec
#define INODE_TIMESTAMP_LAST i_ctime_nsec
#define INODE_TIMESTAMP_BYTES (3 * sizeof(time64_t) + 3 * sizeof(u32))
INODE_STATIC_ASSERT(INODE_TIMESTAMP_BYTES == 36, "multigrain timestamps take 36 bytes on every ABI");

/* --- features ------------------------------------------------------------- */

#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 1
#define INODE_REPR_HAS_CTIME_QUERIED 1
#define INODE_REPR_ONE_WORD 0
#define INODE_REPR_MIN ((struct timespec64){ .tv_sec = TIME64_MIN, .tv_nsec = 0 })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = TIME64_MAX, .tv_nsec = NSEC_PER_SEC - 1 })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 0

/* --- access --------------------------------------------------------------- */

#define INODE_REPR_SEC(obj, xtime) ((obj)->xtime##_sec)
/* Only i_ctime_nsec ever carries the flag; masking all three costs nothing. */
#define INODE_REPR_NSEC(obj, xtime) ((long)((obj)->xtime##_nsec & ~I_CTIME_QUERIED))
#define INODE_REPR_LOAD(obj, xtime) \
	((struct timespec64){ .tv_sec = INODE_REPR_SEC(obj, xtime), .tv_nsec = INODE_REPR_NSEC(obj, xtime) })
/* Storing the nsec clears I_CTIME_QUERIED, as the kernel's store does. */
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
	ts.tv_nsec = (long)(lockless_load_u32(nsec) & ~I_CTIME_QUERIED);
	return ts;
}

#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	inode_repr_lockless_store(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime), ts)
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	inode_repr_lockless_load(INODE_REPR_SEC_ADDR(obj, xtime), INODE_REPR_NSEC_ADDR(obj, xtime))

/* --- the queried flag (INODE_REPR_HAS_CTIME_QUERIED) ---------------------- */

/* What stat() (fill_mg_cmtime) does in v6.13: set I_CTIME_QUERIED. */
#define INODE_REPR_CTIME_MARK_QUERIED(inode) \
	((void)__atomic_fetch_or(&(inode)->i_ctime_nsec, I_CTIME_QUERIED, __ATOMIC_RELAXED))
#define INODE_REPR_CTIME_QUERIED(inode) \
	((__atomic_load_n(&(inode)->i_ctime_nsec, __ATOMIC_RELAXED) & I_CTIME_QUERIED) != 0)
#define INODE_REPR_SET_CTIME_CURRENT(inode) \
	inode_mg_set_ctime_current(&(inode)->i_ctime_sec, &(inode)->i_ctime_nsec, (inode)->i_sb)

/*
 * inode_mg_fine_time - the fine-grained clock of the model.  The kernel's
 * ktime_get_real_ts64_mg() returns a fine-grained "now", which is later
 * than any coarse value handed out so far.  Here "now" comes from the
 * replaceable fstime clock, so the model guarantees the property that
 * matters instead: the result is later than @floor by at least one
 * s_time_gran of @sb (then truncated for @sb).
 */
static inline struct timespec64 inode_mg_fine_time(const struct super_block *sb,
						   struct timespec64 floor)
{
	struct timespec64 now = timestamp_truncate(fs_time_now(), sb); /* current_time() */
	u32 gran = sb->s_time_gran;
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
	return timestamp_truncate(now, sb);
}

/**
 * inode_mg_set_ctime_current - v6.13 multigrain inode_set_ctime_current()
 * on the ctime at @sec/@nsec of an inode of @sb
 *
 * Coarse-grained now (current_time()), truncated for the super block.  If
 * the current ctime was queried and coarse now is not later than it, a
 * fine-grained time is used instead.  The new nsec is swapped in with a
 * compare-and-exchange (try_cmpxchg(); a locked read-modify-write on x86) so
 * that a concurrent mark of the queried flag is either seen or retried; if
 * another writer won, its ctime is kept and returned.  Returns the ctime now
 * in the inode.  i_ctime_sec, a plain access in the kernel, goes through
 * READ_ONCE/WRITE_ONCE here, so this is also the lockless model's
 * (inode_lockless_set_ctime_current()).
 */
static inline struct timespec64 inode_mg_set_ctime_current(time64_t *sec, u32 *nsec,
							   const struct super_block *sb)
{
	struct timespec64 now = timestamp_truncate(fs_time_now(), sb); /* current_time() */
	u32 cns = __atomic_load_n(nsec, __ATOMIC_ACQUIRE);
	u32 cur;

	if (cns & I_CTIME_QUERIED) {
		struct timespec64 ctime = { .tv_sec = lockless_load_s64(sec),
					    .tv_nsec = (long)(cns & ~I_CTIME_QUERIED) };

		if (timespec64_compare(&now, &ctime) <= 0)
			now = inode_mg_fine_time(sb, ctime);
	}

	/* Nothing to swap if the value is exactly the same (flag clear). */
	if (cns == (u32)now.tv_nsec && lockless_load_s64(sec) == now.tv_sec)
		return now;

	cur = cns;
	for (;;) {
		if (__atomic_compare_exchange_n(nsec, &cur, (u32)now.tv_nsec, 0, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			lockless_store_s64(sec, now.tv_sec);
			return now;
		}
		/* Someone only marked the old ctime queried: retry, once. */
		if (!(cns & I_CTIME_QUERIED) && (cns | I_CTIME_QUERIED) == cur) {
			cns = cur;
			continue;
		}
		/* Another writer stored a new ctime: keep theirs. */
		now.tv_sec = lockless_load_s64(sec);
		now.tv_nsec = (long)(cur & ~I_CTIME_QUERIED);
		return now;
	}
}

#endif /* LAYOUTS_REPR_MULTIGRAIN_H */
