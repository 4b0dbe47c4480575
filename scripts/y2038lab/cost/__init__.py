"""y2038lab.cost: 32-bit and embedded cost without boards (`lab cost` -> reports/cost/).

  run       the command: every ABI variant's harness counted and modelled, then written (report)
  trace     dynamic instruction counts under qemu-user (-d exec), per row of the harness
  code      library calls, code bytes, inner loops, read from the real objects (core.objdump)
  mca       llvm-mca on those loops, per ABI and CPU (a model's cycles, not a timing)
  validate  the model against this host's measured accessor times
  report    cost.csv (its columns, CSV_COLUMNS) and COST.md
"""
