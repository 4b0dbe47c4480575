#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""disasm_test.py - y2038lab.disasm on captured objdump -d -r output.

The twin check must call two copies of one function at different addresses
equal, and must not call equal what differs by one instruction (the cltq of
issue 17), a swapped operand, or a function present on one side only.
riscv64 objects keep local labels: they must not split functions, and their
numbers must not matter.  The FP check must see FP/SIMD registers on each
architecture and nothing in integer code.
"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from y2038lab.bench import disasm  # noqa: E402
from y2038lab.core.fsio import InputError  # noqa: E402

X86_TIMESPEC = """
x.o:     file format elf64-x86-64


Disassembly of section .text:

0000000000000b40 <accessor_set_mtime_v6_timespec>:
     b40:	push   %rbx
     b41:	call   b46 <accessor_set_mtime_v6_timespec+0x6>
			b42: R_X86_64_PLT32	bench_keep_running_batch-0x4
     b46:	lea    0x0(%rip),%rdi        # b4d <accessor_set_mtime_v6_timespec+0xd>
			b49: R_X86_64_PC32	.LC1-0x4
     b4d:	and    $0xf,%eax
     b50:	imul   $0x270,%rax,%rax
     b57:	mov    %rdi,0x68(%rax)
     b5b:	jne    b4d <accessor_set_mtime_v6_timespec+0xd>
     b5d:	pop    %rbx
     b5e:	ret
     b5f:	nop

0000000000000b60 <accessor_fixed_clock>:
     b60:	mov    (%rdi),%rax
     b63:	ret
     b64:	data16 cs nopw 0x0(%rax,%rax,1)
"""

# The same two functions, 0x100 bytes further on, named for timespec64.
X86_TIMESPEC64 = (X86_TIMESPEC.replace("v6_timespec", "v6_timespec64")
                  .replace("b4", "c4").replace("b5", "c5").replace("b6", "c6"))


class TwinTest(unittest.TestCase):
    def parse(self, text, layout):
        return disasm.parse(text, layout)

    def test_same_code_at_other_addresses_is_equal(self):
        fmt, a = self.parse(X86_TIMESPEC, "v6_timespec")
        _, b = self.parse(X86_TIMESPEC64, "v6_timespec64")
        self.assertEqual(fmt, "elf64-x86-64")
        self.assertEqual(sorted(a), ["accessor_fixed_clock", "accessor_set_mtime_@"])
        self.assertEqual(disasm.compare(a, b), [])
        # The loop's back branch is an offset in the function, the call a symbol.
        body = a["accessor_set_mtime_@"]
        self.assertIn("jne <.+0xd>", body)
        self.assertIn("    reloc R_X86_64_PLT32 bench_keep_running_batch-0x4", body)
        self.assertIn("call <reloc>", body)  # the relocation names the target, not objdump
        self.assertNotIn("nop", body[-1])  # trailing padding dropped

    def test_one_extra_instruction_differs(self):
        _, a = self.parse(X86_TIMESPEC, "v6_timespec")
        _, b = self.parse(X86_TIMESPEC64.replace("     c50:	imul", "     c4f:	cltq\n     c50:	imul"),
                          "v6_timespec64")
        problems = disasm.compare(a, b, "timespec", "timespec64")
        self.assertEqual([name for name, _ in problems], ["accessor_set_mtime_@"])
        self.assertIn("+cltq", problems[0][1])

    def test_swapped_operands_and_missing_function_differ(self):
        _, a = self.parse(X86_TIMESPEC, "v6_timespec")
        _, b = self.parse(X86_TIMESPEC64.replace("mov    (%rdi),%rax", "mov    %rax,(%rdi)"), "v6_timespec64")
        self.assertEqual([n for n, _ in disasm.compare(a, b)], ["accessor_fixed_clock"])
        del b["accessor_fixed_clock"]
        self.assertEqual(disasm.compare(a, b, "L", "R"), [("accessor_fixed_clock", ["only in L"])])

    def test_other_relocation_target_differs(self):
        _, a = self.parse(X86_TIMESPEC, "v6_timespec")
        _, b = self.parse(X86_TIMESPEC64.replace("bench_keep_running_batch", "bench_keep_running"),
                          "v6_timespec64")
        self.assertEqual([n for n, _ in disasm.compare(a, b)], ["accessor_set_mtime_@"])


RISCV = """
y.o:     file format elf64-littleriscv


Disassembly of section .text:

000000000000003e <load_bench_v6_{layout}>:
  3e:	add	sp,sp,-288
  42:	lui	s1,0x5
  46:	add	a1,s1,-512 # {junk} <.LASF+0x30{n}>
  4a:	auipc	ra,0x0
			4a: R_RISCV_CALL_PLT	bench_skip_with_error
			4a: R_RISCV_RELAX	*ABS*

000000000000004e <.LVL{n}>:
  4e:	beqz	a0,58 <.L{n}>
			4e: R_RISCV_BRANCH	.L{n}
  52:	fld	fa5,0(a0)
  56:	ret

0000000000000058 <.L{n}>:
  58:	ret
"""


