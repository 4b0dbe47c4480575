"""Plots for REPORT.md: what a person would rather look at than read.

  * heatmap per run and body: operation x representation against timespec64;
    a row with a paired comparison (accessor, walk: core.paired) takes its
    cells from it (B/A, coloured only for a *difference*: beyond the twin's
    reach), any other row the ratio of medians (coloured only where
    stats.judge() established a layout effect: U test, interval, twin
    control); every other cell is grey with its ratio in grey, never
    summarised as a win.  torn/* is left out: its figures are counts of torn
    reads, not timings compared between layouts;
  * walks per run and body: ns per inode against working-set bytes (inodes x
    sizeof), the medians with min-max whiskers over the repetitions, the
    L1d/L2/L3 sizes from the JSON context ("caches") marked;
  * bytes per inode (pahole) and objects per slab (SLUB model) per ABI;
  * ops/s against threads (load/*), medians with min-max whiskers.
Every title says what is measured and where (machine, date, real or CPU
time).  The command writes a report fragment listing the plots, the PNGs
beside it; bench.report writes one run's heatmaps and walks (write_plots).
"""
import argparse
import math
import os
import statistics
import sys
import textwrap

from y2038lab.core import fsio, paired, results, stats
from y2038lab.core.reprs import REFERENCE, TWIN
from y2038lab.core.results import run_label
from y2038lab.report.evidence import read_sizes, read_slab

GREY = "#d9d9d9"
NOT_TIMINGS = ("torn",)  # families whose figures are counts, not timings compared between layouts


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as err:
        raise fsio.InputError(f"matplotlib is not importable ({err}): install python3-matplotlib") from err
    return plt


def _reprs(names, order):
    """NAMES in ORDER (the run's y2038_layouts, or the size table's rows); others last."""
    known = [r for r in dict.fromkeys(order) if r in names]
    return known + sorted(set(names) - set(known))


def _row_name(key):
    family, op, _, params, threads = key
    return "/".join([family, op, *params] + ([f"threads:{threads}"] if threads > 1 else []))


def _wrap(fig, text, fontsize=9):
    """TEXT wrapped to the figure's width (about 13 characters per inch at 9 pt)."""
    width = int(fig.get_figwidth() * 13 * 9 / fontsize)
    return "\n".join(textwrap.fill(part, width) for part in text.split("\n"))


def _whiskers(ax, points, label):
    """One series of POINTS [(x, values)]: the medians, with min-max whiskers."""
    mids = [statistics.median(v) for _, v in points]
    ax.errorbar([x for x, _ in points], mids, yerr=[[m - min(v) for m, (_, v) in zip(mids, points)],
                                                    [max(v) - m for m, (_, v) in zip(mids, points)]],
                marker="o", markersize=3, capsize=2, linewidth=1, label=label)


def _draw(plt, jobs, folder, save):
    """[(title, path)] of each figure JOBS [(name, make)] made, SAVE(fig, FOLDER/name.png) at 100 dpi;
    every figure closed whatever happens."""
    out = []
    for name, make in jobs:
        made = make()
        if made:
            fig, title = made
            path = os.path.join(folder, name + ".png")
            try:
                save(fig, path, dpi=100)
            finally:
                plt.close(fig)
            out.append((title, path))
    return out


def cell_style(plt, cell, repr_name):
    """(RGBA, text, text colour) of one heatmap cell, a stats.Finding or a paired.Pair: coloured only
    when established (a layout effect; a paired difference)."""
    from matplotlib.colors import TwoSlopeNorm, to_rgba
    if repr_name == REFERENCE:
        return (1, 1, 1, 1), "1 (ref)", "black"
    if cell is None:
        return (1, 1, 1, 1), "", "black"
    if isinstance(cell, paired.Pair):
        ratio, established = cell.ratio, cell.status == paired.DIFFERENCE and cell.kind == "compare"
        mark = ("twin" if repr_name == TWIN else "control") if cell.kind == "negative" else \
            "?" if cell.status == paired.TOO_FEW else "~"
    else:
        ratio, established = cell.comparison.ratio, cell.established
        mark = {stats.CONTROL: "twin", stats.TOO_FEW: "?"}.get(cell.status, "~")
    if established:
        norm = TwoSlopeNorm(vmin=-1.0, vcenter=0.0, vmax=1.0)    # log2 ratio, clipped at 2x
        rgba = plt.get_cmap("RdBu_r")(norm(max(-1.0, min(1.0, math.log2(ratio)))))
        light = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
        return rgba, f"{ratio:.2f}*", "black" if light > 0.5 else "white"
    return to_rgba(GREY), f"{ratio:.2f} {mark}", "#707070"


