"""Instructions of the compiled benchmark objects, compared and checked.

Reads `objdump -d -r` of relocatable objects (or archives) and turns every
function into a list of normalised instructions: no addresses, branch targets
inside the function as offsets from its start (`<.+0x40>`), other targets and
relocations by symbol, the layout id in symbol names replaced by `@`, the
alignment padding after the last instruction dropped.  Two functions compare
equal exactly when they are the same instructions in the same order.

  twins   every function of each object of layout A against the same function of layout B's object
          of the same source (bench/CMakeLists.txt's manifest: one "<layout id> <object>" a line),
          but --skip FUNCTION; exit 1 on a difference, each diffed
  no-fp   no floating-point or SIMD register in any instruction (the kernel's -mgeneral-regs-only),
          for x86, arm64, arm and riscv objects; exit 1 on one, listed
  diff    a unified diff of two functions' normalised instructions (empty when identical)
  placement  the link orders of one program place the given functions each its own way (cmake/
          placement.cmake): their offsets from the first of them differ between every two programs;
          exit 1 where two agree (a linker that ignores .text.sorted.*), each named
Bad input: exit 2.
"""
import argparse
import collections
import difflib
import os
import re
import sys

from y2038lab.core import fsio, objdump
from y2038lab.core.fsio import InputError, run_main


_COMMENT_TARGET = re.compile(r"\s*#\s*[0-9a-f]+ <[^>]+>")
# Code labels (numbered per compilation: they differ between twins), not
# constants (.LC<n>) or anchors.
_LOCAL_LABEL = re.compile(r"\.L(?!C\d|ANCHOR)([A-Za-z]*)\d+")
# Alignment padding that objdump shows at the end of the preceding function.
_PADDING = re.compile(r"^((data16|cs|rex\.\w+)\s+)*(nop[wl]?|xchg\s+%ax,%ax|c\.nop)\b|^\.inst\s+0x0+$|^udf\s")

# Floating-point and SIMD registers per objdump file format family.
_FP_PATTERNS = [
    (re.compile(r"x86-64|i386"), re.compile(r"%([xyz]mm\d+|mm[0-7]\b|st\b|st\(|k[0-7]\b)|^f[a-z]")),
    (re.compile(r"aarch64"), re.compile(r"(?<![\w.#])[bhsdqv]([0-9]|[12][0-9]|3[01])\b")),
    (re.compile(r"arm"), re.compile(r"(?<![\w.#])[sdq]([0-9]|[12][0-9]|3[01])\b|^v[a-z]|^(fmrx|fmxr|fld|fst)")),
    (re.compile(r"riscv"), re.compile(r"(?<![\w.])f[tsa]\d+\b|^f(?!ence)[a-z]")),
]


def _normalise_symbol(name, layout_id):
    return name.replace("_" + layout_id, "_@") if layout_id else name


def parse(text, layout_id=None):
    """(file format, {function: [normalised instruction]}) of objdump -d -r output; a name that
    stands twice (an archive's members) gets "#1", "#2", ..."""
    fmt, blocks = objdump.parse(text)
    functions = {}
    for symbol, start, insns in blocks:
        name = _normalise_symbol(symbol, layout_id)
        if name in functions:
            name = f"{name}#{sum(1 for k in functions if k.split('#')[0] == name)}"
        functions[name] = _normalise_function(start, insns, layout_id)
    return fmt, functions


def _normalise_function(start, insns, layout_id):
    """The normalised instructions (module doc), each relocation a line "    reloc TYPE target"."""
    end = max((insn.addr for insn in insns), default=start)

    def symbol(name):
        return _LOCAL_LABEL.sub(r".L\1", _normalise_symbol(name, layout_id))

    def target(m):
        address = int(m.group(1), 16)
        return f"<.+{address - start:#x}>" if start <= address <= end else f"<{symbol(m.group(2))}>"

    out = []
    for insn in insns:
        # objdump's "# addr <sym>" comments guess at an address from an
        # unrelocated field or an immediate, and a relocated operand's
        # "addr <fn+off>" is the unrelocated field: the relocation below the
        # instruction says what is really referenced.
        text = _COMMENT_TARGET.sub("", f"{insn.mnemonic} {insn.operands}")
        relocated = insn.relocs and not _LOCAL_LABEL.match(f"{insn.relocs[0][0]} {insn.relocs[0][1]}".split()[-1])
        text = objdump.TARGET_RE.sub("<reloc>" if relocated else target, text)
        out.append(" ".join(text.split()))
        out += ["    reloc " + " ".join(symbol(f"{kind} {where}").split()) for kind, where in insn.relocs]
    while out and _PADDING.match(out[-1]):
        out.pop()
    return out


