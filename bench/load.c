/* SPDX-License-Identifier: MIT */
/*
 * load.c - timestamp updates under multi-threaded load, per layout.
 *
 *   load/touch_private/<body>/<repr>/threads:N
 *       every thread updates its own set of LOAD_SET_INODES inodes (its own
 *       allocation, 64-byte aligned): how the update path scales.
 *   load/touch_shared/<body>/<repr>/threads:N
 *       all threads update the same set (one array, stride sizeof(struct
 *       inode)): the cost of moving the timestamp cache lines between CPUs.
 *   load/touch_interleaved/<body>/<repr>/threads:N
 *       one array, but thread t updates only inodes t, t+N, t+2N, ...:
 *       disjoint inodes at the real sizeof stride, so any slowdown against
 *       touch_private is false sharing between neighbouring inodes.
 *
 * One operation (one "item") is what file_update_time() does to an inode
 * whose times need updating: now = current_time(inode) (the real
 * CLOCK_REALTIME_COARSE through fs_time_now(), then timestamp_truncate()
 * against an ext4 super block), then mtime and ctime set to it.  The
 * kernel's inode_needs_update_time() would skip the stores while the coarse
 * clock has not ticked; here they always happen, so the figure is the store
 * path.  There is no inode lock: the kernel serialises writers of one inode
 * with i_rwsem, so touch_shared is a lower bound of the shared cost.
 *
 * Races: the stores are inode_lockless_set_mtime()/_ctime()
 * (layouts/inode_lockless.h): relaxed atomics of the width the hardware
 * uses, WRITE_ONCE() in the kernel's terms, in all three operations, so that
 * the operations differ only in sharing.  (On x86 a relaxed atomic store is
 * a plain mov; packed12's 4-aligned tv_sec and every 64-bit tv_sec on i386
 * are two 32-bit stores, as the compilers emit for plain stores there.)
 * The super block and the inodes' other members are only read while
 * threads run; the shared array is initialised in load_register(), before
 * any benchmark starts.
 *
 * Benchmark thread t runs on CPU t of the plan (bench_cpus.h): threads:1 on
 * the first, threads:2 on the first two, so the ratio compares known CPUs.
 * Where they differ in speed, 2.0 is out of reach: `scripts/lab bench`
 * measures each CPU and the report states the ceiling.
 *
 * Registered for the current body (v6) only: the bodies differ in sizeof
 * (the stride), not in the update path.  Threads 1, 2, 4, ... up to twice
 * the online CPUs.
 * Ops/s is items_per_second; the scaling ratio is threads:2 over threads:1.
 */
#include <stdlib.h>
#include <unistd.h>

#include "bench_cpus.h"
#include "bench_fixtures.h"
#include "bench_layout.h"
#include "fs_presets.h"
#include "inode_lockless.h"

#define LOAD_SET_INODES 32 /* ~20 KiB of v6 inodes: within L1d, so the lines are what moves */

enum load_sharing { LOAD_PRIVATE, LOAD_SHARED, LOAD_INTERLEAVED };

struct load_case {
	const char *operation;
	enum load_sharing sharing;
};

static const struct load_case load_cases[] = {
	{ .operation = "touch_private", .sharing = LOAD_PRIVATE },
	{ .operation = "touch_shared", .sharing = LOAD_SHARED },
	{ .operation = "touch_interleaved", .sharing = LOAD_INTERLEAVED },
};

/*
 * What the threads share: written once by load_register(), before any
 * benchmark runs; afterwards only the timestamps of the array are stored to
 * (atomically) and everything else is read.
 */
static struct super_block load_sb;
static _Alignas(BENCH_CACHE_LINE) struct inode load_shared_set[LOAD_SET_INODES];

/*
 * inode_update_timestamps() on one inode, unconditionally: ctime set to now
 * (current_time(), truncated; multigrain: v6.13's compare-and-exchange),
 * then mtime to the ctime that won.
 */
static inline void load_touch(struct inode *inode)
{
	struct timespec64 now = inode_lockless_set_ctime_current(inode);

	inode_lockless_set_mtime(inode, now);
}

static struct inode *load_private_set(void)
{
	struct inode *set = bench_alloc_lines(sizeof(struct inode) * LOAD_SET_INODES);

	if (set)
		for (int i = 0; i < LOAD_SET_INODES; i++)
			inode_init_always(&load_sb, &set[i]);
	return set;
}

static void load_bench(struct bench_state *st, const void *arg)
{
	const struct load_case *tc = arg;
	int threads = bench_thread_count(st), self = bench_thread_index(st);
	struct inode *set = load_shared_set, *private_set = NULL;
	int first = 0, step = 1;
	cpu_set_t saved;

	if (bench_cpus_pin(self, &saved) != 0) {
		bench_skip_with_error(st, "could not pin the thread to its CPU");
		return;
	}

	switch (tc->sharing) {
	case LOAD_PRIVATE:
		set = private_set = load_private_set();
		if (!set) {
			bench_cpus_restore(&saved);
			bench_skip_with_error(st, "out of memory");
			return;
		}
		break;
	case LOAD_SHARED:
		break;
	case LOAD_INTERLEAVED:
		first = self;
		step = threads;
		break;
	}
	/* Inodes this thread touches per pass (load_register() keeps it >= 1). */
	int64_t per_pass = (LOAD_SET_INODES - 1 - first) / step + 1;

	while (bench_keep_running_batch(st, per_pass))
		for (int i = first; i < LOAD_SET_INODES; i += step)
			load_touch(&set[i]);
	bench_escape(set);
	bench_set_items_processed(st, bench_iterations_done(st));
	bench_counter_int(st, "inode_bytes", (int64_t)sizeof(struct inode), BENCH_COUNTER_AVG_THREADS);
	free(private_set);
	bench_cpus_restore(&saved);
}

void BENCH_LAYOUT_SYMBOL(load_register)(void)
{
	const struct fs_preset *ext4 = fs_preset_find("ext4 (extra)");
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int max_threads = 2 * (cpus > 0 ? (int)cpus : 1);

	/* The current body only (see the head); compiled for every body so that all stay built. */
	if (!INODE_BODY_CURRENT)
		return;
	if (!ext4) {
		fprintf(stderr, "bench load: no \"ext4 (extra)\" preset\n");
		exit(2);
	}
	load_sb = fs_preset_sb(ext4);
	for (int i = 0; i < LOAD_SET_INODES; i++)
		inode_init_always(&load_sb, &load_shared_set[i]);
	for (size_t c = 0; c < sizeof(load_cases) / sizeof(load_cases[0]); c++) {
		struct bench *b = bench_register_layout("load", load_cases[c].operation, load_bench,
							&load_cases[c], NULL);

		/* interleaved: no more threads than inodes, so that each has work. */
		for (int n = 1; n <= max_threads; n *= 2)
			if (load_cases[c].sharing != LOAD_INTERLEAVED || n <= LOAD_SET_INODES)
				bench_threads(b, n);
		bench_use_real_time(b);
	}
}
