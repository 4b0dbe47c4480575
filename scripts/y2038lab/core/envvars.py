"""The lab's environment variables, checked before anything runs or is replaced.

    python3 -m y2038lab envvars [NAME ...]     check NAMEs (default: all), exit 2 on the first bad one

Y2038_SEED          seed of every random input (tests, y2038-bench): 0 .. 2^64-1, decimal or 0x hex
Y2038_BENCH_CPUS    CPUs for `lab bench`, in order (thread i on the i-th): distinct CPU numbers
                    this process may run on, comma-separated
Y2038_VALGRIND_ARGS extra valgrind options for `lab perf`'s callgrind runs, split as shell words
                    (shlex, never glob-expanded); each an option of the form --name[=value]
Y2038_FUZZ_SECONDS  seconds per fuzz target in `lab test` (0 skips): 0 .. 86400
Y2038_SKIP_DEPS     1: never call apt (the user manages packages); 0 or unset: install what is missing

Every error names the variable and its value, in one line.
"""
import os
import re
import shlex
import sys

from y2038lab.core import fsio

U64_MAX = 2**64 - 1
FUZZ_SECONDS_MAX = 86400
# Options lab perf sets itself; overriding them would measure something else.
VALGRIND_RESERVED = ("--tool", "--callgrind-out-file", "--log-file", "--toggle-collect",
                     "--collect-atstart", "--cache-sim")


def _bad(name, value, why):
    return fsio.InputError(f"{name}={value!r}: {why}")


def seed(environ=os.environ):
    """Y2038_SEED as an int, or None when unset or empty."""
    if not (value := environ.get("Y2038_SEED", "")):
        return None
    if not (m := re.fullmatch(r"0[xX]([0-9a-fA-F]+)|([0-9]+)", value)):
        raise _bad("Y2038_SEED", value, "not a seed: expected a decimal or 0x hex integer")
    number = int(m.group(1), 16) if m.group(1) else int(m.group(2))
    if number > U64_MAX:
        raise _bad("Y2038_SEED", value, f"out of range: a seed is 0 .. {U64_MAX}")
    return number


def bench_cpus(environ=os.environ, allowed=None):
    """Y2038_BENCH_CPUS as a list of CPU numbers, or None when unset or empty."""
    if not (value := environ.get("Y2038_BENCH_CPUS", "")):
        return None
    allowed = sorted(os.sched_getaffinity(0)) if allowed is None else sorted(allowed)
    cpus = []
    for part in value.split(","):
        if not re.fullmatch(r"[0-9]{1,6}", part):
            raise _bad("Y2038_BENCH_CPUS", value, "expected a comma-separated list of CPU numbers")
        cpu = int(part)
        if cpu not in allowed:
            raise _bad("Y2038_BENCH_CPUS", value, f"CPU {cpu} is not one this process may run on "
                       f"({','.join(map(str, allowed))})")
        if cpu in cpus:
            raise _bad("Y2038_BENCH_CPUS", value, f"CPU {cpu} is listed twice")
        cpus.append(cpu)
    return cpus


def valgrind_args(environ=os.environ):
    """Y2038_VALGRIND_ARGS split as shell words (no globbing), each a --option."""
    value = environ.get("Y2038_VALGRIND_ARGS", "")
    try:
        words = shlex.split(value)
    except ValueError as err:
        raise _bad("Y2038_VALGRIND_ARGS", value, f"not shell words ({err})") from None
    for word in words:
        if not re.fullmatch(r"--[a-zA-Z0-9][-a-zA-Z0-9_]*(=.*)?", word, re.S):
            raise _bad("Y2038_VALGRIND_ARGS", value, f"{word!r} is not a valgrind option (--name[=value])")
        if word.split("=", 1)[0] in VALGRIND_RESERVED:
            raise _bad("Y2038_VALGRIND_ARGS", value, f"{word.split('=', 1)[0]} is set by lab perf itself")
    return words


def fuzz_seconds(environ=os.environ):
    if not (value := environ.get("Y2038_FUZZ_SECONDS", "")):
        return 30
    if not re.fullmatch(r"[0-9]+", value) or int(value) > FUZZ_SECONDS_MAX:
        raise _bad("Y2038_FUZZ_SECONDS", value, f"expected a number of seconds, 0 .. {FUZZ_SECONDS_MAX}")
    return int(value)


def skip_deps(environ=os.environ):
    value = environ.get("Y2038_SKIP_DEPS", "")
    if value not in ("", "0", "1"):
        raise _bad("Y2038_SKIP_DEPS", value, "expected 1 (skip apt) or 0")
    return value == "1"


CHECKS = {"Y2038_SEED": seed, "Y2038_BENCH_CPUS": bench_cpus, "Y2038_VALGRIND_ARGS": valgrind_args,
          "Y2038_FUZZ_SECONDS": fuzz_seconds, "Y2038_SKIP_DEPS": skip_deps}


def main(argv=None):
    names = sys.argv[1:] if argv is None else argv
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise fsio.InputError(f"no check for {', '.join(unknown)} (known: {', '.join(CHECKS)})")
    for name in names or CHECKS:
        CHECKS[name]()
    return 0


if __name__ == "__main__":
    sys.exit(fsio.run_main(main))
