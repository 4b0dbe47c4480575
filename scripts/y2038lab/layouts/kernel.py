"""The replicas against a real kernel: `scripts/lab kernel-check KERNEL_TREE [ABI...]`.

Per ABI (default: each one the tree has an arch/ for), in WORK/<version>-<abi> (O=: the tree is never
written): the ABI's defconfig, the kernel-check block of layouts/kernel_standins.h and DEBUG_LINES
appended, olddefconfig, `make fs/inode.o` only; `pahole -C inode` on it and on the replica probe
(layout_probes.txt) of the body and representation the block names for the tree's version, compared
member by member (offset, size; union members too), in holes, tail padding and size.  Into
reports/layouts/kernel-check.{md,csv} (other trees' rows kept) and kernel-check/<version>-<abi>.txt.
"""
import argparse
import csv
import io
import os
import platform
import re
import subprocess
import sys
import time

from y2038lab.core import abis, fsio, markdown
from y2038lab.churn.tree import version as tree_version
from y2038lab.layouts import pahole

STANDINS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "layouts", "kernel_standins.h")
BLOCK = re.compile(r"kernel-check:begin\n(.*?)\n[ *]*kernel-check:end", re.S)
CONFIG_RE = re.compile(r"(CONFIG_\w+)=(\S+)|# (CONFIG_\w+) is not set")
# Not about the layout: what pahole needs (full DWARF 4 in fs/inode.o itself, no .dwo).
DEBUG_LINES = ["CONFIG_DEBUG_INFO=y", "CONFIG_DEBUG_INFO_DWARF4=y", "# CONFIG_DEBUG_INFO_REDUCED is not set",
               "# CONFIG_DEBUG_INFO_SPLIT is not set"]
# ABI: kernel ARCH, arch/ folder, defconfig target.  Compilers: Debian's gcc 12 and its cross gcc.
KERNEL_ABIS = {a: (row.kernel_arch, row.kernel_dir, row.defconfig) for a, row in abis.ABIS.items()}
# The minimal extra flags 4.x trees need for fs/inode.o with gcc 12 (by trial on 4.4.155; x86 needs none,
# 6.18 none): the dtc 4.4 builds on arm and arm64 defines `yylloc` twice, an error under gcc 10's
# -fno-common; 4.4's arm Makefile probes `-march=armv7-a` alone, which Debian's hard-float default rejects
# ("selected architecture lacks an FPU"), so it falls back to armv5t and ARMv7 barriers do not assemble.
OLD_TREE_FLAGS = {"armhf": ["HOSTCFLAGS=-fcommon", "KCFLAGS=-march=armv7-a"], "aarch64": ["HOSTCFLAGS=-fcommon"]}
FIELDS = ["tree", "version", "abi", "body", "repr", "kernel_size", "replica_size", "identical", "differing_members",
          "config", "config_not_met", "kernel_holes", "replica_holes", "compiler", "make_flags", "time", "date",
          "command"]


def read_block(path=STANDINS):
    """({'major.minor': (body, repr)}, [config lines]) from the header's kernel-check block."""
    m = BLOCK.search(fsio.read_text(path, "header"))
    if m is None:
        raise fsio.InputError(f"{path}: no kernel-check:begin ... kernel-check:end block")
    trees, config = {}, []
    for line in (re.sub(r"^\s*\*\s?", "", x).strip() for x in m.group(1).splitlines()):
        if re.fullmatch(r"tree \d+\.\d+ \w+ \w+", line):
            trees[line.split()[1]] = tuple(line.split()[2:])
        elif CONFIG_RE.fullmatch(line):
            config.append(line)
        elif line:
            raise fsio.InputError(f"{path}: kernel-check block: cannot read {line!r}")
    if not trees or not config:
        raise fsio.InputError(f"{path}: kernel-check block without tree or CONFIG_ lines")
    return trees, config


def body_for(version, trees):
    """(body, repr) the block names for a tree version like '4.4.155'; InputError if none."""
    key = (re.match(r"\d+\.\d+", version) or re.match(".*", version)).group(0)
    if key not in trees:
        raise fsio.InputError(f"Linux {version}: no replica body models this tree (bodies for: "
                              f"{', '.join(sorted(trees))}; layouts/kernel_standins.h)")
    return trees[key]


def unmet(config, dotconfig):
    """The lines of CONFIG (as in a .config) that the DOTCONFIG text does not hold."""
    have = dict(re.findall(r"^(CONFIG_\w+)=(.*)$", dotconfig, re.M))
    wants = [(m[1], m[2]) if m[1] else (m[3], None) for m in map(CONFIG_RE.fullmatch, config)]
    return [f"{n}={have.get(n, 'n')} (wanted {w or 'n'})" for n, w in wants if have.get(n) != w]


