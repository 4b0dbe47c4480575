"""The layouts report: pahole reference set, size tables, slab model, live BTF comparison.

    python3 -m y2038lab layouts --build DIR [--build DIR ...] [--out reports] [--slabinfo FILE]
    python3 -m y2038lab layouts --check --build DIR [--out reports]     (CTest: pahole_reference)

writes, as one set (all files or none, fsio.OutputSet):
  OUT/pahole/<abi>/<body>-<repr>.txt        raw pahole output (reference set)
  OUT/pahole/<abi>/<body>-<repr>.reorg.txt  pahole -R -C inode suggestions
  OUT/pahole/MANIFEST.md                    tools, flags, host, date
  OUT/layouts/sizes-<abi>.{md,csv}          size table per ABI
  OUT/layouts/sizes.md                      all ABIs, with the command line
  OUT/layouts/slab.{md,csv}                 SLUB model (y2038lab.layouts.slab)
  OUT/layouts/btf-compare.md                live kernel BTF vs the replica kernel_standins.h names for it
Bodies and representations come from each build's layout_probes.txt (y2038lab.layouts.pahole);
pahole 1.24's quirks are stated in MANIFEST.md (generate()).
"""
import argparse
import os
import platform
import re
import shutil
import sys

from y2038lab.core import abis, fsio, markdown, reprs
from y2038lab.layouts import kernel, pahole, slab
from y2038lab.layouts.pahole import line_of, parse_struct, timestamp_members

HOT = ["i_mode", "i_uid", "i_gid", "i_size", "i_blocks"]
BTF = "/sys/kernel/btf/vmlinux"
COLUMNS = [("body", "body"), ("repr", "representation"), ("size", "sizeof(inode)"),
           ("delta_vs_reference", f"Δ vs {reprs.REFERENCE}"), ("ts_bytes", "timestamp bytes"),
           ("ts_span", "timestamp offsets"), ("holes", "holes"), ("padding", "tail padding"),
           ("cachelines", "cache lines"), ("ts_lines", "cache line of a/m/c time"),
           ("hot_lines", "cache line of stat()-hot members"), ("reorg_saves", "pahole -R saves"),
           ("ext4_inode_info", "ext4_inode_info"), ("msdos_inode_info", "msdos_inode_info"),
           ("cifsInodeInfo", "cifsInodeInfo")]


def layout_row(abi, body, repr_, raw, reorg, where):
    inode = parse_struct(raw, "inode", where)
    if inode is None:
        raise fsio.InputError(f"{where}: no struct inode in pahole's output")
    ts = timestamp_members(inode)
    if not ts:
        raise fsio.InputError(f"{where}: struct inode has no i_[amc]time* member")
    m = re.search(r"saved (\d+) bytes", reorg)
    row = {"abi": abi, "body": body, "repr": repr_, "size": inode["size"], "cachelines": inode["cachelines"],
           "holes": inode["holes"], "padding": inode["padding"], "reorg_saves": int(m.group(1)) if m else 0,
           "ts_bytes": sum(inode["members"][n][1] for n in ts),
           "ts_span": "%d-%d" % (min(inode["members"][n][0] for n in ts),
                                 max(sum(inode["members"][n]) for n in ts)),
           "ts_lines": " ".join(f"{n.replace('i_', '').replace('time', '')}:{line_of(*inode['members'][n])}"
                                for n in ts),
           "hot_lines": " ".join(f"{n[2:]}:{line_of(*inode['members'][n])}" for n in HOT),
           # one timestamp (i_atime*): "type member" and sizes, for the per-ABI table
           "one_ts": [(inode["types"][n], n, inode["members"][n][1]) for n in ts if n.startswith("i_atime")]}
    for _, struct in slab.CONTAINERS[1:]:
        info = parse_struct(raw, struct, where)
        if info is None:
            raise fsio.InputError(f"{where}: no struct {struct} in pahole's output")
        row[struct] = info["size"]
    return row


