"""When is a difference between two layouts a layout effect?  The statistics.

A comparison is between the repetitions of two benchmark records (one time per
repetition, as results.Record holds them): the two-sided Mann-Whitney U test
(scipy's mannwhitneyu, called as Google Benchmark's compare.py calls it: the same
p-values), and the ratio of the medians (contender / baseline) with a 95 %
Hodges-Lehmann interval of the shift in log-time: order statistics of all
pairwise ratios, the rank cut-off from the exact null distribution of U (normal
approximation beyond EXACT_PAIRS pairs).  No resampling, nothing random.

judge() calls it a *layout effect* only when all of these hold, else "no
difference detected", with the reason:
  1. each side has at least MIN_REPETITIONS repetitions (compare.py's "optimal"
     count; below it the U test cannot reach significance: "too few repetitions");
  2. p < ALPHA;
  3. the whole interval lies outside the twin control's band [1/s, s]: on LP64
     ABIs REFERENCE and TWIN are one layout compiled twice, so their ratio is what
     code placement alone does, and s is the furthest its interval reaches from 1
     (either way).  Without a control (ILP32 ABIs, missing rows) nothing is established;
  4. an instruction measure, when supplied, differs in the same direction as the
     time: equal instructions and a different time is placement, not layout.

A single-threaded repetition whose real time exceeds its CPU time by more than
DISTURBED_EXCESS lost the CPU to something else: flagged by disturbance().
"""
import functools
import itertools
import math
import statistics
from dataclasses import dataclass

from scipy.stats import mannwhitneyu, norm

from y2038lab.core import abis
from y2038lab.core.paired import p_text
from y2038lab.core.reprs import REFERENCE, TWIN

ALPHA = 0.05
CONFIDENCE = 0.95
MIN_REPETITIONS = 9          # compare.py's UTEST_OPTIMAL_REPETITIONS
DISTURBED_EXCESS = 0.10      # real > cpu * 1.10: the repetition was disturbed
EXACT_PAIRS = 400            # exact U distribution up to n * m pairs (20 + 20)

EFFECT = "layout effect"
NO_DIFFERENCE = "no difference detected"
TOO_FEW = "too few repetitions"
NO_CONTROL = "not controlled"
CONTROL = "twin control"


def u_test(base, contender):
    """Two-sided Mann-Whitney U p-value, exactly as compare.py computes it."""
    return float(mannwhitneyu(base, contender, alternative="two-sided").pvalue)


@functools.lru_cache(maxsize=None)
def _u_cdf_counts(n, m):
    """Counts of the n+m choose n arrangements of n x's and m y's by U (no ties), U = 0..n*m."""
    if n == 0 or m == 0:
        return (1,)
    # the last element is an x (ranked above all m y's: U += m) or a y
    a, b = _u_cdf_counts(n - 1, m), _u_cdf_counts(n, m - 1)
    return tuple((a[u - m] if u >= m else 0) + (b[u] if u < len(b) else 0) for u in range(n * m + 1))


@functools.lru_cache(maxsize=None)
def _rank_cutoff(n, m, confidence):
    """c such that [D_(c), D_(nm-c+1)] covers >= confidence; 0 if none does."""
    tail = (1 - confidence) / 2
    if n * m <= EXACT_PAIRS:
        total = math.comb(n + m, n)
        # Cumulative sums of non-negative counts never decrease: this counts up to the last within the tail.
        return sum(1 for s in itertools.accumulate(_u_cdf_counts(n, m)) if s / total <= tail)
    z = norm.ppf(1 - tail)
    return max(0, math.floor(n * m / 2 - z * math.sqrt(n * m * (n + m + 1) / 12)))


def ratio_interval(base, contender, confidence=CONFIDENCE):
    """(low, high) for contender/base: Hodges-Lehmann on log-times; None if too few."""
    c = _rank_cutoff(len(base), len(contender), confidence)
    if c < 1:
        return None
    diffs = sorted(math.log(y) - math.log(x) for x in base for y in contender)
    return math.exp(diffs[c - 1]), math.exp(diffs[len(diffs) - c])


