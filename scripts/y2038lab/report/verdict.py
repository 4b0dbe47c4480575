"""The verdict: one ruling per claim of claims.toml, as REPORT.md's section,
README's short list and reports/VERDICT.txt (plain text, mail-ready).
gather() reads the evidence once; rulings(), section(), summary_of() and text()
render it; contradictions() lists every report line a ruling restates that the
report does not print (`verdict --check`, a CTest).
"""
import argparse
import difflib
import os
import sys
import textwrap

from y2038lab.core import fsio, markdown, results
from y2038lab.report import claims, evidence, fragment, quotes, runtime

RULES = {**claims.RULES, **runtime.RULES}
WIDTH = 79
RULE = ("Bytes (pahole), instruction counts (qemu-user, per ABI), site counts (Coccinelle) and tests decide. "
        "Host timings stand beside a ruling, never in its words: with their interval where the paired "
        "measurement resolves the difference against its own negative control (the same code compiled "
        "twice), \"not measurable here\" otherwise; their n counts processes, each running its own link "
        "order of the program, and the interval is over them. A 2016 claim is decided on the 2016 proposal's "
        "layout and the tree it patched (body v4_4), today's body (v6) beside it.")


def gather(runs=(), sizes_dir=None, cost_csv=None, churn_dir=None, measure="real"):
    """An Evidence from paths (or loaded Runs); InputError on bad input."""
    loaded = [results.load_run(r) if isinstance(r, (str, os.PathLike)) else r for r in runs or ()]
    checked, differing = evidence.kernel_check(sizes_dir)
    return claims.Evidence(loaded, evidence.read_sizes(sizes_dir), evidence.read_cost(cost_csv),
                           evidence.read_churn(churn_dir), checked, differing,
                           {"sizes": sizes_dir, "cost": cost_csv, "churn": churn_dir}, measure,
                           evidence.read_slab(sizes_dir and os.path.join(sizes_dir, "slab.csv")),
                           quotes.SERIES if os.path.isdir(quotes.SERIES) else None,
                           evidence.read_kernel(sizes_dir and os.path.join(os.path.dirname(os.path.normpath(sizes_dir)),
                                                                           "kernel")))


def provenance(ev):
    """[line]: each input report and when (commit, date) it was generated, as it states it."""
    p = ev.paths
    paths = [os.path.join(p["sizes"], n) for n in ("sizes.md", "slab.md") if p.get("sizes")]
    paths += [os.path.join(os.path.dirname(p["cost"]), "COST.md")] if p.get("cost") else []
    paths += evidence.tree_files(p["churn"], ".md") if p.get("churn") else []
    paths += [os.path.join(os.path.dirname(os.path.normpath(p["sizes"])), "kernel", "KERNEL.md")] if p.get("sizes") else []
    out = []
    for path in filter(os.path.isfile, paths):
        text = fsio.read_text(path, "report")
        gen = fragment.generated_line(text).split(";")[0].rstrip(".")
        date = next((x.split("|")[2].strip() for x in text.splitlines() if x.startswith("| Date |")), "")
        out.append(f"{path}: {gen}{', ' + date if date else ''}")
    return out


def rulings(ev, data=None):
    """Every claim's Ruling, in the order of claims.toml."""
    return [claims.rule(row, ev, RULES) for row in (data or claims.load())["claim"]]


def speaker(claim):
    """Who said it: the speaker, or the reporter whose sentence it is (reported_by)."""
    if claim.get("reported_by"):
        how = claim.get("reporting", "reporting")  # "following": LWN's own sentence after the speaker's point
        return f"{claim['source']} ({claim['reported_by']}), {how} {claim['who']}"
    return f"{claim['who']}, {claim['source']}"


def quoted(claim):
    """The quote as printed: "..." around a partial one, and why it cannot be checked where it cannot."""
    q = claim["quote"]
    if not q:
        return f" (not quoted: {claim['paraphrase']})"
    q = f"...{q}..." if claim.get("partial") else q
    return f": \"{q}\"" + (" (not checkable in the tree)" if claim.get("checkable") is False else "")


