/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - loops whose cost in cycles is known or is itself the
 * question, so that a run can state its times in this host's cycles
 * (x86_64 only; elsewhere nothing is registered).
 *
 *   calibrate/add_chain   dependent register-to-register adds: an add waits
 *                         for the one before, one cycle each (the ALU's
 *                         latency; a register operand, because recent Intel
 *                         cores execute an add of a small immediate at
 *                         rename, with no latency), so its time per add is
 *                         the host's time per cycle while it ran;
 *   calibrate/store_8b    independent 8-byte stores to two L1-resident
 *                         cache lines: time per store over time per add is
 *                         the cycles a store takes, the inverse of the
 *                         core's sustained store rate;
 *   calibrate/truncate_mulhi_chain, calibrate/truncate_shift_chain
 *                         the result chain of a division-free truncation
 *                         of tv_nsec to s_time_gran (1 ms here), step after
 *                         step as fstime's latency loop chains its calls:
 *                         mulhi: the quotient as the high half of a 64 x 64
 *                         multiply by the reciprocal (`mov; mul`, the LP64
 *                         code of fstime's timestamp_truncate_reciprocal()),
 *                         shift: as the low half shifted right (`imul; shr`,
 *                         its ILP32 form), then either way `imul` by the
 *                         granularity and the `add` of the loop's step.
 *                         Without the call, the loads and the branches
 *                         around it, the chain alone: the fewest cycles a
 *                         call of that code can take in that loop.  x86
 *                         integer multiplies take the same time whatever
 *                         their operands.
 *
 * Each asm block does CALIBRATE_OPS items (adds, stores or chain steps);
 * items_per_second counts them.  The loop counter runs beside the block on
 * other ALUs and never joins a chain.  They run in the headline pass,
 * interleaved with the accessor and fstime benchmarks whose times
 * y2038lab.core.calibrate turns into cycles (a VM's reported clock,
 * mhz_per_cpu, need not be the one its core runs at).
 */
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

void calibrate_register(void); /* main.c calls it */

#if defined(__x86_64__)

#define CALIBRATE_BATCH 1024 /* asm blocks per batch */
#define CALIBRATE_OPS 16     /* items per asm block */
#define X16(s) s s s s s s s s s s s s s s s s

/* The granularity of the chains, and its reciprocals (fs_time.c's sb_set_time_gran()). */
#define CALIBRATE_GRAN 1000000ULL
#define CALIBRATE_MULHI_RECIPROCAL (UINT64_MAX / CALIBRATE_GRAN + 1)            /* ceil(2^64 / gran) */
#define CALIBRATE_SHIFT 51                                                       /* 31 + ceil(log2(gran)) */
#define CALIBRATE_SHIFT_RECIPROCAL (((1ULL << 51) + CALIBRATE_GRAN - 1) / CALIBRATE_GRAN)

static void add_chain(struct bench_state *st, const void *arg)
{
	uint64_t x = 0, one = 1;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile(X16("add %[one], %[x]\n\t") : [x] "+r"(x) : [one] "r"(one));
	bench_do_not_optimize(x);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

static void store_8b(struct bench_state *st, const void *arg)
{
	_Alignas(128) uint64_t lines[16];
	uint64_t v = 0;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile("mov %[v], 0(%[p])\n\tmov %[v], 8(%[p])\n\t"
					 "mov %[v], 16(%[p])\n\tmov %[v], 24(%[p])\n\t"
					 "mov %[v], 32(%[p])\n\tmov %[v], 40(%[p])\n\t"
					 "mov %[v], 48(%[p])\n\tmov %[v], 56(%[p])\n\t"
					 "mov %[v], 64(%[p])\n\tmov %[v], 72(%[p])\n\t"
					 "mov %[v], 80(%[p])\n\tmov %[v], 88(%[p])\n\t"
					 "mov %[v], 96(%[p])\n\tmov %[v], 104(%[p])\n\t"
					 "mov %[v], 112(%[p])\n\tmov %[v], 120(%[p])"
					 : : [p] "r"(lines), [v] "r"(v) : "memory");
	bench_escape(lines);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

/* One step: nsec in rdx; rdx = (hi(nsec * m)) * gran + step. */
#define MULHI_STEP "mov %%rdx, %%rax\n\tmul %[m]\n\timul %[g], %%rdx\n\tadd %[s], %%rdx\n\t"

static void truncate_mulhi_chain(struct bench_state *st, const void *arg)
{
	uint64_t nsec = 123456789, scratch, m = CALIBRATE_MULHI_RECIPROCAL, g = CALIBRATE_GRAN, s = 456789;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile(X16(MULHI_STEP)
					 : "+d"(nsec), "=&a"(scratch)
					 : [m] "r"(m), [g] "r"(g), [s] "r"(s)
					 : "cc");
	bench_do_not_optimize(nsec);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

/* One step: nsec in x; x = ((x * m) >> shift) * gran + step, the multiply by gran in 32 bits. */
#define SHIFT_STEP "imul %[m], %[x]\n\tshr $51, %[x]\n\timul %k[g], %k[x]\n\tadd %k[s], %k[x]\n\t"

static void truncate_shift_chain(struct bench_state *st, const void *arg)
{
	uint64_t nsec = 123456789, m = CALIBRATE_SHIFT_RECIPROCAL, g = CALIBRATE_GRAN, s = 456789;

	(void)arg;
	_Static_assert(CALIBRATE_SHIFT == 51, "SHIFT_STEP's shr");
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile(X16(SHIFT_STEP)
					 : [x] "+r"(nsec)
					 : [m] "r"(m), [g] "r"(g), [s] "r"(s)
					 : "cc");
	bench_do_not_optimize(nsec);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

void calibrate_register(void)
{
	bench_register("calibrate/add_chain", add_chain, NULL);
	bench_register("calibrate/store_8b", store_8b, NULL);
	bench_register("calibrate/truncate_mulhi_chain", truncate_mulhi_chain, NULL);
	bench_register("calibrate/truncate_shift_chain", truncate_shift_chain, NULL);
}

#else

void calibrate_register(void)
{
}

#endif
