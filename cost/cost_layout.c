/* SPDX-License-Identifier: MIT */
/*
 * cost_layout.c - every timestamp accessor of one layout as its own
 * out-of-line function, and the inner loops that llvm-mca models.
 *
 * Compiled once per layout (cost/CMakeLists.txt) with COST_LAYOUT_ID =
 * <body>_<repr> and the kernel's code-generation flags, like the per-layout
 * benchmark objects.  Exports one struct cost_layout, cost_layout_<id>.
 *
 * Each cost_op_* function is what the kernel inlines at a call site: it
 * reads its input from and writes its result to struct cost_io (memory to
 * memory on every ABI), so its instruction count is the access itself plus a
 * prologue, a return and the copy in or out.  The RFC's
 * VFS_INODE_SET_XTIME() calls fstime's vfs_inode_xtime_check() out of line,
 * as the RFC's macro calls is_fs_timestamp_bad(): that call is counted too.
 */
#include "cost.h"
#include "inode.h"

#ifndef COST_LAYOUT_ID
#error "COST_LAYOUT_ID must name the layout (<body>_<repr>): see cost/CMakeLists.txt"
#endif

#define COST_PASTE_(a, b) a##_##b
#define COST_PASTE(a, b) COST_PASTE_(a, b)
#define COST_OP(name) COST_PASTE(cost_op_##name, COST_LAYOUT_ID)
#define COST_LOOP(name) COST_PASTE(cost_loop_##name, COST_LAYOUT_ID)
/* Out of line and never cloned or merged: one symbol per operation. */
#define COST_NOINLINE __attribute__((noinline, noclone, used))

/* A compiler barrier (no instruction), as the benchmarks' clobber. */
#define cost_clobber_memory() __asm__ __volatile__("" : : : "memory")

struct cost_fixture {
	struct super_block sb;
	struct inode inode[2];
	struct inode loop_inodes[COST_LOOP_INODES];
	struct timespec64 loop_inputs[COST_LOOP_BATCH];
	uint32_t loop_order[COST_LOOP_INODES];
};

static struct timespec64 cost_ts(time64_t sec, long nsec)
{
	return (struct timespec64){ .tv_sec = sec, .tv_nsec = nsec };
}

/* inode 0 and 1 hold the same a/m/c times: COST_INODE{0,1}_{SEC,NSEC}. */
static void cost_fixture_reset(void *fixture)
{
	struct cost_fixture *fx = fixture;

	for (int k = 0; k < 2; k++) {
		struct timespec64 ts = k == 0 ? cost_ts(COST_INODE0_SEC, COST_INODE0_NSEC)
					      : cost_ts(COST_INODE1_SEC, COST_INODE1_NSEC);

		inode_init_always(&fx->sb, &fx->inode[k]);
		inode_set_atime_to_ts(&fx->inode[k], ts);
		inode_set_mtime_to_ts(&fx->inode[k], ts);
		inode_set_ctime_to_ts(&fx->inode[k], ts);
	}
}

/* Fills a zeroed fixture_size-byte block (allocated by the driver: no
 * <stdlib.h> here, whose inline atof() -mgeneral-regs-only refuses on armhf). */
static void cost_fixture_init(void *fixture)
{
	struct cost_fixture *fx = fixture;

	sb_init_rfc_defaults(&fx->sb);
	fx->sb.s_time_min = TIME64_MIN;
	fx->sb.s_time_max = TIME64_MAX;
	sb_set_time_gran(&fx->sb, 1);
	cost_fixture_reset(fx);
	for (int k = 0; k < COST_LOOP_INODES; k++) {
		inode_init_always(&fx->sb, &fx->loop_inodes[k]);
		inode_set_mtime_to_ts(&fx->loop_inodes[k], cost_ts(COST_INODE0_SEC + k, k));
		fx->loop_order[k] = (uint32_t)((k * 7) % COST_LOOP_INODES);
	}
	for (int i = 0; i < COST_LOOP_BATCH; i++)
		fx->loop_inputs[i] = cost_ts(COST_INODE1_SEC + i, i);
}

/* The stored time @xtime ('a', 'm' or 'c') of inode @k, for the self-check. */
static struct timespec64 cost_read_time(void *fixture, int k, char xtime)
{
	const struct inode *inode = &((struct cost_fixture *)fixture)->inode[k];

	return xtime == 'a' ? inode_get_atime(inode)
	       : xtime == 'm' ? inode_get_mtime(inode)
			      : inode_get_ctime(inode);
}

