"""Dynamic instruction counts of the counting harness under qemu-user.

The harness (cost/cost_main.c) prints its rows ("row <k> <body> <repr> <operation>") and runs each
once between calls to cost_mark_begin() and cost_mark_end().  Under `qemu-<arch> -singlestep -d
exec,nochain` every translated block is one guest instruction and every execution of one leaves a
line "Trace 0: <host> [<cs_base>/<pc>/<flags>/<cflags>] <symbol>" on stderr (qemu 7.2; newer qemu
spells -singlestep -one-insn-per-tb).  The k-th begin/end pair is row k.  Inside it, the driver's
instructions (main, cost_run_*, cost_call_* trampolines) are left out; everything else is the
operation: the cost_op_* accessor itself, or the fstime function with every helper it calls.

Manifest: cost/CMakeLists.txt writes build/<preset>/cost/cost_manifest.tsv, one fact per line,
"<variant>\\t<key>\\t<value...>".
"""
import bisect
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field

from y2038lab.core import abis
from y2038lab.core.fsio import InputError

MANIFEST_KEYS = ("abi", "compiler", "flags", "kernel_flags", "harness", "fstime", "objdump", "nm")
TRACE_RE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/[0-9a-f]+\]")
# The driver's own instructions: argument set-up, the calls, the markers.
DRIVER_RE = re.compile(r"^(main|cost_mark_begin|cost_mark_end|cost_run_\w*|cost_call_\w*)$")
# Compiler-runtime helpers (libgcc) and the string functions GCC may call.
HELPER_RE = re.compile(r"^(__aeabi_\w+|__(u?(div|mod|divmod)[sd]i[34]|udivmoddi4|(ash[lr]|lshr)di3|"
                       r"muldi3|negdi2|clz[sd]i2|ctz[sd]i2|popcount[sd]i2|bswap[sd]i2|cmpdi2|ucmpdi2)|"
                       r"memcpy|memset|memmove)$")


@dataclass
class Variant:
    """One variant of a manifest: its name, MANIFEST_KEYS, its layouts and the manifest's path."""
    name: str
    abi: str = ""
    compiler: str = ""
    flags: str = ""
    kernel_flags: str = ""
    harness: str = ""
    fstime: str = ""
    objdump: str = ""
    nm: str = ""
    layouts: list = field(default_factory=list)  # (body, repr, object path)
    manifest: str = ""


