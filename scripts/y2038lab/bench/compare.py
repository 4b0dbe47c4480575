"""`scripts/lab compare`: Google Benchmark's compare.py, plus the project's verdict beside it.

    A.json B.json            two runs (two boards, or before/after a change): compare.py's
                             `benchmarks` mode, then per benchmark B/A with its 95 % interval,
                             the U test and the verdict: a change counts only when significant
                             and beyond both runs' twin control (the reference against its twin
                             in the same operation): a rebuild moves code as much as that
    --repr BASE OTHER RUN    two representations in one run: compare.py's `filters` mode with
                             anchored regexes (the representation as a whole name component),
                             then stats.findings()' layout verdict per operation, then the
                             paired benchmarks of the two (y2038lab.core.paired: BASE~OTHER)

compare.py (libbenchmark-tools, /usr/share/benchmark/compare.py) is run as
it is and its output shown unchanged, so its users see the tool they know;
it prints times as whole numbers of the unit, so sub-nanosecond figures
show as 0 or 1 there: the table below it has them exactly.  --filter keeps
the benchmarks whose name matches REGEX (re.search, as --benchmark_filter).
"""
import argparse
import json
import os
import re
import sys
import tempfile

from y2038lab.core import abis, fsio, markdown, reprs, results, stats

GBENCH_COMPARE = os.environ.get("Y2038_GBENCH_COMPARE", "/usr/share/benchmark/compare.py")


def repr_regex(repr_name):
    """A regex matching REPR as a whole name component: timespec never matches timespec64."""
    return f"(?<=/){re.escape(repr_name)}(?=/|_|$)"


def _filtered(path, pattern, folder):
    """PATH itself, or a plain-JSON scratch copy for compare.py: gunzipped (a
    committed reference run) and with only the benchmarks matching PATTERN."""
    if not pattern and not path.endswith(".gz"):
        return path
    data = json.loads(fsio.read_text(path, "JSON file"))
    if pattern:
        data["benchmarks"] = [b for b in data["benchmarks"]
                              if pattern.search(b.get("run_name", b.get("name", "")))]
        if not data["benchmarks"]:
            raise fsio.InputError(f"{path}: no benchmark matches --filter {pattern.pattern!r}")
    out = os.path.join(folder, f"{len(os.listdir(folder))}-{os.path.basename(path).removesuffix('.gz')}")
    fsio.write_text(out, json.dumps(data))   # a scratch copy for compare.py, deleted after
    return out


def run_gbench(mode_args, has_aggregates, names=None):
    """compare.py's output lines (scratch copies renamed by NAMES); InputError if it fails."""
    if not os.path.isfile(GBENCH_COMPARE):
        raise fsio.InputError(f"{GBENCH_COMPARE}: Google Benchmark's compare.py not found "
                              "(Debian package libbenchmark-tools)")
    text = fsio.run([sys.executable, GBENCH_COMPARE, "--no-color", *["-a"] * has_aggregates, *mode_args])
    text = text.rstrip("\n")
    for scratch, name in (names or {}).items():
        text = text.replace(scratch, name)
    return text.splitlines()


def _row(name, finding, band, flags):
    c = finding.comparison
    return [name, f"{c.median_base:.4g}", f"{c.median_contender:.4g}", f"{c.ratio:.3f}",
            "n/a" if c.low is None else f"{c.low:.3f}-{c.high:.3f}", stats.p_text(c.p),
            f"{c.n_base}+{c.n_contender}", "none" if band is None else f"{1 / band:.3f}-{band:.3f}",
            f"{finding.status} ({finding.reason.split(' (')[0]})", flags]


def _flags(*records):
    return ", ".join(f"{d.disturbed}/{d.repetitions} x{d.worst:.2f}" for d in map(stats.disturbance, records)
                     if d and d.disturbed)


def runs_table(a, b, pattern, measure):
    """The table rows per benchmark in both runs: B against A, judged against both runs' twin bands."""
    groups, rows = (stats.by_layout(a), stats.by_layout(b)), []
    for name, ra in a.records.items():
        rb = b.records.get(name)
        if rb is None or (pattern and not pattern.search(name)) or not ra.real_ns or not rb.real_ns:
            continue
        bands = [stats.twin_band(run, stats.layout_key(ra), g, measure)[0] if ra.repr else None
                 for run, g in zip((a, b), groups)]
        band = None if None in bands else max(bands)
        finding = stats.judge(stats.compare_records(ra, rb, measure), band,
                              controlled=bool(ra.repr) and {a.abi, b.abi} <= set(abis.LP64),
                              effect="changed")
        rows.append(_row(name, finding, band, _flags(ra, rb)))
    return rows


