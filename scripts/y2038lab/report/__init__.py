"""y2038lab.report: REPORT.md and README's results block (`lab report`).

  run          the command: every fragment NN-name.md of the run, then REPORT.md and README
  verdict      the Verdict section and VERDICT.txt, from the claims and the evidence
  claims       the debate's claims as data (claims.toml) and the rules over bytes, counts, sites
  runtime      the rules over code at run time (timings, torn reads, multigrain)
  outcome      what every rule returns (Outcome, NOT_MEASURABLE): below claims and runtime
  evidence     the readers of the non-timing evidence (sizes, cost, churn, kernel check)
  plots        the PNG plots
  fragment     fragments quoting a command's output or another report
  assemble     REPORT.md from the fragments, README's block from REPORT.md
"""
