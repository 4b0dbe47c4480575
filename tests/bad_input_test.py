#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""bad_input_test.py - every report script fed bad input, unusable output paths and a full disk.

    bad_input_test.py [BUILD_DIR]      (BUILD_DIR: a build with layout_probes, for layouts_report.py)

Each case asserts the exit code, the one-line message (naming the file and
the problem) and that the outputs that existed before are byte-identical
afterwards, with no temporary file left.  Before each case the outputs are
overwritten with marker text, so a rewrite with equal content could not hide.
A disk-full write is `ulimit -f` (RLIMIT_FSIZE) set below the size of the
largest output but above a smaller one written earlier in the same set:
whatever was already written must not have replaced anything.
"""
import json
import os
import shutil
import stat
import sys
import tempfile

from scripttest import FAKE_BENCH, HERE, TOP, env, expect, finish, one_line_error, run, snapshot, temporaries, write

FIXTURE = os.path.join(HERE, "data", "bench-fixture.json")
SIZES = os.path.join(TOP, "reports", "layouts")
MARK = "OLD CONTENT: must survive\n"


def tamper(paths):
    for p in paths:
        write(p, MARK)
    return {p: MARK.encode() for p in paths}


def same(case, files):
    expect(f"{case}: previous outputs byte-identical", files,
           {p: (open(p, "rb").read() if os.path.exists(p) else None) for p in files})
    folders = {os.path.dirname(p) for p in files}
    expect(f"{case}: no temporary file left", [], sorted(t for d in folders for t in temporaries(d)))


def bad_json(tmp, name, data, raw=None):
    path = os.path.join(tmp, name)
    with open(path, "wb") as f:
        f.write(raw if raw is not None else json.dumps(data).encode())
    return path


tmp = tempfile.mkdtemp(prefix="bad_input_test.")
try:
    # ---- bench_report.py ---------------------------------------------------------------
    out = os.path.join(tmp, "bench")
    os.mkdir(out)
    frag, summ = os.path.join(out, "40-bench.md"), os.path.join(out, "05-summary.md")
    ok = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", frag, "--summary", summ, "--sizes", SIZES,
              "--no-plots"])
    expect("bench_report: fixture runs", 0, ok.returncode)
    sizes_new = (os.path.getsize(summ), os.path.getsize(frag))
    with open(FIXTURE, encoding="utf-8") as f:
        good = json.load(f)
    nan = json.loads(json.dumps(good))
    nan["benchmarks"][2]["real_time"] = float("nan")
    neg = json.loads(json.dumps(good))
    neg["benchmarks"][2]["cpu_time"] = -3
    unit = json.loads(json.dumps(good))
    unit["benchmarks"][2]["time_unit"] = "fortnights"
    badsizes = os.path.join(tmp, "sizes-header-only")
    write(os.path.join(badsizes, "sizes-x86_64.csv"), "abi,body,repr,size\n")
    latin = os.path.join(tmp, "sizes-latin1")
    write(os.path.join(latin, "sizes-x86_64.csv"), "abi,body,repr,size\nx86_64,v6,sp\xe9cial,1\n".encode("latin-1"),
          "wb")
    CASES = [
        ("NaN time", ["--json", bad_json(tmp, "nan.json", nan)], "real_time is nan"),
        ("negative time", ["--json", bad_json(tmp, "neg.json", neg)], "cpu_time is -3"),
        ("unknown unit", ["--json", bad_json(tmp, "unit.json", unit)], "unknown time unit 'fortnights'"),
        ("not UTF-8", ["--json", bad_json(tmp, "bin.json", None, b"\x89PNG\r\n")], "not UTF-8"),
        ("no usable rows", ["--json", bad_json(tmp, "err.json", {"context": {}, "benchmarks": [
            {"name": "a/b/v6/scalar", "error_occurred": True}]})], "no usable benchmark rows"),
        ("second file bad, first good", ["--json", FIXTURE, "--json", os.path.join(tmp, "nan.json")], "nan.json"),
        ("sizes CSV header only", ["--json", FIXTURE, "--sizes", badsizes], "header only"),
        ("sizes CSV not UTF-8", ["--json", FIXTURE, "--sizes", latin], "not UTF-8"),
        ("empty skip note", ["--json", FIXTURE, "--skipped", bad_json(tmp, "bench-i386.skipped", None, b"")],
         "empty skip note"),
    ]
    for case, args, words in CASES:
        files = tamper([frag, summ])
        proc = run(["-m", "y2038lab", "bench-report", *args, "--fragment", frag, "--summary", summ, "--no-plots"])
        one_line_error(f"bench_report {case}", proc, "y2038lab bench-report", words)
        same(f"bench_report {case}", files)
    for case, fragment, words in [("fragment is a folder", out, "is a folder"),
                                  ("fragment's folder missing", os.path.join(tmp, "nope", "f.md"), "does not exist")]:
        files = tamper([summ])
        proc = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", fragment, "--summary", summ, "--no-plots"])
        one_line_error(f"bench_report {case}", proc, "y2038lab bench-report", words)
        same(f"bench_report {case}", files)
    files = tamper([frag, summ])
    os.chmod(summ, 0o444)
    proc = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", frag, "--summary", summ, "--no-plots"])
    one_line_error("bench_report summary read-only (even for root: fsio reads the mode bits)", proc,
                   "y2038lab bench-report", "is read-only")
    same("bench_report summary read-only", files)
    os.chmod(summ, 0o644)
    proc = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", frag, "--plots-dir", os.path.join(tmp, "none")])
    one_line_error("bench_report plots folder missing", proc, "y2038lab bench-report",
                   "plots folder does not exist")
    expect("disk full: summary smaller than fragment (the set is tested)", True, sizes_new[0] < sizes_new[1])
    files = tamper([frag, summ])
    proc = run(["-m", "y2038lab", "bench-report", "--json", FIXTURE, "--fragment", frag, "--summary", summ, "--sizes", SIZES,
                "--no-plots"], fsize=sum(sizes_new) // 2)
    one_line_error("bench_report disk full", proc, "y2038lab bench-report", "File too large")
    same("bench_report disk full (summary written first, fragment failed)", files)

    # ---- report.py assemble / readme ----------------------------------------------------
    res, rep = os.path.join(tmp, "results"), os.path.join(tmp, "reports", "x86_64")
    build = os.path.join(tmp, "build")
    os.makedirs(os.path.dirname(rep))
    write(os.path.join(build, "CMakeCache.txt"), "CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\n"
          "CMAKE_C_FLAGS_RELWITHDEBINFO:STRING=-O2 -g\nCMAKE_C_COMPILER:FILEPATH=/bin/true\n")
    write(os.path.join(res, "05-summary.md"), "## Summary\n\n<!-- summary -->\n"
          "| repr | x |\n|---|---|\n| ktime | 1 |\n<!-- /summary -->\n")
    write(os.path.join(res, "40-bench.md"), "## Benchmarks\n\n![tiny](tiny.png)\n\n" + "padding line\n" * 800)
    write(os.path.join(res, "tiny.png"), b"\x89PNG\r\n\x1a\n" + bytes(100), "wb")
    proc = run(["-m", "y2038lab", "assemble", "assemble", "--results", res, "--build", build, "--out", rep, "--target", "x86_64"])
    expect("assemble: runs", 0, proc.returncode)
    expect("assemble: copies the linked PNG", True, os.path.exists(os.path.join(rep, "tiny.png")))
    report, png = os.path.join(rep, "REPORT.md"), os.path.join(rep, "tiny.png")
    big = os.path.getsize(report)
    files = tamper([report, png])
    proc = run(["-m", "y2038lab", "assemble", "assemble", "--results", res, "--build", build, "--out", rep], fsize=big // 2)
    one_line_error("assemble disk full", proc, "y2038lab assemble", "File too large")
    same("assemble disk full (PNG written first, REPORT.md failed)", files)
    ASSEMBLE = [
        ("results folder missing", {"--results": os.path.join(tmp, "none")}, None, "no such results folder"),
        ("no fragments", {"--results": build}, None, "no NN-*.md fragments"),
        ("fragment not UTF-8", {}, ("50-x.md", b"## x\n\xff\n"), "50-x.md: not UTF-8"),
        ("fragment without a heading", {}, ("50-x.md", b"text\n"), "starts with a '## ' heading"),
        ("empty fragment", {}, ("50-x.md", b""), "(empty)"),
        ("linked PNG missing", {}, ("50-x.md", b"## x\n![a](gone.png)\n"), "gone.png: cannot read"),
        ("linked PNG not a PNG", {}, ("50-x.md", b"## x\n![a](fake.png)\n"), "fake.png: not a PNG"),
        ("no CMake cache", {"--build": tmp}, None, "no CMake cache"),
        ("out is a file", {"--out": report}, None, "is not a folder"),
        ("out's parent missing", {"--out": os.path.join(tmp, "no", "where")}, None, "parent folder does not exist"),
    ]
    write(os.path.join(res, "fake.png"), "not a png")
    for case, override, extra, words in ASSEMBLE:
        files = tamper([report, png])
        if extra:
            write(os.path.join(res, extra[0]), extra[1], "wb")
        args = {"--results": res, "--build": build, "--out": rep}
        args.update(override)
        proc = run(["-m", "y2038lab", "assemble", "assemble", *[x for kv in args.items() for x in kv]])
        one_line_error(f"assemble {case}", proc, "y2038lab assemble", words)
        same(f"assemble {case}", files)
        if extra:
            os.unlink(os.path.join(res, extra[0]))
    proc = run(["-m", "y2038lab", "assemble", "assemble", "--results", res, "--build", build, "--out", rep])
    readme = os.path.join(tmp, "README.md")
    begin, end = "<!-- results:begin (generated by python3 -m y2038lab assemble readme) -->", "<!-- results:end -->"
    good_readme = f"# lab\n\nintro\n\n{begin}\nold table\n{end}\n\nmore\n"
    write(readme, good_readme)
    proc = run(["-m", "y2038lab", "assemble", "readme", "--report", report, "--readme", readme])
    text = open(readme).read()
    expect("readme: block replaced, the rest kept", True,
           proc.returncode == 0 and "| ktime | 1 |" in text and text.startswith("# lab\n\nintro")
           and text.endswith(f"{end}\n\nmore\n") and "old table" not in text)
    READMES = [("no markers", "# lab\n", "found 0 begin and 0 end"),
               ("two begin markers", f"{begin}\n{begin}\nx\n{end}\n", "found 2 begin and 1 end"),
               ("two end markers", f"{begin}\nx\n{end}\n{end}\n", "found 1 begin and 2 end"),
               ("end before begin", f"{end}\nx\n{begin}\n", "in the wrong order"),
               ("only a begin marker", f"{begin}\nx\n", "found 1 begin and 0 end")]
    for case, text, words in READMES:
        write(readme, text)
        files = {readme: text.encode()}
        proc = run(["-m", "y2038lab", "assemble", "readme", "--report", report, "--readme", readme])
        one_line_error(f"readme {case}", proc, "y2038lab assemble", words)
        expect(f"readme {case}: README untouched", files, {readme: open(readme, "rb").read()})
    write(readme, good_readme)
    proc = run(["-m", "y2038lab", "assemble", "readme", "--report", os.path.join(res, "40-bench.md"), "--readme", readme])
    one_line_error("readme: report without a host table", proc, "y2038lab assemble", "no host table")
    proc = run(["-m", "y2038lab", "assemble", "readme", "--report", report, "--readme", readme], fsize=len(good_readme) + 10)
    one_line_error("readme disk full", proc, "y2038lab assemble", "File too large")
    same("readme disk full", {readme: good_readme.encode()})

    # ---- fragment.py -------------------------------------------------------------------
    fr = os.path.join(tmp, "10-selfcheck.md")
    for case, cmd, words in [("command fails", ["false"], "report step failed: false (exit 1)"),
                             ("command prints nothing", ["true"], "printed nothing"),
                             ("no such command", ["/nonexistent/tool"], "cannot run")]:
        files = tamper([fr])
        proc = run(["-m", "y2038lab", "fragment", "command", "--out", fr, "--title", "T", "--", *cmd])
        one_line_error(f"fragment {case}", proc, "y2038lab fragment", words)
        same(f"fragment {case}", files)
    proc = run(["-m", "y2038lab", "fragment", "layouts", "--sizes", readme, "--slab", readme, "--out", fr])
    one_line_error("fragment layouts: not the pahole tables", proc, "y2038lab fragment",
                   "no 'Generated by' line")

    # ---- slub_model.py --validate and layouts_report.py: slabinfo --------------------------
    SLABINFO = [("malformed line", "slabinfo - version: 2.1\ninode_cache 10 10 x 13 2\n", "malformed slabinfo line"),
                ("too few fields", "inode_cache 10 10 624\n", "malformed slabinfo line"),
                ("objsize 0", "inode_cache 10 10 0 13 2\n", "objsize 0 outside"),
                ("objsize absurd", "inode_cache 10 10 99999999 1 1\n", "objsize 99999999 outside"),
                ("pages not a power of two", "inode_cache 10 10 624 13 3\n", "not a power of two"),
                ("more objects than the slab holds", "inode_cache 10 10 624 99 2\n", "do not fit"),
                ("no rows", "slabinfo - version: 2.1\n", "no cache rows")]
    slabfile = os.path.join(tmp, "slabinfo")
    for case, text, words in SLABINFO:
        write(slabfile, text)
        proc = run(["-m", "y2038lab", "slub-model", "--validate", slabfile])
        one_line_error(f"slub_model --validate {case}", proc, "y2038lab slub-model", words)
        expect(f"slub_model --validate {case}: names the file", True, slabfile in proc.stderr)

    build_dir = sys.argv[1] if len(sys.argv) > 1 else None
    if not build_dir or not os.path.exists(os.path.join(build_dir, "layout_probes.txt")) or not shutil.which("pahole"):
        print("bad_input_test: layouts_report.py cases SKIPPED (no build folder with layout_probes, or no pahole)")
    else:
        lr = os.path.join(tmp, "lr")
        os.mkdir(lr)
        proc = run(["-m", "y2038lab", "layouts", "--build", build_dir, "--out", lr])
        expect("layouts_report: runs", 0, proc.returncode)
        outputs = sorted(os.path.join(lr, p) for p in snapshot(lr))
        largest = max(os.path.getsize(p) for p in outputs)
        for case, text, words in SLABINFO[:3]:
            write(slabfile, text)
            files = tamper(outputs)
            proc = run(["-m", "y2038lab", "layouts", "--build", build_dir, "--out", lr, "--slabinfo", slabfile])
            one_line_error(f"layouts_report slabinfo {case}", proc, "y2038lab layouts", words)
            same(f"layouts_report slabinfo {case}", files)
        fake_build = os.path.join(tmp, "fake-build")
        write(os.path.join(fake_build, "layout_abi.txt"), "x86_64\n")
        write(os.path.join(fake_build, "layout_probes.txt"), "v6 ktime\n")
        proc = run(["-m", "y2038lab", "layouts", "--build", fake_build, "--out", lr])
        one_line_error("layouts_report manifest line", proc, "y2038lab layouts",
                       "expected '<body> <repr> <object>'")
        proc = run(["-m", "y2038lab", "layouts", "--build", build_dir, "--out", os.path.join(tmp, "none")])
        one_line_error("layouts_report out missing", proc, "y2038lab layouts", "no such folder")
        files = tamper(outputs)
        proc = run(["-m", "y2038lab", "layouts", "--build", build_dir, "--out", lr], fsize=largest - 1)
        one_line_error("layouts_report disk full", proc, "y2038lab layouts", "File too large")
        same("layouts_report disk full", files)

    # ---- perf_report.py ----------------------------------------------------------------
    perf_frag, work = os.path.join(tmp, "60-perf.md"), os.path.join(tmp, "perf")
    for case, value, words in [("glob not expanded, refused", "--LL=33554432,16,64 *", "'*' is not a valgrind option"),
                               ("unbalanced quote", "--LL='1,2", "not shell words"),
                               ("an option lab perf sets", "--tool=memcheck", "--tool is set by lab perf")]:
        files = tamper([perf_frag])
        proc = run(["-m", "y2038lab", "perf", "run", "--bench", FAKE_BENCH, "--work", work, "--fragment", perf_frag],
                   environ=env(Y2038_VALGRIND_ARGS=value))
        one_line_error(f"perf_report Y2038_VALGRIND_ARGS {case}", proc, "y2038lab perf", words)
        expect(f"perf_report Y2038_VALGRIND_ARGS {case}: names the variable", True, "Y2038_VALGRIND_ARGS=" in proc.stderr)
        expect(f"perf_report Y2038_VALGRIND_ARGS {case}: nothing run", False, os.path.exists(work))
        same(f"perf_report Y2038_VALGRIND_ARGS {case}", files)
    files = tamper([perf_frag])
    proc = run(["-m", "y2038lab", "perf", "run", "--bench", FAKE_BENCH, "--work", work, "--fragment", perf_frag,
                "--operation", "no_such_walk"], environ=env(Y2038_VALGRIND_ARGS="--LL=33554432,16,64"))
    one_line_error("perf_report nothing measured", proc, "y2038lab perf", "nothing measured")
    same("perf_report nothing measured: no fragment", files)
    proc = run(["-m", "y2038lab", "perf", "run", "--bench", os.path.join(tmp, "none"), "--work", work, "--fragment", perf_frag])
    one_line_error("perf_report no program", proc, "y2038lab perf", "no such program")
finally:
    for root, dirs, _ in os.walk(tmp):
        for d in dirs:
            os.chmod(os.path.join(root, d), stat.S_IRWXU)
    shutil.rmtree(tmp)

finish("bad_input_test")
