"""`scripts/lab bench`: run y2038-bench by the plan below, replace the previous results only when done.

For each ABI: the CPUs are probed (PROBES pinned to each CPU in turn: on the
reference VM one vCPU ran the same code 1.4-1.8x slower than the other for
minutes at a time, and unpinned runs were bimodal), the passes of PLAN run in
order, the CPUs are probed again, and the passes' JSON is merged into
bench-ABI.json with both probe sets in its context (y2038_cpu_ns_before/
_after), the plan (y2038_run_plan) and every pass's seed.  bench-ABI.json.cmd
records the exact commands and what was not controlled; bench-ABI.PASS.txt
the console output; bench-ABI.skipped why an ABI was not run.

Everything is written into DIR/bench.partial first; only when every ABI
completed are the files moved into DIR and the previous bench-* files that the
new run does not replace removed.  A failure, Ctrl-C or a bad
Y2038_BENCH_CPUS / Y2038_SEED (checked before anything runs) leaves DIR's
previous results as they were and says so.
"""
import argparse
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass

from y2038lab.core import envvars, fsio
from y2038lab.core.results import load_run, parse_run

ACCESSOR_PROBE = "accessor/get_mtime/v6/scalar"
LOAD_PROBE = "load/touch_private/v6/scalar/real_time/threads:1"
PROBES = (ACCESSOR_PROBE, LOAD_PROBE)
PROBE_ARGS = ("--benchmark_min_time=0.05", "--benchmark_repetitions=3")
LINK_ORDERS = 20  # y2038-bench and y2038-bench-order1..19 (Y2038_BENCH_LINK_ORDERS, bench/CMakeLists.txt)
STAGING = "bench.partial"
GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
OUTPUT_NAME = re.compile(r"bench-\w+(\.json|\.json\.cmd|\.\w+\.txt|\.skipped)")


@dataclass(frozen=True)
class Pass:
    """One y2038-bench process.  pattern: a regular expression Python and Google
    Benchmark (POSIX extended) read alike; None takes every benchmark no other
    pass takes.  Patterns must not overlap (checked on the real list).
    threaded: its threads pin themselves to the plan (Y2038_BENCH_CPUS), else
    the process is pinned to the plan's first CPU.  quick/full: (interleaved
    repetitions, --benchmark_min_time in s or None for Google Benchmark's 0.5).
    processes: the pass runs that many times, process k with link_order(k mod
    LINK_ORDERS); their iteration rows merged with y2038_process = k + 1, each
    process's own aggregates dropped."""
    name: str
    pattern: object
    threaded: bool
    quick: tuple
    full: tuple
    processes: int = 1


# headline: what the verdict compares with a U test (>= 9 repetitions per
# side): every accessor, fstime/*, the calibration loops the cost report
# turns accessor times into cycles with (bench/calibrate.c), and the walks
# at one cache-resident and one memory-bound size.  paired: A and B timed in alternating ~8 us blocks
# (bench/paired.h), each repetition one ratio; its statistics
# (y2038lab.core.paired) resolve what the unpaired repetitions cannot on a
# host that changes speed.  It runs in twenty processes, process k on link
# order k mod LINK_ORDERS of the program (twenty: one process each): where
# identical code and data lie biases a paired ratio for as long as the
# placement stays (the fstime twin at gran 1 ns, in range: x1.27, x0.84 and
# x1.00 in three processes of one binary; the twin of set_atime x0.977 in
# every process of one build, x1.000 in another), so the repetitions of one
# process share one bias, and the statistic's unit is the link order: the
# median of the repetitions of its processes (merged()).  What would be fixed
# within a process is drawn per process (main.c: the stack offset) or per
# call (paired.c: which side is set up first, where a walk's slab lies), and
# each link order places the timed code on its own (bench/CMakeLists.txt);
# fstime.c gives each kind of pair its own copy of mainline's function
# (fstime_a()).
# The paired pass holds the walks too (paired/walk/*: every case at every
# quick-mode size, each side a slab of its own, kept between Google
# Benchmark's calls of one repetition).  threaded: load/* is not paired (its
# threads would have to switch A and B together every ~8 us), so it takes the
# U test's 9 repetitions, and its twin control (timespec vs timespec64 on LP64)
# gives its resolution; torn/* (counts) runs along.
# The rest needs medians only.
PLAN = (
    Pass("headline", r"^(accessor/|fstime/|calibrate/|walk/stat_(seq|random)/[^/]+/[^/]+/(4096|65536)$)",
         False, (9, 0.01), (25, 0.1)),
    Pass("paired", r"^paired/", False, (3, 0.002), (5, 0.01), processes=20),
    Pass("single", None, False, (3, 0.02), (5, None)),
    Pass("threaded", r"^(load|torn)/", True, (9, 0.02), (9, 0.1)),
)


