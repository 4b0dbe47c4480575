#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""slub_model_test.py - table tests for python3 -m y2038lab slub-model.

The rows are facts with a source: the Debian 6.6 laptop figures of issue 3,
this lab host's /proc/slabinfo (6.18, 2 CPUs; also checked live by
slabinfo_validation), and hand-checkable edges of mm/slub.c.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scripttest import finish  # noqa: E402  (also puts scripts/ on the path)
import scripttest  # noqa: E402
from y2038lab.layouts import slub_model as m  # noqa: E402


def expect(case, what, want, got):
    scripttest.expect(f"{case}: {what}", want, got)


GEOMETRY_CASES = [
    # (name, objsize, cpus, calc, (objs, pages))
    ("laptop inode 640 B, 8 cpus", 640, 8, "v6.6", (25, 4)),
    ("laptop inode 632 B: still 25", 632, 8, "v6.6", (25, 4)),
    ("laptop inode 628 B: 26", 628, 8, "v6.6", (26, 4)),
    ("laptop inode 604 B: 27", 604, 8, "v6.6", (27, 4)),
    ("laptop inode 584 B: 28", 584, 8, "v6.6", (28, 4)),
    ("laptop ext4 1184 B: 27 per 8 pages", 1184, 8, "v6.6", (27, 8)),
    ("host inode_cache 624 B, 2 cpus: order 1", 624, 2, "v6.8", (13, 2)),
    ("host ext4_inode_cache 1128 B, 2 cpus", 1128, 2, "v6.8", (14, 4)),
    ("2 cpus: min_objects 12 keeps 640 B at order 1", 640, 2, "v6.6", (12, 2)),
    ("kmalloc-8k: capped at slub_max_order", 8192, 2, "v6.8", (4, 8)),
    ("tiny 8 B objects fit one page", 8, 64, "v6.8", (512, 1)),
    ("object larger than an order-3 slab", 40000, 2, "v6.8", (1, 16)),
]

for name, size, cpus, calc, want in GEOMETRY_CASES:
    expect(name, "slab_geometry", want, m.slab_geometry(size, cpus, calc))

expect("published rows", "cpu counts that reproduce them", list(range(4, 32)),
       m.cpus_matching_published("v6.6"))
expect("slub_min_objects", "2 cpus", 12, m.slub_min_objects(2))
expect("slub_min_objects", "8 cpus", 20, m.slub_min_objects(8))
expect("get_order", "4096", 0, m.get_order(4096))
expect("get_order", "4097", 1, m.get_order(4097))
expect("cache_object_size", "616 B inode + free pointer", 624, m.cache_object_size(616))
expect("cache_object_size", "1120 B ext4 + free pointer", 1128, m.cache_object_size(1120))
expect("cache_object_size", "i386 408 B: word 4, align 8", 416, m.cache_object_size(408, word=4))
expect("parse_slabinfo", "one row",
       [("inode_cache", 624, 13, 2)],
       m.parse_slabinfo("slabinfo - version: 2.1\n# name ...\n"
                        "inode_cache 208 208 624 13 2 : tunables 0 0 0 : slabdata 16 16 0\n"))
expect("boot_slab_params", "slub_min_objects", {"min_objects": 16},
       m.boot_slab_params("root=/dev/vda slub_min_objects=16 quiet"))
bad, total = m.validate("x 1 1 640 25 4\ny 1 1 640 12 2\n", 8, "v6.6")
expect("validate", "mismatch found", [("y", 640, (25, 4), (12, 2))], bad)
expect("validate", "rows", 2, total)

finish("slub_model_test")
