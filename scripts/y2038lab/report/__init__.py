"""y2038lab.report: REPORT.md: the verdict, its evidence, plots and fragments; README block.

  assemble     REPORT.md of one target from the fragments the lab's steps wrote, and README's
  claims       The claims as data (claims.toml: quote, source, layouts, evidence, rule, words) and
               the rules that turn bytes, instruction counts, sites and tests into rulings
  claims_code  The rules about code at run time: paired host timings, the queried-ctime path, torn reads
  evidence     Readers for the non-timing evidence the verdict weighs: bytes, slabs, costs, c
  fragment     Report fragments that quote a command or another report (written atomically).
  plots        Plots for REPORT.md: what a person would rather look at than read.
  run          The steps of `scripts/lab report` after its measurements: every fragment of
  verdict      The verdict: REPORT.md's section, README's list, reports/VERDICT.txt, --check.
"""
