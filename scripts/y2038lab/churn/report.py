"""The churn report: reports/churn/<tree>.csv and <tree>.md.

The CSV: one row per fs/ directory (fs/*.c is "vfs"), columns churn.sites.COLUMNS, then TOTAL: sums
over every row, except needs_manual_fs, bergmann_fs and bergmann_wide_fs, which count the rows of
kind "filesystem" with that flag (sites.approach_counts: Bergmann's claim, its wide reading).
"""
import collections
import os
import platform

from y2038lab.churn import sites
from y2038lab.core import markdown
from y2038lab.core.fsio import write_text

CHURN_DIR = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "churn"))


def _pairs(name):
    """(key, text) pairs of a tab-separated file of churn/ (# comments)."""
    with open(os.path.join(CHURN_DIR, name), encoding="utf-8") as f:
        return tuple(tuple(line.rstrip("\n").split("\t", 1)) for line in f if line.strip() and line[0] != "#")


DEFINITIONS = _pairs("columns.tsv")


def table(rows, kind_of, group_of, candidates, parse=None):
    """CSV rows (dicts, sites.COLUMNS) sorted vfs, filesystems, libraries; TOTAL last.
    unparsed_files: files of the row holding code spatch could not parse (PARSE)."""
    files = collections.Counter(group_of(path) for path in candidates)
    unparsed = collections.Counter(group_of(path) for path in candidates if (parse or {}).get(path))
    out = sorted((dict(counts, fs=group, kind=kind_of(group), files=files[group],
                       unparsed_files=unparsed[group]) for group, counts in rows.items()),
                 key=lambda r: (("vfs", "filesystem", "library").index(r["kind"]), r["fs"]))
    total = {c: sum(r[c] for r in out) for c in sites.COLUMNS[2:]}
    fs_rows = [r for r in out if r["kind"] == "filesystem"]
    for c in ("needs_manual_fs", "bergmann_fs", "bergmann_wide_fs"):  # filesystems, not every row
        total[c] = sum(r[c] for r in fs_rows)
    total.update(fs="TOTAL", kind="total", files=len(candidates), unparsed_files=sum(unparsed.values()))
    return out + [total]


def _pct(part, whole):
    return f"{100.0 * part / whole:.1f} %" if whole else "n/a"


def _holds(n):
    return "holds" if 23 <= n <= 37 else "does not hold"


def _minutes(seconds):
    return f"{int(seconds // 60)} min {int(seconds % 60)} s"


def series_stats(found, helpers):
    """Accessor sites split as mainline converted them: i_ctime in v6.6,
    i_atime/i_mtime in v6.7.  Per series: sites, distinct source lines
    holding them (what a diffstat counts, as (file, line)) and sites needing a manual rewrite."""
    info = sites.classify(found, helpers)
    out = {name: {"sites": 0, "lines": set(), "manual": 0} for name in ("i_ctime", "i_atime/i_mtime")}
    found_sites = [(pos, extra[1], bool(info[pos]["addr"] or info[pos]["member_write"]))
                   for pos, (_, extra) in found.by_kind["field"].items() if pos in info]
    found_sites += [(pos, extra[1], True) for pos, (_, extra) in found.by_kind["macro_arg"].items()
                    if len(extra) > 1 and extra[0].isupper()]
    for pos, field, manual in found_sites:
        series = out["i_ctime" if field == "i_ctime" else "i_atime/i_mtime"]
        series["sites"] += 1
        series["lines"].add(pos[:2])
        series["manual"] += manual
    return out


# What mainline and the 2016 threads did, as their own messages state it.
HISTORY = _pairs("history.tsv")
# Lines changed per file by the merged conversions, from the per-file logs of
# a mirror of mainline (git.zx2c4.com/laptop-kernel/log/<file>): (file,
# series, deletions, insertions).
SPOT_CHECKS = (("fs/minix/itree_common.c", "i_ctime", 2, 2),
               ("fs/minix/itree_common.c", "i_atime/i_mtime", 1, 1), ("fs/bad_inode.c", "i_ctime", 2, 1),
               ("fs/bad_inode.c", "i_atime/i_mtime", 1, 1))


