"""`scripts/lab merge FILE...`: one report across result sets (host and boards).

Each FILE is the suite's JSON of one set (`boards merge --help` names the three kinds).  The report
(reports/merged/REPORT.md, or --out) sets side by side, per set: what ran where (emulated sets are
marked on every table), sizeof(struct inode) per ABI (pahole), objects per slab with each set's own
CPU count (SLUB model), the headline benchmarks (boards/headline.txt): ns per iteration and the
ratio against REFERENCE of the same body in the same set, with compare_to_reference()'s statistics,
and the paired protocol's figures of each set that has them (a host run, a board's run.sh): the
resolution per family and the headline operations' paired comparisons, over the set's processes
(y2038lab.core.paired, as each set's own report has them).
"""
import os
import statistics

from y2038lab.boards import lava
from y2038lab.core import abis, fsio, markdown, paired, results, sizes, stats
from y2038lab.layouts import slub_model
from y2038lab.core.reprs import REFERENCE, TWIN


def compare_to_reference(ref, samples, twin, abi):
    """(ratio, verdict) of SAMPLES against REF (per-repetition ns lists; a LAVA set has one median each).
    The one place the merge's statistics live: y2038lab.core.stats (U test, ratio interval, twin band)."""
    comp = stats.compare(ref, samples)
    lp64 = abi in abis.LP64
    band = stats.null_band(stats.compare(ref, twin)) if lp64 and twin else None
    return comp.ratio, stats.judge(comp, band, controlled=lp64).status


class ResultSet:
    """One suite JSON: its label, facts and per-repetition samples."""

    def __init__(self, path):
        run = results.load_run(path)  # the one parser and checker of benchmark JSON
        c = self.context = run.context
        self.path, self.reprs = path, run.reprs
        self.abi = c.get("y2038_abi") or "?"
        self.emulated = str(c.get("y2038_board_emulated", "no")).startswith("yes")
        self.source = "LAVA" if str(c.get("y2038_source", "")).startswith("LAVA") else \
            "board" if "y2038_board" in c else "host"
        who = c.get("y2038_board") or c.get("host_name") or "?"
        self.label = f"{self.abi} {who}" + (" (EMULATED)" if self.emulated else
                                            " (host)" if self.source == "host" else "")
        try:
            self.cpus = int(c.get("y2038_board_present_cpus") or c.get("num_cpus") or 0)
        except (TypeError, ValueError):
            self.cpus = 0
        self.kernel = c.get("y2038_board_kernel", "not recorded")
        self.samples = {rec.name: list(rec.real_ns) for rec in run.records.values() if rec.real_ns}
        self.medians = {rec.name: m for rec in run.records.values()
                        if (m := rec.aggregates.get("real_ns", {}).get("median")) is not None}
        self.pairs = paired.comparisons(run)
        self.resolution = paired.resolution(run, self.pairs)
        plan = {p.get("pass"): p for p in c.get("y2038_run_plan") or [] if isinstance(p, dict)}
        self.units = plan.get("paired", {}).get("units") or plan.get("paired", {}).get("processes")

    def figure(self, name):
        """(median ns, samples) of a run name, or None."""
        s = self.samples.get(name) or ([self.medians[name]] if name in self.medians else None)
        return s and (self.medians.get(name, statistics.median(s)), s)

    def facts_row(self):
        c = self.context
        cpu = c.get("y2038_board_cpu") or f"{c.get('num_cpus', '?')} x {c.get('mhz_per_cpu', '?')} MHz"
        reps = sorted({len(s) for s in self.samples.values()}) or ["medians only"]
        return [self.label, self.abi, c.get("y2038_board_machine") or c.get("host_name", "?"), cpu, self.kernel,
                str(c.get("date", "?"))[:16], f"{c.get('y2038_board_mode') or c.get('y2038_mode', '?')}, "
                f"{'/'.join(map(str, reps))} repetition{'' if reps == [1] else 's'}", f"{self.source}: `{os.path.basename(self.path)}`"]


