"""y2038lab.boards: target boards: bundles, board runs, imported and merged reports, LAVA.

  abi          The target ABIs a board bundle is made for, and checks of what was built.
  bundle       A board bundle: one tarball that runs the suite on a board of one ABI.
  cli          Target boards: bundles, board runs, imported reports, merged reports, LAVA.
  gbench       Google Benchmark for a target ABI, built from Debian's own source package.
  importer     `scripts/lab import RESULTS.tar.gz`: a board's REPORT.md from its own facts.
  lava         The board farm: LAVA job and test definitions, and LAVA results back.
  merge        `scripts/lab merge FILE...`: one report across result sets (host and boards).
  results      Reading one results tarball of boards/run.sh: the board's facts and its JSON.
  run          `scripts/lab board-run`: a bundle on a board over ssh, or in place; the CI smo
"""
