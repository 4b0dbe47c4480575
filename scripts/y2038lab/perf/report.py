# SPDX-License-Identifier: MIT
"""cache and instruction counts per inode visited, per layout.

For one walk benchmark per layout (default walk/stat_seq/<body>/<repr>/<N>, one y2038-bench process
per layout, selected with --benchmark_filter), divided by every inode the process visited (perf.walk:
all Google Benchmark runs):

  counters   where `perf stat -x, -e PERF_EVENTS` counts hardware events around the process
             (start-up and per-run set-up included, amortised).
  callgrind  elsewhere: valgrind --tool=callgrind --cache-sim=yes, collecting only inside the
             benchmark's walk_<path>_<body>_<repr> function (--toggle-collect; CALLGRIND_EXCLUDED
             toggle it off again): the timed loop over the slab.  Simulated counts, once per named
             geometry (perf.cachegeo), each at the walk size whose working set exceeds its LL;
             --valgrind-arg --LL=... (and --I1, --D1) replaces them with one geometry of its own.

`perf detect` prints which of the two this machine gets, and why.
"""
import argparse
import os
import re
import subprocess
import sys

from y2038lab.perf import cachegeo
from y2038lab.core import envvars, fsio, markdown
from y2038lab.perf.walk import fitting_walks, largest, layout_parts, run_measured, walk_sizes
from y2038lab.core.tables import fmt

PERF_EVENTS = ["cycles", "instructions", "L1-dcache-loads", "L1-dcache-load-misses", "LLC-load-misses"]
# Callgrind's event names with --cache-sim=yes, and what the fragment shows.
CALLGRIND_SHOWN = [("Ir", "instructions"), ("Dr", "data reads"), ("D1mr", "D1 read misses"),
                   ("DLmr", "LL data read misses"), ("LL", "LL misses (I+D, read+write)")]


def parse_perf_csv(text):
    """{event: count or None} from `perf stat -x,` output (value,unit,event,run time,...; comments (#)
    and blank lines skipped; "<not supported>", "<not counted>" give None); ValueError on any other line."""
    counts = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if len(fields) < 3 or not fields[2]:
            raise ValueError(f"not a perf stat -x, line: {line!r}")
        value = fields[0].strip()
        try:
            counts[fields[2]] = None if value.startswith("<") else float(value)
        except ValueError:
            raise ValueError(f"not a perf stat -x, count: {line!r}") from None
    return counts


def detect(csv_path):
    """("counters", detail) when perf counts instructions here, else ("callgrind", why)."""
    paranoid = (fsio.read_or_none("/proc/sys/kernel/perf_event_paranoid") or "").strip()
    facts = f"perf_event_paranoid={paranoid if re.fullmatch(r'-?[0-9]+', paranoid) else 'unreadable'}"
    try:
        proc = subprocess.run(["perf", "stat", "-x,", "-e", "instructions", "-o", csv_path, "true"],
                              capture_output=True, text=True)
    except OSError:
        return "callgrind", f"perf is not installed ({facts})"
    if proc.returncode != 0:
        first = (proc.stderr.strip().splitlines() or ["no message"])[0]
        return "callgrind", f"`perf stat -e instructions true` failed (exit {proc.returncode}: {first}; {facts})"
    try:
        with open(csv_path, encoding="utf-8") as f:
            counts = parse_perf_csv(f.read())
    except (OSError, ValueError) as err:
        return "callgrind", f"unreadable perf stat output ({err}; {facts})"
    if counts.get("instructions") is None:
        return "callgrind", f"`perf stat -e instructions true` reports instructions <not supported> ({facts})"
    return "counters", f"perf stat counted {counts['instructions']:.0f} instructions for `true` ({facts})"


def parse_callgrind(path):
    """(events, totals, geometry lines) of one callgrind dump."""
    events, totals, geometry = None, None, []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("summary:", "totals:")) and totals is None:
                totals = [int(x) for x in line.split()[1:]]
            elif line.startswith("desc:") and "cache:" in line:
                geometry.append(line[5:].strip())
    if events is None or totals is None:
        raise ValueError(f"{path}: not a callgrind dump (no events/summary line)")
    totals += [0] * (len(events) - len(totals))  # trailing zero events are omitted
    values = dict(zip(events, totals))
    values["LL"] = sum(values.get(k, 0) for k in ("ILmr", "DLmr", "DLmw"))
    return values, geometry


