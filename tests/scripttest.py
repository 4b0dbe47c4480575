# SPDX-License-Identifier: MIT
"""scripttest.py - what the scripts' tests share: checks, running a script, snapshots.

    expect(case, want, got)          one named check (printed on failure)
    run(args, env=..., fsize=N)      a script under /usr/bin/python3 (or a program), optionally with
                                     `ulimit -f` (RLIMIT_FSIZE, in bytes) for a disk-full write
    snapshot(folder) / files_equal   every file under a folder, byte for byte
    one_line_error(case, proc, prog, words)   exit 2, one stderr line "PROG: error: ... WORDS ..."
    finish(name)                     prints the tally, exits 1 on any failure
"""
import os
import resource
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SCRIPTS = os.path.join(TOP, "scripts")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
FAKE_BENCH = os.path.join(HERE, "fake_y2038_bench.py")
sys.path.insert(0, SCRIPTS)
_tally = {"passed": 0, "failed": 0}


def expect(case, want, got):
    if want == got:
        _tally["passed"] += 1
    else:
        _tally["failed"] += 1
        print(f"FAIL [{case}]: expected {want!r}, got {got!r}")


def env(**extra):
    e = dict(os.environ, PYTHONPATH=SCRIPTS, PYTHONDONTWRITEBYTECODE="1")
    for k, v in extra.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def script(name):
    return os.path.join(SCRIPTS, name)


def run(args, environ=None, fsize=None, timeout=120, cwd=None):
    """ARGS[0] a script name in scripts/ (run with Debian's python3), '-m' or a program path."""
    if args[0].endswith(".py") and not os.path.isabs(args[0]):
        args = [PYTHON, script(args[0])] + list(args[1:])
    elif args[0] == "-m":
        args = [PYTHON] + list(args)

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run(args, env=environ or env(), capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit if fsize is not None else None, cwd=cwd)


def snapshot(folder):
    """{relative path: bytes} of every file under FOLDER."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = f.read()
    return out


def temporaries(folder):
    return sorted(name for _, _, files in os.walk(folder) for name in files if name.endswith(".tmp"))


def one_line_error(case, proc, prog, words, code=2):
    lines = proc.stderr.strip().splitlines()
    expect(f"{case}: exit {code}", code, proc.returncode)
    expect(f"{case}: one line on stderr", 1, len(lines))
    line = lines[-1] if lines else ""
    if os.environ.get("SCRIPTTEST_VERBOSE"):
        print(f"  {case}: exit {proc.returncode}: {line}")
    expect(f"{case}: '{prog}: error:' and says '{words}'", True,
           line.startswith(f"{prog}: error:") and words in line)
    if not (line.startswith(f"{prog}: error:") and words in line):
        print(f"      stderr was: {proc.stderr.strip()[:400]}")


def write(path, text, mode="w"):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, mode) as f:
        f.write(text)


def finish(name):
    print(f"{name}: {_tally['passed']} passed, {_tally['failed']} failed")
    sys.exit(1 if _tally["failed"] else 0)