def read_manifest(path):
    """{variant name: Variant} from a cost_manifest.tsv; InputError when unusable."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as err:
        raise InputError(f"{path}: cannot read the cost manifest ({err.strerror or err}); "
                         "build the preset's `cost` target first") from err
    variants = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) < 3:
            raise InputError(f"{path}:{number}: expected '<variant>\\t<key>\\t<value>', got {line!r}")
        v, key = variants.setdefault(parts[0], Variant(parts[0], manifest=path)), parts[1]
        if key == "layout":
            if len(parts) != 5:
                raise InputError(f"{path}:{number}: a layout line needs body, repr and object")
            v.layouts.append((parts[2], parts[3], parts[4]))
        elif key in MANIFEST_KEYS:
            setattr(v, key, "\t".join(parts[2:]).strip())
        else:
            raise InputError(f"{path}:{number}: unknown key {key!r}")
    for v in variants.values():
        if missing := [k for k in ("abi", "harness", "fstime", "objdump", "nm") if not getattr(v, k)]:
            raise InputError(f"{path}: variant {v.name} lacks {', '.join(missing)}")
        if v.abi not in abis.ABIS:
            raise InputError(f"{path}: variant {v.name}: unknown ABI {v.abi!r} (known: {', '.join(abis.ABIS)})")
        if not v.layouts:
            raise InputError(f"{path}: variant {v.name} has no layout objects")
    if not variants:
        raise InputError(f"{path}: no variants")
    return variants


@dataclass
class Region:
    """What one row executed between its markers (driver excluded)."""
    index: int
    body: str
    repr: str
    operation: str
    instructions: int = 0
    per_symbol: Counter = field(default_factory=Counter)
    pcs: list = field(default_factory=list)       # (symbol, pc) in execution order
    entries: Counter = field(default_factory=Counter)  # symbol -> times entered at its start

    @property
    def subject(self):
        """The function the row measures: cost_op_<op>_<body>_<repr> or the fstime function."""
        return (f"cost_op_{self.operation}_{self.body}_{self.repr}" if self.body != "-"
                else self.operation.split("/")[0])


def qemu_command(variant):
    """The tracing command line for VARIANT's harness (qemu 7.2 or later)."""
    if not (qemu := shutil.which(abis.ABIS[variant.abi].qemu)):
        raise InputError(f"{abis.ABIS[variant.abi].qemu}: not found (Debian package qemu-user)")
    helptext = subprocess.run([qemu, "-h"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True, check=False).stdout
    one_insn = "-one-insn-per-tb" if "-one-insn-per-tb" in helptext else "-singlestep"
    return [qemu, one_insn, "-d", "exec,nochain", variant.harness]


def parse_rows(stdout, source):
    """[(index, body, repr, operation)] and the variant name from the harness's stdout."""
    rows, name = [], None
    for line in stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["variant"] and len(parts) == 2:
            name = parts[1]
        elif parts[:1] == ["row"]:
            if len(parts) != 5 or not parts[1].isdigit() or int(parts[1]) != len(rows):
                raise InputError(f"{source}: malformed row line {line!r}")
            rows.append((int(parts[1]), parts[2], parts[3], parts[4]))
    if not rows:
        raise InputError(f"{source}: the harness printed no rows")
    return name, rows


class SymbolMap:
    """pc -> function, from `nm -S -n` of the harness (qemu's own symbol lookup
    misses some libgcc helpers, e.g. __aeabi_ldivmod on armhf)."""

    def __init__(self, table):
        # table: {name: (start, size)}; a size-0 symbol runs to the next start.  Aliases share a
        # start: the sized, global one names it (__udivsi3, not __aeabi_uidiv or .udivsi3_skip_div0_test).
        items = sorted((start, -size, name.startswith("."), name) for name, (start, size) in table.items())
        self.starts, self.ends, self.names = [], [], []
        for i, (start, neg_size, _, name) in enumerate(items):
            if self.starts and self.starts[-1] == start:
                continue
            self.starts.append(start)
            self.ends.append(start - neg_size if neg_size else
                             next((s for s, *_ in items[i + 1:] if s > start), start + 1))
            self.names.append(name.split("#", 1)[0])
        self.entry = {start: name for start, name in zip(self.starts, self.names)}

    def lookup(self, pc):
        i = bisect.bisect_right(self.starts, pc) - 1
        if i >= 0 and pc < self.ends[i]:
            return self.names[i]
        return ""


def count_regions(trace_lines, symbols, source):
    """[Region] (rows not yet attached) from trace lines, streamed; SYMBOLS (a SymbolMap) names each
    pc and says where functions start, so that entries into helpers (calls) are counted."""
    regions, current = [], None
    for line in trace_lines:
        if not line.startswith("Trace "):
            continue
        if not (m := TRACE_RE.match(line)):
            raise InputError(f"{source}: unreadable trace line {line.strip()!r}")
        pc = int(m.group(1), 16)
        sym = symbols.lookup(pc)
        if sym == "cost_mark_begin":
            current = current or Region(len(regions), "", "", "")
            continue
        if current is not None and sym == "cost_mark_end":
            regions.append(current)
            current = None
        if current is None or DRIVER_RE.match(sym):
            continue
        if not sym:
            raise InputError(f"{source}: a traced instruction at {pc:#x} is in no function of "
                             "the harness's symbol table (stripped?)")
        current.instructions += 1
        current.per_symbol[sym] += 1
        current.pcs.append((sym, pc))
        if symbols.entry.get(pc) == sym:
            current.entries[sym] += 1
    if current is not None:
        raise InputError(f"{source}: the trace ended inside row {len(regions)}")
    return regions


def call_paths(regions, entry):
    """{function: [pc]}: what the first traced call of each function executed (with its own
    calls), from its entry until the row's subject again.  ENTRY: SymbolMap.entry."""
    paths = {}
    for pcs, subject in ((r.pcs, r.subject) for r in regions):
        for i, (sym, pc) in enumerate(pcs):
            if i and sym not in paths and entry.get(pc) == sym and pcs[i - 1][0] == subject:
                end = next((j for j in range(i, len(pcs)) if pcs[j][0] == subject), len(pcs))
                paths[sym] = [p for _, p in pcs[i:end]]
    return paths


def attach_rows(regions, rows, source):
    if len(regions) != len(rows):
        raise InputError(f"{source}: {len(regions)} marker pairs for {len(rows)} rows")
    for region, (index, body, repr_, operation) in zip(regions, rows):
        region.index, region.body, region.repr, region.operation = index, body, repr_, operation
    return regions


def trace_variant(variant, symbols):
    """Run VARIANT's harness under qemu tracing: (command, [Region] in row order).  The trace
    (stderr, about a million lines) is parsed as it streams; the harness's output goes to a file."""
    if not os.path.isfile(variant.harness):
        raise InputError(f"{variant.harness}: missing; build it with "
                         "`cmake --build build/<preset> --target cost`")
    cmd = qemu_command(variant)
    source = " ".join(cmd)
    failures = []

    def lines(stream):
        for line in stream:
            if line.startswith("cost-harness:"):
                failures.append(line.strip())
            yield line
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, text=True, errors="replace")
        try:
            regions = count_regions(lines(proc.stderr), symbols, source)
        finally:
            for _ in proc.stderr:  # drain, so that qemu can finish
                pass
            proc.wait()
        out.seek(0)
        stdout = out.read()
    if proc.returncode != 0 or failures:
        raise InputError(f"{source}: exit {proc.returncode}: {'; '.join(failures) or stdout[-200:]}")
    name, rows = parse_rows(stdout, source)
    if name != variant.name:
        raise InputError(f"{source}: the harness says variant {name!r}, the manifest {variant.name!r}")
    return cmd, attach_rows(regions, rows, source)
