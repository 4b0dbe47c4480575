/* SPDX-License-Identifier: MIT */
/*
 * test_rng.h - seeded pseudo-random inputs for property tests.
 *
 * splitmix64: tiny, fast, full-period, and the same sequence on every ABI.
 * The seed comes from $Y2038_SEED when set (to replay a failure), otherwise
 * from the clock; either way the test prints it first.
 */
#ifndef Y2038_TESTS_RNG_H
#define Y2038_TESTS_RNG_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct test_rng {
	uint64_t state;
};

static inline uint64_t test_rng_next(struct test_rng *rng)
{
	uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, bound), bound > 0; the modulo bias is irrelevant here. */
static inline uint64_t test_rng_below(struct test_rng *rng, uint64_t bound)
{
	return test_rng_next(rng) % bound;
}

static inline uint64_t test_seed_from_env(const char *suite)
{
	const char *env = getenv("Y2038_SEED");
	uint64_t seed;

	if (env && *env) {
		char *end;

		seed = strtoull(env, &end, 0);
		if (*end) {
			fprintf(stderr, "%s: Y2038_SEED=\"%s\" is not a number\n", suite, env);
			exit(2);
		}
	} else {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		seed = (uint64_t)now.tv_sec * 1000000007u ^ (uint64_t)now.tv_nsec;
	}
	/* stderr: stdout may be a machine-readable stream (y2038-bench --benchmark_format=json). */
	fprintf(stderr, "%s: seed %" PRIu64 " (replay with Y2038_SEED=%" PRIu64 ")\n", suite, seed, seed);
	return seed;
}

/* How many random inputs a property test draws: $Y2038_PROPERTY_INPUTS or @fallback. */
static inline unsigned long test_property_inputs(const char *suite, unsigned long fallback)
{
	const char *env = getenv("Y2038_PROPERTY_INPUTS");
	unsigned long n = fallback;

	if (env && *env) {
		char *end;

		n = strtoul(env, &end, 0);
		if (*end || n == 0) {
			fprintf(stderr, "%s: Y2038_PROPERTY_INPUTS=\"%s\" is not a positive number\n",
				suite, env);
			exit(2);
		}
	}
	printf("%s: %lu random inputs\n", suite, n);
	return n;
}

#endif /* Y2038_TESTS_RNG_H */
