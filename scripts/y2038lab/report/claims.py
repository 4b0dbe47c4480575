"""The claims of the 2016 y2038 inode debate as data (claims.toml), and the rules
that turn the suite's figures into their rulings.

A claim is a row of claims.toml: its quote, its source, the layouts and
bodies it concerns, the evidence that decides it and the name of its rule.
A rule reads the Evidence and returns an Outcome: a key of the row's words,
the values those words name, the deciding figures (at most three, the first
body's), figures beside them (today's body) and the report lines it restates
(`sources`, checked by `verdict --check`).  Evidence that is absent gives
"not measurable here", never a guess.  Rules about code at run time
(timings, torn reads, the queried-ctime path) are in runtime.py.
"""
import os
import tomllib
from dataclasses import dataclass, field

from y2038lab.core import abis, fsio
from y2038lab.report.evidence import SLAB_SCENARIOS

NOT_MEASURABLE = "not measurable here"
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


@dataclass
class Outcome:
    key: str                                    # a key of the claim's words, or None: not measurable
    values: dict = field(default_factory=dict)
    figures: list = field(default_factory=list)  # deciding (<= 3)
    beside: list = field(default_factory=list)   # other bodies, for comparison
    sources: list = field(default_factory=list)  # (path, text the report prints)
    covers: str = ""
    absent: str = ""                             # why not measurable


@dataclass
class Ruling:
    claim: dict
    ruling: str
    figures: list
    beside: list
    sources: list
    covers: str

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


def run_label(run):
    c = run.context
    mhz = f", {c['mhz_per_cpu']} MHz" if c.get("mhz_per_cpu") else ""
    date = str(c.get("date", "?"))[:10]
    return f"{run.abi} on {c.get('host_name', '?')} ({c.get('num_cpus', '?')} CPUs{mhz}), {date}"


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
    return f"bytes: pahole on {', '.join(_abis(ev))}; sizes checked against a kernel: {ev.checked or 'unchecked'}"


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


