"""reports/cost/cost.csv and COST.md from run.py's rows (rendering only; the CSV columns named here)."""
import itertools
import os
import platform
import re

from y2038lab.cost import mca
from y2038lab.cost.validate import compare, validation_section
from y2038lab.core import fsio, markdown
from y2038lab.core.fsio import OutputSet
from y2038lab.core.reprs import REFERENCE

MTIME_OPS = ("get_mtime", "set_mtime", "compare_mtime", "swap_mtime", "rfc_get_mtime",
             "rfc_set_mtime", "rfc_swap_mtime", "get_mtime_sec", "boundary_to_fs_mtime",
             "boundary_from_fs_mtime")
TRUNCATIONS = ("fs_time_trunc", "timestamp_truncate", "timestamp_truncate_reciprocal",
               "timespec64_trunc")
DIVIDING_GRANS = ("100", "1000", "1000000")
NSECS = ("123456789", "999999999")  # inside the range; the largest valid tv_nsec
HAND = {"division_free": 117, "mainline": 232}
# cost.csv, a row per VariantResult row (run.py fills them; report.evidence reads some of them).
CSV_COLUMNS = ("abi", "variant", "body", "repr", "operation", "measure", "instructions",
               "code_bytes", "libcalls", "libcalls_static", "calls", "mca_cpu",
               "mca_block_rthroughput", "mca_cycles_per_iteration", "mca_bottleneck", "validation", "workaround", "check",
               "source")


def index(rows, measure):
    return {(r["variant"], r["body"], r["repr"], r["operation"]) + ((r["mca_cpu"],) if measure == "mca" else ()): r
            for r in rows if r["measure"] == measure}


def ratio(n, ref):
    return f"×{n / ref:.2f}" if ref else "—"


def header(results, command):
    zen = mca.host_zen()
    return [
        "# Cost on 32-bit and embedded ABIs: instruction counts, library calls, core models", "",
        markdown.generated(command, f"; host core: {zen[2] if zen else platform.machine()}, commit {markdown.commit()}."),
        "",
        "**Nothing here is a timing.** Instruction counts are dynamic counts under qemu-user "
        f"({fsio.first_line(['qemu-x86_64', '--version'])}, `qemu-<arch> -singlestep -d exec,nochain`: "
        "one trace line per executed instruction); library calls come from `objdump -dr` of the real "
        "objects and from the trace; code bytes from `nm -S`; cycles are a model's, from llvm-mca "
        f"{mca.mca_version(mca.MCA)} on a named CPU (x86_64: llvm-mca {mca.mca_version(mca.HOST_MCA)}, which models "
        "AMD cores up to Zen 4; the validation row below names the model it used for this host) Only the host validation row below sets a model against a "
        "measured time, and says so.", ""
    ] + markdown.table(("variant", "ABI", "compiler", "flags (+ kernel code generation)"), [
        (r.variant.name, r.variant.abi, r.variant.compiler,
         f"`{r.variant.flags}` + `{r.variant.kernel_flags or 'none'}`") for r in results])


def accessor_section(results, counts):
    lines = ["### Accessors: instructions per operation (qemu-user count), body v6", "",
             "Each operation is one out-of-line function reading its input from memory and writing its "
             "result to memory (cost/cost_layout.c), counted from its first instruction to its return, "
             "calls included (`rfc_set_*` is the suite's checked setter, `VFS_INODE_SET_XTIME()` of "
             "layouts/inode.h: it evaluates its argument once and calls `vfs_inode_xtime_check()`; RFC 03's own "
             "macro, which evaluates its argument twice, is not what is counted). "
             f"Cell: instructions, ratio to {REFERENCE}, code bytes of the function (`nm -S`).", ""]
    for r in results:
        reprs = sorted({k[2] for k in counts if k[0] == r.variant.name and k[1] == "v6"},
                       key=[x[1] for x in r.variant.layouts].index)
        def cell(op, rp):
            c, ref = (counts.get((r.variant.name, "v6", x, op)) for x in (rp, REFERENCE))
            return ("—" if c is None else f"{c['instructions']} {ratio(c['instructions'], ref and ref['instructions'])}"
                    f" · {c['code_bytes']} B")
        lines += [f"#### {r.variant.name} ({r.variant.abi})", ""] + markdown.table(
            ["operation"] + reprs, [[op] + [cell(op, rp) for rp in reprs] for op in MTIME_OPS],
            "l" + "r" * len(reprs)) + [""]
        diffs = [f"{op}/{rp} {c['instructions']} (mtime {twin['instructions']})"
                 for (var, body, rp, op), c in sorted(counts.items())
                 if var == r.variant.name and body == "v6" and (m := re.match(r"^(.*)_([ac])time$", op))
                 and (twin := counts.get((var, body, rp, f"{m.group(1)}_mtime")))
                 and twin["instructions"] != c["instructions"]]
        lines += [("atime/ctime rows (cost.csv) equal the mtime rows except: " + "; ".join(diffs) + ".")
                  if diffs else "atime/ctime rows (cost.csv) equal the mtime rows.", ""]
    return lines


