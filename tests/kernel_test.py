#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kernel_test.py - `scripts/lab kernel` without building or booting a kernel.

- every representation of layouts/layouts.def has its kernel hunk, and each applies (patch
  --dry-run) with kernel/kunit.patch to the pinned tree's files, read from Debian's
  linux-source-6.12 tarball (fs.h, fs/Kconfig, fs/Makefile); a spoiled hunk and a pre-6.11
  fs.h are refused in one line naming them; checkpatch.pl of that tree finds nothing in the
  KUnit suite and the hunks but what an X-macro list and a hunk (not a mail) must give;
- KTAP: a recorded first boot (tests/data/kernel/um-scalar.ktap: UML, the scalar kernel,
  every suite) parsed into results and figures; a failing case reported by name with its
  diagnostics; a run cut short refused;
- the tables: that boot against the SLUB model and the replica's sizes, and the timing
  statistics over synthetic boots (a negative control of no difference, the positive
  control of 17 against 16 detected).
Without the tarball (apt-get install linux-source-6.12) the tree checks are skipped, said so.
"""
import os
import random
import re
import shutil
import subprocess
import tarfile
import tempfile

import scripttest
from scripttest import expect
from y2038lab.core import fsio
from y2038lab.kernel import ktap, report, tree

DATA = os.path.join(scripttest.HERE, "data", "kernel")
TREE_FILES = ("include/linux/fs.h", "fs/Kconfig", "fs/Makefile", "scripts/checkpatch.pl",
              "scripts/spelling.txt", "scripts/const_structs.checkpatch")
# What checkpatch may say of these files, and why it stays.
CHECKPATCH_KEPT = ("Macros with complex values should be enclosed in parentheses",  # Y2038_INODE_MEMBERS(X)
                   "Missing commit description", "Missing Signed-off-by")  # hunks, not mails


def reprs_of_layouts():
    text = fsio.read_text(os.path.join(scripttest.TOP, "layouts", "layouts.def"))
    return sorted(set(re.findall(r"^INODE_LAYOUT\((\w+),", text, re.M)))


def pinned_files(tmp):
    """The tree's files the hunks touch (and checkpatch), from the tarball; None without it."""
    if not os.path.isfile(tree.TARBALL):
        return None
    with tarfile.open(tree.TARBALL) as tar:
        members = [m for m in tar if m.name.split("/", 1)[-1] in TREE_FILES]
        tar.extractall(tmp, members=members)
    return os.path.join(tmp, members[0].name.split("/", 1)[0])


def check_hunks():
    expect("a hunk per representation of layouts.def", reprs_of_layouts(), sorted(tree.hunks()))
    with tempfile.TemporaryDirectory() as tmp:
        pristine = pinned_files(tmp)
        if pristine is None:
            print(f"SKIP hunks apply: {tree.TARBALL} not installed (apt-get install {tree.PACKAGE})")
            return
        tree.check_accessors(pristine)
        for r, hunk in tree.hunks().items():
            copy = os.path.join(tmp, r)
            shutil.copytree(pristine, copy)
            for p in (tree.COMMON, hunk):
                try:
                    tree.apply(copy, p)
                    expect(f"{os.path.basename(p)} applies to {r}'s copy", True, True)
                except fsio.InputError as err:
                    expect(f"{os.path.basename(p)} applies", "", str(err))
            text = fsio.read_text(os.path.join(copy, "include", "linux", "fs.h"))
            expect(f"{r}: fs.h names its representation", True, f'#define Y2038_INODE_REPR "{r}"' in text)
        # A hunk that does not apply, and a tree before v6.11: one line naming each.
        bad = os.path.join(tmp, "spoiled.patch")
        scripttest.write(bad, fsio.read_text(tree.hunks()["ktime"]).replace("-\ttime64_t\t\ti_atime_sec;",
                                                                              "-\ttime64_t\t\ti_atime_secs;"))
        try:
            tree.apply(os.path.join(tmp, "scalar"), bad, dry_run=True)
            expect("a spoiled hunk is refused", "InputError", "applied")
        except fsio.InputError as err:
            expect("the refusal names the hunk", True, str(err).startswith(bad) and "FAILED" in str(err))
        old = os.path.join(tmp, "old")
        os.makedirs(os.path.join(old, "include", "linux"))
        scripttest.write(os.path.join(old, "include", "linux", "fs.h"), "struct inode {\n\tstruct timespec64\t__i_atime;\n};\n")
        try:
            tree.check_accessors(old)
            expect("a pre-6.11 fs.h is refused", "InputError", "accepted")
        except fsio.InputError as err:
            expect("the refusal says v6.11", True, "not a v6.11+ tree" in str(err))
        checkpatch(pristine)


