#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kernel_check_test.py - `scripts/lab kernel-check`'s logic on recorded pahole output, no kernel tree.

Fixtures (tests/data/kernel-check/): `pahole --cacheline_size=64 -C inode` of fs/inode.o from
Linux 4.4.155 and 6.18.2 (x86_64) and 6.18.26 (i386) built with defconfig + the kernel-check block of
layouts/kernel_standins.h, and of the replicas' probe objects (v4_4/timespec, v6/scalar; i386 with
--suppress_packed, as the suite runs pahole there).
4.4 matches its replica; 6.18.2 (x86_64) and 6.18.26 (i386) have no i_kept (this host's 6.18 kernel
has): real differences, on i386 with a 4-byte hole that i_kept's removal closes.
Also: the header's block, the version -> body choice, the .config check, the report tables,
and the one-line refusals.
"""
import os
import tempfile

import scripttest
from scripttest import expect
from y2038lab.core.fsio import InputError
from y2038lab.layouts import kernel
from y2038lab.layouts.pahole import parse_struct

DATA = os.path.join(scripttest.HERE, "data", "kernel-check")


def inode(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return parse_struct(f.read(), "inode", name)


def raises(case, words, fn, *args):
    try:
        fn(*args)
    except InputError as err:
        expect(f"{case}: says '{words}'", True, words in str(err))
        return
    expect(f"{case}: raises InputError", True, False)


# Comparison: member by member, holes, padding, size.
k44, r44 = inode("linux-4.4.155-x86_64.txt"), inode("replica-v4_4-timespec-x86_64.txt")
k618, r6 = inode("linux-6.18.2-x86_64.txt"), inode("replica-v6-scalar-x86_64.txt")
k618_32, r6_32 = inode("linux-6.18.26-i386.txt"), inode("replica-v6-scalar-i386.txt")
CASES = [
    ("4.4.155 x86_64 = v4_4/timespec", k44, r44, []),
    ("6.18.2 x86_64 vs v6/scalar: i_kept", k618, r6,
     ["i_kept only in the replica (offset 272, 8 B)", "i_sb_list to i_private: -8 B offset in the kernel",
      "sizeof: kernel 608, replica 616"]),
    ("6.18.26 i386 vs v6/scalar: i_kept and the hole before i_version", k618_32, r6_32,
     ["i_kept only in the replica (offset 192, 4 B)", "i_sb_list to i_rcu: -4 B offset in the kernel",
      "i_version to i_private: -8 B offset in the kernel", "sum of holes: kernel 0, replica 4",
      "sizeof: kernel 400, replica 408"]),
    ("sides swapped", r6, k618,
     ["i_kept only in the kernel (offset 272, 8 B)", "i_sb_list to i_private: +8 B offset in the kernel",
      "sizeof: kernel 616, replica 608"]),
    ("a member of another size, holes", dict(k44, holes=10, members=dict(k44["members"], i_rdev=(76, 8))), k44,
     ["i_rdev: 8 B in the kernel, 4 B in the replica (offset 76 / 76)", "sum of holes: kernel 10, replica 6"]),
]
for case, a, b, want in CASES:
    expect(case, want, kernel.compare(a, b))
expect("fixture sizes", (560, 560, 608, 616), (k44["size"], r44["size"], k618["size"], r6["size"]))

# The header's block: trees and configuration lines.
trees, config = kernel.read_block()
expect("block: 4.4", ("v4_4", "timespec"), trees.get("4.4"))
expect("block: 6.18", ("v6", "scalar"), trees.get("6.18"))
expect("block: CONFIG lines", True,
       "CONFIG_CGROUP_WRITEBACK=y" in config and "# CONFIG_DEBUG_SPINLOCK is not set" in config)
expect("body for 4.4.155", ("v4_4", "timespec"), kernel.body_for("4.4.155", trees))
expect("body for 6.18.26", ("v6", "scalar"), kernel.body_for("6.18.26", trees))
expect("body for 6.18-rc3", ("v6", "scalar"), kernel.body_for("6.18-rc3", trees))
raises("body for 5.10.1", "Linux 5.10.1: no replica body models this tree", kernel.body_for, "5.10.1", trees)
with tempfile.TemporaryDirectory() as tmp:
    for case, text, words in [("no block", "/* nothing */\n", "no kernel-check:begin"),
                              ("bad line", "/*\n * kernel-check:begin\n * tree 4.4 v4_4 timespec\n * CONFIG_SMP y\n"
                               " * kernel-check:end\n */\n", "cannot read 'CONFIG_SMP y'"),
                              ("no tree", "/*\n * kernel-check:begin\n * CONFIG_SMP=y\n * kernel-check:end\n */\n",
                               "without tree")]:
        scripttest.write(os.path.join(tmp, "h.h"), text)
        raises(f"block: {case}", words, kernel.read_block, os.path.join(tmp, "h.h"))

# The .config check: absent counts as not set.
dotconfig = "CONFIG_SMP=y\nCONFIG_IMA=m\n# CONFIG_MEMCG is not set\nCONFIG_DEBUG_SPINLOCK=y\n"
expect("unmet", ["CONFIG_IMA=m (wanted y)", "CONFIG_MEMCG=n (wanted y)", "CONFIG_DEBUG_SPINLOCK=y (wanted n)"],
       kernel.unmet(["CONFIG_SMP=y", "CONFIG_IMA=y", "CONFIG_MEMCG=y", "# CONFIG_DEBUG_SPINLOCK is not set",
                     "# CONFIG_DEBUG_RWSEMS is not set"], dotconfig))

# The report: CSV round trip, one row per (tree, ABI), differences spelled out.
row = {f: "" for f in kernel.FIELDS}
rows = [dict(row, tree="linux-4.4.155", version="4.4.155", abi="i386", kernel_size="344", replica_size="344",
             identical="yes", time="30 s (cold)", command="scripts/lab kernel-check T", date="d"),
        dict(row, tree="linux-6.18.2", version="6.18.2", abi="x86_64", kernel_size="608", replica_size="616",
             identical="no", differing_members="; ".join(kernel.compare(k618, r6)),
             config_not_met="CONFIG_IMA=n (wanted y)")]
md, table = kernel.render(rows, config)
with tempfile.TemporaryDirectory() as tmp:
    scripttest.write(os.path.join(tmp, "k.csv"), table)
    expect("csv round trip", rows, kernel.read_rows(os.path.join(tmp, "k.csv")))
    scripttest.write(os.path.join(tmp, "bad.csv"), "a,b\n1,2\n")
    raises("csv: not a kernel-check table", "not a kernel-check table", kernel.read_rows, os.path.join(tmp, "bad.csv"))
expect("md: identical row", True, "| linux-4.4.155 (4.4.155) | i386 |" in md and "| identical |" in md)
expect("md: difference and config", True, "**differs**: i_kept only in the replica" in md
       and "config lines not met: CONFIG_IMA=n (wanted y)" in md)
expect("rows sorted by version, then ABI", ["4.4.155", "6.18.2", "6.18.2"],
       [r["version"] for r in sorted(rows + [dict(rows[1], abi="i386")], key=kernel.sort_key)])

# The command refuses, in one line, before building anything.
with tempfile.TemporaryDirectory() as tmp:
    tree = os.path.join(tmp, "linux-5.10")
    scripttest.write(os.path.join(tree, "Makefile"), "VERSION = 5\nPATCHLEVEL = 10\nSUBLEVEL = 1\n")
    os.makedirs(os.path.join(tree, "fs"))
    base = ["-m", "y2038lab", "kernel-check", "--build", tmp, "--work", tmp, "--out", tmp, "--tree"]
    prog = "y2038lab kernel-check"
    scripttest.one_line_error("no body for 5.10", scripttest.run(base + [tree]), prog, "no replica body")
    scripttest.one_line_error("not a tree", scripttest.run(base + [tmp]), prog, "not a Linux source tree")
    scripttest.write(os.path.join(tree, "Makefile"), "VERSION = 4\nPATCHLEVEL = 4\nSUBLEVEL = 1\n")
    os.makedirs(os.path.join(tree, "arch", "x86"))
    scripttest.one_line_error("no arch", scripttest.run(base + [tree, "--abi", "riscv64"]), prog,
                              "Linux 4.4.1 has no arch/riscv: no riscv64 kernel")
    expect("nothing written", ["linux-5.10"], os.listdir(tmp))
scripttest.finish("kernel_check_test")
