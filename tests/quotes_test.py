#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""quotes_test.py - every quote of report/claims.toml against its source text,
character for character (report/quotes.py).

The series is carried in the tree (rfc2016/); a claim's quote must be whole
sentences of it, a defect's quote a whole line of its patch.  A quote whose
source the tree does not carry (LWN's article, later mails, commit messages)
is reported "skipped: source not in the tree" (set Y2038_QUOTE_SOURCES to a
folder with such texts to check them too).  The checker itself is held to
known answers: a cut sentence and an altered character are caught.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scripttest import expect, finish  # noqa: E402  (also puts scripts/ on the path)
from y2038lab.report import claims, quotes  # noqa: E402


def main():
    results = quotes.check_all(claims.load())
    for kind, key, status, detail in results:
        if status == quotes.SKIPPED:
            print(f"{kind} {key}: {status} ({detail})")
        else:
            expect(f"{kind} {key}: {detail}", "ok", status)
    carried = [r for r in results if r[2] != quotes.SKIPPED]
    expect("the series' quotes are checked, not skipped", True,
           {k for _, k, _, _ in carried} >= {"rfc_ram", "rfc_same_size", "rfc_inline", "rfc_setter_check", "rfc_valid",
                                             "rfc_default_range", "clamp_after_mount", "cover_single_patch"})
    # the checker on known answers
    row = {"key": "t", "source": "RFC 02"}
    whole = ("This makes each tuple(sec, nscec) use 12 bytes instead of 16 bytes. This will help save RAM space as "
             "inode structure is cached in memory.")
    expect("whole sentences", "ok", quotes.check(dict(row, quote=whole))[0])
    expect("a sentence cut short", "not whole", quotes.check(dict(row, quote=whole[:-20]))[0])
    expect("a sentence cut short, marked partial", "ok", quotes.check(dict(row, quote=whole[:-20], partial=True))[0])
    expect("one character changed", "not found", quotes.check(dict(row, quote=whole.replace("nscec", "nsec")))[0])
    expect("a source not carried", quotes.SKIPPED,
           quotes.check({"key": "t", "source": "commit 4e40eff0b573, v6.13", "quote": "x"}, extra="")[0])
    expect("a defect's line", "ok", quotes.check({"key": "d", "source": "RFC 03",
                                                  "quote": "s->s_time_max = FS_DEFAULT_MAX_TIMESTAMP;"}, "defect")[0])
    expect("half a defect's line", "not found", quotes.check({"key": "d", "source": "RFC 03",
                                                              "quote": "s->s_time_max ="}, "defect")[0])
    # a defect's patch lines (claims.toml "lines"), each a whole line of a patch its source names
    expect("every defect's lines are checked", True,
           {k for kind, k, st, _ in carried if kind == "defect"} == {d["key"] for d in claims.load()["defect"]})
    line = {"id": "D0", "key": "d", "source": "RFC 02, 07", "lines": ["+\tVFS_INODE_SET_XTIME(xtime, inode, __ts);"
                                                                      "\t\t\t\t\\"]}
    expect("a defect's line in the second patch it names", "ok", quotes.check(line, "defect")[0])
    expect("a defect's line with its tab turned to spaces", "not found",
           quotes.check(dict(line, lines=["+    VFS_INODE_SET_XTIME(xtime, inode, __ts);"]), "defect")[0])
    expect("a defect's line in a patch it does not name", "not found",
           quotes.check(dict(line, source="RFC 03"), "defect")[0])
    finish("quotes_test")


if __name__ == "__main__":
    main()
