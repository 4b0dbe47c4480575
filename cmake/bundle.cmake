# bundle.cmake - a board bundle's build: y2038-bench, the tools and the tests
# linked fully static against a Google Benchmark built for the target ABI.
#
# Included at the first project() call of a cross build, after its toolchain
# file (scripts/lab bundle does this; y2038lab/boards_bundle.py):
#
#   cmake --preset armhf -B build/bundle-armhf \
#     -DCMAKE_PROJECT_TOP_LEVEL_INCLUDES=cmake/bundle.cmake \
#     -DY2038_BENCH_GBENCH_PREFIX=build/gbench/armhf
#
# Y2038_BENCH_GBENCH_PREFIX is the install prefix of that Google Benchmark
# (lib/libbenchmark.a, lib/cmake/benchmark).  Every executable is linked
# with -static: a board then needs no C library, C++ library or
# libbenchmark of its own (glibc's static libc, libstdc++.a, libbenchmark.a
# and libgcc are inside each binary), and runs on glibc, musl or busybox
# systems alike.
if(NOT Y2038_BENCH_GBENCH_PREFIX)
  message(FATAL_ERROR "cmake/bundle.cmake: set -DY2038_BENCH_GBENCH_PREFIX=<install prefix of the "
    "target ABI's Google Benchmark> (scripts/lab bundle builds one into build/gbench/<abi>)")
endif()
get_filename_component(Y2038_BENCH_GBENCH_PREFIX "${Y2038_BENCH_GBENCH_PREFIX}" ABSOLUTE
  BASE_DIR "${CMAKE_SOURCE_DIR}")
if(NOT EXISTS "${Y2038_BENCH_GBENCH_PREFIX}/lib/cmake/benchmark/benchmarkConfig.cmake")
  message(FATAL_ERROR "cmake/bundle.cmake: no Google Benchmark installed under "
    "${Y2038_BENCH_GBENCH_PREFIX} (lib/cmake/benchmark/benchmarkConfig.cmake missing)")
endif()
# The toolchain files search the cross root only: point find_package at this
# prefix directly.
set(benchmark_DIR "${Y2038_BENCH_GBENCH_PREFIX}/lib/cmake/benchmark" CACHE PATH
  "Google Benchmark of the bundle's ABI" FORCE)
set(Y2038_BUILD_BENCH ON CACHE BOOL "" FORCE)
add_link_options(-static)
