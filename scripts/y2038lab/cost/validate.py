"""The host validation row: llvm-mca's model of this host's core against the
accessor times y2038-bench measured here (a timing, and labelled so)."""
import statistics

from y2038lab.cost import code, mca
from y2038lab.core import calibrate, markdown, paired, results
from y2038lab.core.fsio import InputError
from y2038lab.core.reprs import REFERENCE

TOLERANCE = 0.15
LOOP_OPS = 16  # operations per iteration of the get/set loops (cost_layout.c: one unrolled pass)


def calibration(run):
    """(ns per cycle, stores per cycle or None) of this host while RUN ran (core.calibrate), or None
    without calibrate/add_chain."""
    cal = calibrate.cycles(run)
    return (cal["ns_per_cycle"], 1.0 / cal[calibrate.STORES] if calibrate.STORES in cal else None) if cal else None


def read_bench_json(path):
    """{"path", "mhz", "ns": {(op, body, repr): median ns}, "ratios": {(op, body, repr): paired
    ratio to REFERENCE (core.paired) where the JSON has paired/accessor}, "context", "calibration":
    calibration() or None}."""
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
    ratios = {(c.operation, c.body, c.b): c.ratio for c in paired.comparisons(run)
              if c.family == "accessor" and c.a == REFERENCE and (c.operation, c.body, c.b) in ns}
    return {"path": path, "mhz": float(mhz), "ns": ns, "ratios": ratios, "context": run.context, "repetitions": reps,
            "calibration": calibration(run), "calibration_cycles": calibrate.cycles(run)}


def ranking(rows, column, ties=True):
    """'a, b = c, d': representations ordered by ROWS[column]; equal model figures tie."""
    ordered = sorted(rows, key=lambda c: (c[column], c[2]))
    text = ordered[0][2]
    for prev, cur in zip(ordered, ordered[1:]):
        text += (" = " if ties and abs(cur[column] - prev[column]) < 1e-9 else ", ") + cur[2]
    return text


def ghz(bench):
    """The clock the model's cycles are turned into ns at: the one calibration() measured, else the
    JSON's mhz_per_cpu (what the system reports, which a VM need not run at)."""
    return 1.0 / bench["calibration"][0] if bench.get("calibration") else bench["mhz"] / 1000.0


def ghz_spread(bench):
    """' (repetitions lo to hi GHz)' of the calibrated clock, "" without."""
    spread = (bench.get("calibration_cycles") or {}).get("ghz_range")
    return f" (its repetitions {spread[0]:.2f} to {spread[1]:.2f} GHz)" if spread else ""


def compare(models, bench):
    """([(op, body, repr, cycles, model_ns, ns, model ratio, measured ratio)], the host core's
    status): ratios to REFERENCE (None for itself); "validated" when each is within TOLERANCE
    or misses where the loop calls a function, whose call and return the model cannot see."""
    cpu, rows = mca.cpus_for("x86_64")[0], []

    def model(op, body, rp):
        return models.get(("x86_64", body, rp, f"loop/{op}", cpu)) or {}

    def cycles(op, body, rp):
        return float(model(op, body, rp).get("mca_cycles_per_iteration") or 0) or None
    for (op, body, rp), ns in sorted((bench or {"ns": {}})["ns"].items()):
        c, ref_c, ref_ns = cycles(op, body, rp), cycles(op, body, REFERENCE), bench["ns"].get((op, body, REFERENCE))
        t = bench.get("ratios", {}).get((op, body, rp)) or (ns / ref_ns if ref_ns else None)
        rows += [(op, body, rp, c, c / LOOP_OPS / ghz(bench), ns)
                 + ((c / ref_c, t) if rp != REFERENCE and ref_c and t else (None, None))] if c else []
    misses = {f"{op}/{body}/{rp} {m:.2f} vs {t:.2f}": "calls replaced" in model(op, body, rp).get("check", "")
              for op, body, rp, *_, m, t in rows if m and abs(m / t - 1) > TOLERANCE}
    seen = "; ".join(k for k, calls in misses.items() if calls)
    seen = f"; outside it where the loop calls a function, whose call and return llvm-mca cannot model: {seen}" if seen else ""
    if not any(r[6] for r in rows):
        return rows, "not validated: no y2038-bench JSON of this host with modelled loops was given"
    if others := [f"{op}/{body}/{rp}" for op, body, rp, *_ in rows
                  if code.BENCH_LOOP_NOTE not in model(op, body, rp).get("check", "")]:
        return rows, f"not validated: the modelled loop is not y2038-bench's own ({'; '.join(others)})"
    if not all(misses.values()):
        return rows, (f"not validated: ratio(s) to {REFERENCE} outside ±{TOLERANCE:.0%} of the measured ones "
                      f"({'; '.join(k for k, calls in misses.items() if not calls)}){seen}")
    return rows, f"validated: get/set ratios to {REFERENCE} within ±{TOLERANCE:.0%} of this host's{seen}"


