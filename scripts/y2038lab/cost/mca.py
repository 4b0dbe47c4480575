"""Core models: llvm-mca on the harness's inner loops, per ABI and CPU.

The loops (cost_loop_* in cost/cost_layout.c) are taken from the real per-layout objects (objdump),
from the loop's first instruction to its backward branch, and handed to llvm-mca as straight-line
code repeated.  llvm-mca's figures are a model's cycles, never a timing.

Two llvm-mca versions, both Debian 12's: the 32-bit and embedded cores run under llvm-mca 14
(package llvm; the obstacles below are LLVM 14's), and the x86_64 row, the model of this host's own
core that the validation row checks, under llvm-mca 19 (package llvm-19): LLVM 14 models AMD cores up
to Zen 3 only, LLVM 19 up to Zen 4, and takes -mcpu=znver5 with its Zen 4 model (Zn4* resources).

Known obstacles, handled and marked per cell (the `workaround` column):
 - Cortex-A7 and Cortex-A8 carry only instruction itineraries in LLVM 14, which llvm-mca cannot
   use: the cell says so, no figure;
 - the Cortex-A9 model cannot resolve LDM/STM (and PUSH/POP): they are split into one LDR/STR per
   register (same loads and stores, one instruction each), marked "ldm/stm split"; it has no DMB
   either (the seqcount read of i_size on 32-bit ABIs): DMBs are left out, marked "dmb removed";
 - Thumb-2 width suffixes (.w/.n) as objdump prints them are dropped (llvm's assembler picks the
   encoding; llvm-mca 14 crashes on some `ldr.w` post-index forms), which changes no instruction;
 - Thumb-2 IT blocks are rejected by llvm-mca 14: such a Thumb-2 loop gets no figure; the ARM-mode
   variant (armv7-a-arm) is the modelled armv7 code;
 - x86 folded loads (`add 0x60(%rbx),%rax`): llvm-mca (14 and 19) issues an instruction only once the producer of
   each register it reads has issued, so the load of a load-op waits for the ALU op that writes its
   register operand, and its whole latency (5 cycles on znver3) joins that register's chain; a core
   issues the load as soon as its address is ready and only the add waits (ReadAfterLd's 4-cycle
   advance, which llvm-mca applies only once the producer has issued).  Each folded load `OP mem, %reg`
   whose register's producer is an ALU op (a load or load-op producer issues early enough) is split into `mov mem, %scratch` + `OP %scratch, %reg` (the core's own load and ALU
   parts; a scratch register free at that point of the loop), marked "folded loads split"; the
   split costs one more instruction to dispatch and retire, and a physical register, where the core
   has one macro-op.  Only on x86_64, the models of the host's out-of-order core that the validation
   row checks; i686's (Atom in order, Silvermont and Goldmont two-wide) stay as llvm-mca gives them.
"""
import functools
import re
import subprocess
from dataclasses import dataclass

from y2038lab.core import abis, fsio
from y2038lab.core.fsio import InputError

# (cpu, triple) per ABI; armhf's triple follows the variant's instruction set.
MCA_CPUS = {
    "x86_64": [],  # this host's core: cpus_for()
    "i386": ["atom", "silvermont", "goldmont"],
    "armhf": ["cortex-a9", "cortex-a57", "cortex-a7", "cortex-a8"],
    "aarch64": ["cortex-a53", "cortex-a55", "cortex-a72"],
    "riscv64": ["sifive-u74"],
}
ITERATIONS = 1000
FIELD_RE = re.compile(r"^(Iterations|Instructions|Total Cycles|Block RThroughput):\s+([0-9.]+)\s*$", re.M)
REGLIST_RE = re.compile(r"\{([^}]*)\}")
# llvm-mca's host CPU names by AMD family (and model) for the validation row.
AMD_ZEN = (  # (family, first model, last model, generation)
    (0x17, 0x00, 0x2f, "znver1"), (0x17, 0x30, 0xff, "znver2"),
    (0x19, 0x00, 0x0f, "znver3"), (0x19, 0x10, 0x1f, "znver4"), (0x19, 0x20, 0x5f, "znver3"),
    (0x19, 0x60, 0xff, "znver4"), (0x1a, 0x00, 0xff, "znver5"),
)
# llvm-mca per ABI: the host's x86_64 core needs a newer LLVM than the rest (module docstring).
HOST_MCA, MCA = "llvm-mca-19", "llvm-mca"
HOST_MCA_ZEN = ("znver1", "znver2", "znver3", "znver4", "znver5")  # the -mcpu names it knows
HOST_MCA_SCHEDULED_AS = {"znver5": "Zen 4"}  # generations LLVM 19 schedules with another's model


