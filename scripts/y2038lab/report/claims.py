"""The claims of the 2016 y2038 inode debate as data (claims.toml), and the rules
that turn the suite's figures into their rulings.

A claim is a row of claims.toml: its quote, its source, the layouts and
bodies it concerns, the evidence that decides it and the name of its rule.
A rule reads the Evidence and returns an Outcome (outcome.py): a key of the row's words,
the values those words name, the deciding figures (at most three, the first
body's), figures beside them (today's body) and the report lines it restates
(`sources`, checked by `verdict --check`).  Evidence that is absent gives
"not measurable here", never a guess.  Rules about code at run time
(timings, torn reads, the queried-ctime path) are in runtime.py.
"""
import os
import re
import tomllib
from dataclasses import dataclass, field

from y2038lab.core import abis, fsio
from y2038lab.report.evidence import SLAB_SCENARIOS
from y2038lab.report.outcome import NOT_MEASURABLE, Outcome
from y2038lab.report.runtime import timing, timings

# The cost variants whose counts the rulings quote: one per ABI (armhf: Debian's Thumb-2).
COST_VARIANTS = ("x86_64", "i686", "armv7-a-thumb2", "aarch64", "riscv64")
TOML = os.path.join(os.path.dirname(os.path.abspath(__file__)), "claims.toml")


@dataclass
class Evidence:
    runs: list = field(default_factory=list)   # results.Run, one per benchmark JSON
    sizes: dict = None                          # evidence.read_sizes: {(abi, body, repr): row}
    cost: list = None                           # evidence.read_cost
    churn: dict = None                          # evidence.read_churn: {tree: table}
    checked: str = None                         # evidence.kernel_check: what the sizes were checked against
    differing: dict = field(default_factory=dict)  # ... and {(abi, body, repr): (version, kernel sizeof)}
    paths: dict = field(default_factory=dict)   # {"sizes": dir, "cost": csv, "churn": dir}: what sources name
    measure: str = "real"
    slab: list = None                           # evidence.read_slab: the SLUB model's rows
    series: str = None                          # rfc2016/: the series as posted (cover letter, patches)
    kernel: dict = None                         # evidence.read_kernel: real Linux 6.12 kernels (KUnit)


@dataclass
class Ruling:
    claim: dict
    ruling: str
    figures: list
    beside: list
    sources: list
    covers: str
    detail: str = ""

    @property
    def key(self):
        return self.claim["key"]


def load(path=TOML):
    """{"claim": [rows], "defect": [rows]} of claims.toml; InputError on a malformed row."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as err:
        raise fsio.InputError(f"{path}: {err}") from None
    for row in data.get("claim", []):
        missing = [k for k in ("key", "who", "source", "quote", "evidence", "rule", "words", "changes_if",
                               "mainline") if k not in row]
        if missing:
            raise fsio.InputError(f"{path}: claim {row.get('key', '?')}: missing {', '.join(missing)}")
    for n, row in enumerate(data.get("defect", []), start=1):
        missing = [k for k in ("id", "key", "source", "where", "lines", "effect", "finding", "test") if k not in row]
        if missing:
            raise fsio.InputError(f"{path}: defect {row.get('key', '?')}: missing {', '.join(missing)}")
        line = f"{row['id']}. {row['source']}, {row['where']}: {row['effect']}"
        if row["id"] != f"D{n}" or len(line) > 79:
            raise fsio.InputError(f"{path}: defect {row['key']}: expected id D{n} and \"ID. SOURCE, WHERE: EFFECT\" "
                                  f"within 79 columns, got {line!r} ({len(line)})")
    return data


def _abis(ev):
    return sorted({abi for abi, _, _ in ev.sizes or {}})


def _size(ev, abi, body, repr_name):
    row = (ev.sizes or {}).get((abi, body, repr_name))
    return row and row["size"]


def _size_source(ev, abi, body, repr_name):
    return (os.path.join(ev.paths.get("sizes", ""), f"sizes-{abi}.csv"),
            f"{abi},{body},{repr_name},{_size(ev, abi, body, repr_name)},")


def named(ev, repr_name):
    """REPR_NAME with its origin, as its header states it (sizes-<abi>.csv), where known."""
    origin = next((row["facts"].origin for (_, _, r), row in (ev.sizes or {}).items() if r == repr_name
                   and row.get("facts")), None)
    return f"{repr_name} ({origin})" if origin else repr_name


def _safe(ev, abi, body):
    """The y2038-safe layouts of ABI/BODY: their stated range reaches past 2038-01-19 (core.reprs)."""
    return [r for (a, b, r), row in (ev.sizes or {}).items() if (a, b) == (abi, body) and row.get("facts")
            and row["facts"].safe]


def _bytes_covers(ev):
    """What decides a size ruling; the kernel check of the sizes is stated once (checked_line)."""
    return f"bytes: pahole on {', '.join(_abis(ev))}"


def checked_line(ev):
    """The sizes' check against real kernels, stated once for every size ruling."""
    return f"sizes checked against a kernel: {ev.checked or 'unchecked'}"


