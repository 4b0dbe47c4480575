"""`python3 -m y2038lab interleave`: two builds' paired passes in one run, their processes interleaved.

    python3 -m y2038lab interleave --side LABEL=PROGRAM[:PROCESSES] --side LABEL=PROGRAM[:PROCESSES]
                                   [--filter REGEX] --out DIR

Before and after a change of the protocol, measured alike: process k of each side runs that
side's PROGRAM in link order k mod LINK_ORDERS (bench.run.link_order: PROGRAM-order<k> beside
it), pinned to one CPU, with the paired pass's quick repetitions and minimum time, the two
sides' processes taking turns, so that what the host does meanwhile falls on both.  PROCESSES
defaults to the plan's paired processes.  Each side's processes are merged as `scripts/lab
bench` merges them (bench.run.merged: units by link order where processes outnumber the link
orders), written to DIR/<LABEL>.json, and its resolution block (core.tables.paired_summary) is
printed: the same statistics as REPORT.md's.  E.g. an old build of a checkout beside this one:
`--side before=/tmp/old/build/default/bench/y2038-bench:10 --side after=build/default/bench/y2038-bench`.
"""
import argparse
import json
import os
import subprocess
import sys

from y2038lab.bench.run import LINK_ORDERS, PLAN, Pass, link_order, merged, pass_flags
from y2038lab.core import fsio, results, tables
from y2038lab.core.fsio import InputError

PAIRED = next(p for p in PLAN if p.name == "paired")


def side(text):
    """(label, program, processes) of LABEL=PROGRAM[:PROCESSES]."""
    label, sep, rest = text.partition("=")
    program, colon, count = rest.rpartition(":") if ":" in rest else (rest, "", "")
    if not sep or not label.isidentifier() or not program:
        raise InputError(f"--side {text!r}: expected LABEL=PROGRAM[:PROCESSES]")
    if not os.access(program, os.X_OK):
        raise InputError(f"--side {text!r}: {program} is not an executable program")
    if colon and not (count.isdigit() and int(count) >= 1):
        raise InputError(f"--side {text!r}: PROCESSES must be a whole number >= 1")
    return label, program, int(count) if colon else PAIRED.processes


def run_process(program, k, regex, cpu):
    """Process K of PROGRAM's side (its link order k mod LINK_ORDERS, where the build has it), its JSON
    with the program recorded (y2038_program: bench.run.merged's units)."""
    cmd = ["taskset", "-c", str(cpu), link_order(program, k % LINK_ORDERS), *pass_flags(PAIRED),
           f"--benchmark_filter={regex}", "--benchmark_format=json"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                          env=dict(os.environ, Y2038_BENCH_CPUS=str(cpu)))
    if proc.returncode != 0:
        raise InputError(f"{cmd[3]} exited {proc.returncode}")
    try:
        data = json.loads(proc.stdout)
        data["context"]["y2038_program"] = os.path.basename(cmd[3])
    except (ValueError, TypeError, KeyError):
        raise InputError(f"{cmd[3]} printed no Google Benchmark JSON") from None
    return data


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--side", action="append", required=True, type=side, metavar="LABEL=PROGRAM[:N]")
    parser.add_argument("--filter", default=PAIRED.pattern, help="benchmarks (default: every paired one)")
    parser.add_argument("--out", required=True, help="folder for <LABEL>.json")
    args = parser.parse_args(argv)
    if len(args.side) != 2 or args.side[0][0] == args.side[1][0]:
        raise InputError("--side: give exactly two, with different labels")
    cpu = min(os.sched_getaffinity(0))
    datas = {label: [] for label, _, _ in args.side}
    for k in range(max(n for _, _, n in args.side)):
        for label, program, n in args.side:
            if k < n:
                print(f"{fsio.prog()}: {label}, process {k + 1} of {n}", file=sys.stderr, flush=True)
                datas[label].append(run_process(program, k, args.filter, cpu))
    os.makedirs(args.out, exist_ok=True)
    for label, program, n in args.side:
        p = Pass(PAIRED.name, args.filter, False, PAIRED.quick, PAIRED.full, processes=n)
        path = os.path.join(args.out, f"{label}.json")
        fsio.write_text(path, json.dumps(merged([(p, d) for d in datas[label]], [], {}, {}), indent=2) + "\n")
        print("\n".join(tables.paired_summary(results.load_run(path), f"{label}: {program}, {n} processes, "
                                              "interleaved with the other side's")))
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
