#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bench_report.py - Markdown tables and PNG plots from y2038-bench JSON.

    scripts/bench_report.py --json results/X/bench-x86_64.json [--json ...]
        --fragment results/X/40-bench.md [--plots-dir DIR | --no-plots]
        [--summary results/X/05-summary.md --sizes reports/layouts] [--skipped FILE ...]

The logic is the y2038lab package, in the style of Google Benchmark's
tools/gbench: results.py parses the JSON once into records, tables.py,
plots.py and runchecks.py work on those; benchreport.py is this command.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from y2038lab import benchreport, fsio  # noqa: E402

if __name__ == "__main__":
    sys.exit(fsio.run_main(benchreport.main, benchreport.PROG))
