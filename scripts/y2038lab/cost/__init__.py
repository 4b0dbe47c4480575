"""y2038lab.cost: 32-bit and embedded cost without boards: counts, library calls, core models.

  mca          Core models: llvm-mca on the harness's inner loops, per ABI and CPU.
  objdump      What the compiled objects say: library calls (objdump -dr), code bytes (nm -S)
  report       reports/cost/cost.csv and COST.md from cost.py's rows (rendering only).
  run          32-bit and embedded cost without boards: instruction counts, library calls,
  trace        Dynamic instruction counts of the counting harness under qemu-user.
  validate     The host validation row: llvm-mca's model of this host's core against the
"""
