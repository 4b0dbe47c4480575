/* SPDX-License-Identifier: MIT */
/*
 * accessor.c - the cost of one timestamp access per layout, in ns/op.
 *
 * Compiled once per layout (bench_layout.h); registers
 * accessor/<op>/<body>/<repr> for every row of accessor_cases[] below.
 *
 * Inlining: the accessors are static inline, as in the kernel, and stay
 * inline here: a call would cost more than the access and is not what the
 * kernel pays.  What is out of line here is out of line in the kernel too:
 * the clock and timestamp_truncate() behind inode_set_ctime_current(), and
 * the RFC's clamp check (fstime's vfs_inode_xtime_check()) inside
 * VFS_INODE_SET_XTIME() / VFS_INODE_SWAP_XTIME().
 *
 * Each benchmark runs ACCESSOR_BATCH operations per call into the shim
 * (bench_keep_running_batch), so the reported time per iteration is per
 * operation and items_per_second is operations per second.  The operations
 * go round ACCESSOR_INODES inodes (about 10 KiB: L1-resident; cache effects
 * are walk.c's business) and ACCESSOR_BATCH pre-generated inputs, drawn from
 * bench_seed() so that every layout sees the same values: seconds in
 * [0, 2^33) (beyond 2038; the timespec layout on ILP32 narrows them, which is
 * the cost of that layout), nanoseconds in [0, NSEC_PER_SEC).
 *
 * Throughput rows use independent inputs; *_latency rows make each operation
 * depend on the previous result, so the figure is the length of the
 * dependency chain.  Against dead-code elimination: loaded values are summed
 * into a local that goes through bench_do_not_optimize() at the end, and a
 * compiler barrier (bench_clobber_memory(), no instruction) after each
 * operation keeps the compiler from merging loads or dropping stores across
 * operations; the inodes escape (bench_escape) before the loop.
 * bench/DISASSEMBLY.md shows the loops as compiled.
 *
 * Each op's loop is one block function, ACCESSOR_FN(<op>)(fixture, start,
 * units): units batches of ACCESSOR_BATCH operations.  The unpaired
 * benchmark calls it one batch at a time; the paired ones (paired.h) call
 * the same function for blocks of 16k batches, alternating with the block of
 * another layout or op, so both figures come from the same instructions.
 */
#include "bench_fixtures.h"
#include "bench_layout.h"
#include "paired.h"
#include "rng.h"

#define ACCESSOR_BATCH 256
#define ACCESSOR_INODES 16

/*
 * The latency chain of get_mtime_latency keeps the byte offset of the next
 * inode in the low bits of tv_nsec, so the chain is load, mask, add (no
 * index multiply by an odd stride).
 */
#define ACCESSOR_CHAIN_MASK 0x3fffL
_Static_assert(ACCESSOR_INODES * sizeof(struct inode) <= ACCESSOR_CHAIN_MASK + 1,
	       "inode offsets must fit the chain mask");

/* 2038-01-19T03:14:08Z: the first second a 32-bit time_t cannot hold. */
#define ACCESSOR_CLOCK_SEC 2147483648LL

/* Benchmark bodies carry the layout in their symbol, for objdump and perf. */
#define ACCESSOR_FN(op) BENCH_LAYOUT_SYMBOL(accessor_##op)

/*
 * Placement variant BENCH_PLACEMENT (bench/CMakeLists.txt): the same code
 * behind BENCH_PLACEMENT_PAD_BYTES of padding (GCC emits top-level asm ahead
 * of the functions), registered as accessor/<op>/<body>/<repr>/placement:<k>.
 */
#ifdef BENCH_PLACEMENT
#define ACCESSOR_STR_(x) #x
#define ACCESSOR_STR(x) ACCESSOR_STR_(x)
__asm__(".pushsection .text\n\t.p2align 6\n\t.skip " ACCESSOR_STR(BENCH_PLACEMENT_PAD_BYTES) "\n\t.popsection");
#define ACCESSOR_NAME_SUFFIX "placement:" ACCESSOR_STR(BENCH_PLACEMENT)
#else
#define ACCESSOR_NAME_SUFFIX NULL
#endif

/*
 * The fs-private timestamp of Dave Chinner's boundary conversion, and the
 * same timestamp kept in the VFS type (copied without a conversion).
 */
struct accessor_fs_time {
	struct kernel_old_timespec i_mtime;
	struct timespec64 i_mtime64;
};

struct accessor_fixture {
	struct inode inodes[ACCESSOR_INODES];
	struct accessor_fs_time fs_times[ACCESSOR_INODES];
	struct timespec64 inputs[ACCESSOR_BATCH];
	struct super_block sb;
	struct timespec64 clock_now;
	struct fs_time_clock clock;
	long chain_offset; /* get_mtime_latency: where the chain goes on */
};

