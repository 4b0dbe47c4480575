#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""paired_test.py - scripts/y2038lab/core/paired.py on constructed samples with known answers.

The signed-rank critical values against the published table, the
Hodges-Lehmann estimate and interval on a sample whose centre is known by
construction, a twin sample (ratios symmetric about 1) that must come out
"no difference", the resolution and the controls' outcomes of a run built
from records, and bad input refused.
"""
import math
import os
import re
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "..", "scripts"), here]

from y2038lab.core import fsio, paired, tables  # noqa: E402
from y2038lab.core.results import Record, Run  # noqa: E402

# Symmetric log-deviations, no two alike: the centre of CENTRE * exp(d) is CENTRE.
DEVIATIONS = [k * 0.001 for k in (-5, -4, -3, -2, -1, 1, 2, 3, 4, 5)]


def ratios(centre, devs=DEVIATIONS):
    return [centre * math.exp(d) for d in devs]


def record(name, values, truth=None):
    counters = {"ratio": list(values), "a_ns": [1.0] * len(values), "b_ns": list(values)}
    if truth is not None:
        counters["true_ratio"] = [truth] * len(values)
    parts = name.split("/")
    return Record(name, parts[0], parts[1], "", "", tuple(parts[2:]), [1.0] * len(values),
                  [1.0] * len(values), counters, {})


def run_of(*records):
    return Run("constructed.json", "x86_64", {}, {r.name: r for r in records})


class SignedRank(unittest.TestCase):
    def test_critical_values_match_published_table(self):
        # Two-sided alpha 0.05 (e.g. Hollander & Wolfe, table A.4): n 6..15.
        table = {6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 11: 10, 12: 13, 13: 17, 14: 21, 15: 25}
        for n, want in table.items():
            self.assertEqual(paired.critical(n), want, f"n = {n}")
        self.assertEqual(paired.critical(5), -1, "n = 5: no 95 % interval exists")

    def test_known_centre(self):
        ratio, lo, hi, p = paired.analyse(ratios(1.0625))
        self.assertAlmostEqual(ratio, 1.0625, places=12)
        self.assertTrue(lo < 1.0625 < hi)
        self.assertLess(hi / lo, 1.01)
        self.assertAlmostEqual(p, 2 / 2 ** 10, places=12)  # every log-ratio above 0: exact p

    def test_twin_sample_no_difference(self):
        ratio, lo, hi, p = paired.analyse(ratios(1.0))
        self.assertAlmostEqual(ratio, 1.0, places=12)
        self.assertTrue(lo < 1 < hi)
        self.assertGreater(p, 0.9)

    def test_too_few(self):
        self.assertEqual(paired.analyse([1.01, 1.02, 1.03])[1:], (None, None, None))

    def test_bad_ratios_refused(self):
        for bad in ([], [1.0, 0.0] * 5, [1.0, -1.0] * 5, [1.0, float("nan")] * 5, [1.0, float("inf")] * 5):
            with self.assertRaises(ValueError, msg=repr(bad)):
                paired.analyse(bad)


class Names(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(paired.parse_name("paired/accessor/get_mtime/v6/timespec64~scalar/manual_time"),
                         ("accessor", "get_mtime", "v6", "timespec64", "scalar", ""))
        self.assertEqual(paired.parse_name("paired/accessor/get_mtime~rfc_get_mtime/v6/scalar"),
                         ("accessor", "rfc_get_mtime", "v6", "get_mtime", "rfc_get_mtime", "scalar"))
        self.assertEqual(paired.parse_name("paired/fstime/f/gran:100/units:16~17/manual_time"),
                         ("fstime", "f", "", "units:16", "units:17", "gran:100"))

    def test_parse_walk(self):
        self.assertEqual(paired.parse_name("paired/walk/stat_seq/v6/timespec64~scalar/4096/manual_time"),
                         ("walk", "stat_seq", "v6", "timespec64", "scalar", "4096"))
        self.assertEqual(paired.parse_name("paired/walk/stat_seq/v4_4/timespec64/units:16~17/4096/manual_time"),
                         ("walk", "stat_seq", "v4_4", "units:16", "units:17", "timespec64/4096"))

    def test_bad_names_refused(self):
        for bad in ("paired/accessor/get_mtime/v6/scalar", "paired/a~b/c~d/e", "paired/x/a~/b",
                    "accessor/get_mtime/v6/a~b"):
            with self.assertRaises(fsio.InputError, msg=bad):
                paired.parse_name(bad)


class Run_(unittest.TestCase):
    def setUp(self):
        self.run = run_of(
            record("paired/accessor/get_mtime/v6/timespec64~timespec", ratios(1.0, [d / 2 for d in DEVIATIONS]), 1),
            record("paired/accessor/get_mtime/v6/timespec64/units:16~17", ratios(1.0625), 17 / 16),
            record("paired/accessor/get_mtime/v6/timespec64~scalar", ratios(1.001, [d / 5 for d in DEVIATIONS])),
            record("paired/accessor/get_mtime/v6/timespec64~ktime", ratios(1.05)),
            record("paired/accessor/set_mtime/v6/timespec64~ktime", ratios(1.0)))

    def test_resolution_is_the_twins_reach(self):
        twin = next(c for c in paired.comparisons(self.run) if c.kind == "negative")
        res = paired.resolution(self.run)
        self.assertEqual(set(res), {"accessor"})
        self.assertAlmostEqual(res["accessor"], max(twin.hi - 1, 1 / twin.lo - 1), places=12)
        self.assertLess(res["accessor"], 0.005)

    def test_statuses(self):
        status = {c.b if c.kind != "positive" else "positive": (c.operation, c.status)
                  for c in paired.comparisons(self.run)}
        self.assertEqual(status["scalar"], ("get_mtime", paired.WITHIN))  # significant, inside the twin's reach
        self.assertEqual(status["timespec"], ("get_mtime", paired.NO_DIFFERENCE))
        self.assertEqual(status["positive"], ("get_mtime", paired.DIFFERENCE))
        self.assertEqual(paired.comparisons(self.run)[3].status, paired.DIFFERENCE)  # ktime x1.05
        self.assertEqual(paired.comparisons(self.run)[4].status, paired.NO_DIFFERENCE)

    def test_controls(self):
        ctl = paired.controls(self.run)["accessor"]
        self.assertTrue(ctl.no_difference)
        self.assertEqual(len(ctl.positives), 1)
        self.assertTrue(ctl.positive_ok(ctl.positives[0]))
        self.assertAlmostEqual(ctl.positives[0].true_ratio, 1.0625)

    def test_control_far_off(self):
        bad = run_of(record("paired/fstime/f~g/gran:1", ratios(1.03), 1),
                     record("paired/fstime/f/gran:1/units:16~17", ratios(1.04), 17 / 16))
        ctl = paired.controls(bad)["fstime"]
        self.assertFalse(ctl.no_difference)
        self.assertFalse(ctl.positive_ok(ctl.positives[0]))

    def test_record_without_ratio_refused(self):
        rec = record("paired/accessor/get_mtime/v6/timespec64~scalar", ratios(1.0))
        del rec.counters["ratio"]
        with self.assertRaises(fsio.InputError):
            paired.comparisons(run_of(rec))
        with self.assertRaises(fsio.InputError):
            paired.comparisons(run_of(record("paired/accessor/get_mtime/v6/a~b", [1.0, 0.0] * 5)))


class Walk(unittest.TestCase):
    """A walk's twin controls the walk of the same operation, body and size only."""

    def test_twin_per_size(self):
        run = run_of(
            record("paired/walk/stat_seq/v6/timespec64~timespec/64", ratios(1.0, [d / 5 for d in DEVIATIONS]), 1),
            record("paired/walk/stat_seq/v6/timespec64~timespec/262144", ratios(1.0, [d * 8 for d in DEVIATIONS]), 1),
            record("paired/walk/stat_seq/v6/timespec64~scalar/64", ratios(1.01)),
            record("paired/walk/stat_seq/v6/timespec64~scalar/262144", ratios(1.01)),
            record("paired/walk/stat_seq/v6/timespec64/units:16~17/4096", ratios(1.0625), 17 / 16))
        pairs = {(c.b, c.where): c for c in paired.comparisons(run)}
        small, large = pairs[("timespec", "64")], pairs[("timespec", "262144")]
        self.assertAlmostEqual(pairs[("scalar", "64")].control, paired.reach(small), places=12)
        self.assertAlmostEqual(pairs[("scalar", "262144")].control, paired.reach(large), places=12)
        self.assertEqual(pairs[("scalar", "64")].status, paired.DIFFERENCE)
        self.assertEqual(pairs[("scalar", "262144")].status, paired.WITHIN)  # inside the noisy twin's reach
        self.assertEqual(set(paired.resolution(run)), {"walk"})
        self.assertTrue(paired.controls(run)["walk"].positive_ok(pairs[("units:17", "timespec64/4096")]))


