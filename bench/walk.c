/* SPDX-License-Identifier: MIT */
/*
 * walk.c - the three hot paths that read or write inode timestamps, over N
 * inodes laid out like a slab, per layout.
 *
 * Compiled once per layout (bench_layout.h); registers
 * walk/<op>/<body>/<repr>/<N> for every row of walk_cases[] and every N:
 *   stat_*            generic_fillattr(): what it reads, folded into a
 *                     kstat-like local; with multigrain also fill_mg_cmtime()'s
 *                     I_CTIME_QUERIED (already set: the steady state of a
 *                     stat-heavy load, so the timed passes only read);
 *   touch_*           file_update_time(): inode_needs_update_time() (now =
 *                     current_time(), compared with m and ctime), then
 *                     inode_update_timestamps(), under a clock that moves 1 ns
 *                     per read, so every inode is stored every time;
 *   touch_unchanged_* the same with a fixed clock and m/ctime already "now":
 *                     compare only, no store (a burst within one clock tick;
 *                     full mode only);
 *   relatime_*        atime_needs_update() with relatime_need_update(): atime
 *                     <= mtime or <= ctime, or older than 24 h; a decision,
 *                     no store.  Timestamps are drawn from the last 48 h, so
 *                     every branch is taken, unpredictably.
 * *_seq visits the slab in address order, *_random in a pre-shuffled order
 * (seeded from bench_seed(), the same for every layout); both go through the
 * index array, so they run the same instructions.
 *
 * Paired (paired.h): the same walks as block functions, WALK_FN(<path>_block)
 * (fixture, start, units): @units inode visits from position @start of the
 * visiting order, the per-inode body the same macro as the unpaired loop's
 * (WALK_*_BODY), each side over a slab of its own; registered as
 * paired/walk/<op>/<body>/timespec64~<repr>/<N> for every walk case of the
 * mode and every N of walk_paired_counts[], and the positive control
 * paired/walk/stat_seq/<body>/timespec64/units:16~17/64.  The order is
 * padded (order[i] = perm[i mod N] for i < N + WALK_PAIRED_MAX_UNITS), so a
 * block may start anywhere and still reads the order front to back; starts
 * go round the N inodes.  Two slabs alternate in the caches, so the paired
 * sizes are ones where two slabs' touched lines fit the level one does
 * (walk_paired_counts[]).
 *
 * Not modelled: __mark_inode_dirty() and i_version after touch, the dentry
 * and the mount (relatime mount without nodiratime: nothing read there).  The
 * super block (i_sb, shared by all inodes) stays hot in L1.
 *
 * The slab: one 64-byte aligned allocation, objects at stride sizeof(struct
 * inode) exactly, as a SLUB cache without debugging, each inode set up by
 * inode_init_always().  Allocated and initialised once per benchmark run,
 * outside the timed loop.  Large slabs are madvise(MADV_HUGEPAGE)d: the
 * kernel's slab sits in the direct map, mapped with 2 MiB or 1 GiB pages, so
 * 4 KiB user pages would add TLB misses the kernel does not have
 * (huge_pages_advised says whether madvise succeeded; the kernel may still
 * fall back to small pages).
 *
 * Counters: bytes_per_inode (sizeof), cachelines_touched_per_op (distinct
 * 64-byte lines holding the members the path touches, from offsetof(), given
 * each object's place in the slab, averaged over the slab: the index array
 * and the super block are not counted), updated_per_op / needs_update_per_op
 * (what the path decided: 1 or 0 for touch, a fraction for relatime), and
 * items_per_second = inodes per second.
 */
#include <string.h>
#include <sys/mman.h>

#include "bench_fixtures.h"
#include "bench_layout.h"
#include "paired.h"
#include "rng.h"

#define WALK_MIN_BATCH 256     /* inodes per call into the shim, at least */
#define WALK_HUGE_PAGE ((size_t)2 << 20)
/*
 * Paired blocks: the most inode visits one block may run (paired.c's k <=
 * max_units / 17, so A's 16k and the positive control's 17k fit), and the
 * padding of the visiting order.  8 us of the fastest walk (an L1-resident
 * stat at ~1 ns per inode) is ~8k visits.
 */
