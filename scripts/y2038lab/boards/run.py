"""`scripts/lab board-run`: a bundle on a board over ssh, or in place; the CI smoke.

board-run HOST copies the bundle to the board (scp), unpacks and runs it there (ssh; the board needs
sshd, a POSIX shell, gzip and tar) and fetches the results tarball (default into results/boards/);
board-run --local DIR runs the unpacked bundle here (on the board itself, or with --emulator
elsewhere: marked emulated); --minutes M is the run's time budget (run.sh).  smoke ABI... (CI):
bundle, unpack, run --smoke under qemu-user with dash (and busybox sh when installed) within
SMOKE_MINUTES, import; the imported report must say EMULATED and carry the paired protocol's
resolution block over at least ten processes.  Emulated times are never a board figure.
"""
import os
import re
import shlex
import shutil
import subprocess
import tarfile

from y2038lab.core import abis, fsio
from y2038lab.boards import bundle, importer
from y2038lab.core.fsio import InputError, prog


def log(message):
    print(f"{prog()} board-run: {message}", flush=True)


def bundle_abi(path):
    """The ABI a bundle tarball was made for, from its top folder."""
    try:
        with tarfile.open(path, "r:*") as tar:
            first = tar.next()
    except (OSError, tarfile.TarError) as err:
        raise InputError(f"{path}: not a readable bundle ({str(err).splitlines()[0].rstrip(':')})") from err
    if not (m := re.match(r"^y2038-bundle-([a-z0-9_]+)(/|$)", first.name if first else "")):
        raise InputError(f"{path}: not a y2038 bundle (no y2038-bundle-<abi>/ folder)")
    return abis.of(m.group(1), abis.CROSS).name


MINUTES = re.compile(r"\d+(\.\d+)?")  # what run.sh takes as --minutes


def run_args(args):
    return [f"--{args.mode}"] + (["--minutes", args.minutes] if args.minutes else []) \
        + (["--board", args.board] if args.board else []) + (["--no-tests"] if args.no_tests else [])


def results_line(text, where):
    if not (m := re.search(r"^results: (.+\.tar\.gz)$", text, re.M)):
        raise InputError(f"{where}: run.sh printed no 'results:' line (it failed; its output is above)")
    return m.group(1)


def call(cmd, what, echo=True):
    """CMD's output (echoed), logging WHAT first; InputError "WHAT failed" when it fails."""
    log(what)
    res = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    if echo:
        print(res.stdout, end="")
    if res.returncode != 0:
        raise InputError(f"{what} failed (exit {res.returncode}); its messages are above")
    return res.stdout


def run_local(args, results):
    run_sh = os.path.join(args.local, "run.sh")
    if not os.path.isfile(run_sh):
        raise InputError(f"{args.local}: no run.sh (give the unpacked y2038-bundle-<abi>/ folder)")
    cmd = ["/bin/sh", run_sh] + run_args(args) + ["--out", os.path.abspath(results)] \
        + (["--emulator", args.emulator] if args.emulator else [])
    return results_line(call(cmd, shlex.join(cmd)), run_sh)


def run_ssh(args, top, results):
    tarball = args.bundle or (os.path.join(top, "build", "bundles", f"y2038-bundle-{abis.of(args.abi, abis.CROSS).name}.tar.gz")
                             if args.abi else None)
    if not tarball:
        raise InputError("board-run: give --bundle FILE or --abi ABI (made by scripts/lab bundle ABI)")
    abi = bundle_abi(tarball)
    target = f"{args.user}@{args.host}" if args.user else args.host
    common = ["-o", "BatchMode=yes"] + (["-i", args.identity] if args.identity else [])
    ssh = ["ssh"] + common + (["-p", str(args.port)] if args.port else []) + [target]
    scp = ["scp", "-q"] + common + (["-P", str(args.port)] if args.port else [])
    remote = args.remote_dir
    name = os.path.basename(tarball)
    q = shlex.quote
    call(ssh + [f"mkdir -p {q(remote)}/results"], f"{target}: mkdir {remote}")
    call(scp + [tarball, f"{target}:{remote}/{name}"], f"copying {name} ({os.path.getsize(tarball) >> 20} MiB)")
    script = (f"cd {q(remote)} && rm -rf y2038-bundle-{abi} && gzip -dc {q(name)} | tar -xf - && "
              f"sh y2038-bundle-{abi}/run.sh {' '.join(q(a) for a in run_args(args))} --out {q(remote)}/results")
    path = results_line(call(ssh + [script], f"{target}: running the {abi} bundle ({args.mode})"), target)
    call(scp + [f"{target}:{path}", results + "/"], f"fetching {os.path.basename(path)}")
    return os.path.join(results, os.path.basename(path))


