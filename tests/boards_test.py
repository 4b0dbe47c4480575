#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""boards_test.py - scripts/y2038lab/boards_*: bundles, run.sh, import, merge, LAVA.

  * run.sh, for real, under dash and busybox sh (when installed), on a bundle
    whose programs are small shell stand-ins: the per-CPU probes decide the
    plan (the CPU with the faster update probe first), the single-threaded
    pass is pinned to it, the tests' verdicts (exit status, WILL_FAIL, skip
    code, slow ones left to --full), the headline and LAVA result lines, the
    tarball; then bad options.  (CI runs the real cross bundles under
    qemu-user: `scripts/lab test`, boards_smoke.)
  * the bundle's choice of CTest tests, its static-ELF check;
  * import of tests/data/boards/results-aarch64-qemu-user-smoke.tar.gz (an
    emulated run, see its README): the header from the run's facts, the
    EMULATED label, the board's CPU count in the slab model; bad tarballs
    refused with one line and nothing written; an old report replaced only
    by a complete new one;
  * merge of two sets; LAVA: the definitions validate, broken ones do not,
    the committed exports convert, bad ones are refused.
"""
import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
sys.path.insert(0, os.path.join(top, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scripttest import expect, finish  # noqa: E402
from y2038lab.boards import elf  # noqa: E402
from y2038lab.core import abis, paired, tables  # noqa: E402
from y2038lab.core.results import parse_run  # noqa: E402
from y2038lab.boards import bundle as boards_bundle  # noqa: E402
from y2038lab.boards import importer  # noqa: E402
from y2038lab.boards import lava as boards_lava  # noqa: E402
from y2038lab.boards import merge as boards_merge  # noqa: E402
from y2038lab.boards import results as boards_results  # noqa: E402
from y2038lab.boards import run as boards_run  # noqa: E402
from y2038lab.core.fsio import InputError  # noqa: E402

data = os.path.join(here, "data", "boards")
sample = os.path.join(data, "results-aarch64-qemu-user-smoke.tar.gz")  # run.sh before the paired protocol
sample_paired = os.path.join(data, "results-aarch64-qemu-user-paired.tar.gz")


def expect_error(case, fn, *words):
    """FN must raise InputError whose one-line text holds every word."""
    try:
        fn()
    except InputError as err:
        text = str(err)
        expect(f"{case}: one line", True, "\n" not in text)
        for w in words:
            expect(f"{case}: message names {w!r}", True, w in text)
        return
    expect(f"{case}: InputError", True, False)


# --- run.sh on stand-in programs ---------------------------------------------------
PIN = """#!/bin/sh
# stand-in for y2038-pin: --list, or record the CPU and run the program
if [ "$1" = --list ]; then echo "0 1"; exit 0; fi
FAKE_CPU=$1; export FAKE_CPU; shift; exec "$@"
"""
# The probes: CPU 1 is faster at the update probe (the plan's key), CPU 0 at
# the accessor (which must not decide).  The passes: the benchmarks of NAMES
# that the filter selects (Google Benchmark's: a POSIX extended regular
# expression, "-" in front negates it), listed or run; a paired benchmark's
# ratio moves with the process's environment padding (Y2038_ENV_PAD), so
# that each process is its own unit.  FAKE_SLOW_LIST=1: each listing takes a
# second (the budget's estimate of a program's start); FAKE_SLOW_HEADLINE=S:
# the headline pass takes S seconds (far beyond its estimate).
BENCH = r"""#!/bin/sh
# stand-in for y2038-bench: Google Benchmark 1.7.1 JSON, one key per line
out='' filter='' list=no reps=1
for a; do
	case $a in
	--benchmark_out=*) out=${a#*=} ;;
	--benchmark_filter=*) filter=${a#*=} ;;
	--benchmark_repetitions=*) reps=${a#*=} ;;
	--benchmark_list_tests=true) list=yes ;;
	esac
