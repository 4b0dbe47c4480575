#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench_report_test.py - scripts/bench_report.py on tests/data/bench-fixture.json.

The fixture holds hand-written round figures (its context says so) for
several families: an aggregate case (three repetitions, median 1.5), an
errored row, a name outside the naming scheme of docs/ARCHITECTURE.md.  The test reads the tables
the script writes and checks figures and ratios, then the bad-input exits.
"""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
script = os.path.join(here, "..", "scripts", "bench_report.py")
fixture = os.path.join(here, "data", "bench-fixture.json")
sizes = os.path.join(here, "..", "reports", "layouts")
passed = failed = 0


def expect(case, want, got):
    global passed, failed
    if want == got:
        passed += 1
    else:
        failed += 1
        print(f"FAIL [{case}]: expected {want!r}, got {got!r}")


def report(*args):
    return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)


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


try:
    import matplotlib  # noqa: F401
    plots = []
except ImportError:
    plots = ["--no-plots"]
    print("bench_report_test: matplotlib not importable by this interpreter: plots not checked")

spec = importlib.util.spec_from_file_location("bench_report", script)
bench_report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_report)
probe = {"p": 1.0}
expect("speed change: x1.30 flagged, with CPU and factor", True,
       "CPU 1 `p` 1 -> 1.3 ns (x1.30)" in (bench_report.speed_change(
           {"y2038_cpu_ns_before": {"0": probe, "1": probe},
            "y2038_cpu_ns_after": {"0": probe, "1": {"p": 1.3}}}) or ""))
expect("speed change: x0.90 not flagged", None, bench_report.speed_change(
    {"y2038_cpu_ns_before": {"0": probe}, "y2038_cpu_ns_after": {"0": {"p": 0.9}}}))
expect("speed change: not recorded, nothing said", None, bench_report.speed_change({}))

with tempfile.TemporaryDirectory() as tmp:
    fragment, summary = os.path.join(tmp, "40-bench.md"), os.path.join(tmp, "05-summary.md")
    proc = report("--json", fixture, "--fragment", fragment, "--plots-dir", tmp,
                  "--summary", summary, "--sizes", sizes, *plots)
    expect("fixture: exit status", 0, proc.returncode)
    expect("fixture: unknown name warned", True, "unknown benchmark name 'mystery/thing'" in proc.stderr)
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
    expect("twin layouts: timespec is timespec64's layout on x86_64, its ratio is the control", True,
           "`timespec` has exactly `timespec64`'s layout on this ABI (sizeof 624" in text
           and "runs from 1.10 to 1.10" in text)
    expect("speed change under 15 % not flagged (CPU 0 went 8 -> 9 ns, x1.12)", False,
           "host changed speed" in text)
    expect("load: ceiling from the CPU speeds, plan order (CPU 1 first)", True,
           "at most 1 + 6/8 = 1.75 (1.67 after)" in text)
    expect("load: scaling threads:2 / threads:1", "1.50",
           cell(load, row(load, "touch_shared", "v6", "scalar"), "scaling"))
    torn = t["torn/read_mtime"]
    expect("torn: count counter", "3", cell(torn, row(torn, "v6", "packed12"), "torn_reads"))
    expect("unknown name: not reported", False, "mystery" in text)

    with open(summary, encoding="utf-8") as f:
        s = f.read()
    expect("summary: markers", True, s.count("<!-- summary -->") == 1 and "<!-- /summary -->" in s)
    expect("summary: sizeof x86_64 v6 scalar from sizes-x86_64.csv", True,
           any(line.startswith("| scalar | ") and line.split("|")[3].strip() == "616" for line in s.splitlines()))
    expect("summary: accessor get_mtime packed12", True, "| packed12 | 1.5 | - |" in s)
    if not plots:
        for name in ("bench-x86_64-walk-stat_seq-v6.png", "bench-x86_64-accessor-v6.png"):
            path = os.path.join(tmp, name)
            expect(f"plot {name}: a PNG", b"\x89PNG", open(path, "rb").read(4) if os.path.exists(path) else None)
            expect(f"plot {name}: linked", True, f"]({name})" in text)

    # Bad input: one-line error, non-zero exit, no traceback.
    empty = os.path.join(tmp, "empty.json")
    with open(empty, "w", encoding="utf-8") as f:
        json.dump({"context": {}, "benchmarks": []}, f)
    broken = os.path.join(tmp, "broken.json")
    with open(broken, "w", encoding="utf-8") as f:
        f.write('{"context": {}, "benchmarks": [')
    other = os.path.join(tmp, "other.json")
    with open(other, "w", encoding="utf-8") as f:
        json.dump([1, 2, 3], f)
    for case, path, words in [("missing file", os.path.join(tmp, "absent.json"), "cannot read"),
                              ("invalid JSON", broken, "not valid JSON"),
                              ("no benchmarks", empty, "no benchmarks"),
                              ("not Google Benchmark JSON", other, "no \"benchmarks\" list")]:
        proc = report("--json", path, "--fragment", os.path.join(tmp, "bad.md"), "--no-plots")
        lines = proc.stderr.strip().splitlines()
        expect(f"{case}: non-zero exit", True, proc.returncode != 0)
        expect(f"{case}: one line", 1, len(lines))
        expect(f"{case}: says why", True, bool(lines) and lines[0].startswith("bench_report.py: error:")
               and words in lines[0])

print(f"bench_report_test: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
