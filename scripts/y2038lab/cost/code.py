"""What the compiled objects say: library calls (objdump -dr), code bytes (nm -S),
instruction addresses, and the inner loops handed to llvm-mca.

Every figure here is read from the real objects of a build (the per-layout cost objects and
src/fstime compiled with the variant's flags), with the cross binutils CMake found for that toolchain.
"""
import re

from y2038lab.core import fsio, objdump
from y2038lab.core.objdump import TARGET_RE, reloc_symbol

# Relocations of calls and tail calls, per ABI.
CALL_RELOCS = {"R_X86_64_PLT32", "R_X86_64_PC32", "R_386_PLT32", "R_386_PC32", "R_ARM_CALL",
               "R_ARM_THM_CALL", "R_ARM_JUMP24", "R_ARM_THM_JUMP24", "R_AARCH64_CALL26",
               "R_AARCH64_JUMP26", "R_RISCV_CALL", "R_RISCV_CALL_PLT"}
# Branch mnemonics with a code target (the last two need the target operand).
BRANCH_RE = re.compile(r"^(j[a-z]+|b(\.?[a-z]{2})?(\.[nw])?|cbn?z|tbn?z|b[a-z]{2,4}z?|jal|j)$")
COMMENT_RE = re.compile(r"\s*(@|//|;|#(?![-0-9])).*$")
CALL_RE = re.compile(r"^(call[lq]?|bl|blx|jal|jalr)$")
# How a model row's `check` names a loop taken from y2038-bench's objects (cost.run.bench_loops).
BENCH_LOOP_NOTE = "y2038-bench's loop"


def functions(text):
    """{function: [Insn]} of objdump -dr output, directives (.word, ...) left out; a name
    that stands in several objects of a program is one list."""
    funcs = {}
    for name, _, insns in objdump.parse(text)[1]:
        funcs.setdefault(name, []).extend(i for i in insns if not i.mnemonic.startswith("."))
    return funcs


def disassemble(tool, path, relocs=True):
    return functions(objdump.disassemble(tool, path, relocs))


def call_relocs(insn):
    """The symbols INSN's call relocations name; a call to a static function in a section of its own
    (-ffunction-sections) names the section, ".text.<function>": the function."""
    return [re.sub(r"^\.text\.", "", reloc_symbol(target)) for kind, target in insn.relocs if kind in CALL_RELOCS]


def library_calls(insns):
    """Sorted distinct call targets of one function's instructions: relocations, and calls or
    tail calls to a function's start in the same section (<name>, which need no relocation)."""
    direct = {m.group(2) for insn in insns if (m := TARGET_RE.search(insn.operands)) and "+" not in m.group(2)
              and (branch_target(insn) is not None or CALL_RE.match(insn.mnemonic))}
    return sorted(direct.union(*(call_relocs(insn) for insn in insns)))


def reachable_calls(funcs, name):
    """Call targets of NAME and of every function of FUNCS it reaches (the call
    graph within the objects: fat_time_unix2fat -> time64_to_tm -> __divdi3)."""
    seen, todo, targets = {name}, [name], set()
    while todo:
        for target in library_calls(funcs.get(todo.pop(), [])):
            targets.add(target)
            if target in funcs and target not in seen:
                seen.add(target)
                todo.append(target)
    return sorted(targets - {name})


def symbol_table(nm, path):
    """{symbol: (start, size)} of the defined functions in PATH (nm -S).  A local function defined in
    several objects (a static inline helper the compiler kept out of line) appears once per copy: the
    first under its name, the others as NAME#ADDRESS (SymbolMap reports every copy as NAME)."""
    table = {}
    for line in fsio.run([nm, "-S", "--defined-only", path]).splitlines():
        parts = line.split()
        if len(parts) == 3:  # no size (hand-written assembly, e.g. libgcc's)
            parts.insert(1, "0")
        if len(parts) == 4 and parts[2] in "tTwW" and not parts[3].startswith("."):
            start, size, name = int(parts[0], 16) & ~1, int(parts[1], 16), parts[3]  # Thumb: bit 0
            if name in table and table[name][0] != start:
                name = f"{name}#{start:#x}"
            table.setdefault(name, (start, size))
    return table


def branch_target(insn):
    if not BRANCH_RE.match(insn.mnemonic):
        return None
    m = TARGET_RE.search(insn.operands)
    return int(m.group(1), 16) if m else None


def inner_loop(insns):
    """The outermost backward branch's body: [Insn] from its target to the branch, or None.  It is
    the counted loop's own (i_size_read()'s seqcount retry on 32-bit ABIs is an inner one: it stays)."""
    backward = [(target, i) for i, insn in enumerate(insns)
                if (target := branch_target(insn)) is not None and insns[0].addr <= target <= insn.addr]
    if not backward:
        return None
    target, end = min(backward, key=lambda b: b[0])
    return insns[next(i for i, insn in enumerate(insns) if insn.addr == target):end + 1]


def rounds_loop(insns):
    """The loop of a benchmark block function (bench/accessor.c's ACCESSOR_OP: batches of rounds, each
    round the 16 operations unrolled): the outermost loop nested in the outermost one, or that one when
    nothing is nested in it; None without a loop."""
    outer = inner_loop(insns)
    return (inner_loop(outer[:-1]) or outer) if outer else None


def splice_calls(loop, paths):
    """([Insn], [names]): LOOP, each call replaced by what it executed (PATHS, the trace); the call
    itself left out (llvm-mca 14: "call instructions are not correctly modeled", 100 cy)."""
    out, spliced = [], []
    for insn in loop:
        target = TARGET_RE.search(insn.operands)
        names = call_relocs(insn) + [target and target.group(2)]
        name = next((n for n in names if n in paths), None)
        if name and (CALL_RE.match(insn.mnemonic) or insn.relocs):
            out += [i for i in paths[name] if not CALL_RE.match(i.mnemonic)]
            spliced.append(name)
        elif not (spliced and CALL_RE.match(insn.mnemonic)):  # riscv: auipc carries the call
            out.append(insn)
    return out, spliced


def mca_source(insns, label=".Lloop"):
    """Assembly text llvm-mca accepts: comments dropped, every branch and call target a label."""
    lines = [f"{label}:"]
    for insn in insns:
        operands = COMMENT_RE.sub("", insn.operands)
        if branch_target(insn) is not None or CALL_RE.match(insn.mnemonic):
            operands = TARGET_RE.sub(label, operands)
        lines.append(f"\t{insn.mnemonic}\t{operands}".rstrip())
    return "\n".join(lines) + "\n"
