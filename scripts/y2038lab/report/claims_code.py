"""The debate's claims about code rather than bytes: clamping, torn reads,
multigrain, and how many sites each approach touches (churn).

Same contract as claims.py: Evidence in, Ruling out, "not measured here"
where the evidence is absent.
"""
from y2038lab.core import reprs
from y2038lab.core import stats
from y2038lab.report.claims import (NOT_MEASURABLE, NOT_MEASURED, REFUTED, SUPPORTED, Ruling, _groups, _time_covers,
                     compare_ops, lines, resolution, run_label)

MAINLINE_TRUNCATE = "timestamp_truncate"
BERGMANN_COUNT = 30                # "roughly 30 file systems"
ROUGHLY = 1.5                      # "roughly": within a factor of 1.5 either way


def _fstime_findings(ev):
    """fstime/<function>/<params...> against timestamp_truncate with the same params."""
    found = []
    for run in ev.runs:
        by_params = {}
        for rec in run.records.values():
            if rec.family == "fstime" and rec.real_ns:
                params, _ = stats.split_params(rec)
                by_params.setdefault(params, {})[rec.op] = rec
        band = stats.run_band(run, "accessor", ev.measure)
        for params, row in sorted(by_params.items()):
            base = row.get(MAINLINE_TRUNCATE)
            for op, rec in sorted(row.items()):
                if base is None or op == MAINLINE_TRUNCATE:
                    continue
                comp = stats.compare_records(base, rec, ev.measure)
                finding = stats.judge(comp, band, controlled=band is not None, effect="difference established")
                where = "/".join(params)
                found.append((f"{run_label(run)}, fstime {op} vs {MAINLINE_TRUNCATE}, {where} "
                              f"({comp.median_base:.2f} -> {comp.median_contender:.2f} ns)",
                              f"{op} {where} x{comp.ratio:.2f} ({run.abi})", finding))
    return found


def clamp_first(ev):
    found = _fstime_findings(ev)
    timing, decided = lines(found)
    figures = ["semantics (tests, not timings): both clamp to the file system's range before storing; "
               "mainline's timestamp_truncate() is monotone and zeroes tv_nsec at both ends, the RFC's "
               "fs_time_trunc() keeps it at the ends and marks clamped times for ->bad_timestamp "
               "(tests/fs_time_test.c, tests/fs_time_property_test.c)"]
    figures += timing or [f"cost of clamp/truncate (fstime/*): {NOT_MEASURED}"]
    ruling = f"{SUPPORTED} in semantics (tests); "
    effects = [short for _, short, f in found if f.established]
    if not found:
        ruling += f"cost {NOT_MEASURED}"
    elif effects:
        ruling += "cost differs from timestamp_truncate(): " + ", ".join(effects)
    else:
        ruling += "no cost difference from timestamp_truncate() established"
    return Ruling("clamp", "Both: range checking and clamping must come first (RFC semantics vs mainline's)",
                  ruling, figures, _time_covers(ev, "fstime/*, null = this run's widest accessor twin spread"),
                  decided)


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
            labels = rec.label or "?"
            out.append((run, rec.repr, labels, total))
    return sorted(out, key=lambda r: (r[0].abi, r[1]))


def _one_word(ev, run, name):
    """INODE_REPR_ONE_WORD of NAME on RUN's ABI: from the run's context, else from the sizes table."""
    facts = reprs.from_context(run.context, run.path).get(name)
    if facts is None:
        facts = next((row["facts"] for (abi, _, r), row in (ev.sizes or {}).items()
                      if (abi, r) == (run.abi, name) and row["facts"]), None)
    return bool(facts and facts.one_word)


def torn_reads(ev):
    rows = _torn_rows(ev)
    figures = [f"{run_label(run)}, torn/read/v6/{repr_name} unprotected, writer busy (tv_sec loaded as {label}): "
               f"{t['torn_reads']:.0f} torn in {t['reads']:.0f} reads ({t['sec_nsec_mixed']:.0f} sec/nsec mixed, "
               f"{t['sec_halves_mixed']:.0f} with mixed tv_sec halves)"
               for run, repr_name, label, t in rows]
    if not rows:
        figures = [f"torn-read counts: {NOT_MEASURED} (no torn/* benchmarks given)"]
        ruling = f"{NOT_MEASURABLE}: no torn/* runs given"
    else:
        single = [t for run, r, _, t in rows if _one_word(ev, run, r)]
        multi = [t for run, r, _, t in rows if not _one_word(ev, run, r)]
        halves = [r for _, r, _, t in rows if t["sec_halves_mixed"] > 0]
        if single and all(t["torn_reads"] == 0 for t in single) and any(t["torn_reads"] > 0 for t in multi):
            ruling = f"{SUPPORTED} on the ABIs shown: the single-word layout never tore, two-word layouts did"
        elif single and any(t["torn_reads"] > 0 for t in single):
            ruling = f"{REFUTED}: the single-word layout tore"
        else:
            ruling = ("depends on the layout: every two-word timestamp tears without a seqcount (no single-word "
                      "layout measured)")
        if halves:
            ruling += f"; tv_sec itself tore in {', '.join(sorted(set(halves)))}"
    guarded = _torn_rows(ev, "seqcount")
    if guarded:
        figures.append("with read_seqcount_begin()/retry: " + ", ".join(
            f"{r} {t['torn_reads']:.0f} torn in {t['reads']:.0f} reads" for _, r, _, t in guarded))
    figures.append(f"32-bit ABIs: {NOT_MEASURED} as rates (this host runs no 32-bit executables); "
                   "tests/torn_read_test.c checks the 2x32 split under qemu")
    return Ruling("torn", "Mainline 2023-24: one 64-bit word per timestamp makes reads atomic; torn reads on 32-bit",
                  ruling, figures, _time_covers(ev, "torn/*: reader and a busy writer on two CPUs; counts, not times"))


