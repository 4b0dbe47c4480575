/* SPDX-License-Identifier: MIT */
/*
 * inode_sizes.h - the intended sizeof(struct inode) of the selected layout
 * on this ABI, and the offset of its first timestamp byte, as claims that
 * every build checks with _Static_assert.
 *
 * The sizes are the rows of layouts.def, the one list of layouts (one row
 * per body x representation, a column per ABI group): a representation or
 * body adds rows there and nothing here.  The first timestamp offset is the
 * same for every layout of an ABI (the timestamps follow i_size).  An ABI
 * not listed here builds without a claim (INODE_SIZE_CLAIM == 0), and so
 * does a row whose numbers are still 0: the layout test then fails, printing
 * the real sizeof.
 *
 * Include through layouts/inode.h only (after struct inode is complete).
 */
#ifndef LAYOUTS_INODE_SIZES_H
#define LAYOUTS_INODE_SIZES_H

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

/* The claim of one row for this ABI: the lp64, i386 or armhf column. */
#if INODE_ABI == INODE_ABI_X86_64 || INODE_ABI == INODE_ABI_AARCH64 || INODE_ABI == INODE_ABI_RISCV64
#define INODE_ABI_COLUMN(lp64, i386, armhf) (lp64)
#define INODE_TIMESTAMP_OFFSET_CLAIM 88
#elif INODE_ABI == INODE_ABI_I386
#define INODE_ABI_COLUMN(lp64, i386, armhf) (i386)
#define INODE_TIMESTAMP_OFFSET_CLAIM 60
#elif INODE_ABI == INODE_ABI_ARMHF
#define INODE_ABI_COLUMN(lp64, i386, armhf) (armhf)
#define INODE_TIMESTAMP_OFFSET_CLAIM 64
#elif INODE_ABI == INODE_ABI_UNKNOWN
#define INODE_ABI_COLUMN(lp64, i386, armhf) 0
#define INODE_TIMESTAMP_OFFSET_CLAIM 0
#else
#error "INODE_ABI has no column in layouts.def"
#endif

/*
 * One constant per row, inode_size_claim_<repr>_<body>; the selected
 * layout's is INODE_SIZE_CLAIM.  A layout without a row fails to compile
 * naming the constant it looked for.
 */
#define INODE_LAYOUT(repr, body, lp64, i386, armhf) \
	inode_size_claim_##repr##_##body = INODE_ABI_COLUMN(lp64, i386, armhf),
enum inode_size_claims {
#include "layouts.def"
};
#undef INODE_LAYOUT

#define INODE_SIZE_CLAIM_PASTE_(repr, body) inode_size_claim_##repr##_##body
#define INODE_SIZE_CLAIM_PASTE(repr, body) INODE_SIZE_CLAIM_PASTE_(repr, body)
#define INODE_SIZE_CLAIM INODE_SIZE_CLAIM_PASTE(INODE_REPR_ID, INODE_BODY_ID)

INODE_STATIC_ASSERT(INODE_SIZE_CLAIM == 0 || sizeof(struct inode) == INODE_SIZE_CLAIM,
		    "sizeof(struct inode) differs from this layout's row in layouts.def");
INODE_STATIC_ASSERT(INODE_ABI == INODE_ABI_UNKNOWN ||
			    INODE_TIMESTAMP_OFFSET_BEGIN == INODE_TIMESTAMP_OFFSET_CLAIM,
		    "first timestamp offset differs from the claim in inode_sizes.h");
INODE_STATIC_ASSERT(sizeof(time64_t) == 8, "time64_t is 64 bits");

#endif /* LAYOUTS_INODE_SIZES_H */
