#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""stats_test.py - scripts/y2038lab/stats.py on synthetic samples with known answers.

The U-test p-values are checked against scipy's own exact test, the
Hodges-Lehmann cut-off against the published critical value (n = m = 9:
U <= 17 rejects at 0.05 two-sided) and against scipy's exact null
distribution, and every branch of the verdict (too few repetitions, not
significant, within the twin spread, no control, unexplained, established)
on samples built to land in it.
"""
import math
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from scipy.stats import mannwhitneyu  # noqa: E402

from y2038lab.core import stats  # noqa: E402
from y2038lab.core.results import Record, Run  # noqa: E402


def sample(centre, n=9, step=0.01):
    """N distinct values around CENTRE (no ties): centre * (1 + step * k), k centred."""
    return [centre * (1 + step * (k - (n - 1) / 2)) for k in range(n)]


def record(name, real, cpu=None, params=()):
    family, op, body, repr_name = name.split("/")[:4]
    return Record(name, family, op, body, repr_name, params or tuple(name.split("/")[4:]),
                  list(real), list(cpu if cpu is not None else real), {}, {})


def run_of(abi, rows):
    return Run("synthetic.json", abi, {"host_name": "synthetic"}, {r.name: r for r in rows})


class UTest(unittest.TestCase):
    def test_p_value_is_scipy_two_sided(self):
        a, b = sample(1.0), sample(1.05)
        self.assertEqual(stats.u_test(a, b), mannwhitneyu(a, b, alternative="two-sided").pvalue)

    def test_exact_null_distribution_matches_scipy(self):
        for n, m in ((3, 3), (5, 7), (9, 9)):
            counts = stats._u_cdf_counts(n, m)
            self.assertEqual(sum(counts), math.comb(n + m, n), f"n={n} m={m}: counts sum")
            # P(U >= u) from the counts against scipy's exact one-sided p-value,
            # U = pairs with x > y (scipy's U1), for x shifted past y step by step.
            y = [k + 0.5 for k in range(m)]
            for shift in range(0, n + m, 3):
                xs = [k + shift for k in range(n)]
                u = sum(1 for xi in xs for yj in y if xi > yj)
                want = mannwhitneyu(xs, y, alternative="greater", method="exact").pvalue
                got = sum(counts[u:]) / math.comb(n + m, n)
                self.assertAlmostEqual(got, want, places=12, msg=f"n={n} m={m} shift={shift}")

    def test_rank_cutoff_matches_published_critical_value(self):
        # Critical U for n = m = 9, alpha 0.05 two-sided is 17: c = 18.
        self.assertEqual(stats._rank_cutoff(9, 9, 0.95), 18)
        self.assertEqual(stats._rank_cutoff(3, 3, 0.95), 0, "3 + 3 cannot give a 95 % interval")

    def test_interval_brackets_the_true_ratio(self):
        low, high = stats.ratio_interval(sample(2.0), sample(2.4))
        self.assertLess(low, 1.2)
        self.assertGreater(high, 1.2)
        self.assertIsNone(stats.ratio_interval(sample(1.0, 3), sample(1.0, 3)))


class Verdict(unittest.TestCase):
    def test_too_few_repetitions_is_not_a_p_value(self):
        comp = stats.compare(sample(1.0, 3), sample(2.0, 3))
        self.assertIsNone(comp.p, "no p-value below 9 repetitions")
        finding = stats.judge(comp, band=1.01)
        self.assertEqual(finding.status, stats.TOO_FEW)
        self.assertIn("too few repetitions", comp.text())
        self.assertFalse(finding.established)

    def test_not_significant(self):
        finding = stats.judge(stats.compare(sample(1.0), sample(1.0, step=0.011)), band=1.01)
        self.assertEqual(finding.status, stats.NO_DIFFERENCE)
        self.assertIn("not significant", finding.reason)

    def test_significant_but_within_the_twin_spread(self):
        finding = stats.judge(stats.compare(sample(1.0), sample(1.10)), band=1.25)
        self.assertTrue(finding.comparison.significant)
        self.assertEqual(finding.status, stats.NO_DIFFERENCE)
        self.assertIn("twin control", finding.reason)

    def test_interval_straddling_the_band_is_not_established(self):
        comp = stats.compare(sample(1.0, step=0.05), sample(1.30, step=0.05))
        band = (comp.low + comp.high) / 2     # the band edge inside the interval
        self.assertEqual(stats.judge(comp, band=band).status, stats.NO_DIFFERENCE)

    def test_established_beyond_the_band(self):
        finding = stats.judge(stats.compare(sample(1.0), sample(1.5)), band=1.10)
        self.assertTrue(finding.established)
        self.assertEqual(finding.status, stats.EFFECT)
        faster = stats.judge(stats.compare(sample(1.5), sample(1.0)), band=1.10)
        self.assertTrue(faster.established, "a faster contender is an effect too")

    def test_no_control_means_not_established(self):
        finding = stats.judge(stats.compare(sample(1.0), sample(1.5)), band=None)
        self.assertEqual(finding.status, stats.NO_CONTROL)
        self.assertFalse(finding.established)

    def test_instructions_must_explain_the_difference(self):
        comp = stats.compare(sample(1.0), sample(1.5))
        same = stats.judge(comp, 1.1, stats.Explanation("instructions/op", 4, 4))
        self.assertEqual(same.status, stats.NO_DIFFERENCE)
        self.assertIn("placement", same.reason)
        wrong_way = stats.judge(comp, 1.1, stats.Explanation("instructions/op", 5, 4))
        self.assertFalse(wrong_way.established)
        more = stats.judge(comp, 1.1, stats.Explanation("instructions/op", 4, 6))
        self.assertTrue(more.established)
        self.assertIn("instructions/op 4 -> 6", more.reason)

    def test_null_band_is_symmetric_and_at_least_one(self):
        control = stats.compare(sample(1.0), sample(0.9))
        band = stats.null_band(control)
        self.assertAlmostEqual(band, 1 / control.low)
        self.assertGreaterEqual(stats.null_band(stats.compare(sample(1.0), sample(1.0))), 1.0)


class Records(unittest.TestCase):
    def rows(self, abi="x86_64", twin=1.0, scalar=1.5):
        return run_of(abi, [
            record("accessor/get_mtime/v6/timespec64", sample(1.0)),
            record("accessor/get_mtime/v6/timespec", sample(twin)),
            record("accessor/get_mtime/v6/scalar", sample(scalar)),
            record("load/touch_private/v6/timespec64", sample(10.0), params=("real_time", "threads:2")),
            record("load/touch_private/v6/scalar", sample(10.0), params=("real_time", "threads:2")),
        ])

    def test_findings_use_the_twin_as_null(self):
        cells = stats.findings(self.rows())[("accessor", "get_mtime", "v6", (), 1)]
        self.assertEqual(cells["timespec"].status, stats.CONTROL)
        self.assertTrue(cells["scalar"].established)
        wide = stats.findings(self.rows(twin=1.6))[("accessor", "get_mtime", "v6", (), 1)]
        self.assertFalse(wide["scalar"].established, "a twin as far apart as the contender hides it")

    def test_ilp32_has_no_twin(self):
        cells = stats.findings(self.rows(abi="i386"))[("accessor", "get_mtime", "v6", (), 1)]
        self.assertEqual(cells["scalar"].status, stats.NO_CONTROL)
        self.assertIn("no twin control on this ABI", cells["scalar"].reason)

    def test_threads_are_part_of_the_key(self):
        keys = stats.findings(self.rows())
        self.assertIn(("load", "touch_private", "v6", (), 2), keys)

    def test_cpu_measure(self):
        rows = self.rows()
        rows.records["accessor/get_mtime/v6/scalar"].cpu_ns = sample(1.0)
        cells = stats.findings(rows, measure="cpu")[("accessor", "get_mtime", "v6", (), 1)]
        self.assertFalse(cells["scalar"].established)
        with self.assertRaises(ValueError):
            stats.sample(rows.records["accessor/get_mtime/v6/scalar"], "wall")

    def test_disturbance(self):
        quiet = record("accessor/get_mtime/v6/scalar", sample(1.0))
        self.assertEqual(stats.disturbance(quiet).disturbed, 0)
        self.assertEqual(stats.disturbance(quiet).text(), "")
        busy = record("accessor/get_mtime/v6/scalar", [1.0] * 8 + [2.0], [1.0] * 9)
        d = stats.disturbance(busy)
        self.assertEqual((d.disturbed, d.repetitions, d.worst), (1, 9, 2.0))
        self.assertIn("1/9 repetitions", d.text())
        threaded = record("load/touch_private/v6/scalar", [2.0] * 9, [1.0] * 9, params=("threads:2",))
        self.assertIsNone(stats.disturbance(threaded), "real vs CPU means nothing with threads")

    def test_compare_rejects_empty_and_non_positive(self):
        with self.assertRaises(ValueError):
            stats.compare([], [1.0])
        with self.assertRaises(ValueError):
            stats.compare([0.0], [1.0])


if __name__ == "__main__":
    unittest.main()