# Functions whose cost is not the walk's: collection toggles off inside them.
CALLGRIND_EXCLUDED = ["walk_setup", "walk_teardown", "bench_keep_running_batch"]


def walk_symbol(bench, name):
    """The function of a walk benchmark: walk_<path>_<body>_<repr> (bench/walk.c's WALK_FN)."""
    info = layout_parts(name)
    if not info or info[0] != "walk":
        raise ValueError(f"{name}: callgrind counting needs a walk/<op>/<body>/<repr>/<N> benchmark")
    out = subprocess.run(["nm", bench], capture_output=True, text=True, check=True).stdout
    suffix = f"_{info[2]}_{info[3]}"
    for line in out.splitlines():
        symbol = line.split()[-1]
        m = re.fullmatch(r"walk_([a-z]+)" + re.escape(suffix), symbol)
        if m and info[1].startswith(m.group(1) + "_"):
            return symbol
    raise ValueError(f"{bench}: no function walk_<path>{suffix} for {name} (has bench/walk.c's WALK_FN changed?)")


def measure_counters(bench, name, label, work, min_time):
    csv_path = os.path.join(work, f"perf-{label}.csv")
    prefix = ["perf", "stat", "-x,", "-o", csv_path, "-e", ",".join(PERF_EVENTS), "--"]
    inodes, detail = run_measured(prefix, bench, name, os.path.join(work, f"perf-{label}.json"), min_time)
    with open(csv_path, encoding="utf-8") as f:
        counts = parse_perf_csv(f.read())
    return {e: (counts.get(e) / inodes if counts.get(e) is not None else None) for e in PERF_EVENTS}, detail


def measure_callgrind(bench, name, label, work, min_time, extra):
    out = os.path.join(work, f"callgrind-{label}.out")
    symbol = walk_symbol(bench, name)
    prefix = ["valgrind", "--tool=callgrind", "--cache-sim=yes", *extra, "--collect-atstart=no",
              f"--toggle-collect={symbol}", *[f"--toggle-collect={f}" for f in CALLGRIND_EXCLUDED],
              f"--callgrind-out-file={out}", f"--log-file={os.path.join(work, f'valgrind-{label}.log')}"]
    inodes, detail = run_measured(prefix, bench, name, os.path.join(work, f"callgrind-{label}.json"),
                                  min_time)
    counts, detail["geometry"] = parse_callgrind(out)
    if not counts.get("Ir"):
        raise ValueError(f"callgrind counted nothing inside {symbol} (was it inlined or renamed?)")
    return {k: counts.get(k, 0) / inodes for k, _ in CALLGRIND_SHOWN}, detail


def cmd_run(args):
    extra = envvars.valgrind_args() + (args.valgrind_arg or [])
    fsio.check_output_path(args.fragment)
    if not (os.path.isfile(args.bench) and os.access(args.bench, os.X_OK)):
        raise fsio.InputError(f"{args.bench}: no such program (build the benchmarks first)")
    if os.path.exists(args.work) and not os.path.isdir(args.work):
        raise fsio.InputError(f"{args.work}: is not a folder")
    os.makedirs(args.work, exist_ok=True)
    mode, why = detect(os.path.join(args.work, "perf-detect.csv"))
    if args.mode != "auto":
        mode, why = args.mode, f"--mode {args.mode} (detection said: {mode}: {why})"
    lines = [f"## Cache behaviour per inode visited ({'hardware counters' if mode == 'counters' else 'simulated: callgrind'})",
             "", f"Command: `{args.command}` (python3 -m y2038lab perf); detection: {why}.", ""]
    try:
        sizes = {key: by_n for key, by_n in walk_sizes(args.bench, args.operation).items()
                 if not args.bodies or key[0] in args.bodies.split(",")}
    except (OSError, subprocess.CalledProcessError) as err:
        raise fsio.InputError(f"{args.bench} --benchmark_list_tests failed ({err})") from None
    if not sizes and not args.names:
        raise fsio.InputError(f"{args.bench}: no walk/{args.operation}/<body>/<repr>/<N> benchmark "
                              f"(--benchmark_list_tests): nothing measured, {args.fragment} not written")
    if mode == "callgrind":
        return run_callgrind(args, lines, sizes, extra)
    return run_counters(args, lines, sizes)