def _pairs(ev, claim, body):
    """[(abi, layout size, against size)] of BODY on every ABI that has both."""
    rows = [(abi, _size(ev, abi, body, claim["layout"]), _size(ev, abi, body, claim["against"]))
            for abi in _abis(ev)]
    return [(abi, a, b) for abi, a, b in rows if a and b]


def _vs(abi, a, b):
    return f"{abi} {a} vs {b} B ({a - b:+d} B)"


def _kernel(ev, body, repr_name):
    """The real kernel's sizeof where `lab kernel-check` found the replica of BODY/REPR_NAME differs."""
    rows = sorted((abi, v) for (abi, b, r), v in ev.differing.items() if (b, r) == (body, repr_name))
    return ([f"body {body}: the replica differs from the kernel it models (kernel-check): Linux {rows[0][1][0]} "
             f"with {repr_name} is " + ", ".join(f"{abi} {size} B" for abi, (_, size) in rows)] if rows else [])


def _real(ev, layout, against, abi_list, slab=True):
    """What real Linux 6.12 kernels measured (`lab kernel`, KUnit) for LAYOUT against AGAINST on the
    ABIs of ABI_LIST that have both: sizeof and, with SLAB, slab bytes per inode of each cache; [] if none."""
    k = ev.kernel or {}
    parts = []
    for abi in abi_list:
        a, b = k.get((abi, layout)), k.get((abi, against))
        if not (a and b):
            continue
        how = "UML: one CPU, no SMP, a one-CPU kernel's slab orders" if a["arch"] == "um" else "qemu-system, one CPU"
        caches = [f"{c} {a['slab'][c]:.1f} vs {b['slab'][c]:.1f} B per inode ({100 * (a['slab'][c] / b['slab'][c] - 1):+.1f} %)"
                  for c in sorted(a["slab"]) if slab and c in b["slab"]]
        parts.append(f"{abi} ({how}) sizeof {a['sizeof']} vs {b['sizeof']} B" + (", " if caches else "") + ", ".join(caches))
    if not parts:
        return []
    tree = next(iter(k.values()))["tree"]
    return [f"in a real kernel ({tree}, KUnit, scripts/lab kernel), {layout} vs {against}: " + "; ".join(parts)]


