"""PNG plots of one y2038-bench run (matplotlib, Agg), written through an fsio.OutputSet.

  * walk/stat*: ns per inode visited against N, one line per representation, one plot per body;
  * accessor: ns per iteration, one bar per representation and operation, one plot per body.
Representations come from the run (Run.reprs), in its order.
"""
import os
import sys

from . import fsio
from .tables import ns_per_inode


def _pyplot():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise fsio.InputError(f"matplotlib is not importable by {sys.executable}: install "
                              "python3-matplotlib (scripts/lab deps plots) or pass --no-plots") from None
    return plt


def collect(run):
    """({body: {op: {repr: [(N, ns per inode)]}}}, {body: {op: {repr: ns}}})."""
    walk, accessor = {}, {}
    for rec in run.layout_records():
        if rec.family == "walk" and rec.op.startswith("stat") and rec.args and rec.args[-1].isdigit() \
                and rec.threads == 1:
            value = ns_per_inode(rec)
            if value is not None:
                walk.setdefault(rec.body, {}).setdefault(rec.op, {}).setdefault(rec.repr, []) \
                    .append((int(rec.args[-1]), value))
        elif rec.family == "accessor" and not rec.args and rec.threads == 1:
            accessor.setdefault(rec.body, {}).setdefault(rec.op, {})[rec.repr] = rec.median_real_ns()[0]
    return walk, accessor


def write_plots(run, folder, out):
    """Draw the run's plots into FOLDER through OUT (an fsio.OutputSet); Markdown image lines."""
    walk, accessor = collect(run)
    if not walk and not accessor:
        return []
    plt = _pyplot()
    abi, lines = run.abi, []
    for body in run.bodies:
        for op, by_repr in sorted(walk.get(body, {}).items()):
            fig, ax = plt.subplots(figsize=(7, 4.2))
            for repr_ in (r for r in run.reprs if r in by_repr):
                points = sorted(by_repr[repr_])
                ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=repr_)
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N (inodes)")
            ax.set_ylabel("ns per inode (median real time)")
            ax.set_title(f"walk/{op}, body {body}, {abi}")
            ax.grid(True, which="both", alpha=0.3)
            ax.legend()
            name = f"bench-{abi}-walk-{op}-{body}.png"
            fig.tight_layout()
            out.save_figure(fig, os.path.join(folder, name), dpi=100)
            plt.close(fig)
            lines.append(f"![walk/{op} ns per inode vs N, {body}, {abi}]({name})")
        ops = sorted(accessor.get(body, {}))
        if ops:
            reprs = [r for r in run.reprs if any(r in accessor[body][op] for op in ops)]
            fig, ax = plt.subplots(figsize=(8, max(3.0, 1.0 + 0.6 * len(ops))))
            height = 0.8 / len(reprs)
            for i, repr_ in enumerate(reprs):
                values = [accessor[body][op].get(repr_, float("nan")) for op in ops]
                ax.barh([j + i * height for j in range(len(ops))], values, height=height, label=repr_)
            ax.set_yticks([j + 0.4 - height / 2 for j in range(len(ops))])
            ax.set_yticklabels(ops)
            ax.invert_yaxis()
            ax.set_xlabel("ns per iteration (median real time)")
            ax.set_title(f"accessor, body {body}, {abi}")
            ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.0, 1.0))
            name = f"bench-{abi}-accessor-{body}.png"
            fig.tight_layout()
            out.save_figure(fig, os.path.join(folder, name), dpi=100)
            plt.close(fig)
            lines.append(f"![accessor ns/op per repr, {body}, {abi}]({name})")
    return lines