def misses_explained(models, rows, cpu, bench=None):
    """What bounds each missed row's loop, and its reference's, in the model (cost.csv's
    mca_bottleneck, llvm-mca -bottleneck-analysis): the part of the core the model stands in for;
    where the reference is bound by the model's store unit and BENCH calibrated the host's store rate,
    how much of the miss that accounts for (store_account())."""
    def bound(op, body, rp):
        row = models.get(("x86_64", body, rp, f"loop/{op}", cpu)) or {}
        calls = " (its loop calls a function: the model runs the call's traced instructions as straight code)"
        split = (f" ({row.get('workaround')}: each split load takes a physical register and a dispatch slot of its own "
                 "in the model, where the core's load-op is one macro-op)")
        return ((row.get("mca_bottleneck") or "none named") + (calls if "calls replaced" in row.get("check", "") else "")
                + (split if "folded loads split" in row.get("workaround", "") else ""))
    missed = [(op, body, rp, m, t) for op, body, rp, *_, m, t in rows if m and abs(m / t - 1) > TOLERANCE]
    if not missed:
        return []
    return ["", f"Where the model misses, what bounds each loop in the {cpu} model (`llvm-mca -bottleneck-analysis`; "
            "a model's account, not the host's): a loop bound by its register dependencies runs at the pace of "
            "how many of its independent rounds the model's scheduler overlaps, one bound by a unit at that "
            "unit's rate in the model; \"dispatch stalled\" is the share of cycles the model's dispatch waited for a "
            "queue or for physical registers (`-dispatch-stats`); the host's core has its own queue sizes, register "
            "file and units, which the model cannot see.", ""] + [
        f"- {op}/{body}/{rp} (model {m:.2f}, measured {t:.2f}): {bound(op, body, rp)}; "
        f"{REFERENCE}: {bound(op, body, REFERENCE)}" + store_account(models, rows, cpu, bench, op, body, rp)
        for op, body, rp, m, t in missed]