static struct timespec64 accessor_random_ts(struct rng *rng)
{
	return (struct timespec64){ .tv_sec = (time64_t)rng_below(rng, UINT64_C(1) << 33),
				    .tv_nsec = (long)rng_below(rng, NSEC_PER_SEC) };
}

/*
 * accessor_new - the fixture, or NULL when it cannot be allocated
 *
 * Every inode gets random a/m/c times; the mtime nsec also carries the byte
 * offset of the next inode of one cycle through all ACCESSOR_INODES (the
 * chain of get_mtime_latency).  Installs a fixed clock at 2038-01-19T03:14:08
 * for inode_set_ctime_current(); bench_free_clocked() restores the default.
 * In a huge page of its own (bench_alloc_huge): the same cache sets for
 * every fixture, whatever was allocated before.
 */
static void *accessor_new(const void *arg)
{
	struct accessor_fixture *fx = bench_alloc_huge(sizeof(*fx));
	struct rng rng = { .state = bench_seed() };

	(void)arg;
	if (!fx)
		return NULL;
	memset(fx, 0, sizeof(*fx));
	bench_sb_full_range(&fx->sb);
	for (int k = 0; k < ACCESSOR_INODES; k++) {
		struct inode *inode = &fx->inodes[k];
		struct timespec64 mtime = accessor_random_ts(&rng);
		long next = (long)(((k + 1) % ACCESSOR_INODES) * sizeof(struct inode));

		inode_init_always(&fx->sb, inode);
		/* Below NSEC_PER_SEC - mask first, so that or-ing in the offset stays valid. */
		mtime.tv_nsec = ((mtime.tv_nsec % (NSEC_PER_SEC - ACCESSOR_CHAIN_MASK)) &
				 ~ACCESSOR_CHAIN_MASK) | next;
		inode_set_atime_to_ts(inode, accessor_random_ts(&rng));
		inode_set_mtime_to_ts(inode, mtime);
		inode_set_ctime_to_ts(inode, accessor_random_ts(&rng));
		fx->fs_times[k].i_mtime = vfs_time_to_timespec(accessor_random_ts(&rng));
	}
	for (int i = 0; i < ACCESSOR_BATCH; i++)
		fx->inputs[i] = accessor_random_ts(&rng);
	fx->clock_now = (struct timespec64){ .tv_sec = ACCESSOR_CLOCK_SEC, .tv_nsec = 123456789 };
	fx->clock = (struct fs_time_clock){ .now = fs_time_fixed_clock, .ctx = &fx->clock_now };
	fs_time_set_clock(&fx->clock);
	bench_escape(fx);
	return fx;
}



/*
 * The throughput skeleton: ACCESSOR_OP(op, ...) defines the block function
 * ACCESSOR_FN(op), whose body (the macro's arguments) runs ACCESSOR_BATCH
 * times per batch with inode going round the ACCESSOR_INODES inodes, next =
 * the inode after it (the first after the last), input = the batch's next
 * input, fs_time = inode's fs-private time, fx and acc in scope.  Every
 * pointer strides through its array (no int index to sign-extend, no index
 * to scale by sizeof(struct inode)): two layouts of the same size leave the
 * compiler nothing to choose differently (tests: bench_twin_codegen).  The
 * pass over the inodes is unrolled: rolled, a get was a 6-instruction loop
 * per op, bound by instruction delivery rather than by the access, and two
 * copies of the same code differed by up to 19 % for milliseconds at a time
 * (the paired twin control on the reference VM); unrolled, the loads bound it.
 */
#define ACCESSOR_OP(op, ...)                                                                \
	static uint64_t ACCESSOR_FN(op)(void *fixture, size_t start, size_t units)          \
	{                                                                                   \
		struct accessor_fixture *fx = fixture;                                      \
		uint64_t acc = 0;                                                           \
		(void)start;                                                                \
		fs_time_set_clock(&fx->clock); /* its own, not the last fixture's */        \
		for (size_t batch = 0; batch < units; batch++) {                            \
			const struct timespec64 *input = fx->inputs;                        \
			for (size_t round = 0; round < ACCESSOR_BATCH / ACCESSOR_INODES;    \
			     round++) {                                                     \
				struct accessor_fs_time *fs_time = fx->fs_times;            \
				struct inode *const first = fx->inodes;                     \
				struct inode *const end = first + ACCESSOR_INODES;          \
				_Pragma("GCC unroll 16")                                    \
				for (struct inode *inode = first; inode != end;             \
				     inode++, input++, fs_time++) {                         \
					struct inode *next = inode + 1 != end ? inode + 1   \
									      : first;      \
					(void)next;                                         \
					(void)fs_time;                                      \
					__VA_ARGS__;                                        \
					bench_clobber_memory();                             \
				}                                                           \
			}                                                                   \
		}                                                                           \
		return acc;                                                                 \
	}