@dataclass
class McaResult:
    cpu: str
    block_rthroughput: float = None
    cycles_per_iteration: float = None
    instructions: int = 0
    workaround: str = ""
    error: str = ""
    bottleneck: str = ""  # parse_bottleneck() and parse_stalls(): what bounds the loop in the model


def cpus_for(abi):
    """The CPUs modelled for ABI; x86_64 gets this host's core (the validation row):
    its Zen generation on AMD (the newest HOST_MCA knows when newer), else `native`."""
    if abi == "x86_64":
        zen = host_zen()
        return [zen[1]] if zen else ["native"]
    return MCA_CPUS[abi]


def triple_for(abi, variant_name):
    if abi == "armhf":
        return "armv7a-linux-gnueabihf" if variant_name.endswith("-arm") else "thumbv7a-linux-gnueabihf"
    return abis.ABIS[abi].mca_triple


def tool_for(triple):
    """The llvm-mca that models TRIPLE's cores: HOST_MCA for x86_64, MCA for the rest."""
    return HOST_MCA if triple.startswith("x86_64") else MCA


@functools.lru_cache(maxsize=None)
def mca_version(tool=MCA):
    try:
        out = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, text=True, check=False).stdout
    except OSError:
        return None
    m = re.search(r"LLVM version (\S+)", out)
    return m.group(1) if m else "unknown"


def host_zen(text=None):
    """(generation, the -mcpu HOST_MCA is given, description) of an AMD Zen host, else None.

    TEXT is /proc/cpuinfo's (read when None)."""
    text = fsio.read_or_none("/proc/cpuinfo") if text is None else text
    fields = dict(re.findall(r"^(vendor_id|cpu family|model|model name)\s*:\s*(.+)$", text or "", re.M))
    if fields.get("vendor_id") != "AuthenticAMD":
        return None
    family, model = int(fields["cpu family"]), int(fields["model"])
    for fam, lo, hi, gen in AMD_ZEN:
        if fam == family and lo <= model <= hi:
            used = gen if gen in HOST_MCA_ZEN else HOST_MCA_ZEN[-1]
            return gen, used, f"{fields.get('model name', '?')}, family {family:#x} model {model:#x}"
    return None


def split_ldm_stm(line):
    """ARM-mode LDM/STM/PUSH/POP as one LDR/STR per register; None if not one."""
    parts = line.split(None, 1)
    regs_m = len(parts) == 2 and REGLIST_RE.search(parts[1])
    if not regs_m or not re.match(r"^(ldm|stm|push|pop)(ia|ib|da|db|fd|ea)?$", parts[0]):
        return None
    mnem, ops = parts
    regs = [r.strip() for r in regs_m.group(1).split(",")]
    if mnem in ("push", "pop"):
        base, mode, load = "sp!", "db" if mnem == "push" else "ia", mnem == "pop"
    else:
        base, mode, load = ops.split(",")[0].strip(), mnem[3:] or "ia", mnem.startswith("ldm")
    wb, base = base.endswith("!"), base.rstrip("!")
    op, step = "ldr" if load else "str", 4 if mode in ("ia", "ib", "fd") else -4
    out = []
    for k, reg in enumerate(regs if step > 0 else regs[::-1]):
        if wb:  # post/pre-indexed write-back, one register at a time
            out.append(f"\t{op}\t{reg}, [{base}], #{step}" if step > 0 else f"\t{op}\t{reg}, [{base}, #{step}]!")
        else:
            offset = k * step + (4 if mode == "ib" else -4 if mode == "db" else 0)
            out.append(f"\t{op}\t{reg}, [{base}, #{offset}]")
    return out