def store_account(models, rows, cpu, bench, op, body, rp):
    """'; ...': where REFERENCE's loop is bound by the model's store unit and the run calibrated this
    host (core.calibrate): the model's store rate against the host's, the reference's cycles in the model
    and at the calibrated clock, what the model's ratio would be with the reference at the host's store
    rate, and RP's loop against the paired ratio; "" otherwise.  Cycles from timings are named so."""
    ref = models.get(("x86_64", body, REFERENCE, f"loop/{op}", cpu)) or {}
    cal, rate = (bench or {}).get("calibration"), mca.store_rate(cpu)
    cells = {r[2]: r for r in rows if r[:2] == (op, body)}
    if "Store" not in ref.get("mca_bottleneck", "") or not cal or not cal[1] or not rate or rp not in cells:
        return ""
    ref_model, (own_model, model_ratio, measured_ratio) = cells[REFERENCE][3], (cells[rp][3], *cells[rp][6:8])
    ref_host = cells[REFERENCE][5] * LOOP_OPS / cal[0]  # cycles per iteration at the calibrated clock
    stores = ref_model * rate                            # the stores of a loop bound by them in the model
    ref_at_host_rate = stores / cal[1]
    corrected = own_model / ref_at_host_rate
    effect = ("brings the model's ratio within its tolerance" if abs(corrected / measured_ratio - 1) <= TOLERANCE
              else "moves the model's ratio past the measured one, not onto it" if (corrected - measured_ratio)
              * (model_ratio - measured_ratio) < 0 else "moves the model's ratio toward the measured one, not onto it")
    return (f"; the reference's loop is bound in the model by its store unit, {rate:.2f} 8-byte store a cycle "
            f"(about {stores:.0f} stores, {ref_model:.2f} cycles), where this host sustained {cal[1]:.2f} "
            f"({calibrate.STORES}); the reference ran {ref_host:.2f} cycles at the calibrated clock (its unpaired "
            f"median, a timing: {stores / ref_host:.2f} stores a cycle). At the host's store rate the model would "
            f"give the reference {ref_at_host_rate:.2f} cycles and {rp} a ratio of {corrected:.2f} "
            f"against {measured_ratio:.2f} measured (paired): the host's store rate {effect}; {rp}'s own loop, "
            f"modelled {own_model:.2f} cycles, ran {measured_ratio * ref_host:.2f} at the calibrated clock (the paired "
            f"ratio times the reference's), the model x{own_model / (measured_ratio * ref_host):.2f} of it, which is "
            "not explained here")


def broken_ties(rows):
    """Rows the model ties (the same cycles, op and body) whose measured ratios lie further apart than
    TOLERANCE: 'get_mtime/v6 packed12, scalar (13.03 cycles; measured 1.21, 1.03)'."""
    groups = {}
    for op, body, rp, cycles, *_, m, t in rows:
        if m is not None and t:
            groups.setdefault((op, body, f"{cycles:.2f}"), []).append((rp, t))
    return [f"{op}/{body} {', '.join(rp for rp, _ in g)} ({cycles} cycles; measured "
            f"{', '.join(f'{t:.2f}' for _, t in g)})" for (op, body, cycles), g in sorted(groups.items())
            if len(g) > 1 and max(t for _, t in g) / min(t for _, t in g) > 1 + TOLERANCE]


def scope(cpu, bench):
    """What the model cannot see, in its own figures: its store rate (beside the host's, where the run
    calibrated it), and that it reads no address."""
    rate, cal = mca.store_rate(cpu), (bench or {}).get("calibration")
    host = (f"; this host sustained {cal[1]:.2f} ({calibrate.STORES} against {calibrate.ADD_CHAIN}, medians of the same run: "
            "a ratio of timings)" if cal and cal[1] else "")
    return ["", f"Scope of the model: llvm-mca times instructions, not addresses, so two loops of the same "
            "instructions at other offsets (another stride, a field at a 4-byte boundary) get the same cycles where "
            "the host's may differ; and loops bound by stores run at the model's store rate"
            + (f", {rate:.2f} 8-byte stores per cycle in {cpu} (llvm-mca on independent stores)" if rate else "")
            + (host or ", not necessarily the host's") + "."]