def paired_cells(run, body):
    """{layout key: {repr: paired.Pair}}: BODY's representations paired against the reference, keyed
    as stats.layout_key keys the unpaired rows they stand for (walk: the size as the parameter)."""
    out = {}
    for c in paired.comparisons(run):
        if c.body == body and c.a == REFERENCE and c.kind != "positive" and c.family not in NOT_TIMINGS:
            key = (c.family, c.operation, c.body, tuple(c.where.split("/")) if c.where else (), 1)
            out.setdefault(key, {})[c.b] = c
    return out


def heatmap_cells(run, body, measure):
    """({layout key: {repr: cell}}, the keys whose cells are paired) of BODY: the unpaired findings of
    every timed family, a row replaced by its paired comparison where the run has one; a family with
    paired rows shows those only (the paired walks have sizes of their own)."""
    pairs = paired_cells(run, body)
    paired_families = {k[0] for k in pairs}
    found = {k: v for k, v in stats.findings(run, measure=measure).items()
             if k[2] == body and k[0] not in NOT_TIMINGS and k[0] not in paired_families}
    found.update(pairs)
    return found, set(pairs)


def heatmap(plt, run, body, measure):
    """(figure, title) of every timed layout row of BODY in RUN; None if it has none."""
    found, paired_keys = heatmap_cells(run, body, measure)
    if not found:
        return None
    keys = sorted(found, key=_row_name)
    reprs = _reprs({r for cells in found.values() for r in cells} | {REFERENCE}, run.reprs)
    fig, ax = plt.subplots(figsize=(1.6 * len(reprs) + 3.5, 0.32 * len(keys) + 2.4))
    styles = [[cell_style(plt, found[key].get(r), r) for r in reprs] for key in keys]
    for i, row in enumerate(styles):
        for j, (_, text, colour) in enumerate(row):
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color=colour)
    ax.imshow([[rgba for rgba, _, _ in row] for row in styles], aspect="auto")
    ax.set_xticks(range(len(reprs)), reprs, fontsize=8)
    ax.set_yticks(range(len(keys)), [_row_name(k) + (" (paired)" if k in paired_keys else "") for k in keys],
                  fontsize=7)
    unpaired = [rec for key, row in stats.by_layout(run).items() if key[2] == body and key in found
                and key not in paired_keys for rec in row.values()]
    n = min((len(stats.sample(rec, measure)) for rec in unpaired), default=0)
    units = min((c.n for cells in found.values() for c in cells.values() if isinstance(c, paired.Pair)), default=0)
    title = f"{body}: {measure} time per operation against {REFERENCE} ({run_label(run)})"
    ax.set_title(_wrap(fig, f"{title}\n(paired) rows: B/A of the paired comparison (alternating ~8 µs blocks, "
                       f"n >= {units} units: link orders), coloured (*) only for a difference beyond the reach of its twin; "
                       f"other rows: ratio of medians, coloured (*) only for a layout effect (p < {stats.ALPHA}, "
                       f"95 % interval beyond the twin control), n >= {n} repetitions; grey: not established (~), "
                       f"too few repetitions (?), negative control: twin ({TWIN} on LP64, {paired.COPY}: {REFERENCE}'s code "
                       f"again elsewhere); torn/* left out (counts of torn "
                       "reads, not timings)", 8), fontsize=8)
    fig.tight_layout()
    return fig, title


CACHE_NAMES = {("Data", 1): "L1d", ("Unified", 2): "L2", ("Unified", 3): "L3"}


def _cache_marks(ax, context):
    for cache in context.get("caches") or ():
        name = CACHE_NAMES.get((cache.get("type"), cache.get("level")))
        if name and cache.get("size"):
            ax.axvline(cache["size"], color="#888888", linestyle=":", linewidth=1)
            ax.text(cache["size"], 1.0, f" {name} {cache['size'] // 1024} KiB", rotation=90, va="top",
                    fontsize=7, color="#555555", transform=ax.get_xaxis_transform())