@dataclass
class Comparison:
    """contender against baseline: medians, ratio with interval, U test."""
    base: str
    contender: str
    n_base: int
    n_contender: int
    median_base: float
    median_contender: float
    ratio: float               # median_contender / median_base
    low: float = None          # 95 % interval of the ratio (None: too few)
    high: float = None
    p: float = None            # None when too few repetitions
    note: str = ""             # e.g. the disturbance of the records compared

    @property
    def enough(self):
        return min(self.n_base, self.n_contender) >= MIN_REPETITIONS

    @property
    def significant(self):
        return self.enough and self.p is not None and self.p < ALPHA

    def text(self):
        """'+12.1 % [+8.0, +15.3], p = 0.004, n = 9+9' for a table cell or a mail."""
        n = f"n = {self.n_base}+{self.n_contender}"
        note = f" ({self.note})" if self.note else ""
        if not self.enough:
            return (f"{pct(self.ratio)} (median ratio), {n}{note}: too few repetitions for a U test "
                    f"(needs {MIN_REPETITIONS}+)")
        return (f"{pct(self.ratio)} [{pct(self.low, sign_only=True)}, {pct(self.high, sign_only=True)}], "
                f"{p_text(self.p)}, {n}{note}")


def pct(ratio, sign_only=False):
    """A ratio as a signed percentage change: 1.121 -> '+12.1 %'."""
    if ratio is None:
        return "n/a"
    return f"{(ratio - 1) * 100:+.1f}" + ("" if sign_only else " %")


def compare(base, contender, base_name="", contender_name=""):
    """Comparison of two lists of per-repetition times (any one unit)."""
    base, contender = list(base), list(contender)
    if not base or not contender or min(base + contender) <= 0:
        raise ValueError(f"compare {base_name} / {contender_name}: needs positive times on both sides")
    mb, mc = statistics.median(base), statistics.median(contender)
    comp = Comparison(base_name, contender_name, len(base), len(contender), mb, mc, mc / mb)
    if comp.enough:
        comp.p = u_test(base, contender)
        comp.low, comp.high = ratio_interval(base, contender) or (None, None)
    return comp


def null_band(control):
    """s >= 1: the control's interval reaches from 1/s to s at most; None if unusable."""
    if control is None or not control.enough or control.low is None:
        return None
    return max(control.high, 1 / control.low, 1.0)


@dataclass
class Explanation:
    """An instruction-level measure of the same two rows (deterministic)."""
    measure: str     # e.g. "instructions/op (qemu)", "cache lines touched/inode"
    base: float
    contender: float

    def explains(self, ratio):
        return self.base != self.contender and (self.contender > self.base) == (ratio > 1)

    def text(self):
        return f"{self.measure} {self.base:g} -> {self.contender:g}"


@dataclass
class Finding:
    comparison: Comparison
    status: str
    reason: str
    band: float = None
    established: bool = False


def judge(comp, band=None, explanation=None, controlled=True, effect=EFFECT):
    """The Finding of COMP against the null BAND by the module doc's rules.  BAND None: no control,
    either none can exist (controlled=False: ILP32) or it is missing.  EFFECT names an established
    difference (callers comparing two operations say so)."""
    if not comp.enough:
        return Finding(comp, TOO_FEW, f"the U test cannot reach significance with fewer than "
                       f"{MIN_REPETITIONS} repetitions per side", band)
    if comp.p >= ALPHA:
        return Finding(comp, NO_DIFFERENCE, f"not significant ({p_text(comp.p)})", band)
    if comp.low is None:
        return Finding(comp, NO_DIFFERENCE, "no interval for the ratio", band)
    if band is None:
        why = ("no twin control on this ABI" if not controlled
               else "twin control missing or with too few repetitions")
        return Finding(comp, NO_CONTROL, f"significant, but {why}: the non-layout spread is unknown", band)
    spread = f"the twin control's spread ({pct(1 / band, sign_only=True)} to {pct(band, sign_only=True)} %)"
    if not (comp.low > band or comp.high < 1 / band):
        return Finding(comp, NO_DIFFERENCE, f"significant, but within {spread}", band)
    if explanation is not None and not explanation.explains(comp.ratio):
        return Finding(comp, NO_DIFFERENCE, f"beyond the twin control but not explained by "
                       f"{explanation.text()}: placement, not layout", band)
    why = f"beyond {spread}" + (f"; {explanation.text()}" if explanation is not None else "")
    return Finding(comp, effect, why, band, established=True)


def layout_key(record):
    """(family, op, body, params, threads): the rows that differ only in repr."""
    return record.family, record.op, record.body, record.args, record.threads


