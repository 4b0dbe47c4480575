"""A board bundle: one tarball that runs the suite on a board of one ABI.

build/bundles/y2038-bundle-<abi>.tar.gz holds y2038-bundle-<abi>/:
  run.sh        POSIX sh: facts, tests, probes, benchmarks
  manifest.txt  ABI, compilers, flags, commit, Google Benchmark
  headline.txt  the headline benchmarks (boards/headline.txt)
  plan.txt      the passes of `scripts/lab bench` (bench.run.PLAN), which run.sh runs within its budget
  bin/          y2038-bench and its other link orders y2038-bench-order1..19 (the paired pass's
                processes), fstime-selfcheck, fs-expiry, y2038-pin
  tests/        the CTest programs and tests/list

Every program is linked fully static (cmake/bundle.cmake: -static, with glibc's libc.a, libstdc++.a
and the ABI's own libbenchmark.a from boards.gbench), so the board needs no library at all, and debug
sections are stripped (symbols kept, for perf on the board).  The build tree is build/bundle-<abi>;
the unpacked bundle stays in build/bundle-<abi>/bundle/.
"""
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import tarfile

from y2038lab.core import abis, fsio, markdown
from y2038lab.bench import run as bench_run
from y2038lab.boards import elf, gbench
from y2038lab.core.fsio import InputError

TOOLS = ("y2038-bench", "fstime-selfcheck", "fs-expiry")
# y2038-bench linked in its other orders (bench/CMakeLists.txt): the paired pass runs each in a process.
ORDERS = tuple(f"y2038-bench-order{k}" for k in range(1, bench_run.LINK_ORDERS))
GB_DEFAULT_MIN_TIME = 0.5  # Google Benchmark's own --benchmark_min_time, where a pass sets none
# CTest properties run.sh does not reproduce: such tests stay on the host.
UNSUPPORTED = ("PASS_REGULAR_EXPRESSION", "FAIL_REGULAR_EXPRESSION", "ENVIRONMENT",
               "REQUIRED_FILES", "FIXTURES_REQUIRED", "FIXTURES_SETUP", "DISABLED")
log = gbench.log


def _left_out(command, exe, args, bad):
    """Why run.sh cannot run a test (None if it can): EXE is the index of the build's program in
    COMMAND (0: the program itself; after 0, command[0] must be the emulator), BAD its unsupported
    properties."""
    if exe is None or (exe > 0 and not os.path.basename(command[0]).startswith("qemu-")):
        return "a host-side check, not a program of this build"
    if bad:
        return f"needs {', '.join(bad)}"
    if any(not a or re.search(r"\s", a) for a in args):
        return "an argument with white space"
    return None


def select_tests(ctest_json, build_dir):
    """(tests, left_out) from `ctest --show-only=json-v1`: tests run.sh can run as a dict per test
    (name, labels, will_fail, skip_rc, exe, args), and "name (why)" for the others."""
    build_dir = os.path.realpath(build_dir)
    tests, left_out = [], []
    for t in ctest_json.get("tests", []):
        props = {p["name"]: p["value"] for p in t.get("properties", [])}
        command = t.get("command") or []
        # The program itself, or behind the cross build's emulator (qemu-*
        # and its options); anything else (sh -c, python3) is a host-side check.
        exe = next((i for i, c in enumerate(command) if os.path.realpath(c).startswith(build_dir + os.sep)),
                   None)
        args = command[exe + 1:] if exe is not None else []
        if why := _left_out(command, exe, args, [p for p in UNSUPPORTED if props.get(p)]):
            left_out.append(f"{t['name']} ({why})")
            continue
        tests.append({"name": t["name"], "labels": ",".join(props.get("LABELS") or []) or "-",
                      "will_fail": 1 if props.get("WILL_FAIL") else 0,
                      "skip_rc": str(props.get("SKIP_RETURN_CODE", "-")),
                      "exe": os.path.realpath(command[exe]), "args": args})
    return tests, left_out


def manifest(abi, top, build_dir, gbench_prefix, tests, left_out, pin_flags):
    cache = fsio.cmake_cache(build_dir)
    kernel = "-mgeneral-regs-only" if cache.get("Y2038_HAVE_GENERAL_REGS_ONLY") == "1" and \
        cache.get("Y2038_KERNEL_CODEGEN", "ON") not in ("OFF", "0", "FALSE") else "none"
    libc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", f"libc6-dev-{abi.deb_arch}-cross"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout.strip()
    with open(os.path.join(gbench_prefix, "y2038-gbench.txt"), encoding="utf-8") as f:
        gbench_facts = f.read().strip()
    return "\n".join([
        f"abi: {abi.name}",
        "bundle_format: 1",
        f"created: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        f"created_on: {platform.node()} ({platform.system()} {platform.release()} {platform.machine()})",
        f"commit: {markdown.commit(top)}",
        f"c_compiler: {fsio.first_line([fsio.cmake_compiler(build_dir), '--version'])}",
        f"cxx_compiler: {fsio.first_line([fsio.cmake_compiler(build_dir, 'CXX'), '--version'])}",
        f"build_type: {cache.get('CMAKE_BUILD_TYPE', '')}",
        f"c_flags: {fsio.cmake_flags(cache)}",
        f"cxx_flags: {fsio.cmake_flags(cache, 'CXX')}",
        f"kernel_cflags: {kernel} (fstime and the per-layout timed code)",
        f"link: -static (glibc {libc or '?'} libc.a, libstdc++.a, libbenchmark.a): the board needs no shared library",
        "strip: --strip-debug (symbols kept)",
        f"y2038_pin: {pin_flags}",
        gbench_facts,
        f"tests: {len(tests)} ({', '.join(t['name'] for t in tests)})",
        f"tests_left_out: {'; '.join(left_out) or 'none'}",
    ]) + "\n"


