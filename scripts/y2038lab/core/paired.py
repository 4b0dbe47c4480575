"""Paired measurements (y2038-bench's paired/* benchmarks): ratios, controls, resolution.

A paired benchmark times A and B in alternating blocks of ~8 us (bench/paired.h),
so that a change of host speed hits both; each repetition reports `ratio`, the
median over its pairs of blocks of t(B) / t(A).  Names: paired/<family>/<op>/
<where...>, exactly one part "a~b" (where A and B differ), Google Benchmark's
"/manual_time" last; a body (v6, v4_4) as the fourth part where the family has
one (accessor, walk: paired/walk/<op>/<body>/timespec64~<repr>/<N>, each side
walking a slab of its own).  Every figure here is a timing of the run's host.  Negative
controls are the same code compiled twice (true ratio 1), positive ones 17 units of
work against 16.

The unit of the statistic is y2038_process where the run has several: the link
order (the paired pass runs twenty processes over the program's twenty link orders,
bench/run.py, and merged() numbers each process by its link order): a unit's ratio
is the median of its repetitions, because where the code lands biases every
repetition of one link order alike, so its repetitions are not independent samples;
a run of one process falls back to its repetitions.  On the units' log-ratios x_i: the
Wilcoxon signed-rank test (scipy) and the Hodges-Lehmann interval, the Walsh
averages (x_i + x_j) / 2, i <= j, sorted, from the (C+1)-th to the (M-C)-th of
M = n(n+1)/2, C the largest value with P(T+ <= C) <= 2.5 % under the exact null
distribution.  It inverts the same test (never "significant" with 1 inside it),
is distribution-free for a log-ratio symmetric about its median, and with 10-12
units is about half as wide as the median's order-statistics interval (2nd to 9th of 10).
"""
import functools
import itertools
import math
import statistics
from dataclasses import dataclass, field

from y2038lab.core import fsio
from y2038lab.core.results import BODY_SHAPE

ALPHA = 0.05
MIN_N = 6                 # below it no signed-rank interval reaches 95 %
NEGATIVE_LIMIT = 0.01     # a negative control "no difference": its interval within +-1 %
POSITIVE_LIMIT = 0.005    # a positive control "close": its estimate within +-0.5 % of the truth

DIFFERENCE = "difference"
NO_DIFFERENCE = "no difference detected"
WITHIN = "within its negative control's reach"
TOO_FEW = "too few repetitions"


@dataclass
class Pair:
    name: str
    family: str
    operation: str
    body: str
    a: str                    # A, B: representations, operations or variants, as named
    b: str
    where: str                # the other name parts: a representation, "gran:100/inputs:clamped/latency"
    kind: str                 # compare, negative, positive
    true_ratio: float         # controls only
    n: int                    # units: processes, else repetitions
    ratio: float              # B / A: exp(Hodges-Lehmann estimate of the units' log-ratios),
                              # exp(their median) below MIN_N
    lo: float = None          # the 95 % interval and the p-value: None below MIN_N
    hi: float = None
    p: float = None
    a_ns: float = None        # median time per op of A, of B (this host's timing)
    b_ns: float = None
    control: float = None     # the reach of the negative controls this pair is judged against
    status: str = ""

    def interval(self):
        return f"x{self.ratio:.4f} [{self.lo:.4f}, {self.hi:.4f}]" if self.lo is not None else f"x{self.ratio:.4f}"

    def text(self):
        return f"{self.interval()}, {p_text(self.p)}, n = {self.n}: {self.status}"


def p_text(p):
    if p is None:
        return "p n/a"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


@dataclass
class Controls:
    family: str
    negatives: list = field(default_factory=list)
    positives: list = field(default_factory=list)

    @property
    def widest(self):
        """The negative control that reaches furthest from 1, or None."""
        return max((c for c in self.negatives if c.lo is not None), key=reach, default=None)

    @property
    def no_difference(self):
        """Every negative control's interval within +-NEGATIVE_LIMIT."""
        return self.widest is not None and reach(self.widest) <= NEGATIVE_LIMIT

    def positive_ok(self, c):
        """Detected (beyond 1), and the truth inside its interval or its estimate within POSITIVE_LIMIT."""
        return (c.lo is not None and c.p < ALPHA and c.lo > 1
                and (c.lo <= c.true_ratio <= c.hi or abs(c.ratio / c.true_ratio - 1) <= POSITIVE_LIMIT))


