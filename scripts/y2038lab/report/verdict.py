"""The Verdict section: one row per claim of the 2016 y2038 inode debate.

    verdict.render(runs, sizes_dir, cost_csv, churn_dir) -> Markdown section
    verdict.summary(runs, sizes_dir, cost_csv, churn_dir) -> short Markdown for the README

runs are results.Run objects or paths of y2038-bench JSON files; every other
input may be None or absent, and the rows that need it then say "not
measured here".  The rulings come from claims.py / claims_code.py, the
statistics behind every timing figure from stats.py.

Command line (what the report assembly can also call):
    python3 -m y2038lab verdict [--json RUN.json ...] [--sizes reports/layouts]
        [--cost reports/cost/cost.csv] [--churn reports/churn] [--cpu]
        --out VERDICT.md [--summary SUMMARY.md]
"""
import argparse
import os
import sys

from y2038lab.report import claims
from y2038lab.report import claims_code
from y2038lab.report import evidence
from y2038lab.core import fsio
from y2038lab.core import stats

PROG = "verdict"

# What mainline eventually did, per claim (kernel history, not measured by this suite).
MAINLINE = {
    "dinamani": "Not merged as proposed: v4.18 put struct timespec64 (16 B on 64-bit) in struct inode; "
                "v6.11 split each timestamp into time64_t seconds and u32 nanoseconds (the scalar layout here).",
    "chinner_reorder": "v6.11 did both: 12 bytes per timestamp, and the three u32 nanosecond fields placed "
                       "together after the three seconds (the scalar layout here).",
    "bergmann": "v4.18: struct timespec64 in struct inode on every ABI, so 32-bit inodes grew.",
    "rfc": "The VFS_INODE_*_XTIME() macros were never merged; v6.6 added inode_get_ctime()/inode_set_ctime*() "
           "and v6.7 the atime/mtime accessors, converting every file system with Coccinelle.",
    "boundary": "v4.18 changed struct inode to timespec64 in one Coccinelle-made patch; file systems still on "
                "struct timespec converted at the boundary (timespec64_to_timespec()) until converted.",
    "clamp": "v5.4 added s_time_min/s_time_max and timestamp_truncate(), which clamps then truncates; "
             "the RFC's per-file-system bad-timestamp callbacks were not merged.",
    "torn": "No single-word timestamp was merged: since v6.11 seconds and nanoseconds are separate fields; "
            "v6.13's multigrain updates ctime's nanoseconds with a cmpxchg.",
    "multigrain": "v6.13 merged multigrain timestamps (a v6.6 attempt was reverted): file systems that opt in "
                  "(FS_MGTIME) take a fine-grained ctime only when the last one was queried.",
    "churn_bergmann": "v4.18 made the switch in one Coccinelle-generated patch (the 'one big patch'), "
                      "keeping file systems' own types behind conversions.",
    "churn_chinner": "The v4.18 patch changed no function signatures (boundary conversions); the v6.6/6.7 "
                     "accessor series touched every file system again.",
}

RULE = ("A timing difference counts as a layout effect only when p < 0.05 (two-sided Mann-Whitney U, "
        f"as Google Benchmark's compare.py, >= {stats.MIN_REPETITIONS} interleaved repetitions per side), "
        "its 95 % interval for the ratio (Hodges-Lehmann on log-times, distribution-free) lies wholly "
        "outside the twin control's spread (timespec vs timespec64: the same layout on LP64, compiled "
        "twice, so their ratio is what code placement alone does) and, where instruction counts are given, "
        "the instructions differ in the same direction. Otherwise the row says \"no difference detected\"; "
        f"that supports a claim of no cost only where the twin spread stays within {stats.pct(claims.RESOLUTION)} "
        "(else: not measurable here). "
        "Cells without an established layout effect are marked as such and never summarised as a win.")


def gather(runs=(), sizes_dir=None, cost_csv=None, churn_dir=None, measure="real"):
    """An Evidence from paths (or loaded Runs); InputError on bad input."""
    from y2038lab.core import results
    loaded = [results.load_run(r) if isinstance(r, (str, os.PathLike)) else r for r in runs or ()]
    slab = os.path.join(sizes_dir, "slab.csv") if sizes_dir else None
    return claims.Evidence(loaded, evidence.read_sizes(sizes_dir), evidence.read_slab(slab),
                           evidence.read_cost(cost_csv), evidence.read_churn(churn_dir), measure)


def rulings(ev):
    """Every claim's Ruling, in the order of the debate."""
    return [claims.dinamani(ev), claims.chinner_reorder(ev), claims.bergmann_size(ev),
            claims.rfc_accessors(ev), claims.chinner_boundary(ev), claims_code.clamp_first(ev),
            claims_code.torn_reads(ev), claims_code.multigrain(ev),
            claims_code.churn_bergmann(ev), claims_code.churn_chinner(ev)]


