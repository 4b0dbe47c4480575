// SPDX-License-Identifier: MIT
//
// bench.cc - the C shim over Google Benchmark; the only C++ file of the shim.
//
// struct bench is benchmark::internal::Benchmark and struct bench_state is
// benchmark::State: the C side only ever holds pointers to them.
// bench_main(), which a program's BENCH_MAIN() calls, registers the
// program's benchmarks, hands argv to benchmark::Initialize(), records the
// build in the JSON context and returns non-zero when a flag is unknown, the
// filter matches nothing, or a benchmark reported an error.
#include "bench.h"

#include <benchmark/benchmark.h>
#include <link.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

namespace {

std::atomic<bool> g_benchmark_failed{false};
bool g_full_mode = false;

// The quick mode's default minimum time per benchmark, in seconds.  Passed
// as a flag, not with Benchmark::MinTime(): that would append
// "/min_time:0.050" to every name in Google Benchmark 1.7.1 and would beat
// a --benchmark_min_time given on the command line.
constexpr const char *kQuickMinTimeFlag = "--benchmark_min_time=0.05";

// Remove --y2038_full from argv (Google Benchmark rejects unknown flags);
// in quick mode put the quick minimum time first, so that a
// --benchmark_min_time of the user's, parsed later, wins.  Returns the new
// argv (static storage: Google Benchmark keeps pointers into it).
char **take_own_flags(int &argc, char **argv)
{
	static std::vector<char *> args;

	args.assign(argv, argv + 1);
	for (int i = 1; i < argc; i++) {
		if (std::strcmp(argv[i], "--y2038_full") == 0)
			g_full_mode = true;
		else
			args.push_back(argv[i]);
	}
	if (!g_full_mode)
		args.insert(args.begin() + 1, const_cast<char *>(kQuickMinTimeFlag));
	argc = static_cast<int>(args.size());
	args.push_back(nullptr);
	return args.data();
}

benchmark::internal::Benchmark *to_cxx(struct bench *b)
{
	return reinterpret_cast<benchmark::internal::Benchmark *>(b);
}

benchmark::State &to_cxx(struct bench_state *st)
{
	return *reinterpret_cast<benchmark::State *>(st);
}

const benchmark::State &to_cxx(const struct bench_state *st)
{
	return *reinterpret_cast<const benchmark::State *>(st);
}

// Is libpfm (perf counters through libbenchmark) in this process?
int find_libpfm(struct dl_phdr_info *info, size_t, void *found)
{
	if (info->dlpi_name && std::strstr(info->dlpi_name, "libpfm"))
		*static_cast<bool *>(found) = true;
	return 0;
}

#ifndef Y2038_ABI
#define Y2038_ABI "unknown"
#endif
#ifndef Y2038_C_FLAGS
#define Y2038_C_FLAGS "unknown"
#endif
#ifndef Y2038_KERNEL_CFLAGS
#define Y2038_KERNEL_CFLAGS "unknown"
#endif
#ifndef Y2038_C_COMPILER
#define Y2038_C_COMPILER "unknown"
#endif

void add_build_context()
{
	bool libpfm = false;

	dl_iterate_phdr(find_libpfm, &libpfm);
	benchmark::AddCustomContext("y2038_mode", g_full_mode ? "full" : "quick");
	benchmark::AddCustomContext("y2038_abi", Y2038_ABI);
	benchmark::AddCustomContext("y2038_c_compiler", Y2038_C_COMPILER);
	benchmark::AddCustomContext("y2038_c_flags", Y2038_C_FLAGS);
	benchmark::AddCustomContext(
		"y2038_kernel_cflags",
		*Y2038_KERNEL_CFLAGS ? Y2038_KERNEL_CFLAGS " (fstime and the per-layout timed code)"
				     : "none: this compiler has no -mgeneral-regs-only; the timed code may "
				       "use FP/SIMD registers, which the kernel never does");
	benchmark::AddCustomContext("y2038_shim_cxx_compiler", __VERSION__);
	benchmark::AddCustomContext(
		"y2038_libbenchmark_perf_counters",
		libpfm ? "libpfm loaded: --benchmark_perf_counters available"
		       : "no libpfm in this process (Debian builds libbenchmark without it): "
			 "--benchmark_perf_counters measures nothing; use scripts/lab perf");
	benchmark::AddCustomContext(
		"y2038_libbenchmark_build",
		"Debian's libbenchmark is compiled -O2 without NDEBUG, hence library_build_type "
		"\"debug\"; the timed loops are this suite's own code, built as y2038_c_flags says, "
		"and its C++ (shim, native reference loop) with NDEBUG");
}

void set_counter(struct bench_state *st, const char *name, double value, unsigned flags)
{
	to_cxx(st).counters[name] =
		benchmark::Counter(value, static_cast<benchmark::Counter::Flags>(flags));
}

} // namespace