def rule_slab(ev, claim):
    """Slab memory per 10^6 cached inodes (SLUB model), LAYOUT vs AGAINST, decided on the 64-bit ABIs
    (RFC 02 argues for them: "packed on a naturally aligned boundary on 64 bit arch") where AGAINST's
    timestamps take more bytes; sizeof beside; the 32-bit ABIs given apart, against the 2016 status quo."""
    body, *others = claim["bodies"]
    ts = {abi: [(ev.sizes or {}).get((abi, body, r), {}).get("ts_bytes") for r in (claim["layout"], claim["against"])]
          for abi in _abis(ev)}
    scope = [abi for abi, (a, b) in ts.items() if a and b and a < b and abi in abis.LP64]
    index = {(r["abi"], r["body"], r["repr"], r["cache"]): r for r in ev.slab or ()}

    def pairs_of(abi_list, b=body):
        return [(abi, cache, sc, index[k_a][f"{sc}_bytes_per_1e6"] / 2**20, index[k_b][f"{sc}_bytes_per_1e6"] / 2**20)
                for abi in abi_list for cache in claim["caches"] for sc in SLAB_SCENARIOS
                for k_a, k_b in [((abi, b, claim["layout"], cache), (abi, b, claim["against"], cache))]
                if k_a in index and k_b in index]
    pairs = pairs_of(scope)
    if not pairs:
        return Outcome(None, absent="no SLUB model rows (reports/layouts/slab.csv) for these layouts on a 64-bit ABI")
    saved = [p for p in pairs if p[3] < p[4]]
    best = min(pairs, key=lambda p: p[3] / p[4])

    def text(rows, sc):
        return "; ".join(f"{abi} {cache} {a - b:+.1f} MiB ({100 * (a - b) / b:+.1f} %)"
                         for abi, cache, s2, a, b in rows if s2 == sc)
    sized = [p for p in _pairs(ev, claim, body) if p[0] in scope]
    rest = [p for p in _pairs(ev, claim, body) if p[0] not in scope]
    figures = [f"slab memory per 10^6 cached inodes, body {body}, {claim['layout']} vs {claim['against']} "
               f"({SLAB_SCENARIOS[sc]}): {text(pairs, sc)}" for sc in SLAB_SCENARIOS]
    figures.append(f"sizeof(struct inode), body {body} (pahole, replica): " + "; ".join(_vs(*p) for p in sized))
    figures += _real(ev, claim["layout"], claim["against"], scope)
    quo = claim.get("status_quo")
    notes = []
    for abi, a, b in rest:
        old = quo and _size(ev, abi, body, quo)
        grows = f"; the 2016 status quo ({quo}) {old} B, so {a - old:+d} B" if old else ""
        notes.append(f"{abi} {a} B against {b} B{grows}")
    apart = [f"32-bit, body {body}: {claim['layout']} vs {claim['against']} ({SLAB_SCENARIOS[sc]}): "
             f"{text(pairs_of([p[0] for p in rest]), sc)}" for sc in SLAB_SCENARIOS if pairs_of([p[0] for p in rest])]
    beside = apart + [f"32-bit, sizeof(struct inode), body {body}: " + "; ".join(notes)] if notes else apart
    beside += _real(ev, claim["layout"], claim["against"], [p[0] for p in rest])
    beside += [f"body {o}: " + "; ".join(_vs(*p) for p in _pairs(ev, claim, o)) for o in others]
    beside += [f"body {o}, 64-bit, slab memory per 10^6 cached inodes ({SLAB_SCENARIOS[sc]}): "
               + text(pairs_of(scope, o), sc) for o in others for sc in SLAB_SCENARIOS if pairs_of(scope, o)]
    beside += [x for b in claim["bodies"] for x in _kernel(ev, b, claim["layout"])]
    key = "all" if len(saved) == len(pairs) else "none" if not saved else "some"

    def distinct(rows):  # ABIs that lay struct inode out alike give the same figure: count it once
        return {(cache, sc, round(a, 3), round(b, 3)) for _, cache, sc, a, b in rows}
    shrink = sorted({b - a for _, a, b in sized})
    stamps = sorted({(ts[abi][1], ts[abi][0]) for abi in scope})
    return Outcome(key, {"lp64": ", ".join(scope), "n": len(saved), "m": len(pairs),
                         "distinct": f" ({len(distinct(saved))} of {len(distinct(pairs))} distinct: the 64-bit ABIs "
                                     "lay struct inode out alike)" if len(distinct(pairs)) < len(pairs) else "",
                         "ts": " or ".join(f"{b} B with {claim['against']} against {a} B" for b, a in stamps),
                         "best": f"{100 * (best[3] - best[4]) / best[4]:+.1f} % ({best[0]} {best[1]})",
                         "shrink": " or ".join(f"-{x} B" for x in shrink) + f" of {'/'.join(str(b) for b in sorted({b for _, _, b in sized}))} B",
                         "ilp32_note": "; ".join(notes) + " (figures beside)" if notes else "none"},
                   figures, beside, [_size_source(ev, abi, body, r) for abi, _, _ in sized
                                     for r in (claim["layout"], claim["against"])],
                   "slab: " + "; ".join(SLAB_SCENARIOS.values()) + " (reports/layouts/slab.csv, modelled, not measured); "
                   + _bytes_covers(ev))


def rule_same_size(ev, claim):
    body = claim["bodies"][0]
    mine, theirs = ({abi: (ev.sizes or {}).get((abi, body, claim[k]), {}).get("ts_bytes")
                     for abi in _abis(ev)} for k in ("layout", "against"))
    if not mine or None in mine.values() or None in theirs.values():
        return Outcome(None, absent="no timestamp byte counts (sizes-<abi>.csv ts_bytes) given")
    spread = sorted(set(mine.values()))
    key = "same" if len(spread) == 1 else "differ"
    return Outcome(key, {"bytes": f"{spread[0]} B", "against": claim["against"],
                         "range": " to ".join(map(str, sorted({min(theirs.values()), max(theirs.values())}))) + " B"},
                   [f"bytes of the three timestamps, body {body} (pahole): {claim['layout']} "
                    + ", ".join(f"{abi} {b}" for abi, b in mine.items()) + f"; {claim['against']} "
                    + ", ".join(f"{abi} {b}" for abi, b in theirs.items())], covers=_bytes_covers(ev))


