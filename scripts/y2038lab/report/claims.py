"""One function per claim of the 2016 y2038 inode debate: evidence in, a Ruling out.

Each function reads only what the Evidence holds (benchmark runs, pahole
sizes, the SLUB model, costs, churn); what is absent makes its part of the
row say "not measured here", never a guess.  Timing figures come from
stats.judge(), so a difference is called a layout effect only when the U
test, the interval and the twin control all say so (stats.py).
"""
from dataclasses import dataclass, field

from y2038lab.core import stats
from y2038lab.report.evidence import SLAB_SCENARIOS, cost_of

SUPPORTED, REFUTED, NOT_MEASURABLE = "supported", "refuted", "not measurable here"
ILP32_ABIS = ("i386", "armhf")
NOT_MEASURED = "not measured here"
# A "no difference" is a finding only where the twin control resolves this well:
# the spread the issue measured on a quiet host was -13 % to +21 %.
RESOLUTION = 1.25


@dataclass
class Evidence:
    runs: list = field(default_factory=list)   # results.Run, one per benchmark JSON
    sizes: dict = None                          # evidence.read_sizes
    slab: list = None                           # evidence.read_slab
    cost: list = None                           # evidence.read_cost
    churn: dict = None                          # evidence.read_churn
    measure: str = "real"                       # stats.MEASURES


@dataclass
class Ruling:
    key: str
    claim: str
    ruling: str
    figures: list
    covers: str
    deciding: str = None     # the figure that decides the row; else figures[0]


def run_label(run):
    c = run.context
    mhz = f", {c['mhz_per_cpu']} MHz" if c.get("mhz_per_cpu") else ""
    date = str(c.get("date", "?"))[:10]
    return f"{run.abi} on {c.get('host_name', '?')} ({c.get('num_cpus', '?')} CPUs{mhz}), {date}"


def _mib(nbytes):
    return f"{nbytes / 2**20:+.1f} MiB"


def _labels(ev):
    """The distinct machines/dates of the runs, in order."""
    return list(dict.fromkeys(run_label(r) for r in ev.runs))


def _groups(ev):
    """[(run, groups)] for every run with layout records."""
    return [(run, stats.by_layout(run)) for run in ev.runs]


def _explanation(ev, run, body, repr_base, op_base, repr_cont, op_cont):
    a = cost_of(ev.cost, run.abi, body, repr_base, op_base)
    b = cost_of(ev.cost, run.abi, body, repr_cont, op_cont)
    if a and b and a["instructions"] is not None and b["instructions"] is not None:
        return stats.Explanation("instructions/op (qemu)", a["instructions"], b["instructions"])
    return None


def compare_ops(ev, run, groups, body, repr_base, op_base, repr_cont, op_cont, params=(), family="accessor"):
    """Finding for (op_cont, repr_cont) against (op_base, repr_base) in one run; None if absent.

    The null band is the widest of the two operations' twin controls."""
    kb, kc = (family, op_base, body, params, 1), (family, op_cont, body, params, 1)
    rb, rc = groups.get(kb, {}).get(repr_base), groups.get(kc, {}).get(repr_cont)
    if rb is None or rc is None:
        return None
    comp = stats.compare_records(rb, rc, ev.measure)
    band = stats.widest_band(run, [kb, kc], groups, ev.measure)
    expl = _explanation(ev, run, body, repr_base, op_base, repr_cont, op_cont)
    effect = stats.EFFECT if op_base == op_cont else "difference established"
    return stats.judge(comp, band, expl, controlled=run.abi in stats.LP64_ABIS, effect=effect)


def _line(what, finding):
    return f"{what}: {finding.text()}"


def lines(found):
    """Figure lines of [(label, short, Finding)], and the deciding one (first established)."""
    figures = [_line(label, f) for label, _, f in found]
    decided = next((_line(label, f) for label, _, f in found if f.established), None)
    return figures, decided


def timing_ruling(found, established_means, absent):
    """The common ruling over [(label, short, Finding)]: ESTABLISHED_MEANS plus the
    short names of the established ones; else what the statistics allow."""
    if not found:
        return f"{NOT_MEASURABLE}: {absent}"
    effects = [short for _, short, f in found if f.established]
    if effects:
        return f"{established_means}: {', '.join(effects)}"
    if all(f.status == stats.TOO_FEW for _, _, f in found):
        return f"{NOT_MEASURABLE}: too few repetitions (< {stats.MIN_REPETITIONS}) for the U test"
    return resolution(found, f"{SUPPORTED}: no difference established")


