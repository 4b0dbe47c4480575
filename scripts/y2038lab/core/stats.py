"""When is a difference between two layouts a layout effect?  The statistics.

Every comparison here is between the repetitions of two benchmark records
(real time per iteration, one value per repetition, as results.Record holds
them) and gives:

  * the two-sided Mann-Whitney U test, scipy.stats.mannwhitneyu as Google
    Benchmark's compare.py calls it (same p-values);
  * the ratio of the medians (contender / baseline) and a 95 % interval for
    the ratio: the distribution-free Hodges-Lehmann interval of the shift in
    log-time, i.e. order statistics of all pairwise ratios, with the rank
    cut-off taken from the exact null distribution of U (normal
    approximation beyond 400 pairs).  No resampling, nothing random.

A difference counts as a *layout effect* only when all of these hold:

  1. each side has at least MIN_REPETITIONS repetitions (compare.py's own
     "optimal" count; below it the U test cannot reach significance and the
     figure is reported as "too few repetitions", never as p = 0.1);
  2. p < ALPHA;
  3. the whole interval lies outside the twin control's band: on LP64 ABIs
     `timespec` and `timespec64` are the same layout compiled twice, so the
     ratio between them measures what code placement and code generation do
     without any layout change; the band is [1/s, s] with s the furthest the
     control's interval reaches from 1 (either direction, since placement
     can move any copy either way).  Without a control (ILP32 ABIs, missing
     rows) nothing is established;
  4. when an instruction measure is supplied (instructions per operation,
     cache lines touched per inode...), it differs in the same direction as
     the time: equal instructions and a different time is placement, not
     layout.
Otherwise the verdict is "no difference detected", with the reason.

Real time against CPU time: on a single-threaded benchmark a repetition
whose real time exceeds its CPU time by more than DISTURBED_EXCESS lost the
CPU to something else; such rows are flagged (`disturbance`).
"""
import functools
import math
import statistics
from dataclasses import dataclass

from scipy.stats import mannwhitneyu, norm

from y2038lab.core import abis
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


def _u_cdf_counts(n, m):
    """Counts of the n+m choose n arrangements by U (no ties), U = 0..n*m."""
    # f[j][u]: arrangements of i x's and j y's with U = u, built up over i.
    f = [[1] + [0] * (n * m) for _ in range(m + 1)]
    for i in range(1, n + 1):
        g = [[0] * (n * m + 1) for _ in range(m + 1)]
        g[0][0] = 1
        for j in range(1, m + 1):
            for u in range(i * j + 1):
                # last element is an x (ranks above all j y's: U += j) or a y
                g[j][u] = (f[j][u - j] if u >= j else 0) + g[j - 1][u]
        f = g
    return f[m]


@functools.lru_cache(maxsize=None)
def _rank_cutoff(n, m, confidence):
    """c such that [D_(c), D_(nm-c+1)] covers >= confidence; 0 if none does."""
    tail = (1 - confidence) / 2
    if n * m <= EXACT_PAIRS:
        counts = _u_cdf_counts(n, m)
        total = math.comb(n + m, n)
        c, cumulative = 0, 0
        while c < len(counts) and (cumulative + counts[c]) / total <= tail:
            cumulative += counts[c]
            c += 1
        return c
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
    value = (ratio - 1) * 100
    text = f"{value:+.1f}"
    return text if sign_only else text + " %"


def p_text(p):
    if p is None:
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def compare(base, contender, base_name="", contender_name=""):
    """Comparison of two lists of per-repetition times (any one unit)."""
    base, contender = list(base), list(contender)
    if not base or not contender or min(base + contender) <= 0:
        raise ValueError(f"compare {base_name} / {contender_name}: needs positive times on both sides")
    mb, mc = statistics.median(base), statistics.median(contender)
    comp = Comparison(base_name, contender_name, len(base), len(contender), mb, mc, mc / mb)
    if comp.enough:
        comp.p = u_test(base, contender)
        interval = ratio_interval(base, contender)
        if interval:
            comp.low, comp.high = interval
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
        if self.base == self.contender:
            return False
        return (self.contender > self.base) == (ratio > 1)

    def text(self):
        return f"{self.measure} {self.base:g} -> {self.contender:g}"


