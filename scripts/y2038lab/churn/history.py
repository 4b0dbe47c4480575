"""History mode: an approach's sites predicted on the tree before a change
against what the release that made it changed (`churn --tree OLD --after NEW`).

Unit: a source line of OLD.  Predicted: the lines of the approach's sites
(sites.predicted_lines).  Actual: a line diff (comments and strings blanked)
of every file spatch read; in each changed block the tokens that differ
(difflib, so whitespace and re-wrapping do not count) are laid on the OLD
lines they replace or follow.  A line is the conversion when they include an
i_?time/ia_?time field or a word of the vocabulary: the time-named functions,
macros and struct tags of NEW's time headers, and of NEW's fs.h that OLD's
lacks (accessors).  A timestamp line changed otherwise is noise, a line moved
unchanged nothing; lines only added (declarations) support a site.
"""
import collections
import difflib
import os
import re

from y2038lab.churn.sites import VFS_UPDATE_TIME
from y2038lab.churn.tree import in_macro_body, strip_c
from y2038lab.core import markdown
from y2038lab.core.fsio import OutputSet, csv_text

TIME_HEADERS = ("include/linux/time.h", "include/linux/time64.h", "include/uapi/linux/time.h",
                "include/linux/time32.h", "include/vdso/time64.h")
FIELDS = {"i_atime", "i_mtime", "i_ctime", "ia_atime", "ia_mtime", "ia_ctime"}
TOKEN_RE = re.compile(r"[A-Za-z_]\w*|\d\w*|\S")
_DECLARED = re.compile(r"^\s*(?:static\s+|extern\s+|inline\s+|__always_inline\s+)*[\w\s\*]*?\b([A-Za-z_]\w*)\s*\("
                       r"|\bstruct\s+([A-Za-z_]\w*)\s*\{|^#\s*define\s+([A-Za-z_]\w*)", re.M)
_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "typeof", "defined", "do"}
_SIGNATURE = re.compile(r"\b\w+\s*\(\s*(const\s+)?struct\s+\w+\s*\*")
_DECL = re.compile(r"^\s*(static\s+|const\s+|extern\s+)*struct\s+\w+\s+\**\w+\s*(\[[^]]*\])?\s*[,;=]")
COLUMNS = ("fs", "kind", "files", "predicted", "actual", "covered", "converted", "recall", "precision",
           "missed", "left_alone", "changed_otherwise", "noise_lines", "support_lines", "predicted_in_removed_files")


def declared(text):
    return {n for m in _DECLARED.finditer(text or "") for n in m.groups() if n} - _KEYWORDS


def vocabulary(read_old, read_new):
    """The conversion's words: NEW's time-header names plus fs.h's new time-named ones."""
    words = set().union(*(declared(read_new(h)) for h in TIME_HEADERS))
    words |= declared(read_new("include/linux/fs.h")) - declared(read_old("include/linux/fs.h"))
    return {w for w in words if "time" in w.lower()}


def file_diff(old_tree, new_tree, path):
    """(OLD's lines, [(old lines [(number, text)], new texts)] per changed
    block), comments and strings blanked (churn_tree.strip_c); None if NEW
    lacks PATH."""
    texts = []
    for tree in (old_tree, new_tree):
        try:
            with open(os.path.join(tree, path), "rb") as f:
                texts.append([t.rstrip() for t in strip_c(f.read().decode("latin-1")).split("\n")])
        except FileNotFoundError:
            return None
    a, b = texts
    ops = difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if a != b else []
    return a, [([(n + 1, a[n]) for n in range(i1, i2)], b[j1:j2]) for op, i1, i2, j1, j2 in ops if op != "equal"]


