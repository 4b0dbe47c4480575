"""`objdump -d [-r] --no-show-raw-insn` of objects, archives and programs, parsed once
(bench.disasm, cost.code): a function is its start address and its instructions, each
with the relocations objdump prints below it.
"""
import os
import re
from dataclasses import dataclass, field

from y2038lab.core import fsio

HEADER_RE = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN_RE = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*)$")
RELOC_RE = re.compile(r"^\s*([0-9a-f]+): (R_\S+)\s+(.*)$")
FORMAT_RE = re.compile(r"file format (\S+)")
TARGET_RE = re.compile(r"\b([0-9a-f]+) <([^>]+)>")


@dataclass
class Insn:
    addr: int
    mnemonic: str
    operands: str
    relocs: list = field(default_factory=list)  # (type, target as objdump prints it: "sym-0x4")


def reloc_symbol(target):
    """The symbol of a relocation target: "ns_to_timespec64-0x4" -> "ns_to_timespec64"."""
    return re.split(r"[-+]0x", target.split()[0])[0] if target.strip() else ""


def disassemble(objdump, path, relocs=True):
    """The text of `objdump -d [-r] --no-show-raw-insn PATH`; InputError when it cannot run."""
    if not os.path.isfile(path):
        raise fsio.InputError(f"{path}: no such object file")
    return fsio.run([objdump, "-d", "--no-show-raw-insn"] + (["-r"] if relocs else []) + [path])


def parse(text):
    """(file format, [(symbol, start address, [Insn])]) of objdump -d output, in its order.

    A section or archive member ends a function; local labels (`.L18`: riscv64 keeps
    them) continue it.  A name may stand twice (a static function in two objects)."""
    fmt, functions, current = None, [], None
    for line in text.splitlines():
        if fmt is None and (m := FORMAT_RE.search(line)):
            fmt = m.group(1)
        if line.startswith(("Disassembly of section", "In archive")):
            current = None
            continue
        if m := HEADER_RE.match(line):
            if not m.group(2).startswith(".") or current is None:
                current = []
                functions.append((m.group(2), int(m.group(1), 16), current))
            continue
        if current is None:
            continue
        if m := RELOC_RE.match(line):
            if current:
                current[-1].relocs.append((m.group(2), m.group(3).strip()))
            continue
        if m := INSN_RE.match(line):
            current.append(Insn(int(m.group(1), 16), m.group(2), m.group(3).strip()))
    return fmt or "unknown", functions
