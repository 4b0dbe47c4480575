"""The steps of `scripts/lab report` after its measurements: every fragment of
REPORT.md, then REPORT.md itself and README's results block.

The lab has built the tools, written reports/layouts (pahole), reports/cost
(`lab cost`), DIR/bench-*.json (`lab bench`) and DIR/60-perf.md (`lab perf`);
reports/churn and reports/kernel are committed (`lab churn` takes minutes of spatch, `lab kernel`
a kernel build per representation and ABI).  Fragments,
in report order:

  00-resolution.md what this run's timings can resolve: per family, from the
                   paired controls (y2038lab.core.paired); README quotes it
  01-verdict.md    the verdict: one row per claim of report/claims.toml and
                   the short list README.md quotes (y2038lab.report.verdict); the same
                   as plain text in reports/VERDICT.txt
  02-plots.md      heatmaps, walks, sizes, threads (y2038lab.report.plots)
  05-summary.md    the headline table README.md quotes (y2038lab.bench.report)
  10, 20           fstime-selfcheck and fs-expiry output
  30-layouts.md    sizes and slab cost, quoted from reports/layouts
  35-kernel.md     the representations in a real Linux 6.12, quoted from reports/kernel/KERNEL.md
  50-cost.md       32-bit cost: counts, library calls, models, quoted from reports/cost/COST.md
  55-churn.md      churn, quoted from each reports/churn/<tree>.md
  (60-perf.md      cache misses per inode, written by `lab perf`)
  90-bench.md      the appendix: every benchmark table (y2038lab.bench.report)

The run's bench-<abi>.json go beside REPORT.md gzipped (scripts/lab compare
reads them so), replacing those of the previous report with it.

A source that is absent (no cost or churn report) gives a fragment that says
so, never an old figure; the verdict rows that need it say "not measured here".
"""
import argparse
import glob
import os
import platform
import sys

from y2038lab.report import assemble, evidence, fragment, plots, verdict
from y2038lab.bench import report as benchreport
from y2038lab.core import fsio, tables
from y2038lab.core.results import load_run

COST_SECTIONS = ("get_mtime / set_mtime at a glance", "Clamp and truncate", "Library calls",
                 "The hand measurement, checked", "Host validation")
CHURN_SECTIONS = ("Answers", "Against history")
KERNEL_SECTIONS = ("Headline", "Size of struct inode (bytes, the kernel's sizeof)",
                   "Slab memory per inode (bytes, the kernel's own slabs)", "Correctness on the real code",
                   "Timings in the kernel (UML on this host; the boot is the unit)")


def quoted(source, report_dir, title, command, level, wanted, absent):
    """A fragment quoting SOURCE's sections, or saying why there is none."""
    lines = [f"## {title}", ""]
    if not os.path.isfile(source):
        return "\n".join(lines + [f"Not measured here: {source} does not exist ({absent}).", ""])
    text = fsio.read_text(source, "report")
    generated = fragment.generated_line(text)
    lines += [f"Command: `{command}`; quoted from [{os.path.basename(source)}]"
              f"({os.path.relpath(source, report_dir)}), which has every row.", ""]
    lines += [generated, ""] if generated else []
    return "\n".join(lines + fragment.sections(source, text, level, wanted)).rstrip() + "\n"


def timing_caveat(jsons):
    """The verdict header's line on where the host timings come from: one run, this host, its load."""
    loads = []
    for j in jsons:
        line = next((x for x in (fsio.read_or_none(j + ".cmd") or "").splitlines()
                     if x.startswith("load average before the run: ")), None)
        if line:
            loads.append(f"{os.path.basename(j)[len('bench-'):-len('.json')]} {line.split(': ', 1)[1]}")
    return ("one run of scripts/lab bench on this host, whose CPUs and caches other guests may share, frequency not "
            "controlled" + (f"; load average before each ABI's run: {'; '.join(loads)}" if loads else ""))


def resolution_fragment(jsons):
    """'## Resolution of this run': the paired controls of each run, inside summary markers."""
    body = [line for j in jsons for line in tables.paired_summary(load_run(j))] or [
        "No paired benchmarks in this run's JSON: its timing comparisons have no stated resolution.", ""]
    return "\n".join(["## Resolution of this run", "", "<!-- summary -->", *body, "<!-- /summary -->", ""])


