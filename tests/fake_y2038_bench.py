#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""fake_y2038_bench.py - a stand-in for y2038-bench in the scripts' tests.

It answers the Google Benchmark flags y2038lab.benchrun and perf_report.py
use (--benchmark_list_tests, _filter with '-' negation, _repetitions,
_min_time, _format, _out, _out_format, _enable_random_interleaving,
--y2038_full) with made-up, clearly labelled figures: it never measures
anything, so the tests check the plumbing (plan, staging, merge, errors),
never a timing.  Environment:
  FAKE_BENCH_ABI      y2038_abi in the context (default x86_64)
  FAKE_BENCH_REPRS    the representations (default: timespec timespec64 scalar ktime)
  FAKE_BENCH_HANG     a prefix: a run whose filter starts with it touches $FAKE_BENCH_HANG_FLAG, sleeps 60 s
  FAKE_BENCH_FAIL     a prefix: a run whose filter starts with it exits 3
  FAKE_BENCH_NAN      a prefix: a run whose filter starts with it writes a NaN time
  FAKE_BENCH_LOG      append one line per invocation (program name, argv and Y2038_BENCH_CPUS)
"""
import datetime
import json
import os
import re
import sys
import time

BODIES = ["v4_4", "v6"]


def names(full):
    reprs = os.environ.get("FAKE_BENCH_REPRS", "timespec timespec64 scalar ktime").split()
    out = ["shim/store_mtime/native", "shim/store_mtime/c_batch/64",
           "paired/accessor/get_mtime/v6/timespec64~scalar/manual_time"]
    sizes = [64, 4096, 65536] + ([262144, 1048576] if full else [])
    for body in BODIES:
        for repr_ in reprs:
            out += [f"accessor/get_mtime/{body}/{repr_}", f"accessor/set_mtime/{body}/{repr_}"]
            out += [f"walk/stat_seq/{body}/{repr_}/{n}" for n in sizes]
            out += [f"load/touch_private/{body}/{repr_}/real_time/threads:{t}" for t in (1, 2)]
            if body == "v6":
                out.append(f"torn/read/{body}/{repr_}/unprotected/writer:busy/real_time")
    return out


def row(name, rep, reps, ns):
    r = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": reps,
         "repetition_index": rep, "threads": 2 if name.endswith("threads:2") else 1, "iterations": 1000,
         "real_time": ns, "cpu_time": ns * 0.98, "time_unit": "ns"}
    if name.startswith(("walk/", "load/")):
        items = int(name.split("/")[4]) if name.startswith("walk/") else 1
        r["items_per_second"] = items / (ns * 1e-9)
    if name.startswith("paired/"):
        r.update(ratio=ns, a_ns=1.0, b_ns=ns, pairs=1000)
    return r


def main(argv):
    opts, full = {}, False
    for arg in argv:
        if arg == "--y2038_full":
            full = True
            continue
        m = re.fullmatch(r"--(benchmark_\w+)(?:=(.*))?", arg)
        if not m:
            print(f"fake-y2038-bench: unknown flag {arg}", file=sys.stderr)
            return 1
        opts[m.group(1)] = m.group(2) if m.group(2) is not None else "true"
    with open(os.environ.get("FAKE_BENCH_LOG", os.devnull), "a", encoding="utf-8") as f:
        f.write(f"{os.path.basename(sys.argv[0])} {' '.join(argv)} | "
                f"Y2038_BENCH_CPUS={os.environ.get('Y2038_BENCH_CPUS', '')}\n")
    spec = opts.get("benchmark_filter", ".")
    negative = spec.startswith("-")
    pattern = spec[1:] if negative else spec
    chosen = [n for n in names(full) if bool(re.search(pattern, n)) != negative]
    if opts.get("benchmark_list_tests") == "true":
        print("\n".join(chosen))
        return 0
    if not chosen:
        print(f"Failed to match any benchmarks against regex: {spec}", file=sys.stderr)
        return 1
    for word, action in (("FAKE_BENCH_FAIL", "fail"), ("FAKE_BENCH_HANG", "hang")):
        if os.environ.get(word) and spec.startswith(os.environ[word]):
            if action == "fail":
                return 3
            open(os.environ["FAKE_BENCH_HANG_FLAG"], "w").close()
            time.sleep(60)
    reps = int(opts.get("benchmark_repetitions", "1"))
    rows = []
    for name in chosen:
        base = 1.0 + (sum(map(ord, name)) % 97) / 100
        for rep in range(reps):
            rows.append(row(name, rep, reps, base * (1 + 0.01 * rep)))
        if reps > 1:
            for agg in ("mean", "median", "stddev", "cv"):
                value = base * 1.01 if agg in ("mean", "median") else 0.01 * base if agg == "stddev" else 0.01
                rows.append(dict(row(name, 0, reps, value), run_type="aggregate", aggregate_name=agg,
                                 aggregate_unit="percentage" if agg == "cv" else "time"))
    if os.environ.get("FAKE_BENCH_NAN") and spec.startswith(os.environ["FAKE_BENCH_NAN"]):
        rows[0]["real_time"] = float("nan")
    reprs = os.environ.get("FAKE_BENCH_REPRS", "timespec timespec64 scalar ktime")
    data = {"context": {"date": datetime.datetime.now().isoformat(), "host_name": "fake",
                        "num_cpus": os.cpu_count(), "mhz_per_cpu": 1, "cpu_scaling_enabled": False,
                        "load_avg": [0.0, 0.0, 0.0], "library_build_type": "release",
                        "y2038_abi": os.environ.get("FAKE_BENCH_ABI", "x86_64"),
                        "y2038_mode": "full" if full else "quick",
                        "y2038_seed": os.environ.get("Y2038_SEED", "12345"),
                        "y2038_layouts": f"bodies: {' '.join(BODIES)}, representations: {reprs}",
                        "y2038_thread_cpus": f"{os.environ.get('Y2038_BENCH_CPUS', '0')} (Y2038_BENCH_CPUS)",
                        "y2038_fixture_note": "fake_y2038_bench.py: made-up figures, not a measurement"},
            "benchmarks": rows}
    text = json.dumps(data, indent=1)
    if "benchmark_out" in opts:
        with open(opts["benchmark_out"], "w", encoding="utf-8") as f:
            f.write(text)
    print(text if opts.get("benchmark_format") == "json" else
          "\n".join(f"{r['name']} {r['real_time']} ns" for r in rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
