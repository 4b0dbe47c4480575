"""`scripts/lab import RESULTS.tar.gz`: a board's REPORT.md from its own facts.

Writes reports/<abi>-<board>/ (or --out): REPORT.md, bench-<abi>.json (the suite's JSON, every
process merged as `scripts/lab bench` merges them, the board's facts in its context: what `scripts/lab
merge` reads), bench-<abi>.json.cmd, the
benchmark plots, and btf-inode.txt when the board sent its BTF.  The header comes from the board
(run.txt, manifest.txt, facts/), never from the machine that imports; the slab model uses the board's
present CPUs and kernel version; the live-BTF comparison reads the board's /sys/kernel/btf/vmlinux
with pahole.  The report opens with the paired protocol's resolution block over the board's processes
(core.tables.paired_summary, as the host's REPORT.md), an emulated run's saying its timings are not
figures.  The new folder replaces the old one only once it is complete.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from y2038lab.boards import results
from y2038lab.core import abis, fsio, markdown, sizes, tables
from y2038lab.core.results import load_run
from y2038lab.layouts import pahole, slub_model
from y2038lab.core.fsio import InputError

CONFIG_KEYS = ("CONFIG_64BIT", "CONFIG_SMP", "CONFIG_NR_CPUS", "CONFIG_HZ", "CONFIG_PREEMPT",
               "CONFIG_PREEMPT_VOLUNTARY", "CONFIG_PREEMPT_NONE", "CONFIG_PREEMPT_RT", "CONFIG_SLUB",
               "CONFIG_SLAB", "CONFIG_SLUB_DEBUG_ON", "CONFIG_COMPAT_32BIT_TIME", "CONFIG_ARM_LPAE",
               "CONFIG_THUMB2_KERNEL", "CONFIG_CPU_BIG_ENDIAN", "CONFIG_DEBUG_INFO_BTF",
               "CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS", "CONFIG_ARM64_PAGE_SHIFT", "CONFIG_PAGE_SIZE_4KB")


def header(board, res):
    m = board["manifest"]
    online = f"{board['online']} online, {board['present']} present" if board["online"] else f"{board['present']} present"
    freqs = sorted({(r["min_khz"], r["max_khz"]) for _, r in board["per_cpu"] if r["max_khz"]})
    freq = ", ".join(f"{int(lo) // 1000}-{int(hi) // 1000} MHz" for lo, hi in freqs
                     if lo and lo.isdigit() and hi.isdigit()) or "not exposed (no cpufreq)"
    rows = [("Date (UTC)", f"{board['started']} to {board['finished']}"),
            ("Board", f"{board['board']}" + (f" ({board['board_model']})" if board["board_model"] else "")),
            ("CPU", f"{board['cpu_text']} ({online})"), ("CPU frequencies", freq),
            ("Kernel", board["uname_a"]), ("OS", board["os"] or "?"),
            ("ABI", f"{board['abi']} (kernel machine {board['machine']})"),
            ("Compiler", m.get("c_compiler", "?")),
            ("Build", f"{m.get('build_type', '?')}, C flags `{m.get('c_flags', '?')}`, kernel code generation "
                      f"`{m.get('kernel_cflags', '?')}`; {m.get('link', '?')}"),
            ("Google Benchmark", m.get("google_benchmark", "?")), ("Commit", m.get("commit", "?")),
            ("Mode", f"{board['mode']}; tests {board['tests']}; "
                     + ", ".join(f"{k} {v} s" for k, v in board["seconds"].items() if v)),
            ("Results", f"`{os.path.basename(res.path)}` (sha256 {res.sha256[:16]}…)")]
    run = board["run"]
    if run.get("budget_seconds"):
        rows.insert(-1, ("Budget", f"--minutes {run.get('minutes', '?')} ({run['budget_seconds']} s, the whole run); "
                                   f"{run.get('budget_plan', '?')}; cut to fit: {run.get('budget_cuts', '?')}; "
                                   f"paired processes: {run.get('paired_processes', '?')}"
                                   + (f"; **overrun**: {run['budget_overrun']}" if run.get("budget_overrun") else "")))
    if board["emulated"]:
        rows.insert(0, ("**EMULATED**", board["emulated_why"]))
    return markdown.facts(rows)


def facts_section(board):
    out = ["## The board", "", "Copied by run.sh from /proc and /sys on the board.", ""]
    if board["per_cpu"]:
        mhz = lambda r, k: str(int(r[k]) // 1000) if r[k] and r[k].isdigit() else "-"  # noqa: E731
        out += markdown.table(("CPU", "model", "min-max MHz", "now MHz", "governor", "capacity", "cluster"), [
            (cpu, board["models"].get(cpu, "?"), f"{mhz(r, 'min_khz')}-{mhz(r, 'max_khz')}" if r["max_khz"] else "-",
             mhz(r, "cur_khz"), r["governor"] or "-", r["capacity"] or "-", r["cluster"] or "-")
            for cpu, r in board["per_cpu"]]) + [""]
    if board["caches"]:
        out += markdown.table(("cache level", "type", "size", "ways", "line", "shared by CPUs"), [
            (f"L{lvl}", typ, size, ways, f"{line} B", shared)
            for lvl, typ, size, ways, line, shared in board["caches"]]) + [""]
    mem = re.search(r"^MemTotal:\s*(\d+) kB", board["meminfo"], re.M)
    out.append(f"Memory: {int(mem.group(1)) // 1024} MiB. " if mem else "Memory: not recorded. ")
    if board["kernel_config"]:
        found = dict(kv for kv in (line.split("=", 1) for line in board["kernel_config"].splitlines())
                     if len(kv) == 2 and kv[0] in CONFIG_KEYS)
        out[-1] += (f"Kernel configuration ({board['kernel_config_from']}): "
                    + ", ".join(f"`{k}={v}`" for k, v in found.items()) + ".")
    else:
        out[-1] += f"Kernel configuration: {board['kernel_config_from']}."
    if board["cmdline"]:
        out += ["", f"Kernel command line: `{board['cmdline']}`"]
    if board["unreadable"]:
        out += ["", "Not readable on the board: " + ", ".join(f"`{u}`" for u in board["unreadable"]) + "."]
    return out + [""]


def tests_section(res, board):
    # tests.txt: "name verdict exit seconds [note]"
    rows = [line.split(None, 4) for line in (res.text("tests.txt") or "").splitlines() if line.strip()]
    out = ["## Tests on the board", "", f"run.sh ran the bundle's CTest programs ({board['tests']}); "
           f"left on the host: {board['manifest'].get('tests_left_out', '?')}.", ""]
    if board["run"].get("tests_env"):
        out += [f"Environment: `{board['run']['tests_env']}`.", ""]
    if odd := [r for r in rows if len(r) >= 2 and r[1] != "PASS"]:
        out += markdown.table(("test", "verdict", "exit", "note"), [
            (r[0], r[1], r[2] if len(r) > 2 else "?", r[4] if len(r) > 4 else "") for r in odd]) + [""]
    torn = [line for name in sorted(res.files) if name.startswith("tests/torn_read_test")
            for line in res.text(name).splitlines() if " torn of " in line]
    if torn:
        out += ["Torn reads of i_mtime (one writer, lockless readers; printed, not asserted, "
                "except that the seqcount variant sees none):", "", "```"] + torn + ["```", ""]
    return out


def tools_section(res):
    return ["## Clamp and truncate: RFC versus mainline", "", "Command: `bin/fstime-selfcheck` on the board "
           f"({res.keys('run.txt').get('fstime-selfcheck', '?')})", "", "```",
           (res.text("fstime-selfcheck.txt") or "not recorded").rstrip(), "```", "",
           "## When each file system's timestamps run out", "",
           f"Command: `bin/fs-expiry` on the board ({res.keys('run.txt').get('fs-expiry', '?')})", "",
           (res.text("fs-expiry.txt") or "not recorded").rstrip(), ""]


def layouts_section(board, top):
    abi, cpus, calc = board["abi"], board["present"], slub_model.calc_for(board["kernel"])
    params = slub_model.boot_slab_params(board["cmdline"])
    path = os.path.join(top, "reports", "layouts", f"sizes-{abi}.csv")
    out = ["## struct inode on this ABI: sizes and slab cost", ""]
    if (rows := sizes.load(os.path.dirname(path), abi)) is None:
        return out + [f"No size table for {abi} ({path}); run `scripts/lab pahole`.", ""]
    out += [f"sizeof from pahole (`scripts/lab pahole`, reports/layouts/sizes-{abi}.csv, built on the host "
            f"with the same cross compiler); objects per slab from python3 -m y2038lab slub-model with **this board's** "
            f"{cpus} present CPUs and the {calc} algorithm (kernel {board['kernel']})"
            + (f", boot parameters {params}" if params else "") + ".", ""]

    def slab(objsize):
        return slub_model.slab_geometry(objsize, cpus, calc, params.get("min_objects"))
    table = []
    for r in rows:
        objsize = slub_model.cache_object_size(r["size"], word=abis.word(abi))
        objs, pages = slab(objsize)
        mem = -(-10**6 // objs) * pages * slub_model.PAGE_SIZE
        table.append((f"{r['body']}/{r['repr']}", r["size"], objsize, f"{objs} / {pages}", f"{mem / 2**20:.1f}"))
    out += markdown.table(("layout", "sizeof(inode)", "objsize", "objects / pages per slab", "MiB per 10^6 inodes"),
                          table, "lrrlr") + [""]
    if board["slabinfo"]:
        if "min_order" in params or "max_order" in params:
            return out + [f"The board's /proc/slabinfo is not compared: booted with {params}.", ""]
        out += ["The model against the board's own /proc/slabinfo (its inode caches):", ""]
        out += markdown.table(("cache", "objsize", "slabinfo objects / pages", "model", "agrees"), [
            (name, objsize, f"{objs} / {pages}", "{} / {}".format(*slab(objsize)),
             "yes" if slab(objsize) == (objs, pages) else "**no**")
            for name, objsize, objs, pages in slub_model.parse_slabinfo(board["slabinfo"])], "lrlll") + [""]
    else:
        out += ["The board's /proc/slabinfo was not readable (it needs root): no validation.", ""]
    return out


def btf_section(board, top, outdir):
    """The board kernel's struct inode (its BTF, read by pahole) against each replica of this ABI."""
    out = ["## The board's kernel: live BTF against the replicas", ""]
    if not board["btf"]:
        return out + [f"No BTF from the board: {board['btf_note']}.", ""]
    if not shutil.which("pahole"):
        return out + ["pahole not found on this host (Debian package dwarves): comparison skipped.", ""]
    with tempfile.NamedTemporaryFile(suffix=".btf") as f:
        f.write(board["btf"])
        f.flush()
        try:  # parse_struct: None without the struct, InputError without its size line
            text = fsio.run(pahole.PAHOLE + ["-F", "btf", "-C", "inode", f.name])
            live = pahole.parse_struct(text, "inode")
        except InputError:
            live = None
    if not live:
        return out + ["pahole could not read struct inode from the board's BTF: comparison skipped.", ""]
    fsio.write_text(os.path.join(outdir, "btf-inode.txt"), text)
    word = abis.word(board["abi"])
    out += [f"`pahole -F btf -C inode` on the board's /sys/kernel/btf/vmlinux (kernel {board['kernel']}; "
            "raw output in btf-inode.txt): sizeof(struct inode) "
            f"**{live['size']}**, {live['cachelines']} cache lines, holes {live['holes']}.", ""]
    ino = live["members"].get("i_ino")
    if board["emulated"]:
        out += ["**Emulated run: this BTF is the host kernel's**, not a board's; the table shows "
                "the comparison works, not what a board runs.", ""]
    if ino and ino[1] != word:
        out += [f"**This BTF is not of a {board['abi']} kernel** (unsigned long i_ino is {ino[1]} bytes, "
                f"{board['abi']} has {word}).", ""]
    out += ["| replica (reports/pahole) | sizeof | members placed differently | i_mtime / i_mtime_sec |",
            "|---|---:|---:|---|"]
    # The replicas of this ABI, in the size table's order (scripts/lab pahole), today's body first.
    rows = sizes.load(os.path.join(top, "reports", "layouts"), board["abi"]) or []
    replicas = sorted(((r["body"], r["repr"]) for r in rows), key=lambda br: br[0] != "v6")
    for body, repr_ in replicas:
        path = os.path.join(top, "reports", "pahole", board["abi"], f"{body}-{repr_}.txt")
        if not os.path.exists(path):
            continue
        mine = pahole.parse_struct(fsio.read_text(path), "inode")
        differ = sum(1 for n in set(live["members"]) | set(mine["members"])
                     if live["members"].get(n) != mine["members"].get(n))
        mt = next((n for n in ("i_mtime", "i_mtime_sec") if n in mine["members"]), None)
        where = f"{mine['members'][mt][0]}/{mine['members'][mt][1]}" if mt else "-"
        live_mt = next((n for n in ("i_mtime", "i_mtime_sec") if n in live["members"]), None)
        where += f" (live {live['members'][live_mt][0]}/{live['members'][live_mt][1]})" if live_mt else ""
        out.append(f"| {board['abi']} {body}/{repr_} | {mine['size']} | {differ} | {where} |")
    return out + ["", "0 members placed differently = the replica is this kernel's layout.", ""]