def summary_section(results, counts):
    """get_mtime / set_mtime per representation per variant: the closing-note table."""
    names = [r.variant.name for r in results]
    reprs = list(dict.fromkeys(rp for r in results for _, rp, _ in r.variant.layouts))
    def cell(name, rp):
        g, s = (counts.get((name, "v6", rp, op)) for op in ("get_mtime", "set_mtime"))
        return f"{g['instructions']} / {s['instructions']}" if g and s else "—"
    return (["### get_mtime / set_mtime at a glance (instructions, qemu-user count, body v6)", ""]
            + markdown.table(["variant"] + reprs, [[n] + [cell(n, rp) for rp in reprs] for n in names],
                             "l" + "r" * len(reprs)) + [""])


def truncation_section(names, counts):
    lines = ["### Clamp and truncate: instructions per call (qemu-user count)", "",
             "The fstime function alone (cost/cost_fstime.c's trampoline left out), with every helper "
             "it calls; an ext4 super block (extra timestamps), input 2033-05-18T03:33:20 inside its "
             "range. Cell: at tv_nsec 123456789 / at 999999999 (the largest valid value: a software "
             "divide takes longer for more quotient bits; one figure when both are equal). Helpers entered: † one "
             "`__aeabi_uidivmod`, ‡ other helpers (see the library-call table).", ""]
    grans = sorted({op.split("/")[1][5:] for (_, _, _, op) in counts if op.startswith(TRUNCATIONS[0] + "/")},
                   key=int)

    def cell(fn, gran, name):
        found = [c for nsec in NSECS if (c := counts.get((name, "-", "-", f"{fn}/gran:{gran}/nsec:{nsec}")))]
        figs = [str(c["instructions"]) for c in found]
        mark = ("†" if any("__aeabi_uidivmod" in c["libcalls"] for c in found)
                else "‡" if any(c["libcalls"] for c in found) else "")
        return ("/".join(figs) if len(set(figs)) > 1 else (figs[0] if figs else "—")) + mark
    return lines + markdown.table(["function", "gran (ns)"] + names,
                                  [[fn, gran] + [cell(fn, gran, n) for n in names] for fn in TRUNCATIONS for gran in grans],
                                  "lr" + "r" * len(names)) + [""]


def codec_section(names, counts):
    ops = list(dict.fromkeys(op for (_, body, _, op) in counts if body == "-" and "/gran:" not in op))
    def cell(c):
        return "—" if c is None else f"{c['instructions']}" + (f" ({c['libcalls']})" if c["libcalls"] else "")
    return (["### On-disk codecs and the RFC's range check: instructions per call (qemu-user count)", ""]
            + markdown.table(["function"] + names, [[op] + [cell(counts.get((n, "-", "-", op))) for n in names]
                                                    for op in ops], "l" + "r" * len(names)) + [""])


def libcall_section(names, counts):
    fns = list(dict.fromkeys(op.split("/")[0] for (_, body, _, op) in counts if body == "-"))
    lines = ["### Library calls (objdump -dr of the real objects)", "",
             "Compiler-runtime helpers each function calls, itself or through the fstime functions it "
             "calls (relocations of calls and tail calls in the objects); — none: every operation is "
             "inline. What one call executes is in the tables above (from the trace).", ""]

    def cell(fn, name):
        c = next((c for (var, body, _, op), c in counts.items()
                  if var == name and body == "-" and op.split("/")[0] == fn), None)
        return "—" if c is None or not c["libcalls_static"] else ", ".join(f"`{h}`" for h in c["libcalls_static"].split())
    lines += markdown.table(["function"] + names, [[fn] + [cell(fn, n) for n in names] for fn in fns])
    accessor_calls = sorted({f"{h} ({var} {rp} {op})" for (var, body, rp, op), c in counts.items()
                             if body != "-" for h in c["libcalls_static"].split()})
    calls = "; ".join(accessor_calls) or "no helper call in any accessor on any ABI"
    return lines + ["", f"Accessors: {calls} (cost.csv `libcalls_static`).", ""]