def multigrain(ev):
    claim = "Multigrain: the fine-grained ctime is paid only when queried"
    cases = {   # name: (base repr, base op, other repr, other op)
        "unqueried": ("timespec64", "set_ctime_current", "multigrain", "set_ctime_current"),
        "queried": ("timespec64", "set_ctime_current_queried", "multigrain", "set_ctime_current_queried"),
        "query": ("multigrain", "set_ctime_current", "multigrain", "set_ctime_current_queried"),
    }
    found = {name: [] for name in cases}
    for run, groups in _groups(ev):
        for name, (rb, ob, rc, oc) in cases.items():
            f = compare_ops(ev, run, groups, "v6", rb, ob, rc, oc)
            if f:
                delta = f.comparison.median_contender - f.comparison.median_base
                found[name].append((f"{run_label(run)}, {rc} {oc} vs {rb} {ob} ({delta:+.2f} ns/op)",
                                    f"{name} {delta:+.2f} ns/op ({run.abi})", f))
    if not found["queried"] or not found["unqueried"]:
        return Ruling("multigrain", claim, f"{NOT_MEASURABLE}: no accessor/set_ctime_current* benchmarks given",
                      [f"set_ctime_current timing: {NOT_MEASURED}"], NOT_MEASURED)
    figures, decided = lines(found["unqueried"] + found["queried"] + found["query"])

    def slower(name):
        return [short for _, short, f in found[name] if f.established and f.comparison.ratio > 1]
    if slower("unqueried"):
        ruling = f"{REFUTED}: multigrain costs more even when ctime was not queried: {', '.join(slower('unqueried'))}"
    elif slower("queried"):
        unqueried = resolution(found["unqueried"], "none established without one")
        if unqueried.startswith(NOT_MEASURABLE):
            ruling = (f"depends on the unqueried path: a query costs ({', '.join(slower('queried'))}), but without "
                      f"one the cost is {unqueried}")
        else:
            ruling = f"{SUPPORTED}: a layout effect only after a query ({', '.join(slower('queried'))}); {unqueried}"
    elif all(f.status == stats.TOO_FEW for _, _, f in found["queried"]):
        ruling = f"{NOT_MEASURABLE}: too few repetitions (< {stats.MIN_REPETITIONS}) for the U test"
    else:
        ruling = f"{NOT_MEASURABLE}: no cost of a query established on this machine"
    return Ruling("multigrain", claim, ruling, figures,
                  _time_covers(ev, "accessor/set_ctime_current* (fixed coarse clock)"), decided)


def churn_bergmann(ev):
    claim = f"Bergmann: roughly {BERGMANN_COUNT} file systems copy i_?time to locals or pass it by reference"
    if not ev.churn:
        return Ruling("churn_bergmann", claim, f"{NOT_MEASURABLE}: no churn tables given",
                      [f"sites per file system: {NOT_MEASURED}"], NOT_MEASURED)
    figures, counts = [], []
    for tree, table in sorted(ev.churn.items()):
        fs = [r["fs"] for r in table["rows"] if r["local_copies"] + r["address_passed"] > 0]
        counts.append(len(fs))
        figures.append(f"{tree}: {len(fs)} of {len(table['rows'])} file systems copy a timestamp to a local "
                       f"({table['total']['local_copies']} sites) or pass its address "
                       f"({table['total']['address_passed']} sites) (Coccinelle, {table['path']})")
    near = [c for c in counts if BERGMANN_COUNT / ROUGHLY <= c <= BERGMANN_COUNT * ROUGHLY]
    ruling = (f"{SUPPORTED} (within x{ROUGHLY} of {BERGMANN_COUNT})" if len(near) == len(counts)
              else f"{REFUTED} (outside x{ROUGHLY} of {BERGMANN_COUNT})" if not near
              else f"depends on the tree (within x{ROUGHLY} of {BERGMANN_COUNT} in {len(near)} of {len(counts)})")
    return Ruling("churn_bergmann", claim, ruling, figures, "sites: Coccinelle on the kernel trees named")


def churn_chinner(ev):
    claim = "Chinner: the boundary conversion is not a huge patch; it is mainly setattr/kstat"
    if not ev.churn:
        return Ruling("churn_chinner", claim, f"{NOT_MEASURABLE}: no churn tables given",
                      [f"sites per approach: {NOT_MEASURED}"], NOT_MEASURED)
    figures, shares = [], []
    for tree, table in sorted(ev.churn.items()):
        t = table["total"]
        sites = t["reads"] + t["writes"]
        share = t["boundary_sites"] / sites if sites else 0.0
        shares.append(share)
        figures.append(f"{tree}: {t['boundary_sites']} of {sites} timestamp reads and writes ({share:.0%}) sit at "
                       f"the VFS boundary; sites to change per approach: RFC macros {t['rfc_macros']}, "
                       f"boundary conversion {t['boundary_conversion']}, flag day {t['flag_day']}, "
                       f"mainline accessors {t['accessor_functions']}; {t['needs_manual']} need manual work")
    ruling = (f"{SUPPORTED}: most sites are at the boundary" if all(s > 0.5 for s in shares)
              else f"{REFUTED}: most sites are inside the file systems" if all(s <= 0.5 for s in shares)
              else "depends on the tree")
    return Ruling("churn_chinner", claim, ruling, figures, "sites: Coccinelle on the kernel trees named")