@functools.lru_cache(maxsize=None)
def _signed_rank_counts(n):
    """Counts of the 2^n sign patterns by T+ = 0..n(n+1)/2."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for k in range(1, n + 1):
        for t in range(len(counts) - 1, k - 1, -1):
            counts[t] += counts[t - k]
    return tuple(counts)


def critical(n, alpha=ALPHA):
    """The largest C with P(T+ <= C) <= alpha / 2 (exact); -1 if none."""
    # The counts are non-negative, so the cumulative sums never decrease: counting those within
    # the tail finds the last one that is.
    return sum(1 for s in itertools.accumulate(_signed_rank_counts(n)) if s <= alpha / 2 * 2 ** n) - 1


def hodges_lehmann(x, alpha=ALPHA):
    """(estimate, lo, hi) of the centre of X: median and interval of the Walsh averages."""
    walsh = sorted((x[i] + x[j]) / 2 for i in range(len(x)) for j in range(i, len(x)))
    if (c := critical(len(x), alpha)) < 0:
        return statistics.median(walsh), None, None
    return statistics.median(walsh), walsh[c], walsh[len(walsh) - 1 - c]


def analyse(ratios, alpha=ALPHA):
    """(ratio, lo, hi, p) of per-repetition ratios B/A; lo/hi/p None below MIN_N."""
    if not ratios or any(not (r > 0) or math.isinf(r) for r in ratios):
        raise ValueError(f"paired ratios must be positive and finite: {ratios}")
    x = [math.log(r) for r in ratios]
    if len(x) < MIN_N:
        return math.exp(statistics.median(x)), None, None, None
    from scipy.stats import wilcoxon  # only where statistics are asked for
    est, lo, hi = hodges_lehmann(x, alpha)
    p = 1.0 if not any(x) else float(wilcoxon(x, zero_method="zsplit", alternative="two-sided").pvalue)
    return math.exp(est), math.exp(lo), math.exp(hi), p


def per_process(ratios, processes):
    """The median ratio of each process, in process order (RATIOS and PROCESSES aligned)."""
    by = {}
    for process, ratio in zip(processes, ratios):
        by.setdefault(process, []).append(math.log(ratio))
    return [math.exp(statistics.median(x)) for _, x in sorted(by.items())]


# B of the negative control of a family with representations where the ABI has no twin (ILP32):
# the reference's code against a copy of it, paired/<family>/<op>/<body>/<reference>~copy[/<where>]
# (bench/paired.h, PAIRED_CONTROL_NAME).
COPY = "copy"


def parse_name(name):
    """(family, operation, body, a, b, where) of a paired/* name; fsio.InputError if malformed."""
    parts = [p for p in name.split("/") if p != "manual_time"]
    varying = [i for i, p in enumerate(parts) if "~" in p]
    if len(parts) < 4 or parts[0] != "paired" or len(varying) != 1:
        raise fsio.InputError(f"{name}: not a paired benchmark name (paired/<family>/<op>/..., one a~b part)")
    i = varying[0]
    key, colon, values = parts[i].rpartition(":")
    a, _, b = values.partition("~")
    if not a or not b or "~" in b or "~" in key:
        raise fsio.InputError(f"{name}: {parts[i]!r} is not a~b")
    a, b = key + colon + a, key + colon + b
    body = parts[3] if i != 3 and BODY_SHAPE.fullmatch(parts[3]) else ""
    operation = b if i == 2 else parts[2]
    where = "/".join(p for k, p in enumerate(parts[3:], 3) if k != i and not (body and k == 3))
    return parts[1], operation, body, a, b, where


def comparisons(run):
    """Every paired benchmark of RUN (a results.Run) as a Pair, its status judged against its own
    negative controls (the twin of the same operation and body, and of the same size for a walk; of
    the same fstime case), else the family's resolution."""
    pairs = []
    for rec in run.records.values():
        if rec.family != "paired":
            continue
        if not (ratios := rec.counters.get("ratio")):
            raise fsio.InputError(f"{run.path}: {rec.name}: no ratio counter")
        processes = rec.counters.get("y2038_process")
        if processes and len(processes) != len(ratios):
            raise fsio.InputError(f"{run.path}: {rec.name}: {len(processes)} y2038_process values "
                                  f"for {len(ratios)} ratios")
        if processes and len(set(processes)) > 1:
            ratios = per_process(ratios, processes)
        truth = (rec.counters.get("true_ratio") or [None])[0]
        try:
            ratio, lo, hi, p = analyse(ratios)
        except ValueError as err:
            raise fsio.InputError(f"{run.path}: {rec.name}: {err}") from None
        kind = "compare" if truth is None else "negative" if truth == 1 else "positive"
        pairs.append(Pair(rec.name, *parse_name(rec.name), kind=kind, true_ratio=truth, n=len(ratios),
                          ratio=ratio, lo=lo, hi=hi, p=p, a_ns=rec.counter("a_ns"), b_ns=rec.counter("b_ns")))
    res = resolution(run, pairs)
    negatives = [c for c in pairs if c.kind == "negative" and c.lo is not None]
    for c in pairs:
        # With a body: the twin of either operation, at the same where if the twin has one (a walk's
        # size; an accessor twin has none and covers the layout's operation pairs too).
        own = [reach(n) for n in negatives if n.family == c.family and n.body == c.body
               and (n.where == c.where if not c.body else
                    n.operation in (c.a, c.b, c.operation) and (not n.where or n.where == c.where))]
        c.control = max(own) if own else res.get(c.family)
        r = c.control
        if c.lo is None:
            c.status = TOO_FEW
        elif c.p >= ALPHA or c.lo <= 1 <= c.hi:
            c.status = NO_DIFFERENCE
        elif r is not None and c.kind == "compare" and c.lo <= 1 + r and c.hi >= 1 / (1 + r):
            c.status = WITHIN
        else:
            c.status = DIFFERENCE
    return pairs


def reach(c):
    """How far C's interval reaches from 1 (relative, either way)."""
    return max(c.hi - 1, 1 / c.lo - 1, 0.0)


def resolution(run, pairs=None):
    """{family: its resolution}: the median over the family's negative controls of how far their 95 %
    interval reaches from 1 (families with one); a summary: each comparison is judged against the reach
    of its own negative control."""
    out = {}
    for c in pairs if pairs is not None else comparisons(run):
        if c.kind == "negative" and c.lo is not None:
            out.setdefault(c.family, []).append(reach(c))
    return {family: statistics.median(r) for family, r in out.items()}


def controls(run, pairs=None):
    """{family: Controls}: the negative and positive controls of the run's paired benchmarks."""
    out = {}
    for c in pairs if pairs is not None else comparisons(run):
        if c.kind != "compare":
            group = out.setdefault(c.family, Controls(c.family))
            (group.negatives if c.kind == "negative" else group.positives).append(c)
    return out
