/* SPDX-License-Identifier: MIT */
/*
 * main.c - y2038-bench's main() (BENCH_MAIN) and what it registers.
 *
 * Per-layout families come from the generated bench_registry.c; the
 * layout-independent ones (the shim's own overhead, the fstime family, the
 * calibration loops) are listed here.  The seed of every random input is drawn first
 * (bench_seed.c), printed, and recorded in the JSON context, so that a run
 * can be replayed with Y2038_SEED.  The context also lists the layouts
 * compiled in, "y2038_layouts":
 * "<body>/<repr>,<body>/<repr>,..." in the order of layouts/layouts.def
 * (body-major), for the report scripts, and context.c adds each
 * representation's facts ("y2038_repr_<repr>").
 *
 * Placement per process: the link order places the timed code
 * (bench/CMakeLists.txt, cmake/placement.cmake), and main() moves the stack
 * every benchmark runs on down by a random 0 to 4080 bytes in 16-byte steps
 * (the variation a different environment size gives, Mytkowicz et al.,
 * ASPLOS 2009), drawn from the seed and the process id, so that two
 * processes of one link order still differ; "y2038_stack_offset" in the
 * JSON context says by how much.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench.h"
#include "bench_cpus.h"
#include "bench_seed.h"
#include "paired.h"
#include "rng.h"

void bench_register_layouts(void);
void shim_overhead_register(void);
void shim_native_register(void);
void fstime_register(void);
void calibrate_register(void);

static void bench_register_all(void)
{
	bench_add_context("y2038_layouts", Y2038_BENCH_LAYOUTS);
	bench_cpus_init();
	shim_overhead_register();
	shim_native_register();
	fstime_register();
	calibrate_register();
	bench_register_layouts();
	paired_register_accessor(); /* after every layout handed its ops over */
}

int main(int argc, char **argv)
{
	struct rng rng = { .state = (bench_seed_init(), bench_seed()) ^ (uint64_t)getpid() };
	size_t offset = 16 * (size_t)rng_below(&rng, 256);
	char text[32], *pad;

	snprintf(text, sizeof(text), "%zu", offset);
	bench_add_context("y2038_stack_offset", text);
	pad = __builtin_alloca(offset + 16); /* live until bench_main() returns */
	bench_escape(pad);
	return bench_main(argc, argv, bench_register_all);
}