class RiscvTest(unittest.TestCase):
    def test_local_labels_continue_the_function(self):
        fmt, a = disasm.parse(RISCV.format(layout="timespec", n=7, junk="4e00"), "v6_timespec")
        _, b = disasm.parse(RISCV.format(layout="timespec64", n=12, junk="4f00"), "v6_timespec64")
        self.assertEqual(fmt, "elf64-littleriscv")
        self.assertEqual(list(a), ["load_bench_@"])
        self.assertEqual(disasm.compare(a, b), [])
        self.assertIn("beqz a0,<.+0x1a>", a["load_bench_@"])
        self.assertIn("add a1,s1,-512", a["load_bench_@"])  # objdump's guess dropped

    def test_fp_register_found(self):
        fmt, a = disasm.parse(RISCV.format(layout="timespec", n=7, junk="4e00"), "v6_timespec")
        self.assertEqual(disasm.fp_uses(fmt, a), [("load_bench_@", "fld fa5,0(a0)")])


class FpTest(unittest.TestCase):
    CASES = [
        ("elf64-x86-64", "movq %xmm0,%rax", True), ("elf64-x86-64", "movdqu (%rdi),%xmm1", True),
        ("elf32-i386", "fldl 0x4(%esp)", True), ("elf32-i386", "fstp %st(0)", True),
        ("elf64-x86-64", "mov %rdi,0x68(%rax)", False), ("elf64-x86-64", "lea 0x0(%rip),%rsi", False),
        ("elf64-littleaarch64", "ldr q0, [x1]", True), ("elf64-littleaarch64", "fmov d0, x1", True),
        ("elf64-littleaarch64", "movi v0.4s, #0x0", True), ("elf64-littleaarch64", "ldp x0, x1, [sp, #16]", False),
        ("elf64-littleaarch64", "add x0, x0, #0xd0", False), ("elf64-littleaarch64", "b.ne 40 <.+0x40>", False),
        ("elf32-littlearm", "vldr d0, [r3]", True), ("elf32-littlearm", "vmov s0, r1", True),
        ("elf32-littlearm", "ldrd r2, [r0, #8]", False), ("elf32-littlearm", "str fp, [sp, #-4]!", False),
        ("elf64-littleriscv", "fmv.d.x fa0,a1", True), ("elf64-littleriscv", "fence rw,rw", False),
        ("elf64-littleriscv", "sd s0,8(sp)", False),
    ]

    def test_patterns(self):
        for fmt, insn, fp in self.CASES:
            with self.subTest(fmt=fmt, insn=insn):
                self.assertEqual(bool(disasm.fp_uses(fmt, {"f": [insn]})), fp)

    def test_unknown_format_is_an_input_error(self):
        with self.assertRaises(InputError):
            disasm.fp_uses("elf32-sparc", {"f": ["nop"]})


class PlacementTest(unittest.TestCase):
    def test_a_chance_coincidence_passes_a_shared_placement_does_not(self):
        drawn = {f"p{k}": (0, 64 * k) for k in range(20)}
        self.assertTrue(disasm.placements_drawn(drawn))
        self.assertTrue(disasm.placements_drawn(dict(drawn, p7=(0, 64 * 3))))  # one pair by chance
        self.assertTrue(disasm.placements_drawn(dict(drawn, p7=(0, 64 * 3), p9=(0, 64))))  # two in twenty
        self.assertFalse(disasm.placements_drawn(dict(drawn, p7=(0, 0), p9=(0, 0))))  # three at one (with p0)
        rotated = {f"p{k}": (0, 64 * (k % 2)) for k in range(10)}  # even orders alike, odd ones alike
        self.assertFalse(disasm.placements_drawn(rotated))


class CommandLineTest(unittest.TestCase):
    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
        return subprocess.run([sys.executable, "-m", "y2038lab", "disasm", *args], capture_output=True,
                              text=True, env=env)

    def test_bad_manifest_and_missing_object(self):
        with tempfile.TemporaryDirectory() as tmp:
            manifest = os.path.join(tmp, "objects.txt")
            with open(manifest, "w", encoding="utf-8") as f:
                f.write("v6_timespec\n")
            proc = self.run_cli("twins", "--objdump", "objdump", "--manifest", manifest, "--pair", "a=b")
            self.assertEqual(proc.returncode, 2)
            self.assertIn("expected '<layout id> <object>'", proc.stderr)
            with open(manifest, "w", encoding="utf-8") as f:
                f.write(f"a {tmp}/missing.o\nb {tmp}/missing.o\n")
            proc = self.run_cli("twins", "--objdump", "objdump", "--manifest", manifest, "--pair", "a=b")
            self.assertEqual(proc.returncode, 2)
            self.assertIn("no such object file", proc.stderr)
            proc = self.run_cli("twins", "--objdump", "objdump", "--manifest", manifest, "--pair", "a")
            self.assertEqual(proc.returncode, 2)
            self.assertIn("expected LAYOUT=LAYOUT", proc.stderr)


if __name__ == "__main__":
    unittest.main()
