/* SPDX-License-Identifier: MIT */
/*
 * bench_seed.h - the run's seed, one for every family that draws random
 * inputs (accessor.c, walk.c, fstime.c), so that every layout sees the same
 * values and a run can be replayed: main() draws it once, before anything
 * registers (bench_seed_init: $Y2038_SEED or the clock, printed, and the
 * JSON context's "y2038_seed"); the families read it (bench_seed).
 */
#ifndef BENCH_BENCH_SEED_H
#define BENCH_BENCH_SEED_H

#include <stdint.h>

void bench_seed_init(void);
uint64_t bench_seed(void);

#endif /* BENCH_BENCH_SEED_H */
