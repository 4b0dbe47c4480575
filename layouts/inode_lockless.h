/* SPDX-License-Identifier: MIT */
/*
 * inode_lockless.h - timestamps as the kernel touches them without a lock,
 * and the seqcount_t that would make such reads consistent.
 *
 * The kernel updates i_mtime/i_ctime under the inode lock but reads them
 * locklessly: generic_fillattr() (stat) does plain loads while a concurrent
 * file_update_time() stores.  In C11 such plain accesses would be a data race
 * (undefined behaviour), so this header models the kernel's READ_ONCE() and
 * WRITE_ONCE() with relaxed atomics of the width the hardware would use:
 *
 *  - a long (time_t, timespec's tv_nsec) and a 32-bit nsec: one access of
 *    their own size, always naturally aligned in these layouts;
 *  - a 64-bit tv_sec on an ILP32 ABI: two 32-bit accesses, low half first
 *    (what gcc -m32 emits for a plain s64 load or store, and what the
 *    kernel's READ_ONCE() of a u64 does on 32-bit: it is not atomic; armv7
 *    may use ldrd/strd, single-copy atomic only with LPAE, so armhf is
 *    modelled as i386 is);
 *  - a 64-bit tv_sec on an LP64 ABI: one 64-bit access when 8-aligned.
 *    packed12's tv_sec is only 4-aligned (i_mtime sits at a 4 mod 8 offset):
 *    C11 has no race-free 64-bit access there, so it is split into its two
 *    aligned 32-bit halves too.  That is what strict-alignment ABIs do with
 *    a packed s64 (riscv64 gcc even uses byte loads); on x86_64 the real
 *    kernel would issue one unaligned movq, single-copy atomic unless it
 *    crosses a cache line, so the packed12 torn counts on x86_64 are an
 *    upper bound for x86_64 hardware (see inode_lockless_sec_access()).
 *
 * Seconds and nanoseconds are always separate accesses (sec first, as the
 * struct member order and the compilers have it), so a reader can always
 * mix the seconds of one store with the nanoseconds of another.
 *
 * The halves are reached through may_alias types (GCC's documented escape
 * from type-based aliasing, as the kernel's -fno-strict-aliasing is), so
 * every access to a shared timestamp is an __atomic builtin on an aligned
 * object: no C11 data race, no aliasing UB.
 *
 * Include after (or instead of) layouts/inode.h: the accessors follow the
 * layout selected by INODE_TIME_REPR.  Nothing here is used by the layout
 * headers themselves.
 */
#ifndef LAYOUTS_INODE_LOCKLESS_H
#define LAYOUTS_INODE_LOCKLESS_H

#include <stddef.h>
#include <stdint.h>

#include "inode.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define INODE_LOCKLESS_LO_OFFSET 4
#define INODE_LOCKLESS_HI_OFFSET 0
#else
#define INODE_LOCKLESS_LO_OFFSET 0
#define INODE_LOCKLESS_HI_OFFSET 4
#endif

typedef u32 __attribute__((may_alias)) lockless_u32;
typedef u64 __attribute__((may_alias)) lockless_u64;
typedef unsigned long __attribute__((may_alias)) lockless_ulong;

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

/* --- WRITE_ONCE/READ_ONCE of one field, by width -------------------------- */

static inline void lockless_store_u32(void *p, u32 v)
{
	__atomic_store_n((lockless_u32 *)p, v, __ATOMIC_RELAXED);
}

static inline u32 lockless_load_u32(const void *p)
{
	return __atomic_load_n((const lockless_u32 *)p, __ATOMIC_RELAXED);
}

/* A long (one register on every ABI): time_t, timespec's tv_nsec. */
static inline void lockless_store_long(void *p, long v)
{
	__atomic_store_n((lockless_ulong *)p, (unsigned long)v, __ATOMIC_RELAXED);
}

static inline long lockless_load_long(const void *p)
{
	return (long)__atomic_load_n((const lockless_ulong *)p, __ATOMIC_RELAXED);
}

/* True when a 64-bit tv_sec at @p is accessed with one 64-bit instruction. */
static inline int lockless_sec64_single(const void *p)
{
	return sizeof(long) == 8 && ((uintptr_t)p & 7) == 0;
}

