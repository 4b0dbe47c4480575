"""The ABIs the lab builds for: one row each, every fact the scripts need about one.

Columns: the CMake preset (scripts/lab's CROSS_PRESETS, held equal by lab_test),
Debian's architecture, the GNU triplet, the qemu-user program, llvm-mca's triple
(armhf: per instruction set, cost/mca.py), the kernel's ARCH, arch/ folder and
defconfig, the ELF machine and class (2: LP64, where TWIN is REFERENCE's layout
twin).  The row order is every report's order.
"""
import collections

from y2038lab.core.fsio import InputError

Abi = collections.namedtuple("Abi", "name preset deb_arch triplet qemu mca_triple kernel_arch kernel_dir "
                                    "defconfig elf_machine elf_class")
ABIS = {a.name: a for a in (
    Abi("x86_64", "default", "amd64", "x86_64-linux-gnu", "qemu-x86_64", "x86_64-linux-gnu", "x86_64", "x86",
        "defconfig", 62, 2),
    Abi("i386", "i686", "i386", "i686-linux-gnu", "qemu-i386", "i686-linux-gnu", "i386", "x86", "defconfig", 3, 1),
    Abi("armhf", "armhf", "armhf", "arm-linux-gnueabihf", "qemu-arm", None, "arm", "arm", "multi_v7_defconfig",
        40, 1),
    Abi("aarch64", "aarch64", "arm64", "aarch64-linux-gnu", "qemu-aarch64", "aarch64-linux-gnu", "arm64", "arm64",
        "defconfig", 183, 2),
    Abi("riscv64", "riscv64", "riscv64", "riscv64-linux-gnu", "qemu-riscv64", "riscv64-linux-gnu", "riscv", "riscv",
        "defconfig", 243, 2),
)}
ALIASES = {"i686": "i386", "arm64": "aarch64", "arm": "armhf"}
LP64 = tuple(a for a, row in ABIS.items() if row.elf_class == 2)
ILP32 = tuple(a for a, row in ABIS.items() if row.elf_class == 1)
CROSS = tuple(a for a, row in ABIS.items() if row.preset != "default")   # what board bundles are made for
SUMMARY = ("x86_64", "i386", "armhf")   # README's size summary: the host and the two 32-bit ABIs


def of(name, among=ABIS):
    """The Abi row of NAME (or an alias) among AMONG; InputError for anything else."""
    key = ALIASES.get(name, name)
    if key not in among:
        raise InputError(f"unknown ABI '{name}' (one of: {', '.join(among)})")
    return ABIS[key]


def word(abi):
    """Bytes of a long (the slab's free pointer): 8 on LP64, else 4."""
    return 8 if abi in LP64 or abi not in ABIS else 4


def order(names):
    """NAMES in the table's order, unknown ones last by name."""
    return sorted(names, key=lambda a: (list(ABIS).index(a) if a in ABIS else len(ABIS), a))