def table_md(rows):
    return "\n".join(markdown.table([h for _, h in COLUMNS], [
        [("%+d" % r[k] if k == "delta_vs_reference" and r.get(k) is not None else "-" if r.get(k) is None else r[k])
         for k, _ in COLUMNS] for r in rows]))


def size_tables(rows, abi_list, names, head):
    """{file name: text} of the per-ABI tables and sizes.md."""
    legend = (f"Cache lines are {pahole.CACHELINE}-byte lines counted from the start of the object "
              "(0 = first); `a:1` means i_atime lies in line 1, `1-2` straddles; for split "
              "representations (scalar, multigrain) the _sec fields come first, then _nsec.  holes = "
              "bytes between members, tail padding = bytes after the last member; `pahole -R saves` is "
              "what pahole's reorganisation would remove.  Containers are whole sizeof() values.")
    one = {r["repr"]: r["one_ts"] for r in rows if r["one_ts"]}
    head_cells = [f"{repr_}: " + " + ".join(f"`{t} {n}`" for t, n, _ in one[repr_]) for repr_ in names if repr_ in one]
    by_abi = {(r["abi"], r["repr"]): r for r in rows}
    md_all = (["# struct inode layouts: sizes per ABI", "", head, "", "## One timestamp, per ABI (sizeof from pahole)",
               ""] + markdown.table(["ABI"] + head_cells, [
                   [abi] + [" + ".join(str(s) for _, _, s in by_abi[abi, rp]["one_ts"]) if (abi, rp) in by_abi else "-"
                            for rp in names if rp in one] for abi in abi_list])
              + ["", legend, ""] + facts_table(rows, abi_list, names))
    files = {}
    for abi in abi_list:
        sub = [r for r in rows if r["abi"] == abi]
        files[f"sizes-{abi}.md"] = "\n".join([f"# struct inode layouts on {abi}", "", head, "", legend, "",
                                              table_md(sub), ""])
        columns = ["abi"] + [k for k, _ in COLUMNS] + list(reprs.COLUMNS)
        files[f"sizes-{abi}.csv"] = fsio.csv_text([dict(r, **r["facts"].row()) for r in sub], columns, "\r\n")
        md_all += [f"## {abi}", "", table_md(sub), ""]
    files["sizes.md"] = "\n".join(md_all)
    return files


def facts_table(rows, abi_list, names):
    """The representations as their headers state them (the probes' .y2038_repr section)."""
    facts = {(r["abi"], r["repr"]): r["facts"] for r in rows}
    rows = []
    for name in names:
        one = next(f for (_, n), f in facts.items() if n == name)
        safe = [abi for abi in abi_list if (abi, name) in facts and facts[(abi, name)].safe]
        rows.append((name, one.origin, "yes" if one.one_word else "no", "wraps" if one.wraps else "clamps",
                     ", ".join(safe) or "no ABI"))
    return ["## Representations (from their headers, read from the probe objects)", ""] + markdown.table(
        ("repr", "origin", "one word", "out of range", "holds 2038-01-19T03:14:08Z on"), rows) + [""]


def live_replica():
    """(body, repr) that layouts/kernel_standins.h's kernel-check block names for the running kernel's
    major.minor, else for the newest tree it names."""
    trees, _ = kernel.read_block()
    try:
        return kernel.body_for(platform.release(), trees)
    except fsio.InputError:
        return trees[max(trees, key=lambda v: tuple(map(int, v.split("."))))]


