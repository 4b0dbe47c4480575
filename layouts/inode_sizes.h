/* SPDX-License-Identifier: MIT */
/*
 * inode_sizes.h - the intended sizeof(struct inode) per ABI x body x
 * representation, and the offset of the first timestamp byte, as claims that
 * every build checks with _Static_assert.
 *
 * The numbers were first read from the compilers (a probe compiled with
 * gcc, i686-linux-gnu-gcc, arm-linux-gnueabihf-gcc, aarch64-linux-gnu-gcc and
 * riscv64-linux-gnu-gcc 12, Debian 12), not computed by hand; pahole on the
 * -g objects confirms them in reports/pahole/.  An ABI not listed here builds
 * without a claim (INODE_SIZE_CLAIM == 0) and the layout test says so.
 *
 *                     timespec timespec64 packed12 scalar multigrain
 *   x86_64/aarch64/riscv64
 *     v4_4              560      560        544     544     544
 *     v6                624      624        616     616     616
 *   i386 (s64 aligned to 4)
 *     v4_4              344      356        356     356     356
 *     v6                392      400        400     408     408
 *   armhf (EABI: s64 aligned to 8)
 *     v4_4              360      384        368     368     368
 *     v6                392      416        408     408     408
 *
 * Include through layouts/inode.h only (after struct inode is complete).
 */
#ifndef LAYOUTS_INODE_SIZES_H
#define LAYOUTS_INODE_SIZES_H

/* C11 spelling in C, static_assert in C++ (the benchmark shim includes this). */
#ifdef __cplusplus
#define INODE_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define INODE_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#define INODE_ABI_UNKNOWN 0
#define INODE_ABI_X86_64 1
#define INODE_ABI_I386 2
#define INODE_ABI_ARMHF 3
#define INODE_ABI_AARCH64 4
#define INODE_ABI_RISCV64 5

#if defined(__x86_64__) && defined(__LP64__)
#define INODE_ABI INODE_ABI_X86_64
#define INODE_ABI_NAME "x86_64"
#elif defined(__i386__)
#define INODE_ABI INODE_ABI_I386
#define INODE_ABI_NAME "i386"
#elif defined(__arm__) && defined(__ARM_EABI__)
#define INODE_ABI INODE_ABI_ARMHF
#define INODE_ABI_NAME "armhf"
#elif defined(__aarch64__) && defined(__LP64__)
#define INODE_ABI INODE_ABI_AARCH64
#define INODE_ABI_NAME "aarch64"
#elif defined(__riscv) && __riscv_xlen == 64
#define INODE_ABI INODE_ABI_RISCV64
#define INODE_ABI_NAME "riscv64"
#else
#define INODE_ABI INODE_ABI_UNKNOWN
#define INODE_ABI_NAME "unknown"
#endif

/* Columns: timespec, timespec64, packed12, scalar, multigrain. */
#define INODE_PICK_REPR(ts, ts64, p12, sc, mg)                                  \
	(INODE_TIME_REPR == INODE_REPR_TIMESPEC     ? (ts) :                    \
	 INODE_TIME_REPR == INODE_REPR_TIMESPEC64   ? (ts64) :                  \
	 INODE_TIME_REPR == INODE_REPR_PACKED12     ? (p12) :                   \
	 INODE_TIME_REPR == INODE_REPR_SCALAR       ? (sc) : (mg))

#if INODE_ABI == INODE_ABI_X86_64 || INODE_ABI == INODE_ABI_AARCH64 || INODE_ABI == INODE_ABI_RISCV64
#if INODE_BODY == INODE_BODY_V4_4
#define INODE_SIZE_CLAIM INODE_PICK_REPR(560, 560, 544, 544, 544)
#else
#define INODE_SIZE_CLAIM INODE_PICK_REPR(624, 624, 616, 616, 616)
#endif
#define INODE_TIMESTAMP_OFFSET_CLAIM 88
#elif INODE_ABI == INODE_ABI_I386
#if INODE_BODY == INODE_BODY_V4_4
#define INODE_SIZE_CLAIM INODE_PICK_REPR(344, 356, 356, 356, 356)
#else
#define INODE_SIZE_CLAIM INODE_PICK_REPR(392, 400, 400, 408, 408)
#endif
#define INODE_TIMESTAMP_OFFSET_CLAIM 60
#elif INODE_ABI == INODE_ABI_ARMHF
#if INODE_BODY == INODE_BODY_V4_4
#define INODE_SIZE_CLAIM INODE_PICK_REPR(360, 384, 368, 368, 368)
#else
#define INODE_SIZE_CLAIM INODE_PICK_REPR(392, 416, 408, 408, 408)
#endif
#define INODE_TIMESTAMP_OFFSET_CLAIM 64
#else
#define INODE_SIZE_CLAIM 0
#define INODE_TIMESTAMP_OFFSET_CLAIM 0
#endif

#if INODE_ABI != INODE_ABI_UNKNOWN
INODE_STATIC_ASSERT(sizeof(struct inode) == INODE_SIZE_CLAIM,
	       "sizeof(struct inode) differs from the claim in inode_sizes.h");
INODE_STATIC_ASSERT(INODE_TIMESTAMP_OFFSET_BEGIN == INODE_TIMESTAMP_OFFSET_CLAIM,
	       "first timestamp offset differs from the claim in inode_sizes.h");
#endif

/* Representation invariants that hold on every ABI. */
INODE_STATIC_ASSERT(INODE_TIME_REPR == INODE_REPR_TIMESPEC || INODE_TIME_REPR == INODE_REPR_TIMESPEC64 ||
		       INODE_TIMESTAMP_BYTES == 36,
	       "packed12, scalar and multigrain timestamps take 36 bytes");
INODE_STATIC_ASSERT(sizeof(time64_t) == 8, "time64_t is 64 bits");

#endif /* LAYOUTS_INODE_SIZES_H */