/* Mainline: get, set, compare, and swap as callers write it (no helper). */
#define COST_MAINLINE_OPS(x)                                                                 \
	static COST_NOINLINE void COST_OP(get_##x##time)(void *fixture, struct cost_io *io)  \
	{                                                                                    \
		struct cost_fixture *fx = fixture;                                           \
		io->out = inode_get_##x##time(&fx->inode[0]);                                \
	}                                                                                    \
	static COST_NOINLINE void COST_OP(set_##x##time)(void *fixture, struct cost_io *io)  \
	{                                                                                    \
		struct cost_fixture *fx = fixture;                                           \
		inode_set_##x##time_to_ts(&fx->inode[0], io->in);                            \
	}                                                                                    \
	static COST_NOINLINE void COST_OP(compare_##x##time)(void *fixture,                  \
							      struct cost_io *io)            \
	{                                                                                    \
		struct cost_fixture *fx = fixture;                                           \
		struct timespec64 a = inode_get_##x##time(&fx->inode[0]);                    \
		struct timespec64 b = inode_get_##x##time(&fx->inode[1]);                    \
		io->cmp = timespec64_compare(&a, &b);                                        \
	}                                                                                    \
	static COST_NOINLINE void COST_OP(swap_##x##time)(void *fixture, struct cost_io *io) \
	{                                                                                    \
		struct cost_fixture *fx = fixture;                                           \
		struct timespec64 a = inode_get_##x##time(&fx->inode[0]);                    \
		(void)io;                                                                    \
		inode_set_##x##time_to_ts(&fx->inode[0], inode_get_##x##time(&fx->inode[1])); \
		inode_set_##x##time_to_ts(&fx->inode[1], a);                                 \
	}

/* The RFC's VFS_INODE_{GET,SET,SWAP}_XTIME() on the token i_<x>time. */
#define COST_RFC_OPS(x)                                                                       \
	static COST_NOINLINE void COST_OP(rfc_get_##x##time)(void *fixture, struct cost_io *io) \
	{                                                                                     \
		struct cost_fixture *fx = fixture;                                            \
		io->out = VFS_INODE_GET_XTIME(i_##x##time, &fx->inode[0]);                    \
	}                                                                                     \
	static COST_NOINLINE void COST_OP(rfc_set_##x##time)(void *fixture, struct cost_io *io) \
	{                                                                                     \
		struct cost_fixture *fx = fixture;                                            \
		VFS_INODE_SET_XTIME(i_##x##time, &fx->inode[0], io->in);                      \
	}                                                                                     \
	static COST_NOINLINE void COST_OP(rfc_swap_##x##time)(void *fixture,                  \
							       struct cost_io *io)            \
	{                                                                                     \
		struct cost_fixture *fx = fixture;                                            \
		(void)io;                                                                     \
		VFS_INODE_SWAP_XTIME(i_##x##time, &fx->inode[0], &fx->inode[1]);              \
	}

COST_MAINLINE_OPS(a)
COST_MAINLINE_OPS(m)
COST_MAINLINE_OPS(c)
COST_RFC_OPS(a)
COST_RFC_OPS(m)
COST_RFC_OPS(c)

static COST_NOINLINE void COST_OP(get_mtime_sec)(void *fixture, struct cost_io *io)
{
	struct cost_fixture *fx = fixture;

	io->out.tv_sec = inode_get_mtime_sec(&fx->inode[0]);
}

/*
 * Dave Chinner's boundary: a file system keeping its own struct timespec
 * converts when it writes the VFS inode back (to_fs) and when it fills the
 * VFS inode from its copy (from_fs).
 */
static COST_NOINLINE void COST_OP(boundary_to_fs_mtime)(void *fixture, struct cost_io *io)
{
	struct cost_fixture *fx = fixture;
	struct kernel_old_timespec fs = vfs_time_to_timespec(inode_get_mtime(&fx->inode[0]));

	io->fs_sec = fs.tv_sec;
	io->fs_nsec = fs.tv_nsec;
}

static COST_NOINLINE void COST_OP(boundary_from_fs_mtime)(void *fixture, struct cost_io *io)
{
	struct cost_fixture *fx = fixture;
	struct kernel_old_timespec fs = { .tv_sec = (kernel_old_time_t)io->fs_sec,
					  .tv_nsec = io->fs_nsec };

	inode_set_mtime_to_ts(&fx->inode[0], timespec_to_vfs_time(fs));
}

/*
 * The llvm-mca loops.  get/set: bench/accessor.c's ACCESSOR_OP for get_mtime
 * and set_mtime, in its shape: rounds of one pass over the 16 inodes,
 * unrolled, a pointer walking them (and set's input pointer through the 256
 * inputs), a compiler barrier after each operation, loaded values summed;
 * so the model is given the instructions the benchmark times, 16 operations
 * per iteration of the rounds loop.  stat: bench/walk.c's stat_seq loop
 * body, generic_fillattr(), written again here in the same shape (walk.c
 * keeps it static inside the benchmark): the members it reads, i_size under
 * the seqcount on 32-bit ABIs, the three timestamps, and multigrain's
 * I_CTIME_QUERIED test (and the atomic OR it guards).
 */
static COST_NOINLINE uint64_t COST_LOOP(get_mtime)(void *fixture)
{
	struct cost_fixture *fx = fixture;
	struct inode *const first = fx->loop_inodes, *const end = first + COST_LOOP_INODES;
	uint64_t acc = 0;

	for (int round = 0; round < COST_LOOP_BATCH / COST_LOOP_INODES; round++) {
		_Pragma("GCC unroll 16")
		for (struct inode *inode = first; inode != end; inode++) {
			struct timespec64 ts = inode_get_mtime(inode);

			acc += (uint64_t)ts.tv_sec + (uint64_t)ts.tv_nsec;
			cost_clobber_memory();
		}
	}
	return acc;
}

static COST_NOINLINE void COST_LOOP(set_mtime)(void *fixture)
{
	struct cost_fixture *fx = fixture;
	struct inode *const first = fx->loop_inodes, *const end = first + COST_LOOP_INODES;
	const struct timespec64 *input = fx->loop_inputs;

	for (int round = 0; round < COST_LOOP_BATCH / COST_LOOP_INODES; round++) {
		_Pragma("GCC unroll 16")
		for (struct inode *inode = first; inode != end; inode++, input++) {
			inode_set_mtime_to_ts(inode, *input);
			cost_clobber_memory();
		}
	}
}

static inline uint64_t cost_fold(struct timespec64 ts)
{
	return (uint64_t)ts.tv_sec + (uint64_t)ts.tv_nsec;
}

static inline uint64_t cost_generic_fillattr(struct inode *inode)
{
	uint64_t sum = inode->i_sb->s_time_gran; /* s_dev stand-in, as walk.c */

	sum += inode->i_ino;
	sum += inode->i_mode;
	sum += inode->i_nlink;
	sum += inode->i_uid.val;
	sum += inode->i_gid.val;
	sum += inode->i_rdev;
	sum += (uint64_t)i_size_read(inode);
	sum += cost_fold(inode_get_atime(inode));
	sum += cost_fold(inode_get_mtime(inode));
	sum += cost_fold(inode_get_ctime(inode));
	if (!inode_ctime_queried(inode)) /* multigrain only; a no-op otherwise */
		inode_ctime_mark_queried(inode);
	sum += 1U << inode->i_blkbits;
	sum += (uint64_t)inode->i_blocks;
	return sum;
}

static COST_NOINLINE uint64_t COST_LOOP(stat)(void *fixture)
{
	struct cost_fixture *fx = fixture;
	uint64_t acc = 0;

	for (size_t i = 0; i < COST_LOOP_INODES; i++)
		acc += cost_generic_fillattr(&fx->loop_inodes[fx->loop_order[i]]);
	return acc;
}

#define COST_ROW(name, xtime, expect) { #name, COST_OP(name), xtime, expect }
#define COST_ROWS(x)                                                   \
	COST_ROW(get_##x##time, #x[0], COST_EXPECT_GET),               \
	COST_ROW(set_##x##time, #x[0], COST_EXPECT_SET),               \
	COST_ROW(compare_##x##time, #x[0], COST_EXPECT_COMPARE),       \
	COST_ROW(swap_##x##time, #x[0], COST_EXPECT_SWAP),             \
	COST_ROW(rfc_get_##x##time, #x[0], COST_EXPECT_GET),           \
	COST_ROW(rfc_set_##x##time, #x[0], COST_EXPECT_SET),           \
	COST_ROW(rfc_swap_##x##time, #x[0], COST_EXPECT_SWAP)

static const struct cost_layout_op cost_ops[] = {
	COST_ROWS(a),
	COST_ROWS(m),
	COST_ROWS(c),
	COST_ROW(get_mtime_sec, 'm', COST_EXPECT_GET_SEC),
	COST_ROW(boundary_to_fs_mtime, 'm', COST_EXPECT_TO_FS),
	COST_ROW(boundary_from_fs_mtime, 'm', COST_EXPECT_FROM_FS),
};

const struct cost_layout COST_PASTE(cost_layout, COST_LAYOUT_ID) = {
	.body = INODE_BODY_NAME,
	.repr = INODE_REPR_NAME,
	.ops = cost_ops,
	.op_count = sizeof(cost_ops) / sizeof(cost_ops[0]),
	.fixture_size = sizeof(struct cost_fixture),
	.fixture_init = cost_fixture_init,
	.fixture_reset = cost_fixture_reset,
	.read_time = cost_read_time,
	.loop_get_mtime = COST_LOOP(get_mtime),
	.loop_set_mtime = COST_LOOP(set_mtime),
	.loop_stat = COST_LOOP(stat),
};