def btf_compare(raw_replica, layout, command, host, now, version):
    """(btf-compare.md text, live pahole text or None)."""
    md = [f"# Live kernel BTF vs the {layout.split('/')[0]} replica", "",
          f"Generated by `{command}` on {host}, {now}; `pahole -C inode {BTF}` (pahole {version}).", ""]
    live_text = None
    if not os.path.exists(BTF):
        md.append(f"No {BTF} on this host: comparison skipped.")
    elif raw_replica is None or platform.machine() != "x86_64":
        md.append(f"No x86_64 {layout} replica built on this {platform.machine()} host: comparison skipped.")
    else:
        try:
            live_text = fsio.run(["pahole", "-C", "inode", BTF])
            live = parse_struct(live_text, "inode", BTF)
        except fsio.InputError:
            live_text = live = None
        mine = parse_struct(raw_replica, "inode")
        if live is None:
            md.append(f"pahole could not read struct inode from {BTF}: comparison skipped.")
        else:
            md += [f"| | live kernel ({platform.release()}) | replica {layout} (x86_64) |", "|---|---|---|"] + [
                markdown.row((what, live[key], mine[key])) for what, key in (
                    ("sizeof(struct inode)", "size"), ("cache lines", "cachelines"), ("holes", "holes"))]
            md += [""] + markdown.table(("timestamp member", "live offset/size", "replica offset/size"), [
                [n] + ["%d/%d" % m if m else "absent" for m in (live["members"].get(n), mine["members"].get(n))]
                for n in timestamp_members(mine) + ["i_generation"]])
            diffs = kernel.compare(live, mine)
            md += ["", "The replica follows vanilla Linux 6.18.26, checked member by member on five ABIs by "
                   "`scripts/lab kernel-check` (reports/layouts/kernel-check.md), not this kernel: a member "
                   "only in the live kernel is its own (a vendor or newer addition), not copied into the replica.",
                   "", f"Differences, live kernel against the replica (causes first, then the members they moved; "
                   f"union members included): {'; '.join(diffs) if diffs else 'none'}."]
            md += ["", "The raw live output is kept in reports/pahole/btf-vmlinux-inode.txt."]
    return "\n".join(md) + "\n", live_text


def generate(args):
    now, host = markdown.now(), markdown.host()
    version = fsio.run(["pahole", "--version"]).strip()
    command = "scripts/lab pahole"
    slabinfo = slab.read_slabinfo(args.slabinfo)  # checked before any pahole run
    builds = pahole.discover(args.build)
    bodies, names = pahole.axes(builds)
    files, rows = {}, []
    manifest = ["# pahole reference set", "",
                f"Generated by `{command}` (python3 -m y2038lab layouts) on {host}, {now}, with pahole {version}.", "",
                f"Raw `pahole --cacheline_size=64 -C {','.join(pahole.STRUCTS)} <object>` per layout; `.reorg.txt` is"
                " `pahole --cacheline_size=64 -R -C inode <object>`"
                " (never with -S: pahole 1.24 crashes).  On i386 both runs add `--suppress_packed`: without it"
                " pahole 1.24 prints `__attribute__((__packed__))` after every struct holding a 4-aligned"
                " s64 (struct inode, timespec64), which is not a real packing; the flag also hides the real"
                " packing of the packed12 `struct inode_timespec` there (see layouts/repr_packed12.h)."
                " `pahole --compile` is not used: in 1.24 it works only from BTF, and these objects carry DWARF."
                " Reading this kernel's BTF, pahole 1.24 warns `Unknown kind 17/18` (newer BTF kinds) on"
                " stderr; the struct inode it prints is complete.", ""] + markdown.table(("ABI", "compiler", "flags", "objects"), [])
    for abi, build_dir, probes in builds:
        facts = reprs.from_build(build_dir)
        cache = fsio.cmake_cache(build_dir)
        manifest.append(markdown.row([abi, fsio.first_line([fsio.cmake_compiler(build_dir), "--version"]),
                                      f"`{fsio.cmake_flags(cache)} ({cache.get('CMAKE_BUILD_TYPE', '')})`",
                                      f"{os.path.relpath(build_dir)}/layouts/CMakeFiles/layout_probe_*.dir/layout_probe.c.o"]))
        for body, repr_, obj in probes:
            raw = pahole.pahole(abi, obj, "-C", ",".join(pahole.STRUCTS))
            reorg = pahole.pahole(abi, obj, "-R", "-C", "inode")
            base = os.path.join("pahole", abi, f"{body}-{repr_}")
            files[base + ".txt"], files[base + ".reorg.txt"] = raw, reorg
            rows.append(dict(layout_row(abi, body, repr_, raw, reorg, f"pahole of {obj}"), facts=facts[repr_]))
    files[os.path.join("pahole", "MANIFEST.md")] = "\n".join(manifest) + "\n"
    by_key = {(r["abi"], r["body"], r["repr"]): r for r in rows}
    for r in rows:
        ref = by_key.get((r["abi"], r["body"], reprs.REFERENCE))
        r["delta_vs_reference"] = r["size"] - ref["size"] if ref else None
    present = abis.order({r["abi"] for r in rows})
    rows.sort(key=lambda r: (present.index(r["abi"]), bodies.index(r["body"]), names.index(r["repr"])))
    head = (f"Generated by `{command}` on {host}, {now}; pahole {version} on the -g objects of each ABI "
            "(compilers and flags: reports/pahole/MANIFEST.md).")
    files.update((os.path.join("layouts", n), t) for n, t in size_tables(rows, present, names, head).items())
    files["layouts/slab.md"], files["layouts/slab.csv"] = slab.slab_tables(rows, present, command, host, now,
                                                                          args.slabinfo, slabinfo)
    body, repr_ = live_replica()
    replica = files.get(os.path.join("pahole", "x86_64", f"{body}-{repr_}.txt"))
    files["layouts/btf-compare.md"], live = btf_compare(replica, f"{body}/{repr_}", command, host, now, version)
    if live is not None:
        files["pahole/btf-vmlinux-inode.txt"] = live
    for sub in ["layouts"] + [os.path.join("pahole", abi) for abi in present]:
        os.makedirs(os.path.join(args.out, sub), exist_ok=True)
    with fsio.OutputSet() as out:
        for name, text in files.items():
            out.write_text(os.path.join(args.out, name), text)
    print(f"{fsio.prog()}: {len(rows)} layouts on {len(present)} ABIs -> "
          f"{args.out}/pahole, {args.out}/layouts")


