"""reports/kernel/: what the real kernels gave, beside what the replicas and the SLUB model say.

Every figure comes from a kernel's own KTAP (kernel.ktap) and names its kind: a
byte count (sizeof, offsetof, ksize and slab pages, read inside the kernel), a
test result, or a timing (UML on this host: a kernel running as a process, the boot
the unit).  The replica's figures are the committed pahole tables
(reports/layouts/sizes-<abi>.csv, body v6) and, where a CMake build of the layout
probes is at hand, pahole on the replica beside pahole on the kernel's vmlinux,
member by member (layouts.kernel.compare).
"""
import hashlib
import itertools
import os
import re

from y2038lab.core import fsio, markdown, paired, reprs
from y2038lab.kernel import tree
from y2038lab.layouts import kernel as kernel_check, pahole, slub_model

LAYOUTS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "reports", "layouts")
OWN_SUITES = ("y2038_inode_layout", "y2038_inode_time", "y2038_inode_slab", "y2038_inode_timing")
CSV_FIELDS = ["arch", "abi", "repr", "sizeof_inode", "replica_size", "delta_vs_reference", "replica_delta",
              "members", "replica_members_differ", "cache", "object_size", "ksize", "model_ksize", "objperslab",
              "model_objperslab", "pagesperslab", "model_pagesperslab", "inodes", "slab_bytes",
              "model_slab_bytes", "page_size", "own_passed", "own_failed", "kernel_suites", "failed_cases",
              "not_exact", "build_min", "tree", "config", "command", "commit", "date"]
TIMING_FIELDS = ["round", "repr", "path", "ps_per_op", "pair_ratio"]


def replica_sizes(abi):
    """{repr: sizeof} of body v6 in the committed pahole table of ABI ({} when absent)."""
    path = os.path.join(LAYOUTS, f"sizes-{abi}.csv")
    if not os.path.exists(path):
        return {}
    return {r["repr"]: int(r["size"]) for r in fsio.read_csv(path, ["abi", "body", "repr", "size"])[1]
            if r["body"] == "v6"}


def member_diff(builds, abi, repr_, vmlinux):
    """pahole of the kernel's struct inode against the v6/REPR replica probe of ABI: the differing
    members ("" when identical), or None without a probe or DWARF."""
    builds = [b for b in builds if os.path.exists(os.path.join(b, "layout_abi.txt"))]  # presets built
    probes = [p for a, _, ps in pahole.discover(builds) if a == abi for p in ps if p[:2] == ("v6", repr_)]
    if not probes or not os.path.exists(vmlinux):
        return None
    kernel = pahole.parse_struct(pahole.pahole(abi, vmlinux, "-C", "inode"), "inode", vmlinux)
    replica = pahole.parse_struct(pahole.pahole(abi, probes[0][2], "-C", "inode"), "inode", probes[0][2])
    if kernel is None or replica is None:
        return None
    return "; ".join(kernel_check.compare(kernel, replica))


def hunk_origin(repr_):
    """What REPR's hunk says the tree stores (its y2038 comment in fs.h), one line."""
    text = fsio.read_text(tree.hunks()[repr_], "kernel hunk")
    lines = [x[4:].strip() for x in text.splitlines() if x.startswith("+ * ")]
    said = " ".join(lines)
    m = re.search(r"stores its timestamps as (.*?)\. What the lab", said)
    return m[1] if m else "(the hunk states no origin)"


# Why a real struct inode differs from the replica where pahole finds it so (the members named
# in the table): facts of the two trees and of UML, not guesses.
WHY = [("i_lock: 0 B", "UML has no SMP: spinlock_t is empty, and the locks inside i_rwsem and i_data shrink "
        "with it (the replica assumes SMP)"),
       ("i_linklen only in the replica", "i_linklen is Linux 6.18's (the v6 body models 6.18.26, where it shares "
        "a union with i_devices); in 6.12 i_devices is a plain list_head")]


