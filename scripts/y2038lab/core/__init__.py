"""y2038lab.core: shared by every package: files, inputs, records, tables, statistics.

  envvars      The lab's environment variables, checked before anything runs or is replaced.
  fsio         Atomic file output and one-line input errors, shared by every script.
  fuzz         `scripts/lab test`'s fuzzing step: every libFuzzer target for Y2038_FUZZ_SECON
  paired       Paired measurements (paired/* benchmarks): ratios, controls, resolution.
  results      y2038-bench results: Google Benchmark JSON parsed once into records.
  sizes        The size tables `scripts/lab pahole` writes (reports/layouts/sizes-<abi>.csv),
  stats        When is a difference between two layouts a layout effect?  The statistics.
  tables       Markdown tables of one y2038-bench run (y2038lab.results.Run), and the README 
"""
