/* SPDX-License-Identifier: MIT */
/*
 * bench_seed.c - the run's seed (bench_seed.h), below main.c and every
 * family that reads it.
 */
#include "bench_seed.h"

#include <inttypes.h>
#include <stdio.h>

#include "bench.h"
#include "rng.h"

static uint64_t run_seed;

void bench_seed_init(void)
{
	char text[32];

	run_seed = rng_seed_from_env("y2038-bench");
	snprintf(text, sizeof(text), "%" PRIu64, run_seed);
	bench_add_context("y2038_seed", text);
}

uint64_t bench_seed(void)
{
	return run_seed;
}