extern "C" {

bool bench_full_mode(void) { return g_full_mode; }

struct bench *bench_register(const char *name, bench_fn fn, const void *arg)
{
	auto *b = benchmark::RegisterBenchmark(name, [fn, arg](benchmark::State &state) {
		fn(reinterpret_cast<struct bench_state *>(&state), arg);
	});
	return reinterpret_cast<struct bench *>(b);
}

void bench_arg(struct bench *b, int64_t x) { to_cxx(b)->Arg(x); }
void bench_threads(struct bench *b, int threads) { to_cxx(b)->Threads(threads); }
void bench_use_real_time(struct bench *b) { to_cxx(b)->UseRealTime(); }
void bench_use_manual_time(struct bench *b) { to_cxx(b)->UseManualTime(); }

void bench_add_context(const char *key, const char *value) { benchmark::AddCustomContext(key, value); }

bool bench_keep_running(struct bench_state *st) { return to_cxx(st).KeepRunning(); }

bool bench_keep_running_batch(struct bench_state *st, int64_t n)
{
	return to_cxx(st).KeepRunningBatch(static_cast<benchmark::IterationCount>(n));
}

int64_t bench_range_arg(const struct bench_state *st, int index)
{
	return to_cxx(st).range(static_cast<std::size_t>(index));
}

int64_t bench_iterations_done(const struct bench_state *st)
{
	return static_cast<int64_t>(to_cxx(st).iterations());
}

int bench_thread_count(const struct bench_state *st) { return to_cxx(st).threads(); }
int bench_thread_index(const struct bench_state *st) { return to_cxx(st).thread_index(); }

int64_t bench_max_iterations(const struct bench_state *st)
{
	return static_cast<int64_t>(to_cxx(st).max_iterations);
}

void bench_set_iteration_time_ns(struct bench_state *st, int64_t ns)
{
	to_cxx(st).SetIterationTime(static_cast<double>(ns) * 1e-9);
}

void bench_set_items_processed(struct bench_state *st, int64_t items)
{
	to_cxx(st).SetItemsProcessed(static_cast<int64_t>(items));
}

void bench_set_label(struct bench_state *st, const char *label) { to_cxx(st).SetLabel(label); }

void bench_skip_with_error(struct bench_state *st, const char *message)
{
	g_benchmark_failed.store(true);
	to_cxx(st).SkipWithError(message);
}

void bench_counter_int(struct bench_state *st, const char *name, int64_t value, unsigned flags)
{
	set_counter(st, name, static_cast<double>(value), flags);
}

void bench_counter_ratio(struct bench_state *st, const char *name, int64_t num, int64_t den,
			 unsigned flags)
{
	set_counter(st, name, den ? static_cast<double>(num) / static_cast<double>(den) : 0.0,
		    flags);
}

int bench_main(int argc, char **argv, void (*register_fn)(void))
{
	argv = take_own_flags(argc, argv);
	register_fn();
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	add_build_context();
	std::size_t ran = benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	if (ran == 0) {
		std::fprintf(stderr, "bench: no benchmark matched the filter\n");
		return 1;
	}
	if (g_benchmark_failed.load()) {
		std::fprintf(stderr, "bench: at least one benchmark reported an error\n");
		return 1;
	}
	return 0;
}

} // extern "C"