def rule_reorder(ev, claim):
    body, *others = claim["bodies"]

    def parts(b):
        """[(abi, bytes reordering AGAINST saves, bytes packing into LAYOUT saves)] (negative), as text."""
        sizes = ev.sizes or {}
        found = [(abi, sizes.get((abi, b, claim["against"])), sizes.get((abi, b, claim["layout"])))
                 for abi in _abis(ev)]
        rows = [(abi, -ref["reorg_saves"], packed["size"] - ref["size"]) for abi, ref, packed in found
                if ref and packed]
        return rows, "; ".join(f"{abi} reordering {r:+d} B, packing {p:+d} B" for abi, r, p in rows)
    rows, text = parts(body)
    if not rows:
        return Outcome(None, absent="no pahole sizes given")
    packing = [abi for abi, reorder, pack in rows if pack < reorder]
    # where neither saves a byte the claim is neither supported nor refuted: nothing to save
    flat = [abi for abi, reorder, pack in rows if abi not in packing and reorder == pack == 0]
    reorder = [abi for abi, _, _ in rows if abi not in packing and abi not in flat]
    return Outcome("same" if not packing else "none" if not reorder else "some",
                   {"packing": ", ".join(packing), "reorder": ", ".join(reorder) or "none",
                    "flat": f"; nothing to save either way on {', '.join(flat)}" if flat else ""},
                   [f"body {body}, packing: {named(ev, claim['layout'])}, reordering: `pahole -R` of "
                    f"{named(ev, claim['against'])} (pahole): {text}"],
                   [f"body {b}: {parts(b)[1]}" for b in others], covers=_bytes_covers(ev))


def rule_saving_share(ev, claim):
    body, *others = claim["bodies"]
    pairs = _pairs(ev, claim, body)
    if not pairs:
        return Outcome(None, absent="no pahole sizes given")
    abi, a, b = min(pairs, key=lambda p: (p[1] - p[2]) / p[2])
    share = (b - a) / b
    arithmetic = ", ".join(f"{x} {y - z:+d} B" for x, y, z in pairs)
    lp64 = [p for p in pairs if p[0] in abis.LP64] or pairs
    l_abi, l_a, l_b = min(lp64, key=lambda p: (p[1] - p[2]) / p[2])
    same = [p[0] for p in lp64 if (p[1], p[2]) == (l_a, l_b)]
    return Outcome("small" if share < claim["significant"] else "large",
                   {"best": f"{100 * share:.1f} % ({b - a} B)", "where": f"{abi}: {a} vs {b} B", "arithmetic": arithmetic,
                    "lp64_best": f"{100 * (l_b - l_a) / l_b:.1f} % ({l_b - l_a} B)",
                    "lp64_where": f"{', '.join(same)}: {l_a} vs {l_b} B"},
                   [f"sizeof(struct inode), body {body}, {named(ev, claim['layout'])} vs "
                    f"{named(ev, claim['against'])} (pahole): " + "; ".join(_vs(*p) for p in pairs)],
                   [f"body {o}: " + "; ".join(_vs(*p) for p in _pairs(ev, claim, o)) for o in others],
                   [_size_source(ev, x, body, r) for x, _, _ in pairs for r in (claim["layout"], claim["against"])],
                   _bytes_covers(ev))


def rule_growth(ev, claim):
    """Growth of the 32-bit inode over LAYOUT (the 2016 status quo) for every y2038-safe layout; ruled on the
    layouts that were options in 2016 (options_2016), the later ones given apart."""
    body, *others = claim["bodies"]

    def grow(b):
        return [(abi, old, [(r, new - old) for r in _safe(ev, abi, b) if (new := _size(ev, abi, b, r))])
                for abi in abis.ILP32 if (old := _size(ev, abi, b, claim["layout"]))]

    def text(b, rows):
        return [f"{abi} {b} ({old} B with the 32-bit {claim['layout']}): "
                + ", ".join(f"{r} {d:+d} B" for r, d in deltas)
                for abi, old, deltas in rows]
    rows = grow(body)
    deltas = [(r, d) for _, _, ds in rows for r, d in ds]
    options = claim.get("options_2016")
    ruled = [(r, d) for r, d in deltas if options is None or r in options]
    if not ruled:
        return Outcome(None, absent="no 32-bit sizes given")

    def spans(pairs):
        names = sorted({r for r, _ in pairs}, key=[r for r, _ in pairs].index)
        return ", ".join(f"{r} {'/'.join(f'{d:+d}' for d in sorted({d for x, d in pairs if x == r}))} B" for r in names)
    flat = sorted({r for r, d in ruled if d <= 0})
    grown = [d for r, d in ruled if r not in flat]
    later = [(r, d) for r, d in deltas if (r, d) not in ruled]
    return Outcome("some" if flat else "all",
                   {"range": f"+{min(grown)} to +{max(grown)} B" if grown else "+0 B",
                    "flat": spans([(r, d) for r, d in ruled if r in flat]), "later": spans(later) or "none"},
                   text(body, rows) + [x for r in sorted({r for _, r in ev.kernel or {}} - {claim["layout"]})
                                       for x in _real(ev, r, claim["layout"], abis.ILP32, slab=False)],
                   [t for b in others for t in text(b, grow(b))],
                   [_size_source(ev, abi, body, r) for abi, _, ds in rows for r, _ in ds],
                   f"bytes: pahole on {', '.join(abis.ILP32)} only (no 64-bit figure in this row)")


