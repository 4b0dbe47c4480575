"""32-bit and embedded cost without boards: instruction counts, library calls,
core models (`scripts/lab cost`: `cost report --build DIR ... --out reports/cost`).

Each --build is a CMake build tree whose `cost` target was built (it holds
cost/cost_manifest.tsv).  Writes reports/cost/cost.csv and COST.md (report.py)
with the three measures y2038lab.cost's map names, each labelled as what it is.
"""
import argparse
import concurrent.futures
import os
import sys
from dataclasses import dataclass, field

from y2038lab.cost import code, mca, trace
from y2038lab.core.fsio import InputError, prog, run_main

# Report order: the reference first, then the 32-bit ABIs, then the 64-bit ones.
VARIANT_ORDER = ("x86_64", "i686", "armv7-a-thumb2", "armv7-a-arm", "armv7ve-thumb2", "aarch64",
                 "riscv64")
LOOPS = ("get_mtime", "set_mtime", "stat")
# The variant whose get/set loops are y2038-bench's own (the validation row sets them against its
# times): the rounds loop of accessor_<loop>_<body>_<repr> in the benchmark's object of the same build.
BENCH_LOOP_VARIANTS = ("x86_64",)
BENCH_LOOPS = ("get_mtime", "set_mtime")


@dataclass
class VariantResult:
    variant: trace.Variant
    source: str = ""                          # what made the instruction counts
    rows: list = field(default_factory=list)   # dicts with report.CSV_COLUMNS
    checked: int = 0                          # rows whose trace matched objdump exactly


def load_builds(builds):
    """The Variants of every build's manifest, in VARIANT_ORDER, others after by name."""
    variants = {}
    for build in builds:
        path = os.path.join(build, "cost", "cost_manifest.tsv")
        for name, v in trace.read_manifest(path).items():
            if name in variants:
                raise InputError(f"{path}: variant {name} also comes from {variants[name].manifest}")
            variants[name] = v
    return [variants[n] for n in VARIANT_ORDER if n in variants] + \
        [v for n, v in sorted(variants.items()) if n not in VARIANT_ORDER]


def objects_of(variant):
    """({function: [Insn]}, {function: (start, size)}) over the variant's real objects."""
    funcs, sizes = {}, {}
    for path in [obj for _, _, obj in variant.layouts] + [variant.fstime]:
        if not os.path.isfile(path):
            raise InputError(f"{path}: missing; build the `cost` target of {variant.manifest}")
        funcs.update(code.disassemble(variant.objdump, path))
        sizes.update(code.symbol_table(variant.nm, path))
    return funcs, sizes


def trace_check(region, insns, start, size):
    """Checks the trace against objdump of the linked harness (riscv64's linker relaxes calls, so the
    objects' offsets would not do): every traced pc of the subject must be an instruction start.  'exact'
    when the subject ran each of its instructions once (dynamic count == static count: straight-line
    code), 'branches' when it took one path of several."""
    if not insns:
        raise InputError(f"{region.subject}: not in the harness's disassembly")
    pcs = [pc for sym, pc in region.pcs if sym == region.subject]
    static = {insn.addr for insn in insns if start <= insn.addr < start + size}  # no padding
    if not set(pcs) <= static:
        raise InputError(f"{region.subject}: traced pcs {sorted(hex(p) for p in set(pcs) - static)} "
                         "are not instruction starts in objdump: the trace is not per instruction")
    return "exact" if len(pcs) == len(static) == len(set(pcs)) else "branches"


def count_variant(variant):
    symbols_table = code.symbol_table(variant.nm, variant.harness)
    symbols = trace.SymbolMap(symbols_table)
    command, regions = trace.trace_variant(variant, symbols)
    funcs, sizes = objects_of(variant)
    linked = code.disassemble(variant.objdump, variant.harness, relocs=False)
    result = VariantResult(variant, f"qemu-user trace: {' '.join(command[:-1])}")
    for region in regions:
        subject = region.subject
        if subject not in funcs or subject not in region.per_symbol or subject not in symbols_table:
            raise InputError(f"{variant.harness}: row {region.index} ({region.operation}) never "
                             f"entered {subject}")
        check = trace_check(region, linked.get(subject), *symbols_table[subject])
        result.checked += check == "exact"
        dynamic = {s: n for s, n in sorted(region.entries.items()) if s != subject}
        result.rows.append({
            "abi": variant.abi, "variant": variant.name, "body": region.body, "repr": region.repr,
            "operation": region.operation, "measure": "instructions",
            "instructions": region.instructions, "code_bytes": sizes.get(subject, ("", ""))[1],
            "libcalls": " ".join(f"{s}:{n}" for s, n in dynamic.items() if trace.HELPER_RE.match(s)),
            "libcalls_static": " ".join(n for n in code.reachable_calls(funcs, subject)
                                        if trace.HELPER_RE.match(n)),
            "calls": " ".join(f"{s}:{n}" for s, n in dynamic.items() if not trace.HELPER_RE.match(s)),
            "check": check, "source": result.source,
        })
    at = {insn.addr: insn for insns in linked.values() for insn in insns}
    paths = {name: [at[pc] for pc in pcs] for name, pcs in trace.call_paths(regions, symbols.entry).items()}
    return result, funcs, paths