def slab_model(fig, bits):
    """(ksize, objects per slab, pages per slab, slab bytes) the lab's SLUB model gives for the
    object size the kernel printed (one CPU: UML and the qemu machines boot one); bytes for as many
    inodes as the kernel allocated."""
    size = slub_model.cache_object_size(int(fig["object_size"]), word=bits // 8)
    objs, pages = slub_model.slab_geometry(size, 1)
    return size, objs, pages, slub_model.memory_per_objects(size, 1, int(fig["inodes"]))


ARCH_ABI = {"um": "x86_64", "i386": "i386", "arm": "armhf"}
# A board's KTAP: the ABI from the machine its layout line names (uname -m).
MACHINE_ABI = {"x86_64": "x86_64", "i686": "i386", "i586": "i386", "armv7l": "armhf", "armv8l": "armhf",
               "aarch64": "aarch64", "riscv64": "riscv64"}


def slab_note(r):
    """'' where the kernel's slabs equal the model's; else how many slabs more or fewer, and why when they
    are the few partly filled slabs (the CPU's slab and its partial list) the test's first objects fill."""
    slab = int(r["pagesperslab"]) * int(r["page_size"]) if r.get("page_size") else None
    extra = (r["slab_bytes"] - r["model_slab_bytes"]) / slab if slab else None
    if extra == 0:
        return ""
    if extra is not None and extra == int(extra) and 1 <= extra <= 3:
        return (f" (+{extra:g} slab{'s' if extra > 1 else ''}, not attributed: slabs the cache already had partly "
                "filled, counted whole, would give this; the test does not count other objects)")
    return f" (differ: {extra:+g} slabs)" if extra is not None else " (differ)"


def rows_of(results, meta):
    rows = []
    refs = {a: r for (a, rp), r in results.items() if rp == reprs.REFERENCE}
    for (arch, repr_), (run, _, seconds) in results.items():
        lay = run.figure("layout")
        if not lay:
            raise fsio.InputError(f"{run.source}: no 'y2038: layout' line (not the y2038_inode_kunit suite)")
        lay = lay[0]
        abi = ARCH_ABI.get(arch) or MACHINE_ABI.get(lay["machine"], lay["machine"])
        ref = refs.get(arch)
        ref_size = int(ref[0].figure("layout")[0]["sizeof_inode"]) if ref else None
        replica = replica_sizes(abi)
        vmlinux = os.path.join(meta["build_dirs"].get((arch, repr_), ""), "vmlinux")
        diff = member_diff(meta["builds"], abi, repr_, vmlinux) if meta["builds"] else None
        suites = run.suites()
        own = [suites.get(s, (0, 0, 0)) for s in OWN_SUITES]
        not_exact = sorted({f["case"] for f in run.figure("stored") if f["how"] != "exact"},
                           key=lambda c: [f["case"] for f in run.figure("stored")].index(c))
        base = {"arch": arch, "abi": abi, "repr": repr_, "sizeof_inode": lay["sizeof_inode"],
                "replica_size": replica.get(repr_, ""),
                "delta_vs_reference": int(lay["sizeof_inode"]) - ref_size if ref_size else "",
                "replica_delta": replica[repr_] - replica[reprs.REFERENCE]
                if repr_ in replica and reprs.REFERENCE in replica else "",
                "members": " ".join(f"{m['name']}@{m['offset']}+{m['size']}" for m in run.figure("member")),
                "replica_members_differ": "(no probe or DWARF)" if diff is None else diff or "none",
                "own_passed": sum(p for p, _, _ in own), "own_failed": sum(f for _, f, _ in own),
                "kernel_suites": " ".join(f"{s}:{p}/{p + f}" for s, (p, f, _) in sorted(suites.items())
                                          if s not in OWN_SUITES),
                "failed_cases": "; ".join(c.name for c in run.failed),
                "not_exact": "; ".join(f"{c}: {next(f['how'] for f in run.figure('stored') if f['case'] == c)}"
                                       for c in not_exact),
                "build_min": f"{seconds / 60:.1f}", "tree": meta["tree"],
                "config": "kernel/kunitconfig + kernel-check block, sha256 "
                          + hashlib.sha256(meta["config"].get(arch, "").encode()).hexdigest()[:12],
                "command": meta["command"],
                "commit": meta["commit"], "date": meta["date"]}
        for fig in run.figure("slab"):
            ksize, objs, pages, mem = slab_model(fig, int(lay["bits_per_long"]))
            rows.append(dict(base, cache=fig["cache"], object_size=fig["object_size"], ksize=fig["ksize"],
                             model_ksize=ksize, objperslab=fig["objperslab"], model_objperslab=objs,
                             pagesperslab=fig["pagesperslab"], model_pagesperslab=pages,
                             inodes=fig["inodes"], slab_bytes=int(fig["slab_bytes"]), model_slab_bytes=mem,
                             page_size=fig["page_size"]))
        if not run.figure("slab"):
            rows.append(base)
    return rows


# timestamp_truncate() reads only the inode's i_sb, at the same offset in every representation: each
# kernel runs the same machine code for it, so every ratio on that path is a control of code placement.
PLACEMENT_PATH = "timestamp_truncate"


def mtime_twins(results):
    """[(a, b)]: pairs of representations, neither the reference, whose UML kernels lay out the mtime
    members alike (the suite's member lines) and whose hunks add the same mtime lines: their mtime paths
    run the same machine code at other addresses."""
    def mtime_lines(r):
        return [x for x in fsio.read_text(tree.hunks()[r], "kernel hunk").splitlines()
                if x.startswith("+") and "mtime" in x and not x.startswith("+++")]
    lay = {r: [(f["name"], f["offset"], f["size"]) for f in run.figure("member") if "mtime" in f["name"]]
           for (arch, r), (run, _, _) in results.items() if arch == "um" and r != reprs.REFERENCE}
    return [(a, b) for a, b in itertools.combinations(sorted(lay), 2)
            if lay[a] == lay[b] and mtime_lines(a) == mtime_lines(b)]


def timing(rounds, twins=()):
    """[(path, repr, (ratio, lo, hi, p), kind)] of each representation's per-boot time against the
    reference of the same round, of each pair of TWINS (mtime_twins) on the mtime paths, and the positive
    control (generic_fillattr x17/16 inside each reference boot); kind: negative (the twin, the same code on LP64), positive, compare."""
    by = {}
    for k, r, paths, pair in rounds:
        by[(k, r)] = (paths, pair)
    out = []
    reprs_ = sorted({r for _, r, _, _ in rounds} - {reprs.REFERENCE})
    paths = sorted({p for _, _, ps, _ in rounds for p in ps})
    for path in paths:
        for r in reprs_:
            ratios = [by[(k, r)][0][path] / by[(k, reprs.REFERENCE)][0][path]
                      for k, rr, _, _ in rounds if rr == r and (k, reprs.REFERENCE) in by]
            out.append((path, r, paired.analyse(ratios),
                        "negative" if r == reprs.TWIN or path == PLACEMENT_PATH else "compare"))
    for a, b in twins:  # the same mtime code at other addresses: a second negative control, of placement
        for path in [p for p in paths if "mtime" in p]:
            ratios = [by[(k, a)][0][path] / by[(k, b)][0][path] for k, rr, _, _ in rounds if rr == b and (k, a) in by]
            if len(ratios) >= paired.MIN_N:
                out.append((path, f"{a}/{b}", paired.analyse(ratios), "negative"))
    pos = [pair for _, r, _, pair in rounds if r == reprs.REFERENCE and pair]
    if pos:
        out.append(("generic_fillattr_x17", reprs.REFERENCE, paired.analyse(pos), "positive"))
    return out


def positive_text(stat):
    """The positive control against its nominal ratio 1.0625 (17 calls against 16), judged as the user-space
    report judges it: detected (1 outside the interval), whether its interval holds 1.0625, and whether the
    estimate is within 0.5 % of it."""
    ratio, lo, hi, p = stat
    if lo is None:
        return f"x{ratio:.4f} (too few boots)"
    off = ratio / 1.0625 - 1
    return (f"x{ratio:.4f} [{lo:.4f}, {hi:.4f}], p = {p:.3g} (nominal 1.0625, {100 * off:+.2f} % off): "
            + ("detected" if lo > 1 else "not detected")
            + ("" if lo <= 1.0625 <= hi else ", its interval misses 1.0625")
            + ("" if abs(off) <= paired.POSITIVE_LIMIT else " and its estimate is off by more than ±0.5 %"))


def fmt(stat, band=None, control=False):
    """A ratio, its interval and p; a difference only where the interval also clears BAND, how far
    the same path's negative control reaches from 1 (the twin kernels' own difference).  CONTROL: the
    same code on both sides, whose interval off 1 is placement, not a difference (it makes the band)."""
    ratio, lo, hi, p = stat
    if lo is None:
        return f"x{ratio:.4f} (too few boots)"
    if lo <= 1 <= hi:
        verdict = paired.NO_DIFFERENCE
    elif control:
        verdict = "1 outside its interval though the code is the same: placement, counted in the band"
    elif band is not None and lo < 1 + band and hi > 1 / (1 + band):  # the interval does not clear the band
        verdict = f"{paired.WITHIN} (±{100 * band:.2f} %)"
    else:
        verdict = paired.DIFFERENCE
    return f"x{ratio:.4f} [{lo:.4f}, {hi:.4f}], p = {p:.3g}: {verdict}"


def headline(rows, tree_name):
    """README's table: per representation and ABI, the real sizeof and the slab bytes per inode of
    shmem_inode_cache, inside summary markers."""
    abis_ = list(dict.fromkeys(r["abi"] for r in rows))
    cell = {(r["repr"], r["abi"]): r for r in rows if r.get("cache") in (None, "shmem_inode_cache")}
    how = {"um": "UML: 1 CPU, no SMP", "i386": "qemu", "arm": "qemu"}
    body = markdown.table(["repr"] + [f"{a} ({how.get(cell[next(k for k in cell if k[1] == a)]['arch'], 'board')})"
                                      for a in abis_],
                          [[r] + [f"{c['sizeof_inode']} B, {c['slab_bytes'] / int(c['inodes']):.1f} B/inode"
                                  if (c := cell.get((r, a))) and c.get("cache") else (c or {}).get("sizeof_inode", "-")
                                  for a in abis_] for r in dict.fromkeys(r["repr"] for r in rows)])
    stores = [f"- `{r}`: {hunk_origin(r)}" for r in dict.fromkeys(r["repr"] for r in rows)]
    return ["## Headline", "", "<!-- summary -->",
            f"In a real kernel ({tree_name}; KUnit, `scripts/lab kernel`): `sizeof(struct inode)` "
            "and the slab bytes per tmpfs inode (shmem_inode_cache, 10^5 inodes), byte counts read in the booted "
            "kernels:", ""] + body + ["", "What each row's kernel stores, and what of its representation it has "
                                      "(its hunk, layouts/repr_<repr>.kernel.patch, says so):", ""] + stores + [
            "<!-- /summary -->", ""]


def render(results, rounds, meta):
    """{file name under OUT: text}: KERNEL.md, kernel.csv, timing.csv, ktap/<arch>-<repr>.ktap."""
    rows = rows_of(results, meta)
    stats = timing(rounds, mtime_twins(results)) if rounds else []
    md = ["# struct inode timestamps in a real kernel", "",
          markdown.generated(meta["command"], f"; commit {meta['commit']}"), ""]
    md += markdown.facts([("Tree", meta["tree"]), ("Kernels", meta.get("kernels", "UML (ARCH=um, x86_64) runs as a "
                           "process of this host; i386 and arm under qemu-system (software emulation: no timings there)")),
                          ("Config", meta.get("config_note", "kernel/kunitconfig + the kernel-check block of "
                           "layouts/kernel_standins.h (UML without CONFIG_SMP and the options that need it; full text "
                           "below)")),
                          ("Built and run by", f"`{meta['command']}` in {meta['elapsed'] / 60:.0f} min (builds "
                           f"{sum(x[2] for x in results.values()) / 60:.1f} min of it: a build whose kernel was "
                           "there redoes only what changed) on "
                           f"{meta['host']}, {meta['cpus']} CPUs, {meta['date']}"),
                          ("Hunks", "kernel/kunit.patch and layouts/repr_<repr>.kernel.patch against that tree; "
                           "the KUnit suite kernel/y2038_inode_kunit.c")])
    md += headline(rows, meta["tree"])
    md += ["## Size of struct inode (bytes, the kernel's sizeof)", "",
           "Real: `sizeof(struct inode)` printed by y2038_inode_layout in the booted kernel.  Replica: pahole "
           "of the v6 body (reports/layouts/sizes-<abi>.csv), which assumes SMP: on UML (no SMP) spinlock_t "
           f"is empty, so compare the deltas against {reprs.REFERENCE} there; members: pahole of the kernel's vmlinux "
           "against the replica, member by member.", ""]
    md += markdown.table(["ABI (kernel)", "repr", "real", "replica", f"real Δ vs {reprs.REFERENCE}", "replica Δ",
                          "timestamp members (offset+size)", "members that differ from the replica"],
                         [[f"{r['abi']} ({r['arch']})", r["repr"], r["sizeof_inode"], r["replica_size"],
                           r["delta_vs_reference"], r["replica_delta"], r["members"], r["replica_members_differ"]]
                          for r in rows if r.get("cache") in (None, "shmem_inode_cache")], "llrrrr") + [""]
    diffs = " ".join(r["replica_members_differ"] for r in rows)
    md += [f"- {why} ({what})." for what, why in WHY if what in diffs] + [""]
    md += ["## Slab memory per inode (bytes, the kernel's own slabs)", "",
           "y2038_inode_slab allocates 10^5 inodes of each cache and sums the slabs that hold them "
           "(each object's folio): the slot (ksize), objects in the fullest slab, its pages, and the slab "
           "bytes of the 10^5 inodes.  Model: the lab's SLUB model (layouts/slub_model.py) for the object size the "
           "kernel printed, one CPU.", ""]
    md += markdown.table(["ABI", "repr", "cache", "object", "ksize real / model", "objs/slab real / model",
                          "pages real / model", "slab bytes real / model",
                          "bytes per inode: real (slab bytes / inodes) / model (slab / objects in it)"],
                         [[r["abi"], r["repr"], r["cache"], r["object_size"], f"{r['ksize']} / {r['model_ksize']}",
                           f"{r['objperslab']} / {r['model_objperslab']}",
                           f"{r['pagesperslab']} / {r['model_pagesperslab']}",
                           f"{r['slab_bytes']:,} / {r['model_slab_bytes']:,}" + slab_note(r),
                           f"{r['slab_bytes'] / int(r['inodes']):.2f} / "
                           f"{int(r['model_pagesperslab']) * int(r['page_size']) / int(r['model_objperslab']):.2f}"]
                          for r in rows if r.get("cache")], "lllr") + [""]
    md += ["## Correctness on the real code", "",
           "The lab's suites (accessors, generic_fillattr(), inode_update_timestamps(), file_update_time(), "
           "atime_needs_update(), timestamp_truncate() and inode_set_ctime_current() under six file systems' "
           "ranges, on tmpfs inodes, 28 edge instants) and the kernel's own suites that touch timestamps.  "
           "Each edge stores exactly, or as the representation's hunk documents (clamped, wrapped): the "
           "instants that do not store exactly are listed.", ""]
    seen = set()
    md += markdown.table(["ABI", "repr", "lab's cases passed / failed", "kernel's suites (passed/total)",
                          "failing cases", "edges not stored exactly"],
                         [[r["abi"], r["repr"], f"{r['own_passed']} / {r['own_failed']}", r["kernel_suites"],
                           r["failed_cases"] or "none", r["not_exact"] or "none (all exact)"]
                          for r in rows if (r["arch"], r["repr"]) not in seen and not seen.add((r["arch"], r["repr"]))])
    md += [""]
    if stats:
        res = sorted(max(s[2] - 1, 1 / s[1] - 1) for p, r, s, k in stats if k == "negative" and r == reprs.TWIN
                     and s[1] is not None)
        md += ["## Timings in the kernel (UML on this host; the boot is the unit)", "",
               f"{len({k for k, _, _, _ in rounds})} rounds of boots, each the reference then every other "
               "representation (rotated); per boot the median over 301 blocks of at least 64 µs of each path's "
               "time per operation; per representation and path the ratio to the same round's reference boot, "
               "Wilcoxon signed-rank test and Hodges-Lehmann 95 % interval over rounds.  Negative control: "
               f"{reprs.TWIN} against {reprs.REFERENCE} (the same code on x86_64, two kernels); positive: "
               "17 calls of generic_fillattr() against 16 inside each reference boot (nominal ratio 1.0625).  Resolution "
               f"(median reach of the {reprs.TWIN} / {reprs.REFERENCE} intervals from 1): "
               f"{'±%.2f%%' % (100 * res[len(res) // 2]) if res else 'n/a'}.", ""]
        paths = sorted({p for p, _, _, k in stats if k != "positive"})
        others = sorted({r for _, r, _, k in stats if k != "positive"}, key=lambda r: (r != reprs.TWIN, r))
        cell = {(p, r): s for p, r, s, _ in stats}
        reach = [max(s[2] - 1, 1 / s[1] - 1, abs(s[0] - 1)) for _, _, s, k in stats if k == "negative" and s[1]]
        band = max(reach) if reach else None
        place = [(p, r, s) for p, r, s, k in stats if "/" in r]
        others = [r for r in others if "/" not in r]
        md += markdown.table(["path"] + [f"{r} / {reprs.REFERENCE}" for r in others],
                             [[p + (" (placement control)" if p == PLACEMENT_PATH else "")]
                              + [fmt(cell[(p, r)], band, control=r == reprs.TWIN or p == PLACEMENT_PATH)
                                 for r in others] for p in paths]) + [""]
        md += ["Code placement: " + "; ".join(f"{p}, {r.replace('/', ' against ')} (the same machine code at "
                                               f"other addresses): {fmt(s, control=True)}" for p, r, s in place)
               + f"; and {PLACEMENT_PATH}() on every row of its line (the same machine code in every kernel)."
               if place else "", "",
               "So a ratio says how a kernel built with that representation runs, placement included; a cell "
               f"reads *difference* only where its interval clears the widest negative control (±{100 * band:.1f} "
               f"%, both kinds), else *{paired.WITHIN}*." if band else "", ""]
        pos = [s for _, _, s, k in stats if k == "positive"]
        md += [f"Positive control: {positive_text(pos[0])}" if pos else "No positive control in these boots.", ""]
    if meta.get("unbuilt"):
        md += ["## Not measured in this run", "", "Not built when this run booted the others (each is a full kernel "
               f"build; `scripts/lab kernel --arch A --repr R` builds it): {', '.join(meta['unbuilt'])}.", ""]
    md += ["## Configuration", ""]
    for arch, text in meta["config"].items():
        md += [f"`{arch}`: " + ", ".join(x for x in text.splitlines() if x and not x.startswith("# the ")), ""]
    files = {"KERNEL.md": "\n".join(md).rstrip() + "\n", "kernel.csv": fsio.csv_text(rows, CSV_FIELDS),
             "timing.csv": fsio.csv_text([{"round": k + 1, "repr": r, "path": p, "ps_per_op": v,
                                           "pair_ratio": pair or ""}
                                          for k, r, paths, pair in rounds for p, v in sorted(paths.items())],
                                         TIMING_FIELDS)}
    for (arch, repr_), (_, raw, _) in results.items():
        files[os.path.join("ktap", f"{arch}-{repr_}.ktap")] = raw
    return files