_Static_assert(ACCESSOR_BATCH % ACCESSOR_INODES == 0, "a batch is whole rounds of the inodes");

ACCESSOR_OP(get_atime, acc += bench_fold(inode_get_atime(inode)))
ACCESSOR_OP(get_mtime, acc += bench_fold(inode_get_mtime(inode)))
ACCESSOR_OP(get_ctime, acc += bench_fold(inode_get_ctime(inode)))
ACCESSOR_OP(get_mtime_sec, acc += (uint64_t)inode_get_mtime_sec(inode))
ACCESSOR_OP(set_atime, inode_set_atime_to_ts(inode, *input))
ACCESSOR_OP(set_mtime, inode_set_mtime_to_ts(inode, *input))
ACCESSOR_OP(set_ctime, inode_set_ctime_to_ts(inode, *input))

/* timespec64_compare() of two inodes' mtimes: random values, random sign. */
ACCESSOR_OP(compare_mtime, {
	struct timespec64 a = inode_get_mtime(inode), b = inode_get_mtime(next);

	acc += (uint64_t)(int64_t)timespec64_compare(&a, &b);
})

/* Mainline has no swap helper: callers (e.g. ext4 swap_inode_boot_loader) get and set. */
ACCESSOR_OP(swap_mtime, {
	struct timespec64 a = inode_get_mtime(inode);

	inode_set_mtime_to_ts(inode, inode_get_mtime(next));
	inode_set_mtime_to_ts(next, a);
})

/*
 * Fixed clock: with multigrain the ctime equals "now" after the first call
 * and inode_set_ctime_current() returns without storing; the others store
 * every time.  That difference is the algorithm's, not the harness's.
 */
ACCESSOR_OP(set_ctime_current, acc += bench_fold(inode_set_ctime_current(inode)))

/*
 * stat() then change: the ctime was queried (multigrain: I_CTIME_QUERIED
 * set), so the fixed clock's "now" is not later and multigrain must take a
 * fine-grained time and swap it in with cmpxchg.  A no-op mark elsewhere.
 */
ACCESSOR_OP(set_ctime_current_queried, {
	inode_ctime_mark_queried(inode);
	acc += bench_fold(inode_set_ctime_current(inode));
})

/* The RFC's macros (VFS_INODE_SET_XTIME() includes the clamp-marker check). */
ACCESSOR_OP(rfc_get_mtime, acc += bench_fold(VFS_INODE_GET_XTIME(i_mtime, inode)))
ACCESSOR_OP(rfc_set_mtime, VFS_INODE_SET_XTIME(i_mtime, inode, *input))
ACCESSOR_OP(rfc_swap_mtime, VFS_INODE_SWAP_XTIME(i_mtime, inode, next))

/*
 * Dave Chinner's boundary: a file system that keeps a struct timespec of its
 * own converts when it writes the VFS inode back (to_fs) and when it fills
 * the VFS inode from its copy (from_fs).
 */
ACCESSOR_OP(boundary_to_fs_mtime, fs_time->i_mtime = vfs_time_to_timespec(inode_get_mtime(inode)))
/* Its control: the same store of the same value, with nothing to convert. */
ACCESSOR_OP(copy_to_fs_mtime, fs_time->i_mtime64 = inode_get_mtime(inode))
ACCESSOR_OP(boundary_from_fs_mtime,
	    inode_set_mtime_to_ts(inode, timespec_to_vfs_time(fs_time->i_mtime)))

/*
 * Latency: the next inode is named by the mtime just read (byte offset in
 * the low bits of tv_nsec), so each load waits for the previous one; the
 * chain goes on from block to block (fx->chain_offset).
 */
static uint64_t ACCESSOR_FN(get_mtime_latency)(void *fixture, size_t start, size_t units)
{
	struct accessor_fixture *fx = fixture;
	uint64_t acc = 0;
	long offset = fx->chain_offset;

	(void)start;
	for (size_t i = 0; i < units * ACCESSOR_BATCH; i++) {
		const struct inode *inode = (const struct inode *)((const char *)fx->inodes + offset);
		struct timespec64 ts = inode_get_mtime(inode);

		acc += (uint64_t)ts.tv_sec;
		offset = ts.tv_nsec & ACCESSOR_CHAIN_MASK;
		bench_clobber_memory();
	}
	fx->chain_offset = offset;
	return acc + (uint64_t)offset;
}