def bench_section(top, json_path, outdir, board):
    cmd = [sys.executable, "-m", "y2038lab", "bench-report", "--json", json_path,
           "--fragment", os.path.join(outdir, "40-bench.md"), "--plots-dir", outdir,
           "--sizes", os.path.join(top, "reports", "layouts"),
           "--command", f"run.sh --{board['mode']} on the board (scripts/lab board-run)"]
    res = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=os.path.join(top, "scripts")),
                         capture_output=True, text=True)
    if res.returncode != 0:
        last = (res.stderr.strip().splitlines() or ["no message"])[-1]
        raise InputError(f"{json_path}: y2038lab bench-report failed: {last}")
    text = fsio.read_text(os.path.join(outdir, "40-bench.md"))
    os.unlink(os.path.join(outdir, "40-bench.md"))
    note = ([f"> **Emulated run** ({board['emulated_why']}): these are qemu-user times on "
             f"{board['cpu_text']}, not {board['abi']} board figures; they show the bundle works.", ""]
            if board["emulated"] else [])
    return note + text.rstrip().splitlines() + [""]


def resolution_section(json_path, board):
    """The paired protocol's resolution block, as the host's REPORT.md has it at its top: per family the
    resolution, the negative and the positive controls, over the board's processes."""
    run = load_run(json_path)
    plan = {p["pass"]: p for p in run.context.get("y2038_run_plan") or []}
    if "paired" not in plan:
        return ["## Resolution", "", "No paired pass in this run (a run.sh older than the board's paired protocol: "
                "one process, its comparisons have too few repetitions for an interval).", ""]
    p = plan["paired"]
    each = f"{p['repetitions'] // p['processes']} repetitions of {p['min_time_s']:g} s each per process"
    units = (f"{p['processes']} processes as units ({p['link_orders']} link orders of y2038-bench), {each}"
             if p.get("units", p["processes"]) == p["processes"] else
             f"{p['processes']} processes, each with its own environment size, over {p['link_orders']} link orders "
             f"of y2038-bench, {each}; {p['units']} units, one per link order, each the median of its processes' "
             "repetitions: processes of one link order share where its code lies")
    whose = (f"qemu-user times on {board['cpu_text']}, not {board['abi']} figures" if board["emulated"]
             else f"timings of the board {board['board']}")
    out = ["## Resolution", ""]
    if board["emulated"]:
        out += [f"> **Emulated run: the protocol ran, the timings are not figures.** {board['emulated_why']}: "
                "every ratio, interval and resolution below is of qemu-user on the importing machine's CPU; it "
                "shows the board path works end to end, nothing about a board.", ""]
    lines = tables.paired_summary(run, f"run.sh --{board['mode']} (`scripts/lab board-run`), {os.path.basename(json_path)}, "
                                       f"{whose}; {units}")
    return out + (lines or ["The paired pass recorded no paired benchmark.", ""])