def plan_text(plan=bench_run.PLAN):
    """plan.txt: the passes of `scripts/lab bench` for run.sh, one tab-separated line each: name,
    --benchmark_filter, threaded (0/1), quick repetitions and min time (s), full repetitions and
    min time, processes (of the host's plan; run.sh may run more within its budget)."""
    lines = ["# pass\tfilter\tthreaded\tquick_reps\tquick_min_time\tfull_reps\tfull_min_time\tprocesses"
             " (scripts/y2038lab/bench/run.py PLAN, written by scripts/lab bundle)"]
    for p in plan:
        (qr, qm), (fr, fm) = p.quick, p.full
        lines.append("\t".join(str(x) for x in (p.name, bench_run.filter_of(p, plan), int(p.threaded), qr,
                                                  qm or GB_DEFAULT_MIN_TIME, fr, fm or GB_DEFAULT_MIN_TIME,
                                                  p.processes)))
    return "\n".join(lines) + "\n"


def pack(stage, name, out):
    """STAGE/NAME as OUT (a .tar.gz), atomically; owner root, modes kept."""
    def reset(info):
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info
    with fsio.atomic_open(out, "wb") as f, tarfile.open(fileobj=f, mode="w:gz") as tar:
        tar.add(os.path.join(stage, name), arcname=name, filter=reset)


def bundle(abi_name, top, out=None, werror=False, jobs=None):
    """Build and pack the bundle of ABI_NAME; returns the tarball's path."""
    abi = abis.of(abi_name, abis.CROSS)
    jobs = str(jobs or os.cpu_count() or 1)
    out = out or os.path.join(top, "build", "bundles", f"y2038-bundle-{abi.name}.tar.gz")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    fsio.check_output_path(out)
    prefix = gbench.build(abi, top, os.path.join(top, "build", "gbench"), jobs)
    build_dir = os.path.join(top, "build", f"bundle-{abi.name}")
    log(f"building {abi.name} (preset {abi.preset}, static) in {build_dir}")
    fsio.run(["cmake", "--preset", abi.preset, "-B", build_dir,
              f"-DCMAKE_PROJECT_TOP_LEVEL_INCLUDES={os.path.join(top, 'cmake', 'bundle.cmake')}",
              f"-DY2038_BENCH_GBENCH_PREFIX={prefix}", f"-DY2038_WERROR={'ON' if werror else 'OFF'}"],
             cwd=top)
    fsio.run(["cmake", "--build", build_dir, "-j", jobs], cwd=top)
    listing = json.loads(fsio.run(["ctest", "--test-dir", build_dir, "--show-only=json-v1"], cwd=top))
    tests, left_out = select_tests(listing, build_dir)

    name = f"y2038-bundle-{abi.name}"
    stage = os.path.join(build_dir, "bundle")
    root = os.path.join(stage, name)
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(os.path.join(root, "bin"))
    os.makedirs(os.path.join(root, "tests"))
    for tool in TOOLS + ORDERS:  # y2038-bench and its link orders are built in bench/, the others in tools/
        shutil.copy2(os.path.join(build_dir, "bench" if tool.startswith("y2038-bench") else "tools", tool),
                     os.path.join(root, "bin", tool))
    pin_flags = ["-std=c11", "-O2", "-Wall", "-Wextra"] + (["-Werror"] if werror else []) + ["-static"]
    fsio.run([f"{abi.triplet}-gcc"] + pin_flags + ["-o", os.path.join(root, "bin", "y2038-pin"),
                                              os.path.join(top, "boards", "pin.c")])
    lines = ["# name\tlabels\twill_fail\tskip_rc\texecutable [arg]... (relative to tests/)"]
    for t in tests:
        base = os.path.basename(t["exe"])
        if base not in TOOLS:
            shutil.copy2(t["exe"], os.path.join(root, "tests", base))
        rel = f"../bin/{base}" if base in TOOLS else base
        lines.append("\t".join([t["name"], t["labels"], str(t["will_fail"]), t["skip_rc"],
                                " ".join([rel] + t["args"])]))
    fsio.write_text(os.path.join(root, "tests", "list"), "\n".join(lines) + "\n")
    if not (strip := shutil.which(f"{abi.triplet}-strip")):
        raise InputError(f"{abi.triplet}-strip not found (Debian package binutils-{abi.triplet})")
    for folder in ("bin", "tests"):
        for entry in sorted(os.listdir(os.path.join(root, folder))):
            path = os.path.join(root, folder, entry)
            if entry != "list":
                elf.check_static(path, abi)
                fsio.run([strip, "--strip-debug", path])
    shutil.copy2(os.path.join(top, "boards", "run.sh"), os.path.join(root, "run.sh"))
    os.chmod(os.path.join(root, "run.sh"), 0o755)
    shutil.copy2(os.path.join(top, "boards", "headline.txt"), os.path.join(root, "headline.txt"))
    fsio.write_text(os.path.join(root, "plan.txt"), plan_text())
    fsio.write_text(os.path.join(root, "manifest.txt"),
                    manifest(abi, top, build_dir, prefix, tests, left_out, " ".join(pin_flags)))
    pack(stage, name, out)
    log(f"{out}: {os.path.getsize(out) / 2**20:.1f} MiB, {len(tests)} tests, "
        f"{len(left_out)} left on the host")
    return out