def check(args):
    """Compare fresh pahole output with the committed reference set; 0 if equal."""
    mismatches = checked = 0
    for abi, _, probes in pahole.discover(args.build):
        for body, repr_, obj in probes:
            ref = os.path.join(args.out, "pahole", abi, f"{body}-{repr_}.txt")
            if not os.path.exists(ref):
                print(f"MISSING {ref} (run scripts/lab pahole)")
                mismatches += 1
                continue
            want = fsio.read_text(ref)
            got = pahole.pahole(abi, obj, "-C", ",".join(pahole.STRUCTS))
            checked += 1
            if got != want:
                mismatches += 1
                a, b = parse_struct(want, "inode", ref), parse_struct(got, "inode", obj)
                print(f"DIFFERS {ref}: struct inode {a and a['size']} -> {b and b['size']} bytes "
                      "(run scripts/lab pahole and review)")
    print(f"pahole reference check: {checked} layouts compared, {mismatches} differ")
    return 1 if mismatches or not checked else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", action="append", required=True, help="a CMake build directory (repeat per ABI)")
    ap.add_argument("--out", default="reports", help="output root (default: reports)")
    ap.add_argument("--slabinfo", default="/proc/slabinfo", help="slabinfo to validate the model against")
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed reference set instead of writing (exit 77 without pahole)")
    args = ap.parse_args(argv)
    if not shutil.which("pahole"):
        if args.check:
            print(f"{fsio.prog()}: SKIP: pahole not found")
            return 77
        raise fsio.InputError("pahole not found (Debian package dwarves; scripts/lab deps pahole installs it)")
    if args.check:
        return check(args)
    if not os.path.isdir(args.out):
        raise fsio.InputError(f"{args.out}: no such folder")
    generate(args)
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