def import_results(path, top, out=None):
    res = results.Results(path)
    board = results.facts(res)
    out = out or os.path.join(top, "reports", f"{board['abi']}-{board['board']}")
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise InputError(f"{out}: folder {parent} does not exist")
    work = tempfile.mkdtemp(prefix=os.path.basename(out) + ".", suffix=".new", dir=parent)
    try:
        json_path = os.path.join(work, f"bench-{board['abi']}.json")
        fsio.write_text(json_path, json.dumps(results.suite_json(res, board), indent=2) + "\n")
        fsio.write_text(json_path + ".cmd", res.text("bench/bench.cmd"))
        title = f"# y2038 inode timestamp lab: board report for {board['abi']} on {board['board']}"
        lines = [title + (" (EMULATED)" if board["emulated"] else ""), ""]
        if board["emulated"]:
            lines += [f"> **EMULATED, not a board report.** {board['emulated_why']}. Every time below was "
                      "measured under qemu-user on the machine named in the header; the facts are that "
                      "machine's. Only the tests' verdicts and the layouts say anything about the ABI.", ""]
        lines += [markdown.generated(f"scripts/lab import {os.path.basename(path)}", "; do not edit by hand. The "
                                     "header and every fact are the board's own, as run.sh recorded them."), ""]
        lines += header(board, res) + resolution_section(json_path, board) + facts_section(board)
        lines += tests_section(res, board) + tools_section(res)
        lines += (layouts_section(board, top) + btf_section(board, top, work)
                  + bench_section(top, json_path, work, board))
        fsio.write_text(os.path.join(work, "REPORT.md"), "\n".join(lines).rstrip() + "\n")
        os.chmod(work, 0o755)
        old = out + ".old"
        shutil.rmtree(old, ignore_errors=True)
        if os.path.exists(out):
            os.rename(out, old)
        os.rename(work, out)
        work = None
        shutil.rmtree(old, ignore_errors=True)
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    return os.path.join(out, "REPORT.md")
