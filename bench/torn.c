/* SPDX-License-Identifier: MIT */
/*
 * torn.c - the torn-read experiment as a benchmark, per layout
 * (layouts/torn_read.h; the test is tests/torn_read_test.c).
 *
 *   torn/read/<body>/<repr>/unprotected/writer:busy
 *   torn/read/<body>/<repr>/seqcount/writer:busy
 *       the benchmark thread reads i_mtime as stat() does, without or with
 *       read_seqcount_begin()/read_seqcount_retry(), while a writer thread
 *       (started by the benchmark, outside Google Benchmark's thread
 *       pool, so that only the reader is timed) stores the boundary cycle
 *       into it as fast as it can.
 *   torn/read/<body>/<repr>/{unprotected,seqcount}/writer:idle
 *       the same reads with no writer: the uncontended cost of a read.
 *
 * Time per iteration is the cost of one read, including the O(1)
 * consistency check of torn_check() (a table lookup and a compare, the same
 * in every variant).  Counters: reads, torn_reads, torn_per_million,
 * sec_nsec_mixed, sec_halves_mixed, retries (seqcount) and writes (the
 * writer's stores during the run).  The label says how this ABI accesses
 * tv_sec ("1x64", "2x32", "1x32").
 *
 * On a busy machine the writer can be preempted inside its write section;
 * the seqcount reader then spins until it runs again (the kernel disables
 * preemption there, user space cannot), which shows as a long read time.
 * The reader runs on the first CPU of the plan (bench_cpus.h), the writer on
 * the second, so that the two never share one CPU when there are two.
 * Registered for the current body (v6) only: the body decides only where
 * i_mtime sits.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "bench_cpus.h"
#include "bench_fixtures.h"
#include "bench_layout.h"
#include "torn_read.h"

#define TORN_BATCH 256

_Static_assert(_Alignof(struct torn_shared) <= BENCH_CACHE_LINE,
	       "bench_alloc_lines() aligns struct torn_shared");

struct torn_case {
	const char *protection;
	int use_seqcount;
	int writer_busy;
};

static const struct torn_case torn_cases[] = {
	{ "unprotected", 0, 1 },
	{ "seqcount", 1, 1 },
	{ "unprotected", 0, 0 },
	{ "seqcount", 1, 0 },
};

struct torn_writer {
	struct torn_shared *shared;
	const struct torn_table *table;
	int use_seqcount;
	int stop;           /* __atomic: the reader is done */
	int started;        /* __atomic: the writer is writing */
	unsigned long writes; /* the writer's own count; read after the join */
};

static void *torn_writer_main(void *arg)
{
	struct torn_writer *w = arg;
	unsigned long n = 1;
	cpu_set_t saved;

	/* Unpinned if that fails: the counts stay valid, only placement is lost. */
	(void)bench_cpus_pin(1, &saved);

	__atomic_store_n(&w->started, 1, __ATOMIC_RELAXED);
	while (!__atomic_load_n(&w->stop, __ATOMIC_RELAXED)) {
		/* Check the flag once per 64 stores: the stores are the load. */
		for (int i = 0; i < 64; i++, n++)
			torn_write(w->shared, w->table, n, w->use_seqcount);
	}
	w->writes = n - 1;
	return NULL;
}

static void torn_bench(struct bench_state *st, const void *arg)
{
	const struct torn_case *tc = arg;
	struct super_block sb = { .s_time_gran = 1 };
	struct torn_table *t = malloc(sizeof(*t));
	struct torn_shared *sh = bench_alloc_lines(sizeof(*sh));
	struct torn_writer w = { .shared = sh, .table = t, .use_seqcount = tc->use_seqcount };
	struct torn_counts c = { 0 };
	pthread_t writer;
	cpu_set_t saved;

	if (!t || !sh || bench_cpus_pin(0, &saved) != 0) {
		free(t);
		free(sh);
		bench_skip_with_error(st, t && sh ? "could not pin the reader to its CPU" : "out of memory");
		return;
	}
	torn_table_init(t);
	torn_shared_init(sh, &sb, t);
	if (tc->writer_busy) {
		if (pthread_create(&writer, NULL, torn_writer_main, &w) != 0) {
			free(t);
			free(sh);
			bench_cpus_restore(&saved);
			bench_skip_with_error(st, "pthread_create failed");
			return;
		}
		while (!__atomic_load_n(&w.started, __ATOMIC_RELAXED))
			sched_yield();
	}
	while (bench_keep_running_batch(st, TORN_BATCH))
		for (int i = 0; i < TORN_BATCH; i++)
			torn_check(t, torn_read(sh, tc->use_seqcount, &c), &c);
	if (tc->writer_busy) {
		__atomic_store_n(&w.stop, 1, __ATOMIC_RELAXED);
		pthread_join(writer, NULL);
	}

	bench_set_items_processed(st, (int64_t)c.reads);
	bench_counter_int(st, "reads", (int64_t)c.reads, BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "torn_reads", (int64_t)c.torn, BENCH_COUNTER_DEFAULT);
	bench_counter_ratio(st, "torn_per_million", (int64_t)c.torn * 1000000, (int64_t)c.reads,
			    BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "sec_nsec_mixed", (int64_t)c.sec_nsec_mixed, BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "sec_halves_mixed", (int64_t)c.sec_halves_mixed, BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "retries", (int64_t)c.retries, BENCH_COUNTER_DEFAULT);
	bench_counter_int(st, "writes", (int64_t)w.writes, BENCH_COUNTER_DEFAULT);
	bench_set_label(st, inode_lockless_sec_access(&sh->inode));
	free(sh);
	free(t);
	bench_cpus_restore(&saved);
}

void BENCH_LAYOUT_SYMBOL(torn_register)(void)
{
	/* The current body only (see the head); compiled for every body so that all stay built. */
	if (!INODE_BODY_CURRENT)
		return;
	for (size_t i = 0; i < sizeof(torn_cases) / sizeof(torn_cases[0]); i++) {
		const struct torn_case *tc = &torn_cases[i];
		struct bench *b = bench_register_layout("torn", "read", torn_bench, tc, "%s/writer:%s",
							tc->protection,
							tc->writer_busy ? "busy" : "idle");

		bench_use_real_time(b);
	}
}