#define WALK_PAIRED_MAX_UNITS ((size_t)17 * 1024)
#define WALK_PAIRED_POSITIVE_N 64 /* the positive control's size (one per body): L1d-resident, so
				   B's 17 units cost 17/16 of A's 16 (at 4096 a block laps the
				   slab: x1.04 measured, not x1.0625) */

/* "Now" of the walk, 2023-11-14: every representation on every ABI holds it. */
#define WALK_NOW_SEC 1700000000LL
#define WALK_HISTORY_SEC (48 * 60 * 60)
#define WALK_RELATIME_SEC (24 * 60 * 60)

/*
 * include/uapi/linux/stat.h (not <sys/stat.h>: with _GNU_SOURCE it pulls in
 * <linux/stat.h>, whose __le64 clashes with kernel_types.h)
 */
#ifndef S_IFREG
#define S_IFREG 0100000
#endif

/* include/linux/fs.h */
#define S_NOATIME (1 << 1)
#define S_NOCMTIME (1 << 7)
#define S_MTIME 2
#define S_CTIME 4
/* INVALID_UID / INVALID_GID: what HAS_UNMAPPED_ID() tests for. */
#define INVALID_ID ((u32)-1)

/* Benchmark bodies carry the layout in their symbol, for objdump and perf. */
#define WALK_FN(op) BENCH_LAYOUT_SYMBOL(walk_##op)

_Static_assert(sizeof(struct inode) / BENCH_CACHE_LINE + 2 <= 64, "an inode's lines fit a u64 mask");

struct walk_member {
	size_t offset, size;
};

#define WALK_MEMBER(m) { offsetof(struct inode, m), sizeof(((struct inode *)0)->m) },
/* Every member that holds @xtime, from the representation's field list. */
#define WALK_TIMESTAMP(xtime) INODE_TIMESTAMP_FIELDS(WALK_MEMBER, xtime)

static const struct walk_member walk_stat_members[] = {
	WALK_MEMBER(i_mode) WALK_MEMBER(i_uid) WALK_MEMBER(i_gid) WALK_MEMBER(i_sb)
	WALK_MEMBER(i_ino) WALK_MEMBER(i_nlink) WALK_MEMBER(i_rdev) WALK_MEMBER(i_size)
	WALK_TIMESTAMP(i_atime) WALK_TIMESTAMP(i_mtime) WALK_TIMESTAMP(i_ctime)
	WALK_MEMBER(i_blkbits) WALK_MEMBER(i_blocks)
#if !INODE_ABI_LP64
	WALK_MEMBER(i_size_seqcount)
#endif
};

static const struct walk_member walk_touch_members[] = {
	WALK_MEMBER(i_flags) WALK_MEMBER(i_sb) WALK_TIMESTAMP(i_mtime) WALK_TIMESTAMP(i_ctime)
};

static const struct walk_member walk_relatime_members[] = {
	WALK_MEMBER(i_flags) WALK_MEMBER(i_uid) WALK_MEMBER(i_gid) WALK_MEMBER(i_sb)
	WALK_TIMESTAMP(i_atime) WALK_TIMESTAMP(i_mtime) WALK_TIMESTAMP(i_ctime)
};

#define WALK_MEMBERS(table) table, sizeof(table) / sizeof(table[0])

enum walk_clock_kind { WALK_CLOCK_FIXED, WALK_CLOCK_ADVANCING };

struct walk_case {
	const char *op;
	bench_fn fn;
	paired_block_fn block; /* the same walk as a paired block */
	bool random_order;
	enum walk_clock_kind clock;
	bool times_now;      /* m/ctime start at "now" (touch_unchanged) */
	bool ctime_queried;  /* multigrain: I_CTIME_QUERIED starts set (stat) */
	bool full_only;      /* registered in full mode only (quick-mode time budget) */
	const struct walk_member *members;
	size_t member_count;
};