def _count(ev, variant, body, repr_name, op):
    key = (variant, body, op, "instructions")
    return next((r for r in ev.cost or () if (r["variant"], r["body"], r["operation"], r["measure"]) == key
                 and r["repr"] in (repr_name, "-") and r["instructions"] is not None), None)


def rule_instructions(ev, claim):
    """OPS[1] against OPS[0]: instructions per variant (qemu-user counts)."""
    base, other = claim["ops"]
    layout = claim.get("layout", "-")

    def counts(body):
        found = [(v, _count(ev, v, body, layout, base), _count(ev, v, body, layout, other))
                 for v in COST_VARIANTS]
        return [(v, int(a["instructions"]), int(b["instructions"]), a, b) for v, a, b in found if a and b]

    def text(rows):
        return ", ".join(f"{v} {a} -> {b}" for v, a, b, _, _ in rows)
    body, *others = claim["bodies"]
    rows = counts(body)
    if not rows:
        return Outcome(None, absent="no instruction counts (reports/cost/cost.csv) for these operations")
    beside_time = []
    if claim.get("timing"):  # the same pair on this host, paired, per ABI; a figure beside, never the ruling
        family, (a, b) = claim["timing"], claim.get("timing_ops", (base, other))
        args = (ev, family, a.split("/")[0], b.split("/")[0], "" if family == "fstime" else "v6",
                claim.get("timing_where", layout))
        for run, clause in timings(*args):
            counted = next(((x, y) for _, x, y, ra, _ in rows if ra.get("abi") == run.abi), None)
            if counted and "beyond its negative control" in clause:  # a figure to explain: by its own ABI's counts
                clause += (f"; the counted pair has the same instruction count on {run.abi} (qemu-user): the counts "
                           "do not explain it" if counted[0] == counted[1] else
                           f"; {run.abi}'s instruction counts (qemu-user): {counted[0]} -> {counted[1]}")
            beside_time.append(clause)
        beside_time = beside_time or [timing(*args)]
    same = [v for v, a, b, _, _ in rows if a == b]
    more = [v for v, a, b, _, _ in rows if b > a]
    less = [v for v, a, b, _, _ in rows if b < a]
    key = "same" if len(same) == len(rows) else "more" if len(more) == len(rows) else \
        "less" if len(less) == len(rows) else "mixed"
    deltas = sorted({b - a for _, a, b, _, _ in rows})
    where = f"body {body}, {named(ev, layout)}" if layout != "-" else "fstime"
    csv_path = ev.paths.get("cost", "cost.csv")
    return Outcome(key, {"counts": text(rows), "same_abis": ", ".join(same) or "none",
                         "other": ", ".join(v for v in COST_VARIANTS if v in more + less),
                         "delta": f"+{deltas[0]}" if len(deltas) == 1 else f"+{deltas[0]} to +{deltas[-1]}"},
                   [f"instructions per call, {base} -> {other}, {where} (qemu-user counts): {text(rows)}"],
                   [f"body {b}: {text(counts(b))}" for b in others if counts(b)] + beside_time,
                   [(csv_path, f"{r['abi']},{r['variant']},{r['body']},{r['repr']},{r['operation']},instructions,"
                               f"{int(r['instructions'])},") for _, _, _, ra, rb in rows for r in (ra, rb)],
                   "instructions: qemu-user, " + ", ".join(v for v, *_ in rows) + " (reports/cost)")


def _pct(part, whole):
    return f"{100.0 * part / whole:.1f} %" if whole else "n/a"


def _trees(ev, claim):
    """[(tree, table)]: the claim's deciding tree first (the first of its "trees" given), then the rest."""
    order = {t: n for n, t in enumerate(claim.get("trees", ()))}
    return sorted((ev.churn or {}).items(), key=lambda item: (order.get(item[0], len(order)), item[0]))


def _share_of(rows):
    """(setattr + getattr sites, boundary sites, tv_sec/tv_nsec member accesses) summed over ROWS."""
    return (sum(r["setattr_sites"] + r["getattr_sites"] for r in rows), sum(r["boundary_sites"] for r in rows),
            sum(r.get("member_accesses", 0) for r in rows))


