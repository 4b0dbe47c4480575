/* SPDX-License-Identifier: MIT */
/*
 * bench_cpus.h - which CPU each thread of a multi-threaded benchmark runs on.
 *
 * The two vCPUs of the reference VM are not equal (one ran the same code
 * 1.4-1.8x slower than the other for minutes at a time), so an unpinned threads:1 run
 * measured whichever CPU the scheduler picked and a scaling ratio mixed
 * the two.  The plan is an ordered CPU list: $Y2038_BENCH_CPUS ("2,0,1",
 * what `scripts/lab bench` sets, fastest first) or else the CPUs this
 * process may run on, ascending.  Benchmark thread i runs on entry
 * i mod n, so threads:1 always uses the first entry and threads:2 the
 * first two.
 */
#ifndef BENCH_BENCH_CPUS_H
#define BENCH_BENCH_CPUS_H

#include <sched.h> /* cpu_set_t: built with _GNU_SOURCE (bench/CMakeLists.txt) */

/* Read the plan (main.c, before registration); bad $Y2038_BENCH_CPUS exits 2. */
void bench_cpus_init(void);

/*
 * Pin the calling thread to the plan's entry @index mod n; @saved receives
 * its affinity before, for bench_cpus_restore().  Returns 0, or -1 (errno
 * set) when the affinity could not be set: the caller skips with an error.
 */
int bench_cpus_pin(int index, cpu_set_t *saved);
void bench_cpus_restore(const cpu_set_t *saved);

#endif /* BENCH_BENCH_CPUS_H */