struct walk_slab {
	struct inode *inodes;
	uint32_t *order; /* count entries, then the paired blocks' padding */
	size_t count;
	int64_t passes; /* passes over the slab per call into the shim */
	bool huge_pages_advised;
	struct super_block sb;
	struct timespec64 clock_now;
	struct fs_time_clock clock;
};

/*
 * walk_lines_per_op - distinct cache lines of @wc's members per inode
 *
 * Object k starts k * sizeof(struct inode) bytes into a 64-byte aligned
 * slab; its offset within a line repeats with a period dividing 64 objects,
 * so the average over the first min(count, 64) objects is the slab's average
 * for every count this file registers (powers of two).
 */
static void walk_lines_per_op(const struct walk_case *wc, size_t count, int64_t *lines_out,
			      int64_t *objects_out)
{
	size_t objects = count < BENCH_CACHE_LINE ? count : BENCH_CACHE_LINE;
	unsigned long lines = 0;

	for (size_t k = 0; k < objects; k++) {
		size_t base = k * sizeof(struct inode), first = base / BENCH_CACHE_LINE;
		uint64_t seen = 0;

		for (size_t m = 0; m < wc->member_count; m++) {
			size_t lo = (base + wc->members[m].offset) / BENCH_CACHE_LINE - first;
			size_t hi = (base + wc->members[m].offset + wc->members[m].size - 1) / BENCH_CACHE_LINE -
				    first;

			for (size_t line = lo; line <= hi; line++)
				seen |= UINT64_C(1) << line;
		}
		lines += (unsigned long)__builtin_popcountll(seen);
	}
	*lines_out = (int64_t)lines;
	*objects_out = (int64_t)objects;
}

/* A time in the last WALK_HISTORY_SEC before the walk's "now". */
static struct timespec64 walk_past(struct rng *rng)
{
	return (struct timespec64){
		.tv_sec = WALK_NOW_SEC - (time64_t)rng_below(rng, WALK_HISTORY_SEC),
		.tv_nsec = (long)rng_below(rng, NSEC_PER_SEC),
	};
}

