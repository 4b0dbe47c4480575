"""Cache geometries for callgrind's cache simulation, named.

Left to itself, valgrind derives its last-level cache from CPUID; on this lab's VM that is a 512 MiB
2-way LL, under which no walk ever misses the LL.  So every simulation gets an explicit geometry:
`host`, this machine's caches as sysfs reports them (the highest level as LL), and the boards of
BOARDS.  callgrind simulates the accesses of the program it runs (the x86_64 build: LP64 inode
sizes) through that geometry: the cache changes, not the ABI.  The command prints each geometry
and its valgrind options.
"""
import argparse
import glob
import os
import re
import sys

from y2038lab.core.fsio import InputError, run_main

SYSFS_CACHE = "/sys/devices/system/cpu/cpu0/cache"
# Bytes of cache lines one walk/stat_seq visit touches, roughly (3 lines of
# 64 bytes: v6/scalar reports cachelines_touched_per_op = 3.1): a walk of N
# inodes has a working set of about N times this.
WORKING_SET_PER_INODE = 192
# The walk chosen for a geometry has a working set >= this times its LL.
WORKING_SET_FACTOR = 1.5


class Geometry:
    """One simulated cache hierarchy: three (size, ways, line bytes) triples."""

    def __init__(self, name, what, i1, d1, ll, extra=()):
        self.name, self.what, self.i1, self.d1, self.ll, self.extra = name, what, i1, d1, ll, list(extra)
        for label, cache in self.caches():
            check(f"{name} {label}", *cache)

    def caches(self):
        return [(label, c) for label, c in (("I1", self.i1), ("D1", self.d1), ("LL", self.ll)) if c]

    def valgrind_args(self):
        return [f"--{label}={c[0]},{c[1]},{c[2]}" for label, c in self.caches()] + self.extra

    def ll_bytes(self):
        return self.ll[0] if self.ll else None

    def describe(self):
        return ", ".join(f"{label} {human(c[0])} {c[1]}-way {c[2]} B" for label, c in self.caches())


def human(size):
    for shift, unit in ((20, "MiB"), (10, "KiB")):
        if size >= 1 << shift and size % (1 << shift) == 0:
            return f"{size >> shift} {unit}"
    return f"{size} B"


def check(label, size, ways, line):
    """valgrind's own rules: line a power of two >= 16, sets a power of two."""
    if line < 16 or line & (line - 1):
        raise InputError(f"{label}: line size {line} is not a power of two >= 16")
    if ways < 1 or size % (ways * line):
        raise InputError(f"{label}: {size} bytes are not {ways} ways of {line}-byte lines")
    sets = size // (ways * line)
    if sets & (sets - 1):
        raise InputError(f"{label}: {sets} sets is not a power of two (valgrind cannot simulate it)")


BOARDS = [
    Geometry("cortex-a53", "Arm Cortex-A53 as on the Raspberry Pi 3 (BCM2837; Cortex-A53 TRM)",
             (32768, 2, 64), (32768, 4, 64), (524288, 16, 64)),
    Geometry("cortex-a9", "Arm Cortex-A9 as on the Zynq-7000 (UG585: PL310 L2, 32-byte lines)",
             (32768, 4, 32), (32768, 4, 32), (524288, 8, 32)),
]


def parse_size(text):
    """sysfs sizes: "48K", "32768K", "1M", "512"."""
    if not (m := re.fullmatch(r"(\d+)([KMG]?)", text.strip())):
        raise ValueError(f"not a cache size: {text!r}")
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]


def simulable(label, size, ways, line):
    """((size, ways, line), note): a set count that is not a power of two (a 30 MiB 20-way L3) becomes the
    power of two below it with the ways raised to keep the size, as valgrind does with the LL it detects."""
    sets = size // (ways * line) if ways and line else 0
    if sets < 1 or sets & (sets - 1) == 0:
        return (size, ways, line), None
    pow2 = 1 << (sets.bit_length() - 1)
    if size % (pow2 * line):
        return (size, ways, line), None  # check() will refuse it
    new_ways = size // (pow2 * line)
    return (size, new_ways, line), (f"{label} {human(size)} {ways}-way has {sets} sets; simulated "
                                     f"{new_ways}-way with {pow2} sets (the same size)")