class RunError(Exception):
    """A step of the run failed (one line)."""


def log(message):
    print(f"{fsio.prog()}: {message}", file=sys.stderr, flush=True)


def partition(names, plan=PLAN):
    """{pass name: [benchmark names]}: each name in exactly one pass."""
    out = {p.name: [] for p in plan}
    rest = next(p for p in plan if p.pattern is None)
    for name in names:
        hits = [p for p in plan if p.pattern and re.search(p.pattern, name)]
        if len(hits) > 1:
            raise RunError(f"{name} matches passes {hits[0].name} and {hits[1].name}: the plan overlaps")
        out[(hits[0] if hits else rest).name].append(name)
    return out


def filter_of(p, plan=PLAN):
    """P's --benchmark_filter: its pattern, or (the rest) the negation of every other pass's."""
    others = "|".join(q.pattern for q in plan if q.pattern is not None)
    return p.pattern if p.pattern is not None else f"-({others})"


def link_order(binary, k):
    """BINARY linked in its k-th other order (BINARY-order<k>: the same objects linked in another order,
    bench/CMakeLists.txt), else (order 0, or where it is absent) BINARY itself."""
    other = f"{binary}-order{k}"
    return other if k and os.access(other, os.X_OK) else binary


def pass_flags(p, full=False):
    """Google Benchmark's flags for a process of pass P: its repetitions, interleaved, and its minimum time."""
    reps, min_time = p.full if full else p.quick
    return ((["--y2038_full"] if full else []) + [f"--benchmark_repetitions={reps}",
                                                  "--benchmark_enable_random_interleaving=true"]
            + ([f"--benchmark_min_time={min_time}"] if min_time is not None else []))


def run(cmd, env, **kwargs):
    try:
        return subprocess.run(cmd, env=env, **kwargs)
    except OSError as err:
        raise RunError(f"{cmd[0]}: cannot run ({err.strerror or err})") from None