def sizes_section(sets, top):
    abi_list = list(dict.fromkeys(s.abi for s in sets))
    folder = os.path.join(top, "reports", "layouts")
    table = {(abi, r["body"], r["repr"]): r["size"] for abi in abi_list for r in sizes.load(folder, abi) or ()}
    reprs = list(dict.fromkeys(r for (_, _, r) in table))
    cols = [(a, b) for a in abi_list for b in ("v4_4", "v6") if any((a, b, r) in table for r in reprs)]
    out = ["## sizeof(struct inode), bytes", "", "From pahole on the cross builds (`scripts/lab pahole`, "
           "reports/layouts/sizes-<abi>.csv), per ABI of the sets.", ""]
    out += markdown.table(["repr"] + [f"{a} {b}" for a, b in cols],
                          [[r] + [table.get((a, b, r), "-") for a, b in cols] for r in reprs], "l" + "r" * len(cols))
    return out + [""], table


def slab_section(sets, table):
    reprs = list(dict.fromkeys(r for (_, b, r) in table if b == "v6"))
    out = ["## Objects per slab: inode_cache, body v6", "",
           "python3 -m y2038lab slub-model with each set's own CPU count (a board's present CPUs, the host's "
           "online CPUs) and the order algorithm of its kernel (v6.8 when not recorded); "
           "cells: objects / pages per slab (objsize).", ""]

    def cell(s, r):
        size = table.get((s.abi, "v6", r))
        if size is None or s.cpus < 1:
            return "-"
        objsize = slub_model.cache_object_size(size, word=abis.word(s.abi))
        objs, pages = slub_model.slab_geometry(objsize, s.cpus, slub_model.calc_for(s.kernel))
        return f"{objs} / {pages} ({objsize})"
    out += markdown.table(["repr"] + [f"{s.label}, {s.cpus} CPUs" for s in sets],
                          [[r] + [cell(s, r) for s in sets] for r in reprs])
    return out + [""]


def bench_section(sets, top):
    patterns = lava.headline_patterns(top)
    groups = {}
    for s in sets:
        for name in list(s.samples) + list(s.medians):
            parts = name.split("/")  # group: the operation key, its repr as "*"; its reprs in order
            if len(parts) >= 4 and any(p.search(name) for p in patterns):
                groups.setdefault("/".join(parts[:3] + ["*"] + parts[4:]), {})[parts[3]] = None
    out = ["## Headline benchmarks, side by side", "",
           "Real time per iteration in ns (the median of the set's repetitions), then the ratio against "
           f"`{REFERENCE}` of the same operation and body **in the same set** and the statistics' verdict "
           "(compare_to_reference). Times of different sets come from different machines: compare ratios "
           "across sets, not times. Headline benchmarks: boards/headline.txt.", ""]
    if any(s.emulated for s in sets):
        out += ["Columns marked EMULATED are qemu-user times on another machine: they show the bundle "
                "runs, they are not figures of that ABI.", ""]
    known = [r for s in sets for r in s.reprs]  # each set's y2038_layouts order
    order = lambda r: (known.index(r) if r in known else len(known), r)  # noqa: E731

    def cell(s, key, r):
        fig, ref, twin = (s.figure(key.replace("*", x)) for x in (r, REFERENCE, TWIN))
        if fig is None:
            return "-"
        if ref is None or r == REFERENCE:
            return f"{fig[0]:.3g}"
        ratio, verdict = compare_to_reference(ref[1], fig[1], twin[1] if twin else None, s.abi)
        return f"{fig[0]:.3g} (x{ratio:.3f}, {verdict})"
    for key in sorted(groups):
        out += [f"### {key}", ""] + markdown.table(["repr"] + [s.label for s in sets],
                                                   [[r] + [cell(s, key, r) for s in sets]
                                                    for r in sorted(groups[key], key=order)]) + [""]
    if not groups:
        out += ["No headline benchmark in any set.", ""]
    return out


