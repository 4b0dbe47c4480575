"""Rules about code at run time: host timings, the queried-ctime path, torn reads.

Same contract as claims.py (a rule reads the Evidence, returns an Outcome: outcome.py).
Host timings come from the paired measurement (core.paired: comparisons(run),
resolution(run); each benchmark family against its own negative control: the
same code compiled twice).  They are figures beside a ruling, never its
words: a timing shows its interval where it clears its family's resolution
and says "not measurable here" otherwise, and the ruling stays the same in
two runs.
"""
from y2038lab.core import reprs
from y2038lab.core.results import run_label
from y2038lab.report.outcome import NOT_MEASURABLE, Outcome

DIFFERENCE = "difference"   # paired.DIFFERENCE: beyond the family's negative controls


def _paired():
    try:
        from y2038lab.core import paired
    except ImportError:
        return None
    return paired


def timing(ev, family, a, b, body="", where="", operation=None):
    """The host-timing figures of B against A (paired/<family>/...), one clause per run (ABI) and
    matching pair (fstime: latency and throughput), joined: each its interval where it resolves
    the difference, else why it is not measurable here.  WHERE is a prefix of the pair's other
    name parts (the representation, or gran:/inputs: of fstime)."""
    found = timings(ev, family, a, b, body, where, operation)
    return "; ".join(text for _, text in found) if found else \
        f"host timing {NOT_MEASURABLE}: no paired {family} {a}~{b} in this run"


def timings(ev, family, a, b, body="", where="", operation=None):
    """[(run, clause)] of timing(): every run's matching pairs, in the runs' order."""
    module = _paired()
    if module is None:
        return []
    out = []
    for run in ev.runs:
        every = module.comparisons(run)
        pairs = [c for c in every if (c.family, c.a, c.b, c.body) == (family, a, b, body)
                 and c.where.startswith(where) and c.kind == "compare" and operation in (None, c.operation)]
        group = module.controls(run, every).get(family, module.Controls(family)) if pairs else None
        for c in pairs:
            res = f"+-{c.control:.2%}" if c.control is not None else "unknown (no negative control)"
            label = f"host timing, {run_label(run)}, paired " + " ".join(c.name.split("/")[1:-1])
            mode = c.where.rsplit("/", 1)[-1] if family == "fstime" else ""  # latency or throughput
            off = [p for p in group.positives
                   if p.body == c.body and p.where.endswith(mode) and not group.positive_ok(p)]
            note = "".join(f"; this run's positive control ({p.where or p.body}) is {p.ratio / p.true_ratio - 1:+.2%} "
                           "off its nominal ratio" for p in off[:1])
            left = max(c.hi - 1, 1 - c.lo) if c.lo is not None else None
            open_ = f"; a difference up to {left:.1%} is not excluded" if left is not None else ""
            if c.status == DIFFERENCE:
                out.append((run, f"{label}: {c.text()} (beyond its negative control's reach {res}{note})"))
            elif c.lo is not None and (c.lo > 1 or c.hi < 1):  # a difference, but no larger than the control's
                out.append((run, f"{label}: a difference within its negative control's reach, not resolved "
                                 f"({c.text()}; its negative control reaches {res}{note})"))
            else:
                out.append((run, f"{label}: {NOT_MEASURABLE} ({c.text()}; its negative control reaches {res}"
                                 f"{open_}{note})"))
    return out


def rule_query_path(ev, claim):
    body, (unqueried, queried) = claim["bodies"][0], claim["ops"]
    clauses = [timing(ev, "accessor", claim["against"], claim["layout"], body, "", op) for op in claim["ops"]]
    clauses.append(timing(ev, "accessor", unqueried, queried, body, claim["layout"]))
    return Outcome("known", {}, clauses, covers="timing: paired host runs, only where they resolve the difference")


def _torn_rows(ev, protection="unprotected"):
    """[(run, repr, label, {reads, torn_reads, sec_nsec_mixed, sec_halves_mixed})], writer busy."""
    out = []
    for run in ev.runs:
        for rec in run.records.values():
            if rec.family != "torn" or rec.args[:2] != (protection, "writer:busy"):
                continue
            total = {k: sum(rec.counters.get(k, [0])) for k in ("reads", "torn_reads", "sec_nsec_mixed",
                                                                  "sec_halves_mixed")}
            out.append((run, rec.repr, rec.label or "?", total))
    return sorted(out, key=lambda r: (r[0].abi, r[1]))


def _one_word(ev, run, name):
    """INODE_REPR_ONE_WORD of NAME on RUN's ABI: from the run's context, else from the sizes table."""
    facts = reprs.from_context(run.context, run.path).get(name) or next(
        (row["facts"] for (abi, _, r), row in (ev.sizes or {}).items()
         if (abi, r) == (run.abi, name) and row["facts"]), None)
    return bool(facts and facts.one_word)


def rule_torn(ev, claim):
    rows = _torn_rows(ev)
    if not rows:
        return Outcome(None, absent="no torn/* runs given")
    single = [t for run, r, _, t in rows if _one_word(ev, run, r)]
    multi = [t for run, r, _, t in rows if not _one_word(ev, run, r)]
    tore = [t["torn_reads"] > 0 for t in single]
    key = ("never" if single and not any(tore) and any(t["torn_reads"] > 0 for t in multi)
           else "tore" if any(tore) else "unknown")
    figures = [f"{run_label(run)}, torn/read/v6 unprotected, writer busy (this run's counts; they vary from run "
               "to run, only zero against non-zero is read): " + ", ".join(
        f"{r} {t['torn_reads']:.0f} torn in {t['reads']:.0f}" for run2, r, _, t in rows if run2 is run)
        for run in ev.runs if any(run2 is run for run2, *_ in rows)]
    guarded = _torn_rows(ev, "seqcount")
    beside = ["with read_seqcount_begin()/retry: " + ", ".join(
        f"{r} {t['torn_reads']:.0f} torn in {t['reads']:.0f}" for _, r, _, t in guarded)] if guarded else []
    one_word = [(run.abi, t["torn_reads"] > 0) for run, r, _, t in rows if _one_word(ev, run, r)]
    return Outcome(key, {"abis": ", ".join(sorted({run.abi for run, *_ in rows})),
                         "tore_abis": ", ".join(sorted({abi for abi, torn in one_word if torn})) or "none",
                         "whole_abis": ", ".join(sorted({abi for abi, torn in one_word if not torn})) or "none"},
                   figures, beside, [],
                   covers="counts of torn reads (not timings), reader and busy writer on two CPUs")


RULES = {"query_path": rule_query_path, "torn": rule_torn}