def source_of(claim):
    return speaker(claim) + quoted(claim)


def history(data):
    """[line]: the dated history of how the debate was settled, each with its link."""
    return [f"{h['date']}: {h['what']}. " + (f"Link: {h['link']}" if h.get("link") and h.get("verified")
                                              else "Link not verified.") for h in data.get("history", [])]


def section(ev, heading="## Verdict"):
    data = claims.load()
    rows = rulings(ev, data)
    runs = "; ".join(f"{results.run_label(r)} ({r.path})" for r in ev.runs) or "no benchmark run given"
    out = [heading, "", data["headline"], "", "How it was settled:", ""] + [f"- {h}" for h in history(data)]
    out += ["", RULE, "", f"Host timings: {runs}.", "", "Inputs:", ""] + [f"- {x}" for x in provenance(ev)]
    out += [f"- {claims.checked_line(ev)[0].upper()}{claims.checked_line(ev)[1:]}.", ""]
    cells = [(source_of(r.claim), r.ruling, "; ".join(r.figures) or "-", r.claim["changes_if"]) for r in rows]
    out += markdown.table(["claim (source, quoted)", "ruling", "deciding figures", "would change if"],
                          [[x.replace("|", "\\|").replace("\n", " ") for x in row] for row in cells])
    out += ["", "Each claim in full (reports/VERDICT.txt has the same as plain text):", ""]
    for r in rows:
        out += [f"**{source_of(r.claim)}** -- {r.ruling}."] + [f"- {f}" for f in r.figures + r.beside]
        out += [f"- {r.detail}"] if r.detail else []
        out += [f"- Decided by: {r.covers}.", f"- Would change if: {r.claim['changes_if']}.",
                f"- Mainline: {r.claim['mainline']}", ""]
    out += ["### Defects in the RFC's own patches", "",
            "Each: the patch lines, what they do, what the code they replaced did, and the test that shows "
            "it against that code (reports/VERDICT.txt lists them one line each).", ""]
    for d in data["defect"]:
        out += [f"**{defect_line(d)}.**", "", "```diff", *d["lines"], "```", "", d["finding"], "",
                f"Test: {d['test']}.", ""]
    return "\n".join(out).rstrip() + "\n"


def defect_line(d):
    """'D6. RFC 03, 04, setattr_copy(): EFFECT': one line of VERDICT.txt (claims.load() checks its width)."""
    return f"{d['id']}. {d['source']}, {d['where']}: {d['effect']}"


def _short(quote, limit=130):
    return quote if len(quote) <= limit else quote[:quote.rfind(" ", 0, limit)] + " ..."


def summary_of(ev, source="REPORT.md"):
    data = claims.load()
    lines = [f"**Verdict** (every figure in {source}; reports/VERDICT.txt as plain text). {data['headline']}", ""]
    for r in rulings(ev, data):
        q = f"...{r.claim['quote']}..." if r.claim.get("partial") else r.claim["quote"]
        quote = f"\"{_short(q)}\"" if q else f"({r.claim['paraphrase']})"
        lines.append(f"- {speaker(r.claim)}: {quote} **{r.ruling}**")
    ids = [d["id"] for d in data["defect"]]
    lines += ["", f"Defects in the RFC's own patches: {len(ids)} ({ids[0]}-{ids[-1]}), each with its patch lines, "
              f"effect and test in {source}, one line each in reports/VERDICT.txt."] if ids else []
    return "\n".join(lines) + "\n"


def _wrap(text, indent="", first=None):
    return textwrap.fill(text, WIDTH, initial_indent=first if first is not None else indent,
                         subsequent_indent=indent, break_on_hyphens=False)


