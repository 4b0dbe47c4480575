/* SPDX-License-Identifier: MIT */
/*
 * shim_overhead.c - the shim's cost, C side.
 *
 *   shim/empty/c_per_iteration, shim/store_mtime/c_per_iteration
 *       bench_keep_running() once per iteration: a call into C++ each time.
 *   shim/empty/c_batch/<n>, shim/store_mtime/c_batch/<n>
 *       bench_keep_running_batch(n), the inner loop in C: the form every
 *       benchmark of this suite uses.
 * shim_native.cc registers the same bodies as shim/<body>/native (main.c
 * registers both sides, this one first); the report divides c_batch by
 * native, measured in the same run.  The C inner loops count down to zero,
 * as State's own iteration loop does (sub; jne): counting up costs a
 * compare more, which the empty body would show as "overhead".
 */
#include "shim_overhead.h"

static void empty_per_iteration(struct bench_state *st, const void *arg)
{
	(void)arg;
	while (bench_keep_running(st))
		shim_empty_step();
}

static void empty_batch(struct bench_state *st, const void *arg)
{
	int64_t batch = bench_range_arg(st, 0);

	(void)arg;
	while (bench_keep_running_batch(st, batch))
		for (int64_t i = batch; i > 0; i--)
			shim_empty_step();
}

static void store_per_iteration(struct bench_state *st, const void *arg)
{
	struct super_block sb = { .s_time_gran = 1 };
	_Alignas(SHIM_INODE_ALIGN) struct inode inode;
	struct timespec64 ts = { .tv_sec = 2147483648LL, .tv_nsec = 0 };

	(void)arg;
	inode_init_always(&sb, &inode);
	while (bench_keep_running(st))
		shim_store_step(&inode, &ts);
	bench_escape(&inode);
}

static void store_batch(struct bench_state *st, const void *arg)
{
	struct super_block sb = { .s_time_gran = 1 };
	_Alignas(SHIM_INODE_ALIGN) struct inode inode;
	struct timespec64 ts = { .tv_sec = 2147483648LL, .tv_nsec = 0 };
	int64_t batch = bench_range_arg(st, 0);

	(void)arg;
	inode_init_always(&sb, &inode);
	while (bench_keep_running_batch(st, batch))
		for (int64_t i = batch; i > 0; i--)
			shim_store_step(&inode, &ts);
	bench_escape(&inode);
}

void shim_overhead_register(void)
{
	static const int64_t batches[] = SHIM_BATCH_SIZES;

	bench_register("shim/empty/c_per_iteration", empty_per_iteration, NULL);
	bench_register("shim/store_mtime/c_per_iteration", store_per_iteration, NULL);
	for (size_t i = 0; i < sizeof(batches) / sizeof(batches[0]); i++) {
		bench_arg(bench_register("shim/empty/c_batch", empty_batch, NULL), batches[i]);
		bench_arg(bench_register("shim/store_mtime/c_batch", store_batch, NULL), batches[i]);
	}
}