def run_counters(args, lines, sizes):
    picked = ({tuple(n.split("/")[2:4]) if layout_parts(n) else (n, ""): n for n in args.names} if args.names
              else fitting_walks(sizes, args.n_max))
    if not picked:
        raise fsio.InputError(f"{args.bench}: no walk/{args.operation}/<body>/<repr>/<N> benchmark with "
                              f"N <= {args.n_max}: nothing measured, {args.fragment} not written")
    measured, failures = [], []
    for name in picked.values():
        label = re.sub(r"[^\w]+", "_", name)
        print(f"{fsio.prog()}: counters: {name}", file=sys.stderr, flush=True)
        try:
            figures, detail = measure_counters(args.bench, name, label, args.work, args.min_time)
        except (ValueError, OSError, subprocess.CalledProcessError) as err:
            failures.append((name, str(err)))
            continue
        measured.append((name, figures, detail))
    lines += ["Hardware counts from `perf stat -x,`, divided by every inode the process visited "
              "(all Google Benchmark runs, from its `--v=2` log and the JSON); process start-up and "
              "each run's set-up are included, amortised. `-` = the event is not supported here.", ""]
    table(lines, ["benchmark"], "l", [(e, e) for e in PERF_EVENTS],
          [([name], figures, d) for name, figures, d in measured])
    return finish(args.fragment, lines, len(measured), failures)


def table(lines, head, align, shown, rows):
    """The figures per inode of ROWS [(first cells, figures, detail)], then each row's command."""
    if not rows:
        return
    titles = [t for _, t in shown[:-1]] + [shown[-1][1] + " per inode", "inodes counted", "runs"]
    lines += markdown.table(head + titles, [
        first + [fmt(round(figures[k], 3)) if figures[k] is not None else "-" for k, _ in shown]
        + [d["inodes"], d["runs"]] for first, figures, d in rows], align + "r" * len(titles))
    lines += ["", f"Inodes per iteration: {rows[0][2]['per_iter']}.", "", "Exact command of each row:", ""]
    lines += [f"- `{d['cmd']}`" for _, _, d in rows] + [""]


def finish(fragment, lines, measured, failures):
    """Write the fragment when something was measured; otherwise refuse, writing nothing."""
    if failures:
        lines += ["Not measured:", ""] + [f"- `{n}`: {e}" for n, e in failures] + [""]
    if not measured:
        first = f"; first: {failures[0][0]}: {failures[0][1]}" if failures else ""
        raise fsio.InputError(f"no layout measured ({len(failures)} failed{first}); {fragment} not written")
    fsio.write_text(fragment, "\n".join(lines).rstrip() + "\n")
    print(f"{fsio.prog()}: wrote {fragment}", file=sys.stderr)
    return 0


def callgrind_plan(geometry, sizes, names, n_max):
    """[(name, N or None)] to simulate under @geometry: each layout's walk whose working set exceeds its
    LL (cachegeo.walk_size), the largest N <= n_max under Y2038_VALGRIND_ARGS, or @names as given."""
    if names:
        return [(n, int(n.rsplit("/", 1)[-1]) if n.rsplit("/", 1)[-1].isdigit() else None) for n in names]
    if geometry.name == "Y2038_VALGRIND_ARGS" or geometry.ll_bytes() is None:
        chosen = (largest(by_n, n_max) for by_n in sizes.values())
    else:
        chosen = (cachegeo.walk_size(geometry, list(by_n))[0] for by_n in sizes.values())
    return [(by_n[n], n) for by_n, n in zip(sizes.values(), chosen) if n is not None]