def main(args, top):
    if bool(args.host) == bool(args.local):
        raise InputError("board-run: give a HOST (ssh) or --local DIR, not both and not neither")
    if args.local and (args.bundle or args.abi or args.user or args.port or args.identity):
        raise InputError("board-run: --bundle/--abi/--user/--port/--identity are for ssh, not --local")
    if args.emulator and not args.local:
        raise InputError("board-run: --emulator only with --local (a board runs its own programs)")
    if args.minutes is not None and not (MINUTES.fullmatch(args.minutes) and float(args.minutes) * 60 >= 0.5):
        raise InputError(f"board-run: --minutes {args.minutes!r} is not a positive number of minutes (e.g. 10 or 0.5)")
    if args.port is not None and not 0 < args.port < 65536:
        raise InputError(f"board-run: --port {args.port} is not a TCP port")
    results = args.results or os.path.join(top, "results", "boards")
    os.makedirs(results, exist_ok=True)
    path = run_local(args, results) if args.local else run_ssh(args, top, results)
    print(f"results: {path}\nnext: scripts/lab import {path}")
    return 0


SMOKE_MINUTES = "0.25"  # each run.sh --smoke under qemu-user: the paired pass fills what the tests leave


def smoke(names, top, werror=False):
    """CI: each ABI's bundle built, run under qemu-user (dash, busybox sh), imported."""
    shells = [s for s in ("dash", "busybox") if shutil.which(s)]
    if "dash" not in shells:
        raise InputError("smoke: dash not found (Debian's /bin/sh)")
    if "busybox" not in shells:
        log("busybox not installed: the run script is smoke-tested with dash only")
    lines = []
    for name in names:
        abi = abis.of(name, abis.CROSS)
        tarball = bundle.bundle(abi.name, top, werror=werror)
        work = os.path.join(top, "build", "boards-smoke", abi.name)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "out"))
        with tarfile.open(tarball, "r:gz") as tar:
            tar.extractall(work)
        run_sh = os.path.join(work, f"y2038-bundle-{abi.name}", "run.sh")
        for shell in shells:
            cmd = [shell] + (["sh"] if shell == "busybox" else []) + \
                [run_sh, "--smoke", "--minutes", SMOKE_MINUTES, "--emulator", abi.qemu, "--out", os.path.join(work, "out")]
            results = results_line(call(cmd, f"smoke: {abi.name}: run.sh under {shell}", echo=False), run_sh)
        report = importer.import_results(results, top, out=os.path.join(work, f"{abi.name}-qemu-user"))
        text = fsio.read_text(report)
        if "(EMULATED)" not in text.splitlines()[0]:
            raise InputError(f"smoke: {report}: an emulated run not labelled EMULATED")
        if not (m := re.search(r"; (\d+) processes(, each with its own environment size,| as units)", text)) \
                or int(m.group(1)) < 10 \
                or "the timings are not figures" not in text:
            raise InputError(f"smoke: {report}: no resolution block over ten processes or more, "
                             "or not labelled as not figures")
        lines.append(f"{abi.name}: bundle {os.path.getsize(tarball) / 2**20:.1f} MiB, run.sh --smoke --minutes "
                     f"{SMOKE_MINUTES} under {abi.qemu} with {' and '.join(shells)}: completed, paired pass in "
                     f"{m.group(1)} processes; import: {report} (EMULATED)")
    return lines
