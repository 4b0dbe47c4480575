#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench_report_test.py - python3 -m y2038lab bench-report (y2038lab.benchreport) on fixtures.

tests/data/bench-fixture.json holds hand-written round figures (its context
says so) for several families: an aggregate case (three repetitions, median
1.5), an errored row, a two-part name outside the layout shape.  The test reads
the tables the script writes and checks figures and ratios.  A second run adds
a sixth representation, `ktime`, through the context key y2038_layouts only,
and checks that it appears in every table, the summary and the plots.
"""
import copy
import json
import os
import tempfile

from scripttest import HERE, TOP, expect, finish, run
from y2038lab.bench import checks as runchecks

FIXTURE = os.path.join(HERE, "data", "bench-fixture.json")
SIZES = os.path.join(TOP, "reports", "layouts")


def tables(text):
    """{heading: [row cells]} of every '#### ' table in a fragment."""
    out, heading = {}, None
    for line in text.splitlines():
        if line.startswith("#### "):
            heading = line[5:]
            out[heading] = []
        elif heading and line.startswith("| ") and not line.startswith("|---"):
            out[heading].append([c.strip() for c in line.strip("|").split("|")])
    return out


def row(table, *keys):
    """The first data row whose leading cells are keys."""
    return next((r for r in table[1:] if r[:len(keys)] == list(keys)), None)


def cell(table, r, column):
    return r[table[0].index(column)] if r and column in table[0] else None


probe = {"p": 1.0}
expect("speed change: x1.30 flagged, with CPU and factor", True,
       "CPU 1 `p` 1 -> 1.3 ns (x1.30)" in (runchecks.speed_change(
           {"y2038_cpu_ns_before": {"0": probe, "1": probe},
            "y2038_cpu_ns_after": {"0": probe, "1": {"p": 1.3}}}) or ""))
expect("speed change: x0.90 not flagged", None, runchecks.speed_change(
    {"y2038_cpu_ns_before": {"0": probe}, "y2038_cpu_ns_after": {"0": {"p": 0.9}}}))
expect("speed change: not recorded, nothing said", None, runchecks.speed_change({}))

with tempfile.TemporaryDirectory() as tmp:
    fragment, summary = os.path.join(tmp, "40-bench.md"), os.path.join(tmp, "05-summary.md")
    proc = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", fragment, "--plots-dir", tmp,
                "--summary", summary, "--sizes", SIZES])
    expect("fixture: exit status", 0, proc.returncode)
    if proc.returncode:
        print(proc.stderr)
    with open(fragment, encoding="utf-8") as f:
        text = f.read()
    t = tables(text)
    expect("section labelled by the context's ABI", True, "### Benchmarks on x86_64" in text)

    acc = t["accessor/get_mtime"]
    r = row(acc, "v6", "packed12")
    expect("aggregate: median used, not mean or a repetition", "1.5 ns", cell(acc, r, "time / iteration"))
    expect("aggregate: labelled as a median", "median of 3", cell(acc, r, "figure"))
    expect("aggregate: ratio vs timespec64", "1.500", cell(acc, r, "vs timespec64"))
    r = row(acc, "v6", "scalar")
    expect("single run: ratio vs timespec64", "1.250", cell(acc, r, "vs timespec64"))
    expect("single run: labelled", "single run", cell(acc, r, "figure"))
    expect("CPU / real per row", "1.00", cell(acc, r, "CPU / real"))
    expect("reference row: ratio 1", "1.000", cell(acc, row(acc, "v6", "timespec64"), "vs timespec64"))

    expect("errored row: not in its table", None, row(t["accessor/set_mtime_to_ts"], "v6", "multigrain"))
    expect("errored row: listed with its message", True,
           "`accessor/set_mtime_to_ts/v6/multigrain`: fixture: injected error" in text)

    walk = t["walk/stat_seq"]
    r = row(walk, "v6", "scalar", "65536")
    expect("walk: ns per inode from items_per_second", "1.5", cell(walk, r, "ns / inode"))
    expect("walk: ratio vs timespec64 at the same N", "0.750", cell(walk, r, "vs timespec64"))
    expect("walk: counter column", "1", cell(walk, r, "cachelines_touched_per_op"))
    expect("walk: no timespec64 at N=1024, no ratio", "-",
           cell(walk, row(walk, "v6", "scalar", "1024"), "vs timespec64"))

    shim = t["shim overhead"]
    expect("shim: c_batch/64 / native", "1.018", cell(shim, row(shim, "store_mtime", "c_batch/64"), "vs native"))
    load = t["load: throughput and scaling"]
    expect("paired: the resolution table, the controls and the comparison", True,
           "| accessor | ±0.30% | 1 of 1 within ±1%" in text and "x1.0625 [1.0593, 1.0657] (" in text
           and "| get_mtime | v6 | timespec64 | packed12 |  | x1.5000 [1.4955, 1.5045] | 0.002 | 10 |" in text)
    expect("paired: no per-family table of manual times", False, "#### paired/" in text)
    expect("speed change under 15 % not flagged (CPU 0 went 8 -> 9 ns, x1.12)", False,
           "host changed speed" in text)
    expect("load: ceiling from the CPU speeds, plan order (CPU 1 first)", True,
           "at most 1 + 6/8 = 1.75 (1.67 after)" in text)
    expect("load: scaling threads:2 / threads:1", "1.50",
           cell(load, row(load, "touch_shared", "v6", "scalar"), "scaling"))
    torn = t["torn/read_mtime"]
    expect("torn: count counter", "3", cell(torn, row(torn, "v6", "packed12"), "torn_reads"))
    expect("a two-part name outside the layout shape: its own table", "1 ns",
           cell(t.get("mystery/thing", [["time / iteration"]]), row(t.get("mystery/thing", [[]]), "-"),
                "time / iteration"))

    with open(summary, encoding="utf-8") as f:
        s = f.read()
    expect("summary: markers", True, s.count("<!-- summary -->") == 1 and "<!-- /summary -->" in s)
    expect("summary: sizeof x86_64 v6 scalar from sizes-x86_64.csv", True,
           any(line.startswith("| scalar | ") and line.split("|")[3].strip() == "608" for line in s.splitlines()))
    expect("summary: accessor get_mtime packed12, the paired ratio with its ruling", True,
           "| packed12 | x1.5000 [1.4955, 1.5045], p = 0.002: difference |" in s)
    for name in ("bench-x86_64-walk-v6.png", "bench-x86_64-heatmap-v6.png"):
        path = os.path.join(tmp, name)
        expect(f"plot {name}: a PNG", b"\x89PNG", open(path, "rb").read(4) if os.path.exists(path) else None)
        expect(f"plot {name}: linked", True, f"]({name})" in text)
    expect("no temporary file left", [], [n for n in os.listdir(tmp) if n.endswith(".tmp")])

    # A sixth representation through the data only: the context names it, rows carry it.
    with open(FIXTURE, encoding="utf-8") as f:
        data = json.load(f)
    data["context"]["y2038_layouts"] = "bodies: v4_4 v6, representations: timespec timespec64 packed12 " \
                                       "scalar multigrain ktime"
    extra = []
    for r in data["benchmarks"]:
        if r["run_name"] in ("accessor/get_mtime/v6/timespec64", "walk/stat_seq/v6/timespec64/65536"):
            k = copy.deepcopy(r)
            k["name"] = k["run_name"] = r["run_name"].replace("timespec64", "ktime")
            k["real_time"] = k["cpu_time"] = r["real_time"] * 2
            if "items_per_second" in k:
                k["items_per_second"] /= 2
            extra.append(k)
        if r["run_name"].endswith("~packed12/manual_time"):
            extra.append(dict(r, name=r["name"].replace("packed12", "ktime"), ratio=r["ratio"] * 4 / 3,
                              run_name=r["run_name"].replace("packed12", "ktime")))
    data["benchmarks"] += extra
    ktime_json = os.path.join(tmp, "bench-ktime.json")
    with open(ktime_json, "w", encoding="utf-8") as f:
        json.dump(data, f)
    plots = os.path.join(tmp, "k")
    os.mkdir(plots)
    proc = run(["-m", "y2038lab", "bench-report", "--json", ktime_json, "--fragment", fragment, "--plots-dir", plots,
                "--summary", summary, "--sizes", SIZES])
    expect("ktime: exit status", 0, proc.returncode)
    with open(fragment, encoding="utf-8") as f:
        t = tables(f.read())
    overview = t["accessor overview, body v6"]
    expect("ktime: a column of the accessor overview, last as in the context", "ktime", overview[0][-1])
    expect("ktime: overview cell with its ratio", "2 (2.00)", row(overview, "get_mtime")[-1])
    expect("ktime: walk per-operation row", "2.000", cell(t["walk/stat_seq"], row(t["walk/stat_seq"], "v6", "ktime",
                                                                                  "65536"), "vs timespec64"))
    with open(summary, encoding="utf-8") as f:
        expect("ktime: in the summary", True, "| ktime | x2.0000 [1.9940, 2.0060], p = 0.002: difference |" in f.read())
    expect("ktime: plots drawn", ["bench-x86_64-heatmap-v6.png", "bench-x86_64-walk-v6.png"],
           sorted(os.listdir(plots)))

finish("bench_report_test")
