/* SPDX-License-Identifier: MIT */
/*
 * bench_fixtures.h - what the benchmark families share: the cache-line size,
 * a fixed clock, the fold that keeps results alive, a super block that
 * clamps nothing, and cache-line-aligned allocation.  Set-up code only:
 * nothing here runs inside a timed loop except bench_fold().
 */
#ifndef BENCH_BENCH_FIXTURES_H
#define BENCH_BENCH_FIXTURES_H

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bench.h"
#include "inode.h"

/*
 * Bytes per cache line (x86, arm64; the kernel's L1_CACHE_BYTES there): the
 * alignment of every allocation below and the unit of walk.c's line counts.
 */
#define BENCH_CACHE_LINE 64

/*
 * The clocks: fs_time_fixed_clock (the timespec64 at ctx) and
 * fs_time_advancing_clock (1 ns on per read: walk.c's touch), one function
 * each for every layout, as the kernel has one clock, and called directly by
 * fs_time_now() (fs_time.h).  A copy per layout object made the call change
 * target from one block of a paired benchmark to the next (the touch walk's
 * twins x0.84, two copies of inode_set_ctime_current() up to 18 % apart).
 */

/*
 * Teardown of a fixture that installed its own fs_time clock: the default
 * clock back, the fixture freed (after an escape, so that its last stores
 * count).
 */
static inline void bench_free_clocked(void *fixture)
{
	bench_escape(fixture);
	fs_time_set_clock(NULL);
	free(fixture);
}

/* Folds a timestamp into a running sum; unsigned, so it wraps without UB. */
static inline uint64_t bench_fold(struct timespec64 ts)
{
	return (uint64_t)ts.tv_sec + (uint64_t)ts.tv_nsec;
}

/*
 * bench_sb_full_range - RFC defaults, but the whole time64_t range and 1 ns
 * granularity: timestamp_truncate() changes nothing, so every layout stores
 * the same inputs.
 */
static inline void bench_sb_full_range(struct super_block *sb)
{
	sb_init_rfc_defaults(sb);
	sb->s_time_min = TIME64_MIN;
	sb->s_time_max = TIME64_MAX;
	sb_set_time_gran(sb, 1);
}

/*
 * bench_alloc_lines - @bytes rounded up to whole cache lines, aligned to a
 * line, as a slab cache without debugging places its objects; free() it.
 * Not zeroed: the caller decides when its pages are first touched (walk.c
 * advises huge pages before that).  NULL when out of memory or when the
 * rounding would overflow.
 */
static inline void *bench_alloc_lines(size_t bytes)
{
	if (bytes == 0 || bytes > SIZE_MAX - (BENCH_CACHE_LINE - 1))
		return NULL;
	return aligned_alloc(BENCH_CACHE_LINE,
			     (bytes + BENCH_CACHE_LINE - 1) / BENCH_CACHE_LINE * BENCH_CACHE_LINE);
}

/*
 * bench_alloc_huge - @bytes in whole BENCH_HUGE_PAGE units, aligned to one
 * and advised MADV_HUGEPAGE before the caller first touches them; free() it.
 * For the fixtures two benchmarks time against each other (paired.h): with
 * line-aligned allocations the same loop over the same data ran at 0.45 or
 * 0.50 ns/op from one allocation to the next on the reference VM, and two
 * copies of one function differed by up to 5 % in the paired runs; at the
 * same offset of a huge page (where the kernel grants one), every fixture
 * maps its data to the same cache sets.
 */
#define BENCH_HUGE_PAGE (UINT64_C(2) << 20)

static inline void *bench_alloc_huge(size_t bytes)
{
	void *p;

	if (bytes == 0 || bytes > SIZE_MAX - (BENCH_HUGE_PAGE - 1))
		return NULL;
	bytes = (bytes + BENCH_HUGE_PAGE - 1) / BENCH_HUGE_PAGE * BENCH_HUGE_PAGE;
	p = aligned_alloc(BENCH_HUGE_PAGE, bytes);
#ifdef MADV_HUGEPAGE
	if (p)
		madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it, 4 KiB pages */
#endif
	return p;
}

#endif /* BENCH_BENCH_FIXTURES_H */
