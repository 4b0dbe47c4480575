// SPDX-License-Identifier: MIT
//
// shim_native.cc - the reference for the shim's cost: the bodies of
// shim_overhead.h in Google Benchmark's own C++ loop (for (auto _ : state)),
// registered as shim/empty/native and shim/store_mtime/native.  The one C++
// file outside the shim, and only because the comparison needs it.
#include <benchmark/benchmark.h>

#include "shim_overhead.h"

namespace {

void empty_native(benchmark::State &state)
{
	for (auto _ : state)
		shim_empty_step();
}

void store_native(benchmark::State &state)
{
	struct super_block sb = {};
	// struct inode has a const member, so C++ cannot default-construct it:
	// raw storage, initialised by inode_init_always() as on the C side.
	// 64-byte aligned on both sides, so that the two stores fall in the same
	// line(s) whatever the stack pointer (see SHIM_INODE_ALIGN).
	alignas(SHIM_INODE_ALIGN) unsigned char storage[sizeof(struct inode)];
	auto *inode = reinterpret_cast<struct inode *>(storage);
	struct timespec64 ts = { 2147483648LL, 0 };

	sb.s_time_gran = 1;
	inode_init_always(&sb, inode);
	for (auto _ : state)
		shim_store_step(inode, &ts);
	bench_escape(inode);
}

} // namespace

extern "C" void shim_native_register(void)
{
	benchmark::RegisterBenchmark("shim/empty/native", empty_native);
	benchmark::RegisterBenchmark("shim/store_mtime/native", store_native);
}