def validation_section(models, bench):
    zen = mca.host_zen()
    cpu = mca.cpus_for("x86_64")[0]
    lines = ["### Host validation: the model against this host's measured accessor times", ""]
    if zen:
        tool = f"llvm-mca {mca.mca_version(mca.HOST_MCA)}"
        sched = mca.HOST_MCA_SCHEDULED_AS.get(zen[1])
        lines.append(f"Host core: {zen[2]} = {zen[0]}; {tool} run with -mcpu={zen[1]}"
                     + ("" if zen[0] == zen[1] else f" ({tool} has no {zen[0]}; {zen[1]} is its newest)")
                     + (f", which LLVM schedules with its {sched} model (resources Zn4*; LLVM 19 has no "
                        f"{zen[0]} scheduling model)" if sched else "") + ".")
    rows, status = compare(models, bench)
    if bench is None:
        return lines + ["", "**The validation row is missing**: no y2038-bench JSON was given "
                        "(`scripts/lab cost path/to/bench-x86_64.json`).", ""]
    ctx = bench["context"]
    load = ctx.get("load_avg")
    load_text = f", load average {' '.join(f'{x:.2f}' for x in load)}" if isinstance(load, list) else ""
    lines += ["", f"Measured: `{bench['path']}` ({ctx.get('date', '?')}, host {ctx.get('host_name', '?')}"
              f"{load_text}; real time, median of {bench['repetitions']} repetitions per benchmark; ratios "
              f"paired (core.paired) for {len(bench.get('ratios', {}))} rows, the rest unpaired medians), a timing. Model: {cpu}'s "
              f"simulated cycles per iteration of y2038-bench's own loop (the rounds loop of accessor_<op>_<body>_<repr> "
              f"in the benchmark's object of this build, bench/accessor.c: the {LOOP_OPS} operations of one round, "
              "unrolled; cost.csv's `check` names it), calls replaced by what the qemu trace ran, folded loads split "
              "where llvm-mca would otherwise chain their latency (cost.csv's `workaround`; y2038lab.cost.mca says why), "
              + (f"per operation at the clock this run measured, {ghz(bench):.2f} GHz{ghz_spread(bench)} ({calibrate.ADD_CHAIN}: one dependent "
                 "register add a cycle, interleaved with the accessors), so the absolute column compares cycles; "
                 if bench.get("calibration") else
                 f"per operation at the JSON's mhz_per_cpu = {bench['mhz']:g} MHz (a VM does not expose its real "
                 "clock and this run has no calibrate/ loops, so the absolute column is only indicative); ")
              + "the test is on the ratios.", ""]
    lines += markdown.table(("benchmark", "model cycles per iteration", "model ns per op",
                             "measured ns per op (unpaired median, not comparable across rows)",
                             "model / measured", f"ratio to {REFERENCE}: model / measured"), [
        (f"accessor/{op}/{body}/{rp}", f"{cycles:.2f}", f"{model_ns:.3f}", f"{ns:.3f}", f"{model_ns / ns:.2f}",
         f"{m:.2f} / {t:.2f}" if m is not None else "reference")
        for op, body, rp, cycles, model_ns, ns, m, t in rows], "lrrrrr")
    if not rows:
        return lines + ["", "**No benchmark of the JSON matches a modelled loop**: no validation.", ""]
    lines += ["", f"**Core {cpu}: {status}.** Modelled cycles of a core lean on nothing unless its "
              "validation holds (cost.csv's `validation` column)."]
    lines += misses_explained(models, rows, cpu, bench) + scope(cpu, bench)
    if ties := broken_ties(rows):
        lines.append("Ties of the model that the host breaks (the same modelled cycles, measured ratios further "
                     f"apart than ±{TOLERANCE:.0%}; their loops differ in what the model does not read): "
                     + "; ".join(ties) + ".")
    for op in ("get_mtime", "set_mtime"):
        if len(rows_v6 := [r for r in rows if r[0] == op and r[1] == "v6"]) > 1:
            paired_rows = [r[:7] + (1.0 if r[2] == REFERENCE else r[7],) for r in rows_v6]
            lines.append(f"Ranking of {op}/v6, fastest first (= a tie in the model): model "
                         f"{ranking(rows_v6, 3)}; measured, by the paired ratio to {REFERENCE}, "
                         f"{ranking([r for r in paired_rows if r[7]], 7, ties=False)} (a paired difference "
                         "within its negative control's reach is no ranking).")
    return lines + [""]