def list_tests(binary, full):
    proc = run([binary, "--benchmark_list_tests=true"] + (["--y2038_full"] if full else []),
               os.environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        raise RunError(f"{binary} --benchmark_list_tests failed (exit {proc.returncode}: "
                       f"{(proc.stderr.strip().splitlines() or ['no message'])[-1]})")
    return proc.stdout.split()


def probe_cpus(binary, cpus):
    """{cpu: {probe: median ns}}, each CPU measured with the program pinned to it."""
    pattern = "^(" + "|".join(re.escape(p) for p in PROBES) + ")$"
    speeds = {}
    for cpu in cpus:
        cmd = ["taskset", "-c", str(cpu), binary, f"--benchmark_filter={pattern}", *PROBE_ARGS,
               "--benchmark_format=json"]
        proc = run(cmd, dict(os.environ, Y2038_BENCH_CPUS=str(cpu)), stdout=subprocess.PIPE,
                   stderr=subprocess.DEVNULL, text=True)
        if proc.returncode != 0:
            raise RunError(f"probing CPU {cpu}: {binary} failed (exit {proc.returncode})")
        probe_run = parse_run(proc.stdout, f"{binary} (probe of CPU {cpu})")
        missing = [p for p in PROBES if p not in probe_run.records]
        if missing:
            raise RunError(f"probing CPU {cpu}: {binary} did not run {missing[0]}")
        speeds[cpu] = {p: probe_run.records[p].median_real_ns()[0] for p in PROBES}
    return speeds


def speeds_text(speeds):
    return "; ".join(f"CPU {cpu} {s[ACCESSOR_PROBE]:.4g} ns/get, {s[LOAD_PROBE]:.4g} ns/update"
                     for cpu, s in speeds.items())


def run_abi(abi, binary, staging, full, user_cpus):
    """Probe, run every pass, probe again, merge into STAGING/bench-ABI.json."""
    groups = partition(list_tests(binary, full))
    cpus = user_cpus or sorted(os.sched_getaffinity(0))
    before = probe_cpus(binary, cpus)
    plan = user_cpus or sorted(cpus, key=lambda c: before[c][LOAD_PROBE])
    plan_text = ",".join(map(str, plan))
    log(f"{abi}: per CPU: {speeds_text(before)}; plan {plan_text}"
        + (" (Y2038_BENCH_CPUS)" if user_cpus else " (fastest first)"))
    out = os.path.join(staging, f"bench-{abi}.json")
    commands, parts, plan_record = [], [], []
    for p in PLAN:
        if not groups[p.name]:
            log(f"{abi} ({p.name} pass): no benchmark of this build matches, pass skipped")
            continue
        reps, min_time = p.full if full else p.quick
        flags = pass_flags(p, full)
        launcher = [] if p.threaded else ["taskset", "-c", str(plan[0])]
        cpus_env = plan_text if p.threaded else str(plan[0])
        binaries = [link_order(binary, k % LINK_ORDERS) for k in range(p.processes)]
        for k, program in enumerate(binaries):
            name = p.name + (f"{k + 1}" if p.processes > 1 else "")
            part, console_path = f"{out}.{name}", f"{out[:-len('.json')]}.{name}.txt"
            cmd = launcher + [program, *flags, f"--benchmark_filter={filter_of(p)}",
                              "--benchmark_out_format=json", f"--benchmark_out={part}"]
            shown = f"Y2038_BENCH_CPUS={cpus_env} " + shlex.join(cmd).replace(staging + os.sep, "")
            log(f"{abi} ({name} pass, {len(groups[p.name])} benchmarks): {shown}")
            with open(console_path, "w", encoding="utf-8") as console:
                proc = run(cmd, dict(os.environ, Y2038_BENCH_CPUS=cpus_env), stdout=console)
            if proc.returncode != 0:
                raise RunError(f"{abi} {name} pass: {program} exited {proc.returncode} "
                               f"(console output: {console_path})")
            ran = load_run(part)
            if ran.abi != abi:
                raise RunError(f"{program} records y2038_abi={ran.abi}, expected {abi}")
            got = set(ran.records) | {n for n, _ in ran.errors}
            if got != set(groups[p.name]):
                odd = sorted(got ^ set(groups[p.name]))
                raise RunError(f"{abi} {name} pass ran {len(got)} benchmarks, the plan has "
                               f"{len(groups[p.name])} (first difference: {odd[0]})")
            parts.append((p, part, program))
        orders = len(set(binaries))
        each = (f" in each of {p.processes} processes, {orders} link order{'s' * (orders > 1)}"
                if p.processes > 1 else "")
        commands.append(f"{p.name} pass ({len(groups[p.name])} benchmarks, {reps} interleaved "
                        f"repetitions{each}): `{shown}`")
        plan_record.append({"pass": p.name, "benchmarks": len(groups[p.name]),
                            "repetitions": reps * p.processes, "processes": p.processes,
                            "link_orders": orders,
                            "min_time_s": min_time if min_time is not None else 0.5,
                            "cpus": f"threads on {plan_text}" if p.threaded else f"pinned to CPU {plan[0]}"})
    after = probe_cpus(binary, cpus)
    log(f"{abi}: per CPU afterwards: {speeds_text(after)}")
    merge(out, parts, plan_record, before, after)
    load = " ".join((fsio.read_or_none("/proc/loadavg") or "unknown").split()[:3])
    governor = fsio.read_or_none(GOVERNOR)
    fsio.write_text(out + ".cmd", "\n".join([
        f"{binary} in {len(parts)} passes, merged (exact commands below)", *commands,
        f"CPUs measured before the run (pinned, medians of {' '.join(PROBES)}): {speeds_text(before)}",
        f"CPUs measured after the run: {speeds_text(after)}",
        f"thread plan {plan_text} ({'Y2038_BENCH_CPUS' if user_cpus else 'fastest first'}): "
        f"single-threaded passes pinned to CPU {plan[0]}, thread i of a threaded one on CPU i of the plan",
        f"cpufreq governor: {governor.strip()} (left as it was)" if governor is not None else
        f"cpufreq governor: not exposed ({GOVERNOR} absent), frequency not controlled",
        f"load average before the run: {load}"]) + "\n")
    log(f"{abi}: {len(load_run(out).records)} benchmarks in {os.path.basename(out)}")


def merge(out, parts, plan_record, before, after):
    """OUT from PARTS, [(Pass, JSON path, program)]: merged(), each process's program recorded; the parts removed."""
    datas = []
    for p, path, program in parts:
        data = json.loads(fsio.read_text(path))
        data["context"]["y2038_program"] = os.path.basename(program)
        datas.append((p, data))
    fsio.write_text(out, json.dumps(merged(datas, plan_record, before, after), indent=2) + "\n")
    for _, path, _ in parts:
        os.unlink(path)


def merged(datas, plan_record, before, after):
    """One suite JSON from DATAS, [(Pass, Google Benchmark JSON)] in the order they ran: the first
    one's context with every pass's seed and date, the plan and the CPU probes; the rows of each
    one-process pass as they are, those of a pass of several processes as iteration rows with
    y2038_process = its unit (the process's own aggregates dropped: core.paired takes the median
    of each unit).  The unit is the program the process ran, its link order (context "y2038_program",
    which every caller records: merge(), interleave, boards.results): processes of one program share
    its code placement, so their repetitions are one unit's, and y2038_run_process then numbers the
    processes; a build with fewer link orders than LINK_ORDERS, whose missing orders ran the program
    itself (link_order()), does not count one placement as several units.  A process without a
    recorded program is a unit of its own."""
    context = dict(datas[0][1]["context"])
    context.pop("y2038_program", None)
    programs = {}  # pass: the program of each of its processes
    for p, d in datas:
        if p.processes > 1:
            ran = programs.setdefault(p.name, [])
            ran.append(d["context"].get("y2038_program") or f"process {len(ran) + 1}")
    context["y2038_seed"] = ", ".join(f"{d['context'].get('y2038_seed', '?')} ({p.name} pass)" for p, d in datas)
    context["y2038_passes"] = [f"{p.name}: {d['context'].get('date', '?')}" for p, d in datas]
    threaded = [d for p, d in datas if p.threaded]
    if threaded:
        context["y2038_thread_cpus"] = threaded[0]["context"].get("y2038_thread_cpus", "?")
    context["y2038_run_plan"] = plan_record
    for key, speeds in (("y2038_cpu_ns_before", before), ("y2038_cpu_ns_after", after)):
        context[key] = {str(cpu): s for cpu, s in speeds.items()}
    rows, process = [], {}
    for p, d in datas:
        process[p.name] = process.get(p.name, 0) + 1
        if p.processes == 1:
            rows += d["benchmarks"]
        else:
            k, names = process[p.name], programs[p.name]  # processes of one program: one unit
            order = list(dict.fromkeys(names))
            unit = {"y2038_process": order.index(names[k - 1]) + 1}
            if len(order) < len(names):
                unit["y2038_run_process"] = k
            rows += [dict(row, **unit) for row in d["benchmarks"] if row.get("run_type", "iteration") == "iteration"]
    return {"context": context, "benchmarks": rows}


def commit(staging, results):
    """Move the staged files into RESULTS; remove the old bench outputs the run did not replace."""
    new = sorted(os.listdir(staging), key=lambda n: n.endswith(".json"))  # the JSON files last
    old = [n for n in os.listdir(results) if OUTPUT_NAME.fullmatch(n) and n not in new]
    for name in new:
        os.replace(os.path.join(staging, name), os.path.join(results, name))
    for name in old:
        os.unlink(os.path.join(results, name))
    os.rmdir(staging)


def pairs(values, what):
    out = []
    for value in values:
        abi, sep, rest = value.partition("=")
        if not sep or not re.fullmatch(r"\w+", abi) or not rest:
            raise fsio.InputError(f"--{what} {value!r}: expected ABI={'BINARY' if what == 'bench' else 'REASON'}")
        if abi in (a for a, _ in out):
            raise fsio.InputError(f"--{what} {value!r}: ABI {abi} given twice")
        out.append((abi, rest))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", required=True, help="results folder (created if missing)")
    parser.add_argument("--full", action="store_true", help="--y2038_full and the full repetitions")
    parser.add_argument("--bench", action="append", default=[], metavar="ABI=BINARY")
    parser.add_argument("--skip", action="append", default=[], metavar="ABI=REASON")
    args = parser.parse_args(argv)
    user_cpus = envvars.bench_cpus()
    envvars.seed()
    benches, skips = pairs(args.bench, "bench"), pairs(args.skip, "skip")
    if not benches:
        raise fsio.InputError("no --bench ABI=BINARY given")
    for abi, binary in benches:
        if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
            raise fsio.InputError(f"{binary}: no such program (build the {abi} benchmarks first)")
    if os.path.exists(args.results) and not os.path.isdir(args.results):
        raise fsio.InputError(f"{args.results}: is not a folder")
    try:
        os.makedirs(args.results, exist_ok=True)
        staging = os.path.join(args.results, STAGING)
        shutil.rmtree(staging, ignore_errors=True)
        os.mkdir(staging)
    except OSError as err:
        raise fsio.InputError(f"{args.results}: cannot create the run's folders ({err.strerror})") from None
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    kept = f"the previous results in {args.results} are unchanged"
    try:
        for abi, binary in benches:
            run_abi(abi, binary, staging, args.full, user_cpus)
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ")
        for abi, reason in skips:
            log(f"{abi} SKIPPED: {reason}")
            fsio.write_text(os.path.join(staging, f"bench-{abi}.skipped"),
                            f"{abi} skipped on {platform.node()}, {now}: {reason}\n")
        commit(staging, args.results)
    except KeyboardInterrupt:
        log(f"interrupted: nothing replaced, {kept} (partial output in {staging})")
        return 130
    except (RunError, fsio.InputError) as err:
        log(f"error: {err}; nothing replaced, {kept} (partial output in {staging})")
        return 1
    log(f"results in {args.results}")
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