@dataclass
class Finding:
    comparison: Comparison
    status: str
    reason: str
    band: float = None
    established: bool = False

    def text(self):
        """One line: the status, the figures and why."""
        return f"{self.status}: {self.comparison.text()}; {self.reason}"


def judge(comp, band=None, explanation=None, controlled=True, effect=EFFECT):
    """The Finding for a Comparison against a null band (see the module doc).

    controlled=False says no control can exist (e.g. two ILP32 layouts); band
    None with controlled=True says the control was expected but is missing.
    EFFECT names an established difference ("layout effect" between two
    layouts; callers comparing two operations say so).
    """
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
    if not (comp.low > band or comp.high < 1 / band):
        return Finding(comp, NO_DIFFERENCE, f"significant, but within the twin control's spread "
                       f"({pct(1 / band, sign_only=True)} to {pct(band, sign_only=True)} %)", band)
    if explanation is not None and not explanation.explains(comp.ratio):
        return Finding(comp, NO_DIFFERENCE, f"beyond the twin control but not explained by "
                       f"{explanation.text()}: placement, not layout", band)
    why = f"beyond the twin control's spread ({pct(1 / band, sign_only=True)} to {pct(band, sign_only=True)} %)"
    if explanation is not None:
        why += f"; {explanation.text()}"
    return Finding(comp, effect, why, band, established=True)


# --- records --------------------------------------------------------------------

def split_params(record):
    """(params without the run-shape parts, threads) of a results.Record."""
    params, threads = [], 1
    for part in record.params or ():
        if part == "real_time":
            continue
        if part.startswith("threads:"):
            threads = int(part.split(":", 1)[1])
            continue
        params.append(part)
    for part in record.name.split("/"):
        if part.startswith("threads:"):
            threads = int(part.split(":", 1)[1])
    return tuple(params), threads


def layout_key(record):
    """(family, op, body, params, threads): the rows that differ only in repr."""
    params, threads = split_params(record)
    return (record.family, record.op, record.body, params, threads)


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
    flags = [d for d in (disturbance(base), disturbance(contender)) if d and d.disturbed]
    if flags:
        comp.note = ("disturbed: " + " and ".join(f"{d.disturbed}/{d.repetitions}" for d in flags) +
                     f" repetitions with real time > CPU time + {DISTURBED_EXCESS:.0%}")
    return comp


def twin_band(run, key, groups=None, measure="real"):
    """(band, control Comparison) of timespec vs timespec64 for KEY; (None, None) if absent."""
    if run.abi not in abis.LP64:
        return None, None
    row = (groups or by_layout(run)).get(key, {})
    if TWIN not in row or REFERENCE not in row:
        return None, None
    control = compare_records(row[REFERENCE], row[TWIN], measure)
    return null_band(control), control


def findings(run, base_repr=REFERENCE, family=None, explain=None, measure="real"):
    """{layout_key: {repr: Finding}}: every repr against BASE_REPR in one run.

    EXPLAIN(key, base_repr, repr) may return an Explanation or None.  The twin
    itself (timespec against timespec64) is returned too, judged against no
    band: it is the control, shown as such by the callers.
    """
    groups = by_layout(run, family)
    out = {}
    for key, row in groups.items():
        if base_repr not in row:
            continue
        band, _ = twin_band(run, key, groups, measure)
        cells = {}
        for repr_name, rec in row.items():
            if repr_name == base_repr:
                continue
            comp = compare_records(row[base_repr], rec, measure)
            if {repr_name, base_repr} == {TWIN, REFERENCE}:
                cells[repr_name] = Finding(comp, CONTROL, "same layout on LP64: the non-layout spread")
                continue
            expl = explain(key, base_repr, repr_name) if explain else None
            cells[repr_name] = judge(comp, band, expl, controlled=run.abi in abis.LP64)
        out[key] = cells
    return out


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
    _, threads = split_params(record)
    if threads != 1 or not record.cpu_ns or len(record.cpu_ns) != len(record.real_ns):
        return None
    ratios = [r / c for r, c in zip(record.real_ns, record.cpu_ns) if c > 0]
    if not ratios:
        return None
    bad = sum(1 for x in ratios if x > 1 + DISTURBED_EXCESS)
    return Disturbance(len(ratios), bad, max(ratios))
