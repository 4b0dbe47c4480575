/* SPDX-License-Identifier: MIT */
/*
 * bench.h - a C interface to Google Benchmark (libbenchmark 1.7.1), for the
 * benchmark programs under bench/ (it belongs to them: nothing else links it).
 *
 * Benchmarks of this suite are written in C; bench.cc, the only C++ file of
 * the shim, turns these calls into benchmark::RegisterBenchmark(),
 * benchmark::State and friends.  A program defines its main() with
 * BENCH_MAIN(register_fn), as a C++ one would with BENCHMARK_MAIN(): the
 * shim calls register_fn, then hands argv to benchmark::Initialize(), so
 * every standard flag works (--benchmark_filter, --benchmark_repetitions,
 * --benchmark_out=FILE --benchmark_out_format=json, --benchmark_min_time,
 * --benchmark_perf_counters).
 *
 * Calling into C++ costs a call through a function pointer (~1.7 ns here),
 * more than a timestamp store, so a benchmark runs its inner loop itself:
 *
 *	while (bench_keep_running_batch(st, BATCH))
 *		for (int i = 0; i < BATCH; i++) { ...; bench_do_not_optimize(x); }
 *
 * Iterations are then counted in units of one inner-loop pass, and the
 * reported time is per pass, as with State::KeepRunningBatch().
 */
#ifndef BENCH_SHIM_BENCH_H
#define BENCH_SHIM_BENCH_H

#include <stdbool.h>
#include <stdint.h>
#ifdef __cplusplus
#include <atomic>
#else
#include <stdatomic.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct bench;       /* a registered benchmark (benchmark::internal::Benchmark) */
struct bench_state; /* the running state of one benchmark (benchmark::State) */

/* The one signature of a benchmark function; @arg is bench_register()'s. */
typedef void (*bench_fn)(struct bench_state *st, const void *arg);

/**
 * bench_main - run a benchmark program
 *
 * Strips this suite's own flag (--y2038_full) from argv, calls
 * @register_fn, which registers the program's benchmarks, then runs what
 * Google Benchmark's flags select, with the build recorded in the JSON
 * context.  Returns the exit status: 2 for an unknown flag, 1 when the
 * filter matched nothing or a benchmark reported an error, 0 otherwise.
 */
int bench_main(int argc, char **argv, void (*register_fn)(void));

/* A benchmark program's main(), as BENCHMARK_MAIN() writes it in C++. */
#define BENCH_MAIN(register_fn)                                   \
	int main(int argc, char **argv)                           \
	{                                                         \
		return bench_main(argc, argv, (register_fn));     \
	}

/*
 * True when the program was started with --y2038_full (the shim strips the
 * flag before Google Benchmark sees argv): register more sizes and cases.
 * Without it (quick mode) the default minimum time per benchmark is 0.05 s
 * instead of Google Benchmark's 0.5 s; --benchmark_min_time still wins
 * (scripts/lab bench passes 0.02 s with 3 repetitions).
 * Valid inside the program's register_fn and later.
 */
bool bench_full_mode(void);

/**
 * bench_register - register @fn under @name (copied), called with @arg
 *
 * Returns the benchmark, for the configuration calls below; never NULL.
 * Names follow docs/ARCHITECTURE.md: <family>/<operation>/<body>/<repr>[/<param>...].
 */
struct bench *bench_register(const char *name, bench_fn fn, const void *arg);

/* Configuration, as the Benchmark:: methods of the same names. */
void bench_arg(struct bench *b, int64_t x);
void bench_threads(struct bench *b, int threads);
void bench_use_real_time(struct bench *b);
/* UseManualTime(): the benchmark reports each iteration's time itself. */
void bench_use_manual_time(struct bench *b);

/* benchmark::AddCustomContext(): a key/value pair in the JSON context. */
void bench_add_context(const char *key, const char *value);

/* The running loop: State::KeepRunning() and State::KeepRunningBatch(). */
bool bench_keep_running(struct bench_state *st);
bool bench_keep_running_batch(struct bench_state *st, int64_t n);

/* State::range(i), iterations(), threads(), thread_index(). */
int64_t bench_range_arg(const struct bench_state *st, int index);
int64_t bench_iterations_done(const struct bench_state *st);
int bench_thread_count(const struct bench_state *st);
int bench_thread_index(const struct bench_state *st);
/* State::max_iterations: how many iterations this run will make (before the loop). */
int64_t bench_max_iterations(const struct bench_state *st);
/* SetIterationTime() in ns, for benchmarks registered with bench_use_manual_time(). */
void bench_set_iteration_time_ns(struct bench_state *st, int64_t ns);

void bench_set_items_processed(struct bench_state *st, int64_t items);
void bench_set_label(struct bench_state *st, const char *label);
/* SkipWithError(): the benchmark is reported as failed; return at once. */
void bench_skip_with_error(struct bench_state *st, const char *message);

/* Counter flags, the values of benchmark::Counter::Flags. */
enum bench_counter_flags {
	BENCH_COUNTER_DEFAULT = 0,
	BENCH_COUNTER_RATE = 1 << 0,           /* value / elapsed seconds */
	BENCH_COUNTER_AVG_THREADS = 1 << 1,    /* value / threads */
	BENCH_COUNTER_ITERATION_INVARIANT = 1 << 2, /* value * iterations */
	BENCH_COUNTER_AVG_ITERATIONS = 1 << 3, /* value / iterations */
};

/*
 * state.counters[@name] = Counter(value, @flags), from integers, so that
 * code compiled without FP registers (the per-layout benchmark objects,
 * -mgeneral-regs-only) can set them: @value, or @num / @den computed in the
 * shim (0 when @den is 0: nothing was counted).
 */
void bench_counter_int(struct bench_state *st, const char *name, int64_t value, unsigned flags);
void bench_counter_ratio(struct bench_state *st, const char *name, int64_t num, int64_t den,
			 unsigned flags);

/*
 * bench_do_not_optimize - the value in @lvalue is read and may have been
 * written: the compiler must compute it and cannot reuse it afterwards.
 * The same asm as benchmark::DoNotOptimize(Tp&) with GCC ("+m,r"; with
 * clang "+r,m"); a "memory" clobber, so stores before it are not elided.
 */
#if defined(__clang__)
#define bench_do_not_optimize(lvalue) __asm__ volatile("" : "+r,m"(lvalue) : : "memory")
#else
#define bench_do_not_optimize(lvalue) __asm__ volatile("" : "+m,r"(lvalue) : : "memory")
#endif

/*
 * bench_escape - the object at @ptr escapes: the compiler must assume it is
 * read (and written) from here on, so stores into it cannot be dropped.  For
 * objects that cannot be asm outputs (struct inode has a const i_nlink).
 */
static inline void bench_escape(const void *ptr)
{
	__asm__ volatile("" : : "g"(ptr) : "memory");
}

/*
 * bench_clobber_memory - every store so far must happen and memory may have
 * changed: benchmark::ClobberMemory(), an acq_rel signal fence.
 */
#ifdef __cplusplus
#define bench_clobber_memory() std::atomic_signal_fence(std::memory_order_acq_rel)
#else
#define bench_clobber_memory() atomic_signal_fence(memory_order_acq_rel)
#endif

#ifdef __cplusplus
}
#endif

#endif /* BENCH_SHIM_BENCH_H */