def text(ev, facts):
    """reports/VERDICT.txt: plain text, at most 80 columns, a paragraph per claim."""
    data = claims.load()
    out = [_wrap("The 2016 y2038 inode timestamp RFC (Deepa Dinamani, \"Add 64 bit timestamp support\", "
                 "2016-01-06) and the debate LWN reported on 2016-01-21, against the figures of the y2038 "
                 "inode timestamp lab.")]
    out += [_wrap(f"{k}: {v}", "    ") for k, v in facts.items()]
    out += [_wrap(f"Input: {x}", "      ", "    ") for x in provenance(ev)]
    out += [_wrap(f"Input: {claims.checked_line(ev)}", "      ", "    ")]
    out += [_wrap("Host timings: " + ("; ".join(results.run_label(r) for r in ev.runs) or "none given"), "    "),
            "", _wrap(data["headline"]), "", "How it was settled"]
    out += [_wrap(h, "    ", "  - ") for h in history(data)]
    out += ["", _wrap(RULE), ""]
    for n, r in enumerate(rulings(ev, data), start=1):
        out += [_wrap(source_of(r.claim), "    ", f"{n}. "), _wrap(f"Ruling: {r.ruling}.", "    ")]
        out += [_wrap(f, "      ", "    - ") for f in r.figures + r.beside]
        out += [_wrap(r.detail, "    ")] if r.detail else []
        out += [_wrap(f"Decided by: {r.covers}.", "    "),
                _wrap(f"Would change if: {r.claim['changes_if']}.", "    "),
                _wrap(f"Mainline: {r.claim['mainline']}", "    "), ""]
    out.append("Defects in the RFC's own patches (lines, detail, test: REPORT.md)")
    out += [defect_line(d) for d in data["defect"]]
    return "\n".join(out).rstrip() + "\n"


def contradictions(rows):
    """['verdict ... / report ...'] for each (path, text) a ruling restates that its report does not print."""
    out, cache = [], {}
    for r in rows:
        for path, wanted in r.sources:
            if path not in cache:
                cache[path] = fsio.read_text(path, "report").splitlines() if os.path.isfile(path) else []
            if not any(wanted in line for line in cache[path]):
                near = difflib.get_close_matches(wanted, cache[path], n=1, cutoff=0) or ["(no such report)"]
                out.append(f"verdict, {r.key}: {r.ruling}\n  restates: {wanted}\n  but {path} prints: "
                           f"{near[0].strip()}")
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description="The verdict: REPORT.md's section, VERDICT.txt.")
    parser.add_argument("--json", action="append", default=[], metavar="RUN.json", help="y2038-bench JSON")
    parser.add_argument("--sizes", metavar="DIR", help="reports/layouts (sizes-<abi>.csv, kernel-check.csv)")
    parser.add_argument("--cost", metavar="CSV", help="reports/cost/cost.csv")
    parser.add_argument("--churn", metavar="DIR", help="reports/churn (<tree>.csv beside <tree>.md)")
    parser.add_argument("--cpu", action="store_true", help="judge CPU time instead of real time")
    parser.add_argument("--out", metavar="FILE", help="the Verdict section (Markdown)")
    parser.add_argument("--summary", metavar="FILE", help="also the README summary (Markdown)")
    parser.add_argument("--text", metavar="FILE", help="also VERDICT.txt (plain text, <= 80 columns)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a ruling restates a figure its report does not print")
    args = parser.parse_args(argv)

    def run():
        def txt(ev):  # VERDICT.txt written outside `scripts/lab report`
            return text(ev, {"Machine": os.uname().nodename, "Commit": markdown.commit()})
        wanted = [(p, f) for p, f in ((args.out, section), (args.summary, summary_of), (args.text, txt)) if p]
        for path, _ in wanted:
            fsio.check_output_path(path)
        for path, what in ((args.sizes, "folder"), (args.churn, "folder"), (args.cost, "file")):
            if path and not os.path.exists(path):
                raise fsio.InputError(f"{path}: {what} does not exist")
        ev = gather(args.json, args.sizes, args.cost, args.churn, "cpu" if args.cpu else "real")
        if args.check:
            bad = contradictions(rulings(ev))
            print("\n".join(bad) or f"{fsio.prog()}: every figure a ruling restates is printed by its report")
            return 1 if bad else 0
        with fsio.OutputSet() as out:  # the section, its summary and the text: all or none
            for path, make in wanted:
                out.write_text(path, make(ev))
        return 0
    return fsio.run_main(run)


if __name__ == "__main__":
    sys.exit(main())
