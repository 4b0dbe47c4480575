/* SPDX-License-Identifier: MIT */
/*
 * inode_lockless.h - timestamps as the kernel touches them without a lock,
 * and the seqcount_t that would make such reads consistent.
 *
 * The kernel updates i_mtime/i_ctime under the inode lock but reads them
 * locklessly: generic_fillattr() (stat) does plain loads while a concurrent
 * file_update_time() stores.  The accessors here are the selected
 * representation's INODE_REPR_LOCKLESS_LOAD/STORE(): READ_ONCE()/
 * WRITE_ONCE() of each field, as relaxed atomics of the width the hardware
 * would use (lockless_access.h says which width, per ABI), the seconds
 * first, as the struct member order and the compilers have it.  Where the
 * seconds and the nanoseconds are separate fields, a reader can mix the
 * seconds of one store with the nanoseconds of another; where a field is
 * two 32-bit halves, its halves too.
 *
 * Include after (or instead of) layouts/inode.h.  Nothing here is used by
 * the layout headers themselves.
 */
#ifndef LAYOUTS_INODE_LOCKLESS_H
#define LAYOUTS_INODE_LOCKLESS_H

#include "inode.h"
#include "lockless_access.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The kernel's barriers for user space.  smp_wmb() orders earlier stores
 * before later stores, smp_rmb() earlier loads before later loads; in C11
 * terms a release and an acquire fence, which pair with each other through
 * the relaxed accesses in between (fence-to-fence synchronisation).  On x86
 * both are compiler barriers only, as in the kernel.
 */
static inline void smp_wmb(void)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
}

static inline void smp_rmb(void)
{
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
}

static inline void cpu_relax(void)
{
#if defined(__i386__) || defined(__x86_64__)
	__builtin_ia32_pause();
#endif
}

/* --- the timestamps -------------------------------------------------------- */

/*
 * inode_lockless_set_Xtime - WRITE_ONCE() each field of @ts, converted as the
 * layout's inode_set_Xtime_to_ts() converts it (e.g. timespec narrows tv_sec
 * to time_t on ILP32; a multigrain nsec store clears I_CTIME_QUERIED, as the
 * kernel's does), seconds first.
 */
static inline void inode_lockless_set_mtime(struct inode *inode, struct timespec64 ts)
{
	INODE_REPR_LOCKLESS_STORE(inode, i_mtime, ts);
}

static inline void inode_lockless_set_ctime(struct inode *inode, struct timespec64 ts)
{
	INODE_REPR_LOCKLESS_STORE(inode, i_ctime, ts);
}

/*
 * inode_lockless_get_Xtime - READ_ONCE() each field, seconds first, and
 * return what the layout's inode_get_Xtime() would (e.g. a sign-extended
 * time_t, or multigrain's nsec without I_CTIME_QUERIED).
 */
static inline struct timespec64 inode_lockless_get_mtime(const struct inode *inode)
{
	return INODE_REPR_LOCKLESS_LOAD(inode, i_mtime);
}

static inline struct timespec64 inode_lockless_get_ctime(const struct inode *inode)
{
	return INODE_REPR_LOCKLESS_LOAD(inode, i_ctime);
}

/**
 * inode_lockless_set_ctime_current - inode_set_ctime_current() with every
 * shared access modelled: returns the ctime now in @inode.
 *
 * With v6.13's queried flag this is the representation's own algorithm
 * (INODE_REPR_SET_CTIME_CURRENT(): the acquire load of the nsec, the
 * fine-grained step, the try_cmpxchg() that decides between concurrent
 * writers), which already accesses every field lockless-safely, so there is
 * one such algorithm in the model.  Otherwise: current_time(), then the two
 * stores.
 */
static inline struct timespec64 inode_lockless_set_ctime_current(struct inode *inode)
{
#if INODE_REPR_HAS_CTIME_QUERIED
	return INODE_REPR_SET_CTIME_CURRENT(inode);
#else
	struct timespec64 now = current_time(inode);

	inode_lockless_set_ctime(inode, now);
	return now;
#endif
}

/**
 * inode_lockless_sec_access - how this build reads and writes @inode's
 * mtime seconds: "1x64", "2x32" (two halves: ILP32, or a 4-aligned s64) or
 * "1x32" (a 32-bit time_t), for reports.
 */
static inline const char *inode_lockless_sec_access(const struct inode *inode)
{
	return lockless_access_name(INODE_REPR_SEC_ADDR(inode, i_mtime), INODE_REPR_SEC_SIZE);
}

/* --- seqcount_t (include/linux/seqlock.h, without lockdep) --------------- */

static inline void seqcount_init(seqcount_t *s)
{
	__atomic_store_n(&s->sequence, 0u, __ATOMIC_RELAXED);
}

/*
 * raw_write_seqcount_begin - make the count odd, then smp_wmb(): a reader
 * that sees any store of this write section also sees the odd count (or a
 * later one) at its read_seqcount_retry().  Writers must be serialised by
 * the caller (the inode lock, in the kernel); the increment is a plain
 * read-modify-write of the writer's own value, as in the kernel.
 */
static inline void raw_write_seqcount_begin(seqcount_t *s)
{
	unsigned int seq = __atomic_load_n(&s->sequence, __ATOMIC_RELAXED);

	__atomic_store_n(&s->sequence, seq + 1, __ATOMIC_RELAXED);
	smp_wmb();
}

/* raw_write_seqcount_end - smp_wmb(), then make the count even again. */
static inline void raw_write_seqcount_end(seqcount_t *s)
{
	unsigned int seq = __atomic_load_n(&s->sequence, __ATOMIC_RELAXED);

	smp_wmb();
	__atomic_store_n(&s->sequence, seq + 1, __ATOMIC_RELAXED);
}

/* The kernel's write_seqcount_begin/end add lockdep and preemption checks. */
static inline void write_seqcount_begin(seqcount_t *s)
{
	raw_write_seqcount_begin(s);
}

static inline void write_seqcount_end(seqcount_t *s)
{
	raw_write_seqcount_end(s);
}

/*
 * read_seqcount_begin - wait while a write is in progress (odd count), then
 * smp_rmb() so that the protected loads come after this one.  Returns the
 * (even) count to hand to read_seqcount_retry().
 */
static inline unsigned int read_seqcount_begin(const seqcount_t *s)
{
	unsigned int seq;

	while ((seq = __atomic_load_n(&s->sequence, __ATOMIC_RELAXED)) & 1)
		cpu_relax();
	smp_rmb();
	return seq;
}

/*
 * read_seqcount_retry - smp_rmb(), then true if the count moved since
 * read_seqcount_begin() returned @start: the loads in between may mix two
 * writes and must be repeated.
 */
static inline int read_seqcount_retry(const seqcount_t *s, unsigned int start)
{
	smp_rmb();
	return __atomic_load_n(&s->sequence, __ATOMIC_RELAXED) != start;
}

#ifdef __cplusplus
}
#endif

#endif /* LAYOUTS_INODE_LOCKLESS_H */
