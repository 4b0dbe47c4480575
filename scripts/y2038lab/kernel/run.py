"""Each representation in a real Linux 6.12: `scripts/lab kernel [--arch A]... [--repr R]... [--boots N]`.

Per ABI and representation: the patched copy of the pinned tree (kernel.tree), a
kernel built by the tree's own KUnit runner (tools/testing/kunit/kunit.py build,
into CACHE/kernel/build/<arch>-<repr>: one build folder each, so a rerun rebuilds
nothing that did not change) with kernel/kunitconfig plus the configuration the
replicas assume (layouts/kernel_standins.h's kernel-check block; on UML without
SMP and the options that need it: UML has no SMP), then one boot running every
suite (kunit.py exec: UML as a process, i386 and arm under qemu-system) and read
as KTAP (kernel.ktap).  On UML, --boots N rounds of timing boots follow, the
reference and every other representation interleaved in each round (the order of
the others rotated), each boot running only y2038_inode_timing: the boot is the
unit of those timings.  Timings under qemu are never figures, so none are taken.

Into OUT (default reports/kernel/): KERNEL.md, kernel.csv, timing.csv and each
first boot's KTAP (ktap/<arch>-<repr>.ktap), all replaced together and only when
every build and boot completed.  A failed build or boot, a KTAP cut short: one
line naming it (and the log kept in CACHE/kernel/logs/), exit 2, nothing under
OUT replaced.  Failing KTAP cases are findings: they are reported, one line each,
and the command exits 1 after writing the reports.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import threading
import time

from y2038lab.core import fsio, markdown, reprs
from y2038lab.kernel import ktap, report, tree
from y2038lab.layouts import kernel as kernel_check

KUNITCONFIG = os.path.join(tree.TOP, "kernel", "kunitconfig")
# kunit.py --arch: (cross-compiler prefix, the lab's ABI, whether its timings are figures, the image it boots)
ARCHES = {"um": ("", "x86_64", True, "linux"), "i386": ("", "i386", False, "arch/x86/boot/bzImage"),
          "arm": ("arm-linux-gnueabihf-", "armhf", False, "arch/arm/boot/zImage")}
# Options the replicas assume that UML (no SMP) cannot have.
UML_WITHOUT = ("CONFIG_SMP=", "CONFIG_RWSEM_SPIN_ON_OWNER=", "CONFIG_MUTEX_SPIN_ON_OWNER=")
# A first guess of a build's wall time on two cores (s), until this machine has timed one.
GUESS = {"um": 240, "i386": 600, "arm": 900}
TIMING_SUITE = "y2038_inode_timing"


def kunitconfig(arch):
    """The configuration text for ARCH: kernel/kunitconfig, then the kernel-check block."""
    _, block = kernel_check.read_block()
    block = [x for x in block if arch != "um" or not x.startswith(UML_WITHOUT)]
    base = fsio.read_text(KUNITCONFIG, "kunitconfig").rstrip("\n").splitlines()
    return "\n".join(base + ["# the configuration the replicas assume (layouts/kernel_standins.h)"] + block) + "\n"


class Lab:
    """Paths and the runner of one `lab kernel` invocation."""

    def __init__(self, cache, tarball, jobs):
        self.cache, self.jobs = cache, jobs
        self.pristine = tree.unpack(tarball, cache)
        tree.check_accessors(self.pristine)
        self.version = tree.version(self.pristine)
        self.logs = os.path.join(cache, "kernel", "logs")
        os.makedirs(self.logs, exist_ok=True)
        self.times_path = os.path.join(cache, "kernel", "build-times.json")
        self.times = json.loads(fsio.read_or_none(self.times_path) or "{}")

    def build_dir(self, arch, repr_):
        return os.path.join(self.cache, "kernel", "build", f"{arch}-{repr_}")

    def config_path(self, arch):
        path = os.path.join(self.cache, "kernel", f"kunitconfig-{arch}")
        text = kunitconfig(arch)
        if fsio.read_or_none(path) != text:  # rewritten only when it changes: kunit.py then reconfigures
            with fsio.atomic_open(path) as f:
                f.write(text)
        return path

    def kunit(self, arch, repr_, verb, *args, log, timeout=None):
        """Run kunit.py VERB in REPR's source; its output into LOG; (returncode, output)."""
        src = tree.source(self.pristine, self.cache, repr_)
        cross = ARCHES[arch][0]
        cmd = [sys.executable, os.path.join(src, "tools", "testing", "kunit", "kunit.py"), verb,
               "--build_dir", self.build_dir(arch, repr_), "--arch", arch] + \
              (["--cross_compile", cross] if cross else []) + list(args)
        with open(log, "w", encoding="utf-8") as f:
            res = subprocess.run(cmd, cwd=src, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                 timeout=timeout)
            f.write(res.stdout)
        return res.returncode, res.stdout

    def estimate(self, arch, repr_):
        """Seconds a build of ARCH/REPR will take: ~nothing when built and unchanged, else the last
        cold build of ARCH here (or GUESS)."""
        return 30 if self.built(arch, repr_) else self.times.get(arch, GUESS[arch])

    def built(self, arch, repr_):
        """Whether ARCH/REPR's kernel image is there (a rebuild then redoes only what changed)."""
        return os.path.exists(os.path.join(self.build_dir(arch, repr_), ARCHES[arch][3]))

    def build(self, arch, repr_):
        log = os.path.join(self.logs, f"{arch}-{repr_}-build.log")
        cold = not os.path.exists(os.path.join(self.build_dir(arch, repr_), ".config"))  # timed as a full build
        start, done = time.monotonic(), threading.Event()

        def progress():
            while not done.wait(60):
                print(f"{fsio.prog()}: building {arch}/{repr_}: {(time.monotonic() - start) / 60:.0f} min so far",
                      file=sys.stderr, flush=True)
        threading.Thread(target=progress, daemon=True).start()
        try:
            rc, out = self.kunit(arch, repr_, "build", "--kunitconfig", self.config_path(arch),
                                 "--jobs", str(self.jobs), log=log)
        finally:
            done.set()
        if rc != 0:
            tail = [x for x in out.splitlines() if "error" in x.lower()] or out.splitlines()[-3:] or ["?"]
            raise fsio.InputError(f"build of {arch}/{repr_} failed (log {log}): {tail[0][:300]}")
        seconds = time.monotonic() - start
        if cold:
            self.times[arch] = round(seconds)
            with fsio.atomic_open(self.times_path) as f:
                json.dump(self.times, f)
        return seconds

    def boot(self, arch, repr_, name, *filters, timeout=900):
        """One boot of ARCH/REPR's kernel: its parsed KTAP and the raw text."""
        log = os.path.join(self.logs, f"{arch}-{repr_}-{name}.log")
        try:
            rc, out = self.kunit(arch, repr_, "exec", "--raw_output=kunit", "--timeout", str(timeout), *filters,
                                 log=log, timeout=timeout + 60)
        except subprocess.TimeoutExpired:
            raise fsio.InputError(f"boot of {arch}/{repr_} did not finish in {timeout} s (log {log})") from None
        return ktap.parse(out, f"{arch}/{repr_} boot ({log})"), out