# x86 general registers: family -> (64-bit name, 32-bit name); the 16- and 8-bit names map to the family.
X86_GPRS = {**{f"r{c}x": (f"r{c}x", f"e{c}x", f"{c}x", f"{c}l", f"{c}h") for c in "abcd"},
            **{f"r{n}": (f"r{n}", f"e{n}", n, f"{n}l") for n in ("si", "di", "bp", "sp")},
            **{f"r{k}": (f"r{k}", f"r{k}d", f"r{k}w", f"r{k}b") for k in range(8, 16)}}
X86_FAMILY = {name: fam for fam, names in X86_GPRS.items() for name in names}
# Scratch candidates, in order (never %rsp); i386 has only the 32-bit names of those without a digit.
X86_SCRATCH = ("r11", "r10", "r9", "r8", "rsi", "rdi", "rcx", "rdx", "rax", "rbx", "rbp",
               "r12", "r13", "r14", "r15")
X86_FOLDABLE_RE = re.compile(r"^(add|sub|and|or|xor|adc|sbb|cmp|imul|cmov[a-z]+)[lq]?$")
X86_WRITE_ONLY_RE = re.compile(r"^(mov[a-z]*|lea[lq]?)$")  # a 32/64-bit register destination is only written
X86_EXPLICIT_RE = re.compile(r"^(add|sub|and|or|xor|adc|sbb|cmp|test|inc|dec|neg|not|s[ah][lr]|ro[lr]|imul"
                             r"|cmov[a-z]+|set[a-z]+|bt[a-z]*|j[a-z]+|mov[a-z]*|lea|push|pop|nop)[bwlq]?$")
X86_REG_RE = re.compile(r"%([a-z0-9]+)")


