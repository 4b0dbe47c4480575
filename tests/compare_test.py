#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""compare_test.py - `scripts/lab compare` (scripts/y2038lab/compare.py) on the committed fixture.

Runs Google Benchmark's own compare.py underneath, so it needs the Debian
package libbenchmark-tools (`scripts/lab deps` installs it); without it the
test is skipped (exit 77).  Checked: the anchored representation regex, both
modes (compare.py's output present and unchanged, our p-values equal to its
U test, ratios and verdicts per row), --filter, --out, and the one-line
errors for bad arguments and inputs.
"""
import contextlib
import io
import os
import re
import shutil
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from y2038lab.bench import compare  # noqa: E402

RUN = os.path.join(here, "data", "stats-fixture.json")


def lab_compare(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = compare.main(list(args))
        except SystemExit as exit:      # argparse
            rc = exit.code
    return rc, out.getvalue(), err.getvalue()


def table(text):
    """{benchmark: [cells]} of the project's table."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| benchmark"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


class Regex(unittest.TestCase):
    def test_representation_is_a_whole_component(self):
        pattern = re.compile(compare.repr_regex("timespec"))
        self.assertTrue(pattern.search("accessor/get_mtime/v6/timespec"))
        self.assertTrue(pattern.search("walk/stat_seq/v6/timespec/4096"))
        self.assertTrue(pattern.search("accessor/get_mtime/v6/timespec_median"))
        self.assertFalse(pattern.search("accessor/get_mtime/v6/timespec64"))
        self.assertFalse(pattern.search("accessor/get_mtime/v6/timespec64/4096"))


class Modes(unittest.TestCase):
    def test_two_representations_in_one_run(self):
        rc, out, err = lab_compare("--repr", "timespec64", "multigrain", "--filter", "^accessor/set_ctime", RUN)
        self.assertEqual(rc, 0, err)
        self.assertIn("Comparing (?<=/)timespec64(?=/|_|$) to (?<=/)multigrain(?=/|_|$)", out)
        gbench_p = re.search(r"set_ctime_current_queried/v6/\[.*\]_pvalue\s+(\S+)", out)
        rows = table(out)
        row = rows["accessor/set_ctime_current_queried/v6/{timespec64 vs multigrain}"]
        self.assertEqual(row[5], "p < 0.001")
        self.assertLess(float(gbench_p.group(1)), 0.001, "the same U test as compare.py")
        self.assertEqual(row[8], "layout effect (beyond the twin control's spread)")
        self.assertEqual(len(rows), 2, "only the filtered operations")

    def test_two_runs(self):
        rc, out, err = lab_compare("--filter", "^accessor/get_mtime/", RUN, RUN)
        self.assertEqual(rc, 0, err)
        self.assertIn(f"Comparing {RUN} (--filter ^accessor/get_mtime/) to {RUN} (--filter ^accessor/get_mtime/)",
                      out, "compare.py's heading names the user's files, not the filtered copies")
        rows = table(out)
        self.assertEqual(len(rows), 4)
        for cells in rows.values():
            self.assertEqual(cells[3], "1.000")
            self.assertEqual(cells[5], "p = 1.000")
            self.assertEqual(cells[8], "no difference detected (not significant)")

    def test_out_file(self):
        tmp = tempfile.mkdtemp()
        try:
            path = os.path.join(tmp, "cmp.md")
            rc, out, _ = lab_compare("--out", path, "--filter", "^accessor/get_mtime/", RUN, RUN)
            self.assertEqual(rc, 0)
            with open(path, encoding="utf-8") as f:
                self.assertEqual(f.read(), out)
        finally:
            shutil.rmtree(tmp)


class Errors(unittest.TestCase):
    def test_bad_arguments(self):
        for args in ((RUN,), ("--repr", "timespec64", "scalar", RUN, RUN), ("--bogus", RUN, RUN)):
            rc, out, err = lab_compare(*args)
            self.assertEqual(rc, 2, args)
            self.assertEqual(out, "")

    def test_bad_inputs(self):
        cases = {("--filter", "(", RUN, RUN): "not a regular expression",
                 ("--filter", "^nothing/", RUN, RUN): "no benchmark matches",
                 (RUN, os.path.join(here, "absent.json")): "absent.json",
                 ("--repr", "timespec64", "ktime", RUN): "no benchmark to compare"}
        for args, message in cases.items():
            rc, out, err = lab_compare(*args)
            self.assertEqual(rc, 2, args)
            self.assertIn(message, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)


if __name__ == "__main__":
    if not os.path.isfile(compare.GBENCH_COMPARE):
        print(f"SKIP: {compare.GBENCH_COMPARE} absent (install libbenchmark-tools)")
        sys.exit(77)
    unittest.main()