def _history(L, total, rows, series, files_read):
    by_fs = {r["fs"]: r for r in rows}
    L += ["## Against history\n"] + markdown.table(("what", "as its authors reported it"), HISTORY) + [""]
    access = total["reads"] + total["writes"] + total["macro_args"]
    L.append("This tree's figures for the same conversions:\n")
    L += markdown.table(("series", "sites", "source lines holding them", "need a manual rewrite", "mechanical"),
                        [(f"{label} ({name})", st["sites"], len(st["lines"]), st["manual"],
                          _pct(st["sites"] - st["manual"], st["sites"]))
                         for name, label in (("i_ctime", "v6.6 ctime"), ("i_atime/i_mtime", "v6.7 atime/mtime"))
                         for st in [series[name]]], "lrrrr") + [""]
    cifs = [n for n in ("smb/client", "cifs") if n in by_fs][:1]
    rfc_rows = [n for n in ["vfs", *cifs, "fat", "ext4"] if n in by_fs]
    bc_rows = [n for n in ["btrfs", "ceph", *cifs, "xfs"] if n in by_fs]
    lines = len(series["i_ctime"]["lines"]) + len(series["i_atime/i_mtime"]["lines"])
    am = series["i_atime/i_mtime"]
    touched = sum(1 for r in rows if r["accessor_functions"] > 0)
    L.append(f"- The accessor conversion must touch {access} sites in fs/ on {lines} source lines; a "
             "one-site-per-line rewrite deletes about that many lines and adds as many. Mainline did it in "
             "two series of 89 patches each, fs/ and the rest of the tree (drivers, arch, ipc, mm, security) "
             f"together; this count covers fs/ only, in {touched} directories. The aggregate diffstat of the "
             "merged series was not in the sources this report could reach, so the comparison is made per "
             "file below and on the automated share.")
    L.append(f"- Automated share: Layton reports about 75 % of the atime/mtime conversion done with Coccinelle; the "
             f"mechanical share measured here is {_pct(am['sites'] - am['manual'], am['sites'])} "
             f"for atime/mtime and {_pct(access - total['needs_manual'], access)} overall.")
    if rfc_rows:
        L.append(f"- The 2016 RFC converted the VFS, cifs, fat and ext4; here ({', '.join(rfc_rows)}) they hold "
                 f"{sum(by_fs[n]['rfc_macros'] for n in rfc_rows)} RFC-macro sites, against the RFC's +691/-253 lines "
                 f"(which also carry its new infrastructure, on a v4.4-era tree).")
    if bc_rows:
        L.append(f"- The 2016 `vfs_time` boundary series converted btrfs, ceph, cifs and xfs; here "
                 f"({', '.join(bc_rows)}) they hold {sum(by_fs[n]['boundary_conversion'] for n in bc_rows)} "
                 "boundary-conversion sites, against its +139/-81 lines (on a v4.5-era tree).")
    L.append("\nSpot checks, per file (merged: lines deleted/inserted by the conversion commit; here: distinct "
             "source lines holding that series' sites in this tree):\n")
    L += markdown.table(("file", "series", "merged", "here"), [
        (f"`{path}`", name, f"-{deleted}/+{inserted}",
         sum(1 for f, _ in series[name]["lines"] if f == path) if path in files_read else "not in this tree")
        for path, name, deleted, inserted in SPOT_CHECKS], "llrr") + [""]


