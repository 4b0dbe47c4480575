#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""cachegeo_test.py - y2038lab.cachegeo and report.py's use of it.

A fake sysfs tree stands for /sys/devices/system/cpu/cpu0/cache (this
VM's values: 32 KiB 8-way L1i, 48 KiB 12-way L1d, 1 MiB L2, 32 MiB 16-way
L3); the board geometries must be ones valgrind accepts; the walk chosen for
a geometry must exceed its LL; Y2038_VALGRIND_ARGS must replace the named
geometries only when it sets a cache.
"""
import os
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "scripts"))
from y2038lab.perf import report  # noqa: E402
from y2038lab.perf import cachegeo  # noqa: E402
from y2038lab.core.fsio import InputError  # noqa: E402

VM_CACHES = [  # level, type, size, ways, line
    (1, "Data", "48K", 12, 64), (1, "Instruction", "32K", 8, 64),
    (2, "Unified", "1024K", 16, 64), (3, "Unified", "32768K", 16, 64),
]


def fake_sysfs(root, caches):
    for i, (level, kind, size, ways, line) in enumerate(caches):
        d = os.path.join(root, f"index{i}")
        os.makedirs(d)
        for key, value in (("level", level), ("type", kind), ("size", size),
                           ("ways_of_associativity", ways), ("coherency_line_size", line)):
            with open(os.path.join(d, key), "w", encoding="utf-8") as f:
                f.write(f"{value}\n")


class HostTest(unittest.TestCase):
    def test_vm_caches(self):
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, VM_CACHES)
            geometry, why = cachegeo.host(root)
        self.assertIsNone(why)
        self.assertEqual(geometry.valgrind_args(),
                         ["--I1=32768,8,64", "--D1=49152,12,64", "--LL=33554432,16,64"])
        self.assertIn("L3 as LL", geometry.what)
        self.assertEqual(geometry.describe(), "I1 32 KiB 8-way 64 B, D1 48 KiB 12-way 64 B, LL 32 MiB 16-way 64 B")

    def test_unusable_sysfs(self):
        with tempfile.TemporaryDirectory() as root:
            self.assertIn("no cache listed", cachegeo.host(root)[1])
            fake_sysfs(root, VM_CACHES[:2])  # no level 2+
            self.assertIn("no L1i, L1d and a unified last level", cachegeo.host(root)[1])
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, VM_CACHES[:3] + [(3, "Unified", "30720K", 20, 64)])  # 24576 sets: not 2^k
            geometry, why = cachegeo.host(root)
            self.assertIsNone(why)
            self.assertEqual(geometry.ll, (31457280, 30, 64))  # 16384 sets, 30-way: the same size
            self.assertIn("simulated 30-way with 16384 sets", geometry.what)
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, VM_CACHES[:3] + [(3, "Unified", "1000K", 10, 64)])  # 1600 sets, no fix
            geometry, why = cachegeo.host(root)
            self.assertIsNone(geometry)
            self.assertIn("not", why)
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, VM_CACHES[:3] + [(3, "Unified", "lots", 16, 64)])
            self.assertIn("not a cache size", cachegeo.host(root)[1])

    def test_no_host_keeps_the_boards(self):
        with tempfile.TemporaryDirectory() as root:
            chosen, notes = cachegeo.geometries([], root)
        self.assertEqual([g.name for g in chosen], ["cortex-a53", "cortex-a9"])
        self.assertIn("host geometry not simulated", notes[0])


class BoardsTest(unittest.TestCase):
    def test_line_sizes_and_valgrind_rules(self):
        a53, a9 = cachegeo.BOARDS
        self.assertEqual((a53.d1[2], a53.ll), (64, (524288, 16, 64)))
        self.assertEqual({a9.i1[2], a9.d1[2], a9.ll[2]}, {32})
        for bad in ((49152, 12, 48), (49152, 0, 64), (30 << 20, 20, 64), (1000, 2, 64)):
            with self.assertRaises(InputError):
                cachegeo.check("bad", *bad)

    def test_walk_exceeds_ll(self):
        sizes = [64, 4096, 65536, 262144]
        a53 = cachegeo.BOARDS[0]
        self.assertEqual(cachegeo.walk_size(a53, sizes), (4096, True))
        with tempfile.TemporaryDirectory() as root:
            fake_sysfs(root, VM_CACHES)
            host, _ = cachegeo.host(root)
        self.assertEqual(cachegeo.walk_size(host, sizes), (262144, True))
        self.assertEqual(cachegeo.walk_size(host, [64, 4096]), (4096, False))  # nothing big enough


class OverrideTest(unittest.TestCase):
    def test_cache_options_replace_the_geometries(self):
        chosen, notes = cachegeo.geometries(["--LL=33554432,16,64", "--trace-children=no"])
        self.assertEqual([g.name for g in chosen], ["Y2038_VALGRIND_ARGS"])
        self.assertEqual(chosen[0].valgrind_args(), ["--LL=33554432,16,64", "--trace-children=no"])
        self.assertEqual(notes, [])

    def test_other_options_go_to_every_geometry(self):
        chosen, _ = cachegeo.geometries(["--trace-children=no"])
        self.assertTrue(all(g.valgrind_args()[-1] == "--trace-children=no" for g in chosen))
        self.assertNotIn("--trace-children=no", cachegeo.BOARDS[0].valgrind_args())  # not mutated

    def test_malformed_cache_option(self):
        with self.assertRaises(InputError):
            cachegeo.geometries(["--LL=32M"])


class PerfReportPlanTest(unittest.TestCase):
    SIZES = {("v6", "scalar"): {64: "walk/stat_seq/v6/scalar/64", 4096: "walk/stat_seq/v6/scalar/4096",
                                262144: "walk/stat_seq/v6/scalar/262144"}}

    def test_plan_per_geometry(self):
        a53 = cachegeo.BOARDS[0]
        self.assertEqual(report.callgrind_plan(a53, self.SIZES, None, 65536),
                         [("walk/stat_seq/v6/scalar/4096", 4096)])
        override = cachegeo.from_valgrind_args(["--LL=33554432,16,64"])
        self.assertEqual(report.callgrind_plan(override, self.SIZES, None, 65536),
                         [("walk/stat_seq/v6/scalar/4096", 4096)])  # --n-max rules there
        self.assertEqual(report.callgrind_plan(a53, self.SIZES, ["walk/stat_seq/v6/scalar/64"], 0),
                         [("walk/stat_seq/v6/scalar/64", 64)])

    def test_working_set(self):
        self.assertEqual(report.working_set(3.125, 4096), 4096 * 200)
        self.assertIsNone(report.working_set(None, 4096))
        self.assertIsNone(report.working_set(3, None))


if __name__ == "__main__":
    unittest.main()