def working_set(lines_per_inode, n):
    """Bytes of the 64-byte lines a walk of @n inodes touches, from walk.c's
    cachelines_touched_per_op counter (@lines_per_inode), or None."""
    return None if lines_per_inode is None or n is None else n * lines_per_inode * 64


def run_callgrind(args, lines, sizes, extra):
    geometries, notes = cachegeo.geometries(extra)
    rows, failures = [], []
    for geometry in geometries:
        for name, n in callgrind_plan(geometry, sizes, args.names, args.n_max):
            label = geometry.name + "-" + re.sub(r"[^\w]+", "_", name)
            print(f"{fsio.prog()}: callgrind ({geometry.name}): {name}", file=sys.stderr, flush=True)
            try:
                figures, detail = measure_callgrind(args.bench, name, label, args.work, args.min_time,
                                                    geometry.valgrind_args())
            except (ValueError, OSError, subprocess.CalledProcessError) as err:
                failures.append((f"{geometry.name}: {name}", str(err)))
                continue
            rows.append((geometry, name, n, figures, detail))
    lines += ["**Simulated, not hardware counts**: valgrind's cache model (callgrind --cache-sim=yes), "
              "once per named cache geometry (first column; below), never valgrind's own guess (on this "
              "VM a 512 MiB LL that no walk misses). The program is this x86_64 build: its LP64 inodes "
              "and its instructions go through each geometry, so a board row shows what that board's "
              "caches would do with these accesses, not an armhf or arm64 build. Counted only inside the "
              "benchmark's walk function (`--toggle-collect`), not in its set-up, tear-down or the "
              "shim's `bench_keep_running_batch()`: the timed loop of every Google Benchmark run, "
              "divided by every inode those runs visited (cold first passes included). Each geometry "
              "walks the smallest N whose working set (64-byte lines touched, from walk.c's counter) "
              f"is estimated at {cachegeo.WORKING_SET_FACTOR}x its LL or more; the table gives the "
              "working set measured.", ""]
    lines += markdown.table(("geometry", "cache geometry (size, ways, line)", "simulated by valgrind as"), [
        (f"`{g.name}`", f"{g.describe()}: {g.what}", "; ".join(next(
            (d["geometry"] for h, _, _, _, d in rows if h is g and d.get("geometry")), [])) or "no run")
        for g in geometries])
    lines += [""] + [f"Note: {note}." for note in notes] + ([""] if notes else [])

    def ws_text(geometry, n, d):
        ws = working_set(d["rec"].counters.get("cachelines_touched_per_op", [None])[0], n)
        ll = geometry.ll_bytes()
        return "-" if ws is None else f"{ws / 2**20:.1f} MiB" + (
            "" if ll is None else (" (> LL)" if ws > ll else " (fits LL)"))
    table(lines, ["geometry", "benchmark", "working set"], "llr", CALLGRIND_SHOWN,
          [([f"`{g.name}`", name, ws_text(g, n, d)], figures, d) for g, name, n, figures, d in rows])
    return finish(args.fragment, lines, len(rows), failures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    sub.add_parser("detect").add_argument("--csv", default="/tmp/perf_report-detect.csv")
    r = sub.add_parser("run")
    r.add_argument("--bench", required=True)
    r.add_argument("--work", required=True, help="directory for the raw outputs")
    r.add_argument("--fragment", required=True)
    r.add_argument("--mode", choices=["auto", "counters", "callgrind"], default="auto")
    r.add_argument("--operation", default="stat_seq")
    r.add_argument("--n-max", type=int, default=65536, help="largest N to pick per layout")
    r.add_argument("--min-time", default="0.2", help="--benchmark_min_time per process")
    r.add_argument("--names", nargs="+", help="measure these benchmarks instead (smoke tests)")
    r.add_argument("--bodies", help="callgrind: only these bodies, e.g. v6 (a third of the time per body left out)")
    r.add_argument("--valgrind-arg", action="append",
                   help="extra valgrind option; --I1/--D1/--LL=size,ways,line replace the named geometries")
    r.add_argument("--command", default="scripts/lab perf")
    args = parser.parse_args()
    if args.cmd == "detect":
        print(": ".join(detect(args.csv)))
        return 0
    return cmd_run(args)


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