def paired_section(sets, top):
    """Each set's resolution per family, then B/A of the paired benchmark behind each headline accessor
    benchmark (A = REFERENCE), its 95 % interval over the set's processes and its status."""
    with_pairs = [s for s in sets if s.pairs]
    if not with_pairs:
        return []
    patterns = lava.headline_patterns(top)
    out = ["## Paired comparisons, side by side", "",
           "The paired protocol of each set that ran it (`scripts/lab bench` on a host, run.sh on a board): A and B "
           "in alternating ~8 µs blocks, each process of the set one unit (y2038lab.core.paired; a board's processes of one link order one unit together). Resolution: the "
           "median over the family's negative controls of how far their 95 % interval reaches from 1, in that set. "
           "Sets without paired benchmarks (LAVA exports, older runs) are left out.", ""]
    if any(s.emulated for s in with_pairs):
        out += ["Columns marked EMULATED ran the protocol under qemu-user on another machine: their ratios, "
                "intervals and resolutions are not figures of that ABI.", ""]
    families = sorted({f for s in with_pairs for f in s.resolution} | {c.family for s in with_pairs for c in s.pairs})
    out += markdown.table(["family"] + [f"{s.label}, {s.units or '?'} units" for s in with_pairs],
                          [[f] + [f"±{s.resolution[f]:.2%}" if f in s.resolution else "-" for s in with_pairs]
                           for f in families]) + [""]
    cells = {}
    for s in with_pairs:
        for c in s.pairs:
            name = f"{c.family}/{c.operation}/{c.body}/{c.b}"
            if c.kind != "positive" and c.a == REFERENCE and c.body and any(p.search(name) for p in patterns):
                cells.setdefault((c.family, c.operation, c.body), {}).setdefault(c.b, {})[s.label] = c
    known = [r for s in sets for r in s.reprs]
    for (family, op, body), rows in sorted(cells.items()):
        out += [f"### paired/{family}/{op}/{body}/{REFERENCE}~*", ""] + markdown.table(
            ["repr"] + [s.label for s in with_pairs],
            [[r] + [(lambda c: "-" if c is None else f"{c.interval()}, {c.status}"
                     + (" (negative control)" if c.kind == "negative" else ""))(rows[r].get(s.label))
                    for s in with_pairs]
             for r in sorted(rows, key=lambda r: (known.index(r) if r in known else len(known), r))]) + [""]
    return out


def merge(paths, top, out=None):
    sets = [ResultSet(p) for p in paths]
    seen = {}
    for s in sets:
        seen[s.label] = seen.get(s.label, 0) + 1
        if seen[s.label] > 1:
            s.label += f" #{seen[s.label]}"
    out = out or os.path.join(top, "reports", "merged")
    report = os.path.join(out, "REPORT.md")
    os.makedirs(out, exist_ok=True)
    fsio.check_output_path(report)
    lines = ["# y2038 inode timestamp lab: merged report" +
             (" (includes EMULATED sets)" if any(s.emulated for s in sets) else ""), "",
             markdown.generated(f"scripts/lab merge {' '.join(os.path.relpath(p, top) for p in paths)}",
                                "; do not edit by hand."), ""]
    for s in sets:
        if s.emulated:
            why = str(s.context.get("y2038_board_emulated", "")).removeprefix("yes: ")
            lines += [f"> **{s.label}**: {why}. Its times are qemu-user times on another machine, "
                      "never a board figure.", ""]
    head = ("set", "ABI", "machine", "CPU", "kernel", "date", "mode", "source")
    lines += ["## Result sets", ""] + markdown.table(head, [s.facts_row() for s in sets]) + [""]
    size_lines, sizes = sizes_section(sets, top)
    lines += size_lines + slab_section(sets, sizes) + bench_section(sets, top) + paired_section(sets, top)
    fsio.write_text(report, "\n".join(lines).rstrip() + "\n")
    return report
