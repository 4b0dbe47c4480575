#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""plots_test.py - scripts/y2038lab/plots.py on the committed fixtures.

Checks the rule that matters (a heatmap cell is coloured only where a layout
effect is established; grey otherwise, with the reason marked), that the
walk plot marks the cache sizes of the JSON context on a working-set axis,
that render_all writes real PNG files named and titled by machine, and that
an unusable output folder is an InputError with nothing written.
"""
import os
import shutil
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from matplotlib.colors import to_rgba  # noqa: E402

from y2038lab.core import fsio  # noqa: E402
from y2038lab.report import plots  # noqa: E402
from y2038lab.core import paired, stats  # noqa: E402
from y2038lab.core.reprs import REFERENCE  # noqa: E402
from y2038lab.core.results import Record, load_run  # noqa: E402

DATA = os.path.join(here, "data")
RUN = os.path.join(DATA, "stats-fixture.json")
PNG = b"\x89PNG\r\n\x1a\n"


def finding(status, established=False, ratio=1.5):
    comp = stats.Comparison("a", "b", 9, 9, 1.0, ratio, ratio, ratio * 0.9, ratio * 1.1, 0.001)
    return stats.Finding(comp, status, "", 1.1, established)


class Heatmap(unittest.TestCase):
    plt = plots._pyplot()

    def test_only_established_cells_are_coloured(self):
        grey = to_rgba(plots.GREY)
        for status in (stats.NO_DIFFERENCE, stats.TOO_FEW, stats.NO_CONTROL, stats.CONTROL):
            rgba, text, _ = plots.cell_style(self.plt, finding(status), "scalar")
            self.assertEqual(tuple(rgba), grey, status)
            self.assertTrue(text.startswith("1.50 "), text)
        rgba, text, _ = plots.cell_style(self.plt, finding(stats.EFFECT, True), "scalar")
        self.assertNotEqual(tuple(rgba), grey)
        self.assertEqual(text, "1.50*")
        self.assertEqual(plots.cell_style(self.plt, finding(stats.TOO_FEW), "scalar")[1], "1.50 ?")
        self.assertEqual(plots.cell_style(self.plt, finding(stats.CONTROL), "timespec")[1], "1.50 twin")
        self.assertEqual(plots.cell_style(self.plt, None, "timespec64")[1], "1 (ref)")

    def test_slower_and_faster_get_different_colours(self):
        slow = plots.cell_style(self.plt, finding(stats.EFFECT, True, 1.5), "scalar")[0]
        fast = plots.cell_style(self.plt, finding(stats.EFFECT, True, 0.6), "scalar")[0]
        self.assertGreater(slow[0], slow[2], "slower: red")
        self.assertGreater(fast[2], fast[0], "faster: blue")


def pair(name, status, ratio=1.2, kind="compare", n=10):
    return paired.Pair(name, *paired.parse_name(name), kind=kind, true_ratio=None, n=n, ratio=ratio,
                       lo=ratio * 0.99, hi=ratio * 1.01, p=0.002, status=status)


class PairedCells(unittest.TestCase):
    """A row with a paired comparison takes its cells from it; torn/* (counts) is no heatmap row."""
    plt = plots._pyplot()

    def test_paired_cell_styles(self):
        grey = to_rgba(plots.GREY)
        rgba, text, _ = plots.cell_style(self.plt, pair("paired/walk/stat_seq/v6/timespec64~scalar/64",
                                                        paired.DIFFERENCE), "scalar")
        self.assertNotEqual(tuple(rgba), grey)
        self.assertEqual(text, "1.20*")
        for status in (paired.NO_DIFFERENCE, paired.WITHIN):
            rgba, text, _ = plots.cell_style(self.plt, pair("paired/walk/stat_seq/v6/timespec64~scalar/64",
                                                            status), "scalar")
            self.assertEqual((tuple(rgba), text), (grey, "1.20 ~"), status)
        twin = pair("paired/walk/stat_seq/v6/timespec64~timespec/64", paired.DIFFERENCE, 1.001, "negative")
        self.assertEqual(plots.cell_style(self.plt, twin, "timespec")[:2], (grey, "1.00 twin"))
        self.assertEqual(plots.cell_style(self.plt, pair("paired/walk/stat_seq/v6/timespec64~scalar/64",
                                                         paired.TOO_FEW), "scalar")[1], "1.20 ?")

    def test_rows_from_the_paired_comparison(self):
        run = load_run(RUN)
        walk = next(k for k in stats.by_layout(run, "walk") if k[2] == "v6")
        ratios = [1.1 * (1 + d / 1000) for d in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)]
        name = f"paired/walk/{walk[1]}/v6/{REFERENCE}~scalar/{walk[3][0]}"
        run.records[name] = Record(name, "paired", "walk", "", "", tuple(name.split("/")[2:]), [1.0] * 10,
                                   [1.0] * 10, {"ratio": ratios}, {})
        torn = f"torn/read/v6/{REFERENCE}/unprotected/writer:busy"
        run.records[torn] = Record(torn, "torn", "read", "v6", REFERENCE, ("unprotected", "writer:busy"),
                                   [1.0] * 9, [1.0] * 9, {}, {})
        cells, paired_keys = plots.heatmap_cells(run, "v6", "real")
        self.assertEqual(paired_keys, {walk})
        self.assertIsInstance(cells[walk]["scalar"], paired.Pair)
        self.assertAlmostEqual(cells[walk]["scalar"].ratio, 1.1, places=4)
        self.assertNotIn("torn", {k[0] for k in cells})
        # a family with paired rows shows those only: the other walk rows are left out
        self.assertEqual([k for k in cells if k[0] == "walk"], [walk])
        self.assertGreater(len([k for k in stats.by_layout(run, "walk") if k[2] == "v6"]), 1)
        self.assertTrue(cells.keys() - {walk})
        self.assertTrue(all(isinstance(c, stats.Finding) for k, row in cells.items() if k != walk
                            for c in row.values()))
        fig, title = plots.heatmap(self.plt, run, "v6", "real")
        try:
            labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
            self.assertIn(plots._row_name(walk) + " (paired)", labels)
            self.assertIn("torn/* left out", fig.axes[0].get_title().replace("\n", " "))
        finally:
            self.plt.close(fig)


class Walks(unittest.TestCase):
    def test_working_set_axis_and_cache_marks(self):
        plt = plots._pyplot()
        fig, title = plots.walks(plt, load_run(RUN), "v6", "real")
        try:
            ax = fig.axes[0]
            self.assertIn("working set", ax.get_xlabel())
            marks = sorted(line.get_xdata()[0] for line in ax.lines if line.get_linestyle() == ":")
            self.assertEqual(marks, [49152, 1048576, 33554432])     # L1d, L2, L3 of the fixture's context
            points = [x for line in ax.lines if line.get_linestyle() != ":" for x in line.get_xdata()]
            self.assertIn(4096 * 624, points, "x is inodes x sizeof (v6 timespec64: 624 B)")
            self.assertIn("x86_64 on vm", title)
        finally:
            plt.close(fig)


class RenderAll(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_writes_png_files(self):
        out = plots.render_all([RUN], self.tmp, os.path.join(DATA, "layouts"), prefix="t-")
        names = [os.path.basename(p) for _, p in out]
        self.assertEqual(names, ["t-heatmap-x86_64-v6.png", "t-walk-x86_64-v6.png", "t-threads-x86_64.png",
                                 "t-sizes-v6.png", "t-sizes-v4_4.png"])
        for title, path in out:
            with open(path, "rb") as f:
                self.assertEqual(f.read(8), PNG, path)
            self.assertTrue(title)
        self.assertEqual(sorted(os.listdir(self.tmp)), sorted(names), "no temporary files left")

    def test_no_inputs_no_plots(self):
        self.assertEqual(plots.render_all([], self.tmp), [])

    def test_command_line_fragment(self):
        frag = os.path.join(self.tmp, "50-plots.md")
        self.assertEqual(plots.main(["--json", RUN, "--out-dir", self.tmp, "--fragment", frag]), 0)
        with open(frag, encoding="utf-8") as f:
            text = f.read()
        self.assertTrue(text.startswith("## Plots\n"))
        self.assertIn("](heatmap-x86_64-v6.png)", text)
        self.assertEqual(plots.main(["--json", RUN, "--out-dir", os.path.join(self.tmp, "absent"),
                                     "--fragment", os.path.join(self.tmp, "x.md")]), 2)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.md")))

    def test_missing_folder(self):
        with self.assertRaises(fsio.InputError):
            plots.render_all([RUN], os.path.join(self.tmp, "absent"))


if __name__ == "__main__":
    unittest.main()
