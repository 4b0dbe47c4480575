"""One walk benchmark run under a tool (perf stat, valgrind), and the inodes it visited.

The tool counts the whole process: Google Benchmark runs the function several times while it
settles the iteration count, so counts are divided by every inode the process visited, from Google
Benchmark's --v=2 log (runs before the last) and the JSON (the last run, exact).  `python3 -m
y2038lab perf` is the command.
"""
import re
import subprocess

from y2038lab.core import fsio, results


def layout_parts(name, axes=None):
    """(family, op, body, repr, params) of a layout benchmark name, None for any other name.
    AXES: (bodies, reprs), by default read from the name itself (y2038lab.core.results' fallback rule)."""
    parts = results.split_name(name, *(axes or results.layouts_from_names([name])))
    return parts if parts and parts[2] else None


RUN_RE = re.compile(r"^-- LOG\(2\): Running (\S+) for (\d+)$")


def run_iterations(log_text, name):
    """The iteration counts Google Benchmark asked for, run by run (--v=2 log)."""
    return [int(m.group(2)) for m in map(RUN_RE.match, log_text.splitlines())
            if m and m.group(1) == name]


def walk_sizes(bench, operation):
    """{(body, repr): {N: name}} of walk/<operation>/<body>/<repr>/<N>, single-threaded."""
    listed = subprocess.run([bench, "--benchmark_list_tests=true"], capture_output=True,
                            text=True, check=True).stdout.split()
    bodies, reprs = results.layouts_from_names(listed)  # registration order
    sizes = {}
    for name in listed:
        info = layout_parts(name, (bodies, reprs))
        if not info or info[0] != "walk" or info[1] != operation \
                or len(info[4]) != 1 or not info[4][0].isdigit():
            continue
        sizes.setdefault((info[2], info[3]), {})[int(info[4][0])] = name
    return dict(sorted(sizes.items(), key=lambda kv: (bodies.index(kv[0][0]), reprs.index(kv[0][1]))))


def largest(by_n, n_max):
    """The largest N <= n_max of {N: name}, or None."""
    return max((n for n in by_n if n <= n_max), default=None)


def fitting_walks(sizes, n_max):
    """{(body, repr): name} from walk_sizes(): per layout the largest N <= n_max."""
    return {key: by_n[n] for key, by_n in sizes.items() for n in [largest(by_n, n_max)] if n is not None}


def final_record(json_path, name):
    """The Record of NAME in a one-benchmark JSON (ValueError when it is not there once)."""
    try:
        rec = results.load_run(json_path).records.get(name)
    except fsio.InputError as err:
        raise ValueError(str(err)) from None
    if rec is None or len(rec.iterations) != 1:
        raise ValueError(f"{json_path}: expected one result for {name}, found "
                         f"{len(rec.iterations) if rec else 0}")
    return rec


def inodes_per_iteration(rec):
    if items := rec.items_per_iteration():
        return max(1, round(items)), "items_per_second x time per iteration"
    if rec.args and rec.args[-1].isdigit():
        return int(rec.args[-1]), "N (no items_per_second counter)"
    return 1, "1 (no items_per_second counter, no N)"


def iterations_run(asked, batch):
    """Iterations a KeepRunningBatch(@batch) loop runs when Google Benchmark asks for @asked: whole
    batches, at least one (a run asked for 1 iteration of walk/.../65536 visits 65536 inodes)."""
    if not isinstance(batch, (int, float)) or batch < 1 or batch != int(batch):
        raise ValueError(f"batch_iterations {batch!r} is not a positive integer")
    return max(1, -(-asked // int(batch))) * int(batch)


def run_measured(prefix, bench, name, json_path, min_time):
    """(inodes visited by every Google Benchmark run, details for the fragment) of one benchmark of
    @bench run under @prefix (perf stat, valgrind).  Runs before the last count the iterations asked
    for in whole batches (iterations_run); the last is exact, from the JSON."""
    cmd = [*prefix, bench, f"--benchmark_filter=^{re.escape(name)}$", f"--benchmark_min_time={min_time}",
           f"--benchmark_out={json_path}", "--benchmark_out_format=json", "--v=2"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise ValueError(f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
    rec = final_record(json_path, name)
    if not (runs := run_iterations(proc.stderr, name)):
        raise ValueError("no Google Benchmark --v=2 run log")
    per_iter, how = inodes_per_iteration(rec)
    batch = rec.counters.get("batch_iterations", [1])[0]
    inodes = (sum(iterations_run(r, batch) for r in runs[:-1]) + rec.iterations[0]) * per_iter
    shown = " ".join(arg if re.fullmatch(r"[\w./=:,+-]+", arg) else "'" + arg.replace("'", "'\\''") + "'"
                     for arg in cmd)
    return inodes, {"cmd": shown, "inodes": inodes, "runs": len(runs), "per_iter": how, "rec": rec}