def write_md(path, rows, run, found, helpers, group_of):
    total = rows[-1]
    body = [r for r in rows if r["kind"] != "total"]
    fs_rows = [r for r in body if r["kind"] == "filesystem"]
    touching = [r for r in fs_rows if r["reads"] + r["writes"] > 0]
    bergmann = [r["fs"] for r in fs_rows if r["bergmann_fs"]]
    bergmann_wide = [r["fs"] for r in fs_rows if r["bergmann_wide_fs"]]
    bad_files = {f: lines for f, lines in run["parse"].items() if lines and f in set(run["candidates"])}
    bad_headers = sorted(f for f, lines in run["parse"].items() if lines and f not in run["candidates"])
    unchecked = [f for f in run["candidates"] if f not in run["parse"]]
    reasons = collections.Counter(reason for reason, _ in run["unresolved"].values())
    access = total["reads"] + total["writes"] + total["macro_args"]
    series = series_stats(found, helpers)
    n_unres = len(run["unresolved"])
    src = f", {run['source']}" if run["source"] else ""
    failed = ", ".join(f"`{f}` ({e})" for f, e in run["failures"]) or "none"
    why = ", ".join(f"{n} {r}" for r, n in sorted(reasons.items())) or "none"
    L = [f"# Churn: inode timestamp sites in {run['name']}\n",
         "Generated by `scripts/lab churn` (scripts/y2038lab/churn/, churn/inode_times.cocci); "
         "do not edit. Figures are **source sites** counted by Coccinelle, not timings.\n", *markdown.facts([
             ("Tree", f"`{run['name']}`: Linux {run['tree_version']}{src}"), ("spatch", run["spatch"]),
             ("Command", f"`{run['command']}`"),
             ("spatch command", f"`{run['spatch_command']}` (in the tree's top folder)"),
             ("Run time", f"{_minutes(run['seconds'])} wall in all ({_minutes(run['spatch_seconds'])} up to "
              f"the end of the matching pass, the rest `spatch --parse-c`; tree {run['unpacked']}), on "
              f"{platform.node()} ({platform.machine()}, {os.cpu_count()} CPUs, shared with other jobs: load "
              f"average {run['load']:.1f} at the end); CPU time of the spatch processes "
              f"{_minutes(run['cpu_seconds'])}"),
             ("Date", f"{run['started']:%Y-%m-%d %H:%M} UTC"),
             ("Files", f"{len(run['candidates'])} of the {run['files']} files under fs/ name a timestamp, "
              "clock or inode operation: spatch read those"),
             ("Parse", f"{len(bad_files)} of them hold code spatch could not parse "
              f"({sum(len(v) for v in bad_files.values())} distinct lines; in {len(run['parse_macro_only'])} "
              f"files only inside `#define` bodies); a bound on every count below. {len(bad_headers)} more "
              f"headers they include (read for types only) hold some; {len(unchecked)} not reported by "
              "`spatch --parse-c`"),
             ("spatch gave up on", f"{failed} (timeout {run['timeout']} s per file)"),
             ("Unresolved", f"{n_unres} i_?time field accesses not attributed ({why}); listed at the end")])]

    L += ["## Answers\n", "Sites each approach must change (TOTAL row; fs/ only, VFS included):\n"]
    L += markdown.table(("approach", "sites", "directories touched"), [
        (label, total[col], sum(1 for r in body if r[col] > 0))
        for col, label in (("rfc_macros", "RFC macros (2016, `VFS_INODE_*_XTIME`)"),
                           ("boundary_conversion", "boundary conversion (Chinner)"),
                           ("flag_day", "flag day (v4.18 style)"),
                           ("accessor_functions", "accessor functions (v6.6/v6.7)"))], "lrr") + [""]
    if n_unres:
        L.append(f"The {n_unres} unresolved accesses (end of this report) are in no row; counted, they would raise "
                 f"the RFC-macro and accessor totals to at most {total['rfc_macros'] + n_unres} and "
                 f"{total['accessor_functions'] + n_unres}.\n")
    L.append(f"- **Bergmann** (\"I see roughly 30 file systems that assign i_?time into or from a local variable or "
             f"pass it into by reference into a function that is not from VFS\"): **{len(bergmann)}** of the "
             f"{len(touching)} filesystems that touch an inode timestamp "
             f"({', '.join(bergmann) or 'none'}). Counting copies into their own structures and values "
             f"passed too: {len(bergmann_wide)}. Taking \"roughly 30\" as 23 to 37 (30 ± 25 %), it "
             f"{_holds(len(bergmann))} on this tree for the strict reading and {_holds(len(bergmann_wide))} "
             f"for the wide one (Bergmann counted a 2016 tree; `scripts/lab churn <v4.4 tree>` counts that one).")
    setget = total["setattr_sites"] + total["getattr_sites"]
    L.append(f"- **Chinner** (\"mainly the setattr/kstat operations\"): setattr and getattr sites are "
             f"{setget} of {total['boundary_sites']} boundary sites ({_pct(setget, total['boundary_sites'])}); "
             f"tv_sec/tv_nsec uses {total['member_accesses']}, copies into filesystem structures "
             f"{total['struct_copies']}, values and addresses given to filesystem functions "
             f"{total['value_passed'] + total['address_passed']}, update_time implementations "
             f"{total['update_time_sites']}.")
    L.append(f"- **Mechanical share** (sites a script could rewrite locally): "
             f"{total['needs_manual']} of the {access} accessor sites need more than a local rewrite "
             f"({_pct(access - total['needs_manual'], access)} mechanical); filesystems with at least one: "
             f"**{total['needs_manual_fs']}** of {len(touching)}.")
    L.append(f"- Clock calls: {total['current_time_calls']}, of which legacy "
             f"(`CURRENT_TIME*`, `current_fs_time()`): {total['legacy_time_calls']}.\n")

    L.append("## Per directory\n")
    cols = ("reads", "writes", "local_copies", "address_passed", "struct_copies", "member_accesses",
            "boundary_sites", "current_time_calls", "rfc_macros", "boundary_conversion", "flag_day",
            "accessor_functions", "needs_manual")
    L += markdown.table(("fs", "kind") + cols, [
        [f"**{r['fs']}**" if r["kind"] == "total" else r["fs"], r["kind"]] + [r[c] for c in cols]
        for r in body + [total]], "ll" + "r" * len(cols))
    L.append("\nAll columns, with files, value_passed, helper_uses, other_uses, macro_args, setattr/getattr/"
             f"update_time sites and the 0/1 flags: [{run['name']}.csv]({run['name']}.csv). "
             "kind: `filesystem` = the directory defines a `struct file_system_type`; `library` = it does not "
             "(iomap, jbd2, nls, ...).\n")

    L += ["## What each column counts\n"] + markdown.table(("column", "sites"), DEFINITIONS)
    L.append("\nFunctions \"from the VFS\": named in " + ", ".join(f"`{h}`" for h in sites.HELPER_HEADERS)
             + " or defined in fs/*.c. Types come from spatch's inference with `--local-includes` and "
             "`include/linux/{fs,dcache,netfs}.h`; an access whose base it could not type is not counted "
             "(see Unresolved).\n")

    _history(L, total, body, series, set(run["candidates"]))

    L += ["## Token accounting\n", "Every `i_atime`/`i_mtime`/`i_ctime` token outside comments and strings "
          "in the files read, by what it turned out to be (the check that no site was dropped):\n"]
    L += markdown.table(("tokens", "count"), sorted(run["tokens"].items()) + [("**all**", sum(run["tokens"].values()))],
                        "lr") + [""]

    L.append("## Calls that receive a timestamp's address (audit)\n")
    callees = collections.Counter((extra[1], "VFS" if extra[1] in helpers else group_of(pos[0]))
                                  for pos, (_, extra) in found.by_kind["addr_arg"].items()
                                  if extra[0] in sites.INODE_TYPES)
    L += markdown.table(("function", "counted as", "sites"), [
        (f"`{fn}`", sites.helper_use(fn) if where == "VFS" else f"address_passed ({where})", n)
        for (fn, where), n in sorted(callees.items(), key=lambda kv: (-kv[1], kv[0]))], "llr") + [""]

    L.append("## Parse failures and unresolved accesses\n")
    if bad_files:
        L.append("Files with code `spatch --parse-c` could not parse (lines it reported; the matching pass skips "
                 "such code, and any i_?time access in it is listed below as unparsed; iattr/kstat uses there are "
                 "not checked): "
                 + ", ".join(f"`{f}` ({len(bad_files[f])})" for f in sorted(bad_files)) + ".\n")
    else:
        L.append("`spatch --parse-c` parsed every file it read.\n")
    if bad_headers:
        L.append("Headers outside that set, included by the files read and read for their types only, with lines "
                 "spatch could not parse: " + ", ".join(f"`{f}`" for f in bad_headers) + ".\n")
    if unchecked:
        L.append(f"Not reported by `spatch --parse-c` ({len(unchecked)}): "
                 + ", ".join(f"`{f}`" for f in unchecked) + "\n")
    if run["unresolved"]:
        L += markdown.table(("where", "reason", "source line"), [
            (f"`{f}:{line}`", reason, f"`{text.replace('|', '/')[:100]}`")
            for (f, line, _), (reason, text) in sorted(run["unresolved"].items())]) + [""]
    else:
        L.append("Every i_?time field access in the files read was attributed.\n")
    write_text(path, "\n".join(L) + "\n")