def changes(hunks, vocab):
    """{old line: (kind, text)} with kind "site" or "noise"; and the count of
    added lines that carry conversion words without replacing any line."""
    moved = ({t.strip() for h in hunks for _, t in h[0]} & {t.strip() for h in hunks for t in h[1]}) - {""}
    out, support = {}, 0
    for old, new in hunks:
        old = [(n, t) for n, t in old if t.strip() not in moved]
        new = [t for t in new if t.strip() not in moved]
        if not old:
            support += sum(1 for t in new if set(TOKEN_RE.findall(t)) & (vocab | FIELDS))
            continue
        ot = [(tok, n) for n, t in old for tok in TOKEN_RE.findall(t)]
        nt = [tok for t in new for tok in TOKEN_RE.findall(t)]
        touched = collections.defaultdict(set)
        for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, [t for t, _ in ot], nt,
                                                          autojunk=False).get_opcodes():
            if op != "equal" and ot:
                for t, n in ot[i1:i2]:  # a removed token: its own line
                    touched[n].add(t)
                for j in range(j1, j2):  # an inserted one: the line at the same place of the span
                    k = i1 + (j - j1) * (i2 - i1) // (j2 - j1) if i2 > i1 else max(i1 - 1, 0)
                    touched[ot[k][1]].add(nt[j])
        for n, text in old:
            if touched[n] & (vocab | FIELDS):
                out[n] = ("site", text)
            elif set(TOKEN_RE.findall(text)) & (vocab | FIELDS):
                out[n] = ("noise", text)
    return out, support


def miss_kind(text, line_uses, bad, in_macro=False):
    """Why the classifier did not predict a changed line."""
    if text.strip() in bad:
        return "in code spatch could not parse"
    if in_macro:
        return "in a macro body"
    if line_uses:
        return "inode timestamp access classified " + "/".join(sorted(line_uses))
    tokens = set(TOKEN_RE.findall(text))
    if tokens & {"i_atime", "i_mtime", "i_ctime"}:
        return "inode timestamp access not typed (macro body, unparsed, other base)"
    if tokens & {"ia_atime", "ia_mtime", "ia_ctime"}:
        return "iattr field met a VFS helper or an inode timestamp"
    if _SIGNATURE.search(text) and not _DECL.match(text):
        return "function signature (a timestamp parameter)"
    if _DECL.match(text):
        return "declaration of a variable or member retyped"
    return "other expression (clock value, kstat field, helper renamed)"


def span(lines, n):
    """The lines of the statement that starts at line N (up to 4): a site's
    conversion may land on a continuation line."""
    end = n
    while end < min(n + 3, len(lines)) and not lines[end - 1].rstrip().endswith((";", "{", "}")):
        end += 1
    return range(n, end + 1)


def compare(old_tree, new_tree, files, predicted, uses, bad, group_of, vocab):
    """Per group: predicted, actual, covered and converted line sets, and the
    listed misses.  An actual line is covered when it lies in the statement of
    a predicted one; a predicted line is converted when its statement holds
    an actual one.  predicted: {(file, line): what}; uses: {(file, line): set
    of use classes}."""
    rows = collections.defaultdict(lambda: collections.defaultdict(set))
    misses, noise = [], []
    for path in files:
        diff = file_diff(old_tree, new_tree, path)
        g = rows[group_of(path)]
        g["files"].add(path)
        if diff is None:
            g["predicted_in_removed_files"] |= {k for k in predicted if k[0] == path}
            continue
        lines, hunks = diff
        changed, support = changes(hunks, vocab)
        mine = {n: (what, span(lines, n)) for (p, n), what in predicted.items() if p == path}
        covered = {k for _, sp in mine.values() for k in sp}
        g["support_lines"] |= {(path, -i) for i in range(support)}
        for n, (kind, text) in sorted(changed.items()):
            (g["actual"] if kind == "site" else g["noise_lines"]).add((path, n))
            if kind == "site" and n in covered:
                g["covered"].add((path, n))
            elif kind == "site":
                misses.append((path, n, "changed, not predicted", miss_kind(
                    text, uses.get((path, n)), bad.get(path, ()), in_macro_body(old_tree, path, n)), text))
            else:
                noise.append((path, n, text))
        for n, (what, sp) in mine.items():
            g["predicted"].add((path, n))
            if any(changed.get(k, ("",))[0] == "site" for k in sp):
                g["converted"].add((path, n))
            else:
                why = "changed for another reason" if any(k in changed for k in sp) else "left alone"
                g["changed_otherwise" if why[0] == "c" else "left_alone"].add((path, n))
                misses.append((path, n, f"predicted, {why}", what, _line(old_tree, path, n)))
    return rows, sorted(misses), sorted(noise)