done
NAMES='accessor/get_mtime/v6/scalar accessor/get_mtime/v6/timespec64 shim/empty/c_per_iteration
load/touch_private/v6/scalar/real_time/threads:2 paired/accessor/get_mtime/v6/timespec64~scalar/manual_time
paired/accessor/get_mtime/v6/timespec64~timespec/manual_time paired/accessor/get_mtime/v6/timespec64/units:16~17/manual_time'
selected() {
	case $filter in
	-*) printf '%s\n' $NAMES | grep -vE -e "${filter#-}" ;;
	*) printf '%s\n' $NAMES | grep -E -e "$filter" ;;
	esac
}
row() { # name run_type aggregate real_time [counters]
	printf '    {\n      "name": "%s",\n      "run_name": "%s",\n      "run_type": "%s",\n' "$1" "$1" "$2"
	[ -z "$3" ] || printf '      "aggregate_name": "%s",\n' "$3"
	printf '      "iterations": 1000,\n      "real_time": %s,\n      "cpu_time": %s,\n      "time_unit": "ns"%s\n    }' "$4" "$4" "${5:-}"
}
json() {
	printf '{\n  "context": {\n    "date": "2026-01-01T00:00:00+00:00",\n    "y2038_abi": "test",\n'
	printf '    "y2038_seed": "1",\n    "y2038_thread_cpus": "%s (Y2038_BENCH_CPUS)"\n  },\n  "benchmarks": [\n' "$Y2038_BENCH_CPUS"
	"$@"
	printf '\n  ]\n}\n'
}
probe() {
	if [ "$FAKE_CPU" = 0 ]; then acc=1.0e+00 upd=3.0e+01; else acc=2.0e+00 upd=1.0e+01; fi
	for r in 1 2 3; do row accessor/get_mtime/v6/scalar iteration '' $acc; printf ',\n'; done
	row accessor/get_mtime/v6/scalar aggregate median $acc; printf ',\n'
	row accessor/get_mtime/v6/scalar aggregate mean 9.9e+01; printf ',\n'
	row load/touch_private/v6/scalar/real_time/threads:1 aggregate median $upd
}
# counters NAME REPETITION: a paired row's counters (truth x (1 + the process's offset))
counters() {
	case $1 in *~timespec/*) truth=1 t=',\n      "true_ratio": 1' ;; *16~17*) truth=1.0625 t=',\n      "true_ratio": 1.0625' ;;
	*) truth=1.05 t='' ;; esac
	awk -v truth="$truth" -v pad="${#Y2038_ENV_PAD}" -v r="$2" -v t="$t" 'BEGIN {
		printf ",\n      \"ratio\": %.6f,\n      \"a_ns\": 1.0,\n      \"b_ns\": %.6f%s", \
			truth * (1 + ((pad / 72) % 5 - 2) * 0.001 + r * 0.0001), truth, t }'
}
rows() {
	first=yes
	for name in $(selected); do
		[ $first = yes ] || printf ',\n'
		first=no
		case $name in
		paired/*)
			r=1
			while [ $r -le "$reps" ]; do
				[ $r = 1 ] || printf ',\n'
				row "$name" iteration '' 16 "$(counters "$name" $r)"
				r=$((r + 1))
			done ;;
		accessor/get_mtime/v6/scalar) row $name aggregate median 5.0e-01 ;;
		accessor/get_mtime/v6/timespec64) row $name aggregate median 2.5e+00 ;;
		shim/*) row $name aggregate median 1.0e-01 ;;
		*) row $name iteration '' 4.0e+00 ;;
		esac
	done
}
case $filter in '^(accessor/|fstime/'*) [ -z "${FAKE_SLOW_HEADLINE:-}" ] || [ $list = yes ] || sleep "$FAKE_SLOW_HEADLINE" ;; esac
if [ $list = yes ]; then
	[ -z "${FAKE_SLOW_LIST:-}" ] || sleep 1
	selected
	exit 0
fi
case $filter in
*'|load/'*) json probe; exit 0 ;;
-*) echo "single pass on CPU $FAKE_CPU" >&2 ;;
esac
json rows >"$out"
"""
TESTS = {"t_pass": ("quick", 0, "-", 0), "t_fail": ("quick", 0, "-", 1), "t_willfail": ("quick", 1, "-", 3),
         "t_skip": ("quick", 0, "77", 77), "t_slow": ("slow", 0, "-", 0)}


N_ORDERS = 1 + len(boards_bundle.ORDERS)  # y2038-bench and its other link orders


def fake_bundle(root):
    for d in ("bin", "tests"):
        os.makedirs(os.path.join(root, d))
    files = {"bin/y2038-pin": PIN, "bin/y2038-bench": BENCH, "plan.txt": boards_bundle.plan_text(),
             **{f"bin/{order}": BENCH for order in boards_bundle.ORDERS},
             "bin/fstime-selfcheck": "#!/bin/sh\necho 'fstime self-check: 1 passed, 0 failed'\n",
             "bin/fs-expiry": "#!/bin/sh\necho '| fs | x |'\n"}
    lines = []
    for name, (labels, will_fail, skip, rc) in TESTS.items():
        files[f"tests/{name}"] = f"#!/bin/sh\necho {name} \"$@\"\nexit {rc}\n"
        lines.append(f"{name}\t{labels}\t{will_fail}\t{skip}\t{name} --flag")
    files["tests/list"] = "# header\n" + "\n".join(lines) + "\n"
    files["manifest.txt"] = "abi: i386\ncommit: test\n"
    shutil.copy(os.path.join(top, "boards", "headline.txt"), os.path.join(root, "headline.txt"))
    shutil.copy(os.path.join(top, "boards", "run.sh"), os.path.join(root, "run.sh"))
    for rel, text in files.items():
        with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(os.path.join(root, rel), 0o755)


def check_run_sh(shell, tmp):
    root = os.path.join(tmp, f"bundle-{shell[-1]}")
    out = os.path.join(tmp, f"out-{shell[-1]}")
    os.makedirs(out)
    fake_bundle(root)
    run = subprocess.run(shell + [os.path.join(root, "run.sh"), "--quick", "--board", "Test Board 1",
                                  "--out", out], capture_output=True, text=True)
    case = f"run.sh under {' '.join(shell)}"
    expect(f"{case}: exit status", 0, run.returncode)
    if run.returncode:
        print(run.stderr[-2000:])
        return
    last = run.stdout.strip().splitlines()[-1]
    expect(f"{case}: prints the tarball last", True, last.startswith("results: ") and last.endswith(".tar.gz"))
    res = boards_results.Results(last[len("results: "):])
    expect(f"{case}: board name sanitised", True, res.top.startswith("y2038-results-i386-test-board-1-"))
    tests = {line.split()[0]: line.split()[1] for line in res.text("tests.txt").splitlines()}
    expect(f"{case}: test verdicts", {"t_pass": "PASS", "t_fail": "FAIL", "t_willfail": "PASS",
                                      "t_skip": "SKIP", "t_slow": "SKIP"}, tests)
    expect(f"{case}: test arguments passed", "t_pass --flag", res.text("tests/t_pass.log").strip())
    expect(f"{case}: probes before", "0 1 30\n1 2 10\n", res.text("bench/probes-before.txt"))
    cmd = res.text("bench/bench.cmd")
    expect(f"{case}: single pass pinned to the faster update probe", True, "y2038-pin 1 " in cmd)
    expect(f"{case}: plan fastest first", True, "Y2038_BENCH_CPUS=1,0" in cmd)
    expect(f"{case}: the single pass ran on CPU 1", "single pass on CPU 1",
           res.text("bench/bench.single.txt").strip())
    expect(f"{case}: threaded pass got the plan", True,
           '"1,0 (Y2038_BENCH_CPUS)"' in res.text("bench/bench.threaded.json"))
    expect(f"{case}: headline (medians, headline names only)",
           "accessor/get_mtime/v6/scalar 0.5\naccessor/get_mtime/v6/timespec64 2.5\n"
           "load/touch_private/v6/scalar/real_time/threads:2 4\n", res.text("headline.txt"))
    lines = res.text("result.txt").splitlines()
    expect(f"{case}: LAVA line of a benchmark", True, "bench.accessor.get_mtime.v6.scalar pass 0.5 ns" in lines)
    expect(f"{case}: LAVA name of a threaded benchmark", True,
           "bench.load.touch_private.v6.scalar.real_time.threads-2 pass 4 ns" in lines)
    expect(f"{case}: LAVA lines of tests and facts", True,
           {"test.t_fail fail", "test.t_skip skip", "y2038.abi.i386 pass", "y2038.cpus pass 2 cpus"} <= set(lines))
    suite = boards_results.suite_json(res, boards_results.facts(res))
    rows = suite["benchmarks"]
    expect(f"{case}: passes merged", 4, len([r for r in rows if not r["name"].startswith("paired/")]))
    # The default budget (10 min) leaves room for every process the stand-ins need: capped at 100.
    procs = [line.split("\t") for line in res.text("bench/processes.txt").splitlines() if not line.startswith("#")]
    paired_procs = [p for p in procs if p[0] == "paired"]
    expect(f"{case}: passes in order, then the paired processes", ["headline", "single", "threaded"] + ["paired"] * 100,
           [p[0] for p in procs])
    expect(f"{case}: paired processes capped", True, f"paired_processes: 100 ({N_ORDERS} link orders; capped at 100 "
           "processes)" in res.text("run.txt"))
    expect(f"{case}: process k runs link order (k - 1) mod {N_ORDERS}",
           [("y2038-bench" if k % N_ORDERS == 0 else f"y2038-bench-order{k % N_ORDERS}") for k in range(100)],
           [p[2] for p in paired_procs])
    expect(f"{case}: each process its own environment size", 100, len({p[3] for p in paired_procs}))
    expect(f"{case}: the host's quick paired settings (3 repetitions of 0.002 s)", {("3", "0.002")},
           {(p[5], p[6]) for p in paired_procs})
    expect(f"{case}: paired rows carry their process and its link order's unit",
           (list(range(1, 101)), list(range(1, N_ORDERS + 1)), 3 * 3 * 100),
           (sorted({r["y2038_run_process"] for r in rows if "y2038_run_process" in r}),
            sorted({r["y2038_process"] for r in rows if "y2038_process" in r}),
            len([r for r in rows if r["name"].startswith("paired/")])))
    plan = {p["pass"]: p for p in suite["context"]["y2038_run_plan"]}
    expect(f"{case}: the run plan", (100, N_ORDERS, N_ORDERS, 300, 3),
           (plan["paired"]["processes"], plan["paired"]["link_orders"], plan["paired"]["units"],
            plan["paired"]["repetitions"], plan["paired"]["benchmarks"]))
    run = parse_run(json.dumps(suite), "suite.json")
    pairs = {c.kind: c for c in paired.comparisons(run)}
    expect(f"{case}: the link orders are the units (processes of one share its placement)",
           {"compare": N_ORDERS, "negative": N_ORDERS, "positive": N_ORDERS}, {k: c.n for k, c in pairs.items()})
    expect(f"{case}: negative control: no difference", paired.NO_DIFFERENCE, pairs["negative"].status)
    expect(f"{case}: positive control detected", True, paired.controls(run)["accessor"].positive_ok(pairs["positive"]))
    expect(f"{case}: the resolution line", True, tables.paired_summary(run, "run.sh")[0].startswith(
        "Resolution of this run on test (run.sh, paired"))
    # A budget the minimum protocol cannot meet: its minimum run anyway (ten processes), the cuts said.
    out_slow = os.path.join(tmp, f"out-slow-{shell[-1]}")
    os.makedirs(out_slow)
    slow = subprocess.run(shell + [os.path.join(root, "run.sh"), "--quick", "--minutes", "0.05", "--no-tests",
                                   "--out", out_slow], capture_output=True, text=True,
                          env=dict(os.environ, FAKE_SLOW_LIST="1"))
    expect(f"{case} --minutes 0.05: exit status", 0, slow.returncode)
    if slow.returncode == 0:
        res = boards_results.Results(slow.stdout.strip().splitlines()[-1][len("results: "):])
        keys = res.keys("run.txt")
        expect(f"{case} --minutes 0.05: ten processes, no more", "10 (10 link orders; no room for process 11 "
               "within the budget)", keys.get("paired_processes"))
        rows = boards_results.suite_json(res, boards_results.facts(res))["benchmarks"]
        expect(f"{case} --minutes 0.05: one process per link order, each its own unit", (list(range(1, 11)), False),
               (sorted({r["y2038_process"] for r in rows if "y2038_process" in r}),
                any("y2038_run_process" in r for r in rows)))
        expect(f"{case} --minutes 0.05: the cuts said", (True, True, True),
               ("minimum time per repetition" in keys.get("budget_cuts", ""),
                "the run will take longer than asked" in keys.get("budget_cuts", ""),
                "cut to fit: minimum time" in res.text("bench/bench.cmd")))
        expect(f"{case} --minutes 0.05: the overrun said", True,
               "beyond the budget of 3 s: its minimum (ten paired processes) took longer" in keys.get("budget_overrun", ""))
        expect(f"{case} --minutes 0.05: the single pass cut to one repetition", True,
               "single pass 3 repetitions -> 1" in keys.get("budget_cuts", ""))    # A pass far slower than estimated: what is left is estimated again at that pace and cut before it runs.
    out_late = os.path.join(tmp, f"out-late-{shell[-1]}")
    os.makedirs(out_late)
    late = subprocess.run(shell + [os.path.join(root, "run.sh"), "--quick", "--minutes", "0.1", "--no-tests",
                                   "--out", out_late], capture_output=True, text=True,
                          env=dict(os.environ, FAKE_SLOW_HEADLINE="3"))
    expect(f"{case} slow headline: exit status", 0, late.returncode)
    if late.returncode == 0:
        res = boards_results.Results(late.stdout.strip().splitlines()[-1][len("results: "):])
        keys = res.keys("run.txt")
        expect(f"{case} slow headline: nothing cut before it ran", True,
               keys.get("budget_cuts", "").startswith("minimum time per repetition x") and
               "headline" not in keys.get("budget_cuts", "").split(";")[0])
        procs = [line.split("\t") for line in res.text("bench/processes.txt").splitlines() if not line.startswith("#")]
        expect(f"{case} slow headline: the rest cut at its pace", True, "the passes so far took x" in late.stderr)
        expect(f"{case} slow headline: the headline as planned, the rest cut", (("9", 0.01), True, True),
               ((procs[0][5], float(procs[0][6])), float(procs[1][6]) < 0.02, float(procs[-1][6]) < 0.002))
        expect(f"{case} slow headline: ten paired processes or more", True,
               len([p for p in procs if p[0] == "paired"]) >= 10)

    for args, word in ((["--bogus"], "unknown option '--bogus'"), (["--board"], "--board needs a value"),
                       (["--out", os.path.join(tmp, "nowhere")], "no such folder"),
                       (["--minutes", "ten"], "--minutes 'ten': expected a positive number"),
                       (["--minutes", "0"], "--minutes '0': expected a positive number"),
                       (["--minutes", "-1"], "--minutes '-1': expected a positive number"),
                       (["--minutes", "1.5.2"], "--minutes '1.5.2': expected a positive number")):
        bad_out = os.path.join(tmp, f"bad-{shell[-1]}")
        os.makedirs(bad_out, exist_ok=True)
        bad = subprocess.run(shell + [os.path.join(root, "run.sh")] + args
                             + (["--out", bad_out] if args[0] == "--minutes" else []), capture_output=True, text=True)
        expect(f"{case} {' '.join(args[:2])}: refused in one line", (True, True, 1),
               (bad.returncode != 0, word in bad.stderr, len([x for x in bad.stderr.splitlines()
                                                              if x.startswith("run.sh: error")])))
        expect(f"{case} {' '.join(args[:2])}: nothing written", [], os.listdir(bad_out))


def run_sh_tests(tmp):
    shells = [["dash"]] + ([["busybox", "sh"]] if shutil.which("busybox") else [])
    if len(shells) == 1:
        print("SKIP: busybox not installed, run.sh checked with dash only")
    for shell in shells:
        check_run_sh(shell, tmp)
        syntax = subprocess.run(shell + ["-n", os.path.join(top, "boards", "run.sh")], capture_output=True)
        expect(f"{' '.join(shell)} -n run.sh", 0, syntax.returncode)
    if shutil.which("checkbashisms"):
        for script in ("run.sh", "lava/y2038-board.sh", "lava/send-to-lava.sh"):
            res = subprocess.run(["checkbashisms", "--posix", os.path.join(top, "boards", script)],
                                 capture_output=True, text=True)
            expect(f"checkbashisms {script}", (0, ""), (res.returncode, res.stdout + res.stderr))
    else:
        print("SKIP: checkbashisms (devscripts) not installed")


def board_run_tests(tmp):
    """board-run over ssh, with ssh and scp replaced by local stand-ins that
    log their arguments: the stand-in bundle is copied, run, fetched."""
    fake = os.path.join(tmp, "ssh-fakes")
    os.makedirs(fake)
    calls = os.path.join(tmp, "ssh-calls.txt")
    for name, body in (("ssh", 'echo "ssh $*" >>"$CALLS"\nfor last; do :; done\nexec sh -c "$last"\n'),
                       ("scp", 'echo "scp $*" >>"$CALLS"\nshift $(($# - 2))\n'
                               'exec cp "${1#myboard:}" "${2#myboard:}"\n')):
        with open(os.path.join(fake, name), "w") as f:
            f.write("#!/bin/sh\n" + body)
        os.chmod(os.path.join(fake, name), 0o755)
    stage = os.path.join(tmp, "stage")
    fake_bundle(os.path.join(stage, "y2038-bundle-i386"))
    bundle = os.path.join(tmp, "y2038-bundle-i386.tar.gz")
    with tarfile.open(bundle, "w:gz") as tar:
        tar.add(os.path.join(stage, "y2038-bundle-i386"), arcname="y2038-bundle-i386")
    env = dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"], CALLS=calls,
               PYTHONPATH=os.path.join(top, "scripts"))
    remote, results = os.path.join(tmp, "remote"), os.path.join(tmp, "fetched")
    cmd = [sys.executable, "-m", "y2038lab", "boards", "board-run", "myboard", "--bundle", bundle, "--port", "2222",
           "--identity", "/k/id", "--remote-dir", remote, "--results", results, "--board", "b1"]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    expect("board-run: exit status", 0, run.returncode)
    got = [f for f in os.listdir(results) if f.endswith(".tar.gz")] if os.path.isdir(results) else []
    expect("board-run: one results tarball fetched", True, len(got) == 1 and got[0].startswith("y2038-results-i386-b1-"))
    log = open(calls).read().splitlines() if os.path.exists(calls) else []
    expect("board-run: ssh options", True, bool(log) and log[0].startswith(
        "ssh -o BatchMode=yes -i /k/id -p 2222 myboard mkdir -p"))
    expect("board-run: scp port flag", True, any(x.startswith("scp -q -o BatchMode=yes -i /k/id -P 2222 ") for x in log))
    expect("board-run: run.sh arguments", True, any("run.sh --quick --board b1 --out" in x for x in log))
    bad = subprocess.run(cmd[:6] + ["--local", stage], env=env, capture_output=True, text=True)
    expect("board-run: HOST and --local refused", (2, True), (bad.returncode, "not both" in bad.stderr))
    for minutes in ("0", "ten", "-3", "0.001"):
        bad = subprocess.run(cmd + ["--minutes", minutes], env=env, capture_output=True, text=True)
        expect(f"board-run --minutes {minutes}: refused in one line", (2, True, 1),
               (bad.returncode, "is not a positive number of minutes" in bad.stderr, len(bad.stderr.splitlines())))
    args = argparse.Namespace(mode="quick", minutes="2.5", board=None, no_tests=True)
    expect("board-run: --minutes passed to run.sh", ["--quick", "--minutes", "2.5", "--no-tests"],
           boards_run.run_args(args))


# --- bundle -------------------------------------------------------------------------
def bundle_tests():
    listing = {"tests": [
        {"name": "plain", "command": ["/usr/bin/qemu-arm", "-L", "/usr/x", "/b/tests/plain"],
         "properties": [{"name": "LABELS", "value": ["quick"]}, {"name": "WORKING_DIRECTORY", "value": "/b/tests"}]},
        {"name": "bad_flag", "command": ["/b/bench/y2038-bench", "--bogus"],
         "properties": [{"name": "WILL_FAIL", "value": True}]},
        {"name": "skips", "command": ["/b/tests/skips"], "properties": [{"name": "SKIP_RETURN_CODE", "value": 77},
                                                                        {"name": "LABELS", "value": ["slow"]}]},
        {"name": "regex", "command": ["/b/tools/fs-expiry"],
         "properties": [{"name": "PASS_REGULAR_EXPRESSION", "value": ["x"]}]},
        {"name": "env", "command": ["/b/bench/y2038-bench"], "properties": [{"name": "ENVIRONMENT", "value": ["A=1"]}]},
        {"name": "space", "command": ["/b/tests/space", "a b"], "properties": []},
        {"name": "host", "command": ["/usr/bin/python3", "/src/check.py", "--build", "/b"], "properties": []},
        {"name": "objdump", "command": ["/usr/bin/sh", "-c", "x", "/usr/bin/objdump", "/b/src/libfstime.a"],
         "properties": []}]}
    tests, left = boards_bundle.select_tests(listing, "/b")
    expect("bundle: tests kept", [("plain", "quick", 0, "-", []), ("bad_flag", "-", 1, "-", ["--bogus"]),
                                  ("skips", "slow", 0, "77", [])],
           [(t["name"], t["labels"], t["will_fail"], t["skip_rc"], t["args"]) for t in tests])
    expect("bundle: tests left on the host", ["regex", "env", "space", "host", "objdump"], [x.split()[0] for x in left])
    expect("bundle: the emulator prefix is dropped", "/b/tests/plain", tests[0]["exe"])
    expect_error("check_static on a host program", lambda: elf.check_static(sys.executable,
                                                                                  abis.ABIS["armhf"]),
                 sys.executable, "armhf")
    expect_error("unknown ABI", lambda: abis.of("mips", abis.CROSS), "mips", "armhf")
    expect("ABI alias", "i386", abis.of("i686", abis.CROSS).name)


# --- import ---------------------------------------------------------------------------
def tar_with(tmp, name, members):
    path = os.path.join(tmp, name)
    with tarfile.open(path, "w:gz") as tar:
        for arcname, text in members.items():
            info = tarfile.TarInfo(arcname)
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text))
    return path


def import_tests(tmp):
    res = boards_results.Results(sample)
    board = boards_results.facts(res)
    expect("facts: ABI", "aarch64", board["abi"])
    expect("facts: emulated", True, board["emulated"])
    expect("facts: present CPUs", 2, board["present"])
    expect("facts: caches read", True, len(board["caches"]) >= 3)
    out = os.path.join(tmp, "aarch64-qemu-user")
    os.makedirs(out)
    with open(os.path.join(out, "stale.txt"), "w") as f:
        f.write("from an older import\n")
    report = importer.import_results(sample, top, out=out)
    with open(report, encoding="utf-8") as f:
        text = f.read()
    lines = text.splitlines()
    expect("import: title says EMULATED", True, lines[0].endswith("(EMULATED)"))
    expect("import: header from the board's facts", True,
           "| Board | qemu-user |" in lines and any(x.startswith("| Kernel | Linux ") for x in lines))
    expect("import: the board's CPU count in the slab model", True, "**this board's** 2 present CPUs" in text)
    expect("import: tests table", True, "| fs_time_sweep_test | SKIP | - | slow-full-mode-only |" in lines)
    expect("import: no BTF in the sample", True, "No BTF from the board" in text)
    expect("import: benchmark section", True, "### Benchmarks on aarch64" in text)
    expect("import: old folder replaced", False, os.path.exists(os.path.join(out, "stale.txt")))
    with open(os.path.join(out, "bench-aarch64.json"), encoding="utf-8") as f:
        suite = json.load(f)
    expect("import: suite JSON context", ("qemu-user", 2), (suite["context"]["y2038_board"],
                                                             suite["context"]["y2038_board_present_cpus"]))
    before = sorted(os.listdir(out))
    bad = {"not a tarball": (tar_with(tmp, "empty.tar.gz", {}), "not a run.sh results tarball"),
           "unsafe name": (tar_with(tmp, "evil.tar.gz", {"../x": b"x"}), "unsafe member name"),
           "two folders": (tar_with(tmp, "two.tar.gz", {"a/x": b"", "b/y": b""}), "more than one top folder")}
    with tarfile.open(sample) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}
    top_name = next(iter(members)).split("/")[0]
    bad["missing member"] = (tar_with(tmp, "partial.tar.gz", {k: v for k, v in members.items()
                                                              if not k.endswith("bench/bench.threaded.json")}),
                             "bench/bench.threaded.json missing")
    broken = dict(members)
    broken[f"{top_name}/bench/bench.single.json"] = b"{ not json"
    bad["bad JSON"] = (tar_with(tmp, "badjson.tar.gz", broken), "not valid JSON")
    with open(os.path.join(tmp, "plain.txt"), "w") as f:
        f.write("hello\n")
    bad["plain file"] = (os.path.join(tmp, "plain.txt"), "not a readable results tarball")
    for case, (path, word) in bad.items():
        expect_error(f"import {case}", lambda p=path: importer.import_results(p, top, out=out),
                     os.path.basename(path), word)
    expect("import: failures leave the report as it was", before, sorted(os.listdir(out)))
    expect("import: no temporary folder left", [], [d for d in os.listdir(tmp) if d.endswith(".new")])
    if shutil.which("pahole") and os.access("/sys/kernel/btf/vmlinux", os.R_OK):
        with open("/sys/kernel/btf/vmlinux", "rb") as f:
            members[f"{top_name}/facts/btf-vmlinux"] = f.read()
        with_btf = tar_with(tmp, f"{top_name}.tar.gz", members)
        text = open(importer.import_results(with_btf, top, out=os.path.join(tmp, "btf")),
                    encoding="utf-8").read()
        expect("import: BTF read by pahole", True, "`pahole -F btf -C inode` on the board's" in text)
        expect("import: emulated BTF is the host's", True, "this BTF is the host kernel's" in text)
        expect("import: every aarch64 replica compared", True, "| aarch64 v6/scalar | 608 |" in text)
    else:
        print("SKIP: pahole or /sys/kernel/btf/vmlinux missing: the live-BTF comparison is not checked")
    expect("import: an older run.sh's results say they have no paired pass", True,
           "No paired pass in this run" in text)
    import_paired_tests(tmp)
    return os.path.join(out, "bench-aarch64.json")


def import_paired_tests(tmp):
    """The board's paired protocol imported: the processes are the units, the resolution block heads the
    report as on the host, and an emulated run says its timings are not figures."""
    out = os.path.join(tmp, "aarch64-qemu-user-paired")
    text = open(importer.import_results(sample_paired, top, out=out), encoding="utf-8").read()
    head = text[:text.index("## The board")]
    expect("import paired: the resolution block before the board's facts", True,
           "## Resolution" in head and "| family | resolution | negative controls" in head)
    expect("import paired: twelve processes over ten link orders, one unit each", True,
           "; 12 processes, each with its own environment size, over 10 link orders of y2038-bench" in head
           and "; 10 units, one per link order, each the median of its processes' repetitions" in head)
    expect("import paired: emulated timings are not figures", True,
           "the protocol ran, the timings are not figures" in head and "not aarch64 figures" in head)
    expect("import paired: the budget in the header", True,
           "| Budget | --minutes 0.25 (15 s, the whole run); " in head and "paired processes: 12 (10 link orders; "
           "trimmed from 26 in this test sample) |" in head)
    expect("import paired: the families' rows", True, "| accessor | ±" in head and "| fstime | ±" in head)
    expect("import paired: the paired tables in the appendix", True, "#### Paired comparisons" in text)
    with open(os.path.join(out, "bench-aarch64.json"), encoding="utf-8") as f:
        suite = json.load(f)
    run = parse_run(json.dumps(suite), "bench-aarch64.json")
    ns = {c.n for c in paired.comparisons(run)}
    expect("import paired: every comparison over the 10 link orders", {10}, ns)
    plan = {p["pass"]: p for p in suite["context"]["y2038_run_plan"]}
    expect("import paired: the plan", ["headline", "single", "threaded", "paired"], list(plan))
    expect("import paired: no comparison too few", False, paired.TOO_FEW in
           "".join(c.status for c in paired.comparisons(run)))
    with tarfile.open(sample_paired) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar if m.isfile()}
    top_name = next(iter(members)).split("/")[0]
    for case, line, word in (("a process listed without its JSON", b"paired\tpaired13\ty2038-bench-order2\t864\t0\t3\t0.001\n",
                              "bench/bench.paired13.json missing"),
                             ("a bad processes.txt line", b"paired\tpaired13\tsh\t0\t0\t3\t0.001\n", "bad line"),
                             ("a short processes.txt line", b"paired\tpaired13\n", "7 tab-separated fields"),
                             ("paired processes not alike", b"paired\tpaired1\ty2038-bench\t0\t0\t3\t0.002\n",
                              "units must be alike")):
        broken = dict(members)
        broken[f"{top_name}/bench/processes.txt"] += line
        path = tar_with(tmp, f"{top_name}.tar.gz", broken)
        expect_error(f"import paired: {case}", lambda p=path: importer.import_results(p, top, out=out),
                     os.path.basename(path), word)
    expect("import paired: the report kept after bad input", True, os.path.exists(os.path.join(out, "REPORT.md")))


# --- merge ----------------------------------------------------------------------------
def merge_tests(tmp, board_json):
    with open(board_json, encoding="utf-8") as f:
        data = json.load(f)
    for key in [k for k in data["context"] if k.startswith(("y2038_board", "y2038_source"))]:
        del data["context"][key]
    data["context"]["host_name"] = "testhost"
    host_json = os.path.join(tmp, "bench-host.json")
    with open(host_json, "w", encoding="utf-8") as f:
        json.dump(data, f)
    report = boards_merge.merge([host_json, board_json], top, out=os.path.join(tmp, "merged"))
    text = open(report, encoding="utf-8").read()
    expect("merge: both sets", True, "| aarch64 testhost (host) |" in text and "aarch64 qemu-user (EMULATED)" in text)
    expect("merge: emulated warning", True, "**aarch64 qemu-user (EMULATED)**" in text)
    expect("merge: sizes from pahole", True, "| timespec64 | 560 | 616 |" in text)
    expect("merge: slab with 2 CPUs", True, "| timespec64 | 13 / 2 (624) | 13 / 2 (624) |" in text)
    expect("merge: a headline table", True, "### accessor/get_mtime/v6/*" in text)
    expect("merge: an older board run has no paired section", False, "## Paired comparisons, side by side" in text)
    paired_json = os.path.join(tmp, "aarch64-qemu-user-paired", "bench-aarch64.json")
    text = open(boards_merge.merge([host_json, paired_json], top, out=os.path.join(tmp, "merged-paired")),
                encoding="utf-8").read()
    section = text[text.index("## Paired comparisons, side by side"):] if "## Paired comparisons, side" in text else ""
    expect("merge: the board's paired figures side by side", True,
           "| accessor | ±" in section and "aarch64 qemu-user (EMULATED), 10 units" in section
           and "### paired/accessor/get_mtime/v6/timespec64~*" in section and "not figures of that ABI" in section)
    expect_error("merge: not JSON", lambda: boards_merge.merge([os.path.join(data_dir, "README.md")], top,
                                                                out=os.path.join(tmp, "m2")), "README.md")
    expect("merge: nothing written on bad input", False, os.path.exists(os.path.join(tmp, "m2", "REPORT.md")))


# --- LAVA -----------------------------------------------------------------------------
def lava_tests(tmp):
    expect("LAVA: committed definitions validate", 2, len(boards_lava.validate_all(top)))
    fake = os.path.join(tmp, "lava-top")
    shutil.copytree(os.path.join(top, "boards"), os.path.join(fake, "boards"))
    job = os.path.join(fake, "boards", "lava", "job-template.yaml")
    text = open(job, encoding="utf-8").read()
    with open(job, "w", encoding="utf-8") as f:
        f.write(text.replace("    to: tftp\n", "    to: tftp\n    bogus_key: 1\n"))
    expect_error("LAVA: a bad job key", lambda: boards_lava.validate_all(fake), "job-template.yaml", "bogus_key")
    with open(job, "w", encoding="utf-8") as f:
        f.write(text)
    testdef = os.path.join(fake, "boards", "lava", "y2038-board.yaml")
    tdtext = open(testdef, encoding="utf-8").read()
    with open(testdef, "w", encoding="utf-8") as f:
        f.write(tdtext.replace("Lava-Test Test Definition 1.0", "Lava-Test-Shell Test Definition 1.0"))
    expect_error("LAVA: a bad testdef format", lambda: boards_lava.validate_all(fake), "y2038-board.yaml", "format")
    with open(testdef, "w", encoding="utf-8") as f:
        f.write(tdtext.replace('"${BOARD}"', '"${BORD}"'))
    expect_error("LAVA: an undefined parameter", lambda: boards_lava.validate_all(fake), "${BORD}")
    with open(testdef, "w", encoding="utf-8") as f:
        f.write("metadata: [unclosed\n")
    expect_error("LAVA: a testdef that is not YAML", lambda: boards_lava.validate_all(fake), "y2038-board.yaml",
                 "not YAML")
    os.unlink(job)
    expect_error("LAVA: a missing job template", lambda: boards_lava.render_job(fake, boards_lava.EXAMPLE),
                 "job-template.yaml")
    expect_error("LAVA: a bad MODE", lambda: boards_lava.render_job(top, dict(boards_lava.EXAMPLE, MODE="fast")),
                 "MODE")
    expect_error("LAVA: a missing value", lambda: boards_lava.render_job(
        top, {k: v for k, v in boards_lava.EXAMPLE.items() if k != "DTB_URL"}), "missing DTB_URL")
    for name, count in (("lava-results-aarch64-emulated.yaml", None), ("lava-results-aarch64-emulated-rest.json", 3)):
        out = boards_lava.convert(os.path.join(data, name), top, out=os.path.join(tmp, name + ".json"))
        suite = json.load(open(out, encoding="utf-8"))
        c = suite["context"]
        expect(f"LAVA {name}: facts", ("aarch64", "qemu-user", 2, True),
               (c["y2038_abi"], c["y2038_board"], c["y2038_board_present_cpus"],
                c["y2038_board_emulated"].startswith("yes")))
        names = [b["run_name"] for b in suite["benchmarks"]]
        expect(f"LAVA {name}: benchmark names restored", True,
               "accessor/get_mtime/v6/timespec64" in names and all("." not in n for n in names))
        if count:
            expect(f"LAVA {name}: count", count, len(names))
        else:
            with tarfile.open(sample) as tar:
                headline = next(tar.extractfile(m).read().decode() for m in tar if m.name.endswith("/headline.txt"))
            want = {line.split()[0]: float(line.split()[1]) for line in headline.splitlines()}
            expect(f"LAVA {name}: every headline figure back", want,
                   {b["run_name"]: b["real_time"] for b in suite["benchmarks"]})
    bad = os.path.join(tmp, "bad.yaml")
    for body, word in (("- name: job\n  result: pass\n", "no y2038.abi"),
                       ("- name: y2038.abi.aarch64\n- name: bench.accessor.get_mtime.v6.scalar\n  measurement: fast\n"
                        "  unit: ns\n", "not a number"),
                       ("just: a mapping\n", "not a LAVA results export")):
        with open(bad, "w") as f:
            f.write(body)
        expect_error(f"LAVA: {word}", lambda: boards_lava.convert(bad, top, out=os.path.join(tmp, "bad.json")),
                     "bad.yaml", word)
        expect(f"LAVA: nothing written ({word})", False, os.path.exists(os.path.join(tmp, "bad.json")))


data_dir = data
with tempfile.TemporaryDirectory() as tmp:
    run_sh_tests(tmp)
    board_run_tests(tmp)
    bundle_tests()
    board_json = import_tests(tmp)
    merge_tests(tmp, board_json)
    lava_tests(tmp)
finish("boards_test")