def walks(plt, run, body, measure):
    """(figure, title): ns per inode vs working-set bytes, one panel per walk op."""
    series = {}
    for key, row in stats.by_layout(run, "walk").items():
        _, op, b, params, _ = key
        if b != body or not params or not params[0].isdigit():
            continue
        for r, rec in row.items():
            size = rec.counters.get("bytes_per_inode")
            if size:
                series.setdefault(op, {}).setdefault(r, []).append((int(params[0]) * size[0],
                                                                     stats.sample(rec, measure)))
    if not series:
        return None
    ops = sorted(series)
    cols = min(3, len(ops))
    rows = (len(ops) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(max(7.0, 5 * cols), 3.8 * rows), squeeze=False)
    for ax, op in zip(axes.flat, ops):
        for r in _reprs(series[op], run.reprs):
            _whiskers(ax, sorted(series[op][r]), r)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("working set (inodes x sizeof), bytes")
        ax.set_ylabel(f"ns per inode ({measure} time)")
        ax.set_title(f"walk/{op}/{body}", fontsize=9)
        _cache_marks(ax, run.context)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(ops):]:
        ax.set_visible(False)
    title = f"walks, {body}: ns per inode vs working set, medians with min-max whiskers ({run_label(run)})"
    fig.suptitle(_wrap(fig, title + "\ncache sizes from the benchmark's JSON context"), fontsize=9)
    fig.tight_layout()
    return fig, title


def sizes_and_slabs(plt, sizes, slab, body="v6", cache="inode_cache"):
    """(figure, title): sizeof per ABI and objects per slab per ABI, bars per repr."""
    if not sizes:
        return None
    abis = sorted({a for a, b, _ in sizes if b == body})
    reprs = _reprs({r for a, b, r in sizes if b == body}, [r for a, b, r in sizes])
    panels = [("sizeof(struct inode), bytes (pahole)", lambda abi, r: (
        sizes.get((abi, body, r), {}).get("size"), str(sizes.get((abi, body, r), {}).get("size") or "")))]
    index = {(s["abi"], s["body"], s["repr"], s["cache"]): s for s in slab or ()}
    for sc, what in (("this_host", "this host's CPU count"), ("66_laptop", "8-CPU v6.6")) if slab else ():
        def per_slab(abi, r, sc=sc):
            row = index.get((abi, body, r, cache))
            return (row[f"{sc}_objs"], f"{row[f'{sc}_objs']}/{row[f'{sc}_pages']}p") if row else (None, "")
        panels.append((f"{cache}: objects per slab / pages per slab (SLUB model, {what}; not measured)",
                       per_slab))
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3 * len(panels)), squeeze=False)
    width = 0.8 / len(reprs)
    for ax, (label, value) in zip(axes[:, 0], panels):
        for j, r in enumerate(reprs):
            xs = [i + (j - (len(reprs) - 1) / 2) * width for i in range(len(abis))]
            cells = [value(abi, r) for abi in abis]
            bars = ax.bar(xs, [y or 0 for y, _ in cells], width, label=r)
            ax.bar_label(bars, labels=[text for _, text in cells], fontsize=6)
        ax.set_xticks(range(len(abis)), abis)
        ax.set_title(label, fontsize=9)
        ax.margins(y=0.15)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(reprs), fontsize=8, bbox_to_anchor=(0.5, 0.965))
    title = f"struct inode {body}: bytes per inode and {cache} objects per slab, per ABI"
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.93))
    return fig, title


def threads(plt, run, measure):
    """(figure, title): load/* ops/s against threads, one panel per operation."""
    series = {}
    for (family, op, body, params, n), row in stats.by_layout(run, "load").items():
        for r, rec in row.items():
            rates = rec.counters.get("items_per_second")
            if rates:
                series.setdefault((op, body), {}).setdefault(r, []).append((n, rates))
    if not series:
        return None
    panels = sorted(series)
    fig, axes = plt.subplots(1, len(panels), figsize=(max(7.0, 4.5 * len(panels)), 3.8), squeeze=False)
    for ax, panel in zip(axes[0], panels):
        for r in _reprs(series[panel], run.reprs):
            _whiskers(ax, [(n, [v / 1e6 for v in rates]) for n, rates in sorted(series[panel][r])], r)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("threads")
        ax.set_ylabel("million ops/s (all threads)")
        ax.set_title(f"load/{panel[0]}/{panel[1]}", fontsize=9)
        ax.legend(fontsize=7)
    title = f"load: timestamp updates per second against threads, medians with min-max whiskers ({run_label(run)})"
    fig.suptitle(_wrap(fig, title), fontsize=9)
    fig.tight_layout()
    return fig, title