def checkpatch(pristine):
    script = os.path.join(pristine, "scripts", "checkpatch.pl")
    files = [(["-f"], tree.SUITE), ([], tree.COMMON)] + [([], h) for h in tree.hunks().values()]
    for flags, path in files:
        res = subprocess.run(["perl", script, "--no-tree", "--terse", "--no-summary", *flags, path],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        said = [x for x in res.stdout.splitlines() if x.strip() and not any(k in x for k in CHECKPATCH_KEPT)]
        expect(f"checkpatch {os.path.basename(path)}", [], said)


def check_ktap():
    text = fsio.read_text(os.path.join(DATA, "um-scalar.ktap"))
    run = ktap.parse(text, "um-scalar.ktap")
    expect("all 8 suites ran", (8, 8), (run.planned, run.top))
    expect("no failure", [], run.failed)
    expect("the lab's time suite: 28 edges x 3 + truncate", (85, 0, 0), run.suites()["y2038_inode_time"])
    expect("the kernel's own ext4 inode test", (16, 0, 0), run.suites()["ext4_inode_test"])
    expect("layout figure", ("scalar", "544"), (run.figure("layout")[0]["repr"], run.figure("layout")[0]["sizeof_inode"]))
    expect("members", ["i_atime_sec", "i_mtime_sec", "i_ctime_sec", "i_atime_nsec", "i_mtime_nsec", "i_ctime_nsec",
                       "i_generation"], [f["name"] for f in run.figure("member")])
    expect("a quoted value", "time64 min, nsec 0", run.figure("stored")[0]["case"])
    expect("slab figures", ["shmem_inode_cache", "inode_cache"], [f["cache"] for f in run.figure("slab")])
    # A failing case, as the kernel reports one: named, with its diagnostics.
    failing = text.replace("        ok 1 shmem_inode_cache",
                           "    # y2038_slab_test: EXPECTATION FAILED at fs/y2038_inode_kunit.c:440\n"
                           "    Expected err == 0, but\n        not ok 1 shmem_inode_cache", 1)
    bad = ktap.parse(failing, "failing")
    expect("the failing case by name", ["y2038_inode_slab / y2038_slab_test / shmem_inode_cache"],
           [c.name for c in bad.failed])
    expect("its diagnostics", True, any("EXPECTATION FAILED" in x for x in bad.failed[0].log))
    # Cut short (a panic): refused, naming the source.
    cut = text[:text.index("ok 4 y2038_inode_slab")]
    try:
        ktap.parse(cut, "cut.ktap")
        expect("a run cut short is refused", "InputError", "parsed")
    except fsio.InputError as err:
        expect("the refusal counts the suites", True, "stopped after" in str(err) and str(err).startswith("cut.ktap"))
    try:
        ktap.parse("Booting the kernel\nKernel panic\n", "panic.log")
        expect("no KTAP refused", "InputError", "parsed")
    except fsio.InputError as err:
        expect("no KTAP named", True, "no KTAP output" in str(err))
    # A board's dmesg: every line behind a time stamp; imported into OUT/boards/LABEL/.
    stamped = "".join(f"[ {i:5d}.000001] {x}\n" for i, x in enumerate(text.splitlines()))
    expect("dmesg time stamps dropped", len(run.cases), len(ktap.parse(stamped, "dmesg").cases))
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "board.log")
        scripttest.write(log, stamped)
        proc = scripttest.run(["-m", "y2038lab", "kernel", "--cache", tmp, "--ktap", log, "--label", "rpi4",
                               "--out", tmp])
        expect("a board's KTAP imported", 0, proc.returncode)
        board = fsio.read_or_none(os.path.join(tmp, "boards", "rpi4", "KERNEL.md")) or ""
        expect("its report names the board and the size", True, "board rpi4" in board and "| scalar | 544 B" in board)
        proc = scripttest.run(["-m", "y2038lab", "kernel", "--cache", tmp, "--ktap", log, "--label", "../x", "--out", tmp])
        scripttest.one_line_error("a label that is a path", proc, "y2038lab kernel", "--label")
    return run


