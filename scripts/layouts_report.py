#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""layouts_report.py - pahole reference set, size tables, slab model and BTF
comparison for the struct inode replicas (issue 3).

Reads the per-layout -g objects that layouts/CMakeLists.txt lists in
<build>/layout_probes.txt for each ABI build directory, runs pahole (dwarves
1.24) on them and writes:

  reports/pahole/<abi>/<body>-<repr>.txt        raw pahole output (reference set)
  reports/pahole/<abi>/<body>-<repr>.reorg.txt  pahole -R -C inode suggestions
  reports/pahole/MANIFEST.md                    tools, flags, host, date
  reports/layouts/sizes-<abi>.{md,csv}          size table per ABI
  reports/layouts/sizes.md                      all ABIs, with the command line
  reports/layouts/slab.{md,csv}                 SLUB model: objects per slab, memory per 10^6 inodes
  reports/layouts/btf-compare.md                live kernel BTF vs the v6/scalar replica

Every number comes from pahole's reading of the compilers' DWARF, or from
scripts/slub_model.py applied to those numbers.  pahole 1.24 quirks handled
here: `-R` is never combined with `-S` (it crashes); BTF "Unknown kind"
warnings from newer kernels go to stderr and are dropped; on i386 `-R`
prints __attribute__((__packed__)) for structs holding 4-aligned s64.

Usage: layouts_report.py --build DIR [--build DIR ...] [--out reports]
       layouts_report.py --check --build DIR [--out reports]   (CTest: pahole_reference)
