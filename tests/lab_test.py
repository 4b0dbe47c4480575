#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""lab_test.py - scripts/lab refuses what it cannot do before doing anything.

Every subcommand with an extra or unknown argument, an unknown subcommand, a
bad Y2038_SKIP_DEPS and bad Y2038_* variables: non-zero exit and one line
naming the argument or the variable, within seconds (each case also sets
Y2038_BENCH_CPUS=refused-if-reached, so a refusal that failed could not start
a run: it would stop at the variable check with a different message).  Then
y2038lab.fuzzrun with stand-in fuzz targets, and y2038lab.envvars' checks.
"""
import os
import tempfile

from scripttest import PYTHON, TOP, env, expect, finish, one_line_error, run, write
from y2038lab.core import abis
from y2038lab.core import envvars
from y2038lab.core import fsio

LAB = os.path.join(TOP, "scripts", "lab")
GUARD = {"Y2038_SKIP_DEPS": "1", "Y2038_BENCH_CPUS": "refused-if-reached"}
KTREE = tempfile.TemporaryDirectory()  # a stand-in kernel tree: Makefile and fs/
write(os.path.join(KTREE.name, "fs", "inode.c"), "")
write(os.path.join(KTREE.name, "Makefile"), "VERSION = 4\nPATCHLEVEL = 4\n")

for case, args, words in [
        ("bench --full extra", ["bench", "--full", "extra"], "bench: unexpected argument 'extra'"),
        ("bench --fast", ["bench", "--fast"], "bench: unexpected argument '--fast'"),
        ("report x", ["report", "x"], "report: unexpected argument 'x'"),
        ("test --quick", ["test", "--quick"], "test: unexpected argument '--quick'"),
        ("pahole x", ["pahole", "x"], "pahole: unexpected argument 'x'"),
        ("perf x", ["perf", "x"], "perf: unexpected argument 'x'"),
        ("build two presets", ["build", "default", "release"], "build: unexpected argument 'release'"),
        ("kernel-check no tree", ["kernel-check"], "kernel-check: '' is not a Linux source tree"),
        ("kernel-check not a tree", ["kernel-check", "/nonexistent"], "'/nonexistent' is not a Linux source tree"),
        ("kernel-check bad ABI", ["kernel-check", KTREE.name, "mips"], "kernel-check: unknown ABI 'mips'"),
        ("deps unknown group", ["deps", "nosuch"], "deps: unknown group 'nosuch'"),
        ("help x", ["--help", "x"], "unexpected argument 'x'"),
        ("unknown subcommand", ["benchh"], "unknown subcommand 'benchh'"),
        ("no subcommand", [], "unknown subcommand ''")]:
    proc = run([LAB, *args], environ=env(**GUARD), timeout=60)
    one_line_error(f"lab {case}", proc, "lab", words, code=1)

for case, args, var, value, words in [
        ("Y2038_SKIP_DEPS=yes", ["bench"], "Y2038_SKIP_DEPS", "yes", "Y2038_SKIP_DEPS='yes'"),
        ("bench with a bad CPU list", ["bench"], "Y2038_BENCH_CPUS", "0,,1", "Y2038_BENCH_CPUS='0,,1'"),
        ("perf with a glob in Y2038_VALGRIND_ARGS", ["perf"], "Y2038_VALGRIND_ARGS", "*", "Y2038_VALGRIND_ARGS='*'"),
        ("build with a seed that overflows", ["build"], "Y2038_SEED", "99999999999999999999", "Y2038_SEED="),
        ("test with fuzz seconds not a number", ["test"], "Y2038_FUZZ_SECONDS", "1m", "Y2038_FUZZ_SECONDS='1m'")]:
    environ = env(**{**GUARD, "Y2038_BENCH_CPUS": None, var: value})
    proc = run([LAB, *args], environ=environ, timeout=60)
    lines = proc.stderr.strip().splitlines()
    expect(f"lab {case}: refused before anything ran", True,
           proc.returncode != 0 and len(lines) == 1 and words in lines[0])
    if os.environ.get("SCRIPTTEST_VERBOSE") or not (lines and words in lines[-1]):
        print(f"  lab {case}: exit {proc.returncode}: {proc.stderr.strip()[:300]}")

# scripts/lab's cross presets are those of the one ABI table (y2038lab.core.abis).
lab_presets = next(line for line in fsio.read_text(LAB).splitlines() if line.startswith("CROSS_PRESETS=("))
expect("lab CROSS_PRESETS: the ABI table's cross presets", f"CROSS_PRESETS=({' '.join(abis.ABIS[a].preset for a in abis.CROSS)})",
       lab_presets.split("#")[0].strip())

proc = run([LAB, "--help"], environ=env(**GUARD))
expect("lab --help: every subcommand listed", True,
       proc.returncode == 0 and all(f"scripts/lab {c}" in proc.stdout
                                    for c in ("report", "test", "deps", "build", "pahole", "bench", "perf")))
with open(LAB, encoding="utf-8") as f:
    lab_text = f.read()
expect("lab: a dispatcher under 200 lines", True, lab_text.count("\n") < 200)
expect("lab: no Python in heredocs", False, "<<'PY'" in lab_text or "python3 -" in lab_text.replace("python3 -m", ""))

# envvars, as a module.
CHECKS = [("seed decimal", "Y2038_SEED", "42", 42), ("seed hex", "Y2038_SEED", "0xff", 255),
          ("seed 2^64-1", "Y2038_SEED", str(2**64 - 1), 2**64 - 1), ("seed unset", "Y2038_SEED", "", None),
          ("valgrind words, quotes kept together", "Y2038_VALGRIND_ARGS", "--LL=1,2,3 '--D1=32768,8,64'",
           ["--LL=1,2,3", "--D1=32768,8,64"]),
          ("fuzz seconds 0", "Y2038_FUZZ_SECONDS", "0", 0), ("skip deps", "Y2038_SKIP_DEPS", "1", True)]
for case, var, value, want in CHECKS:
    expect(f"envvars {case}", want, envvars.CHECKS[var]({var: value}))
for case, var, value in [("seed 2^64", "Y2038_SEED", str(2**64)), ("seed +1", "Y2038_SEED", "+1"),
                         ("seed space", "Y2038_SEED", " 1"), ("fuzz seconds a day and one", "Y2038_FUZZ_SECONDS",
                                                             "86401"),
                         ("valgrind not an option", "Y2038_VALGRIND_ARGS", "LL=1"),
                         ("skip deps yes", "Y2038_SKIP_DEPS", "yes")]:
    try:
        envvars.CHECKS[var]({var: value})
        expect(f"envvars {case}", "InputError", "accepted")
    except fsio.InputError as err:
        expect(f"envvars {case}: names the variable", True, str(err).startswith(f"{var}="))
expect("envvars: a CPU list in the allowed set, in order", [1, 0], envvars.bench_cpus({"Y2038_BENCH_CPUS": "1,0"},
                                                                                       allowed={0, 1}))
one_line_error("envvars: unknown variable", run(["-m", "y2038lab", "envvars", "Y2038_NOPE"]),
               "y2038lab envvars", "no check for Y2038_NOPE")

# fuzzrun with stand-in targets: one passes, one "crashes".
with tempfile.TemporaryDirectory() as tmp:
    build, corpus = os.path.join(tmp, "build"), os.path.join(tmp, "corpus")
    for target, code in (("good_fuzz", 0), ("bad_fuzz", 1)):
        write(os.path.join(corpus, target, "seed0"), "x")
        write(os.path.join(build, target), f"#!/bin/sh\necho \"Done 7 runs in 1 second(s)\"\nexit {code}\n")
        os.chmod(os.path.join(build, target), 0o755)
    proc = run(["-m", "y2038lab", "fuzz", "--build", build, "--corpus", corpus], environ=env(Y2038_FUZZ_SECONDS="1"))
    expect("fuzzrun: a failing target fails the step, naming its reproducer folder", True,
           proc.returncode == 2 and "bad_fuzz failed (exit 1); reproducer in" in proc.stderr)
    expect("fuzzrun: the other target still ran to its end (they run side by side)", True,
           "good_fuzz: 0 inputs kept in" in proc.stderr)
    os.unlink(os.path.join(build, "bad_fuzz"))
    os.rename(os.path.join(corpus, "bad_fuzz"), os.path.join(tmp, "moved"))
    proc = run(["-m", "y2038lab", "fuzz", "--build", build, "--corpus", corpus], environ=env(Y2038_FUZZ_SECONDS="1"))
    expect("fuzzrun: a passing target, its stats printed", (0, True), (proc.returncode, "Done 7 runs" in proc.stdout))
    proc = run(["-m", "y2038lab", "fuzz", "--build", build, "--corpus", corpus], environ=env(Y2038_FUZZ_SECONDS="0"))
    expect("fuzzrun: Y2038_FUZZ_SECONDS=0 skips", (0, True), (proc.returncode, "skipped" in proc.stderr))
    write(os.path.join(corpus, "unbuilt", "seed0"), "x")
    one_line_error("fuzzrun: a corpus without its target", run(["-m", "y2038lab", "fuzz", "--build", build,
                                                                 "--corpus", corpus]), "y2038lab fuzz",
                   "no fuzz target built")
expect("python used by the tests", True, os.path.exists(PYTHON))
finish("lab_test")
