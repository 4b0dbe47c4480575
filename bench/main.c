/* SPDX-License-Identifier: MIT */
/*
 * main.c - y2038-bench's main() (BENCH_MAIN) and what it registers.
 *
 * Per-layout families come from the generated bench_registry.c; the
 * layout-independent ones (the shim's own overhead, the fstime family) are
 * listed here.  The seed of every random input is drawn first
 * (bench_seed.c), printed, and recorded in the JSON context, so that a run
 * can be replayed with Y2038_SEED.  The context also lists the layouts
 * compiled in, "y2038_layouts":
 * "<body>/<repr>,<body>/<repr>,..." in the order of layouts/layouts.def
 * (body-major), for the report scripts, and context.c adds each
 * representation's facts ("y2038_repr_<repr>").
 */
#include "bench.h"
#include "bench_cpus.h"
#include "bench_seed.h"
#include "paired.h"

void bench_register_layouts(void);
void shim_overhead_register(void);
void shim_native_register(void);
void fstime_register(void);

static void bench_register_all(void)
{
	bench_seed_init();
	bench_add_context("y2038_layouts", Y2038_BENCH_LAYOUTS);
	bench_cpus_init();
	shim_overhead_register();
	shim_native_register();
	fstime_register();
	bench_register_layouts();
	paired_register_accessor(); /* after every layout handed its ops over */
}

BENCH_MAIN(bench_register_all)
