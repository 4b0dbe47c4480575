#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""slub_model.py - how many objects of a given size SLUB puts in a slab.

    scripts/slub_model.py SIZE [--cpus N] [--calc v6.6|v6.8]
    scripts/slub_model.py --validate [/proc/slabinfo] [--cpus N] [--calc ...]
    scripts/slub_model.py --published

The model is y2038lab/slub_model.py; this is its command line (and the name
older callers import).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from y2038lab.slub_model import *  # noqa: E402,F401,F403
from y2038lab import fsio, slub_model  # noqa: E402

if __name__ == "__main__":
    sys.exit(fsio.run_main(slub_model.main, "slub_model.py"))