def rule_sites_share(ev, claim):
    """Chinner's "mainly setattr/kstat": setattr/getattr sites among boundary sites, for file systems alone
    (no VFS, no library such as kernfs, none of the claim's "exclude"), on the fair reading first
    (timespec64: tv_sec/tv_nsec member accesses compile unchanged), from the churn CSV's rows."""
    if not ev.churn:
        return Outcome(None, absent="no churn tables given")
    exclude = set(claim.get("exclude", ()))
    figures, sources, trees, found = [], [], _trees(ev, claim), []
    for tree, table in trees:
        rows = table["rows"]
        fs = [r for r in rows if r.get("kind") == "filesystem" and r["fs"] not in exclude]
        no_vfs = [r for r in rows if r.get("kind") == "filesystem"]
        readings = []
        for label, part in (("all boundary sites", rows), ("without " + " and ".join(
                r["fs"] for r in rows if r.get("kind") != "filesystem"), no_vfs),
                ("file systems alone", fs)):
            sg, b, m = _share_of(part)
            readings.append(f"{label}: {sg} of {b} ({_pct(sg, b)}), {sg} of {b - m} ({_pct(sg, b - m)}) with "
                            "tv_sec/tv_nsec unchanged")
        t = table["total"]
        setget = t["setattr_sites"] + t["getattr_sites"]
        line = f"{setget} of {t['boundary_sites']} boundary sites ({_pct(setget, t['boundary_sites'])})"
        sources.append((table["path"][:-4] + ".md", f"setattr and getattr sites are {line}"))
        sg, b, m = _share_of(fs)
        figures.append(f"{tree}: setattr and getattr among the boundary sites of file systems alone: {sg} of "
                       f"{b - m} ({_pct(sg, b - m)}) with tv_sec/tv_nsec unchanged (timespec64), {sg} of {b} "
                       f"({_pct(sg, b)}) with the type opaque (Coccinelle)")
        out_rows = [r for r in rows if r not in fs]
        found.append((tree, readings, sg, b - m, ", ".join(
            f"{r['fs']} ({r.get('kind')}, {r['setattr_sites'] + r['getattr_sites']} of {r['boundary_sites']})"
            for r in out_rows)))
    tree, readings, sg, fair, excluded = found[0]
    bounds = trees[0][1]["total"]
    beside = figures[1:] + [f"{tree}, every reading: " + "; ".join(readings) + (
        f" (bounds: {bounds.get('unparsed_files', 0)} files spatch could not parse, {bounds.get('unresolved', 0)} "
        "unresolved accesses)" if "unresolved" in bounds else "")]
    return Outcome("most" if fair and sg / fair > 0.5 else "few",
                   {"fair": f"{sg} of {fair} ({_pct(sg, fair)})", "tree": tree,
                    "readings": "; ".join(readings), "excluded": excluded or "nothing"},
                   figures[:1], beside, sources,
                   "sites: Coccinelle on " + ", ".join(name for name, _ in trees))


def rule_sites_count(ev, claim):
    if not ev.churn:
        return Outcome(None, absent="no churn tables given")
    figures, sources, verdicts, values = [], [], [], []
    _holds = lambda claim, n: "holds" if claim["low"] <= n <= claim["high"] else "does not hold"  # noqa: E731
    for tree, table in _trees(ev, claim):
        fs = [r for r in table["rows"] if r.get("kind") == "filesystem"]
        strict_of = lambda r: r["local_copies"] + r["address_passed"]  # noqa: E731
        wide_of = lambda r: strict_of(r) + r["struct_copies"] + r["value_passed"]  # noqa: E731
        # the churn report's own counts where its TOTAL row has them, else the same sums here
        strict = table["total"].get("bergmann_fs", sum(1 for r in fs if strict_of(r)))
        wide = table["total"].get("bergmann_wide_fs", sum(1 for r in fs if wide_of(r)))
        touching = sum(1 for r in fs if r["reads"] + r["writes"] > 0)
        verdicts.append((_holds(claim, strict), _holds(claim, wide)))
        t = table["total"]
        low = "at least " if t.get("unresolved") or t.get("unparsed_files") else ""  # what spatch could not read
        bound = low and f"; {t.get('unresolved', 0)} accesses of unknown type, {t.get('unparsed_files', 0)} unparsed files"
        named = [r["fs"] for r in fs if r["fs"] in claim.get("note_included", ()) and wide_of(r)]
        values.append({"strict": strict, "wide": wide, "with": f", {', '.join(named)} included" if named else "",
                       "bounds": f"{t.get('unresolved', 0)} accesses of unknown type, {t.get('unparsed_files', 0)} "
                                 f"files spatch could not parse, on {tree}" if low else f"none on {tree}",
                       "low": claim["low"], "high": claim["high"]})
        figures.append(f"{tree}: {low}{strict} of {touching} file systems on the strict reading, {low}{wide} counting "
                       f"copies into their own structures and values passed{bound} (Coccinelle)")
        sources.append((table["path"][:-4] + ".md", f"it {_holds(claim, strict)} on this tree for the strict "
                                                    f"reading and {_holds(claim, wide)} for the wide one"))
    strict_ok, wide_ok = (verdicts[0][i] == "holds" for i in (0, 1))
    key = "both" if strict_ok and wide_ok else "wide" if wide_ok else "strict" if strict_ok else "neither"
    return Outcome(key, values[0], figures[:1], figures[1:], sources,
                   f"sites: Coccinelle on {', '.join(t for t, _ in _trees(ev, claim))}")