def host(root=SYSFS_CACHE):
    """(Geometry, None) of the caches sysfs lists under @root, or (None, why)."""
    caches = []
    for index in sorted(glob.glob(os.path.join(root, "index*"))):
        try:
            fields = {}
            for key in ("level", "type", "size", "ways_of_associativity", "coherency_line_size"):
                with open(os.path.join(index, key), encoding="utf-8") as f:
                    fields[key] = f.read().strip()
            caches.append((int(fields["level"]), fields["type"], parse_size(fields["size"]),
                           int(fields["ways_of_associativity"]), int(fields["coherency_line_size"])))
        except (OSError, ValueError) as err:
            return None, f"{index}: unreadable ({err})"
    if not caches:
        return None, f"{root}: no cache listed"
    first = {kind: (size, ways, line) for level, kind, size, ways, line in caches if level == 1}
    top = max(level for level, *_ in caches)
    last = [(size, ways, line) for level, kind, size, ways, line in caches
            if level == top and kind in ("Unified", "Data")]
    if "Instruction" not in first or "Data" not in first or not last or top < 2:
        return None, f"{root}: no L1i, L1d and a unified last level ({len(caches)} caches listed)"
    sims = [simulable(label, *cache) for label, cache in
            (("L1i", first["Instruction"]), ("L1d", first["Data"]), (f"L{top}", last[0]))]
    notes = "".join(f"; {n}" for _, n in sims if n)
    try:
        return Geometry("host", f"this machine's caches as {root} reports them (L{top} as LL{notes})",
                        *(cache for cache, _ in sims)), None
    except InputError as err:
        return None, str(err)


def from_valgrind_args(args):
    """A geometry named Y2038_VALGRIND_ARGS when @args set --I1/--D1/--LL, else None."""
    caches, rest = {}, []
    for arg in args:
        if m := re.fullmatch(r"--(I1|D1|LL)=(\d+),(\d+),(\d+)", arg):
            caches[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)))
        elif re.match(r"--(I1|D1|LL)=", arg):
            raise InputError(f"Y2038_VALGRIND_ARGS: {arg!r}: expected --{arg[2:4]}=<size>,<ways>,<line>")
        else:
            rest.append(arg)
    if not caches:
        return None
    # The caches not given stay valgrind's own choice; the table says so.
    return Geometry("Y2038_VALGRIND_ARGS", "as given in Y2038_VALGRIND_ARGS (caches not given: "
                    "valgrind's own choice)", caches.get("I1"), caches.get("D1"), caches.get("LL"), rest)


def walk_size(geometry, sizes):
    """(N, exceeds) among the walk sizes @sizes: the smallest whose estimated working set is
    WORKING_SET_FACTOR times the LL, else the largest (exceeds False)."""
    if not sizes:
        raise ValueError("no walk sizes to choose from")
    ll = geometry.ll_bytes()
    n = next((n for n in sorted(sizes) if ll and n * WORKING_SET_PER_INODE >= WORKING_SET_FACTOR * ll), None)
    return (n, True) if n is not None else (max(sizes), False)


def geometries(valgrind_args=(), root=SYSFS_CACHE):
    """([Geometry], [notes]): the override alone, else host (when readable) and the boards."""
    if override := from_valgrind_args(valgrind_args):
        return [override], []
    found, why = host(root)
    notes = [] if found else [f"host geometry not simulated: {why}"]
    return [Geometry(g.name, g.what, g.i1, g.d1, g.ll, valgrind_args)
            for g in ([found] if found else []) + BOARDS], notes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sysfs", default=SYSFS_CACHE)
    args = parser.parse_args(argv)
    chosen, notes = geometries(root=args.sysfs)
    for g in chosen:
        print(f"{g.name}: {g.describe()}; {g.what}\n    valgrind {' '.join(g.valgrind_args())}")
    for note in notes:
        print(note)
    return 0


if __name__ == "__main__":
    sys.exit(run_main(main))
