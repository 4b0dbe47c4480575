"""The benchmark fragment of REPORT.md (and the README summary) from y2038-bench JSON.

One section per JSON file, labelled by the ABI its context records
(y2038_abi): the run's facts (command, host, CPUs, seed, run checks), the
accessor and walk overviews (a matrix per body), the paired comparisons with
the run's resolution and controls (y2038lab.core.paired), a table per family and
operation, the shim overhead, the load scaling, the errored benchmarks and the
plots.  Every input is read and checked first (y2038lab.core.results,
y2038lab.core.sizes); the fragment, the summary and the plots are then written as
one set (fsio.OutputSet): all of them or none.
"""
import argparse
import os
import re
import sys

from y2038lab.core import abis, fsio, markdown, sizes, tables
from y2038lab.report import plots
from y2038lab.bench import checks
from y2038lab.core.results import load_run


def warn(message):
    print(f"{fsio.prog()}: warning: {message}", file=sys.stderr)


def context_lines(run):
    c, cmd = run.context, run.path + ".cmd"   # the command record beside the JSON (bench.run)
    lines = fsio.read_text(cmd, "command record").strip().splitlines() if os.path.exists(cmd) else []
    command, *notes = lines or ["not recorded"]
    load = c.get("load_avg", [])
    load_text = " ".join(f"{x:.2f}" for x in load if isinstance(x, (int, float))) if isinstance(load, list) else "?"
    facts = [("command", f"`{command}`"), ("file", f"`{os.path.basename(run.path)}`"),
             ("date", c.get("date", "?")), ("host", c.get("host_name", "?")),
             ("CPUs", f"{c.get('num_cpus', '?')} x {c.get('mhz_per_cpu', '?')} MHz, "
                      f"scaling {'on' if c.get('cpu_scaling_enabled') else 'off'}, load average {load_text}"),
             ("mode", c.get("y2038_mode", "?")), ("C compiler", c.get("y2038_c_compiler", "?")),
             ("C flags", f"`{str(c.get('y2038_c_flags', '?')).strip()}`"),
             ("libbenchmark", f"library_build_type {c.get('library_build_type', '?')}"),
             ("seed", c.get("y2038_seed", "?"))] + [("run", note) for note in notes]
    warning = checks.speed_change(c)
    if warning:
        facts.append(("warning", warning))
        warn(f"{run.path}: {warning}")
    return markdown.facts(facts)


def section(run):
    out = [f"### Benchmarks on {run.abi}", "",
           f"ABI as recorded in the JSON context (y2038_abi = {run.abi}).", ""]
    out += context_lines(run)
    families = run.families()
    for family in ("accessor", "walk"):
        if family in families:
            out += tables.overview(run, family)
    out += tables.paired_tables(run)
    for family in families:
        if family == "shim":
            out += tables.shim_table(run)
        elif family != "paired":
            out += tables.layout_tables(run, family) + tables.other_tables(run, family)
            out += tables.load_scaling(run, checks.scaling_ceiling) if family == "load" else []
    if run.errors:
        out += ["Benchmarks that reported an error (no figure):", ""]
        out += [f"- `{name}`: {message or 'no message'}" for name, message in run.errors] + [""]
    return out


def skipped_section(path):
    """'### Benchmarks on ABI: not run' from a bench-<abi>.skipped note."""
    abi = re.sub(r"^bench-(.*)\.skipped\Z", r"\1", os.path.basename(path))
    text = fsio.read_text(path, "skip note").strip()
    if not text:
        raise fsio.InputError(f"{path}: empty skip note, expected why the ABI was not run")
    return [f"### Benchmarks on {abi}", "", f"Not run: {text}", ""]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="append", required=True, help="y2038-bench JSON (repeatable)")
    parser.add_argument("--fragment", required=True, help="Markdown fragment to write")
    parser.add_argument("--plots-dir", help="where PNGs go (default: next to the fragment)")
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--summary", help="also write the README summary fragment here")
    parser.add_argument("--sizes", help="reports/layouts: sizeof in the summary, layout twins in the overviews")
    parser.add_argument("--skipped", action="append", default=[], help="bench-<abi>.skipped note (repeatable)")
    parser.add_argument("--command", default="scripts/lab bench",
                        help="the command that produced the JSON, named in the fragment")
    args = parser.parse_args(argv)
    for path in filter(None, (args.fragment, args.summary)):
        fsio.check_output_path(path)
    plots_dir = None if args.no_plots else (args.plots_dir or os.path.dirname(args.fragment) or ".")
    if plots_dir and not os.path.isdir(plots_dir):
        raise fsio.InputError(f"{plots_dir}: plots folder does not exist")
    runs = [load_run(path) for path in args.json]
    size_tables = {}
    if args.sizes:
        for abi in dict.fromkeys([r.abi for r in runs] + list(abis.SUMMARY)):
            size_tables[abi] = sizes.load(args.sizes, abi)
            if size_tables[abi] is None:
                warn(f"{sizes.path_of(args.sizes, abi)}: no size table; left out")
    skipped = [skipped_section(path) for path in args.skipped]
    lines = ["## Appendix: every benchmark", "",
             f"Command: `{args.command}` (Google Benchmark JSON), tables and plots by "
             f"`python3 -m y2038lab bench-report`. Each section is one JSON file; its table names the run's "
             "command, host and date.", ""]
    with fsio.OutputSet() as out:
        for run in runs:
            lines += section(run)
            if plots_dir:
                lines += [line + "\n" for line in plots.write_plots(run, plots_dir, out)]
        lines += [line for part in skipped for line in part]
        if args.summary:
            out.write_text(args.summary, "\n".join(tables.summary(size_tables, args.sizes, runs)))
        out.write_text(args.fragment, "\n".join(lines).rstrip() + "\n")
    print(f"{fsio.prog()}: wrote {args.fragment} from {len(runs)} JSON file(s)")
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
