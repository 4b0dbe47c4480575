"""y2038lab.boards: the suite on target boards (`lab bundle / board-run / import / merge`).

  cli       the command line of every boards command
  bundle    one static tarball per ABI: programs (y2038-bench in its twenty link orders), tests, run.sh,
            plan.txt (bench.run.PLAN) (gbench builds its libbenchmark)
  gbench    Google Benchmark for a target ABI, from Debian's source package
  elf       checks that what was built is a static executable of the bundle's ABI
  run       a bundle on a board over ssh, in place, or under qemu-user (the CI smoke)
  results   one results tarball of run.sh: the board's facts and its processes' JSON, merged
  importer  reports/<abi>-<board>/REPORT.md from a results tarball, the resolution block first
  merge     one report across result sets (host and boards)
  lava      LAVA job and test definitions, and LAVA results back
"""