/*
 * Latency: read, advance by 1 ns (carrying into the seconds without a
 * branch, so that both fields are stored every time), write back, on one
 * inode: each get waits for the previous set through store-to-load
 * forwarding.
 */
static uint64_t ACCESSOR_FN(update_mtime_latency)(void *fixture, size_t start, size_t units)
{
	struct accessor_fixture *fx = fixture;

	(void)start;
	for (size_t i = 0; i < units * ACCESSOR_BATCH; i++) {
		struct timespec64 ts = inode_get_mtime(&fx->inodes[0]);
		long carry = ++ts.tv_nsec >= NSEC_PER_SEC;

		ts.tv_sec += carry;
		ts.tv_nsec -= carry * NSEC_PER_SEC;
		inode_set_mtime_to_ts(&fx->inodes[0], ts);
		bench_clobber_memory();
	}
	return 0;
}

static const struct paired_op accessor_cases[] = {
	{ "get_atime", ACCESSOR_FN(get_atime), NULL },
	{ "get_mtime", ACCESSOR_FN(get_mtime), NULL },
	{ "get_ctime", ACCESSOR_FN(get_ctime), NULL },
	{ "get_mtime_sec", ACCESSOR_FN(get_mtime_sec), NULL },
	{ "get_mtime_latency", ACCESSOR_FN(get_mtime_latency), NULL },
	{ "set_atime", ACCESSOR_FN(set_atime), NULL },
	{ "set_mtime", ACCESSOR_FN(set_mtime), NULL },
	{ "set_ctime", ACCESSOR_FN(set_ctime), NULL },
	{ "update_mtime_latency", ACCESSOR_FN(update_mtime_latency), NULL },
	{ "compare_mtime", ACCESSOR_FN(compare_mtime), NULL },
	{ "swap_mtime", ACCESSOR_FN(swap_mtime), NULL },
	{ "set_ctime_current", ACCESSOR_FN(set_ctime_current), NULL },
	{ "set_ctime_current_queried", ACCESSOR_FN(set_ctime_current_queried), NULL },
	{ "rfc_get_mtime", ACCESSOR_FN(rfc_get_mtime), NULL },
	{ "rfc_set_mtime", ACCESSOR_FN(rfc_set_mtime), NULL },
	{ "rfc_swap_mtime", ACCESSOR_FN(rfc_swap_mtime), NULL },
	{ "boundary_to_fs_mtime", ACCESSOR_FN(boundary_to_fs_mtime), NULL },
	{ "copy_to_fs_mtime", ACCESSOR_FN(copy_to_fs_mtime), NULL },
	{ "boundary_from_fs_mtime", ACCESSOR_FN(boundary_from_fs_mtime), NULL },
};

/* The unpaired benchmark of an op (@arg: its accessor_cases[] row): one batch per block. */
static void ACCESSOR_FN(bench)(struct bench_state *st, const void *arg)
{
	const struct paired_op *op = arg;
	struct accessor_fixture *fx = accessor_new(NULL);
	uint64_t acc = 0, result;

	if (!fx) {
		bench_skip_with_error(st, "accessor: cannot allocate the fixture");
		return;
	}
	while (bench_keep_running_batch(st, ACCESSOR_BATCH))
		acc += op->block(fx, 0, 1);
	result = acc; /* a fresh local: acc itself never needs a memory home */
	bench_do_not_optimize(result);
	bench_free_clocked(fx);
	bench_set_items_processed(st, bench_iterations_done(st));
}

#ifndef BENCH_PLACEMENT
static const struct paired_layout accessor_paired = {
	.family = "accessor",
	.body = INODE_BODY_NAME,
	.repr = INODE_REPR_NAME,
	.setup = accessor_new,
	.teardown = bench_free_clocked,
	.ops = accessor_cases,
	.n_ops = sizeof(accessor_cases) / sizeof(accessor_cases[0]),
	.ops_per_unit = ACCESSOR_BATCH,
	.max_units = SIZE_MAX,
	.positive = "get_mtime",
};
#endif

void BENCH_LAYOUT_SYMBOL(accessor_register)(void)
{
	/* A copy of the reference's code for one comparison (paired.h): paired only. */
	for (size_t i = 0; !paired_copy_for() && i < sizeof(accessor_cases) / sizeof(accessor_cases[0]);
	     i++) {
		bench_register_layout("accessor", accessor_cases[i].name, ACCESSOR_FN(bench),
				      &accessor_cases[i], ACCESSOR_NAME_SUFFIX);
	}
#ifndef BENCH_PLACEMENT
	paired_add_layout(&accessor_paired); /* placement variants: unpaired only */
#endif
}