def render_all(runs, out_dir, sizes_dir=None, prefix="", measure="real"):
    """Write every plot the inputs allow into OUT_DIR; [(title, path)] in report order."""
    plt = _pyplot()
    if not os.path.isdir(out_dir):
        raise fsio.InputError(f"{out_dir}: folder does not exist")
    runs = [results.load_run(r) if isinstance(r, (str, os.PathLike)) else r for r in runs or ()]
    jobs = []
    for i, run in enumerate(runs):
        tag = run.abi + (f"-{i}" if sum(r.abi == run.abi for r in runs) > 1 else "")
        bodies = sorted({k[2] for k in stats.by_layout(run)})
        jobs += [(f"heatmap-{tag}-{b}", lambda run=run, b=b: heatmap(plt, run, b, measure)) for b in bodies]
        jobs += [(f"walk-{tag}-{b}", lambda run=run, b=b: walks(plt, run, b, measure)) for b in bodies]
        jobs.append((f"threads-{tag}", lambda run=run: threads(plt, run, measure)))
    if sizes_dir:
        sizes = read_sizes(sizes_dir)
        slab = read_slab(os.path.join(sizes_dir, "slab.csv"))
        jobs += [(f"sizes-{b}", lambda b=b: sizes_and_slabs(plt, sizes, slab, b)) for b in ("v6", "v4_4")]
    return _draw(plt, [(prefix + name, make) for name, make in jobs], out_dir, fsio.save_figure)


def write_plots(run, folder, out):
    """One run's heatmap and walk plot per body into FOLDER through OUT (an
    fsio.OutputSet, so they are replaced with the fragment citing them);
    returns their Markdown image lines."""
    bodies = [b for b in run.bodies if b in {k[2] for k in stats.by_layout(run)}]
    if not bodies:
        return []
    plt = _pyplot()
    jobs = [(f"bench-{run.abi}-{kind}-{body}", lambda draw=draw, body=body: draw(plt, run, body, "real"))
            for body in bodies for kind, draw in (("heatmap", heatmap), ("walk", walks))]
    return [f"![{t}]({os.path.basename(path)})" for t, path in _draw(plt, jobs, folder, out.save_figure)]


def fragment(made, heading="## Plots"):
    """Markdown listing [(title, path)], images by file name (copied beside REPORT.md)."""
    lines = [heading, ""]
    if not made:
        lines.append("No plots: no benchmark run or size table was given.")
    for title, path in made:
        lines += [f"### {title}", "", f"![{title}]({os.path.basename(path)})", ""]
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description="The plots of REPORT.md, and a fragment listing them.")
    parser.add_argument("--json", action="append", default=[], metavar="RUN.json", help="y2038-bench JSON")
    parser.add_argument("--sizes", metavar="DIR", help="reports/layouts (sizes-<abi>.csv, slab.csv)")
    parser.add_argument("--cpu", action="store_true", help="plot CPU time instead of real time")
    parser.add_argument("--prefix", default="", help="file name prefix of the PNGs")
    parser.add_argument("--out-dir", required=True, metavar="DIR", help="where the PNGs go")
    parser.add_argument("--fragment", required=True, metavar="FILE", help="the Markdown fragment")
    args = parser.parse_args(argv)

    def run():
        fsio.check_output_path(args.fragment)
        if args.sizes and not os.path.isdir(args.sizes):
            raise fsio.InputError(f"{args.sizes}: folder does not exist")
        made = render_all(args.json, args.out_dir, args.sizes, args.prefix, "cpu" if args.cpu else "real")
        fsio.write_text(args.fragment, fragment(made))
        return 0
    return fsio.run_main(run)


if __name__ == "__main__":
    sys.exit(main())