/* Best effort: the 2 MiB-aligned interior of [p, p + bytes). */
static bool walk_advise_huge_pages(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	uintptr_t begin = ((uintptr_t)p + WALK_HUGE_PAGE - 1) & ~(uintptr_t)(WALK_HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(uintptr_t)(WALK_HUGE_PAGE - 1);

	if (end > begin)
		return madvise((void *)begin, end - begin, MADV_HUGEPAGE) == 0;
#else
	(void)p;
	(void)bytes;
#endif
	return false;
}

static void walk_init_inode(struct walk_slab *slab, const struct walk_case *wc, size_t k,
			    struct rng *rng)
{
	struct inode *inode = &slab->inodes[k];
	struct timespec64 now = slab->clock_now;

	inode_init_always(&slab->sb, inode);
	inode->i_mode = S_IFREG | 0644;
	inode->i_uid.val = 1000;
	inode->i_gid.val = 1000;
	inode->i_ino = (unsigned long)k + 1;
	inode->__i_nlink = 1;
	inode->i_size = (kernel_loff_t)rng_below(rng, UINT64_C(1) << 24);
	inode->i_blkbits = 12;
	inode->i_blocks = ((kernel_blkcnt_t)inode->i_size + 511) / 512;
	inode_set_atime_to_ts(inode, walk_past(rng));
	inode_set_mtime_to_ts(inode, wc->times_now ? now : walk_past(rng));
	inode_set_ctime_to_ts(inode, wc->times_now ? now : walk_past(rng));
	if (wc->ctime_queried)
		inode_ctime_mark_queried(inode);
}

/*
 * walk_fill - allocate and fill @slab: @n inodes for @wc and the visiting
 * order, followed by @pad more entries (order[i] = order[i mod n]); the clock
 * is set up but not installed.  @paired: the slab from paired_alloc_huge()
 * (release with paired_free_huge()), else line-aligned as a slab cache
 * places it.  NULL, or why it cannot be done (in @message).
 */
static const char *walk_fill(struct walk_slab *slab, const struct walk_case *wc, int64_t n,
			     size_t pad, bool paired, char *message, size_t len)
{
	struct rng rng = { .state = bench_seed() ^ (uint64_t)n };
	size_t bytes;

	memset(slab, 0, sizeof(*slab));
	if (n <= 0 || (uint64_t)n > UINT32_MAX ||
	    (uint64_t)n > (SIZE_MAX - BENCH_CACHE_LINE) / sizeof(struct inode) ||
	    (uint64_t)n > SIZE_MAX / sizeof(*slab->order) - pad) {
		snprintf(message, len, "walk: %lld inodes do not fit this ABI", (long long)n);
		return message;
	}
	slab->count = (size_t)n;
	/* Whole lines, as bench_alloc_lines() allocates them (huge-page advice below). */
	bytes = (slab->count * sizeof(struct inode) + BENCH_CACHE_LINE - 1) / BENCH_CACHE_LINE *
		BENCH_CACHE_LINE;
	slab->inodes = paired ? paired_alloc_huge(bytes) : bench_alloc_lines(bytes);
	slab->order = malloc((slab->count + pad) * sizeof(*slab->order));
	if (!slab->inodes || !slab->order) {
		if (paired)
			paired_free_huge(slab->inodes);
		else
			free(slab->inodes);
		free(slab->order);
		snprintf(message, len, "walk: cannot allocate a %zu-byte slab of %zu inodes", bytes,
			 slab->count);
		return message;
	}
	slab->huge_pages_advised = walk_advise_huge_pages(slab->inodes, bytes);

	bench_sb_full_range(&slab->sb);
	slab->clock_now = (struct timespec64){ .tv_sec = WALK_NOW_SEC, .tv_nsec = 0 };
	for (size_t k = 0; k < slab->count; k++)
		walk_init_inode(slab, wc, k, &rng);

	for (size_t i = 0; i < slab->count; i++)
		slab->order[i] = (uint32_t)i;
	if (wc->random_order) {
		for (size_t i = slab->count - 1; i > 0; i--) { /* Fisher-Yates */
			size_t j = (size_t)rng_below(&rng, (uint64_t)i + 1);
			uint32_t t = slab->order[i];

			slab->order[i] = slab->order[j];
			slab->order[j] = t;
		}
	}
	for (size_t i = slab->count; i < slab->count + pad; i++)
		slab->order[i] = slab->order[i % slab->count];
	slab->passes = (WALK_MIN_BATCH + n - 1) / n;

	slab->clock = (struct fs_time_clock){
		.now = wc->clock == WALK_CLOCK_ADVANCING ? fs_time_advancing_clock : fs_time_fixed_clock,
		.ctx = &slab->clock_now,
	};
	return NULL;
}

/*
 * walk_setup - allocate and fill the slab and the visiting order, install
 * the clock; false (after bench_skip_with_error()) if that is impossible.
 * noinline: scripts/perf_report.py's callgrind run excludes it by name.
 */
static __attribute__((noinline)) bool walk_setup(struct bench_state *st, const struct walk_case *wc,
						 struct walk_slab *slab)
{
	char message[128];

	if (walk_fill(slab, wc, bench_range_arg(st, 0), 0, false, message, sizeof(message))) {
		bench_skip_with_error(st, message);
		return false;
	}
	fs_time_set_clock(&slab->clock);
	bench_escape(slab->inodes);
	return true;
}

/* noinline: scripts/perf_report.py's callgrind run excludes it by name. */
static __attribute__((noinline)) void walk_teardown(struct bench_state *st, const struct walk_case *wc,
			  struct walk_slab *slab, uint64_t acc, uint64_t decided,
			  const char *decided_name)
{
	uint64_t result = acc; /* a fresh local: acc itself never needs a memory home */
	int64_t ops = bench_iterations_done(st), lines, objects;

	bench_do_not_optimize(result);
	bench_escape(slab->inodes);
	fs_time_set_clock(NULL);
	bench_set_items_processed(st, ops);
	walk_lines_per_op(wc, slab->count, &lines, &objects);
	bench_counter_int(st, "bytes_per_inode", (int64_t)sizeof(struct inode), BENCH_COUNTER_DEFAULT);
	bench_counter_ratio(st, "cachelines_touched_per_op", lines, objects, BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "huge_pages_advised", slab->huge_pages_advised ? 1 : 0,
			  BENCH_COUNTER_DEFAULT);
	/* Iterations per call into the shim: scripts/perf_report.py rounds each
	 * Google Benchmark run up to whole batches with it. */
	bench_counter_int(st, "batch_iterations", slab->passes * (int64_t)slab->count,
			  BENCH_COUNTER_DEFAULT);
	if (decided_name && ops > 0)
		bench_counter_ratio(st, decided_name, (int64_t)decided, ops, BENCH_COUNTER_DEFAULT);
	free(slab->inodes);
	free(slab->order);
}

/* The part of struct kstat that generic_fillattr() fills from the inode. */
struct walk_kstat {
	u64 ino;
	u32 dev, mode, nlink, uid, gid, rdev, blksize;
	kernel_loff_t size;
	u64 blocks;
	struct timespec64 atime, mtime, ctime;
};

/* generic_fillattr() (+ fill_mg_cmtime() for multigrain), folded to a number. */
static inline uint64_t walk_generic_fillattr(struct inode *inode)
{
	struct walk_kstat stat;

	/* s_dev stand-in: the model's super_block has none; the same dependent load. */
	stat.dev = inode->i_sb->s_time_gran;
	stat.ino = inode->i_ino;
	stat.mode = inode->i_mode;
	stat.nlink = inode->i_nlink;
	stat.uid = inode->i_uid.val;
	stat.gid = inode->i_gid.val;
	stat.rdev = inode->i_rdev;
	stat.size = i_size_read(inode);
	stat.atime = inode_get_atime(inode);
	stat.mtime = inode_get_mtime(inode);
	stat.ctime = inode_get_ctime(inode);
	if (!inode_ctime_queried(inode)) /* multigrain only; a no-op otherwise */
		inode_ctime_mark_queried(inode);
	stat.blksize = 1U << inode->i_blkbits;
	stat.blocks = inode->i_blocks;
	return stat.ino + stat.dev + stat.mode + stat.nlink + stat.uid + stat.gid + stat.rdev +
	       stat.blksize + (uint64_t)stat.size + stat.blocks + bench_fold(stat.atime) +
	       bench_fold(stat.mtime) + bench_fold(stat.ctime);
}

/*
 * file_update_time(): inode_needs_update_time(), then what
 * inode_update_timestamps() does for S_MTIME | S_CTIME.  Returns the
 * S_MTIME/S_CTIME flags that differed (0: nothing stored).
 */
static inline int walk_file_update_time(struct inode *inode)
{
	struct timespec64 now, mtime, ctime;
	int sync_it = 0;

	if (inode->i_flags & S_NOCMTIME)
		return 0;
	now = current_time(inode);
	mtime = inode_get_mtime(inode);
	if (!timespec64_equal(&mtime, &now))
		sync_it |= S_MTIME;
	ctime = inode_get_ctime(inode);
	if (!timespec64_equal(&ctime, &now))
		sync_it |= S_CTIME;
	if (!sync_it)
		return 0;
	now = inode_set_ctime_current(inode);
	if (!timespec64_equal(&now, &mtime))
		inode_set_mtime_to_ts(inode, now);
	return sync_it;
}

/* atime_needs_update() on a relatime mount, with relatime_need_update(). */
static inline bool walk_atime_needs_update(struct inode *inode)
{
	struct timespec64 now, atime, mtime, ctime;

	if (inode->i_flags & S_NOATIME)
		return false;
	if (inode->i_uid.val == INVALID_ID || inode->i_gid.val == INVALID_ID)
		return false; /* HAS_UNMAPPED_ID() */
	now = current_time(inode);
	atime = inode_get_atime(inode);
	mtime = inode_get_mtime(inode);
	ctime = inode_get_ctime(inode);
	if (timespec64_compare(&mtime, &atime) < 0 && timespec64_compare(&ctime, &atime) < 0 &&
	    now.tv_sec - atime.tv_sec < WALK_RELATIME_SEC)
		return false;
	return !timespec64_equal(&atime, &now);
}

/*
 * The walk skeleton: the body (the macro's arguments) runs once per inode
 * visit with inode in scope.  Locals copy the slab so that the compiler
 * keeps them in registers (the slab itself escapes through the clock).
 */
#define WALK_LOOP(slab_ptr, ...)                                                        \
	do {                                                                            \
		struct inode *inodes = (slab_ptr)->inodes;                              \
		const uint32_t *order = (slab_ptr)->order;                              \
		size_t count = (slab_ptr)->count;                                       \
		int64_t passes = (slab_ptr)->passes;                                    \
                                                                                        \
		while (bench_keep_running_batch(st, passes * (int64_t)count)) {         \
			for (int64_t pass = 0; pass < passes; pass++) {                 \
				for (size_t i = 0; i < count; i++) {                    \
					struct inode *inode = &inodes[order[i]];        \
					__VA_ARGS__;                                    \
				}                                                       \
				bench_clobber_memory();                                 \
			}                                                               \
		}                                                                       \
	} while (0)

/*
 * The per-inode bodies, one per path, shared by the unpaired loops and the
 * paired blocks, so that both time the same code: inode in scope, acc the
 * fold of the results, decided what the path decided (a store, an update).
 */
#define WALK_STAT_BODY acc += walk_generic_fillattr(inode)
#define WALK_TOUCH_BODY                                          \
	do {                                                     \
		int sync_it = walk_file_update_time(inode);      \
                                                                 \
		acc += (uint64_t)sync_it;                        \
		decided += sync_it != 0;                         \
	} while (0)
#define WALK_RELATIME_BODY decided += walk_atime_needs_update(inode)

static void WALK_FN(stat)(struct bench_state *st, const void *arg)
{
	struct walk_slab slab;
	uint64_t acc = 0;

	if (!walk_setup(st, arg, &slab))
		return;
	WALK_LOOP(&slab, WALK_STAT_BODY);
	walk_teardown(st, arg, &slab, acc, 0, NULL);
}

static void WALK_FN(touch)(struct bench_state *st, const void *arg)
{
	struct walk_slab slab;
	uint64_t acc = 0, decided = 0;

	if (!walk_setup(st, arg, &slab))
		return;
	WALK_LOOP(&slab, WALK_TOUCH_BODY);
	walk_teardown(st, arg, &slab, acc, decided, "updated_per_op");
}

static void WALK_FN(relatime)(struct bench_state *st, const void *arg)
{
	struct walk_slab slab;
	uint64_t decided = 0;

	if (!walk_setup(st, arg, &slab))
		return;
	WALK_LOOP(&slab, WALK_RELATIME_BODY);
	walk_teardown(st, arg, &slab, decided, decided, "needs_update_per_op");
}

/*
 * The paired block skeleton: @units visits from position @start of the
 * padded order, the slab's own clock installed first (the other side's was
 * the last one); a barrier after the block as after each unpaired pass.
 */
#define WALK_BLOCK(path, ...)                                                                  \
	static uint64_t WALK_FN(path##_block)(void *fixture, size_t start, size_t units)       \
	{                                                                                      \
		struct walk_slab *slab = fixture;                                              \
		struct inode *inodes = slab->inodes;                                           \
		const uint32_t *order = slab->order + start;                                   \
		uint64_t acc = 0, decided = 0;                                                 \
                                                                                               \
		fs_time_set_clock(&slab->clock);                                               \
		for (size_t i = 0; i < units; i++) {                                           \
			struct inode *inode = &inodes[order[i]];                               \
			__VA_ARGS__;                                                           \
		}                                                                              \
		bench_clobber_memory();                                                        \
		return acc + decided;                                                          \
	}

WALK_BLOCK(stat, WALK_STAT_BODY)
WALK_BLOCK(touch, WALK_TOUCH_BODY)
WALK_BLOCK(relatime, WALK_RELATIME_BODY)

static const struct walk_case walk_cases[] = {
	{ "stat_seq", WALK_FN(stat), WALK_FN(stat_block), false, WALK_CLOCK_FIXED, false, true, false,
	  WALK_MEMBERS(walk_stat_members) },
	{ "stat_random", WALK_FN(stat), WALK_FN(stat_block), true, WALK_CLOCK_FIXED, false, true, false,
	  WALK_MEMBERS(walk_stat_members) },
	{ "touch_seq", WALK_FN(touch), WALK_FN(touch_block), false, WALK_CLOCK_ADVANCING, false, false, false,
	  WALK_MEMBERS(walk_touch_members) },
	{ "touch_random", WALK_FN(touch), WALK_FN(touch_block), true, WALK_CLOCK_ADVANCING, false, false, false,
	  WALK_MEMBERS(walk_touch_members) },
	{ "touch_unchanged_seq", WALK_FN(touch), WALK_FN(touch_block), false, WALK_CLOCK_FIXED, true, false, true,
	  WALK_MEMBERS(walk_touch_members) },
	{ "touch_unchanged_random", WALK_FN(touch), WALK_FN(touch_block), true, WALK_CLOCK_FIXED, true, false, true,
	  WALK_MEMBERS(walk_touch_members) },
	{ "relatime_seq", WALK_FN(relatime), WALK_FN(relatime_block), false, WALK_CLOCK_FIXED, false, false, false,
	  WALK_MEMBERS(walk_relatime_members) },
	{ "relatime_random", WALK_FN(relatime), WALK_FN(relatime_block), true, WALK_CLOCK_FIXED, false, false, false,
	  WALK_MEMBERS(walk_relatime_members) },
};

/*
 * Inode counts: L1, L2, LLC and DRAM by the lines touched (about three per
 * inode) on the reference host (AMD EPYC: 32 KiB L1d, 1 MiB L2, 32 MiB L3).
 * Quick mode stops at 256 Ki inodes (161 MB with v6/scalar, 5x the L3: DRAM
 * already) and leaves out touch_unchanged_*: every repetition faults its
 * slab in again (about 0.4 s per benchmark at 1 Mi inodes, 1.5 s at 4 Mi),
 * which the quick run (all families, every layout of layouts/layouts.def,
 * 3 interleaved repetitions: <= 3 minutes on 2 cores for both ABIs when
 * there were 10 layouts) cannot afford.  Full mode runs every row from 32
 * to 4 Mi inodes.
 */
static const int64_t walk_quick_counts[] = { 64, 4096, 65536, 262144 };
static const int64_t walk_full_counts[] = { 32,    64,     256,     1024,    4096,
					    16384, 65536, 262144, 1048576, 4194304 };
/*
 * The paired walks' sizes, in every mode: two slabs alternate in the
 * caches, so each size is one where both sides' touched lines (about three
 * per inode) sit in one level: 2 x 12 KiB in L1d, 2 x 192 KiB in L2,
 * 2 x 3 MiB in L3, 2 x 48 MiB in DRAM.  Not 4096 (2 x 0.75 MiB: L2 for
 * one slab, L3 for two) nor 65536 (2 x 12 MiB, at the edge of an L3 shared
 * with other guests: the twin control read x0.71 and x1.41 in two
 * repetitions of one process, whichever side's slab stayed in L3).
 */
static const int64_t walk_paired_counts[] = { 64, 1024, 16384, 262144 };

/* --- paired ----------------------------------------------------------------------- */

#define WALK_N_CASES (sizeof(walk_cases) / sizeof(walk_cases[0]))
#define WALK_N_PAIRED (sizeof(walk_paired_counts) / sizeof(walk_paired_counts[0]))

/* A paired side's fixture argument: the walk and the slab's size. */
struct walk_paired_arg {
	const struct walk_case *wc;
	int64_t count;
};

/*
 * A slab of its own per side, at a huge-page boundary (both sides' inodes on
 * the same cache sets), its order padded for blocks that start anywhere.
 */
static void *walk_paired_new(const void *arg)
{
	const struct walk_paired_arg *pa = arg;
	struct walk_slab *slab = malloc(sizeof(*slab));
	char message[128];

	if (!slab)
		return NULL;
	if (walk_fill(slab, pa->wc, pa->count, WALK_PAIRED_MAX_UNITS, true, message,
		      sizeof(message))) {
		fprintf(stderr, "bench: %s\n", message);
		free(slab);
		return NULL;
	}
	bench_escape(slab->inodes);
	return slab;
}

static void walk_paired_free(void *fixture)
{
	struct walk_slab *slab = fixture;

	bench_escape(slab->inodes);
	fs_time_set_clock(NULL);
	paired_free_huge(slab->inodes);
	free(slab->order);
	free(slab);
}

/*
 * One paired_layout per paired size (its where, "1024"), each op a walk
 * case of the mode with its own fixture argument.  Filled once, by
 * walk_register(); paired.c keeps pointers to them.
 */
static struct walk_paired_arg walk_paired_args[WALK_N_PAIRED][WALK_N_CASES];
static struct paired_op walk_paired_ops[WALK_N_PAIRED][WALK_N_CASES];
static struct paired_layout walk_paired[WALK_N_PAIRED];
static char walk_paired_where[WALK_N_PAIRED][24];

static void walk_paired_register(bool full)
{
	for (size_t i = 0; i < WALK_N_PAIRED; i++) {
		size_t n_ops = 0;

		for (size_t c = 0; c < WALK_N_CASES; c++) {
			if (walk_cases[c].full_only && !full)
				continue;
			walk_paired_args[i][n_ops] = (struct walk_paired_arg){ &walk_cases[c],
									       walk_paired_counts[i] };
			walk_paired_ops[i][n_ops] = (struct paired_op){ walk_cases[c].op,
									walk_cases[c].block,
									&walk_paired_args[i][n_ops] };
			n_ops++;
		}
		snprintf(walk_paired_where[i], sizeof(walk_paired_where[i]), "%lld",
			 (long long)walk_paired_counts[i]);
		walk_paired[i] = (struct paired_layout){
			.family = "walk",
			.body = INODE_BODY_NAME,
			.repr = INODE_REPR_NAME,
			.where = walk_paired_where[i],
			.setup = walk_paired_new,
			.teardown = walk_paired_free,
			.ops = walk_paired_ops[i],
			.n_ops = n_ops,
			.ops_per_unit = 1,
			.max_units = WALK_PAIRED_MAX_UNITS,
			.cycle = (size_t)walk_paired_counts[i],
			.reuse = true, /* a walk continues from the state it left */
			.positive = walk_paired_counts[i] == WALK_PAIRED_POSITIVE_N ? "stat_seq" : NULL,
		};
		paired_add_layout(&walk_paired[i]);
	}
}

void BENCH_LAYOUT_SYMBOL(walk_register)(void)
{
	bool full = bench_full_mode();
	const int64_t *counts = full ? walk_full_counts : walk_quick_counts;
	size_t count_len = full ? sizeof(walk_full_counts) / sizeof(walk_full_counts[0])
				: sizeof(walk_quick_counts) / sizeof(walk_quick_counts[0]);

	/* A copy of the reference's code for one comparison (paired.h): paired only. */
	for (size_t c = 0; !paired_copy_for() && c < sizeof(walk_cases) / sizeof(walk_cases[0]); c++) {
		struct bench *b;

		if (walk_cases[c].full_only && !full)
			continue;
		b = bench_register_layout("walk", walk_cases[c].op, walk_cases[c].fn, &walk_cases[c],
					  NULL);

		for (size_t i = 0; i < count_len; i++)
			bench_arg(b, counts[i]);
	}
	walk_paired_register(full);
}
