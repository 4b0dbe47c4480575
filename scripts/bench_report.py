#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench_report.py - Markdown tables and PNG plots from y2038-bench JSON.

Reads the Google Benchmark JSON files `scripts/lab bench` wrote (one per ABI)
and writes one report fragment with a section per file, labelled by the ABI
its context records (y2038_abi), plus an optional summary fragment for
README.md.  Names follow docs/ARCHITECTURE.md:
    <family>/<operation>/<body>/<repr>[/<param>...][/real_time][/threads:N]
and shim/<body>/<variant>[/<batch>] for the shim's own overhead.

  * Per family/operation: one row per body/repr(/param), Google Benchmark's
    real time per iteration with its unit (the median aggregate when the run
    had repetitions, else the single run: each table says which), the ratio
    against timespec64 of the same body and parameters in the same file, and
    every counter the row carries (cachelines_touched_per_op, ...).
  * shim: c_batch/N / native per batch size, for each loop body.
  * load: ops/s (items_per_second) and the scaling threads:2 / threads:1.
  * Plots (matplotlib, Agg): walk/stat* ns per inode vs N per repr, one per
    body; accessor ns/op bars per repr, one per body.
Families absent from a file are omitted; names this script cannot parse are
skipped with a warning.  Missing, invalid or empty JSON: one-line error,
exit 1.

    bench_report.py --json results/X/bench-x86_64.json [--json ...]
                    --fragment results/X/40-bench.md [--plots-dir results/X]
                    [--summary results/X/05-summary.md --sizes reports/layouts]
