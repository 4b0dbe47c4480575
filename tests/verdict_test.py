#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""verdict_test.py - scripts/y2038lab/verdict.py (and claims, evidence) on committed fixtures.

tests/data/stats-fixture.json is a trimmed real development run (its context
says so: busy VM, never to be quoted); tests/data/layouts/ holds copies of
three sizes-<abi>.csv and part of slab.csv as `scripts/lab pahole` wrote
them; tests/data/cost-handmade.csv and tests/data/churn/handmade.csv are
hand-made round figures in the cost and churn helpers' column layouts.
Checked: each claim's ruling follows from those inputs (bytes, twin control,
instruction explanation, churn counts), missing inputs give "not measured
here" and never a ruling, the Markdown table has one well-formed row per
claim, and bad inputs fail with one line and write nothing.
"""
import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from y2038lab.report import claims  # noqa: E402
from y2038lab.core import stats  # noqa: E402
from y2038lab.report import verdict  # noqa: E402

DATA = os.path.join(here, "data")
RUN = os.path.join(DATA, "stats-fixture.json")
LAYOUTS = os.path.join(DATA, "layouts")
COST = os.path.join(DATA, "cost-handmade.csv")
CHURN = os.path.join(DATA, "churn")


def by_key(ev):
    return {r.key: r for r in verdict.rulings(ev)}


class FullInputs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ev = verdict.gather([RUN], LAYOUTS, COST, CHURN)
        cls.rows = by_key(cls.ev)

    def test_one_row_per_claim_in_order(self):
        self.assertEqual([r.key for r in verdict.rulings(self.ev)],
                         ["dinamani", "chinner_reorder", "bergmann", "rfc", "boundary", "clamp", "torn",
                          "multigrain", "churn_bergmann", "churn_chinner"])
        for key in self.rows:
            self.assertIn(key, verdict.MAINLINE, f"{key}: no mainline history")

    def test_reordering_against_packing_from_pahole(self):
        r = self.rows["chinner_reorder"]
        self.assertEqual(r.ruling, "depends on the ABI: packing saves bytes reordering cannot on armhf, x86_64; "
                                   "not on i386")
        self.assertIn("x86_64: reordering timespec64 +0 B, packing -8 B, packing + reordering -16 B", r.figures[0])
        self.assertIn("armhf: reordering timespec64 -4 B, packing -8 B", r.figures[0])

    def test_bergmann_growth_on_32_bit(self):
        r = self.rows["bergmann"]
        self.assertTrue(r.ruling.startswith("supported: every y2038-safe layout grows 32-bit inodes, by 8 to 24 B"),
                        r.ruling)
        self.assertIn("i386 v6: 392 B with the 32-bit timespec; timespec64 +8 B, packed12 +8 B, scalar +16 B",
                      "\n".join(r.figures))
        self.assertIn("walk time not measurable here (fewer than 9 repetitions)", r.ruling)

    def test_dinamani_counts_slab_savings(self):
        r = self.rows["dinamani"]
        self.assertIn("less slab memory in 4 of 12 modelled cache/model pairs (at most -3.8%)", r.ruling)
        self.assertIn("x86_64 -8 B of 624 B", r.figures[0])

    def test_instructions_that_do_not_differ_explain_nothing(self):
        text = "\n".join(self.rows["rfc"].figures)
        self.assertIn("rfc_set_mtime vs set_mtime, v6/scalar", text)
        self.assertIn("not explained by instructions/op (qemu) 4 -> 4: placement, not layout", text)
        self.assertNotIn("difference established", text)
        # without the cost table the same figures establish a difference
        bare = by_key(verdict.gather([RUN], LAYOUTS, None, CHURN))["rfc"]
        self.assertTrue(bare.ruling.startswith("refuted where a difference is established: rfc_set_mtime on scalar"),
                        bare.ruling)

    def test_no_difference_beyond_the_resolution_is_not_support(self):
        r = self.rows["boundary"]
        self.assertTrue(r.ruling.startswith("not measurable here: no difference established, but this run's "
                                            "twin spread reaches"), r.ruling)

    def test_multigrain_query_is_a_layout_effect(self):
        r = self.rows["multigrain"]
        self.assertIn("a query costs (queried +25.36 ns/op (x86_64))", r.ruling)
        self.assertIn("layout effect: +341.8 %", r.deciding)

    def test_torn_counts(self):
        r = self.rows["torn"]
        self.assertIn("tv_sec itself tore in packed12", r.ruling)
        self.assertIn("(tv_sec loaded as 2x32)", "\n".join(r.figures))
        self.assertIn("32-bit ABIs: not measured here", r.figures[-1])

    def test_churn(self):
        self.assertEqual(self.rows["churn_bergmann"].ruling, "refuted (outside x1.5 of 30)")
        self.assertIn("handmade: 3 of 4 file systems", self.rows["churn_bergmann"].figures[0])
        self.assertEqual(self.rows["churn_chinner"].ruling, "refuted: most sites are inside the file systems")
        self.assertIn("24 of 125 timestamp reads and writes (19%)", self.rows["churn_chinner"].figures[0])

    def test_markdown_table_rows_are_well_formed(self):
        text = verdict.section(self.ev)
        table = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| claim")]
        self.assertEqual(len(table), 10)
        for line in table:
            cells = line.replace("\\|", "").strip("|").split("|")
            self.assertEqual(len(cells), 5, line)
        self.assertIn("Warning: ", text, "the disturbed fixture must be flagged")
        self.assertIn("stats-fixture.json", text)

    def test_summary(self):
        text = verdict.summary_of(self.ev)
        self.assertEqual(len([line for line in text.splitlines() if line.startswith("- ")]), 10)


class MissingInputs(unittest.TestCase):
    def test_nothing_given_rules_nothing(self):
        for r in verdict.rulings(verdict.gather()):
            text = " ".join([r.ruling] + r.figures)
            self.assertIn("not measur", text, r.key)
            if r.key != "clamp":    # the clamp row's semantics come from the tests
                self.assertFalse(r.ruling.startswith(("supported", "refuted", "depends")), f"{r.key}: {r.ruling}")

    def test_timing_only(self):
        rows = by_key(verdict.gather([RUN]))
        self.assertTrue(rows["chinner_reorder"].ruling.startswith("not measurable here"))
        self.assertTrue(rows["rfc"].covers.startswith("time: x86_64 on vm (2 CPUs, 2695 MHz), 2026-12-05 (real time)"),
                        rows["rfc"].covers)
        self.assertEqual(rows["churn_chinner"].ruling, "not measurable here: no churn tables given")


def series(centre, n=9):
    return [centre * (1 + 0.01 * (k - 4)) for k in range(n)]


def synthetic_run(records):
    from y2038lab.core.results import Record, Run
    rows = {}
    for name, centre, counters in records:
        parts = name.split("/")
        body, repr_name = (parts[2], parts[3]) if parts[0] != "fstime" else (None, None)
        params = tuple(parts[4:]) if body else tuple(parts[2:])
        rows[name] = Record(name, parts[0], parts[1], body, repr_name, params, series(centre), series(centre),
                            counters, {})
    # The facts y2038-bench records (bench/context.c): one single-word representation.
    facts = {f"y2038_repr_{r}": f"min=-9223372037.145224192 max=9223372036.854775807 one_word={int(r == 'ktime')} "
                                f"wraps=0 origin=test" for r in ("ktime", "timespec64", "timespec")}
    return Run("synthetic.json", "x86_64", dict(facts, host_name="synthetic", num_cpus=2, date="2026-01-01"), rows)


class Synthetic(unittest.TestCase):
    """Families the fixture lacks (fstime/, a single-word torn layout), built with known answers."""

    def test_fstime_against_timestamp_truncate(self):
        run = synthetic_run([
            ("accessor/get_mtime/v6/timespec64", 1.0, {}), ("accessor/get_mtime/v6/timespec", 1.02, {}),
            ("fstime/timestamp_truncate/gran:100/latency", 10.0, {}),
            ("fstime/timestamp_truncate_divfree/gran:100/latency", 5.5, {}),
            ("fstime/fs_time_trunc/gran:100/latency", 10.1, {}),
        ])
        r = by_key(claims.Evidence([run]))["clamp"]
        self.assertIn("cost differs from timestamp_truncate(): timestamp_truncate_divfree gran:100/latency x0.55",
                      r.ruling)
        self.assertNotIn("fs_time_trunc gran", r.ruling, "within the twin spread: not a difference")
        self.assertIn("fstime timestamp_truncate_divfree vs timestamp_truncate, gran:100/latency (10.00 -> 5.50 ns)",
                      r.deciding)

    def test_single_word_timestamp_never_torn(self):
        def torn(repr_name, n):
            return (f"torn/read/v6/{repr_name}/unprotected/writer:busy/real_time", 5.0,
                    {"reads": [1e6], "torn_reads": [n], "sec_nsec_mixed": [n], "sec_halves_mixed": [0],
                     "label": ["1x64"]})
        rows = by_key(claims.Evidence([synthetic_run([torn("ktime", 0), torn("timespec64", 12)])]))
        self.assertEqual(rows["torn"].ruling, "supported on the ABIs shown: the single-word layout never tore, "
                                              "two-word layouts did")
        rows = by_key(claims.Evidence([synthetic_run([torn("ktime", 3), torn("timespec64", 12)])]))
        self.assertEqual(rows["torn"].ruling, "refuted: the single-word layout tore")


class CommandLine(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def main(self, *args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = verdict.main(list(args))
        return rc, err.getvalue()

    def test_writes_section_and_summary(self):
        out, summ = os.path.join(self.tmp, "v.md"), os.path.join(self.tmp, "s.md")
        rc, _ = self.main("--json", RUN, "--sizes", LAYOUTS, "--out", out, "--summary", summ)
        self.assertEqual(rc, 0)
        with open(out, encoding="utf-8") as f:
            self.assertTrue(f.read().startswith("## Verdict\n"))
        self.assertTrue(os.path.getsize(summ) > 0)

    def test_bad_inputs_fail_in_one_line_and_write_nothing(self):
        out = os.path.join(self.tmp, "v.md")
        broken = os.path.join(self.tmp, "broken.json")
        with open(broken, "w") as f:
            f.write("{ not json")
        bad_churn = os.path.join(self.tmp, "churn")
        os.mkdir(bad_churn)
        with open(os.path.join(bad_churn, "t.csv"), "w") as f:
            f.write("fs,reads\next4,1\n")
        cases = [("--json", broken), ("--sizes", os.path.join(self.tmp, "absent")), ("--churn", bad_churn),
                 ("--cost", os.path.join(self.tmp, "absent.csv"))]
        for args in cases:
            rc, err = self.main(*args, "--out", out)
            self.assertEqual(rc, 2, args)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertTrue(err.startswith("verdict: error: "), err)
            self.assertFalse(os.path.exists(out), f"{args}: wrote {out}")
        rc, err = self.main("--churn", bad_churn, "--out", out)
        self.assertIn("missing column(s) writes", err)

    def test_fsio_guards_the_output(self):
        rc, err = self.main("--out", os.path.join(self.tmp, "no", "such", "v.md"))
        self.assertEqual(rc, 2)
        self.assertIn("does not exist", err)


class Helpers(unittest.TestCase):
    def test_resolution_limit(self):
        comp = stats.compare([1.0 + i / 100 for i in range(9)], [1.0 + i / 100 for i in range(9)])
        tight = stats.Finding(comp, stats.NO_DIFFERENCE, "", band=1.05)
        wide = stats.Finding(comp, stats.NO_DIFFERENCE, "", band=1.5)
        self.assertTrue(claims.resolution([("", "", tight)], "ok").startswith("ok (to within"))
        self.assertTrue(claims.resolution([("", "", wide)], "ok").startswith("not measurable here"))
        self.assertTrue(claims.resolution([("", "", stats.Finding(comp, "", ""))], "ok")
                        .startswith("not measurable here: no twin control"))


if __name__ == "__main__":
    unittest.main()