def by_layout(run, family=None):
    """{layout_key: {repr: Record}} of a results.Run (records with a repr only)."""
    out = {}
    for rec in run.records.values():
        if not rec.repr or (family and rec.family != family) or not rec.real_ns:
            continue
        out.setdefault(layout_key(rec), {})[rec.repr] = rec
    return out


MEASURES = {"real": "real time", "cpu": "CPU time"}


def sample(record, measure="real"):
    """The per-repetition times of RECORD: real (the default) or CPU time, in ns."""
    if measure not in MEASURES:
        raise ValueError(f"measure {measure!r} is not one of {', '.join(MEASURES)}")
    return record.real_ns if measure == "real" else record.cpu_ns


def compare_records(base, contender, measure="real"):
    """Comparison of two results.Records; its note says if either run was disturbed."""
    comp = compare(sample(base, measure), sample(contender, measure), base.name, contender.name)
    if flags := [d for d in (disturbance(base), disturbance(contender)) if d and d.disturbed]:
        comp.note = ("disturbed: " + " and ".join(f"{d.disturbed}/{d.repetitions}" for d in flags) +
                     f" repetitions with real time > CPU time + {DISTURBED_EXCESS:.0%}")
    return comp


def twin_band(run, key, groups=None, measure="real"):
    """(band, control Comparison) of TWIN vs REFERENCE for KEY; (None, None) if absent."""
    row = (groups or by_layout(run)).get(key, {})
    if run.abi not in abis.LP64 or TWIN not in row or REFERENCE not in row:
        return None, None
    control = compare_records(row[REFERENCE], row[TWIN], measure)
    return null_band(control), control


def findings(run, base_repr=REFERENCE, family=None, explain=None, measure="real"):
    """{layout_key: {repr: Finding}}: every repr against BASE_REPR in one run; EXPLAIN(key, base_repr,
    repr) may return an Explanation.  The twin control itself is a Finding too, status CONTROL."""
    groups = by_layout(run, family)
    out = {}
    for key, row in groups.items():
        if base_repr not in row:
            continue
        band, _ = twin_band(run, key, groups, measure)
        cells = out[key] = {}
        for repr_name, rec in row.items():
            if repr_name == base_repr:
                continue
            comp = compare_records(row[base_repr], rec, measure)
            if {repr_name, base_repr} == {TWIN, REFERENCE}:
                cells[repr_name] = Finding(comp, CONTROL, "same layout on LP64: the non-layout spread")
                continue
            expl = explain(key, base_repr, repr_name) if explain else None
            cells[repr_name] = judge(comp, band, expl, controlled=run.abi in abis.LP64)
    return out


def twin_controls(run, family, measure="real"):
    """[(layout key, Comparison)] of FAMILY's twin controls, TWIN against REFERENCE per layout row (LP64
    only: the same layout compiled twice), for a family compared unpaired."""
    if run.abi not in abis.LP64:
        return []
    groups = by_layout(run, family)
    return [(key, twin_band(run, key, groups, measure)[1]) for key in sorted(groups, key=str)
            if TWIN in groups[key] and REFERENCE in groups[key]]


def reach(comp):
    """How far COMP's interval reaches from 1 (relative, either way); None without an interval."""
    if not comp.enough or comp.low is None:
        return None
    return max(comp.high - 1, 1 / comp.low - 1, 0.0)


@dataclass
class Disturbance:
    repetitions: int
    disturbed: int      # repetitions with real > cpu * (1 + DISTURBED_EXCESS)
    worst: float        # the largest real / cpu

    def text(self):
        if not self.disturbed:
            return ""
        return (f"disturbed: {self.disturbed}/{self.repetitions} repetitions ran "
                f"> {DISTURBED_EXCESS:.0%} longer in real than CPU time (worst x{self.worst:.2f})")


def disturbance(record):
    """Real- against CPU-time per repetition; None for multi-threaded rows."""
    if record.threads != 1 or not record.cpu_ns or len(record.cpu_ns) != len(record.real_ns):
        return None
    ratios = [r / c for r, c in zip(record.real_ns, record.cpu_ns) if c > 0]
    if not ratios:
        return None
    return Disturbance(len(ratios), sum(1 for x in ratios if x > 1 + DISTURBED_EXCESS), max(ratios))