"""
import argparse
import csv
import json
import math
import os
import re
import statistics
import sys

PROG = "bench_report.py"
BODIES = ["v4_4", "v6"]
REPRS = ["timespec", "timespec64", "packed12", "scalar", "multigrain"]
REFERENCE_REPR = "timespec64"
UNIT_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Fields every Google Benchmark 1.7.1 row has; the rest are user counters.
STANDARD_FIELDS = {
    "name", "family_index", "per_family_instance_index", "run_name", "run_type",
    "repetitions", "repetition_index", "threads", "iterations", "real_time", "cpu_time",
    "time_unit", "aggregate_name", "aggregate_unit", "error_occurred", "error_message", "label",
}
SUMMARY_ABIS = ["x86_64", "i386", "armhf"]


def warn(message):
    print(f"{PROG}: warning: {message}", file=sys.stderr)


def fail(message):
    sys.exit(f"{PROG}: error: {message}")


def load(path):
    """The JSON of one y2038-bench run; exits with one line on bad input."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as err:
        fail(f"{path}: cannot read: {err.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        fail(f"{path}: not valid JSON: {err}")
    if not isinstance(data, dict) or not isinstance(data.get("benchmarks"), list):
        fail(f"{path}: not Google Benchmark JSON (no \"benchmarks\" list)")
    if not data["benchmarks"]:
        fail(f"{path}: no benchmarks in the file")
    if not isinstance(data.get("context"), dict):
        fail(f"{path}: not Google Benchmark JSON (no \"context\" object)")
    return data


def parse_name(run_name):
    """Split a run name into its parts (docs/ARCHITECTURE.md); None if it does not follow them."""
    parts = run_name.split("/")
    threads, real_time = 1, False
    while parts and (parts[-1] == "real_time" or parts[-1].startswith("threads:")):
        last = parts.pop()
        if last == "real_time":
            real_time = True
        else:
            threads = int(last.split(":", 1)[1])
    if len(parts) >= 3 and parts[0] == "shim":
        return {"family": "shim", "operation": parts[1], "variant": parts[2],
                "params": tuple(parts[3:]), "threads": threads, "real_time": real_time}
    if len(parts) >= 4 and parts[2] in BODIES and parts[3] in REPRS:
        return {"family": parts[0], "operation": parts[1], "body": parts[2], "repr": parts[3],
                "params": tuple(parts[4:]), "threads": threads, "real_time": real_time}
    return None


def time_ns(row):
    return row["real_time"] * UNIT_NS[row.get("time_unit", "ns")]


def items_per_iteration(row):
    """Items (inodes, ops) one iteration processed, from items_per_second; None if absent.

    Google Benchmark divides rate counters by CPU time, or by real time under
    UseRealTime(); multiplying back by the same time per iteration inverts it.
    """
    rate = row.get("items_per_second")
    if not rate:
        return None
    name = row.get("run_name", row["name"])
    seconds = (row["real_time"] if "/real_time" in name else row["cpu_time"])
    return rate * seconds * UNIT_NS[row.get("time_unit", "ns")] / 1e9


def select(benchmarks, path):
    """One figure per run name: {run_name: (row, how)}, plus errored rows and skipped names."""
    groups, errors, skipped = {}, [], []
    for row in benchmarks:
        if not isinstance(row, dict) or "name" not in row:
            warn(f"{path}: a benchmark entry without a name, skipped")
            continue
        run_name = row.get("run_name", row["name"])
        if row.get("error_occurred"):
            errors.append((run_name, row.get("error_message", "")))
            continue
        if parse_name(run_name) is None:
            if run_name not in skipped:
                skipped.append(run_name)
            continue
        if any(k not in row for k in ("real_time", "cpu_time", "iterations")):
            warn(f"{path}: {row['name']}: no real_time/cpu_time/iterations, skipped")
            continue
        g = groups.setdefault(run_name, {"iterations": [], "aggregates": {}})
        if row.get("run_type") == "aggregate":
            g["aggregates"][row.get("aggregate_name", "")] = row
        else:
            g["iterations"].append(row)
    for name in skipped:
        warn(f"{path}: unknown benchmark name '{name}' (not the naming of docs/ARCHITECTURE.md), skipped")
    chosen = {}
    for run_name, g in groups.items():
        if "median" in g["aggregates"]:
            row = dict(g["aggregates"]["median"])
            n = row.get("repetitions", len(g["iterations"]))
            cv = g["aggregates"].get("cv")
            if cv and isinstance(cv.get("real_time"), (int, float)):
                # Google Benchmark's cv aggregate: stddev / mean of real time, a fraction.
                row["cv_percent"] = round(100 * cv["real_time"], 1)
            chosen[run_name] = (row, f"median of {n}")
        elif len(g["iterations"]) == 1:
            chosen[run_name] = (g["iterations"][0], "single run")
        elif g["iterations"]:
            # Repetitions without Google Benchmark's aggregates: the median here.
            rows = sorted(g["iterations"], key=time_ns)
            row = dict(rows[len(rows) // 2])
            row["real_time"] = statistics.median(r["real_time"] for r in rows)
            chosen[run_name] = (row, f"median of {len(rows)} (computed here)")
    return chosen, errors


def fmt(value):
    """Three significant figures, integers as integers; '-' for missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if float(value).is_integer() and abs(value) < 1e6:
        return f"{int(value)}"
    return f"{value:.3g}"


def param_key(params):
    return tuple(int(p) if p.isdigit() else p for p in params)


def layout_key(item):
    info = item[1]
    return (BODIES.index(info["body"]), param_key(info["params"]), info["threads"],
            REPRS.index(info["repr"]))


def counters_of(rows):
    names = set()
    for row in rows:
        names.update(k for k, v in row.items()
                     if k not in STANDARD_FIELDS and isinstance(v, (int, float)))
    return sorted(names)


def how_text(hows):
    hows = sorted(set(hows))
    return ", ".join(hows)


def layout_tables(chosen, family):
    """Markdown tables of one layout family, one per operation."""
    rows = [(name, parse_name(name), row, how) for name, (row, how) in chosen.items()]
    rows = [r for r in rows if r[1]["family"] == family]
    out = []
    for op in sorted({r[1]["operation"] for r in rows}):
        op_rows = sorted(((r[0], r[1], r[2], r[3]) for r in rows if r[1]["operation"] == op),
                         key=lambda r: layout_key((r[0], r[1])))
        counters = counters_of(r[2] for r in op_rows)
        has_params = any(r[1]["params"] for r in op_rows)
        has_threads = any(r[1]["threads"] != 1 for r in op_rows)
        per_inode = family == "walk"
        reference = {(i["body"], i["params"], i["threads"]): row
                     for _, i, row, _ in op_rows if i["repr"] == REFERENCE_REPR}
        mixed = len({r[3] for r in op_rows}) > 1
        head = ["body", "repr"] + (["params"] if has_params else []) + \
            (["threads"] if has_threads else []) + ["time / iteration"] + \
            (["figure"] if mixed else []) + \
            (["ns / inode"] if per_inode else []) + [f"vs {REFERENCE_REPR}"] + counters
        out += [f"#### {family}/{op}", "",
                f"Time: Google Benchmark real time per iteration ({how_text(r[3] for r in op_rows)}); "
                f"ratio = time / time of {REFERENCE_REPR} with the same body and parameters, same run.",
                "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for _, info, row, how in op_rows:
            ref = reference.get((info["body"], info["params"], info["threads"]))
            ratio = time_ns(row) / time_ns(ref) if ref and time_ns(ref) > 0 else None
            cells = [info["body"], info["repr"]]
            if has_params:
                cells.append("/".join(info["params"]))
            if has_threads:
                cells.append(str(info["threads"]))
            cells.append(f"{fmt(row['real_time'])} {row.get('time_unit', 'ns')}")
            if mixed:
                cells.append(how)
            if per_inode:
                cells.append(fmt(ns_per_inode(row, info)))
            cells.append(f"{ratio:.3f}" if ratio is not None else "-")
            cells += [fmt(row.get(c)) for c in counters]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return out


LAYOUT_COLUMNS = ("size", "ts_span", "holes", "padding", "ts_lines", "hot_lines")


def twin_layouts(sizes_dir, abi):
    """{body: description} where timespec and timespec64 have the same layout
    on @abi (same sizeof, timestamp span, holes, padding and cache lines in
    reports/layouts/sizes-<abi>.csv): true of every LP64 ABI."""
    twins = {}
    if not sizes_dir:
        return twins
    try:
        rows = {(row["body"], row["repr"]): row for row in read_sizes(sizes_dir, abi)}
    except (OSError, KeyError):
        return twins
    for body in BODIES:
        a, b = rows.get((body, "timespec")), rows.get((body, REFERENCE_REPR))
        if a and b and all(k in a and a[k] == b[k] for k in LAYOUT_COLUMNS):
            twins[body] = f"sizeof {a['size']}, timestamps at {a['ts_span']}, `sizes-{abi}.csv`"
    return twins


def twin_control(cells, body, twin):
    """The sentence on the timespec column where it is timespec64's layout."""
    ratios = sorted(v["timespec"] / v[REFERENCE_REPR] for v in cells.values()
                    if v.get("timespec") and v.get(REFERENCE_REPR))
    if not ratios:
        return []
    dev = statistics.median(abs(r - 1) for r in ratios)
    return [f"Control: in body {body} `timespec` has exactly `{REFERENCE_REPR}`'s layout on this ABI "
            f"({twin}), so its ratio measures everything that is not layout (run-to-run noise, and "
            f"code placement: each layout's code is compiled separately). In this table it runs "
            f"from {ratios[0]:.2f} to {ratios[-1]:.2f} (median |ratio - 1| = {dev:.2f}): a ratio of another "
            "column inside that range is no evidence of a layout effect.", ""]


def overview(chosen, family, twins=None):
    """One matrix per body: rows = operation (and parameters), columns = repr.

    Cells: ns per operation (accessor) or per inode (walk), and in brackets
    the ratio against timespec64 in the same row, the same run.  The tables
    per operation below carry the counters and how each figure was taken."""
    cells = {}
    for name, (row, _) in chosen.items():
        info = parse_name(name)
        if info["family"] != family or info["threads"] != 1:
            continue
        value = ns_per_inode(row, info) if family == "walk" else time_ns(row)
        key = (info["operation"],) + param_key(info["params"])
        cells.setdefault(info["body"], {}).setdefault(key, {})[info["repr"]] = value
    what = "ns per inode visited" if family == "walk" else "ns per operation"
    out = []
    for body in (b for b in BODIES if b in cells):
        head = ["operation"] + REPRS
        out += [f"#### {family} overview, body {body}", "",
                f"{what}; (ratio against {REFERENCE_REPR}, same row, same run).", "",
                "| " + " | ".join(head) + " |", "|---|" + "---:|" * len(REPRS)]
        for key in sorted(cells[body], key=lambda k: (k[0], k[1:])):
            values = cells[body][key]
            ref = values.get(REFERENCE_REPR)
            row_cells = ["/".join(str(k) for k in key)]
            for r in REPRS:
                v = values.get(r)
                if v is None:
                    row_cells.append("-")
                elif ref:
                    row_cells.append(f"{fmt(v)} ({v / ref:.2f})")
                else:
                    row_cells.append(fmt(v))
            out.append("| " + " | ".join(row_cells) + " |")
        out.append("")
        if twins and body in twins:
            out += twin_control(cells[body], body, twins[body])
        spread = sorted((row["cv_percent"], name) for name, (row, _) in chosen.items()
                        if "cv_percent" in row and parse_name(name)["family"] == family
                        and parse_name(name)["body"] == body)
        if spread:
            out += [f"Spread of the repetitions (coefficient of variation of real time): median "
                    f"{statistics.median(c for c, _ in spread):.1f} %, largest {spread[-1][0]:.1f} % "
                    f"(`{spread[-1][1]}`); ratios within that spread are not differences.", ""]
    return out


def ns_per_inode(row, info):
    """Real time per inode visited: per iteration / inodes per iteration.

    Inodes per iteration come from items_per_second when the row has it (a
    batch of one inode or a pass over N), else the last parameter N."""
    items = items_per_iteration(row)
    if items is None or items <= 0:
        if not info["params"] or not info["params"][-1].isdigit():
            return None
        items = int(info["params"][-1])
    return time_ns(row) / items


def shim_table(chosen):
    shim = {}
    for name, (row, how) in chosen.items():
        info = parse_name(name)
        if info["family"] == "shim":
            shim[(info["operation"], info["variant"], info["params"])] = (row, how)
    if not shim:
        return []
    out = ["#### shim overhead", "",
           "c_batch/N: the inner loop in C, one call into the shim per N iterations (the form every "
           "benchmark here uses); native: the same loop written against libbenchmark in C++; "
           "ratio = c_batch / native (1.000 = no overhead). Time per iteration of the loop body, "
           f"{how_text(h for _, h in shim.values())}.", "",
           "| body | variant | time / iteration | vs native |", "|---|---|---|---|"]
    for body in sorted({k[0] for k in shim}):
        native = shim.get((body, "native", ()))
        keys = sorted((k for k in shim if k[0] == body),
                      key=lambda k: (k[1] == "native", k[1], param_key(k[2])))
        for k in keys:
            row = shim[k][0]
            ratio = time_ns(row) / time_ns(native[0]) if native and k[1] != "native" else None
            variant = "/".join((k[1],) + k[2])
            out.append(f"| {body} | {variant} | {fmt(row['real_time'])} {row.get('time_unit', 'ns')} | "
                       + (f"{ratio:.3f}" if ratio is not None else "-") + " |")
    out.append("")
    return out


CEILING_PROBE = "load/touch_private/v6/scalar/real_time/threads:1"


def cpu_probes(context):
    """(before, after): {cpu: {probe: ns}} as scripts/lab bench measured them
    around the run (y2038_cpu_ns_before/_after), or None when not recorded or
    not of that shape."""
    try:
        pair = tuple({str(cpu): {str(p): float(ns) for p, ns in probes.items()}
                      for cpu, probes in context[key].items()}
                     for key in ("y2038_cpu_ns_before", "y2038_cpu_ns_after"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return pair


def scaling_ceiling(context):
    """What two threads can reach on the first two CPUs of the plan, from the
    per-CPU times scripts/lab bench measured with CEILING_PROBE pinned to each
    (None when not recorded)."""
    plan = str(context.get("y2038_thread_cpus", "")).split(" ")[0].split(",")
    probes = cpu_probes(context)
    if len(plan) < 2 or not probes:
        return None
    try:
        ns = [[s[cpu][CEILING_PROBE] for cpu in plan[:2]] for s in probes]
    except KeyError:
        return None
    if not all(x > 0 for pair in ns for x in pair):
        return None
    (b0, b1), (a0, a1) = ns
    return (f"Threads run on CPUs {plan[0]} then {plan[1]} (thread i on the i-th). One thread of "
            f"`{CEILING_PROBE}` pinned to each took {b0:.3g} and {b1:.3g} ns per update before the run "
            f"({a0:.3g} and {a1:.3g} after), so two threads can reach at most 1 + {b0:.3g}/{b1:.3g} = "
            f"{1 + b0 / b1:.2f} ({1 + a0 / a1:.2f} after), not 2.0; a ratio above that means the CPUs "
            "changed speed during the run.")


def load_scaling(chosen, context=None):
    rows = {}
    for name, (row, _) in chosen.items():
        info = parse_name(name)
        if info["family"] == "load":
            rows[(info["operation"], info["body"], info["repr"], info["params"], info["threads"])] = row
    if not rows:
        return []
    out = ["#### load: throughput and scaling", "",
           "ops/s = items_per_second (all threads); scaling = ops/s with 2 threads / ops/s with 1 "
           "(2.0 = perfect on two equal CPUs).", ""]
    ceiling = scaling_ceiling(context or {})
    if ceiling:
        out += [ceiling, ""]
    out += ["| operation | body | repr | params | ops/s, 1 thread | ops/s, 2 threads | scaling |",
           "|---|---|---|---|---|---|---|"]
    keys = sorted({k[:4] for k in rows},
                  key=lambda k: (k[0], BODIES.index(k[1]), param_key(k[3]), REPRS.index(k[2])))
    for op, body, repr_, params in keys:
        one = rows.get((op, body, repr_, params, 1), {}).get("items_per_second")
        two = rows.get((op, body, repr_, params, 2), {}).get("items_per_second")
        scaling = f"{two / one:.2f}" if one and two else "-"
        out.append(f"| {op} | {body} | {repr_} | {'/'.join(params) or '-'} | {fmt(one)} | "
                   f"{fmt(two)} | {scaling} |")
    out.append("")
    return out


def plots(chosen, abi, plots_dir):
    """PNG plots; returns Markdown image lines (file names relative to the report)."""
    walk, accessor = {}, {}
    for name, (row, _) in chosen.items():
        info = parse_name(name)
        if info["family"] == "walk" and info["operation"].startswith("stat") \
                and info["params"] and info["params"][-1].isdigit():
            value = ns_per_inode(row, info)
            if value is not None:
                walk.setdefault(info["body"], {}).setdefault(info["operation"], {}) \
                    .setdefault(info["repr"], []).append((int(info["params"][-1]), value))
        elif info["family"] == "accessor" and not info["params"] and info["threads"] == 1:
            accessor.setdefault(info["body"], {}).setdefault(info["operation"], {})[info["repr"]] = time_ns(row)
    if not walk and not accessor:
        return []
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(f"matplotlib is not importable by {sys.executable}: install python3-matplotlib "
             "(scripts/lab deps) or pass --no-plots")
    out = []
    for body in BODIES:
        for op, by_repr in sorted(walk.get(body, {}).items()):
            fig, ax = plt.subplots(figsize=(7, 4.2))
            for repr_ in REPRS:
                if repr_ in by_repr:
                    points = sorted(by_repr[repr_])
                    ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=repr_)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N (inodes)")
            ax.set_ylabel("ns per inode")
            ax.set_title(f"walk/{op}, body {body}, {abi}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
            name = f"bench-{abi}-walk-{op}-{body}.png"
            fig.tight_layout()
            fig.savefig(os.path.join(plots_dir, name), dpi=100)
            plt.close(fig)
            out.append(f"![walk/{op} ns per inode vs N, {body}, {abi}]({name})")
        ops = sorted(accessor.get(body, {}))
        if ops:
            fig, ax = plt.subplots(figsize=(8, max(3.0, 1.0 + 0.6 * len(ops))))
            height = 0.8 / len(REPRS)
            for i, repr_ in enumerate(REPRS):
                values = [accessor[body][op].get(repr_, float("nan")) for op in ops]
                ax.barh([j + i * height for j in range(len(ops))], values, height=height, label=repr_)
            ax.set_yticks([j + 0.4 - height / 2 for j in range(len(ops))])
            ax.set_yticklabels(ops)
            ax.invert_yaxis()
            ax.set_xlabel("ns per iteration")
            ax.set_title(f"accessor, body {body}, {abi}")
            ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
            name = f"bench-{abi}-accessor-{body}.png"
            fig.tight_layout()
            fig.savefig(os.path.join(plots_dir, name), dpi=100)
            plt.close(fig)
            out.append(f"![accessor ns/op per repr, {body}, {abi}]({name})")
    return out


SPEED_CHANGE_LIMIT = 0.15


def speed_change(context):
    """A warning when a CPU probe moved by more than SPEED_CHANGE_LIMIT
    between the measurements scripts/lab bench takes before and after the
    run, else None (also when they were not recorded)."""
    probes = cpu_probes(context)
    if not probes:
        return None
    before, after = probes
    moved = [f"CPU {cpu} `{probe}` {ns:.3g} -> {then:.3g} ns (x{then / ns:.2f})"
             for cpu in sorted(before) for probe, ns in sorted(before[cpu].items())
             for then in [after.get(cpu, {}).get(probe)]
             if then is not None and ns > 0 and abs(then / ns - 1) > SPEED_CHANGE_LIMIT]
    if not moved:
        return None
    return ("**the host changed speed during the run**: " + "; ".join(moved) +
            f" (more than {SPEED_CHANGE_LIMIT:.0%}); figures of this run may mix two speeds, "
            "ratios within the same table are safer than absolute times; re-run for absolute figures")


def context_lines(path, data):
    c = data["context"]
    # scripts/lab bench writes FILE.cmd: the exact command, then notes on
    # what it did and did not control (pinning, frequency governor, load).
    command, notes = "not recorded", []
    try:
        with open(path + ".cmd", encoding="utf-8") as f:
            command, *notes = f.read().strip().splitlines() or ["not recorded"]
    except OSError:
        pass
    facts = [("command", f"`{command}`"), ("file", f"`{os.path.basename(path)}`"),
             ("date", c.get("date", "?")), ("host", c.get("host_name", "?")),
             ("CPUs", f"{c.get('num_cpus', '?')} x {c.get('mhz_per_cpu', '?')} MHz, "
                      f"scaling {'on' if c.get('cpu_scaling_enabled') else 'off'}, "
                      "load average " + " ".join(f"{x:.2f}" for x in c.get("load_avg", []))),
             ("mode", c.get("y2038_mode", "?")), ("C compiler", c.get("y2038_c_compiler", "?")),
             ("C flags", f"`{c.get('y2038_c_flags', '?').strip()}`"),
             ("libbenchmark", f"library_build_type {c.get('library_build_type', '?')}"),
             ("seed", c.get("y2038_seed", "?"))] + [("run", note) for note in notes]
    warning = speed_change(c)
    if warning:
        facts.append(("warning", warning))
        warn(f"{path}: {warning}")
    return ["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in facts] + [""]


def section(path, data, plots_dir, sizes_dir=None):
    abi = data["context"].get("y2038_abi", "unknown ABI")
    chosen, errors = select(data["benchmarks"], path)
    out = [f"### Benchmarks on {abi}", "", f"ABI as recorded in the JSON context (y2038_abi = {abi}).", ""]
    out += context_lines(path, data)
    if not chosen:
        warn(f"{path}: no benchmark with a usable figure")
        out += ["No benchmark in this file produced a usable figure.", ""]
    families = sorted({parse_name(n)["family"] for n in chosen})
    twins = twin_layouts(sizes_dir, abi)
    for family in ("accessor", "walk"):
        if family in families:
            out += overview(chosen, family, twins)
    for family in families:
        if family == "shim":
            out += shim_table(chosen)
        else:
            out += layout_tables(chosen, family)
            if family == "load":
                out += load_scaling(chosen, data["context"])
    if errors:
        out += ["Benchmarks that reported an error (no figure):", ""]
        out += [f"- `{name}`: {message or 'no message'}" for name, message in errors]
        out.append("")
    if plots_dir:
        images = plots(chosen, abi, plots_dir)
        out += [line + "\n" for line in images]
    return out, abi, chosen


def read_sizes(sizes_dir, abi):
    """The rows of reports/layouts/sizes-<abi>.csv (OSError when unreadable)."""
    with open(os.path.join(sizes_dir, f"sizes-{abi}.csv"), encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def sizes_summary(sizes_dir):
    """{(abi, body, repr): sizeof} from reports/layouts/sizes-<abi>.csv."""
    sizes = {}
    for abi in SUMMARY_ABIS:
        try:
            for row in read_sizes(sizes_dir, abi):
                sizes[(row["abi"], row["body"], row["repr"])] = row["size"]
        except (OSError, KeyError) as err:
            warn(f"{os.path.join(sizes_dir, f'sizes-{abi}.csv')}: no size table "
                 f"({err.__class__.__name__}); left out of the summary")
    return sizes


def summary(args, sections):
    lines = ["## Summary", "", "<!-- summary -->"]
    sizes = sizes_summary(args.sizes) if args.sizes else {}
    if sizes:
        cols = [(abi, body) for abi in SUMMARY_ABIS for body in BODIES
                if any((abi, body, r) in sizes for r in REPRS)]
        lines += [f"sizeof(struct inode) in bytes, from pahole (`scripts/lab pahole`, "
                  f"{args.sizes}/sizes-*.csv):", "",
                  "| repr | " + " | ".join(f"{a} {b}" for a, b in cols) + " |",
                  "|---|" + "---:|" * len(cols)]
        for r in REPRS:
            lines.append(f"| {r} | " + " | ".join(sizes.get((a, b, r), "-") for a, b in cols) + " |")
        lines.append("")
    for path, abi, chosen in sections:
        acc = {}
        for name, (row, how) in chosen.items():
            info = parse_name(name)
            if info["family"] == "accessor" and info["body"] == "v6" and not info["params"]:
                acc.setdefault(info["operation"], {})[info["repr"]] = (time_ns(row), how)
        get = "get_mtime" if "get_mtime" in acc else None
        set_ = next((op for op in sorted(acc) if op.startswith("set_mtime")), None)
        ops = [op for op in (get, set_) if op]
        if not ops:
            continue
        hows = how_text(h for op in ops for _, h in acc[op].values())
        lines += [f"accessor ns per iteration, body v6, {abi} ({hows}; `scripts/lab bench`, "
                  f"{os.path.basename(path)}):", "",
                  "| repr | " + " | ".join(ops) + " |", "|---|" + "---:|" * len(ops)]
        for r in REPRS:
            lines.append(f"| {r} | " + " | ".join(fmt(acc[op][r][0]) if r in acc[op] else "-"
                                                 for op in ops) + " |")
        lines.append("")
    lines += ["<!-- /summary -->", ""]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--json", action="append", required=True, help="y2038-bench JSON (repeatable)")
    parser.add_argument("--fragment", required=True, help="Markdown fragment to write")
    parser.add_argument("--plots-dir", help="where PNGs go (default: next to the fragment)")
    parser.add_argument("--no-plots", action="store_true")
    parser.add_argument("--summary", help="also write the README summary fragment here")
    parser.add_argument("--sizes", help="reports/layouts: sizeof in the summary, layout twins in the overviews")
    parser.add_argument("--command", default="scripts/lab bench",
                        help="the command that produced the JSON, named in the fragment")
    args = parser.parse_args()
    datas = [(path, load(path)) for path in args.json]
    plots_dir = None if args.no_plots else (args.plots_dir or os.path.dirname(args.fragment) or ".")
    lines = ["## Benchmarks", "",
             f"Command: `{args.command}` (Google Benchmark JSON), tables and plots by "
             f"`scripts/bench_report.py`. Each section is one JSON file; its table names the run's "
             "command, host and date.", ""]
    sections = []
    for path, data in datas:
        text, abi, chosen = section(path, data, plots_dir, args.sizes)
        lines += text
        sections.append((path, abi, chosen))
    with open(args.fragment, "w", encoding="utf-8") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    if args.summary:
        with open(args.summary, "w", encoding="utf-8") as f:
            f.write("\n".join(summary(args, sections)))
    print(f"{PROG}: wrote {args.fragment} from {len(datas)} JSON file(s)")


if __name__ == "__main__":
    main()