def resolution(found, conclusion):
    """CONCLUSION qualified by the widest twin spread of FOUND, or 'not measurable
    here' when there is no control or the spread exceeds RESOLUTION."""
    bands = [f.band for _, _, f in found]
    if not bands or None in bands:
        return f"{NOT_MEASURABLE}: no twin control to tell a difference from code placement"
    worst = max(bands)
    if worst > RESOLUTION:
        return (f"{NOT_MEASURABLE}: no difference established, but this run's twin spread reaches "
                f"{stats.pct(worst)} (resolution limit {stats.pct(RESOLUTION)})")
    return f"{conclusion} (to within this run's twin spread, {stats.pct(worst)})"


def walk_clause(walks):
    """What the walks (beyond the LLC) say, for a memory ruling."""
    if not walks:
        return "walk time not measured here"
    if any(f.established and f.comparison.ratio < 1 for _, _, f in walks):
        return "walks beyond the LLC faster (layout effect established)"
    if any(f.established for _, _, f in walks):
        return "walks beyond the LLC slower (layout effect established)"
    if all(f.status == stats.TOO_FEW for _, _, f in walks):
        return f"walk time not measurable here (fewer than {stats.MIN_REPETITIONS} repetitions)"
    return "no walk-time layout effect established"


def _slab_deltas(ev, abi, body, base, other, caches=("inode_cache", "ext4_inode_cache")):
    """[(cache, scenario, bytes other - base per 10^6 inodes, base bytes)] from the slab model."""
    out = []
    for cache in caches:
        rows = {r["repr"]: r for r in ev.slab or () if (r["abi"], r["body"], r["cache"]) == (abi, body, cache)}
        if base in rows and other in rows:
            for scenario in SLAB_SCENARIOS:
                key = f"{scenario}_bytes_per_1e6"
                out.append((cache, scenario, rows[other][key] - rows[base][key], rows[base][key]))
    return out


def _slab_text(deltas):
    return "; ".join(f"{cache} {_mib(d)} ({d / ref:+.1%}, {scenario.replace('_', ' ')} model)"
                     for cache, scenario, d, ref in deltas)


def _abis(ev):
    return sorted({abi for abi, _, _ in ev.sizes or {}} | {r["abi"] for r in ev.slab or ()})


def _walk_findings(ev, contender="packed12"):
    """[(label, short, Finding)]: walks at each op's largest working set, CONTENDER vs timespec64, v6;
    the largest with enough repetitions for the U test on both sides where there is one (the
    headline sizes `lab bench` repeats), else the largest."""
    found = []
    for run, groups in _groups(ev):
        largest = {}
        for key, row in groups.items():
            family, op, body, params, _ = key
            if family == "walk" and body == "v6" and params and params[0].isdigit():
                tested = all(len(row.get(r).real_ns) >= stats.MIN_REPETITIONS if r in row else False
                             for r in (contender, "timespec64"))
                rank = (tested, int(params[0]))
                if rank > largest.get(op, ((False, 0), None))[0]:
                    largest[op] = (rank, params)
        largest = {op: params for op, (_, params) in largest.items()}
        for op, params in sorted(largest.items()):
            key = ("walk", op, "v6", params, 1)
            row = groups[key]
            if contender not in row or "timespec64" not in row:
                continue
            base_rec, rec = row["timespec64"], row[contender]
            band, _ = stats.twin_band(run, key, groups, ev.measure)
            touched = [r.counters.get("cachelines_touched_per_op") for r in (base_rec, rec)]
            expl = (stats.Explanation("cache lines touched/inode", touched[0][0], touched[1][0])
                    if touched[0] and touched[1] else None)
            ws = int(params[0]) * int(rec.counters.get("bytes_per_inode", [0])[0])
            finding = stats.judge(stats.compare_records(base_rec, rec, ev.measure), band, expl,
                                  controlled=run.abi in stats.LP64_ABIS)
            found.append((f"{run_label(run)}, walk/{op}/v6 {contender} vs timespec64, {params[0]} inodes "
                           f"({ws / 2**20:.0f} MiB working set)", f"walk/{op}", finding))
    return found