/* A 64-bit seconds field: one access, or two 32-bit halves (see the head). */
static inline void lockless_store_sec64(void *p, s64 v)
{
	if (lockless_sec64_single(p)) {
		__atomic_store_n((lockless_u64 *)p, (u64)v, __ATOMIC_RELAXED);
		return;
	}
	lockless_store_u32((char *)p + INODE_LOCKLESS_LO_OFFSET, (u32)(u64)v);
	lockless_store_u32((char *)p + INODE_LOCKLESS_HI_OFFSET, (u32)((u64)v >> 32));
}

static inline s64 lockless_load_sec64(const void *p)
{
	u64 lo, hi;

	if (lockless_sec64_single(p))
		return (s64)__atomic_load_n((const lockless_u64 *)p, __ATOMIC_RELAXED);
	lo = lockless_load_u32((const char *)p + INODE_LOCKLESS_LO_OFFSET);
	hi = lockless_load_u32((const char *)p + INODE_LOCKLESS_HI_OFFSET);
	/* Two's complement reassembly without a signed overflow. */
	return (s64)(hi << 32 | lo);
}

/* --- per representation: where tv_sec and tv_nsec live ------------------- */

/*
 * INODE_LOCKLESS_SEC_ADDR(inode, xtime) / INODE_LOCKLESS_NSEC_ADDR(): the
 * addresses of the two fields of one timestamp, computed with offsetof so
 * that no pointer to an under-aligned (packed) s64 is ever formed.
 */
#if INODE_TIME_REPR == INODE_REPR_SCALAR || INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
#define INODE_LOCKLESS_SEC_ADDR(inode, xtime) ((void *)&(inode)->xtime##_sec)
#define INODE_LOCKLESS_NSEC_ADDR(inode, xtime) ((void *)&(inode)->xtime##_nsec)
#elif INODE_TIME_REPR == INODE_REPR_PACKED12
#define INODE_LOCKLESS_SEC_ADDR(inode, xtime) \
	((void *)((char *)&(inode)->xtime + offsetof(struct inode_timespec, tv_sec)))
#define INODE_LOCKLESS_NSEC_ADDR(inode, xtime) \
	((void *)((char *)&(inode)->xtime + offsetof(struct inode_timespec, tv_nsec)))
#else /* timespec, timespec64 */
#define INODE_LOCKLESS_SEC_ADDR(inode, xtime) ((void *)&(inode)->xtime.tv_sec)
#define INODE_LOCKLESS_NSEC_ADDR(inode, xtime) ((void *)&(inode)->xtime.tv_nsec)
#endif

/*
 * inode_lockless_store - WRITE_ONCE() each field of @ts into @sec/@nsec,
 * the addresses of one timestamp of this layout, converted as the layout's
 * INODE_REPR_STORE() converts (timespec narrows tv_sec to time_t on ILP32;
 * packed12, scalar and multigrain narrow tv_nsec to 32 bits; storing a
 * multigrain nsec clears I_CTIME_QUERIED as the kernel's store does).
 * Seconds first, then nanoseconds.
 */
static inline void inode_lockless_store(void *sec, void *nsec, struct timespec64 ts)
{
#if INODE_TIME_REPR == INODE_REPR_TIMESPEC
	lockless_store_long(sec, (kernel_old_time_t)ts.tv_sec);
	lockless_store_long(nsec, ts.tv_nsec);
#elif INODE_TIME_REPR == INODE_REPR_TIMESPEC64
	lockless_store_sec64(sec, ts.tv_sec);
	lockless_store_long(nsec, ts.tv_nsec);
#else /* packed12 (s32 nsec), scalar and multigrain (u32 nsec): same bits */
	lockless_store_sec64(sec, ts.tv_sec);
	lockless_store_u32(nsec, (u32)ts.tv_nsec);
#endif
}

/*
 * inode_lockless_load - READ_ONCE() each field, seconds first, and return
 * what the layout's INODE_REPR_LOAD() would (sign-extended time_t; packed12's
 * nsec as s32; multigrain's nsec without I_CTIME_QUERIED).
 */