def run(args):
    r, tools = args.results, os.path.join(args.build, "tools")
    for old in ("40-bench.md", "45-plots.md"):  # an earlier layout of this folder's fragments
        if os.path.exists(os.path.join(r, old)):
            os.unlink(os.path.join(r, old))
    layouts = os.path.join(args.reports, "layouts")
    cost_csv = os.path.join(args.reports, "cost", "cost.csv")
    churn = os.path.join(args.reports, "churn")
    jsons = sorted(glob.glob(os.path.join(r, "bench-*.json")))
    if not jsons:
        raise fsio.InputError(f"{r}: no bench-*.json (scripts/lab bench did not complete)")
    skipped = sorted(glob.glob(os.path.join(r, "bench-*.skipped")))
    ns = argparse.Namespace
    fragment.command(ns(out=os.path.join(r, "10-selfcheck.md"), markdown=False,
                        title="Clamp and truncate: RFC versus mainline",
                        cmd=[os.path.join(tools, "fstime-selfcheck")]))
    fragment.command(ns(out=os.path.join(r, "20-fs-expiry.md"), markdown=True,
                        title="When each file system's timestamps run out", cmd=[os.path.join(tools, "fs-expiry")]))
    fragment.layouts(ns(sizes=os.path.join(layouts, "sizes.md"), slab=os.path.join(layouts, "slab.md"),
                        out=os.path.join(r, "30-layouts.md")))
    benchreport.main([a for j in jsons for a in ("--json", j)] + [a for s in skipped for a in ("--skipped", s)]
                     + ["--fragment", os.path.join(r, "90-bench.md"), "--summary", os.path.join(r, "05-summary.md"),
                        "--sizes", layouts, "--no-plots", "--command", "scripts/lab bench"])
    fsio.write_text(os.path.join(r, "00-resolution.md"), resolution_fragment(jsons))
    ev = verdict.gather(jsons, layouts, cost_csv if os.path.isfile(cost_csv) else None,
                        churn if os.path.isdir(churn) else None)
    head, _, rest = verdict.section(ev).partition("\n")   # README's short list inside summary markers
    fsio.write_text(os.path.join(r, "01-verdict.md"), f"{head}\n\n<!-- summary -->\n"
                    f"{verdict.summary_of(ev).rstrip()}\n<!-- /summary -->\n{rest}")
    facts = assemble.host_facts(args.build)
    fsio.write_text(os.path.join(args.reports, "VERDICT.txt"), verdict.text(ev, {
        "Machine": f"{facts['Host']}, {facts['CPU']}, {facts['Kernel']}", "Host timings": timing_caveat(jsons),
        "Commit": facts["Commit"],
        "Generated": f"{facts['Date (UTC)']} UTC by scripts/lab report"}))
    made = plots.render_all(ev.runs, r, layouts, prefix="plot-")
    fsio.write_text(os.path.join(r, "02-plots.md"), plots.fragment(made))
    out = os.path.join(args.reports, args.target)
    fsio.write_text(os.path.join(r, "50-cost.md"), quoted(
        os.path.join(args.reports, "cost", "COST.md"), out, "32-bit and embedded cost (counts and models, not timings)",
        "scripts/lab cost", "###", COST_SECTIONS, "scripts/lab cost writes it"))
    fsio.write_text(os.path.join(r, "35-kernel.md"), quoted(
        os.path.join(args.reports, "kernel", "KERNEL.md"), out, "In a real kernel: Linux 6.12 under KUnit",
        "scripts/lab kernel", "##", KERNEL_SECTIONS, "scripts/lab kernel writes it: builds take minutes a kernel"))
    trees = evidence.tree_files(churn, ".md")
    fsio.write_text(os.path.join(r, "55-churn.md"), "\n".join(quoted(  # the 2016 tree first, then today's
        tree, out, f"Churn: sites each approach changes in {os.path.basename(tree)[:-3]} (site counts)",
        "scripts/lab churn", "##", CHURN_SECTIONS, "scripts/lab churn writes it")
        for tree in trees or [os.path.join(churn, "<tree>.md")]))
    assemble.assemble(ns(results=r, build=args.build, out=out, target=args.target, elapsed=args.elapsed,
                         attach=jsons))
    assemble.readme(ns(report=os.path.join(out, "REPORT.md"), readme=args.readme))
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", required=True, help="results/<target>-<date> of this run")
    parser.add_argument("--build", required=True, help="the build the tools come from")
    parser.add_argument("--target", default=platform.machine())
    parser.add_argument("--elapsed", type=int, help="seconds scripts/lab report has run so far")
    parser.add_argument("--reports", default="reports")
    parser.add_argument("--readme", default="README.md")
    args = parser.parse_args(argv)
    return fsio.run_main(lambda: run(args))


if __name__ == "__main__":
    sys.exit(main())
