#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""benchrun_test.py - `scripts/lab bench`'s run plan (y2038lab.benchrun) with a fake y2038-bench.

tests/fake_y2038_bench.py answers the Google Benchmark flags with made-up
figures, so this checks the plumbing, never a timing: the plan's partition
(every benchmark in exactly one pass, a headline pass with enough repetitions
for a U test), the merged JSON, the staging folder, and that a failed,
interrupted (SIGINT) or misconfigured run replaces nothing: the previous
results stay byte-identical and the message says so.
"""
import json
import os
import signal
import subprocess
import tempfile
import time

from scripttest import FAKE_BENCH, PYTHON, env, expect, finish, one_line_error, run, snapshot, write
from y2038lab.bench import run as benchrun
from y2038lab.core import results

PROCESSES = next(p.processes for p in benchrun.PLAN if p.name == "paired")

NAMES = ["accessor/get_mtime/v6/scalar", "accessor/set_ctime/v4_4/ktime", "walk/stat_seq/v6/scalar/4096",
         "walk/stat_random/v4_4/timespec/65536", "walk/stat_seq/v6/scalar/64", "walk/touch_seq/v6/scalar/4096",
         "walk/stat_seq/v6/scalar/65536/extra", "fstime/timestamp_truncate/gran:100/latency",
         "load/touch_shared/v6/scalar/real_time/threads:2", "torn/read/v6/ktime/seqcount/writer:busy/real_time",
         "shim/store_mtime/native"]
groups = benchrun.partition(NAMES)
expect("partition: every name exactly once", sorted(NAMES), sorted(n for g in groups.values() for n in g))
expect("partition: headline = accessors, fstime, walk/stat_* at the headline sizes",
       ["accessor/get_mtime/v6/scalar", "accessor/set_ctime/v4_4/ktime", "walk/stat_seq/v6/scalar/4096",
        "walk/stat_random/v4_4/timespec/65536", "fstime/timestamp_truncate/gran:100/latency"], groups["headline"])
expect("partition: threaded = load and torn", 2, len(groups["threaded"]))
expect("partition: the rest single", ["walk/stat_seq/v6/scalar/64", "walk/touch_seq/v6/scalar/4096",
                                      "walk/stat_seq/v6/scalar/65536/extra", "shim/store_mtime/native"],
       groups["single"])
headline = next(p for p in benchrun.PLAN if p.name == "headline")
expect("headline: >= 9 interleaved repetitions in both modes (U test)", True,
       headline.quick[0] >= 9 and headline.full[0] >= 9)
expect("rest filter: negation of the other passes", True,
       benchrun.filter_of(next(p for p in benchrun.PLAN if p.pattern is None)).startswith("-("))
overlap = (benchrun.Pass("a", "^walk/", False, (1, 0), (1, 0)), benchrun.Pass("b", "stat", False, (1, 0), (1, 0)),
           benchrun.Pass("c", None, False, (1, 0), (1, 0)))
try:
    benchrun.partition(NAMES, overlap)
    expect("overlapping plan refused", "RunError", "accepted")
except benchrun.RunError as err:
    expect("overlapping plan refused, naming both passes", True, "passes a and b" in str(err))

CPUS = sorted(os.sched_getaffinity(0))
OLD = {"bench-x86_64.json": "OLD x86_64 results\n", "bench-x86_64.json.cmd": "OLD command\n",
       "bench-i386.json": "OLD i386 results\n", "bench-x86_64-walk-stat_seq-v6.png": "OLD plot\n",
       "40-bench.md": "## OLD fragment\n"}


def bench(results_dir, *extra, program=FAKE_BENCH, **environ):
    return run(["-m", "y2038lab", "bench", "--results", results_dir, "--bench", f"x86_64={program}", *extra],
               environ=env(**environ))


def unchanged(case, folder, before):
    after = snapshot(folder)
    after = {k: v for k, v in after.items() if not k.startswith(benchrun.STAGING + os.sep)}
    expect(f"{case}: previous results byte-identical", before, after)


with tempfile.TemporaryDirectory() as tmp:
    res = os.path.join(tmp, "results", "x86_64-20380119")
    for name, text in OLD.items():
        write(os.path.join(res, name), text)
    before = snapshot(res)

    # Refused before anything is touched: no staging folder, old results as they were.
    for case, var, value, words in [
            ("Y2038_BENCH_CPUS not numbers", "Y2038_BENCH_CPUS", "0,x", "Y2038_BENCH_CPUS='0,x'"),
            ("Y2038_BENCH_CPUS a CPU not allowed", "Y2038_BENCH_CPUS", "99999", "not one this process may run on"),
            ("Y2038_BENCH_CPUS twice", "Y2038_BENCH_CPUS", f"{CPUS[0]},{CPUS[0]}", "listed twice"),
            ("Y2038_SEED not a number", "Y2038_SEED", "abc", "Y2038_SEED='abc'"),
            ("Y2038_SEED negative", "Y2038_SEED", "-1", "Y2038_SEED='-1'"),
            ("Y2038_SEED overflows", "Y2038_SEED", str(2**64), "out of range")]:
        proc = bench(res, **{var: value})
        one_line_error(case, proc, "y2038lab bench", words)
        expect(f"{case}: no staging folder", False, os.path.exists(os.path.join(res, benchrun.STAGING)))
        unchanged(case, res, before)
    one_line_error("--bench without ABI=", run(["-m", "y2038lab", "bench", "--results", res, "--bench",
                                                FAKE_BENCH]), "y2038lab bench", "expected ABI=BINARY")
    one_line_error("missing program", run(["-m", "y2038lab", "bench", "--results", res, "--bench",
                                           "x86_64=/nonexistent/y2038-bench"]), "y2038lab bench",
                   "no such program")
    one_line_error("results is a file", bench(os.path.join(res, "40-bench.md")), "y2038lab bench",
                   "is not a folder")
    unchanged("refused arguments", res, before)

    # Failures during the run: said, nothing replaced.
    for case, extra, environ, words in [
            ("threaded pass fails", [], {"FAKE_BENCH_FAIL": "^(load|torn)"}, "threaded pass"),
            ("NaN in a pass's JSON", [], {"FAKE_BENCH_NAN": "^(accessor/|"}, "real_time is nan"),
            ("ABI label differs from the program's", ["--bench", f"i386={FAKE_BENCH}"], {},
             "records y2038_abi=x86_64, expected i386")]:
        proc = bench(res, *extra, **environ)
        last = (proc.stderr.strip().splitlines() or [""])[-1]
        expect(f"{case}: exit 1", 1, proc.returncode)
        expect(f"{case}: says why and that nothing was replaced", True,
               words in last and "nothing replaced" in last and "unchanged" in last)
        unchanged(case, res, before)

    # Ctrl-C during a pass: SIGINT to the whole process group, as a terminal sends it.
    flag = os.path.join(tmp, "hanging")
    proc = subprocess.Popen([PYTHON, "-m", "y2038lab", "bench", "--results", res, "--bench", f"x86_64={FAKE_BENCH}"],
                            env=env(FAKE_BENCH_HANG="^(load|torn)", FAKE_BENCH_HANG_FLAG=flag), start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not os.path.exists(flag) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    expect("Ctrl-C: exit 130", 130, proc.returncode)
    expect("Ctrl-C: says it was interrupted and nothing replaced", True,
           "interrupted: nothing replaced" in err and "unchanged" in err)
    unchanged("Ctrl-C", res, before)

    # A run that completes replaces the bench outputs, removes the ones it does not produce
    # (bench-i386.json: i386 skipped now), and leaves everything else alone.
    # The program beside one of its other link orders (order 2): the paired pass's third
    # process runs that one, the others the program itself.
    log, bindir = os.path.join(tmp, "calls.log"), os.path.join(tmp, "bin")
    os.makedirs(bindir)
    for name in ("y2038-bench", "y2038-bench-order2"):
        os.symlink(FAKE_BENCH, os.path.join(bindir, name))
    proc = bench(res, "--skip", "i386=no i386 on this host", FAKE_BENCH_LOG=log,
                 program=os.path.join(bindir, "y2038-bench"))
    expect("complete run: exit 0", 0, proc.returncode)
    if proc.returncode:
        print(proc.stderr)
    after = snapshot(res)
    expect("complete run: outputs", sorted(["40-bench.md", "bench-i386.skipped", "bench-x86_64-walk-stat_seq-v6.png",
                                     "bench-x86_64.headline.txt", "bench-x86_64.json", "bench-x86_64.json.cmd",
                                     *[f"bench-x86_64.paired{k}.txt" for k in range(1, PROCESSES + 1)],
                                     "bench-x86_64.single.txt", "bench-x86_64.threaded.txt"], ), sorted(after))
    expect("complete run: files it does not own untouched", (before["40-bench.md"],
                                                             before["bench-x86_64-walk-stat_seq-v6.png"]),
           (after.get("40-bench.md"), after.get("bench-x86_64-walk-stat_seq-v6.png")))
    merged = results.load_run(os.path.join(res, "bench-x86_64.json"))
    with open(os.path.join(res, "bench-x86_64.json"), encoding="utf-8") as f:
        context = json.load(f)["context"]
    listed = subprocess.run([FAKE_BENCH, "--benchmark_list_tests"], capture_output=True, text=True).stdout.split()
    expect("merged: every benchmark of the program once", sorted(listed), sorted(merged.records))
    expect("merged: headline accessors have 9 repetitions, real and CPU time each", (9, 9),
           (len(merged.records["accessor/get_mtime/v6/ktime"].real_ns),
            len(merged.records["accessor/get_mtime/v6/ktime"].cpu_ns)))
    expect("merged: the rest 3", 3, len(merged.records["walk/stat_seq/v6/scalar/64"].real_ns))
    paired = merged.records["paired/accessor/get_mtime/v6/timespec64~scalar/manual_time"]
    expect("merged: paired benchmarks have PROCESSES x 3 rows, each with its ratio", 3 * PROCESSES,
           len(paired.counters["ratio"]))
    # Units are the programs that ran: the build has order 2 only, so process 3 ran it and every other
    # process the program itself, one placement, one unit (not one unit per process).
    expect("merged: each paired row names its unit, the program it ran (its link order)",
           [2 if (k - 1) % benchrun.LINK_ORDERS == 2 else 1 for k in range(1, PROCESSES + 1) for _ in range(3)],
           paired.counters["y2038_process"])
    expect("merged: and the process it ran in, where a link order has several",
           [k for k in range(1, PROCESSES + 1) for _ in range(3)], paired.counters.get("y2038_run_process"))
    expect("merged: no per-process aggregate of a paired benchmark", {}, paired.aggregates)
    expect("merged: the plan recorded", ["headline", "paired", "single", "threaded"],
           [p["pass"] for p in context["y2038_run_plan"]])
    expect("merged: the paired pass's processes and link orders recorded", (PROCESSES, 2),
           next((p["processes"], p["link_orders"]) for p in context["y2038_run_plan"] if p["pass"] == "paired"))
    expect("merged: probes before and after, per CPU", ([str(c) for c in CPUS], [str(c) for c in CPUS]),
           (sorted(context["y2038_cpu_ns_before"]), sorted(context["y2038_cpu_ns_after"])))
    expect("merged: a seed per process", 3 + PROCESSES, context["y2038_seed"].count(" pass)"))
    with open(log, encoding="utf-8") as f:
        calls = f.read().splitlines()
    passes = {c.split("--benchmark_out=")[1].split(".")[-1].split(" ")[0]: c for c in calls if "--benchmark_out=" in c}
    plan = context["y2038_thread_cpus"].split(" ")[0]
    expect("passes: the four ran, paired in PROCESSES processes",
           sorted(["headline", *[f"paired{k}" for k in range(1, PROCESSES + 1)], "single", "threaded"]),
           sorted(passes))
    expect("passes: the paired processes on link order 2 run it, the others (no such order) the program",
           ["y2038-bench-order2" if (k - 1) % benchrun.LINK_ORDERS == 2 else "y2038-bench"
            for k in range(1, PROCESSES + 1)],
           [passes[f"paired{k}"].split(" ")[0] for k in range(1, PROCESSES + 1)])
    expect("passes: single-threaded ones pinned to the plan's first CPU", [True] * (PROCESSES + 2),
           [passes[p].endswith(f"Y2038_BENCH_CPUS={plan.split(',')[0]}")
            for p in ("headline", *[f"paired{k}" for k in range(1, PROCESSES + 1)], "single")])
    expect("passes: the threaded one gets the whole plan", True,
           passes["threaded"].endswith(f"Y2038_BENCH_CPUS={plan}"))
    with open(os.path.join(res, "bench-i386.skipped"), encoding="utf-8") as f:
        expect("skip note: the reason", True, "no i386 on this host" in f.read())
    expect("no staging folder left", False, os.path.exists(os.path.join(res, benchrun.STAGING)))

    # The user's CPU list is the plan, in the user's order.
    proc = bench(res, Y2038_BENCH_CPUS=str(CPUS[-1]))
    with open(os.path.join(res, "bench-x86_64.json"), encoding="utf-8") as f:
        context = json.load(f)["context"]
    expect("Y2038_BENCH_CPUS: probes only those CPUs", [str(CPUS[-1])], sorted(context["y2038_cpu_ns_before"]))
    expect("Y2038_BENCH_CPUS: no skip note now, the old one removed", False,
           os.path.exists(os.path.join(res, "bench-i386.skipped")))

# interleave: two builds' paired passes in one run, each merged and judged as `lab bench` does.
with tempfile.TemporaryDirectory() as tmp:
    log = os.path.join(tmp, "calls.log")
    proc = run(["-m", "y2038lab", "interleave", "--side", f"before={FAKE_BENCH}:2", "--side", f"after={FAKE_BENCH}:3",
                "--out", tmp], environ=env(FAKE_BENCH_LOG=log))
    expect("interleave: exit 0, a resolution block per side", (0, 2),
           (proc.returncode, proc.stdout.count("Resolution of this run")), )
    with open(log, encoding="utf-8") as f:
        calls = f.read().splitlines()
    expect("interleave: the sides take turns, each its own count", 5, len(calls))
    after = results.load_run(os.path.join(tmp, "after.json"))
    # The fake program has no other link order: its three processes ran one placement, one unit.
    rec = after.records["paired/accessor/get_mtime/v6/timespec64~scalar/manual_time"]
    expect("interleave: a side's processes merged; without other link orders one unit, three processes",
           ([1] * 9, [1, 1, 1, 2, 2, 2, 3, 3, 3]),
           (rec.counters["y2038_process"], rec.counters.get("y2038_run_process")))
    for bad, why in (("nolabel", "expected LABEL=PROGRAM"), (f"x={FAKE_BENCH}:0", "PROCESSES must be"),
                     ("x=/no/such/program", "not an executable program")):
        one_line_error(f"interleave: --side {bad}", run(["-m", "y2038lab", "interleave", "--side", bad, "--side",
                                                         f"y={FAKE_BENCH}", "--out", tmp]), "y2038lab interleave", why)
finish("benchrun_test")