def hand_measurement_section(counts):
    """The claim: armv7-a RFC and mainline truncation call __aeabi_uidivmod once per
    call at 100 ns..1 ms, the division-free variant needs ~117 vs ~232 instructions."""
    lines = ["### The hand measurement, checked", "",
             "Claim: on armv7-a the RFC's `fs_time_trunc()` and mainline's `timestamp_truncate()` call "
             f"`__aeabi_uidivmod` once per call at granularities 100 ns–1 ms, and the division-free "
             f"variant needs about {HAND['division_free']} instructions against {HAND['mainline']}; "
             "on i686 and armv7ve the division is inline.", ""]
    def row(variant, fn, gran, nsec):
        return counts.get((variant, "-", "-", f"{fn}/gran:{gran}/nsec:{nsec}"))

    def span(lo, hi):
        return f"{lo}" if lo == hi else f"{lo}–{hi}"
    inputs = [(gran, nsec) for gran in DIVIDING_GRANS for nsec in NSECS]
    all_ratios = {}
    for variant in ("armv7-a-thumb2", "armv7-a-arm", "armv7ve-thumb2", "i686"):
        calls = [int(m.group(1)) if (m := re.search(r"__aeabi_uidivmod:(\d+)", c["libcalls"])) else 0
                 for gran, nsec in inputs for fn in ("fs_time_trunc", "timestamp_truncate")
                 if (c := row(variant, fn, gran, nsec))]
        figures = [(m["instructions"], d["instructions"]) for gran, nsec in inputs
                   if (m := row(variant, "timestamp_truncate", gran, nsec))
                   and (d := row(variant, "timestamp_truncate_reciprocal", gran, nsec))]
        if not calls:
            continue
        per_call = sorted(set(calls))
        mains, frees = [f[0] for f in figures], [f[1] for f in figures]
        verdict = ("once per call" if per_call == [1] else "never (inline divide)" if per_call == [0]
                   else f"{' or '.join(map(str, per_call))} times per call")
        ratios = all_ratios[variant] = sorted({round(d / m, 2) for m, d in figures})
        lines.append(f"- **{variant}**: `__aeabi_uidivmod` {verdict} (trace of {len(calls)} RFC and "
                     f"mainline truncations); timestamp_truncate {span(min(mains), max(mains))} "
                     f"instructions, division-free {span(min(frees), max(frees))} (division-free / mainline "
                     f"{span(ratios[0], ratios[-1])}).")
    hand = HAND["division_free"] / HAND["mainline"]
    if soft := [r for v, r in all_ratios.items() if v.startswith("armv7-a")]:
        lo, hi = min(min(r) for r in soft), max(max(r) for r in soft)
        lines += ["", f"The hand ratio {HAND['division_free']}/{HAND['mainline']} = {hand:.2f} "
                  + ("lies within" if lo <= hand <= hi else "lies outside")
                  + f" the range counted here on armv7-a ({lo:.2f}–{hi:.2f}). The absolute counts differ "
                  "from the hand figures (whose input and build are not recorded): the software divide's "
                  "count grows with the quotient's bits, which is why both inputs are counted."]
    return lines + [""]