def _cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def deciding(ruling):
    """The figure that decides the row: the claim's own choice, else its first figure."""
    return ruling.deciding or ruling.figures[0]


def _disturbed(ev):
    notes = []
    for run in ev.runs:
        found = [d for d in (stats.disturbance(r) for r in run.records.values()) if d]
        bad = sum(1 for d in found if d.disturbed)
        if bad:
            notes.append(f"{run_label_short(run)}: {bad} of {len(found)} single-threaded rows disturbed "
                         f"(a repetition's real time > CPU time + {stats.DISTURBED_EXCESS:.0%}); "
                         "their real-time figures carry that noise")
    return notes


def run_label_short(run):
    return f"{run.path} ({claims.run_label(run)})"


def section(ev, heading="## Verdict"):
    rows = rulings(ev)
    out = [heading, "",
           "What the suite found for each claim of the 2016 y2038 inode debate (LWN, 2016-01-21; the RFC "
           "\"Add 64 bit timestamp support\") and what mainline did later. Rulings: supported / refuted / "
           "depends on X / not measurable here.", "",
           RULE, "",
           f"Timings: {stats.MEASURES[ev.measure]} per operation; "
           + ("; ".join(claims.run_label(r) + f" ({r.path})" for r in ev.runs) if ev.runs else "no benchmark run given")
           + ".", ""]
    out += [f"- Warning: {note}" for note in _disturbed(ev)]
    out += ["", "| claim | ruling | deciding figure | covers | mainline eventually |", "|---|---|---|---|---|"]
    out += [f"| {_cell(r.claim)} | {_cell(r.ruling)} | {_cell(deciding(r))} | {_cell(r.covers)} | "
            f"{_cell(MAINLINE.get(r.key, ''))} |" for r in rows]
    out += ["", "Each claim in full (one paragraph each, for pasting into a mail):", ""]
    for r in rows:
        out.append(f"**{r.claim}** -- {r.ruling}.")
        out += [f"- {f}" for f in r.figures]
        out += [f"- Covers: {r.covers}.", f"- Mainline: {MAINLINE.get(r.key, 'n/a')}", ""]
    return "\n".join(out).rstrip() + "\n"


def render(runs=(), sizes_dir=None, cost_csv=None, churn_dir=None, measure="real"):
    """The Verdict section as Markdown (see the module doc)."""
    return section(gather(runs, sizes_dir, cost_csv, churn_dir, measure))


def summary_of(ev, source="REPORT.md"):
    lines = [f"**Verdict** (every figure, interval and p-value behind these lines is in {source}; "
             "a timing difference counts only when it beats the twin control):", ""]
    for r in rulings(ev):
        lines.append(f"- {r.claim}: **{r.ruling}**")
    return "\n".join(lines) + "\n"


def summary(runs=(), sizes_dir=None, cost_csv=None, churn_dir=None, measure="real", source="REPORT.md"):
    """Short Markdown for the top of the README: claim and ruling, one line each."""
    return summary_of(gather(runs, sizes_dir, cost_csv, churn_dir, measure), source)


def main(argv=None):
    parser = argparse.ArgumentParser(prog=PROG, description="The Verdict section of REPORT.md.")
    parser.add_argument("--json", action="append", default=[], metavar="RUN.json", help="y2038-bench JSON")
    parser.add_argument("--sizes", metavar="DIR", help="reports/layouts (sizes-<abi>.csv, slab.csv)")
    parser.add_argument("--cost", metavar="CSV", help="reports/cost/cost.csv")
    parser.add_argument("--churn", metavar="DIR", help="reports/churn (<tree>.csv)")
    parser.add_argument("--cpu", action="store_true", help="judge CPU time instead of real time")
    parser.add_argument("--out", required=True, metavar="FILE", help="the Verdict section (Markdown)")
    parser.add_argument("--summary", metavar="FILE", help="also the README summary (Markdown)")
    args = parser.parse_args(argv)

    def run():
        for path in [args.out] + ([args.summary] if args.summary else []):
            fsio.check_output_path(path)
        for path, what in ((args.sizes, "folder"), (args.churn, "folder"), (args.cost, "file")):
            if path and not os.path.exists(path):
                raise fsio.InputError(f"{path}: {what} does not exist")
        ev = gather(args.json, args.sizes, args.cost, args.churn, "cpu" if args.cpu else "real")
        text = section(ev)
        summ = summary_of(ev) if args.summary else None
        with fsio.OutputSet() as out:  # the section and its summary: both or neither
            out.write_text(args.out, text)
            if summ is not None:
                out.write_text(args.summary, summ)
        return 0
    return fsio.run_main(run, PROG)


if __name__ == "__main__":
    sys.exit(main())
