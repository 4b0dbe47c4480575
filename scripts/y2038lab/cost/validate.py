"""The host validation row: llvm-mca's model of this host's core against the
accessor times y2038-bench measured here (a timing, and labelled so)."""
import statistics

from y2038lab.cost import mca
from y2038lab.core import results
from y2038lab.core.fsio import InputError
from y2038lab.core.reprs import REFERENCE

TOLERANCE = 0.15


def read_bench_json(path):
    """{"path", "mhz", "ns": {(op, body, repr): median ns}, "context"} of a y2038-bench JSON
    (parsed and checked by y2038lab.core.results, as every other reader does)."""
    run = results.load_run(path)
    mhz = run.context.get("mhz_per_cpu")
    if isinstance(mhz, bool) or not isinstance(mhz, (int, float)) or mhz <= 0:
        raise InputError(f"{path}: context.mhz_per_cpu missing or not positive")
    ns, reps = {}, 0
    for rec in run.layout_records("accessor"):
        if rec.op in ("get_mtime", "set_mtime") and not rec.params and rec.real_ns:
            ns[(rec.op, rec.body, rec.repr)] = statistics.median(rec.real_ns)
            reps = max(reps, len(rec.real_ns))
    if not ns:
        raise InputError(f"{path}: no accessor/get_mtime or accessor/set_mtime iterations")
    return {"path": path, "mhz": float(mhz), "ns": ns, "context": run.context, "repetitions": reps}


def ranking(rows, column, ties=True):
    """'a, b = c, d': representations ordered by ROWS[column]; equal model figures tie."""
    ordered = sorted(rows, key=lambda c: (c[column], c[2]))
    text = ordered[0][2]
    for prev, cur in zip(ordered, ordered[1:]):
        text += (" = " if ties and abs(cur[column] - prev[column]) < 1e-9 else ", ") + cur[2]
    return text


def validation_section(models, bench):
    zen = mca.host_zen()
    cpu = mca.cpus_for("x86_64")[0]
    lines = ["### Host validation: the model against this host's measured accessor times", ""]
    if zen:
        lines.append(f"Host core: {zen[2]} = {zen[0]}; llvm-mca 14's model used: {zen[1]}"
                     + ("" if zen[0] == zen[1] else f" (LLVM 14 has no {zen[0]} model; {zen[1]} is its newest)") + ".")
    if bench is None:
        return lines + ["", "**The validation row is missing**: no y2038-bench JSON was given "
                        "(`scripts/lab cost path/to/bench-x86_64.json`).", ""]
    ctx = bench["context"]
    load = ctx.get("load_avg")
    load_text = f", load average {' '.join(f'{x:.2f}' for x in load)}" if isinstance(load, list) else ""
    lines += ["", f"Measured: `{bench['path']}` ({ctx.get('date', '?')}, host {ctx.get('host_name', '?')}"
              f"{load_text}; real time, median of {bench['repetitions']} repetitions per benchmark), a timing. Model: {cpu}'s "
              f"simulated cycles per iteration of the same loop (x86_64 objects), converted at the JSON's "
              f"mhz_per_cpu = {bench['mhz']:g} MHz (a VM does not expose its real clock).", "",
              "| benchmark | model cycles | model ns | measured ns | model / measured | "
              f"ratio to {REFERENCE}: model / measured |",
              "|---|---:|---:|---:|---:|---:|"]
    worst, compared = 0.0, []
    for (op, body, rp), ns in sorted(bench["ns"].items()):
        m = models.get(("x86_64", body, rp, f"loop/{op}", cpu))
        if m is None or not m["mca_cycles_per_iteration"]:
            continue
        cycles = float(m["mca_cycles_per_iteration"])
        model_ns = cycles / (bench["mhz"] / 1000.0)
        compared.append((op, body, rp, model_ns, ns))
        worst = max(worst, abs(model_ns / ns - 1))
        ref_m = models.get(("x86_64", body, REFERENCE, f"loop/{op}", cpu))
        ref_ns = bench["ns"].get((op, body, REFERENCE))
        rel = (f"{cycles / float(ref_m['mca_cycles_per_iteration']):.2f} / {ns / ref_ns:.2f}"
               if ref_m and ref_m["mca_cycles_per_iteration"] and ref_ns else "—")
        lines.append(f"| accessor/{op}/{body}/{rp} | {cycles:.2f} | {model_ns:.3f} | {ns:.3f} | "
                     f"{model_ns / ns:.2f} | {rel} |")
    if not compared:
        return lines + ["", "**No benchmark of the JSON matches a modelled loop**: no validation.", ""]
    agree = worst <= TOLERANCE
    lines += ["", (f"**The model agrees with the measurement within {TOLERANCE:.0%}** on every row "
                   f"(largest deviation {worst:.0%}).") if agree else
              (f"**The model does not agree with the measurement within {TOLERANCE:.0%}**: the largest "
               f"deviation is {worst:.0%}; model cycles above are not validated against this host.")]
    for op in ("get_mtime", "set_mtime"):
        rows = [c for c in compared if c[0] == op and c[1] == "v6"]
        if len(rows) > 1:
            lines.append(f"Ranking of {op}/v6, fastest first (= a tie in the model): model "
                         f"{ranking(rows, 3)}; measured {ranking(rows, 4, ties=False)} "
                         "(a measured difference within the repetitions' spread is no ranking).")
    return lines + [""]
