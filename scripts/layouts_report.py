#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""layouts_report.py - pahole reference set, size tables, slab model and BTF
comparison for the struct inode replicas.

    scripts/layouts_report.py --build DIR [--build DIR ...] [--out reports] [--slabinfo FILE]
    scripts/layouts_report.py --check --build DIR [--out reports]   (CTest: pahole_reference)

The logic is y2038lab/layouts.py (with pahole.py and slab.py); this is its command line.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from y2038lab import fsio, layouts  # noqa: E402

if __name__ == "__main__":
    sys.exit(fsio.run_main(layouts.main, "layouts_report"))