def _line(tree, path, n):
    with open(os.path.join(tree, path), encoding="latin-1") as f:
        return next((text.rstrip("\n") for i, text in enumerate(f, 1) if i == n), "")


def table(rows, kind_of):
    """CSV rows (COLUMNS): one per group with a predicted or actual site, TOTAL last."""
    out, total = [], collections.Counter()
    for group, g in rows.items():
        r = {c: len(g[c]) for c in COLUMNS[2:] if c not in ("recall", "precision", "missed")}
        r.update(fs=group, kind=kind_of(group), missed=r["actual"] - r["covered"])
        total.update({k: v for k, v in r.items() if isinstance(v, int)})
        if r["predicted"] or r["actual"] or r["predicted_in_removed_files"]:
            out.append(r)
    out.sort(key=lambda r: (r["kind"] != "vfs", r["kind"], r["fs"]))
    out.append(dict(total, fs="TOTAL", kind="total"))
    for r in out:
        r["recall"] = f"{r['covered'] / r['actual']:.3f}" if r["actual"] else ""
        r["precision"] = f"{r['converted'] / r['predicted']:.3f}" if r["predicted"] else ""
    return out


def update_time_lines(read_text, sites, files, group_of):
    """Lines of OLD that declare a registered ->update_time (its timestamp parameter's type)."""
    names = {(group_of(pos[0]), extra[1]) for pos, (_, extra) in sites.by_kind["iop"].items()
             if extra[0] == "update_time"} | {("vfs", name) for name in VFS_UPDATE_TIME}
    out = {}
    for path in files:
        wanted = [f for g, f in names if g == group_of(path)]
        for n, text in enumerate((read_text(path) or "").split("\n"), 1) if wanted else ():
            if any(re.search(rf"\b{re.escape(f)}\s*\(\s*struct\s+inode\b", text) for f in wanted):
                out[(path, n)] = "update_time signature"
    return out


def write(paths, rows, misses, noise, run):
    """reports/churn/history-*.md and .csv (fsio OutputSet: both or neither)."""
    t = rows[-1]
    kinds = collections.Counter(f"{what}: {kind}" for _, _, what, kind, _ in misses)
    cell = lambda text: f"`{text.strip().replace('|', '/')[:90]}`"  # noqa: E731
    L = [f"# History: {run['approach']} predicted on {run['old']} against {run['new']}\n",
         "Generated by `scripts/lab churn OLD NEW` (scripts/y2038lab/churn/history.py); do not edit. Figures are "
         "**source lines** of the old tree (sites, one per line), counted by Coccinelle and a line diff, not "
         "timings.\n", *markdown.table(("", ""), run["header"]),
         f"\n## Totals\n\nPredicted {t['predicted']} lines, {t['converted']} of them converted (a line of their "
         f"statement changed by the conversion); changed by the conversion {t['actual']} lines, {t['covered']} of "
         f"them predicted (in a predicted statement): **recall {t['recall']}, precision {t['precision']}** (goal: "
         f"0.9 and 0.8). Not counted: {t['noise_lines']} timestamp lines changed for another reason, "
         f"{t['support_lines']} lines only added (declarations of converted values), "
         f"{t['predicted_in_removed_files']} predicted lines in files the new tree no longer has; the unparsed "
         "files bound every figure (header).\n",
         *markdown.table(("why a line is a miss", "lines"), sorted(kinds.items(), key=lambda kv: -kv[1]), "lr"),
         "\n## Per directory\n", *markdown.table(COLUMNS, [[r[c] for c in COLUMNS] for r in rows], "ll" + "r" * 13),
         "\n## Every miss\n", *markdown.table(("where", "what", "kind", "old line"),
                                                [(f"`{p}:{n}`", what, kind, cell(text)) for p, n, what, kind, text in misses]),
         "\n## Noise: timestamp lines changed for another reason\n",
         *markdown.table(("where", "old line"), [(f"`{p}:{n}`", cell(text)) for p, n, text in noise])]
    with OutputSet() as out:
        out.write_text(paths[0], "\n".join(L) + "\n")
        out.write_text(paths[1], csv_text(rows, COLUMNS))