class Ilp32Copy(unittest.TestCase):
    """Where the ABI has no twin, the reference against a copy of its code controls its op and body."""

    def test_copy_controls_its_op(self):
        run = run_of(
            record(f"paired/accessor/get_mtime/v6/timespec64~{paired.COPY}", ratios(1.0, [d * 4 for d in DEVIATIONS]),
                   1),
            record("paired/accessor/get_mtime/v6/timespec64~scalar", ratios(1.01)),
            record("paired/accessor/set_mtime/v6/timespec64~scalar", ratios(1.01)))
        run.abi, run.bodies, run.reprs = "i386", ["v6"], ["timespec64", "scalar"]
        pairs = {(c.operation, c.b): c for c in paired.comparisons(run)}
        copy = pairs[("get_mtime", paired.COPY)]
        self.assertEqual(copy.kind, "negative")
        self.assertAlmostEqual(pairs[("get_mtime", "scalar")].control, paired.reach(copy), places=12)
        self.assertEqual(pairs[("get_mtime", "scalar")].status, paired.WITHIN)  # inside the copy's reach
        self.assertEqual(pairs[("set_mtime", "scalar")].control, paired.resolution(run)["accessor"])  # none of its own
        text = "\n".join(tables.accessor_summary(run))
        self.assertIn("against a copy of its own code", text)
        self.assertNotIn("no twin control on this ABI", text)
        self.assertIn(f"| {paired.COPY} (timespec64's code again) | negative control (the same code): ", text)