static inline struct timespec64 inode_lockless_load(const void *sec, const void *nsec)
{
	struct timespec64 ts;

#if INODE_TIME_REPR == INODE_REPR_TIMESPEC
	ts.tv_sec = lockless_load_long(sec);
	ts.tv_nsec = lockless_load_long(nsec);
#elif INODE_TIME_REPR == INODE_REPR_TIMESPEC64
	ts.tv_sec = lockless_load_sec64(sec);
	ts.tv_nsec = lockless_load_long(nsec);
#elif INODE_TIME_REPR == INODE_REPR_PACKED12
	ts.tv_sec = lockless_load_sec64(sec);
	ts.tv_nsec = (s32)lockless_load_u32(nsec);
#elif INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
	ts.tv_sec = lockless_load_sec64(sec);
	ts.tv_nsec = (long)(lockless_load_u32(nsec) & ~I_CTIME_QUERIED);
#else
	ts.tv_sec = lockless_load_sec64(sec);
	ts.tv_nsec = (long)lockless_load_u32(nsec);
#endif
	return ts;
}

/* The mtime and ctime forms, for file_update_time() and stat() models. */
static inline void inode_lockless_set_mtime(struct inode *inode, struct timespec64 ts)
{
	inode_lockless_store(INODE_LOCKLESS_SEC_ADDR(inode, i_mtime),
			     INODE_LOCKLESS_NSEC_ADDR(inode, i_mtime), ts);
}

static inline void inode_lockless_set_ctime(struct inode *inode, struct timespec64 ts)
{
	inode_lockless_store(INODE_LOCKLESS_SEC_ADDR(inode, i_ctime),
			     INODE_LOCKLESS_NSEC_ADDR(inode, i_ctime), ts);
}

static inline struct timespec64 inode_lockless_get_mtime(const struct inode *inode)
{
	return inode_lockless_load(INODE_LOCKLESS_SEC_ADDR(inode, i_mtime),
				   INODE_LOCKLESS_NSEC_ADDR(inode, i_mtime));
}

static inline struct timespec64 inode_lockless_get_ctime(const struct inode *inode)
{
	return inode_lockless_load(INODE_LOCKLESS_SEC_ADDR(inode, i_ctime),
				   INODE_LOCKLESS_NSEC_ADDR(inode, i_ctime));
}

/**
 * inode_lockless_set_ctime_current - inode_set_ctime_current() with every
 * shared access modelled: returns the ctime now in @inode.
 *
 * Multigrain (v6.13): the acquire load of i_ctime_nsec, the fine-grained
 * step when the ctime was queried, the "exactly the same" early return and
 * the try_cmpxchg() on i_ctime_nsec (a locked read-modify-write on x86)
 * that decides between concurrent writers, as layouts/inode.h does single-
 * threaded; i_ctime_sec, a plain access in the kernel, goes through
 * READ_ONCE/WRITE_ONCE here.  Other representations: current_time(), then
 * the two stores.
 */
static inline struct timespec64 inode_lockless_set_ctime_current(struct inode *inode)
{
	struct timespec64 now = current_time(inode);
#if INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
	u32 cns = __atomic_load_n(&inode->i_ctime_nsec, __ATOMIC_ACQUIRE);
	u32 cur;

	if (cns & I_CTIME_QUERIED) {
		struct timespec64 ctime = { .tv_sec = lockless_load_sec64(&inode->i_ctime_sec),
					    .tv_nsec = (long)(cns & ~I_CTIME_QUERIED) };

		if (timespec64_compare(&now, &ctime) <= 0)
			now = inode_mg_fine_time(inode, ctime);
	}
	if (cns == (u32)now.tv_nsec && lockless_load_sec64(&inode->i_ctime_sec) == now.tv_sec)
		return now;

	cur = cns;
	for (;;) {
		if (__atomic_compare_exchange_n(&inode->i_ctime_nsec, &cur, (u32)now.tv_nsec, 0,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			lockless_store_sec64(&inode->i_ctime_sec, now.tv_sec);
			return now;
		}
		if (!(cns & I_CTIME_QUERIED) && (cns | I_CTIME_QUERIED) == cur) {
			cns = cur; /* only marked queried meanwhile: retry once */
			continue;
		}
		now.tv_sec = lockless_load_sec64(&inode->i_ctime_sec);
		now.tv_nsec = (long)(cur & ~I_CTIME_QUERIED);
		return now;
	}
#else
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
#if INODE_TIME_REPR == INODE_REPR_TIMESPEC
	(void)inode;
	return sizeof(long) == 8 ? "1x64" : "1x32";
#else
	return lockless_sec64_single(INODE_LOCKLESS_SEC_ADDR(inode, i_mtime)) ? "1x64" : "2x32";
#endif
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
