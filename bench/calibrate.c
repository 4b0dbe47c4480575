/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - two loops whose cost in cycles is known, so that a run can
 * state its times in this host's cycles (x86_64 only; elsewhere nothing is
 * registered).
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
 *                         core's sustained store rate.
 *
 * Each asm block does CALIBRATE_OPS items (adds or stores);
 * items_per_second counts them.  The loop counter runs beside the block on
 * other ALUs and never joins the chain.  They run in the headline pass,
 * interleaved with the accessor benchmarks whose times
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

void calibrate_register(void)
{
	bench_register("calibrate/add_chain", add_chain, NULL);
	bench_register("calibrate/store_8b", store_8b, NULL);
}

#else

void calibrate_register(void)
{
}

#endif
