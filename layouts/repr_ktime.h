/* SPDX-License-Identifier: MIT */
/*
 * repr_ktime.h - each timestamp one signed 64-bit count of nanoseconds since
 * the epoch: the kernel's ktime_t (include/linux/ktime.h).  Jeff Layton
 * proposed it for the ctime alone in an RFC of 2024-05-26 ("[PATCH RFC] fs:
 * turn inode->i_ctime into a ktime_t", linux-fsdevel), and again in his
 * multigrain timestamp series of 2024-06-26; neither version was merged.
 * It is not what Linus Torvalds asked for in the September 2023 timestamp
 * thread: there he asked for discrete seconds and nanoseconds fields (what
 * v6.11 merged, 3aa63a569c64, "Suggested-by: Linus Torvalds") and called a
 * different one-word format, seconds and 100 ns units in one 64-bit word, a
 * fine 'fstime_t'.  Here all three timestamps are ktime_t.
 *
 * 24 bytes for the three on every ABI (scalar: 36).  The price:
 *  - the range: KTIME_MIN .. KTIME_MAX ns, 1677-09-21T00:12:43.145224192Z ..
 *    2262-04-11T23:47:16.854775807Z;
 *  - a 64-bit division by NSEC_PER_SEC on every read that wants a
 *    timespec64: ktime_to_timespec64() is ns_to_timespec64(), out of line in
 *    kernel/time/time.c and out of line here (noinline).  On LP64 the
 *    compilers turn the division by a constant into a multiplication; on
 *    i386 and armhf gcc calls libgcc for it (__udivdi3/__umoddi3,
 *    __aeabi_uldivmod) - the kernel's own x86-32 do_div() is two inline divl
 *    instead, arm's __do_div64 an out-of-line routine.
 *
 * Stores go through ktime_set(), as the kernel writes them: a tv_sec at or
 * beyond KTIME_SEC_MAX gives KTIME_MAX (so the last 0.85 s before KTIME_MAX,
 * tv_sec == KTIME_SEC_MAX, are not held exactly either: they become
 * KTIME_MAX, the latest instant held).  So an ext4 timestamp of 2446-05-10
 * (ext4's s_time_max with the extra epoch bits), read into such an inode,
 * becomes 2262-04-11T23:47:16.854775807Z: the clamp Darrick Wong pointed out
 * in the review of Layton's patch ("the ctime will suddenly jump back in
 * time to 2262"), and timestamp_truncate() against ext4's s_time_max does
 * not prevent it.  ktime_set() has no lower bound: below KTIME_SEC_MIN
 * (1677) secs * NSEC_PER_SEC overflows, which the kernel's
 * -fno-strict-overflow turns into a wrap to some time near 2262; the model
 * clamps to KTIME_MIN instead, the mirror image of the top (no undefined
 * behaviour in C), and also
 * saturates when a tv_nsec outside 0..NSEC_PER_SEC-1 would carry the sum
 * past either end.  tv_nsec goes in as the kernel's unsigned long: on ILP32
 * a negative one becomes 2^32 + tv_nsec nanoseconds.
 *
 * Lockless: one READ_ONCE()/WRITE_ONCE() of the 64-bit word per timestamp.
 * On the LP64 ABIs that is one 8-aligned 64-bit access, single-copy atomic:
 * no read can be torn, with or without a seqcount.  On i386 and armhf the
 * model, like the compilers for a plain s64 and the kernel's READ_ONCE() of
 * a u64 on 32-bit, makes it two 32-bit accesses (lockless_access.h), so a
 * reader can get the halves of two stores; the torn-read test and benchmark
 * count those.  A kernel there would need a seqcount, or atomic64_t
 * (cmpxchg8b on i386, ldrexd/strexd on armv7), to read one atomically.
 *
 * A representation header: see layouts/inode.h for what it defines.
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_KTIME_H
#define LAYOUTS_REPR_KTIME_H

#include "kernel_standins.h"
#include "lockless_access.h"
#include "time64.h"

#define INODE_REPR_ID ktime
#define INODE_REPR_NAME "ktime"
#define INODE_REPR_ORIGIN "one s64 of ns (Layton ctime RFC, 2024)"

/* --- ktime_t, as include/linux/ktime.h and time64.h have it --------------- */

typedef s64 ktime_t;

#define KTIME_MAX ((s64)~((u64)1 << 63))
#define KTIME_MIN (-KTIME_MAX - 1)
#define KTIME_SEC_MAX (KTIME_MAX / NSEC_PER_SEC)
#define KTIME_SEC_MIN (KTIME_MIN / NSEC_PER_SEC)

INODE_STATIC_ASSERT(KTIME_SEC_MAX == 9223372036 && KTIME_SEC_MIN == -9223372036,
		    "KTIME_SEC_MAX is 2262-04-11T23:47:16Z, KTIME_SEC_MIN 1677-09-21T00:12:44Z");

