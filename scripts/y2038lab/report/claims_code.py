"""Rules about code at run time: host timings, multigrain, torn reads.

Same contract as claims.py (a rule reads the Evidence, returns an Outcome).
Host timings come from the paired measurement (the `paired` module of
y2038lab: comparisons(run) and resolution(run), each benchmark family with
its own null control); a timing enters a ruling only where its interval
clears that family's resolution, and says "not measurable here" otherwise,
so that two runs on one machine give the same words.
"""
from y2038lab.core import stats
from y2038lab.report.claims import NOT_MEASURABLE, Outcome, run_label

FIELDS = ("family", "operation", "body", "a", "b", "ratio", "lo", "hi", "p", "n")
ALPHA = 0.01


def _paired():
    for name in ("y2038lab.core.paired", "y2038lab.bench.paired"):
        try:
            return __import__(name, fromlist=["comparisons"])
        except ImportError:
            continue
    return None


def timing(ev, family, body, a, b, operation):
    """The host-timing clause for B against A (layouts) in one operation."""
    module = _paired()
    if module is None or not ev.runs:
        return f"host timing {NOT_MEASURABLE} (no paired measurement in this run)"
    for run in ev.runs:
        floor = module.resolution(run).get(family)
        for rec in module.comparisons(run):
            f = {k: rec[k] if isinstance(rec, dict) else getattr(rec, k) for k in FIELDS}
            if (f["family"], f["body"], f["a"], f["b"], f["operation"]) != (family, body, a, b, operation):
                continue
            if floor is None or f["p"] >= ALPHA or (1 - floor <= f["lo"] and f["hi"] <= 1 + floor) or \
                    f["lo"] <= 1 <= f["hi"]:
                return (f"host timing {NOT_MEASURABLE}: {run_label(run)} resolves {family} differences of "
                        f"{floor if floor is not None else '?'} and this one is not beyond it")
            return (f"host timing ({run_label(run)}, paired, n = {f['n']}): x{f['ratio']:.3f} "
                    f"[{f['lo']:.3f}, {f['hi']:.3f}], p = {f['p']:.3g}")
    return f"host timing {NOT_MEASURABLE} (no paired {family}/{operation} comparison in this run)"


def rule_multigrain(ev, claim):
    body = claim["bodies"][0]
    clauses = [f"{op}: " + timing(ev, "accessor", body, claim["against"], claim["layout"], op) for op in claim["ops"]]
    return Outcome("known", {"timing": "; ".join(clauses)}, clauses,
                   covers="timing: paired host runs only where they resolve the difference")


def _torn_rows(ev, protection="unprotected"):
    """[(run, repr, label, {reads, torn_reads, sec_nsec_mixed, sec_halves_mixed})], writer busy."""
    out = []
    for run in ev.runs:
        for rec in run.records.values():
            params, _ = stats.split_params(rec)
            if rec.family != "torn" or params[:2] != (protection, "writer:busy"):
                continue
            total = {k: sum(rec.counters.get(k, [0])) for k in ("reads", "torn_reads", "sec_nsec_mixed",
                                                                  "sec_halves_mixed")}
            out.append((run, rec.repr, rec.label or "?", total))
    return sorted(out, key=lambda r: (r[0].abi, r[1]))


def rule_torn(ev, claim):
    rows = _torn_rows(ev)
    if not rows:
        return Outcome(None, absent="no torn/* runs given")
    single = [t for _, r, _, t in rows if r == claim["layout"]]
    multi = [t for _, r, _, t in rows if r != claim["layout"]]
    if single and all(t["torn_reads"] == 0 for t in single) and any(t["torn_reads"] > 0 for t in multi):
        key = "never"
    else:
        key = "tore" if single and any(t["torn_reads"] > 0 for t in single) else "unknown"
    figures = [f"{run_label(run)}, torn/read/v6 unprotected, writer busy: " + ", ".join(
        f"{r} {t['torn_reads']:.0f} torn in {t['reads']:.0f}" for run2, r, _, t in rows if run2 is run)
        for run in ev.runs if any(run2 is run for run2, *_ in rows)]
    guarded = _torn_rows(ev, "seqcount")
    beside = ["with read_seqcount_begin()/retry: " + ", ".join(
        f"{r} {t['torn_reads']:.0f} torn in {t['reads']:.0f}" for _, r, _, t in guarded)] if guarded else []
    return Outcome(key, {}, figures, beside, covers="counts of torn reads (not timings), reader and busy writer "
                                                    "on two CPUs")


RULES = {"multigrain": rule_multigrain, "torn": rule_torn}