def x86_operands(text):
    """AT&T operands split at the commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def x86_access(mnemonic, operands):
    """(families read, families written only) by one instruction; conservative where unsure:
    an instruction outside X86_EXPLICIT_RE also reads the implicit rax, rcx, rdx, rsi, rdi."""
    ops = x86_operands(operands)
    regs = [{X86_FAMILY[r] for r in X86_REG_RE.findall(op) if r in X86_FAMILY} for op in ops]
    dst = ops[-1] if ops else ""
    write_only = set()
    if X86_WRITE_ONLY_RE.match(mnemonic) and len(ops) == 2 and re.fullmatch(r"%[a-z0-9]+", dst) \
            and dst[1:] in X86_FAMILY and dst[1:] in X86_GPRS[X86_FAMILY[dst[1:]]][:2]:
        write_only = regs[-1]
        regs = regs[:-1]
    read = set().union(*regs) if regs else set()
    if not X86_EXPLICIT_RE.match(mnemonic):
        read |= {"rax", "rcx", "rdx", "rsi", "rdi"}
    return read, write_only


def x86_scratch(insns, i, x86_64):
    """A register family free at instruction I of the loop INSNS ([(mnemonic, operands)]): not an
    operand of I, and the first instruction after it (round the loop) that touches it only writes it."""
    accesses = [x86_access(m, o) for m, o in insns]
    for fam in X86_SCRATCH if x86_64 else [f for f in X86_SCRATCH if not f[1].isdigit()]:  # i386: no r8-r15
        if fam in accesses[i][0] | accesses[i][1]:
            continue
        for k in range(1, len(insns) + 1):
            read, written = accesses[(i + k) % len(insns)]
            if fam in read:
                break
            if fam in written or k == len(insns):
                return fam
    return None


def x86_writer_loads(insns, i, fam):
    """Whether the last writer of FAM before instruction I (round the loop) reads memory: a load or a
    load-op issues while its data are on the way, early enough for llvm-mca to apply the consumer's
    ReadAfterLd advance; an ALU op issues one cycle before its result, too late for it."""
    for k in range(1, len(insns) + 1):
        mnemonic, operands = insns[(i - k) % len(insns)]
        ops = x86_operands(operands)
        dst = ops[-1] if ops else ""
        explicit = X86_EXPLICIT_RE.match(mnemonic) and not re.match(r"^(cmp|test|bt|j|push|nop)", mnemonic)
        if explicit and re.fullmatch(r"%[a-z0-9]+", dst) and X86_FAMILY.get(dst[1:]) == fam:
            return any("(" in op for op in ops[:-1])
        if not X86_EXPLICIT_RE.match(mnemonic) and fam in ("rax", "rcx", "rdx", "rsi", "rdi"):
            return False
    return False


def split_folded_loads(source, x86_64=True):
    """(source, split, left): every `OP mem, %reg` of an x86 loop as a load into a free scratch register
    and `OP %scratch, %reg` (the module's docstring says why); LEFT: those with no free register."""
    lines = source.splitlines()
    insns = [(line.split("\t")[1], (line.split("\t") + [""])[2]) for line in lines if line.startswith("\t")]
    out, split, left, k = [], 0, 0, -1
    for line in lines:
        if not line.startswith("\t"):
            out.append(line)
            continue
        k += 1
        mnemonic, operands = insns[k]
        ops = x86_operands(operands)
        if not (X86_FOLDABLE_RE.match(mnemonic) and len(ops) == 2 and "(" in ops[0]
                and re.fullmatch(r"%[a-z0-9]+", ops[1]) and ops[1][1:] in X86_FAMILY):
            out.append(line)
            continue
        if x86_writer_loads(insns, k, X86_FAMILY[ops[1][1:]]):
            out.append(line)  # its producer issues in time: llvm-mca keeps the advance
            continue
        width = X86_GPRS[X86_FAMILY[ops[1][1:]]].index(ops[1][1:])
        fam = x86_scratch(insns, k, x86_64) if width < 2 else None
        if fam is None:
            left += 1
            out.append(line)
            continue
        scratch = X86_GPRS[fam][width]
        out += [f"\tmov\t{ops[0]},%{scratch}", f"\t{mnemonic}\t%{scratch},{ops[1]}"]
        split += 1
    return "\n".join(out) + "\n", split, left


def workaround_source(source, cpu, triple):
    """(source, workaround text) for CPU: the module's Thumb-2 suffixes and Cortex-A9 rewrites."""
    lines, split, dmb = [], 0, 0
    for line in source.splitlines():
        if triple.startswith("thumb"):
            line = re.sub(r"^(\s*[a-z]+)\.[wn]\b", r"\1", line)
        parts = split_ldm_stm(line.strip()) if cpu == "cortex-a9" else None
        if cpu == "cortex-a9" and line.split()[:1] == ["dmb"]:
            dmb += 1
        else:
            split += bool(parts)
            lines += parts or [line]
    notes = [f"ldm/stm split ({split} instruction{'s' if split > 1 else ''})"] if split else []
    if triple.startswith("x86_64"):  # the host's out-of-order core (module docstring); not i686's Atom-class ones
        text, folded, left = split_folded_loads("\n".join(lines) + "\n")
        lines = text.splitlines()
        if folded:
            notes.append(f"folded loads split ({folded}" + (f"; {left} left folded: no free register" if left else "")
                         + ")")
        elif left:
            notes.append(f"folded loads left folded ({left}: no free register)")
    if dmb:
        notes.append(f"dmb removed ({dmb}: the A9 model has none)")
    return "\n".join(lines) + "\n", "; ".join(notes)


def parse_mca(text):
    fields = dict(FIELD_RE.findall(text))
    if len(fields) < 4:  # FIELD_RE's four fields
        return None
    iterations = int(fields["Iterations"])
    return (float(fields["Block RThroughput"]), int(fields["Total Cycles"]) / iterations,
            int(fields["Instructions"]) // iterations)


BOTTLENECK_RE = re.compile(r"^\s*(?:- )?([A-Za-z0-9 ]+?)\s*:?\s*\[\s*([0-9.]+)%\s*\]\s*$", re.M)


def parse_bottleneck(text):
    """What bounds a loop in llvm-mca's -bottleneck-analysis TEXT, as words: "register
    dependencies 80 %" or "resource pressure 99 % (Zn3Store 99 %)"; "" when it names none."""
    start = text.find("Throughput Bottlenecks:")
    if start < 0:
        return ""
    end = text.find("Critical sequence", start)
    rows = BOTTLENECK_RE.findall(text[start:end if end > 0 else len(text)])
    kinds = {name: float(pct) for name, pct in rows
             if name in ("Resource Pressure", "Register Dependencies", "Memory Dependencies")}
    units = {name: float(pct) for name, pct in rows if name not in kinds and name != "Data Dependencies"}
    if not kinds or max(kinds.values()) == 0:
        return ""
    kind = max(kinds, key=kinds.get)
    text = f"{kind.lower()} {kinds[kind]:.0f} %"
    if kind == "Resource Pressure" and units:
        top = max(units.values())
        text += " (" + ", ".join(f"{u} {p:.0f} %" for u, p in units.items() if p >= top - 1) + ")"
    return text


STALL_RE = re.compile(r"^(RAT|RCU|SCHEDQ|LQ|SQ|GROUP|USH)\s+- [^:]+:\s+\d+\s+\(([0-9.]+)%\)\s*$", re.M)
STALLS = {"RAT": "physical registers", "RCU": "reorder buffer", "SCHEDQ": "scheduler queue", "LQ": "load queue",
          "SQ": "store queue", "GROUP": "dispatch group", "USH": "structural hazard"}


def parse_stalls(text):
    """What stalled dispatch in llvm-mca's -dispatch-stats TEXT, 10 % of the cycles or more, as words:
    "dispatch stalled: physical registers 31 %"; "" when nothing did."""
    rows = [(STALLS[name], float(pct)) for name, pct in STALL_RE.findall(text) if float(pct) >= 10]
    return "dispatch stalled: " + ", ".join(f"{what} {pct:.0f} %" for what, pct in rows) if rows else ""


def run_mca(source, cpu, triple):
    """One llvm-mca run: McaResult (error set instead of figures when impossible)."""
    if re.search(r"^\s*it[te]*\s", source, re.M) and triple.startswith("thumb"):
        return McaResult(cpu, workaround="not modelled: Thumb-2 IT block (llvm-mca 14 rejects it; "
                                         "see the armv7-a-arm rows)", error="it block")
    text, workaround = workaround_source(source, cpu, triple)
    cmd = [tool_for(triple), f"-mtriple={triple}", f"-mcpu={cpu}", f"-iterations={ITERATIONS}",
           "-resource-pressure=false", "-instruction-info=false", "-bottleneck-analysis", "-dispatch-stats"]
    try:
        proc = subprocess.run(cmd, input=text, capture_output=True, text=True, check=False)
    except OSError as err:
        raise InputError(f"{cmd[0]}: cannot run ({err.strerror or err}); Debian packages llvm and llvm-19") from err
    if proc.returncode != 0:
        message = " ".join(proc.stderr.split())
        if "itineraries" in message:
            return McaResult(cpu, workaround="no model: LLVM 14 has only itineraries for this core, "
                                             "which llvm-mca cannot use", error="no model")
        return McaResult(cpu, workaround=f"llvm-mca failed: {message[:160]}", error="failed")
    if (parsed := parse_mca(proc.stdout)) is None:
        raise InputError(f"{' '.join(cmd)}: output without the summary fields")
    bound = "; ".join(t for t in (parse_bottleneck(proc.stdout), parse_stalls(proc.stdout)) if t)
    return McaResult(cpu, *parsed, workaround, bottleneck=bound)


STORE_PROBE = "\tmov\t%rcx,0x60(%rbx)\n\tmov\t%rdx,0x68(%rbx)\n\tmov\t%rcx,0x80(%rbx)\n\tmov\t%rdx,0x88(%rbx)\n"


@functools.lru_cache(maxsize=None)
def store_rate(cpu):
    """Independent 8-byte stores per cycle in CPU's x86_64 model (llvm-mca on four of them); None
    when llvm-mca gives no figure."""
    r = run_mca(STORE_PROBE, cpu, "x86_64-linux-gnu")
    return r.instructions / r.cycles_per_iteration if r.cycles_per_iteration else None
