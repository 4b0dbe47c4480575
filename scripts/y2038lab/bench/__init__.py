"""y2038lab.bench: y2038-bench runs and their tables, checks and comparisons.

  checks       Checks on how a benchmark run went, from what `scripts/lab bench` recorded.
  compare      `scripts/lab compare`: Google Benchmark's compare.py, plus the project's verdi
  disasm       Instructions of the compiled benchmark objects, compared and checked.
  report       The benchmark fragment of REPORT.md (and the README summary) from y2038-bench 
  run          `scripts/lab bench`: run y2038-bench by the plan below, replace the previous r
"""