def plan(lab, pairs):
    arches = list(dict.fromkeys(a for a, _ in pairs))
    total = sum(lab.estimate(a, r) for a, r in pairs)
    print(f"{fsio.prog()}: {len(pairs)} kernels ({', '.join(f'{a}/{r}' for a, r in pairs)}) from Linux "
          f"{lab.version}; builds about {total / 60:.0f} min on this machine (each one not yet built is a "
          f"full kernel build: {', '.join(f'{a} ~{lab.times.get(a, GUESS[a]) / 60:.0f} min' for a in arches)}"
          f"{'' if all(a in lab.times for a in arches) else ', a first guess until one is timed here'}), "
          f"then the boots", file=sys.stderr, flush=True)


def timing_rounds(lab, reprs_, boots):
    """[(round, repr, {path: ps per op}, pair ratio)] of the UML timing boots."""
    others = [r for r in reprs_ if r != reprs.REFERENCE]
    out = []
    for k in range(boots):
        order = [reprs.REFERENCE] + others[k % len(others):] + others[:k % len(others)] if others else []
        for r in order:
            run, _ = lab.boot("um", r, "timing", TIMING_SUITE)
            if run.failed:
                raise fsio.InputError(f"um/{r} timing boot {k + 1}: {run.failed[0].name} failed")
            paths = {f["path"]: int(f["ps_per_op"]) for f in run.figure("time")}
            pair = [int(f["ratio_ppm"]) / 1e6 for f in run.figure("pair")]
            out.append((k, r, paths, pair[0] if pair else None))
        print(f"{fsio.prog()}: timing round {k + 1} of {boots} done", file=sys.stderr, flush=True)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arch", action="append", choices=list(ARCHES), help="default: um (UML, x86_64)")
    ap.add_argument("--repr", action="append", help="a representation with a kernel hunk; default: all")
    ap.add_argument("--boots", type=int, default=12, help="timing rounds on UML (0: none; else at least 6)")
    ap.add_argument("--tarball", default=tree.TARBALL)
    ap.add_argument("--cache", required=True, help="where the tree, its copies and the builds live")
    ap.add_argument("--build", action="append", default=[], help="CMake build folders with layout probes")
    ap.add_argument("--out", default=os.path.join("reports", "kernel"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--command", default="scripts/lab kernel")
    ap.add_argument("--check-only", action="store_true", help="check the arguments, build and boot nothing")
    ap.add_argument("--built-only", action="store_true",
                    help="boot only the kernels already built; the others are listed as not built")
    ap.add_argument("--ktap", help="import a board's KTAP (dmesg after insmod y2038_inode_kunit.ko): no build")
    ap.add_argument("--label", help="with --ktap: the board's name, reports under OUT/boards/LABEL/")
    args = ap.parse_args(argv)
    arches = list(dict.fromkeys(args.arch or ["um"]))
    known = tree.hunks()
    reprs_ = list(dict.fromkeys(args.repr or known))
    for r in reprs_:
        if r not in known:
            raise fsio.InputError(f"--repr {r}: no kernel hunk layouts/repr_{r}.kernel.patch (have: {', '.join(known)})")
    if args.boots and not 6 <= args.boots <= 100:
        raise fsio.InputError(f"--boots {args.boots}: 0, or 6 to 100 (fewer than 6 give no 95 % interval)")
    if args.boots and (reprs.REFERENCE not in reprs_ or "um" not in arches):
        raise fsio.InputError(f"--boots needs --arch um and the reference --repr {reprs.REFERENCE} (or --boots 0)")
    if args.ktap:
        return import_board(args)
    # A first run makes OUT (reports/kernel/); its parent must be there.
    fsio.check_output_path(os.path.join(args.out, "KERNEL.md") if os.path.isdir(args.out) else args.out)
    if args.check_only:
        return 0
    os.makedirs(args.out, exist_ok=True)
    lab = Lab(args.cache, args.tarball, args.jobs)
    pairs = [(a, r) for a in arches for r in reprs_]
    unbuilt = [(a, r) for a, r in pairs if not lab.built(a, r)] if args.built_only else []
    if args.boots and ("um", reprs.REFERENCE) in unbuilt:
        raise fsio.InputError(f"--boots: um/{reprs.REFERENCE} is not built (build it, or --boots 0)")
    plan(lab, [(a, r) for a, r in pairs if (a, r) not in unbuilt])
    start, results = time.monotonic(), {}
    for arch, r in pairs:
        if (arch, r) not in unbuilt:
            seconds = lab.build(arch, r)
            # Under emulation no timing is a figure: the slow (timing) cases are left out there.
            run, raw = lab.boot(arch, r, "all", *(() if ARCHES[arch][2] else ("--filter", "speed>slow")))
            results[(arch, r)] = (run, raw, seconds)
            print(f"{fsio.prog()}: {arch}/{r}: built in {seconds / 60:.1f} min; {len(run.cases)} results, "
                  f"{len(run.failed)} failed", file=sys.stderr, flush=True)
    rounds = timing_rounds(lab, [r for r in reprs_ if ("um", r) not in unbuilt], args.boots) if args.boots else []
    meta = {"tree": f"Debian package {tree.PACKAGE} {package_version()} (Linux {lab.version})",
            "version": lab.version, "command": args.command, "commit": markdown.commit(tree.TOP),
            "date": markdown.now(), "host": markdown.host(), "cpus": os.cpu_count(),
            "elapsed": time.monotonic() - start, "builds": args.build,
            "build_dirs": {k: lab.build_dir(*k) for k in results},
            "config": {a: fsio.read_text(lab.config_path(a)) for a in arches},
            "unbuilt": [f"{a}/{r}" for a, r in unbuilt]}
    files = report.render(results, rounds, meta)
    os.makedirs(os.path.join(args.out, "ktap"), exist_ok=True)
    with fsio.OutputSet() as out:
        for name, text in files.items():
            out.write_text(os.path.join(args.out, name), text)
    failed = [(a, r, c) for (a, r), (run, _, _) in results.items() for c in run.failed]
    for a, r, c in failed:
        print(f"{fsio.prog()}: {a}/{r}: KTAP case failed: {c.name}: {' '.join(c.log[-2:])[:200]}", file=sys.stderr)
    print(f"{fsio.prog()}: {os.path.join(args.out, 'KERNEL.md')} written ({(time.monotonic() - start) / 60:.1f} min)",
          file=sys.stderr)
    return 1 if failed else 0


def import_board(args):
    """A board's KTAP into OUT/boards/LABEL/: the same tables, the board's machine and representation
    as its layout line names them; no timings (the board ran one boot)."""
    if not args.label or not re.fullmatch(r"[\w.-]+", args.label):
        raise fsio.InputError(f"--ktap needs --label NAME (letters, digits, '.', '-', '_'), got {args.label!r}")
    run = ktap.parse(fsio.read_text(args.ktap, "KTAP log"), args.ktap)
    lay = run.figure("layout")
    if not lay:
        raise fsio.InputError(f"{args.ktap}: no 'y2038: layout' line (not the y2038_inode_kunit suite's output)")
    out = os.path.join(args.out, "boards", args.label)
    os.makedirs(out, exist_ok=True)
    meta = {"tree": f"the board's own kernel ({args.label})", "version": "", "command": args.command,
            "commit": markdown.commit(tree.TOP), "date": markdown.now(), "host": f"board {args.label}",
            "cpus": "?", "elapsed": 0, "builds": args.build, "build_dirs": {}, "config": {},
            "kernels": "the board's own kernel, the suite loaded as a module (kernel/Kbuild)",
            "config_note": "the board's (not recorded by the lab)"}
    files = report.render({("board", lay[0]["repr"]): (run, fsio.read_text(args.ktap), 0.0)}, [], meta)
    with fsio.OutputSet() as o:
        for name, text in files.items():
            if not name.startswith("ktap"):
                o.write_text(os.path.join(out, name), text)
    for c in run.failed:
        print(f"{fsio.prog()}: {args.label}: KTAP case failed: {c.name}", file=sys.stderr)
    print(f"{fsio.prog()}: {os.path.join(out, 'KERNEL.md')} written", file=sys.stderr)
    return 1 if run.failed else 0


def package_version():
    try:
        return fsio.run(["dpkg-query", "-W", "-f=${Version}", tree.PACKAGE]).strip()
    except (OSError, fsio.InputError, subprocess.CalledProcessError):
        return "(version unknown: not installed by dpkg)"


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
