#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""seventh_repr_test.py - the recipe for a new representation holds: its header and
its layouts.def rows, nothing else (docs/ARCHITECTURE.md, "Adding a representation").

In a copy of the source tree, adds layouts/repr_seventh.h (timespec64's header
under another name and origin: a y2038-safe, two-word, clamping representation)
and its two rows (no size claim), builds the layout probes of the default and
the i686 presets and the default preset's y2038-bench, runs y2038-bench's
accessor/get_mtime benchmarks once, and then the pipeline: `y2038lab layouts`
(sizes and facts per ABI), `bench-report` (the run's tables and README's size
summary) and `verdict`.  The seventh representation must be in every table,
with its origin and its facts, and in the ruling that lists the y2038-safe
layouts (Bergmann: 32-bit inodes must grow).  Exit 77 without pahole or the
i686 cross compiler.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from scripttest import PYTHON, TOP, env, expect, finish, write

NAME, ORIGIN = "seventh", "a test-only representation (tests/seventh_repr_test.py)"
COPIED = ("CMakeLists.txt", "CMakePresets.json", "cmake", "layouts", "src", "tools", "bench", "cost", "tests",
          "churn", "boards")


def step(cmd, cwd, what):
    proc = subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"FAIL [{what}]: {' '.join(cmd)}: exit {proc.returncode}\n{(proc.stderr or proc.stdout)[-2000:]}")
        sys.exit(1)
    return proc.stdout


def main():
    if not shutil.which("pahole") or not shutil.which("i686-linux-gnu-gcc"):
        print("SKIP: needs pahole and i686-linux-gnu-gcc")
        return 77
    tmp = tempfile.mkdtemp(prefix="seventh-repr.")
    try:
        src = os.path.join(tmp, "src")
        os.mkdir(src)
        for name in COPIED:
            path = os.path.join(TOP, name)
            (shutil.copytree if os.path.isdir(path) else shutil.copy2)(path, os.path.join(src, name))
        # The recipe: a header and the rows, nothing else.
        with open(os.path.join(TOP, "layouts", "repr_timespec64.h"), encoding="utf-8") as f:
            header = f.read()
        header = re.sub(r"#define INODE_REPR_ID \w+", f"#define INODE_REPR_ID {NAME}", header)
        header = re.sub(r'#define INODE_REPR_NAME "\w+"', f'#define INODE_REPR_NAME "{NAME}"', header)
        header = re.sub(r'#define INODE_REPR_ORIGIN "[^"]*"', f'#define INODE_REPR_ORIGIN "{ORIGIN}"', header)
        header = header.replace("LAYOUTS_REPR_TIMESPEC64_H", "LAYOUTS_REPR_SEVENTH_H")
        write(os.path.join(src, "layouts", f"repr_{NAME}.h"), header)
        with open(os.path.join(src, "layouts", "layouts.def"), "a", encoding="utf-8") as f:
            f.write(f"INODE_LAYOUT({NAME}, v4_4, 0, 0, 0)\nINODE_LAYOUT({NAME}, v6, 0, 0, 0)\n")

        off = ["-DY2038_BUILD_TESTS=OFF", "-DY2038_BUILD_COST=OFF"]
        step(["cmake", "--preset", "default", *off], src, "configure default")
        step(["cmake", "--preset", "i686", *off, "-DY2038_BUILD_BENCH=OFF"], src, "configure i686")
        jobs = str(os.cpu_count() or 2)
        step(["cmake", "--build", "--preset", "default", "-j", jobs, "--target", "layout_probes", "y2038-bench"],
             src, "build default")
        step(["cmake", "--build", "--preset", "i686", "-j", jobs, "--target", "layout_probes"], src, "build i686")

        out, results = os.path.join(tmp, "reports"), os.path.join(tmp, "results")
        os.makedirs(out)
        os.makedirs(results)
        bench_json = os.path.join(results, "bench-x86_64.json")
        step([os.path.join(src, "build", "default", "bench", "y2038-bench"), "--benchmark_filter=^accessor/get_mtime/",
              "--benchmark_min_time=0.001", f"--benchmark_out={bench_json}", "--benchmark_out_format=json"],
             tmp, "y2038-bench")
        y2038lab = [PYTHON, "-m", "y2038lab"]
        step(y2038lab + ["layouts", "--build", os.path.join(src, "build", "default"),
                         "--build", os.path.join(src, "build", "i686"), "--out", out], tmp, "y2038lab layouts")
        layouts = os.path.join(out, "layouts")
        fragment, summary = os.path.join(results, "90-bench.md"), os.path.join(results, "05-summary.md")
        step(y2038lab + ["bench-report", "--json", bench_json, "--fragment", fragment, "--summary", summary,
                         "--sizes", layouts, "--no-plots"], tmp, "bench-report")
        verdict = os.path.join(results, "01-verdict.md")
        step(y2038lab + ["verdict", "--json", bench_json, "--sizes", layouts, "--out", verdict], tmp, "verdict")

        def text(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
        for abi in ("x86_64", "i386"):
            rows = [line for line in text(os.path.join(layouts, f"sizes-{abi}.csv")).splitlines()
                    if f",{NAME}," in line]
            expect(f"sizes-{abi}.csv: a row per body, with its origin", 2, sum(ORIGIN in r for r in rows))
        expect("sizes.md: its facts, y2038-safe on both ABIs", True,
               f"| {NAME} | {ORIGIN} | no | clamps | x86_64, i386 |" in text(os.path.join(layouts, "sizes.md")))
        expect("bench JSON: its facts in the context", True, f'"y2038_repr_{NAME}": "min=' in text(bench_json))
        expect("bench fragment: a column of the accessor overview", True,
               re.search(rf"^\| operation \|.* {NAME} \|$", text(fragment), re.M) is not None)
        expect("bench fragment: a row of accessor/get_mtime", True, f"| v6 | {NAME} |" in text(fragment))
        expect("README summary: its sizes", True, re.search(rf"^\| {NAME} \| \d+", text(summary), re.M) is not None)
        expect("verdict: among the y2038-safe layouts that grow 32-bit inodes", True,
               re.search(rf"i386 v4_4 \(\d+ B with the 32-bit \w+\):.* {NAME}", text(verdict)) is not None)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    finish("seventh_repr_test")


if __name__ == "__main__":
    sys.exit(main())