def dinamani(ev):
    claim = "Dinamani: a 12-byte timestamp saves RAM because inodes stay cached"
    figures, covers = [], []
    if ev.sizes:
        parts = []
        for abi in _abis(ev):
            ref, row = ev.sizes.get((abi, "v6", "timespec64")), ev.sizes.get((abi, "v6", "packed12"))
            if ref and row:
                parts.append(f"{abi} {row['size'] - ref['size']:+d} B of {ref['size']} B")
        figures.append("sizeof(struct inode) v6, packed12 vs timespec64 (pahole): " + ", ".join(parts))
        covers.append("bytes: pahole, every ABI")
    pairs = []
    if ev.slab:
        for abi in _abis(ev):
            deltas = _slab_deltas(ev, abi, "v6", "timespec64", "packed12")
            if deltas:
                pairs += deltas
                figures.append(f"{abi} v6 slab memory per 10^6 cached inodes, packed12 vs timespec64: "
                               f"{_slab_text(deltas)}")
        covers.append("slab: " + "; ".join(SLAB_SCENARIOS.values()))
    walks = _walk_findings(ev)
    walk_figures, decided = lines(walks)
    figures += walk_figures or [f"walk time with a working set beyond the LLC: {NOT_MEASURED}"]
    if walks:
        covers.append(f"time: {'; '.join(_labels(ev))}, {ev.measure} time, body v6")
    saving = [d for d in pairs if d[2] < 0]
    if not pairs:
        ruling = f"{NOT_MEASURABLE}: no slab model given"
    elif not saving:
        ruling = f"{REFUTED}: packing frees no slab memory in any modelled cache"
    else:
        best = min(saving, key=lambda d: d[2] / d[3])
        ruling = (f"depends on the slab cache and CPU count: less slab memory in {len(saving)} of {len(pairs)} "
                  f"modelled cache/model pairs (at most {best[2] / best[3]:+.1%})")
    ruling += "; " + walk_clause(walks)
    return Ruling("dinamani", claim, ruling, figures, "; ".join(covers) or NOT_MEASURED, decided)


def chinner_reorder(ev):
    claim = "Chinner: 12-byte packing is premature; reordering members recovers the holes"
    if not ev.sizes:
        return Ruling("chinner_reorder", claim, f"{NOT_MEASURABLE}: no pahole sizes given",
                      [f"sizes: {NOT_MEASURED}"], NOT_MEASURED)
    parts, same, packing_wins = [], [], []
    for abi in _abis(ev):
        ref, packed = ev.sizes.get((abi, "v6", "timespec64")), ev.sizes.get((abi, "v6", "packed12"))
        if not ref or not packed:
            continue
        pack = packed["size"] - ref["size"]
        parts.append(f"{abi}: reordering timespec64 {-ref['reorg_saves']:+d} B, packing {pack:+d} B, "
                     f"packing + reordering {pack - packed['reorg_saves']:+d} B")
        (same if ref["reorg_saves"] >= -pack else packing_wins).append(abi)
    if not packing_wins:
        ruling = f"{SUPPORTED}: reordering timespec64 recovers as much as packing on every ABI"
    elif not same:
        ruling = f"{REFUTED}: packing saves bytes that reordering timespec64 cannot, on every ABI"
    else:
        ruling = (f"depends on the ABI: packing saves bytes reordering cannot on {', '.join(packing_wins)}; "
                  f"not on {', '.join(same)}")
    return Ruling("chinner_reorder", claim, ruling,
                  ["sizeof(struct inode) v6 against timespec64 (pahole; `pahole -R` for reordering): "
                   + "; ".join(parts)],
                  "bytes: pahole on every ABI, body v6 (v4_4 in reports/layouts)")