def compare(kernel, replica):
    """The differences of two struct inode parsed by pahole.parse_struct, [] if identical: members
    absent on one side or of another size (the causes), then runs of members at another offset."""
    km, rm = kernel["members"], replica["members"]
    names = sorted(list(km) + [n for n in rm if n not in km], key=lambda n: ((km.get(n) or rm.get(n))[0], n not in km))
    out, shifted = [], []
    for n in names:
        k, r = km.get(n), rm.get(n)
        if k is None or r is None:
            side, (off, size) = ("replica", r) if k is None else ("kernel", k)
            out.append(f"{n} only in the {side} (offset {off}, {size} B)")
        elif k[1] != r[1]:
            out.append(f"{n}: {k[1]} B in the kernel, {r[1]} B in the replica (offset {k[0]} / {r[0]})")
        elif k[0] != r[0] and shifted and shifted[-1][2] == k[0] - r[0]:
            shifted[-1][1] = n
        elif k[0] != r[0]:
            shifted.append([n, n, k[0] - r[0]])
    out += [f"{first}{'' if first == last else ' to ' + last}: {delta:+d} B offset in the kernel"
            for first, last, delta in shifted]
    totals = (("holes", "sum of holes"), ("padding", "tail padding"), ("size", "sizeof"))
    return out + [f"{what}: kernel {kernel[key]}, replica {replica[key]}"
                  for key, what in totals if kernel[key] != replica[key]]


