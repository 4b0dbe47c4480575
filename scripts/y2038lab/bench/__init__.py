"""y2038lab.bench: y2038-bench runs and what is read from them.

  run      `lab bench`: the pass plan, CPU probes, staging; replaces results only when complete
  report   the benchmark appendix of REPORT.md and README's summary (`bench-report`)
  checks   how a run went: CPU speed changes, the two-thread ceiling, layout twins
  interleave  two builds' paired passes in one run (before and after a protocol change)
  compare  `lab compare`: Google Benchmark's compare.py beside the project's statistics
  disasm   the compiled benchmark objects: twins compile alike, no FP/SIMD register (CTests)
"""