def mca_section(results, models):
    lines = ["### Core models: llvm-mca on the inner loops (a model's cycles, body v6)", "",
             "Loops (cost/cost_layout.c, taken from the objects by objdump): `get_mtime` and "
             "`set_mtime` are bench/accessor.c's inner loop in its shape (a pointer over 16 inodes, a "
             "barrier after each); on x86_64 they are y2038-bench's own loops, taken from the benchmark's "
             "objects (what the host validation below sets against its times); a call replaced by what the qemu trace saw it execute (callee, libgcc "
             "divide) as the count sees it; `stat` is bench/walk.c's stat loop "
             "(generic_fillattr: i_size under the seqcount on 32-bit ABIs, three timestamps, "
             "the I_CTIME_QUERIED test of multigrain), likewise. Cell: Block RThroughput / simulated cycles per "
             f"iteration (1000 iterations), ratio of the latter to {REFERENCE}; † a workaround "
             "(listed below); ‡ the loop body has inner branches, which llvm-mca runs as straight-line "
             "code, both sides counted.", ""]
    notes, branched = {}, set()
    for r in results:
        name = r.variant.name
        cpus = [cpu for cpu in mca.cpus_for(r.variant.abi)
                if any(m["mca_block_rthroughput"] for k, m in models.items() if k[0] == name and k[4] == cpu)]
        for cpu in mca.cpus_for(r.variant.abi):
            if cpu not in cpus:
                missing = next((m["workaround"] for k, m in models.items() if k[0] == name and k[4] == cpu),
                               "not run")
                notes.setdefault(missing, set()).add(f"{name} {cpu}")
        reprs = [rp for body, rp, _ in r.variant.layouts if body == "v6"]

        def cell(loop, rp, cpu):
            m = models.get((name, "v6", rp, f"loop/{loop}", cpu))
            ref = models.get((name, "v6", REFERENCE, f"loop/{loop}", cpu))
            if m is None or not m["mca_block_rthroughput"]:
                return "—" if m is None else f"— ({m['workaround'][:40]})"
            mark = ("†" if m["workaround"] else "") + ("‡" if "inner branch" in m["check"] else "")
            if m["workaround"]:
                notes.setdefault(m["workaround"], set()).add(f"{name} {cpu} {loop}/{rp}")
            if "inner branch" in m["check"]:
                branched.add(f"{name} {loop}/{rp}")
            rel = (ratio(float(m["mca_cycles_per_iteration"]), float(ref["mca_cycles_per_iteration"]))
                   if ref and ref["mca_cycles_per_iteration"] else "")
            return f"{m['mca_block_rthroughput']} / {m['mca_cycles_per_iteration']} {rel}{mark}"
        lines += [f"#### {name}", ""] + markdown.table(
            ["loop", "repr"] + cpus, [[loop, rp] + [cell(loop, rp, cpu) for cpu in cpus]
                                      for loop in ("get_mtime", "set_mtime", "stat") for rp in reprs],
            "ll" + "r" * len(cpus)) + [""]
        figures = {cpu: [(m["mca_block_rthroughput"], m["mca_cycles_per_iteration"])
                         for k, m in sorted(models.items()) if k[0] == name and k[4] == cpu]
                   for cpu in cpus}
        llvm = (mca.mca_version(mca.tool_for(mca.triple_for(r.variant.abi, name))) or "?").split(".")[0]
        for a, b in itertools.combinations(cpus, 2):
            if figures[a] == figures[b]:
                lines += [f"{a} and {b}: identical figures for every loop and layout "
                          f"(LLVM {llvm} schedules both with one model).", ""]
    if branched:
        lines += ["‡ Loops with inner branches: " + ", ".join(sorted(branched)) + ". The model counts "
                  "every instruction of the body once: multigrain's stat includes the atomic OR of "
                  "I_CTIME_QUERIED that walk's steady state (flag already set) skips, and on 32-bit "
                  "ABIs the i_size seqcount retry is modelled as not taken but its test counted.", ""]
    if notes:
        lines += ["Workarounds and missing models:", ""] + [
            f"- {note}: {', '.join(sorted(cells)[:6])}"
            + (f" and {len(cells) - 6} more" if len(cells) > 6 else "")
            for note, cells in sorted(notes.items())] + [""]
    return lines


def write_reports(results, bench, out, command):
    rows = [row for r in results for row in r.rows]
    counts, models = index(rows, "instructions"), index(rows, "mca")
    status, host = compare(models, bench)[1], ("x86_64", mca.cpus_for("x86_64")[0])
    for row in (r for r in rows if r["measure"] == "mca"):  # the verdict leans on validated cores only
        row["validation"] = status if (row["abi"], row["mca_cpu"]) == host else "not validated: no timing of this core here"
    checked = sum(r.checked for r in results)
    total = sum(1 for row in rows if row["measure"] == "instructions")
    lines = header(results, command) + ["", "## 32-bit and embedded cost", "",
        "How each figure is made: the counting harness (cost/) is compiled per layout and per ABI "
        "variant with the kernel's code generation, linked statically and run once per operation "
        "between two marker calls under qemu-user's per-instruction trace; cost.py attributes every "
        "traced instruction to its function through the harness's symbol table. Check of the "
        f"method: {checked} of {total} rows executed each instruction of their function exactly "
        "once and match objdump's static count of it; the harness checks every value it computed. "
        "All rows, both bodies and a/c times: [cost.csv](cost.csv).", ""]
    names = [r.variant.name for r in results]
    lines += (summary_section(results, counts) + accessor_section(results, counts)
              + truncation_section(names, counts) + libcall_section(names, counts)
              + hand_measurement_section(counts) + codec_section(names, counts)
              + mca_section(results, models) + validation_section(models, bench))
    with OutputSet() as files:  # COST.md and the cost.csv it cites: both or neither
        files.write_text(os.path.join(out, "cost.csv"), fsio.csv_text(rows, CSV_COLUMNS))
        files.write_text(os.path.join(out, "COST.md"), "\n".join(lines).rstrip() + "\n")
