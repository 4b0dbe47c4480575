#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""churn_test.py - scripts/lab churn's counting on the invented tree tests/churn/tree.

Runs the real spatch (Debian's coccinelle) with churn/inode_times.cocci over
the fixture and asserts every count of the CSV.  The expected rows are
derived by hand from the fixture sources: each access there carries a
comment saying what it must count as (W/R, then its use), and the arithmetic
of the approach columns is spelled out below.  Also: the tarball path
(unpack once, reuse), bad input (one-line error, exit 2, nothing written)
and the small parsers.
"""
import csv
import os
import subprocess
import sys
import tarfile
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
sys.path.insert(0, os.path.join(top, "scripts"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scripttest import expect, finish  # noqa: E402
from y2038lab.churn import history as churn_history  # noqa: E402
from y2038lab.churn import report as churn_report  # noqa: E402
from y2038lab.churn import run as churn_module  # noqa: E402
from y2038lab.churn import sites as churn_sites  # noqa: E402
from y2038lab.churn import tree as churn_tree  # noqa: E402

FIXTURE = os.path.join(here, "churn", "tree")
HISTORY = os.path.join(here, "churn", "history")


def churn(*args):
    env = dict(os.environ, PYTHONPATH=os.path.join(top, "scripts"))
    return subprocess.run([sys.executable, "-m", "y2038lab", "churn", "--jobs", "2", *args], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=600)


def rows(path):
    with open(path, encoding="utf-8") as f:
        return {r["fs"]: r for r in csv.DictReader(f)}


# Base counts per row, from the fixture's comments:
#   columns: reads writes member local struct value address helper other macro
#            setattr getattr update_time clock legacy needs_manual unresolved retyped_locals
#            retyped_local_copies vfs_value clock_stores tv_sec_formats
BASE = {
    "vfs":        (0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    # alphafs: member W x6 (4 decode, ++, ++) + R x2; locals mt, ct, other->i_mtime = mt;
    # struct: cached_mtime, return (= *now in ->update_time is the VFS's value: neutral);
    # needs_manual: 3 addresses + 6 member writes + 1 macro argument; clock local: now in
    # alpha_touch() (retyped), its copy inode->i_atime = now one of the 4 local copies;
    # the setattr and getattr sites both move whole values
    "alphafs":    (12, 13, 8, 4, 2, 1, 1, 2, 0, 1, 1, 1, 1, 3, 1, 10, 0, 1, 1, 2, 0, 0),
    # betafs: the chain's middle (inode->i_mtime between two inode timestamps) neutral; BETA_SEC(inode->i_mtime)
    # a member access (the macro takes its tv_sec: sites.member_macros)
    # a member access (the macro takes its tv_sec: sites.member_macros); *(u64 *)&inode->i_ctime and
    # sizeof(inode->i_atime) neutral (compile unchanged), the address a manual site
    # memcpy(&raw->t, &inode->i_mtime, ...) a struct copy (bytes into betafs's storage); memcpy() between
    # two inode timestamps neutral; needs_manual: the four addresses
    "betafs":     (12, 6, 3, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0, 0),
    "deltafs":    (1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0),
    "smb/client": (1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    # gammalib: file_inode(file)->i_mtime.tv_sec in lib.c; gamma_vfs(gf)->i_?time.tv_sec x3 in stat.c,
    # typed although lib.c included gamma.h first in the same spatch process (run.inode_functions); one of
    # them printed for %lu: a tv_sec format site (the cast one for %lld is none)
    "gammalib":   (4, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
}
BASE_COLUMNS = ("reads", "writes", "member_accesses", "local_copies", "struct_copies", "value_passed",
                "address_passed", "helper_uses", "other_uses", "macro_args", "setattr_sites",
                "getattr_sites", "update_time_sites", "current_time_calls", "legacy_time_calls",
                "needs_manual", "unresolved", "retyped_locals", "retyped_local_copies", "vfs_value_sites",
                "clock_stores", "tv_sec_formats")
KIND = {"vfs": "vfs", "alphafs": "filesystem", "betafs": "filesystem", "deltafs": "filesystem",
        "smb/client": "filesystem", "gammalib": "library"}
FILES = {"vfs": 1, "alphafs": 2, "betafs": 1, "deltafs": 1, "smb/client": 1, "gammalib": 2}
# The approach columns, worked out by hand for the two rows that exercise them:
#   alphafs boundary_sites = 1+1+1 + 8+2+1+1 = 15, boundary_conversion = 15+4 = 19,
#   flag_day = (4-1+1)+2+1+1+2+0+1+2 = 13, accessor = 12+13+1 = 26, rfc = 26+1 = 27
#   betafs  boundary_sites = 3 + 1 (member, struct), flag_day = 1 (struct), accessor = rfc = 18
#   vfs     flag_day = 1 (timestamp_truncate()'s result)
#   gammalib boundary_sites = 4 (member), flag_day = 1 (tv_sec_formats), accessor = rfc = 4
APPROACHES = {
    "vfs":        dict(boundary_sites=0, rfc_macros=2, boundary_conversion=0, flag_day=1, accessor_functions=2),
    "alphafs":    dict(boundary_sites=15, rfc_macros=27, boundary_conversion=19, flag_day=13, accessor_functions=26),
    "betafs":     dict(boundary_sites=4, rfc_macros=18, boundary_conversion=4, flag_day=1, accessor_functions=18),
    "deltafs":    dict(boundary_sites=0, rfc_macros=2, boundary_conversion=0, flag_day=0, accessor_functions=2),
    "smb/client": dict(boundary_sites=1, rfc_macros=1, boundary_conversion=1, flag_day=1, accessor_functions=1),
    "gammalib":   dict(boundary_sites=4, rfc_macros=4, boundary_conversion=4, flag_day=1, accessor_functions=4),
}


def expected_table():
    table = {}
    for fs, base in BASE.items():
        row = dict(zip(BASE_COLUMNS, base), **APPROACHES[fs])
        row.update(fs=fs, kind=KIND[fs], files=FILES[fs],
                   needs_manual_fs=int(row["needs_manual"] > 0),
                   bergmann_fs=int(row["local_copies"] + row["address_passed"] > 0),
                   bergmann_wide_fs=int(row["local_copies"] + row["address_passed"] + row["struct_copies"]
                                        + row["value_passed"] > 0),
                   unparsed_files=int(fs == "deltafs"))
        table[fs] = {k: str(v) for k, v in row.items()}
    total = {c: str(sum(int(r[c]) for r in table.values())) for c in churn_sites.COLUMNS[2:]}
    # TOTAL's flags count filesystems: alphafs has manual sites and Bergmann's couplings;
    # smb/client's struct copy makes it count in the wide reading (gammalib is a library)
    total.update(fs="TOTAL", kind="total", files="8", needs_manual_fs="2", bergmann_fs="1", bergmann_wide_fs="3")
    table["TOTAL"] = total
    return table


def check_table(case, got):
    want = expected_table()
    expect(f"{case}: rows", sorted(want), sorted(got))
    for fs in sorted(set(want) & set(got)):
        for col in churn_sites.COLUMNS:
            expect(f"{case}: {fs}.{col}", want[fs][col], got[fs][col])


with tempfile.TemporaryDirectory() as tmp:
    # --- the fixture tree, by path
    out = os.path.join(tmp, "out")
    run = churn("--tree", FIXTURE, "--out", out)
    expect("tree run: exit 0", 0, run.returncode)
    if run.returncode:
        print(run.stderr)
    csv_path = os.path.join(out, "tree.csv")
    if os.path.exists(csv_path):
        got = rows(csv_path)
        check_table("tree", got)
        expect("CSV: TOTAL is the last row", "TOTAL", list(got)[-1])
        with open(os.path.join(out, "tree.md"), encoding="utf-8") as f:
            md = f.read()
        # the provenance line is the one the committed reports carry (provenance_test holds them to it)
        expect("md: provenance line", churn_report.GENERATED, (md.splitlines() + ["", "", ""])[2])
        for needle in ("| Tree | `tree`: Linux 6.1.0-fixture |",
                       "| spatch gave up on | none (timeout 120 s per file) |",
                       "2 i_?time field accesses not attributed (1 in code spatch could not parse, 1 type unknown)",
                       "| `fs/deltafs/super.c:9` | type unknown |",
                       "| `fs/deltafs/super.c:17` | in code spatch could not parse |",
                       "not checked): `fs/deltafs/super.c` (1).",
                       "it does not hold on this tree for the strict reading and does not hold for the wide one",
                       "**1** of the 4 filesystems that touch an inode timestamp (alphafs)",
                       "| `alpha_time_to_disk` | address_passed (alphafs) | 1 |",
                       # ctime: alphafs 7 sites on 7 lines (2 addresses), betafs 3 on 2 lines
                       "| v6.6 ctime (i_ctime) | 14 | 13 | 4 | 71.4 % |",
                       "| v6.7 atime/mtime (i_atime/i_mtime) | 39 | 34 | 10 | 74.4 % |",
                       # every token: 52 inode accesses, 4 on-disk fields, 3 declarations,
                       # 1 macro argument, 2 unresolved
                       "| struct inode accesses | 52 |", "| accesses of other structures (on-disk inodes, ...) | 4 |",
                       "| **all** | 62 |",
                       # the local header's function declared to every file (run.inode_functions)
                       "returning a `struct inode *` (spatch 1.1.1 gives a local header's functions only to the "
                       "first file of its process that includes it): `gamma_vfs()` |",
                       "a timestamp given to one counts as a member access (sites.member_macros): `BETA_SEC()` |"):
            expect(f"md has {needle[:60]!r}", True, needle in md)
    else:
        expect("tree run: CSV written", True, False)

    # --- the same tree as a tarball: unpacked into the cache once, then reused
    tarball = os.path.join(tmp, "linux-fixture.tar.xz")
    with tarfile.open(tarball, "w:xz") as tar:
        tar.add(FIXTURE, arcname="linux-fixture")
    cache = os.path.join(tmp, "cache")
    run = churn("--tarball", tarball, "--cache", cache, "--out", out)
    expect("tarball run: exit 0", 0, run.returncode)
    stamp = os.path.join(cache, "linux-fixture", churn_tree.STAMP)
    expect("tarball: stamp written", True, os.path.exists(stamp))
    if os.path.exists(os.path.join(out, "linux-fixture.csv")):
        got = rows(os.path.join(out, "linux-fixture.csv"))
        expect("tarball: same table as the tree", rows(csv_path), got)
    before = os.stat(stamp).st_mtime_ns if os.path.exists(stamp) else None
    run = churn("--tarball", tarball, "--cache", cache, "--out", out)
    expect("tarball rerun: exit 0", 0, run.returncode)
    expect("tarball rerun: cache reused (stamp untouched)", before,
           os.stat(stamp).st_mtime_ns if os.path.exists(stamp) else None)
    expect("tarball: README not unpacked (only fs/, include/, Makefile)", False,
           os.path.exists(os.path.join(cache, "linux-fixture", "README")))

    # --- bad input: one line, exit 2, nothing written, the old report kept
    bad_out = os.path.join(tmp, "bad")
    os.makedirs(bad_out)
    with open(os.path.join(bad_out, "tree.md"), "w", encoding="utf-8") as f:
        f.write("previous report\n")
    no_fs = os.path.join(tmp, "no_fs")
    os.makedirs(os.path.join(no_fs, "include"))
    not_tar = os.path.join(tmp, "linux-junk.tar.xz")
    with open(not_tar, "wb") as f:
        f.write(b"this is not a tarball\n")
    for case, args, needle in (
            ("missing tree", ["--tree", os.path.join(tmp, "nope")], "not a folder"),
            ("tree without fs/", ["--tree", no_fs], "not a kernel source tree"),
            ("not a tarball", ["--tarball", not_tar, "--cache", cache], "cannot unpack"),
            ("no spatch", ["--tree", FIXTURE, "--spatch", os.path.join(tmp, "no-spatch")], "coccinelle"),
            ("bad --jobs", ["--tree", FIXTURE, "--jobs", "0"], "must be positive"),
            ("bad --name", ["--tree", FIXTURE, "--name", "a/b"], "--name")):
        run = churn(*args, "--out", bad_out)
        lines = run.stderr.strip().splitlines()
        expect(f"{case}: exit 2", 2, run.returncode)
        expect(f"{case}: one error line", 1, sum("churn: error: " in line for line in lines))
        expect(f"{case}: says why", True, bool(lines) and needle in lines[-1])
    expect("bad input: old report kept", "previous report\n",
           open(os.path.join(bad_out, "tree.md"), encoding="utf-8").read())
    expect("bad input: nothing else written", ["tree.md"], sorted(os.listdir(bad_out)))
    expect("not a tarball: no half tree left in the cache", ["linux-fixture"], sorted(os.listdir(cache)))

    # --- the parsers
    try:
        churn_sites.parse_records(["field\tfs/a.c\tx\t3\tf\tstruct inode\ti_mtime\n"])
        expect("record with a bad line number: ValueError", "ValueError", "no error")
    except ValueError:
        expect("record with a bad line number: ValueError", "ValueError", "ValueError")
    recs = churn_sites.parse_records(["field\tfs/a.c\t2\t3\tf\tstruct inode\ti_mtime\n", "\n"])
    expect("record parsed", [("field", "fs/a.c", 2, 3, "f", ("struct inode", "i_mtime"))], recs)
    text = 'a /* i_mtime */ "i_ctime" x->i_atime // i_mtime\n'
    expect("strip_c: same length", len(text), len(churn_tree.strip_c(text)))
    expect("strip_c: comments and strings blanked", ["i_atime"],
           churn_tree.TOKEN_RE.findall(churn_tree.strip_c(text)))
    src = os.path.join(tmp, "fs", "t.c")
    os.makedirs(os.path.dirname(src))
    with open(src, "w", encoding="utf-8") as f:
        f.write("struct d { int i_mtime; };\nstruct d x = { .i_mtime = 1 };\nint y = p->i_ctime.tv_sec + q.i_atime;\n")
    expect("tokens: name, designator, fields (column in bytes from 0)",
           [(1, 15, "name"), (2, 16, "designator"), (3, 11, "field"), (3, 30, "field")],
           [t[:3] for t in churn_tree.tokens(tmp, "fs/t.c")])
    log = ("init_defs_builtins: /usr/lib/coccinelle/standard.h\n"
           "EXN: Coccinelle_modules.Common.Timeout in fs/ext4/inode.c\n")
    expect("spatch log: a timeout is a failure of that file", [("fs/ext4/inode.c", "Timeout")],
           churn_module.spatch_failures(log))
    expect("spatch log: nothing else is", [], churn_module.spatch_failures("HANDLING: fs/a.c\n"))
    fixture_files = churn_tree.source_files(FIXTURE)
    expect("inode_functions: the fs/ headers' functions returning a struct inode pointer", ["gamma_vfs"],
           churn_module.inode_functions(churn_module.read_text_in(FIXTURE), fixture_files))
    # the case it is for: stat.c shares a spatch process with lib.c, which includes gamma.h first
    slice_of = {f: i for i, chunk in enumerate(churn_module.share(churn_tree.candidates(FIXTURE, fixture_files), 2))
                for f in chunk}
    expect("fixture: lib.c and stat.c in one slice", True,
           slice_of.get("fs/gammalib/lib.c") == slice_of.get("fs/gammalib/stat.c") is not None)
    group_of, kind_of = churn_tree.grouper(FIXTURE, fixture_files)
    # the conversion that prints an argument, from spatch's text of the arguments before it
    for before, n, want in (('"ctime %ld.%09ld -> %ld.%09ld inc\\n", a, b', 3, ("l", "d")),
                            ('"%*s %lu", 4, "x"', 3, ("l", "u")), ('"%*d", w', 2, ("", "d")), ('"%*d"', 1, None),
                            ('KERN_INFO "a, %%" " %llx"', 1, ("ll", "x")), ('"%llx", p', 2, None),
                            ('"set", n', 2, None),
                            ('fmt, a', 2, None), ('"%ld" "%ld"', 2, None)):
        expect(f"printed_conversion({before!r}, {n})", want, churn_sites.printed_conversion(before, n))
    # only a long's conversion warns anew when tv_sec becomes a long long
    expect("long_conversion: %ld %lu %lx, not %d %lld %zd %jd %s",
           [True, True, True, False, False, False, False, False],
           [churn_sites.long_conversion(c) for c in (("l", "d"), ("l", "u"), ("l", "x"), ("", "d"), ("ll", "d"),
                                                     ("z", "d"), ("j", "d"), ("l", "s"))])
    expect("member_macros: only macros using each parameter as (p).tv_sec/(p).tv_nsec", {"SEC", "BOTH"},
           churn_sites.member_macros({"a.h": "#define SEC(t) ((t).tv_sec)\n#define BOTH(a, b) (a.tv_sec + \\\n"
                                             "(b).tv_nsec)\n#define RAW(t) (t)\n#define MIX(t) ((t).tv_sec + t.x)\n"
                                             "#define TWICE(t) ((t).tv_sec)\n", "b.h": "#define TWICE(t) f(t)\n"}.get,
                                     ["a.h", "b.h"]))
    expect("arguments_before: the source's arguments before the field's, comments blanked, strings kept",
           'a, "%ld, (" KERN "y", g(b, c)',
           churn_sites.arguments_before('f(a, /* x, ( */ "%ld, (" KERN "y", g(b, c),\n  p->i_mtime.tv_sec, 3);', 2, 5))
    expect("arguments_before: no call around it", None, churn_sites.arguments_before("x = p->i_mtime.tv_sec;", 1, 7))
    expect("split_arguments: strings and calls whole", ['"a, %ld" "b"', "f(x, y)", "'\\''", "z"],
           churn_sites.split_arguments('"a, %ld" "b", f(x, y), \'\\\'\', z'))
    expect("group: fs/attr.c is vfs", "vfs", group_of("fs/attr.c"))
    expect("group: fs/smb/ is split", "smb/client", group_of("fs/smb/client/file.c"))
    expect("kind: no file_system_type -> library", "library", kind_of("gammalib"))

    # --- history mode: tests/churn/history/before predicted against after/ (each line's fate is
    # said in before/fs/epsfs/inode.c): predicted 16 (clock local), 18 (local), 20 (struct copy),
    # 21 (address); changed by the conversion 16, 17 (a declaration retyped) and 20; 21 and 24
    # changed otherwise (noise), 25 moved; one support line; old.c removed (its predicted site
    # in no count)
    hout = os.path.join(tmp, "hist")
    run = churn("--tree", os.path.join(HISTORY, "before"), "--after", os.path.join(HISTORY, "after"), "--out", hout)
    expect("history run: exit 0", 0, run.returncode)
    hcsv = os.path.join(hout, "history-v4.17-v4.18.csv")
    got = rows(hcsv) if os.path.exists(hcsv) else {}
    want = dict(fs="epsfs", kind="filesystem", files="2", predicted="4", actual="3", covered="2", converted="2", recall="0.667",
                precision="0.500", missed="1", left_alone="1", changed_otherwise="1", noise_lines="2",
                support_lines="1", predicted_in_removed_files="1")
    for col in churn_history.COLUMNS:
        expect(f"history: epsfs.{col}", want[col], got.get("epsfs", {}).get(col))
    # the review's cases (before/fs/zetafs/inode.c): predicted 15 (struct copy of the split assignment),
    # 16 (clock store), 21 (clock store into a parameter), 27 (struct copy), 33 (local copy), 40 (helper
    # use, a continuation line), 51 (update_time signature over lines); changed by the conversion 15, 16,
    # 19 (parameter retyped), 27 (ts64, a local new in the block), 32 (declaration retyped), 39 (helper
    # renamed), 46 (a cast for %lld), 51; one support line (ts64's declaration); the tv_sec format sites
    # (zeta_log() is variadic): 46 (%ld, cast), 61 (%lu, left alone: against precision), 62 (an iattr's, %ld,
    # cast), 66 (%ld after a '*' width and a %s, cast); 63 (a cast already) and 64 (tv_nsec) are none;
    # 85 (memcpy() into zetafs's storage: a struct copy, converted)
    want = dict(fs="zetafs", kind="filesystem", files="1", predicted="12", actual="11", covered="11", converted="11",
                recall="1.000", precision="0.917", missed="0", left_alone="1", changed_otherwise="0", noise_lines="0",
                support_lines="1", predicted_in_removed_files="0")
    for col in churn_history.COLUMNS:
        expect(f"history: zetafs.{col}", want[col], got.get("zetafs", {}).get(col))
    expect("history: rows", ["epsfs", "zetafs", "TOTAL"], list(got))
    hmd = os.path.join(hout, "history-v4.17-v4.18.md")
    md = open(hmd, encoding="utf-8").read() if os.path.exists(hmd) else ""
    expect("history md: provenance line", churn_history.GENERATED, (md.splitlines() + ["", "", ""])[2])
    for needle in ("| `fs/epsfs/inode.c:17` | changed, not predicted | declaration of a variable or member retyped |",
                   "| `fs/epsfs/inode.c:18` | predicted, left alone | local |",
                   "| `fs/epsfs/inode.c:21` | predicted, changed for another reason | address |",
                   "| `fs/zetafs/inode.c:61` | predicted, left alone | tv_sec format |",
                   "**recall 0.929, precision 0.812**", "| spatch | spatch version"):
        expect(f"history md has {needle[:50]!r}", True, needle in md)
    run = churn("--tarball", tarball, "--cache", cache, "--after", FIXTURE, "--out", bad_out)
    expect("history: --after needs --tree (exit 2)", 2, run.returncode)
    # the diff logic alone: re-wrapping is no change; a conversion word is; a move is neither
    vocab = {"wrap64"}
    hunks = [([(5, "x = f(a,"), (6, "      b);")], ["x = f(a, b);"]),
             ([(9, "y = ip->i_mtime;")], ["y = wrap64(ip->i_mtime);"]),
             ([(12, "g(ip->i_ctime);")], []), ([], ["g(ip->i_ctime);"]), ([], ["struct wrap64 t;"])]
    expect("changes: rewrap none, conversion a site, move nothing, one support line",
           ({9: ("site", "y = ip->i_mtime;")}, 1), churn_history.changes(hunks, vocab))
    # 73 (a chain of inode timestamps), 74 (a macro taking tv_sec), 79 (sizeof) and 80 (an address cast to
    # another pointer type) are no sites: left alone, not predicted
    # 90 (a chain of iattr fields ending in the clock) neither
    for line in (15, 16, 19, 21, 27, 32, 33, 39, 40, 46, 51, 62, 63, 64, 66, 73, 74, 79, 80, 85, 90, 91):
        expect(f"history md: zetafs line {line} is no miss", False, f"`fs/zetafs/inode.c:{line}`" in md)
    toks = churn_history.TOKEN_RE.findall("f((long long)inode->i_ctime.tv_sec, d_inode(d)->i_mtime)")
    expect("chain_starts: a cast's operand and a call's result", ["inode", "d_inode"],
           [toks[i] for i in sorted(churn_history.chain_starts(toks))])
    expect("local_names: declarators of a time type, initialisers skipped", {"a", "b", "ts64"},
           churn_history.local_names(["struct timespec a, *b = f(x, y);", "struct timespec64 ts64 = g(*ts);",
                                      "struct other c;"], {"timespec", "timespec64"}))
    lines = ["{", "x = f(a,", "      b);", "y = 1;"]
    expect("span: the statement around a continuation line", [2, 3], list(churn_history.span(lines, 3)))
    expect("vocabulary: functions, struct tags, macros; no keywords",
           {"f64", "ts64", "M64"}, churn_history.declared("static inline int f64(int a)\n{ if (a) return sizeof(a); }\n"
                                                          "struct ts64 {\n#define M64 1\n"))

finish("churn_test")
