"""What was built for a board: a static executable of the bundle's ABI (core.abis)."""
import struct

from y2038lab.core.fsio import InputError

PT_INTERP = 3


def check_static(path, abi):
    """InputError unless PATH is a static executable of ABI: its ELF class and machine, no ELF interpreter."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
            if len(head) < 52 or head[:4] != b"\x7fELF":
                raise InputError(f"{path}: not an ELF file")
            elf_class, data = head[4], head[5]
            endian = "<" if data == 1 else ">"
            machine = struct.unpack_from(endian + "H", head, 18)[0]
            if elf_class not in (1, 2):
                raise InputError(f"{path}: unknown ELF class {elf_class}")
            word, at_phoff, at_phnum = {1: ("I", 28, 42), 2: ("Q", 32, 54)}[elf_class]  # e_phoff, e_phentsize
            phoff, = struct.unpack_from(endian + word, head, at_phoff)
            phentsize, phnum = struct.unpack_from(endian + "HH", head, at_phnum)
            interp = False
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                p_type, = struct.unpack(endian + "I", f.read(4))
                interp = interp or p_type == PT_INTERP
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from err
    if (elf_class, machine) != (abi.elf_class, abi.elf_machine):
        raise InputError(f"{path}: ELF class {elf_class} machine {machine}, expected "
                         f"{abi.elf_class}/{abi.elf_machine} for {abi.name}")
    if interp:
        raise InputError(f"{path}: dynamically linked (has an ELF interpreter); a bundle needs -static")
