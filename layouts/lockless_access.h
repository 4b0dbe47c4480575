/* SPDX-License-Identifier: MIT */
/*
 * lockless_access.h - the kernel's READ_ONCE()/WRITE_ONCE() of one field, by
 * width, as relaxed atomics of the width the hardware would use.  The
 * representation headers build their lockless load and store from these.
 *
 * The kernel updates i_mtime/i_ctime under the inode lock but reads them
 * locklessly: generic_fillattr() (stat) does plain loads while a concurrent
 * file_update_time() stores.  In C11 such plain accesses would be a data race
 * (undefined behaviour), so the model uses relaxed atomics instead:
 *
 *  - a long (time_t, timespec's tv_nsec) and a 32-bit field: one access of
 *    their own size, always naturally aligned in these layouts;
 *  - a 64-bit field on an ILP32 ABI: two 32-bit accesses, low half first
 *    (what gcc -m32 emits for a plain s64 load or store, and what the
 *    kernel's READ_ONCE() of a u64 does on 32-bit: it is not atomic; armv7
 *    may use ldrd/strd, single-copy atomic only with LPAE, so armhf is
 *    modelled as i386 is);
 *  - a 64-bit field on an LP64 ABI: one 64-bit access when 8-aligned.  A
 *    64-bit field that is only 4-aligned (packed12's tv_sec) has no
 *    race-free 64-bit access in C11, so it is split into its two aligned
 *    32-bit halves too.  That is what strict-alignment ABIs do with a packed
 *    s64 (riscv64 gcc even uses byte loads); on x86_64 the real kernel would
 *    issue one unaligned movq, single-copy atomic unless it crosses a cache
 *    line, so the packed12 torn counts on x86_64 are an upper bound for
 *    x86_64 hardware.
 *
 * The halves are reached through may_alias types (GCC's documented escape
 * from type-based aliasing, as the kernel's -fno-strict-aliasing is), so
 * every access is an __atomic builtin on an aligned object: no C11 data
 * race, no aliasing UB.
 */
#ifndef LAYOUTS_LOCKLESS_ACCESS_H
#define LAYOUTS_LOCKLESS_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LOCKLESS_LO_OFFSET 4
#define LOCKLESS_HI_OFFSET 0
#else
#define LOCKLESS_LO_OFFSET 0
#define LOCKLESS_HI_OFFSET 4
#endif

typedef u32 __attribute__((may_alias)) lockless_u32;
typedef u64 __attribute__((may_alias)) lockless_u64;
typedef unsigned long __attribute__((may_alias)) lockless_ulong;

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

/* True when a 64-bit field at @p is accessed with one 64-bit instruction. */
static inline int lockless_64_single(const void *p)
{
	return sizeof(long) == 8 && ((uintptr_t)p & 7) == 0;
}

/* A 64-bit field: one access, or two 32-bit halves, low half first (see the head). */
static inline void lockless_store_s64(void *p, s64 v)
{
	if (lockless_64_single(p)) {
		__atomic_store_n((lockless_u64 *)p, (u64)v, __ATOMIC_RELAXED);
		return;
	}
	lockless_store_u32((char *)p + LOCKLESS_LO_OFFSET, (u32)(u64)v);
	lockless_store_u32((char *)p + LOCKLESS_HI_OFFSET, (u32)((u64)v >> 32));
}

static inline s64 lockless_load_s64(const void *p)
{
	u64 lo, hi;

	if (lockless_64_single(p))
		return (s64)__atomic_load_n((const lockless_u64 *)p, __ATOMIC_RELAXED);
	lo = lockless_load_u32((const char *)p + LOCKLESS_LO_OFFSET);
	hi = lockless_load_u32((const char *)p + LOCKLESS_HI_OFFSET);
	/* Two's complement reassembly without a signed overflow. */
	return (s64)(hi << 32 | lo);
}

/*
 * lockless_access_name - how a field of @size bytes at @p is read and
 * written: "1x64", "2x32" (two halves: ILP32, or a 4-aligned s64) or "1x32".
 */
static inline const char *lockless_access_name(const void *p, size_t size)
{
	if (size == 4)
		return "1x32";
	return lockless_64_single(p) ? "1x64" : "2x32";
}

#ifdef __cplusplus
}
#endif

#endif /* LAYOUTS_LOCKLESS_ACCESS_H */