def make(tree, out_dir, arch, cross, flags, *targets):
    cmd = ["make", "-s", "-C", tree, f"O={out_dir}", f"ARCH={arch}", f"-j{os.cpu_count() or 1}"]
    cmd += [f"CROSS_COMPILE={cross}"] if cross else []
    res = subprocess.run(cmd + flags + list(targets), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if res.returncode != 0:
        why = [x for x in res.stdout.splitlines() if "error" in x.lower() and not x.startswith("make")] or ["?"]
        raise fsio.InputError(f"{' '.join(cmd[4:] + flags + list(targets))} in {tree} failed: {why[0][:300]}")


def check_abi(tree, version, abi, probe, config, work):
    """One (tree, ABI) row: build fs/inode.o, pahole both sides, compare."""
    arch, _, defconfig = KERNEL_ABIS[abi]
    cross = f"{abis.ABIS[abi].triplet}-" if abi in abis.CROSS else ""
    flags = OLD_TREE_FLAGS.get(abi, []) if int(version.split(".")[0]) < 5 else []
    out_dir = os.path.join(os.path.abspath(work), f"{version}-{abi}")
    cold = not os.path.exists(os.path.join(out_dir, "fs", "inode.o"))
    os.makedirs(out_dir, exist_ok=True)
    start = time.monotonic()
    make(tree, out_dir, arch, cross, flags, defconfig)
    with open(os.path.join(out_dir, ".config"), "a", encoding="utf-8") as f:
        f.write("\n".join(config + DEBUG_LINES) + "\n")
    make(tree, out_dir, arch, cross, flags, "olddefconfig")
    make(tree, out_dir, arch, cross, flags, "fs/inode.o")
    obj = os.path.join(out_dir, "fs", "inode.o")
    raw = pahole.pahole(abi, obj, "-C", "inode")
    kernel = pahole.parse_struct(raw, "inode", f"pahole of {obj}")
    replica = pahole.parse_struct(pahole.pahole(abi, probe[2], "-C", "inode"), "inode", probe[2])
    if kernel is None or replica is None:
        raise fsio.InputError(f"no struct inode in {obj if kernel is None else probe[2]}")
    diffs = compare(kernel, replica)
    seconds = time.monotonic() - start
    return {"abi": abi, "body": probe[0], "repr": probe[1], "kernel_size": kernel["size"],
            "replica_size": replica["size"], "identical": "no" if diffs else "yes",
            "differing_members": "; ".join(diffs), "config": f"{defconfig} + kernel_standins.h block",
            "config_not_met": "; ".join(unmet(config, fsio.read_text(os.path.join(out_dir, ".config")))),
            "kernel_holes": kernel["holes"], "replica_holes": replica["holes"],
            "compiler": fsio.run([f"{cross}gcc", "--version"]).splitlines()[0],
            "make_flags": " ".join(flags), "time": f"{seconds:.0f} s ({'cold' if cold else 'O= reused'})"}, raw


def read_rows(path):
    text = fsio.read_text(path, "kernel-check table") if os.path.exists(path) else ""
    rows = list(csv.DictReader(io.StringIO(text)))
    if rows and set(FIELDS) - set(rows[0]):
        raise fsio.InputError(f"{path}: not a kernel-check table (columns {', '.join(FIELDS)})")
    return rows


def sort_key(r):
    return ([int(x) for x in re.findall(r"\d+", r["version"])],
            list(abis.ABIS).index(r["abi"]) if r["abi"] in abis.ABIS else 99)


def render(rows, config):
    """(kernel-check.md, kernel-check.csv) texts of all rows."""
    md = ["# struct inode: the replicas against real kernel trees", "",
          "Byte counts from pahole (`pahole -C inode`) on the kernel's fs/inode.o, built out of tree per ABI with "
          "Debian's gcc 12 (cross), and on the suite's replica probe of the body and representation "
          "layouts/kernel_standins.h names for the tree.  Kernel configuration of every figure: the ABI's "
          "defconfig + the kernel-check block of layouts/kernel_standins.h and the debug-info lines (below), "
          "then `make olddefconfig`; a line the result does not hold is listed in its row.  Compared: every "
          "member's offset and size (union members included), sum of holes, tail padding, sizeof; a difference "
          "lists its causes first (members on one side only or of another size), then the members they moved.", "",
          "| tree | ABI | config | body / repr | kernel sizeof | replica sizeof | holes (kernel / replica) "
          "| result | compiler, extra make flags | time |", "|---|---|---|---|---:|---:|---|---|---|---:|"]
    for r in rows:
        result = "identical" if r["identical"] == "yes" else "**differs**: " + r["differing_members"]
        if r["config_not_met"]:
            result += f"; config lines not met: {r['config_not_met']}"
        md.append(markdown.row([f"{r['tree']} ({r['version']})", r["abi"], r["config"], f"{r['body']} / {r['repr']}",
                          r["kernel_size"], r["replica_size"], f"{r['kernel_holes']} / {r['replica_holes']}",
                          result, f"{r['compiler']}{', `' + r['make_flags'] + '`' if r['make_flags'] else ''}",
                          r["time"]]))
    md += ["", "Time: wall-clock seconds of configure, build of fs/inode.o and pahole, from an empty O= folder "
           "(cold) or a reused one, on the machine of the run:", ""]
    md += sorted({f"- `{r['command']}` ({r['tree']}): {r['date']}" for r in rows})
    md += ["", "The configuration lines (layouts/kernel_standins.h; then "
           + ", ".join(f"`{x}`" for x in DEBUG_LINES) + "):", "", "```", *config, "```", "",
           "Raw kernel pahole output: reports/layouts/kernel-check/<version>-<abi>.txt; the replica's: "
           "reports/pahole/<abi>/<body>-<repr>.txt."]
    return "\n".join(md) + "\n", fsio.csv_text(rows, FIELDS, "\r\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tree", required=True, help="a Linux source tree (never written: O= builds)")
    ap.add_argument("--abi", action="append", choices=list(KERNEL_ABIS), help="default: every ABI the tree has")
    ap.add_argument("--build", action="append", required=True, help="a CMake build folder with layout probes")
    ap.add_argument("--work", required=True, help="folder for the O= kernel builds")
    ap.add_argument("--out", default="reports")
    ap.add_argument("--command", default="python3 -m y2038lab kernel-check")
    args = ap.parse_args(argv)
    if not (os.path.isfile(os.path.join(args.tree, "Makefile")) and os.path.isdir(os.path.join(args.tree, "fs"))):
        raise fsio.InputError(f"{args.tree}: not a Linux source tree (no Makefile and fs/)")
    trees, config = read_block()
    version = tree_version(args.tree)
    body, repr_ = body_for(version, trees)
    has = [a for a in KERNEL_ABIS if os.path.isdir(os.path.join(args.tree, "arch", KERNEL_ABIS[a][1]))]
    for abi in set(args.abi or []) - set(has):
        raise fsio.InputError(f"Linux {version} has no arch/{KERNEL_ABIS[abi][1]}: no {abi} kernel")
    probes = {abi: p for abi, _, ps in pahole.discover(args.build) for p in ps if p[:2] == (body, repr_)}
    for abi in set(args.abi or has) - set(probes):
        raise fsio.InputError(f"no {body}/{repr_} layout probe for {abi} among the --build folders")
    old = read_rows(os.path.join(args.out, "layouts", "kernel-check.csv"))
    now = markdown.now()
    date = f"{now} on {platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs, load shared), " \
           f"pahole {fsio.run(['pahole', '--version']).strip()}"
    rows, raws = [], {}
    for abi in args.abi or has:
        r, raws[f"{version}-{abi}.txt"] = check_abi(args.tree, version, abi, probes[abi], config, args.work)
        rows.append(dict(r, tree=os.path.basename(os.path.normpath(args.tree)), version=version, date=date,
                         command=args.command))
        print(f"{fsio.prog()}: {version} {abi}: kernel {r['kernel_size']} B, replica {r['replica_size']} B, "
              f"identical: {r['identical']}, {r['time']}", file=sys.stderr)
    rows += [r for r in old if (r["version"], r["abi"]) not in {(x["version"], x["abi"]) for x in rows}]
    md, table = render(sorted(rows, key=sort_key), config)
    os.makedirs(os.path.join(args.out, "layouts", "kernel-check"), exist_ok=True)
    with fsio.OutputSet() as out:
        for name, text in [("kernel-check.md", md), ("kernel-check.csv", table)] + \
                [(os.path.join("kernel-check", k), v) for k, v in raws.items()]:
            out.write_text(os.path.join(args.out, "layouts", name), text)
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
