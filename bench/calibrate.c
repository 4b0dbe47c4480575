/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c - two loops whose cost in cycles is known, so that a run can
 * say what its times are in this host's cycles (x86_64 only; elsewhere
 * nothing is registered).
 *
 *   calibrate/add_chain  a chain of dependent register adds: an add waits
 *                        for the one before, one cycle each on every x86_64
 *                        core (the ALU's latency), so its time per add is
 *                        the host's time per cycle while it ran;
 *   calibrate/store_8b   independent 8-byte stores to two L1-resident cache
 *                        lines: its time per store over add_chain's time
 *                        per add is the cycles a store takes, the inverse
 *                        of the core's sustained store rate;
 *   calibrate/mulhi_chain  `mov %rdx, %rax; mul` chained through the high
 *                        half, and
 *   calibrate/imul_chain   `imul` (64 x 64 -> 64) chained: the two steps of
 *                        the division-free truncation's result chain
 *                        (fstime's timestamp_truncate_reciprocal(): the
 *                        quotient is the high half of tv_nsec times the
 *                        reciprocal, then a multiply by s_time_gran), whose
 *                        latencies in cycles bound how fast that chain can
 *                        be on this core.
 *
 * items_per_second counts adds, stores and multiplies (a mov and a mul one).  The loop counter runs beside
 * the asm block on other ALUs and never joins the add chain.  The report
 * (y2038lab.cost.validate) sets the core model's cycles against these: a
 * VM's reported clock (mhz_per_cpu) need not be the one the core runs at.
 * Both run in the headline pass, interleaved with the accessors they
 * calibrate.
 */
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

void calibrate_register(void); /* main.c calls it */

#if defined(__x86_64__)

#define CALIBRATE_BATCH 1024 /* asm blocks per batch */
#define CALIBRATE_OPS 16     /* adds or stores per asm block */

static void add_chain(struct bench_state *st, const void *arg)
{
	uint64_t x = 0;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile("add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
					 "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0"
					 : "+r"(x));
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
			__asm__ volatile("mov %1, 0(%0)\n\tmov %1, 8(%0)\n\tmov %1, 16(%0)\n\tmov %1, 24(%0)\n\t"
					 "mov %1, 32(%0)\n\tmov %1, 40(%0)\n\tmov %1, 48(%0)\n\tmov %1, 56(%0)\n\t"
					 "mov %1, 64(%0)\n\tmov %1, 72(%0)\n\tmov %1, 80(%0)\n\tmov %1, 88(%0)\n\t"
					 "mov %1, 96(%0)\n\tmov %1, 104(%0)\n\tmov %1, 112(%0)\n\tmov %1, 120(%0)"
					 : : "r"(lines), "r"(v) : "memory");
	bench_escape(lines);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

#define MULHI "mov %%rdx, %%rax\n\tmul %2\n\t"
#define IMUL "imul %1, %0\n\t"

static void mulhi_chain(struct bench_state *st, const void *arg)
{
	uint64_t hi = 1, lo = 0, m = 0x9e3779b97f4a7c15ULL;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile(MULHI MULHI MULHI MULHI MULHI MULHI MULHI MULHI
					 MULHI MULHI MULHI MULHI MULHI MULHI MULHI MULHI
					 : "+d"(hi), "=&a"(lo) : "r"(m));
	bench_do_not_optimize(hi);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

static void imul_chain(struct bench_state *st, const void *arg)
{
	uint64_t x = 3, m = 0x9e3779b97f4a7c15ULL;

	(void)arg;
	while (bench_keep_running_batch(st, CALIBRATE_BATCH))
		for (int i = CALIBRATE_BATCH; i > 0; i--)
			__asm__ volatile(IMUL IMUL IMUL IMUL IMUL IMUL IMUL IMUL
					 IMUL IMUL IMUL IMUL IMUL IMUL IMUL IMUL
					 : "+r"(x) : "r"(m));
	bench_do_not_optimize(x);
	bench_set_items_processed(st, bench_iterations_done(st) * CALIBRATE_OPS);
}

void calibrate_register(void)
{
	bench_register("calibrate/add_chain", add_chain, NULL);
	bench_register("calibrate/store_8b", store_8b, NULL);
	bench_register("calibrate/mulhi_chain", mulhi_chain, NULL);
	bench_register("calibrate/imul_chain", imul_chain, NULL);
}

#else

void calibrate_register(void)
{
}

#endif