def bench_objects(variant):
    """{layout id: accessor object} of y2038-bench in the build that made VARIANT (bench/bench_objects.txt
    beside cost/cost_manifest.tsv); InputError when it was not built."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(variant.manifest)))
    path = os.path.join(build, "bench", "bench_objects.txt")
    try:
        with open(path, encoding="utf-8") as f:
            rows = [line.split(None, 1) for line in f.read().splitlines() if line.strip()]
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror or err}); build the bench_layout_objects target") from err
    objects = {row[0]: row[1].strip() for row in rows if len(row) == 2 and row[1].strip().endswith("accessor.c.o")}
    if missing := [f"{b}_{r}" for b, r, _ in variant.layouts if f"{b}_{r}" not in objects]:
        raise InputError(f"{path}: no accessor object of {', '.join(missing)}")
    return objects


def bench_loops(variant):
    """{(body, repr, loop): (check text, [Insn])}: y2038-bench's own rounds loops for the
    BENCH_LOOP_VARIANTS (the instructions its accessor benchmarks time), {} for the others."""
    if variant.name not in BENCH_LOOP_VARIANTS:
        return {}
    objects, loops = bench_objects(variant), {}
    for body, repr_, _ in variant.layouts:
        obj = objects[f"{body}_{repr_}"]
        if not os.path.isfile(obj):
            raise InputError(f"{obj}: missing; build the bench_layout_objects target")
        funcs = code.disassemble(variant.objdump, obj)
        for loop in BENCH_LOOPS:
            name = f"accessor_{loop}_{body}_{repr_}"
            if not (insns := code.rounds_loop(funcs.get(name) or [])):
                raise InputError(f"{obj}: no loop found in {name}")
            loops[(body, repr_, loop)] = (f"{code.BENCH_LOOP_NOTE}: the rounds loop of {name} (bench/accessor.c)", insns)
    return loops


def model_variant(variant, funcs, paths, jobs=2):
    """llvm-mca rows for every layout x loop x CPU of VARIANT's ABI; a call in a loop gives way
    to what it executed in the counted rows (PATHS, qemu trace): the code the trace counts."""
    triple = mca.triple_for(variant.abi, variant.name)
    tasks, bench = [], bench_loops(variant)
    for body, repr_, _ in variant.layouts:
        for loop in LOOPS:
            name = f"cost_loop_{loop}_{body}_{repr_}"
            origin, insns = bench.get((body, repr_, loop)) or ("", code.inner_loop(funcs.get(name) or []))
            if not insns:
                raise InputError(f"{variant.name}: no loop found in {name} (objdump of its object)")
            inner = sum(1 for insn in insns[:-1] if code.branch_target(insn) is not None)  # not its own
            insns, spliced = code.splice_calls(insns, paths)
            # llvm-mca runs the body as straight-line code: both sides of a branch (COST.md's ‡).
            check = "; ".join(
                [origin] * bool(origin)
                + [f"{inner} inner branch{'es' if inner > 1 else ''}: modelled straight-line"] * bool(inner)
                + [f"calls replaced by what they executed (qemu trace): {' '.join(sorted(set(spliced)))}"]
                * bool(spliced))
            tasks += [(body, repr_, loop, cpu, code.mca_source(insns), len(insns), check)
                      for cpu in mca.cpus_for(variant.abi)]
    no_model = {}

    def run(task):
        _, _, _, cpu, source, *_ = task
        result = no_model.get(cpu) or mca.run_mca(source, cpu, triple)
        if result.error == "no model":
            no_model[cpu] = result
        return result
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return [{"abi": variant.abi, "variant": variant.name, "body": body, "repr": repr_,
                 "operation": f"loop/{loop}", "measure": "mca", "instructions": count, "mca_cpu": cpu,
                 "mca_block_rthroughput": "" if r.block_rthroughput is None else f"{r.block_rthroughput:g}",
                 "mca_cycles_per_iteration": "" if r.cycles_per_iteration is None
                 else f"{r.cycles_per_iteration:.2f}",
                 "mca_bottleneck": r.bottleneck, "workaround": r.workaround, "check": check,
                 "source": f"llvm-mca {mca.mca_version(mca.tool_for(triple))}"}
                for (body, repr_, loop, cpu, _, count, check), r in zip(tasks, pool.map(run, tasks))]


def collect(builds, log=print):
    """[VariantResult] with instruction rows and mca rows, for every variant built."""
    for tool, package in ((mca.MCA, "llvm"), (mca.HOST_MCA, "llvm-19")):
        if not mca.mca_version(tool):
            raise InputError(f"{tool}: not found (Debian package {package})")
    results = []
    for variant in load_builds(builds):
        log(f"cost: {variant.name}: tracing {variant.harness} under qemu-user")
        result, funcs, paths = count_variant(variant)
        log(f"cost: {variant.name}: {len(result.rows)} rows counted, {result.checked} equal to "
            "objdump's static count; llvm-mca on the loops")
        result.rows += model_variant(variant, funcs, paths)
        results.append(result)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    rep = sub.add_parser("report", help="count, model, and write cost.csv and COST.md")
    rep.add_argument("--build", action="append", required=True,
                     help="a build tree with cost/cost_manifest.tsv (repeat per preset)")
    rep.add_argument("--bench-json", help="y2038-bench JSON of this host (the validation row)")
    rep.add_argument("--out", required=True, help="output folder (reports/cost)")
    rep.add_argument("--command", default="scripts/lab cost", help="the command named in the header")
    args = parser.parse_args(argv)

    from y2038lab.cost import report, validate  # rendering only when asked to report
    if not os.path.isdir(args.out):
        raise InputError(f"{args.out}: output folder does not exist")
    bench = validate.read_bench_json(args.bench_json) if args.bench_json else None
    results = collect(args.build, log=lambda text: print(text, file=sys.stderr))
    report.write_reports(results, bench, args.out, args.command)
    print(f"{prog()}: wrote {os.path.join(args.out, 'cost.csv')} and {os.path.join(args.out, 'COST.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