def rule_sites_macro(ev, claim):
    """How far RFC 02's macros reach against mainline's accessor functions (churn TOTAL), the first tree."""
    if not ev.churn:
        return Outcome(None, absent="no churn tables given")
    tree, table = _trees(ev, claim)[0]
    t, rows = table["total"], table["rows"]
    text = (f"on {tree} the RFC's VFS_INODE_*_XTIME() macros change {t['rfc_macros']} sites in "
            f"{sum(1 for r in rows if r['rfc_macros'])} directories, mainline's lower-case accessor functions "
            f"{t['accessor_functions']} in {sum(1 for r in rows if r['accessor_functions'])}")
    return Outcome("known", {"sites": text}, [f"{text} (Coccinelle)"], covers=f"sites: Coccinelle on {tree}")


def series_subjects(folder):
    """{patch number: subject} of the cover letter's list (rfc2016/rfc-00.txt); InputError if absent."""
    path = os.path.join(folder or "", "rfc-00.txt")
    if not folder or not os.path.isfile(path):
        raise fsio.InputError(f"{path}: the series' cover letter is not there")
    text = fsio.read_text(path, "cover letter")
    listing = text.split("(15):", 1)[-1].split("\n\n", 1)[0] if "(15):" in text else ""
    subjects = [line.strip() for line in listing.splitlines() if line.strip()]
    if not subjects:
        raise fsio.InputError(f"{path}: no list of patch subjects")
    return dict(enumerate(subjects, start=1))


def _converted(subjects):
    """{file system: [patch numbers]} of the subjects "fs: <name>: ..."."""
    out = {}
    for n, subject in subjects.items():
        m = re.match(r"fs: (\w+): ", subject)
        if m:
            out.setdefault(m.group(1), []).append(n)
    return out


def rule_series(ev, claim):
    """Patches per file system in the series (the cover letter's subjects)."""
    if not ev.series:
        return Outcome(None, absent="the series (rfc2016/) not given")
    per_fs = _converted(series_subjects(ev.series))
    if not per_fs:
        return Outcome(None, absent="no file-system patch in the cover letter's list")
    touched = "; ".join(f"{fs}: RFC " + ", ".join(f"{n:02d}" for n in ns) for fs, ns in per_fs.items())
    key = "twice" if any(len(ns) > 1 for ns in per_fs.values()) else "one"
    return Outcome(key, {"touched": touched}, [f"patches per file system (rfc2016/rfc-00.txt): {touched}"],
                   covers="the series as posted (rfc2016/)")


def rule_sites_unconverted(ev, claim):
    """File systems that name an inode timestamp (churn, first tree) that the series does not convert."""
    if not ev.churn or not ev.series:
        return Outcome(None, absent="no churn tables or no series given")
    converted = _converted(series_subjects(ev.series))
    tree, table = _trees(ev, claim)[0]
    fs = [r for r in table["rows"] if r.get("kind") == "filesystem" and r["reads"] + r["writes"] > 0]
    left = [r["fs"] for r in fs if r["fs"] not in converted]
    named = [f for f in left if f in claim.get("note_included", ())]  # counted, but not a file system
    return Outcome("known" if left else "none", {"unconverted": f"{len(left)} of {len(fs)}", "tree": tree,
                             "converted": ", ".join(converted) or "none",
                             "among": ("xfs among them" if "xfs" in left else "xfs not among them")
                             + (f" ({', '.join(named)} counted too)" if named else "")},
                   [f"{tree}: {len(left)} of the {len(fs)} file systems that read or write an inode timestamp are not "
                    f"converted by the series ({', '.join(converted)} are) (Coccinelle, rfc2016/rfc-00.txt)"],
                   covers=f"sites: Coccinelle on {tree}; the series as posted (rfc2016/)")


