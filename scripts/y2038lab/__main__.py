"""`python3 -m y2038lab COMMAND [ARG...]`: the one entry to the package (scripts/lab calls it).

Each command is one module's command line, run as that module's __main__ with
sys.argv[0] "y2038lab COMMAND": the name its help and messages give (fsio.prog).
"""
import runpy
import sys

COMMANDS = {
    "envvars": ("core.envvars", "check the Y2038_* environment variables"),
    "fuzz": ("core.fuzz", "`lab test`'s fuzzing step"),
    "layouts": ("layouts.report", "pahole reference set, size tables, slab model, BTF comparison"),
    "kernel-check": ("layouts.kernel", "the replicas against a real kernel tree's struct inode, per ABI"),
    "kernel": ("kernel.run", "each representation in a real Linux 6.12: UML and qemu-system, KUnit"),
    "slub-model": ("layouts.slub_model", "objects per slab for a size; --validate against /proc/slabinfo"),
    "bench": ("bench.run", "`lab bench`: y2038-bench by the pass plan, replaced only when done"),
    "bench-report": ("bench.report", "the benchmark fragment and README summary from y2038-bench JSON"),
    "interleave": ("bench.interleave", "two builds' paired passes in one run, processes interleaved"),
    "compare": ("bench.compare", "two runs or two representations: compare.py, intervals, tests"),
    "disasm": ("bench.disasm", "the compiled benchmark loops checked (twins, no FP)"),
    "perf": ("perf.report", "cache and instruction counts per inode: perf stat, else callgrind"),
    "cachegeo": ("perf.cachegeo", "the named cache geometries and their valgrind options"),
    "cost": ("cost.run", "instruction counts, library calls, llvm-mca models per ABI"),
    "churn": ("churn.run", "sites each approach changes in a kernel tree (Coccinelle)"),
    "boards": ("boards.cli", "bundles, board runs, imports, merges, LAVA"),
    "report": ("report.run", "`lab report`'s fragments, REPORT.md and README's results block"),
    "assemble": ("report.assemble", "REPORT.md from fragments; README's results block"),
    "fragment": ("report.fragment", "a report fragment quoting a command or the layouts tables"),
    "plots": ("report.plots", "the report's PNG plots"),
    "verdict": ("report.verdict", "the verdict section"),
}


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        out = sys.stdout if len(sys.argv) >= 2 else sys.stderr
        print("usage: python3 -m y2038lab COMMAND [ARG...]\n", file=out)
        for name, (_, what) in COMMANDS.items():
            print(f"  {name:13} {what}", file=out)
        return 0 if len(sys.argv) >= 2 else 2
    name = sys.argv[1]
    if name not in COMMANDS:
        print(f"y2038lab: unknown command '{name}' (python3 -m y2038lab --help)", file=sys.stderr)
        return 2
    sys.argv = [f"y2038lab {name}"] + sys.argv[2:]
    # Without alter_sys, argv[0] stays "y2038lab NAME" (the name every message gives), and
    # sys.modules["__main__"] stays this module: a command must not pickle its own classes.
    runpy.run_module(f"y2038lab.{COMMANDS[name][0]}", run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