def repr_table(run, base, other, pattern, measure):
    """The table rows per operation of RUN: OTHER against BASE, with the layout verdict."""
    rows, groups = [], stats.by_layout(run)
    found = stats.findings(run, base_repr=base, measure=measure)
    for key, cells in sorted(found.items(), key=lambda kv: str(kv[0])):
        finding = cells.get(other)
        rec = groups[key].get(other)
        if finding is None or (pattern and not pattern.search(rec.name)):
            continue
        band, _ = stats.twin_band(run, key, groups, measure)
        rows.append(_row(rec.name.replace(f"/{other}", "/{" + f"{base} vs {other}" + "}", 1),
                         finding, band, _flags(groups[key][base], rec)))
    return rows


def paired_lines(run, base, other, pattern):
    """The paired/*/BASE~OTHER benchmarks of RUN: B/A, interval, signed-rank test, ruling."""
    from y2038lab.core import paired
    found = [[c.name.replace('/manual_time', ''), c.text()] for c in paired.comparisons(run)
             if (c.a, c.b) == (base, other) and not (pattern and not pattern.search(c.name))]
    return ["", f"Paired ({base} and {other} in alternating ~8 µs blocks; Hodges-Lehmann 95 % interval over the "
            "repetitions, Wilcoxon signed-rank test; against the operation's own twin control):", "",
            *markdown.table(["benchmark", "B/A"], found)] if found else []


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repr", nargs=2, metavar=("BASE", "OTHER"),
                        help="compare two representations within one run")
    parser.add_argument("--filter", metavar="REGEX", help="only benchmarks whose name matches (re.search)")
    parser.add_argument("--cpu", action="store_true", help="judge CPU time instead of real time")
    parser.add_argument("--out", metavar="FILE", help="also write the output to FILE (Markdown)")
    parser.add_argument("json", nargs="+", metavar="RUN.json")
    args = parser.parse_args(argv)
    want = 1 if args.repr else 2
    if len(args.json) != want:
        parser.error(f"expected {want} JSON file(s), got {len(args.json)}")

    def run():
        if args.out:
            fsio.check_output_path(args.out)
        try:
            pattern = re.compile(args.filter) if args.filter else None
        except re.error as err:
            raise fsio.InputError(f"--filter {args.filter!r}: not a regular expression ({err})") from None
        runs = [results.load_run(p) for p in args.json]
        measure = "cpu" if args.cpu else "real"
        aggregates = any(r.aggregates for run in runs for r in run.records.values())
        with tempfile.TemporaryDirectory(prefix="lab-compare-") as scratch:
            paths = [_filtered(p, pattern, scratch) for p in args.json]
            names = {p: j + (f" (--filter {args.filter})" if args.filter else "")
                     for p, j in zip(paths, args.json) if p != j}
            if args.repr:
                base, other = args.repr
                gbench = run_gbench(["filters", paths[0], repr_regex(base), repr_regex(other)], aggregates, names)
                rows = repr_table(runs[0], base, other, pattern, measure)
                pairs = paired_lines(runs[0], base, other, pattern)
                what = f"{other} against {base} in {args.json[0]}"
            else:
                gbench = run_gbench(["benchmarks"] + paths, aggregates, names)
                base, other = "A", "B"
                rows, pairs = runs_table(runs[0], runs[1], pattern, measure), []
                what = f"B = {args.json[1]} against A = {args.json[0]}"
        if not rows and not pairs:
            raise fsio.InputError(f"{', '.join(args.json)}: no benchmark to compare ({what})")
        head = ["benchmark", f"{base} ns", f"{other} ns", "ratio", "95 % interval", "U test", "n",
                "twin spread", "verdict", "disturbed"]
        text = "\n".join([
            f"# lab compare: {what}", "",
            f"## Google Benchmark's compare.py ({GBENCH_COMPARE}), unchanged", "", "```", *gbench, "```", "",
            f"## With the project's statistics ({stats.MEASURES[measure]} per iteration, ns)", "",
            "ratio = median B / median A (or OTHER / BASE); interval: 95 %, Hodges-Lehmann on log-times; U test: "
            f"two-sided Mann-Whitney, needs >= {stats.MIN_REPETITIONS} repetitions per side; twin spread: what "
            f"{reprs.TWIN} vs {reprs.REFERENCE} (the same layout on LP64) differ by in the same operation. "
            "A difference counts only when significant and its whole interval lies outside the twin spread; "
            f"'disturbed' lists runs whose real time exceeded CPU time by > {stats.DISTURBED_EXCESS:.0%} "
            "(repetitions, worst ratio).", "",
            *markdown.table(head, rows, "lrrr"), *pairs, ""])
        print(text, end="")
        if args.out:
            fsio.write_text(args.out, text)
        return 0
    return fsio.run_main(run)


if __name__ == "__main__":
    sys.exit(main())