"""

import argparse
import csv
import datetime
import io
import os
import platform
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slub_model  # noqa: E402

CACHELINE = 64
# A fixed cache line, so the reference set does not depend on the host's CPU.
PAHOLE = ["pahole", "--cacheline_size=%d" % CACHELINE]
# pahole 1.24 on i386 objects marks every struct holding a 4-aligned s64 (struct
# inode, timespec64) __attribute__((__packed__)), which they are not.
PAHOLE_ABI_FLAGS = {"i386": ["--suppress_packed"]}
STRUCTS = ["inode", "ext4_inode_info", "msdos_inode_info", "cifsInodeInfo", "netfs_inode",
           "address_space", "rw_semaphore", "timespec64", "kernel_old_timespec", "inode_timespec"]
CONTAINERS = [("inode_cache", "inode"), ("ext4_inode_cache", "ext4_inode_info"),
              ("fat_inode_cache", "msdos_inode_info"), ("cifs_inode_cache", "cifsInodeInfo")]
HOT = ["i_mode", "i_uid", "i_gid", "i_size", "i_blocks"]
REPR_ORDER = ["timespec", "timespec64", "packed12", "scalar", "multigrain"]
ABI_ORDER = ["x86_64", "i386", "armhf", "aarch64", "riscv64"]
# 32-bit ABIs: word 4 for the slab free pointer.
WORD = {"x86_64": 8, "aarch64": 8, "riscv64": 8, "i386": 4, "armhf": 4}
LAPTOP_CPUS = 8  # any of 4..31 reproduces the published rows (slub_model --published)

MEMBER_RE = re.compile(r"(\w+)(?:\[\d*\])*(?:\s+__attribute__\(\(.*\)\))?;\s*/\*\s*(\d+)(?::\d+)?\s+(\d+)\s*\*/")


def die(msg):
    print("layouts_report: error: %s" % msg, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    res = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(cmd), res.returncode, res.stderr.strip()[:500]))
    return res.stdout


def timestamp_members(repr_name):
    if repr_name in ("scalar", "multigrain"):
        return ["i_%stime_%s" % (x, part) for part in ("sec", "nsec") for x in "amc"]
    return ["i_atime", "i_mtime", "i_ctime"]


def parse_struct(text, name):
    """{'size','cachelines','holes','padding','members':{name:(off,size)}} of one struct."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        if line.startswith("struct %s {" % name):
            start = i
            break
    if start is None:
        return None
    info = {"members": {}, "holes": 0, "padding": 0, "size": None, "cachelines": None}
    depth = 0
    for line in lines[start:]:
        depth += line.count("{") - line.count("}")
        m = MEMBER_RE.search(line)
        # Only direct members and the members of anonymous unions (pahole prints absolute offsets).
        if m and "}" not in line.split("/*")[0]:
            info["members"].setdefault(m.group(1), (int(m.group(2)), int(m.group(3))))
        m = re.search(r"size: (\d+), cachelines: (\d+)", line)
        if m and depth == 1:
            info["size"], info["cachelines"] = int(m.group(1)), int(m.group(2))
        m = re.search(r"sum holes: (\d+)", line)
        if m and depth == 1:
            info["holes"] = int(m.group(1))
        m = re.search(r"/\* padding: (\d+) \*/", line)
        if m and depth == 1:
            info["padding"] = int(m.group(1))
        if depth == 0 and line.startswith("}"):
            break
    if info["size"] is None:
        die("no size line for struct %s" % name)
    return info


def line_of(off, size):
    first, last = off // CACHELINE, (off + size - 1) // CACHELINE
    return str(first) if first == last else "%d-%d" % (first, last)


def discover(build_dirs):
    """[(abi, [(body, repr, object)])] from each build directory's manifests."""
    out = []
    for d in build_dirs:
        try:
            with open(os.path.join(d, "layout_abi.txt")) as f:
                abi = f.read().strip()
            with open(os.path.join(d, "layout_probes.txt")) as f:
                probes = [tuple(line.split()) for line in f if line.strip()]
        except OSError as e:
            die("%s: %s (configure and build the layout_probes target first)" % (d, e))
        if abi in ("i686", "i386"):
            abi = "i386"
        for body, repr_name, obj in probes:
            if not os.path.exists(obj):
                die("missing object %s (build the layout_probes target)" % obj)
        out.append((abi, probes))
    return out


def compiler_of(build_dir):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_C_COMPILER:"):
                    cc = line.split("=", 1)[1].strip()
                    ver = run([cc, "--version"]).splitlines()[0]
                    return cc, ver
    except OSError:
        pass
    return "?", "?"


def flags_of(build_dir):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            cache = dict(line.strip().split("=", 1) for line in f
                         if "=" in line and not line.startswith(("#", "//")))
    except OSError:
        return "?"
    bt = cache.get("CMAKE_BUILD_TYPE:STRING", "")
    return cache.get("CMAKE_C_FLAGS_%s:STRING" % bt.upper(), "?") + " (%s)" % bt


def generate(args):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    host = "%s (%s, kernel %s)" % (platform.node(), platform.machine(), platform.release())
    pahole_ver = run(["pahole", "--version"]).strip()
    command = "scripts/lab pahole"
    abis = discover(args.build)
    rows = []  # one per abi x layout
    manifest = ["# pahole reference set", "",
                "Generated by `%s` (scripts/layouts_report.py) on %s, %s, with pahole %s." %
                (command, host, now, pahole_ver), "",
                "Raw `pahole --cacheline_size=64 -C %s <object>` per layout; `.reorg.txt` is"
                " `pahole --cacheline_size=64 -R -C inode <object>`"
                " (never with -S: pahole 1.24 crashes).  On i386 both runs add `--suppress_packed`: without it"
                " pahole 1.24 prints `__attribute__((__packed__))` after every struct holding a 4-aligned"
                " s64 (struct inode, timespec64), which is not a real packing; the flag also hides the real"
                " packing of the packed12 `struct inode_timespec` there (see layouts/repr_packed12.h)."
                " `pahole --compile` is not used: in 1.24 it works only from BTF, and these objects carry DWARF."
                " Reading this kernel's BTF, pahole 1.24 warns `Unknown kind 17/18` (newer BTF kinds) on"
                " stderr; the struct inode it prints is complete." %
                ",".join(STRUCTS), "",
                "| ABI | compiler | flags | objects |", "|---|---|---|---|"]
    for (abi, probes), build_dir in zip(abis, args.build):
        outdir = os.path.join(args.out, "pahole", abi)
        os.makedirs(outdir, exist_ok=True)
        cc, ccver = compiler_of(build_dir)
        manifest.append("| %s | %s | `%s` | %s/layouts/CMakeFiles/layout_probe_*.dir/layout_probe.c.o |" %
                        (abi, ccver, flags_of(build_dir), os.path.relpath(build_dir)))
        for body, repr_name, obj in probes:
            flags = PAHOLE + PAHOLE_ABI_FLAGS.get(abi, [])
            raw = run(flags + ["-C", ",".join(STRUCTS), obj])
            reorg = run(flags + ["-R", "-C", "inode", obj])
            base = os.path.join(outdir, "%s-%s" % (body, repr_name))
            with open(base + ".txt", "w") as f:
                f.write(raw)
            with open(base + ".reorg.txt", "w") as f:
                f.write(reorg)
            inode = parse_struct(raw, "inode")
            m = re.search(r"saved (\d+) bytes", reorg)
            row = {"abi": abi, "body": body, "repr": repr_name, "size": inode["size"],
                   "cachelines": inode["cachelines"], "holes": inode["holes"],
                   "padding": inode["padding"], "reorg_saves": int(m.group(1)) if m else 0}
            ts = [inode["members"][n] for n in timestamp_members(repr_name)]
            row["ts_bytes"] = sum(size for _, size in ts)
            row["ts_span"] = "%d-%d" % (min(o for o, _ in ts), max(o + s for o, s in ts))
            row["ts_lines"] = " ".join("%s:%s" % (n.replace("i_", "").replace("time", ""), line_of(*inode["members"][n]))
                                       for n in timestamp_members(repr_name))
            row["hot_lines"] = " ".join("%s:%s" % (n[2:], line_of(*inode["members"][n])) for n in HOT)
            for cache, struct in CONTAINERS[1:]:
                row[struct] = parse_struct(raw, struct)["size"]
            if "i_atime_sec" in inode["members"]:
                row["scalar_pair"] = "%d + %d" % (inode["members"]["i_atime_sec"][1],
                                                  inode["members"]["i_atime_nsec"][1])
            for struct in ("timespec64", "kernel_old_timespec", "inode_timespec"):
                info = parse_struct(raw, struct)
                if info:
                    row["sizeof_" + struct] = info["size"]
            rows.append(row)
    with open(os.path.join(args.out, "pahole", "MANIFEST.md"), "w") as f:
        f.write("\n".join(manifest) + "\n")

    by_key = {(r["abi"], r["body"], r["repr"]): r for r in rows}
    for r in rows:
        ref = by_key.get((r["abi"], r["body"], "timespec64"))
        r["delta_vs_timespec64"] = r["size"] - ref["size"] if ref else None
    present_abis = [a for a in ABI_ORDER if any(r["abi"] == a for r in rows)]
    sort_key = lambda r: (ABI_ORDER.index(r["abi"]), r["body"], REPR_ORDER.index(r["repr"]))
    rows.sort(key=sort_key)
    write_size_tables(args.out, rows, present_abis, command, host, now, pahole_ver)
    write_slab(args.out, rows, present_abis, command, host, now)
    write_btf_compare(args.out, by_key, command, host, now, pahole_ver)
    print("layouts_report: %d layouts on %d ABIs -> %s/pahole, %s/layouts" %
          (len(rows), len(present_abis), args.out, args.out))


COLUMNS = [("body", "body"), ("repr", "representation"), ("size", "sizeof(inode)"),
           ("delta_vs_timespec64", "Δ vs timespec64"), ("ts_bytes", "timestamp bytes"),
           ("ts_span", "timestamp offsets"), ("holes", "holes"), ("padding", "tail padding"),
           ("cachelines", "cache lines"), ("ts_lines", "cache line of a/m/c time"),
           ("hot_lines", "cache line of stat()-hot members"), ("reorg_saves", "pahole -R saves"),
           ("ext4_inode_info", "ext4_inode_info"), ("msdos_inode_info", "msdos_inode_info"),
           ("cifsInodeInfo", "cifsInodeInfo")]


def fmt(v):
    if v is None:
        return "-"
    return str(v)


def table_md(rows):
    out = ["| " + " | ".join(h for _, h in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        cells = []
        for k, _ in COLUMNS:
            v = r.get(k)
            if k == "delta_vs_timespec64" and v is not None:
                v = "%+d" % v
            cells.append(fmt(v))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def write_size_tables(out, rows, abis, command, host, now, pahole_ver):
    d = os.path.join(out, "layouts")
    os.makedirs(d, exist_ok=True)
    legend = ("Cache lines are %d-byte lines counted from the start of the object (0 = first); "
              "`a:1` means i_atime lies in line 1, `1-2` straddles; for scalar/multigrain the "
              "_sec fields come first, then _nsec.  holes = bytes between members, tail padding = "
              "bytes after the last member; `pahole -R saves` is what pahole's reorganisation "
              "would remove.  Containers are whole sizeof() values." % CACHELINE)
    head = ("Generated by `%s` on %s, %s; pahole %s on the -g objects of each ABI "
            "(compilers and flags: reports/pahole/MANIFEST.md)." % (command, host, now, pahole_ver))
    md_all = ["# struct inode layouts: sizes per ABI", "", head, "",
              "## One timestamp, per ABI (sizeof from pahole)", "",
              "| ABI | struct timespec (time_t + long) | struct timespec64 | packed12 inode_timespec | scalar i_atime_sec + i_atime_nsec |",
              "|---|---|---|---|---|"]
    for abi in abis:
        sub = {r["repr"]: r for r in rows if r["abi"] == abi and r["body"] == "v6"}
        md_all.append("| %s | %s | %s | %s | %s |" % (
            abi, sub.get("timespec64", {}).get("sizeof_kernel_old_timespec", "-"),
            sub.get("timespec64", {}).get("sizeof_timespec64", "-"),
            sub.get("packed12", {}).get("sizeof_inode_timespec", "-"),
            sub.get("scalar", {}).get("scalar_pair", "-")))
    md_all += ["", legend, ""]
    for abi in abis:
        sub = [r for r in rows if r["abi"] == abi]
        md = ["# struct inode layouts on %s" % abi, "", head, "", legend, "", table_md(sub), ""]
        with open(os.path.join(d, "sizes-%s.md" % abi), "w") as f:
            f.write("\n".join(md))
        with open(os.path.join(d, "sizes-%s.csv" % abi), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["abi"] + [k for k, _ in COLUMNS])
            for r in sub:
                w.writerow([abi] + [r.get(k) if r.get(k) is not None else "" for k, _ in COLUMNS])
        md_all += ["## %s" % abi, "", table_md(sub), ""]
    with open(os.path.join(d, "sizes.md"), "w") as f:
        f.write("\n".join(md_all))


def write_slab(out, rows, abis, command, host, now):
    d = os.path.join(out, "layouts")
    host_cpus, host_calc = slub_model.host_cpus(), slub_model.host_calc()
    scenarios = [("this host", host_cpus, host_calc), ("6.6 laptop", LAPTOP_CPUS, "v6.6")]
    md = ["# SLUB model: objects per slab and memory per 1,000,000 cached inodes", "",
          "Generated by `%s` on %s, %s (scripts/slub_model.py)." % (command, host, now), "",
          "Object size = kmem_cache.size: sizeof() from pahole, rounded to a word, plus one word "
          "for the free pointer (all four caches have a constructor), rounded to 8. "
          "Scenarios: *this host* = %d present CPUs, %s algorithm; *6.6 laptop* = %d CPUs, v6.6 "
          "algorithm (any count from 4 to 31 gives the same slabs). PAGE_SIZE 4096 on every ABI. "
          "Memory counts whole slabs: ceil(10^6 / objects) x pages x 4 KiB." %
          (host_cpus, host_calc, LAPTOP_CPUS), ""]
    md += published_section()
    md += slabinfo_section(host_cpus, host_calc)
    csv_rows = []
    for abi in abis:
        md += ["## %s" % abi, "",
               "| layout | cache | sizeof | objsize | " +
               " | ".join("%s: obj/slab, pages | %s: MiB per 10^6" % (s, s) for s, _, _ in scenarios) + " |",
               "|---|---|---|---|" + "---|---|" * len(scenarios)]
        for r in (r for r in rows if r["abi"] == abi):
            for cache, struct in CONTAINERS:
                sz = r["size"] if struct == "inode" else r[struct]
                objsize = slub_model.cache_object_size(sz, word=WORD.get(abi, 8))
                cells = []
                rec = {"abi": abi, "layout": "%s/%s" % (r["body"], r["repr"]), "cache": cache,
                       "sizeof": sz, "objsize": objsize}
                for sname, cpus, calc in scenarios:
                    objs, pages = slub_model.slab_geometry(objsize, cpus, calc)
                    mem = slub_model.memory_per_objects(objsize, cpus, calc=calc)
                    cells += ["%d / %d" % (objs, pages), "%.1f" % (mem / 2**20)]
                    key = sname.replace(" ", "_").replace(".", "")
                    rec.update({key + "_objs": objs, key + "_pages": pages, key + "_bytes_per_1e6": mem})
                csv_rows.append(rec)
                md.append("| %s/%s | %s | %d | %d | %s |" % (r["body"], r["repr"], cache, sz, objsize,
                                                            " | ".join(cells)))
        md.append("")
    with open(os.path.join(d, "slab.md"), "w") as f:
        f.write("\n".join(md))
    with open(os.path.join(d, "slab.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(csv_rows[0].keys()))
        w.writeheader()
        w.writerows(csv_rows)


def slabinfo_section(cpus, calc):
    """The model against this host's /proc/slabinfo, every cache listed."""
    out = ["## Validation against this host's /proc/slabinfo", ""]
    try:
        with open("/proc/slabinfo") as f:
            text = f.read()
    except OSError as e:
        return out + ["Skipped: /proc/slabinfo is not readable here (%s)." % e.strerror, ""]
    bad, total = slub_model.validate(text, cpus, calc)
    out.append("`scripts/slub_model.py --validate` (cpus=%d, %s algorithm, kernel %s): "
               "objperslab and pagesperslab predicted from objsize for **%d of %d** caches." %
               (cpus, calc, platform.release(), total - len(bad), total))
    for name, size, got, want in bad:
        out.append("- mismatch: %s objsize %d: model %d/%d, slabinfo %d/%d" %
                   (name, size, got[0], got[1], want[0], want[1]))
    for name in ("inode_cache", "ext4_inode_cache", "fat_inode_cache", "cifs_inode_cache"):
        for row in slub_model.parse_slabinfo(text):
            if row[0] == name:
                out.append("- %s: objsize %d, %d objects per %d pages (model agrees: %s)" %
                           (name, row[1], row[2], row[3],
                            "yes" if slub_model.slab_geometry(row[1], cpus, calc) == (row[2], row[3]) else "NO"))
    return out + [""]


def published_section():
    match = slub_model.cpus_matching_published("v6.6")
    out = ["## The published Debian 6.6 laptop rows", "",
           "Reproduced by the v6.6 model for CPU counts %s (min_objects = 4 x (fls(cpus) + 1) = 16, 20 "
           "or 24; with 2-3 CPUs min_objects is 12 and 640 B objects would stay at order 1, 12 per "
           "2 pages, as on this host)." % slub_model.compress_ranges(match), "",
           "| cache | objsize | published | model (8 CPUs) | waste per slab |", "|---|---|---|---|---|"]
    for name, size, objs, pages in slub_model.PUBLISHED_ROWS:
        mo, mp = slub_model.slab_geometry(size, LAPTOP_CPUS, "v6.6")
        out.append("| %s | %d | %d per %d pages | %d per %d pages | %d B |" %
                   (name, size, objs, pages, mo, mp, mp * 4096 - mo * size))
    out += ["", "Why: with >= 4 CPUs min_objects >= 16 needs order 2 (16 KiB) for ~600 B objects; "
            "16384 // size then steps from 25 to 28 as the size drops from 640 to 584 B, and the "
            "waste stays under 1/16 of the slab, so the order never changes.  A 4-byte saving "
            "matters only when it crosses one of those boundaries (632 B stays at 25; 628 B gives 26).", ""]
    return out


def write_btf_compare(out, by_key, command, host, now, pahole_ver):
    d = os.path.join(out, "layouts")
    path = "/sys/kernel/btf/vmlinux"
    md = ["# Live kernel BTF vs the v6 replica", "",
          "Generated by `%s` on %s, %s; `pahole -C inode %s` (pahole %s)." %
          (command, host, now, path, pahole_ver), ""]
    replica = None
    if ("x86_64", "v6", "scalar") in by_key and platform.machine() == "x86_64":
        replica = by_key[("x86_64", "v6", "scalar")]
    if not os.path.exists(path):
        md.append("No %s on this host: comparison skipped." % path)
    elif replica is None:
        md.append("No x86_64 v6/scalar replica built on this %s host: comparison skipped." % platform.machine())
    else:
        res = subprocess.run(["pahole", "-C", "inode", path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        live = parse_struct(res.stdout, "inode") if res.returncode == 0 else None
        raw_path = os.path.join(out, "pahole", "x86_64", "v6-scalar.txt")
        with open(raw_path) as f:
            mine = parse_struct(f.read(), "inode")
        if live is None:
            md.append("pahole could not read struct inode from %s: comparison skipped." % path)
        else:
            with open(os.path.join(out, "pahole", "btf-vmlinux-inode.txt"), "w") as f:
                f.write(res.stdout)
            md += ["| | live kernel (%s) | replica v6/scalar (x86_64) |" % platform.release(), "|---|---|---|",
                   "| sizeof(struct inode) | %d | %d |" % (live["size"], mine["size"]),
                   "| cache lines | %d | %d |" % (live["cachelines"], mine["cachelines"]),
                   "| holes | %d | %d |" % (live["holes"], mine["holes"]), ""]
            ts = timestamp_members("scalar") + ["i_generation"]
            md += ["| timestamp member | live offset/size | replica offset/size |", "|---|---|---|"]
            for n in ts:
                md.append("| %s | %s | %s |" % (n, "%d/%d" % live["members"][n] if n in live["members"] else "absent",
                                                "%d/%d" % mine["members"][n] if n in mine["members"] else "absent"))
            diffs = []
            for n in sorted(set(live["members"]) | set(mine["members"]),
                            key=lambda n: (live["members"].get(n) or mine["members"].get(n))[0]):
                a, b = live["members"].get(n), mine["members"].get(n)
                if a != b:
                    diffs.append("| %s | %s | %s |" % (n, "%d/%d" % a if a else "absent", "%d/%d" % b if b else "absent"))
            md += ["", "Members whose offset/size differ (all members, including union members): %d" % len(diffs), ""]
            if diffs:
                md += ["| member | live | replica |", "|---|---|---|"] + diffs
            md.append("")
            md.append("The raw live output is kept in reports/pahole/btf-vmlinux-inode.txt.")
    with open(os.path.join(d, "btf-compare.md"), "w") as f:
        f.write("\n".join(md) + "\n")


def check(args):
    """Compare fresh pahole output with the committed reference set; 0 if equal."""
    mismatches = checked = 0
    for abi, probes in discover(args.build):
        for body, repr_name, obj in probes:
            ref = os.path.join(args.out, "pahole", abi, "%s-%s.txt" % (body, repr_name))
            try:
                with open(ref) as f:
                    want = f.read()
            except OSError:
                print("MISSING %s (run scripts/lab pahole)" % ref)
                mismatches += 1
                continue
            got = run(PAHOLE + PAHOLE_ABI_FLAGS.get(abi, []) + ["-C", ",".join(STRUCTS), obj])
            checked += 1
            if got != want:
                mismatches += 1
                a, b = parse_struct(want, "inode"), parse_struct(got, "inode")
                print("DIFFERS %s: struct inode %s -> %s bytes (run scripts/lab pahole and review)" %
                      (ref, a and a["size"], b and b["size"]))
    print("pahole reference check: %d layouts compared, %d differ" % (checked, mismatches))
    return 1 if mismatches or not checked else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", action="append", required=True, help="a CMake build directory (repeat per ABI)")
    ap.add_argument("--out", default="reports", help="output root (default: reports)")
    ap.add_argument("--check", action="store_true",
                    help="compare with the committed reference set instead of writing (exit 77 without pahole)")
    args = ap.parse_args(argv)
    if not shutil.which("pahole"):
        if args.check:
            print("layouts_report: SKIP: pahole not found")
            return 77
        die("pahole not found (Debian package dwarves; scripts/lab deps installs it)")
    if args.check:
        return check(args)
    generate(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