class ResolutionTable(unittest.TestCase):
    """The README's resolution block: a walk row from its paired controls, a load row from its unpaired twins."""

    def load(self, repr_name, times):
        return Record(f"load/touch_private/v6/{repr_name}/real_time/threads:2", "load", "touch_private", "v6",
                      repr_name, ("real_time", "threads:2"), list(times), list(times), {}, {})

    def test_walk_and_load_rows(self):
        times = [100 + k for k in range(9)]
        run = run_of(record("paired/walk/stat_seq/v6/timespec64~timespec/64", ratios(1.0), 1),
                     record("paired/walk/stat_seq/v6/timespec64/units:16~17/4096", ratios(1.0625), 17 / 16),
                     self.load("timespec64", times), self.load("timespec", times[::-1]))
        rows = tables.resolution_table(run, paired.comparisons(run))
        walk = next(r for r in rows if r.startswith("| walk |"))
        load = next(r for r in rows if r.startswith("| load |"))
        self.assertIn("1 of 1 within ±1%", walk)
        self.assertIn("(+0.00% off, detected) v6 timespec64/4096", walk)
        self.assertIn("not paired", load)
        self.assertIn("9+9 repetitions", load)
        self.assertRegex(load, r"^\| load \| ±\d+\.\d\d% \|")

    def test_load_too_few(self):
        run = run_of(record("paired/walk/stat_seq/v6/timespec64~timespec/64", ratios(1.0), 1),
                     self.load("timespec64", [1, 2, 3]), self.load("timespec", [1, 2, 3]))
        load = next(r for r in tables.resolution_table(run, paired.comparisons(run)) if r.startswith("| load |"))
        self.assertIn("too few for a U test", load)


class Processes(unittest.TestCase):
    """Several processes: the unit is the process, its ratio the median of its repetitions."""

    def test_per_process_medians(self):
        self.assertEqual([2.0, 3.0], [round(r, 12) for r in paired.per_process([1, 2, 4, 3, 9, 1], [1, 1, 1, 2, 2, 2])])

    def test_a_process_bias_widens_the_interval(self):
        # Ten processes of three repetitions: tight within a process, each process biased
        # its own way (-1.5 % to +2.4 %).  Pooled as 30 repetitions the interval misses 1
        # (p = 0.028); per process it holds it, and n counts processes.
        biases = [1.004, 1.008, 1.012, 1.016, 1.02, 1.024, 0.994, 0.99, 1.002, 0.985]
        values = [b * math.exp(d) for b in biases for d in (-0.0001, 0.0, 0.0001)]
        rec = record("paired/accessor/get_mtime/v6/timespec64~timespec", values, 1)
        pooled = paired.comparisons(run_of(rec))[0]
        self.assertEqual((30, paired.DIFFERENCE), (pooled.n, pooled.status))
        rec.counters["y2038_process"] = [k for k in range(1, 11) for _ in range(3)]
        twin = paired.comparisons(run_of(rec))[0]
        self.assertEqual(10, twin.n)
        self.assertTrue(twin.lo <= 1 <= twin.hi)
        self.assertEqual(paired.NO_DIFFERENCE, twin.status)

    def test_misaligned_process_counter_refused(self):
        rec = record("paired/accessor/get_mtime/v6/a~b", ratios(1.0))
        rec.counters["y2038_process"] = [1, 2]
        with self.assertRaises(fsio.InputError):
            paired.comparisons(run_of(rec))


