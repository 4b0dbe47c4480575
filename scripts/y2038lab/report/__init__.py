"""y2038lab.report: REPORT.md: the verdict, its evidence, plots and fragments; README block.

  assemble     REPORT.md of one target from the fragments the lab's steps wrote, and README's
  claims       One function per claim of the 2016 y2038 inode debate: evidence in, a Ruling o
  claims_code  The debate's claims about code rather than bytes: clamping, torn reads,
  evidence     Readers for the non-timing evidence the verdict weighs: bytes, slabs, costs, c
  fragment     Report fragments that quote a command or another report (written atomically).
  plots        Plots for REPORT.md: what a person would rather look at than read.
  run          The steps of `scripts/lab report` after its measurements: every fragment of
  verdict      The Verdict section: one row per claim of the 2016 y2038 inode debate.
"""
