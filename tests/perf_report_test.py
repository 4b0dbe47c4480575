#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""perf_report_test.py - the parsers of python3 -m y2038lab perf on samples.

tests/data/perf-stat-not-supported.csv is this VM's real `perf stat -x,`
output (no counters); perf-stat-counters.csv is the same layout with counts
(written by hand, see its header); gbench-v2-log.txt and
callgrind-dump-head.txt are captured from y2038-bench here.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scripttest import expect, finish  # noqa: E402
from y2038lab.perf import report as p  # noqa: E402
from y2038lab.perf import walk as walkrun  # noqa: E402



def data(name):
    with open(os.path.join(here, "data", name), encoding="utf-8") as f:
        return f.read()


unsupported = p.parse_perf_csv(data("perf-stat-not-supported.csv"))
expect("not supported: every event listed", sorted(p.PERF_EVENTS), sorted(unsupported))
expect("not supported: instructions is None", None, unsupported["instructions"])
expect("not supported: no event has a count", [], [e for e, v in unsupported.items() if v is not None])

counted = p.parse_perf_csv(data("perf-stat-counters.csv"))
expect("counters: instructions", 2409135780.0, counted["instructions"])
expect("counters: L1 misses (metric columns ignored)", 30114197.0, counted["L1-dcache-load-misses"])
expect("counters: <not counted> is None", None, counted["LLC-load-misses"])

for case, text in [("garbage line", "hello\n"), ("count not a number", "12x,,cycles,1,100.00,,\n")]:
    try:
        p.parse_perf_csv(text)
        expect(f"{case}: ValueError", "ValueError", "no error")
    except ValueError:
        expect(f"{case}: ValueError", "ValueError", "ValueError")

log = data("gbench-v2-log.txt")
runs = walkrun.run_iterations(log, "shim/store_mtime/c_batch/64")
expect("v2 log: runs of the benchmark", [1, 640, 6400, 64000, 640000, 6400000, 64000000, 111861191], runs)
expect("v2 log: other names ignored", [], walkrun.run_iterations(log, "shim/store_mtime/c_batch/6"))

expect("batch: a run asked for 1 iteration runs one whole batch", 65536, walkrun.iterations_run(1, 65536.0))
expect("batch: rounded up to whole batches", 3 * 65536, walkrun.iterations_run(2 * 65536 + 1, 65536))
expect("batch: exact multiples stay", 33 * 65536, walkrun.iterations_run(33 * 65536, 65536))
expect("batch: no batch counter = 1", 640, walkrun.iterations_run(640, 1))
for bad in (0, -4, 2.5, "64"):
    try:
        walkrun.iterations_run(10, bad)
        expect(f"batch {bad!r}: ValueError", "ValueError", "no error")
    except ValueError:
        expect(f"batch {bad!r}: ValueError", "ValueError", "ValueError")

path = os.path.join(here, "data", "callgrind-dump-head.txt")
values, geometry = p.parse_callgrind(path)
expect("callgrind: Ir", 40643205, values["Ir"])
expect("callgrind: D1mr (trailing zeros omitted by callgrind)", 0, values["D1mr"])
expect("callgrind: I1mr", 25, values["I1mr"])
expect("callgrind: LL = ILmr + DLmr + DLmw", 0, values["LL"])
expect("callgrind: geometry lines", 3, len(geometry))
expect("callgrind: D1 geometry", "D1 cache: 32768 B, 64 B, 8-way associative", geometry[1])
try:
    p.parse_callgrind(os.path.join(here, "data", "perf-stat-counters.csv"))
    expect("callgrind: not a dump", "ValueError", "no error")
except ValueError:
    expect("callgrind: not a dump", "ValueError", "ValueError")

# The layouts to measure come from the program's list (a sixth representation included).
fake = os.path.join(here, "fake_y2038_bench.py")
picked = walkrun.fitting_walks(walkrun.walk_sizes(fake, "stat_seq"), 65536)
expect("pick: one walk per layout, the largest N <= n_max, registration order",
       [("v4_4", "timespec", "walk/stat_seq/v4_4/timespec/65536"), ("v6", "ktime", "walk/stat_seq/v6/ktime/65536")],
       [k + (v,) for k, v in picked.items()][::len(picked) - 1])
expect("pick: every layout of the program", 8, len(picked))
expect("pick: n_max respected", {"walk/stat_seq/v6/scalar/4096"},
       {v for k, v in walkrun.fitting_walks(walkrun.walk_sizes(fake, "stat_seq"), 5000).items() if k == ("v6", "scalar")})
expect("layout_parts: shim is no layout", None, walkrun.layout_parts("shim/store_mtime/c_batch/64"))

finish("perf_report_test")
