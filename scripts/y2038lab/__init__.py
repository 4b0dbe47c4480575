"""y2038lab: the Python side of the y2038 inode timestamp lab.

One entry, `python3 -m y2038lab COMMAND` (__main__.py lists the commands;
scripts/lab calls it).  Subpackages by concern, each with its map in its
docstring; data flows down the list:

  core     what every other package shares: every file written atomically and every bad
           input reported in one line (fsio), Y2038_* variables, benchmark JSON records,
           size tables, Markdown tables, statistics, the fuzzing step
  layouts  pahole on the layout probes, the size and slab reports, the SLUB model
  bench    `lab bench` (the pass plan), the benchmark fragment, run checks, compare,
           the disassembly checks
  perf     cache and instruction counts per inode: perf stat, else callgrind
  cost     instruction counts under qemu-user, library calls, llvm-mca models
  churn    Coccinelle counts of the sites each approach changes in a kernel tree
  boards   bundles, board runs, imports, merges, LAVA
  report   the verdict (claims, evidence), plots, fragments, REPORT.md, README block
"""