def check_tables(run):
    meta = {"tree": "Debian package linux-source-6.12 (test)", "command": "scripts/lab kernel", "commit": "0" * 12,
            "date": "2026-12-06 00:00 UTC", "host": "test", "cpus": 2, "elapsed": 60, "builds": [],
            "build_dirs": {("um", "scalar"): "/nonexistent"}, "config": {"um": "CONFIG_KUNIT=y\n"}}
    files = report.render({("um", "scalar"): (run, "KTAP", 180.0)}, [], meta)
    rows = list(__import__("csv").DictReader(files["kernel.csv"].splitlines()))
    shmem = next(r for r in rows if r["cache"] == "shmem_inode_cache")
    expect("the kernel's slab bytes equal the SLUB model's", shmem["model_slab_bytes"], shmem["slab_bytes"])
    expect("the model's objects per slab", ("12", "2"), (shmem["model_objperslab"], shmem["model_pagesperslab"]))
    expect("the replica's size for v6/scalar on x86_64 (SMP) beside UML's", ("544", "608"),
           (shmem["sizeof_inode"], shmem["replica_size"]))
    expect("KERNEL.md names the command", True, "Generated by `scripts/lab kernel`" in files["KERNEL.md"])
    # Timing over boots: timespec runs the same code (no difference), packed12 3 % slower.
    rng, rounds = random.Random(7), []
    for k in range(12):
        drift = 1 + rng.uniform(-0.02, 0.02)
        for r, factor in (("timespec64", 1), ("timespec", 1), ("packed12", 1.03)):
            noise = 1 + rng.uniform(-0.003, 0.003)
            rounds.append((k, r, {"get_mtime": round(400_000 * drift * factor * noise)},
                           1.0625 * (1 + rng.uniform(-0.002, 0.002)) if r == "timespec64" else None))
    stats = {(p, r, kind): s for p, r, s, kind in report.timing(rounds)}
    neg = stats[("get_mtime", "timespec", "negative")]
    pos = stats[("generic_fillattr_x17", "timespec64", "positive")]
    slow = stats[("get_mtime", "packed12", "compare")]
    expect("negative control: 1 inside its interval", True, neg[1] <= 1 <= neg[2])
    expect("positive control: detected, within 0.5 % of 1.0625", True, pos[1] > 1 and abs(pos[0] / 1.0625 - 1) < 0.005)
    expect("a 3 % difference detected", True, slow[1] > 1.02 and slow[3] < 0.05)
    expect("the positive control's text: nominal ratio, detected", True,
           report.positive_text(pos).startswith(f"x{pos[0]:.4f} [") and "(nominal 1.0625, " in report.positive_text(pos)
           and "detected" in report.positive_text(pos))
    expect("a control whose interval misses 1: placement, never a difference",
           "x0.9900 [0.9800, 0.9990], p = 0.04: 1 outside its interval though the code is the same: placement, counted "
           "in the band", report.fmt((0.99, 0.98, 0.999, 0.04), 0.3, control=True))
    expect("a comparison inside the band: within its control's reach", True,
           report.fmt((0.99, 0.98, 0.999, 0.04), 0.3).endswith("within its negative control's reach (±30.00 %)"))
    expect("an interval that misses 1.0625 is said", "x1.0600 [1.0590, 1.0610], p = 0.001 (nominal 1.0625, -0.24 % off): "
           "detected, its interval misses 1.0625", report.positive_text((1.06, 1.059, 1.061, 0.001)))


check_hunks()
check_tables(check_ktap())
scripttest.finish("kernel_test")