def rule_slab(ev, claim):
    """Slab memory per 10^6 cached inodes (SLUB model), LAYOUT vs AGAINST, on the ABIs where AGAINST's
    timestamps take more bytes (the claim's "12 bytes instead of 16"); sizeof beside, the rest a note."""
    body, *others = claim["bodies"]
    ts = {abi: [(ev.sizes or {}).get((abi, body, r), {}).get("ts_bytes") for r in (claim["layout"], claim["against"])]
          for abi in _abis(ev)}
    scope = [abi for abi, (a, b) in ts.items() if a and b and a < b]
    index = {(r["abi"], r["body"], r["repr"], r["cache"]): r for r in ev.slab or ()}
    pairs = [(abi, cache, sc, index[k_a][f"{sc}_bytes_per_1e6"] / 2**20, index[k_b][f"{sc}_bytes_per_1e6"] / 2**20)
             for abi in scope for cache in claim["caches"] for sc in SLAB_SCENARIOS
             for k_a, k_b in [((abi, body, claim["layout"], cache), (abi, body, claim["against"], cache))]
             if k_a in index and k_b in index]
    if not pairs:
        return Outcome(None, absent="no SLUB model rows (reports/layouts/slab.csv) for these layouts")
    saved = [p for p in pairs if p[3] < p[4]]
    best = min(pairs, key=lambda p: p[3] / p[4])
    text = {sc: "; ".join(f"{abi} {cache} {a - b:+.1f} MiB ({100 * (a - b) / b:+.1f} %)"
                          for abi, cache, s2, a, b in pairs if s2 == sc) for sc in SLAB_SCENARIOS}
    sized = [p for p in _pairs(ev, claim, body) if p[0] in scope]
    rest = [p for p in _pairs(ev, claim, body) if p[0] not in scope]
    figures = [f"slab memory per 10^6 cached inodes, body {body}, {claim['layout']} vs {claim['against']} "
               f"({SLAB_SCENARIOS[sc]}): {text[sc]}" for sc in SLAB_SCENARIOS]
    figures.append(f"sizeof(struct inode), body {body} (pahole): " + "; ".join(_vs(*p) for p in sized))
    beside = [f"not claimed (timestamps {ts[p[0]][1]} B with {claim['against']} there, not more): "
              + _vs(*p) for p in rest] + [f"body {o}: " + "; ".join(_vs(*p) for p in _pairs(ev, claim, o)) for o in others]
    beside += [x for b in claim["bodies"] for x in _kernel(ev, b, claim["layout"])]
    key = "all" if len(saved) == len(pairs) else "none" if not saved else "some"
    return Outcome(key, {"scope": ", ".join(scope), "n": len(saved), "m": len(pairs),
                         "best": f"{100 * (best[3] - best[4]) / best[4]:+.1f} % ({best[0]} {best[1]})",
                         "other": ", ".join(p[0] for p in rest) or "none"},
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
    reorder = [abi for abi, _, _ in rows if abi not in packing]
    return Outcome("same" if not packing else "none" if not reorder else "some",
                   {"packing": ", ".join(packing), "reorder": ", ".join(reorder)},
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
    return Outcome("small" if share < claim["significant"] else "large",
                   {"best": f"{100 * share:.1f} % ({b - a} B)", "where": f"{abi}: {a} vs {b} B", "arithmetic": arithmetic},
                   [f"sizeof(struct inode), body {body}, {named(ev, claim['layout'])} vs "
                    f"{named(ev, claim['against'])} (pahole): " + "; ".join(_vs(*p) for p in pairs)],
                   [f"body {o}: " + "; ".join(_vs(*p) for p in _pairs(ev, claim, o)) for o in others],
                   [_size_source(ev, x, body, r) for x, _, _ in pairs for r in (claim["layout"], claim["against"])],
                   _bytes_covers(ev))


def rule_growth(ev, claim):
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
    if not deltas:
        return Outcome(None, absent="no 32-bit sizes given")
    flat = sorted({r for r, d in deltas if d <= 0})
    grown = [d for r, d in deltas if r not in flat]
    flat_text = ", ".join(f"{r} ({'/'.join(f'{d:+d}' for d in sorted({d for x, d in deltas if x == r}))} B)"
                          for r in flat)
    return Outcome("some" if flat else "all",
                   {"range": f"+{min(grown)} to +{max(grown)} B" if grown else "+0 B", "flat": flat_text},
                   text(body, rows), [t for b in others for t in text(b, grow(b))],
                   [_size_source(ev, abi, body, r) for abi, _, ds in rows for r, _ in ds],
                   f"bytes: pahole on {', '.join(abis.ILP32)} only (no 64-bit figure in this row); "
                   f"sizes checked against a kernel: {ev.checked or 'unchecked'}")


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
    if claim.get("timing"):  # the same pair on this host, paired; a figure beside, never the ruling
        from y2038lab.report.runtime import timing
        family, (a, b) = claim["timing"], claim.get("timing_ops", (base, other))
        beside_time = [timing(ev, family, a.split("/")[0], b.split("/")[0], "" if family == "fstime"
                              else "v6", claim.get("timing_where", layout))]
    same = [v for v, a, b, _, _ in rows if a == b]
    if "x86_64" in same and any("beyond its negative control" in t for t in beside_time):  # a figure to explain
        beside_time[-1] += "; the counted pair has the same instruction count on x86_64 (qemu-user): the counts do not explain it"
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


def rule_sites_share(ev, claim):
    if not ev.churn:
        return Outcome(None, absent="no churn tables given")
    shares, figures, sources, trees = [], [], [], _trees(ev, claim)
    for tree, table in trees:
        t = table["total"]
        setget = t["setattr_sites"] + t["getattr_sites"]
        shares.append(setget / t["boundary_sites"] if t["boundary_sites"] else 0.0)
        line = f"{setget} of {t['boundary_sites']} boundary sites ({_pct(setget, t['boundary_sites'])})"
        if "member_accesses" in t:  # the rest, as reports/churn words it
            line += (f"; tv_sec/tv_nsec uses {t['member_accesses']}, copies into filesystem structures "
                     f"{t['struct_copies']}, values and addresses given to filesystem functions "
                     f"{t['value_passed'] + t['address_passed']}, update_time implementations "
                     f"{t.get('update_time_sites', 0)}")
        bounds = (f" (bounds: {t.get('unparsed_files', 0)} files spatch could not parse, "
                  f"{t.get('unresolved', 0)} unresolved accesses)" if "unresolved" in t else "")
        figures.append(f"{tree}: setattr and getattr sites are {line}{bounds} (Coccinelle)")
        sources.append((table["path"][:-4] + ".md", f"setattr and getattr sites are {line}"))
    tree, t = trees[0][0], trees[0][1]["total"]
    setget, opaque = t["setattr_sites"] + t["getattr_sites"], t["boundary_sites"] - t.get("member_accesses", 0)
    return Outcome("most" if shares[0] > 0.5 else "few",
                   {"shares": f"{setget} of {t['boundary_sites']} boundary sites ({100 * shares[0]:.1f} %) on {tree} "
                              "with the VFS type opaque; if tv_sec/tv_nsec uses compile unchanged (timespec64), "
                              f"{setget} of {opaque} ({_pct(setget, opaque)})"},
                   figures[:1], figures[1:], sources,
                   "sites: Coccinelle on " + ", ".join(name for name, _ in trees))


def rule_sites_count(ev, claim):
    if not ev.churn:
        return Outcome(None, absent="no churn tables given")
    figures, sources, verdicts = [], [], []
    _holds = lambda claim, n: "holds" if claim["low"] <= n <= claim["high"] else "does not hold"  # noqa: E731
    for tree, table in _trees(ev, claim):
        fs = [r for r in table["rows"] if r.get("kind") == "filesystem"]
        # the churn report's own counts where its TOTAL row has them, else the same sums here
        strict = table["total"].get("bergmann_fs", sum(1 for r in fs if r["local_copies"] + r["address_passed"]))
        wide = table["total"].get("bergmann_wide_fs", sum(
            1 for r in fs if r["local_copies"] + r["address_passed"] + r["struct_copies"] + r["value_passed"]))
        touching = sum(1 for r in fs if r["reads"] + r["writes"] > 0)
        verdicts.append((_holds(claim, strict), _holds(claim, wide)))
        t = table["total"]
        low = "at least " if t.get("unresolved") or t.get("unparsed_files") else ""  # what spatch could not read
        bound = low and f"; {t.get('unresolved', 0)} accesses of unknown type, {t.get('unparsed_files', 0)} unparsed files"
        figures.append(f"{tree}: {low}{strict} of {touching} file systems on the strict reading, {low}{wide} counting "
                       f"copies into their own structures and values passed{bound} (Coccinelle)")
        sources.append((table["path"][:-4] + ".md", f"it {_holds(claim, strict)} on this tree for the strict "
                                                    f"reading and {_holds(claim, wide)} for the wide one"))
    strict_ok, wide_ok = (verdicts[0][i] == "holds" for i in (0, 1))
    key = "both" if strict_ok and wide_ok else "wide" if wide_ok else "strict" if strict_ok else "neither"
    return Outcome(key, {"counts": figures[0].split(" (Coccinelle)")[0]}, figures[:1], figures[1:], sources,
                   f"sites: Coccinelle on {', '.join(t for t, _ in _trees(ev, claim))}; 'roughly 30' read as "
                   f"{claim['low']} to {claim['high']}")


def rule_tests(ev, claim):
    return Outcome("shown", {}, list(claim["tests"]), covers="tests: CTest (deterministic, every preset)")


RULES = {"slab": rule_slab, "same_size": rule_same_size, "reorder": rule_reorder,
         "saving_share": rule_saving_share, "growth": rule_growth, "instructions": rule_instructions,
         "sites_share": rule_sites_share, "sites_count": rule_sites_count, "tests": rule_tests}


def rule(claim, ev, rules):
    """The Ruling of one claim row under RULES (name -> function)."""
    fn = rules.get(claim["rule"])
    if fn is None:
        raise fsio.InputError(f"claims.toml: claim {claim['key']}: no rule {claim['rule']!r}")
    out = fn(ev, claim)
    if out.key is None:
        return Ruling(claim, f"{NOT_MEASURABLE}: {out.absent}", [], [], [], out.covers or "nothing given")
    return Ruling(claim, claim["words"][out.key].format(**out.values), out.figures[:3], out.beside, out.sources,
                  out.covers)
