/* SPDX-License-Identifier: MIT */
/*
 * rng.h - seeded pseudo-random inputs, for the property tests and the
 * benchmarks' generated inputs.
 *
 * splitmix64: tiny, fast, full-period, and the same sequence on every ABI.
 * The seed comes from $Y2038_SEED when set (to replay a run), otherwise from
 * the clock; either way it is printed first, on stderr (stdout may be a
 * machine-readable stream: y2038-bench --benchmark_format=json).
 */
#ifndef SUPPORT_RNG_H
#define SUPPORT_RNG_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "env.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rng {
	uint64_t state;
};

static inline uint64_t rng_next(struct rng *rng)
{
	uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound > 0; the modulo bias is irrelevant here. */
static inline uint64_t rng_below(struct rng *rng, uint64_t bound)
{
	return rng_next(rng) % bound;
}

/**
 * rng_seed_from_env - the run's seed: $Y2038_SEED (any 64-bit number, see
 * env.h; a bad value exits 2) or, unset, one drawn from the clock.  Prints
 * "<program>: seed N (replay with Y2038_SEED=N)" on stderr.
 */
static inline uint64_t rng_seed_from_env(const char *program)
{
	struct timespec now;
	uint64_t seed;

	clock_gettime(CLOCK_REALTIME, &now);
	seed = (uint64_t)now.tv_sec * 1000000007u ^ (uint64_t)now.tv_nsec;
	seed = env_u64(program, "Y2038_SEED", 0, UINT64_MAX, seed);
	fprintf(stderr, "%s: seed %" PRIu64 " (replay with Y2038_SEED=%" PRIu64 ")\n", program, seed,
		seed);
	return seed;
}

#ifdef __cplusplus
}
#endif

#endif /* SUPPORT_RNG_H */
