"""The target ABIs a board bundle is made for, and checks of what was built.

One row per ABI: the CMake preset of its cross build, Debian's name for the
architecture (dpkg-buildflags, apt), the GNU triplet of its cross compilers,
the qemu-user program that runs it for smoke tests, and the ELF machine its
executables must carry.
"""
import collections
import struct

from y2038lab.core.fsio import InputError

Abi = collections.namedtuple("Abi", "name preset deb_arch triplet qemu elf_machine elf_class")

# e_machine: EM_386 3, EM_ARM 40, EM_AARCH64 183, EM_RISCV 243; ELFCLASS32 1, ELFCLASS64 2.
ABIS = {
    "armhf": Abi("armhf", "armhf", "armhf", "arm-linux-gnueabihf", "qemu-arm", 40, 1),
    "aarch64": Abi("aarch64", "aarch64", "arm64", "aarch64-linux-gnu", "qemu-aarch64", 183, 2),
    "riscv64": Abi("riscv64", "riscv64", "riscv64", "riscv64-linux-gnu", "qemu-riscv64", 243, 2),
    "i386": Abi("i386", "i686", "i386", "i686-linux-gnu", "qemu-i386", 3, 1),
}
# What users may type for an ABI.
ALIASES = {"i686": "i386", "arm64": "aarch64", "arm": "armhf"}


def abi_of(name):
    """The Abi row for NAME (or an alias); InputError for anything else."""
    key = ALIASES.get(name, name)
    if key not in ABIS:
        raise InputError(f"unknown ABI '{name}' (one of: {', '.join(ABIS)})")
    return ABIS[key]


PT_INTERP = 3


def elf_facts(path):
    """(class, machine, has_interpreter) of the ELF executable at PATH."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 52 or head[:4] != b"\x7fELF":
                raise InputError(f"{path}: not an ELF file")
            elf_class, data = head[4], head[5]
            endian = "<" if data == 1 else ">"
            machine = struct.unpack_from(endian + "H", head, 18)[0]
            if elf_class == 1:
                phoff, = struct.unpack_from(endian + "I", head, 28)
                phentsize, phnum = struct.unpack_from(endian + "HH", head, 42)
            elif elf_class == 2:
                phoff, = struct.unpack_from(endian + "Q", head, 32)
                phentsize, phnum = struct.unpack_from(endian + "HH", head, 54)
            else:
                raise InputError(f"{path}: unknown ELF class {elf_class}")
            interp = False
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                p_type, = struct.unpack(endian + "I", f.read(4))
                interp = interp or p_type == PT_INTERP
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from err
    return elf_class, machine, interp


def check_static(path, abi):
    """InputError unless PATH is a static executable of ABI (no ELF interpreter)."""
    elf_class, machine, interp = elf_facts(path)
    if (elf_class, machine) != (abi.elf_class, abi.elf_machine):
        raise InputError(f"{path}: ELF class {elf_class} machine {machine}, expected "
                         f"{abi.elf_class}/{abi.elf_machine} for {abi.name}")
    if interp:
        raise InputError(f"{path}: dynamically linked (has an ELF interpreter); a bundle needs -static")