def _joined(line):
    return re.sub(r"\s+", " ", line).strip()


def rule_patch(ev, claim):
    """What the series as posted says in its own lines (rfc2016/): each of the claim's patch_lines
    [source, line] must be a line of that patch, character for character (tabs as \\t); the lines are
    the figures, and `verdict --check` holds each to its patch file.  A line not found: not measurable."""
    if not ev.series:
        return Outcome(None, absent="the series (rfc2016/) not given")
    figures, sources, missing = [], [], []
    for source, line in claim["patch_lines"]:
        m = re.fullmatch(r"RFC (\d\d)", source)
        path = os.path.join(ev.series, f"rfc-{m.group(1)}.patch") if m else ""
        lines = fsio.read_text(path, "patch").splitlines() if os.path.isfile(path) else []
        if line not in lines:
            missing.append(f"{source}: {_joined(line)!r}")
            continue
        figures.append(f"{source} (rfc2016/{os.path.basename(path)}): \"{_joined(line)}\"")
        sources.append((path, line))
    if missing:
        return Outcome(None, absent="not a line of the series as posted: " + "; ".join(missing))
    return Outcome("shown", {}, figures[:1], figures[1:], sources, "the series as posted (rfc2016/), its own lines")


def rule_series_first(ev, claim):
    """Which of the cover letter's first FIRST patches touch a file system of their own ("fs: <name>: ...")."""
    if not ev.series:
        return Outcome(None, absent="the series (rfc2016/) not given")
    subjects = series_subjects(ev.series)
    first = {n: s for n, s in subjects.items() if n <= claim["first"]}
    per_fs = {n: fs for fs, ns in _converted(first).items() for n in ns}
    vfs = [n for n in first if n not in per_fs]
    listed = "; ".join(f"RFC {n:02d} {s}" for n, s in first.items())
    return Outcome("fs" if per_fs else "vfs",
                   {"fs": ", ".join(f"RFC {n:02d} ({per_fs[n]})" for n in sorted(per_fs)),
                    "vfs": f"RFC {min(vfs):02d}-{max(vfs):02d}" if vfs else "none", "n": len(subjects)},
                   [f"the first {claim['first']} of the cover letter's {len(subjects)} subjects "
                    f"(rfc2016/rfc-00.txt): {listed}"],
                   covers="the series as posted (rfc2016/rfc-00.txt, its list of subjects)")


def rule_tests(ev, claim):
    return Outcome("shown", {}, list(claim["tests"]), covers="tests: CTest (deterministic, every preset)")


def rule_tests_with_cost(ev, claim):
    """Decided by tests; the instruction counts of OPS (and their timing) stand below as the cost."""
    cost = rule_instructions(ev, claim)
    values = cost.values if cost.key else {"delta": "not counted", "counts": cost.absent}
    return Outcome("shown", values, list(claim["tests"]), cost.figures + cost.beside, cost.sources,
                   "tests: CTest (deterministic, every preset)" + (f"; cost: {cost.covers}" if cost.key else ""))


RULES = {"slab": rule_slab, "same_size": rule_same_size, "reorder": rule_reorder,
         "saving_share": rule_saving_share, "growth": rule_growth, "instructions": rule_instructions,
         "sites_share": rule_sites_share, "sites_count": rule_sites_count, "sites_macro": rule_sites_macro,
         "sites_unconverted": rule_sites_unconverted, "series": rule_series, "tests": rule_tests,
         "patch": rule_patch, "series_first": rule_series_first,
         "tests_with_cost": rule_tests_with_cost}


def rule(claim, ev, rules):
    """The Ruling of one claim row under RULES (name -> function)."""
    fn = rules.get(claim["rule"])
    if fn is None:
        raise fsio.InputError(f"claims.toml: claim {claim['key']}: no rule {claim['rule']!r}")
    out = fn(ev, claim)
    if out.key is None:
        return Ruling(claim, f"{NOT_MEASURABLE}: {out.absent}", [], [], [], out.covers or "nothing given")
    detail = claim.get("detail", "")
    detail = detail.get(out.key, "") if isinstance(detail, dict) else detail
    try:
        words, detail = claim["words"][out.key].format(**out.values), detail.format(**out.values)
    except KeyError as err:
        raise fsio.InputError(f"claims.toml: claim {claim['key']}: no figure {err} for its words") from None
    return Ruling(claim, words, out.figures[:3], out.beside + out.figures[3:], out.sources, out.covers, detail)