/**
 * ktime_set - @secs and @nsecs as one ktime_t
 *
 * As the kernel's: @secs >= KTIME_SEC_MAX gives KTIME_MAX.  Beyond the
 * kernel's (which would overflow): @secs < KTIME_SEC_MIN gives KTIME_MIN,
 * and a sum past either end saturates (see the head).
 */
static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	ktime_t kt;

	if (secs >= KTIME_SEC_MAX)
		return KTIME_MAX;
	if (secs < KTIME_SEC_MIN)
		return KTIME_MIN;
	/* secs * NSEC_PER_SEC fits now; only a non-normalised nsecs can overflow. */
	if (__builtin_add_overflow(secs * NSEC_PER_SEC, (s64)nsecs, &kt))
		return (s64)nsecs > 0 ? KTIME_MAX : KTIME_MIN;
	return kt;
}

static inline ktime_t timespec64_to_ktime(struct timespec64 ts)
{
	return ktime_set(ts.tv_sec, (unsigned long)ts.tv_nsec);
}

/* div_u64_rem() of include/linux/math64.h (the generic one: / and %). */
static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

/**
 * ns_to_timespec64 - @nsec as a timespec64, tv_nsec in 0..NSEC_PER_SEC-1
 * (before 1970: tv_sec is the earlier second, tv_nsec counts up from it)
 *
 * Out of line, as in kernel/time/time.c, so that every read pays the call
 * the kernel pays (static: one copy per object that uses it).
 */
static __attribute__((noinline, unused)) struct timespec64 ns_to_timespec64(const s64 nsec)
{
	struct timespec64 ts = { .tv_sec = 0, .tv_nsec = 0 };
	u32 rem;

	if (nsec > 0) {
		ts.tv_sec = (time64_t)div_u64_rem((u64)nsec, (u32)NSEC_PER_SEC, &rem);
		ts.tv_nsec = (long)rem;
	} else if (nsec < 0) {
		/* -nsec - 1 without the overflow at KTIME_MIN. */
		ts.tv_sec = -(time64_t)div_u64_rem((u64)-(nsec + 1), (u32)NSEC_PER_SEC, &rem) - 1;
		ts.tv_nsec = NSEC_PER_SEC - (long)rem - 1;
	}
	return ts;
}

#define ktime_to_timespec64(kt) ns_to_timespec64((kt))

/* --- members -------------------------------------------------------------- */

#define INODE_TIMESTAMP_MEMBERS \
	ktime_t i_atime;       \
	ktime_t i_mtime;       \
	ktime_t i_ctime;

#define INODE_FS_TIMESTAMP(name) ktime_t name;

#define INODE_TIMESTAMP_FIELDS(F, xtime) F(xtime)
#define INODE_TIMESTAMP_FIRST i_atime
#define INODE_TIMESTAMP_LAST i_ctime
#define INODE_TIMESTAMP_BYTES (3 * sizeof(ktime_t))
INODE_STATIC_ASSERT(INODE_TIMESTAMP_BYTES == 24, "ktime timestamps take 24 bytes on every ABI");

/* --- features ------------------------------------------------------------- */

/* 24 bytes leave no hole for i_generation. */
#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 0
#define INODE_REPR_HAS_CTIME_QUERIED 0
#define INODE_REPR_ONE_WORD 1
/* ns_to_timespec64(KTIME_MIN) and ns_to_timespec64(KTIME_MAX). */
#define INODE_REPR_MIN \
	((struct timespec64){ .tv_sec = KTIME_SEC_MIN - 1, .tv_nsec = NSEC_PER_SEC + KTIME_MIN % NSEC_PER_SEC })
#define INODE_REPR_MAX ((struct timespec64){ .tv_sec = KTIME_SEC_MAX, .tv_nsec = KTIME_MAX % NSEC_PER_SEC })
#define INODE_REPR_OUT_OF_RANGE_WRAPS 0

/* --- access --------------------------------------------------------------- */

#define INODE_REPR_LOAD(obj, xtime) ktime_to_timespec64((obj)->xtime)
#define INODE_REPR_SEC(obj, xtime) (ktime_to_timespec64((obj)->xtime).tv_sec)
#define INODE_REPR_NSEC(obj, xtime) (ktime_to_timespec64((obj)->xtime).tv_nsec)
#define INODE_REPR_STORE(obj, xtime, ts) ((obj)->xtime = timespec64_to_ktime(ts))

/* --- lockless access: seconds and nanoseconds are the same word ----------- */

#define INODE_REPR_SEC_ADDR(obj, xtime) ((void *)&(obj)->xtime)
#define INODE_REPR_NSEC_ADDR(obj, xtime) ((void *)&(obj)->xtime)
#define INODE_REPR_SEC_SIZE sizeof(ktime_t)
#define INODE_REPR_LOCKLESS_STORE(obj, xtime, ts) \
	lockless_store_s64(INODE_REPR_SEC_ADDR(obj, xtime), timespec64_to_ktime(ts))
#define INODE_REPR_LOCKLESS_LOAD(obj, xtime) \
	ktime_to_timespec64(lockless_load_s64(INODE_REPR_SEC_ADDR(obj, xtime)))

#endif /* LAYOUTS_REPR_KTIME_H */