def functions_of(objdump_path, path, layout_id=None):
    return parse(objdump.disassemble(objdump_path, path), layout_id)


def compare(left, right, left_name="left", right_name="right"):
    """[(function, unified diff lines)] of the functions that differ or exist on one side only."""
    problems = []
    for fname in sorted(set(left) | set(right)):
        if fname not in right:
            problems.append((fname, [f"only in {left_name}"]))
        elif fname not in left:
            problems.append((fname, [f"only in {right_name}"]))
        elif left[fname] != right[fname]:
            diff = list(difflib.unified_diff(left[fname], right[fname], left_name, right_name,
                                             lineterm="", n=2))
            problems.append((fname, diff))
    return problems


def fp_uses(fmt, functions):
    """[(function, instruction)] naming a floating-point/SIMD register."""
    pattern = next((p for f, p in _FP_PATTERNS if f.search(fmt)), None)
    if pattern is None:
        raise InputError(f"no floating-point register pattern for object format {fmt}")
    return [(fname, insn) for fname, insns in functions.items() for insn in insns
            if not insn.startswith("    reloc ") and pattern.search(re.sub(r"<[^>]*>", "", insn))]


def read_manifest(path):
    """{layout id: [object]} from bench/CMakeLists.txt's manifest."""
    objects = {}
    for number, line in enumerate(fsio.read_text(path, "manifest").splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split(None, 1)
        if len(fields) != 2:
            raise InputError(f"{path}:{number}: expected '<layout id> <object>', got {line!r}")
        objects.setdefault(fields[0], []).append(fields[1].strip())
    if not objects:
        raise InputError(f"{path}: no objects listed")
    return objects


def cmd_twins(args):
    manifest = read_manifest(args.manifest)
    failed, checked = 0, 0
    for pair in args.pair:
        left_id, sep, right_id = pair.partition("=")
        if not sep or not left_id or not right_id:
            raise InputError(f"--pair {pair!r}: expected LAYOUT=LAYOUT")
        for layout in (left_id, right_id):
            if layout not in manifest:
                raise InputError(f"{args.manifest}: no objects of layout {layout}")
        right_by_name = {os.path.basename(o): o for o in manifest[right_id]}
        for left_obj in manifest[left_id]:
            base = os.path.basename(left_obj)
            if base not in right_by_name:
                raise InputError(f"{args.manifest}: {right_id} has no {base}")
            fmt, left = functions_of(args.objdump, left_obj, left_id)
            _, right = functions_of(args.objdump, right_by_name[base], right_id)
            if not left:
                raise InputError(f"{left_obj}: no functions disassembled")
            for fname in args.skip or []:
                left.pop(fname, None)
                right.pop(fname, None)
            problems = compare(left, right, f"{left_id}/{base}", f"{right_id}/{base}")
            checked += 1
            if problems:
                failed += 1
                print(f"DIFFER {left_id} vs {right_id} {base} ({fmt}): "
                      f"{len(problems)} of {len(set(left) | set(right))} functions")
                for fname, diff in problems:
                    print(f"  {fname}:")
                    print("\n".join("    " + d for d in diff))
            else:
                print(f"same   {left_id} vs {right_id} {base} ({fmt}): "
                      f"{len(left)} functions, {sum(map(len, left.values()))} instructions")
    print(f"{fsio.prog()}: {checked - failed} of {checked} object pairs compile to the same instructions")
    return 1 if failed else 0


def cmd_no_fp(args):
    paths = list(args.objects or [])
    if args.manifest:
        paths += [o for objs in read_manifest(args.manifest).values() for o in objs]
    if not paths:
        raise InputError("no objects given")
    total = 0
    for path in paths:
        fmt, functions = functions_of(args.objdump, path)
        hits = fp_uses(fmt, functions)
        total += len(hits)
        for fname, insn in hits[:5]:
            print(f"FP/SIMD {path}: {fname}: {insn}")
    print(f"{fsio.prog()}: {len(paths)} objects, {total} instructions with FP/SIMD registers")
    return 1 if total else 0


def cmd_diff(args):
    sides = []
    for spec in (args.left, args.right):
        path, sep, fname = spec.rpartition(":")
        if not sep or not path:
            raise InputError(f"{spec!r}: expected OBJECT:FUNCTION")
        _, functions = functions_of(args.objdump, path)
        if fname not in functions:
            raise InputError(f"{path}: no function {fname}")
        sides.append(functions[fname])
    print("\n".join(difflib.unified_diff(sides[0], sides[1], args.left, args.right, lineterm="")))
    return 0


def symbol_addresses(objdump_path, path, names):
    """{name: address} of NAMES in PATH's symbol table (objdump -t); InputError if one is missing."""
    if not os.path.isfile(path):
        raise InputError(f"{path}: no such program")
    found = {}
    for line in fsio.run([objdump_path, "-t", path]).splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[-1] in names and re.fullmatch(r"[0-9a-f]+", parts[0]):
            found[parts[-1]] = int(parts[0], 16)
    if missing := [n for n in names if n not in found]:
        raise InputError(f"{path}: no symbol {missing[0]}")
    return found


def cmd_placement(args):
    names = args.symbol
    layouts = {}
    for path in args.programs:
        addr = symbol_addresses(args.objdump, path, names)
        layouts[path] = tuple(addr[n] - addr[names[0]] for n in names)
    same = [(a, b) for i, a in enumerate(args.programs) for b in args.programs[i + 1:] if layouts[a] == layouts[b]]
    for a, b in same:
        print(f"same placement: {a} and {b}: {', '.join(names[1:])} at {layouts[a][1:]} from {names[0]}")
    lines = {tuple(off % 4096 // 64 for off in layout) for layout in layouts.values()}
    print(f"{fsio.prog()}: {len(args.programs)} programs, {len(set(layouts.values()))} placements of "
          f"{len(names)} functions ({len(lines)} distinct in cache lines of a 4 KiB page)")
    return 0 if placements_drawn(layouts) else 1


def placements_drawn(layouts):
    """Whether LAYOUTS ({program: offsets}) look drawn anew per program.  Independent draws may coincide
    (a distance is a sum of 64-byte-aligned sizes; of twenty programs two met by chance), a placement
    the link orders do not draw (a rotation kept every distance) puts many programs at one: at most one
    coincidence in ten programs, and no placement shared by more than two."""
    shared = collections.Counter(layouts.values())
    return len(shared) >= len(layouts) - len(layouts) // 10 and max(shared.values(), default=0) <= 2


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    tool = argparse.ArgumentParser(add_help=False)
    tool.add_argument("--objdump", required=True)
    t = sub.add_parser("twins", parents=[tool], help="same instructions for two layouts' objects")
    t.add_argument("--manifest", required=True)
    t.add_argument("--pair", action="append", required=True, help="LAYOUT=LAYOUT, e.g. v6_timespec=v6_timespec64")
    t.add_argument("--skip", action="append", help="a function not to compare (not timed), e.g. torn_writer_main")
    f = sub.add_parser("no-fp", parents=[tool], help="no FP/SIMD register in any instruction")
    f.add_argument("--manifest")
    f.add_argument("objects", nargs="*")
    d = sub.add_parser("diff", parents=[tool], help="diff of two functions")
    d.add_argument("left", help="OBJECT:FUNCTION")
    d.add_argument("right", help="OBJECT:FUNCTION")
    pl = sub.add_parser("placement", parents=[tool], help="link orders place the given functions differently")
    pl.add_argument("--symbol", action="append", required=True, help="a function; the first is the origin")
    pl.add_argument("programs", nargs="+")
    args = parser.parse_args(argv)
    if args.cmd == "placement" and (len(args.symbol) < 2 or len(args.programs) < 2):
        raise InputError("placement: at least two --symbol and two programs")
    return {"twins": cmd_twins, "no-fp": cmd_no_fp, "diff": cmd_diff, "placement": cmd_placement}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(run_main(main))