class FstimeSummary(unittest.TestCase):
    """tables.fstime_summary: the division-free truncation against mainline's, per granularity."""

    def test_speedups_goal_and_slower(self):
        recs = [record(f"paired/fstime/timestamp_truncate~timestamp_truncate_twin/gran:{g}/inputs:in_range/latency",
                       ratios(1.0), 1) for g in (100, 1000000)]
        recs += [record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:100/inputs:in_range/"
                        "latency", ratios(0.5)),           # 2x: a difference, the goal met
                 record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:1000000/inputs:"
                        "in_range/latency", ratios(0.6)),  # 1.67x: faster, the goal missed
                 record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:1/inputs:clamped/"
                        "throughput", ratios(1.1))]        # slower: named
        text = "\n".join(tables.fstime_summary(run_of(*recs)))
        self.assertIn("| 100 ns | 2.00x [", text)
        self.assertIn("| 1 ms | 1.67x [", text)
        self.assertIn("Slower than mainline on these inputs and this host: 1 of 3 cases (gran:1/inputs:clamped/throughput)", text)
        self.assertIn("at 1 ms the side that moved more is the division-free one's", text)
        self.assertIn("100 ns 2.00x, 1 ms 1.67x", text)
        self.assertIn("is met at 100 ns, not at 1 ms.", text)
        self.assertEqual([], tables.fstime_summary(run_of(recs[0])), "no comparison: no block")
        # Both missed, 0.606 against 0.6: the division-free side moved 1 %, mainline not at all: no side named.
        recs[2] = record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:100/inputs:in_range/"
                         "latency", ratios(0.6))
        recs[3] = record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:1000000/inputs:"
                         "in_range/latency", ratios(0.606))
        text = "\n".join(tables.fstime_summary(run_of(*recs)))
        self.assertIn("at 1 ms neither side moved by more than 2%", text)
        self.assertNotIn("why is not measured", text, "no side named: nothing to explain")

    def test_result_chain_bounds_the_goal(self):
        """Where the goal is missed: mainline against the result chain alone, paired, bounds the speed-up;
        "out of reach" only where that bound's whole interval lies below the goal."""
        base = [record(f"paired/fstime/timestamp_truncate~timestamp_truncate_twin/gran:{g}/inputs:in_range/latency",
                       ratios(1.0), 1) for g in (100, 1000000)]
        base += [record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:100/inputs:in_range/"
                        "latency", ratios(0.5)),
                 record("paired/fstime/timestamp_truncate~timestamp_truncate_reciprocal/gran:1000000/inputs:"
                        "in_range/latency", ratios(0.6))]
        self.assertNotIn("result chain alone", "\n".join(tables.fstime_summary(run_of(*base))))
        chain = "paired/fstime/timestamp_truncate~result_chain/gran:{}/inputs:in_range/latency"
        text = "\n".join(tables.fstime_summary(run_of(*base, record(chain.format(1000000), ratios(0.58)),
                                                      record(chain.format(100), ratios(0.45)))))
        self.assertIn("paired, 95 % interval): 1 ms 1.72x [", text)
        self.assertNotIn("100 ns 2.22x", text, "the goal is met at 100 ns: no bound shown")
        self.assertIn("its whole interval lies below 1.8x at 1 ms: in this latency loop, code whose result waits on "
                      "these two multiplies cannot reach the goal there (a shorter chain is not excluded", text)
        text = "\n".join(tables.fstime_summary(run_of(*base, record(chain.format(1000000), ratios(0.555)))))
        self.assertIn("1 ms 1.80x [", text)
        self.assertIn("not shown to lie below 1.8x.", text)

    def test_resolution_split_by_a(self):
        recs = [record("paired/fstime/timestamp_truncate~timestamp_truncate_twin/gran:100/inputs:in_range/latency",
                       ratios(1.0), 1),
                record("paired/fstime/inode_set_ctime_current~inode_set_ctime_current_twin/gran:100/clock:fixed/"
                       "throughput", ratios(1.0, [10 * d for d in DEVIATIONS]), 1)]
        run = run_of(*recs)
        text = "\n".join(tables.resolution_table(run, paired.comparisons(run)))
        self.assertIn("(`inode_set_ctime_current` ±", text)
        self.assertIn("`timestamp_truncate` ±", text)

    def test_walk_resolution_by_size(self):
        """One A at several slab sizes: the walk's resolution per size (one cache level each), widest beside."""
        recs = [record(f"paired/walk/{op}/v6/timespec64~timespec/{n}", ratios(1.0, [s * d for d in DEVIATIONS]), 1)
                for op in ("stat_seq", "touch_seq") for n, s in ((64, 1), (16384, 10))]
        run = run_of(*recs)
        walk = next(r for r in tables.resolution_table(run, paired.comparisons(run)) if r.startswith("| walk |"))
        self.assertRegex(walk, r"\(by size: 64 ±(\d+\.\d\d)%, widest ±\1%; 16384 ±\d+\.\d\d%")
        small, large = (float(x) for x in re.findall(r"(?:64|16384) ±(\d+\.\d\d)%,", walk))
        self.assertGreater(large, 5 * small)


if __name__ == "__main__":
    unittest.main()