def bergmann_size(ev):
    claim = "Bergmann: the saving is not significant; 32-bit inodes must grow anyway (by how much?)"
    if not ev.sizes:
        return Ruling("bergmann", claim, f"{NOT_MEASURABLE}: no pahole sizes given", [f"sizes: {NOT_MEASURED}"],
                      NOT_MEASURED)
    figures, grows = [], []
    for abi in ILP32_ABIS:
        for body in ("v4_4", "v6"):
            old = ev.sizes.get((abi, body, "timespec"))
            if not old:
                continue
            deltas = [(r, row["size"] - old["size"]) for (a, b, r), row in ev.sizes.items()
                      if (a, b) == (abi, body) and row["facts"] and row["facts"].safe]
            grows += [d for _, d in deltas]
            figures.append(f"{abi} {body}: {old['size']} B with the 32-bit timespec; " +
                           ", ".join(f"{r} {d:+d} B" for r, d in deltas))
    savings = []
    for abi in _abis(ev):
        if abi in ILP32_ABIS:
            deltas = _slab_deltas(ev, abi, "v6", "timespec", "timespec64", caches=("inode_cache",))
            if deltas:
                figures.append(f"{abi} v6 slab memory per 10^6 cached inodes, timespec64 vs timespec: "
                               f"{_slab_text(deltas)}")
        savings += [d / ref for _, _, d, ref in _slab_deltas(ev, abi, "v6", "timespec64", "packed12")]
    walks = _walk_findings(ev)
    walk_figures, decided = lines(walks)
    figures += walk_figures
    figures.append(f"time on 32-bit: {NOT_MEASURED}" if not any(r.abi in ILP32_ABIS for r in ev.runs)
                   else "time on 32-bit: see the runs named in Covers")
    if not grows:
        ruling = f"{NOT_MEASURABLE}: no 32-bit sizes given"
    elif min(grows) < 0:
        ruling = f"{REFUTED}: some y2038-safe layout is smaller than the 32-bit timespec one"
    else:
        grow = f"every y2038-safe layout grows 32-bit inodes, by {min(grows)} to {max(grows)} B"
        faster = any(f.established and f.comparison.ratio < 1 for _, _, f in walks)
        ruling = f"depends on the working set: {grow}" if faster else f"{SUPPORTED}: {grow}"
        if savings:
            ruling += f"; packing saves at most {-min(savings):.1%} of slab memory (SLUB model)"
        ruling += "; " + walk_clause(walks)
    return Ruling("bergmann", claim, ruling, figures, "bytes: pahole i386 and armhf (ILP32), both bodies; slab: SLUB "
                  "model; 32-bit time: " + ("runs given" if any(r.abi in ILP32_ABIS for r in ev.runs)
                                           else NOT_MEASURED), decided)


PAIRS = {
    "rfc": [("get_mtime", "rfc_get_mtime"), ("set_mtime", "rfc_set_mtime"), ("swap_mtime", "rfc_swap_mtime")],
    "boundary": [("get_mtime", "boundary_to_fs_mtime"), ("set_mtime", "boundary_from_fs_mtime")],
}


def _pair_findings(ev, pairs, reprs=("timespec64", "scalar")):
    """[(label, short, Finding)] of each (base op, other op) pair, per repr, per run."""
    found = []
    for run, groups in _groups(ev):
        for repr_name in reprs:
            for op_base, op_cont in pairs:
                f = compare_ops(ev, run, groups, "v6", repr_name, op_base, repr_name, op_cont)
                if f:
                    delta = f.comparison.median_contender - f.comparison.median_base
                    found.append((f"{run_label(run)}, {op_cont} vs {op_base}, v6/{repr_name} ({delta:+.2f} ns/op)",
                                  f"{op_cont} on {repr_name} {delta:+.2f} ns/op ({run.abi})", f))
    return found


def rfc_accessors(ev):
    found = _pair_findings(ev, PAIRS["rfc"])
    figures, decided = lines(found)
    return Ruling("rfc", "RFC: the VFS_INODE_*_XTIME() accessor macros cost nothing at run time",
                  timing_ruling(found, f"{REFUTED} where a difference is established",
                                "no accessor/rfc_* benchmarks given"),
                  figures or [f"accessor timing: {NOT_MEASURED}"],
                  _time_covers(ev, "accessor/* (16 L1-resident inodes)"), decided)


def chinner_boundary(ev):
    found = _pair_findings(ev, PAIRS["boundary"])
    figures, decided = lines(found)
    return Ruling("boundary", "Chinner: converting at the VFS/file-system boundary is cheap",
                  timing_ruling(found, "depends on the call rate: a conversion costs",
                                "no accessor/boundary_* benchmarks given"),
                  figures or [f"boundary conversion timing: {NOT_MEASURED}"],
                  _time_covers(ev, "accessor/* (16 L1-resident inodes)"), decided)


def _time_covers(ev, what):
    if not ev.runs:
        return NOT_MEASURED
    ilp32 = "" if any(r.abi in ILP32_ABIS for r in ev.runs) else "; 32-bit time not measured here"
    return f"time: {'; '.join(_labels(ev))} ({ev.measure} time), body v6, {what}{ilp32}"
