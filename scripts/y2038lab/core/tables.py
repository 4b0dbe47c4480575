"""Markdown tables of one y2038-bench run (y2038lab.core.results.Run), and the README summary.

Every table takes its bodies and representations from the run (Run.bodies,
Run.reprs) and its size rows from the sizes CSVs: a new representation
appears in every table without an edit here.
"""
import math
import os
import statistics

from y2038lab.core import abis, calibrate, markdown, paired
from y2038lab.core.markdown import row
from y2038lab.core.reprs import REFERENCE, TWIN
from y2038lab.core.results import UNIT_NS, param_key, run_label


def fmt(value):
    """Three significant figures, integers as integers; '-' for missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if float(value).is_integer() and abs(value) < 1e6:
        return f"{int(value)}"
    return f"{value:.3g}"


def time_cell(rec, ns):
    """A time in the unit Google Benchmark reported the row in."""
    return f"{fmt(ns / UNIT_NS[rec.unit])} {rec.unit}"


def ns_per_inode(rec):
    """Median real time per inode visited: per iteration / inodes per iteration
    (items_per_second when the row has it, else the last parameter N)."""
    ns, _ = rec.median_real_ns()
    if (items := rec.items_per_iteration()) is None or items <= 0:
        if not rec.args or not rec.args[-1].isdigit():
            return None
        items = int(rec.args[-1])
    return ns / items if ns is not None else None


def counters_of(recs):
    return sorted({k for rec in recs for k in rec.counters} | {k for rec in recs for k in rec.aggregates
                                                              if k not in ("real_ns", "cpu_ns")})


def cpu_share(rec):
    real = statistics.median(rec.real_ns) if rec.real_ns else None
    cpu = statistics.median(rec.cpu_ns) if rec.cpu_ns else None
    return f"{cpu / real:.2f}" if real and cpu is not None else "-"


def layout_tables(run, family):
    """One table per operation of a layout family: time, ratio to the reference, counters."""
    recs = run.layout_records(family)
    out = []
    for op in sorted({r.op for r in recs}):
        op_recs = sorted((r for r in recs if r.op == op), key=run.layout_key)
        counters = counters_of(op_recs)
        has_params = any(r.args for r in op_recs)
        has_threads = any(r.threads != 1 for r in op_recs)
        per_inode = family == "walk"
        medians = {r.name: r.median_real_ns() for r in op_recs}
        reference = {(r.body, r.args, r.threads): medians[r.name][0]
                     for r in op_recs if r.repr == REFERENCE}
        mixed = len({how for _, how in medians.values()}) > 1
        head = (["body", "repr"] + (["params"] if has_params else []) + (["threads"] if has_threads else [])
                + ["time / iteration"] + (["figure"] if mixed else []) + (["ns / inode"] if per_inode else [])
                + [f"vs {REFERENCE}", "CPU / real"] + counters)
        out += [f"#### {family}/{op}", "",
                f"Time: Google Benchmark real time per iteration "
                f"({', '.join(sorted({how for _, how in medians.values()}))}); ratio = time / time of "
                f"{REFERENCE} with the same body and parameters, same run; CPU / real = median CPU "
                "time / median real time (below 1: the thread waited or was descheduled).",
                "", row(head), "|" + "---|" * len(head)]
        for rec in op_recs:
            ns, how = medians[rec.name]
            ref = reference.get((rec.body, rec.args, rec.threads))
            out.append(row([rec.body, rec.repr] + (["/".join(rec.args)] if has_params else [])
                           + ([str(rec.threads)] if has_threads else []) + [time_cell(rec, ns)]
                           + ([how] if mixed else []) + ([fmt(ns_per_inode(rec))] if per_inode else [])
                           + [f"{ns / ref:.3f}" if ref else "-", cpu_share(rec)]
                           + [fmt(rec.counter(c)) for c in counters]))
        out.append("")
    return out


def other_tables(run, family):
    """Families without layouts (fstime/*, ...): one table per operation, by parameters."""
    recs = [r for r in run.records.values() if r.family == family and not r.is_layout]
    out = []
    for op in sorted({r.op for r in recs}):
        op_recs = sorted((r for r in recs if r.op == op), key=lambda r: param_key(r.params))
        counters = counters_of(op_recs)
        medians = {r.name: r.median_real_ns() for r in op_recs}
        head = ["params", "time / iteration", "figure", "CPU / real"] + counters
        out += [f"#### {family}/{op}", "", "Time: Google Benchmark real time per iteration.", "",
                row(head), "|" + "---|" * len(head)]
        for rec in op_recs:
            ns, how = medians[rec.name]
            out.append(row(["/".join(rec.params) or "-", time_cell(rec, ns), how, cpu_share(rec)]
                           + [fmt(rec.counter(c)) for c in counters]))
        out.append("")
    return out


def overview(run, family):
    """One matrix per body: rows = operation (and parameters), columns = representations, cells ns
    per operation (accessor) or per inode (walk) and the ratio against the reference in brackets."""
    cells = {}
    for rec in (r for r in run.layout_records(family) if r.threads == 1):
        value = ns_per_inode(rec) if family == "walk" else rec.median_real_ns()[0]
        cells.setdefault(rec.body, {}).setdefault((rec.op,) + rec.args, {})[rec.repr] = value
    what = "ns per inode visited" if family == "walk" else "ns per operation"
    out = []
    for body in (b for b in run.bodies if b in cells):
        reprs = [r for r in run.reprs if any(r in v for v in cells[body].values())]
        out += [f"#### {family} overview, body {body}", "",
                f"{what}; (ratio against {REFERENCE}, same row, same run).", "",
                row(["operation"] + reprs), "|---|" + "---:|" * len(reprs)]
        for key in sorted(cells[body], key=lambda k: (k[0], param_key(k[1:]))):
            values = cells[body][key]
            ref = values.get(REFERENCE)
            line = ["/".join(key)]
            for r in reprs:
                v = values.get(r)
                line.append("-" if v is None else f"{fmt(v)} ({v / ref:.2f})" if ref else fmt(v))
            out.append(row(line))
        out.append("")
        spread = sorted((100 * rec.cv(), rec.name) for rec in run.layout_records(family)
                        if rec.body == body and rec.cv() is not None)
        if spread:
            out += [f"Spread of the repetitions (coefficient of variation of real time): median "
                    f"{statistics.median(c for c, _ in spread):.1f} %, largest {spread[-1][0]:.1f} % "
                    f"(`{spread[-1][1]}`); ratios within that spread are not differences; the paired "
                    "comparisons below resolve what these medians cannot.", ""]
    return out


def resolution_table(run, pairs):
    """Per family: the resolution, the negative controls and the positive control(s)."""
    from scipy.stats import binom  # scipy: only where statistics are asked for

    def judged(group, x):
        if group.positive_ok(x):
            return "detected" + ("" if x.lo <= x.true_ratio <= x.hi else f", its interval misses {x.true_ratio:.4f}")
        if x.lo is None or x.p >= paired.ALPHA or x.lo <= 1:
            return "NOT detected"
        return "detected, but its interval misses the nominal ratio and its estimate is off by more than ±0.5 %"
    ctl, res = paired.controls(run, pairs), paired.resolution(run, pairs)
    out = ["| family | resolution | negative controls (the same code twice) | positive control "
           "(nominal ratio 1.0625: 17 units of work against 16; a fixed cost per block, the same on both sides, "
           "can pull the time ratio a little below it) |", "|---|---|---|---|"]
    for family, c in sorted(ctl.items()):
        within = sum(1 for n in c.negatives if n.lo is not None and paired.reach(n) <= paired.NEGATIVE_LIMIT)
        w = c.widest
        flagged = sum(1 for n in c.negatives if n.p is not None and n.p < paired.ALPHA)
        tail = float(binom.sf(flagged - 1, len(c.negatives), paired.ALPHA))
        why = (f"more than a test at its {paired.ALPHA:.0%} level flags (P = {tail:.1g}, taking the controls as "
               "independent: they share the link orders): possibly a bias of where code and data lie that the link "
               "orders' "
               "placement (a random order of the timed functions, object rotations for data), the per-process stack "
               "offsets and the per-comparison copies do not average out" if tail < paired.ALPHA else
               f"as many as a test at its {paired.ALPHA:.0%} level flags by chance (P = {tail:.2f})")
        neg = (f"{within} of {len(c.negatives)} within ±{paired.NEGATIVE_LIMIT:.0%}; {flagged} with p < "
               f"{paired.ALPHA}, {why}; widest "
               f"`{w.operation}` {w.body} {w.where}: {w.interval()}" if w else "none")
        pos = "; ".join(f"{x.interval()} ({x.ratio / x.true_ratio - 1:+.2%} off, {judged(c, x)}) {x.body} {x.where}"
                        for x in c.positives) or "none"
        out.append(row([family, (f"±{res[family]:.2%}" if family in res else "-") + _resolution_split(c), neg, pos]))
    return out + unpaired_rows(run) + [""]


def _resolution_split(controls):
    """' (A1 ±x %, n controls; A2 ...)' where a family's negative controls time more than one A (fstime: the
    truncation and the ctime path), whose reaches differ; else ' (N1 ±x %, ...)' per size where they run at
    several (walk: one cache level per size); '' otherwise."""
    by_a, by_size = {}, {}
    for n in controls.negatives:
        if n.lo is not None:
            reach = paired.reach(n)
            by_a.setdefault(n.a, []).append(reach)
            by_size.setdefault(n.where.split("/")[0] if n.where else "", []).append(reach)
    if len(by_a) >= 2:
        return " (" + "; ".join(f"`{a}` ±{statistics.median(r):.2%}, {len(r)} controls"
                                for a, r in sorted(by_a.items())) + ")"
    if len(by_size) >= 2 and all(k.isdigit() for k in by_size):
        return " (by size: " + "; ".join(f"{k} ±{statistics.median(r):.2%}, widest ±{max(r):.2%}"
                                         for k, r in sorted(by_size.items(), key=lambda i: int(i[0]))) + ")"
    return ""


# Families timed between layouts but not paired, and why: a paired block alternates A and B every
# ~8 µs, and a threaded one would need every thread to switch together.
UNPAIRED = {"load": "not paired: its threads would have to switch between A and B together every ~8 µs (a barrier "
                    "per block, on CPUs shared with the other threads; threads:4 runs two threads per CPU), so it "
                    "is compared unpaired, U test and Hodges-Lehmann interval over the interleaved repetitions"}


def unpaired_rows(run):
    """The resolution rows of UNPAIRED's families in RUN: their twin controls' reach (stats.twin_controls)."""
    from y2038lab.core import stats  # scipy: only where statistics are asked for
    out = []
    for family, why in UNPAIRED.items():
        controls = stats.twin_controls(run, family)
        if not controls:
            continue
        reached = [(stats.reach(c), key, c) for key, c in controls if stats.reach(c) is not None]
        if not reached:
            n = min(min(c.n_base, c.n_contender) for _, c in controls)
            out.append(row([family, "-", f"{len(controls)} twin controls ({TWIN} vs {REFERENCE}), {n} repetitions "
                            f"each: too few for a U test (needs {stats.MIN_REPETITIONS}); {why}", "none"]))
            continue
        within = sum(1 for r, _, _ in reached if r <= paired.NEGATIVE_LIMIT)
        flagged = sum(1 for _, _, c in reached if c.p < stats.ALPHA)
        r, key, widest = max(reached, key=lambda x: x[0])
        name = "/".join([key[1], *key[3]] + ([f"threads:{key[4]}"] if key[4] > 1 else []))
        out.append(row([family, f"±{statistics.median(x for x, _, _ in reached):.2%}",
                        f"{within} of {len(reached)} within ±{paired.NEGATIVE_LIMIT:.0%} ({TWIN} vs {REFERENCE}, "
                        f"{widest.n_base}+{widest.n_contender} repetitions); {flagged} with p < {stats.ALPHA}; "
                        f"widest `{name}` {key[2]}: x{widest.ratio:.4f} [{widest.low:.4f}, {widest.high:.4f}]; "
                        f"{why}", "none"]))
    return out


def paired_summary(run, source=None):
    """The resolution block of REPORT.md's top and README (one per run with paired benchmarks).  SOURCE:
    what made the run and whose timings they are (default: `scripts/lab bench` on this host)."""
    pairs = paired.comparisons(run)
    source = source or f"`scripts/lab bench`, {os.path.basename(run.path)}, timings of this host"
    return [] if not pairs else [f"Resolution of this run on {run.abi} ({source}, paired: A and B in alternating "
            "~8 µs blocks; load unpaired): how far a comparison of the same code with itself reaches from 1, the median over the "
            "family's negative controls of their 95 % intervals' reach (each comparison below is judged against its own "
            "negative control's reach, not this median):", ""] + resolution_table(run, pairs)


def paired_tables(run):
    """Every paired/* comparison of RUN, per family, after the resolution table."""
    pairs = paired.comparisons(run)
    if not pairs:
        return []
    out = ["#### Paired comparisons", "",
           "`paired/*`: A and B in alternating ~8 µs blocks (AB, BA; `bench/paired.h`), a repetition's ratio the "
           "median over its pairs of t(B) / t(A), a unit's (a link order's) the median of its processes' "
           "repetitions. B/A: Hodges-Lehmann estimate over the units' log-ratios (a run of one process: its "
           "repetitions'), 95 % interval (Walsh "
           "averages, exact signed-rank cut-off); p: Wilcoxon signed-rank; n: units, each a link order of the "
           "program, the median of the repetitions of its processes (where code lies biases every repetition "
           "of one link order alike); "
           "ns/op: medians of the blocks. *difference*: p < 0.05 and the interval beyond the reach of the pair's "
           "own negative control (`control`; else the family's resolution). Negative controls: the same code "
           f"twice ({TWIN}/{REFERENCE} on LP64, {REFERENCE}/{paired.COPY}: {REFERENCE}'s code and a copy of it where "
           f"the ABI has no twin, fs_time.c linked twice); positive: 17 units of work against 16.",
           ""] + resolution_table(run, pairs)
    for family in sorted({c.family for c in pairs}):
        out += [row(["operation", "body", "A", "B", "where", "B/A [95 %]", "p", "n", "A ns/op", "B ns/op",
                     "control", "status"]), "|---|---|---|---|---|---|---|---|---|---|---|---|"]
        for c in sorted((c for c in pairs if c.family == family),
                        key=lambda c: (c.kind != "compare", c.operation, c.body, c.where, c.b)):
            status = c.status + (f" ({c.kind} control)" if c.kind != "compare" else "")
            out.append(row([c.operation, c.body or "-", c.a, c.b, c.where, c.interval(),
                            "-" if c.p is None else "< 0.001" if c.p < 0.001 else f"{c.p:.3f}", c.n,
                            fmt(c.a_ns), fmt(c.b_ns), "-" if c.control is None else f"±{c.control:.2%}",
                            status]))
        out.append("")
    return out


def shim_table(run):
    """shim/<body>/<variant>[/<batch>]: the C shim against a native C++ loop."""
    shim = {(r.op, r.params): r for r in run.records.values() if r.family == "shim" and r.params}
    if not shim:
        return []
    medians = {k: r.median_real_ns() for k, r in shim.items()}
    out = ["#### shim overhead", "",
           "c_batch/N: the inner loop in C, one call into the shim per N iterations (the form every "
           "benchmark here uses); native: the same loop written against libbenchmark in C++; "
           "ratio = c_batch / native (1.000 = no overhead). Time per iteration of the loop body, "
           f"{', '.join(sorted({h for _, h in medians.values()}))}.", "",
           "| body | variant | time / iteration | vs native |", "|---|---|---|---|"]
    for body in sorted({k[0] for k in shim}):
        native = medians.get((body, ("native",)))
        for k in sorted((k for k in shim if k[0] == body),
                        key=lambda k: (k[1][0] == "native", k[1][0], param_key(k[1][1:]))):
            ns = medians[k][0]
            ratio = f"{ns / native[0]:.3f}" if native and k[1][0] != "native" else "-"
            out.append(row([body, "/".join(k[1]), time_cell(shim[k], ns), ratio]))
    out.append("")
    return out


def load_scaling(run, ceiling):
    """ops/s with 1 and 2 threads per load/* layout, and their ratio; CEILING(context): the sentence
    on what two threads can reach, or None (bench.checks.scaling_ceiling)."""
    rates = {(r.op, r.body, r.repr, r.args, r.threads): r.counter("items_per_second")
             for r in run.layout_records("load")}
    if not rates:
        return []
    out = ["#### load: throughput and scaling", "",
           "ops/s = items_per_second (all threads); scaling = ops/s with 2 threads / ops/s with 1 "
           "(2.0 = perfect on two equal CPUs).", ""]
    if sentence := ceiling(run.context):
        out += [sentence, ""]
    out += ["| operation | body | repr | params | ops/s, 1 thread | ops/s, 2 threads | scaling |",
            "|---|---|---|---|---|---|---|"]
    keys = sorted({k[:4] for k in rates}, key=lambda k: (k[0], run.bodies.index(k[1]),
                                                         param_key(k[3]), run.reprs.index(k[2])))
    for op, body, repr_, args in keys:
        one, two = rates.get((op, body, repr_, args, 1)), rates.get((op, body, repr_, args, 2))
        scaling = f"{two / one:.2f}" if one and two else "-"
        out.append(row([op, body, repr_, "/".join(args) or "-", fmt(one), fmt(two), scaling]))
    out.append("")
    return out


def summary(size_tables, sizes_label, runs):
    """The README summary: sizeof per ABI and body from SIZE_TABLES ({abi: rows of sizes-<abi>.csv}),
    then the accessor times of each of RUNS (accessor_summary)."""
    lines = ["## Summary", "", "<!-- summary -->"]
    rows = [(abi, r) for abi in abis.SUMMARY for r in size_tables.get(abi) or []]
    sizes = {(abi, r["body"], r["repr"]): str(r["size"]) for abi, r in rows}
    reprs = list(dict.fromkeys(r["repr"] for _, r in rows))
    if sizes:
        cols = [(abi, body) for abi in abis.SUMMARY for body in dict.fromkeys(r["body"] for _, r in rows)
                if any((abi, body, r) in sizes for r in reprs)]
        lines += [f"sizeof(struct inode) in bytes, from pahole (`scripts/lab pahole`, "
                  f"{sizes_label}/sizes-*.csv):", ""] + markdown.table(
            ["repr"] + [f"{a} {b}" for a, b in cols], [[r] + [sizes.get((a, b, r), "-") for a, b in cols] for r in reprs],
            "l" + "r" * len(cols)) + [""]
    for run in runs:
        lines += accessor_summary(run) + fstime_summary(run)
    return lines + ["<!-- /summary -->", ""]


# fstime's division-free truncation against mainline's, and the granularities where mainline divides
# (2 <= gran < 1 s: fs/inode.c's timestamp_truncate() takes tv_nsec % gran there; 1 ns and 1 s not).
FREE, MAINLINE = "timestamp_truncate_reciprocal", "timestamp_truncate"
CTIME_PATH = "inode_set_ctime_current"  # the path fstime times whole, its division-free version <path>_reciprocal
RESULT_CHAIN = "result_chain"  # B of the pair against the division-free result chain alone (x86_64)
SPEEDUP_GOAL = 1.8
DIVIDES = ("100", "1000", "1000000")
GRAN_NAMES = {"1": "1 ns", "100": "100 ns", "1000": "1 µs", "1000000": "1 ms", "1000000000": "1 s"}


def _gran_key(gran):
    """Numeric granularities in order, then the rest (mixed)."""
    return (0, int(gran), "") if gran.isdigit() else (1, 0, gran)


def fstime_summary(run):
    """The division-free truncation against mainline's, paired: speed-up A/B per granularity and input, its
    interval and status, whether it is ever slower, and the speed-up where mainline divides."""
    pairs = paired.comparisons(run)
    cells = {tuple(c.where.split("/")): c for c in pairs
             if c.family == "fstime" and c.a == MAINLINE and c.b == FREE}
    if not cells:
        return []
    grans = sorted(dict.fromkeys(w[0].split(":")[1] for w in cells), key=_gran_key)
    cols = [(i, m) for i in ("inputs:in_range", "inputs:clamped") for m in ("latency", "throughput")]

    def cell(c):
        if c is None:
            return "-"
        speed = f"{1 / c.ratio:.2f}x" + (f" [{1 / c.hi:.2f}, {1 / c.lo:.2f}]" if c.lo is not None else "")
        return f"{speed}: {c.status}"
    ctx = run.context
    lines = [f"fstime: the division-free `{FREE}()` against mainline's `{MAINLINE}()`, paired (speed-up A/B, "
             f"95 % interval; a *difference* beyond the reach of the case's negative control, `{MAINLINE}` linked "
             f"twice), timings of {run.abi} on {ctx.get('host_name', '?')}, {str(ctx.get('date', '?'))[:10]}; "
             f"`scripts/lab bench`, {os.path.basename(run.path)}.  Two changes are timed together: a multiply for "
             f"`%` (100 ns to 1 ms only) and a range check without a branch per end (every column); clamped "
             f"inputs fall above or below the range at random, mainline's branches' worst case; the whole "
             f"`inode_set_ctime_current()` path is below the table:", "",
             row(["gran"] + [f"{i.split(':')[1].replace('_', ' ')}, {m}" for i, m in cols]),
             "|---|" + "---|" * len(cols)]
    lines += [row([GRAN_NAMES.get(g, g)] + [cell(cells.get((f"gran:{g}", i, m))) for i, m in cols])
              for g in grans]
    slower = [c for c in cells.values() if c.status == paired.DIFFERENCE and c.ratio > 1]
    faster = [c for c in cells.values() if c.status == paired.DIFFERENCE and c.ratio < 1]
    goal = [(g, cells[(f"gran:{g}", "inputs:in_range", "latency")]) for g in DIVIDES
            if (f"gran:{g}", "inputs:in_range", "latency") in cells]
    met = [g for g, c in goal if c.lo is not None and 1 / c.hi >= SPEEDUP_GOAL]
    missed = [(g, c) for g, c in goal if g not in met and c.a_ns and c.b_ns]
    lines += ["", f"Slower than mainline on these inputs and this host: {len(slower)} of {len(cells)} cases"
              + (f" ({', '.join(c.where for c in slower)})" if slower else "")
              + f"; faster (a difference) in {len(faster)}; {len(cells) - len(slower) - len(faster)} without a "
              f"difference. Where mainline divides (in range, latency: the result chain; throughput beside it in "
              f"the table): "
              + ", ".join(f"{GRAN_NAMES[g]} {1 / c.ratio:.2f}x" for g, c in goal)
              + f"; this suite's own goal (not a kernel requirement), at least {SPEEDUP_GOAL}x with the whole interval, "
              + (f"is met at {', '.join(GRAN_NAMES[g] for g in met)}" if met else "is met at no granularity where "
                 "mainline divides")
              + (f", not at {', '.join(GRAN_NAMES[g] for g, _ in goal if g not in met)}" if met and len(met) < len(goal)
                 else "") + "." + _goal_why(goal, missed) + _chain_floor(run, pairs, missed), ""]
    group = paired.controls(run, pairs).get("fstime")
    off = [c for c in (group.positives if group else []) if not group.positive_ok(c)]
    lines += [f"This run's fstime positive control at {c.where} reads x{c.ratio:.4f} [{c.lo:.4f}, {c.hi:.4f}] against "
              f"its nominal {c.true_ratio:.4f}: the {c.where.rsplit('/', 1)[-1]} column above carries an error of that "
              "size." for c in off] + ([""] if off else [])
    return lines + _ctime_path_line(pairs)


def _ctime_path_line(pairs):
    """The whole inode_set_ctime_current() path with the division-free truncation against mainline's, from
    the run's PAIRS: how many cases faster, slower, neither (the clock is the harness's)."""
    path = [c for c in pairs if c.family == "fstime" and c.kind == "compare"
            and (c.a, c.b) == (CTIME_PATH, f"{CTIME_PATH}_reciprocal")]
    if not path:
        return []
    slower = sorted((c for c in path if c.status == paired.DIFFERENCE and c.ratio > 1), key=lambda c: c.where)
    faster = [c for c in path if c.status == paired.DIFFERENCE and c.ratio < 1]
    return [f"Through the whole `{CTIME_PATH}()` path (clock, truncation, store; the clock is the harness's: "
            f"`clock:fixed` a load, `clock:coarse` clock_gettime()), B/A of the division-free version: faster in "
            f"{len(faster)} of {len(path)} cases, slower in {len(slower)}"
            + (" (" + "; ".join(f"{c.where}: x{c.ratio:.4f}" for c in slower) + ")" if slower else "")
            + f", {len(path) - len(slower) - len(faster)} without a difference.", ""]


MOVED = 0.02  # _goal_why names the side whose time per call moved only beyond this share of it


def _goal_why(goal, missed):
    """Where the goal is MISSED: both sides' time per call there and at the fastest-dividing granularity,
    so that a reader sees which side moved (a divider that finishes early on a short quotient); a side is
    named only where it moved by more than MOVED of its time (medians of blocks, without an interval)."""
    best = max(((g, c) for g, c in goal if c.a_ns and c.b_ns), key=lambda x: x[1].a_ns, default=None)
    if not missed or best is None:
        return ""
    others = [m for m in missed if m[0] != best[0]]

    def moved(c):
        """The side that moved more, or None where neither moved beyond MOVED."""
        da, db = abs(c.a_ns / best[1].a_ns - 1), abs(c.b_ns / best[1].b_ns - 1)
        return None if max(da, db) <= MOVED else "mainline's" if da > db else "the division-free one's"
    moves = [(g, moved(c)) for g, c in others]
    return (" Time per call within each pair (medians of the blocks), mainline / division-free: " + "; ".join(
        f"{GRAN_NAMES[g]} {c.a_ns:.2f} / {c.b_ns:.2f} ns" for g, c in [best] + others)
        + (f": against {GRAN_NAMES[best[0]]}, " + "; ".join(
            f"at {GRAN_NAMES[g]} " + (f"the side that moved more is {m}" if m else
                                      f"neither side moved by more than {MOVED:.0%}") for g, m in moves)
           if others else "")
        + (" (why is not measured here: no counter saw the divider)" if any(m for _, m in moves) else "") + ".")


def _chain_floor(run, pairs, missed):
    """Where the goal is MISSED: mainline against the division-free result chain alone (paired, B
    `result_chain`: bench/fstime.c's fstime_result_chain(), the two multiplies and the loop's add without
    the call), what code with that chain can gain in this latency loop; where its whole interval lies
    below the goal, that chain cannot reach it there (a shorter chain is not excluded)."""
    chain = {c.where: c for c in pairs if c.family == "fstime" and (c.a, c.b) == (MAINLINE, RESULT_CHAIN)}
    rows = [(g, chain[f"gran:{g}/inputs:in_range/latency"]) for g, _ in missed
            if f"gran:{g}/inputs:in_range/latency" in chain]
    if not rows:
        return ""
    cal = calibrate.cycles(run)

    def bound(c):
        cycles = (f" (mainline {c.a_ns / cal['ns_per_cycle']:.1f} cycles a step, the chain "
                  f"{c.b_ns / cal['ns_per_cycle']:.1f}, one of them the loop's add, at the clock "
                  f"{calibrate.ADD_CHAIN} measured: timings)" if cal and c.a_ns and c.b_ns else "")
        return f"{1 / c.ratio:.2f}x" + (f" [{1 / c.hi:.2f}, {1 / c.lo:.2f}]" if c.lo is not None else "") + cycles
    below = [g for g, c in rows if c.lo is not None and 1 / c.lo < SPEEDUP_GOAL]
    return (f" Mainline against the division-free result chain alone (`{RESULT_CHAIN}`: the quotient's multiply, "
            "the multiply by s_time_gran and the latency loop's add, which both sides pay, without the call, loads "
            "and branches; paired, 95 % interval): "
            + "; ".join(f"{GRAN_NAMES[g]} {bound(c)}" for g, c in rows)
            + (f"; its whole interval lies below {SPEEDUP_GOAL}x at {', '.join(GRAN_NAMES[g] for g in below)}: "
               "in this latency loop, code whose result waits on these two multiplies cannot reach the goal there "
               "(a shorter chain is not excluded; none is known to this suite)" if below else
               f"; not shown to lie below {SPEEDUP_GOAL}x")
            + ".")


def accessor_summary(run):
    """get/set_mtime of the newest body against the reference, paired (y2038lab.core.paired): ratio,
    interval, signed-rank p and ruling; never a bare median a reader could take for a finding."""
    body = run.bodies[-1] if run.bodies else None  # the newest body: today's inode
    cells = {(c.operation, c.b): c for c in paired.comparisons(run) if c.family == "accessor"
             and c.body == body and c.a == REFERENCE and c.kind != "positive"}
    ops = [op for op in ("get_mtime", "set_mtime") if any(k[0] == op for k in cells)]
    if not ops:
        return []
    ctx = run.context
    copies = any(c.b == paired.COPY for c in cells.values() if c.kind == "negative")
    rule = (f"a *difference* only beyond the reach of the op's twin control, {TWIN} vs {REFERENCE}: the same code "
            f"twice" if run.abi in abis.LP64 else
            f"a *difference* only beyond the reach of the op's negative control, {REFERENCE} against a copy of its "
            f"own code ({TWIN} and {REFERENCE} differ on this ABI)" if copies else
            f"no twin control on this ABI ({TWIN} and {REFERENCE} differ "
            f"here): a *difference* is p < 0.05 with 1 outside the interval")
    lines = [f"accessor get/set_mtime, body {body}, paired against {REFERENCE} (B/A, 95 % interval, signed-rank p; "
             f"{rule}), timings of {run_label(run)}; `scripts/lab bench`, "
             f"{os.path.basename(run.path)}:",
             "", row(["repr"] + ops), "|---|" + "---|" * len(ops)]
    for r in run.reprs + ([paired.COPY] if copies else []):
        line = [r if r != paired.COPY else f"{paired.COPY} ({REFERENCE}'s code again)"]
        for op in ops:
            c = cells.get((op, r))
            ref = next((x.a_ns for k, x in cells.items() if k[0] == op), None)
            line.append(f"reference ({fmt(ref)} ns/op)" if r == REFERENCE else "-" if c is None else
                        ("negative control (the same code): " if c.kind == "negative" else "")
                        + c.text().replace(f", n = {c.n}", ""))
        lines.append(row(line))
    return lines + [""]
