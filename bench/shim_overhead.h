/* SPDX-License-Identifier: MIT */
/*
 * shim_overhead.h - the loop bodies the shim benchmark times twice: through
 * the C shim (shim_overhead.c) and natively in C++ (shim_native.cc).  The
 * same inline code, compiled by gcc and g++ at the same flags, so the only
 * difference is how the loop reaches Google Benchmark's State.
 */
#ifndef BENCH_SHIM_OVERHEAD_H
#define BENCH_SHIM_OVERHEAD_H

#include "bench.h"
#include "inode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Nothing but a compiler barrier: what the loop itself costs. */
static inline void shim_empty_step(void)
{
	bench_clobber_memory();
}

/*
 * One timestamp store (v6/scalar, mainline's layout): a new nsec each time,
 * kept below NSEC_PER_SEC, stored through inode_set_mtime_to_ts(); the
 * barrier forces the store to happen in every iteration.
 */
static inline void shim_store_step(struct inode *inode, struct timespec64 *ts)
{
	ts->tv_nsec = (ts->tv_nsec + 1) & 0x1fffffff;
	inode_set_mtime_to_ts(inode, *ts);
	bench_clobber_memory();
}

/*
 * Placement held equal on both sides: the inode 64-byte aligned, and both
 * files compiled with -falign-loops=64 (bench/CMakeLists.txt).  The inner
 * loops are the same six instructions (DISASSEMBLY.md); without this, where
 * the loop and the stores happened to land made the native loop ~20 %
 * slower than the C one on this VM's EPYC.
 */
#define SHIM_INODE_ALIGN 64

/* Batch sizes of the C side (the shim is within 1 % of the native loop from 64 up). */
#define SHIM_BATCH_SIZES { 1, 8, 64, 256, 1024 }

/* shim_native.cc: the same bodies in a native C++ loop. */
void shim_native_register(void);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_SHIM_OVERHEAD_H */
