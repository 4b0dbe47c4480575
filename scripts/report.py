#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""report.py - assemble REPORT.md from the fragments, update README's results block.

    scripts/report.py assemble --results DIR --build DIR --out reports/TARGET [--target T]
    scripts/report.py readme --report reports/TARGET/REPORT.md --readme README.md

The logic is y2038lab/assemble.py; this is its command line.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from y2038lab import assemble, fsio  # noqa: E402

if __name__ == "__main__":
    sys.exit(fsio.run_main(assemble.main, "report.py"))
